"""What one cycle of the daemon reads (issue 26: 200 growing games cost a fifth of a core).

A cycle that brings new posts opens the game's store for the poll and for the review; each
read a short game's whole posts file again and built every post anew, and the daemon read
the game file once more before and after them to see whether its config changed. Now the
poll and the review share one reading of the posts file (`post_log.pinned`), the config is
taken from the stores the cycle opened anyway, and nothing is kept once the cycle ends.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import daemon_support as ds
import httpx
from forum_server import running_forum

from assistant import post_log
from assistant.clock import FakeClock
from assistant.daemon import Daemon, DaemonSettings
from assistant.post_log import PostLog, log_path
from assistant.scrapers.http import Fetcher, FetchSettings
from assistant.store import GameStore

GAME = "thread-b"


def _daemon(data_dir, clock: FakeClock) -> Daemon:  # noqa: ANN001
    return Daemon(
        data_dir, clock,
        lambda: Fetcher(httpx.Client(), FetchSettings(delay=0), sleep=lambda s: None),
        DaemonSettings(), FetchSettings(delay=0),
    )


def test_a_cycle_reads_the_posts_file_once_and_keeps_nothing_after(tmp_path, monkeypatch) -> None:
    clock = FakeClock(datetime(2026, 11, 22, 11, 10, tzinfo=UTC))
    snaps = ds.snapshots("smf21")
    read: list[int] = []  # bytes of the posts file applied, per reading
    real_apply = PostLog._apply_lines

    def counted_apply(self: PostLog, data: bytes) -> None:
        read.append(len(data))
        real_apply(self, data)

    monkeypatch.setattr(PostLog, "_apply_lines", counted_apply)
    opens: list[str] = []
    real_open = GameStore.open.__func__  # type: ignore[attr-defined]

    def counted_open(cls, data_dir, game_id, *a, **k):  # noqa: ANN001, ANN202
        opens.append(game_id)
        return real_open(cls, data_dir, game_id, *a, **k)

    monkeypatch.setattr(GameStore, "open", classmethod(counted_open))
    with running_forum() as forum:
        ds.serve(forum, "smf21", snaps[3], snaps)
        ds.setup_store(tmp_path, "smf21", ds.thread_url(forum, "smf21"))
        # Polls that do not re-read the day's pages: one that does waits on them after its
        # first write, without the posts it read, and reads them again for its next write
        # (test_daemon_memory.py).
        with GameStore.open(tmp_path, GAME, create=False) as store:
            store.update_config(recheck_every_polls=0)
        daemon = _daemon(tmp_path, clock)

        async def cycle() -> None:
            report = await daemon.acycle(GAME)
            assert report.poll is not None and report.error is None, report

        asyncio.run(cycle())  # the first: the thread read, the config first seen
        posts_file = log_path(GameStore.game_path(tmp_path, GAME))
        stored = posts_file.stat().st_size
        ds.serve(forum, "smf21", snaps[5], snaps)  # more posts
        clock.advance(60)
        read.clear()
        opens.clear()
        reviewed = len(daemon._reviewed)
        asyncio.run(cycle())

    # The stored posts were read once (by the poll, which appended the new ones itself);
    # the review read nothing of the file again.
    assert read == [stored], (read, stored)
    assert posts_file.stat().st_size > stored
    # Two opens: the poll's and the review's (before: four, the config read before and after).
    assert opens == [GAME, GAME], opens
    assert reviewed == 1
    # Nothing is held for a short game once its cycle ended.
    assert post_log._PINNED == {}
    assert all(p != posts_file for p in post_log._SHARED)


def test_a_config_changed_by_a_gm_command_between_cycles_is_seen(tmp_path) -> None:
    """The config the daemon keeps from its own stores is the file's: a GM pausing the game
    from another process between two cycles pauses it."""
    clock = FakeClock(datetime(2026, 11, 22, 11, 10, tzinfo=UTC))
    snaps = ds.snapshots("smf21")
    with running_forum() as forum:
        ds.serve(forum, "smf21", snaps[3], snaps)
        ds.setup_store(tmp_path, "smf21", ds.thread_url(forum, "smf21"))
        daemon = _daemon(tmp_path, clock)
        asyncio.run(daemon.acycle(GAME))
        assert daemon.games() == [GAME]
        with GameStore.open(tmp_path, GAME, create=False) as store:  # `game pause`
            store.update_config(paused=True)
        assert daemon.games() == []


def test_the_next_clock_event_is_booked_again_only_when_it_changed_or_ran(tmp_path) -> None:
    """Each cycle booked its game's next clock event anew (APScheduler woken up each
    time), though a 5-minute tally slot stays the next event for five 1-minute polls."""
    from datetime import timedelta

    from assistant.daemon.reports import CycleReport

    clock = FakeClock(datetime(2026, 11, 22, 11, 10, tzinfo=UTC))
    daemon = _daemon(tmp_path, clock)
    slot = clock.now() + timedelta(minutes=5)
    nexts = iter([slot, slot, slot, slot, slot + timedelta(minutes=5)])

    async def acycle(game_id: str) -> CycleReport:
        return CycleReport(game_id, None, None, (), (), next(nexts))

    daemon.acycle = acycle  # type: ignore[method-assign]

    class Scheduler:  # APScheduler's two calls the booking makes
        def __init__(self) -> None:
            self.jobs: dict[str, dict] = {}
            self.added: list[dict] = []

        def add_job(self, func, trigger, **kw):  # noqa: ANN001, ANN003, ANN201
            self.jobs[kw["id"]] = kw
            self.added.append(kw)

        def get_job(self, job_id: str):  # noqa: ANN201
            return self.jobs.get(job_id)

    scheduler = Scheduler()

    async def cycles() -> None:
        await daemon._run_job(scheduler, GAME)  # booked
        await daemon._run_job(scheduler, GAME)  # the same slot: not again
        scheduler.jobs.clear()  # the event's job ran (APScheduler removed it)
        await daemon._run_job(scheduler, GAME)  # the same slot, no job: booked again
        await daemon._run_job(scheduler, GAME)  # not again
        await daemon._run_job(scheduler, GAME)  # the next slot: booked

    asyncio.run(cycles())
    assert [kw["id"] for kw in scheduler.added] == [f"event:{GAME}"] * 3
    assert len(scheduler.added) == 3


def test_a_clock_event_before_the_next_poll_moves_that_poll_to_it(tmp_path) -> None:
    """An event's cycle polls the thread like any: a 5-minute tally slot booked as a job
    of its own, with the game polled each minute, made six cycles in five minutes where
    five do (the poll a few seconds after the slot read the thread again). An event the
    next poll comes before keeps a job of its own, until a poll comes closer to it."""
    from datetime import timedelta

    from apscheduler.schedulers.background import BackgroundScheduler
    from apscheduler.triggers.interval import IntervalTrigger

    from assistant.daemon.reports import CycleReport

    clock = FakeClock(datetime(2026, 11, 22, 11, 10, tzinfo=UTC))
    daemon = _daemon(tmp_path, clock)
    nexts: list[datetime] = []

    async def acycle(game_id: str) -> CycleReport:
        return CycleReport(game_id, None, None, (), (), nexts.pop(0))

    daemon.acycle = acycle  # type: ignore[method-assign]
    scheduler = BackgroundScheduler()
    scheduler.start(paused=True)  # (nothing runs: the jobs' times are what is looked at)
    try:
        poll_at = datetime.now().astimezone() + timedelta(seconds=50)
        scheduler.add_job(print, IntervalTrigger(seconds=60), id=f"poll:{GAME}",
                          next_run_time=poll_at)

        def cycle(event_in: timedelta) -> datetime:
            nexts.append(clock.now() + event_in)
            wall = datetime.now().astimezone() + event_in
            asyncio.run(daemon._run_job(scheduler, GAME))
            return wall

        slot = cycle(timedelta(minutes=4))  # after the next poll: a job of its own
        event = scheduler.get_job(f"event:{GAME}")
        assert event is not None and abs(event.next_run_time - slot) < timedelta(seconds=1)
        assert scheduler.get_job(f"poll:{GAME}").next_run_time == poll_at

        slot = cycle(timedelta(seconds=20))  # before it: the poll moves to the event
        assert scheduler.get_job(f"event:{GAME}") is None
        moved = scheduler.get_job(f"poll:{GAME}").next_run_time
        assert abs(moved - slot) < timedelta(seconds=1) and moved < poll_at
    finally:
        scheduler.shutdown(wait=False)


def test_a_workers_job_is_not_interrupted_by_collections_and_garbage_is_collected_after() -> None:
    """A review builds tens of thousands of objects that live until it ends; collections in
    the middle walked them all (a fifth of a 200-game daemon's CPU). Within a job of the
    daemon's workers the collector waits; cyclic garbage the job left is collected after."""
    import gc
    import weakref

    from assistant.daemon.process import Workers

    collections: list[int] = []

    def seen(phase: str, info: dict) -> None:
        if phase == "start":
            collections.append(info["generation"])

    class Node:
        def __init__(self) -> None:
            self.me = self  # a cycle: only the collector frees it

    def review() -> tuple[bool, int, weakref.ref]:
        built = [{"post": i, "versions": [i]} for i in range(50_000)]  # alive to the end
        garbage = Node()
        return gc.isenabled(), len(built), weakref.ref(garbage)

    gc.callbacks.append(seen)
    try:
        workers = Workers(1)
        enabled_in_job, n, ref = workers.submit(review).result(timeout=60)
        during = list(collections)
        gc.collect()
    finally:
        gc.callbacks.remove(seen)
    assert n == 50_000
    assert not enabled_in_job and during == []
    assert gc.isenabled()
    assert ref() is None  # the job's cyclic garbage was collected once it ended


def test_what_the_daemon_built_to_start_is_left_out_of_later_collections() -> None:
    import gc

    from assistant.daemon.process import YOUNG_OBJECTS, settle_heap

    class Node:
        def __init__(self) -> None:
            self.me = self

    started = [{"module": i} for i in range(1000)]
    threshold = gc.get_threshold()
    try:
        settle_heap()
        assert gc.get_freeze_count() >= len(started)
        assert gc.get_threshold()[0] == YOUNG_OBJECTS > threshold[0]
        Node()  # cyclic garbage made later is still found
        assert gc.collect() >= 1
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
