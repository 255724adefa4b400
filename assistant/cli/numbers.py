"""The numbers the command line takes, checked where they are read: a finite number in
its range or one line saying what is wrong. `--interval -5` used to spin the daemon at
full CPU and `--interval nan` was an internal error."""

from __future__ import annotations

import math
from typing import Any

import click


class Seconds(click.ParamType):
    """A finite number of seconds, above `minimum` (or at it, when `inclusive`)."""

    name = "seconds"

    def __init__(self, minimum: float = 0.0, *, inclusive: bool = True) -> None:
        self.minimum = minimum
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
        return number


POSITIVE_SECONDS = Seconds(0.0, inclusive=False)
"""A wait between two polls: more than 0 (0 or less would poll without pause)."""
SECONDS = Seconds(0.0)
"""A pause or a jitter: 0 or more."""
POST_ID = click.IntRange(min=1)
"""A forum post id: 1 or more."""
ARCHIVE_POST = click.IntRange(min=0)
"""A post number in an archive (`replay`): 0 or more (archives number a thread from 0)."""
PHASE_NUMBER = click.IntRange(min=0)
"""A day or night number: 0 or more (some games have a Night 0)."""
COUNT = click.IntRange(min=0)
"""How many (players, lynches, votes): 0 or more."""
