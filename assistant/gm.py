"""What the GM asks of a game and enters into it, as plain functions of its store.

The command line prints these and the dashboard (assistant/web/) shows them, so the two
cannot disagree: the count (`count`, `draft tally`), `--why`, votes sent by PM, night
orders, the dawn, dusk and PM drafts, and acknowledging alerts. Each takes the game's
store and the moment from its caller; each refusal is an AssistantError of one line
saying what to give instead. Nothing here prints.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from assistant.alerts import AlertLog, StoredAlert, feed_path, write_feed
from assistant.count.marks_cache import kept_beside
from assistant.count.outcome import NO_LYNCH, TallyRules
from assistant.count.tally import Tally
from assistant.count.votes import VoteRules
from assistant.errors import (
    ConfigError,
    MalformedOrderError,
    OrderError,
    PhaseError,
    StoreError,
    VoteError,
)
from assistant.game import Game
from assistant.game_file import paused_gc
from assistant.models import to_iso
from assistant.monitor import GameView, day_tally, game_ruleset, game_title, load_game, load_view
from assistant.phase_entry import game_over, refuse_after_win, stored_post_time
from assistant.phases import (
    game_zone,
    local_text,
    parse_past,
    phase_at,
    phases_from_inputs,
)
from assistant.rulesets import find_ruleset
from assistant.store import WITHDRAW, GameStore

if TYPE_CHECKING:  # the engine and Jinja2 are imported by the functions that use them, so
    # that `assistant count` (this module) does not pay for them (tests/test_startup.py)
    from assistant.engine.dusk import DuskResult
    from assistant.engine.history import Replay
    from assistant.engine.orders import Order
    from assistant.engine.resolver import PhaseResult
    from assistant.engine.rules import EngineRules

# ---- the count ------------------------------------------------------------------------------


def parse_at(text: str, *, now: datetime, tz: str, where: str = "--at") -> datetime:
    """A moment the GM looks back to, in the game's zone (see `phases.parse_past`)."""
    return parse_past(text, now=now, zone=game_zone(tz), where=where)


def require_posts(store: GameStore, game: Game) -> None:
    """A count of a game whose thread was never read would show everyone not voting and a
    lynch drawn from nothing: say what to do instead."""
    if game.pm_votes or store.has_posts():  # not every post built just to know
        return
    pm = "pm" in VoteRules.from_ruleset(find_ruleset(game.ruleset)).forms
    raise StoreError(
        f"no posts of game {game.game_id!r} are stored yet"
        + (" and no votes were entered by PM" if pm else "")
        + f": run `assistant fetch --game {game.game_id}` to read the thread"
        + (f" (or `assistant vote {game.game_id} VOTER TARGET`)" if pm else "")
        + ", then count again"
    )


def game_tally(
    store: GameStore,
    now: datetime,
    *,
    at_post: int | None = None,
    at_text: str | None = None,
    day: int | None = None,
    view: GameView | None = None,
) -> tuple[Game, Any, Tally, datetime]:
    """The count of the game in `store` as `count`, `draft tally` and the dashboard show it,
    and the moment it is as of: one function, so the page cannot disagree with `count`.

    The day ends when it really ends (`monitor.day_end`: everyone voted, a majority, the
    GM moving the deadline), as `phase`, `draft dusk` and the daemon see it. `view`: the
    game's view at `now` when the caller has it already (the dashboard's page), so the
    thread is not read and counted twice."""
    game = view.game if view is not None else load_game(store)
    ruleset = view.ruleset if view is not None else game_ruleset(store, game.ruleset)
    require_posts(store, game)
    at = parse_at(at_text, now=now, tz=game.tz) if at_text else None
    if at_post is not None and at is None:
        at = _post_time(store, at_post)
    if view is not None and at is None and view.now == now:
        return view.game, view.ruleset, day_tally(view, store.inputs(), day=day,
                                                  at_post=at_post), now
    now = at or now
    with kept_beside(store.path) as marks, paused_gc():
        view = load_view(store, now)
        marks.keep = {sp.post_id for sp in view.stored}
        tally = day_tally(view, store.inputs(), day=day, at=at, at_post=at_post)
    return game, ruleset, tally, now


def count_and_state(
    store: GameStore,
    now: datetime,
    *,
    at_post: int | None = None,
    at_text: str | None = None,
    day: int | None = None,
) -> tuple[Game, Any, Tally, datetime, str | None]:
    """`game_tally` and, once the game is over, "Game over: Town won (Day 2)" (`count`):
    the game as it stands now, counted as of the moment asked about."""
    with kept_beside(store.path) as marks, paused_gc():  # the count inside uses the marks
        view = load_view(store, now)
        marks.keep = {sp.post_id for sp in view.stored}
        counted = game_tally(store, now, at_post=at_post, at_text=at_text, day=day, view=view)
    return (*counted, game_over(view))


def over_line(tally: Tally, tz: str) -> str | None:
    """What an ended day decided, said as over ("Day 2 is over (ended at 2026-11-22 11:20
    UTC). Decided: X is lynched: X leads with 4"); None while the day runs. A count after
    the deadline that still said "X leads with 4" read as if voting went on."""
    outcome = tally.outcome
    if not outcome.final:
        return None
    head = f"Day {tally.day} is over" if tally.day is not None else "The day is over"
    if outcome.by_majority:
        with_post = f"post {outcome.at_post}" if outcome.at_post is not None else "a PM vote"
        head += f" (ended at majority with {with_post})"
    elif tally.deadline is not None:
        local = tally.deadline.astimezone(game_zone(tz))
        head += f" (ended at {local:%Y-%m-%d %H:%M} {local.tzname() or tz})"
    names = list(outcome.lynched)
    if outcome.waiting:
        return (f"{head}. Not decided yet: {outcome.reason} (`assistant tiebreak` records "
                "the choice)")
    if outcome.uncertain:
        return f"{head}. Not decided: {outcome.reason}"
    if not names:
        decided = "no lynch"
    elif len(names) == 1:
        decided = f"{names[0]} is lynched"
    else:
        decided = f"{', '.join(names[:-1])} and {names[-1]} are lynched"
    return f"{head}. Decided: {decided}: {outcome.reason}"


def _post_time(store: GameStore, at_post: int) -> datetime | None:
    """The moment "as of post N" means: when post N (or the last post before it) was made.
    Later posts and later edits are not applied, as `--at` that moment shows."""
    made = [sp.versions[0].post.posted_at for sp in store.posts() if sp.post_id <= at_post]
    return max(made) if made else None


def tally_bbcode(game: Game, ruleset: Any, tally: Tally, now: datetime) -> str:
    """The tally post `draft tally` prints (and the dashboard's copy button copies)."""
    from assistant.count.tally_draft import render_tally

    urls = {v.post_id: v.url for v in tally.votes if v.post_id is not None and v.url}
    return render_tally(
        tally, TallyRules.from_ruleset(ruleset), tz=game.tz, now=now, post_urls=urls
    )


def why_name(tally: Tally, game: Game, why: str | None, ruleset: Any) -> str | None:
    """The voter `--why NAME` means (see `Tally.voter_named`); refused when nobody or two
    people fit, with the candidates, rather than printing an empty list."""
    if why in (None, "*"):
        return why
    close = VoteRules.from_ruleset(ruleset).close_spelling
    m = tally.voter_named(game, why, close_spelling=close)
    if m.ok:
        return m.slot
    if m.how == "ambiguous":
        raise VoteError(f"--why: {m.describe()}; write more of the name")
    day = f" on day {tally.day}" if tally.day is not None else ""
    near = f" (closest: {', '.join(m.candidates)})" if m.candidates else ""
    others = tally.other_voters(game)
    raise VoteError(
        f"--why: no player, and nobody else who voted{day}, is called {why!r}{near}; players: "
        f"{', '.join(game.players)}" + (f"; other voters: {', '.join(others)}" if others else "")
    )


def enter_pm_vote(
    store: GameStore,
    voter: str,
    target: str | None,
    *,
    unvote: bool,
    at_text: str | None,
    now: datetime,
    at: datetime | None = None,
    origin: dict[str, Any] | None = None,
) -> tuple[dict[str, Any], str]:
    """Store a vote sent by PM (`vote`, and the dashboard's form): the fact and one line
    saying what was recorded. Every refusal is a VoteError naming what to give instead.
    `at`: when it was sent, if known (an inbox message); `origin`: where it came from."""
    game_id = store.game_id
    if bool(target) == unvote:
        raise VoteError(
            "give either a TARGET or --unvote: `assistant vote GAME Conia Jd-` or "
            "`assistant vote GAME Conia --unvote`"
        )
    g = load_game(store)
    vrules = VoteRules.from_ruleset(find_ruleset(g.ruleset))
    at = parse_at(at_text, now=now, tz=g.tz) if at_text else (at or now)
    if "pm" not in vrules.forms and not _controlled(g, voter, vrules, at):
        raise VoteError(
            f"the ruleset of {game_id!r} ({g.ruleset}) does not take votes by PM: it counts "
            f"{vrules.describe()}; add \"pm\" to [votes] forms in a copy of it to allow them"
        )
    who = g.matcher(vrules.close_spelling).match(voter)
    if not who.ok:
        raise VoteError(f"the voter {who.describe()}; players: {', '.join(g.players)}")
    resolved = None
    if target:
        if vrules.is_no_lynch(target) or vrules.is_abstain(target):
            resolved = target
        else:
            m = g.matcher(vrules.close_spelling).match(target)
            if not m.ok:
                raise VoteError(f"the target {m.describe()}; players: {', '.join(g.players)}")
            resolved = m.slot
    data = {"voter": who.slot, "target": resolved, "at": to_iso(at), **(origin or {})}
    store.add_input("vote", data, now)
    if resolved is None:
        did = "unvotes"
    elif vrules.is_abstain(resolved):
        did = "abstains"  # 004: "Players may abstain from voting."
    else:
        did = f"votes {resolved}"
    return data, f"Recorded: {who.slot} {did} at {to_iso(at)}."


def _controlled(g: Game, voter: str, vrules: VoteRules, at: datetime) -> bool:
    """Whether `voter`'s vote at `at` is another player's to choose (000's Mind Control Ray):
    the GM enters it by PM under any ruleset."""
    who = g.matcher(vrules.close_spelling).match(voter)
    phase = phase_at(g.phases, at)
    day = phase.number if phase is not None and phase.kind == "day" else None
    return who.ok and any(m.vote_by for m in g.modifiers_for(str(who.slot), day))


def rules_of(store: GameStore, override: str | None = None) -> EngineRules:
    from assistant.engine.rules import load_engine_rules

    name = override or store.config().get("ruleset")
    if not name:
        raise ConfigError(
            f"the game {store.game_id!r} has no ruleset; give --ruleset NAME (e.g. chat-mafia)"
        )
    return load_engine_rules(find_ruleset(name))


def replay_of(store: GameStore) -> tuple[EngineRules, Replay]:
    from assistant.engine.history import replay

    rules = rules_of(store)
    return rules, replay(rules, store.inputs())


def running_night(store: GameStore, rules: EngineRules, rep: Replay, now: datetime) -> int | None:
    """The night the game's clock (`assistant phase`) is in, or the night after the running
    day, unless it is already resolved. A GM who starts using the assistant on Day 2 has
    "night 2" in mind, not the engine's "first night it resolves"."""
    current = phase_at(phases_from_inputs(store.inputs()), now)
    if current is None:
        return None
    number = current.number
    if current.kind == "day" and rules.first_phase != "day":
        number += 1
    return number if rep.result("night", number) is None else None


def game_or_none(store: GameStore) -> Game | None:
    """The game's players (`game new`), when it has them: an engine-only game has none."""
    if not store.inputs("players"):
        return None
    return load_game(store)


def player_aliases(game: Game | None, names: list[str]) -> dict[str, list[str]]:
    """Each engine player's other names from the players file (aliases, replaced players,
    and the slot's shown name after a replacement renamed the engine's player)."""
    if game is None:
        return {}
    out: dict[str, list[str]] = {}
    for slot in game.slots:
        for name in names:
            if name in slot.names:
                out[name] = [n for n in slot.names if n != name]
    return out


def order_phase(
    night: int | None, day: int | None, rep: Replay, running: int | None = None
) -> tuple[str, int]:
    """The phase an order or a resolution is for: as given, else the night the GM's clock
    is in (or the one after the running day), else the engine's next night."""
    if night is not None and day is not None:
        raise ConfigError("give a night or a day, not both")
    if day is not None:
        return "day", day
    if night is not None:
        return "night", night
    return "night", running if running is not None else rep.next_night()


def orders_night(store: GameStore, now: datetime) -> int:
    """The night an order entered now is for (`order` without --night): the night the
    game's clock is in, or the one after the running day, else the engine's next night."""
    rules, rep = replay_of(store)
    return order_phase(None, None, rep, running_night(store, rules, rep, now))[1]


#: "Conia: none": the actor takes no action; the orders entered for them are withdrawn.
#: The actor is all before the last colon ("Re: Zero: none"), quotes around it dropped.
_NO_ACTION = re.compile(
    r"""^\s*(?:["'\u201c\u2018](?P<quoted>.+?)["'\u201d\u2019]|(?P<actor>.+?))\s*:\s*"""
    r"(?:none|nothing|no action|no order)\s*\.?\s*$", re.I
)


@dataclass(frozen=True)
class OrdersEntered:
    """What `order` stored: the phase, the new orders, and the orders a "none" withdrew."""

    phase: str
    number: int
    orders: list[Order]
    no_action: list[str]
    """One line per "Actor: none": who takes no action, and the orders withdrawn for it."""


def enter_orders(
    store: GameStore,
    lines: list[str],
    now: datetime,
    *,
    night: int | None = None,
    day: int | None = None,
    source: Path | None = None,
    force: bool = False,
    origin: dict[str, Any] | None = None,
) -> tuple[str, int, list[Order]]:
    """Check and store orders (`order`, and the dashboard's form): all of them or, when one
    is refused, none; the error names the line of `source` it came from. "Conia: none"
    withdraws Conia's orders (see `enter_order_lines`). `origin`: where they came from,
    kept with each fact (an inbox proposal: {"source": "inbox", "pm_id", "proposal"})."""
    done = enter_order_lines(store, lines, now, night=night, day=day, source=source,
                             force=force, origin=origin)
    return done.phase, done.number, done.orders


def enter_order_lines(
    store: GameStore,
    lines: list[str],
    now: datetime,
    *,
    night: int | None = None,
    day: int | None = None,
    source: Path | None = None,
    force: bool = False,
    origin: dict[str, Any] | None = None,
) -> OrdersEntered:
    """`enter_orders`, saying also what each "Actor: none" line withdrew: the orders entered
    for that player (or side) in the phase, each withdrawn by a fact of its own (`undo`),
    and a "no_order" fact, so a night that waits for every order knows the actor is done."""
    from assistant.engine.abilities.items import with_gifts
    from assistant.engine.history import ORDER
    from assistant.engine.orders import check_order, match_player, parse_order, side_of_actor
    from assistant.night_orders import NO_ORDER

    game = store.game_id
    rules, rep = replay_of(store)
    phase, number = order_phase(night, day, rep, running_night(store, rules, rep, now))
    aliases = player_aliases(game_or_none(store), list(rep.state.players))
    refuse_after_win(rep, game, "orders are no longer taken", force=force)
    if rep.result(phase, number) is not None:
        raise MalformedOrderError(
            f"{phase} {number} of {game} is already resolved; orders "
            "for it can no longer change it"
        )
    orders: list[Order] = []
    nones: list[tuple[str | None, str | None]] = []  # (player, side) taking no action
    for i, line in enumerate(lines, 1):
        # Items given tonight (000's trade) are the receiver's for the orders after it.
        seen = with_gifts(rep.state, [*rep.orders_for(phase, number), *orders])
        try:
            none = _NO_ACTION.match(line)
            if none is not None:
                text = none.group("quoted") or none.group("actor")
                side = side_of_actor(text, rep.state.rules, list(rep.state.players),
                                     quoted=none.group("quoted") is not None)
                who = None if side else match_player(
                    text, list(rep.state.players), order=line, aliases=aliases
                )
                nones.append((who, side))
                orders = [o for o in orders if (o.actor if not o.side else None, o.side)
                          != (who, side)]
                continue
            o = parse_order(line, seen, phase=phase, number=number, aliases=aliases)
            check_order(o, seen)
        except OrderError as e:
            raise type(e)(f"{source}:{i}: {e}" if source else str(e)) from None
        orders.append(o)
    said = []
    with store.batch():
        standing = [d for d in store.inputs(ORDER)
                    if (d["data"]["phase"], d["data"]["number"]) == (phase, number)]
        for who, side in nones:
            gone = [d for d in standing if d["data"].get("side") == side
                    and (side is not None or d["data"]["actor"] == who)]
            for d in gone:
                store.add_input(WITHDRAW, {"input": d["seq"], "kind": ORDER}, now)
            store.add_input(NO_ORDER, {"actor": who, "side": side, "phase": phase,
                                       "number": number, **(origin or {})}, now)
            name = f"the {side}" if side else who
            was = "; ".join(f"{d['data'].get('text')} (input {d['seq']})" for d in gone)
            said.append(f"{name}: no action on {phase} {number}"
                        + (f"; withdrawn: {was}" if was else ""))
        for o in orders:
            store.add_input(ORDER, {**o.to_dict(), **(origin or {})}, now)
    return OrdersEntered(phase, number, orders, said)


def orders_entered(store: GameStore, now: datetime) -> tuple[int, list[dict[str, Any]]]:
    """The orders entered for the night an order entered now is for (the dashboard's list):
    each with its input id (`undo`), its text, and whether it stands, or was replaced by a
    later order or ignored, and why, as a dry resolution of the night says."""
    from assistant.engine.history import ORDER
    from assistant.engine.orders import Order
    from assistant.engine.resolver import resolve_phase

    rules, rep = replay_of(store)
    number = order_phase(None, None, rep, running_night(store, rules, rep, now))[1]
    docs = [d for d in store.inputs(ORDER)
            if d["data"].get("phase") == "night" and d["data"].get("number") == number]
    fates: dict[str, list[tuple[str, str]]] = {}
    if rep.result("night", number) is None:
        result = resolve_phase(rep.state, "night", number, rep.orders_for("night", number))
        for e in result.events:
            if e.tier == "orders" and e.effect in ("replaced", "ignored"):
                fates.setdefault(e.action, []).append((e.effect, e.reason))
    out = []
    for d in docs:
        label = Order.from_dict(d["data"]).label()
        fate = fates.get(label, [])
        status, why = fate.pop(0) if fate else ("stands", "")
        out.append({"id": d["seq"], "text": d["data"].get("text") or label, "status": status,
                    "why": why})
    return number, out


def draft_result(
    store: GameStore, night: int | None, rep: Replay | None = None
) -> tuple[PhaseResult, bool]:
    from assistant.engine.resolver import resolve_phase

    rep = rep or replay_of(store)[1]
    nights = [r for r in rep.results if r.phase == "night"]
    if night is None:
        if not nights:
            raise ConfigError(
                f"no night of {store.game_id} is resolved yet: run "
                f"`assistant resolve {store.game_id}` first"
            )
        return nights[-1], True
    found = rep.result("night", night)
    if found is not None:
        return found, True
    if night != rep.next_night():
        raise ConfigError(
            f"night {night} is neither resolved nor the next night ({rep.next_night()})"
        )
    return resolve_phase(rep.state, "night", night, rep.orders_for("night", night)), False


def day_result(store: GameStore, rep: Replay, day: int) -> PhaseResult:
    """A resolved day's actions (002's Sorcerer learns his victim's role)."""
    found = rep.result("day", day)
    if found is None:
        raise ConfigError(
            f"day {day} of {store.game_id} has no resolved day actions: run "
            f"`assistant resolve {store.game_id} --day {day}` first"
        )
    return found


def title_of(store: GameStore) -> str:
    """The game's name in drafts and subjects (`monitor.game_title`)."""
    return game_title(store)


def dawn_draft(store: GameStore, night: int | None = None) -> dict[str, Any]:
    """The dawn post of `night` (default: the last resolved one) as `draft dawn` and the
    dashboard show it: {"night", "confirmed", "post"}; a night not resolved yet is a preview."""
    from assistant.engine.drafts import dawn_post

    rules, rep = replay_of(store)
    result, confirmed = draft_result(store, night, rep)
    text = dawn_post(result, rep.entered_deaths("night", result.number),
                     templates=template_dirs(store), lynches=_lynches_after(store, rules, result))
    if not confirmed:
        text = f"(preview: night {result.number} is not resolved yet)\n{text}"
    return {"night": result.number, "confirmed": confirmed, "post": text}


def _lynches_after(store: GameStore, rules: EngineRules, result: PhaseResult) -> int | None:
    """003: the lynches the next day has, as its dawn says ("if two Town players are killed
    on Night One, then two lynches are available on Day Two"), capped as the count caps."""
    from assistant.count.outcome import lynches_today
    from assistant.engine.vote_effects import lynches_after

    found = lynches_after(rules, result, store.inputs())
    day = result.number + 1 if rules.first_phase == "day" else result.number
    return None if found is None else lynches_today(game_ruleset(store).tally, found, day)


def pm_drafts(
    store: GameStore,
    now: datetime,
    *,
    night: int | None = None,
    day: int | None = None,
    pending: bool = False,
) -> dict[str, str]:
    """The result PMs (`draft pms`, the dashboard): player -> PM text; with `pending`, the
    PMs due during the coming night; with `day`, a resolved day's actions."""
    from assistant.engine.drafts import notice_pms, result_pms

    game = store.game_id
    rules, rep = replay_of(store)
    title = title_of(store)
    if day is not None:
        result = day_result(store, rep, day)
    elif pending:
        running = running_night(store, rules, rep, now)
        number = night or running or rep.next_night()
        if rep.result("night", number) is not None:
            raise ConfigError(
                f"night {number} of {game} is already resolved; its results: "
                f"`assistant draft pms {game} --night {number}`"
            )
        result, _confirmed = draft_result(store, number, rep)
    else:
        result, _confirmed = draft_result(store, night, rep)
    dirs = template_dirs(store)
    return (notice_pms(result, title, templates=dirs) if pending
            else result_pms(result, title, templates=dirs))


def template_dirs(store: GameStore) -> tuple[Path, ...]:
    """Where a GM's own copies of the draft templates are looked for first: the game's
    (DATA_DIR/templates/GAME/), then the data directory's (DATA_DIR/templates/)."""
    data_dir = store.path.parent.parent
    return (data_dir / "templates" / store.game_id, data_dir / "templates")


def role_pm_drafts(store: GameStore) -> dict[str, str]:
    """The role PMs (`draft role-pms`, `send GAME role-pms`): player -> PM text."""
    from assistant.engine.drafts import role_pms
    from assistant.engine.history import latest_setup
    from assistant.engine.state import GameState

    setup = latest_setup(store.inputs())
    return role_pms(GameState.from_setup(rules_of(store), setup), title_of(store),
                    variants=tuple(setup.extra.get("variants", ())),
                    templates=template_dirs(store))


def dusk(
    store: GameStore, now: datetime, *, day: int | None = None, confirm: bool = False
) -> tuple[DuskResult, list[dict] | None]:
    """The dusk draft of `day` (`draft dusk`, the dashboard), and with `confirm` the lynch
    and the deaths it sets off stored as death facts (`--confirm`, the dashboard's "Record
    the lynch"): what was stored, or None when nothing was asked to be."""
    from assistant.engine.dusk import confirm_dusk
    from assistant.monitor import draft_dusk

    require_posts(store, load_game(store))
    result = draft_dusk(store, now, day=day)
    return result, confirm_dusk(store, result, now) if confirm else None


def dusk_text(result: DuskResult, stored: list[dict] | None, zone: ZoneInfo) -> str:
    lines = [result.post.rstrip("\n"), "", "---", "for the GM (not for the thread):"]
    if not result.final:
        lines.append("preview: the day is not over yet; the count may still change")
    end = result.tally.deadline
    if end is not None:
        # The reason may hold its own parentheses ("deadline set by the GM (2 d day)").
        why = f"; {result.ends_why}" if result.ends_why else ""
        lines.append(f"day {'ended' if result.final else 'ends'}: {local_text(end, zone)}{why}")
    outcome = result.tally.outcome
    at = f" (post {outcome.at_post})" if outcome.at_post is not None else ""
    lines.append(f"outcome{at}: {outcome.reason}")
    if outcome.waiting:
        day = f" --day {result.day}" if result.day is not None else ""
        lines.append(
            f"waiting for {outcome.waiting} to choose among {', '.join(outcome.tied)}: record "
            f"it with `assistant tiebreak {result.game_id} NAME{day}` (or the dashboard's form)"
        )
    lines += [f"note: {n}" for n in result.notes]
    if stored is not None:
        lines.append(
            "stored: " + (", ".join(stored_fact(f) for f in stored) or "no deaths")
        )
    elif result.confirmed:
        lines.append("already recorded")
    return "\n".join(lines)


def stored_fact(fact: dict) -> str:
    """A death fact ("Abs (lynch)"), or a rest the stopped lynch set off."""
    if "rests" in fact:
        return ", ".join(f"{who} rests from {ability}" for who, ability, _ in fact["rests"])
    return f"{fact['player']} ({fact['how']})"


def acknowledge(
    store: GameStore, ids: list[str], now: datetime, note: str | None
) -> list[StoredAlert]:
    """Acknowledge alerts (`alerts --ack`, the dashboard's button): every id is checked
    before any is acknowledged, so a typo acks nothing."""
    log = AlertLog(store)
    to_ack = [log.get(alert_id) for alert_id in ids]
    with store.batch():
        acked = [log.ack(s.id, now, note) for s in to_ack]
        for s in to_ack:
            if s.acked_at is None:  # an input of its own: `log` lists it, `undo` reopens it
                store.add_input("ack", {"alert": s.id, "note": note}, now)
    if acked:
        refresh_feed(store, now)
    return acked


def check_now(store: GameStore, now: datetime) -> list[StoredAlert] | None:
    """Run every check on what is stored and keep the new alerts (`fetch`, `alerts --check`,
    the dashboard): `alerts` right after a `fetch` is complete. None for a game without
    players yet (`fetch URL --game G` before `game new`): nothing to check against."""
    from assistant.monitor import run_checks

    if not store.inputs("players"):
        return None
    with kept_beside(store.path), paused_gc():  # the checks' counts read the kept marks
        found = run_checks(load_view(store, now), store)
    fresh = AlertLog(store).record(found, now)
    refresh_feed(store, now)
    return fresh


def alerts_line(fresh: list[StoredAlert]) -> str:
    """ "3 new alerts (1 violation, 2 warnings)": what a fetch's checks found."""
    if not fresh:
        return "no new alerts"
    by: dict[str, int] = {}
    for s in fresh:
        by[s.alert.severity] = by.get(s.alert.severity, 0) + 1
    parts = [
        f"{n} {sev}{'s' if n > 1 and sev != 'info' else ''}"
        for sev in ("violation", "warning", "info")
        if (n := by.get(sev))
    ]
    return f"{len(fresh)} new alert{'s' if len(fresh) > 1 else ''} ({', '.join(parts)})"


def refresh_feed(store: GameStore, now: datetime) -> Path:
    """Rewrite the game's Atom alert feed from the stored alerts (the latest of them)."""
    config = store.config()
    log = AlertLog(store)
    return write_feed(
        log.latest(),
        feed_path(store),
        game_id=store.game_id,
        title=game_title(store),
        link=config.get("thread_url"),
        now=now,
        zone=game_zone(config.get("tz")),
        total=log.count(),
    )


# ---- the GM's other inputs: phases, deaths, PMs sent, tie-breaks, resolutions ------------------


DEATH_KINDS = ("lynch", "nightkill", "modkill", "replaced", "other")


def record_death(
    store: GameStore,
    now: datetime,
    player: str,
    *,
    how: str = "other",
    at_post: int | None = None,
    at_text: str | None = None,
    replacement: str | None = None,
    lynch_day: int | None = None,
) -> tuple[dict[str, Any], str]:
    """Record a death, modkill or replacement (`kill`, the dashboard's form): the fact,
    and the one line saying what was recorded."""
    if how not in DEATH_KINDS:
        raise ConfigError(f"--how {how!r}: give one of {', '.join(DEATH_KINDS)}")
    if (how == "replaced") != bool(replacement):
        raise ConfigError("a replacement needs --how replaced and --replacement NAME together")
    if lynch_day is not None and how != "lynch":
        raise ConfigError("--day names the day a lynch ended; give it with --how lynch")
    game = load_game(store)
    match = game.matcher().match(player, strict=True)
    if not match.ok:
        raise ConfigError(f"{match.describe()}; players: {', '.join(game.players)}")
    zone = game_zone(game.tz)
    at = (parse_past(at_text, now=now, zone=zone, where="--at") if at_text
          else (None if at_post is not None else now))
    # Alive at the moment of this death, not "never died": a player the engine revived
    # (002 Priest, a "revive" fact) can be killed again. A death "after post N" is checked
    # at that post's time too, against deaths the GM entered by time.
    slot: str = match.slot  # type: ignore[assignment]
    moment = at or stored_post_time(store, at_post)
    if how != "replaced" and not game.is_alive(slot, post_id=at_post, at=moment):
        death = game.death_of(slot)
        raise ConfigError(
            f"{slot} is already recorded as dead ({death.how if death else 'other'}) at "
            "that moment; only a living (or revived) player can be killed"
        )
    data: dict[str, Any] = {"player": slot, "at_post": at_post, "at": to_iso(at), "how": how,
                            "replacement": replacement}
    if how == "lynch":
        dusk = lynch_day if lynch_day is not None else _lynch_day(game, at_post, at_text, now)
        if dusk is not None:
            data["dusk"] = dusk  # whose lynch: that day's count keeps its wagon
    elif how == "nightkill" and at_post is None and at_text is None:
        before = _night_before(game, now)
        if before is not None:
            data["night_before_day"] = before  # dead all that day, wherever it starts
    with store.batch():  # stored only if the game still loads (a bad replacement raises)
        store.add_input("death", data, now)
        load_game(store)
    lynch = f"lynch, Day {data['dusk']}" if "dusk" in data else how
    if "night_before_day" in data:
        lynch = f"nightkill, the night before Day {data['night_before_day']}"
    what = f"{slot} replaced by {replacement}" if replacement else f"{slot} dead ({lynch})"
    where = f" after post #{at_post}" if at_post is not None else \
        f" at {local_text(at, zone)}"  # type: ignore[arg-type]
    return data, f"Recorded: {what}{where}."


def _night_before(game: Game, now: datetime) -> int | None:
    """The day a nightkill entered "now" precedes: the running day, before its deadline
    (a GM records last night's kill once the day has begun, or joins a game at Day 2).
    After the deadline, or at night, it is the night the clock is in: None."""
    current = game.phases[-1] if game.phases else None
    if current is None or current.kind != "day":
        return None
    if current.ends_at is not None and now >= current.ends_at:
        return None
    return current.number


def _lynch_day(game: Game, at_post: int | None, at_text: str | None, now: datetime
               ) -> int | None:
    """The day a lynch entered "now" ended: the running day once its deadline has passed;
    before that, the day before (a GM records yesterday's lynch after starting today).
    A lynch at a post or time is placed by the count itself (`Game.counting`)."""
    day = game.day()
    if at_post is not None or at_text is not None or day is None:
        return None
    if day.ends_at is not None and now >= day.ends_at:
        return day.number
    return day.number - 1


def record_pm(
    store: GameStore, now: datetime, player: str, text: str, *, result: bool = False
) -> tuple[dict[str, Any], str]:
    """Store a PM the GM sent (`pm`, the dashboard's form), so the checks find it copied
    into the thread."""
    from assistant.checks.text import possessive

    body = text.strip()
    if len(body.split()) < 5:
        raise ConfigError(
            f"the PM for {player} has {len(body.split())} word(s); give its whole text (a copy "
            "is found by runs of 5 words)"
        )
    kind = "result_pm" if result else "role_pm"
    game = load_game(store)
    match = game.matcher().match(player, strict=True)
    if not match.ok:
        raise ConfigError(f"{match.describe()}; players: {', '.join(game.players)}")
    data = {"player": match.slot, "text": body}
    store.add_input(kind, data, now)
    label = "result PM" if result else "role PM"
    return {"kind": kind, **data}, (
        f"Stored {possessive(match.slot)} {label} ({len(body.split())} words); "  # type: ignore[arg-type]
        f"`assistant alerts {store.game_id} --check` looks for copies of it.")


def tie_decider(ruleset: Any) -> str | None:
    """Who decides a tied lynch under the game's ruleset ("the sheriff", "the GM"), or
    None when a tie is not decided by anyone (the dashboard shows the form only then)."""
    rules = TallyRules.from_ruleset(ruleset)
    return rules.tie_decider if rules.tie == "decided" else None


def has_sheriff(ruleset: Any) -> bool:
    """Whether the ruleset's ties are broken by an elected sheriff (001)."""
    return TallyRules.from_ruleset(ruleset).tie_decided_by == "sheriff"


def record_sheriff(
    store: GameStore, now: datetime, player: str, *, day: int | None = None,
    at_post: int | None = None,
) -> tuple[dict[str, Any], str]:
    """Record the sheriff the village elected (`sheriff`, the dashboard's form)."""
    g = load_game(store)
    rules = TallyRules.from_ruleset(find_ruleset(g.ruleset))
    if rules.tie_decided_by != "sheriff":
        raise ConfigError(
            f"the ruleset of {store.game_id!r} ({g.ruleset}) has no sheriff: its ties are "
            f"decided by {rules.tie_decider if rules.tie == 'decided' else rules.tie}"
        )
    m = g.matcher().match(player, strict=True)
    if not m.ok:
        raise VoteError(f"the sheriff {m.describe()}; players: {', '.join(g.players)}")
    data = {"player": m.slot, "day": current_day(g, day), "at_post": at_post}
    store.add_input("sheriff", data, now)
    since = f" from day {data['day']}" if data["day"] is not None else ""
    after = f"; the lynch vote starts after post {at_post}" if at_post is not None else ""
    return data, f"Recorded: {m.slot} is the sheriff{since}{after}."


def record_tiebreak(
    store: GameStore, now: datetime, choice: str, *, day: int | None = None
) -> tuple[dict[str, Any], str]:
    """Record whom the tie's decider chose (`tiebreak`, the dashboard's form)."""

    g = load_game(store)
    ruleset = find_ruleset(g.ruleset)
    rules, vrules = TallyRules.from_ruleset(ruleset), VoteRules.from_ruleset(ruleset)
    if rules.tie != "decided":
        raise ConfigError(
            f"under the ruleset of {store.game_id!r} ({g.ruleset}) nobody decides a tie: "
            f"a tie gives {rules.tie.replace('_', ' ')}"
        )
    if vrules.is_no_lynch(choice):
        chosen = NO_LYNCH
    else:
        m = g.matcher().match(choice, strict=True)
        if not m.ok:
            raise VoteError(f"the choice {m.describe()}; players: {', '.join(g.players)}")
        chosen = m.slot
    data = {"day": current_day(g, day), "choice": chosen}
    store.add_input("tie_break", data, now)
    on = f" on day {data['day']}" if data["day"] is not None else ""
    return data, f"Recorded: {rules.tie_decider} chose {chosen}{on} if the vote is tied."


def current_day(game: Game, day: int | None) -> int | None:
    if day is not None:
        return day
    current = game.day()
    return current.number if current else None


def resolve(
    store: GameStore,
    now: datetime,
    *,
    night: int | None = None,
    day: int | None = None,
    dry_run: bool = False,
    force: bool = False,
) -> tuple[PhaseResult, list[str]]:
    """Resolve a night's (or a day's) orders in the ruleset's order of operations
    (`resolve`, the dashboard's button) and, unless `dry_run`, store the resolution with
    the deaths and revivals it gives; returns the result and who came back."""
    from assistant.engine.history import DEATH, RESOLUTION, REVIVE
    from assistant.engine.resolver import resolve_phase

    game = store.game_id
    rules, rep = replay_of(store)
    phase, number = order_phase(night, day, rep, running_night(store, rules, rep, now))
    if rep.result(phase, number) is not None:
        raise ConfigError(
            f"{phase} {number} of {game} is already resolved; see its log with "
            f"`assistant resolve {game} --{phase} {number} --log`, its drafts with "
            f"`assistant draft dawn {game}` / `assistant draft pms {game}`"
        )
    refuse_after_win(rep, game, "there is nothing left to resolve", force=force)
    if phase == "night":
        entered = [p.number for p in phases_from_inputs(store.inputs()) if p.kind == "night"]
        gaps = rep.unresolved_nights_before(number, entered)
        if gaps:
            which = (f"night {gaps[0]} of {game} is" if len(gaps) == 1
                     else f"nights {', '.join(map(str, gaps))} of {game} are")
            raise PhaseError(
                f"{which} not resolved yet; "
                f"nights resolve in order: first `assistant resolve {game} --night "
                f"{gaps[0]}` (a night without orders resolves to nothing), then night {number}"
            )
    result = resolve_phase(rep.state, phase, number, rep.orders_for(phase, number))
    back = revived(rep, result)
    if dry_run:
        return result, back
    with store.batch():
        store.add_input(RESOLUTION, {"phase": phase, "number": number}, now)
        for d in result.deaths:
            store.add_input(DEATH, {
                "player": d.player, "at_post": None, "at": to_iso(now), "how": d.how,
                "replacement": None, "source": "engine", "phase": phase, "number": number,
            }, now)
        for name in back:
            store.add_input(REVIVE, {
                "player": name, "at_post": None, "at": to_iso(now), "source": "engine",
                "phase": phase, "number": number,
            }, now)
    return result, back


def result_text(result: PhaseResult, confirmed: bool, *, again: bool = False) -> str:
    """A resolution as `resolve` prints it (and the dashboard shows it): the step-by-step
    log, the deaths, the notes, and the PMs due before it is resolved."""
    head = f"{result.phase} {result.number}: " + (
        "resolved earlier (its log, replayed from the stored facts)"
        if again
        else "resolved and stored" if confirmed else "dry run (nothing stored)"
    )
    deaths = ", ".join(f"{d.player} ({d.how})" for d in result.deaths) or "none"
    out = [head, *result.log_lines(), f"deaths: {deaths}"]
    out += [f"note: {n}" for n in result.notes]
    out += [
        f"PM now, before the {result.phase} is resolved: {player}: {line}"
        for player, lines in result.notices.items()
        for line in lines
        if not confirmed
    ]
    return "\n".join(out)


def revived(rep: Replay, result: PhaseResult) -> list[str]:
    """Players dead before the phase and alive after it (002 Priest): written as "revive"
    facts so the vote counter and the checks count them alive again."""
    return [
        name
        for name, p in result.state.players.items()
        if p.alive and name in rep.state.players and not rep.state.players[name].alive
    ]


def prod_drafts(store: GameStore, now: datetime, *, since: datetime | None = None,
                view: GameView | None = None) -> dict[str, str]:
    """The prod PMs (`draft prods`): player -> PM text, for every living player who has not
    posted (or voted) as the ruleset asks this phase, or not posted since `since`. `view`:
    the game's view at `now` when the caller has it (the dashboard's page)."""
    from assistant.prods import at_risk, prod_pms

    view = view if view is not None and view.now == now else load_view(store, now)
    rules = view.posting
    asks = ((rules.min_posts_per_day and rules.inactive_day != "none")
            or rules.inactive_cycle != "none" or rules.voting_mandatory)
    if since is None and not asks:
        raise ConfigError(
            f"the {view.ruleset.name} ruleset asks for no number of posts or votes ([posting] "
            "min_posts_per_day, inactive_cycle, voting_mandatory); prod who has not posted "
            f"for a while with `assistant draft prods {store.game_id} --since 48h`"
        )
    zone = game_zone(view.game.tz)
    prods = at_risk(view.posts, view.game, rules, now, since=since, zone=zone,
                    not_voting=view.tally.not_voting if view.tally else ())
    return prod_pms(prods, rules, title=title_of(store), phase=view.phase,
                    deadline=view.deadline.at if view.deadline else None, zone=zone)
