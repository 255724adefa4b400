"""What the GM does with a game's notification targets: add or update one, remove one,
list them with what was delivered, send a test. `assistant notify` prints these and the
dashboard shows them, so the two cannot disagree."""

from __future__ import annotations

import os
from datetime import datetime, timedelta
from typing import Any

from assistant.errors import ConfigError
from assistant.models import to_iso
from assistant.monitor import game_title
from assistant.notify.outbox import Outbox
from assistant.notify.targets import (
    CONFIG_KEY,
    Target,
    find_target,
    new_target,
    targets_of,
    with_target,
)
from assistant.phases import format_duration, game_zone, local_text, parse_duration
from assistant.store import GameStore


def add_target(store: GameStore, url: str, now: datetime, *, min_severity: str | None = None,
               events: str | None = None, quiet: str | None = None) -> list[str]:
    """Add (or update) a target; the lines saying what was done and what to do next."""
    chosen = [e.strip() for e in events.split(",") if e.strip()] if events is not None else None
    target = new_target(url, now, min_severity=min_severity or "warning", events=chosen,
                        quiet=quiet)
    targets, fresh = with_target(targets_of(store.config()), target)
    store.update_config(**{CONFIG_KEY: [t.to_json() for t in targets]})
    notes = [f"{'Added' if fresh else 'Updated'} target {target.id}: {target.url}"]
    unset = [n for n in target.variables if not os.environ.get(n)]
    if unset:
        notes.append(f"note: {', '.join(unset)} not set here: set it where the daemon runs "
                     f"(and here, to send a test with `assistant notify {store.game_id} --test`)")
    elif fresh:
        notes.append(f"Send a test: assistant notify {store.game_id} --test {target.id}")
    return notes


def set_poll_after(store: GameStore, text: str) -> str:
    """How long the polls may fail before the GM is told (`notify --poll-after`, the
    page's form); the one line saying so."""
    from assistant.notify.push import POLL_AFTER_KEY

    after: timedelta = parse_duration(text, where="--poll-after")
    store.update_config(**{POLL_AFTER_KEY: after.total_seconds()})
    return f"Polls failing for {format_duration(after)} are told."


def remove_target(store: GameStore, key: str) -> str:
    """Remove a target (by id or URL) and the messages that waited for it."""
    targets = targets_of(store.config())
    gone = find_target(targets, key, store.game_id)
    with store.batch():
        store.update_config(**{CONFIG_KEY: [t.to_json() for t in targets if t.id != gone.id]})
        dropped = Outbox(store).drop_target(gone.id)
    waiting = f" ({dropped} message(s) that waited for it dropped)" if dropped else ""
    return f"Removed target {gone.id}: {gone.url}{waiting}"


def send_test(store: GameStore, key: str, now: datetime) -> list[dict[str, Any]]:
    """Send a test message to every target (`key` "*") or one; whether each arrived."""
    from assistant.notify.send import send

    game_id = store.game_id
    targets = targets_of(store.config())
    if not targets:
        raise ConfigError(f"game {game_id!r} has no notification target; add one with "
                          f"`assistant notify {game_id} --add URL`")
    chosen: list[Target] = targets if key == "*" else [find_target(targets, key, game_id)]
    zone = game_zone(store.config().get("tz"))
    title = game_title(store)
    results = []
    for t in chosen:
        sent = send(t, f"{title}: a test from the assistant",
                    f"Notifications of {title} ({game_id}) reach you here "
                    f"(sent {local_text(now, zone)}).", "info")
        results.append({"id": t.id, "url": t.url, "arrived": sent.ok, "reason": sent.reason})
    return results


def send_test_text(results: list[dict[str, Any]]) -> str:
    return "\n".join(
        f"{r['id']} {r['url']}: " + ("arrived" if r["arrived"] else f"NOT delivered: {r['reason']}")
        for r in results)


def target_rows(store: GameStore) -> list[dict[str, Any]]:
    """Each target with what was delivered to it, what waits, and its last failure."""
    records = Outbox(store).records()
    rows = []
    for t in targets_of(store.config()):
        mine = [r for r in records if r.target == t.id]
        waiting = [r for r in mine if r.delivered_at is None]
        failing = [r for r in waiting if r.error]
        rows.append({
            **t.to_json(),
            "delivered": sum(r.delivered_at is not None for r in mine),
            "waiting": len(waiting),
            "next_try": to_iso(min((r.next_at for r in failing if r.next_at), default=None)),
            "last_error": failing[-1].error if failing else None,
        })
    return rows
