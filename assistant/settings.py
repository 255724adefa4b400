"""Typed settings: a TOML value checked against a dataclass field's type hint, with bounds.

Every ruleset section (`[votes]`, `[tally]`, `[phases]`, `[posting]`, the engine's tables)
is a frozen dataclass owned by the module that uses it; each reads its table with these
helpers, so a hand-edited value is refused with one line naming the file, the key and
what to write. This module sits at the bottom of the layers (it knows no section), so
the section modules need not import the loader (`rulesets.py`) that assembles them.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Iterable, Mapping
from dataclasses import fields
from functools import cache
from types import MappingProxyType
from typing import Any

from assistant.errors import RulesetError

#: Between the problems of one message that reports several (still one line).
PROBLEMS_JOIN = " | "


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
    to `cls(**...)`. Keys that are not fields are left out: callers refuse or use them.
    Every wrong value is reported, in one line (joined by `PROBLEMS_JOIN`)."""
    hints, bounds = _field_types(cls)
    out = {}
    problems: list[str] = []
    for key, value in section.items():
        if key not in hints:
            continue
        try:
            out[key] = checked = typed(value, hints[key], where=where, key=key)
            in_range(checked, where=where, key=key, **bounds.get(key, {}))
        except RulesetError as e:  # every wrong value of the table at once
            problems.append(str(e))
    if problems:
        raise RulesetError(PROBLEMS_JOIN.join(problems))
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
