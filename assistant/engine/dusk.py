"""Dusk: the day's lynch from the vote count, what it reveals, what it sets off, who won.

`monitor.draft_dusk(store, now)` gives `dusk_of` the game as it is seen then; the day is
counted exactly as `assistant count` does (`assistant.count.tally.count` on the stored posts), so
the lynch is the count's outcome: one source for ties, the sheriff and role effects. The day
is counted up to its effective end, as `assistant phase` and the daemon see it
(`monitor.day_deadline`, passed in by the caller): a 002 day where everyone
voted ends 5 minutes later, a mafiascum day at the majority, an extended day later.
The engine then applies each lynch to the game state (lovers follow, a hunter may shoot,
a lynched Bomb takes the last voter), reveals what the ruleset's `[reveal] lynch` policy
allows (none after a 002 day without votes: `[tally] reveal_on_no_votes`), and runs the
win checks marked for dusk, in the ruleset's order. `confirm_dusk` stores the lynches as
"death" facts (how = "lynch", at_post = the deciding post); the deaths they set off are
stored with source = "engine", as `assistant resolve` stores a night's, so the count and
the checks see them.

The daemon can call `monitor.draft_dusk` at the deadline; nothing here prints or asks.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from assistant.count.outcome import TallyRules
from assistant.count.tally import Tally
from assistant.engine.drafts import Reveal, reveal, win_post
from assistant.engine.history import DEATH, REST, ROLES, apply_death, replay
from assistant.engine.rules import EngineRules, load_engine_rules, phase_index
from assistant.engine.state import Death, GameState
from assistant.engine.win import Win, check_win
from assistant.errors import ConfigError, PhaseError
from assistant.game import Game
from assistant.models import to_iso
from assistant.safe_text import BBCode
from assistant.templating import template

DUSK_TEMPLATE = "dusk_default.j2"


@dataclass(frozen=True)
class DuskResult:
    """What dusk brings: the lynches, reveals, the deaths they set off, and a win."""

    game_id: str
    day: int | None
    tally: Tally
    """The day's count; `tally.outcome` says who is lynched and why."""
    reveals: tuple[Reveal, ...]
    """One per lynched player: role / side as the ruleset reveals them (None: not shown)."""
    deaths: tuple[Death, ...]
    """Every death at dusk: the lynches first, then what they set off."""
    others: tuple[Reveal, ...]
    """Deaths the lynches set off (a lover), as the ruleset reveals a non-lynch death."""
    notes: tuple[str, ...]
    """For the GM only (a hunter must name a target, no setup entered...)."""
    win: Win | None
    post: str
    """The dusk post, ready to paste."""
    facts: tuple[dict[str, Any], ...] = field(default=(), repr=False)
    """The "death" facts `confirm_dusk` stores."""
    confirmed: bool = False
    """The lynches of this day are already stored."""
    ends_why: str = ""
    """Why the day ends at `tally.deadline` (its effective end: a majority, everyone voted,
    an extension, or the deadline as set)."""
    rests: tuple[tuple[str, str, int], ...] = field(default=(), repr=False)
    """(player, ability, last phase index) of the rests the stopped lynch set off, stored by
    `confirm_dusk` as a "rest" fact (004 Lovey-Dovey)."""

    @property
    def lynched(self) -> tuple[str, ...]:
        return self.tally.outcome.lynched

    @property
    def final(self) -> bool:
        return self.tally.outcome.final

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game_id,
            "day": self.day,
            "final": self.final,
            "confirmed": self.confirmed,
            "ends_at": to_iso(self.tally.deadline),
            "ends_why": self.ends_why,
            "outcome": self.tally.outcome.to_json(),
            "reveals": [r.__dict__ for r in self.reveals],
            "deaths": [{"player": d.player, "how": d.how, "cause": d.cause} for d in self.deaths],
            "notes": list(self.notes),
            "win": None
            if self.win is None
            else {
                "winner": self.win.winner,
                "title": self.win.title,
                "reason": self.win.reason,
                "players": list(self.win.players),
            },
            "post": self.post,
        }


def _dusk_facts(inputs: list[dict[str, Any]], day: int | None) -> list[dict[str, Any]]:
    """The death facts an earlier `draft dusk --confirm` stored for `day`."""
    return [
        i for i in inputs
        if i["kind"] in (DEATH, REST) and "dusk" in i["data"] and i["data"]["dusk"] == day
    ]


def _names(game: Game, state: GameState) -> dict[str, str]:
    """engine name -> the slot's shown name in the count."""
    out = {}
    for name in state.players:
        m = game.matcher().match(name, strict=True)
        if not m.ok:
            raise ConfigError(
                f"the setup names {m.describe()}, who is not a player of {game.game_id}; "
                "enter the setup again with `assistant roles GAME --file setup.toml`"
            )
        out[name] = m.slot  # type: ignore[assignment]
    return out


def _last_voter(tally: Tally, target: str) -> str | None:
    wagon = tally.wagon(target)
    return wagon.voters[-1] if wagon and wagon.voters else None


def _vote_of(tally: Tally, voter: str) -> str | None:
    """Whom `voter` voted for at the day's end (004 Vengeance: "If Akai gets lynched, he'll
    kill the person he voted for too")."""
    return next((w.target for w in tally.wagons if voter in w.voters), None)


def dusk_of(
    view: Any,
    inputs: list[dict[str, Any]],
    ends: Any,
    now: datetime,
    *,
    tally: Tally,
) -> DuskResult:
    """The dusk of the day `tally` counts, as of `now`: see the module docstring.

    `view` is the game as `monitor.load_view` sees it (its game, ruleset and posts), `ends`
    the day's effective end (`monitor.day_deadline`) and `tally` the day's count
    (`monitor.day_tally`, the one `count` and the daemon's lock show): the caller above
    this layer has them (`monitor.draft_dusk`)."""
    game, ruleset = view.game, view.ruleset
    stored = _dusk_facts(inputs, tally.day)
    outcome = tally.outcome
    no_votes = bool(outcome.lynched) and not any(w.effective > 0 for w in tally.wagons)
    withheld = no_votes and not TallyRules.from_ruleset(ruleset).reveal_on_no_votes
    notes: list[str] = []
    deaths: list[Death] = []
    win = None
    rules: EngineRules | None = None
    day_deaths: tuple[Reveal, ...] = ()
    public: tuple[str, ...] = ()
    spends: list[list[str]] = []
    rests: list[tuple[str, str, int]] = []
    if not any(i["kind"] == ROLES for i in inputs):
        reveals = tuple(Reveal(p, None, None) for p in outcome.lynched)
        others: tuple[Reveal, ...] = ()
        notes.append(
            "no setup entered: roles are not revealed and no win is checked "
            "(enter it with `assistant roles GAME --file setup.toml`)"
        )
    else:
        rules = load_engine_rules(ruleset)
        stored_seqs = {i["seq"] for i in stored}
        rep = replay(rules, [i for i in inputs if i["seq"] not in stored_seqs])
        state = rep.state
        slot_of = _names(game, state)
        engine_name = {slot: name for name, slot in slot_of.items()}
        missing = [slot for slot in outcome.lynched if slot not in engine_name]
        if missing:
            raise ConfigError(
                f"{', '.join(missing)} is not in the setup of {game.game_id}; enter the whole "
                "setup with `assistant roles GAME --file setup.toml`"
            )
        for slot in outcome.lynched:
            result = apply_death(
                state,
                {
                    "player": engine_name[slot],
                    "how": "lynch",
                    "last_voter": engine_name.get(_last_voter(tally, slot) or "", None),
                    "voted_for": engine_name.get(_vote_of(tally, slot) or "", None),
                },
                rep.open_orders,
            )
            state = result.state
            deaths += result.deaths
            notes += result.notes
        policy = str(rules.reveal.get("lynch", "role_alignment"))
        reveals = tuple(
            Reveal(slot, None, None)
            if withheld
            else _renamed(reveal(state, _death(deaths, engine_name[slot]), policy), slot)
            for slot in outcome.lynched
        )
        night_policy = str(rules.reveal.get("night_death", "role_alignment"))
        # The day's actions and the GM's deaths before the lynch (001's executioner and
        # priest, 002's Sorcerer): "Whenever someone dies, his or her role will be revealed".
        starts = [p.starts_at for p in game.phases if (p.kind, p.number) == ("day", tally.day)]
        earlier, public = rep.day_events(starts[0] if starts else None)
        day_deaths = tuple(
            _renamed(
                reveal(state, d, "none" if night_policy == "killer" else night_policy),
                slot_of.get(d.player, d.player),
            )
            for d in earlier
        )
        others = tuple(
            _renamed(
                reveal(state, d, "none" if night_policy == "killer" else night_policy),
                slot_of[d.player],
            )
            for d in deaths
            if slot_of[d.player] not in outcome.lynched
        )
        deaths = [Death(slot_of[d.player], d.how, d.cause, d.killers) for d in deaths]
        win = check_win(state, "dusk")
        spends = _decisive_extra_votes(rep.state, tally, slot_of)
        rests = _rests_for_a_stopped_lynch(rep.state, tally, slot_of)
        notes += [f"{who} may not use {ability} before the phase after next (it stopped the "
                  "lynch)" for who, ability, _ in rests]
        if "vote_reduced" in rules.messages and _lynch_stopped_by_less_votes(
            rep.state, tally, slot_of
        ):
            # 004 Accompany: "There will be just a public notice that 1 vote was reduced, in
            # case that person was about to be lynched."
            public = (*public, rules.message("vote_reduced"))
        if spends and "vote_increased" in rules.messages:
            # 004: "If Voice of Accusation causes a player to be lynched, there will be a
            # notice that one vote was increased by 1, much like the Accompany notice."
            public = (*public, rules.message("vote_increased"))
    facts = _facts(tally, deaths, now, spends)
    deciding = _deciding(view.posts, tally) if outcome.lynched else ()
    post = _render(
        rules, tally, reveals, others, withheld, win, day_deaths, public, deciding
    )
    return DuskResult(
        game.game_id,
        tally.day,
        tally,
        reveals,
        tuple(deaths),
        others,
        tuple(notes),
        win,
        post,
        tuple(facts),
        bool(stored),
        ends.why if ends is not None else "",
        rests=tuple(rests),
    )


def _death(deaths: list[Death], name: str) -> Death:
    """The lynch's death record (one the GM already entered by hand leaves none: made here)."""
    return next((d for d in deaths if d.player == name), Death(name, "lynch", "lynched"))


def _renamed(r: Reveal, slot: str) -> Reveal:
    return replace(r, player=slot)


def _decisive_extra_votes(
    state: GameState, tally: Tally, slot_of: dict[str, str]
) -> list[list[str]]:
    """[slot, ability] of each extra vote (the `[night.vote_statuses] extra_vote` day status)
    whose ability is `spent_when_decisive` and without which the player lynched would not
    have been (004 Voice of Accusation: "Once Kujou has lynched somebody using Voice of
    Accusation was a deciding factor in having the person lynched, she may not use it again.
    However, she may repeatedly use it if she votes in landslide votes in which it makes no
    difference."): the lynched wagon less the extra weight no longer leads alone (plurality)
    or no longer reaches the majority."""
    status = state.rules.night.get("vote_statuses", {}).get("extra_vote")
    if not status or not tally.outcome.lynched:
        return []
    out = []
    for name, p in state.players.items():
        slot = slot_of.get(name, name)
        spent = [ab.name for ab in state.abilities_of(name).values()
                 if ab.params.get("hex") == status and ab.params.get("spent_when_decisive")]
        target = _vote_of(tally, slot)
        if status not in p.day_statuses or not spent or target not in tally.outcome.lynched:
            continue
        standing = [v for v in tally.votes_of(slot) if v.accepted and v.target == target]
        extra = standing[-1].weight - 1 if standing else 0
        wagon = tally.wagon(target)
        if extra <= 0 or wagon is None:
            continue
        left = wagon.effective - extra
        if tally.decision == "majority":
            decisive = left < tally.majority
        else:
            decisive = any(w.effective >= left for w in tally.wagons if w.target != target)
        if decisive:
            out.append([slot, spent[0]])
    return out


def _rests_for_a_stopped_lynch(
    state: GameState, tally: Tally, slot_of: dict[str, str]
) -> list[tuple[str, str, int]]:
    """The rests a protection that kept the vote's leader from the lynch sets off: the
    leader's `[night.vote_statuses] lynch_immune` day status came from an ability with
    `day_status` and `rest_phases` (004 Lovey-Dovey: "If it successfully hinders a
    lynching, killing, sniping, or poisoning, the lovers lose this ability for 2 phases"),
    for the leader and their lover, from this day on."""
    status = state.rules.night.get("vote_statuses", {}).get("lynch_immune")
    if not status or tally.outcome.lynched or tally.day is None:
        return []
    top = max((w.effective for w in tally.wagons), default=0)
    if top <= 0 or (tally.decision == "majority" and top < tally.majority):
        return []
    out: list[tuple[str, str, int]] = []
    for name, p in state.players.items():
        wagon = tally.wagon(slot_of.get(name, name))
        if status not in p.day_statuses or wagon is None or wagon.effective != top:
            continue
        for ab in state.abilities_of(name).values():
            n = ab.params.get("rest_phases")
            if ab.params.get("day_status") == status and n:
                until = phase_index(state.rules, "day", tally.day) + int(n)
                out += [(who, ab.name, until)
                        for who in filter(None, (name, state.lover_of(name)))]
                break
    return out


def _lynch_stopped_by_less_votes(
    state: GameState, tally: Tally, slot_of: dict[str, str]
) -> bool:
    """Whether a player with one vote taken off (the `[night.vote_statuses] less_votes` day
    status, 004 Accompany) was about to be lynched: with the vote back, their wagon would
    lead alone (plurality) or reach the majority, and they were not lynched."""
    status = state.rules.night.get("vote_statuses", {}).get("less_votes")
    if not status:
        return False
    for name, p in state.players.items():
        slot = slot_of.get(name, name)
        wagon = tally.wagon(slot)
        if status not in p.day_statuses or wagon is None or slot in tally.outcome.lynched:
            continue
        back = wagon.effective + 1
        if tally.decision == "majority":
            if back >= tally.majority:
                return True
        elif all(w.effective < back for w in tally.wagons if w.target != slot):
            return True
    return False


def _facts(
    tally: Tally, deaths: list[Death], now: datetime, spends: list[list[str]] | None = None
) -> list[dict[str, Any]]:
    """Lynches as the GM's death facts; what they set off with source = "engine". An ability
    a lynch spent (`spends`: [player, ability]) is lost from then on (history.apply_death)."""
    at_post = tally.outcome.at_post
    lynched = set(tally.outcome.lynched)
    base = {"at_post": at_post, "at": to_iso(now), "replacement": None, "dusk": tally.day}
    facts = [
        {"player": p, "how": "lynch", "last_voter": _last_voter(tally, p), **base,
         **({"spends": spends} if spends and i == 0 else {})}
        for i, p in enumerate(tally.outcome.lynched)
    ]
    facts += [
        {"player": d.player, "how": "other", "source": "engine", "cause": d.cause, **base}
        for d in deaths
        if d.player not in lynched
    ]
    return facts


def _deciding(posts: Any, tally: Tally) -> tuple[dict[str, str], ...]:
    """Links to the votes that decided the lynches (permalink, else the post number).

    At majority that is the hammer. At the deadline it is, for each lynched player, the
    last vote that joined their wagon, still stood and counted, not the day's last post (on a real
    thread the host's own "Time is up" post). A lynch drawn by lot or chosen by the sheriff
    or the GM from a tie, or a lynch that is not a wagon's (a charm), was decided by no one
    vote: nothing is named for it."""
    outcome = tally.outcome
    if outcome.by_majority:
        picked = [(outcome.lynched[0], outcome.at_post)]
    else:
        lynched = set(outcome.lynched)
        picked = []
        for name in outcome.lynched:
            wagon = tally.wagon(name)
            level = wagon.effective if wagon is not None else 0
            # Another wagon as high that was not lynched, or lynched at the same count: a tie
            # (or a charm), decided by lot, the sheriff or the GM, not by a vote.
            if wagon is None or any(
                w.effective == level or (w.effective > level and w.target not in lynched)
                for w in tally.wagons
                if w.target != name
            ):
                continue
            # A standing vote that counts for nothing (powerless, hexed) decided nothing.
            weight = {(v.voter, v.post_id): v.weight for v in tally.votes if v.target == name}
            voted = [
                p
                for voter, p in zip(wagon.voters, wagon.posts, strict=True)
                if p is not None and weight.get((voter, p), 1) > 0
            ]
            if voted:  # the wagon lists its votes in the order they were cast (or edited in)
                picked.append((name, voted[-1]))
    urls = {p.post_id: p.url for p in posts if p.url}
    return tuple(
        {"player": name, "link": BBCode(urls[at]) if at in urls else f"post {at}"}
        for name, at in picked
        if at is not None
    )


def _render(
    rules: EngineRules | None,
    tally: Tally,
    reveals: tuple[Reveal, ...],
    others: tuple[Reveal, ...],
    withheld: bool,
    win: Win | None,
    day_deaths: tuple[Reveal, ...] = (),
    public: tuple[str, ...] = (),
    deciding: tuple[dict[str, str], ...] = (),
) -> str:
    name = str(rules.reveal.get("dusk_template", DUSK_TEMPLATE)) if rules else DUSK_TEMPLATE
    setting = f"the {rules.ruleset} ruleset's [reveal] dusk_template" if rules else None
    chosen = template(name, setting=setting)
    number = tally.day or 1
    next_night = number if rules is None or rules.first_phase == "day" else number + 1
    return (
        chosen.render(
            day=tally.day,
            lynched=reveals,
            others=others,
            withheld=withheld,
            win=win,
            win_text=BBCode(win_post(win)) if win else "",
            next_night=next_night,
            day_deaths=day_deaths,
            public=public,
            deciding=deciding,
            # 004: "If a lynching is hindered due to the target being protected or the target
            # being a traveler, the GM reports that the lynching simply failed."
            lynch_failed=tally.outcome.failed,
            waiting=tally.outcome.waiting,
            tied=tally.outcome.tied,
            uncertain=[f"post {p}" for p in dict.fromkeys(r.post for r in tally.outcome.uncertain)],
            night_actions=_night_actions(rules),
        ).strip()
        + "\n"
    )


def _night_actions(rules: EngineRules | None) -> str:
    """Where night actions go, in the ruleset's words (003: to all three moderators)."""
    default = "Send your night actions to the GM."
    return rules.messages.get("night_actions", default) if rules else default


def confirm_dusk(store: Any, result: DuskResult, now: datetime) -> list[dict[str, Any]]:
    """Store the lynches of a finished day (and the deaths they set off) as death facts."""
    where = f"day {result.day}" if result.day is not None else "the day"
    if result.confirmed:
        raise PhaseError(
            f"the dusk of {where} of {result.game_id} is already recorded; "
            "`assistant draft dusk` still shows it"
        )
    if not result.final:
        deadline = result.tally.deadline
        raise PhaseError(
            f"{where} of {result.game_id} is not over yet"
            + (f" (deadline {to_iso(deadline)})" if deadline else " (no deadline is set)")
            + ": confirm the lynch after the deadline, or set the day's end with "
            "`assistant phase`"
        )
    if result.tally.outcome.waiting:
        outcome = result.tally.outcome
        raise PhaseError(
            f"{where} of {result.game_id} ended in a tie between {' and '.join(outcome.tied)} "
            f"that {outcome.waiting} must break: record the choice with `assistant tiebreak "
            f"{result.game_id} NAME --day {result.day}`, then confirm"
        )
    if result.tally.outcome.uncertain:
        posts = sorted({r.post for r in result.tally.outcome.uncertain})
        raise PhaseError(
            f"the lynch of {where} of {result.game_id} depends on "
            + " and ".join(f"post {p}" for p in posts)
            + ", which the assistant could not see as it stood at the deadline: rule on it "
            f"first (`assistant rule {result.game_id} --post {posts[0]} ...`), then confirm"
        )
    rest = ({"dusk": result.day, "rests": [list(r) for r in result.rests]}
            if result.rests else None)
    with store.batch():
        for fact in result.facts:
            store.add_input(DEATH, fact, now)
        if rest is not None:
            store.add_input(REST, rest, now)
    return [*result.facts, *([rest] if rest else [])]
