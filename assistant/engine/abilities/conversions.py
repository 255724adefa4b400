"""Abilities that change who a player is: conversion to a side; a role stolen
(from a target, the extra card, the night's victim) or taken by abduction (000's
Abductors, Mind Stealer and its robot); a ghost's bond; a character drawn (004's Irish)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from assistant.engine import deaths
from assistant.engine.abilities.claim_checks import role_chosen
from assistant.engine.abilities.sentries import kills_visitors
from assistant.engine.abilities.wording import a_or_an, fmt, role_words
from assistant.engine.rules import phase_index
from assistant.engine.state import ROBOT

if TYPE_CHECKING:
    from assistant.engine.resolution import Action, Resolution


def convert(r: Resolution, a: Action, tier: str) -> None:
    params = a.ability.params
    t = a.targets[0]
    tag = params.get("tag", a.ability.name)
    player = r.state.players[t]
    against = ("all", tag)
    guards = [
        p
        for p in r.protections.get(t, [])
        if any(x in p.ability.params.get("against", ["all"]) for x in against)
    ]
    if not player.alive:
        r.event(tier, a.label(), "wasted", f"{t} was killed during the night")
        return
    race = str(r.state.passive(t, "race", ""))
    if race in params.get("immune_races", ()):
        # 000 Advanced Dopp: "Aliens cannot be Consumed, but the once-per-game limit on
        # the ability is not used up if the Adv. Dopp tries to consume them."
        if params.get("refund_on_immune"):
            used = r.state.players[a.actor].used
            used[a.ability.name] = max(0, used.get(a.ability.name, 0) - 1)
        r.event(tier, a.label(), "fails", f"{t} is {race}: cannot be converted")
        if params.get("result_pm"):
            r.pm_later(a.actor, fmt(params["result_pm"], target=t, result=params["no"]),
                       needs_alive=True)
        return
    if params.get("human_only") and race != "Human":
        r.event(tier, a.label(), "fails", f"{t} is not human")
        r.pm_later(a.actor, fmt(params["result_pm"], target=t, result=params["no"]),
                   needs_alive=True)
        return
    if guards and params.get("guardable", True):
        g = guards[0]
        if g.ability.params.get("sacrifice") and params.get("takes_sacrificial_guard"):
            # 000 Tech Hivemind: "A sacrificial Guard will be converted instead".
            r.event(tier, a.label(), f"converts {g.actor} instead", f"{g.actor} guards {t}")
            t, player = g.actor, r.state.players[g.actor]
        else:
            r.event(tier, a.label(), "wasted", f"{t} is protected by {g.actor}")
            return
    side = str(params["side"])
    if params.get("keeps_role"):
        player.side = side
        player.statuses.add(f"converted-by:{a.actor}")
    else:
        player.side, player.role = side, params.get("role")
    if params.get("strips_items"):
        player.items = []
    if params.get("actor_leaves"):
        r.state.players[a.actor].statuses.add("out")
        r.notes.append(r.say("consumed", actor=a.actor, target=t))
    if params.get("result_pm"):
        r.pm_later(a.actor, fmt(params["result_pm"], target=t, result=params["yes"]),
                   needs_alive=True)
    r.event(tier, a.label(), f"{t} joins the {side}",
            "keeps their role" if params.get("keeps_role") else "loses their old role")
    members = r.state.team(side, but=t)
    r.pm(t, r.say("converted", side=r.rules.side(side).title,
                  members=", ".join(members) or "none"))
    for m in members:
        r.pm(m, r.say("new_member", player=t, side=r.rules.side(side).title))


def race_class(r: Resolution, t: str) -> str:
    """What a Xenozoologist collects: the true race, a psychic human apart."""
    race = str(r.state.passive(t, "race", "Human"))
    role = r.state.role_of(t)
    psychic = role is not None and "Psychic" in role.passives.get("tags", ())
    return f"Psychic {race}" if psychic and race == "Human" else race


def abduct(r: Resolution, a: Action, tier: str) -> None:
    """000 Abduction: a roleblock, and the abducted player is out of play for the night
    (every action aimed at them fails, no vote and no lynch the next day); then what the
    abductor does with them: keep one of each race (Xenozoologist), kill (Organ
    Harvester), take their role (Mind Stealer). A War Vet is not taken and shoots."""
    t = a.targets[0]
    params = a.ability.params
    if kills_visitors(r, t):
        r.event(tier, a.label(), f"does not abduct {t}", f"{t} kills anyone visiting them")
        return
    if deaths.body_double(r, t, tier, "abduction"):
        return
    r.blocked.add(t)
    r.block_kinds.setdefault(t, set()).add("abduction")
    r.jailed.add(t)
    player = r.state.players[t]
    player.day_statuses.update({"roleblocked", "abducted"})
    what = params.get("then", "hold")
    if what == "collect":
        kind = race_class(r, t)
        mine = r.state.players[a.actor].statuses
        if f"has:{kind}" in mine:
            r.event(tier, a.label(), f"abducts {t}",
                    f"already has {a_or_an(kind)}: returned at dawn")
            r.pm_later(a.actor, r.say("abduct_returned", target=t, kind=kind,
                                      a_kind=a_or_an(kind)), needs_alive=True)
            return
        mine.add(f"has:{kind}")
        player.statuses.update({"out", f"abducted-by:{a.actor}"})
        r.event(tier, a.label(), f"abducts {t}", f"{a_or_an(kind)}: kept for study")
        r.pm_later(a.actor, r.say("abduct_kept", target=t, kind=kind, a_kind=a_or_an(kind)),
                   needs_alive=True)
        r.pm(t, r.say("abducted", abductor=a.actor))
        r.public.append(r.say("vanished", player=t))
        wanted = list(params.get("collects", ()))
        if wanted and all(f"has:{k}" in mine for k in wanted):
            mine.update({"out", "won"})
            mark = f"abducted-by:{a.actor}"
            captives = ", ".join(n for n, p in r.state.players.items() if mark in p.statuses)
            r.notes.append(r.say("collection_complete", actor=a.actor, captives=captives))
            r.event(tier, a.label(), f"{a.actor} has one of each and wins", "leaves the game")
    elif what == "kill":
        r.event(tier, a.label(), f"abducts {t}", "to be killed")
        deaths.die(r, t, "nightkill", f"abducted by {a.actor} and killed", (a.actor,), tier)
    elif what == "steal":
        taken = player.role
        r.state.players[a.actor].statuses.add(f"stock:{taken or 'vanilla'}")
        race = str(r.state.passive(t, "race", ""))
        player.role = params.get("alien_becomes") if race == "Alien" else None
        title = r.rules.role(taken).title if taken else r.rules.messages.get("vanilla_title", "")
        now = r.state.role_title(t)
        r.event(tier, a.label(), f"takes {t}'s role ({title})", f"{t} is now {now}")
        r.pm_later(a.actor, r.say("role_stolen_by_you", target=t, role=title), needs_alive=True)
        r.pm(t, r.say("role_stolen", **role_words(r.rules, r.state.role_title(t))))
        _score_theft(r, a, taken, tier)
    else:
        r.event(tier, a.label(), f"abducts {t}", "out of play tonight")


def _score_theft(r: Resolution, a: Action, taken: str | None, tier: str) -> None:
    """000 Mind Stealer: "needs to steal X 'points' worth of Roles to win. Points per role
    will be revealed to the MS during the role PM": the setup's `role_points = { ROLE = N }`
    (a role not listed is worth the ability's `points`, a vanilla player nothing) and
    `points_to_win = X`. Reaching X gives the status "won" ([[win.joins]])."""
    params = a.ability.params
    if not params.get("scores"):
        return
    table = r.state.extra.get("role_points") or {}
    worth = int(table.get(taken, params.get("points", 1))) if taken else 0  # type: ignore[union-attr]
    thief = r.state.players[a.actor]
    thief.used["points"] = thief.used.get("points", 0) + worth
    goal = r.state.extra.get("points_to_win")
    got = thief.used["points"]
    r.event(tier, a.label(), f"{worth} point(s), {got} stolen",
            f"{goal} to win" if goal is not None else "the setup names no points_to_win")
    if goal is not None and got >= int(goal) and "won" not in thief.statuses:  # type: ignore[call-overload]
        thief.statuses.add("won")
        r.notes.append(r.say("points_reached", actor=a.actor, points=got, goal=goal))
        r.pm_later(a.actor, r.say_to(a.actor, "points_reached", actor=a.actor, points=got,
                                     goal=goal),
                   needs_alive=False)


def program(r: Resolution, a: Action, tier: str) -> None:
    """000 Mind Stealer's Robot: "they may give the Robot a Role each day from their
    stockpile. The Robot can use that role in addition to any actions the MS takes": the
    role stands until another is given."""
    role = role_chosen(r, a)
    player = r.state.players[a.actor]
    if role not in r.state.stockpile(a.actor):
        a.failed = f"{r.rules.role(role).title} is not in {a.actor}'s stockpile"
        r.event(tier, a.label(), "fails", a.failed)
        return
    for s in [s for s in player.statuses if s.startswith(ROBOT)]:
        player.statuses.discard(s)
    player.statuses.add(ROBOT + role)
    r.event(tier, a.label(), f"{a.actor}'s robot now has the role {r.rules.role(role).title}")
    r.pm_later(a.actor, r.say("robot_role", role=r.rules.role(role).title), needs_alive=True)


def bond(r: Resolution, a: Action, tier: str) -> None:
    """000 Spirit-bond: the dead player's ghost offers its power; the GM enters the order
    when it is accepted: the target loses their abilities and gains the ghost's."""
    t = a.targets[0]
    ghost_role = r.state.players[a.actor].role
    r.state.players[t].role = ghost_role
    ghost = r.state.players[a.actor]
    ghost.items = [i for i in ghost.items if not r.rules.items.get(i) or "bond" not in
                   r.rules.items[i].abilities]
    r.event(tier, a.label(), f"{t} now has {a.actor}'s power ({r.state.role_title(t)})")
    r.pm(t, r.say("role_now", **role_words(r.rules, r.state.role_title(t))))


def steal(r: Resolution, a: Action, tier: str) -> None:
    source = a.ability.params.get("source", "target")
    if source == "nightkill":
        r.after_night.append(a)
        r.event(tier, a.label(), "waits for the nightkill's victim")
        return
    card = str(r.state.extra.get("extra_card", "")) or None
    if source == "extra":
        _take_role(r, a.actor, card)
        r.event(tier, a.label(), f"takes the extra card ({r.state.role_title(a.actor)})")
    else:
        t = a.targets[0]
        taken = r.state.players[t].role
        _take_role(r, a.actor, taken)
        _take_role(r, t, card)
        r.pm(t, r.say("role_stolen", **role_words(r.rules, r.state.role_title(t))))
        r.event(
            tier,
            a.label(),
            f"takes {t}'s role ({r.state.role_title(a.actor)}); "
            f"{t} becomes {r.state.role_title(t)}",
        )
    r.pm(a.actor, r.say("role_now", **role_words(r.rules, r.state.role_title(a.actor))))


def _take_role(r: Resolution, name: str, role: str | None) -> None:
    player = r.state.players[name]
    player.role = role
    if role is not None and player.side not in r.rules.role(role).sides:
        player.side = r.rules.role(role).sides[0]


def draw_role(r: Resolution, a: Action, tier: str) -> None:
    """004 Abduct: "Irish will Abduct one character that is not played in the game by any
    player. The GM will send him the name of one random town-sided character not in the
    game." The draw is kept so it is never drawn twice, and told to all on the abductor's
    death ("his abducted character(s) will be discovered")."""
    side = str(a.ability.params.get("side", ""))
    taken = {p.role for p in r.state.players.values()}
    drawn = {s.split(":", 1)[1] for p in r.state.players.values() for s in p.statuses
             if s.startswith("drew:")}
    pool = sorted(k for k, role in r.rules.roles.items()
                  if k not in taken | drawn and (not side or role.sides == (side,)))
    mine = r.state.players[a.actor]
    mine.used[f"{a.ability.name}@phase"] = phase_index(r.rules, r.phase, r.number)
    if not pool:
        r.event(tier, a.label(), "nothing to draw", "every such character is in the game")
        return
    role = r.rng.choice(pool)
    mine.statuses.add(f"drew:{role}")
    title = r.rules.role(role).title
    r.event(tier, a.label(), f"draws {title}")
    r.pm_later(a.actor, fmt(a.ability.params["result_pm"], role=title), needs_alive=True)
