"""Session ids are removed from links without leaving stray separators."""

import pytest
from conftest import WILD

from assistant.scrapers.common import decode_html, strip_session_ids, strip_session_ids_in_html

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
