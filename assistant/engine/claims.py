"""Claims about actions: "Jd- heals Parkur", "Abs for killing Kleene on Night 1".

004's investigations, special investigations, follow-ups and arrests name an action
rather than a player alone; whether it happened is looked up among the actions of the
phase (or the record of past phases, `GameState.acts`) by keyword: the ruleset's
`[night.keywords]` make "heal" and "first aid" one action, as the seed's Keywords say.
An ability outside every keyword class is its own class (its name).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from assistant.engine.rules import AbilityDef, EngineRules, phase_index
from assistant.errors import MalformedOrderError


@dataclass(frozen=True)
class Act:
    """One action of a resolved phase, as investigations and arrests look it up."""

    phase: str
    number: int
    actor: str
    keyword: str
    """The keyword class ("heal" for Heal and First Aid)."""
    targets: tuple[str, ...]
    happened: bool
    """It was carried out (not stopped at its actor; the actor lived through the phase)."""
    succeeded: bool
    """Nothing hindered it: a crime that failed "is treated as ... not happening"."""
    crime: bool
    blamed: bool = False
    """Not done but blamed on the actor (004's Blame): true to investigations, a crime, but
    "The BO can't arrest someone for a blamed action in any way"."""


@dataclass(frozen=True)
class Claim:
    """What an order claims someone did: a keyword class, whom to, and when."""

    keyword: str
    verb: str
    """The verb as written ("heals"), for the result PM."""
    objects: tuple[str, ...]
    phase: str | None = None
    number: int | None = None

    def rest(self) -> str:
        """The claim without its subject, names as the game spells them ("heals Parkur")."""
        when = f" on {self.phase.title()} {self.number}" if self.phase else ""
        if self.phase == "prep":
            when = " during Prep"
        whom = f" {', '.join(self.objects)}" if self.objects else ""
        return f"{self.verb}{whom}{when}"

    def text(self, subject: str) -> str:
        return f"{subject} {self.rest()}"


def keyword_table(rules: EngineRules) -> dict[str, tuple[str, ...]]:
    """`[night.keywords]`: class -> the words for it (the class name counts as one)."""
    raw: Mapping[str, Sequence[str]] = rules.night.get("keywords", {})
    return {k: (k, *tuple(v)) for k, v in raw.items()}


def keyword_of(rules: EngineRules, ability: AbilityDef) -> str:
    """The keyword class of an ability: its `keyword` param, else the class whose words
    hold its name or an alias, else its own name."""
    if ability.params.get("keyword"):
        return str(ability.params["keyword"])
    names = {ability.name.lower(), *(a.lower() for a in ability.aliases)}
    for key, words in keyword_table(rules).items():
        if names & {w.lower() for w in words}:
            return key
    return ability.name.lower()


def _inflect(word: str) -> set[str]:
    out = {word, word + "s", word + "es", word + "ed", word + "d", word + "ing"}
    if word.endswith("e"):
        out.add(word[:-1] + "ing")
    if word.endswith("y"):
        out |= {word[:-1] + "ies", word[:-1] + "ied"}
    return out


def forms(words: Sequence[str]) -> dict[str, str]:
    """Every written form ("heals", "healed", "first aids") -> its base word."""
    out: dict[str, str] = {}
    for w in words:
        parts = w.lower().split()
        for first in _inflect(parts[0]):
            out[" ".join([first, *parts[1:]])] = w
        for last in _inflect(parts[-1]):
            out[" ".join([*parts[:-1], last])] = w
    return out


_PHASE = re.compile(
    r"(?:^|\s)(?:on|during|in|at)?\s*(?:(?P<word>night|day)\s*(?P<n>\d+)|(?P<short>[nd])(?P<m>\d+)"
    r"|(?P<prep>prep(?:aration)?(?: phase)?))\s*$",
    re.IGNORECASE,
)


def find_verb(text: str, rules: EngineRules) -> tuple[int, int, str, str] | None:
    """(start, end, class, verb as written) of the first keyword form in `text`."""
    best: tuple[int, int, str, str] | None = None
    for key, words in keyword_table(rules).items():
        for form in forms(words):
            for m in re.finditer(rf"(?<![\w-]){re.escape(form)}(?![\w-])", text, re.IGNORECASE):
                cand = (m.start(), m.end(), key, m.group(0))
                if best is None or (cand[0], -cand[1]) < (best[0], -best[1]):
                    best = cand
                break
    return best


def split_claim(text: str, rules: EngineRules, *, order: str) -> tuple[str, str]:
    """("Jd-", "heals Parkur") from "Jd- heals Parkur" (or "Abs for killing Kleene ...")."""
    found = find_verb(text, rules)
    if found is None:
        words = ", ".join(keyword_table(rules)) or "none"
        raise MalformedOrderError(
            f"{order!r}: say which action, e.g. \"Jd- heals Parkur\" (actions: {words})"
        )
    start, _end, _key, _verb = found
    subject = re.sub(r"\s+(?:for|of)\s*$", "", text[:start].strip(), flags=re.IGNORECASE)
    return subject.strip(), text[start:].strip()


def parse_claim(
    text: str, rules: EngineRules, split_names: Callable[[str], tuple[str, ...]], *, order: str
) -> Claim:
    """The claim `text` makes ("heals Parkur", "killing Kleene on Night 1"); `split_names`
    reads the players it names (`orders.split_targets` with the game's names)."""
    found = find_verb(text, rules)
    if found is None or found[0] != 0:
        raise MalformedOrderError(f"{order!r}: {text!r} names no action this ruleset knows")
    _start, end, key, verb = found
    rest = text[end:]
    # "heals/first aids Akonyl": the other words for the same action are skipped.
    while True:
        alt = re.match(r"\s*/\s*", rest)
        nxt = find_verb(rest[alt.end():], rules) if alt else None
        if alt is None or nxt is None or nxt[0] != 0 or nxt[2] != key:
            break
        rest = rest[alt.end() + nxt[1]:]
    phase = number = None
    m = _PHASE.search(rest)
    if m:
        if m.group("prep"):
            phase, number = "prep", 0
        elif m.group("word"):
            phase, number = m.group("word").lower(), int(m.group("n"))
        else:
            phase = "night" if m.group("short").lower() == "n" else "day"
            number = int(m.group("m"))
        rest = rest[: m.start()]
    if key in rules.night.get("role_keywords", ()):
        # "Conia disguised as Ran": a character, not a player (a misspelt one stays as
        # written: "Conia disguised as Schinichi" - False).
        name = re.sub(r"^\s*as\s+", "", rest, flags=re.IGNORECASE).strip(" ,")
        return Claim(key, verb, (name,) if name else (), phase, number)
    objects = split_names(rest.strip(" ,"))
    return Claim(key, verb, tuple(objects), phase, number)


def claim_index(rules: EngineRules, phase: str, number: int) -> int:
    """`rules.phase_index`, with the Prep phase before everything (0)."""
    return 0 if phase == "prep" else phase_index(rules, phase, number)


def matching(acts: Sequence[Act], subject: str, claim: Claim) -> list[Act]:
    """The acts of `subject` the claim describes (its class, at least its objects, its phase)."""
    return [
        a
        for a in acts
        if a.actor == subject
        and a.keyword == claim.keyword
        and set(claim.objects) <= set(a.targets)
        and (claim.phase is None or (a.phase, a.number) == (claim.phase, claim.number))
    ]
