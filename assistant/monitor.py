"""One game as the assistant sees it at a moment: the running phase and its effective
deadline, the count, and every check's alerts. The daemon and the CLI both ask here.

The effective deadline needs the count (002: when everyone has voted the clock drops to
5 minutes; 000: the day ends), and the count needs the deadline (votes after it do not
count): the count is made with the phase's own deadline first, the early-end events are
read from it, and the final count uses the effective deadline.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from assistant import game as facts
from assistant.alerts import Alert
from assistant.checks import PostingRules, posting_rules
from assistant.checks.gm_facts import check_gm_facts
from assistant.checks.invalid_votes import check_invalid_votes
from assistant.checks.non_player_votes import check_non_player_votes
from assistant.count.all_voted import AllVotedWatch
from assistant.count.marks_cache import kept_beside
from assistant.count.outcome import NO_LYNCH, TallyRules, with_tally
from assistant.count.tally import ABSTAIN, Tally, count
from assistant.count.votes import VoteRules
from assistant.errors import AssistantError
from assistant.game import Game, Phase
from assistant.game_file import paused_gc
from assistant.models import Post
from assistant.phases import (
    Deadline,
    PhaseRules,
    adjustments_from_inputs,
    deadline,
    phase_end,
)
from assistant.rulesets import Ruleset, find_ruleset
from assistant.store import GameStore, StoredPost
from assistant.timeline import Thread, thread_of
from assistant.vote_codes import VoteCode

if TYPE_CHECKING:  # the engine is imported where a game has a setup (or at night), and the
    # checks by `run_checks`, so that a count does not pay for them (tests/test_startup.py)
    from assistant.checks.pm_copy import KnownPM
    from assistant.engine.dusk import DuskResult
    from assistant.engine.history import Replay
    from assistant.night_orders import OrdersStatus

ROLES = "roles"
"""The kind of the GM's setup input (`assistant roles`; engine/history.py's ROLES)."""


@dataclass(frozen=True)
class GameView:
    """What a game looks like at `now`."""

    game: Game
    """The game's facts, its phases carrying their effective deadlines."""
    ruleset: Ruleset
    phase_rules: PhaseRules
    posting: PostingRules
    phase: Phase | None
    """The running (last started) phase."""
    deadline: Deadline | None
    tally: Tally | None
    """The count of the current day (None at night or before the first day)."""
    posts: tuple[Post, ...]
    stored: tuple[StoredPost, ...]
    now: datetime
    orders: OrdersStatus | None = None
    """At night, with a setup entered: who owes an order and when they were all in."""
    replay: Replay | None = None
    """The engine's replay of the setup and the GM's inputs (None without a setup): made
    once per view, read by the game's role effects and the checks' result PMs."""
    thread: Thread = Thread(())
    """The posts as first posted and their edits since: what every count reads
    (`day_tally`), so each post counts as it stood at the moment asked about."""


#: A game's own `[tally]` variants, kept in its config (`game new` / `game rules`).
GAME_TALLY_KEYS = ("at_deadline", "no_lynch_majority")


def game_ruleset(store: GameStore, name: str | None = None) -> Ruleset:
    """The game's ruleset (`name`, else the one its config names) with the game's own
    `[tally]` variants over the file's: what happens at the deadline without a majority,
    and the votes No Lynch needs (issue 9: per-game settings of majority rulesets)."""
    config = store.config()
    ruleset = find_ruleset(name or config.get("ruleset", "permissive"))
    own = {k: v for k, v in (config.get("tally") or {}).items() if k in GAME_TALLY_KEYS and v}
    return with_tally(ruleset, **own) if own else ruleset


def load_game(
    store: GameStore, *, ruleset: Ruleset | None = None, rep: Replay | None = None
) -> Game:
    """The game a store holds (`game.load_game`) with what the engine derives from its
    setup and confirmed nights: role vote effects and 003's lynches, which the count takes
    as facts like the GM's own. `ruleset` and `rep` when the caller has them already."""
    inputs = store.inputs()
    if not _has_setup(inputs):
        return facts.load_game(store)  # no setup: nothing derived (or: no players, says so)
    from assistant.engine.vote_effects import derived_inputs

    ruleset = ruleset or game_ruleset(store)
    return facts.load_game(store, derived=derived_inputs(ruleset, inputs, rep))


def game_from_parts(
    game_id: str,
    players: list[list[str]] | list[Any],
    *,
    ruleset: str = "permissive",
    inputs: list[dict[str, Any]] = (),  # type: ignore[assignment]
    **parts: Any,
) -> Game:
    """`Game.from_parts` with what the engine derives from a setup among `inputs` (see
    `load_game`): how tests and replays build a game with roles without a store."""
    from assistant.engine.vote_effects import derived_inputs

    roles = any(i["kind"] == ROLES for i in inputs)
    derived = derived_inputs(find_ruleset(ruleset), list(inputs)) if roles else []
    return Game.from_parts(
        game_id, players, ruleset=ruleset, inputs=inputs, derived=derived, **parts
    )


def game_title(store: GameStore, ruleset: Ruleset | None = None) -> str:
    """What every draft, subject and page calls the game: the GM's `game new --title`, else
    the thread's title without its day ("Chat Mafia", not "Chat Mafia — Day 2"), else the
    ruleset's title before the thread was read: never the game's id (`facts.game_name`)."""
    config = store.config()
    name = facts.game_name(config, store.crawl_state())
    if name:
        return name
    try:
        return (ruleset or find_ruleset(config.get("ruleset") or "permissive")).title
    except AssistantError:  # a ruleset that cannot be read: every command says why
        return str(config.get("ruleset") or store.game_id)


def _has_setup(inputs: list[dict[str, Any]]) -> bool:
    kinds = {i["kind"] for i in inputs}
    return ROLES in kinds and "players" in kinds


def current_posts(stored: list[StoredPost]) -> list[Post]:
    return [sp.latest for sp in stored if sp.vanished_at is None]


def load_view(store: GameStore, now: datetime) -> GameView:
    """The game at `now`: its facts with the engine's effects (one replay of its inputs),
    the running phase, its effective deadline and the count."""
    inputs = store.inputs()
    ruleset, rep = None, None
    if _has_setup(inputs):
        from assistant.engine.history import replay
        from assistant.engine.rules import load_engine_rules
        from assistant.engine.vote_effects import with_seq

        ruleset = game_ruleset(store)
        rep = replay(load_engine_rules(ruleset), with_seq(inputs))
    game = load_game(store, ruleset=ruleset, rep=rep)
    ruleset = ruleset or game_ruleset(store, game.ruleset)
    # Every view (a count, the daemon's review, `phase`, the dashboard) reads the marks its
    # last one read from the game's marks file, and leaves there those it read anew.
    with kept_beside(store.path) as marks, paused_gc():
        stored = store.posts()
        marks.keep = {sp.post_id for sp in stored}
        return _view_of(store, now, game, ruleset, inputs, rep, stored)


def _view_of(
    store: GameStore,
    now: datetime,
    game: Game,
    ruleset: Ruleset,
    inputs: list[dict[str, Any]],
    rep: Replay | None,
    stored: list[StoredPost],
) -> GameView:
    """`load_view` once the game's facts and posts are read."""
    prules = ruleset.phases
    posting = posting_rules(ruleset, store.config().get("posting"))
    posts = current_posts(stored)
    thread = thread_of(stored)
    phase = game.phases[-1] if game.phases else None
    dl = None
    tally = None
    orders = None
    if phase is not None:
        over = rep is not None and rep.won is not None  # a won game owes no orders
        if phase.kind == "night" and prules.night_ends_when_orders_in and not over:
            from assistant.night_orders import night_orders_status

            orders = night_orders_status(ruleset, inputs, phase)
        dl, tally = effective_end(game, phase, thread, ruleset, prules, inputs, now, orders=orders)
        if dl.at != phase.ends_at:
            game = _with_end(game, phase, dl.at)
            phase = game.phases[-1]
            if tally is not None:
                tally = count(thread.posts, game, ruleset, now=now, edits=thread.edits)
    return GameView(
        game,
        ruleset,
        prules,
        posting,
        phase,
        dl,
        tally,
        tuple(posts),
        tuple(stored),
        now,
        orders,
        rep,
        thread,
    )


def effective_end(
    game: Game,
    phase: Phase,
    thread: Thread,
    ruleset: Ruleset,
    prules: PhaseRules,
    inputs: list[dict[str, Any]],
    now: datetime,
    *,
    orders: OrdersStatus | None = None,
) -> tuple[Deadline, Tally | None]:
    """When `phase` really ends as known at `now`, and (for a day) the count it was read from.

    The phase is looked at on the game as it stood then (the phases after it dropped), so a
    day already followed by a night is counted as that day. Early ends the clock has not
    reached yet are not known yet: a count `--at` 11:12 shows the deadline of 11:12.
    """
    then = game
    if phase is not game.phases[-1]:
        then = dataclasses.replace(game, phases=game.phases[: game.phases.index(phase) + 1])
    all_voted = majority = None
    tally = None
    if phase.kind == "day":
        watch = all_voted_watch(thread, then, ruleset, now) if prules.all_voted != "none" else None
        tally = count(thread.posts, then, ruleset, now=now, edits=thread.edits, watch=watch)
        all_voted = watch.moment(tally.votes) if watch is not None else None
        majority = majority_moment(ruleset, tally)
    ends = deadline(
        phase,
        prules,
        adjustments=adjustments_from_inputs(inputs, phase),
        all_voted_at=_known_by(all_voted, now),
        majority_at=_known_by(majority, now),
        orders_in_at=_known_by(orders.all_in_at, now) if orders else None,
    )
    return ends, tally


def day_deadline(
    view: GameView, inputs: list[dict[str, Any]], day: int | None = None
) -> Deadline | None:
    """When `day` (default: the last day) really ends, and why; None if there is no such day.

    The running day's is the view's (early ends, extensions). A day already followed by a
    night gets the same computation on the game as it stood that day, so a count or `draft
    dusk` after `assistant phase GAME night N` still sees the day's real end. Pass its `at`
    to `tally.count(deadline=...)`.
    """
    phase = view.game.day(day)
    if phase is None:
        return None
    if phase is view.game.phases[-1]:
        return view.deadline
    ends, _ = effective_end(
        view.game, phase, view.thread, view.ruleset, view.phase_rules, inputs, view.now
    )
    return ends


def day_tally(
    view: GameView,
    inputs: list[dict[str, Any]],
    *,
    day: int | None = None,
    at: datetime | None = None,
    at_post: int | None = None,
) -> Tally:
    """The count of `day` (default: the last day) as `count`, `draft tally`, `draft dusk` and
    the daemon's locked final count all show it, so they agree: each post as it stood at
    the moment asked about (`at`, `at_post`, else the day's real end), the day ending when
    it really ends (`day_deadline`)."""
    running = view.phase is not None and view.phase.kind == "day" and view.tally is not None
    if running and at is None and at_post is None and day in (None, view.phase.number):
        return view.tally  # the very count below: the running day to its effective end
    ends = day_deadline(view, inputs, day)
    return count(
        view.thread.posts,
        view.game,
        view.ruleset,
        at_post=at_post,
        at=at,
        day=day,
        now=view.now,
        deadline=ends.at if ends else None,
        edits=view.thread.edits,
    )


def day_end(store: GameStore, now: datetime, day: int | None = None) -> Deadline | None:
    """When `day` (default: the last day) of the game really ends, as known at `now`: what
    `count`, `draft tally`, `draft dusk` and `phase` all show."""
    return day_deadline(load_view(store, now), store.inputs(), day)


def _with_end(game: Game, phase: Phase, ends_at: datetime | None) -> Game:
    """The game with `phase` ending at `ends_at` (its phases carry effective deadlines)."""
    i = game.phases.index(phase)
    ended = dataclasses.replace(phase, ends_at=ends_at)
    return dataclasses.replace(game, phases=(*game.phases[:i], ended, *game.phases[i + 1 :]))


def _known_by(moment: datetime | None, now: datetime) -> datetime | None:
    """An early end the clock has not reached yet is not known yet (a replay as of `now`)."""
    return moment if moment is not None and moment <= now else None


def majority_moment(ruleset: Ruleset, tally: Tally) -> datetime | None:
    """When a majority first ended the day (the hammer's time), if it did before the
    deadline. A vote is placed at its own time: a post's, or an edit's when an edit cast it."""
    if not (
        TallyRules.from_ruleset(ruleset).decision == "majority"
        and tally.outcome.final
        and tally.outcome.at_post is not None
    ):
        return None
    cast = [v.at for v in tally.votes if v.accepted and v.post_id == tally.outcome.at_post]
    at = max(cast) if cast else None
    if at is not None and (tally.deadline is None or at < tally.deadline):
        return at
    return None


def all_voted_watch(thread: Thread, game: Game, ruleset: Ruleset, now: datetime) -> AllVotedWatch:
    """The watch that finds, in the day's one count, when every living player first had a
    vote: the first vote after which the count as of that vote (its post, or the edit that
    cast it) has nobody alive not voting (all_voted.py)."""
    return AllVotedWatch(
        {p.post_id: p.posted_at for p in thread.posts},
        lambda at, post_id: everyone_voted_as_of(thread, game, ruleset, now, at, post_id),
        frozenset({NO_LYNCH, ABSTAIN}),
    )


def everyone_voted_as_of(
    thread: Thread, game: Game, ruleset: Ruleset, now: datetime, at: datetime, post_id: int
) -> bool:
    """Whether nobody alive was left not voting in the count as of a vote: as of its post
    when the post cast it, as of the moment when an edit did. A count of its own: what the
    watch's one pass stands in for."""
    posts, edits = thread.posts, thread.edits
    first = next(p for p in reversed(posts) if p.post_id == post_id)
    if at == first.posted_at:
        partial = count(posts, game, ruleset, at_post=post_id, now=now, edits=edits)
    else:  # cast by an edit: the thread as it stood then
        partial = count(posts, game, ruleset, at=at, now=now, edits=edits)
    return bool(partial.alive) and not partial.not_voting


def spans(game: Game, current: Deadline | None) -> list[tuple[Phase, datetime | None]]:
    """Every phase with when it ended: the next phase's start, or the effective deadline."""
    out = []
    for p in game.phases:
        last = p is game.phases[-1]
        out.append((p, phase_end(game.phases, p, current.at if last and current else None)))
    return out


def run_checks(view: GameView, store: GameStore) -> list[Alert]:
    """Every check on the game's facts as of `view.now`."""
    from assistant.checks.edits import check_edits, check_edits_after_rulings, usable_votes
    from assistant.checks.inactivity import check_inactivity
    from assistant.checks.pm_copy import check_pm_copies, check_quoted_gm_pms
    from assistant.checks.posting import check_posting

    game, rules = view.game, view.posting
    vrules = VoteRules.from_ruleset(view.ruleset)
    votes_of = usable_votes(vrules, game.gms)
    posts = list(view.posts)
    alerts: list[Alert] = []
    first_posted = vrules.edits == "first_posted"
    ended = _ended_days(view)
    ends = [
        end for phase, end in spans(game, view.deadline)
        if phase.kind == "day" and end is not None and end <= view.now
    ]  # fmt: skip
    alerts += check_edits(
        view.stored, game, rules, votes_of, first_posted=first_posted, day_ends=ends
    )
    alerts += check_edits_after_rulings(view.stored, game)
    alerts += check_pm_copies(
        posts, game, rules, known_pms(view.ruleset, store.inputs(), view.replay)
    )
    alerts += check_quoted_gm_pms(posts, game, rules, {sp.post_id for sp in view.stored})
    alerts += check_posting(posts, game, rules, game.phases)
    voted = {day: [v for w in t.wagons for v in w.voters] for day, t in ended.items()}
    alerts += check_inactivity(
        posts, game, rules, spans(game, view.deadline), view.now, voted=voted
    )
    alerts += _vote_checks(view, ended)
    return alerts


def known_pms(
    ruleset: Ruleset, inputs: list[dict[str, Any]], rep: Replay | None = None
) -> list[KnownPM]:
    """The PMs the GM sent: stored with `assistant pm`, and the result PMs of every phase
    the GM confirmed with `assistant resolve` (the engine drafted them; replayed, not stored:
    `rep` is the view's replay when the caller has it)."""
    from assistant.checks.pm_copy import KnownPM, pms_from_inputs

    pms = pms_from_inputs(inputs)
    if not any(i["kind"] == ROLES for i in inputs):
        return pms
    from assistant.engine.history import replay
    from assistant.engine.rules import load_engine_rules

    try:
        rep = rep or replay(load_engine_rules(ruleset), inputs)
    except AssistantError:  # a setup the engine cannot read: `assistant roles` says why
        return pms
    for result in rep.results:
        for player, lines in result.pms.items():
            if lines:
                pms.append(KnownPM(player, "\n".join(lines), "result PM"))
    return pms


#: Vote codes of edits a day's count refused once it was over: raised for every ended day,
#: whatever the current phase (an edit to Day 2's votes made during Night 2).
_EDIT_CODES = (VoteCode.EDITED_AFTER_END, VoteCode.EDITED_AROUND_END)


def _vote_checks(view: GameView, ended: dict[int, Tally]) -> list[Alert]:
    """Invalid votes of the current day's count, and the edits each ended day refused. The
    count reads every version of every post (timeline.py), so a vote fixed by an edit was
    still cast and is still reported (thread B: [Vote: Slayr] before the silent edit)."""
    found: dict[str, Alert] = {}
    if view.tally is not None:
        found = {a.id: a for a in check_invalid_votes(view.tally.votes, view.posting)}
        day = view.game.day()
        posts = [p for p in view.thread.posts if view.game.in_day(p, day)]
        for a in check_non_player_votes(view.tally, posts, view.game, view.posting):
            found.setdefault(a.id, a)
        for a in check_gm_facts(posts, view.game):
            found.setdefault(a.id, a)
    for tally in ended.values():
        late = [v for v in tally.votes if v.code in _EDIT_CODES]
        for a in check_invalid_votes(late, view.posting):
            found.setdefault(a.id, a)
    return list(found.values())


def _ended_days(view: GameView) -> dict[int, Tally]:
    """The final count of every day that has ended, each post as it stood at the day's end;
    what came after it (posts, edits) is in the votes, refused."""
    out: dict[int, Tally] = {}
    for phase, end in spans(view.game, view.deadline):
        if phase.kind == "day" and end is not None and end <= view.now:
            out[phase.number] = count(
                list(view.thread.posts),
                view.game,
                view.ruleset,
                day=phase.number,
                now=view.now,
                deadline=end,
                edits=view.thread.edits,
            )
    return out


def describe(view: GameView) -> dict[str, Any]:
    """A JSON-able summary for `assistant phase GAME` and the daemon's log."""
    from assistant.models import to_iso
    from assistant.phases import game_zone, local_text, phase_label

    zone = game_zone(view.game.tz)
    at = view.deadline.at if view.deadline else None
    return {
        "phase": phase_label(view.phase) if view.phase else None,
        "starts_at": to_iso(view.phase.starts_at) if view.phase else None,
        "deadline": to_iso(at),
        "deadline_local": local_text(at, zone) if at else None,
        "time_zone": zone.key,
        "why": view.deadline.why if view.deadline else None,
        "extensions_used": view.deadline.extensions_used if view.deadline else 0,
        "extensions_open": view.deadline.extensions_open if view.deadline else False,
        "orders": None if view.orders is None else {
            "owed": list(view.orders.owed),
            "missing": list(view.orders.missing),
            "all_in_at": to_iso(view.orders.all_in_at),
        },
    }


def draft_dusk(
    store: GameStore,
    now: datetime,
    *,
    day: int | None = None,
    view: GameView | None = None,
    tally: Tally | None = None,
    ends: Deadline | None = None,
) -> DuskResult:
    """The dusk draft of `day` (default: the current day) as of `now`: the lynch of the
    count up to the day's effective end, its reveal, what it sets off, a win
    (`engine.dusk.dusk_of`, given the game as this view sees it). `view` and `tally`: the
    game's view at `now`, that day's count and its end (`day_deadline`), when the caller
    has them already."""
    from assistant.engine.dusk import dusk_of

    view = view if view is not None and view.now == now else load_view(store, now)
    inputs = store.inputs()
    tally = tally if tally is not None else day_tally(view, inputs, day=day)
    ends = ends if ends is not None else day_deadline(view, inputs, day)
    return dusk_of(view, inputs, ends, now, tally=tally)
