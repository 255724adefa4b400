"""A topic page's text decoded only where it is looked at (`common.PageText`): lexbor reads
a UTF-8 page's own bytes, and what is read of the text (its start, its end, a few words)
is what the whole decoded text says, on every real page and on broken UTF-8."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from conftest import REALFORUM, WILD
from selectolax.lexbor import LexborHTMLParser

from assistant.scrapers import _CLOSING, _TAIL, common, parse_topic_page
from assistant.scrapers.other_pages import FEED_START, feed_kind, page_feed_kind

PAGES = sorted([*REALFORUM.rglob("*.html"), *REALFORUM.rglob("*.xml"), *WILD.glob("*.html")])
NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)

# The pieces broken UTF-8 is made of: sequences cut short, overlong, surrogates, bytes
# that never start one; and valid characters of each length, and markup, between them.
_PIECES = [b"\x80", b"\xbf", b"\xc0", b"\xc1", b"\xc2", b"\xdf", b"\xe0", b"\xe0\xa0",
           b"\xe0\x80", b"\xed\xa0\x80", b"\xed\x9f\xbf", b"\xef\xbf", b"\xf0", b"\xf0\x90",
           b"\xf0\x90\x80", b"\xf0\x80\x80", b"\xf4\x8f\xbf\xbf", b"\xf4\x90\x80\x80", b"\xf5",
           b"\xff", b"a", b"<", b">", b"\xc3\xa9", b"\xe2\x80\x94", b"\xf0\x9f\x98\x80", b" "]


def _broken(rng: random.Random) -> bytes:
    return b"".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 12)))


def test_lexbor_replaces_broken_utf8_as_python_does() -> None:
    # What lets a page be given to lexbor as its bytes, valid UTF-8 or not.
    rng = random.Random(25)
    for _ in range(5_000):
        doc = b"<!DOCTYPE html><title>t</title><div title=\"" + _broken(rng) + b"\">" + (
            _broken(rng) + b"</div>")
        from_bytes = LexborHTMLParser(doc).body
        from_text = LexborHTMLParser(doc.decode("utf-8", errors="replace")).body
        assert from_bytes is not None and from_text is not None
        assert from_bytes.html == from_text.html, doc


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_what_is_read_of_a_page_is_what_its_text_says(path: Path) -> None:
    data = path.read_bytes()
    text, source = common.decode_page(data)
    page = common.PageText(data)
    assert page.text == text
    assert (page.source == source) or (page.source == data and source == text)
    _assert_reads_as(common.PageText(data), text)


def test_a_broken_page_reads_as_its_replaced_text() -> None:
    rng = random.Random(26)
    for _ in range(2_000):
        data = (b"<!DOCTYPE html>" + _broken(rng) + b"<rss" + _broken(rng) + b"</html>"
                + _broken(rng))
        page = common.PageText(data)
        assert page.source == data  # (nothing says it is other than UTF-8)
        _assert_reads_as(page, data.decode("utf-8", errors="replace"))


def _assert_reads_as(page: common.PageText, text: str) -> None:
    """Each question asked of the undecoded page answers as the text does."""
    assert page_feed_kind(page) == feed_kind(text)
    assert page.start(FEED_START) == text[:FEED_START]
    for needle in ("</html>", "<time datetime=", 'class="author"', "phpBB", "é"):
        assert (needle in page) == (needle in text)
    tail = max(len(text) - _TAIL, 0)
    closed = text.rfind("</html>", tail) >= 0 or _CLOSING.search(text, tail) is not None
    assert page.ends_with_tag("</html>", _TAIL, _CLOSING) == closed


def test_a_topic_page_is_parsed_without_decoding_its_text(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole page is decoded into a string for none of the questions a topic page's
    parse asks (a twentieth of its parsing): only a feed, a login page, a cut or odd page
    needs its text."""
    def refuse(self: common.PageText) -> str:
        raise AssertionError("the page's text was decoded")

    pages = {"smf21": ("http://127.0.0.1:8021/index.php?topic=2.0", "smf"),
             "phpbb33": ("http://127.0.0.1:8033/viewtopic.php?t=2", "phpbb")}
    expected = {}
    for folder, (url, software) in pages.items():
        path = sorted((REALFORUM / folder).glob("*topic_p2.html"))[0]
        expected[folder] = parse_topic_page(path.read_bytes(), url, tz=ZoneInfo("UTC"), now=NOW,
                                            software=software)
    monkeypatch.setattr(common.PageText, "text", property(refuse))
    for folder, (url, software) in pages.items():
        path = sorted((REALFORUM / folder).glob("*topic_p2.html"))[0]
        page = parse_topic_page(path.read_bytes(), url, tz=ZoneInfo("UTC"), now=NOW,
                                software=software)
        assert page == expected[folder] and page.posts
