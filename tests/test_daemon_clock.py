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
