"""Polling the real fixture threads served on 127.0.0.1: backfill, cheap polls, edits,
deletions, a thread growing page by page (the `live/` snapshots), and layout errors."""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import httpx
import pytest
from conftest import REALFORUM
from forum_server import ForumServer, page_path, running_forum, thread_files
from selectolax.lexbor import LexborHTMLParser

from assistant.clock import FakeClock
from assistant.errors import LayoutError
from assistant.models import from_iso, to_iso
from assistant.poller import Poller, PollSettings
from assistant.scrapers.http import Fetcher, FetchSettings
from assistant.store import GameStore

UTC_ZONE = ZoneInfo("UTC")
FORUMS = ["smf", "phpbb"]
POST_SELECTOR = {"smf": "div#msg{}", "phpbb": "div#p{}"}


@pytest.fixture
def forum() -> Iterator[ForumServer]:
    with running_forum() as f:
        yield f


@pytest.fixture
def store(tmp_path: Path) -> Iterator[GameStore]:
    with GameStore.open(tmp_path, "g1") as s:
        yield s


def make_poller(store: GameStore, url: str, clock: FakeClock, **settings: object) -> Poller:
    fetcher = Fetcher(httpx.Client(), FetchSettings(delay=0, backoff=0), sleep=lambda s: None)
    return Poller(store, fetcher, clock, UTC_ZONE, PollSettings(**settings), thread_url=url)


def expected_ids(software: str) -> list[int]:
    folder = "smf21" if software == "smf" else "phpbb33"
    posts = json.loads((REALFORUM / folder / "thread.json").read_text("utf-8"))["posts"]
    return [p["msg_id"] for p in posts]


def without_post(html: bytes, software: str, post_id: int) -> bytes:
    tree = LexborHTMLParser(html.decode("utf-8"))
    node = tree.css_first(POST_SELECTOR[software].format(post_id))
    assert node is not None
    node.decompose()
    return tree.html.encode("utf-8")


def thread_without_post(files: list[Path], software: str, post_id: int) -> list[bytes]:
    """The thread's pages after a moderator deleted `post_id`, as the forum then serves
    them: every page before the last still holds a full page of posts (the first post
    of each later page moves up one page), the last page one post fewer."""
    trees = [LexborHTMLParser(f.read_bytes().decode("utf-8")) for f in files]
    posts = "div.windowbg" if software == "smf" else "div.post"
    removed = None
    for n, tree in enumerate(trees):
        node = tree.css_first(POST_SELECTOR[software].format(post_id))
        if node is not None:
            node.decompose()
            removed = n
    assert removed is not None
    for n in range(removed, len(trees) - 1):
        moving = trees[n + 1].css_first(posts)
        trees[n].css(posts)[-1].insert_after(moving)
        moving.decompose()
    return [tree.html.encode("utf-8") for tree in trees]


def without_posts(html: bytes, software: str) -> bytes:
    tree = LexborHTMLParser(html.decode("utf-8"))
    for node in tree.css("div.windowbg" if software == "smf" else "div.post"):
        node.decompose()
    return tree.html.encode("utf-8")


@pytest.mark.parametrize("software", FORUMS)
def test_full_fetch_stores_all_66_posts(forum, store, clock, software):
    url = forum.serve_thread(software, thread_files(software))
    result = make_poller(store, url, clock).poll()

    ids = expected_ids(software)
    assert len(ids) == 66
    assert list(result.new) == ids
    assert result.backfill and result.requests == 5 and result.page_count == 5
    stored = store.posts()
    assert [sp.post_id for sp in stored] == ids
    assert [sp.latest.position for sp in stored] == list(range(66))
    assert all(len(sp.versions) == 1 and sp.vanished_at is None for sp in stored)
    state = store.crawl_state()
    assert state["software"] == software and state["per_page"] == 15 and state["backfilled"]
    assert state["page_urls"] == [forum.base_url + page_path(software, 2, n) for n in range(1, 6)]
    assert state["last_page"] == 5 and state["last_post_id"] == 67


@pytest.mark.parametrize("software", FORUMS)
def test_second_poll_with_nothing_new_costs_at_most_two_requests(forum, store, clock, software):
    url = forum.serve_thread(software, thread_files(software))
    poller = make_poller(store, url, clock, recheck_every_polls=0, recheck_every=None)
    poller.poll()
    forum.log.clear()
    clock.advance(300)

    result = poller.poll()

    assert result.requests <= 2 and len(forum.log) == result.requests
    assert forum.log[-1] == page_path(software, 2, 5)
    assert (result.new, result.changed, result.vanished) == ((), (), ())
    assert sum(len(sp.versions) for sp in store.posts()) == 66


@pytest.mark.parametrize("software", FORUMS)
def test_an_edit_between_polls_adds_exactly_one_version(forum, store, clock, software):
    files = thread_files(software)
    url = forum.serve_thread(software, files)
    poller = make_poller(store, url, clock)
    poller.poll()
    before = files[4].read_bytes()
    edited = before.replace(b"Night 1 begins now.", b"Night 1 begins now, sleep well.")
    assert edited != before
    forum.set_page(page_path(software, 2, 5), edited)
    clock.advance(60)

    result = poller.poll()

    assert result.changed == (67,) and result.new == ()
    post = store.post(67)
    assert len(post.versions) == 2 and post.edited
    assert "sleep well" in post.latest.body_html
    assert "sleep well" not in post.versions[0].post.body_html
    assert post.versions[1].seen_at == clock.now()
    assert sum(len(sp.versions) for sp in store.posts()) == 67


@pytest.mark.parametrize("software", FORUMS)
def test_a_deleted_post_is_marked_vanished_not_forgotten(forum, store, clock, software):
    files = thread_files(software)
    url = forum.serve_thread(software, files)
    poller = make_poller(store, url, clock, recheck_every_polls=0, recheck_every=None)
    poller.poll()
    forum.set_page(page_path(software, 2, 5), without_post(files[4].read_bytes(), software, 64))
    clock.advance(60)

    result = poller.poll()

    assert result.vanished == (64,)
    assert store.post(64).vanished_at == clock.now()
    assert 64 not in [sp.post_id for sp in store.posts(include_vanished=False)]
    assert len(store.posts()) == 66

    # Back again (a moderator restored it): no longer vanished, no new version.
    forum.set_page(page_path(software, 2, 5), files[4].read_bytes())
    result = poller.poll()
    assert result.reappeared == (64,) and store.post(64).vanished_at is None
    assert len(store.post(64).versions) == 1


@pytest.mark.parametrize("software", FORUMS)
def test_a_deletion_on_an_earlier_page_is_found_by_the_recheck(forum, store, clock, software):
    files = thread_files(software)
    url = forum.serve_thread(software, files)
    poller = make_poller(store, url, clock, recheck_every_polls=0, recheck_every=None)
    poller.poll()
    for n, page in enumerate(thread_without_post(files, software, 20), start=1):
        forum.set_page(page_path(software, 2, n), page)

    assert poller.poll().vanished == ()  # only the last page was read
    result = poller.poll(recheck=True, recheck_since=datetime(2026, 11, 21, tzinfo=UTC))

    assert result.rechecked and result.vanished == (20,)
    assert sorted(result.pages_read) == [1, 2, 3, 4, 5]
    assert [sp.post_id for sp in store.posts() if sp.vanished_at] == [20]


@pytest.mark.parametrize("software", FORUMS)
def test_recheck_comes_every_n_polls_or_after_a_while(forum, store, clock, software):
    """Every N polls the earlier pages holding the last while's posts are read again (edits
    come mostly soon after a post); every half hour, every earlier page of the day."""
    url = forum.serve_thread(software, thread_files(software))
    poller = make_poller(store, url, clock, recheck_every_polls=3,
                         recheck_recent=timedelta(hours=7), recheck_every=timedelta(minutes=30),
                         recheck_window=timedelta(hours=30))
    poller.poll()
    flags = []
    for _ in range(3):
        clock.advance(60)
        flags.append(poller.poll())
    assert [r.rechecked for r in flags] == [False, False, True]
    assert [r.requests for r in flags[:2]] == [1, 1]
    # 7 h before 12:03 is 05:03 on 2026-11-22: page 4's last post (05:08) and page 5.
    assert sorted(flags[2].pages_read) == [4, 5] and flags[2].requests == 2

    clock.advance(timedelta(minutes=31))
    whole = poller.poll()  # by time: the day (30 h back: from 06:34 on 2026-11-21), whole
    assert whole.rechecked and sorted(whole.pages_read) == [1, 2, 3, 4, 5]
    clock.advance(60)
    assert poller.poll().pages_read == (5,)


@pytest.mark.parametrize("software", FORUMS)
def test_a_recheck_by_count_reads_at_most_its_pages_before_the_last(forum, store, clock,
                                                                    software):
    """A thread as fast as a chat: the last while's posts fill pages 2 to 5; the re-read
    every N polls takes the two before the last, the half-hourly one every page."""
    url = forum.serve_thread(software, thread_files(software))
    poller = make_poller(store, url, clock, recheck_every_polls=1, recheck_recent_pages=2,
                         recheck_recent=timedelta(hours=24), recheck_every=timedelta(minutes=30),
                         recheck_window=timedelta(hours=30))
    poller.poll()
    clock.advance(60)
    assert sorted(poller.poll().pages_read) == [3, 4, 5]
    clock.advance(timedelta(minutes=31))
    assert sorted(poller.poll().pages_read) == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("software", FORUMS)
def test_a_recheck_by_count_reads_no_page_without_a_recent_post(forum, store, clock, software):
    url = forum.serve_thread(software, thread_files(software))
    poller = make_poller(store, url, clock, recheck_every_polls=1,
                         recheck_recent=timedelta(hours=6), recheck_every=timedelta(minutes=30),
                         recheck_window=timedelta(hours=30))
    poller.poll()
    clock.advance(60)
    result = poller.poll()  # since 06:01: only page 5, the last, holds such posts
    assert result.rechecked and result.pages_read == (5,) and result.requests == 1


def test_games_read_together_recheck_at_polls_and_times_of_their_own(forum, clock, tmp_path):
    """The daemon's games set up at once (`stagger`): each re-reads once in its N polls and
    its first whole re-read comes within the half hour, but not all at the same poll."""
    url = forum.serve_thread("smf", thread_files("smf"))
    at_poll: dict[str, int] = {}
    for g in range(8):
        with GameStore.open(tmp_path, f"game-{g}") as store:
            poller = make_poller(store, url, clock, recheck_every_polls=6, stagger=True,
                                 recheck_recent=None, recheck_every=timedelta(minutes=30),
                                 recheck_window=timedelta(hours=30))
            poller.poll()
            last = from_iso(store.crawl_state()["last_recheck_at"])
            assert clock.now() - timedelta(minutes=30) < last <= clock.now()
            rechecks = [poller.poll(recheck=None).rechecked for _ in range(6)]
            assert rechecks.count(True) == 1
            at_poll[store.game_id] = rechecks.index(True)
            again = make_poller(store, url, clock, recheck_every_polls=6, stagger=True)
            assert again._stagger() == poller._stagger()  # the same for the game, always
    assert len(set(at_poll.values())) >= 3


@pytest.mark.parametrize("software", FORUMS)
@pytest.mark.parametrize("pages_per_write", [2, 10])
def test_a_page_not_understood_keeps_whole_pages_and_the_next_poll_resumes(
    forum, store, clock, software, pages_per_write
):
    files = thread_files(software)
    url = forum.serve_thread(software, files)
    forum.set_page(page_path(software, 2, 3), without_posts(files[2].read_bytes(), software))
    poller = make_poller(store, url, clock, pages_per_write=pages_per_write)

    with pytest.raises(LayoutError) as err:
        poller.poll()
    assert "page 3" in str(err.value) and "stored is kept" in str(err.value)
    assert [sp.post_id for sp in store.posts()] == expected_ids(software)[:30]
    assert store.crawl_state()["backfill_next"] == 3

    forum.set_page(page_path(software, 2, 3), files[2].read_bytes())
    forum.log.clear()
    result = poller.poll()
    assert result.backfill and result.requests == 3
    assert forum.log == [page_path(software, 2, n) for n in (3, 4, 5)]
    assert [sp.post_id for sp in store.posts()] == expected_ids(software)
    assert store.crawl_state()["backfilled"]


@pytest.mark.parametrize("pages_per_write", [2, 10])
def test_a_backfill_writes_the_file_once_per_batch_of_pages(
    forum, store, clock, monkeypatch, pages_per_write
):
    url = forum.serve_thread("smf", thread_files("smf"))
    replaces = []
    real_replace = os.replace

    def counting_replace(src: str, dst: str) -> None:
        replaces.append(dst)
        real_replace(src, dst)

    monkeypatch.setattr("assistant.store.os.replace", counting_replace)

    make_poller(store, url, clock, pages_per_write=pages_per_write).poll()

    # one write per batch of pages, and one for the end of the backfill when the last batch
    # was full; the poll's counters go with the last
    assert len(replaces) <= math.ceil(5 / pages_per_write) + 1
    assert len(store.posts()) == 66
    assert store.crawl_state()["polls"] == 1


def counted_replaces(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    replaces: list[str] = []
    real_replace = os.replace

    def counting_replace(src: str, dst: str) -> None:
        replaces.append(dst)
        real_replace(src, dst)

    monkeypatch.setattr("assistant.store.os.replace", counting_replace)
    return replaces


@pytest.mark.parametrize("software", FORUMS)
def test_an_incremental_poll_is_one_write_of_the_file(forum, store, clock, monkeypatch, software):
    files = thread_files(software)
    url = forum.serve_thread(software, files)
    poller = make_poller(store, url, clock, recheck_every_polls=0, recheck_every=None)
    poller.poll()
    replaces = counted_replaces(monkeypatch)
    edited = files[4].read_bytes().replace(b"Night 1 begins now.", b"Night 1 begins, sleep.")
    forum.set_page(page_path(software, 2, 5), edited)

    for n in (1, 2):
        clock.advance(300)
        result = poller.poll()
        # the new version, the crawl state and the poll's counters: one atomic replace
        assert len(replaces) == n and result.changed
        state = store.crawl_state()
        assert state["polls"] == 1 + n and state["polls_since_recheck"] == n
        assert state["last_poll_at"] == to_iso(clock.now())
        forum.set_page(page_path(software, 2, 5), edited.replace(b"sleep", b"sleep " * (n + 1)))


def test_a_recheck_with_nothing_to_reread_still_stores_its_counters(forum, store, clock,
                                                                    monkeypatch):
    url = forum.serve_thread("smf", thread_files("smf"))
    poller = make_poller(store, url, clock, recheck_every_polls=0, recheck_every=None)
    poller.poll()
    replaces = counted_replaces(monkeypatch)
    clock.advance(300)

    # no post of the last day before the last page: nothing to re-read
    result = poller.poll(recheck=True, recheck_since=clock.now())

    # the last page read, unchanged, is not written; the counters (after the recheck: if
    # it fails, the next poll must try again) go beside the game file
    assert result.rechecked and replaces == [store.poll_counters_path()]
    state = store.crawl_state()
    assert state["polls"] == 2 and state["polls_since_recheck"] == 0
    assert state["last_recheck_at"] == state["last_poll_at"]


@pytest.mark.parametrize("software", FORUMS)
def test_a_recheck_that_found_nothing_is_not_forgotten_by_the_next_poll_that_stores(
        forum, store, clock, software):
    """A recheck that finds nothing keeps its time beside the game file (its counters); the
    next poll that stores something writes its counters into the file: that recheck's time
    went with them, or the file's older one came back and every 30 minutes a poll that
    stored something was followed by a recheck of the whole day, poll after poll."""
    files = thread_files(software)
    url = forum.serve_thread(software, files)
    poller = make_poller(store, url, clock, recheck_every_polls=0,
                         recheck_every=timedelta(minutes=30), recheck_window=timedelta(hours=8))
    poller.poll()
    clock.advance(timedelta(minutes=31))
    assert poller.poll().rechecked  # by time; nothing changed: its counters beside the file
    rechecked_at = to_iso(clock.now())
    edited = files[4].read_bytes().replace(b"Night 1 begins now.", b"Night 1 begins, sleep.")
    forum.set_page(page_path(software, 2, 5), edited)
    clock.advance(60)
    stored = poller.poll()
    assert stored.changed and not stored.rechecked
    assert store.crawl_state()["last_recheck_at"] == rechecked_at
    clock.advance(60)
    assert not poller.poll().rechecked  # 2 minutes after the last recheck


@pytest.mark.parametrize(("software", "link", "file"), [
    ("smf", "/index.php?topic=2.msg40#msg40", "smf21/smf21_topic_msg40.html"),
    ("phpbb", "/viewtopic.php?p=40#p40", "phpbb33/phpbb33_post40.html"),
])
def test_a_post_permalink_reads_the_whole_thread(forum, store, clock, software, link, file):
    forum.serve_thread(software, thread_files(software))
    forum.set_page(link.split("#")[0], (REALFORUM / file).read_bytes())

    result = make_poller(store, forum.base_url + link, clock).poll()

    assert len(result.new) == 66
    assert store.crawl_state()["thread_url"] == forum.base_url + page_path(software, 2, 1)


# ---- the thread as it grew: real snapshots a poller saw (realforum/live) ----------------

def live_snapshots(software: str) -> list[tuple[datetime, dict[int, Path], dict]]:
    """Per snapshot: when it was saved, the newest file of every page so far, the manifest."""
    forum_name = "smf21" if software == "smf" else "phpbb33"
    manifest = json.loads((REALFORUM / "live" / "live_manifest.json").read_text("utf-8"))
    by_no: dict[int, list[dict]] = {}
    for snap in manifest["snapshots"]:
        if snap["forum"] == forum_name:
            by_no.setdefault(snap["snapshot_no"], []).append(snap)
    files: dict[int, Path] = {}
    out = []
    for no in sorted(by_no):
        for snap in by_no[no]:
            files[snap["page"]] = REALFORUM / "live" / snap["file"]
        first = by_no[no][0]
        out.append((datetime.fromisoformat(first["saved_at_iso"]), dict(files), first))
    return out


@pytest.mark.parametrize("software", FORUMS)
def test_polling_a_thread_as_it_grows_finds_every_new_post_and_edit(forum, store, software):
    snapshots = live_snapshots(software)
    clock = FakeClock(snapshots[0][0])
    poller = None
    missed_edits = []
    prev_total = 1
    for saved_at, files, snap in snapshots:
        for page, path in files.items():
            forum.set_page(page_path(software, 3, page), path.read_bytes())
        clock.set(saved_at)
        poller = poller or make_poller(store, forum.base_url + page_path(software, 3, 1), clock,
                                       recheck_every_polls=0, recheck_every=None)
        forum.log.clear()
        result = poller.poll(recheck=False)

        assert list(result.new) == snap["new_post_ids_since_prev"], snap["file"]
        # a poll reads the last known page, follows onto the pages added since, and asks
        # for the next page once when the last one it read was full
        assert result.requests == len(forum.log) <= snap["pages_total"] - prev_total + 2
        prev_total = snap["pages_total"]
        edited = [e["id"] for e in snap["edited_since_prev"]]
        missed_edits += [pid for pid in edited if pid not in result.changed]
        assert set(result.changed) <= set(edited), snap["file"]

    # The only edit a last-page poll misses is the one on an earlier page (snapshot 40).
    assert len(missed_edits) == 1
    (missed,) = missed_edits
    assert len(store.post(missed).versions) == 1

    result = poller.poll(recheck=True, recheck_since=snapshots[0][0] - timedelta(minutes=5))
    assert result.changed == (missed,) and len(store.post(missed).versions) == 2
    stored = store.posts()
    assert len(stored) == 46
    # The silent edit (no "last edit" notice on either forum) shows as a second version.
    silent = next(s for _, _, s in snapshots
                  for e in s["edited_since_prev"] if e["kind"] == "silent_edit")
    silent_id = silent["edited_since_prev"][0]["id"]
    assert len(store.post(silent_id).versions) == 2
    assert store.post(silent_id).latest.edit is None


@pytest.mark.parametrize("software", FORUMS)
@pytest.mark.parametrize("beyond_the_end", ["404", "last page again"])
def test_a_full_last_page_costs_two_requests_when_nothing_is_new(
    forum, store, software, beyond_the_end
):
    saved_at, files, snap = live_snapshots(software)[5]  # 30 posts: two full pages
    assert snap["posts_so_far"] == 30 and snap["pages_total"] == 2
    for page, path in files.items():
        forum.set_page(page_path(software, 3, page), path.read_bytes())
    if beyond_the_end == "last page again":  # what phpBB and SMF do for a start past the end
        forum.set_page(page_path(software, 3, 3), files[2].read_bytes())
    clock = FakeClock(saved_at)
    poller = make_poller(store, forum.base_url + page_path(software, 3, 1), clock,
                         recheck_every_polls=0, recheck_every=None)
    assert len(poller.poll().new) == 30
    forum.log.clear()

    result = poller.poll()

    assert forum.log == [page_path(software, 3, 2), page_path(software, 3, 3)]
    assert result.requests == 2 and (result.new, result.changed, result.vanished) == ((), (), ())
    assert store.crawl_state()["page_count"] == 2 and store.crawl_state()["last_page"] == 2


def test_a_long_read_shows_a_progress_bar_when_asked(forum, store, clock):
    import io

    url = forum.serve_thread("phpbb", thread_files("phpbb"))
    bar = io.StringIO()
    fetcher = Fetcher(httpx.Client(), FetchSettings(delay=0), sleep=lambda s: None)
    Poller(store, fetcher, clock, UTC_ZONE, PollSettings(progress=True), thread_url=url,
           progress_file=bar).poll()
    assert "reading thread" in bar.getvalue() and "5/5" in bar.getvalue()

    quiet = io.StringIO()  # not a terminal, no setting: no bar
    Poller(store, fetcher, clock, UTC_ZONE, PollSettings(), thread_url=url,
           progress_file=quiet).poll(recheck=True, recheck_since=datetime(2026, 11, 21, tzinfo=UTC))
    assert quiet.getvalue() == ""


@pytest.mark.parametrize("software", FORUMS)
def test_an_idle_poll_leaves_the_game_file_alone(forum, store, clock, monkeypatch, software):
    """Issue 13: every idle poll rewrote (and fsynced) the whole game file for its
    counters. Now a poll that finds nothing writes only its counters beside the file, the
    file's bytes stay as they were, and the counters read back; the next poll that stores
    something puts them in the file again."""
    files = thread_files(software)
    url = forum.serve_thread(software, files)
    poller = make_poller(store, url, clock, recheck_every_polls=0, recheck_every=None)
    poller.poll()
    before = store.path.read_bytes()
    replaces = counted_replaces(monkeypatch)
    for n in (1, 2, 3):
        clock.advance(60)
        result = poller.poll()
        assert result.requests == 1 and not (result.new or result.changed or result.vanished)
        assert store.path.read_bytes() == before
        state = store.crawl_state()
        assert state["polls"] == 1 + n and state["polls_since_recheck"] == n
        assert state["last_poll_at"] == to_iso(clock.now())
    assert replaces == [store.poll_counters_path()] * 3
    edited = files[4].read_bytes().replace(b"Night 1 begins now.", b"Night 1 begins, sleep.")
    forum.set_page(page_path(software, 2, 5), edited)
    clock.advance(60)
    assert poller.poll().changed
    assert replaces[3:] == [store.path]
    reopened = GameStore.open(store.path.parent.parent, store.game_id, create=False)
    assert reopened.crawl_state()["polls"] == 5
    assert reopened.db.table("crawl").get(doc_id=1)["polls"] == 5  # in the file itself


class _HeldOpen:
    """An async fetcher (as the daemon's) answering from a plain one, noting at each
    request whether the poll's game file was held in memory while it waited."""

    def __init__(self, fetcher: Fetcher, store: GameStore) -> None:
        self.fetcher, self.store, self.held = fetcher, store, []

    def __getattr__(self, name: str) -> object:
        return getattr(self.fetcher, name)

    async def get(self, url: str) -> object:
        self.held.append(self.store._storage._data is not None)
        return self.fetcher.get(url)


@pytest.mark.parametrize("software", FORUMS)
def test_a_poll_waiting_on_its_forum_holds_no_copy_of_the_game_file(forum, store, clock,
                                                                       software):
    import asyncio

    url = forum.serve_thread(software, thread_files(software))
    poller = make_poller(store, url, clock, recheck_every_polls=0, recheck_every=None)
    poller.poll()
    clock.advance(300)
    store.config()  # (read: the file is held from here)
    assert store._storage._data is not None
    waiting = _HeldOpen(poller.fetcher, store)
    poller.fetcher = waiting

    result = asyncio.run(poller.apoll())

    assert waiting.held and not any(waiting.held)
    assert (result.new, result.changed, result.vanished) == ((), (), ())
    assert sum(len(sp.versions) for sp in store.posts()) == 66
