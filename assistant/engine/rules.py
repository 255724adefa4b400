"""The engine's part of a ruleset: roles, sides, night tiers, reveals and win checks as data.

A ruleset file says *what* each role can do by naming one of a few ability kinds
(block, redirect, protect, kill, investigate, ...) and giving it parameters; the code
of each kind lives once in `abilities/`, in the module of its family (`abilities.HANDLERS`
names it). Nothing here branches on a ruleset's name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from assistant.errors import RulesetError
from assistant.safe_text import isolate
from assistant.settings import in_range, show, typed, typed_fields

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
        "suspend",
        "none",
        "sneak",
        "abduct",
        "arrest",
        "control",
        "give",
        "bond",
        "pulse",
        "disguise",
        "hologram",
        "build",
        "program",
        "plasma",
        "repair",
        "trust",
        "plant",
        "poison",
        "bomb",
        "disarm",
        "befriend",
        "ward",
        "invert",
        "take_item",
        "draw_role",
        "release",
        "unmask",
        "travel",
        "search",
        "blame",
        "erase",
        "bribe",
        "cover",
        "fake",
        "betray",
        "costume",
        "choose_costumes",
        "sample_role",
        "analyze",
        "detain",
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
    """"night", "day" or "any": when it may be ordered."""
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
    """What the role PM says the role does, in the seed's own words (its card, its entry in
    the role list)."""
    victory: str = ""
    """The role's own win condition where it is not its side's (000's aliens)."""
    character: bool = False
    """The title is a character's name (004: "Ran, Protector"): never given an article
    ("Ranp was Ran, Protector", not "the Ran, Protector"). `[reveal] character_names`."""


@dataclass(frozen=True)
class ItemDef:
    """A thing a player holds besides a role (000: alien tech, a Mind Shield, the Kook):
    abilities and passives like a role's, given in the setup as `items = [...]`."""

    key: str
    title: str
    abilities: Mapping[str, AbilityDef]
    passives: Mapping[str, Any]
    size: str = ""
    """The tech slot it takes ("small", "medium", "large"); "" for an attribute."""
    text: str = ""


@dataclass(frozen=True)
class SideDef:
    """An alignment: who wins together, and powers the side has as a whole (the mafia kill)."""

    key: str
    title: str
    abilities: Mapping[str, AbilityDef]
    passives: Mapping[str, Any]
    investigate_as: str = ""
    """What an alignment investigation returns for this side."""
    text: str = ""
    """What the role PM says of the side, in the seed's words (002's alignments)."""
    goal: str = ""
    """The side's win condition as its role PMs state it."""
    knows_team: bool = False
    """Its members learn one another from their role PMs (001: "Werewolves know who their
    fellow werewolves are at the start of the game"); a role with the passive `lone` does
    not (000's Rogue Doppelganger)."""


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
    items: Mapping[str, ItemDef] = field(default_factory=dict)
    """`[items.*]`: what a setup's `items = [...]` may name."""

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
        # Each name or title on its own: a right-to-left override in one cannot reverse
        # the rest of the sentence (safe_text.isolate; plain names are unchanged).
        return text.format(
            **{k: isolate(v) if isinstance(v, str) else v for k, v in values.items()}
        )


def phase_index(rules: EngineRules, phase: str, number: int) -> int:
    """Where a phase stands in the game, counting from 1 (004, night first: Night 1 = 1,
    Day 1 = 2, Night 2 = 3), for waits counted in phases."""
    first = 1 if phase == rules.first_phase else 0
    return 2 * number - first


#: The engine's sections: a ruleset with any of them is read as a whole by
#: `rulesets.load_ruleset` (one without them is a counting-only ruleset).
ENGINE_SECTIONS = ("night", "roles", "reveal", "win", "items")

#: The keys of each engine table this module reads, and the type each holds in the file.
#: [night], [reveal] and [win] may hold keys other modules read; roles and sides may not.
_NIGHT_KEYS: dict[str, Any] = {
    "first_phase": str,
    "tiers": tuple[str, ...],
    "day_tiers": tuple[str, ...],
    "sides": Mapping[str, Mapping[str, Any]],
    "vote_statuses": Mapping[str, str],
    "blocks_preempt": tuple[str, ...],
    "lynches_per_death_of": str,
    "unique_roles": bool,
    "mutual_kills": str,
    "day_deaths_before_lynch": bool,
    "bomb_tier": str,
    "role_keywords": tuple[str, ...],
    "disabling_statuses": tuple[str, ...],
    "disguise_act": Mapping[str, Any],
    "hidden_votes": tuple[str, ...],
    "no_results_statuses": tuple[str, ...],
}
_SIDE_KEYS: dict[str, Any] = {
    "title": str,
    "investigate_as": str,
    "text": str,
    "goal": str,
    "knows_team": bool,
    "passives": Mapping[str, Any],
    "abilities": Mapping[str, Mapping[str, Any]],
}
_ROLE_KEYS: dict[str, Any] = {
    "title": str,
    "sides": tuple[str, ...],
    "text": str,
    "victory": str,
    "character": bool,
    "hidden": bool,
    "passives": Mapping[str, Any],
    "pools": Mapping[str, int],
    "abilities": Mapping[str, Mapping[str, Any]],
}
_ITEM_KEYS: dict[str, Any] = {
    "title": str,
    "size": str,
    "text": str,
    "passives": Mapping[str, Any],
    "abilities": Mapping[str, Mapping[str, Any]],
}
_REVEAL_KEYS: dict[str, Any] = {
    "night_death": str,
    "lynch": str,
    "dawn_template": str,
    "dusk_template": str,
    "role_pm_template": str,
    "character_names": bool,
    "messages": Mapping[str, str],
}
_WIN_KEYS: dict[str, Any] = {
    "checks": tuple[Mapping[str, Any], ...],
    "joins": tuple[Mapping[str, Any], ...],
    "mixed_lovers_win_alone": bool,
    "lovers_title": str,
    "modkilled_lose": bool,
}
_CHECK_KEYS: dict[str, Any] = {
    "when": str,
    "winner": str,
    "sides": tuple[str, ...],
    "prefer": tuple[str, ...],
    "more_than": tuple[str, ...],
    "at": tuple[str, ...],
    "at_least": float,
    "strict": bool,
    "text": str,
    "announces": bool,
    "held_status": str,
}
#: A `[[win.joins]]` table: third parties who win beside whoever ends the game.
_JOIN_KEYS: dict[str, Any] = {
    "when": str,
    "status": str,
    "side": str,
    "roles": tuple[str, ...],
    "text": str,
}
#: Bounds of the numbers of an ability.
_ABILITY_BOUNDS = {"targets": 0, "uses": 1, "first_night": 1, "last_night": 1}
PHASES = ("night", "day")


def _table(
    raw: Mapping[str, Any], keys: Mapping[str, Any], where: str, *, closed: bool
) -> dict[str, Any]:
    """`raw` with each known key checked against its type; with `closed`, a key outside
    `keys` is refused (a misspelt setting would otherwise be silently ignored)."""
    if not isinstance(raw, Mapping):
        raise RulesetError(f"{where}: expected a table, not {show(raw)}")
    unknown = sorted(set(raw) - set(keys))
    if closed and unknown:
        raise RulesetError(f"{where} has unknown keys {unknown}; known: {sorted(keys)}")
    return {
        k: typed(v, keys[k], where=where, key=k) if k in keys else v for k, v in raw.items()
    }


def _ability(where: str, name: str, raw: Mapping[str, Any], tiers: set[str]) -> AbilityDef:
    checked = typed_fields(AbilityDef, {k: v for k, v in raw.items() if k != "name"}, where)
    for key, least in _ABILITY_BOUNDS.items():
        if checked.get(key) is not None:
            in_range(checked[key], where=where, key=key, min=least)
    raw = {**raw, **checked}
    kind = raw.get("kind")
    if kind not in KINDS:
        raise RulesetError(f"{where}: kind = {kind!r} is not one of {', '.join(sorted(KINDS))}")
    phase = raw.get("phase", "night")
    if phase not in (*PHASES, "any"):
        raise RulesetError(f"{where}: phase = {show(phase)}: use night, day or any")
    passive_kinds = {"turn", "shoot", "discard", "test", "suspend"}
    tier = raw.get("tier", "passive" if kind in passive_kinds else "")
    if tier not in tiers:
        raise RulesetError(
            f"{where}: tier = {tier!r} is not a tier named in [night] tiers/day_tiers"
        )
    if kind == "suspend" and not isinstance(raw.get("passive"), str):
        raise RulesetError(
            f'{where}: kind = "suspend" needs passive = "NAME" (the passive it switches off)'
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
        targets=raw.get("targets", 1),
        uses=raw.get("uses"),
        pool=raw.get("pool"),
        aliases=raw.get("aliases", ()),
        not_self=raw.get("not_self", False),
        no_repeat_target=raw.get("no_repeat_target", False),
        first_night=raw.get("first_night", 1),
        last_night=raw.get("last_night"),
        target_state=target_state,
        not_own_side=raw.get("not_own_side", False),
        params=MappingProxyType({k: v for k, v in raw.items() if k not in known}),
    )


def _abilities(where: str, raw: Mapping[str, Any], tiers: set[str]) -> Mapping[str, AbilityDef]:
    return MappingProxyType(
        {
            name: _ability(f"{where}.abilities.{name}", name, spec, tiers)
            for name, spec in raw.get("abilities", {}).items()
        }
    )


def load_engine_rules(ruleset: Any) -> EngineRules:
    """A ruleset's engine part: read once when the file was loaded (`Ruleset.engine`).
    Raw tables with `section()` (the loader) are read here: [night], [sides], [roles.*],
    [reveal] and [win], refusing what the engine cannot do and any value of the wrong
    type, naming the file, the table and the key."""
    if isinstance(ruleset, EngineRules):
        return ruleset
    if isinstance(built := getattr(ruleset, "engine", None), EngineRules):
        return built
    where = str(ruleset.path)
    if not hasattr(ruleset, "section"):  # a loaded ruleset without the engine's sections
        raise RulesetError(f"{where}: [night] needs tiers = [...] (the order of operations)")
    night = _table(ruleset.section("night"), _NIGHT_KEYS, f"{where} [night]", closed=False)
    tiers = night.get("tiers", ())
    day_tiers = night.get("day_tiers", ())
    if not tiers:
        raise RulesetError(f"{where}: [night] needs tiers = [...] (the order of operations)")
    first_phase = night.get("first_phase", "night")
    if first_phase not in PHASES:
        raise RulesetError(f"{where} [night] first_phase = {show(first_phase)}: use night or day")
    all_tiers = {*tiers, *day_tiers, "passive"}
    sides = {}
    for key, raw_side in night.get("sides", {}).items():
        at = f"{where} [night.sides.{key}]"
        spec = _table(raw_side, _SIDE_KEYS, at, closed=True)
        sides[key] = SideDef(
            key=key,
            title=spec.get("title", key.title()),
            abilities=_abilities(at, spec, all_tiers),
            passives=spec.get("passives", MappingProxyType({})),
            investigate_as=spec.get("investigate_as", spec.get("title", key.title())),
            text=spec.get("text", ""),
            goal=spec.get("goal", ""),
            knows_team=spec.get("knows_team", False),
        )
    if not sides:
        raise RulesetError(f"{where}: [night.sides.*] must name at least one side")
    reveal = _table(ruleset.section("reveal"), _REVEAL_KEYS, f"{where} [reveal]", closed=False)
    roles = {}
    for key, raw_role in ruleset.section("roles").items():
        at = f"{where} [roles.{key}]"
        spec = _table(raw_role, _ROLE_KEYS, at, closed=True)
        raw_sides = spec.get("sides", ("any",))
        role_sides = tuple(sides) if "any" in raw_sides else raw_sides
        for s in role_sides:
            if s not in sides:
                raise RulesetError(f"{at} names the side {s!r}, not in [night.sides]")
        passives = spec.get("passives", MappingProxyType({}))
        if "vote_weight" in passives:
            weight = typed(passives["vote_weight"], int, where=at, key="passives.vote_weight")
            in_range(weight, where=at, key="passives.vote_weight", min=0)
        roles[key] = RoleDef(
            key=key,
            title=spec.get("title", key.title()),
            sides=role_sides,
            abilities=_abilities(at, spec, all_tiers),
            passives=passives,
            pools=spec.get("pools", MappingProxyType({})),
            hidden=spec.get("hidden", False),
            text=spec.get("text", "").strip(),
            victory=spec.get("victory", ""),
            character=spec.get("character", reveal.get("character_names", False)),
        )
    items = {}
    for key, raw_item in ruleset.section("items").items():
        at = f"{where} [items.{key}]"
        spec = _table(raw_item, _ITEM_KEYS, at, closed=True)
        items[key] = ItemDef(
            key=key,
            title=spec.get("title", key.title()),
            abilities=_abilities(at, spec, all_tiers),
            passives=spec.get("passives", MappingProxyType({})),
            size=spec.get("size", ""),
            text=spec.get("text", ""),
        )
    for key, role in roles.items():
        unknown = [i for i in role.passives.get("carries", ()) if i not in items]
        if unknown:
            raise RulesetError(
                f"{where} [roles.{key}] passives.carries names {unknown}, not in [items.*] "
                f"({', '.join(sorted(items)) or 'none'})"
            )
    win = _win(ruleset.section("win"), f"{where} [win]", sides)
    return EngineRules(
        ruleset=ruleset.name,
        title=ruleset.title,
        tiers=tiers,
        day_tiers=day_tiers,
        first_phase=first_phase,
        sides=MappingProxyType(sides),
        roles=MappingProxyType(roles),
        night=MappingProxyType(night),
        reveal=MappingProxyType(reveal),
        win=win,
        messages=reveal.get("messages", MappingProxyType({})),
        items=MappingProxyType(items),
    )


def _win(raw: Mapping[str, Any], where: str, sides: Mapping[str, SideDef]) -> Mapping[str, Any]:
    """[win] with every `[[win.checks]]` table's values checked and its sides known."""
    win = _table(raw, _WIN_KEYS, where, closed=False)
    checks = []
    for i, check in enumerate(win.get("checks", ()), 1):
        at = f"{where} checks #{i}"
        checked = _table(check, _CHECK_KEYS, at, closed=False)
        named = [checked.get("winner")] if checked.get("when") != "lovers_last" else []
        for key in ("sides", "prefer", "more_than"):
            named += checked.get(key, ())
        for side in named:
            if side is not None and side not in sides:
                raise RulesetError(
                    f"{at} names the side {side!r}, not in [night.sides] ({', '.join(sides)})"
                )
        bad = [a for a in checked.get("at", ()) if a not in ("dawn", "dusk")]
        if bad:
            raise RulesetError(f"{at} at = {show(checked['at'])}: use dawn and/or dusk")
        checks.append(MappingProxyType(checked))
    if "checks" in win:
        win["checks"] = tuple(checks)
    joins = []
    for i, join in enumerate(win.get("joins", ()), 1):
        at = f"{where} joins #{i}"
        checked = _table(join, _JOIN_KEYS, at, closed=True)
        if checked.get("when") not in ("status", "all_living_have") or not checked.get("status"):
            raise RulesetError(
                f'{at}: when = "status" or "all_living_have", with status = "NAME"'
            )
        side = checked.get("side")
        if (side is None) == (checked["when"] == "all_living_have"):
            raise RulesetError(f'{at}: side = "..." goes with when = "all_living_have" only')
        if side is not None and side not in sides:
            raise RulesetError(
                f"{at} names the side {side!r}, not in [night.sides] ({', '.join(sides)})"
            )
        joins.append(MappingProxyType(checked))
    if "joins" in win:
        win["joins"] = tuple(joins)
    return MappingProxyType(win)
