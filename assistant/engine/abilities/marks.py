"""Marks a player carries and words said aloud: hexes (a death later, telepathy, a
lasting infection, a day's mark), announcements, revivals, exorcisms, holy water, a power
discarded."""

from __future__ import annotations

from typing import TYPE_CHECKING

from assistant.engine.abilities.blocking import DAY_BLOCK
from assistant.engine.abilities.investigations import visible
from assistant.engine.abilities.wording import fmt, noun_of

if TYPE_CHECKING:
    from assistant.engine.resolution import Action, Resolution


def hex_(r: Resolution, a: Action, tier: str) -> None:
    params = a.ability.params
    t = a.targets[0]
    player = r.state.players[t]
    name = params["hex"]
    if name == "death":
        r.state.pending.append(
            {
                "player": t,
                "night": r.number + int(params.get("after_nights", 2)),
                "cause": f"{noun_of(a)} cast by {a.actor}",
                "then": a.actor,
                "then_cause": f"{a.actor}'s own {noun_of(a)}",
            }
        )
    elif name == "telepathy":
        player.statuses.add(f"telepathy:{a.actor}")
        r.pm_later(
            a.actor,
            fmt(params["result_pm"], target=t, result=visible(r, t, "alignment")),
            needs_alive=False,
        )
    elif params.get("lasting"):
        # 000 Infester's spores stay; "Guards may protect the target, and will be effected
        # as normal for the guard type": a sacrificial guard is infected instead.
        guards = r.protections.get(t, [])
        if guards and guards[0].ability.params.get("sacrifice"):
            t, player = guards[0].actor, r.state.players[guards[0].actor]
        elif guards:
            r.event(tier, a.label(), "wasted", f"{t} is protected by {guards[0].actor}")
            return
        player.statuses.add(name)
    else:
        player.day_statuses.add(f"{name}:{a.actor}" if params.get("names_caster") else name)
        if params.get("through_day"):
            # 004 Frighten: "The Frightened player can't use his ability the next day."
            player.day_statuses.add(DAY_BLOCK)
    if params.get("target_pm"):
        r.pm_later(t, fmt(params["target_pm"], target=t), needs_alive=True)
    r.event(tier, a.label(), f"{t} is under the {noun_of(a)}")


def announce(r: Resolution, a: Action, tier: str) -> None:
    params = a.ability.params
    text = fmt(
        params.get("text", "{actor}: {ability}"),
        actor=a.actor,
        ability=a.ability.name,
        target=", ".join(a.targets),
    )
    (r.public if params.get("public") else r.notes).append(text)
    if params.get("dies_after_nights"):
        # 000 Bloom: "If the SS is not lynched, then it will die the following night".
        r.state.pending.append(
            {
                "player": a.actor,
                "night": r.number + int(params["dies_after_nights"]),
                "cause": f"{a.actor}'s {noun_of(a)}: not lynched the day after",
            }
        )
    r.event(tier, a.label(), "announced" if params.get("public") else "noted for the GM", text)


def revive(r: Resolution, a: Action, tier: str) -> None:
    t = a.targets[0]
    player = r.state.players[t]
    player.alive, player.death = True, None
    r.public.append(fmt(a.ability.params["text"], actor=a.actor, target=t))
    r.event(tier, a.label(), f"{t} is alive again")


def exorcise(r: Resolution, a: Action, tier: str) -> None:
    t = a.targets[0]
    if not r.state.passive(t, "exorcisable"):
        r.event(tier, a.label(), "no effect", f"{t} is neither a Ghost nor a Zombie")
        return
    r.state.players[t].statuses.add("exorcised")
    r.state.players[t].role = None
    r.public.append(fmt(a.ability.params["text"], actor=a.actor, target=t))
    r.event(tier, a.label(), f"{t} is removed from the game")


def status(r: Resolution, a: Action, tier: str) -> None:
    """Set a named status on the actor (the Imaginary Friend discards its power)."""
    r.state.players[a.actor].statuses.add(str(a.ability.params["status"]))
    r.event(tier, a.label(), f"{a.actor} is now {a.ability.params['status']}")


def test(r: Resolution, a: Action, tier: str) -> None:
    t = a.targets[0]
    verdict = str(r.state.passive(t, "holy_water", a.ability.params.get("default", "innocent")))
    r.public.append(fmt(a.ability.params["text"], actor=a.actor, target=t, result=verdict))
    r.state.players[t].day_statuses.add(f"tested:{verdict}")
    r.event(tier, a.label(), f"{t} is {verdict}")
