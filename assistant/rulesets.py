"""Rulesets are data: `rulesets/NAME.toml` is read once into a frozen, typed `Ruleset`.

A `Ruleset` is made of the section types the modules that use them own: `VoteRules`
(`votes.py`, `[votes]`), `TallyRules` (`outcome.py`, `[tally]`), `PhaseRules`
(`phases.py`, `[phases]`), `PostingRules` (`checks/`, `[posting]`), `AutoPostRules`
(`tally_requests.py`, `[auto_post]`) and `EngineRules`
(`engine/rules.py`, `[night]`, `[roles.*]`, `[reveal]`, `[win]`). This loader sits above
them all: it reads the file, has each section read by its own module, and refuses the
file with every problem at once (a misspelt section or key, a value of the wrong type),
naming the file, the section, the key and what is allowed. A section's module never
imports this one; a consumer takes only the section it needs (`ruleset.votes`).
A GM can copy a file, change it, and pass its path.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

from assistant import RULESETS_DIR
from assistant.checks import PostingRules, posting_rules
from assistant.count.outcome import TallyRules
from assistant.count.votes import VoteRules
from assistant.engine.rules import ENGINE_SECTIONS, EngineRules, load_engine_rules
from assistant.errors import RulesetError
from assistant.files import read_text
from assistant.phases import PhaseRules, phase_rules
from assistant.settings import (  # noqa: F401 - re-exported: older callers import them here
    PROBLEMS_JOIN,
    describe_type,
    in_range,
    show,
    typed,
    typed_fields,
)
from assistant.tally_requests import AutoPostRules, auto_post_rules

SCHEMA_VERSION = 1


#: The keys at the top of a file, outside any section.
TOP_KEYS = ("schema_version", "name", "title", "aliases")
#: Every section this assistant reads; any other is a mistake (a misspelt `[votez]`).
SECTIONS = ("votes", "tally", "phases", "posting", "auto_post", *ENGINE_SECTIONS)

T = TypeVar("T")


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


@dataclass(frozen=True)
class Ruleset:
    """A loaded ruleset file: its name and its sections, each already read and checked."""

    name: str
    """Short name used on the command line ("chat-mafia")."""
    title: str
    """The game's own name ("Turtle's Chat Mafia")."""
    path: Path
    """The file it was loaded from, as given (for error messages)."""
    aliases: tuple[str, ...] = ()
    """Other names `find_ruleset` accepts (the seed number, e.g. "002")."""
    votes: VoteRules = field(default_factory=VoteRules)
    tally: TallyRules = field(default_factory=TallyRules)
    phases: PhaseRules = field(default_factory=PhaseRules)
    posting: PostingRules = field(default_factory=PostingRules)
    engine: EngineRules | None = None
    """None for a counting-only ruleset (no `[night]`, `[roles.*]`, `[reveal]`, `[win]`)."""
    auto_post: AutoPostRules = field(default_factory=AutoPostRules)


@dataclass(frozen=True)
class _Tables:
    """The file's raw tables, as each section's reader takes them (`section(name)`)."""

    path: Path
    data: Mapping[str, Any]

    @property
    def name(self) -> str:
        return str(self.data["name"])

    @property
    def title(self) -> str:
        return str(self.data["title"])

    def section(self, name: str) -> Mapping[str, Any]:
        value = self.data.get(name, MappingProxyType({}))
        if not isinstance(value, Mapping):
            raise RulesetError(f"{self.path}: [{name}] must be a table, not {show(value)}")
        return value


# ---- loading -------------------------------------------------------------------------------


def load_ruleset(path: Path | str) -> Ruleset:
    """Read one ruleset file into a `Ruleset`, every section read by its own module.

    An unknown schema version, or a file without its name and title, is refused at once;
    otherwise every problem of every section is collected and reported in one line."""
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
    tables = _Tables(path, _freeze(raw))
    problems = _unknown_keys(path, raw)

    def read(reader: Callable[[], T]) -> T | None:
        try:
            return reader()
        except RulesetError as e:
            problems.append(str(e))
            return None

    aliases = read(
        lambda: typed(raw.get("aliases", ()), tuple[str, ...], where=str(path), key="aliases")
    )
    votes = read(lambda: VoteRules.from_ruleset(tables))
    tally = read(lambda: TallyRules.from_ruleset(tables))
    phases = read(lambda: phase_rules(tables))
    posting = read(lambda: posting_rules(tables))
    auto_post = read(lambda: auto_post_rules(tables))
    engine = None
    if any(name in raw for name in ENGINE_SECTIONS):
        engine = read(lambda: load_engine_rules(tables))
    if problems:
        raise RulesetError(_together(path, problems))
    return Ruleset(
        raw["name"], raw["title"], path, aliases, votes, tally, phases, posting, engine,  # type: ignore[arg-type]
        auto_post,  # type: ignore[arg-type]
    )


def _unknown_keys(path: Path, raw: Mapping[str, Any]) -> list[str]:
    """A problem for each top-level key or section this assistant does not read."""
    problems = []
    for key, value in raw.items():
        if key in TOP_KEYS or key in SECTIONS:
            continue
        if isinstance(value, Mapping):
            problems.append(
                f"{path}: [{key}] is not a section the assistant reads; "
                f"known sections: {', '.join(f'[{s}]' for s in SECTIONS)}"
            )
        else:
            problems.append(
                f"{path}: unknown key {key!r} at the top of the file; known: "
                f"{', '.join(TOP_KEYS)}, or a section: {', '.join(f'[{s}]' for s in SECTIONS)}"
            )
    return problems


def _together(path: Path, problems: list[str]) -> str:
    """One line for every problem: the file named once, then each problem after it."""
    parts = [part for p in problems for part in p.split(PROBLEMS_JOIN)]
    if len(parts) == 1:
        return parts[0]
    where = str(path)
    parts = [p.replace(f"{where}: ", "", 1).replace(f"{where} ", "", 1) for p in parts]
    return f"{path}: {len(parts)} problems: " + PROBLEMS_JOIN.join(parts)


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


def _is_file(name_or_path: str) -> bool:
    candidate = Path(name_or_path)
    return candidate.suffix == ".toml" or candidate.exists()


def find_ruleset(name_or_path: str) -> Ruleset:
    """A bundled ruleset by name or alias ("chat-mafia", "002"), or a file path."""
    if _is_file(name_or_path):
        return load_ruleset(name_or_path)
    own = RULESETS_DIR / f"{name_or_path.lower()}.toml"
    if own.is_file() and _load_cached(own).name.lower() == name_or_path.lower():
        return _load_cached(own)  # by its name: the other files need not be read (start-up)
    known = available_rulesets()
    path = known.get(name_or_path.lower())
    if path is None:
        names = ", ".join(sorted({_load_cached(p).name for p in known.values()}))
        raise RulesetError(
            f"no ruleset called {name_or_path!r}; bundled rulesets: {names} "
            "(or give the path of a .toml file)"
        )
    return _load_cached(path)


def stored_name(name_or_path: str, ruleset: Ruleset) -> str:
    """How a game keeps the ruleset `name_or_path` gave: a bundled one by its name, a file
    by its absolute path, so commands run from another directory, and the daemon, find it."""
    return str(Path(name_or_path).resolve()) if _is_file(name_or_path) else ruleset.name
