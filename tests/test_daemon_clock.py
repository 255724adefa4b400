"""The daemon when the wall clock steps (an NTP step, an administrator's `date`): polls
keep the pace of the monotonic clock, a deadline stays a moment on the wall clock, and the
step is one line of the log. Driven through the injected clock (FakeClock.step), never by
sleeping: APScheduler's jobs are looked at, not waited for."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from pathlib import Path

import pytest
import thread_b_support as tb
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from assistant.clock import ClockWatch, FakeClock
from assistant.daemon import Daemon, DaemonSettings


def test_the_clock_watch_tells_a_step_from_time_passing() -> None:
    clock = FakeClock(tb.SAVED_AT)
    watch = ClockWatch(clock)
    clock.advance(timedelta(hours=3))
    assert watch.step() is None  # time passed: both clocks moved alike
    clock.step(timedelta(minutes=-10))
    assert watch.step() == timedelta(minutes=-10)
    assert watch.step() is None  # the step is seen once
    clock.step(1.5)  # within the tolerance: a slew, a late look
    assert watch.step() is None
    clock.set(tb.SAVED_AT)  # set to an earlier moment: a step back of the wall clock
    assert watch.step() == timedelta(hours=-3, minutes=10, seconds=-1.5)


def test_a_wall_clock_stepped_back_10_minutes_keeps_the_polls_and_the_deadline(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Stepped back 10 minutes, APScheduler (which times its jobs by the wall clock) would
    poll no game for 10 minutes: every poll job moves back by the step, so it comes after
    the wait it had; the game's deadline job stays at its moment; one line in the log, and
    after a step forward the polls due meanwhile run, as after a machine's sleep."""
    for game in ("g1", "g2", "g3"):
        tb.new_store(tmp_path, "smf21", game).close()
    clock = FakeClock(tb.SAVED_AT)
    daemon = Daemon(tmp_path, clock, lambda: None,  # type: ignore[arg-type, return-value]
                    DaemonSettings(poll_interval=60, jitter=0))

    async def scheduled() -> list[dict[str, object]]:
        scheduler = AsyncIOScheduler(event_loop=asyncio.get_running_loop())
        daemon.schedule(scheduler)
        deadline = clock.now() + timedelta(minutes=30)
        scheduler.add_job(print, "date", run_date=deadline, id="event:g1")
        scheduler.start(paused=True)  # times computed, nothing run
        watch = ClockWatch(clock)
        seen = [{j.id: j.next_run_time for j in scheduler.get_jobs()}]
        clock.advance(5)
        assert daemon.keep_pace(scheduler, watch) is None
        clock.step(timedelta(minutes=-10))
        assert daemon.keep_pace(scheduler, watch) == timedelta(minutes=-10)
        seen.append({j.id: j.next_run_time for j in scheduler.get_jobs()})
        clock.advance(5)
        assert daemon.keep_pace(scheduler, watch) is None
        clock.step(timedelta(hours=2))
        assert daemon.keep_pace(scheduler, watch) == timedelta(hours=2)
        seen.append({j.id: j.next_run_time for j in scheduler.get_jobs()})
        scheduler.shutdown(wait=False)
        return seen

    with caplog.at_level(logging.INFO, logger="assistant.daemon"):
        before, back, forward = asyncio.run(scheduled())
    polls = {"poll:g1", "poll:g2", "poll:g3", "rescan", "summary"}
    assert polls | {"event:g1"} == set(before)
    for job in polls:
        assert back[job] == before[job] - timedelta(minutes=10), job
        assert forward[job] == back[job], job
    assert before["event:g1"] == back["event:g1"] == forward["event:g1"]
    steps = [r.getMessage() for r in caplog.records if "wall clock" in r.getMessage()]
    assert steps == [
        "the wall clock stepped back by 10 min: the 5 poll job(s) keep their pace; "
        "deadlines and tallies stay at their moments on the clock",
        "the wall clock stepped forward by 2 h: the polls due meanwhile run now; "
        "deadlines and tallies stay at their moments on the clock",
    ]


class Looks:
    """The clock watch's waits, each ended when the test says: `Daemon(sleep=...)` gets
    `sleep`, so a look at the clock comes when the test chooses, whatever the machine's
    speed (the timeout is only there to fail a broken watch instead of hanging)."""

    def __init__(self) -> None:
        self.asked: asyncio.Queue[asyncio.Future[None]] = asyncio.Queue()
        self.waits: list[float] = []
        self.waiting: asyncio.Future[None] | None = None

    async def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        done = asyncio.get_running_loop().create_future()
        self.asked.put_nowait(done)
        await done

    async def started(self) -> None:
        """Until the watch waits for its first look (serve has scheduled every job)."""
        self.waiting = await asyncio.wait_for(self.asked.get(), timeout=60)

    async def look(self) -> None:
        """The wait ends, the watch looks at the clock, and waits again: the look is done."""
        assert self.waiting is not None
        self.waiting.set_result(None)
        self.waiting = await asyncio.wait_for(self.asked.get(), timeout=60)


class PausedScheduler(AsyncIOScheduler):
    """Serve's scheduler, started paused: the jobs' times are computed, nothing runs."""

    made: list[AsyncIOScheduler] = []

    def start(self, paused: bool = False) -> None:
        PausedScheduler.made.append(self)
        super().start(paused=True)


@pytest.mark.parametrize("step", [timedelta(minutes=-10), timedelta(minutes=10)],
                         ids=["back", "forward"])
def test_serve_watches_the_clock_and_the_polls_keep_their_pace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
    step: timedelta,
) -> None:
    """`serve` itself looks at the clock every `CLOCK_LOOK` seconds: the wall clock stepped
    back 10 minutes under a running daemon, its poll jobs (and the rescan and summary) are
    moved back by the step at the next look; stepped forward, they stay (the polls due
    meanwhile run now); the game's deadline job stays at its wall-clock moment either way,
    and the step is one line of the log however many looks follow."""
    from apscheduler.schedulers import asyncio as apscheduler_asyncio

    from assistant import game_file, post_log
    from assistant.count import resume
    from assistant.daemon.core import CLOCK_LOOK

    # serve sets the process up to run for days; the next test gets it back as it was
    monkeypatch.setattr(post_log, "_sharing", [False])
    monkeypatch.setattr(resume, "_enabled", [False])
    monkeypatch.setattr(game_file, "_promote_after_pause", game_file._promote_after_pause)
    busy = logging.getLogger("apscheduler.scheduler")
    monkeypatch.setattr(busy, "filters", list(busy.filters))
    monkeypatch.setattr(apscheduler_asyncio, "AsyncIOScheduler", PausedScheduler)
    monkeypatch.setattr(PausedScheduler, "made", [])
    from assistant.daemon import core as daemon_core

    monkeypatch.setattr(daemon_core, "settle_heap", lambda: None)  # (gc settings: process-wide)
    for game in ("g1", "g2", "g3"):
        tb.new_store(tmp_path, "smf21", game).close()
    clock = FakeClock(tb.SAVED_AT)
    looks = Looks()
    daemon = Daemon(tmp_path, clock, lambda: None,  # type: ignore[arg-type, return-value]
                    DaemonSettings(poll_interval=60, jitter=0), sleep=looks.sleep)

    def jobs(scheduler: AsyncIOScheduler) -> dict[str, object]:
        return {j.id: j.next_run_time for j in scheduler.get_jobs()}

    async def served() -> list[dict[str, object]]:
        stop = asyncio.Event()
        serving = asyncio.create_task(daemon.serve(stop))
        await looks.started()
        (scheduler,) = PausedScheduler.made
        scheduler.add_job(print, "date", run_date=scheduler.get_job("poll:g1").next_run_time
                          + timedelta(minutes=30), id="event:g1")  # a deadline in 30 min
        seen = [jobs(scheduler)]
        clock.advance(CLOCK_LOOK)  # time passes: nothing moves
        await looks.look()
        seen.append(jobs(scheduler))
        clock.advance(CLOCK_LOOK)
        clock.step(step)
        await looks.look()
        seen.append(jobs(scheduler))
        for _ in range(3):  # the step was seen; the looks after it see none
            clock.advance(CLOCK_LOOK)
            await looks.look()
        seen.append(jobs(scheduler))
        stop.set()
        await asyncio.wait_for(serving, timeout=60)
        return seen

    with caplog.at_level(logging.INFO, logger="assistant.daemon"):
        before, passed, stepped, after = asyncio.run(served())
    assert looks.waits == [CLOCK_LOOK] * 6
    polls = {"poll:g1", "poll:g2", "poll:g3", "rescan", "summary"}
    assert polls | {"event:g1"} == set(before)
    assert passed == before
    moved = step if step < timedelta(0) else timedelta(0)
    for job in polls:
        assert stepped[job] == before[job] + moved, job
    assert stepped["event:g1"] == before["event:g1"]
    assert after == stepped
    said = [r.getMessage() for r in caplog.records if "wall clock" in r.getMessage()]
    assert said == [
        "the wall clock stepped back by 10 min: the 5 poll job(s) keep their pace; "
        "deadlines and tallies stay at their moments on the clock"
        if step < timedelta(0) else
        "the wall clock stepped forward by 10 min: the polls due meanwhile run now; "
        "deadlines and tallies stay at their moments on the clock"
    ]
