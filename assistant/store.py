"""The game store: one TinyDB file per game holding only facts, and its posts beside it.

Facts are post versions (appended, never overwritten), the GM's inputs, the thread's
crawl state, and alerts with their acknowledgements. Everything else is derived.

The posts live in a file that grows by appending (`G.json.posts`, post_log.py): one line
per batch, so storing a page costs the same at page 3,000 of a thread as at page 3. The
rest is the TinyDB document, small, and its writes are atomic: the whole document goes
to a temp file in the same directory, is fsynced, and replaces the old file with
`os.replace`. A process killed at any moment leaves either the old or the new file, never
a torn one, and a posts file whose last line may be torn, which nobody reads. `batch()`
groups the writes of one poll: its posts are appended (and fsynced) first, then the game
file is replaced, so a poll killed between the two has its posts stored and its crawl
state not: the next poll reads those pages again and finds them unchanged.

Schema 2 (this layout); a game file of schema 1 holds its posts in its "posts" table, is
read as it is, and moves them to the posts file on its first write.

Writes are serialised: every write (a batch, or a single TinyDB insert or update) holds
the game's lock file (`games/G.json.lock`, via `filelock`) from the moment it reads the
file to the moment it has replaced it. The daemon polling and a GM command writing at
once therefore never overwrite each other's facts: the later writer starts from the
file the earlier one left. Readers take no lock: a replace is atomic.
"""

from __future__ import annotations

import bisect
import errno
import gc
import hashlib
import json
import math
import os
import re
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson
from tinydb import TinyDB
from tinydb.storages import Storage
from tinydb.table import Table

from assistant.errors import StoreError, damaged_record
from assistant.models import Post, built, stored_date, to_iso
from assistant.post_log import PostLog, keep_if_long, log_path, shared

if TYPE_CHECKING:  # filelock, tempfile and platformdirs are imported where a write or the
    # default folder needs them: a read-only command (`count`) pays for none of them
    from filelock import FileLock

SCHEMA_VERSION = 2
READS_SCHEMAS = (1, 2)
"""1: the posts in the game file's "posts" table (moved to the posts file on a write)."""
GAME_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


LOCK_TIMEOUT = 60.0
"""Seconds a write waits for another writer of the same game (`ASSISTANT_LOCK_TIMEOUT`).
A poll's write takes well under a second; a minute means a writer is stuck."""


def lock_timeout() -> float:
    """The lock wait from `ASSISTANT_LOCK_TIMEOUT`, else `LOCK_TIMEOUT`."""
    value = os.environ.get("ASSISTANT_LOCK_TIMEOUT")
    if value is None:
        return LOCK_TIMEOUT
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds < float("inf"):
        raise StoreError(
            f"ASSISTANT_LOCK_TIMEOUT={value!r} is not a number of seconds (0 or more); "
            "unset it or give e.g. 60"
        )
    return seconds


def write_errnos() -> frozenset[int]:
    """The errors of a place that cannot be written: read-only, not ours, or full."""
    return frozenset({errno.EROFS, errno.EACCES, errno.EPERM, errno.ENOSPC, errno.EDQUOT})


def write_error(path: Path, e: OSError, *, game_file: bool = True) -> StoreError:
    """What a user can do about a failed write: a read-only place, a full disk, or else.
    For a game file, also that nothing was stored (its write is atomic)."""
    folder = Path(path).parent
    if e.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        why = (f"the folder {folder} is read-only or not yours ({e.strerror}): make it "
               "writable, or give another one with --data-dir / ASSISTANT_DATA_DIR")
    elif e.errno in (errno.ENOSPC, errno.EDQUOT):
        why = (f"the disk holding {folder} is full ({e.strerror}): free some space and run "
               "the command again")
    else:
        why = f"{e.strerror or e}"
    after = "; nothing was stored, the file is as it was" if game_file else ""
    return StoreError(f"cannot write {path}: {why}{after}")


def default_data_dir() -> Path:
    """`ASSISTANT_DATA_DIR`, else the platform's user data directory."""
    env = os.environ.get("ASSISTANT_DATA_DIR")
    if env:
        return Path(env)
    from platformdirs import user_data_dir

    return Path(user_data_dir("assistant", appauthor=False))


class AtomicJSONStorage(Storage):
    """TinyDB storage that keeps the document in memory and replaces the file atomically.

    A batch holds the game's lock file from its first read to its replace, and starts
    from the file as it is then; outside a batch, a file another process replaced since
    is read again before use. So one process never writes back a stale copy over the
    other's facts.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._data: dict[str, Any] | None = None
        self._depth = 0
        self._dirty = False
        self._signature: tuple[int, int, int] | None = None
        self._timeout = lock_timeout()
        self._file_lock: FileLock | None = None
        self.before_write: Callable[[dict[str, Any]], None] | None = None
        """Called with the document before each write (store.py moves schema 1's posts)."""

    @property
    def _lock(self) -> FileLock:
        """The game's lock file, made on the first write (a reader takes no lock)."""
        if self._file_lock is None:
            from filelock import FileLock

            self._file_lock = FileLock(f"{self.path}.lock", timeout=self._timeout)
        return self._file_lock

    def _file_signature(self) -> tuple[int, int, int] | None:
        try:
            st = self.path.stat()
        except FileNotFoundError:
            return None
        return (st.st_ino, st.st_mtime_ns, st.st_size)

    def read(self) -> dict[str, Any] | None:
        if (self._data is not None and self._depth == 0 and not self._dirty
                and self._file_signature() != self._signature):
            self._data = None  # replaced by another process: read it again
        if self._data is None:
            try:
                self._signature = self._file_signature()
                raw = self.path.read_bytes()
            except FileNotFoundError:
                return None
            if not raw.strip():
                raise StoreError(
                    f"the game file {self.path} is empty ({len(raw)} bytes); the "
                    "assistant never writes an empty file, so it was cut short by something "
                    "else: restore it from a backup, or remove it to start the game over"
                )
            try:
                with paused_gc():
                    data = read_exact_json(raw)
            except ValueError as e:
                raise StoreError(
                    f"the game file {self.path} is not valid JSON ({e}); it was not written by "
                    "the assistant or was changed by hand: restore it from a backup"
                ) from None
            _check_shape(self.path, data)
            _check_inputs(self.path, data)
            self._data = data
        return self._data

    def write(self, data: dict[str, Any]) -> None:
        self._data = data
        self._dirty = True
        if self._depth == 0:
            self.flush()

    def flush(self) -> None:
        if not self._dirty or self._data is None:
            return
        if self.before_write is not None:
            self.before_write(self._data)
        text = json_bytes(self._data)
        import tempfile

        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp",
                                       dir=self.path.parent)
        except OSError as e:
            raise write_error(self.path, e) from None
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
            self._signature = self._file_signature()
        except BaseException as e:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
            if isinstance(e, OSError):
                raise write_error(self.path, e) from None
            raise
        self._dirty = False

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Writes inside go to the file as one replace, under the game's lock."""
        if self._depth > 0:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        self._acquire()
        try:
            self.read()  # start from the file as it is now, under the lock
            self._depth = 1
            try:
                yield
            except BaseException:
                # Drop the half-made changes: re-read what is on disk.
                self._data = None
                self._dirty = False
                raise
            finally:
                self._depth = 0
            self.flush()
        except BaseException:
            self._data, self._dirty = None, False  # a failed write: the file is the truth
            raise
        finally:
            self._lock.release()

    def _acquire(self) -> None:
        from filelock import Timeout

        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._lock.acquire()
        except Timeout:
            raise StoreError(
                f"the game file {self.path} is being written by another assistant process "
                f"(it has held {self._lock.lock_file} for {self._lock.timeout:g} s): wait for "
                "it to finish and run the command again; nothing was stored"
            ) from None
        except OSError as e:
            raise write_error(self.path, e) from None

    def close(self) -> None:
        self.flush()

    def forget(self) -> None:
        """Drop the document as read (read again when next asked), unless a batch holds it
        or it waits to be written."""
        if self._depth == 0 and not self._dirty:
            self._data = None
            self._signature = None


def _check_shape(path: Path, data: Any) -> None:
    """A game file is an object of tables, each an object of documents by numeric id;
    anything else was not written by the assistant and is refused, never overwritten."""
    problem = None
    if not isinstance(data, dict):
        problem = f"it holds a JSON {type(data).__name__}, not the assistant's tables"
    else:
        for name, table in data.items():
            if not isinstance(table, dict):
                problem = f"its table {name!r} is a {type(table).__name__}, not an object"
            elif not all(k.isdigit() and isinstance(v, dict) for k, v in table.items()):
                problem = f"its table {name!r} holds entries that are not records"
            if problem:
                break
    if problem:
        raise StoreError(
            f"the game file {path} is not a game store ({problem}); it was not written by "
            "the assistant or was changed by hand: restore it from a backup"
        )


def _check_inputs(path: Path, data: dict[str, Any]) -> None:
    """The GM's inputs as stored (seq, kind, data, entered_at), each date in them a date:
    one damaged by hand is refused naming the file and the input, instead of failing in
    whichever count, check or draft reads it first. Few records, checked once a read."""
    for doc_id, doc in (data.get("inputs") or {}).items():
        try:
            if type(doc.get("seq")) is not int or type(doc.get("kind")) is not str:
                raise ValueError("it has no number (seq) or kind")
            if not isinstance(doc.get("data"), dict):
                raise ValueError("its data is not a record")
            if stored_date(doc.get("entered_at"), "entry date (entered_at)") is None:
                raise ValueError("it has no entry date (entered_at)")
            _check_dates(doc["data"])
        except ValueError as e:
            number = doc.get("seq") if type(doc.get("seq")) is int else doc_id
            raise damaged_record(path, f"the GM's input #{number} ({doc.get('kind')})", e) \
                from None


def _check_dates(value: Any) -> None:
    """Every `at` and `..._at` field inside `value` is a date (or empty)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "at" or key.endswith("_at"):
                stored_date(item, f"date {key!r}")
            else:
                _check_dates(item)
    elif isinstance(value, list):
        for item in value:
            _check_dates(item)


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
        self._posts_depth = 0
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
        self._storage.before_write = self._before_write
        _clear_stale_temp_files(Path(path))
        return self._storage

    def _before_write(self, data: dict[str, Any]) -> None:
        """A game file of schema 1 written by a TinyDB table alone (an alert, a marker):
        its posts go to the posts file first, then the file is written as schema 2."""
        if "posts" in data:
            with self._log.lock:
                size = self._log.replace_with(_docs_of_table(data["posts"]))
            _as_schema_2(data, size)

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
        """Keep no copy of the game file until it is next read: a daemon's poll waiting on
        its forum holds its game open, and 200 games' files held so, each mostly its
        alerts, were a quarter of the daemon's memory."""
        if self._storage is not None:
            self._storage.forget()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Group writes into one write of the store (one poll, one GM command), under the
        game's lock: the posts appended to the posts file, then the game file replaced
        with the posts file's new length (the commit: post_log.py)."""
        storage = self._storage
        assert storage is not None
        if self._posts_depth:
            with storage.batch():
                yield
            return
        log, began, stored = self._log, False, False
        try:
            with storage.batch():
                data = storage.read()
                old = data is not None and "posts" in data  # schema 1: moved at the end
                log.begin(_committed(data), _docs_of_table(data["posts"]) if old else None)
                began = True
                self._posts_depth = 1
                try:
                    yield
                finally:
                    self._posts_depth = 0
                if old:
                    assert data is not None
                    _as_schema_2(data, log.replace_with(log.docs))
                    storage.write(data)
                elif log.pending:
                    size = log.append()
                    data = storage.read() or {}  # (a game's first write makes its file)
                    data[POSTS_FILE] = {"1": {"bytes": size}}
                    storage.write(data)
            stored = True
        finally:
            if began:
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
        return self._storage._dirty or self._log.pending

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
        if self._posts_depth:
            return None  # a batch of ours: the log is up to date, with its changes
        data = self._storage.read()
        if data is not None and "posts" in data:
            return _docs_of_table(data["posts"])
        with paused_gc():  # (a long game's records read: the collector's walks over them
            self._log.refresh(_committed(data))  # were a fifth of a count)
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

    def table_digest(self, name: str) -> str:
        """A digest of a table's records as stored: equal digests, the same records (a
        writer of something derived from them, the alert feed, skips an unchanged one)."""
        assert self._storage is not None
        table = (self._storage.read() or {}).get(name, {})
        return hashlib.blake2b(orjson.dumps(table), digest_size=16).hexdigest()

    def records(self, name: str) -> list[dict[str, Any]]:
        """A table's records as read, without the copy of each that TinyDB's `all()` makes:
        for a reader of many (a long game's alerts). Never change them."""
        assert self._storage is not None
        return list(((self._storage.read() or {}).get(name) or {}).values())

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


def json_bytes(data: Any) -> bytes:
    """`data` as JSON in UTF-8 that `read_exact_json` reads back as `data`: by orjson (a
    game file in a twentieth of the json module's time), read back and compared, since
    orjson writes NaN and infinities as null; by the json module where they differ or
    orjson refuses (integers past 64 bits), as the file was always written before."""
    try:
        text = orjson.dumps(data)
        if orjson.loads(text) == data:
            return text
    except TypeError:  # (orjson.JSONEncodeError is one)
        pass
    # json.dumps, not json.dump: dump streams through the pure-Python encoder, which
    # takes ten times as long on a long game's file; the text is the same.
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def read_json(raw: bytes) -> Any:
    """A JSON document read with orjson (a 10,000-post game file in about half the time of
    the json module's), or with the json module where orjson refuses what json wrote
    (NaN): the same document either way, but for an integer past 64 bits, which orjson
    reads as a float (`read_exact_json` where that matters). ValueError if it is not JSON."""
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        return json.loads(raw.decode("utf-8"))


_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"0" * 9)
_LONGEST_EXACT = b"0" * 19
"""A run of 19 digits: the shortest integer orjson reads as a float (-2**63 - 1) has them."""


def read_exact_json(raw: bytes) -> Any:
    """`read_json`, integers past 64 bits read as integers: a text holding 19 digits in a
    row (such an integer, or a text's digits) is read by the json module. The game file's
    reading: what was written is what is read."""
    if raw.translate(_DIGITS_AS_ZERO).find(_LONGEST_EXACT) < 0:
        return read_json(raw)
    return json.loads(raw.decode("utf-8"))


_promote_after_pause = True


def collect_as_usual() -> None:
    """For a long-running process (the daemon): `paused_gc` ends with the collector's
    ordinary passes, not by moving what was built to the oldest generation. There, cyclic
    garbage made during a pause would wait for a full collection that comes rarely (200
    games' reviews: peak RSS 66 -> 80 MB); a command that counts and exits never waits."""
    global _promote_after_pause
    _promote_after_pause = False


@contextmanager
def paused_gc() -> Iterator[None]:
    """Python's cycle collector paused while a long game's records are built and counted:
    its passes over the growing heap took a quarter of a count of a 10,000-post day. What
    was built is then moved to the oldest generation without being walked (`gc.freeze`
    then `gc.unfreeze`), where the next full collection looks at it like any long-lived
    data: only the walks in between are saved (not in the daemon: `collect_as_usual`)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            if _promote_after_pause and gc.get_freeze_count() == 0:  # nobody else froze any
                gc.freeze()
                gc.unfreeze()
            gc.enable()


def _docs_of_table(table: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """The records of a schema-1 game file's "posts" table, by post id."""
    return {int(k): v for k, v in table.items()}


POSTS_FILE = "posts_file"
"""The game file's table whose one record gives the posts file's stored length."""


def _committed(data: dict[str, Any] | None) -> int:
    """How many bytes of the posts file the game file says are stored."""
    try:
        return int((data or {})[POSTS_FILE]["1"]["bytes"])
    except (KeyError, TypeError, ValueError):
        return 0


def _as_schema_2(data: dict[str, Any], size: int) -> None:
    """A schema-1 document whose posts were moved to a posts file of `size` bytes: without
    them, naming that length, and saying schema 2."""
    data.pop("posts", None)
    data[POSTS_FILE] = {"1": {"bytes": size}}
    meta = data.get("meta", {}).get("1")
    if isinstance(meta, dict):
        meta["schema_version"] = SCHEMA_VERSION


def _stored_post(doc: dict[str, Any], source: Path) -> StoredPost:
    """A post's record as read from `source` (the posts file, or a schema-1 game file);
    a record damaged there is a StoreError naming the file and the post, never a crash
    further on."""
    try:
        return built(
            StoredPost,
            post_id=doc["post_id"],
            versions=tuple(
                built(PostVersion, post=Post.from_dict(v["post"]),
                      seen_at=_seen_at(v["seen_at"]), hash=v["hash"])
                for v in doc["versions"]
            ),
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


STALE_TEMP_AGE = 3600.0
"""Seconds after which a temp file is a killed writer's leftover, not another's write."""
_TEMP_LOOKS: dict[Path, float] = {}
"""When this process last looked for a game's stale temp files (monotonic seconds)."""


def _clear_stale_temp_files(path: Path) -> None:
    """Remove temp files a killed writer left beside the game file (they are never read).
    Looked for at a game's first opening in a process, then at most once per
    `STALE_TEMP_AGE`: a temp file is stale only that long after it was written, so each is
    still removed within twice that of its writer's end, and it was only disk space till
    then (the daemon opens each game three times a cycle, and each look listed the whole
    games folder)."""
    looked = _TEMP_LOOKS.get(path)
    if looked is not None and time.monotonic() - looked < STALE_TEMP_AGE:
        return
    _TEMP_LOOKS[path] = time.monotonic()
    now = time.time()
    for tmp in path.parent.glob(f".{path.name}.*.tmp"):
        try:
            if now - tmp.stat().st_mtime > STALE_TEMP_AGE:
                tmp.unlink()
        except OSError:
            pass  # gone already, or not ours to remove: harmless either way


def list_games(data_dir: Path) -> list[str]:
    games = Path(data_dir) / "games"
    return sorted(p.stem for p in games.glob("*.json")) if games.is_dir() else []
