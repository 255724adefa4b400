"""Rebuild the game state from the stored facts: setup, orders, confirmed phases, deaths.

Nothing the engine computes is stored as truth. A confirmed night is stored as
"resolved night N", and replaying it with the orders entered before the confirmation
and the game's seed gives the same result every time. Deaths the GM enters (lynches,
modkills) are applied where they were entered, with their chains (lovers, hunters, Bomb).

The setup says who the players are; every other fact is about the game, not about the
setup, so it counts whenever the GM entered it: a death entered before `assistant roles`
(or before a corrected setup) is replayed on the setup all the same.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from assistant.engine import deaths
from assistant.engine.abilities import investigations, items
from assistant.engine.orders import Order
from assistant.engine.resolver import PhaseResult, Resolver, resolve_phase
from assistant.engine.rules import EngineRules
from assistant.engine.setup import Setup
from assistant.engine.state import Death, GameState
from assistant.engine.win import Win, check_win
from assistant.errors import ConfigError
from assistant.models import from_iso

#: GM input kinds this module reads and writes.
ROLES, ORDER, RESOLUTION, DEATH = "roles", "order", "resolution", "death"
REST = "rest"
"""A rest a dusk set off without a death (004: a Lovey-Dovey that stopped the lynch)."""
#: Written when a confirmed resolution brings a player back (game.py honours it).
REVIVE = "revive"


@dataclass(frozen=True)
class Won:
    """The first win the stored facts gave, and when: the game is over from then on."""

    win: Win
    when: str
    """"at the dusk of Day 2", "at the dawn after Night 3", "when Kat died (modkill)"."""
    phase: str | None = None
    """The phase it ended: "Day 2" (a dusk, a day's actions), "Night 3" (a dawn); None for
    a death the GM entered, which the GM's clock places."""

    def text(self) -> str:
        reason = f" ({self.win.reason.rstrip('.')})" if self.win.reason else ""
        return f"{self.win.title} won {self.when}{reason}"


@dataclass
class Replay:
    """The state now, every phase result so far, and the orders not yet resolved."""

    state: GameState
    results: list[PhaseResult] = field(default_factory=list)
    open_orders: list[Order] = field(default_factory=list)
    initial: GameState | None = None
    """The state the setup gives, before any phase."""
    won: Won | None = None
    """Set by the first confirmed phase or death after which a side has won."""
    entered: dict[int, dict[str, Any]] = field(default_factory=dict)
    """The GM's death fact behind each "death" result (by the result's id)."""

    def result(self, phase: str, number: int) -> PhaseResult | None:
        return next((r for r in self.results if (r.phase, r.number) == (phase, number)), None)

    def orders_for(self, phase: str, number: int) -> list[Order]:
        return [o for o in self.open_orders if (o.phase, o.number) == (phase, number)]

    def next_night(self) -> int:
        return self.state.nights_resolved + 1

    def unresolved_nights_before(self, number: int, entered: Iterable[int] = ()) -> list[int]:
        """Nights before `number` still to resolve: every one from the first night the game
        knows of (resolved, with orders, or `entered` on the GM's clock). A GM who joins a
        game at night 2 has no night 1 to resolve."""
        resolved = {r.number for r in self.results if r.phase == "night"}
        waiting = {o.number for o in self.open_orders if o.phase == "night"}
        known = [n for n in (*resolved, *waiting, *entered) if n < number]
        return [n for n in range(min(known), number) if n not in resolved] if known else []

    def entered_deaths(self, phase: str, number: int) -> tuple[Death, ...]:
        """Deaths the GM entered (a modkill) after the phase before this one and before it
        was resolved: the dawn announces them with the night's own (002: a quiet modkill
        must not vanish from the list of survivors unexplained)."""
        found = self.result(phase, number)
        end = self.results.index(found) if found is not None else len(self.results)
        return tuple(d for r in self._since_phase(end) if r.phase == "death" for d in r.deaths)

    def day_events(
        self, day_start: datetime | None = None
    ) -> tuple[tuple[Death, ...], tuple[str, ...]]:
        """What happened since the last night, before any lynch: the deaths of the day's
        actions and the GM's deaths during the day (not a nightkill, nothing entered for a
        time before `day_start`), and the day actions' public lines (001's holy water,
        002's rock), for the dusk post."""
        since = [
            r
            for r in self._since_phase(len(self.results), stop_at_day=False)
            if r.phase != "death" or self._during_day(r, day_start)
        ]
        deaths = tuple(d for r in since for d in r.deaths)
        public = tuple(line for r in since for line in r.public)
        return deaths, public

    def _during_day(self, r: PhaseResult, day_start: datetime | None) -> bool:
        fact = self.entered.get(id(r), {})
        if fact.get("how") == "nightkill":
            return False
        at = from_iso(fact.get("at"))
        return day_start is None or at is None or at >= day_start

    def _since_phase(self, end: int, *, stop_at_day: bool = True) -> list[PhaseResult]:
        """The results before index `end`, back to the last resolved phase or lynch."""
        out: list[PhaseResult] = []
        for r in reversed(self.results[:end]):
            if r.phase == "night" or (r.phase == "day" and stop_at_day):
                break
            if r.phase == "death" and any(d.how == "lynch" for d in r.deaths):
                break
            out.append(r)
        return out[::-1]

    def _check_win(self, when: str, *at: str, phase: str | None = None) -> None:
        if self.won is None:
            win = next((w for w in (check_win(self.state, a) for a in at) if w), None)
            if win is not None:
                self.won = Won(win, when, phase)


def apply_death(state: GameState, data: dict[str, Any], open_orders: list[Order]) -> PhaseResult:
    """A death the GM entered (lynch, modkill...), with the chain it sets off."""
    name = data["player"]
    if name not in state.players:
        raise ConfigError(f"a stored death names {name!r}, who is not in the setup")
    r = Resolver(
        state,
        "day",
        state.days_resolved + 1,
        [
            o
            for o in open_orders
            if o.ability
            in {a.name for a in state.abilities_of(o.actor).values() if a.kind == "shoot"}
        ],
    )
    r.collect()
    how = data.get("how", "other")
    deaths.die(r, name, how, f"{how} (entered by the GM)", (), how)
    for who, ability in data.get("spends", ()):
        # 004 Voice of Accusation, decisive in this lynch: "she may not use it again".
        if who in r.state.players:
            r.state.players[who].statuses.add(f"lost:{ability}")
            r.event(how, who, f"loses {ability}", f"it decided the lynch of {name}")
    # 004: a loan to the dead goes to the lender's substitute, and a leader's Black Suitcase
    # to the next in rank, before the orders of the night are entered against the state.
    items.loans_to_substitutes(r)
    items.pass_on(r, how)
    investigations.free_waits(r, how)
    if how == "lynch" and r.state.passive(name, "on_lynched") == "spore_cloud":
        # 000 Infester: "when Lynched (but not killed otherwise), the Infester releases a
        # spore cloud that randomly infects one of the non-infected players".
        clean = sorted(
            n for n, p in r.state.players.items()
            if p.alive and "infected" not in p.statuses and n != name
        )
        if clean:
            victim = r.rng.choice(clean)
            r.state.players[victim].statuses.add("infected")
            r.notes.append(f"{name}'s spore cloud infects {victim} (drawn at random)")
    if (
        how == "lynch"
        and r.state.passive(name, "on_lynched") == "bloom"
        and any(e.get("player") == name for e in r.state.pending)
    ):
        # 000 Bloom: "If the SS is lynched that day [the day following the Seeding], it will
        # send forth a cloud of chemicals that will activate the plants. The plants then
        # release spores that convert all other players into Spore Spreaders, and winning
        # the game for the SS." (Its death the night after is pending until then.)
        side = r.state.players[name].side
        r.state.pending = [e for e in r.state.pending if e.get("player") != name]
        for p in r.state.living():
            p.side = side
        r.notes.append(r.say("bloomed", player=name, side=r.rules.side(side).title))
        r.event(how, name, "the plants bloom", f"every other player joins the {side}")
    if how == "lynch" and r.state.passive(name, "on_lynched") == "last_voter_dies":
        voter = data.get("last_voter")
        title = r.state.role_title(name)  # the ruleset's name for the role ("Bomb")
        if voter in r.state.players:
            deaths.die(r, voter, "other", f"last to vote for {name}, the {title}", (name,), how)
        else:
            r.notes.append(
                f"{name} was the {title}: the last person to vote for them dies; enter that "
                "death with the vote counter's answer"
            )
    if how == "lynch" and r.state.passive(name, "on_lynched") == "kills_own_vote":
        # 004 Akai's Vengeance: "If Akai gets lynched, he'll kill the person he voted for too."
        target = data.get("voted_for")
        if target in r.state.players:
            deaths.die(r, target, "other", f"{name}'s vengeance: {name} voted for them",
                       (name,), how)
        elif "voted_for" not in data:
            r.notes.append(
                f"{name} ({r.state.role_title(name)}) kills the player they voted for: enter "
                "that death with the vote counter's answer"
            )
    if how == "lynch" and r.state.passive(name, "on_lynched") == "injures_own_vote":
        # 004 Revenge: "When they get lynched, the target of their own lynching vote will
        # become "injured"" (not when injured already, but by Bone Breaking).
        target = data.get("voted_for")
        if not deaths.revenge_holds(r.state, name):
            r.notes.append(f"{name} ({r.state.role_title(name)}) is injured: no Revenge")
        elif target in r.state.players:
            deaths.injure(r, target, how, f"{name}'s revenge: {name} voted for them")
            r.notes.append(f"{name}'s Revenge: {target}, whom {name} voted for, is injured")
        elif "voted_for" not in data:
            r.notes.append(
                f"{name} ({r.state.role_title(name)}) injures the player they voted for: "
                "tell them, and resolve their actions as injured"
            )
    # What its player is to be told: the GM sends it (a death's result drafts no PMs).
    r.notes.extend(f"Tell {p.player}: {p.text}" for p in r.pending_pms)
    return PhaseResult("death", 0, tuple(r.log), tuple(r.deaths), {}, (), tuple(r.notes), r.state)


def latest_setup(inputs: list[dict[str, Any]]) -> Setup:
    """The setup the GM entered last (`assistant roles`)."""
    setups = [i for i in inputs if i["kind"] == ROLES]
    if not setups:
        raise ConfigError(
            "this game has no setup yet: enter it with `assistant roles GAME --file setup.toml`"
        )
    return Setup.from_dict(setups[-1]["data"])


def replay(rules: EngineRules, inputs: list[dict[str, Any]]) -> Replay:
    """Apply the stored inputs in the order they were entered, on the latest setup."""
    state = GameState.from_setup(rules, latest_setup(inputs))
    rep = Replay(state, initial=state)
    for inp in inputs:
        kind, data = inp["kind"], inp["data"]
        if kind == ORDER:
            rep.open_orders.append(Order.from_dict(data))
        elif kind == RESOLUTION:
            phase, number = data["phase"], int(data["number"])
            result = resolve_phase(rep.state, phase, number, rep.orders_for(phase, number))
            rep.state = result.state
            rep.results.append(result)
            rep.open_orders = [o for o in rep.open_orders if (o.phase, o.number) != (phase, number)]
            if phase == "night":
                rep._check_win(f"at the dawn after Night {number}", "dawn", phase=f"Night {number}")
            else:
                rep._check_win(
                    f"after the day actions of Day {number}", "dusk", phase=f"Day {number}"
                )
        elif kind == REST:
            for who, ability, until in data.get("rests", ()):
                if who in rep.state.players:
                    rep.state.players[who].statuses.add(deaths.rest_status(ability, int(until)))
        elif kind == DEATH and data.get("how") == "replaced" and data.get("replacement"):
            _replace_player(rep.state, data["player"], data["replacement"])
        elif kind == DEATH and data.get("source") != "engine":
            if (
                rep.state.players.get(data.get("player", ""), None) is None
                or not rep.state.players[data["player"]].alive
            ):
                continue
            result = apply_death(rep.state, data, rep.open_orders)
            rep.state = result.state
            rep.results.append(result)
            rep.entered[id(result)] = data
            how = data.get("how", "other")
            if how == "lynch" and data.get("dusk") is not None:
                rep._check_win(
                    f"at the dusk of Day {data['dusk']}", "dusk", phase=f"Day {data['dusk']}"
                )
            else:
                rep._check_win(f"when {data['player']} died ({how})", "dusk", "dawn")
    return rep


def _replace_player(state: GameState, old: str, new: str) -> None:
    """A replacement takes over the slot: same role, side, uses; the new name from now on."""
    if old not in state.players or new in state.players:
        return
    player = state.players[old]
    player.name = new
    state.players = {new if k == old else k: v for k, v in state.players.items()}
    state.lovers = [tuple(new if n == old else n for n in pair) for pair in state.lovers]  # type: ignore[misc]
