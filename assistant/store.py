"""The game store: one TinyDB file per game holding only facts.

Facts are post versions (appended, never overwritten), the GM's inputs, the thread's
crawl state, and alerts with their acknowledgements. Everything else is derived.

Writes are atomic: the whole document goes to a temp file in the same directory, is
fsynced, and replaces the old file with `os.replace`. A process killed at any moment
leaves either the old or the new file, never a torn one. `batch()` groups the writes
of one poll into one replace, so a poll is stored whole or not at all.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir
from tinydb import TinyDB
from tinydb.storages import Storage
from tinydb.table import Document

from assistant.errors import StoreError
from assistant.models import Post, from_iso, to_iso

SCHEMA_VERSION = 1
GAME_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def default_data_dir() -> Path:
    """`ASSISTANT_DATA_DIR`, else the platform's user data directory."""
    env = os.environ.get("ASSISTANT_DATA_DIR")
    return Path(env) if env else Path(user_data_dir("assistant", appauthor=False))


class AtomicJSONStorage(Storage):
    """TinyDB storage that keeps the document in memory and replaces the file atomically.

    Outside a batch, a file another process replaced since (the daemon polling while the
    GM runs a command) is read again before use, so one process does not write back a
    stale copy over the other's facts. Two writers inside overlapping batches can still
    race: the later replace wins.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._data: dict[str, Any] | None = None
        self._depth = 0
        self._dirty = False
        self._signature: tuple[int, int, int] | None = None

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
                text = self.path.read_text(encoding="utf-8")
            except FileNotFoundError:
                return None
            try:
                self._data = json.loads(text) if text.strip() else None
            except json.JSONDecodeError as e:
                raise StoreError(
                    f"the game file {self.path} is not valid JSON ({e}); it was not written by "
                    "the assistant or was changed by hand: restore it from a backup"
                ) from None
        return self._data

    def write(self, data: dict[str, Any]) -> None:
        self._data = data
        self._dirty = True
        if self._depth == 0:
            self.flush()

    def flush(self) -> None:
        if not self._dirty or self._data is None:
            return
        # json.dumps, not json.dump: dump streams through the pure-Python encoder, which
        # takes ten times as long on a long game's file; the text is the same.
        text = json.dumps(self._data, ensure_ascii=False, separators=(",", ":"))
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp",
                                   dir=self.path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
            self._signature = self._file_signature()
        except BaseException:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
            raise
        self._dirty = False

    @contextmanager
    def batch(self) -> Iterator[None]:
        if self._depth == 0:
            self.read()  # start from the file as it is now
        self._depth += 1
        try:
            yield
        except BaseException:
            # Drop the half-made changes: re-read what is on disk.
            self._depth -= 1
            if self._depth == 0:
                self._data = None
                self._dirty = False
            raise
        self._depth -= 1
        if self._depth == 0:
            self.flush()

    def close(self) -> None:
        self.flush()


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
        try:
            self.db = TinyDB(path, storage=self._make_storage)
            meta = self.db.table("meta").get(doc_id=1)
        except StoreError:
            raise
        except (OSError, ValueError) as e:
            raise StoreError(f"cannot open the game file {path}: {e}") from None
        if meta is not None and meta.get("schema_version") != SCHEMA_VERSION:
            raise StoreError(
                f"{path} has schema_version {meta.get('schema_version')!r}; this assistant reads "
                f"{SCHEMA_VERSION}. Use the assistant version that wrote it."
            )

    def _make_storage(self, path: Path) -> AtomicJSONStorage:
        self._storage = AtomicJSONStorage(path)
        _clear_stale_temp_files(Path(path))
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

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Group writes into one atomic replace of the file (one poll, one GM command)."""
        assert self._storage is not None
        with self._storage.batch():
            yield

    # ---- game configuration ----------------------------------------------------------

    def config(self) -> dict[str, Any]:
        """The game's settings (thread URL, ruleset, time zone, GMs, poll settings...)."""
        meta = self.db.table("meta").get(doc_id=1)
        return dict(meta.get("config", {})) if meta else {}

    def update_config(self, **values: Any) -> dict[str, Any]:
        table = self.db.table("meta")
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
        doc = self.db.table("crawl").get(doc_id=1)
        return dict(doc) if doc else {}

    def set_crawl_state(self, **values: Any) -> None:
        table = self.db.table("crawl")
        if table.get(doc_id=1) is None:
            table.insert(values)
        else:
            table.update(values, doc_ids=[1])

    # ---- posts ---------------------------------------------------------------------

    def record_posts(self, posts: Iterable[Post], seen_at: datetime) -> RecordResult:
        """Store what a page showed: new posts, and a new version for each changed one."""
        table = self.db.table("posts")
        result = RecordResult()
        seen = to_iso(seen_at)
        fresh: dict[int, Document] = {}
        with self.batch():
            for post in posts:
                version = {"seen_at": seen, "hash": post.content_hash, "post": post.to_dict()}
                doc = fresh.get(post.post_id) or table.get(doc_id=post.post_id)
                if doc is None:
                    fresh[post.post_id] = Document(
                        {"post_id": post.post_id, "versions": [version], "vanished_at": None},
                        doc_id=post.post_id,
                    )
                    result.new.append(post.post_id)
                    continue
                if post.post_id in fresh:  # the same post twice in one batch: keep the last
                    if doc["versions"][-1]["hash"] != version["hash"]:
                        doc["versions"][-1] = version
                    continue
                updates: dict[str, Any] = {}
                if doc.get("vanished_at"):
                    updates["vanished_at"] = None
                    result.reappeared.append(post.post_id)
                last = doc["versions"][-1]
                if last["hash"] != version["hash"]:
                    updates["versions"] = [*doc["versions"], version]
                    result.changed.append(post.post_id)
                elif last["post"]["page"] != post.page or last["post"]["position"] != post.position:
                    # Same text, moved (a post before it was deleted): keep the version,
                    # fix the place.
                    place = dict(last["post"], page=post.page, position=post.position)
                    moved = dict(last, post=place)
                    updates["versions"] = [*doc["versions"][:-1], moved]
                    result.unchanged += 1
                else:
                    result.unchanged += 1
                if updates:
                    table.update(updates, doc_ids=[doc.doc_id])
            if fresh:
                table.insert_multiple(fresh.values())
        return result

    def mark_vanished(self, post_ids: Iterable[int], at: datetime) -> list[int]:
        """Mark posts a poll expected on a page but did not find; they stay in the store."""
        table = self.db.table("posts")
        marked = []
        with self.batch():
            for pid in post_ids:
                doc = table.get(doc_id=pid)
                if doc is not None and not doc.get("vanished_at"):
                    table.update({"vanished_at": to_iso(at)}, doc_ids=[doc.doc_id])
                    marked.append(pid)
        return marked

    def posts(self, *, include_vanished: bool = True) -> list[StoredPost]:
        """Every stored post in thread order (position, then id)."""
        out = []
        for doc in self.db.table("posts").all():
            sp = _stored_post(doc)
            if include_vanished or sp.vanished_at is None:
                out.append(sp)
        out.sort(key=lambda sp: (sp.latest.position, sp.post_id))
        return out

    def live_post_ids(self) -> list[int]:
        """Ids of the stored posts not marked vanished, read straight from the document:
        a poll asks at every write, and copying every post of a long game for it costs
        more than the rest of the poll."""
        assert self._storage is not None
        posts = (self._storage.read() or {}).get("posts", {})
        return [int(key) for key, doc in posts.items() if not doc.get("vanished_at")]

    def post(self, post_id: int) -> StoredPost | None:
        doc = self.db.table("posts").get(doc_id=post_id)
        return None if doc is None else _stored_post(doc)

    # ---- GM inputs -------------------------------------------------------------------

    def add_input(self, kind: str, data: dict[str, Any], entered_at: datetime) -> int:
        """Append a fact the GM entered (players, deaths, phases, PM votes, orders...)."""
        table = self.db.table("inputs")
        seq = len(table) + 1
        return table.insert(
            {"seq": seq, "kind": kind, "data": data, "entered_at": to_iso(entered_at)}
        )

    def inputs(self, kind: str | None = None) -> list[dict[str, Any]]:
        """GM inputs in the order they were entered, optionally of one kind."""
        docs = self.db.table("inputs").all()
        if kind is not None:
            docs = [d for d in docs if d["kind"] == kind]
        return sorted((dict(d) for d in docs), key=lambda d: d["seq"])

    # ---- alerts and other derived-but-acknowledged records ------------------------------

    def table(self, name: str):  # noqa: ANN201 - TinyDB's Table
        """A named table for records a module owns (alerts, scheduler state...)."""
        return self.db.table(name)


def _stored_post(doc: dict[str, Any]) -> StoredPost:
    return StoredPost(
        post_id=doc["post_id"],
        versions=tuple(
            PostVersion(Post.from_dict(v["post"]), from_iso(v["seen_at"]), v["hash"])  # type: ignore[arg-type]
            for v in doc["versions"]
        ),
        vanished_at=from_iso(doc.get("vanished_at")),
    )


STALE_TEMP_AGE = 3600.0
"""Seconds after which a temp file is a killed writer's leftover, not another's write."""


def _clear_stale_temp_files(path: Path) -> None:
    """Remove temp files a killed writer left beside the game file (they are never read)."""
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
