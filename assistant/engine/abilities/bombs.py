"""The explosive vest (004, experimental): strapped in place of the night's kill, it
explodes after the day's `bomb_tier` unless police officers defuse it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from assistant.engine import deaths

if TYPE_CHECKING:
    from assistant.engine.resolution import Action, Resolution


#: The status of a player strapped with a bomb: "bomb:PLANTER".
BOMB = "bomb:"


def bomb(r: Resolution, a: Action, tier: str) -> None:
    """004 Explosive Vest: "In place of the nightly kill, the Black Org member set to kill that
    night may instead strap a bomb to their target"; stopped as a kill is ("The planting of
    the vest may be hindered by tricking or any other such action"); "only considered used if
    the plant is successful"; announced before the day."""
    t = a.targets[0]
    why = deaths.saved_by(r, a, t, tier)
    if why:
        a.failed = why
        r.event(tier, a.label(), "fails", f"{why}: the vest is not used")
        return
    r.state.use_stock(a.actor, a.ability)
    r.state.players[t].statuses.add(BOMB + a.actor)
    r.public.append(r.say("bomb_strapped", player=t))
    r.event(tier, a.label(), f"{t} is strapped with a bomb", "it explodes at the day's end")


def disarm(r: Resolution, a: Action, tier: str) -> None:
    """004: "The bomb can only be defused by police officers"; settled in `explode_bombs`."""
    r.event(tier, a.label(), f"works on the bomb on {a.targets[0]}")


def _defuser_rank(r: Resolution, b: Action, planter: str) -> tuple[int, int, str]:
    """Whose name the planter hears: "If Vermouth or Irish also defuse the bomb, the planter
    is always given the name of the Black Org defuser", else the ability's `rank` order."""
    rank = list(b.ability.params.get("rank", ()))
    role = r.state.players[b.actor].role or ""
    own = 0 if r.state.players[b.actor].side == r.state.players[planter].side else 1
    return (own, rank.index(role) if role in rank else len(rank), b.actor)


def explode_bombs(r: Resolution, tier: str) -> None:
    """After the day's `[night] bomb_tier`: "The bomb explosion takes place before all other
    day actions, including any arrests, the lynching itself, and poisonings", unless a police
    officer defused it: "The bomb was successfully defused." to each, and the planter is told
    one name: a Black Org defuser's, else the first in the ability's `rank` ("Megure,
    Shiratori, Satou, ...")."""
    if r.phase != "day" or r.rules.night.get("bomb_tier") != tier:
        return
    for name, p in r.state.players.items():
        planter = next((s[len(BOMB):] for s in p.statuses if s.startswith(BOMB)), None)
        if planter is None or not p.alive:
            continue
        p.statuses.discard(BOMB + planter)
        defusers = [b for b in r.actions if b.kind == "disarm" and b.targets == [name]
                    and not b.failed]
        if not defusers:
            r.event(tier, f"the bomb on {name}", "explodes", f"strapped by {planter}")
            r.public.append(r.say("bomb_exploded", player=name))
            deaths.die(r, name, "other", f"the bomb {planter} strapped on them", (planter,), tier)
            continue
        seen = min(defusers, key=lambda b: _defuser_rank(r, b, planter)).actor
        for b in defusers:
            r.pm(b.actor, r.say("bomb_defused"))
        r.pm(planter, r.say("bomb_seen", player=seen))
        r.event(tier, f"the bomb on {name}", "defused", f"{planter} is told {seen}")
