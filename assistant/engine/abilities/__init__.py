"""The ability kinds, each implemented once in the module of its family; roles in
rulesets/*.toml combine them, and `HANDLERS` below says which function handles each kind.

A handler gets the resolution, the action and the tier, and records its effect and an
event. Kills are only collected here; `deaths.resolve_kills` lands them together.

The families, each a module of this package: `blocking` (blocks and redirection),
`reach` (whether an action happens at all), `kills` (protection and kills), `sentries`
(kills on visit), `poison` (poison and wards), `bombs` (the explosive vest),
`investigations` (what investigations see), `claim_checks` (yes or no to a claim named),
`watching` (visits, watchers, followers), `arrests` (004's police), `disguises`
(disguises and costumes), `items` (items and loans), `conversions` (a side or a role
changed), `groups` (groups, ranks and sides), `lovers` (lovers and friends), `marks`
(hexes and words said aloud), `night_end` (what the end of the night brings); `wording`
words their messages. They import only from each other downwards (tests/
test_module_layout.py checks there is no circle) and from `resolution` for their types.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from assistant.engine.abilities import (
    arrests,
    blocking,
    bombs,
    conversions,
    disguises,
    groups,
    investigations,
    items,
    kills,
    lovers,
    marks,
    poison,
    sentries,
    watching,
)

if TYPE_CHECKING:
    from assistant.engine.resolution import Action, Resolution

Handler = Callable[["Resolution", "Action", str], None]


def nothing(r: Resolution, a: Action, tier: str) -> None:
    """For kinds whose work is done elsewhere: before the tiers (a boost, a bribe, a hold
    fire, a gift), or by `deaths` (a shot after death, a turn); the log says it was done."""
    r.event(tier, a.label(), "done")


#: Every ability kind (`kind = "..."` in a ruleset; rules.KINDS) and its handler.
HANDLERS: dict[str, Handler] = {
    # blocks and redirection
    "block": blocking.block,
    "redirect": blocking.redirect,
    "hamedo": blocking.hamedo,
    "control": blocking.control,
    "pulse": blocking.pulse,
    "repair": blocking.repair,
    "detain": blocking.detain,
    "travel": blocking.travel,
    # protection and kills
    "protect": kills.protect,
    "heal": kills.protect,
    "kill": kills.kill,
    "plasma": kills.plasma,
    "erase": kills.erase,
    "boost": nothing,  # kills.apply_boosts, before the tiers
    "bribe": nothing,  # kills.apply_bribes, before the tiers
    "trust": sentries.trust,
    "suspend": nothing,  # sentries.apply_suspensions, before the tiers
    "poison": poison.poison,
    "ward": poison.ward,
    "bomb": bombs.bomb,
    "disarm": bombs.disarm,
    "shoot": nothing,  # deaths: a shot fired on death
    "turn": nothing,  # deaths: a turn chosen instead of dying
    # investigations and what they see
    "investigate": investigations.investigate,
    "forge": investigations.forge,
    "invert": investigations.invert,
    "analyze": investigations.analyze,
    "sample_role": investigations.sample_role,
    "watch": watching.watch,
    "follow": watching.follow,
    "sneak": watching.sneak,
    "plant": watching.plant,
    # arrests
    "arrest": arrests.arrest,
    "search": arrests.search,
    "unmask": arrests.unmask,
    "release": arrests.release,
    "blame": arrests.blame,
    # disguises and costumes
    "disguise": disguises.disguise,
    "hologram": disguises.hologram,
    "costume": disguises.costume,
    "choose_costumes": disguises.choose_costumes,
    # items and loans
    "give": nothing,  # items: passed on as the orders are collected (Resolver.collect)
    "take_item": items.take_item,
    "build": items.build,
    "fake": items.fake,
    # a side or a role changed
    "convert": conversions.convert,
    "steal": conversions.steal,
    "abduct": conversions.abduct,
    "program": conversions.program,
    "bond": conversions.bond,
    "draw_role": conversions.draw_role,
    # groups, ranks and sides
    "cover": groups.cover,
    "betray": groups.betray,
    # lovers and friends
    "lovers": lovers.lovers,
    "befriend": lovers.befriend,
    # marks and words said aloud
    "hex": marks.hex_,
    "announce": marks.announce,
    "revive": marks.revive,
    "exorcise": marks.exorcise,
    "discard": marks.status,
    "test": marks.test,
    "none": nothing,
}

#: Kinds handled first in their tier: they change what the tier's others see.
_FIRST_IN_TIER = frozenset({"invert", "blame", "fake"})
#: Kinds handled last in their tier: they report what the others did.
_LAST_IN_TIER = frozenset({"betray"})


def within_tier_key(a: Action) -> tuple[int, str]:
    """Order of handling inside a tier (effects are still simultaneous): what changes the
    others' view (a slander) first, then finders."""
    if a.kind in _FIRST_IN_TIER or a.ability.params.get("first_in_tier"):
        return (0, a.actor)
    if a.kind in _LAST_IN_TIER:
        return (3, a.actor)
    return (1 if a.ability.params.get("field") == "is_role" else 2, a.actor)
