"""Investigations and what they see: alignment, role and other fields through
disguises, slander and forgeries; the true fate, the goal tonight, a scan; an
interrogation analysed later; a role drawn from a list (004's Spy) and the wait it leaves."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from assistant.engine.abilities.arrests import ARRESTED
from assistant.engine.abilities.claim_checks import CLAIM_FIELDS, claim_words
from assistant.engine.abilities.wording import fmt, the_role
from assistant.engine.state import disguise_of

if TYPE_CHECKING:
    from assistant.engine.resolution import Action, Resolution


def visible(r: Resolution, target: str, field: str) -> str:
    """What an investigation sees: a set override, the role's disguise, else the truth."""
    st = r.state
    p = st.players[target]
    shown = r.disguises.get(target, {})
    if field in shown:
        r.disguises_seen.add(target)
        return shown[field]
    if field in p.visible:
        return p.visible[field]
    worn = disguise_of(p)
    if worn is not None and field in ("alignment", "role") and worn in st.rules.roles:
        # 004: "If Vermouth or Irish are disguised, they assume the default interrogation
        # result of the disguise they are wearing" (the scent stays their own).
        dress = st.rules.roles[worn]
        if field == "role":
            return dress.title
        shown = dress.passives.get("visible_alignment")
        return str(shown) if shown else st.rules.side(dress.sides[0]).investigate_as
    disguise = st.passive(target, f"visible_{field}")
    if field == "alignment":
        return str(disguise) if disguise else st.rules.side(p.side).investigate_as
    if field == "role":
        if disguise:
            return (
                st.rules.roles[str(disguise)].title if disguise in st.rules.roles else str(disguise)
            )
        if p.role is None and "vanilla_seen" in st.rules.messages:
            # 000: a player with no role is a Townie, whose "Visible Role: No Role".
            return str(st.rules.messages["vanilla_seen"])
        return st.role_title(target)
    if disguise:
        return str(disguise)
    return str(st.passive(target, field, "unknown"))


def investigate(r: Resolution, a: Action, tier: str) -> None:
    params = a.ability.params
    t = a.targets[0]
    field = params.get("field", "alignment")
    if field == "is_role":
        found = r.state.players[t].role == params["role"]
        result = params["yes"] if found else params["no"]
        if found:
            r.state.players[a.actor].statuses.add(f"found:{t}")
    elif field == "true":
        if r.state.players[t].alive:
            result = str(r.state.passive(t, "fate") or params["no_fate"])
        else:
            side = r.rules.side(r.state.players[t].side).title
            result = f"{r.state.role_title(t)}, {side}"
    elif field == "action":
        done = [b for b in r.actions if b.actor == t and not b.failed and b is not a]
        result = "; ".join(b.label() for b in done) or str(params.get("nothing", "no action"))
    elif field in CLAIM_FIELDS:
        result = CLAIM_FIELDS[field](r, a, t)
    elif field == "goal":
        result = goal_tonight(r, t)
    elif field == "scan":
        result = scan(r, t)
    else:
        result = visible(r, t, field)
        inversions = params.get("inversions", {})
        # An inverted investigator (001) or a target slandered tonight (004): the answer
        # is reversed; both at once cancel out.
        if (bool(r.state.passive(a.actor, "inverted")) != (t in r.inverted)) and (
            result in inversions
        ):
            result = inversions[result]
        result = params.get("results", {}).get(result, result)
        sober = params.get("random_unless")
        share_rule(r, a.actor)
        if sober and sober not in r.state.players[a.actor].statuses:
            # 004 Kogorou: "Interrogate (random result when drunk)".
            result = r.rng.choice(sorted(params["random_results"]))
    if field == "alignment":
        result = _forged(r, a, t, tier) or result
    r.event(tier, a.label(), f"result: {result}")
    if params.get("spend_on") == "success" and result == params.get("yes"):
        # 004 Police Identify: "Once she does, the ability is considered expired".
        r.state.spend(a.actor, a.ability)
    if params.get("target_pm"):
        # 004 Follow: "the accompanied will learn that someone accompanied/followed them".
        r.pm_later(t, fmt(params["target_pm"], target=t), needs_alive=True)
    r.pm_later(
        a.actor,
        fmt(
            params.get("result_pm", "{target}: {result}"),
            target=t,
            result=result,
            # 001 "Your vision: Dee is a Peasant.": the role as the posts name it.
            the_result=the_role(r.rules, str(result)) if field == "role" else result,
            claim=claim_words(r, a, t),
            choice=a.order.choice or "",
        ),
        needs_alive=bool(params.get("needs_alive")),
    )
    for name, player in r.state.players.items():
        if f"found:{a.actor}" not in player.statuses or not player.alive:
            continue
        learn = next(
            (
                ab.params["learn_pm"]
                for ab in r.state.abilities_of(name).values()
                if "learn_pm" in ab.params
            ),
            None,
        )
        if learn:
            r.pm(name, fmt(learn, investigator=a.actor, target=t))


def share_rule(r: Resolution, name: str) -> None:
    """A role passive `status_when_share_dead = { status, side, share }`: the status once
    that share of the side's players is dead, deaths of this phase counted (004 Kogorou:
    "Becomes sober after 1/4th the total townies have died, meaning his interrogation the
    night of the dividing death will be an accurate one")."""
    rule = r.state.passive(name, "status_when_share_dead")
    if not isinstance(rule, Mapping):
        return
    side = [p for p in r.state.players.values() if p.side == rule["side"]]
    dead = sum(1 for p in side if not p.alive)
    if side and dead >= float(rule["share"]) * len(side):
        r.state.players[name].statuses.add(str(rule["status"]))


def goal_tonight(r: Resolution, t: str) -> str:
    """000 Telepath: "the goal that character had that night based on their Role and Actions
    taken"; with no action, the role's own (`goal_always`, the Medium's "Find (Always)"),
    else the racial default (`idle_goal`: Kill for Dopps, Survive for Humans)."""
    always = r.state.passive(t, "goal_always")
    if always:
        return str(always)
    for b in r.actions:
        if b.actor == t and b.failed is None and b.ability.params.get("goal"):
            return str(b.ability.params["goal"])
    return str(r.state.passive(t, "idle_goal", "Survive"))


def scan(r: Resolution, t: str) -> str:
    """000 Scanner: race and role as they truly are ("bypasses all role effects on
    investigation"), and the tech and gadgets held; a Holoform still fools it."""
    shown = r.disguises.get(t, {})
    race, role = str(r.state.passive(t, "race", "unknown")), r.state.role_title(t)
    held = [i.title for i in r.state.items_of(t) if i.size]
    if shown.get("scan_proof") == "no":  # an Advanced Holoform: "screen against ... Tech"
        r.disguises_seen.add(t)
        race, role, held = shown.get("race", race), shown.get("role", role), []
    tech = ", ".join(held) if held else "no tech"
    return f"{race}, {role}, {tech}"


def _forged(r: Resolution, a: Action, t: str, tier: str) -> str | None:
    for b in r.actions:
        if (
            b.kind == "forge"
            and not b.failed
            and b.order.choice
            and f"found:{a.actor}" in r.state.players[b.actor].statuses
        ):
            r.event(tier, b.label(), f"{a.actor}'s result on {t} becomes {b.order.choice}")
            return b.order.choice
    return None


def forge(r: Resolution, a: Action, tier: str) -> None:
    if not any(s.startswith("found:") for s in r.state.players[a.actor].statuses):
        r.event(tier, a.label(), "no effect", f"{a.actor} has not found the Investigator")


def invert(r: Resolution, a: Action, tier: str) -> None:
    """004 Slander: "If the slandered target is interrogated that night, the interrogation
    result will be inverted." Nobody is told (the slanderer nor the slandered)."""
    for t in a.targets:
        r.inverted.add(t)
    r.event(tier, a.label(), f"interrogations of {' and '.join(a.targets)} are reversed tonight")


def sample_role(r: Resolution, a: Action, tier: str) -> None:
    """004 Spy: "The user chooses a list of players not in the BO ... Of these, the GM picks
    a random one and sends the name of the role to the player. He will not know from which
    of the players he just learned the role"; "the player will just get the disguised role";
    then the ability waits until that player "isn't killed or arrested" (status
    "waits:ABILITY|PLAYER", freed by `free_waits`)."""
    pick = r.rng.choice(sorted(a.targets))
    worn = disguise_of(r.state.players[pick])
    role = r.rules.role(worn) if worn else r.state.role_of(pick)
    title = role.title.split(",")[0] if role is not None else r.state.role_title(pick)
    r.state.players[a.actor].statuses.add(f"waits:{a.ability.name}|{pick}")
    r.event(tier, a.label(), f"draws {pick}: {title}",
            f"{a.ability.name} waits until {pick} is killed or arrested")
    r.pm_later(a.actor, fmt(a.ability.params["result_pm"], role=title, n=len(a.targets)),
               needs_alive=True)


def free_waits(r: Resolution, tier: str) -> None:
    """An ability waiting on a player (`sample_role`) is free again once that player is dead
    or arrested: "The GM will notify the player that he can use the ability again"."""
    for name, p in r.state.players.items():
        for s in sorted(p.statuses):
            if not s.startswith("waits:"):
                continue
            ability, pick = s[len("waits:"):].split("|", 1)
            q = r.state.players.get(pick)
            if q is not None and q.alive and ARRESTED not in q.statuses:
                continue
            p.statuses.discard(s)
            r.event(tier, f"{name}'s {ability}", "may be used again", f"{pick} is out of play")
            ab = r.state.abilities_of(name).get(ability)
            if ab is not None and ab.params.get("again_pm") and p.alive:
                r.pm_later(name, str(ab.params["again_pm"]), needs_alive=True)


def analyze(r: Resolution, a: Action, tier: str) -> None:
    """004 Analyze: "he can analyze his Interrogations during the Day (even the one before
    he got Sober) ... He gets the correct answer with the Analysis, whether the result was
    wrong because of being Drunk or because it was Slandered" ("Analyze my Interrogation
    from Night 1")."""
    m = re.search(r"(night|day|n|d)\s*(\d+)", str(a.order.choice or ""), re.IGNORECASE)
    if m is None:
        r.event(tier, a.label(), "ignored", 'name the phase: "analyze Night 1"')
        return
    phase = "night" if m.group(1).lower().startswith("n") else "day"
    number = int(m.group(2))
    keyword = str(a.ability.params.get("of", "interrogate"))
    done = [x for x in r.state.acts if x.actor == a.actor and x.keyword == keyword
            and (x.phase, x.number) == (phase, number) and x.happened]
    when = f"{phase.title()} {number}"
    if not done:
        r.pm_later(a.actor, r.say("analysis_none", when=when), needs_alive=True)
        r.event(tier, a.label(), "nothing to analyze", f"no interrogation on {when}")
        return
    for x in done:
        for t in x.targets:
            result = visible(r, t, "alignment")
            r.pm_later(a.actor, r.say("analysis", target=t, when=when, result=result),
                       needs_alive=True)
            r.event(tier, a.label(), f"the true result on {t}: {result}")
