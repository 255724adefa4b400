"""Blocks and redirection: roleblocks, jails and 004's chains of tricks; redirects and
000's mind control; a Hamedo's zone; pulses that put a kind of power out and the repair
of shorted tech; 004's detention and travel abroad."""

from __future__ import annotations

from typing import TYPE_CHECKING

from assistant.engine.abilities.kills import bribed_kill_on
from assistant.engine.abilities.sentries import kills_visitors
from assistant.engine.abilities.wording import fmt
from assistant.engine.rules import phase_index
from assistant.engine.state import ABROAD, FLIGHT, whereabouts

if TYPE_CHECKING:
    from assistant.engine.resolution import Action, Resolution


#: The day status of a player whose roleblock lasts into the following day: their day
#: actions fail and a role's extra vote weight is lost (vote_effects.py).
DAY_BLOCK = "roleblocked-day"


def block(r: Resolution, a: Action, tier: str) -> None:
    for t in a.targets:
        k = bribed_kill_on(r, t)
        if k is not None and k.actor == t:
            a.failed = f"{t} carries a bribed kill"  # 004: it cannot be discombobulated
            continue
        if a.ability.params.get("spares_visit_killers") and kills_visitors(r, t):
            # 000: "The Paranoid War Vet and Sentry Gun are not role-blocked by an abduction"
            r.event(tier, a.label(), f"does not roleblock {t}", f"{t} kills anyone visiting them")
            continue
        r.blocked.add(t)
        r.block_kinds.setdefault(t, set()).add(str(a.ability.params.get("power", "plain")))
        r.state.players[t].day_statuses.add("roleblocked")
        if a.ability.params.get("through_day"):
            # 002 Roleblocker, 000 Psychic Warden: "for that night and following day".
            r.state.players[t].day_statuses.add(DAY_BLOCK)
        if a.ability.params.get("jail"):
            r.jailed.add(t)
        if a.ability.params.get("target_pm"):
            r.pm(t, fmt(a.ability.params["target_pm"], target=t))
        r.event(
            tier, a.label(), "jails " + t if a.ability.params.get("jail") else f"roleblocks {t}"
        )


def settle_block_chains(r: Resolution, acts: list[Action], tier: str) -> None:
    """Blocks that `chain` (004's tricks) settle among themselves before the tier acts:
    "If A tricks B and B tricks C, A is successful, B isn't, and C's actions go through as
    normal"; "If A tricks B and B tricks A, all actions fail." A block lands unless its
    actor is blocked by one that lands; the players of a cycle are all blocked."""
    chain = [
        a for a in acts
        if a.kind == "block" and a.ability.params.get("chain") and r.state.players[a.actor].alive
        and a.actor not in r.blocked
    ]
    undecided = list(chain)
    landed: list[Action] = []
    while undecided:
        aimed = {t for b in undecided for t in b.targets}
        free = [b for b in undecided if b.actor not in aimed]
        if not free:
            break
        for b in free:
            undecided.remove(b)
            landed.append(b)
        hit = {t for b in free for t in b.targets}
        for b in list(undecided):
            if b.actor in hit:
                undecided.remove(b)  # its actor is blocked by a block that lands
    for b in landed:  # blocked before the tier's actions are checked
        for t in b.targets:
            if bribed_kill_on(r, t) is not None and bribed_kill_on(r, t).actor == t:
                continue
            r.blocked.add(t)
            r.block_kinds.setdefault(t, set()).add("plain")
    cycle = {b.actor for b in undecided}
    for name in sorted(cycle):
        r.blocked.add(name)
        r.block_kinds.setdefault(name, set()).add("plain")
    if cycle:
        r.event(tier, ", ".join(sorted(cycle)), "block one another",
                "every action of theirs fails tonight")


def redirect(r: Resolution, a: Action, tier: str) -> None:
    x, y = a.targets
    later = r.tiers[r.tiers.index(tier) + 1 :]
    moved = []
    for b in r.actions:
        if b.done or b.tier not in later or b is a:
            continue
        new = [y if t == x else x if t == y else t for t in b.targets]
        if new != b.targets:
            # The ruleset's `noun` names the action in a PM ("investigation"), not its verb.
            noun = str(b.ability.params.get("noun", b.ability.name))
            for old, now in zip(b.targets, new, strict=True):
                if old != now:
                    moved.append(
                        fmt(
                            a.ability.params.get(
                                "result_pm", "{ability} aimed at {original} went to {now}"
                            ),
                            ability=noun,
                            article="An" if noun[:1].lower() in "aeiou" else "A",
                            original=old,
                            now=now,
                        )
                    )
            b.targets = new
    r.event(
        tier,
        a.label(),
        f"swaps every later action between {x} and {y}",
        f"{len(moved)} redirected" if moved else "nothing was aimed at them",
    )
    for line in moved:
        r.pm_later(a.actor, line, needs_alive=False)


def hamedo(r: Resolution, a: Action, tier: str) -> None:
    zone = a.targets[0]
    r.hamedo[zone] = a.actor
    where = "" if zone == a.actor else f" (redirected onto {zone})"
    r.event(tier, a.label(), f"whoever targets {zone} dies before acting{where}")


def control(r: Resolution, a: Action, tier: str) -> None:
    """000 Mind Control Ray: the victim's action tonight goes where the controller says; no
    action ordered, none taken. The next day's vote is the controller's: the day status of
    `[night] vote_statuses.controlled` (the count takes it, vote_effects.py)."""
    victim, new = a.targets
    moved = [
        b
        for b in r.actions
        if b.actor == victim and not b.done and b is not a and b.ability.targets == 1
    ]
    for b in moved:
        b.targets = [new]
    r.event(
        tier,
        a.label(),
        f"{victim}'s action goes to {new}" if moved else "no effect",
        "" if moved else f"{victim} took no action tonight",
    )
    r.pm_later(victim, r.say("controlled"), needs_alive=True)
    r.notes.append(r.say("vote_controlled", actor=a.actor, target=victim, day=r.number + 1))
    status = r.rules.night.get("vote_statuses", {}).get("controlled")
    if status:
        # "The alien still controls the vote on the next day" (vote_effects.py counts it).
        r.state.players[victim].day_statuses.add(f"{status}:{a.actor}")


def apply_repairs(r: Resolution) -> None:
    """A repair order clears the shorted status; it is the night's action (000 EMP)."""
    for a in r.actions:
        if a.kind == "repair" and not a.done:
            a.done, a.stayed = True, True
            r.state.players[a.actor].statuses.discard("shorted")
            r.event(a.tier, a.label(), f"{a.actor}'s tech works again")


def repair(r: Resolution, a: Action, tier: str) -> None:
    r.event(tier, a.label(), "done")


def pulse(r: Resolution, a: Action, tier: str) -> None:
    """000 EMP / Psychic Pulser / Stun Bomb and their single-target emitters: a kind of
    power ("tech", "psychic", "all") is out for the night (and the next day where said);
    Mind Shields are spared where said; shorted tech must be repaired the next night."""
    params = a.ability.params
    stops = str(params.get("stops", "all"))
    hit = list(r.state.players) if params.get("scope") == "all" else list(a.targets)
    for t in hit:
        if t == a.actor and params.get("scope") == "all":
            continue
        if params.get("spares_shields") and r.state.level(t, "mind_shield"):
            continue
        r.disabled.setdefault(t, set()).add(stops)
        if stops == "all":
            r.blocked.add(t)
            r.block_kinds.setdefault(t, set()).add("plain")
        if params.get("through_day"):
            r.state.players[t].day_statuses.add(DAY_BLOCK)
        if stops == "tech" and any(i.size for i in r.state.items_of(t)):
            r.state.players[t].statuses.add("shorted")
    who = "everyone" if params.get("scope") == "all" else ", ".join(hit)
    r.event(tier, a.label(), f"{stops} powers out tonight for {who}")
    if params.get("public"):
        r.public.append(fmt(params["public"], actor=a.actor))


def travel(r: Resolution, a: Action, tier: str) -> None:
    """004 Travel: the next phase on the plane, then in Japan (or out of it). Leaving, the
    traveller is already beyond reach this phase: "If the traveler is killed or lynched in
    the same phase they use Travel, the traveler will survive and travel as intended"."""
    index = phase_index(r.rules, r.phase, r.number)
    where = whereabouts(r.state.players[a.actor], index)
    dest = "home" if where == ABROAD else ABROAD
    r.state.players[a.actor].statuses.add(f"{FLIGHT}{index + 1}:{dest}")
    r.jailed.add(a.actor)
    r.block_kinds.setdefault(a.actor, set()).add("travelling")
    key = "travel_home" if dest == "home" else "travel_abroad"
    r.pm_later(a.actor, r.say(key), needs_alive=True)
    r.event(tier, a.label(), f"boards the plane {'to Japan' if dest == 'home' else 'abroad'}",
            "on the plane next phase, landed the phase after")


#: "detained-by:ACTOR:UNTIL": in detention through the phase UNTIL (004's Satou).
DETAINED = "detained-by:"


def detain(r: Resolution, a: Action, tier: str) -> None:
    """004 Detention: "The player will then be in detention until they are released"
    (`lasts` phases after this one); "Only one player at a time can be in detention";
    "Can not be used on the same person twice in a row"."""
    t = a.targets[0]
    mine = r.state.players[a.actor]
    held = [n for n, p in r.state.players.items()
            if any(s.startswith(f"{DETAINED}{a.actor}:") for s in p.statuses)]
    if held:
        r.event(tier, a.label(), "fails", f"{held[0]} is in detention already")
        return
    if f"detained-last:{t}" in mine.statuses:
        r.event(tier, a.label(), "fails", f"{t} was the last one detained")
        return
    for s in [s for s in mine.statuses if s.startswith("detained-last:")]:
        mine.statuses.discard(s)
    mine.statuses.add(f"detained-last:{t}")
    index = phase_index(r.rules, r.phase, r.number)
    until = index + int(a.ability.params.get("lasts", 3))
    r.state.players[t].statuses.add(f"{DETAINED}{a.actor}:{until}")
    r.blocked.add(t)
    r.jailed.add(t)
    r.block_kinds.setdefault(t, set()).add("detention")
    r.pm_later(t, r.say("detained"), needs_alive=True)
    r.event(tier, a.label(), f"{t} is in detention", "their actions and any on them fail")
