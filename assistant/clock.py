"""An injectable clock: code asks a `Clock` for the time, tests hand it a fake one.

Nothing in the assistant calls `datetime.now()` directly; that way a test can drive a
whole game day (deadlines, interval tallies, DST changes) without sleeping.

A clock tells two times: `now()`, the wall clock (a deadline is a moment on it), and
`monotonic()`, seconds that only move forward at the pace of real time (how long to wait
between two polls). An NTP step or an administrator's `date` moves the first and not the
second; `ClockWatch` sees the difference.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """The current moment, aware UTC."""
        ...

    def monotonic(self) -> float:
        """Seconds from an arbitrary start, never stepped back or forward."""
        ...


_BOOTTIME = getattr(time, "CLOCK_BOOTTIME", None)


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)

    def monotonic(self) -> float:
        """Linux's CLOCK_BOOTTIME, which counts a suspended machine's sleep (so waking up
        is not taken for a step of the wall clock); elsewhere `time.monotonic`."""
        return time.clock_gettime(_BOOTTIME) if _BOOTTIME is not None else time.monotonic()


@dataclass
class FakeClock:
    """A clock that stands still until a test moves it. `advance` and `set` are time
    passing (both clocks move; `set` to an earlier moment is a step back of the wall
    clock alone); `step` moves the wall clock alone, as an NTP step does."""

    current: datetime
    elapsed: float = field(default=0.0, kw_only=True)
    """What `monotonic()` answers."""

    def now(self) -> datetime:
        return self.current

    def monotonic(self) -> float:
        return self.elapsed

    def advance(self, delta: timedelta | float) -> datetime:
        delta = delta if isinstance(delta, timedelta) else timedelta(seconds=delta)
        self.current += delta
        self.elapsed += max(delta.total_seconds(), 0.0)
        return self.current

    def set(self, moment: datetime) -> None:
        self.elapsed += max((moment - self.current).total_seconds(), 0.0)
        self.current = moment

    def step(self, delta: timedelta | float) -> datetime:
        """The wall clock stepped by `delta` (back when negative); no time passed."""
        self.current += delta if isinstance(delta, timedelta) else timedelta(seconds=delta)
        return self.current


@dataclass
class ClockWatch:
    """Notices the wall clock stepping: between two looks it moved more (or less) than
    the monotonic clock, by more than `tolerance` seconds (a busy machine's scheduling
    delays move both alike; an NTP slew moves the wall clock by milliseconds)."""

    clock: Clock
    tolerance: float = 2.0
    _wall: datetime = field(init=False)
    _mono: float = field(init=False)

    def __post_init__(self) -> None:
        self._wall, self._mono = self.clock.now(), self.clock.monotonic()

    def step(self) -> timedelta | None:
        """How far the wall clock stepped since the last look (negative: back), or None."""
        wall, mono = self.clock.now(), self.clock.monotonic()
        drift = (wall - self._wall).total_seconds() - (mono - self._mono)
        self._wall, self._mono = wall, mono
        return timedelta(seconds=drift) if abs(drift) > self.tolerance else None


def default_clock() -> Clock:
    """The system clock, or a fixed moment from `ASSISTANT_NOW` (ISO-8601) for replays and tests."""
    fixed = os.environ.get("ASSISTANT_NOW")
    if fixed:
        moment = datetime.fromisoformat(fixed)
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        return FakeClock(moment.astimezone(UTC))
    return SystemClock()
