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

Only counts to the end of a day are kept (not `--at`, not as of a post), and only by a
process that runs for days and asked (`keep_counts`: the daemon, the dashboard); a count
that fails half-way drops what it kept. A long day's count (`LONG` events or more) is kept
as it is, a few per process (`MAX_KEPT`). A shorter day's, from `SHORTEST_PACKED` events,
is kept packed (`_Packed`): its running count pickled and compressed, about 12 KB for a
300-post day, with a digest of its events and of its facts in place of them, so that 200
games' days fit in a few megabytes; unpacking it costs about a millisecond, where counting
such a day whole again took seven (the daemon's review of each of 200 growing 300-post
games, every minute).
"""

from __future__ import annotations

import copy
import pickle
import threading
import zlib
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
    unpacked_from: _Packed | None = None
    """The packed count this one was unpacked from (`_Packed`), left packed as it was."""


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
    if kept is None:
        return _unpack(slot, context, events, times)
    if kept.context != context:
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
"""Events from which a day's count is kept as it is: a shorter one is kept packed (a few
hundred of them as it is held 500 KB each, mostly the posts its events were)."""


def keep(slot: Hashable | None, kept: Kept) -> None:
    """Keep `kept` for the next count of `slot`: as it is for a long day, packed for a
    shorter one. Call it once the pass's votes are frozen (`freeze`): a packed count holds
    them as they were then."""
    if slot is None or not _enabled[-1]:
        return
    if len(kept.events) < LONG:
        _KEPT.pop(slot, None)
        if len(kept.events) < SHORTEST_PACKED:
            _drop_packed(slot)
        elif not _packed_recently(slot, kept):
            _pack(slot, kept)
        return
    _drop_packed(slot)
    _KEPT[slot] = kept
    _KEPT.move_to_end(slot)
    while len(_KEPT) > MAX_KEPT:
        _KEPT.popitem(last=False)


def drop(slot: Hashable | None) -> None:
    """What was kept for `slot` is no longer the count it was (a pass that failed)."""
    if slot is not None:
        _KEPT.pop(slot, None)
        _drop_packed(slot)


SHORTEST_PACKED = 200
"""Events from which a short day's count is kept packed: a shorter day is counted whole
again in about the time its count takes to unpack and pack inside the busy daemon (200
games of 150-post threads: 45.0 and 45.9 ms a poll with and without packing; 300-post
threads: 29.1 against 32.1 ms)."""

REPACK_AFTER = 8
"""Events a count may carry on past its packed count before it is packed again: until
then, the packed count stays as it was and the next count carries on from it over those
few events again (a pack is about a millisecond of a daemon's review; carrying on over an
event already judged, a twentieth of one)."""

PACKED_BYTES = 8 << 20
"""Bytes of packed counts kept at most, all games together (the least recently counted
dropped first): 200 games of 300-post days hold some 2.5 MB."""


@dataclass(frozen=True)
class _Packed:
    """A short day's count kept packed: what `find` compares, and the pickled rest."""

    context: int
    """`hash` of the count's facts (`Kept.context`): a new fact (a death, a ruling, the
    rules) gives another, and the day is counted whole. Like the judged marks' keys
    (lru.fingerprint), two different facts that hash alike are as unlikely as any two
    64-bit values."""
    events: int
    """How many events it applied, and `digest` of them: the next count carries on when
    its events begin with the same ones (each post's every field, its body included)."""
    digest: int
    last: Any
    """The last event applied (for `find`'s `times`)."""
    blob: bytes


_PACKED: OrderedDict[Hashable, _Packed] = OrderedDict()
_packed_bytes = [0]
_PACK_LOCK = threading.Lock()


def _digest(events: Sequence[Event]) -> int:
    """The events as one 64-bit value: each event's kind and `hash` of its item (a post,
    an edit, a PM vote: frozen dataclasses, hashed by every field)."""
    return hash(tuple(events))


def _pack(slot: Hashable, kept: Kept) -> None:
    """Keep `kept` packed; what cannot be pickled or hashed is not kept (the next count of
    the day is whole, as without a kept count)."""
    watch = kept.watch
    if watch is not None:  # what the next count's own watch brings (AllVotedWatch.resume)
        watch = copy.copy(watch)
        watch.posted_at, watch.exact, watch._game = {}, None, None
    rest = (kept.state, watch, kept.taught, kept.k, kept.taught_by, kept.taught_all,
            kept.has_gm, kept.frozen, kept.ended)
    try:
        packed = _Packed(hash(kept.context), len(kept.events), _digest(kept.events),
                         kept.events[-1] if kept.events else None,
                         zlib.compress(pickle.dumps(rest, pickle.HIGHEST_PROTOCOL), 1))
    except (TypeError, AttributeError, pickle.PicklingError, RecursionError):
        _drop_packed(slot)
        return
    with _PACK_LOCK:
        _forget_packed(slot)
        _PACKED[slot] = packed
        _packed_bytes[0] += len(packed.blob)
        while len(_PACKED) > 1 and _packed_bytes[0] > PACKED_BYTES:
            _forget_packed(next(iter(_PACKED)))


def _packed_recently(slot: Hashable, kept: Kept) -> bool:
    """Whether `kept` carried on from `slot`'s packed count, which is still kept, over fewer
    than `REPACK_AFTER` events: that packed count is as good to carry on from next time."""
    was = kept.unpacked_from
    if was is None or len(kept.events) - was.events >= REPACK_AFTER:
        return False
    with _PACK_LOCK:
        return _PACKED.get(slot) is was


def _unpack(slot: Hashable, context: tuple[Any, ...], events: Sequence[Event],
            times: Any) -> tuple[Kept, int] | None:
    """`find` for a count kept packed: a new `Kept` each time (the packed one is left as
    it was until the count that carries on keeps its own)."""
    with _PACK_LOCK:
        packed = _PACKED.get(slot)
        if packed is not None:
            _PACKED.move_to_end(slot)
    if packed is None:
        return None
    n = packed.events
    if len(events) < n:
        return None
    try:
        if packed.context != hash(context) or _digest(events[:n]) != packed.digest:
            return None
    except TypeError:  # an event or a fact that cannot be hashed: not what was packed
        return None
    if times is not None and 0 < n < len(events) and times(events[n]) <= times(packed.last):
        return None
    try:
        rest = pickle.loads(zlib.decompress(packed.blob))
    except Exception:  # noqa: BLE001 - a cache: counted whole instead
        _drop_packed(slot)
        return None
    state, watch, taught, k, taught_by, taught_all, has_gm, frozen, ended = rest
    return Kept(context, events[:n], state, watch, taught, k, taught_by, taught_all,
                has_gm, frozen, ended, packed), n


def _drop_packed(slot: Hashable) -> None:
    with _PACK_LOCK:
        _forget_packed(slot)


def _forget_packed(slot: Hashable) -> None:
    """`slot`'s packed count dropped and its bytes no longer counted (`_PACK_LOCK` held)."""
    old = _PACKED.pop(slot, None)
    if old is not None:
        _packed_bytes[0] -= len(old.blob)


def packed_bytes() -> int:
    """Bytes the packed counts hold (tests, benchmarks)."""
    return _packed_bytes[0]


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
