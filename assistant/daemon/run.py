"""`assistant run`: the daemon in the foreground until Ctrl-C or SIGTERM, gone within two
seconds of the first signal, at once at the second."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from assistant.daemon.core import Daemon
from assistant.daemon.process import exit_now
from assistant.errors import ConfigError
from assistant.game_file import write_error

log = logging.getLogger("assistant.daemon")


STOP_DEADLINE = 1.0
"""Seconds after the first Ctrl-C or SIGTERM by which the process is gone (2 s promised),
whatever it is doing (a write in progress is an atomic replace: the store keeps the old
file or the new). A second of the promise is left to a busy machine: a process starved of
the CPU hears the signal and runs its exit late."""


def run_forever(daemon: Daemon) -> None:
    """Block until Ctrl-C or SIGTERM, then stop within 2 s (`STOP_DEADLINE`); a second
    signal stops at once. The signal handlers are Python's own, not the event loop's, so
    they run even while the loop is busy with a long write."""
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()
    signals: list[int] = []

    def on_signal(signum: int, _frame: Any) -> None:
        signals.append(signum)
        name = signal.Signals(signum).name
        if len(signals) > 1:
            log.info("stopping now (%s again)", name)
            exit_now(1)
        log.info("stopping (%s)", name)
        daemon.cancel()
        timer = threading.Timer(_stop_deadline(), _late_exit)
        timer.daemon = True
        timer.start()
        loop.call_soon_threadsafe(stop.set)

    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        loop.run_until_complete(daemon.serve(stop))
    finally:
        if not signals:  # stopping, the handler stays: a second signal while the process
            for s, handler in previous.items():  # winds down still stops it at once
                signal.signal(s, handler)
        loop.close()
    log.info("stopped")


LOCK_NAME, PID_NAME = "daemon.lock", "daemon.pid"


@contextmanager
def only_daemon(data_dir: Path) -> Iterator[None]:
    """The data directory is this process's to poll while the block runs: a second daemon
    (`run`, or `run --once` from cron) on it is refused in one line naming the running
    one's process id, instead of both polling every game and drafting every event twice.
    The lock is the operating system's (filelock), so a daemon that died holds nothing."""
    from filelock import FileLock, Timeout

    data_dir = Path(data_dir)
    lock = FileLock(str(data_dir / LOCK_NAME), timeout=0)
    pid_file = data_dir / PID_NAME
    try:
        lock.acquire()
    except Timeout:
        raise ConfigError(
            f"another daemon ({_running_pid(pid_file)}) is already watching {data_dir}; stop "
            "it first, or give this one another --data-dir"
        ) from None
    except OSError as e:
        raise write_error(data_dir / LOCK_NAME, e, game_file=False) from None
    try:
        pid_file.write_text(f"{os.getpid()}\n", encoding="utf-8")
        yield
    finally:
        pid_file.unlink(missing_ok=True)
        lock.release()


def _running_pid(pid_file: Path) -> str:
    """ "process 1234" from the running daemon's pid file (it writes it once it holds the
    lock: a daemon still starting has not yet)."""
    try:
        pid = int(pid_file.read_text(encoding="utf-8").strip())
    except (OSError, ValueError):
        return "its process id not written yet: it is starting"
    return f"process {pid}"


def _stop_deadline() -> float:
    """`STOP_DEADLINE`, or `ASSISTANT_STOP_DEADLINE` seconds (a test that needs the first
    signal to wait, to see the second one act)."""
    try:
        return float(os.environ.get("ASSISTANT_STOP_DEADLINE") or STOP_DEADLINE)
    except ValueError:
        return STOP_DEADLINE


def _late_exit() -> None:
    log.info("stopped (the work in progress was abandoned; nothing is torn)")
    exit_now(0)
