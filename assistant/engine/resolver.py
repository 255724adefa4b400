"""Resolve one night (or day) of orders tier by tier, in the ruleset's order of operations.

Actions in the same tier are simultaneous: whether an action can happen (actor alive,
not blocked, target not jailed, Hamedo) is decided for the whole tier before any of its
effects; kills of a tier land together. Every step is an `Event`, so a dry run shows
why, and tests compare the whole log.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from assistant.engine import deaths
from assistant.engine.abilities import (
    HANDLERS,
    arrests,
    blocking,
    bombs,
    groups,
    investigations,
    items,
    kills,
    lovers,
    night_end,
    poison,
    reach,
    sentries,
    within_tier_key,
)
from assistant.engine.orders import Order, check_order, order_slot
from assistant.engine.resolution import Action, Resolution
from assistant.engine.rules import phase_index
from assistant.engine.state import (
    COSTUME_FOR,
    COVER,
    Death,
    Event,
    GameState,
    disguise_act,
    disguise_of,
    drop_disguise,
    settle_flights,
    whereabouts,
)
from assistant.errors import OrderError


@dataclass(frozen=True)
class PhaseResult:
    """What a resolution produced: the log, deaths, PMs, public lines, notes for the GM."""

    phase: str
    number: int
    events: tuple[Event, ...]
    deaths: tuple[Death, ...]
    pms: dict[str, tuple[str, ...]]
    public: tuple[str, ...]
    notes: tuple[str, ...]
    state: GameState = field(repr=False, compare=False)
    notices: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """PMs due while the phase is still open (001's healer learns who was attacked so he can
    still save them): drafted before the resolution, never with its results."""

    def log_lines(self) -> list[str]:
        return [e.line() for e in self.events]


class Resolver(Resolution):
    """Opens one phase (what lasts from the phases before: blocks, arrests, journeys,
    covers, loans) and runs its orders through the tiers (`run`); `history` also uses it to
    land a death the GM entered."""

    def __init__(self, state: GameState, phase: str, number: int, orders: list[Order]) -> None:
        super().__init__(state, phase, number, orders)
        self._told_failed: set[str] = set()
        if phase == "day":
            # A roleblock "for the night and the following day" (002, 000's Warden).
            self.blocked = {
                n for n, p in self.state.players.items() if blocking.DAY_BLOCK in p.day_statuses
            }
            # A block of the day before: an ability that passes it says `unblockable_by =
            # ["day"]` (004: "Frighten is not capable of stopping an arrest").
            self.block_kinds = {n: {"day"} for n in self.blocked}
        # 004: "Arrested: Player may not use any abilities ... Any and all actions on
        # arrested players will fail" -- in every phase after the arrest.
        for n, p in self.state.players.items():
            if arrests.ARRESTED in p.statuses:
                self.blocked.add(n)
                self.jailed.add(n)
                self.block_kinds.setdefault(n, set()).add("arrest")
        for n, p in self.state.players.items():
            for why in arrests.off_duty(p, self.index):
                self.blocked.add(n)
                self.block_kinds.setdefault(n, set()).add(why)
        self._statuses_after_deaths()
        self._travellers()
        self._drop_old_covers()
        self.worn_at_start = {n: disguise_of(p) for n, p in self.state.players.items()}
        self._disguises_worn()
        if phase == "night":
            items.loans_to_substitutes(self)
        items.pass_on(self, "orders")
        investigations.free_waits(self, "orders")

    # ---- the run ---------------------------------------------------------------------

    def collect(self) -> None:
        """Keep the last valid order of each actor's slot (the leader's, for a side action)."""
        slots: dict[tuple[str, ...], list[Action]] = {}
        for order in self.orders:
            if order.choice and items.is_gift(self.state, order):
                # 000 trade: applied at once, so the receiver's orders tonight are legal.
                gift = self.state.abilities_of(order.actor).get(order.ability)
                to = items.lend_to(self, order)
                why = items.lend_refused(self, order) or items.give_item(
                    self.state, order.actor, str(order.choice), to
                )
                self.event("orders", order.label(), "fails" if why else "item passed",
                           why or f"{to} now holds {order.choice}")
                if not why:
                    items.lent(self, order, to, gift)
                continue
            try:
                ability = check_order(order, self.state)
            except OrderError as e:
                self.event("orders", order.label(), "ignored", str(e))
                continue
            # A side's action is one a phase, the leader's; `each_member` (004's APTX: "Each
            # BO can only start one poison attempt each day") one per member; 004's
            # Detective Boys: "They use Identify all together. So they can just Identify one
            # player's role together per Day."
            key = order_slot(order, ability)
            group = ability.params.get("group")
            kept = slots.get(key, [])
            previous = kept[-1] if kept else None
            per_phase = int(ability.params.get("per_phase", 1))
            if previous is not None and previous.ability is ability and len(kept) < per_phase:
                # 004 "Investigate 3": up to three investigations a night.
                kept.append(Action(order, ability, list(order.targets), ability.tier))
                continue
            if (
                previous is not None
                and order.side
                and self.state.passive(previous.actor, "leader")
                and not self.state.passive(order.actor, "leader")
            ):
                self.event(
                    "orders",
                    order.label(),
                    "ignored",
                    f"{previous.actor} has the final say on the {order.side}'s action",
                )
                continue
            if (
                group
                and previous is not None
                and previous.actor != order.actor
                and groups.group_rank(self.state, previous.actor, previous.ability)
                < groups.group_rank(self.state, order.actor, ability)
            ):
                # "If the GM gets conflicting orders on whom to Identify, the GM will use
                # this ranking."
                self.event("orders", order.label(), "ignored",
                           f"{previous.actor} ranks higher among the {group}: "
                           f"{previous.label()} stands")
                continue
            if previous is not None and previous.ability is ability and per_phase > 1:
                self.event(
                    "orders", kept[0].label(), "replaced",
                    f"{ability.name} is used {per_phase} times a {order.phase} at most: "
                    f"the later order {order.label()} stands",
                )
                kept = kept[1:]
            elif previous is not None:
                for old in kept:
                    self.event(
                        "orders", old.label(), "replaced", f"by the later order {order.label()}"
                    )
                kept = []
            slots[key] = [*kept, Action(order, ability, list(order.targets), ability.tier)]
        self.actions = [a for kept in slots.values() for a in kept]
        self._exclusive_when_alone()
        self._instead_of_side_action()
        self._covered_apart_from_ally()

    def _covered_apart_from_ally(self) -> None:
        """004 Cover: "In case Akemi is covered, Calvados has to use steal on a different
        target than Akemi." A cover ability with `apart_from_ally`: the covered ability used
        on a target the ally uses it on that phase is ignored, the ally's own order stands."""
        for a in list(self.actions):
            if not a.ability.params.get("covered"):
                continue
            own = self.state.own_abilities(a.actor).values()
            if not any(ab.kind == "cover" and ab.params.get("apart_from_ally") for ab in own):
                continue
            allies = {
                s[len(COVER):].rsplit(":", 1)[0]
                for s in self.state.players[a.actor].statuses
                if s.startswith(COVER)
            }
            same = next(
                (
                    b for b in self.actions
                    if b.actor in allies and b.ability.name == a.ability.name
                    and set(b.targets) & set(a.targets)
                ),
                None,
            )
            if same is not None:
                self.actions.remove(a)
                self.event(
                    "orders", a.label(), "ignored",
                    f"{a.actor} covers {same.actor}: they may not both use "
                    f"{a.ability.name} on {', '.join(sorted(set(a.targets) & set(same.targets)))} "
                    f"the same {self.phase}; {same.label()} stands",
                )

    def _exclusive_when_alone(self) -> None:
        """001: the last werewolf cannot convert and eat the same night: the later order stands."""
        for a in list(self.actions):
            if not a.ability.params.get("not_with_side_action_when_alone"):
                continue
            side = self.state.players[a.actor].side
            if len(self.state.side_members(side)) != 1:
                continue
            side_action = next((b for b in self.actions if b.order.side == side), None)
            if side_action is None:
                continue
            first, later = sorted((a, side_action), key=lambda x: self.orders.index(x.order))
            self.actions.remove(first)
            self.event(
                "orders",
                first.label(),
                "ignored",
                f"{a.actor} is the last of the {side} and may not do both; {later.label()} stands",
            )

    def _instead_of_side_action(self) -> None:
        """000 Vigilante: "If he is a dopp, he may either perform the group night-kill or
        his own kill": of the two orders, the later stands."""
        for a in list(self.actions):
            if not a.ability.params.get("instead_of_side_action"):
                continue
            side_action = next(
                (b for b in self.actions if b.order.side and b.actor == a.actor), None
            )
            if side_action is None:
                continue
            first, later = sorted((a, side_action), key=lambda x: self.orders.index(x.order))
            self.actions.remove(first)
            self.event(
                "orders", first.label(), "ignored",
                f"{a.actor} may do one or the other; {later.label()} stands",
            )

    def run(self) -> PhaseResult:
        if self.phase == "night":
            for p in self.state.players.values():
                p.day_statuses.clear()
        self.collect()
        if self.phase == "night":
            self._count_skips()
            self._automatic_kills()
            self._standing_guards()
        deaths.fire_pending(self)
        kills.apply_boosts(self)
        kills.apply_bribes(self)
        sentries.apply_suspensions(self)
        blocking.apply_repairs(self)
        sentries.apply_trust(self)
        groups.settle_groups(self)
        for tier in self.tiers:
            acts = [a for a in self.actions if a.tier == tier and not a.done]
            ready = []
            shots: list[tuple[Action, str]] = []
            blocking.settle_block_chains(self, acts, tier)
            for a in acts:
                a.done = True
                reason = reach.cannot_act(self, a, tier)
                if reason:
                    a.failed = reason
                    self.event(tier, a.label(), "fails", reason)
                    self._tell_failed(a)
                    poison.when_stopped(self, a, tier)
                    shots += sentries.visit_kills(self, [a])
                    fallback = a.ability.params.get("failed_result")
                    if fallback and self.state.players[a.actor].alive:
                        self.pm_later(
                            a.actor,
                            str(a.ability.params["result_pm"]).format(
                                target=a.targets[0] if a.targets else "", result=fallback
                            ),
                            needs_alive=bool(a.ability.params.get("needs_alive")),
                        )
                    continue
                ready.append(a)
            ready = groups.ration_stock(self, ready, tier)
            shots += sentries.visit_kills(self, ready)
            for a in sorted(ready, key=within_tier_key):
                self.acting = a.actor
                told = len(self.pending_pms)
                HANDLERS[a.kind](self, a, tier)
                groups.share_with_group(self, a, told)
                if a.ability.params.get("done_pm") and not a.failed:
                    # 004: "Players, that used a Night action and weren't discombobulated,
                    # will get a PM with "You slandered your target"".
                    self.pm_later(
                        a.actor,
                        str(a.ability.params["done_pm"]).format(target=" and ".join(a.targets)),
                        needs_alive=True,
                    )
                self.acting = None
            if self.kills:
                deaths.resolve_kills(self, tier)
            sentries.fire_visit_kills(self, shots, tier)
            bombs.explode_bombs(self, tier)
        night_end.finish(self)
        groups.kill_turns(self)
        if self.phase == "day":
            # A borrower killed or arrested by day: the loan goes to the next substitute.
            items.loans_to_substitutes(self)
        items.pass_on(self, self.tiers[-1] if self.tiers else "end")
        investigations.free_waits(self, self.tiers[-1] if self.tiers else "end")
        if self.phase == "night":
            lovers.friends_killers(self)
        self.state.acts.extend(self._acts())
        results: dict[str, list[str]] = {}
        for p in self.pending_pms:
            if p.player in self.silenced and p.own:
                self.event("results", f"PM to {p.player}", "not sent",
                           f"no results the phase they are injured or suspended: {p.text}")
                continue
            player = self.state.players[p.player]
            if p.needs_alive and not player.alive:
                continue
            if player.role != p.role:
                continue
            self.pm(p.player, p.text, p.at)
            if p.own:
                results.setdefault(p.player, []).append(p.text)
        if self.phase == "night":
            night_end.reports_to_leaders(self, results)
        self._drop_pms_of_the_dead()
        if self.phase == "night":
            self.state.nights_resolved = max(self.state.nights_resolved, self.number)
        else:
            self.state.days_resolved = max(self.state.days_resolved, self.number)
        return PhaseResult(
            self.phase,
            self.number,
            tuple(self.log),
            tuple(self.deaths),
            {k: tuple(text for _at, text in sorted(v, key=_first)) for k, v in self.pms.items()},
            tuple(self.public),
            tuple(self.notes),
            self.state,
            {k: tuple(v) for k, v in self.notices.items()},
        )

    def _drop_old_covers(self) -> None:
        """A cover lasts for the night after the day it was chosen, and so does a costume
        ("After the night Yukiko will no longer be disguised"); a detention ends after its
        phases or with the one who detained ("released automatically after 3 phases or if
        Satou dies"), and holds the detained player like a jail until then."""
        index = phase_index(self.rules, self.phase, self.number)
        for n, p in self.state.players.items():
            for s in [s for s in p.statuses if s.startswith(COVER)]:
                if int(s.rsplit(":", 1)[1]) < index:
                    p.statuses.discard(s)
            for s in [s for s in p.statuses if s.startswith(COSTUME_FOR)]:
                if int(s[len(COSTUME_FOR):]) < index:
                    p.statuses.discard(s)
                    drop_disguise(self.rules, p)
            for s in [s for s in p.statuses if s.startswith(blocking.DETAINED)]:
                by, until = s[len(blocking.DETAINED):].rsplit(":", 1)
                if int(until) < index or not self.state.players[by].alive:
                    p.statuses.discard(s)
                    continue
                self.blocked.add(n)
                self.jailed.add(n)
                self.block_kinds.setdefault(n, set()).add("detention")

    def _disguises_worn(self) -> None:
        """Every disguise worn as the phase begins is a crime of this phase (004: "Disguise -
        Prep action, crime, remains so long as it is not removed due to injury or an
        ability"; a costume "the night phase she wore it"), for arrests and special
        investigations of later phases."""
        for n, p in self.state.players.items():
            worn = disguise_of(p)
            if p.alive and worn is not None:
                act = disguise_act(self.rules, self.phase, self.number, n, worn)
                self.extra_acts += [act] if act else []

    def _travellers(self) -> None:
        """004 travel: a player abroad "is handled as if he were arrested" (acts only with
        what passes `unblockable_by = ["abroad"]`, is reached only by `reaches_abroad`); one
        on the plane can do nothing and nothing reaches him."""
        index = phase_index(self.rules, self.phase, self.number)
        for n, p in self.state.players.items():
            settle_flights(p, index)
            where = whereabouts(p, index)
            if where != "home":
                self.blocked.add(n)
                self.jailed.add(n)
                self.block_kinds.setdefault(n, set()).add(where)

    def _statuses_after_deaths(self) -> None:
        """A role passive `status_after_death_of = { status, roles }`: the status from the
        phase after a player of one of those roles died (004 Kogorou "becomes sober the phase
        after Eri, Ran, Conan, or Shinichi dies"); a body erased does not count ("If Eri,
        Ran, Conan, or Shinichi get erased, Kogorou will not get sober")."""
        for name, p in self.state.players.items():
            rule = self.state.passive(name, "status_after_death_of")
            if not rule or not p.alive:
                continue
            roles = set(rule.get("roles", ()))  # type: ignore[attr-defined]
            # `or_status`: the same from a status of one of them (004: "If Ran is injured
            # due to successfully protecting someone at night, Kogorou becomes sober").
            also = rule.get("or_status")  # type: ignore[attr-defined]
            if any(
                q.role in roles
                and ((not q.alive and "erased" not in q.statuses) or (also in q.statuses))
                for q in self.state.players.values()
            ):
                p.statuses.add(str(rule["status"]))  # type: ignore[index]

    def _tell_failed(self, a: Action) -> None:
        """The ruleset's `action_failed` PM to an actor a block stopped (004: "The people
        discombobulated will get a PM from the GM that their night action failed"), once a
        phase; not for the dead or the arrested, whose actions fail for another reason."""
        if "action_failed" not in self.rules.messages or not a.stayed:
            return
        passes = set(a.ability.params.get("unblockable_by", ()))
        kinds = self.block_kinds.get(a.actor, set()) - passes
        # They know why (arrested, suspended, abroad): told only of a block besides.
        known = {"arrest", "detention", "abroad", "in-flight", *arrests.OFF_DUTY.values()}
        if not self.state.players[a.actor].alive or (kinds and kinds <= known):
            return
        if not self.is_blocked(a) or a.actor in self._told_failed:
            return
        self._told_failed.add(a.actor)
        self.pm_later(a.actor, self.say("action_failed"), needs_alive=True)

    def _automatic_kills(self) -> None:
        """Abilities that act by themselves on the night the setup names (`automatic =
        "SETUP KEY"`): 000's Organ Harvester "is building an Abomination. After some # of
        nights (based on player count) the Abomination is released and performs a Night Kill
        attempt on every player" (setup: `abomination_night = N`)."""
        for name, p in self.state.players.items():
            if not p.alive:
                continue
            for ab in self.state.abilities_of(name).values():
                key = ab.params.get("automatic")
                if not key or self.state.extra.get(str(key)) != self.number:
                    continue
                for t in [q.name for q in self.state.living() if q.name != name]:
                    order = Order(name, ab.name, (t,), "night", self.number)
                    self.actions.append(Action(order, ab, [t], ab.tier))
                self.event("orders", f"{name}: {ab.name}", "released",
                           f"night {self.number}, as the setup says ({key})")

    def _standing_guards(self) -> None:
        """An item's ability with `every_night` acts by itself each night for whoever
        holds it, on them (004's watch: "Someone in possession of the Watch is protected");
        it is their action, so a discombobulation of the holder stops it."""
        for name in sorted(self.state.players):
            if not self.state.players[name].alive:
                continue
            held = self.state.players[name].statuses
            role = self.state.role_of(name)
            for ab in role.abilities.values() if role is not None else ():
                # A role's action that needs no order (004 Kir's Betrayal: "Kir doesn't need
                # to PM the GM to use this action, but it can be discombobulated").
                if ab.params.get("every_night") is True:
                    order = Order(name, ab.name, (name,), "night", self.number)
                    self.actions.append(Action(order, ab, [name], ab.tier))
            for item in self.state.items_of(name):
                lent = any(s.startswith(f"{items.BORROWED}{item.key}:") for s in held)
                for ab in item.abilities.values():
                    # `every_night = "borrowed"`: only in a borrower's hands (the watch does
                    # not guard Agasa, who "can lend it to anyone ... except for himself").
                    when = ab.params.get("every_night")
                    if when is True or (when == "borrowed" and lent):
                        order = Order(name, ab.name, (name,), "night", self.number)
                        self.actions.append(Action(order, ab, [name], ab.tier))

    def _count_skips(self) -> None:
        """000: "The Doppelgangers may choose to skip their night kill. They may only do this
        twice in a row before their bloodlust forces them to kill." A side ability's
        `skip_limit`: skipped nights are counted; the GM is told the night it is forced."""
        for key, side in self.rules.sides.items():
            for ab in side.abilities.values():
                limit = ab.params.get("skip_limit")
                if limit is None or not self.state.side_members(key):
                    continue
                mark = f"skipped:{key}:{ab.name}"
                before = int(self.state.extra.get(mark, 0))  # type: ignore[call-overload]
                acted = any(a.order.side == key and a.ability is ab for a in self.actions)
                members = ", ".join(self.state.side_members(key))
                if before >= int(limit):
                    text = self.say("forced", side=side.title, ability=ab.name, n=before)
                    for m in self.state.side_members(key):
                        self.notice(m, text)
                    if not acted:
                        self.notes.append(
                            f"{text} No {ab.name} order is entered: ask {members} for it."
                        )
                now = 0 if acted else before + 1
                self.state.extra[mark] = now
                if now >= int(limit) and not acted:
                    self.notes.append(
                        self.say("forced_next", side=side.title, ability=ab.name, n=now)
                    )

    def _drop_pms_of_the_dead(self) -> None:
        """A player who died during this phase gets no PM of it (their result, a "you were
        tampered with"): the dry run says which results will not be delivered."""
        for name in list(self.pms):
            if name in self.alive_at_start and not self.state.players[name].alive:
                for _at, text in self.pms.pop(name):
                    self.event("results", f"PM to {name}", "not sent", f"{name} died: {text}")

def _first(pair: tuple[int, str]) -> int:
    return pair[0]


def resolve_phase(state: GameState, phase: str, number: int, orders: list[Order]) -> PhaseResult:
    """Resolve `orders` (in the order they were entered) for one night or day."""
    return Resolver(state, phase, number, orders).run()
