"""What the end of the night brings: lovers who survived, roles stolen from the
night's victim, thefts told, bribes and loans settled, standing tech's reports,
first-night notices, attack notices, and the reports to a side's leader."""

from __future__ import annotations

from typing import TYPE_CHECKING

from assistant.engine.abilities.investigations import goal_tonight
from assistant.engine.abilities.items import return_loans, tell_thefts
from assistant.engine.abilities.kills import after_bribes
from assistant.engine.abilities.lovers import make_lovers
from assistant.engine.abilities.watching import reached, seen_going, visits
from assistant.engine.abilities.wording import role_words
from assistant.engine.state import disguise_of

if TYPE_CHECKING:
    from assistant.engine.resolution import Action, Resolution


def finish(r: Resolution) -> None:
    """Effects decided by the end of the night: lovers who survived, theft, attack notices."""
    tier = r.tiers[-1] if r.tiers else "end"
    for a in r.after_night:
        if a.kind == "lovers":
            dead = [t for t in a.targets if not r.state.players[t].alive]
            if dead:
                r.event(
                    tier, a.label(), "no lovers", f"{', '.join(dead)} did not survive the night"
                )
                r.state.players[a.actor].used[a.ability.name] = 0
            else:
                make_lovers(r, a, tier)
        elif a.kind == "steal":
            victims = [
                d.player
                for d in r.deaths
                if d.killers
                and any(
                    b.order.side == r.state.players[a.actor].side
                    and b.targets == [d.player]
                    and not b.failed
                    for b in r.actions
                )
            ]
            if not victims or r.state.players[victims[0]].role is None:
                r.event(tier, a.label(), "nothing to steal", "the use is spent")
                r.pm(a.actor, r.say("theft_empty"))
                continue
            role = r.state.players[victims[0]].role
            r.state.players[a.actor].role = role
            r.event(tier, a.label(), f"steals {victims[0]}'s role ({r.state.role_title(a.actor)})")
            r.pm(a.actor, r.say("role_now", **role_words(r.rules, r.state.role_title(a.actor))))
    tell_thefts(r)
    if r.phase != "night":
        return
    after_bribes(r, tier)
    return_loans(r, tier)
    _gadgets(r, tier)
    for name in r.state.players:
        for ab in r.state.abilities_of(name).values():
            tags = ab.params.get("notify_attacks")
            # Told during the night, before its kills land: a healer attacked himself is
            # still told ("The healer may heal himself", 001).
            if not tags or name not in r.alive_at_start:
                continue
            left = r.state.uses_left(name, ab)
            healed = any(a.actor == name and a.ability is ab for a in r.actions)
            if left is not None and left <= 0 and not healed:
                continue
            attacked = sorted(
                t
                for t, ks in r.attacks.items()
                if any(k.ability.params.get("tag") in tags for k in ks)
            )
            hit = [
                t
                for t in attacked
                if not all(
                    k.failed and "protected" in k.failed and not _healed_by(k, name)
                    for k in r.attacks[t]
                )
            ]
            # Sent during the night, so the healer can still choose to save (seed 001).
            r.notice(
                name, r.say_to(name, "attack_notice", victims=hit) if hit
                else r.say("no_victims")
            )


def reports_to_leaders(r: Resolution, results: dict[str, list[str]]) -> None:
    """004 FBI Leader: "After each night, James will receive two results from his
    subordinates chosen at random (the number of reports he gets relies on the number of
    subordinates in the game, but he may not receive more than two)"; "With concern to Akai,
    James will receive only one of his investigations. In the case of Kir, James will
    receive only one of her actions ... chosen at random": the passive `reports_from = {
    roles, most }`: up to `most` subordinates with results tonight (a role or disguise of
    `roles`), drawn at random, one result of each, drawn at random."""
    for name in sorted(r.state.players):
        spec = r.state.passive(name, "reports_from")
        if not spec or not r.state.players[name].alive or "report" not in r.rules.messages:
            continue
        roles = list(spec.get("roles", ()))  # type: ignore[attr-defined]
        subs = sorted(
            n for n, p in r.state.players.items()
            if n != name and results.get(n) and (p.role in roles or disguise_of(p) in roles)
        )
        most = int(spec.get("most", 2))  # type: ignore[attr-defined]
        for n in sorted(r.rng.sample(subs, min(most, len(subs)))):
            p = r.state.players[n]
            worn = disguise_of(p) if disguise_of(p) in roles else None
            who = r.rules.role(worn or str(p.role)).title.split(",")[0]
            line = r.rng.choice(results[n])
            r.pm(name, r.say("report", character=who, result=line))
            r.event("results", f"report to {name}", f"from {n} ({who})", line)


def first_night_counts(r: Resolution, name: str) -> None:
    """004, told "At the onset of the round" (a notice of Night 1, drafted before its
    results: `draft pms` with the night open): the FBI Leader "is
    given notice of how many of his subordinated (Jodie, Akai, Camel, Kir) are in the game.
    This count includes characters disguised as his subordinated", with a hint when one is
    disguised; Kir (NOC) "gets to know how many Black Org members are present in the current
    game". The passive `counts_on_first_night = { roles | side, say, disguised }`."""
    spec = r.state.passive(name, "counts_on_first_night")
    if not spec:
        return
    roles = set(spec.get("roles", ()))  # type: ignore[attr-defined]
    side = spec.get("side")  # type: ignore[attr-defined]
    others = [p for n, p in r.state.players.items() if n != name]
    if side:
        n = sum(1 for p in others if p.side == side)
        worn = 0
    else:
        n = sum(1 for p in others if p.role in roles or disguise_of(p) in roles)
        worn = sum(1 for p in others if disguise_of(p) in roles)
    r.notice(name, r.say(str(spec["say"]), n=n))  # type: ignore[index]
    if worn and spec.get("disguised"):  # type: ignore[attr-defined]
        r.notice(name, r.say(str(spec["disguised"])))  # type: ignore[index]


def _gadgets(r: Resolution, tier: str) -> None:
    """What 000's standing tech reports at the end of the night: the Surveillance System
    (visitors and their general purpose), Advanced Tracking Devices (where the tracked
    player went; lost if they died), Intel (every role in the game, on the first night);
    a Holoform seen by an investigation is used up."""
    for a in r.actions:
        if a.kind == "disguise" and a.actor in r.disguises_seen:
            if a.ability.params.get("spend_on") == "success":
                r.state.spend(a.actor, a.ability)
                used = r.state.players[a.actor].used
                for other in a.ability.params.get("spends", ()):
                    used[str(other)] = max(used.get(str(other), 0), 1)  # the same device
    for name, p in r.state.players.items():
        if not p.alive:
            continue
        if r.state.passive(name, "surveillance"):
            seen = sorted(
                {f"{b.actor} ({goal_tonight(r, b.actor)})"
                 for b in r.actions if name in reached(r, b) and b.actor != name and visits(b)}
            )
            r.pm_later(name, r.say("surveillance", visitors=", ".join(seen) or "nobody"),
                       needs_alive=True)
        told = r.state.passive(name, "told_on_first_night")
        if told and r.number == 1:
            # 000 Agent Operative: "not told who the Agent is until the First Night".
            who = [n for n, q in r.state.players.items() if q.role == told and q.alive]
            r.pm(name, r.say("told_role", role=r.rules.role(str(told)).title,
                             players=", ".join(who) or "nobody alive"))
        if r.number == 1:
            first_night_counts(r, name)
        if r.state.passive(name, "intel") and r.number == 1:
            titles = sorted(r.state.role_title(n) for n in r.state.players)
            r.pm(name, r.say("intel", roles=", ".join(titles)))
    for name, p in r.state.players.items():
        for s in sorted(p.statuses):
            if not s.startswith("tracked-by:"):
                continue
            owner = s.split(":", 1)[1]
            if not p.alive:
                p.statuses.discard(s)
                r.event(tier, f"{owner}'s tracking device", f"lost with {name}")
                continue
            went = ", ".join(sorted(seen_going(r, name))) or "home"
            if r.state.level(name, "anti_tech") >= 2:
                went = "home"  # "Tracking devices will show the player at home"
            r.pm_later(owner, r.say("tracked", target=name, result=went), needs_alive=True)


def _healed_by(k: Action, name: str) -> bool:
    return bool(k.failed) and f"protected by {name}" in str(k.failed)
