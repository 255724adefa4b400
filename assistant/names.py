"""Which player a name written in a post means.

Players write names the way they type: "jd", "ætherwolf", "pickles", "Lady Gray". The
matcher tries, in order, and stops at the first step that finds anything:

1. exact (a slot's shown name, alias or replaced name, as written);
2. the same ignoring case, accents and punctuation ("ætherwolf" = "ÆtherWolf", "jd" = "Jd-");
3. a unique prefix of a name or alias ("Æther", "Lady G");
4. a unique substring of a name or alias ("pickles" in "Mr. Pickles");
5. a close spelling of a full name ("Lady Gray" for "Lady Grey"), scored with rapidfuzz.

A step that finds two slots is *ambiguous* and stops there: a vote for "J" when "Jd-" and
"Jerry" (Tom & Jerry's) both start with J is reported with both candidates, never
attributed. Close spellings are compared with full names only: common names are short,
and a typo in one ("Slayr") is too likely to land on another player by accident.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz import fuzz

# Letters that Unicode does not decompose into a base letter plus an accent.
_FOLD = str.maketrans(
    {
        "æ": "ae",
        "Æ": "ae",
        "ø": "o",
        "Ø": "o",
        "œ": "oe",
        "Œ": "oe",
        "ß": "ss",
        "đ": "d",
        "Đ": "d",
        "ł": "l",
        "Ł": "l",
        "þ": "th",
        "Þ": "th",
        "ð": "d",
        "Ð": "d",
        "ı": "i",
    }
)
_NOT_WORD = re.compile(r"[\W_]+", re.UNICODE)


@lru_cache(maxsize=4096)
def fold(text: str) -> str:
    """A name reduced to lowercase ASCII letters and digits: the form names are compared in."""
    text = unicodedata.normalize("NFKD", text.translate(_FOLD))
    text = "".join(c for c in text if not unicodedata.combining(c))
    return _NOT_WORD.sub("", text.casefold())


@dataclass(frozen=True)
class Slot:
    """One seat in the game: shown by its first name; aliases and replaced players vote as it."""

    name: str
    """The name shown in tallies (the first name on the players-file line)."""
    aliases: tuple[str, ...] = ()
    """Other names: nicknames, common names, the players this slot replaced."""

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)


@dataclass(frozen=True)
class Match:
    """What a written name resolved to."""

    text: str
    """The name as written."""
    slot: str | None
    """The slot's shown name when exactly one slot matched."""
    how: str
    """"exact", "ignoring case and accents", "alias 'Jd'", "prefix", "substring",
    "close spelling (88%)", or "ambiguous" / "unknown"."""
    candidates: tuple[str, ...] = ()
    """For an ambiguous name, the slots it could mean; for an unknown one, the closest slots."""

    @property
    def ok(self) -> bool:
        return self.slot is not None

    def describe(self) -> str:
        """A short phrase for a vote's reason."""
        if self.slot is not None:
            return "" if self.how == "exact" else f"{self.text!r} read as {self.slot} ({self.how})"
        if self.how == "ambiguous":
            return f"{self.text!r} could be {_or_list(self.candidates)}"
        near = f" (closest: {_or_list(self.candidates)})" if self.candidates else ""
        return f"{self.text!r} matches no player{near}"


def _or_list(names: Sequence[str]) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


class NameMatcher:
    """Resolves written names to slots. Build once per count; matching is cached."""

    def __init__(self, slots: Iterable[Slot], *, close_spelling: float = 0.8) -> None:
        self.slots = tuple(slots)
        self.close_spelling = close_spelling
        self._exact: dict[str, set[str]] = {}
        self._folded: list[tuple[str, str, bool]] = []  # (folded name, slot, is_full_name)
        for slot in self.slots:
            for i, name in enumerate(slot.names):
                self._exact.setdefault(name.strip(), set()).add(slot.name)
                folded = fold(name)
                if folded:
                    self._folded.append((folded, slot.name, i == 0))
        self._cache: dict[tuple[str, bool], Match] = {}

    def match(self, text: str, *, strict: bool = False) -> Match:
        """The slot `text` names. `strict` stops after exact and case/accent-blind matches
        (for author names and a bold name written without "vote")."""
        key = (text, strict)
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self._match(text.strip(), strict)
        return found

    def match_leading(self, text: str) -> Match:
        """The name at the start of `text` ("Jd- because he..."): the longest run of words
        that is a name, else the whole text matched loosely."""
        words = text.split()
        for n in range(min(len(words), 5), 0, -1):
            m = self.match(" ".join(words[:n]), strict=True)
            if m.ok or m.how == "ambiguous":
                return m
        return self.match(" ".join(words[:3]) if len(words) > 3 else text)

    def _match(self, text: str, strict: bool) -> Match:
        if not text:
            return Match(text, None, "unknown")
        exact = self._exact.get(text)
        if exact:
            return self._one(text, exact, "exact")
        key = fold(text)
        if not key:
            return Match(text, None, "unknown")
        hits = {slot for name, slot, _ in self._folded if name == key}
        if hits:
            return self._one(text, hits, "ignoring case and accents")
        if strict:
            return Match(text, None, "unknown")
        hits = {slot for name, slot, _ in self._folded if name.startswith(key)}
        if hits:
            return self._one(text, hits, "prefix")
        if len(key) >= 3:
            hits = {slot for name, slot, _ in self._folded if key in name}
            if hits:
                return self._one(text, hits, "substring")
        return self._close(text, key)

    def _close(self, text: str, key: str) -> Match:
        scores: dict[str, float] = {}
        for name, slot, full in self._folded:
            if full:
                scores[slot] = max(scores.get(slot, 0.0), fuzz.ratio(key, name) / 100)
        ranked = sorted(scores.items(), key=lambda kv: -kv[1])
        near = tuple(s for s, score in ranked[:2] if score >= 0.6)
        if self.close_spelling <= 0 or not ranked or ranked[0][1] < self.close_spelling:
            return Match(text, None, "unknown", near)
        best = [s for s, score in ranked if ranked[0][1] - score < 0.05]
        if len(best) > 1:
            return Match(text, None, "ambiguous", tuple(best))
        return Match(text, best[0], f"close spelling ({ranked[0][1]:.0%})")

    @staticmethod
    def _one(text: str, slots: set[str], how: str) -> Match:
        if len(slots) > 1:
            return Match(text, None, "ambiguous", tuple(sorted(slots)))
        return Match(text, next(iter(slots)), how)


def parse_players_file(text: str, *, source: str = "players file") -> list[Slot]:
    """Slots from a players file: one player a line, `name | alias | replaced player`.

    Blank lines and lines starting with `#` are skipped. A name on two lines is an error,
    because the same person cannot hold two slots.
    """
    from assistant.errors import ConfigError

    slots: list[Slot] = []
    seen: dict[str, int] = {}
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        names = [n.strip() for n in line.split("|")]
        if any(not n for n in names):
            raise ConfigError(
                f"{source}, line {lineno}: an empty name in {raw.strip()!r}; "
                "write `name | alias | ...` with a name between every `|`"
            )
        for n in names:
            if n in seen:
                raise ConfigError(
                    f"{source}, line {lineno}: {n!r} is already on line {seen[n]}; "
                    "a name may belong to one player only"
                )
            seen[n] = lineno
        slots.append(Slot(names[0], tuple(names[1:])))
    if not slots:
        raise ConfigError(f"{source} lists no players: write one player a line")
    return slots
