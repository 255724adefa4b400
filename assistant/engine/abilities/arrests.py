"""Arrests (004's police): for a crime named, checked against what was done (a false
accusation suspends the officer); by house search or face pinch; a lawsuit frees; Blame
plants a crime. Officers off duty (suspended, injured) for some phases."""

from __future__ import annotations

from typing import TYPE_CHECKING

from assistant.engine import claims, deaths
from assistant.engine.abilities.claim_checks import order_claim, role_named, worn_then
from assistant.engine.abilities.disguises import new_disguise
from assistant.engine.claims import Act, Claim
from assistant.engine.state import COSTUME, COSTUME_FOR, disguise_of, drop_disguise

if TYPE_CHECKING:
    from assistant.engine.resolution import Action, Resolution
    from assistant.engine.state import PlayerState


#: The status an arrest leaves (004): the player acts no more and every action on them fails.
ARRESTED = "arrested"


#: Statuses "NAME-until:K": off duty up to phase K (`claims.phase_index`), and the block kind.
OFF_DUTY = {"suspended": "suspension", "injured": "injury"}


def off_duty(player: PlayerState, index: int) -> list[str]:
    """The block kinds keeping `player` from acting in phase `index` (004: "Police that
    attempt to arrest someone and are unsuccessful will be suspended for two phases")."""
    out = []
    for s in player.statuses:
        name, _, until = s.partition("-until:")
        if name in OFF_DUTY and until.isdigit() and index <= int(until):
            out.append(OFF_DUTY[name])
    return out


def take_off_duty(r: Resolution, who: str, status: str, phases: int) -> None:
    """`who` is off duty (suspended, temporarily injured) for the next `phases` phases and
    acts no more and gets no results in this one."""
    r.state.players[who].statuses.add(f"{status}-until:{r.index + phases}")
    r.blocked.add(who)
    r.block_kinds.setdefault(who, set()).add(OFF_DUTY[status])
    r.silenced.add(who)


def arrest_refused(r: Resolution, a: Action, t: str) -> tuple[str, bool] | None:
    """Why an arrest for the crime named fails, and whether the officer is suspended for
    it, or None: 004 "Needs to accuse a player for a specific crime during a specific past
    phase"; "it CANNOT be in the same phase"; "You can't arrest someone for the same crime
    twice"."""
    claim = order_claim(r, a)
    said = claim.text(t)
    if claim.keyword in r.rules.night.get("role_keywords", ()):
        return _disguise_arrest_refused(r, a, t, claim)
    if claim.phase is None:
        return "no phase named for the crime", True
    if claims.claim_index(r.rules, claim.phase, claim.number or 0) >= r.index:
        return "the crime named is not from a past phase", True
    done = r.state.extra.setdefault("arrested_for", [])
    found = [x for x in claims.matching(r.state.acts, t, claim) if x.crime and x.succeeded]
    if found and all(x.blamed for x in found) and r.state.passive(a.actor, "no_blamed_arrests"):
        # 004: "The BO can't arrest someone for a blamed action in any way. But a town player,
        # that is a lover with a BO, can" (a side passive of the Black Org).
        return f"{said}: {a.actor} may not arrest anyone for a blamed action", True
    if not found:
        return f"{said}: no such crime was committed", True
    key = f"{t}|{found[0].keyword}|{','.join(found[0].targets)}|{found[0].phase}{found[0].number}"
    if key in done:  # type: ignore[operator]
        return f"{said}: already arrested for this crime once", True
    done.append(key)  # type: ignore[union-attr]
    return None


def _disguise_arrest_refused(
    r: Resolution, a: Action, t: str, claim: Claim
) -> tuple[str, bool] | None:
    """004 "Arrest Sebolains for disguising as Megure on Night 3": the disguise named was
    worn in the phase named (a Prep disguise from the Prep phase until it is lost, a costume
    the day it was donned and the night it was worn: `GameState.acts`). With no phase
    named, a Prep disguise still worn holds ("it is to the policeman's advantage to provide
    a specific phase"), but a costume does not: "If no time is given during the arrest
    attempt, the arrest attempt will "fail" even if the correct disguise is given, because
    the order wasn't given correctly. There will be no suspension for that." A disguise
    still worn is lost ("Kid/Vermouth lose their disguise if ... arrested for being
    disguised")."""
    said = claim.text(t)
    player = r.state.players[t]
    worn = disguise_of(player)
    named = role_named(r, a, claim)
    costume = any(s.startswith(COSTUME_FOR) for s in player.statuses)
    if claim.phase is None:
        if costume or (worn is None and any(s.startswith(COSTUME) for s in player.statuses)):
            return f"{said}: no time given for a costume's disguise (no suspension)", False
        if worn is None or worn != named:
            return f"{said}: {t} is not disguised so", True
        key = f"{t}|disguise|{named}"
    else:
        when = claims.claim_index(r.rules, claim.phase, claim.number or 0)
        if when >= r.index:
            return "the crime named is not from a past phase", True
        if not worn_then(r, t, claim, named):
            return f"{said}: {t} was not disguised so then", True
        key = f"{t}|disguise|{named}|{claim.phase}{claim.number}"
    done = r.state.extra.setdefault("arrested_for", [])
    if key in done:  # type: ignore[operator]
        return f"{said}: already arrested for this crime once", True
    done.append(key)  # type: ignore[union-attr]
    if worn is not None and worn == named:
        drop_disguise(r.rules, player)
        r.disguises.pop(t, None)
    return None


def arrest(r: Resolution, a: Action, tier: str) -> None:
    """004 Arrest: resolved before everything else, so the arrested player's own actions
    of the phase fail; they stay in the game (they talk) but are "out" for the win, and
    their role is not revealed ("The role of the arrested player will not be revealed").
    With `claim = true` the crime named is checked against what was done: a false
    accusation suspends the officer (`suspension` phases); a target with the passive
    `resists_arrest` (004's snipers, when not injured) is arrested, named with their
    character, and the officer is injured for `resist_injury` phases."""
    t = a.targets[0]
    params = a.ability.params
    if not r.state.players[t].alive:
        # 004 vest: "the arrest would never take place and they would die as a result of the
        # explosion instead. The police officer would not be suspended either way".
        r.event(tier, a.label(), "fails", f"{t} is dead")
        return
    if params.get("claim") and a.order.choice:
        refused = arrest_refused(r, a, t)
        if refused and not refused[1]:
            r.event(tier, a.label(), "fails", refused[0])
            if "action_failed" in r.rules.messages:
                r.pm_later(a.actor, r.say("action_failed"), needs_alive=True)
            return
        if refused:
            phases = int(params.get("suspension", 2))
            take_off_duty(r, a.actor, "suspended", phases)
            r.event(tier, a.label(), "fails", f"{refused[0]}: {a.actor} is suspended")
            r.public.append(r.say("arrest_failed"))
            _tell_suspended(r, a.actor, "arrest_wrong", target=t, phases=phases)
            return
    elif params.get("claim"):
        r.notes.append(
            f"{a.label()}: no crime named, so the arrest is not checked; enter it as "
            f'"{a.actor}: {a.ability.name} {t} for killing NAME on Night N" to check it'
        )
    resists = r.state.passive(t, "resists_arrest") and deaths.revenge_holds(r.state, t)
    r.blocked.add(t)
    r.block_kinds.setdefault(t, set()).add("arrest")
    r.jailed.add(t)
    r.state.players[t].statuses.update({ARRESTED, "out"})
    r.event(tier, a.label(), f"arrests {t}", "out of the game: their actions and any on them fail")
    if resists:
        # 004: "the police officer becomes injured for two phases but, due to their
        # resisting arrest, the player arrested is announced with their identity".
        take_off_duty(r, a.actor, "injured", int(params.get("resist_injury", 2)))
        r.event(tier, a.label(), f"{t} resists arrest", f"{a.actor} is injured")
        r.public.append(
            r.say("arrest_resisted", player=t, role=r.state.role_title(t).split(",")[0])
        )
        return
    r.public.append(r.say("arrested", player=t))
    r.pm_later(a.actor, r.say("arrest_done", target=t), needs_alive=False)


def release(r: Resolution, a: Action, tier: str) -> None:
    """004 Lawsuit: "Can bring back anyone who has been arrested with a lawsuit. There will
    be a message that the imprisoned player is out of prison." Reaches the arrested
    (`reaches_jailed`); of anyone else it has no effect."""
    t = a.targets[0]
    player = r.state.players[t]
    if ARRESTED not in player.statuses:
        r.event(tier, a.label(), "no effect", f"{t} is not arrested")
        return
    player.statuses -= {ARRESTED, "out"}
    r.public.append(r.say("released"))
    r.pm_later(t, r.say("released_you"), needs_alive=True)
    r.event(tier, a.label(), f"{t} is out of prison")
    if UNMASKED in player.statuses:
        player.statuses.discard(UNMASKED)
        new_disguise(r, t, tier)


#: The status of a disguiser a face pinch unmasked, who gets a new disguise when freed.
UNMASKED = "unmasked"


def unmask(r: Resolution, a: Action, tier: str) -> None:
    """004 Pinch Face: "If the player is not in disguise, the action will return a false";
    if they are, "they will be automatically arrested, then stripped of their disguise and
    their action for that phase will fail. Nakamori will learn that the player was in
    disguise and also which disguise it was." "The target will be notified that they were
    pinched"."""
    t = a.targets[0]
    player = r.state.players[t]
    r.state.players[a.actor].used[f"{a.ability.name}#"] = r.number
    r.pm_later(t, r.say("pinched"), needs_alive=True)
    worn = drop_disguise(r.rules, player)
    if worn is None:
        r.event(tier, a.label(), f"{t} is not in disguise")
        r.pm_later(a.actor, r.say("pinch_false", target=t), needs_alive=True)
        return
    title = r.rules.role(worn).title
    r.disguises.pop(t, None)
    if r.state.passive(t, "new_disguise_when_freed"):
        player.statuses.add(UNMASKED)
    r.blocked.add(t)
    r.block_kinds.setdefault(t, set()).add("arrest")
    r.jailed.add(t)
    player.statuses.update({ARRESTED, "out"})
    r.public.append(r.say("arrested", player=t))
    r.pm_later(a.actor, r.say("pinch_true", target=t, role=title), needs_alive=True)
    r.event(tier, a.label(), f"{t} was disguised as {title}: arrested",
            "auto-arrest: their actions this phase fail")


def search(r: Resolution, a: Action, tier: str) -> None:
    """004 House Search: "This will reveal all crimes the target made." A crime of a past
    phase (a blamed one too), or a disguise worn, and "the target is Auto-Arrested on the
    same phase"; none, and the officer is suspended (`suspension` phases) and loses the
    ability for good; a crime the target is about to commit this phase is hindered ("The
    crime, however, will be hindered and Auto-arrest won't happen")."""
    t = a.targets[0]
    params = a.ability.params
    found = [x for x in r.state.acts if x.actor == t and x.crime and x.succeeded]
    disguised = str((r.rules.night.get("disguise_act") or {}).get("keyword", ""))
    lines = [f"{x.keyword} {', '.join(x.targets)} on {x.phase.title()} {x.number}".replace(
        "  ", " ") for x in found if x.keyword != disguised]
    # Disguises, past ones too ("House-search will lead to Yukikos arrest, if she disguised
    # already during the game"), once each.
    worn = [w for x in found if x.keyword == disguised for w in x.targets if w in r.rules.roles]
    worn += [w] if (w := disguise_of(r.state.players[t])) is not None else []
    for role in dict.fromkeys(worn):
        lines.append(f"disguising as {r.rules.role(role).title.split(',')[0]}")
    if not lines:
        for b in r.actions:
            if b.actor == t and not b.done and b.ability.params.get("crime"):
                b.done, b.failed = True, f"hindered by {a.actor}'s house search"
                r.event(tier, b.label(), "fails", b.failed)
        phases = int(params.get("suspension", 2))
        take_off_duty(r, a.actor, "suspended", phases)
        r.state.players[a.actor].statuses.add(f"lost:{a.ability.name}")
        r.public.append(r.say("arrest_failed"))
        r.event(tier, a.label(), "finds no crime", f"{a.actor} is suspended and loses it")
        _tell_suspended(r, a.actor, "search_empty", target=t, phases=phases)
        return
    drop_disguise(r.rules, r.state.players[t])  # "Kid/Vermouth lose their disguise if ...
    r.disguises.pop(t, None)  # house searched"
    r.blocked.add(t)
    r.block_kinds.setdefault(t, set()).add("arrest")
    r.jailed.add(t)
    r.state.players[t].statuses.update({ARRESTED, "out"})
    r.public.append(r.say("arrested", player=t))
    r.pm_later(a.actor, r.say("search_found", target=t, crimes="; ".join(lines)),
               needs_alive=True)
    r.event(tier, a.label(), f"finds {len(lines)} crime(s): {t} is arrested", "; ".join(lines))


def _tell_suspended(r: Resolution, officer: str, key: str, **values: object) -> None:
    """The officer is told why they are suspended (004: "All GMs should be certain to send
    all notifications to all relevant parties"): a notice, not a result, so it reaches them
    on the phase they are suspended ("Injured/suspended people do not recieve results")."""
    if key in r.rules.messages:
        r.pm_later(officer, r.say(key, **values), needs_alive=True, own=False)


def blame(r: Resolution, a: Action, tier: str) -> None:
    """004 Blame: "Any investigations for the blamed action will come back as "true", and
    the townie may be arrested for the blamed action as well." The blamed act is recorded
    as the target's, a crime of this phase; the Blame itself is `unseen`."""
    t = a.targets[0]
    if not a.order.choice:
        r.event(tier, a.label(), "no effect", "no action named to blame on them")
        return
    claim = order_claim(r, a)
    r.extra_acts.append(
        Act(r.phase, r.number, t, claim.keyword, claim.objects, True, True, True, blamed=True)
    )
    r.event(tier, a.label(), f"{t} is blamed for {claim.rest()}")
