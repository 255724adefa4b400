"""Investigations that answer yes or no to what the order names (004): an action
done in a phase ("Investigate #", Special Investigate, Follow-Up), crimes so far
(Cross-examine), a character in the game (Detect, Police Detect), a player's character
(Identify, Police Identify), a trait of the card (Observe). `CLAIM_FIELDS` maps an
investigation's `field` to its question; arrests read the same claims."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from assistant.engine import claims
from assistant.engine.claims import Act, Claim, parse_claim
from assistant.engine.orders import role_key, split_targets
from assistant.engine.state import disguise_of
from assistant.errors import MalformedOrderError

if TYPE_CHECKING:
    from assistant.engine.resolution import Action, Resolution


def order_claim(r: Resolution, a: Action) -> Claim:
    """The claim the order names ("Kleene killed Parkur on Night 2"), players as named."""
    names = list(r.state.players)
    return parse_claim(
        str(a.order.choice or ""), r.rules,
        lambda txt: split_targets(txt, names, order=a.order.text), order=a.order.text,
    )


def role_chosen(r: Resolution, a: Action) -> str:
    """The role key of a character the order names ("APTX Pofa as Satou": satou)."""
    return role_key(str(a.order.choice or ""), r.rules, order=a.order.text)


def claim_words(r: Resolution, a: Action, t: str) -> str:
    """The claim as the result PM quotes it ("Jd- heals Parkur"), else the target."""
    choices = a.ability.params.get("choices")
    if choices == "claim" and a.order.choice:
        return order_claim(r, a).text(t)
    if choices == "role_guess":
        return f"{t} is {a.order.choice}"
    return a.order.choice or t


def _claimed_now(r: Resolution, a: Action, t: str) -> str:
    """004 Investigate #: "He can only Investigate the actions that are happening in the
    same night"; true when the action was carried out (an attack a heal stopped counts; a
    discombobulated one, or one by a player who was killed, does not)."""
    claim, params = order_claim(r, a), a.ability.params
    if claim.phase is not None and (claim.phase, claim.number) != (r.phase, r.number):
        return str(params["no"])
    if claim.keyword in r.rules.night.get("role_keywords", ()):
        # "He may investigate if someone is disguised, but he must name the specific
        # disguise": true while the disguise named is worn.
        worn = disguise_of(r.state.players[t])
        try:
            named = role_key(claim.objects[0], r.rules, order=a.order.text)
        except (MalformedOrderError, IndexError):
            named = None
        return str(params["yes" if worn is not None and worn == named else "no"])
    found = [x for x in claims.matching(r.acts_now(), t, claim) if x.happened]
    return str(params["yes"] if found else params["no"])


def _claimed_before(r: Resolution, a: Action, t: str) -> str:
    """004 Special Investigate: "The investigated action should have happened in the past";
    Follow-Up (`claim = "watched"`): only about a player the actor staked out the phase
    before ("SI actions that happened to someone they staked out the previous night")."""
    claim, params = order_claim(r, a), a.ability.params
    when = None if claim.phase is None else claims.claim_index(r.rules, claim.phase,
                                                               claim.number or 0)
    if when is None or when >= r.index:
        return str(params["no"])
    if params.get("claim") == "watched":
        watched = {
            x
            for act in r.state.acts
            if act.actor == a.actor
            and act.keyword == params.get("watch_keyword", "observe")
            and act.happened
            and claims.claim_index(r.rules, act.phase, act.number) == r.index - 1
            for x in act.targets
        }
        if when != r.index - 1 or not watched & set(claim.objects):
            return str(params["no"])
    if claim.keyword in r.rules.night.get("role_keywords", ()):
        # "Can also be special investigated for their exact disguise in a certain phase
        # (such as "SI Conia disguising as Ran during Prep")."
        found = worn_then(r, t, claim, role_named(r, a, claim))
        return str(params["yes" if found else "no"])
    found = [x for x in claims.matching(r.state.acts, t, claim) if x.happened]
    return str(params["yes"] if found else params["no"])


def _crimes(r: Resolution, a: Action, t: str) -> str:
    """004 Cross-examine: "whether they have committed any crimes so far (includes prep
    phase)"; "Crimes committed during the same phase don't count"."""
    done = any(x.actor == t and x.crime and x.succeeded for x in r.state.acts)
    return str(a.ability.params["yes" if done else "no"])


def _in_game(r: Resolution, a: Action, t: str) -> str:
    """004 Detect: whether a character is in the game (a disguiser is found by their own
    name, not by the disguise's)."""
    held = any(p.role == role_chosen(r, a) for p in r.state.players.values())
    return str(a.ability.params["yes" if held else "no"])


def _named_role(r: Resolution, a: Action) -> str | None:
    """The character the order names, if the ability may name it (`only_roles`)."""
    key = role_chosen(r, a)
    allowed = a.ability.params.get("only_roles")
    return None if allowed is not None and key not in allowed else key


def _in_game_seen(r: Resolution, a: Action, t: str) -> str:
    """004 Police Detect: a character in the game, or worn as a disguise ("If Uehara uses
    Police Detect for Megure and there is no Megure but there IS a disguised Megure ...
    Uehara will receive "true" as a result regardless")."""
    key = _named_role(r, a)
    seen = any(
        key is not None and key in (p.role, disguise_of(p)) for p in r.state.players.values()
    )
    return str(a.ability.params["yes" if seen else "no"])


def _role_seen(r: Resolution, a: Action, t: str) -> str:
    """004 Police Identify: the player is that character, or wears it ("If Uehara uses Police
    Identify for Megure on PhoenixTears (who is Vermouth-Megure here), the result would
    still come back as "true"")."""
    key = _named_role(r, a)
    p = r.state.players[t]
    return str(a.ability.params["yes" if key is not None and key in (p.role, disguise_of(p))
                                else "no"])


def _role_guess(r: Resolution, a: Action, t: str) -> str:
    """004 Identify: whether the player is that character ("If the person is disguised, they
    can't Identify the disguise but have to Identify if the player is Kid or Vermouth")."""
    right = r.state.players[t].role == role_chosen(r, a)
    return str(a.ability.params["yes" if right else "no"])


def _claim_field(r: Resolution, a: Action, t: str) -> str:
    if a.ability.params.get("claim", "now") == "now":
        return _claimed_now(r, a, t)
    return _claimed_before(r, a, t)


def _observed(r: Resolution, a: Action, t: str) -> str:
    """004 Observe: "the player will learn if that player is a child, teenager or adult" (or
    male or female): the card's passive, the disguise's when disguised ("If the target is
    disguised, then the player will learn it for the disguise"); "random" draws one of the
    ability's `random_answers`, the same for every observer that phase ("If Anokata get's
    observed by more than one observer, then all observers will get the same result")."""
    if a.ability.params.get("one_choice_per_target"):
        # Remembered for orders.check_order: "Cannot use both types of observe on the same
        # person."
        r.state.players[a.actor].used[f"{a.ability.name}>{t}>{a.order.choice}"] = 1
    return passive_seen(r, a, t, str(a.order.choice))


def passive_seen(
    r: Resolution, a: Action, t: str, what: str, worn_before: str | None = None
) -> str:
    """A card passive of `t` as an observer sees it: the disguise's when disguised (or,
    `worn_before`, when it was earlier that phase), a "random" one drawn from the ability's
    `random_answers` once a phase for every asker."""
    worn = disguise_of(r.state.players[t]) or worn_before
    role = r.rules.roles.get(worn) if worn else r.state.role_of(t)
    value = str(role.passives.get(what, "unknown")) if role is not None else "unknown"
    if value == "random":
        options = list(a.ability.params.get("random_answers", {}).get(what, ["unknown"]))
        value = r.drawn.setdefault((t, what), r.rng.choice(options))
    return value


CLAIM_FIELDS: dict[str, Callable[[Resolution, Action, str], str]] = {
    "observe": _observed,
    "claim": _claim_field,
    "crimes": _crimes,
    "in_game": _in_game,
    "role_guess": _role_guess,
    "in_game_seen": _in_game_seen,
    "role_seen": _role_seen,
}


def role_named(r: Resolution, a: Action, claim: Claim) -> str | None:
    """The character a role claim names ("disguising as Megure": megure), None if none."""
    try:
        return role_key(claim.objects[0], r.rules, order=a.order.text)
    except (MalformedOrderError, IndexError):
        return None


def worn_then(r: Resolution, t: str, claim: Claim, named: str | None) -> list[Act]:
    """The recorded disguises (`[night] disguise_act`) of `t` as `named` in the claim's phase."""
    return [
        x for x in r.state.acts
        if x.actor == t and x.keyword == claim.keyword and named in x.targets
        and (x.phase, x.number) == (claim.phase, claim.number) and x.succeeded
    ]
