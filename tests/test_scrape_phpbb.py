"""The phpBB parser on real pages: the phpBB 3.3 game threads, live snapshots, and phpBB
3.0-3.2 pages from public forums in other styles and languages."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from conftest import REALFORUM, WILD

from assistant.errors import LayoutError, NotAThreadError
from assistant.models import EditNote, Quote, TopicPage
from assistant.scrapers.common import decode_html
from assistant.scrapers.phpbb import looks_like_phpbb, parse_forum_time, parse_page

PHPBB = REALFORUM / "phpbb33"
LIVE = REALFORUM / "live"
NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
BOARD = "http://127.0.0.1:8033/"
TOPIC_A = [f"{BOARD}viewtopic.php?t=2"] + [
    f"{BOARD}viewtopic.php?t=2&start={s}" for s in (15, 30, 45, 60)]
TOPIC_B = [f"{BOARD}viewtopic.php?t=3"] + [
    f"{BOARD}viewtopic.php?t=3&start={s}" for s in (15, 30, 45)]


def read(path: Path) -> str:
    return decode_html(path.read_bytes())


@cache
def parse(path: Path, url: str, tz: str = "UTC") -> TopicPage:
    return parse_page(read(path), url, tz=ZoneInfo(tz), now=NOW)


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).astimezone(UTC)


def minute(moment: datetime | None) -> datetime | None:
    return None if moment is None else moment.replace(second=0, microsecond=0)


# --- recognising phpBB ----------------------------------------------------------------

PHPBB_PAGES = sorted(PHPBB.glob("*.html")) + sorted(LIVE.glob("phpbb33_*.html")) + sorted(
    WILD.glob("phpbb*.html"))
SMF_PAGES = sorted(REALFORUM.glob("smf21/*.html")) + sorted(LIVE.glob("smf21_*.html")) + sorted(
    WILD.glob("smf*.html"))


@pytest.mark.parametrize("path", PHPBB_PAGES, ids=lambda p: p.name)
def test_phpbb_pages_are_recognised(path: Path) -> None:
    assert looks_like_phpbb(read(path))


@pytest.mark.parametrize("path", SMF_PAGES, ids=lambda p: p.name)
def test_smf_pages_are_not_taken_for_phpbb(path: Path) -> None:
    assert not looks_like_phpbb(read(path))


def test_a_plain_page_is_not_phpbb() -> None:
    assert not looks_like_phpbb("<html><body><p>viewtopic.php is a word here</p></body></html>")


# --- the two game threads against their ground truth -----------------------------------

def expected_quotes(bbcode: str) -> list[Quote]:
    """Quote boxes the author typed, outermost first: [quote="NAME" post_id=N ...] / [quote]."""
    quotes = []
    for m in re.finditer(r'\[quote(?:="([^"]*)"(?:[^\]]*?post_id=(\d+))?[^\]]*)?\]', bbcode):
        quotes.append(Quote(m.group(1), int(m.group(2)) if m.group(2) else None))
    return quotes


def check_thread(truth_file: str, prefix: str, urls: list[str], topic_id: int) -> None:
    truth = json.loads((PHPBB / truth_file).read_text(encoding="utf-8"))
    posts = []
    for number, url in enumerate(urls, start=1):
        page = parse(PHPBB / f"{prefix}{number}.html", url)
        assert (page.software, page.version, page.topic_id) == ("phpbb", "3.3", topic_id)
        assert (page.page, page.page_count, page.per_page) == (number, len(urls), 15)
        assert page.page_urls == tuple(urls)
        assert page.url == url
        assert page.title == truth["meta"]["subject"]
        assert all(p.page == number for p in page.posts)
        posts += page.posts
    expected = truth["posts"]
    assert [p.post_id for p in posts] == [e["post_id"] for e in expected]
    for post, want in zip(posts, expected, strict=True):
        assert post.position == want["position"]
        assert post.author == want["author"]
        assert post.author_id == want["member_id"]
        assert post.posted_at == at(want["posted_at_iso"])
        assert post.url == f"{BOARD}viewtopic.php?p={want['post_id']}#p{want['post_id']}"
        assert list(post.quotes) == expected_quotes(want["bbcode_body"]), want["post_id"]
        if want["edit_note"] is None:  # includes the silent edits phpBB does not mark
            assert post.edit is None, want["post_id"]
        else:
            assert post.edit is not None
            assert post.edit.by == want["edited_by"]
            assert post.edit.at == minute(at(want["edited_at_iso"]))
            assert post.edit.reason == (want["edit_reason"] or None)
            assert post.edit.count == want["edit_count"]
            assert post.edit.at.tzinfo is not None


def test_thread_a_all_66_posts_match_the_ground_truth() -> None:
    check_thread("thread.json", "phpbb33_topic_p", TOPIC_A, topic_id=2)


def test_thread_b_all_46_posts_match_the_ground_truth() -> None:
    check_thread("thread_b.json", "phpbb33_b_topic_p", TOPIC_B, topic_id=3)


def test_names_are_unescaped_and_the_moderator_edit_keeps_its_reason() -> None:
    posts = {p.post_id: p for n in (1, 2) for p in parse(
        PHPBB / f"phpbb33_topic_p{n}.html", TOPIC_A[n - 1]).posts}
    assert posts[9].author == "Tom & Jerry's"
    assert posts[10].author == "ÆtherWolf"
    assert posts[27].edit == EditNote(
        at=datetime(2026, 11, 21, 19, 19, tzinfo=UTC), by="admin",
        reason="Removed advertising", count=1)
    assert posts[13].quotes == (Quote("Lady Grey", 8),)
    assert '<span style="color:blue">vote Lady Grey</span>' in posts[13].body_html
    assert "Tom &amp; Jerry's" in posts[9].body_html  # the body stays HTML


def test_first_visit_page_with_session_ids_gives_the_same_posts_and_clean_urls() -> None:
    plain = parse(PHPBB / "phpbb33_topic_p1.html", TOPIC_A[0])
    raw = read(PHPBB / "phpbb33_topic_p1_nocookie.html")
    sid = re.search(r"sid=([0-9a-f]{32})", raw)
    assert sid is not None
    nocookie = parse(PHPBB / "phpbb33_topic_p1_nocookie.html", f"{TOPIC_A[0]}&sid={sid.group(1)}")
    assert nocookie.posts == plain.posts
    assert nocookie.url == TOPIC_A[0]
    assert nocookie.page_urls == tuple(TOPIC_A)
    for post in nocookie.posts:
        assert "sid=" not in post.body_html and "sid=" not in (post.url or "")


def test_forum_id_in_the_thread_url_is_kept_in_page_urls() -> None:
    url = f"{BOARD}viewtopic.php?f=2&t=2"
    page = parse(PHPBB / "phpbb33_topic_p1_with_f.html", url)
    assert page.page_urls == tuple(u.replace("?t=2", "?f=2&t=2") for u in TOPIC_A)
    assert page.posts == parse(PHPBB / "phpbb33_topic_p1.html", TOPIC_A[0]).posts


@pytest.mark.parametrize("number", [1, 5])
def test_a_logged_in_member_sees_the_same_posts(number: int) -> None:
    member = parse(PHPBB / f"phpbb33_topic_p{number}_member_Conia.html", TOPIC_A[number - 1])
    guest = parse(PHPBB / f"phpbb33_topic_p{number}.html", TOPIC_A[number - 1])
    assert member.posts == guest.posts
    assert (member.page, member.page_count, member.page_urls) == (
        guest.page, guest.page_count, guest.page_urls)


def test_a_post_permalink_lands_on_page_3_with_the_right_positions() -> None:
    page = parse(PHPBB / "phpbb33_post40.html", f"{BOARD}viewtopic.php?p=40#p40")
    assert (page.topic_id, page.page, page.page_count, page.per_page) == (2, 3, 5, 15)
    assert page.page_urls == tuple(TOPIC_A)
    assert [p.post_id for p in page.posts] == list(range(32, 47))
    assert [p.position for p in page.posts] == list(range(30, 45))
    assert page.posts == parse(PHPBB / "phpbb33_topic_p3.html", TOPIC_A[2]).posts


def test_the_forum_index_is_not_a_thread() -> None:
    with pytest.raises(NotAThreadError, match="viewforum.php"):
        parse_page(read(PHPBB / "phpbb33_forum.html"), f"{BOARD}viewforum.php?f=2",
                   tz=UTC, now=NOW)


LIVE_MANIFEST = json.loads((LIVE / "live_manifest.json").read_text(encoding="utf-8"))
PHPBB_SNAPSHOTS = [s for s in LIVE_MANIFEST["snapshots"] if s["forum"] == "phpbb33"]


@pytest.mark.parametrize("snap", PHPBB_SNAPSHOTS, ids=lambda s: s["file"])
def test_live_snapshots_parse_to_the_posts_the_poller_saw(snap: dict) -> None:
    saved = at(snap["saved_at_iso"])
    page = parse_page(read(LIVE / snap["file"]), snap["url"], tz=UTC, now=saved)
    assert [p.post_id for p in page.posts] == snap["post_ids_on_page"]
    assert (page.page, page.page_count) == (snap["page"], snap["pages_total"])
    assert [p.position for p in page.posts] == list(
        range((snap["page"] - 1) * 15, (snap["page"] - 1) * 15 + len(page.posts)))
    assert all(p.posted_at <= saved for p in page.posts)
    edited = {str(p.post_id): p.edit for p in page.posts if p.edit is not None}
    assert set(edited) == set(snap["edit_markers_on_page"])
    for post_id, marker in snap["edit_markers_on_page"].items():
        assert edited[post_id].by in marker and f"edited {edited[post_id].count} time" in marker


# --- pages from public forums ----------------------------------------------------------

def wild(name: str, url: str, tz: str = "UTC") -> TopicPage:
    return parse(WILD / name, url, tz)


def test_phpbb30_prosilver_ilovephilosophy() -> None:
    url = "http://www.ilovephilosophy.com/viewtopic.php?f=1&t=194998&start=25"
    page = wild("phpbb30_prosilver_ilovephilosophy.html", url)
    assert (page.version, page.topic_id, page.title) == ("3.0", 194998, "Biological Will")
    assert (page.page, page.page_count, page.per_page) == (2, 10, 25)
    assert page.page_urls[0] == "http://www.ilovephilosophy.com/viewtopic.php?f=1&t=194998"
    assert page.page_urls[-1] == (
        "http://www.ilovephilosophy.com/viewtopic.php?f=1&t=194998&start=225")
    assert len(page.page_urls) == 10
    assert len(page.posts) == 25
    assert [p.position for p in page.posts] == list(range(25, 50))
    first, last = page.posts[0], page.posts[-1]
    assert (first.post_id, first.author, first.author_id, first.posted_at) == (
        2729870, "Jakob", 5996, datetime(2019, 5, 26, 16, 34, tzinfo=UTC))
    assert (last.post_id, last.author, last.author_id, last.posted_at) == (
        2730442, "promethean75", 43701, datetime(2019, 6, 1, 19, 20, tzinfo=UTC))
    assert sum(len(p.quotes) for p in page.posts) == 15
    by_id = {p.post_id: p for p in page.posts}
    assert by_id[2729876].quotes == (Quote("Urwrongx1000", None),)
    assert by_id[2729897].quotes == (Quote("Jakob", None), Quote(None, None))  # nested, uncited
    assert by_id[2730367].quotes == (
        Quote("promethean75"), Quote("Silhouette"), Quote("Silhouette"))
    edits = {p.post_id: p.edit for p in page.posts if p.edit}
    assert edits == {
        2729877: EditNote(datetime(2019, 5, 26, 17, 35, tzinfo=UTC), "Jakob", None, 2),
        2729880: EditNote(datetime(2019, 5, 26, 17, 42, tzinfo=UTC), "Jakob", None, 1),
    }
    assert "signature" not in first.body_html and "Good lecture." in first.body_html


def test_phpbb30_raspite_with_empty_charset_meta() -> None:
    url = "http://www.raspberrypi.org/phpBB3/viewtopic.php?f=35&t=28017"
    page = wild("phpbb30_raspite_raspberrypi_t28017.html", url)
    assert (page.topic_id, page.page, page.page_count) == (28017, 1, 1)
    assert page.title == "omxplayer playing from pipe / standard input on Raspbian"
    assert [(p.post_id, p.author, p.author_id) for p in page.posts] == [
        (248820, "madman_xxx", 46698), (248867, "KenT", 8981), (248948, "Max", 3713),
        (248964, "KenT", 8981), (249760, "Max", 3713)]
    assert page.posts[0].posted_at == datetime(2013, 1, 2, 19, 14, tzinfo=UTC)
    assert page.posts[4].posted_at == datetime(2013, 1, 3, 18, 50, tzinfo=UTC)
    assert page.posts[3].quotes == (Quote("Max"), Quote("KenT"))
    assert all(p.edit is None for p in page.posts)
    assert all("sid=" not in p.body_html for p in page.posts)


def groundtruth(name: str) -> dict:
    return json.loads((WILD / "groundtruth" / name).read_text(encoding="utf-8"))


def test_phpbb32_prosilver_italian_against_groundtruth() -> None:
    truth = groundtruth("phpbb32_prosilver_ubuntuit.json")
    url = "https://forum.ubuntu-it.org/viewtopic.php?f=17&t=637551"
    page = wild("phpbb32_prosilver_ubuntuit.html", url, tz="Europe/Rome")
    assert (page.topic_id, page.title) == (truth["threadId"], truth["threadTitle"])
    assert (page.page, page.page_count, page.version) == (1, 1, "3.2")
    assert len(page.posts) == truth["totalThreadPosts"] == 6
    for post, want in zip(page.posts, truth["posts"], strict=True):
        assert (post.author, post.author_id) == (want["author"]["username"], want["author"]["id"])
        assert f'id="p{post.post_id}"' in want["html"]
    # "martedì 21 gennaio 2020, 14:24" in the board's zone (Rome, UTC+1 in winter)
    assert truth["posts"][0]["date"] == "martedì 21 gennaio 2020, 14:24"
    assert page.posts[0].posted_at == datetime(2020, 1, 21, 13, 24, tzinfo=UTC)
    # "venerdì 21 agosto 2020, 16:50": summer time, UTC+2
    assert truth["posts"][5]["date"] == "venerdì 21 agosto 2020, 16:50"
    assert page.posts[5].posted_at == datetime(2020, 8, 21, 14, 50, tzinfo=UTC)
    assert [p.post_id for p in page.posts] == [
        5172347, 5172702, 5173554, 5178200, 5180430, 5217195]


def test_phpbb3x_custom_pixelmator_against_groundtruth() -> None:
    truth = groundtruth("phpbb3x_custom_pixelmator.json")
    url = "https://www.pixelmator.com/community/viewtopic.php?f=18&t=17730"
    page = wild("phpbb3x_custom_pixelmator.html", url)
    assert (page.topic_id, page.page, page.page_count) == (17730, 1, 1)
    assert page.title == "Tutorial Requests & Suggestions"
    assert len(page.posts) == len(truth["posts"]) == 9
    for post, want in zip(page.posts, truth["posts"], strict=True):
        assert (post.author, post.author_id) == (want["author"]["username"], want["author"]["id"])
        assert f'id="p{post.post_id}"' in want["html"]
        # the page prints only "on Apr 30, 2020"; the full time is in data-date
        assert post.posted_at.strftime("%b %d, %Y") == want["date"]
    assert page.posts[0].posted_at == datetime(2020, 4, 30, 11, 16, 53, tzinfo=UTC)
    quotes = {p.post_id: p.quotes for p in page.posts if p.quotes}
    assert quotes == {
        57021: (Quote("Fish", 57008), Quote("philwozza", 57014)),
        57464: (Quote("bbech", 57463),),
        57850: (Quote("JARROD", 57703),),
    }
    assert all("sid=" not in p.body_html for p in page.posts)


def test_phpbb32_subsilver_mirror_with_search_highlights() -> None:
    url = "https://www.dostips.com/forum/viewtopic.php?f=3&t=4741&hilit=snake"
    page = wild("phpbb32_allanstyle_subsilver_dostips_snake.html", url)
    assert (page.topic_id, page.page, page.page_count, page.per_page) == (4741, 1, 8, 15)
    assert page.page_urls[1] == "https://www.dostips.com/forum/viewtopic.php?f=3&t=4741&start=15"
    assert page.title == "SNAKE.BAT 4.1 - An arcade style game using pure batch"
    assert len(page.posts) == 15
    assert [p.position for p in page.posts] == list(range(15))
    assert page.posts[0].post_id == 27330 and page.posts[-1].post_id == 27349
    assert (page.posts[0].author, page.posts[0].author_id) == ("dbenham", 2258)
    assert (page.posts[1].author, page.posts[1].author_id) == ("aGerman", 1265)
    # The page says "All times are <span title="UTC-6">UTC-06:00</span>": its "13 Jul 2013
    # 13:43" is 19:43 UTC, whatever zone the caller assumed (UTC here).
    assert page.posts[0].posted_at == datetime(2013, 7, 13, 19, 43, tzinfo=UTC)
    assert page.posts[12].author == "miskox"
    assert page.posts[0].edit == EditNote(
        datetime(2015, 2, 16, 16, 53, tzinfo=UTC), "dbenham", None, 26)
    assert [p.post_id for p in page.posts if p.edit] == [27330]
    assert sum(len(p.quotes) for p in page.posts) == 8
    assert page.posts[9].quotes == (Quote("aGerman"), Quote("dbenham"))  # nested
    assert page.posts[10].quotes == (Quote(None), Quote(None))
    assert all("posthilit" not in p.body_html for p in page.posts)
    assert "SNAKE.BAT - A pure native Windows batch" in page.posts[0].body_html


def test_phpbb30_subsilver2_table_layout() -> None:
    url = "http://www.dildano.co.uk/phpBB3/viewtopic.php?f=3&t=8"
    page = wild("phpbb30_subsilver2_dildano_artwork_p1.html", url)
    assert (page.topic_id, page.title, page.version) == (8, "Artwork", "3.0")
    assert (page.page, page.page_count, page.per_page) == (1, 2, 10)
    assert page.page_urls == (url, f"{url}&start=10")
    assert [(p.post_id, p.author) for p in page.posts] == [
        (24, "Nick"), (29, "bearblock"), (34, "Nick"), (42, "grilgamesh"), (43, "tim"),
        (44, "Girugamesh"), (53, "grilgamesh"), (57, "bearblock"), (61, "grilgamesh"),
        (77, "vinegarmouse")]
    # profile links were rewritten by the mirror (memberlist-41240.php): no member ids
    assert all(p.author_id is None for p in page.posts)
    assert page.posts[0].posted_at == datetime(2009, 9, 27, 16, 13, tzinfo=UTC)
    assert page.posts[-1].posted_at == datetime(2009, 10, 25, 23, 22, tzinfo=UTC)
    assert page.posts[0].body_html.startswith("I've just got a fancy new MP3 player")
    assert "last.fm" not in page.posts[1].body_html  # the signature is not the body
    assert all(p.quotes == () and p.edit is None for p in page.posts)


# --- a page whose layout is not understood ------------------------------------------------

def mangle_post_12(pattern: str, replacement: str = "") -> str:
    html = read(PHPBB / "phpbb33_topic_p1.html")
    start = html.index('<div id="p12"')
    end = html.index('<div id="p13"')
    block, count = re.subn(pattern, replacement, html[start:end])
    assert count, pattern
    return html[:start] + block + html[end:]


@pytest.mark.parametrize(("pattern", "missing"), [
    (r'<a href="\./memberlist\.php\?mode=viewprofile&amp;u=61" class="username">Jd-</a>',
     "the author of post #p12"),
    (r"<time [^>]*>[^<]*</time>", "the time of post #p12"),
    (r'<div class="content">', "the body of post #p12"),
])
def test_a_post_missing_a_part_raises_layout_error_naming_it(pattern: str, missing: str) -> None:
    html = mangle_post_12(pattern, '<div class="other">' if "content" in pattern else "")
    with pytest.raises(LayoutError) as caught:
        parse_page(html, TOPIC_A[0], tz=UTC, now=NOW)
    assert caught.value.what == missing
    assert missing in str(caught.value) and TOPIC_A[0] in str(caught.value)
    assert caught.value.url == TOPIC_A[0]


def test_an_unreadable_date_is_a_layout_error_not_a_guess() -> None:
    html = mangle_post_12(r"<time [^>]*>[^<]*</time>", "sometime last week")
    with pytest.raises(LayoutError, match="time of post #p12"):
        parse_page(html, TOPIC_A[0], tz=UTC, now=NOW)


# --- dates as phpBB prints them -----------------------------------------------------------

ROME = ZoneInfo("Europe/Rome")


@pytest.mark.parametrize(("text", "expected"), [
    ("Sat Nov 21, 2026 12:01 pm", datetime(2026, 11, 21, 11, 1, tzinfo=UTC)),
    ("Sat Nov 21, 2026 12:01 am", datetime(2026, 11, 20, 23, 1, tzinfo=UTC)),
    ("13 Jul 2013 13:43", datetime(2013, 7, 13, 11, 43, tzinfo=UTC)),
    ("martedì 21 gennaio 2020, 14:24", datetime(2020, 1, 21, 13, 24, tzinfo=UTC)),
    ("mar 03 mar 2020, 10:00", datetime(2020, 3, 3, 9, 0, tzinfo=UTC)),
    ("Nov 21st, '26, 18:30", datetime(2026, 11, 21, 17, 30, tzinfo=UTC)),
    ("Sun Mar 29, 2026 3:30 am", datetime(2026, 3, 29, 1, 30, tzinfo=UTC)),  # after DST start
    ("Today, 10:15 am", datetime(2026, 11, 22, 9, 15, tzinfo=UTC)),
    ("Yesterday, 23:50", datetime(2026, 11, 21, 22, 50, tzinfo=UTC)),
    ("Ieri, 23:50", datetime(2026, 11, 21, 22, 50, tzinfo=UTC)),
    ("5 minutes ago", datetime(2026, 11, 22, 11, 55, tzinfo=UTC)),
    ("less than a minute ago", datetime(2026, 11, 22, 12, 0, tzinfo=UTC)),
    ("21.11.2026 18:30", datetime(2026, 11, 21, 17, 30, tzinfo=UTC)),
])
def test_forum_times_in_the_board_time_zone(text: str, expected: datetime) -> None:
    assert parse_forum_time(text, ROME, NOW) == expected


@pytest.mark.parametrize("text", ["", "Posts: 17", "Sat Nov 21, 2026", "sometime"])
def test_text_without_a_date_and_time_is_not_a_time(text: str) -> None:
    assert parse_forum_time(text, ROME, NOW) is None


def test_a_style_without_the_raquo_still_gives_the_time_after_the_name() -> None:
    html = mangle_post_12(r"&raquo; </span>", "on </span>")
    post = next(p for p in parse_page(html, TOPIC_A[0], tz=UTC, now=NOW).posts if p.post_id == 12)
    assert post.author == "Jd-"
    # <time datetime> still wins; without it the text after the name is read
    html = mangle_post_12(r"&raquo; </span><time [^>]*>([^<]*)</time>", r"on </span>\1")
    post = next(p for p in parse_page(html, TOPIC_A[0], tz=UTC, now=NOW).posts if p.post_id == 12)
    assert post.posted_at == datetime(2026, 11, 21, 12, 1, tzinfo=UTC)


def test_localized_quote_headers_and_subsilver2_quote_boxes() -> None:
    html = read(PHPBB / "phpbb33_topic_p1.html").replace("</a> wrote: <a", "</a> ha scritto: <a")
    html = re.sub(r'<a href="\./memberlist\.php\?mode=viewprofile&amp;u=63">(Lady Grey)</a>',
                  r"\1", html)  # a guest's name: no profile link, only "NAME ha scritto:"
    page = parse_page(html, TOPIC_A[0], tz=UTC, now=NOW)
    assert next(p for p in page.posts if p.post_id == 13).quotes == (Quote("Lady Grey", 8),)

    html = read(WILD / "phpbb30_subsilver2_dildano_artwork_p1.html").replace(
        '<div class="postbody">That\'s the bugger!',
        '<div class="postbody"><div class="quotetitle">bearblock wrote:</div>'
        '<div class="quotecontent">there\'s no cover</div><div class="quotetitle">Quote:</div>'
        '<div class="quotecontent">anon</div>That\'s the bugger!', 1)
    page = parse_page(html, "http://www.dildano.co.uk/phpBB3/viewtopic.php?t=8", tz=UTC, now=NOW)
    assert page.posts[2].quotes == (Quote("bearblock"), Quote(None))


def strip_posts(html: str, replacement: str) -> str:
    start = html.index('<div id="p2"')
    end = html.index('<div class="action-bar bar-bottom">')
    return html[:start] + replacement + html[end:]


def test_a_topic_that_does_not_exist_is_not_a_thread() -> None:
    panel = ('<div class="panel" id="message"><div class="inner"><h2 class="message-title">'
             "Information</h2><p>The requested topic does not exist.</p></div></div>")
    html = strip_posts(read(PHPBB / "phpbb33_topic_p1.html"), panel)
    with pytest.raises(NotAThreadError, match="The requested topic does not exist"):
        parse_page(html, f"{BOARD}viewtopic.php?t=999", tz=UTC, now=NOW)


def test_a_topic_page_without_posts_is_a_layout_error() -> None:
    html = strip_posts(read(PHPBB / "phpbb33_topic_p1.html"), "")
    with pytest.raises(LayoutError) as caught:
        parse_page(html, TOPIC_A[0], tz=UTC, now=NOW)
    assert caught.value.what == "the posts"
    html = strip_posts(read(PHPBB / "phpbb33_topic_p1.html"),
                       '<form action="./ucp.php?mode=login" method="post" id="login">'
                       '<input type="password" name="password"></form>')
    with pytest.raises(LayoutError, match="login form"):
        parse_page(html, TOPIC_A[0], tz=UTC, now=NOW)


def test_a_subsilver2_post_that_starts_with_last_edited_by_is_not_an_edit_notice() -> None:
    html = read(WILD / "phpbb30_subsilver2_dildano_artwork_p1.html").replace(
        '<div class="postbody">That\'s the bugger!',
        '<div class="postbody">Last edited by Nick on Mon Oct 05, 2009 1:00 pm, he said', 1)
    page = parse_page(html, "http://www.dildano.co.uk/phpBB3/viewtopic.php?t=8", tz=UTC, now=NOW)
    assert page.posts[2].edit is None

    # the notice as subsilver2 prints it under the body of post 34 (the third)
    body_end = html.index("</div>", html.index("Last edited by Nick on Mon"))
    html = (html[:body_end + 6] + '<br /><br /><span class="gensmall">Last edited by Nick on '
            "Thu Oct 01, 2009 12:10 pm, edited 1 time in total.</span>" + html[body_end + 6:])
    page = parse_page(html, "http://www.dildano.co.uk/phpBB3/viewtopic.php?t=8", tz=UTC, now=NOW)
    assert page.posts[2].edit == EditNote(
        datetime(2009, 10, 1, 12, 10, tzinfo=UTC), "Nick", None, 1)
    assert [p.post_id for p in page.posts if p.edit] == [34]


def test_the_edit_word_pieces_are_held_by_every_text_holding_a_word() -> None:
    # The byte pieces stand in for the words in a first look at every post: a text that
    # holds a word in any case must hold its piece, or an edit notice would be missed.
    from itertools import product

    from assistant.scrapers import phpbb

    # The only characters whose lower case holds an ASCII letter: "İ" ("i" + a dot) and
    # the Kelvin sign ("k"); the only ones lowering to "ç": "ç" and "Ç".
    ascii_from = {c for c in range(128, 0x110000)
                  if any(ch.isascii() and ch.isalpha() for ch in chr(c).lower())}
    assert ascii_from == {0x130, 0x212A}
    assert {c for c in range(0x110000) if chr(c).lower() == "ç"} == {0xE7, 0xC7}
    assert len(phpbb._EDIT_WORD_PIECES) >= len(phpbb._EDIT_WORDS)
    for word in phpbb._EDIT_WORDS:
        spellings = {word, word.upper(), word.title(), word.replace("k", "\u212a")}
        for cases in product((str.lower, str.upper), repeat=min(len(word), 6)):
            spellings.add("".join(f(c) for f, c in zip(cases, word, strict=False))
                          + word[len(cases):])
        for spelling in spellings:
            text = f"»— Zuletzt {spelling} von Ærwin"
            assert word in text.lower()
            assert phpbb._holds_edit_phrase(text) == bool(phpbb._EDIT_PHRASE_IN.search(text))
    assert not phpbb._holds_edit_phrase("»— Nobody changed this post — Æ")


def test_a_page_url_with_a_forum_id_of_other_digits_is_encoded() -> None:
    from assistant.scrapers import phpbb

    assert phpbb._page_url("http://h/", 2, "12", 30) == "http://h/viewtopic.php?f=12&t=2&start=30"
    assert phpbb._page_url("http://h/", 2, None, 0) == "http://h/viewtopic.php?t=2"
    assert phpbb._page_url("http://h/", 2, "\u0663", 0) == "http://h/viewtopic.php?f=%D9%A3&t=2"
