"""The numbers the command line takes, checked where they are read: a finite number in
its range or one line saying what is wrong. `--interval -5` used to spin the daemon at
full CPU, `--interval nan` was an internal error, and `--interval 1e12` a date past the
year 9999. Every number has a floor and a ceiling (tests/test_cli_numbers.py walks every
command and fails for one without).
"""

from __future__ import annotations

import math
from typing import Any

import click

from assistant.limits import (
    LARGEST_ID,
    LAST_PHASE,
    LONGEST_DELAY,
    LONGEST_INTERVAL,
    LONGEST_JITTER,
    MOST_PLAYERS,
)


class Seconds(click.ParamType):
    """A finite number of seconds from `minimum` (above it, unless `inclusive`) to
    `maximum`."""

    name = "seconds"

    def __init__(self, minimum: float = 0.0, maximum: float = LONGEST_INTERVAL, *,
                 inclusive: bool = True) -> None:
        self.minimum = minimum
        self.maximum = maximum
        self.inclusive = inclusive

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> float:
        if isinstance(value, float | int) and not isinstance(value, bool):
            number = float(value)
        else:
            try:
                number = float(str(value).strip())
            except ValueError:
                self.fail(f"{value!r} is not a number of seconds (e.g. 300)", param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number of seconds (e.g. 300)", param, ctx)
        if number < self.minimum or (not self.inclusive and number == self.minimum):
            bound = "at least" if self.inclusive else "more than"
            self.fail(f"{value!r}: give {bound} {self.minimum:g} seconds", param, ctx)
        if number > self.maximum:
            self.fail(f"{value!r}: give at most {self.maximum:g} seconds "
                      f"({_spoken(self.maximum)})", param, ctx)
        return number


def _spoken(seconds: float) -> str:
    for size, unit in ((86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds >= size and seconds % size == 0:
            n = int(seconds // size)
            return f"{n} {unit}{'s' if n > 1 else ''}"
    return f"{seconds:g} s"


INTERVAL = Seconds(0.0, LONGEST_INTERVAL, inclusive=False)
"""A wait between two polls or summaries: more than 0 (0 or less would poll without
pause), at most a day."""
JITTER = Seconds(0.0, LONGEST_JITTER)
"""Seconds added at random to a poll: 0 to an hour."""
DELAY = Seconds(0.0, LONGEST_DELAY)
"""A pause between two requests to a forum: 0 to a minute."""
SUMMARY_EVERY = Seconds(0.0, LONGEST_INTERVAL, inclusive=False)
"""Seconds between two summary lines of the log: more than 0, at most a day."""
POSITIVE_SECONDS = INTERVAL
SECONDS = Seconds(0.0)

POST_ID = click.IntRange(min=1, max=LARGEST_ID)
"""A forum post id: 1 or more."""
INPUT_ID = click.IntRange(min=1, max=LARGEST_ID)
"""The number of one of the GM's inputs (`log` lists them): 1 or more."""
ARCHIVE_POST = click.IntRange(min=0, max=LARGEST_ID)
"""A post number in an archive (`replay`): 0 or more (archives number a thread from 0)."""
PHASE_NUMBER = click.IntRange(min=0, max=LAST_PHASE)
"""A day or night number: 0 or more (some games have a Night 0), below 1,000."""
DAY_NUMBER = click.IntRange(min=1, max=LAST_PHASE)
"""A day that has a lynch or an election: 1 or more, below 1,000."""
COUNT = click.IntRange(min=0, max=MOST_PLAYERS)
"""How many (players, lynches, votes): 0 or more, no more than a forum game can hold."""
MARK = click.IntRange(min=1, max=MOST_PLAYERS)
"""Which vote of a post (`count --why` shows #N): 1 or more."""
