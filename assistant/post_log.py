"""A game's posts as a file that grows by appending (`games/G.json.posts`).

Every version of every post is a fact that is never changed, so the posts need not be
rewritten with the rest of the game at each write: a batch of the store (a poll's pages)
appends one line holding what it changed (new versions, a post's new place, vanished and
reappeared posts), and a first read of a 50,000-post thread costs the same per page at
page 3,000 as at page 3 (the whole game file rewritten per write made it quadratic).

Crash safety, the same as before: the game file says how many bytes of this file are
stored (`committed`), and the batch appends its line (fsynced) before the game file is
replaced with the new length: that replace is the batch's one commit point. A writer
killed before it leaves a line past the stored length, torn or whole, that no reader
reads and the next writer cuts off under the game's lock; a reader never reads past the
length its game file gives. A stored line that does not parse, or a file shorter than
its game file says, was damaged by something else: refused with advice, never skipped.

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

import os
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson

from assistant.errors import StoreError

Doc = dict[str, Any]
Op = list[Any]


def log_path(game_file: Path) -> Path:
    return game_file.with_name(f"{game_file.name}.posts")


class PostLog:
    """The posts of one game as read from its file, kept up to date by reading what was
    appended. A writer holds `lock` from `begin` to `end`, its game file replaced in
    between, so a reader of the same process never sees a batch that is not stored."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lock = threading.RLock()
        self.docs: dict[int, Doc] = {}
        self.built: dict[int, Any] = {}
        """Records the store built from `docs` (store.StoredPost), dropped when changed."""
        self.order: list[Any] | None = None
        """The store's list of every built record in thread order, while none changed."""
        self._ids: list[int] | None = []
        self._offset = 0
        self._ino: int | None = None
        self._pending: list[Op] = []

    # ---- reading -----------------------------------------------------------------------

    def refresh(self, committed: int) -> None:
        """Read up to the `committed` bytes the game file gives (what was appended since
        the last look; all of it after the file was replaced)."""
        with self.lock:
            if committed <= 0:
                if self._ino is not None or self.docs:
                    self._reset()
                return
            try:
                st = self.path.stat()
            except FileNotFoundError:
                st = None
            if st is None or st.st_size < committed:
                raise StoreError(
                    f"the posts file {self.path} is "
                    + ("missing" if st is None else f"{st.st_size} bytes long")
                    + f", but its game file says {committed} bytes of posts are stored there: "
                    "it was removed or cut by something other than the assistant; restore it "
                    "from a backup (with its game file)"
                )
            if st.st_ino != self._ino:
                self._reset()
                self._ino = st.st_ino
            if committed <= self._offset:
                return  # (a later batch of this process is read already)
            with open(self.path, "rb") as f:
                f.seek(self._offset)
                data = f.read(committed - self._offset)
            self._apply_lines(data)
            self._offset = committed

    def sorted_ids(self) -> list[int]:
        """Every stored post's id, ascending (kept as posts are added, mostly at the end)."""
        if self._ids is None:
            self._ids = sorted(self.docs)
        return self._ids

    def _reset(self) -> None:
        self._ids = None
        self.docs = {}
        self._offset = 0
        self._ino = None
        self.built = {}
        self.order = None

    def _apply_lines(self, data: bytes) -> None:
        at = 0
        for line in data.split(b"\n")[:-1] if data.endswith(b"\n") else [data]:
            try:
                ops = orjson.loads(line)
                if not isinstance(ops, list):
                    raise ValueError("not a list of changes")
                self.apply(ops)
            except (ValueError, TypeError, IndexError, KeyError, AttributeError) as e:
                raise StoreError(
                    f"the posts file {self.path} is damaged at byte {self._offset + at} "
                    f"({e}); it was changed by something other than the assistant: restore "
                    "it from a backup (with its game file)"
                ) from None
            at += len(line) + 1

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

    # ---- writing (under the game's lock, within the store's batch) --------------------------

    def begin(self, committed: int, docs: dict[int, Doc] | None = None) -> None:
        """Start a batch: catch up with the file's `committed` bytes and cut off what a
        killed writer appended past them. With `docs` (a game file's old "posts" table),
        start from those instead: the batch ends with `replace_with`."""
        self.lock.acquire()
        try:
            self._pending = []
            if docs is not None:
                self._reset()
                self.docs = docs
                return
            self.refresh(committed)
            try:
                size = self.path.stat().st_size
            except FileNotFoundError:
                return
            if size > committed:  # a killed writer's line, never stored
                with open(self.path, "r+b") as f:
                    f.truncate(committed)
                    os.fsync(f.fileno())
                if committed == 0:
                    self._reset()
                    self._ino = os.stat(self.path).st_ino
        except BaseException:
            self.lock.release()
            raise

    def record(self, ops: list[Op]) -> None:
        """Changes of the batch in progress: applied in memory now, appended by `append`."""
        self.apply(ops)
        self._pending.extend(ops)

    @property
    def pending(self) -> bool:
        return bool(self._pending)

    def append(self) -> int:
        """Append the batch's line (one write, fsynced); returns the file's length, which
        the game file then records: the batch is stored when the game file is replaced."""
        if not self._pending:
            return self._offset
        line = orjson.dumps(self._pending) + b"\n"
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            _write_line(fd, line)
            st = os.fstat(fd)
        finally:
            os.close(fd)
        if self._ino is None:
            _fsync_dir(self.path.parent)
        self._ino = st.st_ino
        self._offset = st.st_size
        self._pending = []
        return st.st_size

    def end(self) -> None:
        """The batch is stored (its game file replaced): release the posts to readers."""
        self._pending = []
        self.lock.release()

    def abort(self) -> None:
        """A batch that failed: what it appended, if anything, is past the stored length;
        the posts are read again from the file."""
        try:
            self._pending = []
            self._reset()
        finally:
            self.lock.release()

    def replace_with(self, docs: dict[int, Doc]) -> int:
        """The whole file written anew from `docs` (atomically: a temp file, fsynced, put in
        place); returns its length. How a game stored before this file existed moves its
        posts here (the game file, replaced next, then names this length)."""
        import tempfile

        fd, tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp",
                                   dir=self.path.parent)
        try:
            with os.fdopen(fd, "wb") as f:
                ops = snapshot_ops(docs)
                if ops:
                    f.write(orjson.dumps(ops) + b"\n")
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
            raise
        st = os.stat(self.path)
        self._ino, self._offset, self._pending = st.st_ino, st.st_size, []
        self.docs, self.built, self.order, self._ids = docs, {}, None, None
        return st.st_size


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


def _write_line(fd: int, line: bytes) -> None:
    """`line` written whole at the end of the file and fsynced."""
    view = memoryview(line)
    while view:
        view = view[os.write(fd, view):]
    os.fsync(fd)


def _fsync_dir(folder: Path) -> None:
    """The new file's name made durable (a power cut right after would otherwise lose it)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


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
