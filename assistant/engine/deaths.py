"""Deaths and what they set off: kills landing together, protections, lovers, hunters, bombs.

All kills of a tier are decided before any of them lands (simultaneity); then each
death runs its chain (a lover follows, a hunter shoots, a Bomb explodes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assistant.engine.rules import phase_index
from assistant.engine.state import ABROAD, FLIGHT, Death, drop_disguise

if TYPE_CHECKING:
    from assistant.engine.resolution import Action, Resolution
    from assistant.engine.state import GameState


def die(
    r: Resolution, name: str, how: str, cause: str, killers: tuple[str, ...], tier: str
) -> bool:
    """Kill `name` now (if alive) and run the death's chain; False if already dead."""
    player = r.state.players[name]
    if not player.alive:
        return False
    if how != "lynch" and r.phase == "night" and body_double(r, name, tier, "death"):
        return False
    player.alive = False
    death = Death(name, how, cause, killers)
    player.death = death
    r.deaths.append(death)
    r.event(tier, name, "dies", cause)
    _kill_notes(r, name, killers)
    _chain(r, name, how, tier)
    return True


def _kill_notes(r: Resolution, name: str, killers: tuple[str, ...]) -> None:
    """An item's `kill_note` tells the GM how to word the death (000 Combat Camouflage: "mask
    his kills as if they came from any source (Vig, Dopp, or Abduction)")."""
    for k in killers:
        if k not in r.state.players:
            continue
        for item in r.state.items_of(k):
            note = item.passives.get("kill_note")
            if note:
                r.notes.append(str(note).format(killer=k, victim=name, item=item.title))


def _chain(r: Resolution, name: str, how: str, tier: str) -> None:
    returned_captives(r, name, tier)
    drawn = sorted(s.split(":", 1)[1] for s in r.state.players[name].statuses
                   if s.startswith("drew:"))
    if drawn:
        # 004: "When Irish is killed his abducted character(s) will be discovered and the
        # name becomes known to the town."
        titles = ", ".join(r.rules.role(k).title for k in drawn)
        r.public.append(r.say("drawn_discovered", player=name, roles=titles))
    for other, p in r.state.players.items():
        if f"converted-by:{name}" in p.statuses and p.alive:
            # 000 Hivemind: "If the Hivemind dies, all converted players die with them."
            die(r, other, how if how != "lynch" else "other", f"converted by {name}, who died",
                (), tier)
    lover = r.state.lover_of(name)
    if lover is not None and r.state.players[lover].alive:
        die(r, lover, how, f"lover of {name}: dies with them", (), tier)
    if r.state.passive(name, "on_death") == "shoot":
        shot = next((a for a in r.actions if a.kind == "shoot" and a.actor == name), None)
        if shot is not None:
            fire_shot(r, shot, tier)
        else:
            r.notes.append(
                f"{name} ({r.state.role_title(name)}) died and may take someone with them: ask "
                f'for the choice and enter it as an order ("{name}: shoot NAME")'
            )


def fire_shot(r: Resolution, shot: Action, tier: str) -> None:
    left = r.state.uses_left(shot.actor, shot.ability)
    if left is not None and left <= 0:
        return
    r.state.spend(shot.actor, shot.ability)
    target = shot.targets[0]
    shot.done = True
    if r.state.players[target].alive:
        r.event(tier, shot.label(), "fires", f"{shot.actor} died")
        die(
            r,
            target,
            "nightkill" if r.phase == "night" else "other",
            f"shot by {shot.actor} ({r.state.role_title(shot.actor)}) on dying",
            (shot.actor,),
            tier,
        )


def fire_pending(r: Resolution) -> None:
    """Delayed deaths due now (the Hex of Death) and shots of hunters who died earlier."""
    tier = r.tiers[0] if r.tiers else "start"
    for entry in list(r.state.pending):
        if entry.get("phase", "night") == r.phase and entry.get("night") == r.number:
            r.state.pending.remove(entry)
            if die(
                r, str(entry["player"]), "nightkill", str(entry["cause"]), (), tier
            ) and entry.get("then"):
                r.state.pending.append(
                    {
                        "player": entry["then"],
                        "night": r.number + 1,
                        "cause": str(entry["then_cause"]),
                    }
                )
    for a in r.actions:
        if a.kind == "shoot" and not r.state.players[a.actor].alive:
            fire_shot(r, a, tier)


def _killers(r: Resolution, k: Action) -> tuple[str, ...]:
    if k.order.side:
        return tuple(r.state.side_members(k.order.side, alive=False))
    return (k.actor,)


def _matches(protection: Action, tag: str) -> bool:
    against = protection.ability.params.get("against", ["all"])
    return "all" in against or tag in against


def protected_from_kill(r: Resolution, name: str) -> bool:
    """Any form of kill protection tonight (for two nightkillers aiming at each other)."""
    return (
        bool(r.protections.get(name))
        or bool(r.state.passive(name, "nightkill_immune"))
        or (
            bool(r.state.passive(name, "auto_protect"))
            and r.state.players[name].used.get("auto_protect", 0)
            < int(r.state.passive(name, "auto_protect"))
        )
    )


def _strength(r: Resolution, k: Action) -> str:
    if k.strengthened:
        return "unstoppable"
    # 000 Advanced Targeting System: "A Night Kill from an alien with this system cannot be
    # prevented": a passive of what the killer holds.
    return str(
        r.state.passive(k.actor, "kill_strength") or k.ability.params.get("strength", "normal")
    )


def kill_tag(r: Resolution, k: Action) -> str:
    """What kind of kill `k` is, for the protections that stop it: the ability's `tag`, or
    for a side's kill the performer's own `kill_tag` passive (004: "Snipe replaces kill for
    the specified roles"), unless a `[night] disabling_statuses` status took it ("The sniper
    can't use snipe anymore, but can still kill normally")."""
    tag = str(k.ability.params.get("tag", k.ability.name))
    if k.order.side:
        own = r.state.passive(k.actor, "kill_tag")
        off = set(r.rules.night.get("disabling_statuses", ()))
        if own and not off & r.state.players[k.actor].statuses:
            return str(own)
    return tag


def _saved_by(r: Resolution, k: Action, t: str, tier: str) -> str | None:
    strength = _strength(r, k)
    if strength == "unstoppable":
        return None
    tag = kill_tag(r, k)
    morning = bool(k.ability.params.get("morning"))
    if strength != "pierce":
        prots = [
            p
            for p in r.protections.get(t, [])
            if _matches(p, tag)
            and (not morning or p.ability.params.get("morning"))
            and r.stops.get(id(p), 0) < int(p.ability.params.get("stops", 1_000_000))
        ]
        if prots:
            best = min(prots, key=lambda p: (p.ability.params.get("priority", 50), p.actor))
            _credit(r, best, t, tier, k)
            return f"{t} is protected by {best.actor}"
    if morning and not r.state.passive(t, "auto_protect_morning"):
        # 000: a Morningkill "cannot be prevented by abilities that prevent night kills"
        # (a Personal Shield "Will also protect against Morningkills").
        return None
    player = r.state.players[t]
    if r.state.passive(t, "nightkill_immune") and r.phase == "night" and not morning:
        return f"{t} cannot be nightkilled"
    auto = r.state.passive(t, "auto_protect")
    if auto and r.phase == "night":
        mark = f"auto-protected:{r.number}"
        if mark in player.statuses and r.state.passive(t, "auto_protect_holds", True):
            return f"{t}'s automatic protection holds all night"
        if player.used.get("auto_protect", 0) < int(auto):
            player.used["auto_protect"] = player.used.get("auto_protect", 0) + 1
            player.statuses.add(mark)
            if r.state.passive(t, "kill_on_visit") == "once":
                player.statuses.add("sentry-spent")  # 000: the Sentry Gun is destroyed
            return f"{t}'s automatic protection against a nightkill"
    return None


def saved_by(r: Resolution, k: Action, t: str, tier: str) -> str | None:
    """Why the kill-like action `k` on `t` is stopped (a protection, with its credit), or None:
    for actions "treated as a normal kill as far as it being stoppable" (004's vest)."""
    return _saved_by(r, k, t, tier)


def _credit(r: Resolution, protection: Action, t: str, tier: str, k: Action) -> None:
    params = protection.ability.params
    tag = kill_tag(r, k)
    r.stops[id(protection)] = r.stops.get(id(protection), 0) + 1
    # 004 Snipe: "In case the target is protected, the target doesn't die but the protector
    # will be killed instead" (`sacrificed_by`: the kills a protector dies stopping).
    sacrificed = params.get("sacrifice") or tag in params.get("sacrificed_by", ())
    if sacrificed and protection not in r.sacrifices:
        r.sacrifices.append(protection)
    if tag in params.get("injures_attacker_of", ()):
        # 004 Bone Breaking: "The sniper will fail his killing and will get injured as a
        # result"; "there will be a message that someone was injured (not how...)".
        injure(r, k.actor, tier, f"{protection.ability.name} by {protection.actor}",
               mark=str(params.get("injury_mark", "")))
        if "injured_public" in r.rules.messages:
            r.public.append(r.say("injured_public"))
    if params.get("kills_attacker"):
        r.avenged.append((protection, k.actor))
    # 004: a protector and the protected learn the attacker's name, "The exception to this is
    # if the attacker is a sniper" (`hides_attacker`: the kill tags whose attacker stays
    # unnamed, told with the `..._hidden` sentences).
    hidden = tag in params.get("hides_attacker", ())
    if tag in params.get("breaks_on", ()):
        _break_item(r, protection, tier)
    elif params.get("tells_target"):
        said = params.get("tells_target_hidden", params["tells_target"]) if hidden else \
            params["tells_target"]
        r.pm_later(t, str(said).format(attacker=k.actor), needs_alive=True)
    if params.get("tells_attacker") and k.actor != t:
        # 004: "the attacker is informed that healing or protecting was in effect".
        r.pm_later(k.actor, str(params["tells_attacker"]).format(target=t), needs_alive=True,
                   own=True)
    if params.get("spend_on") == "success":
        r.state.spend(protection.actor, protection.ability)
    if params.get("rest_phases"):
        rest_lovers(r, protection, tier)
    if params.get("rests_after_save"):
        r.state.players[protection.actor].statuses.add(f"rests:night{r.number + 1}")
        r.event(
            tier, protection.label(), "stops a kill", f"{protection.actor} may not act next night"
        )
    if params.get("saved_pm"):
        said = params.get("saved_pm_hidden", params["saved_pm"]) if hidden else params["saved_pm"]
        r.pm(protection.actor, str(said).format(target=t, attacker=k.actor))
    if params.get("injures_target"):
        # 004 First Aid: "The player who received First Aid will not die if attacked, but
        # will instead become injured."
        injure(r, t, tier, f"first-aided by {protection.actor}")
    if params.get("flies_out"):
        # 004 Makoto: "If Makoto successfully protects someone, he'll automatically fly out
        # of Japan the next phase".
        index = phase_index(r.rules, r.phase, r.number)
        r.state.players[protection.actor].statuses.add(f"{FLIGHT}{index + 1}:{ABROAD}")
        r.event(tier, protection.label(), f"{protection.actor} flies out of Japan next phase")
    if params.get("injures_self"):
        # 004 Ran: "If Ran successfully protects, she will become injured."
        injure(r, protection.actor, tier, f"protected {t}", mark=str(params["injures_self"]))


def rest_status(ability: str, until: int) -> str:
    """The status of a player who may not use `ability` before the phase after `until`
    (a phase index; check_order reads it)."""
    return f"rests-until:{ability}:{until}"


def rest_lovers(r: Resolution, protection: Action, tier: str) -> None:
    """004 Lovey-Dovey: "If it successfully hinders a lynching, killing, sniping, or
    poisoning, the lovers lose this ability for 2 phases" (`rest_phases`): both lovers, the
    status "rests-until:ABILITY:K" (check_order)."""
    n = protection.ability.params.get("rest_phases")
    if not n:
        return
    until = r.index + int(n)
    for who in filter(None, (protection.actor, r.state.lover_of(protection.actor))):
        r.state.players[who].statuses.add(rest_status(protection.ability.name, until))
    r.event(tier, protection.label(), "rests", f"no {protection.ability.name} for {n} phases")


def _break_item(r: Resolution, protection: Action, tier: str) -> None:
    """004's watch against a snipe: "they will survive but the watch will break and become
    unusable for the remainder of the game"; its holder and the one who lent it are told."""
    item = str(protection.ability.params.get("item", ""))
    holder = r.state.players[protection.actor]
    if item in holder.items:
        holder.items.remove(item)
    lender = None
    for s in sorted(holder.statuses):
        if s.startswith(f"borrowed:{item}:"):
            holder.statuses.discard(s)
            lender = s.rsplit(":", 1)[1]
    for who in filter(None, (protection.actor, lender)):
        r.pm_later(who, r.say("item_broken"), needs_alive=True)
    r.event(tier, protection.label(), f"the {item} breaks", "it stopped a snipe")


#: The status of a player who lost their role's abilities for good (004's injuries).
INJURED = "injured"


def injure(r: Resolution, name: str, tier: str, why: str, mark: str = "") -> None:
    """The player is injured from now on: their role's actions fail (the resolver reads the
    [night] `disabling_statuses`); `mark` says how, for what it sets off (Kogorou)."""
    player = r.state.players[name]
    if not player.alive:
        return
    player.statuses.add(INJURED)
    if mark:
        player.statuses.add(mark)
    if INJURED in r.rules.night.get("no_results_statuses", ()):
        # 004: "Injured/suspended people do not recieve results on the phase they're
        # injured/suspended."
        r.silenced.add(name)
    r.disguises.pop(name, None)
    # "If a player is injured and in disguise, they lose their disguise."
    drop_disguise(r.rules, player)
    r.event(tier, name, "is injured", why)


def revenge_holds(state: GameState, name: str) -> bool:
    """Whether a player's revenge passives (004 Revenge: `resists_arrest`, `on_lynched`)
    still work: not when injured ("they will lose their role-specific abilities (including
    Revenge)"), but for an injury marked as the passive `revenge_despite` says ("If injured
    by Bone Breaking, the sniper can still use this action (only exception)")."""
    statuses = state.players[name].statuses
    return INJURED not in statuses or state.passive(name, "revenge_despite") in statuses


def _turns(r: Resolution, k: Action, t: str, tier: str) -> bool:
    side = r.state.passive(t, "turns_when_killed_by")
    if not side or k.order.side != side or k.strengthened:
        return False
    choice = next((a for a in r.actions if a.kind == "turn" and a.actor == t), None)
    if choice is None:
        r.notes.append(
            f"{t} ({r.state.role_title(t)}) could have chosen to join the {side} "
            f'instead of dying; enter "{t}: turn" and resolve again if they did'
        )
        return False
    player = r.state.players[t]
    player.side, player.role = str(side), None
    choice.done = True
    r.event(tier, k.label(), f"{t} joins the {side} instead of dying", f"{t} chose to turn")
    r.pm(t, r.say("turned", side=r.rules.side(str(side)).title))
    for m in r.state.team(str(side), but=t):
        r.pm(m, r.say("new_member", player=t, side=r.rules.side(str(side)).title))
    return True


def resolve_kills(r: Resolution, tier: str) -> None:
    """Land every kill of this tier at once, after mutual kills and protections."""
    kills, r.kills = r.kills, []
    # 002: "two players with nightkills target each other ... the victor will be randomly
    # determined"; 000: "All kills will be effectively simultaneous" (both die).
    draw = r.rules.night.get("mutual_kills", "draw") == "draw"
    for i, k in enumerate(kills if draw else ()):
        for m in kills[i + 1 :]:
            if k.failed or m.failed or k.actor == m.actor:
                continue
            if (
                k.targets == [m.actor]
                and m.targets == [k.actor]
                and not k.strengthened
                and not m.strengthened
                and not protected_from_kill(r, k.actor)
                and not protected_from_kill(r, m.actor)
            ):
                winner = r.rng.choice([k, m])
                loser = m if winner is k else k
                loser.failed = (
                    f"{k.actor} and {m.actor} target each other without kill "
                    f"protection; the draw went to {winner.actor}"
                )
                r.event(tier, loser.label(), "fails", loser.failed)
    victims: dict[str, list[Action]] = {}
    for k in kills:
        if k.failed:
            continue
        t = k.targets[0]
        tag = kill_tag(r, k)
        r.attacks.setdefault(t, []).append(k)
        wasted = k.ability.params.get("wasted_if_attacked_by", ())
        if any(
            o is not k
            and not o.failed
            and o.targets == [t]
            and o.ability.params.get("tag") in wasted
            for o in kills
        ):
            k.failed = f"{t} is attacked by the {'/'.join(wasted)} too: the {tag} is wasted"
            r.event(tier, k.label(), "wasted", k.failed)
            continue
        if not r.state.players[t].alive:
            k.failed = f"{t} is already dead"
            r.event(tier, k.label(), "no effect", k.failed)
            continue
        reason = _saved_by(r, k, t, tier)
        if reason:
            k.failed = reason
            r.event(tier, k.label(), "fails", reason)
            continue
        if _turns(r, k, t, tier):
            continue
        victims.setdefault(t, []).append(k)
    how = "nightkill" if r.phase == "night" else "other"
    for t in list(victims):
        for s in sneaks_at(r, t):
            # 000 Sneak: "anyone who targets their target will get them as well".
            if s not in victims and r.state.players[s].alive:
                victims[s] = victims[t]
    for protection in r.sacrifices:
        g = protection.actor
        r.event(tier, protection.label(), f"{g} dies protecting {protection.targets[0]}")
        die(r, g, how, f"died protecting {protection.targets[0]} ({protection.ability.name})",
            (), tier)
    for protection, attacker in r.avenged:
        r.event(tier, protection.label(), f"kills the attacker, {attacker}")
        die(r, attacker, how, f"killed by {protection.actor} ({protection.ability.name})",
            (protection.actor,), tier)
    r.sacrifices, r.avenged = [], []
    for t, ks in victims.items():
        killers = tuple(sorted({name for k in ks for name in _killers(r, k)}))
        for k in ks:
            r.event(tier, k.label(), f"kills {t}")
        if not die(r, t, how, " and ".join(k.label() for k in ks), killers, tier):
            continue
        blaster = r.state.passive(t, "on_killed")
        if blaster == "shoot_attacker":
            held = r.state.players[t].items
            r.state.players[t].items = [  # a one-shot item: gone once fired
                i for i in held if r.rules.items.get(i) is None
                or r.rules.items[i].passives.get("on_killed") != "shoot_attacker"
            ]
            # 000 Hold-out Blaster: "he gets a shot off on his attacker".
            for k in ks:
                if r.state.players[k.actor].alive and k.actor != t:
                    r.event(tier, f"{t} ({r.state.role_title(t)})", f"shoots {k.actor}",
                            "hold-out blaster")
                    die(r, k.actor, how, f"shot by {t}'s hold-out blaster", (t,), tier)
        for k in ks:
            visible = k.ability.params.get("after_kill_visible")
            if visible:
                r.state.players[k.actor].visible["alignment"] = str(visible)
            if r.state.passive(t, "on_killed") == "explode" and not k.strengthened:
                _explode(r, t, k, tier)
            if r.state.passive(t, "on_killed") == "injure_attacker" and k.actor != t:
                # 004 Akai's Vengeance: "If killed successfully, he will injure his attacker
                # before he dies."
                injure(r, k.actor, tier, f"{t}'s vengeance")


def _explode(r: Resolution, bomb: str, k: Action, tier: str) -> None:
    """002: the killer dies too; for the mafia kill a random non-leader member (or the Ninja)."""
    if k.hastened_by:
        victim, why = k.hastened_by, f"{k.hastened_by} hastened the kill"
    elif k.order.side:
        members = [m for m in r.state.side_members(k.order.side) if m != bomb]
        plain = [m for m in members if not r.state.passive(m, "leader")] or members
        if not plain:
            return
        victim = r.rng.choice(sorted(plain))
        why = (
            f"drawn at random from the {k.order.side}"
            if len(plain) > 1
            else f"the only one of the {k.order.side} it can take"
        )
    else:
        victim, why = k.actor, "the killer"
    r.event(tier, f"{bomb} ({r.state.role_title(bomb)})", f"explodes on {victim}", why)
    die(r, victim, "nightkill", f"caught in {bomb}'s explosion", (bomb,), tier)


def body_double(r: Resolution, name: str, tier: str, what: str) -> bool:
    """000 Body Double: "stops all other forms of death/capture" (not a lynch), once."""
    uses = int(r.state.passive(name, "body_double", 0) or 0)
    player = r.state.players[name]
    if not uses or player.used.get("body_double", 0) >= uses:
        return False
    player.used["body_double"] = player.used.get("body_double", 0) + 1
    r.event(tier, name, f"the body double takes the {what}", f"{name} is safe; it is used up")
    return True


def returned_captives(r: Resolution, abductor: str, tier: str) -> None:
    """000: "If he is killed, all abducted players are returned to the game."""
    for name, p in r.state.players.items():
        if f"abducted-by:{abductor}" in p.statuses:
            p.statuses -= {"out", f"abducted-by:{abductor}"}
            r.public.append(r.say("returned", player=name))
            r.event(tier, name, "returns to the game", f"{abductor}, their abductor, died")


def sneaks_at(r: Resolution, place: str) -> list[str]:
    """Sneaks spending the night in `place`'s house ("anyone who targets their target will
    get them as well")."""
    return sorted(
        b.actor
        for b in r.actions
        if b.kind == "sneak" and b.targets == [place] and r.sneaking(b.actor) is b
    )
