"""Politeness measured on the real forums (issue 10), counted by the forum's own server:
every request the assistant sent is a line in the PHP server's access log.

The first read of a thread of three full pages (45 posts on SMF, 30 on phpBB) asks for
each of the three pages once and for nothing else; an idle poll, by `fetch` or by the
daemon (`run --once`, and `run`'s event loop), costs at most two requests (the last page,
and the page after it since the last page is full); the post that starts page 4 is found
by such a poll.
"""

from __future__ import annotations

import asyncio
import json
import re

import pytest
from cli_support import call
from live_admin import AccessLog

from assistant.clock import SystemClock
from assistant.daemon import Daemon
from assistant.scrapers.http import Fetcher, FetchSettings

_PAGE_START = {"smf": re.compile(r"[?&;]topic=(\d+)\.(\d+)"),
               "phpbb": re.compile(r"[?&]t=(\d+)(?:&start=(\d+))?")}


def pages_asked(requests, software: str, topic: int, per_page: int) -> list[int]:
    """The topic page each request asked for, in order; anything else fails the test."""
    pages = []
    for r in requests:
        m = _PAGE_START[software].search(r.path)
        assert r.method == "GET" and m and int(m.group(1)) == topic, f"not a page of {topic}: {r}"
        pages.append(int(m.group(2) or 0) // per_page + 1)
    return pages


@pytest.mark.parametrize("software", ["smf", "phpbb"])
def test_a_backfill_asks_for_each_page_once_and_an_idle_poll_for_two_at_most(
    live_forums, software, tmp_path, capsys
):
    board = live_forums.forum(software)
    log = AccessLog(live_forums.dir, software)
    host, ann = live_forums.names("host", "ann")
    board.create_members(host, ann)
    topic, _ = board.new_topic(host, "Three full pages", "Day 1 begins.")
    for i in range(2, 3 * board.per_page + 1):  # 45 posts on SMF, 30 on phpBB
        board.reply(ann if i % 2 else host, topic, f"Post {i}, no vote.")
    posts = board.post_ids(topic)
    assert len(posts) == 3 * board.per_page
    players = tmp_path / "players.txt"
    players.write_text(f"{host}\n{ann}\n", encoding="utf-8")
    url = live_forums.topic_url(software, topic)
    code, out, err = call(capsys, tmp_path, "game", "new", "g", "--thread", url, "--ruleset",
                          "permissive", "--players", str(players), "--gm", host)
    assert code == 0, err

    def fetch(*args: str) -> tuple[dict, list[int]]:
        log.mark()
        code, out, err = call(capsys, tmp_path, "--json", *args)
        assert code == 0, err
        sent = log.since_mark()
        assert all(r.client == "127.0.0.1" and r.status == 200 for r in sent), sent
        result = json.loads(out)
        poll = result["games"][0]["poll"] if "games" in result else result
        assert poll["requests"] == len(sent)  # what it says it cost is what the forum saw
        return poll, pages_asked(sent, software, topic, board.per_page)

    first, pages = fetch("fetch", "--game", "g", "--delay", "0")
    assert first["new"] == posts and first["page_count"] == 3
    assert pages == [1, 2, 3]  # each page once, nothing fetched twice, nothing else

    idle, pages = fetch("fetch", "--game", "g", "--delay", "0")
    assert idle["new"] == idle["changed"] == [] and len(pages) <= 2
    idle, pages = fetch("run", "--once", "--delay", "0")  # the daemon's idle poll
    assert idle["new"] == idle["changed"] == [] and len(pages) <= 2
    daemon = Daemon(tmp_path, SystemClock(), lambda: Fetcher(settings=FetchSettings(delay=0)),
                    fetch_settings=FetchSettings(delay=0))
    log.mark()
    cycle = asyncio.run(daemon.acycle("g"))  # the same in `run`'s event loop
    assert cycle.poll is not None and cycle.poll.new == cycle.poll.changed == ()
    sent = log.since_mark()
    assert cycle.poll.requests == len(sent) and len(pages_asked(sent, software, topic,
                                                                board.per_page)) <= 2

    page_4 = board.reply(ann, topic, "The first post of page 4.")
    found, pages = fetch("run", "--once", "--delay", "0")
    assert found["new"] == [page_4] and pages == [3, 4]
    idle, pages = fetch("run", "--once", "--delay", "0")
    assert idle["new"] == [] and pages == [4]
