"""Post positions come from the page, not from the URL that asked for it: a forum answers a
`start=` past the end of a thread (phpBB after a moderator deleted posts) with its last
page, and the posts on it must keep their real place in the thread."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import httpx
import pytest
from conftest import REALFORUM
from forum_server import ForumServer, page_path, running_forum, thread_files

from assistant.clock import FakeClock
from assistant.poller import Poller, PollSettings
from assistant.scrapers import phpbb, smf
from assistant.scrapers.http import Fetcher, FetchSettings
from assistant.store import GameStore

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
UTC_ZONE = ZoneInfo("UTC")
PHPBB = REALFORUM / "phpbb33"
SMF = REALFORUM / "smf21"


def truth(folder: str) -> dict[int, int]:
    """Post id -> position in the thread, from the fixture's ground truth."""
    posts = json.loads((REALFORUM / folder / "thread.json").read_text("utf-8"))["posts"]
    return {p["msg_id"]: p["position"] for p in posts}


def without_canonical(html: str) -> str:
    """The page as a phpBB 3.0 style (no canonical link) would send it."""
    stripped = re.sub(r'<link rel="canonical"[^>]*>', "", html)
    assert stripped != html
    return stripped


@pytest.mark.parametrize("asked", [75, 90, 600])
def test_phpbb_last_page_served_for_a_start_past_the_end_keeps_its_positions(asked) -> None:
    html = (PHPBB / "phpbb33_topic_p5.html").read_text("utf-8")
    url = f"http://127.0.0.1:8033/viewtopic.php?t=2&start={asked}"
    expected = truth("phpbb33")
    for variant in (html, without_canonical(html)):  # 3.3's canonical link, then none
        page = phpbb.parse_page(variant, url, tz=UTC, now=NOW)
        assert page.page == 5 and page.page_count == 5 and page.per_page == 15
        assert [p.position for p in page.posts] == [expected[p.post_id] for p in page.posts]
        assert [p.position for p in page.posts] == list(range(60, 66))
        assert all(p.page == 5 for p in page.posts)


def test_phpbb_the_urls_odd_start_is_kept_when_it_is_on_the_page_shown() -> None:
    """phpBB shows posts from any start (`start=7` lists posts 8..22 as page 1): a start the
    page agrees with is still believed."""
    html = without_canonical((PHPBB / "phpbb33_topic_p2.html").read_text("utf-8"))
    page = phpbb.parse_page(html, "http://127.0.0.1:8033/viewtopic.php?t=2&start=17",
                            tz=UTC, now=NOW)
    assert page.page == 2 and page.posts[0].position == 17


def test_smf_last_page_served_for_an_offset_past_the_end_keeps_its_positions() -> None:
    html = (SMF / "smf21_topic_p5.html").read_text("utf-8")
    expected = truth("smf21")
    page = smf.parse_page(html, "http://127.0.0.1:8021/index.php?topic=2.90", tz=UTC, now=NOW)
    assert page.page == 5 and page.per_page == 15
    assert [p.position for p in page.posts] == [expected[p.post_id] for p in page.posts]
    assert page.posts[0].position == 60


@pytest.fixture
def forum() -> Iterator[ForumServer]:
    with running_forum() as f:
        yield f


def make_poller(store: GameStore, url: str, clock: FakeClock) -> Poller:
    fetcher = Fetcher(httpx.Client(), FetchSettings(delay=0, backoff=0), sleep=lambda s: None)
    settings = PollSettings(recheck_every_polls=0, recheck_every=None)
    return Poller(store, fetcher, clock, UTC_ZONE, settings, thread_url=url)


@pytest.mark.parametrize("software", ["phpbb", "smf"])
def test_a_poll_answered_with_an_earlier_page_stores_the_right_positions(
    forum, tmp_path, software
) -> None:
    """The thread lost its last page (posts deleted): asked for page 5, the forum answers
    with what is now its last page, page 4. Its posts keep positions 45-59, and the poll's
    page bookkeeping follows the page the forum gave."""
    files = thread_files(software)
    url = forum.serve_thread(software, files)
    clock = FakeClock(NOW)
    with GameStore.open(tmp_path, "g") as store:
        poller = make_poller(store, url, clock)
        poller.poll()
        before = {sp.post_id: sp.latest.position for sp in store.posts()}
        forum.set_page(page_path(software, 2, 5), files[3].read_bytes())
        forum.log.clear()
        clock.advance(300)
        result = poller.poll()
        assert forum.log[0] == page_path(software, 2, 5)
        assert result.pages_read[0] == 4
        assert result.new == () and result.changed == ()
        after = {sp.post_id: sp.latest.position for sp in store.posts()}
        page4 = [sp.post_id for sp in store.posts() if sp.latest.page == 4]
        assert len(page4) == 15
        assert all(after[i] == before[i] for i in page4)
        assert sorted(after[i] for i in page4) == list(range(45, 60))
