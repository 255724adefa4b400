"""The ability kinds, each implemented once; roles in rulesets/*.toml combine them.

A handler gets the resolution, the action and the tier, and records its effect and
an event. Kills are only collected here; `deaths.resolve_kills` lands them together.
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
    r.event(tier, a.label(), "done")


HANDLERS: dict[str, Handler] = {
    "block": blocking.block,
    "redirect": blocking.redirect,
    "hamedo": blocking.hamedo,
    "protect": kills.protect,
    "heal": kills.protect,
    "kill": kills.kill,
    "convert": conversions.convert,
    "investigate": investigations.investigate,
    "forge": investigations.forge,
    "watch": watching.watch,
    "follow": watching.follow,
    "hex": marks.hex_,
    "lovers": lovers.lovers,
    "steal": conversions.steal,
    "announce": marks.announce,
    "revive": marks.revive,
    "exorcise": marks.exorcise,
    "discard": marks.status,
    "suspend": nothing,
    "test": marks.test,
    "boost": nothing,
    "none": nothing,
    "turn": nothing,
    "shoot": nothing,
    "sneak": watching.sneak,
    "abduct": conversions.abduct,
    "arrest": arrests.arrest,
    "control": blocking.control,
    "give": nothing,
    "repair": blocking.repair,
    "pulse": blocking.pulse,
    "disguise": disguises.disguise,
    "hologram": disguises.hologram,
    "build": items.build,
    "program": conversions.program,
    "plasma": kills.plasma,
    "bond": conversions.bond,
    "trust": sentries.trust,
    "plant": watching.plant,
    "poison": poison.poison,
    "bomb": bombs.bomb,
    "disarm": bombs.disarm,
    "befriend": lovers.befriend,
    "ward": poison.ward,
    "invert": investigations.invert,
    "take_item": items.take_item,
    "draw_role": conversions.draw_role,
    "release": arrests.release,
    "unmask": arrests.unmask,
    "travel": blocking.travel,
    "search": arrests.search,
    "blame": arrests.blame,
    "erase": kills.erase,
    "bribe": nothing,
    "cover": groups.cover,
    "fake": items.fake,
    "betray": groups.betray,
    "costume": disguises.costume,
    "choose_costumes": disguises.choose_costumes,
    "sample_role": investigations.sample_role,
    "detain": blocking.detain,
    "analyze": investigations.analyze,
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
