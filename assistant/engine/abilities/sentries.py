"""Kills on visit (000's War Vet and Sentry Guns): a visit to an armed holder is
decided before the tier's effects and shot after the visitor's own; the holder may hold
fire for a night, or let the trusted pass."""

from __future__ import annotations

from typing import TYPE_CHECKING

from assistant.engine import deaths
from assistant.engine.abilities.watching import reached, visits

if TYPE_CHECKING:
    from assistant.engine.resolution import Action, Resolution


def trust(r: Resolution, a: Action, tier: str) -> None:
    r.event(tier, a.label(), "done")


def apply_trust(r: Resolution) -> None:
    """000 Sentry Guns: "safe passage to people that the Mad Scientist deems trustworthy",
    night by night; set before any visit is shot at."""
    for a in r.actions:
        if a.kind == "trust" and not a.done:
            a.done, a.stayed = True, True
            r.trusted.setdefault(a.actor, set()).update(a.targets)
            r.event(a.tier, a.label(), f"{', '.join(a.targets)} may pass tonight")


def kills_visitors(r: Resolution, name: str) -> bool:
    """Whether `name`'s `kill_on_visit` passive is armed now: a night, alive, not switched
    off for the night by its holder, not roleblocked (000 War Vet)."""
    return (
        r.phase == "night"
        and bool(r.state.passive(name, "kill_on_visit"))
        and r.state.players[name].alive
        and (name, "kill_on_visit") not in r.suspended
        and name not in r.blocked
        and "sentry-spent" not in r.state.players[name].statuses
    )


def visit_kills(r: Resolution, acts: list[Action]) -> list[tuple[Action, str]]:
    """(visitor's action, holder) for every visit of `acts` that reaches an armed holder,
    decided before the tier's effects: the holder fires on the visitor's turn, and a block
    landing in the same tier does not save its performer. An ability with
    `triggers_visit_kill = false` (000's Stun Orb) passes unharmed."""
    shots = []
    for a in acts:
        if not visits(a) or not a.ability.params.get("triggers_visit_kill", True):
            continue
        for t in sorted(reached(r, a) - {a.actor}):
            if kills_visitors(r, t) and a.actor not in r.trusted.get(t, set()):
                shots.append((a, t))
    return shots


def fire_visit_kills(r: Resolution, shots: list[tuple[Action, str]], tier: str) -> None:
    """Land the shots after the visitors' own actions took effect (a deadly visitor and the
    holder both die)."""
    for a, holder in shots:
        if not r.state.players[a.actor].alive:
            continue
        if r.state.passive(holder, "kill_on_visit") == "once":
            # 000 Sentry Guns: "only works for one night once triggered".
            r.state.players[holder].statuses.add("sentry-spent")
        if r.state.passive(a.actor, "nightkill_immune"):
            r.event(tier, f"{holder} ({r.state.role_title(holder)})", f"shoots {a.actor}",
                    f"{a.actor} cannot be nightkilled")
            continue
        r.event(
            tier,
            f"{holder} ({r.state.role_title(holder)})",
            f"kills {a.actor}",
            f"{a.label()} visited them",
        )
        deaths.die(
            r,
            a.actor,
            "nightkill",
            f"visited {holder} ({r.state.role_title(holder)}), who kills anyone visiting them",
            (holder,),
            tier,
        )


def apply_suspensions(r: Resolution) -> None:
    """The War Vet's "hold fire": the named passive is off for the whole night, from its start.
    Not a visit (the holder stays home) and not stopped by a roleblock, which would take
    the power away anyway."""
    for a in r.actions:
        if a.kind != "suspend" or a.done:
            continue
        a.done, a.stayed = True, True
        passive = str(a.ability.params["passive"])
        if not r.state.players[a.actor].alive:
            r.event(a.tier, a.label(), "fails", "the actor is dead")
            continue
        r.state.spend(a.actor, a.ability)
        r.suspended.add((a.actor, passive))
        r.event(a.tier, a.label(), f"{a.actor}'s {passive} is off tonight")
