"""Alerts: what the checks found, stored once, acknowledged by the GM, and fed as Atom.

An alert is derived from facts, so the same fact always gives the same alert and the
same id: the id is a hash of (kind, post, player, detail key). Re-running the checks
after a restart, or on every poll, therefore never repeats an alert, and a GM's
acknowledgement sticks. The store keeps the alert as first seen plus the ack, in the
alerts file beside the game (alerts_file.py).
"""

from __future__ import annotations

import hashlib
import heapq
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, replace
from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

from assistant.errors import StoreError, damaged_record
from assistant.models import stored_date, stored_text, to_iso
from assistant.phases import local_text
from assistant.store import GameStore

SEVERITIES = ("info", "warning", "violation")
"""In increasing order; a ruleset's "none" means the check raises no alert."""
ALERT_SCHEMA_VERSION = 1
UTC_ZONE = ZoneInfo("UTC")
FEED_ENTRIES = 50
"""Alerts the Atom feed holds: the latest by first sighting. A feed reader keeps the entries
it has read, so the newest are enough: 50 are hours of a busy game's alerts, more than a
reader checking every half hour misses. Rewriting a long game's thousands of entries at
each new alert was most of a daemon's review, and 100 were still a tenth of it (3.6 ms
a write with feedgen, 1.7 ms for 50). `assistant alerts --all` and the dashboard list
every alert, and notifications push each one."""
T = TypeVar("T")


@dataclass(frozen=True)
class Alert:
    """One thing the GM should look at."""

    kind: str
    """What was found: "silent_edit", "dead_player_post", "role_pm_copy", "unknown_vote_target"."""
    severity: str
    """info, warning or violation, as the ruleset's [posting] section says."""
    message: str
    """One line for the GM, naming the player and the post."""
    player: str | None = None
    """The player (or poster) concerned."""
    post_id: int | None = None
    post_url: str | None = None
    """A link to the post, for the feed and the GM."""
    evidence: str = ""
    """What shows it: a before/after diff, the copied text, the vote markup."""
    occurred_at: datetime | None = None
    """When the fact happened (the post or edit time), aware UTC."""
    detail_key: str = ""
    """Tells apart several alerts of one kind on one post (a version hash, a phase)."""

    @cached_property
    def id(self) -> str:
        """Stable across runs: the same fact always yields the same id. Worked out once per
        record (a review compares every alert the checks found with the stored ones; an
        alert read back from the store has its stored id)."""
        raw = "\x1f".join((self.kind, str(self.post_id), self.player or "", self.detail_key))
        return hashlib.sha1(raw.encode("utf-8")).hexdigest()[:10]

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["occurred_at"] = to_iso(self.occurred_at)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Alert:
        fields = {
            k: d.get(k)
            for k in (
                "kind",
                "severity",
                "message",
                "player",
                "post_id",
                "post_url",
                "evidence",
                "detail_key",
            )
        }
        for key in ("kind", "severity", "message"):
            stored_text(fields[key], key)
        fields["evidence"] = fields["evidence"] or ""
        fields["detail_key"] = fields["detail_key"] or ""
        return cls(**fields, occurred_at=stored_date(d.get("occurred_at"), "date (occurred_at)"))


@dataclass(frozen=True)
class StoredAlert:
    """An alert as the store holds it: when it was first raised and whether the GM acked it."""

    alert: Alert
    first_seen: datetime
    acked_at: datetime | None = None
    ack_note: str | None = None

    @property
    def id(self) -> str:
        return self.alert.id

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            **self.alert.to_dict(),
            "first_seen": to_iso(self.first_seen),
            "acked_at": to_iso(self.acked_at),
            "ack_note": self.ack_note,
        }


class AlertLog:
    """The game's stored alerts: one record per alert id (`GameStore.alert_records`)."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self._source = store.path
        """The file the records were last read from (named when one is damaged)."""

    def record(self, alerts: Iterable[Alert], now: datetime) -> list[StoredAlert]:
        """Store the alerts not seen before; returns only those new ones, in the given order.
        The stored ones are told by their stored ids, not read back into alerts; none is
        read when the same alerts were recorded last, the stored ones unchanged since
        (`_RECORDED`: the daemon's reviews of a game that found nothing new)."""
        alerts = list(alerts)
        found = _digest(alerts)
        if _RECORDED.get(self.store.path) == (found, self.store.alerts_seen()):
            return []
        unseen = _unseen(alerts, self._ids())
        if not unseen:
            _RECORDED[self.store.path] = (found, self.store.alerts_seen())
            return []  # nothing new: no write, no lock (a read-only data dir can still list)
        with self.store.batch():  # under the game's lock: another writer cannot add one between
            fresh = [StoredAlert(a, now) for a in _unseen(unseen, self._ids())]
            if fresh:
                self.store.add_alerts([
                    {
                        "schema_version": ALERT_SCHEMA_VERSION,
                        "id": s.id,
                        "alert": s.alert.to_dict(),
                        "first_seen": to_iso(s.first_seen),
                        "acked_at": None,
                        "ack_note": None,
                    }
                    for s in fresh
                ])
        _RECORDED[self.store.path] = (found, self.store.alerts_seen())
        return fresh

    def _records(self) -> list[dict[str, Any]]:
        records, self._source = self.store.alert_records()
        return records

    def _ids(self) -> set[str]:
        return {doc.get("id") for doc in self._records()}

    def count(self) -> int:
        """How many alerts are stored (acknowledged ones too)."""
        return len(self._records())

    def latest(self, n: int = FEED_ENTRIES) -> list[StoredAlert]:
        """The `n` alerts first seen last, oldest first (`all`'s order): what the feed shows.
        Chosen from the stored documents by their dates as stored (UTC ISO text, which
        sorts as time), so only those `n` are read into alerts."""
        docs = heapq.nlargest(n, self._records(), key=_doc_order)
        return sorted((self._load(doc) for doc in docs), key=_order)

    def all(self, *, include_acked: bool = True) -> list[StoredAlert]:
        """Every alert, oldest first (by first seen, then by when it happened)."""
        out = [self._load(doc) for doc in self._records()]
        if not include_acked:
            out = [a for a in out if a.acked_at is None]
        return sorted(out, key=_order)

    def triage(self, limit: int | None = None) -> Triage:
        """The alerts as the GM reads them: open before acknowledged, violations before
        warnings before info, the newest first; only the first `limit` of each list are
        read from their documents (a long game's thousands of alerts are counted, not
        all loaded)."""
        def key(doc: dict[str, Any]) -> tuple[str | None, str, str]:
            alert = doc.get("alert") or {}
            happened = alert.get("occurred_at") or doc.get("first_seen") or ""
            return alert.get("severity"), happened, str(doc.get("id") or "")

        docs = triage_order(self._records(), key)
        open_docs = [d for d in docs if not d.get("acked_at")]
        acked_docs = [d for d in docs if d.get("acked_at")]
        counts = dict.fromkeys(reversed(SEVERITIES), 0)
        for d in open_docs:
            severity = (d.get("alert") or {}).get("severity")
            counts[severity] = counts.get(severity, 0) + 1
        return Triage(
            [self._load(d) for d in open_docs[:limit]],
            [self._load(d) for d in acked_docs[:limit]],
            counts,
            len(open_docs),
            len(acked_docs),
        )

    def get(self, alert_id: str) -> StoredAlert:
        matches = [doc for doc in self._records()
                   if str(doc.get("id")).startswith(alert_id.lower())]
        if not matches:
            raise StoreError(
                f"no alert {alert_id!r} in game {self.store.game_id!r}; "
                f"list them with `assistant alerts {self.store.game_id} --all`"
            )
        if len(matches) > 1:
            raise StoreError(f"{alert_id!r} matches {len(matches)} alerts; give more of the id")
        return self._load(matches[0])

    def ack(self, alert_id: str, now: datetime, note: str | None = None) -> StoredAlert:
        """Mark an alert as handled; acknowledging twice keeps the first time."""
        current = self.get(alert_id)
        if current.acked_at is not None:
            return current
        self.store.set_alert_ack(current.id, now, note)
        return replace(current, acked_at=now, ack_note=note)

    def unack(self, alert_id: str) -> StoredAlert:
        """The GM's acknowledgement withdrawn (`assistant undo`): the alert is open again.
        The acknowledgement and its withdrawal stay in the GM's log (corrections.py)."""
        current = self.get(alert_id)
        self.store.set_alert_ack(current.id, None, None)
        return replace(current, acked_at=None, ack_note=None)

    def _load(self, doc: dict[str, Any]) -> StoredAlert:
        if doc.get("schema_version") != ALERT_SCHEMA_VERSION:
            raise StoreError(
                f"{self._source}: alert {doc.get('id')} has schema_version "
                f"{doc.get('schema_version')!r}; this assistant reads {ALERT_SCHEMA_VERSION}"
            )
        try:
            first_seen = stored_date(doc.get("first_seen"), "first sighting (first_seen)")
            if first_seen is None:
                raise ValueError("it has no first sighting (first_seen)")
            alert = Alert.from_dict(doc["alert"])
            alert.__dict__["id"] = doc["id"]  # the id it is stored under (`Alert.id`'s cache)
            return StoredAlert(
                alert=alert,
                first_seen=first_seen,
                acked_at=stored_date(doc.get("acked_at"), "acknowledgement date (acked_at)"),
                ack_note=doc.get("ack_note"),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise damaged_record(self._source, f"alert {doc.get('id')!r}", e) from None


@dataclass(frozen=True)
class Triage:
    """`AlertLog.triage`: what needs the GM first, and how much there is."""

    open: list[StoredAlert]
    acked: list[StoredAlert]
    open_by_severity: dict[str, int]
    """Open alerts per severity, violations first."""
    open_total: int
    acked_total: int


def most_severe_first(alerts: Iterable[StoredAlert]) -> list[StoredAlert]:
    """The alerts in the order the GM acts in (`triage_order`), in the terminal and `--json`."""
    return triage_order(alerts, lambda s: (
        s.alert.severity, to_iso(s.alert.occurred_at or s.first_seen) or "", s.id))


def triage_order(items: Iterable[T], key: Callable[[T], tuple[str | None, str, str]]
                 ) -> list[T]:
    """Violations, then warnings, then info (a severity it does not know last), the latest
    first within each, the id deciding between equal times: the one order of alerts, for
    `alerts` (`most_severe_first`) and the dashboard (`AlertLog.triage`, which reads the
    stored documents without loading them). `key` gives an item's severity, when it
    happened as UTC ISO text (which sorts as time) and its id."""
    rank = {s: i for i, s in enumerate(reversed(SEVERITIES))}
    out = sorted(items, key=lambda a: key(a)[2])
    out.sort(key=lambda a: key(a)[1], reverse=True)  # stable: equal times keep the ids' order
    out.sort(key=lambda a: rank.get(key(a)[0] or "", len(rank)))
    return out


def _order(s: StoredAlert) -> tuple:
    happened = s.alert.occurred_at or s.first_seen
    return (s.first_seen, happened, s.alert.post_id or 0, s.id)


def _doc_order(doc: dict[str, Any]) -> tuple:
    """`_order` of a stored alert's document, from its dates as stored (a damaged one is
    refused when the document is read, not here)."""
    alert = doc.get("alert")
    alert = alert if isinstance(alert, dict) else {}
    seen, happened, post_id = doc.get("first_seen"), alert.get("occurred_at"), alert.get("post_id")
    seen = seen if type(seen) is str else ""
    return (seen, happened if happened and type(happened) is str else seen,
            post_id if type(post_id) is int else 0, str(doc.get("id") or ""))


_RECORDED: dict[Path, tuple[bytes, tuple[Any, ...]]] = {}
"""Per game file this process recorded alerts of: the ids of the alerts it was given last
(`_digest`) and its stored alerts as the recording left them (`GameStore.alerts_seen`, told
without reading them). The same ids and the same stored alerts: every one of them is stored
already (reading a long game's alerts at every poll to find none new was most of `record`)."""


def _digest(alerts: Iterable[Alert]) -> bytes:
    """The alerts' ids, in their order, as 16 bytes."""
    return hashlib.blake2b("\x1f".join(a.id for a in alerts).encode(),
                           digest_size=16).digest()


def _unseen(alerts: Iterable[Alert], known: set[str]) -> list[Alert]:
    """The alerts whose ids are not in `known`, each once, in their order."""
    known = set(known)
    out = []
    for alert in alerts:
        if alert.id not in known:
            known.add(alert.id)
            out.append(alert)
    return out


def write_feed(
    alerts: Iterable[StoredAlert],
    path: Path,
    *,
    game_id: str,
    title: str,
    link: str | None,
    now: datetime,
    zone: ZoneInfo | None = None,
    total: int | None = None,
) -> Path:
    """Write the latest `FEED_ENTRIES` of the alerts as an Atom feed, newest first, each
    entry linking to its post; `total`: how many the game has (the subtitle says when the
    feed holds fewer).

    Written to a temp file and renamed, so a feed reader never sees half a file. Times in
    the text are in the game's `zone` (the entries' own dates stay machine-readable).
    """
    from feedgen.feed import FeedGenerator  # imported here: only feed writing needs it

    alerts = sorted(alerts, key=_order)
    shown = alerts[-FEED_ENTRIES:]
    total = max(total or 0, len(alerts))
    fg = FeedGenerator()
    fg.id(f"urn:assistant:{game_id}:alerts")
    fg.title(f"{title}: alerts")
    fg.author({"name": "assistant"})
    fg.link(href=link or f"urn:assistant:{game_id}", rel="alternate")
    fg.subtitle(f"What the assistant found in game {game_id} that the GM should look at." + (
        f" The latest {len(shown)} of its {total} alerts; `assistant alerts {game_id} --all` "
        "lists every one." if total > len(shown) else ""))
    fg.language("en")
    fg.updated(now)
    # feedgen prepends each new entry: add oldest first so the newest comes first.
    for s in shown:
        a = s.alert
        fe = fg.add_entry()
        fe.id(f"urn:assistant:{game_id}:alert:{s.id}")
        player = f" — {a.player}" if a.player else ""
        fe.title(f"[{a.severity}] {a.kind.replace('_', ' ')}{player}")
        if a.post_url:
            fe.link(href=a.post_url, rel="alternate")
        fe.published(a.occurred_at or s.first_seen)
        fe.updated(s.acked_at or s.first_seen)
        fe.category(term=a.kind)
        fe.category(term=a.severity)
        body = a.message + (f"\n\n{a.evidence}" if a.evidence else "")
        if s.acked_at is not None:
            body += f"\n\nAcknowledged {local_text(s.acked_at, zone or UTC_ZONE)}" + (
                f": {s.ack_note}" if s.ack_note else ""
            )
        fe.content(body, type="text")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    fg.atom_file(str(tmp), pretty=True)
    tmp.replace(path)
    return path


def feed_path(store: GameStore) -> Path:
    """Where a game's feed lives: beside its store file, `games/GAME.alerts.atom`."""
    return store.path.with_name(f"{store.game_id}.alerts.atom")
