"""How the abilities word what they tell: a ruleset's template filled in, a noun with
its article, the name the ruleset gives an ability."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from assistant.engine.resolution import Action
    from assistant.engine.rules import EngineRules


def fmt(template: object, **values: object) -> str:
    """A ruleset's wording (`result_pm`, `text`, `target_pm`...) with the values filled in."""
    return str(template).format(**values)


def the_role(rules: EngineRules, title: str) -> str:
    """A role title as a PM names it, as the dawn does (drafts.Reveal): "the Seer", a
    vanilla one with the ruleset's article ("a Peasant", 002's bare "Vanilla"), a
    character's name bare ("Ran, Protector")."""
    if title == rules.messages.get("vanilla_title", "Vanilla"):
        article = rules.messages.get("vanilla_article", "")
        return f"{article} {title}" if article else title
    if any(r.character for r in rules.roles.values() if r.title == title):
        return title
    return f"the {title}"


def role_words(rules: EngineRules, title: str) -> dict[str, str]:
    """A role for a ruleset sentence: `{role}` the title, `{the_role}` as posts name it."""
    return {"role": title, "the_role": the_role(rules, title)}


def a_or_an(noun: str) -> str:
    """The noun with its article, as a GM writes it: "an Anti-Tech Field", "an Alien"."""
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def noun_of(a: Action) -> str:
    """The ruleset's name of the ability ("Hex of Death"), else its order word."""
    return str(a.ability.params.get("noun", a.ability.name))
