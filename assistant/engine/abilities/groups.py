"""Groups and ranks: an action a group takes together (004's Detective Boys) and its
result shared; a side's shared stock spent by rank, its kill cycle; an ally covered; a
side's activity betrayed."""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.engine.abilities.arrests import ARRESTED
from assistant.engine.abilities.wording import fmt, noun_of
from assistant.engine.rules import AbilityDef, phase_index
from assistant.engine.state import COVER

if TYPE_CHECKING:
    from assistant.engine.resolution import Action, Resolution
    from assistant.engine.state import GameState


def group_rank(state: GameState, actor: str, ability: AbilityDef) -> int:
    """Where the actor's character stands in the ability's `group_rank` (004's Detective
    Boys: "The ranking of the DB are: Ayumi, Mitsuhiko, Genta")."""
    ranks = list(ability.params.get("group_rank", ()))
    role = state.players[actor].role
    return ranks.index(role) if role in ranks else len(ranks)


def group_members(r: Resolution, a: Action) -> list[str]:
    """The players in the game (alive, not out) holding an ability of `a`'s `group`, in
    the group's rank."""
    group = a.ability.params.get("group")
    found = [
        n for n, p in r.state.players.items()
        if p.alive and "out" not in p.statuses
        and any(ab.params.get("group") == group for ab in r.state.abilities_of(n).values())
    ]
    return sorted(found, key=lambda n: (group_rank(r.state, n, a.ability), n))


def settle_groups(r: Resolution) -> None:
    """An action a `group` takes together (004 Detective Boys' Identify): "If one of the
    Detective Boys is prevented from using his day ability (for example by Tequila), the
    Identification could either succeed or fail, depending on the number of undisturbed
    Detective Boys. For example if 2 other DB are still in the game, the chance to fail is
    1/3. If only one more is still active the chance to fail is 1/2. If it is the last DB it
    will always fail." Read: it fails with the share of the group hindered (drawn with the
    game's seed); when it goes ahead, an undisturbed member carries it out."""
    off = set(r.rules.night.get("disabling_statuses", ()))
    for a in r.actions:
        if a.done or not a.ability.params.get("group"):
            continue
        members = group_members(r, a)
        hindered = [
            m for m in members
            if r.is_blocked(_as_member(a, m)) or off & r.state.players[m].statuses
        ]
        free = [m for m in members if m not in hindered]
        if not hindered or not free:
            continue  # all undisturbed, or none: it acts, or fails, as the sender's would
        group = a.ability.params["group"]
        share = f"{len(hindered)} of the {len(members)} {group} hindered ({', '.join(hindered)})"
        if r.rng.random() < len(hindered) / len(members):
            a.done, a.failed = True, f"{share}: it fails, the GM's draw"
            r.event(a.tier, a.label(), "fails", a.failed)
            if "action_failed" in r.rules.messages:
                for m in free:
                    r.pm_later(m, r.say("action_failed"), needs_alive=True)
            continue
        if a.actor in hindered:
            a.order = replace(a.order, actor=free[0])
        r.event(a.tier, a.label(), "goes ahead", f"{share}: the GM's draw lets it through")


def _as_member(a: Action, member: str) -> Action:
    """`a` as another member of its group would send it (to ask what blocks them)."""
    b = copy.copy(a)
    b.order = replace(a.order, actor=member)
    return b


def share_with_group(r: Resolution, a: Action, start: int) -> None:
    """The result of a `group` action goes to every member in the game (004: "Decide
    together to Identify one person's role")."""
    if not a.ability.params.get("group"):
        return
    mine = [p for p in r.pending_pms[start:] if p.player == a.actor]
    for m in group_members(r, a):
        if m != a.actor:
            r.pending_pms += [replace(p, player=m, role=r.state.players[m].role) for p in mine]


def rank_of(r: Resolution, name: str) -> tuple[int, int]:
    """Where a player stands in their side's `rank` passive (004's Black Org: "the
    higher-ranked BO members"): a leader first, then the list's order of characters (their
    own, not a disguise's), then anyone the list does not name."""
    return r.state.rank_key(name)


def ration_stock(r: Resolution, ready: list[Action], tier: str) -> list[Action]:
    """More attempts on a side's shared `stock` than it holds: "If there are more poisoning
    attempts than remaining APTX the higher-ranked BO members poisoning attempts takes
    priority" (004). The stock is counted as the tier begins; the attempts beyond it, by the
    side's `rank`, are not made and spend nothing (the ability's `unfired_pm`)."""
    drawing: dict[str, list[Action]] = {}
    for a in ready:
        if a.ability.params.get("stock"):
            drawing.setdefault(r.state.stock_key(a.actor, a.ability), []).append(a)
    out = list(ready)
    for attempts in drawing.values():
        left = r.state.stock_left(attempts[0].actor, attempts[0].ability) or 0
        if len(attempts) <= left:
            continue
        ranked = sorted(attempts, key=lambda a: (rank_of(r, a.actor), r.actions.index(a)))
        kept = ", ".join(a.actor for a in ranked[:left]) or "nobody"
        for a in ranked[left:]:
            out.remove(a)
            name = a.ability.name
            verb = "ranks" if left == 1 else "rank"
            a.failed = f"{len(attempts)} {name} attempts, {left} {name} left: {kept} {verb} higher"
            r.event(tier, a.label(), "not made", a.failed)
            if a.ability.params.get("unfired_pm"):
                r.pm_later(a.actor, fmt(a.ability.params["unfired_pm"], target=a.targets[0]),
                           needs_alive=True)
    return out


def cover(r: Resolution, a: Action, tier: str) -> None:
    """004 Cover: "Can choose one ally during the day. The next night, Calvados can use one
    night ability from that ally." Allies: the actor's side and lover; "Will not work on
    dead or already arrested allies"."""
    t = a.targets[0]
    ally = r.state.players[t]
    mine = r.state.players[a.actor]
    if ally.side != mine.side and r.state.lover_of(a.actor) != t:
        r.event(tier, a.label(), "no effect", f"{t} is not an ally of {a.actor}")
        return
    if ARRESTED in ally.statuses:
        r.event(tier, a.label(), "no effect", f"{t} is arrested already")
        return
    mine.statuses.add(f"{COVER}{t}:{phase_index(r.rules, r.phase, r.number) + 1}")
    r.event(tier, a.label(), f"{a.actor} may use one of {t}'s night abilities next night")


def betray(r: Resolution, a: Action, tier: str) -> None:
    """004 Betrayal: "She randomly gets to know one activity of the BO that was done on that
    night": a carried-out action of a member of the `side` by their own role (or the side's
    kill); not what was done with a disguise, a cover or the Black Suitcase, nor a Blame.
    Each ability says how it is told (`betrayed_as`), else the ruleset's `betrayal`."""
    side = str(a.ability.params["side"])
    seen = []
    for b in r.actions:
        if b is a or not b.done or b.failed or b.stayed:
            continue
        if r.state.players[b.actor].side != side or b.ability.params.get("unseen"):
            continue
        role = r.state.role_of(b.actor)
        own = role is not None and role.abilities.get(b.ability.name) is b.ability
        if b.order.side or own:
            seen.append(b)
    if not seen:
        r.event(tier, a.label(), "learns nothing", f"the {side} did nothing she can learn")
        r.pm_later(a.actor, r.say("betrayal_nothing"), needs_alive=True)
        return
    b = r.rng.choice(seen)
    character = r.state.role_title(b.actor).split(",")[0]
    text = fmt(b.ability.params.get("betrayed_as", r.rules.messages.get("betrayal", "")),
                character=character, ability=noun_of(b), target=", ".join(b.targets))
    r.event(tier, a.label(), f"learns: {text}")
    r.pm_later(a.actor, text, needs_alive=True)


def kill_turns(r: Resolution) -> None:
    """004: "Every member of the Black Org must kill before a member is allowed a second
    kill. The exceptions to this is if a member is unable to kill due to being arrested or
    lynched, in which case they are no longer factored in to the kill cycle. Once the cycle
    has been completed once, a new order may be decided." A side action with `turns = true`:
    whoever carried it out is marked for the cycle; a member taking a second turn before the
    others (in play) is noted for the GM; the cycle starts over once all have had theirs."""
    for a in r.actions:
        side = a.order.side
        if not side or not a.ability.params.get("turns") or a.stayed or not a.done:
            continue
        key = f"turns:{side}"
        done = [str(n) for n in r.state.extra.get(key, ())]  # type: ignore[attr-defined]
        in_play = [n for n in r.state.side_members(side)
                   if ARRESTED not in r.state.players[n].statuses or n == a.actor]
        waiting = [n for n in in_play if n not in done and n != a.actor]
        if a.actor in done and waiting:
            r.notes.append(
                f"{a.actor} has had a {a.ability.name} this cycle, and {', '.join(waiting)} "
                "not yet: every member of the Black Org must kill before a member is allowed "
                f"a second kill (enter \"{side}: {a.ability.name} ... by NAME\" with one of them)"
            )
        done = [*done, a.actor] if a.actor not in done else done
        if all(n in done for n in in_play):
            done = []  # the cycle is complete: a new order may be decided
        r.state.extra[key] = done
