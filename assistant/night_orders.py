"""When a night's orders are all in: the moment 000's night ends early.

"Nights will last for 24 hours or until I've heard from each player with a night role"
(seed 000). The GM enters orders with `assistant order` (GM inputs of kind "order") and
the setup with `assistant roles`; this module reads those facts through the engine's
replay, read-only, and says who still owes an order and when the last one came in.

Who owes one: every living player whose role has an ability usable this night (by its
first / last night, uses left, and not resting after a protection), and every side with
a night ability and a living member (one order for the side, carried by any member:
the doppelgangers' kill). A night where nobody owes anything never "ends by orders":
the GM's deadline stands.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from assistant.engine.history import ORDER, ROLES, replay
from assistant.engine.rules import AbilityDef, EngineRules, load_engine_rules
from assistant.engine.state import GameState
from assistant.errors import ConfigError
from assistant.game import Phase
from assistant.models import from_iso

NO_ORDER = "no_order"
"""The GM input of "Conia: none" (`order`): the actor takes no action that night, so a night
that ends when every order is in does not wait for them."""


@dataclass(frozen=True)
class OrdersStatus:
    """Who owes an order this night, who sent one, and when the last needed one came in."""

    owed: tuple[str, ...]
    """"Conia" for a player's role order, "side:doppelgangers" for a side's order."""
    missing: tuple[str, ...]
    all_in_at: datetime | None
    """When the last owed order was entered (not before the night began); None until all are in."""


def night_orders_status(
    ruleset: Any, inputs: list[dict[str, Any]], phase: Phase
) -> OrdersStatus | None:
    """The orders of night `phase.number`; None when the game has no setup (no roles known).
    `ruleset`: the game's ruleset or its `EngineRules`."""
    if phase.kind != "night" or not any(i["kind"] == ROLES for i in inputs):
        return None
    rules = load_engine_rules(ruleset)
    owed, missing = _owed_and_missing(rules, inputs, phase.number)
    if owed is None:
        return None
    all_in_at = None
    if owed and not missing:
        # The first moment it was true: after an order, or after a death that left no one
        # owing (a modkilled role player's order is no longer awaited).
        for k in range(1, len(inputs) + 1):
            if inputs[k - 1]["kind"] == ROLES:
                continue
            owed_k, missing_k = _owed_and_missing(rules, inputs[:k], phase.number)
            if owed_k and not missing_k:
                entered = from_iso(inputs[k - 1]["entered_at"])
                all_in_at = max(entered, phase.starts_at) if entered else phase.starts_at
                break
    return OrdersStatus(tuple(owed), tuple(missing), all_in_at)


def _owed_and_missing(
    rules: EngineRules, inputs: list[dict[str, Any]], night: int
) -> tuple[list[str] | None, list[str]]:
    if not any(i["kind"] == ROLES for i in inputs):
        return None, []
    try:
        state = replay(rules, inputs).state
    except ConfigError:
        return None, []
    owed = owed_orders(state, night)
    sent = _first_orders(inputs, night)
    return owed, [need for need in owed if need not in sent]


def owed_orders(state: GameState, night: int) -> list[str]:
    """Who must send an order on `night`, in setup order (players first, then sides)."""
    out = []
    for player in state.living():
        if f"rests:night{night}" in player.statuses:
            continue
        abilities = state.abilities_of(player.name).values()
        if any(_usable(state, player.name, a, night) for a in abilities):
            out.append(player.name)
    for key, side in state.rules.sides.items():
        night_abilities = [a for a in side.abilities.values() if a.phase in ("night", "any")]
        if night_abilities and state.side_members(key):
            out.append(f"side:{key}")
    return out


def _usable(state: GameState, name: str, ability: AbilityDef, night: int) -> bool:
    if ability.phase not in ("night", "any") or ability.params.get("after_death"):
        return False
    if ability.params.get("optional"):
        return False  # 000's trade, repair, safe passage: nobody waits for them
    if night < ability.first_night:
        return False
    if ability.last_night is not None and night > ability.last_night:
        return False
    if ability.params.get("until_lovers") and state.lovers:
        return False
    left = state.uses_left(name, ability)
    return left is None or left > 0


def _first_orders(inputs: Iterable[Mapping[str, Any]], night: int) -> dict[str, datetime]:
    """For each player (role orders) and side (side orders): when its first order of `night`
    was entered. Orders entered before the latest setup do not count (replay drops them)."""
    setups = [i["seq"] for i in inputs if i["kind"] == ROLES]
    after = max(setups) if setups else 0
    out: dict[str, datetime] = {}
    for inp in inputs:
        data = inp["data"]
        if inp["kind"] not in (ORDER, NO_ORDER) or inp["seq"] <= after:
            continue
        if data.get("phase") != "night" or int(data.get("number", -1)) != night:
            continue
        key = f"side:{data['side']}" if data.get("side") else str(data["actor"])
        at = from_iso(inp["entered_at"])
        if at is not None and (key not in out or at < out[key]):
            out[key] = at
    return out
