"""Protection and kills: protections are recorded and kills collected
(`deaths.resolve_kills` lands a tier's kills together); a side's kill boosted (Strongman,
Ninja) or bribed (004), a Plasma Bomb's blast (000), a victim's body erased (004)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.engine.abilities.reach import cannot_act
from assistant.engine.abilities.watching import reached, visits

if TYPE_CHECKING:
    from assistant.engine.resolution import Action, Resolution


def protect(r: Resolution, a: Action, tier: str) -> None:
    if a.ability.params.get("shared_with_lover") and not _lovers_turn(r, a, tier):
        return
    for t in a.targets:
        r.protections.setdefault(t, []).append(a)
        if r.phase == "day" and a.ability.params.get("day_status"):
            # 004 Lovey-Dovey by day: "This protect will hinder lynching" ([night]
            # vote_statuses lynch_immune).
            r.state.players[t].day_statuses.add(str(a.ability.params["day_status"]))
        r.event(
            tier,
            a.label(),
            f"protects {t}",
            "against " + ", ".join(a.ability.params.get("against", ["all"])),
        )


def _lovers_turn(r: Resolution, a: Action, tier: str) -> bool:
    """004 Lovey-Dovey, the pair's one use (`shared_with_lover`, with `once_per_number`):
    "Just one lover can use protect. They can't protect each other in the same phase"; "You
    can only protect once per Day/Night ... Then neither of the lovers can use protect on day
    1 anymore". The first handled stands; both lovers are marked for that number."""
    mark = f"{a.ability.name}#"
    if r.state.players[a.actor].used.get(mark) == r.number:
        a.failed = "the lovers protect once a night and day, one of them"
        r.event(tier, a.label(), "fails", a.failed)
        return False
    for who in filter(None, (a.actor, r.state.lover_of(a.actor))):
        r.state.players[who].used[mark] = r.number
    return True


def kill(r: Resolution, a: Action, tier: str) -> None:
    r.kills.append(a)


def plasma(r: Resolution, a: Action, tier: str) -> None:
    """000 Plasma Bomb: the target and anyone interacting with the target, and anyone
    interacting with them, and so on; only people physically there (visits), never the
    bomber unless he targets himself; cannot be protected against."""
    start = a.targets[0]
    near: dict[str, set[str]] = {}
    for b in r.actions:
        if b is a or not visits(b) or b.kind == "plasma":
            continue
        for place in reached(r, b):
            if place != b.actor:
                near.setdefault(b.actor, set()).add(place)
                near.setdefault(place, set()).add(b.actor)
    caught, todo = {start}, [start]
    while todo:
        for other in near.get(todo.pop(), ()):
            if other not in caught:
                caught.add(other)
                todo.append(other)
    if start != a.actor:
        caught.discard(a.actor)
    for v in sorted(caught):
        blast = replace(a, targets=[v], strengthened=True)
        r.kills.append(blast)
    r.event(tier, a.label(), f"the blast reaches {', '.join(sorted(caught))}")


#: The status of a body whose identity is not shown (004's Erase and Bribe).
ERASED = "erased"


def _side_kill(r: Resolution, a: Action) -> Action | None:
    side = r.state.players[a.actor].side
    return next(
        (b for b in r.actions if b.order.side == side and b.kind == "kill"), None
    )


def erase(r: Resolution, a: Action, tier: str) -> None:
    """004 Erase: the body of the side's victim tonight is not shown; "The eraser is the only
    one who becomes privy to the identity of the erased body". Always on the eraser's own
    kill; on another member's kill `others_uses` times a game ("Once per game, Pisco may opt
    to erase a victim killed by another Black Org member")."""
    k = _side_kill(r, a)
    victim = k.targets[0] if k is not None and not k.failed else None
    if victim is None or r.state.players[victim].alive:
        r.event(tier, a.label(), "nothing to erase", "the side killed nobody tonight")
        return
    mine = r.state.players[a.actor]
    if k is not None and k.actor != a.actor:
        key = f"{a.ability.name}:others"
        if mine.used.get(key, 0) >= int(a.ability.params.get("others_uses", 0)):
            r.event(tier, a.label(), "fails", f"{k.actor}'s kill, and the one use on another's "
                    "kill is spent")
            return
        mine.used[key] = mine.used.get(key, 0) + 1
    _erase(r, victim, a.actor, tier, a.label())


def _erase(r: Resolution, victim: str, reader: str, tier: str, label: str) -> None:
    r.state.players[victim].statuses.add(ERASED)
    r.pm_later(reader, r.say("erased_body", target=victim, role=r.state.role_title(victim)),
               needs_alive=True)
    r.event(tier, label, f"{victim}'s body is erased", f"only {reader} learns who it was")


def apply_bribes(r: Resolution) -> None:
    """004 Bribe, before any tier: "The Black Org's kill that night cannot be hindered by any
    means whatsoever, including an arrest on the killing player"; the victim's body is
    erased ("only the killing player will learn their identity"). The Bribe itself "is
    absolute and cannot be stopped in any way"."""
    for a in r.actions:
        if a.kind != "bribe" or a.done:
            continue
        a.done, a.stayed = True, True
        r.state.spend(a.actor, a.ability)
        k = _side_kill(r, a)
        if k is None:
            r.event(a.tier, a.label(), "no effect", "the side sent no kill tonight")
            continue
        k.strengthened = k.bribed = True
        r.event(a.tier, a.label(), f"{k.label()} cannot be hindered")


def bribed_kill_on(r: Resolution, name: str) -> Action | None:
    """The bribed kill `name` carries out or suffers tonight, if any."""
    return next((b for b in r.actions if b.bribed and name in (b.actor, *b.targets)), None)


def after_bribes(r: Resolution, tier: str) -> None:
    """A bribed kill's victim is erased for the killer alone; a protection of the victim or
    a discombobulation of the killer "will fail as if discombobulated"."""
    for k in [b for b in r.actions if b.bribed]:
        victim = k.targets[0]
        if not r.state.players[victim].alive:
            _erase(r, victim, k.actor, tier, k.label())
        for b in r.actions:
            hit = (b.kind in ("protect", "heal") and victim in b.targets) or (
                b.kind == "block" and k.actor in b.targets
            )
            if hit and b.actor != k.actor:
                r.pm_later(b.actor, r.say("action_failed"), needs_alive=True)
                r.event(tier, b.label(), "fails", "the Black Org bribed the GM tonight")


def apply_boosts(r: Resolution) -> None:
    """Strongman / Ninja: change the side's kill before any tier runs (it may move tiers)."""
    for a in r.actions:
        if a.kind != "boost" or a.done:
            continue
        a.done = True
        tier = a.tier
        reason = cannot_act(r, a, tier)
        if reason:
            a.failed = reason
            r.event(tier, a.label(), "fails", reason + "; the use is spent")
            continue
        side = r.state.players[a.actor].side
        target = next((b for b in r.actions if b.order.side == side), None)
        if target is None:
            r.event(tier, a.label(), "no effect", f"the {side} sent no kill tonight")
            continue
        effect = a.ability.params["effect"]
        if effect == "hasten":
            target.tier, target.hastened_by = str(a.ability.params["to_tier"]), a.actor
        else:
            target.strengthened = True
        r.event(tier, a.label(), f"{effect}s {target.label()}")
