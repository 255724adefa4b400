"""How the abilities word what they tell: a ruleset's template filled in, a noun with
its article, the name the ruleset gives an ability."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from assistant.engine.resolution import Action


def fmt(template: object, **values: object) -> str:
    """A ruleset's wording (`result_pm`, `text`, `target_pm`...) with the values filled in."""
    return str(template).format(**values)


def a_or_an(noun: str) -> str:
    """The noun with its article, as a GM writes it: "an Anti-Tech Field", "an Alien"."""
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def noun_of(a: Action) -> str:
    """The ruleset's name of the ability ("Hex of Death"), else its order word."""
    return str(a.ability.params.get("noun", a.ability.name))
