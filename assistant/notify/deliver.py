"""Sending what the outbox holds: each due record once, retried with backoff, held through
quiet hours and then sent as one digest.

One process delivers a game's outbox at a time: the daemon and a `run --once` from cron
take the game's notify lock (`games/G.json.notify.lock`) or leave the delivery to the
one holding it. The lock is the operating system's (`flock`), so a process killed while
holding it frees it. A record is marked delivered in the game's store right after the
service took it; a kill between the two (a moment) sends it once more after the restart,
which is the only way a message can come twice.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from assistant.monitor import game_title
from assistant.notify import send as sending
from assistant.notify.outbox import Outbox, Record
from assistant.notify.targets import SEVERITIES, Target
from assistant.phases import local_text
from assistant.store import GameStore

log = logging.getLogger("assistant.notify")
DIGEST_OVER = 3
"""More records than this due at once for one target go out as one message (a thread
read for the first time may raise twenty alerts: one message, not twenty)."""


@dataclass(frozen=True)
class Delivery:
    """What one delivery did for one game."""

    delivered: tuple[tuple[str, str], ...] = ()
    """(notice key, target id) of every record delivered."""
    messages: int = 0
    """Messages the services took (a digest is one)."""
    failed: int = 0
    """Messages a service refused or could not be reached for (tried again later)."""
    held: int = 0
    """Records the quiet hours hold."""
    next_at: datetime | None = None
    """When a record waits for: its next try, the end of the quiet hours."""
    busy: bool = False
    """Another process was delivering this game's outbox: nothing was done here."""


def deliver(
    store: GameStore,
    targets: Sequence[Target],
    now: datetime,
    zone: ZoneInfo,
    *,
    env: dict[str, str] | None = None,
    send: Callable[..., sending.Sent] | None = None,
) -> Delivery:
    """Send every due record of the game's outbox to its target; `send` stands in for
    `send.send` (tests)."""
    from filelock import FileLock, Timeout

    lock = FileLock(f"{store.path}.notify.lock", timeout=0)
    try:
        lock.acquire()
    except Timeout:
        return Delivery(busy=True)
    try:
        return _deliver(store, targets, now, zone, env, send or sending.send)
    finally:
        lock.release()


def _deliver(store: GameStore, targets: Sequence[Target], now: datetime, zone: ZoneInfo,
             env: dict[str, str] | None, send: Callable[..., sending.Sent]) -> Delivery:
    box = Outbox(store)
    pending = box.records(pending=True)
    if not pending:
        return Delivery()
    game_id, name = store.game_id, game_title(store)
    delivered: list[tuple[str, str]] = []
    messages = failed = held = 0
    wakes: list[datetime] = []
    for target in targets:
        mine = [r for r in pending if r.target == target.id]
        due = [r for r in mine if r.due(now)]
        wakes += [r.next_at for r in mine if r.next_at is not None and r.next_at > now]
        if not due:
            continue
        if target.quiet is not None and target.quiet.holds(now, zone):
            waiting = [r for r in due if r.notice.severity != "violation"]
            box.held(waiting, now)
            held += len(waiting)
            if waiting:
                wakes.append(target.quiet.next_end(now, zone))
            groups = [[r] for r in due if r.notice.severity == "violation"]
        elif len(due) > DIGEST_OVER or (len(due) > 1 and any(r.held_at for r in due)):
            groups = [due]
        else:
            groups = [[r] for r in due]
        for group in groups:
            title, body = compose(name, group, zone)
            severity = max((r.notice.severity for r in group), key=SEVERITIES.index)
            result = send(target, title, body, severity, env)
            keys = ", ".join(r.key for r in group)
            if result.ok:
                box.delivered(group, now)
                delivered += [(r.key, target.id) for r in group]
                messages += 1
                log.info("notify %s -> %s: sent %s", game_id, target.id, keys)
            else:
                at = box.failed(group, now, result.reason)
                wakes.append(at)
                failed += 1
                log.warning("notify %s -> %s (%s): not delivered (try %d), again at %s: %s",
                            game_id, target.id, target.url, max(r.attempts for r in group) + 1,
                            local_text(at, zone), result.reason)
    return Delivery(tuple(delivered), messages, failed, held, min(wakes) if wakes else None)


def compose(game: str, records: Sequence[Record], zone: ZoneInfo) -> tuple[str, str]:
    """A record's own title and body; several make one digest, oldest first, titled with
    the game's title (`game`)."""
    if len(records) == 1:
        n = records[0].notice
        return n.title, n.body
    held = any(r.held_at for r in records)
    first = min(r.notice.happened_at for r in records)
    since = f" since {local_text(first, zone)}"
    title = f"{game}: {len(records)} notices{' held over the quiet hours' if held else ''}"
    parts = [f"- {r.notice.title}\n  " + r.notice.body.replace("\n", "\n  ")
             for r in sorted(records, key=lambda r: (r.notice.happened_at, r.doc_id))]
    return title, f"{len(records)} things happened{since}:\n\n" + "\n\n".join(parts)
