"""The outbox: every notice for every target, stored in the game's store before it is sent.

One record per (notice key, target): queueing the same notice again changes nothing, so
the daemon may derive its notices from the facts on every review, and one whose queueing
a kill interrupted is queued by the next review. A record is sent until it is delivered
(then marked so, and never sent again), tried again with backoff when the service
refuses or is down, held through the target's quiet hours. Nothing in a record is
secret: it names its target by id, whose URL is a template.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from assistant.errors import StoreError
from assistant.models import from_iso, to_iso
from assistant.notify.notices import Notice
from assistant.notify.targets import Target
from assistant.store import GameStore

TABLE = "outbox"
OUTBOX_SCHEMA_VERSION = 1
FIRST_RETRY = timedelta(minutes=1)
LONGEST_WAIT = timedelta(hours=1)


def backoff(attempts: int) -> timedelta:
    """How long after its `attempts`-th failed try a message is tried again: 1, 2, 4, 8
    minutes... at most an hour. It is never given up: a target fixed days later still
    gets what waited for it (`notify --list` shows what waits and why)."""
    return min(FIRST_RETRY * 2 ** max(attempts - 1, 0), LONGEST_WAIT)


@dataclass(frozen=True)
class Record:
    """One notice waiting for (or delivered to) one target."""

    doc_id: int
    key: str
    target: str
    notice: Notice
    queued_at: datetime
    attempts: int = 0
    next_at: datetime | None = None
    """Not tried again before this moment (after a failure)."""
    error: str | None = None
    """Why the last try failed (secrets redacted)."""
    held_at: datetime | None = None
    """When the target's quiet hours first held it: it goes out in the morning's digest."""
    delivered_at: datetime | None = None

    def due(self, now: datetime) -> bool:
        return self.delivered_at is None and (self.next_at is None or self.next_at <= now)


class Outbox:
    """The game store's "outbox" table."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.table = store.table(TABLE)

    def queue(self, notices: Iterable[Notice], targets: Iterable[Target],
              now: datetime) -> list[Record]:
        """Store a record for each notice each target wants and has not got yet; returns
        the new ones. A target is sent nothing that happened before it was added."""
        wanted = [
            (n, t) for n in notices for t in targets
            if t.wants(n.event, n.severity if n.event == "alerts" else None)
            and n.happened_at >= t.added_at
        ]
        if not wanted:
            return []
        if {(n.key, t.id) for n, t in wanted} <= self._keys():
            return []  # nothing new: no write
        with self.store.batch():  # under the game's lock: another writer cannot queue one between
            known = self._keys()
            docs = []
            for n, t in wanted:
                if (n.key, t.id) in known:
                    continue
                known.add((n.key, t.id))
                docs.append({
                    "schema_version": OUTBOX_SCHEMA_VERSION, "key": n.key, "target": t.id,
                    "notice": n.to_json(), "queued_at": to_iso(now), "attempts": 0,
                    "next_at": None, "error": None, "held_at": None, "delivered_at": None,
                })
            ids = self.table.insert_multiple(docs) if docs else []
        return [self._load({**d, "_id": i}) for d, i in zip(docs, ids, strict=True)]

    def _keys(self) -> set[tuple[str, str]]:
        return {(d["key"], d["target"]) for d in self.table.all()}

    def records(self, *, pending: bool = False) -> list[Record]:
        """Every record (`pending`: not delivered yet), oldest first."""
        out = [self._load({**d, "_id": d.doc_id}) for d in self.table.all()]
        if pending:
            out = [r for r in out if r.delivered_at is None]
        return sorted(out, key=lambda r: (r.queued_at, r.doc_id))

    def delivered(self, records: Iterable[Record], now: datetime) -> None:
        """Mark records delivered, in one write."""
        ids = [r.doc_id for r in records]
        if ids:
            self.table.update({"delivered_at": to_iso(now), "error": None}, doc_ids=ids)

    def failed(self, records: Iterable[Record], now: datetime, reason: str) -> datetime:
        """Count a failed try of each record and book its next; returns when that is."""
        records = list(records)
        attempts = max(r.attempts for r in records) + 1
        at = now + backoff(attempts)
        with self.store.batch():
            for r in records:
                self.table.update({"attempts": r.attempts + 1, "next_at": to_iso(at),
                                   "error": reason}, doc_ids=[r.doc_id])
        return at

    def held(self, records: Iterable[Record], now: datetime) -> None:
        ids = [r.doc_id for r in records if r.held_at is None]
        if ids:
            self.table.update({"held_at": to_iso(now)}, doc_ids=ids)

    def drop_target(self, target_id: str) -> int:
        """Forget what still waits for a removed target; returns how many."""
        removed = self.table.remove(
            lambda d: d["target"] == target_id and d.get("delivered_at") is None)
        return len(removed)

    def _load(self, d: dict[str, Any]) -> Record:
        if d.get("schema_version") != OUTBOX_SCHEMA_VERSION:
            raise StoreError(
                f"{self.store.path}: outbox record {d.get('key')} has schema_version "
                f"{d.get('schema_version')!r}; this assistant reads {OUTBOX_SCHEMA_VERSION}"
            )
        return Record(
            doc_id=d["_id"], key=d["key"], target=d["target"],
            notice=Notice.from_json(d["notice"]), queued_at=from_iso(d["queued_at"]),  # type: ignore[arg-type]
            attempts=d.get("attempts", 0), next_at=from_iso(d.get("next_at")),
            error=d.get("error"), held_at=from_iso(d.get("held_at")),
            delivered_at=from_iso(d.get("delivered_at")),
        )
