"""Rulesets are data: `rulesets/NAME.toml` loads into a frozen `Ruleset`.

Each module reads its own section (`votes`, `tally`, `phases`, `posting`, `roles`,
`night`, `win`, ...) into its own dataclass, so this loader knows only the frame:
name, aliases, schema version. A GM can copy a file, change it, and pass its path.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from assistant import RULESETS_DIR
from assistant.errors import RulesetError

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


def load_ruleset(path: Path | str) -> Ruleset:
    """Load one ruleset file, refusing unknown schema versions with a message naming the file."""
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RulesetError(f"ruleset file {path} does not exist") from None
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
    return Ruleset(
        name=raw["name"],
        title=raw["title"],
        path=path,
        aliases=tuple(raw.get("aliases", ())),
        data=_freeze(raw),
    )


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
