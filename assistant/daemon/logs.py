"""The daemon's log: one line per event, stamped with the assistant's clock, made safe for a
terminal; APScheduler's repeated "still running" warnings counted instead of printed."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TextIO

from assistant.clock import Clock
from assistant.safe_text import for_terminal


class ClockFormatter(logging.Formatter):
    """One line per event, stamped with the assistant's clock rather than the wall clock,
    so a replay or the demo (`ASSISTANT_NOW`) logs the moments it acts at."""

    def __init__(self, clock: Clock) -> None:
        super().__init__("%(asctime)s %(levelname)s %(message)s")
        self.clock = clock

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802
        return f"{self.clock.now():%Y-%m-%d %H:%M:%S} UTC"

    def format(self, record: logging.LogRecord) -> str:
        """The line as a terminal shows it: a player's name cannot send it escape codes or
        reverse it (safe_text.for_terminal)."""
        return for_terminal(super().format(record))


def setup_logging(clock: Clock, stream: TextIO, *, verbose: bool = False) -> logging.Handler:
    """Send the assistant's log to `stream`, stamped by `clock`; a second call replaces the
    first handler instead of doubling every line. `verbose`: DEBUG too (every poll)."""
    logger = logging.getLogger("assistant")
    for old in [h for h in logger.handlers if getattr(h, "assistant_clock_log", False)]:
        logger.removeHandler(old)
    handler = logging.StreamHandler(stream)
    handler.setFormatter(ClockFormatter(clock))
    handler.assistant_clock_log = True  # type: ignore[attr-defined]
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG if verbose else logging.INFO)
    logging.getLogger("apscheduler").setLevel(logging.WARNING)  # one line per event: ours
    logging.getLogger("httpx").setLevel(logging.WARNING)  # our poll line says what was fetched
    return handler


class BusyJobs(logging.Filter):
    """APScheduler warns at every interval a game's previous poll is still running (a
    slow forum, 60 s deadline): counted in the summary line instead of a line each."""

    def __init__(self, count: Callable[[], None]) -> None:
        super().__init__()
        self.count = count

    def filter(self, record: logging.LogRecord) -> bool:
        if "maximum number of running instances reached" in record.getMessage():
            self.count()
            return False
        return True
