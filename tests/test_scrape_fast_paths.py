"""The parsers' short cuts change nothing: every post of every real page (realforum's
topic pages, the live snapshots and the wild pages of other versions and themes) reads the
same, field by field, as it does with each short cut turned off: lexbor's DOM events
skipped, a post's quotes looked for only when its HTML opens a blockquote, a prosilver
post's body, name lines and notices found by one query."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from conftest import REALFORUM, WILD
from selectolax.lexbor import LexborHTMLParser

from assistant.scrapers import parse_topic_page, phpbb, smf

NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)
PAGES = sorted([*REALFORUM.glob("*/*topic_p*.html"), *REALFORUM.glob("live/*.html"),
                *WILD.glob("*.html")])


def url_for(path: Path) -> str:
    if path.parent == WILD:
        return "http://forum.test/index.php?topic=1.0"  # (the software told from the page)
    if path.name.startswith("smf"):
        return "http://127.0.0.1:8021/index.php?topic=2.0"
    return "http://127.0.0.1:8033/viewtopic.php?t=2"


def read(path: Path) -> str:
    return repr(parse_topic_page(path.read_bytes(), url_for(path), tz=ZoneInfo("UTC"), now=NOW))


def test_there_are_pages_of_both_forums_and_every_kind() -> None:
    names = [p.name for p in PAGES]
    assert len(PAGES) >= 60
    assert any(n.startswith("smf20") for n in names) and any("subsilver" in n for n in names)


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_short_cuts_read_every_post_the_same(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = read(path)
    for module in (smf, phpbb):
        monkeypatch.setattr(module, "page_tree", LexborHTMLParser)
        monkeypatch.setattr(module, "may_hold_tag", lambda node, inner, tag: True)
    monkeypatch.setattr(phpbb, "_parts", lambda top, has: None)
    assert read(path) == fast
