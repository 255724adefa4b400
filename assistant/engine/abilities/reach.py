"""Whether an action happens: stopped at its actor (dead, roleblocked, jailed, off duty,
its kind of power out) or where it arrives (a jail, a traveller, a sneak away from home, a
Mind Shield or Anti-Tech Field, a Hamedo). The resolver asks for a whole tier before any
of its effects."""

from __future__ import annotations

from typing import TYPE_CHECKING

from assistant.engine import deaths
from assistant.engine.abilities.wording import a_or_an, fmt

if TYPE_CHECKING:
    from assistant.engine.resolution import Action, Resolution


def cannot_act(r: Resolution, a: Action, tier: str) -> str | None:
    """Why the action fails now, or None; spends a limited use it reaches first."""
    reason = _stopped_at_actor(r, a)
    if reason:
        a.stayed = True
        return reason
    if a.strengthened:
        return None
    return _stopped_at_target(r, a, tier)


def _stopped_at_actor(r: Resolution, a: Action) -> str | None:
    """Why the actor cannot set out: dead, roleblocked, jailed (for a side action, as
    the ruleset says: `jail_stops_side`, and `performer_blockable` on the ability)."""
    actor = r.state.players[a.actor]
    if not actor.alive and not (a.kind == "shoot" or a.ability.params.get("after_death")):
        return "the actor died before acting"
    if a.ability.params.get("spend_on") not in ("success", "failure"):
        r.state.spend(a.actor, a.ability)
    r.state.players[a.actor].last_targets[a.ability.name] = (r.number, tuple(a.targets))
    if a.bribed:
        return None
    disabled = _disabled_by_status(r, a)
    if disabled:
        return disabled
    power = a.ability.params.get("power")
    if power == "tech" and "shorted" in r.state.players[a.actor].statuses:
        return f"{a.actor}'s tech is shorted out until repaired (\"{a.actor}: repair\")"
    off = r.disabled.get(a.actor, set())
    if "all" in off or (power and power in off):
        return f"{a.actor}'s {power or ''} powers are out tonight".replace("  ", " ")
    if a.order.side:
        if a.actor in r.jailed and r.state.passive(a.actor, "jail_stops_side"):
            return f"{a.actor} is jailed, which stops the {a.order.side}'s power"
        if r.is_blocked(a) and a.ability.params.get("performer_blockable"):
            what = f"the {a.order.side}'s {a.ability.name}"
            return f"{a.actor} is roleblocked, which stops {what}"
    elif r.is_blocked(a):
        if "abduction" in r.block_kinds.get(a.actor, ()):
            return f"{a.actor} is abducted"
        if "arrest" in r.block_kinds.get(a.actor, ()):
            return f"{a.actor} is arrested"
        if "suspension" in r.block_kinds.get(a.actor, ()):
            return f"{a.actor} is suspended"
        if "injury" in r.block_kinds.get(a.actor, ()):
            return f"{a.actor} is injured"
        kinds = r.block_kinds.get(a.actor, set())
        for where in ("in-flight", "abroad"):
            if where in kinds and where not in a.ability.params.get("unblockable_by", ()):
                return f"{a.actor} is {'on the plane' if where == 'in-flight' else where}"
        return f"{a.actor} is roleblocked"
    elif a.kind in r.rules.night.get("blocks_preempt", ()):
        for b in r.actions:
            if (
                b.kind == "block"
                and b.order.targets == (a.actor,)
                and r.state.players[b.actor].alive
            ):
                return f"{a.actor} is roleblocked by {b.actor}, which stops this before it acts"
    return None


def _disabled_by_status(r: Resolution, a: Action) -> str | None:
    """A status of `[night] disabling_statuses` takes the role's own actions (004
    Injured: "Player unable to use any abilities"); a side's action ("they may still
    carry out a kill at night") and an item's ("may still use items such as the
    bow-tie") remain."""
    statuses = r.state.players[a.actor].statuses
    hit = [s for s in r.rules.night.get("disabling_statuses", ()) if s in statuses]
    if not hit or a.order.side:
        return None
    role = r.state.role_of(a.actor)
    if role is None or role.abilities.get(a.ability.name) is not a.ability:
        return None
    return f"{a.actor} is {hit[0]}"


def _stopped_at_target(r: Resolution, a: Action, tier: str) -> str | None:
    """Why the action fails where it arrives (a jail, a Hamedo, a shield): it still was
    a visit."""
    for t in a.targets:
        kinds = r.block_kinds.get(t, set())
        if t == a.actor and {"abroad", "in-flight", "travelling"} & kinds:
            continue  # a traveller's own Travel
        if t != a.actor and "in-flight" in kinds:
            return f"{t} is on the plane: nothing reaches them"
        if t != a.actor and {"abroad", "travelling"} & kinds:
            if not a.ability.params.get("reaches_abroad") or "travelling" in kinds:
                return f"{t} is out of Japan: the action fails"
            continue
        if t in r.jailed and not (
            a.ability.params.get("jail") or a.ability.params.get("reaches_jailed")
        ):
            if "abduction" in r.block_kinds.get(t, ()):
                return f"{t} is abducted: out of play tonight"
            if "arrest" in r.block_kinds.get(t, ()):
                return f"{t} is arrested: every action on them fails"
            return f"{t} is jailed: every action aimed at them fails"
    power = a.ability.params.get("power")
    for t in a.targets:
        if t != a.actor and power != "psychic" and r.sneaking(t) is not None:
            return f"{t} is sneaking, away from home, and can only be reached by psychic powers"
    for t in a.targets:
        if t == a.actor:
            continue
        reason = shielded(r, a, t, tier)
        if reason:
            return reason
    for t in a.targets:
        monk = r.hamedo.get(t)
        if monk is not None and a.actor != monk:
            power = _power_of(r, monk, "hamedo")
            why = f"targeted {t} under {monk}'s {power}"
            deaths.die(r, a.actor, "nightkill", why, (monk,), tier)
            return f"killed by the {power} on {t} before acting"
    return None


def _power_of(r: Resolution, actor: str, kind: str) -> str:
    """How the ruleset names the ability of `kind` that `actor` used ("Hamedo"), so a
    GM who renames it in a copied ruleset reads their own word; else the role's title."""
    used = next((b for b in r.actions if b.actor == actor and b.kind == kind), None)
    if used is not None:
        return used.ability.name.capitalize()
    return r.state.role_title(actor)


def shielded(r: Resolution, a: Action, t: str, tier: str) -> str | None:
    """000's Mind Shield (against psychic powers) and Anti-Tech Field (against tech): the
    action fails and both sides hear of it, as the rules say; an advanced shield "always
    appears to work": the user gets the ability's `fake_result` (or nothing), not a notice.
    A single-target one-shot item is not used up against a plain Anti-Tech Field."""
    power = a.ability.params.get("power")
    shields = {"psychic": ("mind_shield", "Mind Shield"), "tech": ("anti_tech", "Anti-Tech Field")}
    if power not in shields:
        return None
    key, title = shields[power]
    level = r.state.level(t, key)
    if level <= 0:
        return None
    r.pm_later(t, r.say("shield_targeted"), needs_alive=True)
    if level >= 2 and a.ability.params.get("fooled_by_advanced"):
        return None  # it "works", and what it reports is the shield's lie (a device: home)
    if level >= 2:
        fake = a.ability.params.get("fake_result")
        if fake is not None and a.ability.params.get("result_pm"):
            r.pm_later(
                a.actor,
                fmt(a.ability.params["result_pm"], target=t, result=fake),
                needs_alive=bool(a.ability.params.get("needs_alive")),
            )
        return f"{t}'s Advanced {title} stops it (it appears to work)"
    if power == "tech" and a.ability.uses is not None and a.ability.targets == 1:
        used = r.state.players[a.actor].used
        used[a.ability.name] = max(0, used.get(a.ability.name, 0) - 1)
    r.pm_later(a.actor, r.say("shield_blocked", target=t, shield=title, a_shield=a_or_an(title)),
               needs_alive=True)
    return f"{t}'s {title} stops it"
