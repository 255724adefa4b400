"""Items and loans: gifts applied at once, loans that come back at the night's end or go
to a substitute, an item passed down a side's ranks, thefts of items, devices built, the
Black Suitcase's pretended action."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from assistant.engine.abilities.arrests import ARRESTED
from assistant.engine.abilities.wording import fmt
from assistant.engine.claims import Act, parse_claim
from assistant.engine.orders import buildable, split_targets
from assistant.engine.rules import AbilityDef
from assistant.errors import MalformedOrderError

if TYPE_CHECKING:
    from assistant.engine.orders import Order
    from assistant.engine.resolution import Action, Resolution
    from assistant.engine.state import GameState


def give_item(state: GameState, giver: str, item: str, to: str) -> str | None:
    """Move `item` (and what is spent of it) from `giver` to `to`; why not, if it cannot.
    000: "Tech can be used the night it is passed", so gifts apply before anything else."""
    holder = state.players[giver]
    if item not in holder.items:
        return f"{giver} does not hold {item}"
    if not holder.alive:
        return f"{giver} is dead"
    holder.items.remove(item)
    state.players[to].items.append(item)
    known = state.rules.items.get(item)
    for ab in known.abilities.values() if known else ():
        if ab.name in holder.used:
            state.players[to].used[ab.name] = holder.used.pop(ab.name)
    return None


#: The status of a lent item's holder: "borrowed:ITEM:OWNER" (004's bow-tie and watch).
BORROWED = "borrowed:"


def lend_refused(r: Resolution, order: Order) -> str | None:
    """Why a loan (`lends = true`) cannot be made: not to oneself ("Can lend it to anyone
    for a night except for himself"), not by a giver whose day action a fright stopped."""
    ab = r.state.abilities_of(order.actor).get(order.ability)
    if ab is None or not ab.params.get("lends"):
        return None
    if ab.not_self and order.targets and order.targets[0] == order.actor:
        return f"{order.actor} may not lend it to themselves"
    kinds = r.block_kinds.get(order.actor, set())
    if order.actor in r.blocked and (not kinds or kinds - set(ab.params.get("unblockable_by", ()))):
        r.pm_later(order.actor, r.say("action_failed"), needs_alive=True)
        return f"{order.actor} cannot act this {r.phase}"
    return None


def lent(
    r: Resolution, order: Order, to: str | None = None, ab: AbilityDef | None = None
) -> None:
    """A loan made: the item comes back at the end of the coming night ("it is returned
    at the end of the night"); the borrower is told it came from the lender's character,
    never the player ("conia alias Ran will receive it from "Agasa"")."""
    ab = ab or r.state.abilities_of(order.actor).get(order.ability)
    if ab is None or not ab.params.get("lends"):
        return
    t, item = to or order.targets[0], str(order.choice)
    r.state.players[t].statuses.add(f"{BORROWED}{item}:{order.actor}")
    title = r.rules.items[item].title if item in r.rules.items else item
    r.pm_later(t, fmt(ab.params["lent_pm"], item=title), needs_alive=True)


def first_in_play(r: Resolution, names: list[str] | tuple[str, ...]) -> str | None:
    """The first of `names` alive and not arrested (004: a loan's "(ordered) alternatives in
    case the one he chose gets lynched/etc."; "a substitute in case that player is
    killed/arrested")."""
    for n in names:
        p = r.state.players.get(n)
        if p is not None and p.alive and ARRESTED not in p.statuses:
            return n
    return None


def _loans_next(state: GameState) -> dict[str, dict[str, list[str]]]:
    return state.extra.setdefault("loans_next", {})  # type: ignore[return-value]


def lend_to(r: Resolution, order: Order) -> str:
    """Whom a loan goes to: the first named still in play; the others named wait as
    substitutes for the coming night (`alternates`)."""
    ab = r.state.abilities_of(order.actor).get(order.ability)
    if ab is None or not ab.params.get("alternates") or len(order.targets) < 2:
        return order.targets[0]
    to = first_in_play(r, order.targets) or order.targets[0]
    rest = list(order.targets[order.targets.index(to) + 1:])
    _loans_next(r.state).setdefault(order.actor, {})[str(order.choice)] = rest
    return to


def loans_to_substitutes(r: Resolution) -> None:
    """As the night begins, an item lent to a player killed or arrested since goes to the
    lender's next substitute still in play; with none, it goes back and nobody has it
    ("Has to give it to someone, otherwise no one will recieve the Black Suitcase")."""
    waiting = _loans_next(r.state)
    for name, p in r.state.players.items():
        for s in sorted(p.statuses):
            if not s.startswith(BORROWED):
                continue
            item, owner = s[len(BORROWED):].split(":", 1)
            if (p.alive and ARRESTED not in p.statuses) or item not in p.items:
                continue
            p.statuses.discard(s)
            p.items.remove(item)
            to = first_in_play(r, waiting.get(owner, {}).get(item, []))
            title = r.rules.items[item].title if item in r.rules.items else item
            if to is None:
                r.state.players[owner].items.append(item)
                r.event("orders", f"{owner}'s {item}", f"back with {owner}",
                        f"{name} is out of play and no substitute is left: nobody has it")
                continue
            r.state.players[to].items.append(item)
            r.state.players[to].statuses.add(f"{BORROWED}{item}:{owner}")
            r.event("orders", f"{owner}'s {item}", f"goes to {to}",
                    f"{name} is out of play: the next substitute named")
            give = next((ab for ab in _lending_abilities(r, owner, item)), None)
            if give is not None and give.params.get("lent_pm"):
                r.pm_later(to, fmt(give.params["lent_pm"], item=title), needs_alive=True)


def _lending_abilities(r: Resolution, owner: str, item: str) -> list[AbilityDef]:
    """The owner's loan abilities (their role's, the item's own), the dead owner's too."""
    role = r.state.role_of(owner)
    found = list(role.abilities.values()) if role is not None else []
    known = r.rules.items.get(item)
    found += list(known.abilities.values()) if known is not None else []
    return [ab for ab in found if ab.kind == "give" and ab.params.get("lends")]


def pass_on(r: Resolution, tier: str) -> None:
    """An item with the passive `succession = "rank"` whose holder is dead or arrested goes
    to the next highest-ranked of the holder's side still in play (004 Black Suitcase: "the
    Leader (also, next highest-ranked BO in case Leader dies or is arrested) can decide to
    give the "Black Suitcase""), who is told (`succession` message)."""
    for name, p in r.state.players.items():
        if p.alive and ARRESTED not in p.statuses:
            continue
        for item in list(p.items):
            known = r.rules.items.get(item)
            if known is None or known.passives.get("succession") != "rank":
                continue
            if any(s.startswith(f"{BORROWED}{item}:") for s in p.statuses):
                continue  # a loan: it goes back to its lender first
            heirs = r.state.by_rank(p.side)
            if not heirs:
                continue
            p.items.remove(item)
            r.state.players[heirs[0]].items.append(item)
            why = "dead" if not p.alive else "arrested"
            r.event(tier, f"{name}'s {item}", f"passes to {heirs[0]}",
                    f"{name} is {why}: {heirs[0]} ranks next")
            if "succession" in r.rules.messages:
                r.pm_later(heirs[0], r.say("succession", item=known.title, item_key=item),
                           needs_alive=True)


def return_loans(r: Resolution, tier: str) -> None:
    """The night is over: every lent item goes back to its lender."""
    for name, p in r.state.players.items():
        for s in sorted(p.statuses):
            if not s.startswith(BORROWED):
                continue
            item, owner = s[len(BORROWED):].split(":", 1)
            p.statuses.discard(s)
            if item in p.items:
                p.items.remove(item)
                r.state.players[owner].items.append(item)
                r.event(tier, f"{name}'s {item}", f"returns to {owner}")
    r.state.extra.pop("loans_next", None)


def with_gifts(state: GameState, orders: list[Order]) -> GameState:
    """The state as the night's later orders see it: items given tonight already moved
    (the GM enters "Ex: give stun-orb to Op", then "Op: stun orb Gus")."""
    gifts = [o for o in orders if o.choice and is_gift(state, o)]
    if not gifts:
        return state
    state = state.copy()
    for o in gifts:
        give_item(state, o.actor, str(o.choice), o.targets[0])
    return state


def is_gift(state: GameState, o: Order) -> bool:
    ab = state.abilities_of(o.actor).get(o.ability) if o.actor in state.players else None
    return ab is not None and ab.kind == "give"


def build(r: Resolution, a: Action, tier: str) -> None:
    """000 building. Mad Scientists: "All types of Mad Scientist can build the following -
    Mind Shield ... - Anti-Tech Field"; "The Scientist starts with 2 devices and can create
    more devices by spending two nights working to build one" (`makes = { ITEM = NIGHTS }`,
    nights of work counted until done; `adds_use`: an item held already gets one more use of
    that ability). The Replicator: "Can create a single Medium Tech item or two Small tech
    items before it runs out of energy and materials" (`sizes`, `cost`, `budget`)."""
    params = a.ability.params
    item = str(a.order.choice)
    player = r.state.players[a.actor]
    title = r.rules.items[item].title
    if item not in buildable(r.state, a.actor, a.ability):
        a.failed = f"{a.actor} cannot build {title} now"
        r.event(tier, a.label(), "fails", a.failed)
        return
    need = int(params.get("makes", {}).get(item, params.get("nights", 1)))
    key = f"build:{item}"
    player.used[key] = player.used.get(key, 0) + 1
    if player.used[key] < need:
        r.event(tier, a.label(), f"works on {title}", f"night {player.used[key]} of {need}")
        r.pm_later(a.actor, r.say("building", item=title, done=player.used[key], nights=need),
                   needs_alive=True)
        return
    del player.used[key]
    if params.get("sizes") and item not in params.get("makes", {}):
        size = r.rules.items[item].size
        spent = f"{a.ability.name}$"
        player.used[spent] = player.used.get(spent, 0) + int(params.get("cost", {}).get(size, 1))
    more = params.get("adds_use", {}).get(item)
    if more:
        player.used[str(more)] = player.used.get(str(more), 0) - 1
    else:
        player.items.append(item)
    r.event(tier, a.label(), f"{a.actor} has built {title}",
            f"one more use of {more}" if more else "ready from the next night")
    r.pm_later(a.actor, r.say("built", item=title), needs_alive=True)


def take_item(r: Resolution, a: Action, tier: str) -> None:
    """004 Steal: "Can steal one item from one person per night"; the item is gone from the
    target's inventory and is "NOT added to the thief's inventory". Which item is drawn at
    random from those the target holds that are `stealable` (a disguise's items too); two
    thieves at one target "get the same item". Losing an item may set a status the role
    names (`item_lost_status`: Kogorou "Becomes sober when his alcohol has been stolen")."""
    t = a.targets[0]
    if t in r.thefts:
        item, thieves = r.thefts[t]
        thieves.append(a.actor)
        r.event(tier, a.label(), f"comes for {t}'s {item} too", f"{len(thieves)} thieves")
        return
    player = r.state.players[t]
    known = r.rules.items
    pool = sorted(i for i in player.items if i in known and known[i].passives.get("stealable"))
    if not pool:
        r.event(tier, a.label(), "nothing to steal", f"{t} holds no item that can be stolen")
        r.pm_later(a.actor, r.say("steal_nothing", target=t), needs_alive=True)
        return
    item = r.rng.choice(pool)
    player.items.remove(item)
    r.thefts[t] = (item, [a.actor])
    lost = r.state.passive(t, "item_lost_status") or {}
    status = lost.get(item) if isinstance(lost, Mapping) else None
    if status:
        player.statuses.add(str(status))
    r.event(tier, a.label(), f"steals {known[item].title} from {t}",
            f"{t} is now {status}" if status else "")


def tell_thefts(r: Resolution) -> None:
    """The notices of the night's thefts: "all thieves and the one who was stolen from will
    get a notification" of the item, and how many thieves came when more than one did."""
    for t, (item, thieves) in r.thefts.items():
        title = r.rules.items[item].title
        many = len(thieves) > 1
        for thief in thieves:
            key = "stolen_by_you_many" if many else "stolen_by_you"
            r.pm_later(thief, r.say(key, target=t, item=title, n=len(thieves)), needs_alive=True)
        key = "item_stolen_many" if many else "item_stolen"
        r.pm_later(t, r.say(key, item=title, n=len(thieves)), needs_alive=True)


def fake(r: Resolution, a: Action, tier: str) -> None:
    """004 Black Suitcase: "the receiver can pretend to use any existing Night ability.
    However, the player will never get a result for that action": the act is seen by
    investigations as the holder's ("Suitcase: heal Parkur"), and does nothing."""
    names = list(r.state.players)
    try:
        claim = parse_claim(
            str(a.order.choice or ""), r.rules,
            lambda txt: split_targets(txt, names, order=a.order.text), order=a.order.text,
        )
    except MalformedOrderError as e:
        r.event(tier, a.label(), "ignored", str(e))
        return
    r.extra_acts.append(
        Act(r.phase, r.number, a.actor, claim.keyword, claim.objects, True, True, False)
    )
    r.event(tier, a.label(), f"{a.actor} seems to {claim.rest()}", "it does nothing")
