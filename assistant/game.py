"""A game's setup as facts: players, GMs, deaths, phases, PM votes, vote modifiers.

Everything here comes from the store (the game's config and the GM's inputs) or, for a
replay, from files; nothing is derived from posts. The input kinds read:

- "players"  {"players": [[name, alias, ...], ...]}  (the last one entered wins)
- "death"    {"player", "at_post": int|None, "at": iso|None, "how", "replacement": str|None}
             how = "replaced" is not a death: `replacement` joins the player's slot.
             "dusk": int (a lynch: the day it ended; `draft dusk --confirm`, `kill --day`).
- "phase"    {"kind": "day"|"night", "number", "starts_at": iso, "ends_at": iso|None,
              "start_post": int|None}
- "reset"    {"at_post": int}  the GM reset the vote count in that post ("Votes are reset;
             day continues"): every vote standing then ends (`game reset`).
- "alias"    {"player", "alias"}  another name the player posts under (a renamed account:
             `game alias`); it votes as the player's slot from the start.
- "vote"     {"voter", "target": str|None (None = unvote), "at": iso}   (004: votes by PM)
- "modifier" {"player", "vote_weight": int (default 1), "powerless": bool, "lover_of": str|None,
              "votes_against": int (default 0: added to the votes on the player that day),
              "day": int|None (None = every day), "charmed_by": str|None,
              "tiebreaker": bool, "lynch_immune": bool, "source": str,
              "vote_by": str|None (000 Mind Control Ray: whose choice the vote is that day),
              "hidden": bool (004: the player's vote that day is neither counted nor shown),
              "hides_votes": bool (004 Voice of Reason: no vote of that day is shown),
              "weight_on": [str]|None (the vote_weight counts only on a vote for one of these)}
             vote facts the GM knows from the roles: a doublevoter or Enchanter has
             vote_weight 2; a hexed (002 Hex of Powerlessness) or Imaginary-Friend vote is
             powerless (shown, not counted); lovers voting together get the ruleset's bonus.
             When the game has a setup ("roles", `assistant roles`), the same facts are
             *derived* from it and from the confirmed nights (see "Role effects" below); the
             GM enters modifiers only for what the engine does not know.
- "revive"   {"player", "at_post": int|None, "at": iso|None, "source"}
             a dead player brought back (002 Priest), written by `assistant resolve` when the
             GM confirms the resolution: alive again from that moment.
- "roles"    the engine's setup (assistant/engine/setup.py); its `seed` seeds random ties.

Role effects: data flows one way, facts -> derived. The stored facts are the setup and
the confirmed resolutions; the vote effects of roles (weights, hexes, lovers, charm,
Tiebreaker, Imaginary Friend) are recomputed from them on every load by the engine
(`assistant.engine.vote_effects`, a layer above this one) and never stored, so a setup
entered again, a role stolen or a night re-resolved can never leave a stale modifier
behind. The caller passes them in (`derived`: `monitor.load_game` does); they enter the
game exactly as GM "modifier" inputs would, placed before the GM's own inputs.
- "lynches"  {"day": int, "available": int}   (003: lynches available that day, 1..3)
- "sheriff"  {"player": str, "day": int|None, "at_post": int|None}
             001: the player the village elected sheriff on `day` (None = from the start);
             the sheriff serves until dead or until another sheriff is recorded, and breaks
             lynch ties (ruleset [tally] tie_decided_by = "sheriff"). `at_post` is the GM's
             post announcing the election: that day's lynch vote starts after it.
- "tie_break" {"day": int|None, "choice": str}
             whom the tie's decider (the sheriff in 001, the GM in 004) chose on `day`.
- "ruling"   {"post": int, "action": "ignore"|"vote"|"unvote"|"as_read", "target": str|None,
              "which": int|None, "at": iso|None, "version": int}
             the GM's reading of one post's votes (`assistant rule`): not a vote, a vote for
             `target` (a player or No Lynch), an unvote, or the post as read counted from `at`;
             `which` = only the post's which-th vote-like mark; `version` = how many versions
             of the post were stored when the GM ruled (the post as the GM saw it).
An input the GM withdrew (`assistant undo`, store.WITHDRAW) is not among the inputs read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from assistant.errors import AssistantError, ConfigError, damaged_record
from assistant.models import Post, from_iso
from assistant.names import NameMatcher, Slot, fold


@dataclass(frozen=True)
class Death:
    player: str
    """The slot's shown name."""
    at_post: int | None = None
    """The post (forum id) after which the player is dead; None with `at` None = before this day."""
    at: datetime | None = None
    how: str = "other"
    """"lynch", "nightkill", "modkill", "other"."""
    day: int | None = None
    """For a lynch: the day it ended (`draft dusk --confirm`, `kill --how lynch --day N`);
    None = worked out from when it happened (`Game.counting`)."""
    before_day: int | None = None
    """For a nightkill the GM entered while a day ran: the day it came before (the player
    is dead for all of it, wherever the GM later says it started)."""


@dataclass(frozen=True)
class Phase:
    kind: str
    """"day" or "night"."""
    number: int
    starts_at: datetime
    ends_at: datetime | None = None
    """The deadline; None while the GM has not set one."""
    start_post: int | None = None
    """The first post (forum id) of the phase, usually the GM's day-start post."""
    entered_again: bool = False
    """The GM entered the phase again with a deadline (`phase GAME day 2 --ends ...`): that
    deadline replaced the one before and every move and extension of it."""
    reset_at: datetime | None = None
    """When that deadline also replaced an early end already in effect (everyone voted, a
    majority): early ends before this moment are the GM's to overrule, not the clock's."""


def phases_entered(inputs: Sequence[Mapping[str, Any]]) -> list[Phase]:
    """Every phase the GM started (inputs "phase"), in the order first started. A phase
    entered again replaces its earlier record where it stood: the GM corrected its start
    or deadline, it is not a phase of its own."""
    out: list[Phase] = []
    for doc in inputs:
        if doc["kind"] != "phase":
            continue
        data = doc["data"]
        phase = Phase(
            data["kind"],
            int(data["number"]),
            _time(data, "starts_at"),
            from_iso(data.get("ends_at")),
            data.get("start_post"),
        )
        same = [i for i, p in enumerate(out) if (p.kind, p.number) == (phase.kind, phase.number)]
        if not same:
            out.append(phase)
            continue
        if data.get("ends_given"):
            early = bool((data.get("replaces") or {}).get("ended_early"))
            at = from_iso(doc.get("entered_at")) or phase.starts_at
            phase = replace(phase, entered_again=True, reset_at=at if early else None)
        else:  # a start corrected: a deadline the GM gave before stays as it was
            phase = replace(
                phase, entered_again=out[same[0]].entered_again, reset_at=out[same[0]].reset_at
            )
        out[same[0]] = phase
    return out


@dataclass(frozen=True)
class PmVote:
    """A vote the GM received by PM and entered (004)."""

    voter: str
    target: str | None
    """None = an unvote."""
    at: datetime


@dataclass(frozen=True)
class Revival:
    """A dead player brought back to life (002 Priest): alive again from this moment."""

    player: str
    at_post: int | None = None
    at: datetime | None = None


@dataclass(frozen=True)
class Modifier:
    """A fact about how a player's vote counts (from the player's role, entered by the GM
    or derived from the engine's setup and confirmed nights)."""

    player: str
    vote_weight: int = 1
    powerless: bool = False
    lover_of: str | None = None
    day: int | None = None
    """Only on this day (a hex lasts one day); None = for the whole game."""
    charmed_by: str | None = None
    """002 Hex of Charming: a vote for this player has no power, and if this player is
    lynched, the charmed player is lynched instead."""
    tiebreaker: bool = False
    """002 Tiebreaker: not considered when tied for the most votes; in a tie, a vote on
    one of the leaders decides."""
    lynch_immune: bool = False
    """002 Imaginary Friend: cannot be lynched; the lynch passes on to the next."""
    source: str = "gm"
    """Where it comes from: "gm", or the role / hex the engine derived it from."""
    votes_against: int = 0
    """Added to the votes on this player that day (004 Accompany: "The target will have
    his/her lynching votes reduced by 1 for that day": -1)."""
    vote_by: str | None = None
    """000 Mind Control Ray: this player's vote that day is this other player's to choose
    ("may change it as often as he wishes"). The GM enters each choice as a PM vote of the
    controlled player (`assistant vote`), counted under any ruleset; the controlled
    player's own votes in the thread do not count that day."""
    hidden: bool = False
    """004: this player's vote that day "will not count or be shown" (poisoned by APTX or
    arrested; a frightened player's "Vote will show as if he didn't Vote"): left out of the
    wagons, the player listed as not voting."""
    hides_votes: bool = False
    """004 Voice of Reason: "No votes are shown if Voice of Reason is used": the tally post
    of that day lists no vote (the GM's count still shows them)."""
    weight_on: tuple[str, ...] | None = None
    """The vote_weight counts only on a vote for one of these players; None: on anyone (004
    Voice of Accusation "may only be used when Kujou is voting to lynch somebody she has
    Cross-Examined previously")."""


@dataclass(frozen=True)
class Sheriff:
    """001: the sheriff the village elected (entered by the GM with `assistant sheriff`)."""

    player: str
    day: int | None = None
    """Elected on this day and serving from it on; None = from the start of the game."""
    at_post: int | None = None
    """The post announcing the election; the day's lynch vote starts after it."""


@dataclass(frozen=True)
class TieBreak:
    """A tie's decision, as the GM recorded it: on `day`, the decider chose `choice`."""

    day: int | None
    choice: str
    """A player's shown name or "No Lynch"."""


RULING_ACTIONS = ("ignore", "vote", "unvote", "as_read")


@dataclass(frozen=True)
class Ruling:
    """The GM's reading of one post's votes (`assistant rule`), over the assistant's own."""

    post: int
    action: str
    """"ignore" (not a vote), "vote" (for `target`), "unvote", or "as_read" (the post's votes
    as the assistant reads them, counted from `at`)."""
    target: str | None = None
    """A player's shown name or "No Lynch", for "vote"."""
    which: int | None = None
    """Only the post's which-th vote-like mark (1 = the first, as `count --why` numbers
    them); None = the whole post: every mark of it gives way to the ruling."""
    at: datetime | None = None
    """Counted from this moment instead of the post's own time."""
    version: int = 0
    """How many versions of the post were stored when the GM ruled: the post as the GM saw
    it (later edits do not change the ruling); 0 = the latest."""
    entered_at: datetime | None = None

    def what(self) -> str:
        """"not a vote", "a vote for Jd-", "an unvote", "its votes as read"; and which mark
        and from when ("vote #2 of the post: ...", "..., counted from 11:20 UTC")."""
        said = {
            "ignore": "not a vote",
            "vote": f"a vote for {self.target}",
            "unvote": "an unvote",
            "as_read": "its votes as read",
        }[self.action]
        if self.which is not None:
            said = f"vote #{self.which} of the post is {said}"
        if self.at is not None:
            said += f", counted from {self.at:%Y-%m-%d %H:%M:%S} UTC"
        return said

    def by_gm(self) -> str:
        """"ruled by the GM at 2026-11-22 11:30 UTC: not a vote"."""
        when = f" at {self.entered_at:%Y-%m-%d %H:%M} UTC" if self.entered_at else ""
        return f"ruled by the GM{when}: {self.what()}"


@dataclass(frozen=True)
class Game:
    """The facts a count needs. Build with `load_game(store)` or `Game.from_parts(...)`."""

    game_id: str
    slots: tuple[Slot, ...]
    gms: tuple[str, ...] = ()
    ruleset: str = "permissive"
    tz: str = "UTC"
    deaths: tuple[Death, ...] = ()
    phases: tuple[Phase, ...] = ()
    pm_votes: tuple[PmVote, ...] = ()
    modifiers: tuple[Modifier, ...] = ()
    lynches: tuple[tuple[int, int], ...] = ()
    """(day number, lynches available) pairs (003 multi-lynch)."""
    thread_url: str | None = None
    sheriffs: tuple[Sheriff, ...] = ()
    """In the order entered (the latest for a day wins)."""
    tie_breaks: tuple[TieBreak, ...] = ()
    revivals: tuple[Revival, ...] = ()
    seed: int | None = None
    """The setup's random seed (`assistant roles`): random ties are drawn with it."""
    resets: tuple[int, ...] = ()
    """Posts (forum ids) in which the GM reset the vote count: every vote standing then ends."""
    rulings: tuple[Ruling, ...] = ()
    """The GM's rulings on single posts, in the order entered."""
    _life: tuple[tuple[str, Any], ...] = ()
    """("death" | "revive", record) in the order entered: `is_alive` replays it."""
    _matcher: dict[float, NameMatcher] = field(init=False, compare=False, repr=False)
    _gms_folded: frozenset[str] = field(init=False, compare=False, repr=False)
    """The GMs' names case-folded (`is_gm`: asked of every post, several times a count)."""
    _slot_of: dict[str, str | None] = field(init=False, compare=False, repr=False)
    """`slot_of_author`'s answers: a count and each check ask it of every post, and a
    thread has a few authors."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "_matcher", {})  # a cache, rebuilt by dataclasses.replace
        object.__setattr__(self, "_slot_of", {})
        object.__setattr__(self, "_gms_folded", frozenset(g.casefold() for g in self.gms))
        if not self._life and (self.deaths or self.revivals):  # built without from_parts
            life = [("death", d) for d in self.deaths] + [("revive", r) for r in self.revivals]
            object.__setattr__(self, "_life", tuple(life))

    # ---- construction -------------------------------------------------------------

    @classmethod
    def from_parts(
        cls,
        game_id: str,
        players: list[list[str]] | list[Slot],
        *,
        gms: tuple[str, ...] | list[str] = (),
        ruleset: str = "permissive",
        tz: str = "UTC",
        inputs: list[dict[str, Any]] = (),  # type: ignore[assignment]
        thread_url: str | None = None,
        derived: Sequence[Mapping[str, Any]] = (),
    ) -> Game:
        """A game from a players list and GM inputs shaped as the store keeps them
        ({"kind", "data"}): how `replay` and tests build one without a store. `derived` are
        the inputs the engine derives from a setup (role vote effects, 003's lynches), read
        before the GM's own; the caller computes them (`monitor.game_from_parts`)."""
        slots = [p if isinstance(p, Slot) else Slot(p[0], tuple(p[1:])) for p in players]
        deaths: list[Death] = []
        phases: list[Phase] = []
        pm_votes: list[PmVote] = []
        modifiers: list[Modifier] = []
        lynches: list[tuple[int, int]] = []
        sheriffs: list[Sheriff] = []
        tie_breaks: list[TieBreak] = []
        revivals: list[Revival] = []
        rulings: list[Ruling] = []
        life: list[tuple[str, int]] = []
        resets: list[int] = []
        seed = None
        roles = [doc for doc in inputs if doc["kind"] == "roles"]
        if roles:
            seed = int(roles[-1]["data"]["seed"])
        inputs = [*derived, *inputs]
        for doc in inputs:
            kind, data = doc["kind"], doc["data"]
            if kind == "players":
                slots = _stored_slots(data["players"])
            elif kind == "death" and data.get("how") == "replaced":
                slots = _add_replacement(slots, data)
            elif kind == "reset":
                resets.append(int(data["at_post"]))
            elif kind == "alias":
                slots = _add_replacement(slots, {"player": data["player"],
                                                 "replacement": data["alias"]})
            elif kind == "death":
                life.append(("death", len(deaths)))
                deaths.append(
                    Death(
                        data["player"],
                        data.get("at_post"),
                        from_iso(data.get("at")),
                        data.get("how") or "other",
                        _int_or_none(data.get("dusk")),
                        _int_or_none(data.get("night_before_day")),
                    )
                )
            elif kind == "vote":
                pm_votes.append(PmVote(data["voter"], data.get("target"), _time(data, "at")))
            elif kind == "modifier":
                modifiers.append(
                    Modifier(
                        data["player"],
                        int(data.get("vote_weight", 1)),
                        bool(data.get("powerless")),
                        data.get("lover_of"),
                        data.get("day"),
                        data.get("charmed_by"),
                        bool(data.get("tiebreaker")),
                        bool(data.get("lynch_immune")),
                        data.get("source") or "gm",
                        int(data.get("votes_against", 0)),
                        data.get("vote_by"),
                        bool(data.get("hidden")),
                        bool(data.get("hides_votes")),
                        None if data.get("weight_on") is None else tuple(data["weight_on"]),
                    )
                )
            elif kind == "revive":
                life.append(("revive", len(revivals)))
                revivals.append(
                    Revival(data["player"], data.get("at_post"), from_iso(data.get("at")))
                )
            elif kind == "lynches":
                lynches.append((int(data["day"]), int(data["available"])))
            elif kind == "sheriff":
                sheriffs.append(
                    Sheriff(data["player"], _int_or_none(data.get("day")), data.get("at_post"))
                )
            elif kind == "tie_break":
                tie_breaks.append(TieBreak(_int_or_none(data.get("day")), data["choice"]))
            elif kind == "ruling":
                rulings.append(
                    Ruling(
                        int(data["post"]),
                        data["action"],
                        data.get("target"),
                        _int_or_none(data.get("which")),
                        from_iso(data.get("at")),
                        int(data.get("version") or 0),
                        from_iso(doc.get("entered_at")),
                    )
                )
        phases = phases_entered(inputs)
        game = cls(
            game_id,
            tuple(slots),
            tuple(gms),
            ruleset,
            tz,
            (),
            tuple(phases),
            tuple(pm_votes),
            (),
            tuple(lynches),
            thread_url,
            tuple(sheriffs),
            tuple(tie_breaks),
            seed=seed,
            resets=tuple(sorted(set(resets))),
            rulings=tuple(rulings),
        )
        deaths = [_placed(d, game.phases) for d in deaths]
        # Names in deaths, modifiers and sheriffs may be aliases: store them by shown name.
        return _with_resolved(game, deaths, modifiers, revivals, life)

    # ---- questions a count asks -------------------------------------------------------

    def matcher(self, close_spelling: float = 0.8) -> NameMatcher:
        m = self._matcher.get(close_spelling)
        if m is None:
            m = self._matcher[close_spelling] = NameMatcher(
                self.slots, close_spelling=close_spelling
            )
        return m

    def slot_of_author(self, author: str) -> str | None:
        """The slot a post's author plays, by exact or case/accent-blind name or alias. A
        person standing in two slots (replaced out of one, back in another) plays the
        slot shown under their name."""
        try:
            return self._slot_of[author]
        except KeyError:
            slot = self._slot_of[author] = self._find_slot(author)
            return slot

    def _find_slot(self, author: str) -> str | None:
        m = self.matcher().match(author, strict=True)
        if m.slot is None and m.how == "ambiguous":
            key = fold(author)
            own = [s.name for s in self.slots if s.name in m.candidates and fold(s.name) == key]
            return own[0] if len(own) == 1 else None
        return m.slot

    def is_gm(self, author: str) -> bool:
        return author in self.gms or author.casefold() in self._gms_folded

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.slots)

    def death_of(self, slot: str) -> Death | None:
        """The player's latest death (a revived player may die again)."""
        found = [d for d in self.deaths if d.player == slot]
        return found[-1] if found else None

    def is_alive(
        self, slot: str, *, post_id: int | None = None, at: datetime | None = None
    ) -> bool:
        """Alive at a post / moment: the player's deaths and revivals, in the order entered,
        that had happened by then. A death or revival with neither post nor time happened
        before it all; a death takes effect after its post / moment, a revival from it."""
        alive = True
        for kind, record in self._life:
            if record.player != slot:
                continue
            if kind == "death" and _happened(record, post_id, at, inclusive=False):
                alive = False
            elif kind == "revive" and _happened(record, post_id, at, inclusive=True):
                alive = True
        return alive

    def alive_after(
        self, slot: str, *, post_id: int | None = None, at: datetime | None = None
    ) -> bool:
        """Alive once everything at the post / moment has happened: a death entered at that
        very post (the GM's `kill --post N` at the last post read) has taken effect, unlike
        `is_alive`, which asks about a vote cast in that post."""
        alive = True
        for kind, record in self._life:
            if record.player == slot and _happened(record, post_id, at, inclusive=True):
                alive = kind != "death"
        return alive

    def end_of(self, phase: Phase) -> datetime | None:
        """When `phase` ended: its deadline, else the start of the phase entered after it;
        None while it runs without a deadline."""
        if phase.ends_at is not None:
            return phase.ends_at
        later = [p.starts_at for p in self.phases if p.starts_at > phase.starts_at]
        return min(later) if later else None

    def counting(self, phase: Phase | None) -> Game:
        """The game as a day's own count sees it: a lynch recorded during or after that day
        is the day's result, not a death in it, so its wagon and its voters stay counted
        (after `draft dusk --confirm`, or `kill --how lynch`, the day reads the same)."""
        if phase is None or phase.kind != "day":
            return self

        def from_this_day_on(d: Death) -> bool:
            if d.how != "lynch":
                return False
            if d.day is not None:  # the GM or the dusk said which day's lynch it is
                return d.day >= phase.number
            # A lynch "after" the post that opened the day is an earlier day's, recorded from
            # the start of this one (a GM joining on Day 2 records Day 1's lynch so).
            if d.at_post is not None and phase.start_post is not None:
                return d.at_post > phase.start_post
            return d.at is not None and d.at > phase.starts_at

        if not any(from_this_day_on(d) for d in self.deaths):
            return self
        return replace(
            self,
            deaths=tuple(d for d in self.deaths if not from_this_day_on(d)),
            _life=tuple(
                (kind, r) for kind, r in self._life
                if not (kind == "death" and from_this_day_on(r))
            ),
        )

    def day(self, number: int | None = None) -> Phase | None:
        """Day `number`, or the current (last entered) day; None if no day was entered."""
        days = [p for p in self.phases if p.kind == "day"]
        if number is not None:
            days = [p for p in days if p.number == number]
        return days[-1] if days else None

    def modifiers_for(self, slot: str, day: int | None) -> list[Modifier]:
        return [
            m
            for m in self.modifiers
            if m.player == slot and (m.day is None or day is None or m.day == day)
        ]

    def sheriff(self, day: int | None) -> Sheriff | None:
        """The sheriff serving on `day` (dead or alive): the latest elected by then."""
        serving = [
            (s.day or 0, i, s)
            for i, s in enumerate(self.sheriffs)
            if s.day is None or day is None or s.day <= day
        ]
        return max(serving, key=lambda t: t[:2])[2] if serving else None

    def tie_break(self, day: int | None) -> str | None:
        """The decider's choice for a tie on `day`, the last one entered."""
        found = [t.choice for t in self.tie_breaks if t.day == day]
        return found[-1] if found else None

    def rulings_on(self, post_id: int) -> tuple[Ruling, ...]:
        """The rulings that stand on a post: the latest whole-post one alone when it is the
        latest of all; else the latest on each mark entered after the last whole-post one."""
        found = [r for r in self.rulings if r.post == post_id]
        if not found:
            return ()
        whole = [i for i, r in enumerate(found) if r.which is None]
        if whole and whole[-1] == len(found) - 1:
            return (found[-1],)
        after = found[whole[-1] + 1 :] if whole else found
        by_mark = {r.which: r for r in after}
        return tuple(by_mark[k] for k in sorted(by_mark))  # type: ignore[type-var]

    def lynches_available(self, day: int | None) -> int:
        found = [n for d, n in self.lynches if d == day]
        return found[-1] if found else 1

    def in_day(self, post: Post, phase: Phase | None) -> bool:
        """Whether a post belongs to `phase` (from its start post / start time on)."""
        if phase is None:
            return True
        if phase.start_post is not None:
            return post.post_id >= phase.start_post
        return post.posted_at >= phase.starts_at


_BEFORE = timedelta(microseconds=1)


def _placed(death: Death, phases: Sequence[Phase]) -> Death:
    """A death entered at a moment (not at a post) moved back into the phase it belongs to,
    against the phases as the GM has them now (a phase entered again with an earlier
    `--starts` moves it too): a nightkill entered while a day ran happened in the night
    before it, so the player is dead for the whole day; an earlier day's lynch (`kill --how
    lynch --day 1` entered on Day 2) is a death by the start of the phase after that day.
    Otherwise the count, "Not voting" and the inactivity check took a player the GM had
    killed for alive all day."""
    if death.at is None or death.at_post is not None or not phases:
        return death
    if death.before_day is not None:
        days = [p for p in phases if p.kind == "day" and p.number == death.before_day]
        if days and days[-1].starts_at <= death.at:
            return replace(death, at=days[-1].starts_at - _BEFORE)
    elif death.how == "lynch" and death.day is not None:
        days = [p for p in phases if p.kind == "day" and p.number == death.day]
        if days:  # the phases after that day
            later = [p.starts_at for p in phases if p.starts_at > days[-1].starts_at]
        else:  # a day before the GM's first phase: the days and nights numbered after it
            later = [p.starts_at for p in phases if p.number > death.day]
        if later and min(later) <= death.at:
            return replace(death, at=min(later) - _BEFORE)
    return death


def _happened(record: Any, post_id: int | None, at: datetime | None, *, inclusive: bool) -> bool:
    """Whether a death / revival had happened at the post or moment asked about."""
    if record.at_post is not None and post_id is not None:
        return post_id >= record.at_post if inclusive else post_id > record.at_post
    if record.at is not None and at is not None:
        return at >= record.at if inclusive else at > record.at
    return True


def _stored_slots(value: Any) -> list[Slot]:
    """The slots of a stored "players" input, a list of [name, alias...] lists; anything
    else (a string: each letter would have become a player) is refused."""
    if not isinstance(value, list) or not value or not all(
            isinstance(slot, list) and slot and all(type(n) is str and n for n in slot)
            for slot in value):
        raise ValueError(f"its players {value!r:.80} are not a list of [name, alias...] "
                         "lists")
    return [Slot(p[0], tuple(p[1:])) for p in value]


def _int_or_none(value: Any) -> int | None:
    return None if value is None else int(value)


def _time(data: dict[str, Any], key: str) -> datetime:
    value = from_iso(data.get(key))
    if value is None:
        raise ConfigError(f"a GM input is missing its time {key!r}: {data}")
    return value


def _add_replacement(slots: list[Slot], data: dict[str, Any]) -> list[Slot]:
    old, new = data["player"], data.get("replacement")
    if not new:
        raise ConfigError(f"the replacement of {old} names no replacement player")
    matcher = NameMatcher(slots)
    m = matcher.match(old, strict=True)
    if not m.ok:
        raise ConfigError(f"{old!r} (replaced by {new}) is not a player: {m.describe()}")
    return [Slot(s.name, (*s.aliases, new)) if s.name == m.slot else s for s in slots]


def _with_resolved(
    game: Game,
    deaths: list[Death],
    modifiers: list[Modifier],
    revivals: list[Revival],
    life: list[tuple[str, int]],
) -> Game:
    matcher = game.matcher()

    def resolve(name: str, what: str) -> str:
        m = matcher.match(name, strict=True)
        if not m.ok:
            raise ConfigError(
                f"the {what} names {m.describe()}; players: {', '.join(game.players)}"
            )
        return m.slot  # type: ignore[return-value]

    deaths = [replace(d, player=resolve(d.player, "death")) for d in deaths]
    revivals = [replace(r, player=resolve(r.player, "revival")) for r in revivals]
    return replace(
        game,
        deaths=tuple(deaths),
        revivals=tuple(revivals),
        _life=tuple(
            (kind, deaths[i] if kind == "death" else revivals[i]) for kind, i in life
        ),
        modifiers=tuple(
            replace(
                m,
                player=resolve(m.player, "modifier"),
                lover_of=resolve(m.lover_of, "lover") if m.lover_of else None,
                charmed_by=resolve(m.charmed_by, "charm") if m.charmed_by else None,
                vote_by=resolve(m.vote_by, "controller") if m.vote_by else None,
                weight_on=None if m.weight_on is None
                else tuple(resolve(x, "voice of accusation") for x in m.weight_on),
            )
            for m in modifiers
        ),
        pm_votes=tuple(replace(v, voter=resolve(v.voter, "PM vote")) for v in game.pm_votes),
        sheriffs=tuple(replace(s, player=resolve(s.player, "sheriff")) for s in game.sheriffs),
    )


def posts_of(store: Any, at: datetime | None = None) -> list[Post]:
    """The posts as the assistant had them: latest versions, or as seen at `at`."""
    out = []
    for sp in store.posts():
        if at is None:
            if sp.vanished_at is None:
                out.append(sp.latest)
        elif sp.vanished_at is None or sp.vanished_at > at:
            # The version seen by then; a post fetched only later (a backfill) as first seen.
            version = sp.as_of(at) or sp.versions[0].post
            if version.posted_at <= at:
                out.append(version)
    return out


def load_game(store: Any, derived: Sequence[Mapping[str, Any]] = ()) -> Game:
    """The game a store holds: its config (`game new`) and the GM's inputs in order, with
    the inputs the engine `derived` from them (`monitor.load_game` passes them)."""
    config = store.config()
    inputs = store.inputs()
    players = [i for i in inputs if i["kind"] == "players"]
    if not players:
        raise ConfigError(
            f"game {store.game_id!r} has no players yet: run `assistant game new {store.game_id} "
            "--players FILE ...` (one player a line, aliases after `|`)"
        )
    def game(inputs: list[dict[str, Any]]) -> Game:
        return Game.from_parts(
            store.game_id,
            [],
            gms=tuple(config.get("gms", ())),
            ruleset=config.get("ruleset", "permissive"),
            tz=config.get("tz", "UTC"),
            inputs=inputs,
            thread_url=config.get("thread_url"),
            derived=derived,
        )

    try:
        return game(inputs)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
        # An input damaged in the file (a death naming no player): the first one that
        # cannot be read is named, with the file, in one line.
        bad = next((doc for i, doc in enumerate(inputs) if not _readable(game, inputs[:i + 1])),
                   None)
        record = "the GM's inputs" if bad is None else \
            f"the GM's input #{bad.get('seq')} ({bad.get('kind')})"
        raise damaged_record(store.path, record, e) from None


def _readable(game: Callable[[list[dict[str, Any]]], Game], inputs: list[dict[str, Any]]) -> bool:
    try:
        game(inputs)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return False
    except AssistantError:
        pass  # a GM error of the inputs so far (no players yet...), not a damaged record
    return True


# ---- the game's name in drafts and subjects ---------------------------------------------

_NUMBER = (
    r"\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|final|last"
)
_PHASE_WORD = rf"(?:day|night|dawn|dusk)\s*(?:{_NUMBER})\b|(?:{_NUMBER})\s+(?:day|night)\b"
#: A phase in brackets anywhere ("[Day 4] ...", "... (Night 3)").
_BRACKETED = re.compile(rf"\s*[\[({{](?:[^\])}}]*?\b)?(?:{_PHASE_WORD})[^\])}}]*[\])}}]\s*", re.I)
#: A phase after a separator, and everything after it ("... — Day 2: results of Night 2").
_AFTER_SEPARATOR = re.compile(rf"\s*(?:[—–\-:|~·/,]|\s-\s)\s*(?:the\s+)?(?:{_PHASE_WORD}).*$", re.I)
#: A phase before a separator at the start ("Day 3 - Town Mafia").
_LEADING = re.compile(rf"^\s*(?:{_PHASE_WORD})\s*[—–\-:|~·/,]\s*", re.I)
#: A phase at the end with no separator ("Paranormal Mafia Day 2").
_TRAILING = re.compile(rf"\s+(?:{_PHASE_WORD})\s*$", re.I)


def title_without_phase(title: str) -> str:
    """The game's name in its thread's title: the title without the day or night it is at
    ("Chat Mafia — Day 2: results of Night 2" -> "Chat Mafia", "[Day 4] Town Mafia" ->
    "Town Mafia"); the title itself when nothing would be left."""
    name = _BRACKETED.sub(" ", title)
    name = _AFTER_SEPARATOR.sub("", name)
    name = _LEADING.sub("", name)
    name = _TRAILING.sub("", name)
    name = " ".join(name.split()).strip(" —–-:|~·/,")
    return name or " ".join(title.split())


def game_name(config: Mapping[str, Any], crawl: Mapping[str, Any]) -> str | None:
    """What drafts and subjects call the game: the GM's `game new --title`, else the
    thread's title without its day; None before either is known (never the game's id,
    which is the GM's short handle for the command line)."""
    given = str(config.get("title") or "").strip()
    if given:
        return given
    thread = str(crawl.get("title") or "").strip()
    return title_without_phase(thread) if thread else None
