"""When every living player first had a vote, noticed during the count's one pass.

Chat mafia (002) drops the clock to five minutes once "all players have cast a vote", and
Paranormal (000) ends the day "when everyone has voted". The moment is defined by counts:
the first vote (in time order) after which the count as of that vote — `count --at-post`
its post, or `--at` the edit that cast it — has nobody alive left not voting. Counting
the day again as of each vote costs one count per vote (660 counts of a 10,000-post
day, seconds); this watch reads the running count at the point of the pass where the
count as of that vote would stop, which is the same count when the events are in time
order. Where a count as of the vote would read the events in another order than the
pass (post times going backwards, or a PM vote or an edit at the very second of two
posts), that vote is checked by a count of its own, as before.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from assistant.vote_codes import ACCEPTED

if TYPE_CHECKING:
    from assistant.game import Game

Moment = tuple[datetime, int]
"""A vote's moment: when it was cast, and the post that carries it."""


@dataclass
class AllVotedWatch:
    """Handed to `tally.count(watch=...)`; after the count, `moment(tally.votes)`."""

    posted_at: Mapping[int, datetime]
    """Every post of the thread as first posted: a vote cast when its post was made is
    read as of that post (`at_post`), one cast later by an edit as of the edit's time."""
    exact: Callable[[datetime, int], bool]
    """Whether nobody alive was left not voting in the count as of this moment, counted
    on its own: for the moments the pass cannot stand in for."""
    specials: frozenset[str]
    """Standing targets that are votes whoever is alive (No Lynch, Abstain)."""
    _game: Game | None = None
    _times: list[datetime] = field(default_factory=list)
    _in_order: bool = True
    _at: dict[int, list[tuple[Moment, int | None]]] = field(default_factory=dict)
    """Event index -> the moments to check once that event is applied (with the last post
    read by then)."""
    _seen: dict[Moment, bool | None] = field(default_factory=dict)
    """Every moment met, with whether everyone had a vote (None: to be counted on its own)."""
    _found: datetime | None = None
    _group_end: list[int] = field(default_factory=list)
    _group_timed: list[bool] = field(default_factory=list)
    _last_post_at: list[int | None] = field(default_factory=list)
    """Index of an event -> the id of the last post read up to it."""
    _index_of_post: dict[int, int] = field(default_factory=dict)

    def begin(self, events: Sequence[tuple[str, Any]], game: Game) -> None:
        """The count's events in the order it applies them, and the game it counts on."""
        self._game, self._found = game, None
        self._at, self._seen, self._last_post_at, self._index_of_post = {}, {}, [], {}
        self._times = [item.posted_at if kind == "post" else item.at for kind, item in events]
        self._in_order = all(a <= b for a, b in zip(self._times, self._times[1:], strict=False))
        n = len(events)
        self._group_end = [0] * n
        self._group_timed = [False] * n
        i = 0
        while i < n:  # a group: the events of one moment (posts first, then PM votes, edits)
            j = i
            while j + 1 < n and self._times[j + 1] == self._times[i]:
                j += 1
            timed = any(kind != "post" for kind, _ in events[i : j + 1])
            for k in range(i, j + 1):
                self._group_end[k], self._group_timed[k] = j, timed
            i = j + 1
        self._index(events, 0)

    def _index(self, events: Sequence[tuple[str, Any]], start: int) -> None:
        last: int | None = self._last_post_at[-1] if self._last_post_at else None
        for i in range(start, len(events)):
            kind, item = events[i]
            if kind == "post":
                last = item.post_id
                self._index_of_post[item.post_id] = i
            self._last_post_at.append(last)

    def resume(self, kept: AllVotedWatch, events: Sequence[tuple[str, Any]], game: Game,
               first: int) -> None:
        """As `begin`, for a pass that carries on after `first` events from the count this
        `kept` watch saw (count/resume.py): what it found and scheduled is kept, and the new
        events are learnt. The first new event is later than the last kept one, so the
        events of one second are never split between the two."""
        own = (self.posted_at, self.exact, self.specials)
        self.__dict__.update(kept.__dict__)
        self.posted_at, self.exact, self.specials = own
        self._game = game
        new = [item.posted_at if kind == "post" else item.at for kind, item in events[first:]]
        if self._times and new and new[0] <= self._times[-1]:
            raise ValueError("a watch carries on only after the events it saw")
        self._in_order = self._in_order and all(
            a <= b for a, b in zip(new, new[1:], strict=False))
        self._times = [*self._times, *new]
        self._group_end, self._group_timed = list(self._group_end), list(self._group_timed)
        self._last_post_at, self._index_of_post = list(self._last_post_at), dict(
            self._index_of_post)
        i, n = first, len(events)
        while i < n:
            j = i
            while j + 1 < n and self._times[j + 1] == self._times[i]:
                j += 1
            timed = any(kind != "post" for kind, _ in events[i : j + 1])
            self._group_end += [j] * (j + 1 - i)
            self._group_timed += [timed] * (j + 1 - i)
            i = j + 1
        self._index(events, first)

    def after(self, i: int, current: Mapping[str, Any], records: Sequence[dict[str, Any]],
              start: int) -> None:
        """Event `i` applied: `records[start:]` are the vote-like marks it recorded and
        `current` each voter's standing vote (`.target`)."""
        for rec in records[start:]:  # the moments of counted votes, as `moment` reads them
            post_id = rec["post_id"]
            if post_id is None or post_id not in self.posted_at or rec["code"] not in ACCEPTED:
                continue
            moment = (rec["at"], post_id)
            if moment not in self._seen:
                self._seen[moment] = None
                self._schedule(i, moment)
        if self._found is not None:
            return
        for moment, last_post in self._at.pop(i, ()):
            ok = self._everyone_voted(current, last_post, moment[0])
            self._seen[moment] = ok
            if ok:
                self._found = moment[0]
                return

    def moment(self, votes: Sequence[Any]) -> datetime | None:
        """When everyone first had a vote, given the count's votes (its accepted ones are
        the moments looked at); None if never."""
        moments = sorted({(v.at, v.post_id) for v in votes
                          if v.accepted and v.post_id is not None and v.post_id in self.posted_at})
        for at, post_id in moments:
            if self._found is not None and at >= self._found:
                return self._found  # every moment before it was looked at
            ok = self._seen.get((at, post_id))
            if ok is None:  # (kept: a count as of a moment does not change with later ones)
                ok = self._seen[(at, post_id)] = self.exact(at, post_id)
            if ok:
                return at
        return None

    def _schedule(self, i: int, moment: Moment) -> None:
        """Where the pass stands in for the count as of `moment` (met at event `i`): after
        the last event at that time, or right after its post when later posts share the
        second and nothing else does; otherwise it is counted on its own (left None)."""
        at, post_id = moment
        if not self._in_order or self._times[i] != at:
            return
        end = self._group_end[i]
        if at != self.posted_at[post_id]:  # cast by an edit: every event up to `at`
            self._add(end, moment, self._last_post_at[end])
            return
        j = self._index_of_post.get(post_id)
        if j is None or self._group_end[j] != end:
            return
        if self._last_post_at[end] == post_id:  # the last post of its second
            self._add(end, moment, post_id)
        elif not self._group_timed[j] and j >= i:
            self._add(j, moment, post_id)

    def _add(self, index: int, moment: Moment, last_post: int | None) -> None:
        self._at.setdefault(index, []).append((moment, last_post))

    def _everyone_voted(self, current: Mapping[str, Any], last_post: int | None,
                        at: datetime) -> bool:
        """The count's `not_voting` is empty with someone alive (`totals.alive_at_end` as of
        the post or moment; `totals.build_wagons`: votes by and for the dead drop out)."""
        game = self._game
        assert game is not None
        alive = {s for s in game.players if game.is_alive(s, post_id=last_post, at=at)}
        if not alive:
            return False
        for voter in alive:
            standing = current.get(voter)
            if standing is None:
                return False
            target = standing.target
            if target not in self.specials and target not in alive:
                return False
        return True

