"""Game state as the engine sees it: players, roles, sides, what is visible, statuses, links.

The state is derived, never stored: `history.build_state` replays the setup, the confirmed
nights and the GM's deaths. The resolver works on a copy and hands back a new one.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from assistant.engine.claims import Act, keyword_of
from assistant.engine.rules import AbilityDef, EngineRules, ItemDef, RoleDef
from assistant.engine.setup import Setup


@dataclass(frozen=True)
class Event:
    """One step of a resolution, as `resolve --dry-run` prints it and tests compare it."""

    tier: str
    """The named step of the order of operations."""
    action: str
    """The action, as "Actor: ability Target" (or the passive that fired)."""
    effect: str
    """What happened."""
    reason: str = ""
    """Why, in the ruleset's terms (blocked, protected, ...)."""

    def line(self) -> str:
        tail = f" ({self.reason})" if self.reason else ""
        return f"[{self.tier}] {self.action}: {self.effect}{tail}"


@dataclass(frozen=True)
class Death:
    """A death the engine produced."""

    player: str
    how: str
    """"nightkill", "lynch", "modkill" or "other", as the death GM input records it."""
    cause: str
    """What killed them, for the dry-run and the killer's PM (never shown publicly)."""
    killers: tuple[str, ...] = ()
    """Players who learn the victim's role where the ruleset says only the killer knows."""


@dataclass
class PlayerState:
    """One player now. Mutable inside a resolution only; see the module docstring."""

    name: str
    side: str
    role: str | None
    alive: bool = True
    statuses: set[str] = field(default_factory=set)
    """Named conditions: "hex:silence", "lover", "sheriff", "used-kill", ..."""
    used: dict[str, int] = field(default_factory=dict)
    """Uses spent, by ability name and by pool name."""
    last_targets: dict[str, tuple[int, tuple[str, ...]]] = field(default_factory=dict)
    """ability -> (night, targets) of its last use, for "not the same player twice running"."""
    visible: dict[str, str] = field(default_factory=dict)
    """Overrides of what investigations see ("alignment", "role"), set by events."""
    items: list[str] = field(default_factory=list)
    day_statuses: set[str] = field(default_factory=set)
    """Conditions for the coming day only (hexes, roleblocks); cleared when a night begins."""
    death: Death | None = None


def _carried(rules: EngineRules, role: str | None) -> list[str]:
    """The items a role's card says it carries (004: "Items: Gun, Car-keys"): the player
    starts with them besides those the setup gives."""
    if role is None or role not in rules.roles:
        return []
    return [str(i) for i in rules.roles[role].passives.get("carries", ())]


#: Travel (004): "abroad" is where a traveller was when last settled; each flight is
#: "flight:INDEX:DEST", the phase (rules.phase_index) spent on the plane and where it lands.
ABROAD = "abroad"
FLIGHT = "flight:"


def whereabouts(player: PlayerState, index: int) -> str:
    """"home", "abroad" or "in-flight" during the phase `index`: a flight's phase is spent
    on the plane, and it has landed by the next ("Hakuba decides to travel to Japan on
    Night 1. Then he's in the plane on Day 1 ... Will arrive in Japan at Night 2")."""
    where = ABROAD if ABROAD in player.statuses else "home"
    for i, dest in sorted(flights(player)):
        if index == i:
            return "in-flight"
        if index > i:
            where = dest
    return where


def flights(player: PlayerState) -> list[tuple[int, str]]:
    out = []
    for s in player.statuses:
        if s.startswith(FLIGHT):
            i, dest = s[len(FLIGHT):].split(":", 1)
            out.append((int(i), dest))
    return out


def settle_flights(player: PlayerState, index: int) -> None:
    """Flights that landed before phase `index` become where the player is."""
    where = whereabouts(player, index)
    for i, dest in flights(player):
        if i < index:
            player.statuses.discard(f"{FLIGHT}{i}:{dest}")
    if where != "in-flight":
        if where == ABROAD:
            player.statuses.add(ABROAD)
        else:
            player.statuses.discard(ABROAD)


#: The status of a befriended pair (004 Sonoko): "friend:NAME" on each of them.
FRIEND = "friend:"

#: "cover:ALLY:INDEX": the ally whose night abilities the player uses in phase INDEX.
COVER = "cover:"


#: "costume:ROLE": a costume chosen in the Prep phase; "worn:ROLE" once it was worn;
#: "costume-for:INDEX": the phase the costume of the day before is worn in (004).
COSTUME = "costume:"
COSTUME_FOR = "costume-for:"


#: 000 Mind Stealer: "stock:ROLE" for each role in the stockpile; "robot:ROLE" for the role
#: given to the Robot by day.
STOCK = "stock:"
ROBOT = "robot:"


#: The status a disguised player carries, followed by the role key worn.
DISGUISE = "disguise:"


def wear_disguise(rules: EngineRules, player: PlayerState, role: str) -> None:
    """004 Disguise: "the disguised player retains any abilities from their actual role and
    gains all those of their disguise"; "The disguiser will have items from their original
    role in addition to those from their disguised role"."""
    player.statuses.add(DISGUISE + role)
    player.items += _carried(rules, role)


def drop_disguise(rules: EngineRules, player: PlayerState) -> str | None:
    """Take the disguise off (pinched, injured, ...): its items go with it; the role worn."""
    worn = disguise_of(player)
    if worn is None:
        return None
    player.statuses.discard(DISGUISE + worn)
    for item in _carried(rules, worn):
        if item in player.items:
            player.items.remove(item)
    return worn


def disguise_of(player: PlayerState) -> str | None:
    return next((s[len(DISGUISE):] for s in player.statuses if s.startswith(DISGUISE)), None)


def disguise_act(rules: EngineRules, phase: str, number: int, name: str, role: str) -> Act | None:
    """A disguise worn in a phase, as investigations and arrests look it up later (004:
    "Arrest Sebolains for disguising as Megure on Night 3"; "SI Conia disguising as Ran
    during Prep"): `[night] disguise_act = { keyword, crime }`, its target the role worn."""
    spec = rules.night.get("disguise_act")
    if not spec:
        return None
    return Act(phase, number, name, str(spec["keyword"]), (role,), True, True,
               bool(spec.get("crime")))


@dataclass
class GameState:
    """Every player, links between them, and what is still pending."""

    rules: EngineRules
    players: dict[str, PlayerState]
    seed: int
    lovers: list[tuple[str, str]] = field(default_factory=list)
    pending: list[dict[str, object]] = field(default_factory=list)
    """Delayed effects, e.g. {"effect": "die", "player": ..., "night": n, "cause": ...}."""
    nights_resolved: int = 0
    days_resolved: int = 0
    extra: dict[str, object] = field(default_factory=dict)
    acts: list[Act] = field(default_factory=list)
    """Every action of the resolved phases (004: special investigations and arrests look
    back at them)."""

    @classmethod
    def from_setup(cls, rules: EngineRules, setup: Setup) -> GameState:
        players = {
            p.name: PlayerState(p.name, p.side, p.role, items=[*p.items, *_carried(rules, p.role)])
            for p in setup.players
        }
        acts: list[Act] = []
        for p in setup.players:
            if p.disguise:
                wear_disguise(rules, players[p.name], p.disguise)
                if p.disguise not in p.costumes:
                    # 004 Disguise: "Prep action, crime, remains so long as it is not removed".
                    act = disguise_act(rules, "prep", 0, p.name, p.disguise)
                    acts += [act] if act else []
            players[p.name].statuses.update(COSTUME + c for c in p.costumes)
            if p.disguise and p.disguise in p.costumes:
                # 004: "Once Irish/Yukiko have their selected disguises, they can already
                # pick a costume, meaning they would be disguised N1."
                first = 1 if rules.first_phase == "night" else 2
                players[p.name].statuses.update({f"worn:{p.disguise}", f"{COSTUME_FOR}{first}"})
            if p.role in rules.roles:
                # 004 travellers: "At the onset of the game, the player is not in Japan."
                players[p.name].statuses.update(rules.roles[p.role].passives.get("starts", ()))
            if p.prep_travel:
                # 004 Travel in the Prep phase: "they will be in the air on Night 1, thus making
                # it so they cannot use their action during the night. If this path is chosen,
                # they will arrive during Day 1 and be able to participate normally."
                dest = "home" if ABROAD in players[p.name].statuses else ABROAD
                players[p.name].statuses.add(f"{FLIGHT}1:{dest}")
                travel = next(ab for ab in rules.roles[str(p.role)].abilities.values()
                              if ab.kind == "travel")
                acts.append(Act("prep", 0, p.name, keyword_of(rules, travel), (p.name,), True,
                                True, bool(travel.params.get("crime"))))
            # 000 Mind Stealer: "begins the game with 2 Roles available (1 Investigative, 1
            # Random)": the setup's `stockpile = { NAME = [ROLE, ...] }`.
            start = (setup.extra.get("stockpile") or {}).get(p.name, ())
            players[p.name].statuses.update(STOCK + str(k) for k in start)
        return cls(rules=rules, players=players, seed=setup.seed, extra=dict(setup.extra),
                   acts=acts)

    def copy(self) -> GameState:
        rules = self.rules
        self.rules = None  # type: ignore[assignment]  # rules are frozen: share, do not copy
        try:
            clone = copy.deepcopy(self)
        finally:
            self.rules = rules
        clone.rules = rules
        return clone

    # ---- questions -------------------------------------------------------------------

    def living(self) -> list[PlayerState]:
        return [p for p in self.players.values() if p.alive]

    def role_of(self, name: str) -> RoleDef | None:
        key = self.players[name].role
        return None if key is None else self.rules.role(key)

    def role_title(self, name: str) -> str:
        role = self.role_of(name)
        return self.rules.messages.get("vanilla_title", "Vanilla") if role is None else role.title

    def items_of(self, name: str) -> list[ItemDef]:
        """The items the player holds that the ruleset knows (000's tech and attributes)."""
        known = self.rules.items
        return [known[i] for i in self.players[name].items if i in known]

    def passive(self, name: str, key: str, default: object = None) -> object:
        """A role passive, then one of an item the player holds, then a side passive."""
        role = self.role_of(name)
        if role is not None and key in role.passives:
            return role.passives[key]
        for item in self.items_of(name):
            if key in item.passives:
                return item.passives[key]
        return self.rules.side(self.players[name].side).passives.get(key, default)

    def level(self, name: str, key: str) -> int:
        """How many of the player's role and items give the passive `key` (000: a Natural
        Mind Shield and a Mind Shield tech make an Advanced Mind Shield: level 2)."""
        role = self.role_of(name)
        sources = [role.passives] if role is not None else []
        sources += [item.passives for item in self.items_of(name)]
        return sum(int(bool(s.get(key))) for s in sources)

    def has_tag(self, name: str, tag: str) -> bool:
        """A tag of the role or an item ("Psychic"): not a race, never an investigation's."""
        role = self.role_of(name)
        tags = list(role.passives.get("tags", ())) if role is not None else []
        for item in self.items_of(name):
            tags += list(item.passives.get("tags", ()))
        return tag in tags

    def abilities_of(self, name: str) -> dict[str, AbilityDef]:
        """The player's role abilities and those of the items they hold; side abilities
        (the mafia kill) are separate. A role with the passive `borrows_friend` (004's
        Sonoko: "can use the same abilities as her friend, so long as her friend is still
        alive") has its living friend's too, but those the passive lists."""
        out = self.own_abilities(name)
        for s in sorted(self.players[name].statuses):
            if not s.startswith(COVER):
                continue
            # 004 Cover: "The next night, Calvados can use one night ability from that ally"
            # (one of them: a shared slot), those of the ally's disguise too.
            ally = s[len(COVER):].rsplit(":", 1)[0]
            if ally in self.players:
                for key, ab in self.own_abilities(ally).items():
                    if not ab.params.get("uncoverable") and key not in out:
                        out[key] = replace(ab, params=MappingProxyType(
                            {**ab.params, "slot": "cover", "covered": True}))
        for item in self.items_of(name):
            lent = any(s.startswith(f"borrowed:{item.key}:") for s in self.players[name].statuses)
            for key, ab in item.abilities.items():
                until = ab.params.get("unlent_until_night")
                if until is not None and not lent and self.nights_resolved >= int(until):
                    # 004 Black Suitcase: "Anokata can use the Black Suitcase during Night 1
                    # for himself"; after that it "Has to give it to someone, otherwise no
                    # one will recieve the Black Suitcase" (a loan, to himself too).
                    continue
                out.setdefault(key, ab)
        out.update(self.stockpile_abilities(name, out))
        barred = self.passive(name, "borrows_friend")
        if isinstance(barred, (list, tuple)):
            for s in sorted(self.players[name].statuses):
                friend = s[len(FRIEND):] if s.startswith(FRIEND) else None
                if friend in self.players and self.players[friend].alive:
                    # Her friend's own and disguise's (004: "If Sonoko befriends Yukiko, she
                    # will be able to use the abilities of Yukiko's disguised role"; a
                    # disguised Vermouth is befriended as "the disguised role").
                    for key, ab in self.own_abilities(friend).items():
                        if key not in barred:
                            out.setdefault(key, ab)
        return out

    def stockpile(self, name: str) -> list[str]:
        """The roles in a player's stockpile (000 Mind Stealer), in the ruleset's order."""
        have = {s[len(STOCK):] for s in self.players[name].statuses if s.startswith(STOCK)}
        return [k for k in self.rules.roles if k in have]

    def stockpile_abilities(
        self, name: str, taken: Mapping[str, AbilityDef]
    ) -> dict[str, AbilityDef]:
        """000 Mind Stealer: "may choose to take on any Role in its stockpile for the next
        Day/Night phase and use that role instead of Abducting": with the passive
        `uses_stockpile`, the abilities of every stockpiled role, in the role's own slot
        (one action a phase, instead of the abduction). With a `robot` item: "they may give
        the Robot a Role each day from their stockpile. The Robot can use that role in
        addition to any actions the MS takes": the role programmed by day (status
        "robot:ROLE") acts as "robot ABILITY", in a slot of its own."""
        out: dict[str, AbilityDef] = {}
        if not self.passive(name, "uses_stockpile"):
            return out
        for role in self.stockpile(name):
            for key, ab in self.rules.roles[role].abilities.items():
                if key not in taken and key not in out and ab.tier != "passive":
                    out[key] = ab
        for s in sorted(self.players[name].statuses):
            role = s[len(ROBOT):] if s.startswith(ROBOT) else None
            if role not in self.rules.roles or role not in self.stockpile(name):
                continue
            for key, ab in self.rules.roles[role].abilities.items():
                if ab.tier == "passive":
                    continue
                out["robot " + key] = replace(
                    ab, name="robot " + key, aliases=tuple("robot " + w for w in ab.aliases),
                    params=MappingProxyType({**ab.params, "slot": "robot"}),
                )
        return out

    def own_abilities(self, name: str) -> dict[str, AbilityDef]:
        """The role's abilities and those of the disguise worn (004: "the disguised player
        retains any abilities from their actual role and gains all those of their disguise")."""
        role = self.role_of(name)
        out = {} if role is None else dict(role.abilities)
        worn = disguise_of(self.players[name])
        if worn is not None and worn in self.rules.roles:
            for key, ab in self.rules.roles[worn].abilities.items():
                out.setdefault(key, ab)
        return out

    def side_members(self, side: str, *, alive: bool = True) -> list[str]:
        return [p.name for p in self.players.values() if p.side == side and (p.alive or not alive)]

    def team(self, side: str, *, but: str | None = None) -> list[str]:
        """The side's members a PM names as fellows (a conversion, a role PM): in the game
        (alive, not "out": 000's consumed Advanced Doppelganger, an abducted or arrested
        player) and not `lone` (000's Rogue Doppelganger "does not know who the dopp team
        are"), `but` one of them."""
        return [p.name for p in self.players.values()
                if p.side == side and p.alive and "out" not in p.statuses and p.name != but
                and not self.passive(p.name, "lone")]

    def rank_key(self, name: str) -> tuple[int, int]:
        """Where a player stands in their side's `rank` passive (004's Black Org: "the
        higher-ranked BO members"): a leader first, then the list's order of characters
        (their own, not a disguise's), then anyone the list does not name."""
        ranks = list(self.rules.side(self.players[name].side).passives.get("rank", ()))
        role = self.players[name].role
        leader = bool(self.passive(name, "leader"))
        return (0 if leader else 1, ranks.index(role) if role in ranks else len(ranks))

    def by_rank(self, side: str) -> list[str]:
        """The side's members still in play (alive, not arrested), highest-ranked first."""
        members = [n for n in self.side_members(side) if "arrested" not in self.players[n].statuses]
        return sorted(members, key=lambda n: (self.rank_key(n), n))

    def lover_of(self, name: str) -> str | None:
        for a, b in self.lovers:
            if name == a:
                return b
            if name == b:
                return a
        return None

    def stock_key(self, name: str, ability: AbilityDef) -> str:
        return f"stock:{self.players[name].side}:{ability.params['stock']}"

    def stock_left(self, name: str, ability: AbilityDef) -> int | None:
        """What is left of a side's shared stock an ability draws on (004: "1 APTX per BO
        with a max of 3"): `stock`, `stock_per_member`, `stock_max`; None without one."""
        if not ability.params.get("stock"):
            return None
        key = self.stock_key(name, ability)
        if key not in self.extra:
            members = len(self.side_members(self.players[name].side, alive=False))
            per = int(ability.params.get("stock_per_member", 1))
            most = ability.params.get("stock_max")
            self.extra[key] = members * per if most is None else min(members * per, int(most))
        return int(self.extra[key])  # type: ignore[call-overload]

    def use_stock(self, name: str, ability: AbilityDef) -> int:
        """Take one from the stock (a failed APTX "will be used up"); what is left."""
        left = max(0, (self.stock_left(name, ability) or 0) - 1)
        self.extra[self.stock_key(name, ability)] = left
        return left

    def uses_left(self, name: str, ability: AbilityDef) -> int | None:
        """Uses left of a limited ability (and its pool); None when unlimited."""
        p = self.players[name]
        left: int | None = None
        if ability.uses is not None:
            left = ability.uses - p.used.get(ability.name, 0)
        role = self.role_of(name)
        if ability.pool and role is not None and ability.pool in role.pools:
            pool_left = role.pools[ability.pool] - p.used.get(ability.pool, 0)
            left = pool_left if left is None else min(left, pool_left)
        return left

    def spend(self, name: str, ability: AbilityDef) -> None:
        p = self.players[name]
        if ability.uses is not None:
            p.used[ability.name] = p.used.get(ability.name, 0) + 1
        if ability.pool:
            p.used[ability.pool] = p.used.get(ability.pool, 0) + 1
