"""The parsers' short cuts change nothing: every post of every real page (realforum's
topic pages, the live snapshots and the wild pages of other versions and themes) reads the
same, field by field, as it does with each short cut turned off: lexbor's DOM events
skipped, an element's text from lexbor's text content, a post's quotes and highlights
looked for only when its HTML holds one, a prosilver post's body, name lines and notices
found by one query, the page's head, links and times read at once, the poster's profile
link among its first elements, a UTF-8 page given to lexbor as its bytes; and the short
cuts of smaller parts (an edit notice, a member id) read as the long way does."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from conftest import REALFORUM, WILD
from selectolax.lexbor import LexborHTMLParser, LexborNode

from assistant.scrapers import common, page_zone, parse_topic_page, phpbb, smf

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
    for module in (smf, phpbb, page_zone):
        monkeypatch.setattr(module, "text_of", lambda node: node.text())
    for module in (smf, page_zone):
        monkeypatch.setattr(module, "stamped_times", lambda tree: tree.css("time[datetime]"))
    for module in (smf, phpbb):
        monkeypatch.setattr(module, "_may_quote", lambda body, inner: True)
    monkeypatch.setattr(phpbb, "_parts", lambda top, has: None)
    monkeypatch.setattr(phpbb, "_unhighlighted", _unhighlighted_by_query)
    monkeypatch.setattr(phpbb, "_pagination_boxes", lambda tree: tree.css(phpbb._BOXES))
    monkeypatch.setattr(smf, "_Head", _HeadByQueries)
    monkeypatch.setattr(smf, "_links", _links_by_queries)
    monkeypatch.setattr(smf, "_NEAR", 0)
    monkeypatch.setattr(common, "_only_utf8", lambda data, header_charset: False)
    assert read(path) == fast


@pytest.mark.parametrize("near", [1, 2, 3])
def test_a_profile_link_past_the_first_elements_is_found_by_a_query(
        near: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The poster's profile link looked for among its first `near` elements, then by a
    query that skips those seen: the same author as found at once."""
    smf_pages = [p for p in PAGES if p.name.startswith("smf")]
    fast = [read(p) for p in smf_pages]
    monkeypatch.setattr(smf, "_NEAR", near)
    assert [read(p) for p in smf_pages] == fast


@pytest.mark.parametrize("html", [
    'Last edited by <a href="./memberlist.php?mode=viewprofile&amp;u=2" class="username">Jd'
    "</a> on Sat Nov 21, 2026 12:01 pm, edited 1 time in total.",
    'Last edited by <a class="username">Jd</a> on Sat Nov 21, 2026 12:01 pm, edited 2 times '
    "in total.<br><strong>Reason:</strong> <em>typo fix</em>",
    "Last edited by Jd on Sat Nov 21, 2026 12:01 pm<br />Reason: spelling",
    "<span>Last edited by Jd on X<br>Reason: a</span> tail",
    "Last edited by Jd<br>",
    "Last <em>edited</em> by Jd<br>no em here",
    "<em>Last edited<br>by</em> x",
    "Last edited &amp; by &lt;br&gt; x<br>y &nbsp; z",
    "Last edited<!-- <br> --> by<br>x",
    "Last edited <brand>x</brand> by<br>y",
    "Last edited by <b>Jd<br>Reason: <i>x</i></b><em>e</em>",
    "<table><tr><td>Last edited</td></tr></table> by Jd<br>Reason: x",
])
def test_an_edit_notice_read_off_its_nodes_reads_as_its_halves_parsed(html: str) -> None:
    notice = LexborHTMLParser(f'<div class="notice">{html}</div>').css_first("div.notice")
    assert notice is not None
    sentence_html, _, reason_html = (notice.inner_html or "").partition("<br")
    assert phpbb._notice_parts(notice) == phpbb._notice_parts_parsed(sentence_html, reason_html)


@pytest.mark.parametrize("doctype", ["", "<!DOCTYPE html>"])  # (quirks mode, and not)
def test_pagination_boxes_are_those_the_five_selectors_find(doctype: str) -> None:
    tree = LexborHTMLParser(
        doctype + '<div class="x PAGINATION">a</div><div class="paging pagination">b</div>'
        '<table><tr><td class="nav gensmall">c</td><td class="Nav">d</td><td class="nav">e'
        '</td></tr></table><div class="pagination-wrapper"><div class="pagination">f</div>'
        '</div><p class="paginator">g</p><span class="pagination\x0bx">h</span>')
    assert ([n.mem_id for n in phpbb._pagination_boxes(tree)]
            == [n.mem_id for n in tree.css(phpbb._BOXES)])


def test_a_member_id_read_at_the_first_u_is_the_one_the_pattern_finds() -> None:
    rng = random.Random(26)
    hrefs = ["index.php?action=profile;u=6", "./memberlist.php?mode=viewprofile&amp;u=2",
             "x?u=a&u=3", "menu=3&u=4", "a;amp;u=9", "?u=1;u=2", "q?au=5&u=6", "x&amp;u=١٢"]
    hrefs += ["".join(rng.choice("u=&;?amp13a") for _ in range(rng.randint(0, 12)))
              for _ in range(20_000)]
    for href in hrefs:
        m = common._MEMBER_ID.search(href)
        assert common.member_id(href) == (int(m.group(1)) if m else None), href


class _HeadByQueries(smf._Head):
    """Each of the head's elements found by a query of the whole page."""

    def __init__(self, tree: LexborHTMLParser) -> None:
        self._tree = tree
        self._found = {}


def _links_by_queries(tree: LexborHTMLParser) -> smf._Links:
    return smf._Links([(a, a.attrs.get("href") or "") for a in tree.css('a[href*="topic"]')],
                      tree.css('a[href*="simplemachines"], a[href*="action=credits"]'))


def _unhighlighted_by_query(body: LexborNode, lowered: bytes) -> bool:
    highlights = body.css("span.posthilit")
    for hilit in highlights:
        hilit.unwrap()
    return bool(highlights)
