"""The game store: one TinyDB file per game holding only facts, its posts and alerts beside it.

Facts are post versions (appended, never overwritten), the GM's inputs, the thread's
crawl state, and alerts with their acknowledgements. Everything else is derived.

The posts and the alerts live in files that grow by appending (`G.json.posts`,
post_log.py; `G.json.alerts`, alerts_file.py): one line per batch, so storing a page
costs the same at page 3,000 of a thread as at page 3, and a game's thousands of alerts
are not written again with each poll's crawl state. The rest is the TinyDB document,
small, and its writes are atomic: the whole document goes to a temp file in the same
directory, is fsynced, and replaces the old file with `os.replace` (game_file.py). A
process killed at any moment leaves either the old or the new file, never a torn one,
and files of posts and alerts whose last lines may be torn, which nobody reads.
`batch()` groups the writes of one poll: its posts and alerts are appended (and fsynced)
first, then the game file is replaced with their new lengths, so a poll killed between
the two has stored neither: the next poll reads those pages again and finds them unchanged.

Schema 3 (this layout). A game file of schema 1 holds its posts in its "posts" table, one
of schema 1 or 2 its alerts in its "alerts" table: it is read as it is, and they move to
their files on its first write.

Writes are serialised: every write (a batch, or a single TinyDB insert or update) holds
the game's lock file (`games/G.json.lock`, via `filelock`) from the moment it reads the
file to the moment it has replaced it. The daemon polling and a GM command writing at
once therefore never overwrite each other's facts: the later writer starts from the
file the earlier one left. Readers take no lock: a replace is atomic.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import math
import os
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

import orjson
from tinydb import TinyDB
from tinydb.table import Table

from assistant.alerts_file import AlertsFile, alerts_path
from assistant.alerts_file import docs_of_table as alert_docs_of_table
from assistant.append_log import AppendLog
from assistant.errors import StoreError, damaged_record
from assistant.game_file import AtomicJSONStorage, clear_stale_temp_files, paused_gc, write_error
from assistant.models import Post, built, stored_date, to_iso
from assistant.post_log import PostLog, keep_if_long, log_path, shared

SCHEMA_VERSION = 3
READS_SCHEMAS = (1, 2, 3)
"""1: the posts in the game file's "posts" table (moved to the posts file on a write);
1 and 2: the alerts in its "alerts" table (moved to the alerts file on a write)."""
GAME_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def default_data_dir() -> Path:
    """`ASSISTANT_DATA_DIR`, else the platform's user data directory."""
    env = os.environ.get("ASSISTANT_DATA_DIR")
    if env:
        return Path(env)
    from platformdirs import user_data_dir

    return Path(user_data_dir("assistant", appauthor=False))


class _LockedTable(Table):
    """A TinyDB table whose every write is one batch of its store: under the game's lock,
    from the file as it is then. The next id is found under the lock too, so two
    processes never hand out the same one."""

    def _update_table(self, updater):  # noqa: ANN001, ANN202 - TinyDB's signature
        with self._storage.batch():
            super()._update_table(updater)

    def insert(self, document):  # noqa: ANN001, ANN201
        with self._storage.batch():
            self._next_id = None
            return super().insert(document)

    def insert_multiple(self, documents):  # noqa: ANN001, ANN201
        with self._storage.batch():
            self._next_id = None
            return super().insert_multiple(documents)


class _GameDB(TinyDB):
    table_class = _LockedTable


@dataclass(frozen=True)
class PostVersion:
    """One version of a post: the post as a page showed it, and when the assistant saw it."""

    post: Post
    seen_at: datetime
    hash: str


@dataclass(frozen=True)
class StoredPost:
    """A post with its whole history."""

    post_id: int
    versions: tuple[PostVersion, ...]
    vanished_at: datetime | None = None
    """When a poll found the post gone from its page (deleted by a moderator)."""

    @property
    def latest(self) -> Post:
        return self.versions[-1].post

    @property
    def first_seen(self) -> datetime:
        return self.versions[0].seen_at

    @property
    def edited(self) -> bool:
        """Edited as far as anyone can tell: the forum says so or the body changed between polls."""
        return self.latest.edit is not None or len(self.versions) > 1

    def as_of(self, moment: datetime) -> Post | None:
        """The version the assistant had seen at `moment`, or None if it had not seen the post."""
        current = None
        for v in self.versions:
            if v.seen_at <= moment:
                current = v.post
        return current


@dataclass
class RecordResult:
    """What one batch of fetched posts changed in the store."""

    new: list[int] = field(default_factory=list)
    changed: list[int] = field(default_factory=list)
    unchanged: int = 0
    reappeared: list[int] = field(default_factory=list)


class GameStore:
    """The facts of one game. Open with `GameStore.open(data_dir, game_id)`."""

    def __init__(self, path: Path, game_id: str) -> None:
        self.path = path
        self.game_id = game_id
        self._storage: AtomicJSONStorage | None = None
        self._log: PostLog = shared(log_path(Path(path)))
        self._alerts = AlertsFile(alerts_path(Path(path)))
        self._batch_depth = 0
        try:
            self.db = _GameDB(path, storage=self._make_storage)
            meta = self.db.table("meta").get(doc_id=1)
        except StoreError:
            raise
        except (OSError, ValueError) as e:
            raise StoreError(f"cannot open the game file {path}: {e}") from None
        if meta is not None and meta.get("schema_version") not in READS_SCHEMAS:
            raise StoreError(
                f"{path} has schema_version {meta.get('schema_version')!r}; this assistant reads "
                f"{', '.join(map(str, READS_SCHEMAS))}. Use the assistant version that wrote it."
            )

    def _make_storage(self, path: Path) -> AtomicJSONStorage:
        self._storage = AtomicJSONStorage(path)
        # (the files' logs, not a method of the store: a store its storage pointed back to
        # was freed only by the cycle collector, with every post it had built)
        self._storage.before_write = partial(_move_old_tables, self._log, self._alerts)
        clear_stale_temp_files(Path(path))
        return self._storage

    # ---- opening -----------------------------------------------------------------

    @staticmethod
    def game_path(data_dir: Path, game_id: str) -> Path:
        if not GAME_ID_RE.match(game_id):
            raise StoreError(
                f"{game_id!r} is not a usable game name: use letters, digits, '-', '_' or '.', "
                "starting with a letter or digit (at most 64 characters)"
            )
        return Path(data_dir) / "games" / f"{game_id}.json"

    @classmethod
    def open(cls, data_dir: Path | str, game_id: str, *, create: bool = True) -> GameStore:
        path = cls.game_path(Path(data_dir), game_id)
        if not create and not path.exists():
            known = ", ".join(list_games(Path(data_dir))) or "none yet"
            raise StoreError(
                f"no game called {game_id!r} in {data_dir} (games there: {known}); "
                "create it with `assistant game new` or `assistant fetch URL --game NAME`"
            )
        return cls(path, game_id)

    def close(self) -> None:
        self.db.close()

    def forget_read(self) -> None:
        """Keep no copy of the game file nor of its posts until they are next read: a
        daemon's poll waiting on its forum holds its game open, and 200 games' files held
        so, each mostly its alerts, were a quarter of the daemon's memory; a poll that
        re-reads the day's pages waits some 30 s on them (its own pace), and a round of
        such polls held some 100 games' posts (1.8 MB each for 300 posts) at once."""
        if self._storage is not None:
            self._storage.forget()
        self._log.forget()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Group writes into one write of the store (one poll, one GM command), under the
        game's lock: the posts and the alerts appended to their files, then the game file
        replaced with those files' new lengths (the commit: append_log.py)."""
        storage = self._storage
        assert storage is not None
        if self._batch_depth:
            with storage.batch():
                yield
            return
        began: list[AppendLog] = []
        stored = False
        try:
            with storage.batch():
                data = storage.read()
                # An old file's tables (schema 1 and 2): their records move at the end.
                old = [f for f in _FILES if data is not None and f.table in data]
                for f in _FILES:
                    log = f.of(self)
                    log.begin(_committed(data, f.length),
                              f.docs_of_table(data[f.table]) if f in old else None)
                    began.append(log)
                self._batch_depth = 1
                try:
                    yield
                finally:
                    self._batch_depth = 0
                lengths = {}
                for f in _FILES:
                    log = f.of(self)
                    if f in old:
                        lengths[f.length] = log.replace_with(log.docs)
                    elif log.pending:
                        lengths[f.length] = log.append()
                if lengths:
                    data = storage.read() or {}  # (a game's first write makes its file)
                    for f in old:
                        data.pop(f.table, None)
                    for length, size in lengths.items():
                        data[length] = {"1": {"bytes": size}}
                    _say_schema(data)  # (an older assistant must not write beside these)
                    storage.write(data)
            stored = True
        finally:
            for log in began:
                log.end() if stored else log.abort()

    # ---- game configuration ----------------------------------------------------------

    def config(self) -> dict[str, Any]:
        """The game's settings (thread URL, ruleset, time zone, GMs, poll settings...)."""
        meta = self.db.table("meta").get(doc_id=1)
        return dict(meta.get("config", {})) if meta else {}

    def config_seen(self) -> tuple[tuple[int, int, int] | None, dict[str, Any]]:
        """The settings with the signature (inode, mtime, size) of the game file they were
        read from: a long-running process that keeps configs by the file's signature takes
        them from a store it opened anyway, instead of opening the file once more."""
        config = self.config()
        assert self._storage is not None
        return self._storage._signature, config

    def update_config(self, **values: Any) -> dict[str, Any]:
        table = self.db.table("meta")
        with self.batch():
            meta = table.get(doc_id=1)
            config = dict(meta.get("config", {})) if meta else {}
            config.update(values)
            doc = {"schema_version": SCHEMA_VERSION, "game_id": self.game_id, "config": config}
            if meta is None:
                table.insert(doc)
            else:
                table.update(doc, doc_ids=[1])
        return config

    # ---- crawl state (the thread's shape as last seen) ---------------------------------

    def crawl_state(self) -> dict[str, Any]:
        """The crawl state, with the latest poll counters (`save_poll_counters`)."""
        doc = self.db.table("crawl").get(doc_id=1)
        state = dict(doc) if doc else {}
        counters = self._poll_counters()
        if counters and int(counters.get("polls", 0)) > int(state.get("polls", 0)):
            state.update(counters)
        return state

    def set_crawl_state(self, **values: Any) -> None:
        table = self.db.table("crawl")
        with self.batch():
            doc = table.get(doc_id=1)
            if doc is None:
                table.insert(values)
            elif any(doc.get(k) != v for k, v in values.items()):  # else: nothing to write
                table.update(values, doc_ids=[1])

    @property
    def writing(self) -> bool:
        """Inside a batch that has changed something (it will replace the file)."""
        assert self._storage is not None
        return self._storage._dirty or self._log.pending or self._alerts.pending

    def poll_counters_path(self) -> Path:
        return self.path.with_name(f"{self.path.name}.polls")

    def save_poll_counters(self, **counters: Any) -> None:
        """A poll that found nothing new stores only its counters (polls so far, when it
        ran), and not by rewriting the game file: they go to a small file beside it
        (`G.json.polls`), which `crawl_state` reads over the file's own counters while its
        `polls` is the higher. A poll that stores anything writes its counters into the
        game file with the rest, so the file then wins. Losing this small file (a crash
        as it is written) loses only the count of idle polls since the last stored one."""
        path = self.poll_counters_path()
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            tmp.write_text(json.dumps(counters), encoding="utf-8")
            os.replace(tmp, path)
        except OSError as e:
            raise write_error(path, e) from None

    def _poll_counters(self) -> dict[str, Any] | None:
        try:
            data = json.loads(self.poll_counters_path().read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None  # none yet, or cut by a crash: the game file's counters stand
        return data if isinstance(data, dict) else None

    # ---- posts ---------------------------------------------------------------------

    def record_posts(self, posts: Iterable[Post], seen_at: datetime) -> RecordResult:
        """Store what a page showed: new posts, and a new version for each changed one."""
        result = RecordResult()
        seen = to_iso(seen_at)
        fresh: set[int] = set()
        with self.batch():
            log = self._log
            docs = log.docs
            for post in posts:
                pid = post.post_id
                version = {"seen_at": seen, "hash": post.content_hash, "post": post.to_dict()}
                doc = docs.get(pid)
                if doc is None:
                    log.record([["v", pid, version]])
                    fresh.add(pid)
                    result.new.append(pid)
                    continue
                last = doc["versions"][-1]
                if pid in fresh:  # the same post twice in one batch: keep the last
                    if last["hash"] != version["hash"]:
                        log.record([["last", pid, version]])
                    continue
                if doc.get("vanished_at"):
                    log.record([["back", pid]])
                    result.reappeared.append(pid)
                if last["hash"] != version["hash"]:
                    log.record([["v", pid, version]])
                    result.changed.append(pid)
                elif last["post"]["page"] != post.page or last["post"]["position"] != post.position:
                    # Same text, moved (a post before it was deleted): keep the version,
                    # fix the place.
                    place = dict(last["post"], page=post.page, position=post.position)
                    log.record([["last", pid, dict(last, post=place)]])
                    result.unchanged += 1
                else:
                    result.unchanged += 1
        return result

    def mark_vanished(self, post_ids: Iterable[int], at: datetime) -> list[int]:
        """Mark posts a poll expected on a page but did not find; they stay in the store."""
        marked = []
        with self.batch():
            docs = self._log.docs
            for pid in post_ids:
                doc = docs.get(pid)
                if doc is not None and not doc.get("vanished_at"):
                    self._log.record([["gone", pid, to_iso(at)]])
                    marked.append(pid)
        return marked

    def _post_docs(self) -> dict[int, dict[str, Any]] | None:
        """The stored posts' records by id when the game file still holds them (schema 1),
        else None: they are the posts file's (`self._log`, read up to the length the game
        file gives)."""
        assert self._storage is not None
        if self._batch_depth:
            return None  # a batch of ours: the log is up to date, with its changes
        data = self._storage.read()
        if data is not None and "posts" in data:
            return _docs_of_table(data["posts"])
        with paused_gc():  # (a long game's records read: the collector's walks over them
            self._log.refresh(_committed(data, POSTS_FILE))  # were a fifth of a count)
        keep_if_long(self._log)
        return None

    def posts(self, *, include_vanished: bool = True) -> list[StoredPost]:
        """Every stored post in thread order (position, then id). The records are built
        once per process and kept with the posts file's reading (post_log.py): the daemon's
        next review of a long game builds only the posts its poll brought."""
        old = self._post_docs()
        if old is not None:
            with paused_gc():
                out = [_stored_post(doc, self.path) for doc in old.values()]
            out.sort(key=lambda sp: (sp.latest.position, sp.post_id))
        else:
            log = self._log
            with log.lock:
                if log.order is None:
                    built = log.built
                    with paused_gc():
                        for pid, doc in log.docs.items():
                            if pid not in built:
                                built[pid] = _stored_post(doc, log.path)
                    log.order = sorted(built.values(),
                                       key=lambda sp: (sp.latest.position, sp.post_id))
                out = list(log.order)
        if not include_vanished:
            out = [sp for sp in out if sp.vanished_at is None]
        return out

    def live_post_ids(self, lo: float = -math.inf, hi: float = math.inf) -> list[int]:
        """Ids of the stored posts not marked vanished, in order, those in [lo, hi] only
        when given: a poll asks at every write, about the ids of the pages it read, and
        looking at every post of a long thread each time made a first read quadratic."""
        old = self._post_docs()
        if old is not None:
            return sorted(pid for pid, doc in old.items()
                          if lo <= pid <= hi and not doc.get("vanished_at"))
        log = self._log
        with log.lock:
            ids = log.sorted_ids()
            first = 0 if lo == -math.inf else bisect.bisect_left(ids, lo)
            last = len(ids) if hi == math.inf else bisect.bisect_right(ids, hi)
            docs = log.docs
            return [pid for pid in ids[first:last] if not docs[pid].get("vanished_at")]

    def post(self, post_id: int) -> StoredPost | None:
        old = self._post_docs()
        doc = (old if old is not None else self._log.docs).get(post_id)
        if doc is None:
            return None
        return _stored_post(doc, self.path if old is not None else self._log.path)

    def has_posts(self) -> bool:
        """Whether any post is stored (without building them)."""
        old = self._post_docs()
        return bool(old if old is not None else self._log.docs)

    # ---- GM inputs -------------------------------------------------------------------

    def add_input(self, kind: str, data: dict[str, Any], entered_at: datetime) -> int:
        """Append a fact the GM entered (players, deaths, phases, PM votes, orders...)."""
        table = self.db.table("inputs")
        with self.batch():  # the seq is counted under the lock: two writers never share one
            seq = len(table) + 1
            return table.insert(
                {"seq": seq, "kind": kind, "data": data, "entered_at": to_iso(entered_at)}
            )

    def inputs(self, kind: str | None = None) -> list[dict[str, Any]]:
        """The GM's inputs that stand, in the order they were entered, optionally of one
        kind: an input the GM withdrew (`assistant undo`) and the withdrawals themselves are
        left out, so every count, check and replay applies an undo alike. `history` has
        them all."""
        docs = self.db.table("inputs").all()
        if any(d["kind"] == WITHDRAW for d in docs):
            gone = withdrawn(docs)
            docs = [d for d in docs if d["kind"] != WITHDRAW and d["seq"] not in gone]
        if kind is not None:
            docs = [d for d in docs if d["kind"] == kind]
        return sorted((dict(d) for d in docs), key=lambda d: d["seq"])

    def history(self) -> list[dict[str, Any]]:
        """Every GM input ever entered, withdrawals too, in order; each with `withdrawn_by`:
        the seq of the withdrawal that stands against it, or None (`assistant log`)."""
        docs = sorted((dict(d) for d in self.db.table("inputs").all()), key=lambda d: d["seq"])
        gone = withdrawn(docs)
        for d in docs:
            d["withdrawn_by"] = gone.get(d["seq"])
        return docs

    # ---- alerts and other derived-but-acknowledged records ------------------------------

    def alert_records(self) -> tuple[list[dict[str, Any]], Path]:
        """The stored alerts' records in the order they were stored, and the file they
        were read from: the alerts file (read up to the length the game file gives), or a
        game file that still holds them in its "alerts" table (schema 1 and 2, before its
        first write). alerts.py reads them; never change them."""
        assert self._storage is not None
        if self._batch_depth:  # a batch of ours: the file's, with the batch's changes
            self._alerts.catch_up()
        else:
            data = self._storage.read()
            if data is not None and "alerts" in data:
                return list(data["alerts"].values()), self.path
            self._alerts.refresh(_committed(data, ALERTS_FILE))
        return list(self._alerts.docs.values()), self._alerts.path

    def alerts_seen(self) -> tuple[Any, ...]:
        """What the stored alerts are, told cheaply: equal values, the same alerts (the
        alert feed is not written again for unchanged ones). The alerts file only grows, so
        its inode and stored length say it, without reading it (a review that found nothing
        new reads no alert: `AlertLog.record`); an old game file's table, a digest of it."""
        if not self._batch_depth:
            data = self._storage.read()
            if data is None or "alerts" not in data:
                seen = self._alerts.stored_unread(_committed(data, ALERTS_FILE))
                if seen is not None:
                    return ("file", *seen)
        records, source = self.alert_records()
        if source == self.path:
            return ("table", hashlib.blake2b(orjson.dumps(records), digest_size=16).digest())
        return ("file", *self._alerts.stored)

    def add_alerts(self, records: list[dict[str, Any]]) -> None:
        """Store new alerts, each a record with its id (alerts.py makes them)."""
        with self.batch():
            self._alerts.record([["new", record] for record in records])

    def set_alert_ack(self, alert_id: str, at: datetime | None, note: str | None) -> None:
        """The GM's acknowledgement of a stored alert (`at`), or its withdrawal (None)."""
        with self.batch():
            self._alerts.record([["ack", alert_id, to_iso(at), note] if at is not None
                                 else ["open", alert_id]])

    def table(self, name: str):  # noqa: ANN201 - TinyDB's Table
        """A named table for records a module owns (alerts, scheduler state...)."""
        return self.db.table(name)


WITHDRAW = "withdraw"
"""The kind of the GM input that withdraws an earlier one (`assistant undo`): {"input": seq}.
An undo is a fact of its own, never an erase: the log keeps both."""


def withdrawn(docs: Iterable[dict[str, Any]]) -> dict[int, int]:
    """seq of each withdrawn input -> seq of the withdrawal that stands against it. Read from
    the last input back, so a withdrawn withdrawal (an undo undone) withdraws nothing."""
    gone: dict[int, int] = {}
    for d in sorted(docs, key=lambda d: -d["seq"]):
        if d["kind"] == WITHDRAW and d["seq"] not in gone:
            gone.setdefault(int(d["data"]["input"]), d["seq"])
    return gone


def _docs_of_table(table: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """The records of a schema-1 game file's "posts" table, by post id."""
    return {int(k): v for k, v in table.items()}


POSTS_FILE = "posts_file"
"""The game file's table whose one record gives the posts file's stored length."""
ALERTS_FILE = "alerts_file"
"""The same for the alerts file."""


@dataclass(frozen=True)
class _Beside:
    """A file of records beside the game file: where its stored length is, and the table
    that held its records before it existed."""

    of: Callable[[GameStore], AppendLog]
    length: str
    table: str
    docs_of_table: Callable[[dict[str, Any]], dict[Any, dict[str, Any]]]


_FILES = (
    _Beside(lambda store: store._log, POSTS_FILE, "posts", _docs_of_table),
    _Beside(lambda store: store._alerts, ALERTS_FILE, "alerts", alert_docs_of_table),
)


def _committed(data: dict[str, Any] | None, length: str) -> int:
    """How many bytes of a file beside it the game file says are stored."""
    try:
        return int((data or {})[length]["1"]["bytes"])
    except (KeyError, TypeError, ValueError):
        return 0


def _say_schema(data: dict[str, Any]) -> None:
    """A document that names the files beside it says this schema (an old one whose tables
    were moved, or one of schema 2 that stored its first alert): an assistant that reads
    only older schemas refuses it instead of keeping alerts where this one never looks."""
    meta = data.get("meta", {}).get("1")
    if isinstance(meta, dict):
        meta["schema_version"] = SCHEMA_VERSION


def _move_old_tables(posts: PostLog, alerts: AlertsFile, data: dict[str, Any]) -> None:
    """Before a write: a game file of schema 1 or 2 written by a TinyDB table alone (a
    marker, a setting) has its posts and alerts moved to their files first, then is
    written as this schema."""
    moved = False
    for log, f in ((posts, _FILES[0]), (alerts, _FILES[1])):
        if f.table in data:
            with log.lock:
                size = log.replace_with(f.docs_of_table(data[f.table]))
            del data[f.table]
            data[f.length] = {"1": {"bytes": size}}
            moved = True
    if moved:
        _say_schema(data)


def _stored_post(doc: dict[str, Any], source: Path) -> StoredPost:
    """A post's record as read from `source` (the posts file, or a schema-1 game file);
    a record damaged there is a StoreError naming the file and the post, never a crash
    further on."""
    try:
        return built(
            StoredPost,
            post_id=doc["post_id"],
            versions=tuple([
                built(PostVersion, post=Post.from_dict(v["post"]),
                      seen_at=_seen_at(v["seen_at"]), hash=v["hash"])
                for v in doc["versions"]
            ]),
            vanished_at=stored_date(doc.get("vanished_at"), "vanishing date (vanished_at)"),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise damaged_record(source, f"post {doc.get('post_id')!r}", e) from None


@lru_cache(maxsize=256)
def _seen_at(text: str) -> datetime:
    """When a poll saw a version: one poll stores many posts, so few distinct moments."""
    moment = stored_date(text, "sighting date (seen_at)")
    if moment is None:
        raise ValueError("it has no sighting date (seen_at)")
    return moment


def list_games(data_dir: Path) -> list[str]:
    games = Path(data_dir) / "games"
    return sorted(p.stem for p in games.glob("*.json")) if games.is_dir() else []
