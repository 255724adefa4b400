"""A day's count kept between counts in one process, so that the next count of the same
day applies only what is new: the daemon's count after a poll that brought five posts to
a 10,000-post day applies five posts, not 10,000.

The count's pass is a fold over the day's events (posts, edits, PM votes in time order):
the running count after N events followed by the events after them is the count of them
all. So a count whose events begin with the events a kept count applied, on the same
facts (the game as counted, the rules, the phase, the names the thread's authors were
read as), carries on from the kept running count; anything else, a post vanished or
edited in place of the middle, a GM input, another deadline, is counted whole, and kept
for the next. The `Vote` records of the marks whose outcome did not change since are
kept too (a later vote of the same voter changes an earlier one's: that one is made
again).

Only counts to the end of a long day are kept (`LONG`; not `--at`, not as of a post), a
few per process (`MAX_KEPT`), and only by a process that runs for days and asked (`keep_counts`:
the daemon, the dashboard); a count that fails half-way drops what it kept.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from assistant.count.records import Vote
from assistant.count.running import RunningCount
from assistant.count.totals import freeze_vote
from assistant.game import Game

Event = tuple[str, Any]

MAX_KEPT = 16
"""Counts kept per process (a day's running count and its votes each): the daemon counts
each game's running day with its effective deadline, and an ended day or two."""


@dataclass
class Kept:
    """A count to carry on from."""

    context: tuple[Any, ...]
    """What the pass read besides its events (the game as counted, rules, phase...)."""
    events: Sequence[Event]
    state: RunningCount
    watch: Any = None
    taught: Any = None
    """The names the GM's counts had taught by the last event applied (tally.py's pass)."""
    k: int = 0
    """How many of the GM's counts the pass had read by then."""
    taught_by: list[Any] = field(default_factory=list)
    """The GM's counts the pass read (event index, names): the next pass carries on only
    when it reads the same ones among the events kept."""
    taught_all: Any = ()
    """Every GM count's names the pass read (tally.py): the same while no GM post came."""
    has_gm: bool = False
    """Whether a GM posted among the events kept."""
    frozen: list[Vote] = field(default_factory=list)
    ended: list[Any] = field(default_factory=list)
    """Each frozen vote's "ended" mark when it was frozen (a later vote may end it)."""


_KEPT: OrderedDict[Hashable, Kept] = OrderedDict()
_enabled = [False]


def keep_counts() -> None:
    """From now on this process keeps its counts of a day to carry on from (a process that
    runs for days: a command that counts once has nothing to carry on)."""
    _enabled[0] = True


@contextmanager
def counted_whole(whole: bool = True) -> Any:
    """Within, every count is made whole and nothing is kept (tests comparing the two); with
    `whole=False`, counts are kept as `keep_counts` keeps them."""
    _enabled.append(not whole)
    try:
        yield
    finally:
        _enabled.pop()


def find(slot: Hashable | None, context: tuple[Any, ...], events: Sequence[Event],
         *, times: Any = None) -> tuple[Kept, int] | None:
    """The kept count to carry on from and how many of `events` it applied, when `events`
    begin with its events on the same `context`; with `times` (an event's moment), also
    only when the first new event is later than the last kept one (the all-voted watch
    groups the events of one second)."""
    if slot is None or not _enabled[-1]:
        return None
    kept = _KEPT.get(slot)
    if kept is None or kept.context != context:
        return None
    old = kept.events
    n = len(old)
    if len(events) < n:
        return None
    for a, b in zip(old, events, strict=False):
        if a[0] != b[0] or (a[1] is not b[1] and a[1] != b[1]):
            return None
    if times is not None and 0 < n < len(events) and times(events[n]) <= times(old[-1]):
        return None
    _KEPT.move_to_end(slot)
    return kept, n


LONG = 500
"""Events from which a day's count is kept: a shorter day is counted whole again in a few
milliseconds, and the daemon's 200 short games' counts kept would only hold memory."""


def keep(slot: Hashable | None, kept: Kept) -> None:
    if slot is None or not _enabled[-1] or len(kept.events) < LONG:
        drop(slot)
        return
    _KEPT[slot] = kept
    _KEPT.move_to_end(slot)
    while len(_KEPT) > MAX_KEPT:
        _KEPT.popitem(last=False)


def drop(slot: Hashable | None) -> None:
    """What was kept for `slot` is no longer the count it was (a pass that failed)."""
    if slot is not None:
        _KEPT.pop(slot, None)


def freeze(kept: Kept | None, state: RunningCount, game: Game, day: int | None) -> list[Vote]:
    """The count's `Vote` records; with `kept`, only those new or ended since remade."""
    if kept is None or kept.state is not state:
        return [freeze_vote(f, state, game, day) for f in state.votes]
    frozen, ended, votes = kept.frozen, kept.ended, state.votes
    for i in range(len(frozen)):
        now = votes[i].get("ended")
        if now is not ended[i]:
            frozen[i], ended[i] = freeze_vote(votes[i], state, game, day), now
    for i in range(len(frozen), len(votes)):
        frozen.append(freeze_vote(votes[i], state, game, day))
        ended.append(votes[i].get("ended"))
    return list(frozen)
