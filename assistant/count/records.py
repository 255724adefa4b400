"""The count's records: each vote-like mark with what became of it (`Vote`), a wagon, and
the day's `Tally`. They cross module borders (the checks, the engine's dusk, the dashboard,
`count --json`); `tally.count` builds them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from assistant.count.outcome import Outcome
from assistant.game import Game
from assistant.models import to_iso
from assistant.names import Match, NameMatcher, Slot
from assistant.vote_codes import ACCEPTED, VoteCode

ABSTAIN = "Abstain"


@dataclass(frozen=True)
class Vote:
    """One vote-like mark and what became of it."""

    post_id: int | None
    """The forum post that carried it; None for a vote entered by the GM (PM)."""
    voter: str
    """The voter's slot, or the author's name when the author is not a player."""
    target: str | None
    """A player's shown name, "No Lynch", "Abstain", or None for an unvote / an unresolved name."""
    action: str
    """"vote" or "unvote"."""
    text: str
    """The mark as written ("[Vote: Slayer]")."""
    markup: str
    """How it was written: "red", "bold", "tag", "plain text", "PM"."""
    weight: int
    """The vote's effective weight when it counts (doublevoter 2, powerless 0); 0 if not counted."""
    reason: str
    """Why, for people: "counted: red vote", "replaced by post 66 (counted: tag vote)"."""
    code: VoteCode
    """Why, for programs: a stable code (see assistant/vote_codes.py)."""
    at: datetime
    url: str | None = None
    mark: int | None = None
    """Which vote-like mark of its post it is (1 = the first), as `assistant rule --which`
    names it; None for a PM vote."""
    ruling: str = ""
    """The GM's ruling that made it ("ruled by the GM at ...: not a vote"), or ""."""

    @property
    def accepted(self) -> bool:
        """It counted when it was cast (a later vote may have replaced it: see `code`).
        Derived from `code`, so the two can never disagree."""
        return self.code in ACCEPTED

    def to_json(self) -> dict[str, Any]:
        return {
            "post": self.post_id,
            "url": self.url,
            "voter": self.voter,
            "action": self.action,
            "target": self.target,
            "text": self.text,
            "markup": self.markup,
            "weight": self.weight,
            "accepted": self.accepted,
            "code": str(self.code),
            "reason": self.reason,
            "at": to_iso(self.at),
            **({"mark": self.mark} if self.mark is not None else {}),
            **({"ruling": self.ruling} if self.ruling else {}),
        }


@dataclass(frozen=True)
class Wagon:
    target: str
    voters: tuple[str, ...]
    """In the order they voted (a re-vote for the same target keeps the first place)."""
    posts: tuple[int | None, ...]
    """The post of each voter's standing vote, for links."""
    displayed: int
    """The count official tallies show (powerless votes shown, hidden extra weight not)."""
    effective: int
    """The count that decides the lynch."""

    def to_json(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "voters": list(self.voters),
            "displayed": self.displayed,
            "effective": self.effective,
        }


@dataclass(frozen=True)
class Tally:
    day: int | None
    wagons: tuple[Wagon, ...]
    not_voting: tuple[str, ...]
    abstaining: tuple[str, ...]
    alive: tuple[str, ...]
    majority: int
    outcome: Outcome
    votes: tuple[Vote, ...]
    deadline: datetime | None = None
    last_post: int | None = None
    last_post_at: datetime | None = None
    ruleset: str = ""
    decision: str = "majority"
    """The ruleset's [tally] decision: "majority" ends the day at `majority` votes;
    "plurality" lynches the most votes at the deadline, so `majority` decides nothing."""
    lynches: int = 1
    """Lynches available this day (003 multi-lynch: up to three)."""
    thresholds: tuple[float, ...] = ()
    """The ruleset's share of the living players' votes the 2nd, 3rd... lynch must exceed."""
    majority_note: str = ""
    """For the GM: `majority` is the GM's stated threshold, not the ruleset's (gm_threshold.py)."""
    votes_hidden: str = ""
    """Why no vote of the day is shown in its tally post (004 Voice of Reason: "No votes are
    shown if Voice of Reason is used"); "" when they are shown."""

    def lynch_rule(self) -> str:
        """The line under a count that says what lynches (plurality rulesets never hammer),
        and on a multi-lynch day how many lynches there are and what the later ones take
        (003: "the second-leading vote getter will also be lynched if (s)he has received
        more than 34% of the available votes")."""
        n = len(self.alive)
        if self.decision == "majority":
            line = f"With {n} alive, it takes {self.majority} to lynch."
        else:
            line = f"With {n} alive, the most votes at the deadline lynch."
        extra = self.thresholds[: self.lynches - 1]
        if not extra:
            return line
        places = ("second", "third", "fourth", "fifth")
        parts = []
        for i, share in enumerate(extra):
            need = int(share * n + 1e-9) + 1  # the fewest votes that are more than the share
            after = f"if the {places[i - 1]} is lynched and " if i else "if "
            parts.append(
                f"the {places[i]} {after}over {share:.0%} of the {n} votes ({need} or more)"
            )
        return f"{line} {self.lynches} lynches today: the leader, " + ", ".join(parts) + "."

    def to_json(self, *, why: bool | str = False) -> dict[str, Any]:
        """The document `count --json` prints; `why` adds the votes (of one player if a name)."""
        doc: dict[str, Any] = {
            "wagons": [w.to_json() for w in self.wagons],
            "not_voting": list(self.not_voting),
            "alive": list(self.alive),
            "majority": self.majority,
            **({"majority_note": self.majority_note} if self.majority_note else {}),
            **({"votes_hidden": self.votes_hidden} if self.votes_hidden else {}),
            "outcome": self.outcome.to_json(),
        }
        if why:
            votes = self.votes if why is True else self.votes_of(str(why))
            doc["votes"] = [v.to_json() for v in votes]
        return doc

    def votes_of(self, voter: str) -> tuple[Vote, ...]:
        return tuple(v for v in self.votes if v.voter == voter)

    def voter_named(self, game: Game, text: str, *, close_spelling: float = 0.8) -> Match:
        """Whose votes `--why TEXT` asks about, read as votes read names: a player (name,
        alias, then prefix, substring, close spelling), else someone else who cast a
        vote-like mark this day ("bob" for the non-player "bob the builder"). Exact and
        accent-blind names are tried for both before the looser steps, so a non-player's
        full name is never read as a player's close spelling."""
        players = game.matcher(close_spelling)
        others = NameMatcher(
            [Slot(v) for v in self.other_voters(game)], close_spelling=close_spelling
        )
        for strict in (True, False):
            for matcher in (players, others):
                m = matcher.match(text, strict=strict)
                if m.ok or m.how == "ambiguous":
                    return m
        near = players.match(text).candidates + others.match(text).candidates
        return Match(text, None, "unknown", near)

    def other_voters(self, game: Game) -> tuple[str, ...]:
        """Who cast a vote-like mark this day without being a player (GMs, spectators)."""
        return tuple(dict.fromkeys(v.voter for v in self.votes if v.voter not in game.players))

    def wagon(self, target: str) -> Wagon | None:
        return next((w for w in self.wagons if w.target == target), None)
