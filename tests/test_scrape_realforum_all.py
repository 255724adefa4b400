"""Every file under realforum/ gives the GM the right result: a topic page its posts (the
ids its ground truth says), anything else the error that names it and what to give instead."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from conftest import REALFORUM

from assistant.errors import (
    BoardPageError,
    FeedError,
    NotAThreadError,
    PrintViewError,
    UnsupportedForumError,
)
from assistant.scrapers import parse_topic_page, thread_url_info

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)  # the pages were saved that day, forum tz UTC
FORUM = {"smf21": "http://127.0.0.1:8021", "phpbb33": "http://127.0.0.1:8033"}
PER_PAGE = 15


def truth(forum: str, name: str) -> dict:
    return json.loads((REALFORUM / forum / name).read_text(encoding="utf-8"))


def ids(forum: str, name: str) -> list[int]:
    key = "msg_id" if forum == "smf21" else "post_id"
    return [p[key] for p in truth(forum, name)["posts"]]


def topic_ids(forum: str, name: str, page: int, upto: int | None = None) -> list[int]:
    """The ids a page shows: 15 a page, of the first `upto` posts when the thread was shorter."""
    all_ids = ids(forum, name)[:upto]
    return all_ids[(page - 1) * PER_PAGE : page * PER_PAGE]


def topic_url(forum: str, topic: int) -> str:
    return f"{FORUM[forum]}/index.php?topic={topic}.0" if forum == "smf21" else (
        f"{FORUM[forum]}/viewtopic.php?t={topic}")


def expected(path: Path) -> tuple[str, object, str]:
    """(what, detail, the URL the page is read as) for one file: "posts" with the ids, or
    an error class with the topic URL it must name."""
    name = path.name
    forum = name.split("_", 1)[0]
    base = FORUM[forum]
    if m := re.fullmatch(r"\w+_b_live_(\d+)_p(\d+)\.html", name):
        upto, page = int(m.group(1)), int(m.group(2))
        return "posts", topic_ids(forum, "thread_b.json", page, upto), topic_url(forum, 3)
    if m := re.fullmatch(r"\w+?_(b_)?topic_p(\d+)(?:_\w+)?\.html", name):
        thread = "thread_b.json" if m.group(1) else "thread.json"
        page, topic = int(m.group(2)), 3 if m.group(1) else 2
        return "posts", topic_ids(forum, thread, page), topic_url(forum, topic)
    if name in ("smf21_topic_msg40.html", "phpbb33_post40.html"):  # a permalink's page
        url = f"{base}/index.php?msg=40" if forum == "smf21" else f"{base}/viewtopic.php?p=40"
        return "posts", topic_ids(forum, "thread.json", 3), url
    if "print" in name:  # read from an address that does not name the topic
        return "print", PrintViewError, f"{base}/saved/{name}"
    if name in ("smf21_board.html", "phpbb33_forum.html"):
        url = f"{base}/index.php?board=4.0" if forum == "smf21" else f"{base}/viewforum.php?f=2"
        return "board", BoardPageError, url
    if name.endswith(".xml"):
        url = (f"{base}/index.php?action=.xml;type=rss2;board=4" if forum == "smf21"
               else f"{base}/app.php/feed/{name.rsplit('_', 1)[1][:-4]}/2")
        return "feed", FeedError, url
    raise AssertionError(f"{path}: a page this test has no expected outcome for; add one")


PAGES = sorted(
    p for p in REALFORUM.rglob("*") if p.is_file() and p.suffix not in (".json", ".md")
)


def test_every_realforum_file_is_covered() -> None:
    assert len(PAGES) >= 70  # 36 live snapshots, and the pages of both forums
    kinds = {expected(p)[0] for p in PAGES}
    assert kinds == {"posts", "print", "board", "feed"}


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_each_realforum_file_gives_the_gm_the_right_result(path: Path) -> None:
    what, detail, url = expected(path)
    forum = path.name.split("_", 1)[0]
    data = path.read_bytes()
    if what == "posts":
        page = parse_topic_page(data, url, tz=ZoneInfo("UTC"), now=NOW)
        assert [p.post_id for p in page.posts] == detail
        return
    with pytest.raises(NotAThreadError) as caught:
        parse_topic_page(data, url, tz=ZoneInfo("UTC"), now=NOW)
    error = caught.value
    assert type(error) is detail
    message = str(error)
    assert message.startswith(url)  # names the page
    assert " instead" in message  # and says what to give
    game_topic = topic_url(forum, 2)
    assert error.topic_url is not None and error.topic_url in message
    if path.name == "phpbb33_feed_forum.xml":
        # phpBB's forum feed links posts only: the game thread by a post of it, and its title.
        assert f"{FORUM[forum]}/viewtopic.php?p=67 (“Mafia Game 1 — Day 1”)" in message
    else:
        assert f"{game_topic} (“Mafia Game 1 — Day 1”)" in message or (
            what == "print" and game_topic in message)
    if what in ("print", "feed") and path.name != "phpbb33_feed_forum.xml":
        assert error.topic_url == game_topic  # the one topic the page is about
    if what == "print":
        assert "print view of “Mafia Game 1 — Day 1”" in message and "no post ids" in message
    # The address it names is one `fetch` accepts.
    assert thread_url_info(error.topic_url).software == ("smf" if forum == "smf21" else "phpbb")


def test_print_view_addresses_lead_to_the_topic_and_feed_addresses_name_it() -> None:
    """Given as a URL, a print view is read as its topic; a feed's address is refused
    before any request, naming the topic when the address holds it."""
    assert thread_url_info(
        "http://f.example/index.php?action=printpage;topic=2.0"
    ).first_page_url == "http://f.example/index.php?topic=2.0"
    assert thread_url_info(
        "http://f.example/viewtopic.php?t=2&view=print&start=15"
    ).first_page_url == "http://f.example/viewtopic.php?t=2"
    with pytest.raises(FeedError) as caught:
        thread_url_info("http://f.example/forum/app.php/feed/topic/7")
    assert caught.value.topic_url == "http://f.example/forum/viewtopic.php?t=7"
    assert "http://f.example/forum/viewtopic.php?t=7" in str(caught.value)
    with pytest.raises(FeedError, match="is a feed, not a topic"):
        thread_url_info("http://f.example/index.php?action=.xml;type=rss2;board=4")
    with pytest.raises(BoardPageError, match="board's list of topics"):
        thread_url_info("http://f.example/index.php?board=4.0")


def test_a_page_of_neither_forum_still_says_so() -> None:
    with pytest.raises(UnsupportedForumError, match="neither SMF nor phpBB"):
        parse_topic_page(b"<html><body><p>hello</p></body></html>", "http://f.example/x.html",
                         tz=ZoneInfo("UTC"), now=NOW)
