"""Rulesets are data: `rulesets/NAME.toml` loads into a frozen `Ruleset`.

Each module reads its own section (`votes`, `tally`, `phases`, `posting`, `roles`,
`night`, `win`, ...) into its own dataclass, so this loader knows only the frame:
name, aliases, schema version. A GM can copy a file, change it, and pass its path.

Every section loader checks its values with the one typed-field helper here (`typed`,
`typed_fields`: a value against a type hint, with bounds), and `load_ruleset` runs every
loader (`check_sections`), so a hand-edited file is refused when it is loaded, in one line
naming the file, the key and what is expected.
"""

from __future__ import annotations

import tomllib
import types
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from assistant import RULESETS_DIR
from assistant.errors import RulesetError
from assistant.files import read_text

SCHEMA_VERSION = 1


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


@dataclass(frozen=True)
class Ruleset:
    """A loaded ruleset file."""

    name: str
    """Short name used on the command line ("chat-mafia")."""
    title: str
    """The game's own name ("Turtle's Chat Mafia")."""
    path: Path
    """The file it was loaded from (for error messages)."""
    aliases: tuple[str, ...] = ()
    """Other names `find_ruleset` accepts (the seed number, e.g. "002")."""
    data: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    """The whole file, read-only; modules read their own section."""

    def section(self, name: str) -> Mapping[str, Any]:
        """A top-level table, empty if the file has none."""
        value = self.data.get(name, MappingProxyType({}))
        if not isinstance(value, Mapping):
            raise RulesetError(f"{self.path}: [{name}] must be a table, not {type(value).__name__}")
        return value


def known_section(ruleset: Any, name: str, known: Iterable[str]) -> tuple[Mapping[str, Any], str]:
    """`ruleset`'s `[name]` table (or `ruleset` itself when a plain mapping is given, as tests
    do) and where it came from, refusing keys outside `known`: a misspelt setting would
    otherwise be silently ignored."""
    section: Mapping[str, Any] = ruleset.section(name) if hasattr(ruleset, "section") else ruleset
    where = str(getattr(ruleset, "path", "ruleset"))
    unknown = set(section) - set(known)
    if unknown:
        raise RulesetError(
            f"{where}: [{name}] has unknown keys {sorted(unknown)}; known: {sorted(known)}"
        )
    return section, where


# ---- typed fields: every section loader checks its values with these -----------------------


def show(value: Any) -> str:
    """A value as the TOML file writes it ("24h" in quotes, lists in brackets), for messages."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace('"', '\\"') + '"'
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k} = {show(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(show(v) for v in value) + "]"
    return repr(value)


def describe_type(hint: Any) -> str:
    """What a type hint asks of a TOML value, in words: "text", "a list of numbers"..."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(describe_type(a) for a in args if a is not type(None))
    if origin is tuple:
        return "a list of " + _plural(args[0])
    if origin is not None and issubclass(origin, Mapping) or hint is Mapping:
        return "a table"
    return {str: "text", bool: "true or false", int: "a whole number", float: "a number"}.get(
        hint, getattr(hint, "__name__", str(hint))
    )


def _plural(hint: Any) -> str:
    named = {str: "texts", bool: "true/false values", int: "whole numbers", float: "numbers"}
    if hint in named:
        return named[hint]
    return "tables" if describe_type(hint) == "a table" else describe_type(hint) + " values"


def typed(value: Any, hint: Any, *, where: str, key: str) -> Any:
    """`value` if it is what the type hint `hint` asks for (str, bool, int, float,
    `tuple[X, ...]`, `Mapping[str, X]`, `X | None`, Any), as the hint's type (a list becomes
    a tuple, a whole number a float where a number is asked); otherwise a RulesetError
    "`where` `key` = VALUE: expected ..." naming the file, the key and what to write."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return value
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        inner = [a for a in args if a is not type(None)]
        errors = []
        for a in inner:
            try:
                return typed(value, a, where=where, key=key)
            except RulesetError as e:
                errors.append(e)
        raise errors[0] if len(inner) == 1 else _type_error(value, hint, where, key)
    if origin is tuple:
        if not isinstance(value, (list, tuple)):
            raise _type_error(value, hint, where, key)
        return tuple(
            typed(item, args[0], where=where, key=f"{key}[{i}]") for i, item in enumerate(value)
        )
    if (origin is not None and issubclass(origin, Mapping)) or hint is Mapping:
        if not isinstance(value, Mapping):
            raise _type_error(value, hint, where, key)
        item_hint = args[1] if len(args) == 2 else Any
        return MappingProxyType(
            {k: typed(v, item_hint, where=where, key=f"{key}.{k}") for k, v in value.items()}
        )
    if hint is float and isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if hint is int and isinstance(value, bool):
        raise _type_error(value, hint, where, key)
    if isinstance(hint, type) and isinstance(value, hint):
        return value
    raise _type_error(value, hint, where, key)


def _type_error(value: Any, hint: Any, where: str, key: str) -> RulesetError:
    return RulesetError(f"{where} {key} = {show(value)}: expected {describe_type(hint)}")


def typed_fields(cls: type, section: Mapping[str, Any], where: str) -> dict[str, Any]:
    """The keys of `section` checked against the dataclass `cls`'s field types (see `typed`)
    and the bounds a field declares in its metadata (`{"min": 0, "max": 1}`), ready to pass
    to `cls(**...)`. Keys that are not fields are left out: callers refuse or use them."""
    hints, bounds = _field_types(cls)
    out = {}
    for key, value in section.items():
        if key not in hints:
            continue
        out[key] = checked = typed(value, hints[key], where=where, key=key)
        in_range(checked, where=where, key=key, **bounds.get(key, {}))
    return out


@cache
def _field_types(cls: type) -> tuple[dict[str, Any], dict[str, Mapping[str, Any]]]:
    """A dataclass's field types and bounds, worked out once (type hints are slow to read)."""
    return typing.get_type_hints(cls), {f.name: f.metadata for f in fields(cls)}


def in_range(
    value: Any, *, where: str, key: str, min: float | None = None, max: float | None = None
) -> Any:
    """`value` (a number, or each number of a list) if within [min, max], else RulesetError."""
    items = value if isinstance(value, tuple) else (value,)
    for item in items:
        if not isinstance(item, (int, float)) or isinstance(item, bool):
            continue
        if (min is not None and item < min) or (max is not None and item > max):
            span = (
                f"from {min} to {max}" if min is not None and max is not None
                else f"{min} or more" if min is not None else f"{max} or less"
            )
            raise RulesetError(f"{where} {key} = {show(value)}: each value must be {span}")
    return value


# ---- loading -------------------------------------------------------------------------------


def load_ruleset(path: Path | str) -> Ruleset:
    """Load one ruleset file and check every section's values (`check_sections`), refusing
    unknown schema versions with a message naming the file."""
    path = Path(path)
    if not path.exists():
        raise RulesetError(f"ruleset file {path} does not exist")
    try:
        raw = tomllib.loads(read_text(path, "ruleset file", error=RulesetError))
    except tomllib.TOMLDecodeError as e:
        raise RulesetError(f"{path}: not valid TOML: {e}") from None
    version = raw.get("schema_version")
    if version != SCHEMA_VERSION:
        raise RulesetError(
            f"{path}: schema_version = {version!r}, but this assistant reads version "
            f"{SCHEMA_VERSION}; copy a current file from rulesets/ and redo your changes there"
        )
    for key in ("name", "title"):
        if not isinstance(raw.get(key), str):
            raise RulesetError(f"{path}: missing the text field {key!r} at the top of the file")
    ruleset = Ruleset(
        name=raw["name"],
        title=raw["title"],
        path=path,
        aliases=typed(raw.get("aliases", ()), tuple[str, ...], where=str(path), key="aliases"),
        data=_freeze(raw),
    )
    check_sections(ruleset)
    return ruleset


def check_sections(ruleset: Ruleset) -> None:
    """Read every section the way the assistant will, so a hand-edited file with a wrong
    value is refused when it is loaded (`game new`, `find_ruleset`), with one line naming
    the file, the key and what is expected, not in the middle of a count or a night.
    The loaders live with the modules that use them; they are imported here, late, because
    each of them imports this module."""
    from assistant.checks import posting_rules
    from assistant.engine.rules import ENGINE_SECTIONS, load_engine_rules
    from assistant.outcome import TallyRules
    from assistant.phases import phase_rules
    from assistant.votes import VoteRules

    VoteRules.from_ruleset(ruleset)
    TallyRules.from_ruleset(ruleset)
    phase_rules(ruleset)
    posting_rules(ruleset)
    if any(name in ruleset.data for name in ENGINE_SECTIONS):
        load_engine_rules(ruleset)


def available_rulesets(directory: Path = RULESETS_DIR) -> dict[str, Path]:
    """Every bundled ruleset by name and alias."""
    found: dict[str, Path] = {}
    for path in sorted(directory.glob("*.toml")):
        rs = _load_cached(path)
        for key in (rs.name, *rs.aliases):
            found[key.lower()] = path
    return found


@cache
def _load_cached(path: Path) -> Ruleset:
    return load_ruleset(path)


def find_ruleset(name_or_path: str) -> Ruleset:
    """A bundled ruleset by name or alias ("chat-mafia", "002"), or a file path."""
    candidate = Path(name_or_path)
    if candidate.suffix == ".toml" or candidate.exists():
        return load_ruleset(candidate)
    known = available_rulesets()
    path = known.get(name_or_path.lower())
    if path is None:
        names = ", ".join(sorted({_load_cached(p).name for p in known.values()}))
        raise RulesetError(
            f"no ruleset called {name_or_path!r}; bundled rulesets: {names} "
            "(or give the path of a .toml file)"
        )
    return _load_cached(path)
