"""The running count while a day's events are applied: each voter's current vote, every
mark judged so far, the vote that reached the majority, the names the thread taught."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from assistant.count.gm_threshold import StatedThreshold
from assistant.count.nicknames import Nicknames
from assistant.count.weights import vote_weight
from assistant.game import Game


@dataclass
class CurrentVote:
    target: str
    index: int
    """Index into the votes list of the vote that put the voter on this target."""
    order: int


@dataclass
class RunningCount:
    """The running count while posts are applied."""

    current: dict[str, CurrentVote] = field(default_factory=dict)
    votes: list[dict[str, Any]] = field(default_factory=list)
    order: int = 0
    hammer: tuple[str, int | None] | None = None
    """(target, post) of the vote that reached majority; post None for a PM vote."""
    players: tuple[str, ...] = ()
    written: dict[str, tuple[str, str, int | None]] = field(default_factory=dict)
    """Names (folded) as counted votes wrote them: (player, voter, post); see
    `judge._as_written_before`."""
    author_notes: Mapping[str, str] = field(default_factory=dict)
    """Authors the players file does not name, read as a slot: why (`with_unlisted_authors`)."""
    weights: dict[tuple[str, str | None], tuple[int, str]] = field(default_factory=dict)
    """`vote_weight` of (voter, target) on the day counted: the game's facts do not change
    during a count, and the weights are asked for again at every vote on a wagon."""
    stated: StatedThreshold | None = None
    """The lynch threshold the GM last stated for today's living count ([tally] gm_threshold)."""
    unsure: list[Any] = field(default_factory=list)
    """Edits whose window holds the day's end (`timeline.Edit`): whether they changed the
    vote before it cannot be known; the outcome says what each reading gives."""
    nicknames: Nicknames = field(default_factory=Nicknames)
    """Nicknames the thread gave players so far ([votes] thread_nicknames)."""
    unresolved: dict[str, tuple[int, str]] = field(default_factory=dict)
    """voter -> (index, name as written) of their latest vote that named no player or two,
    while no later vote of theirs counted: a GM count read after it may say whom it meant
    (`judge.apply_taught`)."""

    def weight(
        self, game: Game, voter: str, target: str | None, day: int | None
    ) -> tuple[int, str]:
        found = self.weights.get((voter, target))
        if found is None:
            found = self.weights[(voter, target)] = vote_weight(game, voter, target, day)
        return found
