"""Disguises and costumes: 000's Holoform (what investigations see) and hologram
(what followers see); 004's costumes chosen by day and worn the next night, and the new
disguise of one freed after a face pinch."""

from __future__ import annotations

from typing import TYPE_CHECKING

from assistant.engine.abilities.claim_checks import role_chosen
from assistant.engine.abilities.wording import fmt
from assistant.engine.rules import phase_index
from assistant.engine.setup import disguise_barred
from assistant.engine.state import (
    COSTUME,
    COSTUME_FOR,
    disguise_act,
    disguise_of,
    drop_disguise,
    wear_disguise,
)

if TYPE_CHECKING:
    from assistant.engine.resolution import Action, Resolution


def disguise(r: Resolution, a: Action, tier: str) -> None:
    """000 Holoform Modulator: investigations see the chosen race and role tonight."""
    race, _, role = str(a.order.choice or "").partition(",")
    r.disguises[a.actor] = {
        "race": race.strip(),
        "role": role.strip() or race.strip(),
        "scan_proof": "no" if a.ability.params.get("fools_scanner") else "yes",
    }
    if not role.strip():
        r.disguises[a.actor].pop("role")
    r.event(tier, a.label(), f"{a.actor} shows as {a.order.choice} tonight")


def hologram(r: Resolution, a: Action, tier: str) -> None:
    """000 Advanced Holoform Modulator: "allows the Alien to project an active hologram. This
    hologram can be shown to go to any location (or stay at home). Anyone following the Alien
    will watch the Hologram instead of the Alien." Targeting oneself: it stays at home. The
    device is used up with it (`spends`: "Once activated it lasts the entire night but is
    used up after that")."""
    place = a.targets[0]
    r.holograms[a.actor] = place
    used = r.state.players[a.actor].used
    for other in a.ability.params.get("spends", ()):
        used[str(other)] = max(used.get(str(other), 0), 1)
    where = "stays at home" if place == a.actor else f"goes to {place}"
    r.event(tier, a.label(), f"{a.actor}'s hologram {where}", "followers watch it")


def new_disguise(r: Resolution, t: str, tier: str) -> None:
    """004 Pinch Face: "Kid and Vermouth will then be assigned a new disguise at random if
    they are released from jail" (the passive `new_disguise_when_freed`): one of the roles
    they may wear (`disguises` sides, not `disguise_bars`) that no player has or wears."""
    player = r.state.players[t]
    sides = set(r.state.passive(t, "disguises") or ())
    taken = {p.role for p in r.state.players.values()}
    taken |= {disguise_of(p) for p in r.state.players.values()}
    pool = sorted(
        k for k, role in r.rules.roles.items()
        if set(role.sides) <= sides and k not in taken
        and not disguise_barred(r.rules, str(player.role), k)
    )
    if not pool:
        r.event(tier, t, "no new disguise", "every role they may wear is in the game")
        return
    role = r.rng.choice(pool)
    wear_disguise(r.rules, player, role)
    title = r.rules.role(role).title
    r.event(tier, t, f"is disguised anew as {title}", "freed after a face pinch")
    if "new_disguise" in r.rules.messages:
        r.pm_later(t, r.say("new_disguise", role=title), needs_alive=True)


def costume(r: Resolution, a: Action, tier: str) -> None:
    """004 Temporary Disguise: "During the day, Yukiko can choose one of the costumes to
    disguise as that role during the next night"; "She can not disguise as the same role
    twice"; the costume's items come and go with it."""
    role = role_chosen(r, a)
    player = r.state.players[a.actor]
    if COSTUME + role not in player.statuses:
        r.event(tier, a.label(), "fails", f"{role} is not one of {a.actor}'s costumes")
        return
    if f"worn:{role}" in player.statuses:
        r.event(tier, a.label(), "fails", f"{a.actor} has worn {role} already")
        return
    drop_disguise(r.rules, player)
    wear_disguise(r.rules, player, role)
    # "the day phase he/she donned the disguise": a crime of this day too.
    act = disguise_act(r.rules, r.phase, r.number, a.actor, role)
    r.extra_acts += [act] if act else []
    night = phase_index(r.rules, r.phase, r.number) + 1
    player.statuses.update({f"worn:{role}", f"{COSTUME_FOR}{night}"})
    r.event(tier, a.label(), f"{a.actor} is disguised as {r.rules.role(role).title} next night")


def choose_costumes(r: Resolution, a: Action, tier: str) -> None:
    """004 Re-choose Disguise: "The Day after Irish/Yukiko used his/her last disguise, he/she
    can re-use Choose Disguise" (the costumes named replace the old; read as any day once
    every costume was worn and none is on); "She can not disguise as the same role twice"
    (a role worn before is refused); "All disguises will be town roles" (the passive
    `costumes`)."""
    player = r.state.players[a.actor]
    held = sorted(s[len(COSTUME):] for s in player.statuses if s.startswith(COSTUME))
    left = [k for k in held if f"worn:{k}" not in player.statuses]
    chosen = [k.strip() for k in str(a.order.choice or "").split(",") if k.strip()]
    sides = set(r.state.passive(a.actor, "costumes") or ())
    why = None
    if left:
        why = f"{a.actor} has costumes not worn yet ({', '.join(left)})"
    elif any(s.startswith(COSTUME_FOR) for s in player.statuses):
        why = f"{a.actor} is wearing the last costume still"
    elif worn := [k for k in chosen if f"worn:{k}" in player.statuses]:
        why = f"{a.actor} has worn {', '.join(worn)} already"
    elif wrong := [k for k in chosen if not set(r.rules.role(k).sides) <= sides]:
        why = f"{', '.join(wrong)}: costumes are roles of {', '.join(sorted(sides))} only"
    if why:
        a.failed = why
        r.event(tier, a.label(), "fails", why)
        return
    player.statuses -= {COSTUME + k for k in held}
    player.statuses |= {COSTUME + k for k in chosen}
    titles = ", ".join(r.rules.role(k).title.split(",")[0] for k in chosen)
    r.event(tier, a.label(), f"{a.actor}'s costumes are now {titles}")
    if a.ability.params.get("result_pm"):
        r.pm_later(a.actor, fmt(a.ability.params["result_pm"], roles=titles), needs_alive=True)
