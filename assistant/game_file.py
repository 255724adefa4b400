"""The game file: a TinyDB document replaced whole and atomically under the game's lock.

`AtomicJSONStorage` keeps the document in memory; each write goes to a temp file in the
same folder, is fsynced, and replaces the file with `os.replace`, so a process killed at
any moment leaves the old file or the new one, never a torn one (store.py groups a poll's
writes into one). A file that is not the assistant's shape, or whose GM inputs are
damaged, is refused with advice, never overwritten. Also the JSON reading and writing
that keep the file's meaning (orjson where it writes and reads what json would), the
cycle collector paused while a long game is read, and the leftovers of killed writers.
"""

from __future__ import annotations

import errno
import gc
import json
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson
from tinydb.storages import Storage

from assistant.errors import StoreError, damaged_record
from assistant.models import stored_date

if TYPE_CHECKING:  # filelock and tempfile are imported where a write needs them: a
    # read-only command (`count`) pays for neither
    from filelock import FileLock


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


STALE_TEMP_AGE = 3600.0
"""Seconds after which a temp file is a killed writer's leftover, not another's write."""
_TEMP_LOOKS: dict[Path, float] = {}
"""When this process last looked for a game's stale temp files (monotonic seconds)."""


def clear_stale_temp_files(path: Path) -> None:
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
