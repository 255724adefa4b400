"""The SMF parser on real pages: SMF 2.1 game threads (against their ground truth), the
live snapshots, and SMF 2.0 / 2.0 RC3 pages from public forums (values read off the HTML)."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from conftest import REALFORUM, WILD
from selectolax.lexbor import LexborHTMLParser

from assistant.errors import LayoutError, NotAThreadError
from assistant.models import EditNote, Quote, TopicPage
from assistant.scrapers import smf
from assistant.scrapers.common import decode_html
from assistant.scrapers.smf import looks_like_smf, parse_forum_time, parse_page

SMF21 = REALFORUM / "smf21"
LIVE = REALFORUM / "live"
NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)  # the pages were saved that day, forum tz UTC
FORUM_TZ = ZoneInfo("UTC")
# Served somewhere else than the 127.0.0.1:8021 the pages link to: URLs must follow this.
BASE = "http://games.example.test:8080/smf/index.php"

THREAD_A = json.loads((SMF21 / "thread.json").read_text(encoding="utf-8"))
THREAD_B = json.loads((SMF21 / "thread_b.json").read_text(encoding="utf-8"))
MANIFEST = json.loads((LIVE / "live_manifest.json").read_text(encoding="utf-8"))


def read(path: Path) -> str:
    return decode_html(path.read_bytes())


def parse(path: Path, url: str, *, tz: ZoneInfo = FORUM_TZ, now: datetime = NOW) -> TopicPage:
    return parse_page(read(path), url, tz=tz, now=now)


def minute(iso: str) -> datetime:
    return datetime.fromisoformat(iso).astimezone(UTC).replace(second=0)


_QUOTE_TAG = re.compile(r"\[quote(?:\s+author=(?P<author>.+?)\s+link=msg=(?P<msg>\d+)[^\]]*)?\]")


def quotes_in_bbcode(bbcode: str) -> tuple[Quote, ...]:
    return tuple(
        Quote(m["author"], int(m["msg"]) if m["msg"] else None) for m in _QUOTE_TAG.finditer(bbcode)
    )


def expected_edit(post: dict) -> EditNote | None:
    if not post.get("edited") or post.get("edit_marker_shown") is False:
        return None
    return EditNote(at=minute(post["edited_at_iso"]), by=post["edited_by"],
                    reason=post.get("edit_reason") or None)


def check_against_truth(pages: list[TopicPage], truth: dict) -> None:
    posts = [p for page in pages for p in page.posts]
    expected = truth["posts"]
    assert [p.post_id for p in posts] == [e["msg_id"] for e in expected]
    for got, exp in zip(posts, expected, strict=True):
        where = f"msg {exp['msg_id']}"
        assert got.position == exp["position"], where
        assert got.page == exp["page"], where
        assert got.author == exp["author"], where
        assert got.author_id == exp["member_id"], where
        assert got.posted_at == minute(exp["posted_at_iso"]), where
        assert got.posted_at.tzinfo is UTC
        assert got.quotes == quotes_in_bbcode(exp["bbcode_body"]), where
        edit = got.edit
        if edit is not None:  # SMF shows minutes only
            edit = EditNote(at=edit.at.replace(second=0), by=edit.by, reason=edit.reason)
        assert edit == expected_edit(exp), where
        assert got.url == f"{BASE}?msg={exp['msg_id']}"
        assert got.body_html and "PHPSESSID" not in got.body_html


# --- Thread A: 66 posts on 5 pages ----------------------------------------------------------


def thread_a_pages() -> list[TopicPage]:
    return [parse(SMF21 / f"smf21_topic_p{n}.html", f"{BASE}?topic=2.{15 * (n - 1)}")
            for n in range(1, 6)]


def test_thread_a_all_66_posts_match_ground_truth() -> None:
    pages = thread_a_pages()
    assert sum(len(p.posts) for p in pages) == 66
    check_against_truth(pages, THREAD_A)


def test_thread_a_names_with_ampersand_apostrophe_and_non_ascii() -> None:
    posts = {p.post_id: p for page in thread_a_pages() for p in page.posts}
    assert posts[9].author == "Tom & Jerry's" and posts[9].author_id == 8
    assert posts[10].author == "ÆtherWolf" and posts[10].author_id == 9
    assert "Tom &amp; Jerry's" in posts[9].body_html  # the body stays HTML


def test_thread_a_edit_notices_as_shown() -> None:
    posts = {p.post_id: p for page in thread_a_pages() for p in page.posts}
    assert posts[12].edit == EditNote(datetime(2026, 11, 21, 12, 13, tzinfo=UTC), "Jd-",
                                      "typo in vote")
    # "Last Edit: Today at 01:53 AM by Conia Reason: spelling" on page 4
    assert posts[51].edit == EditNote(datetime(2026, 11, 22, 1, 53, tzinfo=UTC), "Conia",
                                      "spelling")
    assert posts[62].edit == EditNote(datetime(2026, 11, 22, 5, 33, tzinfo=UTC), "ÆtherWolf")
    assert posts[13].edit is None


def test_thread_a_quotes_and_cited_posts() -> None:
    posts = {p.post_id: p for page in thread_a_pages() for p in page.posts}
    assert posts[13].quotes == (Quote("Lady Grey", 8),)
    assert posts[9].quotes == (Quote(None, None),)  # bare [quote] with a role PM
    assert posts[64].quotes == (Quote("Conia", 63),)  # "Quote from: Conia on Today at 05:55 AM"


def test_thread_a_pages_chain() -> None:
    pages = thread_a_pages()
    urls = tuple(f"{BASE}?topic=2.{offset}" for offset in (0, 15, 30, 45, 60))
    for n, page in enumerate(pages, start=1):
        assert (page.software, page.version, page.topic_id) == ("smf", "2.1", 2)
        assert page.title == "Mafia Game 1 — Day 1"
        assert (page.page, page.page_count, page.per_page) == (n, 5, 15)
        assert page.page_urls == urls
        assert page.url == urls[n - 1]
    assert [len(p.posts) for p in pages] == [15, 15, 15, 15, 6]


def test_nocookie_page_gives_same_posts_and_clean_urls() -> None:
    guest = parse(SMF21 / "smf21_topic_p1.html", f"{BASE}?topic=2.0")
    html = read(SMF21 / "smf21_topic_p1_nocookie.html")
    assert html.count("PHPSESSID=") > 20  # the page really is the first-visit one
    url = f"{BASE}?PHPSESSID=adafbd019f63542ed3f869d03fc81ad2&topic=2.0"
    page = parse_page(html, url, tz=FORUM_TZ, now=NOW)
    assert page.posts == guest.posts
    assert page.page_urls == guest.page_urls and page.url == f"{BASE}?topic=2.0"
    assert "PHPSESSID" not in json.dumps([p.to_dict() for p in page.posts])


@pytest.mark.parametrize("n", [1, 5])
def test_member_view_gives_same_posts(n: int) -> None:
    url = f"{BASE}?topic=2.{15 * (n - 1)}"
    guest = parse(SMF21 / f"smf21_topic_p{n}.html", url)
    member = parse(SMF21 / f"smf21_topic_p{n}_member_Conia.html", url)
    assert member.posts == guest.posts and member.page_urls == guest.page_urls


def test_permalink_page_is_page_three() -> None:
    page = parse(SMF21 / "smf21_topic_msg40.html", f"{BASE}?msg=40")
    assert (page.topic_id, page.page, page.page_count) == (2, 3, 5)
    assert 40 in [p.post_id for p in page.posts]
    assert page.posts == parse(SMF21 / "smf21_topic_p3.html", f"{BASE}?topic=2.30").posts
    assert page.page_urls[0] == f"{BASE}?topic=2.0"


# --- Thread B and the live snapshots ----------------------------------------------------------


def test_thread_b_all_46_posts_match_ground_truth() -> None:
    pages = [parse(SMF21 / f"smf21_b_topic_p{n}.html", f"{BASE}?topic=3.{15 * (n - 1)}")
             for n in range(1, 5)]
    check_against_truth(pages, THREAD_B)
    assert [(p.page, p.page_count, p.topic_id) for p in pages] == [(n, 4, 3) for n in range(1, 5)]
    assert pages[0].title == "Chat Mafia — Day 2"
    moderated = {p.post_id: p for p in pages[0].posts}[130]
    assert moderated.edit == EditNote(datetime(2026, 11, 22, 11, 10, tzinfo=UTC), "admin",
                                      "Removed personal attack (be civil)")


SMF_SNAPSHOTS = [s for s in MANIFEST["snapshots"] if s["forum"] == "smf21"]


@pytest.mark.parametrize("snap", SMF_SNAPSHOTS, ids=[s["file"] for s in SMF_SNAPSHOTS])
def test_live_snapshot(snap: dict) -> None:
    offset = re.search(r"topic=3\.(\d+)", snap["url"])[1]
    page = parse(LIVE / snap["file"], f"{BASE}?topic=3.{offset}")
    assert [p.post_id for p in page.posts] == snap["post_ids_on_page"]
    assert (page.page, page.page_count) == (snap["page"], snap["pages_total"])
    assert [p.position for p in page.posts] == [
        15 * (snap["page"] - 1) + i for i in range(len(snap["post_ids_on_page"]))
    ]
    edited = {str(p.post_id) for p in page.posts if p.edit is not None}
    assert edited == set(snap["edit_markers_on_page"])


def test_live_snapshots_read_in_order_are_what_a_poller_sees() -> None:
    """The 18 snapshots, read in the order they were saved, as a poller reads them: each
    shows exactly the posts the manifest calls new, comparing bodies with what was read
    before finds exactly the edits the manifest lists (the silent edit of 135 included, which
    has no marker), and together they hold every post of thread B, in thread order."""
    assert len(SMF_SNAPSHOTS) == 18
    bodies: dict[int, str] = {}
    positions: dict[int, int] = {}
    changed_seen: set[int] = set()
    for snap in SMF_SNAPSHOTS:
        offset = re.search(r"topic=3\.(\d+)", snap["url"])[1]
        page = parse(LIVE / snap["file"], f"{BASE}?topic=3.{offset}")
        new = [p.post_id for p in page.posts if p.post_id not in bodies]
        changed = [
            p.post_id for p in page.posts if bodies.get(p.post_id, p.body_html) != p.body_html
        ]
        assert new == snap["new_post_ids_on_page"], snap["file"]
        assert changed == snap["edited_ids_on_page"], snap["file"]
        for post in page.posts:
            assert positions.setdefault(post.post_id, post.position) == post.position
            bodies[post.post_id] = post.body_html
        changed_seen.update(changed)
    assert changed_seen == {130, 135, 141}  # moderator edit, silent edit, vote changed by edit
    assert sorted(bodies, key=positions.__getitem__) == [p["msg_id"] for p in THREAD_B["posts"]]
    # The latest body seen of every post is its final text on the saved topic pages.
    pages = [
        parse(SMF21 / f"smf21_b_topic_p{n}.html", f"{BASE}?topic=3.{15 * (n - 1)}")
        for n in range(1, 5)
    ]
    assert bodies == {p.post_id: p.body_html for page in pages for p in page.posts}


# --- SMF 2.0 and 2.0 RC3 from public forums (expected values read off the pages) --------------

GEEKHACK = WILD / "smf20_geekhack_nostalgia_t92066_p1.html"
METIN2 = WILD / "smf20_metin2hungary_blackstorm_t66925_p1.html"
CONTRIBS = WILD / "smf20rc3_contribs_t38573.html"

GEEKHACK_IDS = [
    2505856, 2505858, 2505877, 2505879, 2505880, 2505884, 2505885, 2505888, 2505890, 2505895,
    2505904, 2505930, 2505931, 2505941, 2505959, 2505974, 2505977, 2505990, 2505996, 2506001,
    2506006, 2506007, 2506011, 2506025, 2506043, 2506048, 2506049, 2506051, 2506053, 2506054,
    2506062, 2506065, 2506070, 2506072, 2506074, 2506078, 2506079, 2506081, 2506082, 2506085,
    2506086, 2506087, 2506089, 2506090, 2506092, 2506094, 2506096, 2506097, 2506098, 2506099,
]


def test_geekhack_nostalgia_page() -> None:
    html = decode_html(GEEKHACK.read_bytes())  # ISO-8859-1
    url = ("https://geekhack.org/index.php?PHPSESSID=geb1ve548bq4rje074calm58fbmkie3u"
           "&topic=92066.0")
    page = parse_page(html, url, tz=FORUM_TZ, now=NOW)
    assert (page.version, page.topic_id, page.title) == ("2.0", 92066,
                                                         "[GB] Noxary 268 (100% Shipped)")
    assert (page.page, page.page_count, page.per_page) == (1, 13, 50)
    assert page.page_urls[1] == "https://geekhack.org/index.php?topic=92066.50"
    assert page.page_urls[-1] == "https://geekhack.org/index.php?topic=92066.600"
    assert [p.post_id for p in page.posts] == GEEKHACK_IDS
    assert [p.position for p in page.posts] == list(range(50))  # "Reply #N"
    posts = {p.post_id: p for p in page.posts}
    # « on: Fri, 13 October 2017, 21:52:42 » / Last Edit: Fri, 24 April 2020, 16:08:01 by xondat
    first = posts[2505856]
    assert (first.author, first.author_id) == ("xondat", 52526)
    assert first.posted_at == datetime(2017, 10, 13, 21, 52, 42, tzinfo=UTC)
    assert first.edit == EditNote(datetime(2020, 4, 24, 16, 8, 1, tzinfo=UTC), "xondat")
    assert first.url == "https://geekhack.org/index.php?msg=2505856"
    assert (posts[2505879].author, posts[2505879].author_id) == ("iamtootallforthis", 37538)
    assert posts[2506099].author == "klove4252"
    assert posts[2506099].posted_at == datetime(2017, 10, 14, 15, 9, 34, tzinfo=UTC)
    assert posts[2506082].edit == EditNote(datetime(2017, 10, 14, 15, 2, 29, tzinfo=UTC),
                                           "theillumedpanda")
    assert [pid for pid, p in posts.items() if p.edit] == [2505856, 2505858, 2505890, 2506082,
                                                           2506086]
    # 23 quote boxes in bodies (a 24th sits in a signature), nested ones included
    assert sum(len(p.quotes) for p in page.posts) == 23
    assert posts[2505959].quotes == (Quote("ihalatch", 2505884), Quote("wanewang", 2505888),
                                     Quote("ihalatch", 2505890), Quote("avid", 2505931))
    assert posts[2506074].quotes == (Quote("euphxenos", 2506070), Quote("sangoan", 2506072),
                                     Quote(None, None))
    assert posts[2506082].quotes == (Quote("xondat", 2506081), Quote("poolside", 2506079),
                                     Quote("theillumedpanda", 2506078))
    assert posts[2505895].quotes == ()  # its quote is in the signature, not the body
    assert not any("PHPSESSID" in p.body_html for p in page.posts)


def test_geekhack_times_in_the_forums_zone() -> None:
    page = parse(GEEKHACK, "https://geekhack.org/index.php?topic=92066.0",
                 tz=ZoneInfo("America/New_York"))
    first = page.posts[0]
    assert first.posted_at == datetime(2017, 10, 14, 1, 52, 42, tzinfo=UTC)  # 21:52:42 EDT
    assert first.edit.at == datetime(2020, 4, 24, 20, 8, 1, tzinfo=UTC)


METIN2_IDS = [
    487697, 487705, 487711, 487723, 490619, 491441, 492507, 502367, 502400, 503530, 504479,
    509368, 509381, 510530, 514172, 514582, 516032, 516295, 517814, 517834, 518274, 519488,
    532611, 532616, 532618,
]


def test_metin2hungary_blackstorm_hungarian_page() -> None:
    url = "http://metin2hungary.net/index.php/topic,66925.0.html"
    page = parse(METIN2, url, tz=ZoneInfo("Europe/Budapest"))
    assert (page.version, page.topic_id, page.page, page.page_count, page.per_page) == (
        "2.0", 66925, 1, 4, 25)
    assert page.page_urls == tuple(
        f"http://metin2hungary.net/index.php/topic,66925.{o}.html" for o in (0, 25, 50, 75))
    assert [p.post_id for p in page.posts] == METIN2_IDS
    assert [p.position for p in page.posts] == list(range(25))  # "Válasz #N"
    posts = {p.post_id: p for p in page.posts}
    # « Dátum: 2011-04-24, 22:37:00 » (CEST) / « Utoljára szerkesztve: 2011-08-22, 18:23:13
    # írta [MOD]Niix »; deleted members show as guests, without a profile link
    first = posts[487697]
    assert (first.author, first.author_id) == ("empo444", None)
    assert first.posted_at == datetime(2011, 4, 24, 20, 37, tzinfo=UTC)
    assert first.edit == EditNote(datetime(2011, 8, 22, 16, 23, 13, tzinfo=UTC), "[MOD]Niix")
    assert (posts[490619].author, posts[490619].author_id) == ("mcbence12", 13387)
    assert posts[504479].author == "hógolyó"
    assert posts[532618].posted_at == datetime(2011, 7, 3, 9, 17, 5, tzinfo=UTC)
    assert posts[516295].edit == EditNote(datetime(2011, 6, 10, 8, 39, 59, tzinfo=UTC), "zhotti")
    assert sum(p.edit is not None for p in page.posts) == 9
    # "Idézetet írta: gabeszka97 - 2011-05-16, 15:51:26"
    assert [(p.post_id, p.quotes) for p in page.posts if p.quotes] == [
        (502400, (Quote("gabeszka97", 502367),))]
    assert "Akkor én leszek az első." in posts[487705].body_html


CONTRIBS_IDS = [174916, 174924, 174925, 174927, 174983, 175024, 176020, 176031, 176040, 176166,
                176168, 176172, 176173, 176175, 176181]


def test_contribs_smf20_rc3_page() -> None:
    url = "http://forums.contribs.org/index.php/topic,38573.0.html?PHPSESSID=vqr5gjd0frvtco7j85kqh33o14"
    page = parse(CONTRIBS, url)
    assert (page.version, page.topic_id, page.page, page.page_count, page.per_page) == (
        "2.0", 38573, 1, 2, 15)
    assert page.url == "http://forums.contribs.org/index.php/topic,38573.0.html"
    assert page.page_urls == ("http://forums.contribs.org/index.php/topic,38573.0.html",
                              "http://forums.contribs.org/index.php/topic,38573.15.html")
    assert [p.post_id for p in page.posts] == CONTRIBS_IDS
    posts = {p.post_id: p for p in page.posts}
    # « on: September 19, 2007, 01:08:14 PM » / Last Edit: September 24, 2007, 12:57:14 PM
    first = posts[174916]
    assert (first.author, first.author_id) == ("gregswallow", 3061)
    assert first.posted_at == datetime(2007, 9, 19, 13, 8, 14, tzinfo=UTC)
    assert first.edit == EditNote(datetime(2007, 9, 24, 12, 57, 14, tzinfo=UTC), "gregswallow")
    assert posts[176031].posted_at == datetime(2007, 10, 7, 0, 30, 38, tzinfo=UTC)  # 12:30 AM
    assert posts[176181].posted_at == datetime(2007, 10, 8, 12, 0, 16, tzinfo=UTC)  # 12:00 PM
    assert (posts[175024].author, posts[175024].author_id) == ("slords", 3)
    assert posts[176166].edit == EditNote(datetime(2007, 10, 8, 10, 6, 42, tzinfo=UTC), "cactus")
    assert [pid for pid, p in posts.items() if p.edit] == [174916, 174927, 176166]
    assert sum(len(p.quotes) for p in page.posts) == 13
    assert posts[174927].quotes == (Quote("mmccarn", 174925),)
    assert posts[174983].quotes == (Quote("gregswallow"), Quote("gregswallow"))  # no date, no link
    assert posts[175024].quotes == (Quote("mmccarn", 174983), Quote("mmccarn", 174983))
    assert posts[176181].quotes == (Quote("byte", 176173),)


# --- Errors ------------------------------------------------------------------------------------


def _without(html: str, start: str, end: str) -> str:
    i = html.index(start)
    j = html.index(end, i) + len(end)
    return html[:i] + html[j:]


def _msg12_block(html: str) -> tuple[int, int]:
    return html.index('id="msg12"'), html.index('id="msg13"')


def test_post_without_author_block_raises_layout_error() -> None:
    html = read(SMF21 / "smf21_topic_p1.html")
    i, j = _msg12_block(html)
    block = _without(html[i:j], '<div class="poster">', "</div><!-- .poster -->")
    with pytest.raises(LayoutError) as err:
        parse_page(html[:i] + block + html[j:], f"{BASE}?topic=2.0", tz=FORUM_TZ, now=NOW)
    assert "#msg12" in str(err.value) and "no author" in str(err.value)
    assert err.value.url == f"{BASE}?topic=2.0"
    assert err.value.what == "post #msg12: no author link found"


def test_post_without_time_raises_layout_error() -> None:
    html = read(SMF21 / "smf21_topic_p1.html")
    i, j = _msg12_block(html)
    block = re.sub(r'<a href="[^"]*msg=12"[^>]*class="smalltext">[^<]*</a>', "", html[i:j])
    with pytest.raises(LayoutError, match=r"post #msg12: no post time found"):
        parse_page(html[:i] + block + html[j:], f"{BASE}?topic=2.0", tz=FORUM_TZ, now=NOW)


def test_post_without_body_raises_layout_error() -> None:
    html = read(SMF21 / "smf21_topic_p1.html")
    i, j = _msg12_block(html)
    block = html[i:j].replace('id="msg_12"', 'id="gone"')
    with pytest.raises(LayoutError, match=r"post #msg12: no message body found"):
        parse_page(html[:i] + block + html[j:], f"{BASE}?topic=2.0", tz=FORUM_TZ, now=NOW)


def test_smf20_post_without_author_raises_layout_error() -> None:
    html = decode_html(GEEKHACK.read_bytes())
    i = html.index('<a id="msg2505877">')
    j = html.index('<a id="msg2505879">')
    block = re.sub(r"<h4>.*?</h4>", "", html[i:j], count=1, flags=re.S)
    with pytest.raises(LayoutError, match=r"post #msg2505877: no author"):
        parse_page(html[:i] + block + html[j:], "https://geekhack.org/index.php?topic=92066.0",
                   tz=FORUM_TZ, now=NOW)


def test_unreadable_edit_notice_raises_layout_error() -> None:
    html = read(SMF21 / "smf21_topic_p1.html").replace(
        "Last Edit</span>: Nov 21, 2026, 12:13 PM", "Last Edit</span>: sometime")
    with pytest.raises(LayoutError, match=r"post #msg12: edit notice"):
        parse_page(html, f"{BASE}?topic=2.0", tz=FORUM_TZ, now=NOW)


def test_board_page_is_not_a_thread() -> None:
    with pytest.raises(NotAThreadError, match="not an SMF topic page"):
        parse(SMF21 / "smf21_board.html", f"{BASE}?board=4.0")


# --- Detection ---------------------------------------------------------------------------------

SMF_PAGES = sorted(SMF21.glob("*.html")) + sorted(LIVE.glob("smf21_*.html")) + sorted(
    WILD.glob("smf*.html"))
OTHER_PAGES = sorted((REALFORUM / "phpbb33").glob("*.html")) + sorted(
    LIVE.glob("phpbb*.html")) + sorted(WILD.glob("phpbb*.html"))


def test_detection() -> None:
    assert len(SMF_PAGES) == 36 and len(OTHER_PAGES) > 20
    assert [p.name for p in SMF_PAGES if not looks_like_smf(read(p))] == []
    assert [p.name for p in OTHER_PAGES if looks_like_smf(read(p))] == []


# --- Times -------------------------------------------------------------------------------------

BUDAPEST = ZoneInfo("Europe/Budapest")


@pytest.mark.parametrize(("text", "tz", "expected"), [
    ("Nov 21, 2026, 12:01 PM", FORUM_TZ, datetime(2026, 11, 21, 12, 1, tzinfo=UTC)),
    ("Nov 21, 2026, 12:27 AM", FORUM_TZ, datetime(2026, 11, 21, 0, 27, tzinfo=UTC)),
    ("November 21, 2026, 12:01:05 PM", FORUM_TZ, datetime(2026, 11, 21, 12, 1, 5, tzinfo=UTC)),
    ("Fri, 13 October 2017, 21:52:42", FORUM_TZ, datetime(2017, 10, 13, 21, 52, 42, tzinfo=UTC)),
    ("2011-04-24, 22:37:00", BUDAPEST, datetime(2011, 4, 24, 20, 37, tzinfo=UTC)),  # CEST
    ("2018. április 25, 10:11:12", BUDAPEST, datetime(2018, 4, 25, 8, 11, 12, tzinfo=UTC)),
    ("2018. márc. 3, 10:11:12", BUDAPEST, datetime(2018, 3, 3, 9, 11, 12, tzinfo=UTC)),  # CET
    ("Jul 1, 2026, 12:00 PM", BUDAPEST, datetime(2026, 7, 1, 10, 0, tzinfo=UTC)),
    ("Dec 1, 2026, 12:00 PM", BUDAPEST, datetime(2026, 12, 1, 11, 0, tzinfo=UTC)),
    ("Today at 12:27 AM", FORUM_TZ, datetime(2026, 11, 22, 0, 27, tzinfo=UTC)),
    ("Yesterday at 11:59 PM", FORUM_TZ, datetime(2026, 11, 21, 23, 59, tzinfo=UTC)),
])
def test_forum_time_formats(text: str, tz: ZoneInfo, expected: datetime) -> None:
    assert parse_forum_time(text, tz, NOW) == expected


def test_today_is_the_forums_day_not_utcs() -> None:
    # 23:30 UTC on Mar 28 is already 00:30 on Mar 29 in Budapest (CET, +1)
    now = datetime(2026, 3, 28, 23, 30, tzinfo=UTC)
    assert parse_forum_time("Today at 12:10 AM", BUDAPEST, now) == datetime(
        2026, 3, 28, 23, 10, tzinfo=UTC)
    # the day after the spring change: yesterday 11 PM was still CET
    now = datetime(2026, 3, 30, 10, 0, tzinfo=UTC)
    assert parse_forum_time("Yesterday at 11:00 PM", BUDAPEST, now) == datetime(
        2026, 3, 29, 21, 0, tzinfo=UTC)  # CEST by then (+2)


@pytest.mark.parametrize("text", [
    "Jerry's on Nov 21, 2026, 10:42 AM", "Nov 21, 2026", "sometime", "Nov 31, 2026, 10:42 AM",
    "13:00 PM Nov 21, 2026", "Today at Nov 21, 2026, 10:00",
])
def test_forum_time_refuses_non_dates(text: str) -> None:
    with pytest.raises(ValueError):
        parse_forum_time(text, FORUM_TZ, NOW)


def test_page_clock_resolves_today_when_parsed_later() -> None:
    """SMF 2.1 prints the server's time in the header: a stored page re-parsed weeks later
    still reads "Today" as the day it was fetched."""
    later = NOW + timedelta(days=40)
    page = parse(SMF21 / "smf21_topic_p5.html", f"{BASE}?topic=2.60", now=later)
    assert page.posts[-1].posted_at == datetime(2026, 11, 22, 7, 11, tzinfo=UTC)


SIDE_PAGES = sorted((REALFORUM / "smf21").glob("*topic*.html")) + sorted(WILD.glob("smf*.html"))


@pytest.mark.parametrize("path", SIDE_PAGES, ids=lambda p: p.name)
def test_the_poster_column_is_read_off_the_side_columns_as_lexbor_finds_it(path: Path) -> None:
    # One search per post finds the poster's column and the signature; the author's column
    # is picked from it, and must be the one `container.css_first(".poster")` finds.
    tree = LexborHTMLParser(path.read_bytes())
    containers = smf._containers(smf._collect_markers(tree))
    assert containers
    for container in containers.values():
        found = smf._first_poster(container.css(smf._SIDES), container)
        expected = container.css_first(".poster")
        assert (found and found.mem_id) == (expected and expected.mem_id)


@pytest.mark.parametrize("doctype", ["<!DOCTYPE html>", ""], ids=["standards", "quirks"])
@pytest.mark.parametrize("classes", ["Poster", "POSTER x", "x\x0bposter", "poster\xa0x",
                                     "signature", "signature poster", "poster"])
def test_an_odd_poster_class_is_left_to_lexbor(doctype: str, classes: str) -> None:
    # A quirks-mode page matches ".poster" on class="Poster", a standards one does not;
    # HTML splits classes at fewer spaces than str.split: lexbor decides those.
    tree = LexborHTMLParser(f'{doctype}<div id="c"><div class="signature">s</div>'
                            f'<div class="{classes}">p</div><div class="poster">q</div></div>')
    container = tree.css_first("#c")
    found = smf._first_poster(container.css(smf._SIDES), container)
    expected = container.css_first(".poster")
    assert found is not None and expected is not None
    assert found.mem_id == expected.mem_id
