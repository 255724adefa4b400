"""The daemon's one call: after a review, queue what happened and send what is due.

`push` runs on every review of a game (the daemon's, `run --once`'s): it derives the
notices from the game as the review saw it (`notices`), queues those not queued yet for
each target that wants them (`outbox`), and delivers the outbox (`deliver`), including
what earlier runs could not. `wake_at` tells the daemon when to look again: a retry, the
end of quiet hours, the orders reminder. `note_poll` keeps when the thread stopped being
readable in the game's crawl state, so a failing forum is told once it has failed for
longer than the game's threshold, across restarts and cron runs; and when it was read
again, so a GM told of the failure is told, once, that it is over.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from assistant.alerts import AlertLog
from assistant.inbox import INBOX_PM
from assistant.models import from_iso, to_iso
from assistant.monitor import game_title
from assistant.notify.deliver import Delivery, deliver
from assistant.notify.notices import (
    ORDERS_LEAD,
    POLL_FAILING_AFTER,
    GameName,
    Notice,
    PollFailure,
    PollRecovery,
    alert_notice,
    auto_post_notice,
    event_notices,
    hammer_notice,
    orders_due,
    orders_notice,
    poll_back_notice,
    poll_key,
    poll_notice,
    proposal_notice,
    to_act_lines,
)
from assistant.notify.outbox import Outbox
from assistant.notify.targets import targets_of
from assistant.phases import game_zone
from assistant.store import GameStore
from assistant.tally_requests import AUTO_POSTS

if TYPE_CHECKING:
    from assistant.monitor import GameView

POLL_AFTER_KEY = "notify_poll_after"
"""Game config: seconds a poll may fail before the GM is told (`notify --poll-after`)."""
FAILING_SINCE = "failing_since"
FAILING_ERROR = "failing_error"
READ_AGAIN_SINCE = "read_again_since"
"""Crawl state: when the polls that last worked again had begun failing..."""
READ_AGAIN_AT = "read_again_at"
"""...and when they worked again."""


@dataclass(frozen=True)
class Pushed:
    """What a push did, and when the game's notifications want another look."""

    delivery: Delivery
    wake_at: datetime | None
    """A retry, the end of quiet hours, the orders reminder, a failing poll's threshold."""


def push(
    store: GameStore,
    view: GameView | None,
    now: datetime,
    *,
    handled: Sequence[Mapping[str, Any]] = (),
    finals: Sequence[Mapping[str, Any]] = (),
) -> Pushed:
    """Queue the game's new notices (none without a view: a review that could not run
    still tells of a failing poll and sends what waits) and deliver the outbox.
    `handled`: the daemon's handled clock events; `finals`: its locked final counts."""
    config = store.config()
    targets = targets_of(config)
    if not targets and not Outbox(store).table:
        return Pushed(Delivery(), None)  # no notifications in this game: nothing read
    if targets:
        found = gather(store, view, now, handled=handled, finals=finals)
        Outbox(store).queue(found, targets, now)
    delivery = deliver(store, targets, now, game_zone(config.get("tz")))
    wakes = [delivery.next_at]
    if targets:
        wakes.append(orders_due(view) if view is not None else None)
        failure = poll_failure(store)
        if failure is not None and failure.since + _poll_after(config) > now:
            wakes.append(failure.since + _poll_after(config))
    times = [t for t in wakes if t is not None]
    return Pushed(delivery, min(times) if times else None)


def _poll_after(config: Mapping[str, Any]) -> timedelta:
    return timedelta(seconds=float(config.get(POLL_AFTER_KEY) or 0)) or POLL_FAILING_AFTER


def gather(
    store: GameStore,
    view: GameView | None,
    now: datetime,
    *,
    handled: Sequence[Mapping[str, Any]] = (),
    finals: Sequence[Mapping[str, Any]] = (),
) -> list[Notice]:
    """Every notice of the game as of `now`; the outbox keeps one of each per target."""
    game = game_name(store)
    config = store.config()
    first = min(t.added_at for t in targets_of(config))
    found = [alert_notice(game, s) for s in AlertLog(store).all() if s.first_seen >= first]
    failing = poll_notice(game, poll_failure(store), now, _poll_after(config))
    if failing is not None:
        found.append(failing)
    cannot_post = auto_post_notice(game, store.table(AUTO_POSTS).all())
    if cannot_post is not None:
        found.append(cannot_post)
    back = poll_recovery(store)
    if back is not None and back.at >= first and any(
            r.key == poll_key(back.since) for r in Outbox(store).records()):
        found.append(poll_back_notice(game, back, game_zone(config.get("tz"))))
    found += _proposal_notices(store, game, now)
    if view is None:
        return found
    hammer = hammer_notice(game, view)
    if hammer is not None:
        found.append(hammer)
    recent = [m for m in handled if (from_iso(m.get("handled_at")) or now) >= first]
    queued = {r.key for r in Outbox(store).records()}
    tag = f"{view.phase.kind}{view.phase.number}" if view.phase else None
    warned = any(m["kind"] == "warning" and m["key"].startswith(f"{tag}:")
                 and m["key"] not in queued for m in recent)
    found += event_notices(game, view, recent, finals,
                           _to_act(store, view, now) if warned else ())
    orders = _orders_notice(store, game, view, now)
    if orders is not None:
        found.append(orders)
    return found


def _proposal_notices(store: GameStore, game: GameName, now: datetime) -> list[Notice]:
    """Each open proposal of the inbox (an order or vote read in a player's PM), for the
    targets that want "orders"; read only where a message was kept and one wants them."""
    if not any(t.wants("orders") for t in targets_of(store.config())):
        return []
    if not store.inputs(INBOX_PM):
        return []
    from assistant.proposals import proposals

    return [proposal_notice(game, p, now) for p in proposals(store)
            if p.status == "open"]


def _to_act(store: GameStore, view: GameView, now: datetime) -> list[str]:
    """Who still has to act before the running phase ends: at day, who has no vote and
    who has not posted as the ruleset asks; at night, whose orders are missing."""
    from assistant.prods import at_risk

    phase = view.phase
    if phase is None:
        return []
    if phase.kind == "night":
        missing = _missing_orders(store, view)
        return [f"Orders missing: {', '.join(missing)}."] if missing else []
    not_voting = view.tally.not_voting if view.tally else ()
    prods = at_risk(view.posts, view.game, view.posting, now, not_voting=not_voting)
    return to_act_lines(prods, not_voting, store.game_id)


def _missing_orders(store: GameStore, view: GameView) -> tuple[str, ...]:
    if view.orders is not None:
        return view.orders.missing
    if view.phase is None or view.phase.kind != "night":
        return ()
    from assistant.night_orders import night_orders_status

    status = night_orders_status(view.ruleset, store.inputs(), view.phase)
    return status.missing if status else ()


def _orders_notice(store: GameStore, game: GameName, view: GameView, now: datetime
                   ) -> Notice | None:
    dl = view.deadline
    if (view.phase is None or view.phase.kind != "night" or dl is None or dl.at is None
            or not dl.at - ORDERS_LEAD <= now < dl.at):
        return None  # the orders are read only in the night's last hour
    return orders_notice(game, view, _missing_orders(store, view))


def game_name(store: GameStore) -> GameName:
    """The game as its notices name it: its title, and its id for the commands."""
    return GameName(store.game_id, game_title(store))


def poll_failure(store: GameStore) -> PollFailure | None:
    state = store.crawl_state()
    since = from_iso(state.get(FAILING_SINCE))
    return PollFailure(since, str(state.get(FAILING_ERROR) or "")) if since else None


def poll_recovery(store: GameStore) -> PollRecovery | None:
    """When the polls last worked again after failing, and since when they had failed."""
    state = store.crawl_state()
    since, at = from_iso(state.get(READ_AGAIN_SINCE)), from_iso(state.get(READ_AGAIN_AT))
    return PollRecovery(since, at) if since and at else None


def note_poll(store: GameStore, now: datetime, error: str | None) -> None:
    """Keep when the polls began failing (and the latest error), or when they worked again
    after it; writes only when that changes (a failing poll every 5 minutes would rewrite
    the game file each time for its error text otherwise: the first one is kept)."""
    state = store.crawl_state()
    if error is None:
        if state.get(FAILING_SINCE):
            store.set_crawl_state(**{FAILING_SINCE: None, FAILING_ERROR: None,
                                     READ_AGAIN_SINCE: state[FAILING_SINCE],
                                     READ_AGAIN_AT: to_iso(now)})
    elif not state.get(FAILING_SINCE):
        store.set_crawl_state(**{FAILING_SINCE: to_iso(now), FAILING_ERROR: error})
