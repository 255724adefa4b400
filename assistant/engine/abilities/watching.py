"""Who went where: what counts as a visit; watchers and stake-outs (who visited, what
was done to a player, a killer's trait); followers and trackers (where a player went, or
their hologram); 000's Sneak."""

from __future__ import annotations

from typing import TYPE_CHECKING

from assistant.engine.abilities.claim_checks import passive_seen
from assistant.engine.abilities.wording import fmt

if TYPE_CHECKING:
    from assistant.engine.resolution import Action, Resolution


def visits(b: Action) -> bool:
    """Whether `b` is a visit to its targets, for watchers and trackers alike: any action
    that set out, whether or not it worked where it arrived (a kill a doctor stopped is a
    visit); not one stopped at its actor (dead, roleblocked), which did not happen."""
    return not b.stayed and bool(b.ability.params.get("visits", True))


def _done_to(r: Resolution, a: Action, t: str) -> str:
    """004 Stake-out: "learns of all actions performed to a player that night", not how
    often nor by whom: "Kleene was slandered, interrogated, investigated and healed/First
    Aided" (the ruleset's `[night] done_words`, else the keyword with "ed")."""
    words = dict(r.rules.night.get("done_words", {}))
    done = []
    for act in r.acts_now():
        if t in act.targets and act.actor != a.actor and act.happened:
            base = act.keyword
            word = str(words.get(base, base + ("d" if base.endswith("e") else "ed")))
            if word not in done:
                done.append(word)
    if not done:
        return str(a.ability.params.get("nothing", "nothing was done"))
    # The words `[night.done_order]` lists, in its order, in the places they took; the
    # others stay where they were done ("attacked and healed/First Aided").
    order = list(dict(r.rules.night.get("done_order", {})).get("words", ()))
    places = [i for i, w in enumerate(done) if w in order]
    for i, w in zip(places, sorted((done[i] for i in places), key=order.index), strict=True):
        done[i] = w
    listed = done[0] if len(done) == 1 else ", ".join(done[:-1]) + " and " + done[-1]
    return f"{t} was {listed}"


def _killer_seen(r: Resolution, a: Action, t: str, tier: str) -> None:
    """004 Stake-out of a player killed that night: "If the target was killed, then you
    won't get any results back. If the target is killed the night you stake them out, you
    learn from the GM the gender of the killer. This does not circumvent disguises": the
    ability's `killer_field` passive of each killer (a kill or a poison that landed on
    them), as observed (the disguise's, a random one drawn once a phase); `killed_pm`."""
    field = a.ability.params.get("killer_field")
    killers = [
        k.actor for k in r.actions
        if k.kind in ("kill", "poison") and t in k.targets and not k.failed and k.done
    ]
    if not field or not killers:
        r.event(tier, a.label(), "no result", f"{t} was killed tonight")
        return
    seen = list(dict.fromkeys(passive_seen(r, a, k, str(field), r.worn_at_start.get(k))
                              for k in killers))
    answer = " and ".join(seen)
    r.event(tier, a.label(), f"learns the {field} of {t}'s killer: {answer}",
            f"{t} was killed tonight")
    r.pm_later(a.actor, fmt(a.ability.params.get("killed_pm", "{target}: {answer}."),
                             target=t, answer=answer, field=field), needs_alive=True)


def watch(r: Resolution, a: Action, tier: str) -> None:
    t = a.targets[0]
    if a.ability.params.get("report") == "actions":
        if not r.state.players[t].alive:
            _killer_seen(r, a, t, tier)
            return
        result = _done_to(r, a, t)
        r.event(tier, a.label(), f"learns: {result}")
        r.pm_later(
            a.actor,
            fmt(a.ability.params.get("result_pm", "{result}."), target=t, result=result),
            needs_alive=True,
        )
        return
    seen = sorted(
        {b.actor for b in r.actions if t in b.targets and b.actor != a.actor and visits(b)}
    )
    result = ", ".join(seen) or a.ability.params.get("nobody", "nobody")
    r.event(tier, a.label(), f"sees {result}")
    r.pm_later(
        a.actor,
        fmt(a.ability.params.get("result_pm", "{target}: {result}"), target=t, result=result),
        needs_alive=False,
    )


def went_to(r: Resolution, who: str) -> set[str]:
    """Where `who` went tonight: the targets of their actions that were visits, not home."""
    return {x for b in r.actions if b.actor == who and visits(b) for x in b.targets} - {who}


def reached(r: Resolution, a: Action) -> set[str]:
    """The houses action `a` reaches: its targets and, for a follow that `goes_along`
    (000's Reporter, who can "track anyone anywhere"), wherever the followed player went."""
    places = set(a.targets)
    if a.kind == "follow" and a.ability.params.get("goes_along"):
        places |= seen_going(r, a.targets[0])
    return places


def follow(r: Resolution, a: Action, tier: str) -> None:
    t = a.targets[0]
    went = sorted(seen_going(r, t))
    result = ", ".join(went) or a.ability.params.get("nobody", "nowhere")
    r.event(tier, a.label(), f"sees {t} visit {result}")
    r.pm_later(
        a.actor,
        fmt(a.ability.params.get("result_pm", "{target}: {result}"), target=t, result=result),
        needs_alive=False,
    )


def sneak(r: Resolution, a: Action, tier: str) -> None:
    """000 Sneak: learns whether the target leaves their house; stays there all night."""
    t = a.targets[0]
    left = bool(went_to(r, t))
    result = str(a.ability.params["left" if left else "stayed"])
    r.event(tier, a.label(), f"{t} {'leaves' if left else 'stays home'}")
    r.pm_later(
        a.actor, fmt(a.ability.params["result_pm"], target=t, result=result), needs_alive=True
    )


def seen_going(r: Resolution, who: str) -> set[str]:
    """Where a follower sees `who` go tonight: their hologram's place if they project one
    (000), else where they went."""
    if who in r.holograms:
        return {r.holograms[who]} - {who}
    return went_to(r, who)


def plant(r: Resolution, a: Action, tier: str) -> None:
    """000 Advanced Tracking Device: planted by day, reports each night where they went."""
    t = a.targets[0]
    r.state.players[t].statuses.add(f"tracked-by:{a.actor}")
    r.event(tier, a.label(), f"a tracking device is on {t}")
