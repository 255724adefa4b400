"""The GM's setup: who has which role and side, plus the game's random seed.

Read from the GM's setup.toml by `assistant roles`, checked against the ruleset, and
stored as a GM input of kind "roles". The seed is kept with it so every resolution can
be replayed with the same coin flips.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assistant.engine.rules import EngineRules
from assistant.errors import ConfigError, RulesetError
from assistant.files import read_text
from assistant.settings import show, typed

SETUP_VERSION = 1
#: What each key of a `[[players]]` table holds.
_PLAYER_KEYS: dict[str, Any] = {
    "name": str, "side": str, "role": str, "items": tuple[str, ...], "disguise": str,
    "costumes": tuple[str, ...], "prep_travel": bool,
}


@dataclass(frozen=True)
class PlayerSetup:
    """One player's slot at the start of the game."""

    name: str
    side: str
    """The alignment key of [night.sides]."""
    role: str | None = None
    """A key of [roles]; None for a vanilla player."""
    items: tuple[str, ...] = ()
    disguise: str | None = None
    """004: the role a disguiser (Vermouth, Kid) wears from the Prep phase on."""
    costumes: tuple[str, ...] = ()
    """004: the roles chosen in the Prep phase to dress as by day (Yukiko, Irish)."""
    prep_travel: bool = False
    """004: a traveller who travels in the Prep phase (on the plane the first phase)."""


@dataclass(frozen=True)
class Setup:
    """The whole setup of a game."""

    players: tuple[PlayerSetup, ...]
    seed: int
    """Seeds every random choice (ties, random victims), so a night can be replayed."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Ruleset-specific extras (001: `extra_card`, the role the Thief may take instead)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema_version": SETUP_VERSION,
            "seed": self.seed,
            "players": [
                {"name": p.name, "side": p.side, "role": p.role, "items": list(p.items)}
                | ({"disguise": p.disguise} if p.disguise else {})
                | ({"costumes": list(p.costumes)} if p.costumes else {})
                | ({"prep_travel": True} if p.prep_travel else {})
                for p in self.players
            ],
            "extra": dict(self.extra),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Setup:
        if d.get("schema_version") != SETUP_VERSION:
            raise ConfigError(
                f"stored setup has schema_version {d.get('schema_version')!r}; this assistant "
                f"reads {SETUP_VERSION}: enter the setup again with `assistant roles GAME --file`"
            )
        return cls(
            players=tuple(
                PlayerSetup(p["name"], p["side"], p.get("role"), tuple(p.get("items", ())),
                            p.get("disguise"), tuple(p.get("costumes", ())),
                            bool(p.get("prep_travel", False)))
                for p in d["players"]
            ),
            seed=int(d["seed"]),
            extra=dict(d.get("extra", {})),
        )


def parse_setup(text: str, rules: EngineRules, *, where: str, default_seed: int) -> Setup:
    """Parse a setup.toml text and check every role and side against the ruleset."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{where}: not valid TOML: {e}") from None
    entries = raw.get("players")
    if not isinstance(entries, list) or not entries:
        raise ConfigError(
            f"{where}: no players; write one [[players]] table per player with name, side "
            "and (optionally) role"
        )
    players: list[PlayerSetup] = []
    seen: set[str] = set()
    for i, p in enumerate(entries, 1):
        if not isinstance(p, dict):
            raise ConfigError(
                f"{where}: player #{i} is {p!r}; write it as a table, e.g. "
                '{ name = "Alice", role = "doctor" }'
            )
        try:
            p = {k: typed(v, _PLAYER_KEYS[k], where=f"{where}: player #{i}", key=k)
                 if k in _PLAYER_KEYS else v for k, v in p.items()}
        except RulesetError as e:
            raise ConfigError(str(e)) from None
        name = p.get("name", "").strip()
        if not name:
            raise ConfigError(f"{where}: player #{i} has no name")
        if name.lower() in seen:
            raise ConfigError(f"{where}: the player {name!r} is listed twice")
        seen.add(name.lower())
        role = p.get("role") or None
        side = p.get("side")
        if role is not None and role not in rules.roles:
            raise ConfigError(
                f"{where}: {name}'s role {role!r} is not a role of {rules.ruleset} "
                f"({', '.join(sorted(rules.roles))})"
            )
        if side is None and role is not None and len(rules.role(role).sides) == 1:
            side = rules.role(role).sides[0]
        if side not in rules.sides:
            raise ConfigError(
                f"{where}: {name}'s side {side!r} is not a side of {rules.ruleset} "
                f'({", ".join(rules.sides)}); add side = "..."'
            )
        if role is not None and side not in rules.role(role).sides:
            raise ConfigError(
                f"{where}: {name} is {side}, but the role {role} is only given to "
                f"{' or '.join(rules.role(role).sides)}"
            )
        unknown = [i for i in p.get("items", ()) if rules.items and i not in rules.items]
        if unknown:
            raise ConfigError(
                f"{where}: {name}'s item {unknown[0]!r} is not an item of {rules.ruleset} "
                f"({', '.join(sorted(rules.items))})"
            )
        disguise = p.get("disguise") or None
        costumes = tuple(p.get("costumes", ()))
        if disguise is not None and disguise not in costumes:
            _check_disguise(rules, name, role, disguise, where)
        for c in costumes:
            _check_disguise(rules, name, role, c, where, passive="costumes")
        prep_travel = bool(p.get("prep_travel", False))
        if prep_travel and not any(
            ab.kind == "travel" and ab.params.get("prep")
            for ab in (rules.roles[role].abilities.values() if role in rules.roles else ())
        ):
            raise ConfigError(
                f"{where}: {name} has prep_travel = true, but their role does not travel in "
                "the Prep phase"
            )
        players.append(PlayerSetup(name, side, role, p.get("items", ()), disguise, costumes,
                                   prep_travel))
    seed = raw.get("seed", default_seed)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ConfigError(f"{where}: seed = {show(seed)}: expected a whole number")
    extra = {k: v for k, v in raw.items() if k not in {"players", "seed"}}
    _check_stockpiles(extra, rules, {p.name for p in players}, where)
    _check_variants(extra, rules, where)
    return Setup(tuple(players), seed, extra)


def _check_variants(extra: dict[str, Any], rules: EngineRules, where: str) -> None:
    """`variants = ["spy"]`: abilities the ruleset plays only when asked (an ability's
    `variant`, 004's Spy); a misspelt one would silently turn nothing on."""
    if "variants" not in extra:
        return
    tables = [*rules.roles.values(), *rules.items.values(), *rules.sides.values()]
    known = sorted({str(ab.params["variant"]) for t in tables for ab in t.abilities.values()
                    if ab.params.get("variant")})
    got = extra["variants"]
    if not isinstance(got, list) or any(v not in known for v in got):
        raise ConfigError(
            f"{where}: variants = {show(got)}: a list of the variants {rules.ruleset} knows "
            f"({', '.join(known) or 'none'})"
        )


def _check_stockpiles(
    extra: dict[str, Any], rules: EngineRules, names: set[str], where: str
) -> None:
    """000 Mind Stealer: `stockpile = { NAME = [ROLE, ...] }`, `role_points = { ROLE = N }`,
    `points_to_win = X`: a name or role misspelt would silently do nothing."""
    stock = extra.get("stockpile", {})
    if not isinstance(stock, dict):
        raise ConfigError(f'{where}: stockpile = {show(stock)}: write {{ NAME = ["ROLE", ...] }}')
    for name, roles in stock.items():
        if name not in names:
            raise ConfigError(f"{where}: stockpile names {name!r}, who is not a player")
        if not isinstance(roles, list) or any(r not in rules.roles for r in roles):
            raise ConfigError(
                f"{where}: {name}'s stockpile = {show(roles)}: a list of roles of "
                f"{rules.ruleset} ({', '.join(sorted(rules.roles))})"
            )
    points = extra.get("role_points", {})
    if not isinstance(points, dict) or any(
        r not in rules.roles or not isinstance(n, int) or isinstance(n, bool) or n < 0
        for r, n in points.items()
    ):
        raise ConfigError(
            f"{where}: role_points = {show(points)}: write {{ ROLE = POINTS }} with roles of "
            f"{rules.ruleset} and whole numbers of 0 or more"
        )
    goal = extra.get("points_to_win", 1)
    if not isinstance(goal, int) or isinstance(goal, bool) or goal < 1:
        raise ConfigError(f"{where}: points_to_win = {show(goal)}: expected a whole number >= 1")


def _check_disguise(
    rules: EngineRules, name: str, role: str | None, disguise: str, where: str,
    passive: str = "disguises",
) -> None:
    """A disguise is worn only by a role that disguises (`passives.disguises = [sides]`, for
    costumes `passives.costumes`) and only as a role of those sides (004: "Disguisers may
    not disguise as Black Org members"; costumes: "All disguises will be town roles")."""
    sides = rules.roles[role].passives.get(passive) if role in rules.roles else None
    if not sides:
        what = "a disguise" if passive == "disguises" else "costumes"
        raise ConfigError(f"{where}: {name} has {what}, but their role does not disguise")
    if disguise not in rules.roles:
        raise ConfigError(
            f"{where}: {name}'s disguise {disguise!r} is not a role of {rules.ruleset} "
            f"({', '.join(sorted(rules.roles))})"
        )
    if not set(rules.role(disguise).sides) <= set(sides):
        raise ConfigError(
            f"{where}: {name} may not disguise as {rules.role(disguise).title} "
            f"(only as a role of {', '.join(sides)})"
        )
    barred = disguise_barred(rules, str(role), disguise) if passive == "disguises" else None
    if barred:
        raise ConfigError(f"{where}: {name} may not disguise as {barred}")


def disguise_barred(rules: EngineRules, role: str, disguise: str) -> str | None:
    """Why the role may not wear the disguise, or None: its passive `disguise_bars =
    { PASSIVE = [VALUES], roles = [...] }` (004: "Disguisers may not disguise as Black Org
    members, children, or Prep phase roles")."""
    bars = rules.roles[role].passives.get("disguise_bars", {}) if role in rules.roles else {}
    worn = rules.role(disguise)
    if disguise in bars.get("roles", ()):
        return f"{worn.title} (a Prep phase role)"
    for key, values in bars.items():
        if key != "roles" and worn.passives.get(key) in values:
            return f"{worn.title} ({key} {worn.passives.get(key)})"
    return None


def setup_warnings(setup: Setup, rules: EngineRules) -> list[str]:
    """What a setup does against the seed's stated rules, for the GM to see when entering it
    (a warning, not a refusal: a GM may run a variant on purpose). `[night] unique_roles`:
    002's "No role will be duplicated"; players without a role may be many."""
    out = _item_warnings(setup, rules)
    if not rules.night.get("unique_roles"):
        return out
    holders: dict[str, list[str]] = {}
    for p in setup.players:
        if p.role is not None:
            holders.setdefault(p.role, []).append(p.name)
    return [
        f"{', '.join(names)} all have the role {rules.role(role).title}, but {rules.ruleset} "
        "duplicates no role ([night] unique_roles): check the setup"
        for role, names in holders.items()
        if len(names) > 1
    ] + out


def _item_warnings(setup: Setup, rules: EngineRules) -> list[str]:
    """000's tech against the role: its slots (`tech_slots`, "An alien can only have 1 of any
    given item"), a Mad Scientist's choices (`tech_choices`), what it must have
    (`needs_one_of`: the Exterminator's natural shield) or may not (`forbidden_items`)."""
    out = []
    for p in setup.players:
        role = rules.roles.get(p.role) if p.role else None
        passives = role.passives if role is not None else {}
        items = [rules.items[i] for i in p.items if i in rules.items]
        tech = [i for i in items if i.size]
        slots = dict(passives.get("tech_slots", {}))
        choices = passives.get("tech_choices")
        if choices is not None:
            wrong = [i.key for i in tech if i.key not in choices]
            if wrong:
                out.append(f"{p.name}: {', '.join(wrong)} is not tech a {role.title} starts with")
        elif tech:
            used: dict[str, int] = {}
            for i in tech:
                used[i.size] = used.get(i.size, 0) + 1
            over = [f"{n} {size}" for size, n in used.items() if n > int(slots.get(size, 0))]
            instead = dict(passives.get("tech_slots_instead", {}))
            if instead and all(n <= int(instead.get(size, 0)) for size, n in used.items()):
                over = []  # 000 Mind Stealer: "1 Robot or 2 Small Tech slots"
            if over:
                have = ", ".join(f"{n} {k}" for k, n in slots.items()) or "no tech slots"
                out.append(f"{p.name} holds {', '.join(over)} tech, but has {have}")
        twice = sorted({i.key for i in tech if [t.key for t in tech].count(i.key) > 1})
        if twice:
            out.append(f"{p.name} holds {', '.join(twice)} more than once")
        need = passives.get("needs_one_of")
        if need and not any(i in p.items for i in need):
            out.append(f"{p.name} needs one of {', '.join(need)} (items = [...])")
        banned = [i for i in passives.get("forbidden_items", ()) if i in p.items]
        if banned:
            out.append(f"{p.name} may not hold {', '.join(banned)}")
        tags = set(passives.get("tags", ()))
        for i in items:
            # 000: a Mind Shield is "an ability granted to a non-psychic character".
            barred = sorted(tags & set(i.passives.get("not_for_tags", ())))
            if barred and role is not None:
                item = ("an " if i.title[:1].lower() in "aeiou" else "a ") + i.title
                out.append(f"{p.name}: {item} is not for a {barred[0]} role "
                           f"({role.title}); items = [...]")
        out += _stockpile_warnings(setup, rules, p, passives, items)
    return out


def _stockpile_warnings(
    setup: Setup, rules: EngineRules, p: PlayerSetup, passives: Any, items: list[Any]
) -> list[str]:
    """000 Mind Stealer: "begins the game with 2 Roles available (1 Investigative, 1
    Random)"; with a Robot "the MS also begins with a Bodyguard Role of their choice in
    addition to the other two" (`starting_roles`, the item's `adds_starting_role`)."""
    want = passives.get("starting_roles")
    if want is None:
        return []
    stock = list((setup.extra.get("stockpile") or {}).get(p.name, ()))
    extra = [str(i.passives["adds_starting_role"]) for i in items
             if "adds_starting_role" in i.passives]
    out = []
    if len(stock) != int(want) + len(extra):
        out.append(f"{p.name} starts with {len(stock)} stockpiled role(s), not "
                   f"{int(want) + len(extra)} (stockpile = {{ {p.name} = [...] }})")
    for kind in extra:
        if not any(kind in {rules.roles[r].title, rules.roles[r].passives.get("visible_role")}
                   for r in stock):
            out.append(f"{p.name} has a Robot: the stockpile also holds a {kind} role")
    return out


def read_setup_file(path: Path, rules: EngineRules, *, default_seed: int) -> Setup:
    text = read_text(path, "setup file")
    return parse_setup(text, rules, where=str(path), default_seed=default_seed)
