"""The ability kinds, each implemented once; roles in rulesets/*.toml combine them.

A handler gets the resolution, the action and the tier, and records its effect and
an event. Kills are only collected here; `deaths.resolve_kills` lands them together.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from assistant.engine import deaths

if TYPE_CHECKING:
    from assistant.engine.resolver import Action, Resolution

Handler = Callable[["Resolution", "Action", str], None]

#: The day status of a player whose roleblock lasts into the following day: their day
#: actions fail and a role's extra vote weight is lost (vote_effects.py).
DAY_BLOCK = "roleblocked-day"


def _fmt(template: object, **values: object) -> str:
    return str(template).format(**values)


# ---- blocks and movement -------------------------------------------------------------


def block(r: Resolution, a: Action, tier: str) -> None:
    for t in a.targets:
        if a.ability.params.get("spares_visit_killers") and kills_visitors(r, t):
            # 000: "The Paranoid War Vet and Sentry Gun are not role-blocked by an abduction"
            r.event(tier, a.label(), f"does not roleblock {t}", f"{t} kills anyone visiting them")
            continue
        r.blocked.add(t)
        r.state.players[t].day_statuses.add("roleblocked")
        if a.ability.params.get("through_day"):
            # 002 Roleblocker, 000 Psychic Warden: "for that night and following day".
            r.state.players[t].day_statuses.add(DAY_BLOCK)
        if a.ability.params.get("jail"):
            r.jailed.add(t)
        if a.ability.params.get("target_pm"):
            r.pm(t, _fmt(a.ability.params["target_pm"], target=t))
        r.event(
            tier, a.label(), "jails " + t if a.ability.params.get("jail") else f"roleblocks {t}"
        )


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
                        _fmt(
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


# ---- protection and kills ------------------------------------------------------------


def protect(r: Resolution, a: Action, tier: str) -> None:
    for t in a.targets:
        r.protections.setdefault(t, []).append(a)
        r.event(
            tier,
            a.label(),
            f"protects {t}",
            "against " + ", ".join(a.ability.params.get("against", ["all"])),
        )


def kill(r: Resolution, a: Action, tier: str) -> None:
    r.kills.append(a)


def convert(r: Resolution, a: Action, tier: str) -> None:
    t = a.targets[0]
    tag = a.ability.params.get("tag", a.ability.name)
    player = r.state.players[t]
    guards = [
        p for p in r.protections.get(t, []) if tag in p.ability.params.get("against", ["all"])
    ]
    if not player.alive:
        r.event(tier, a.label(), "wasted", f"{t} was killed during the night")
        return
    if guards:
        r.event(tier, a.label(), "wasted", f"{t} is protected by {guards[0].actor}")
        return
    side = str(a.ability.params["side"])
    player.side, player.role = side, a.ability.params.get("role")
    r.event(tier, a.label(), f"{t} joins the {side}", "loses their old role")
    members = [m for m in r.state.side_members(side) if m != t]
    r.pm(t, r.say("converted", side=r.rules.side(side).title, members=", ".join(members)))
    for m in members:
        r.pm(m, r.say("new_member", player=t, side=r.rules.side(side).title))


# ---- information -----------------------------------------------------------------------


def visible(r: Resolution, target: str, field: str) -> str:
    """What an investigation sees: a set override, the role's disguise, else the truth."""
    st = r.state
    p = st.players[target]
    if field in p.visible:
        return p.visible[field]
    disguise = st.passive(target, f"visible_{field}")
    if field == "alignment":
        return str(disguise) if disguise else st.rules.side(p.side).investigate_as
    if field == "role":
        if disguise:
            return (
                st.rules.roles[str(disguise)].title if disguise in st.rules.roles else str(disguise)
            )
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
    else:
        result = visible(r, t, field)
        inversions = params.get("inversions", {})
        if r.state.passive(a.actor, "inverted") and result in inversions:
            result = inversions[result]
        result = params.get("results", {}).get(result, result)
    if field == "alignment":
        result = _forged(r, a, t, tier) or result
    r.event(tier, a.label(), f"result: {result}")
    r.pm_later(
        a.actor,
        _fmt(params.get("result_pm", "{target}: {result}"), target=t, result=result),
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
            r.pm(name, _fmt(learn, investigator=a.actor, target=t))


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


def visits(b: Action) -> bool:
    """Whether `b` is a visit to its targets, for watchers and trackers alike: any action
    that set out, whether or not it worked where it arrived (a kill a doctor stopped is a
    visit); not one stopped at its actor (dead, roleblocked), which did not happen."""
    return not b.stayed and bool(b.ability.params.get("visits", True))


def watch(r: Resolution, a: Action, tier: str) -> None:
    t = a.targets[0]
    seen = sorted(
        {b.actor for b in r.actions if t in b.targets and b.actor != a.actor and visits(b)}
    )
    result = ", ".join(seen) or a.ability.params.get("nobody", "nobody")
    r.event(tier, a.label(), f"sees {result}")
    r.pm_later(
        a.actor,
        _fmt(a.ability.params.get("result_pm", "{target}: {result}"), target=t, result=result),
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
        places |= went_to(r, a.targets[0])
    return places


def follow(r: Resolution, a: Action, tier: str) -> None:
    t = a.targets[0]
    went = sorted(went_to(r, t))
    result = ", ".join(went) or a.ability.params.get("nobody", "nowhere")
    r.event(tier, a.label(), f"sees {t} visit {result}")
    r.pm_later(
        a.actor,
        _fmt(a.ability.params.get("result_pm", "{target}: {result}"), target=t, result=result),
        needs_alive=False,
    )


# ---- kill on visit ---------------------------------------------------------------------


def kills_visitors(r: Resolution, name: str) -> bool:
    """Whether `name`'s `kill_on_visit` passive is armed now: a night, alive, not switched
    off for the night by its holder, not roleblocked (000 War Vet)."""
    return (
        r.phase == "night"
        and bool(r.state.passive(name, "kill_on_visit"))
        and r.state.players[name].alive
        and (name, "kill_on_visit") not in r.suspended
        and name not in r.blocked
    )


def visit_kills(r: Resolution, acts: list[Action]) -> list[tuple[Action, str]]:
    """(visitor's action, holder) for every visit of `acts` that reaches an armed holder,
    decided before the tier's effects: the holder fires on the visitor's turn, and a block
    landing in the same tier does not save its performer. An ability with
    `triggers_visit_kill = false` (000's Stun Orb) passes unharmed."""
    shots = []
    for a in acts:
        if not visits(a) or not a.ability.params.get("triggers_visit_kill", True):
            continue
        for t in sorted(reached(r, a) - {a.actor}):
            if kills_visitors(r, t):
                shots.append((a, t))
    return shots


def fire_visit_kills(r: Resolution, shots: list[tuple[Action, str]], tier: str) -> None:
    """Land the shots after the visitors' own actions took effect (a deadly visitor and the
    holder both die)."""
    for a, holder in shots:
        if not r.state.players[a.actor].alive:
            continue
        r.event(
            tier,
            f"{holder} ({r.state.role_title(holder)})",
            f"kills {a.actor}",
            f"{a.label()} visited them",
        )
        deaths.die(
            r,
            a.actor,
            "nightkill",
            f"visited {holder} ({r.state.role_title(holder)}), who kills anyone visiting them",
            (holder,),
            tier,
        )


def apply_suspensions(r: Resolution) -> None:
    """The War Vet's "hold fire": the named passive is off for the whole night, from its start.
    Not a visit (the holder stays home) and not stopped by a roleblock, which would take
    the power away anyway."""
    for a in r.actions:
        if a.kind != "suspend" or a.done:
            continue
        a.done, a.stayed = True, True
        passive = str(a.ability.params["passive"])
        if not r.state.players[a.actor].alive:
            r.event(a.tier, a.label(), "fails", "the actor is dead")
            continue
        r.state.spend(a.actor, a.ability)
        r.suspended.add((a.actor, passive))
        r.event(a.tier, a.label(), f"{a.actor}'s {passive} is off tonight")


# ---- lasting effects -------------------------------------------------------------------


def noun_of(a: Action) -> str:
    """The ruleset's name of the ability ("Hex of Death"), else its order word."""
    return str(a.ability.params.get("noun", a.ability.name))


def hex_(r: Resolution, a: Action, tier: str) -> None:
    params = a.ability.params
    t = a.targets[0]
    player = r.state.players[t]
    name = params["hex"]
    if name == "death":
        r.state.pending.append(
            {
                "player": t,
                "night": r.number + int(params.get("after_nights", 2)),
                "cause": f"{noun_of(a)} cast by {a.actor}",
                "then": a.actor,
                "then_cause": f"{a.actor}'s own {noun_of(a)}",
            }
        )
    elif name == "telepathy":
        player.statuses.add(f"telepathy:{a.actor}")
        r.pm_later(
            a.actor,
            _fmt(params["result_pm"], target=t, result=visible(r, t, "alignment")),
            needs_alive=False,
        )
    else:
        player.day_statuses.add(f"{name}:{a.actor}" if params.get("names_caster") else name)
    if params.get("target_pm"):
        r.pm_later(t, _fmt(params["target_pm"], target=t), needs_alive=True)
    r.event(tier, a.label(), f"{t} is under the {noun_of(a)}")


def lovers(r: Resolution, a: Action, tier: str) -> None:
    if a.ability.params.get("needs_survival"):
        r.after_night.append(a)
        r.event(tier, a.label(), "arrow flies", "they fall in love at dawn if both survive")
        return
    _make_lovers(r, a, tier)


def _make_lovers(r: Resolution, a: Action, tier: str) -> None:
    x, y = a.targets
    r.state.lovers.append((x, y))
    role = a.ability.params.get("overwrite_role")
    for me, other in ((x, y), (y, x)):
        if role:
            r.state.players[me].role = str(role)
        r.pm(me, r.say("lovers", lover=other, role=r.state.role_title(other)))
    r.event(tier, a.label(), f"{x} and {y} are lovers")


def steal(r: Resolution, a: Action, tier: str) -> None:
    source = a.ability.params.get("source", "target")
    if source == "nightkill":
        r.after_night.append(a)
        r.event(tier, a.label(), "waits for the nightkill's victim")
        return
    card = str(r.state.extra.get("extra_card", "")) or None
    if source == "extra":
        _take_role(r, a.actor, card)
        r.event(tier, a.label(), f"takes the extra card ({r.state.role_title(a.actor)})")
    else:
        t = a.targets[0]
        taken = r.state.players[t].role
        _take_role(r, a.actor, taken)
        _take_role(r, t, card)
        r.pm(t, r.say("role_stolen", role=r.state.role_title(t)))
        r.event(
            tier,
            a.label(),
            f"takes {t}'s role ({r.state.role_title(a.actor)}); "
            f"{t} becomes {r.state.role_title(t)}",
        )
    r.pm(a.actor, r.say("role_now", role=r.state.role_title(a.actor)))


def _take_role(r: Resolution, name: str, role: str | None) -> None:
    player = r.state.players[name]
    player.role = role
    if role is not None and player.side not in r.rules.role(role).sides:
        player.side = r.rules.role(role).sides[0]


def announce(r: Resolution, a: Action, tier: str) -> None:
    params = a.ability.params
    text = _fmt(
        params.get("text", "{actor}: {ability}"),
        actor=a.actor,
        ability=a.ability.name,
        target=", ".join(a.targets),
    )
    (r.public if params.get("public") else r.notes).append(text)
    r.event(tier, a.label(), "announced" if params.get("public") else "noted for the GM", text)


def revive(r: Resolution, a: Action, tier: str) -> None:
    t = a.targets[0]
    player = r.state.players[t]
    player.alive, player.death = True, None
    r.public.append(_fmt(a.ability.params["text"], actor=a.actor, target=t))
    r.event(tier, a.label(), f"{t} is alive again")


def exorcise(r: Resolution, a: Action, tier: str) -> None:
    t = a.targets[0]
    if not r.state.passive(t, "exorcisable"):
        r.event(tier, a.label(), "no effect", f"{t} is neither a Ghost nor a Zombie")
        return
    r.state.players[t].statuses.add("exorcised")
    r.state.players[t].role = None
    r.public.append(_fmt(a.ability.params["text"], actor=a.actor, target=t))
    r.event(tier, a.label(), f"{t} is removed from the game")


def status(r: Resolution, a: Action, tier: str) -> None:
    """Set a named status on the actor (the Imaginary Friend discards its power)."""
    r.state.players[a.actor].statuses.add(str(a.ability.params["status"]))
    r.event(tier, a.label(), f"{a.actor} is now {a.ability.params['status']}")


def test(r: Resolution, a: Action, tier: str) -> None:
    t = a.targets[0]
    verdict = str(r.state.passive(t, "holy_water", a.ability.params.get("default", "innocent")))
    r.public.append(_fmt(a.ability.params["text"], actor=a.actor, target=t, result=verdict))
    r.state.players[t].day_statuses.add(f"tested:{verdict}")
    r.event(tier, a.label(), f"{t} is {verdict}")


def nothing(r: Resolution, a: Action, tier: str) -> None:
    r.event(tier, a.label(), "done")


HANDLERS: dict[str, Handler] = {
    "block": block,
    "redirect": redirect,
    "hamedo": hamedo,
    "protect": protect,
    "heal": protect,
    "kill": kill,
    "convert": convert,
    "investigate": investigate,
    "forge": forge,
    "watch": watch,
    "follow": follow,
    "hex": hex_,
    "lovers": lovers,
    "steal": steal,
    "announce": announce,
    "revive": revive,
    "exorcise": exorcise,
    "discard": status,
    "suspend": nothing,
    "test": test,
    "boost": nothing,
    "none": nothing,
    "turn": nothing,
    "shoot": nothing,
}


def within_tier_key(a: Action) -> tuple[int, str]:
    """Order of handling inside a tier (effects are still simultaneous): finders first."""
    return (0 if a.ability.params.get("field") == "is_role" else 1, a.actor)


def apply_boosts(r: Resolution) -> None:
    """Strongman / Ninja: change the side's kill before any tier runs (it may move tiers)."""
    for a in r.actions:
        if a.kind != "boost" or a.done:
            continue
        a.done = True
        tier = a.tier
        reason = r.cannot_act(a, tier)
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
                _make_lovers(r, a, tier)
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
            r.pm(a.actor, r.say("role_now", role=r.state.role_title(a.actor)))
    if r.phase != "night":
        return
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
                name, r.say("attack_notice", victims=", ".join(hit)) if hit else r.say("no_victims")
            )


def _healed_by(k: Action, name: str) -> bool:
    return bool(k.failed) and f"protected by {name}" in str(k.failed)
