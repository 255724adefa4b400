"""What both forum parsers share: session ids removed from links without leaving stray
separators, page decoding, member ids and posts per page."""

import pytest
from conftest import WILD

from assistant.errors import LayoutError
from assistant.scrapers.common import (
    decode_html,
    first_most_common,
    layout_error,
    member_id,
    page_urls,
    per_page_from_links,
    per_page_from_offset,
    strip_session_ids,
    strip_session_ids_in_html,
)

SID = "55e8c3ab1d4c858b9880dd5cf114e78a"


@pytest.mark.parametrize(
    ("html", "clean"),
    [
        (f'<a href="./viewtopic.php?p=8&amp;sid={SID}#p8">', '<a href="./viewtopic.php?p=8#p8">'),
        (f'<a href="i.php?PHPSESSID={SID}&amp;msg=3">', '<a href="i.php?msg=3">'),
        (f'<a href="x.php?a=1&amp;sid={SID}&amp;b=2">', '<a href="x.php?a=1&amp;b=2">'),
        (f'<a href="x.php?sid={SID}">', '<a href="x.php">'),
        (f"i.php?PHPSESSID={SID};topic=3", "i.php?topic=3"),
        ("no session here &amp; sid=short", "no session here &amp; sid=short"),
    ],
)
def test_strip_session_ids_in_html(html: str, clean: str) -> None:
    assert strip_session_ids_in_html(html) == clean


def test_strip_session_ids_from_url() -> None:
    assert strip_session_ids(f"http://h/index.php?PHPSESSID={SID}&topic=2.15") == (
        "http://h/index.php?topic=2.15"
    )
    assert strip_session_ids(f"./viewtopic.php?t=2&start=15&sid={SID}") == (
        "./viewtopic.php?t=2&start=15"
    )


def test_decode_latin1_page_by_meta_charset() -> None:
    raw = (WILD / "smf20_geekhack_nostalgia_t92066_p1.html").read_bytes()
    with pytest.raises(UnicodeDecodeError):
        raw.decode("utf-8")
    text = decode_html(raw)
    assert "geekhack" in text.lower() and "\ufffd" not in text


def test_member_id_from_either_forums_profile_link() -> None:
    assert member_id("http://h/index.php?action=profile;u=61") == 61
    assert member_id("./memberlist.php?mode=viewprofile&amp;u=63") == 63
    assert member_id("./memberlist.php?mode=viewprofile&u=2&sid=x") == 2
    assert member_id("./memberlist.php?mode=team") is None


def test_posts_per_page_from_links_and_offsets() -> None:
    # page 2 at 15, page 3 at 30, page 5 at 60; the odd link (page 4 at 40) is outvoted
    assert per_page_from_links([(2, 15), (3, 30), (4, 40), (5, 60)]) == 15
    assert per_page_from_links([(1, 0)]) is None  # page 1 says nothing
    assert per_page_from_links([], stated=[25]) == 25
    assert per_page_from_offset(60, 5) == 15  # a last page linking only backwards
    assert per_page_from_offset(None, 5) is None and per_page_from_offset(60, 1) is None
    assert page_urls(3, 15, lambda start: f"t=2&start={start}") == (
        "t=2&start=0", "t=2&start=15", "t=2&start=30")


def test_layout_error_names_the_page_the_part_and_what_to_do() -> None:
    error = layout_error("http://h/t", "the author of post #p12", "the author was not found")
    assert isinstance(error, LayoutError) and error.what == "the author of post #p12"
    assert error.url == "http://h/t"
    assert str(error).startswith("http://h/t: the author was not found;")
    assert "report it" in str(error)


def test_the_most_common_value_is_most_common_1s_first_among_equals() -> None:
    # per_page_from_links: "the most common answer wins (ties: the first seen)"
    from collections import Counter
    from itertools import product

    for values in product([15, 20, 25], repeat=4):
        counts = Counter(values)
        assert first_most_common(counts) == counts.most_common(1)[0][0]
    assert first_most_common(Counter()) is None
    assert per_page_from_links([(2, 20), (2, 15)]) == 20  # a tie: the first seen
