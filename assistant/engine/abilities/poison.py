"""Poison and wards (004's APTX4869, Sherry's Poison and the Health Charm): a right
guess kills unless warded or protected, a wrong one spends the poison; an arrest of the
poisoner confiscates it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from assistant.engine import deaths
from assistant.engine.abilities.claim_checks import role_chosen
from assistant.engine.abilities.wording import fmt

if TYPE_CHECKING:
    from assistant.engine.resolution import Action, Resolution


def _ward_until(status: str, name: str) -> int | None:
    head = f"ward:{name}-until:"
    return int(status[len(head):]) if status.startswith(head) else None


def ward(r: Resolution, a: Action, tier: str) -> None:
    """004 Charm: "The same phase and the phase afterwards, the target will be protected from
    APTX poisoning": the status `ward:NAME-until:K` (`ward`, `lasts` phases), used up only
    when it stops something."""
    t, params = a.targets[0], a.ability.params
    until = r.index + int(params.get("lasts", 1)) - 1
    r.state.players[t].statuses.add(f"ward:{params['ward']}-until:{until}")
    if params.get("target_pm"):
        r.pm_later(t, fmt(params["target_pm"], target=t), needs_alive=True)
    r.event(tier, a.label(), f"{t} holds the {params['ward']}", f"until phase {until}")


def _spend_poison(r: Resolution, a: Action) -> int | None:
    """One poison gone (a failed attempt, a confiscation): from the side's stock, or a use of
    the actor's own (`spend_on = "failure"`, Sherry's two); what is left."""
    if a.ability.params.get("stock"):
        return r.state.use_stock(a.actor, a.ability)
    r.state.spend(a.actor, a.ability)
    return r.state.uses_left(a.actor, a.ability)


def _warded(r: Resolution, t: str, names: list[str]) -> str | None:
    """A ward of `names` the target holds now: used up, and its name."""
    player = r.state.players[t]
    for s in sorted(player.statuses):
        for name in names:
            until = _ward_until(s, name)
            if until is not None and until >= r.index:
                player.statuses.discard(s)
                return name
    return None


def poison(r: Resolution, a: Action, tier: str) -> None:
    """004 APTX4869 (and Sherry's Poison): the poisoner names the target's character
    ("APTX: Kleene = Shinichi"). Right: "The target was that role (success). The BO will
    keep the ATPX. The actions and the votes of the victim doesn't count and the target
    dies." Wrong: "The APTX will be used up and the BO will lose it. The victim won't know
    that he was targeted. The BO will get a message that the APTX failed and how many APTX
    are left." A ward (`stopped_by_wards`: the Health Charm) or a protection against the
    ability's `tag` (Lovey-Dovey) stops a right guess, and the APTX is lost."""
    t, params = a.targets[0], a.ability.params
    guess = a.order.choice
    right = guess is None or r.state.players[t].role == role_chosen(r, a)
    if right:
        stopped = _warded(r, t, list(params.get("stopped_by_wards", ())))
        tag = str(params.get("tag", a.ability.name))
        guard = next(
            (p for p in r.protections.get(t, []) if tag in p.ability.params.get("against", ())),
            None,
        )
        if stopped or guard is not None:
            if guard is not None:
                deaths.rest_lovers(r, guard, tier)
            left = _spend_poison(r, a)
            why = f"{t} holds the {stopped}" if stopped else f"{t} is protected by {guard.actor}"
            a.failed = why
            r.event(tier, a.label(), "fails", f"{why}: the {a.ability.name} is lost ({left} left)")
            return
        r.event(tier, a.label(), f"kills {t}", f"{t} is {r.state.role_title(t)}")
        how = "nightkill" if r.phase == "night" else "other"
        deaths.die(r, t, how, f"{a.ability.name} by {a.actor}", (a.actor,), tier)
        return
    left = _spend_poison(r, a)
    a.failed = f"{t} is not {guess}"
    r.event(tier, a.label(), "fails", f"{t} is not {guess}: used up ({left} left)")
    if params.get("failed_pm"):
        r.pm_later(a.actor, fmt(params["failed_pm"], target=t, left=left), needs_alive=False)


def when_stopped(r: Resolution, a: Action, tier: str) -> None:
    """What an action stopped before it acted leaves behind: 004's "Arresting the BO member
    who does the poisoning WILL hinder the poisoning. In this case, the APTX is confiscated!"
    (`confiscated_by` block kinds); "If APTX is confiscated in an arrest, the APTX will be
    randomly given to Haibara, Satou, or Okiya if they are in the game" (`confiscated_to`
    roles, as the item `confiscated_item`)."""
    params = a.ability.params
    kinds = r.block_kinds.get(a.actor, set())
    if a.kind != "poison" or not kinds & set(params.get("confiscated_by", ())):
        return
    left = _spend_poison(r, a)
    takers = sorted(
        n for n, p in r.state.players.items()
        if p.alive and "out" not in p.statuses and p.role in params.get("confiscated_to", ())
    )
    item = params.get("confiscated_item")
    if takers and item:
        taker = r.rng.choice(takers)
        r.state.players[taker].items.append(str(item))
        r.event(tier, a.label(), "confiscated", f"given to {taker} ({left} left with the side)")
        if params.get("given_pm"):
            r.pm(taker, fmt(params["given_pm"], target=taker))
    else:
        r.event(tier, a.label(), "confiscated", f"out of play ({left} left with the side)")
