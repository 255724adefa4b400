"""The engine's part of a ruleset: roles, sides, night tiers, reveals and win checks as data.

A ruleset file says *what* each role can do by naming one of a few ability kinds
(block, redirect, protect, kill, investigate, ...) and giving it parameters; the code
of each kind lives once in `abilities.py`. Nothing here branches on a ruleset's name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from assistant.errors import RulesetError
from assistant.rulesets import Ruleset

#: Ability kinds the resolver implements; a ruleset naming another kind is refused.
KINDS = frozenset(
    {
        "block",
        "redirect",
        "hamedo",
        "protect",
        "heal",
        "kill",
        "investigate",
        "convert",
        "watch",
        "follow",
        "hex",
        "lovers",
        "steal",
        "boost",
        "forge",
        "announce",
        "revive",
        "exorcise",
        "turn",
        "shoot",
        "discard",
        "test",
        "none",
    }
)
TARGET_STATES = frozenset({"alive", "dead", "any"})


@dataclass(frozen=True)
class AbilityDef:
    """One thing a role or a side can do, as the ruleset describes it."""

    name: str
    """The word a GM types in an order ("protect")."""
    kind: str
    """Which implementation applies it (one of KINDS)."""
    tier: str
    """The named step of the order of operations it resolves in."""
    phase: str = "night"
    """"night" or "day": when it may be ordered."""
    targets: int = 1
    """How many players it names (0 for self-only actions such as the Monk's Hamedo)."""
    uses: int | None = None
    """Uses per game; None for every night."""
    pool: str | None = None
    """A budget shared with other abilities of the role (the Witch's three hexes)."""
    aliases: tuple[str, ...] = ()
    not_self: bool = False
    no_repeat_target: bool = False
    """May not name the player it named the night before (001 guardian, 002 limited doctor)."""
    first_night: int = 1
    """The first night it may be used (001 alchemist: 2)."""
    last_night: int | None = None
    """The last night it may be used (001 thief: 1)."""
    target_state: str = "alive"
    """Whether targets must be alive, dead, or either (002 Oracle)."""
    not_own_side: bool = False
    """May not target the actor's own side (001 werewolves cannot eat werewolves)."""
    params: Mapping[str, Any] = field(default_factory=dict)
    """Kind-specific settings (kill strength, investigation field, hex name...)."""


@dataclass(frozen=True)
class RoleDef:
    """A role: a title, the sides it may be given to, abilities and passives."""

    key: str
    title: str
    sides: tuple[str, ...]
    """Alignments the role may have ("any" in the file means every side)."""
    abilities: Mapping[str, AbilityDef]
    passives: Mapping[str, Any]
    """Flags and values the engine and the vote counter read (vote_weight, on_death...)."""
    pools: Mapping[str, int] = field(default_factory=dict)
    hidden: bool = False
    """True when the player does not know the role until it comes into play (Traitor, Ghost)."""
    text: str = ""
    """What the role PM says the role does, in the ruleset's words."""


@dataclass(frozen=True)
class SideDef:
    """An alignment: who wins together, and powers the side has as a whole (the mafia kill)."""

    key: str
    title: str
    abilities: Mapping[str, AbilityDef]
    passives: Mapping[str, Any]
    investigate_as: str = ""
    """What an alignment investigation returns for this side."""


@dataclass(frozen=True)
class EngineRules:
    """Everything the engine reads from one ruleset file."""

    ruleset: str
    title: str
    tiers: tuple[str, ...]
    day_tiers: tuple[str, ...]
    first_phase: str
    sides: Mapping[str, SideDef]
    roles: Mapping[str, RoleDef]
    night: Mapping[str, Any]
    reveal: Mapping[str, Any]
    win: Mapping[str, Any]
    messages: Mapping[str, str]
    """PM and dawn sentences in the ruleset's words, by key."""

    def role(self, key: str) -> RoleDef:
        try:
            return self.roles[key]
        except KeyError:
            raise RulesetError(
                f"{self.ruleset}: no role {key!r}; roles are: {', '.join(sorted(self.roles))}"
            ) from None

    def side(self, key: str) -> SideDef:
        try:
            return self.sides[key]
        except KeyError:
            raise RulesetError(
                f"{self.ruleset}: no side {key!r}; sides are: {', '.join(sorted(self.sides))}"
            ) from None

    def message(self, key: str, **values: Any) -> str:
        """A sentence of the ruleset with its {placeholders} filled."""
        text = self.messages.get(key)
        if text is None:
            raise RulesetError(f"{self.ruleset}: [reveal.messages] has no sentence {key!r}")
        return text.format(**values)


def _ability(where: str, name: str, raw: Mapping[str, Any], tiers: set[str]) -> AbilityDef:
    kind = raw.get("kind")
    if kind not in KINDS:
        raise RulesetError(f"{where}: kind = {kind!r} is not one of {', '.join(sorted(KINDS))}")
    phase = raw.get("phase", "night")
    tier = raw.get("tier", "passive" if kind in {"turn", "shoot", "discard", "test"} else "")
    if tier not in tiers:
        raise RulesetError(
            f"{where}: tier = {tier!r} is not a tier named in [night] tiers/day_tiers"
        )
    target_state = raw.get("target_state", "alive")
    if target_state not in TARGET_STATES:
        raise RulesetError(f"{where}: target_state must be alive, dead or any")
    known = {
        "kind",
        "phase",
        "tier",
        "targets",
        "uses",
        "pool",
        "aliases",
        "not_self",
        "no_repeat_target",
        "first_night",
        "last_night",
        "target_state",
        "not_own_side",
    }
    return AbilityDef(
        name=name,
        kind=kind,
        tier=tier,
        phase=phase,
        targets=int(raw.get("targets", 1)),
        uses=raw.get("uses"),
        pool=raw.get("pool"),
        aliases=tuple(raw.get("aliases", ())),
        not_self=bool(raw.get("not_self", False)),
        no_repeat_target=bool(raw.get("no_repeat_target", False)),
        first_night=int(raw.get("first_night", 1)),
        last_night=raw.get("last_night"),
        target_state=target_state,
        not_own_side=bool(raw.get("not_own_side", False)),
        params=MappingProxyType({k: v for k, v in raw.items() if k not in known}),
    )


def _abilities(where: str, raw: Mapping[str, Any], tiers: set[str]) -> Mapping[str, AbilityDef]:
    return MappingProxyType(
        {
            name: _ability(f"{where}.abilities.{name}", name, spec, tiers)
            for name, spec in raw.get("abilities", {}).items()
        }
    )


def load_engine_rules(ruleset: Ruleset) -> EngineRules:
    """Read [night], [sides], [roles.*], [reveal] and [win]; refuse what the engine cannot do."""
    where = str(ruleset.path)
    night = ruleset.section("night")
    tiers = tuple(night.get("tiers", ()))
    day_tiers = tuple(night.get("day_tiers", ()))
    if not tiers:
        raise RulesetError(f"{where}: [night] needs tiers = [...] (the order of operations)")
    all_tiers = {*tiers, *day_tiers, "passive"}
    sides_raw = night.get("sides", {})
    sides = {
        key: SideDef(
            key=key,
            title=spec.get("title", key.title()),
            abilities=_abilities(f"{where} [night.sides.{key}]", spec, all_tiers),
            passives=MappingProxyType(dict(spec.get("passives", {}))),
            investigate_as=spec.get("investigate_as", spec.get("title", key.title())),
        )
        for key, spec in sides_raw.items()
    }
    if not sides:
        raise RulesetError(f"{where}: [night.sides.*] must name at least one side")
    roles = {}
    for key, spec in ruleset.section("roles").items():
        raw_sides = spec.get("sides", ["any"])
        role_sides = tuple(sides) if "any" in raw_sides else tuple(raw_sides)
        for s in role_sides:
            if s not in sides:
                raise RulesetError(
                    f"{where}: [roles.{key}] names the side {s!r}, not in [night.sides]"
                )
        roles[key] = RoleDef(
            key=key,
            title=spec.get("title", key.title()),
            sides=role_sides,
            abilities=_abilities(f"{where} [roles.{key}]", spec, all_tiers),
            passives=MappingProxyType(dict(spec.get("passives", {}))),
            pools=MappingProxyType(dict(spec.get("pools", {}))),
            hidden=bool(spec.get("hidden", False)),
            text=spec.get("text", ""),
        )
    reveal = ruleset.section("reveal")
    return EngineRules(
        ruleset=ruleset.name,
        title=ruleset.title,
        tiers=tiers,
        day_tiers=day_tiers,
        first_phase=night.get("first_phase", "night"),
        sides=MappingProxyType(sides),
        roles=MappingProxyType(roles),
        night=night,
        reveal=reveal,
        win=ruleset.section("win"),
        messages=MappingProxyType(dict(reveal.get("messages", {}))),
    )
