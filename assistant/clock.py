"""An injectable clock: code asks a `Clock` for the time, tests hand it a fake one.

Nothing in the assistant calls `datetime.now()` directly; that way a test can drive a
whole game day (deadlines, interval tallies, DST changes) without sleeping.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """The current moment, aware UTC."""
        ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


@dataclass
class FakeClock:
    """A clock that stands still until a test moves it."""

    current: datetime

    def now(self) -> datetime:
        return self.current

    def advance(self, delta: timedelta | float) -> datetime:
        self.current += delta if isinstance(delta, timedelta) else timedelta(seconds=delta)
        return self.current

    def set(self, moment: datetime) -> None:
        self.current = moment


def default_clock() -> Clock:
    """The system clock, or a fixed moment from `ASSISTANT_NOW` (ISO-8601) for replays and tests."""
    fixed = os.environ.get("ASSISTANT_NOW")
    if fixed:
        moment = datetime.fromisoformat(fixed)
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        return FakeClock(moment.astimezone(UTC))
    return SystemClock()
