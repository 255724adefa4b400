"""Who is lynched: the ruleset's `[tally]` decision rules applied to the wagons.

Plurality with a tie rule (no lynch, decided by someone such as the sheriff, or a random
draw), a day with no votes, No Lynch leading, up to three lynches with share thresholds
(003), and majority ending the day (the hammer). A random draw is reproducible: it is
seeded with the game, the day and the tied names, and the seed is written in the reason,
so re-running a count draws the same player and anyone can check it. With an engine
setup the seed is the game's stored seed (`assistant roles`), the one its nights use.

Roles act on the outcome through `RoleEffects` (derived by the engine from the setup,
see assistant/engine/vote_effects.py): a player who cannot be lynched passes the lynch
on, a Tiebreaker tied for the lead is not considered and his vote breaks a tie, and a
charmed player is lynched in place of the one who charmed them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from assistant.errors import RulesetError
from assistant.settings import known_section, show, typed_fields

NO_LYNCH = "No Lynch"

_CHOICES = {
    "decision": ("plurality", "majority"),
    "at_deadline": ("plurality", "no_lynch"),
    "tie": ("no_lynch", "random", "decided"),
    "tie_decided_by": ("gm", "sheriff"),
    "no_votes": ("no_lynch", "all_tied"),
    "no_lynch_majority": ("majority", "one_less"),
    "template": ("classic", "chat", "pm"),
    "immune_lynch": ("passes_on", "fails"),
}


@dataclass(frozen=True)
class TallyRules:
    """The `[tally]` section of a ruleset."""

    decision: str = "plurality"
    """"plurality": the most votes at the deadline; "majority": a wagon reaching majority
    ends the day at once (the hammer)."""
    at_deadline: str = "plurality"
    """Under "majority", what the deadline without a majority gives."""
    no_lynch_majority: str = "majority"
    """Under "majority", the votes No Lynch needs: "majority" like a player, or "one_less"
    ("one less for No Lynch": half the living players are enough)."""
    gm_threshold: bool = False
    """Under "majority", a GM post stating what it takes to lynch with today's living count
    ("With 6 alive, it takes 3 to lynch") sets the threshold from that post on, with a note
    for the GM where it is not the ruleset's majority (gm_threshold.py)."""
    tie: str = "no_lynch"
    """"no_lynch" (000), "random" (002, 003), "decided" by someone (001: the sheriff)."""
    tie_decider: str = "the GM"
    """How reasons name who decides a tie ("the GM", "the sheriff")."""
    tie_decided_by: str = "gm"
    """Who decides a "decided" tie: "gm", or "sheriff" (001: the player recorded with
    `assistant sheriff`; with no living sheriff nobody is lynched). The choice is a GM
    fact ("tie_break", entered with `assistant tiebreak`) and must be one of the tied."""
    no_votes: str = "no_lynch"
    """A day without votes: "no_lynch", or "all_tied" (002: every living player is tied at 0)."""
    reveal_on_no_votes: bool = True
    max_lynches: int = field(default=1, metadata={"min": 1})
    """003: up to 3 lynches a day, as many as the GM says are available (input "lynches")."""
    thresholds: tuple[float, ...] = field(default=(), metadata={"min": 0, "max": 1})
    """Share of the available votes the 2nd, 3rd leaders must exceed (003: 0.34, 0.10)."""
    single_lynch_day_one: bool = True
    lovers_bonus: int = field(default=0, metadata={"min": 0})
    """Extra effective votes when both lovers vote for the same player (002: 1)."""
    show_weights: bool = False
    """Displayed counts include vote weights (False: a doublevoter shows as one vote)."""
    template: str = "classic"
    """Which templates/tally_*.j2 drafts the tally post."""
    immune_lynch: str = "passes_on"
    """A player who cannot be lynched leads: "passes_on" to the next (002 Imaginary Friend),
    or "fails": no lynch that day, unless another is tied with them (004: "If the person who
    got the most lynch votes is also arrested that same phase, there will be no lynch";
    "If two people recieve the same number of lynch votes ... and one of those two people is
    arrested or APTXed, the other will be lynched")."""

    @classmethod
    def from_ruleset(cls, ruleset: Any) -> TallyRules:
        """A ruleset's `[tally]`: read once when the file was loaded (`Ruleset.tally`); a
        plain table, or raw tables with `section()` (the loader, house rules), read here."""
        if isinstance(built := getattr(ruleset, "tally", None), cls):
            return built
        section, where = known_section(ruleset, "tally", cls.__dataclass_fields__)
        values = typed_fields(cls, section, f"{where} [tally]")
        for key, allowed in _CHOICES.items():
            if key in values and values[key] not in allowed:
                raise RulesetError(
                    f"{where} [tally] {key} = {show(values[key])}: use one of {list(allowed)}"
                )
        return cls(**values)


def with_tally(ruleset: Any, **values: str) -> Any:
    """`ruleset` with some `[tally]` settings of one game over the file's ("at_deadline",
    "no_lynch_majority"), checked like the file's own."""
    if not values:
        return ruleset
    from dataclasses import replace

    where = str(getattr(ruleset, "path", "ruleset"))
    for key, value in values.items():
        if value not in _CHOICES.get(key, (value,)):
            raise RulesetError(f"{where} [tally] {key} = {show(value)}: use one of "
                               f"{list(_CHOICES[key])}")
    return replace(ruleset, tally=replace(TallyRules.from_ruleset(ruleset), **values))


@dataclass(frozen=True)
class RoleEffects:
    """What roles do to a day's outcome beyond vote weights (see the module docstring)."""

    immune: frozenset[str] = frozenset()
    """Players who cannot be lynched (002 Imaginary Friend)."""
    tiebreakers: Mapping[str, str | None] = field(default_factory=dict)
    """Each living Tiebreaker and the target of their standing vote."""
    charmed: Mapping[str, str] = field(default_factory=dict)
    """charmer -> the living player lynched instead of them (002 Hex of Charming)."""


@dataclass(frozen=True)
class Reading:
    """One way a post the assistant could not see as it stood at the day's end may be read,
    and the lynch that reading gives."""

    post: int
    reading: str
    """"as read", "its edit made before the deadline", "without its vote"."""
    lynched: str
    """What that reading gives, as `Outcome.said` says it."""

    def to_json(self) -> dict[str, Any]:
        return {"post": self.post, "reading": self.reading, "lynched": self.lynched}


@dataclass(frozen=True)
class Outcome:
    lynched: tuple[str, ...]
    reason: str
    at_post: int | None
    """The post that decided it (the hammer), else the last post counted."""
    final: bool = False
    """The day is over (majority reached or deadline passed); otherwise "if it ended now"."""
    by_majority: bool = False
    """The day ended when a wagon reached majority (the hammer, post `at_post`)."""
    failed: bool = False
    """No lynch because the leader could not be lynched (`immune_lynch = "fails"`; 004: "the
    GM reports that the lynching simply failed")."""
    waiting: str = ""
    """A tie someone must break and has not yet: whose choice it waits for ("the sheriff
    (Lady Grey)", "the GM"); "" otherwise. Nobody is lynched *yet*: not a no-lynch."""
    tied: tuple[str, ...] = ()
    """The tied leaders the choice is among, while `waiting`."""
    uncertain: tuple[Reading, ...] = ()
    """The day's lynch depends on posts the assistant could not see as they stood at its end
    (a silent edit around the deadline, a post first read already edited after it): each
    reading and what it gives, the assistant's own first. Empty when every reading gives
    the same lynch, or once the GM ruled on those posts (`assistant rule`)."""

    @property
    def no_lynch(self) -> bool:
        """The day ended (or would end) with nobody lynched: No Lynch won, or no one did
        (not while a tie waits for its decider)."""
        return not self.lynched and not self.waiting and not self.uncertain

    def said(self, names: Any = ", ".join) -> str:
        """Who is lynched in a few words: the names, "no lynch", or while a tie waits for
        its decider, "waiting for the sheriff's choice" (never "no lynch" then)."""
        if self.uncertain:
            posts = ", ".join(f"post {p}" for p in dict.fromkeys(r.post for r in self.uncertain))
            return f"uncertain until you rule on {posts}"
        if self.lynched:
            return str(names(self.lynched))
        return f"waiting for {_choice_of(self.waiting)}" if self.waiting else "no lynch"

    @property
    def decided_by(self) -> str:
        """How the day was decided, for programs (`reason` says it for people): "majority"
        (a wagon reached it, post `at_post`), "deadline" (the deadline passed without one)
        or "not_yet" (the day runs: the outcome is what would happen if it ended now)."""
        if self.by_majority:
            return "majority"
        return "deadline" if self.final else "not_yet"

    def to_json(self) -> dict[str, Any]:
        return {
            "lynched": list(self.lynched),
            "no_lynch": self.no_lynch,
            "decided_by": self.decided_by,
            "reason": self.reason,
            "at_post": self.at_post,
            **({"waiting_for": self.waiting, "tied": list(self.tied)} if self.waiting else {}),
            **({"uncertain": [r.to_json() for r in self.uncertain]} if self.uncertain else {}),
        }


@dataclass(frozen=True)
class Standing:
    """What the outcome is decided from: one wagon's totals."""

    target: str
    effective: int
    displayed: int


def seeded_order(candidates: Sequence[str], seed: str) -> list[str]:
    """A reproducible random order: the same seed and names always give the same order."""
    names = sorted(candidates)
    return random.Random(seed).sample(names, len(names))


def draw(candidates: Sequence[str], seed: str) -> str:
    """A reproducible random pick (the first of `seeded_order`)."""
    return seeded_order(candidates, seed)[0]


def _ranked(counted: Sequence[Standing], seed: str) -> list[Standing]:
    """Most votes first; players tied below the top are put in a seeded random order too."""
    by_count: dict[int, list[Standing]] = {}
    for s in counted:
        by_count.setdefault(s.effective, []).append(s)
    out: list[Standing] = []
    for i, count in enumerate(sorted(by_count, reverse=True)):
        group = {s.target: s for s in by_count[count]}
        order = seeded_order(list(group), seed if i == 0 else f"{seed}/{count}")
        out.extend(group[name] for name in order)
    return out


def lynches_today(rules: TallyRules, lynches_available: int, day: int | None) -> int:
    """How many lynches the day has: the GM's / engine's number, capped by the ruleset,
    one on Day 1 when the ruleset says so (003: "there can only be a single lynch on Day One")."""
    if day == 1 and rules.single_lynch_day_one:
        return 1
    return max(1, min(rules.max_lynches, lynches_available))


def decide(
    standings: Sequence[Standing],
    *,
    alive: Sequence[str],
    majority: int,
    rules: TallyRules,
    seed: str,
    day: int | None,
    lynches_available: int,
    hammer: tuple[str, int | None] | None,
    last_post: int | None,
    final: bool,
    decider: str | None = None,
    no_decider: str = "",
    decision: str | None = None,
    roles: RoleEffects | None = None,
) -> Outcome:
    """The outcome of a day, or of the day so far ("if the day ended now").

    For a tie the ruleset has `decided`: `decider` is the living sheriff (when
    `tie_decided_by = "sheriff"`), `no_decider` says why there is none ("there is no
    sheriff"), and `decision` is the choice the GM recorded, if any.
    """
    prefix = "" if final else "if the day ended now: "
    roles = roles or RoleEffects()
    if hammer is not None:
        target, post = hammer
        if target == NO_LYNCH:
            need = (
                f"{majority - 1} votes (one less for No Lynch)"
                if rules.no_lynch_majority == "one_less"
                else f"majority ({majority})"
            )
            return Outcome(
                (),
                f"{need} for No Lynch: the day ends with no lynch",
                post,
                True,
                True,
            )
        lynched, notes = _charm([target], roles, alive)
        return Outcome(
            tuple(lynched),
            "; ".join([f"majority reached: {majority} votes on {target} ends the day", *notes]),
            post,
            True,
            True,
        )
    if rules.decision == "majority" and rules.at_deadline == "no_lynch":
        return Outcome(
            (), prefix + f"no one has a majority ({majority}): no lynch", last_post, final
        )

    counted = [s for s in standings if s.effective > 0]
    if not counted:
        if rules.no_votes == "all_tied" and alive:
            pool = [n for n in alive if n not in roles.immune and n not in roles.tiebreakers]
            picked = draw(pool or list(alive), seed)
            lynched, notes = _charm([picked], roles, alive)
            reveal = "" if rules.reveal_on_no_votes else "; the role is not revealed"
            return Outcome(
                tuple(lynched),
                prefix + f"no votes: all {len(alive)} living players are tied at 0; "
                f"drawn at random: {picked} (seed {seed!r}){reveal}"
                + "".join(f"; {n}" for n in notes),
                last_post,
                final,
            )
        return Outcome((), prefix + "no votes: no lynch", last_post, final)

    ordered = _ranked(counted, seed)
    role_notes: list[str] = []
    top = ordered[0].effective
    passed = [s.target for s in ordered if s.target in roles.immune and s.effective == top]
    if passed and rules.immune_lynch == "fails" and all(
        s.target in roles.immune for s in ordered if s.effective == top
    ):
        return Outcome(
            (),
            prefix + f"{_and_list(passed)} leads with {top} but cannot be lynched: "
            "the lynching failed",
            last_post,
            final,
            failed=True,
        )
    ordered = [s for s in ordered if s.target not in roles.immune]
    if passed and rules.immune_lynch == "fails":
        role_notes.append(f"{_and_list(passed)} cannot be lynched")
    elif passed:
        role_notes.append(f"{_and_list(passed)} cannot be lynched: the lynch passes on")
    if not ordered:
        return Outcome((), prefix + "; ".join([*role_notes, "no one else: no lynch"]),
                       last_post, final)
    top = ordered[0].effective
    leaders = [s.target for s in ordered if s.effective == top]
    if len(leaders) > 1:
        out = [n for n in leaders if n in roles.tiebreakers]
        if out and len(out) < len(leaders):
            role_notes.append(f"{_and_list(out)} (Tiebreaker) is not considered in the tie")
            ordered = [s for s in ordered if s.target not in out]
            leaders = [n for n in leaders if n not in out]
    if len(leaders) > 1:
        picks = [t for t in roles.tiebreakers.values() if t in leaders]
        if len(picks) == 1:
            role_notes.append(f"the Tiebreaker's vote is on {picks[0]}: it decides the tie")
            leaders = picks
            ordered = [s for s in ordered if s.target == picks[0]] + [
                s for s in ordered if s.target != picks[0]
            ]
    if len(leaders) == 1 and leaders[0] == NO_LYNCH:
        return Outcome(
            (), prefix + f"No Lynch leads with {top}: no one is lynched", last_post, final
        )
    if len(leaders) > 1:
        names = _and_list(sorted(leaders))
        if rules.tie == "no_lynch":
            return Outcome(
                (), prefix + f"tie between {names} ({top} each): no lynch", last_post, final
            )
        if rules.tie == "decided":
            head = prefix + f"tie between {names} ({top} each): "
            if rules.tie_decided_by == "sheriff" and decider is None:
                # 001: "If there's no sheriff and nobody is willing to change their vote,
                # nobody will be lynched."
                why = no_decider or "there is no sheriff"
                return Outcome((), head + f"{why}, so nobody is lynched", last_post, final)
            who = rules.tie_decider + (f" ({decider})" if decider else "")
            tied = tuple(sorted(leaders))
            if decision is None:
                return Outcome(
                    (), head + f"waiting for {_choice_of(who)}: {who} decides among them who "
                    "is lynched", last_post, final, waiting=who, tied=tied,
                )
            if decision not in leaders:
                return Outcome(
                    (),
                    head + f"waiting for {_choice_of(who)}: the recorded choice, {decision}, "
                    "is not one of them",
                    last_post,
                    final,
                    waiting=who,
                    tied=tied,
                )
            if decision == NO_LYNCH:
                return Outcome((), head + f"{who} chose No Lynch", last_post, final)
            first = decision
            ordered = [s for s in ordered if s.target == decision] + [
                s for s in ordered if s.target != decision
            ]
            tie_note = f"tie between {names} ({top} each): {who} chose {decision}"
        else:
            first = ordered[0].target  # == draw(leaders, seed)
            tie_note = (
                f"tie between {names} ({top} each): drawn at random: {first} (seed {seed!r})"
            )
        if first == NO_LYNCH:
            return Outcome(
                (),
                prefix + f"tie between {names} ({top} each): drawn at random: "
                f"No Lynch (seed {seed!r})",
                last_post,
                final,
            )
    else:
        first = leaders[0]
        tie_note = f"{first} leads with {top}"

    lynched = [first]
    notes = [tie_note]
    available = lynches_today(rules, lynches_available, day)
    voters = len(alive)
    for place, threshold in enumerate(rules.thresholds[: max(available - 1, 0)], start=2):
        if len(ordered) < place or len(lynched) < place - 1:
            break
        cand = ordered[place - 1]
        share = cand.effective / voters if voters else 0.0
        tied = [
            s.target
            for s in ordered[place - 1 :]
            if s.effective == cand.effective and s.target != cand.target
        ]
        if tied:
            group_seed = seed if cand.effective == top else f"{seed}/{cand.effective}"
            notes.append(
                f"{_and_list(sorted([cand.target, *tied]))} are tied at {cand.effective}: "
                f"drawn at random for {_ordinal(place)} place: {cand.target} "
                f"(seed {group_seed!r})"
            )
        if cand.target == NO_LYNCH:
            notes.append(f"No Lynch is {_ordinal(place)}: no further lynch")
            break
        if share > threshold:
            lynched.append(cand.target)
            notes.append(
                f"{cand.target} is {_ordinal(place)} with {cand.effective} of {voters} "
                f"({share:.0%} > {threshold:.0%}): also lynched"
            )
        else:
            notes.append(
                f"{cand.target} is {_ordinal(place)} with {cand.effective} of {voters} "
                f"({share:.0%}, not over {threshold:.0%}): not lynched"
            )
            break
    if available > 1:
        notes.append(f"{available} lynches available today")
    lynched, charm_notes = _charm(lynched, roles, alive)
    return Outcome(
        tuple(lynched), prefix + "; ".join([*role_notes, *notes, *charm_notes]), last_post, final
    )


def _choice_of(who: str) -> str:
    """ "the sheriff's choice" (of "the sheriff (Lady Grey)"), "the GM's choice"."""
    return f"{who.partition(' (')[0]}'s choice"


def _charm(
    lynched: Sequence[str], roles: RoleEffects, alive: Sequence[str]
) -> tuple[list[str], list[str]]:
    """002 Hex of Charming: "if the Witch is put up to lynch ..., the hexed player is lynched
    instead"."""
    out, notes = [], []
    for name in lynched:
        instead = roles.charmed.get(name)
        if instead and instead in alive and instead not in lynched:
            notes.append(f"{instead} is charmed by {name} and is lynched instead")
            out.append(instead)
        else:
            out.append(name)
    return out, notes


def _and_list(names: Sequence[str]) -> str:
    """ "A and B", "A, B and C"."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _ordinal(n: int) -> str:
    return {2: "second", 3: "third"}.get(n, f"#{n}")
