"""The working types of one phase's resolution, below everything that acts on them.

An `Action` is an order on its way through the tiers; a `Resolution` holds what the
phase has done so far. The abilities and `deaths` act on both; the resolver, above them,
opens the phase and drives it through the tiers. Nothing here calls an ability, so no
import runs back up (not even one for type hints).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from assistant.engine.claims import Act, keyword_of
from assistant.engine.orders import Order, choice_and_targets
from assistant.engine.rules import AbilityDef, phase_index
from assistant.engine.state import Death, Event, GameState


@dataclass
class Action:
    """An order on its way through the tiers; targets change when redirected."""

    order: Order
    ability: AbilityDef
    targets: list[str]
    tier: str
    failed: str | None = None
    stayed: bool = False
    """Stopped before it left its actor (dead, roleblocked, a jailed performer): it did not
    happen, so no tracker or watcher sees a visit. One stopped at its target did happen."""
    strengthened: bool = False
    bribed: bool = False
    """Nothing stops it, not even at its actor (004's Bribe: "cannot be hindered by any
    means whatsoever, including an arrest on the killing player")."""
    hastened_by: str | None = None
    done: bool = False

    @property
    def actor(self) -> str:
        return self.order.actor

    @property
    def kind(self) -> str:
        return self.ability.kind

    def label(self) -> str:
        who = f"{self.actor} ({self.order.side})" if self.order.side else self.actor
        shown = [] if self.ability.targets == 0 and self.targets == [self.actor] else self.targets
        return f"{who}: {self.ability.name}{choice_and_targets(self.order, shown)}"


@dataclass
class _Pending:
    """A PM result held until the end: dropped if its reader died or lost the role."""

    player: str
    text: str
    role: str | None
    needs_alive: bool
    at: int = 0
    """Where in the log it arose: a PM's lines follow the order of events."""
    own: bool = False
    """A result of the player's own action (not a notice of something done to them)."""


class Resolution:
    """What one phase's resolution holds and says: the game's state as the phase goes, its
    log, PMs, public lines and notes, and who is blocked, jailed, protected or attacked.
    The abilities and deaths act on it; the resolver opens the phase and drives it."""

    def __init__(self, state: GameState, phase: str, number: int, orders: list[Order]) -> None:
        self.state = state.copy()
        self.rules = state.rules
        self.phase = phase
        self.number = number
        self.rng = random.Random(f"{state.seed}:{phase}:{number}")
        self.orders = orders
        self.log: list[Event] = []
        self.pms: dict[str, list[tuple[int, str]]] = {}
        """PM lines by player, each with the log position it arose at (its order)."""
        self.notices: dict[str, list[str]] = {}
        self.pending_pms: list[_Pending] = []
        self.public: list[str] = []
        self.notes: list[str] = []
        self.deaths: list[Death] = []
        self.blocked: set[str] = set()
        self.jailed: set[str] = set()
        self.hamedo: dict[str, str] = {}
        self.protections: dict[str, list[Action]] = {}
        self.kills: list[Action] = []
        self.actions: list[Action] = []
        self.attacks: dict[str, list[Action]] = {}
        self.after_night: list[Action] = []
        self.suspended: set[tuple[str, str]] = set()
        """(player, passive) switched off for this phase by the player's order."""
        self.block_kinds: dict[str, set[str]] = {}
        """What blocked each blocked player ("psychic", "abduction", "plain"): 000's inventions
        pass a Psychic Warden's block, an Assassin bot works while abducted."""
        self.disabled: dict[str, set[str]] = {}
        """Powers ("tech", "psychic", "all") a pulse took from a player for this phase."""
        self.stops: dict[int, int] = {}
        """Kills each protection (by id) has stopped: 000's guards stop the first only."""
        self.sacrifices: list[Action] = []
        """Guards who stopped a kill and die at the end of the night (000)."""
        self.avenged: list[tuple[Action, str]] = []
        """(guard, attacker): 000's Vengeful Guard kills the attacker."""
        self.trusted: dict[str, set[str]] = {}
        """Visitors a kill-on-visit holder lets pass tonight (000's Sentry Guns)."""
        self.thefts: dict[str, tuple[str, list[str]]] = {}
        """Target -> (the item taken, every thief who came for it tonight) (004's Steal)."""
        self.inverted: set[str] = set()
        """Players whose interrogations answer the reverse tonight (004's Slander)."""
        self.disguises_seen: set[str] = set()
        self.disguises: dict[str, dict[str, str]] = {}
        """What investigations see of a player tonight (000's Holoform Modulator)."""
        self.holograms: dict[str, str] = {}
        """Where a player's hologram goes tonight, as followers see it (000's Advanced
        Holoform Modulator; their own place: it stays at home)."""
        self.tiers = self.rules.tiers if phase == "night" else self.rules.day_tiers
        self.alive_at_start = {n for n, p in self.state.players.items() if p.alive}
        self.index = phase_index(self.rules, phase, number)
        """This phase counted from the first (004 suspensions last two phases)."""
        self.silenced: set[str] = set()
        """Players who get no results of their own actions this phase (004: "Injured/
        suspended people do not recieve results on the phase they're injured/suspended");
        notices of what was done to them still reach them."""
        self.acting: str | None = None
        """The actor whose action is being handled (a PM to them is a result of it)."""
        self.drawn: dict[tuple[str, str], str] = {}
        """Random answers drawn this phase, the same for every asker (004's Anokata observed)."""
        self.extra_acts: list[Act] = []
        """Acts that investigations see besides the orders (a blamed action, 004)."""
        self.worn_at_start: dict[str, str | None] = {}
        """The disguise each player wore as the phase began, once the resolver has opened it
        (004: a killer seen by a stake-out as disguised, though an injury took the disguise
        off that night)."""

    # ---- output helpers --------------------------------------------------------------

    def event(self, tier: str, action: str, effect: str, reason: str = "") -> None:
        self.log.append(Event(tier, action, effect, reason))

    def pm(self, player: str, text: str, at: int | None = None) -> None:
        self.pms.setdefault(player, []).append((len(self.log) if at is None else at, text))

    def notice(self, player: str, text: str) -> None:
        self.notices.setdefault(player, []).append(text)

    def pm_later(
        self, player: str, text: str, *, needs_alive: bool, own: bool | None = None
    ) -> None:
        """A PM sent at the end if its reader still may have it; `own`: a result of the
        reader's own action (by default: the action being handled is theirs)."""
        mine = self.acting == player if own is None else own
        self.pending_pms.append(
            _Pending(player, text, self.state.players[player].role, needs_alive, len(self.log),
                     mine)
        )

    def say(self, key: str, **values: object) -> str:
        return self.rules.message(key, **values)

    def say_to(self, reader: str, key: str, **values: object) -> str:
        """A sentence for a PM to `reader`, which never names its reader: where a value
        is the reader (or a list of names is the reader alone), the ruleset's `KEY_you`
        says it ("Tonight the werewolves attacked you. Reply with "heal" to save
        yourself."); in a list with others the reader is "you". Lists are joined with
        ", "."""
        alone = any(v == reader or v == [reader] for v in values.values())
        you = f"{key}_you"
        if alone and you in self.rules.messages:
            key = you
        return self.rules.message(key, **{
            k: ", ".join("you" if n == reader else n for n in v) if isinstance(v, list) else v
            for k, v in values.items()
        })

    # ---- what the abilities ask ---------------------------------------------------------

    def acts_now(self) -> list[Act]:
        """This phase's actions as investigations see them (orders and `extra_acts`)."""
        return self._acts()

    def _acts(self) -> list[Act]:
        out = []
        for a in self.actions:
            if not a.done and not a.failed:
                continue
            alive = self.state.players[a.actor].alive
            out.append(
                Act(
                    self.phase, self.number, a.actor, keyword_of(self.rules, a.ability),
                    # `unseen` (004 Blame): a crime no investigation finds ("comes back as
                    # a false").
                    tuple(a.targets),
                    # `untraceable` (004 Spy: "Spy cannot be investigated or staked out in
                    # any form"), which Betrayal still sees.
                    not a.stayed and alive and not a.ability.params.get("unseen")
                    and not a.ability.params.get("untraceable"),
                    a.failed is None and a.done,
                    bool(a.ability.params.get("crime")),
                )
            )
        return out + self.extra_acts

    def is_blocked(self, a: Action) -> bool:
        """Whether a block tonight stops `a`: any block, except the kinds the ability passes
        (`unblockable_by`: 000's inventions pass a Psychic Warden, an Assassin bot works
        while abducted)."""
        kinds = self.block_kinds.get(a.actor)
        if a.actor not in self.blocked:
            return False
        if not kinds:
            return True
        passes = set(a.ability.params.get("unblockable_by", ()))
        return bool(kinds - passes)

    def sneaking(self, name: str) -> Action | None:
        """`name`'s sneak tonight, if they set out (000's Sneak: away from home all night)."""
        for b in self.actions:
            if b.actor == name and b.kind == "sneak" and not b.stayed:
                if name not in self.blocked and self.state.players[name].alive:
                    return b
        return None
