"""A topic page cut short (issue 14, "Lost data"): one cut mid-post stored 25 of 46 posts
with exit 0, and the daemon then saw false deletions and silent edits. A page that ends
before the forum's closing markup, or whose post count disagrees with its own pagination,
is now an error for that poll: asked for once more at once, never stored, read again by
the next poll. Tested on the real SMF 2.1 and phpBB 3.3 pages of the realforum thread."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from cli_support import call
from forum_server import page_path, route_key, running_forum, thread_files
from test_poller import without_post

from assistant.clock import FakeClock
from assistant.errors import TruncatedPageError
from assistant.poller import Poller, PollSettings
from assistant.scrapers.http import Fetcher, FetchSettings
from assistant.store import GameStore

FORUMS = ["smf", "phpbb"]
POST_START = {"smf": rb'<div class="windowbg" id="msg', "phpbb": rb'<div id="p\d+" class="post'}


def cut_mid_post(page: bytes, software: str, nth: int = 8) -> bytes:
    """The page as a dropped connection leaves it: it stops inside its `nth` post."""
    starts = [m.start() for m in re.finditer(POST_START[software], page)]
    assert len(starts) >= nth
    return page[: starts[nth - 1] + 400]


def ids_stored(data) -> list[int]:
    with GameStore.open(data, "g", create=False) as store:
        return [sp.post_id for sp in store.posts()]


def versions(data) -> int:
    with GameStore.open(data, "g", create=False) as store:
        return sum(len(sp.versions) for sp in store.posts())


@pytest.fixture
def env(monkeypatch):
    monkeypatch.setenv("ASSISTANT_NOW", "2026-11-22T12:00:00+00:00")


@pytest.mark.parametrize("software", FORUMS)
def test_a_page_cut_mid_post_stores_nothing_of_it_and_the_next_fetch_reads_it(
    tmp_path, capsys, env, software
) -> None:
    files = thread_files(software)
    with running_forum() as forum:
        url = forum.serve_thread(software, files)
        third = page_path(software, 2, 3)
        forum.set_page(third, cut_mid_post(files[2].read_bytes(), software))
        code, out, err = call(capsys, tmp_path, "fetch", url, "--game", "g", "--delay", "0")
        assert code == 1 and out == ""
        assert f"{forum.base_url}{third}: the page ends before the forum's closing markup " \
            "(</html>)" in err, err
        assert "nothing from it was stored" in err and len(err.strip().splitlines()) == 1
        assert forum.log.count(third) == 2  # asked once more at once, then the poll failed
        stored = ids_stored(tmp_path)
        assert len(stored) == 30  # pages 1 and 2, whole; nothing of page 3

        forum.set_page(third, files[2].read_bytes())
        code, out, err = call(capsys, tmp_path, "--json", "fetch", "--game", "g", "--delay", "0")
    assert code == 0, err
    assert len(ids_stored(tmp_path)) == 66 and versions(tmp_path) == 66
    assert '"changed": []' in out and '"vanished": []' in out


@pytest.mark.parametrize("software", FORUMS)
def test_a_last_page_cut_short_while_polling_changes_nothing(tmp_path, software) -> None:
    """The daemon's case: no false deletion, no new version (a false silent edit), and
    the next poll, served whole, finds nothing changed."""
    files = thread_files(software)
    clock = FakeClock(datetime(2026, 11, 22, 12, tzinfo=UTC))
    with running_forum() as forum, GameStore.open(tmp_path, "g") as store:
        url = forum.serve_thread(software, files)
        fetcher = Fetcher(settings=FetchSettings(delay=0, retries=0))
        poller = Poller(store, fetcher, clock, ZoneInfo("UTC"), PollSettings(progress=False),
                        thread_url=url)
        poller.poll()
        before = store.path.read_bytes()
        last = page_path(software, 2, 5)
        forum.set_page(last, cut_mid_post(files[4].read_bytes(), software, nth=3))
        clock.advance(60)
        with pytest.raises(TruncatedPageError):
            poller.poll()
        assert store.path.read_bytes() == before
        forum.set_page(last, files[4].read_bytes())
        clock.advance(60)
        result = poller.poll()
    assert result.changed == () and result.vanished == () and result.new == ()


@pytest.mark.parametrize("software", FORUMS)
def test_a_page_with_fewer_posts_than_its_pagination_is_refused(tmp_path, capsys, env,
                                                                  software) -> None:
    """Its closing markup is there, but page 2 of 5 shows 14 posts where every page but
    the last holds 15: posts are missing from it (the forum's cache, a proxy, a post the
    page did not carry). Refused rather than stored as 14."""
    files = thread_files(software)
    with running_forum() as forum:
        url = forum.serve_thread(software, files)
        forum.set_page(page_path(software, 2, 2),
                       without_post(files[1].read_bytes(), software, 20))
        code, _, err = call(capsys, tmp_path, "fetch", url, "--game", "g", "--delay", "0")
    assert code == 1
    assert "page 2 of 5 shows 14 post(s) where its pagination puts 15 on a page" in err, err
    assert len(ids_stored(tmp_path)) == 15


@pytest.mark.parametrize("software", FORUMS)
def test_a_page_cut_once_is_read_whole_on_the_second_asking(tmp_path, capsys, env,
                                                            software) -> None:
    files = thread_files(software)
    answers = [cut_mid_post(files[2].read_bytes(), software), files[2].read_bytes()]
    with running_forum() as forum:
        url = forum.serve_thread(software, files)
        forum.pages[route_key(page_path(software, 2, 3))] = (
            lambda: answers.pop(0) if len(answers) > 1 else answers[0])
        code, _, err = call(capsys, tmp_path, "fetch", url, "--game", "g", "--delay", "0")
    assert code == 0, err
    assert len(ids_stored(tmp_path)) == 66 and versions(tmp_path) == 66
