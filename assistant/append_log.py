"""Records of a game kept in a file beside its game file that grows by appending: its posts
(`G.json.posts`, post_log.py) and its alerts (`G.json.alerts`, alerts_file.py).

Such records are facts that a write adds to, so they need not be rewritten with the rest
of the game at each write: a batch of the store appends one line holding what it changed,
and storing a page (or an alert) costs the same however many the file holds already.

Crash safety: the game file says how many bytes of this file are stored (`committed`),
and the batch appends its line (fsynced) before the game file is replaced with the new
length: that replace is the batch's one commit point. A writer killed before it leaves a
line past the stored length, torn or whole, that no reader reads and the next writer cuts
off under the game's lock; a reader never reads past the length its game file gives. A
stored line that does not parse, or a file shorter than its game file says, was damaged
by something else: refused with advice, never skipped.

Readers take no lock and read only what was appended since they last looked. A line is a
JSON array of operations, each a JSON array whose first item names it; what they mean is
the subclass's (`apply`).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import orjson

from assistant.errors import StoreError

Doc = dict[str, Any]
Op = list[Any]


class AppendLog:
    """The records of one file as read, kept up to date by reading what was appended. A
    writer holds `lock` from `begin` to `end`, its game file replaced in between, so a
    reader of the same process never sees a batch that is not stored."""

    what = "file"
    """What the file is called in messages ("posts file")."""
    lazy = False
    """Whether a batch reads the file only when its records are asked for or changed (the
    alerts file: most of a daemon's batches, a poll's, change none), not when it begins."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lock = threading.RLock()
        self.docs: dict[Any, Doc] = {}
        self._offset = 0
        self._ino: int | None = None
        self._pending: list[Op] = []
        self._begun: int | None = None
        """In a batch of a `lazy` file: the stored length it began with, not read yet."""

    # ---- what the records are (the subclass's) -----------------------------------------

    def apply(self, ops: Iterable[Op]) -> None:
        """Apply the changes of one line to the records in memory (ValueError, KeyError,
        TypeError or IndexError for a change that cannot be applied)."""
        raise NotImplementedError

    def snapshot_ops(self, docs: dict[Any, Doc]) -> list[Op]:
        """The operations that rebuild `docs` (`replace_with`)."""
        raise NotImplementedError

    def _reset(self) -> None:
        """Forget what was read: the file is read from its start at the next look."""
        self.docs = {}
        self._offset = 0
        self._ino = None

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
                    f"the {self.what} {self.path} is "
                    + ("missing" if st is None else f"{st.st_size} bytes long")
                    + f", but its game file says {committed} bytes of it are stored: it was "
                    "removed or cut by something other than the assistant; restore it from a "
                    "backup (with its game file)"
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

    @property
    def stored(self) -> tuple[int | None, int]:
        """The file as read (its inode, the bytes read): equal pairs, the same records."""
        return self._ino, self._offset

    def stored_unread(self, committed: int) -> tuple[int | None, int] | None:
        """`stored` as `refresh(committed)` would leave it, told by the file's inode without
        reading it; None when only a reading can say (the file missing or cut short:
        `refresh` says what is wrong)."""
        if committed <= 0:
            return None, 0
        try:
            st = self.path.stat()
        except FileNotFoundError:
            return None
        if st.st_size < committed:
            return None
        return st.st_ino, committed

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
                    f"the {self.what} {self.path} is damaged at byte {self._offset + at} "
                    f"({e}); it was changed by something other than the assistant: restore "
                    "it from a backup (with its game file)"
                ) from None
            at += len(line) + 1

    # ---- writing (under the game's lock, within the store's batch) --------------------------

    def begin(self, committed: int, docs: dict[Any, Doc] | None = None) -> None:
        """Start a batch: catch up with the file's `committed` bytes and cut off what a
        killed writer appended past them. With `docs` (the records of a game file's old
        table), start from those instead: the batch ends with `replace_with`."""
        self.lock.acquire()
        try:
            self._pending = []
            if docs is not None:
                self._reset()
                self.docs = docs
                return
            if self.lazy:
                self._begun = committed
            else:
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

    def catch_up(self) -> None:
        """In a batch of a `lazy` file: read it up to the length the batch began with."""
        if self._begun is not None:
            self.refresh(self._begun)

    def record(self, ops: list[Op]) -> None:
        """Changes of the batch in progress: applied in memory now, appended by `append`."""
        if self.lazy:
            self.catch_up()
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
        """The batch is stored (its game file replaced): release the records to readers."""
        self._pending, self._begun = [], None
        self.lock.release()

    def abort(self) -> None:
        """A batch that failed: what it appended, if anything, is past the stored length;
        the records are read again from the file."""
        try:
            self._pending, self._begun = [], None
            self._reset()
        finally:
            self.lock.release()

    def replace_with(self, docs: dict[Any, Doc]) -> int:
        """The whole file written anew from `docs` (atomically: a temp file, fsynced, put in
        place); returns its length. How a game stored before this file existed moves its
        records here (the game file, replaced next, then names this length)."""
        import tempfile

        fd, tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp",
                                   dir=self.path.parent)
        try:
            with os.fdopen(fd, "wb") as f:
                ops = self.snapshot_ops(docs)
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
        self._reset()
        self._ino, self._offset, self._pending = st.st_ino, st.st_size, []
        self.docs = docs
        return st.st_size


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
