"""A game's posts as a file that grows by appending (`games/G.json.posts`).

Every version of every post is a fact that is never changed, so the posts need not be
rewritten with the rest of the game at each write: a batch of the store (a poll's pages)
appends one line holding what it changed (new versions, a post's new place, vanished and
reappeared posts), and a first read of a 50,000-post thread costs the same per page at
page 3,000 as at page 3 (the whole game file rewritten per write made it quadratic).

Crash safety, the same as before: the game file says how many bytes of this file are
stored, and a batch appends its line before the game file is replaced (append_log.py,
shared with the alerts file).

Readers take no lock and read only what was appended since they last looked: a process
that runs for days keeps the posts it read (`share_reads`), so the daemon's next review of
a game reads its new lines, not the whole file. The in-memory records are those of the
game file's old "posts" table ({"post_id", "versions": [...], "vanished_at"}); a game
stored before this file existed moves its posts here on its first write (store.py).

Operations of a line (a JSON array of them):
  ["v", id, version]     a new version of post id (its first: a new post)
  ["last", id, version]  the post's last version replaced (a post moved, same text)
  ["gone", id, at]       the post vanished at `at`
  ["back", id]           the post reappeared
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from assistant.append_log import AppendLog, Doc, Op


def log_path(game_file: Path) -> Path:
    return game_file.with_name(f"{game_file.name}.posts")


class PostLog(AppendLog):
    """The posts of one game as read from its file, kept up to date by reading what was
    appended (append_log.py), with the records the store built from them."""

    what = "posts file"

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.docs: dict[int, Doc] = {}
        self.built: dict[int, Any] = {}
        """Records the store built from `docs` (store.StoredPost), dropped when changed."""
        self.order: list[Any] | None = None
        """The store's list of every built record in thread order, while none changed."""
        self._ids: list[int] | None = []

    def forget(self) -> None:
        """Drop the posts as read (read again, whole, at the next look), unless this process
        keeps them for its next look (`keep_if_long`) or a batch is writing them."""
        with _SHARED_LOCK:
            if _SHARED.get(self.path) is self:
                return
        if not self.lock.acquire(blocking=False):
            return
        try:
            if not self._pending:
                self._reset()
        finally:
            self.lock.release()

    def sorted_ids(self) -> list[int]:
        """Every stored post's id, ascending (kept as posts are added, mostly at the end)."""
        if self._ids is None:
            self._ids = sorted(self.docs)
        return self._ids

    def _reset(self) -> None:
        super()._reset()
        self._ids = None
        self.built = {}
        self.order = None

    def apply(self, ops: Iterable[Op]) -> None:
        """Apply the changes of one line to the posts in memory."""
        docs, built = self.docs, self.built
        for op in ops:
            kind, pid = op[0], int(op[1])
            doc = docs.get(pid)
            if kind == "v":
                if doc is None:
                    docs[pid] = {"post_id": pid, "versions": [op[2]], "vanished_at": None}
                    ids = self._ids
                    if ids is not None and (not ids or pid > ids[-1]):
                        ids.append(pid)
                    else:
                        self._ids = None
                else:
                    doc["versions"].append(op[2])
            elif doc is None:
                raise ValueError(f"post {pid} changed before it was stored")
            elif kind == "last":
                doc["versions"][-1] = op[2]
            elif kind == "gone":
                doc["vanished_at"] = op[2]
            elif kind == "back":
                doc["vanished_at"] = None
            else:
                raise ValueError(f"unknown change {kind!r}")
            built.pop(pid, None)
        self.order = None

    def snapshot_ops(self, docs: dict[Any, Doc]) -> list[Op]:
        return snapshot_ops(docs)


def snapshot_ops(docs: dict[int, Doc] | Iterable[Doc]) -> list[Op]:
    """The operations that rebuild `docs` (records of the old "posts" table)."""
    values = docs.values() if isinstance(docs, dict) else docs
    ops: list[Op] = []
    for doc in values:
        pid = int(doc["post_id"])
        ops += [["v", pid, v] for v in doc["versions"]]
        if doc.get("vanished_at"):
            ops.append(["gone", pid, doc["vanished_at"]])
    return ops


_SHARED: OrderedDict[Path, PostLog] = OrderedDict()
_SHARED_LOCK = threading.Lock()
LONG = 1000
"""Posts from which a game's posts are kept between looks (`keep_if_long`): a shorter one
is read whole again in a few milliseconds, and 200 of them kept would only hold memory."""
SHARED_POSTS = 40_000
"""Posts kept at most, all games together (the least recently looked at dropped first)."""

_sharing = [False]


def share_reads() -> None:
    """From now on this process keeps what it read of each long game's posts file: for a
    process that runs for days (the daemon, the dashboard), whose next look at a game reads
    only its new lines and builds only its new posts. A command that reads once and exits
    does not: keeping them alive to the end only made its exit free them all (0.6 s of a
    `count` of a 50,000-post game)."""
    _sharing[0] = True


def _key(path: Path) -> Path:
    return Path(path) if Path(path).is_absolute() else Path(path).resolve()


_PINNED: dict[Path, list[Any]] = {}
"""Posts files a caller holds for a while (`pinned`): [the PostLog or None, holders]."""


@contextmanager
def pinned(path: Path) -> Iterator[None]:
    """Within, every store of the game at `path` (its game file) reads the same `PostLog`,
    short game or long: the daemon's cycle opens a game's store for the poll, again for
    the review and again for an auto post, and each read the whole posts file of a short
    game and built every post anew (2 of a 300-post game's 48 ms of CPU per cycle).
    Nothing is kept once the last holder leaves, so 200 short games hold no memory
    between their cycles."""
    key = _key(log_path(Path(path)))
    with _SHARED_LOCK:
        _PINNED.setdefault(key, [None, 0])[1] += 1
    try:
        yield
    finally:
        with _SHARED_LOCK:
            entry = _PINNED[key]
            entry[1] -= 1
            if entry[1] == 0:
                del _PINNED[key]


def shared(path: Path) -> PostLog:
    """The `PostLog` of `path` held by `pinned`, or kept by this process (`keep_if_long`);
    else a new one."""
    key = _key(path)
    with _SHARED_LOCK:
        pin = _PINNED.get(key)
        if pin is not None and pin[0] is not None:
            return pin[0]
        found = _SHARED.get(key) if _sharing[0] else None
        if found is not None:
            _SHARED.move_to_end(found.path)
        else:
            found = PostLog(key)
        if pin is not None:
            pin[0] = found
        return found


def keep_if_long(log: PostLog) -> None:
    """Keep `log` for the next look at its game, when this process shares its reads and the
    game is long (`LONG`); the least recently looked at go past `SHARED_POSTS`."""
    if not _sharing[0] or len(log.docs) < LONG:
        return
    with _SHARED_LOCK:
        _SHARED[log.path] = log
        _SHARED.move_to_end(log.path)
        while len(_SHARED) > 1 and sum(len(kept.docs) for kept in _SHARED.values()) > (
                SHARED_POSTS):
            _SHARED.popitem(last=False)
