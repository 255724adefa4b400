"""Lovers and friends: a pair made lovers at once or at dawn if both survive (001's
Cupid, 004's Amor), 004's Friendship, and the killer a friend learns of."""

from __future__ import annotations

from typing import TYPE_CHECKING

from assistant.engine import deaths
from assistant.engine.abilities.wording import role_words
from assistant.engine.state import FRIEND, disguise_of

if TYPE_CHECKING:
    from assistant.engine.resolution import Action, Resolution


def lovers(r: Resolution, a: Action, tier: str) -> None:
    params = a.ability.params
    if params.get("pick"):
        # 004 Amor: "Chooses four players, two of which will become lovers", never a role of
        # `not_roles` ("Best Friends and Detective Boys may not be lovers") nor a friend
        # ("Friendship always takes precedent over Lovers").
        barred = set(params.get("not_roles", ()))
        free = [
            t for t in a.targets
            if r.state.players[t].role not in barred
            and not any(x.startswith(FRIEND) for x in r.state.players[t].statuses)
        ]
        if len(free) < int(params["pick"]):
            r.event(tier, a.label(), "no lovers", "too few of them may be lovers")
            return
        a.targets = sorted(r.rng.sample(free, int(params["pick"])))
        r.event(tier, a.label(), f"the GM's draw: {' and '.join(a.targets)}")
    if params.get("needs_survival"):
        r.after_night.append(a)
        r.event(tier, a.label(), "arrow flies", "they fall in love at dawn if both survive")
        return
    make_lovers(r, a, tier)


def make_lovers(r: Resolution, a: Action, tier: str) -> None:
    x, y = a.targets
    r.state.lovers.append((x, y))
    role = a.ability.params.get("overwrite_role")
    for me, other in ((x, y), (y, x)):
        if role:
            r.state.players[me].role = str(role)
        for item in a.ability.params.get("gives_items", ()):
            # 004: "Lovers can protect each other with the ability Lovey-Dovey."
            r.state.players[me].items.append(str(item))
        r.pm(me, r.say("lovers", lover=other, **role_words(r.rules, r.state.role_title(other))))
    r.event(tier, a.label(), f"{x} and {y} are lovers")


def befriend(r: Resolution, a: Action, tier: str) -> None:
    """004 Friendship: "Sonoko names a list of players ... The Sonoko player will then
    randomly befriend one of those players", never one of `not_roles` ("Detective Boys,
    Lovers, and Black Org members apart from Vermouth cannot be befriended"); they learn each
    other's character (the disguise's, when disguised)."""
    params = a.ability.params
    barred = set(params.get("not_roles", ()))
    sides_ok = set(params.get("sides", ())) or None
    free = [
        t for t in a.targets
        if t != a.actor
        and r.state.players[t].role not in barred
        and r.state.lover_of(t) is None
        and (
            sides_ok is None
            or r.state.players[t].side in sides_ok
            or r.state.players[t].role in params.get("also_roles", ())
        )
    ]
    if not free:
        r.event(tier, a.label(), "no friend", "none of them may be befriended")
        return
    friend = r.rng.choice(sorted(free))
    r.state.players[a.actor].statuses.add(FRIEND + friend)
    r.state.players[friend].statuses.add(FRIEND + a.actor)

    def shown(name: str) -> str:
        worn = disguise_of(r.state.players[name])
        return r.rules.role(worn).title if worn else r.state.role_title(name)

    r.pm(a.actor, r.say("friend", friend=friend, role=shown(friend)))
    r.pm(friend, r.say("friend", friend=a.actor, role=shown(a.actor)))
    r.event(tier, a.label(), f"the GM's draw: {friend}", f"{a.actor} and {friend} are friends")


def friends_killers(r: Resolution) -> None:
    """004: "When Sonoko's friend dies as a result of being killed by the Black Org, she will
    learn the identity of the attacker. She will not learn the identity if her friend happens
    to be sniped or poisoned" (a passive `learns_friends_killer`; kills whose `kill_tag` is
    in `hidden_kill_tags` are not told)."""
    for name, p in r.state.players.items():
        hidden = r.state.passive(name, "learns_friends_killer")
        if not hidden or not p.alive:
            continue
        for d in r.deaths:
            if FRIEND + d.player not in p.statuses or d.how != "nightkill":
                continue
            for k in r.actions:
                tag = deaths.kill_tag(r, k)
                if k.kind == "kill" and k.targets == [d.player] and not k.failed:
                    if tag not in list(hidden):  # type: ignore[call-overload]
                        r.pm(name, r.say("friends_killer", friend=d.player, killer=k.actor))
