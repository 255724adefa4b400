"""A daemon killed (SIGKILL) after it found the alerts and queued them, before it sent
anything, still sends each of them once after the restart; `run --once` (cron) delivers
what the killed daemon could not, and a second one sends nothing again.

The daemon is `assistant run` in a child process on thread B served on 127.0.0.1, at a
fixed moment after the day (ASSISTANT_NOW); its sends stop at a checkpoint
(tests/notify_crash.py), where the test reads the store and kills it."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

from cli_support import run_cli
from daemon_support import serve, setup_store, snapshots, thread_url
from forum_server import running_forum
from notify_support import FORUM, told
from receivers import json_receiver

from assistant.alerts import AlertLog
from assistant.notify.outbox import Outbox
from assistant.store import GameStore

NOW = "2026-11-22T11:30:00+00:00"
TOKEN = "crash-hook-tok-55"
HERE = Path(__file__).resolve().parent


def env_for(data: Path) -> dict[str, str]:
    return {**os.environ, "ASSISTANT_NOW": NOW, "ASSISTANT_DATA_DIR": str(data),
            "HOOK_TOKEN": TOKEN, "PYTHONPATH": str(HERE.parent)}


def test_a_daemon_killed_between_the_alert_and_the_send_sends_it_once_after_restart(
        tmp_path, capsys, monkeypatch) -> None:
    data = tmp_path / "data"
    with running_forum() as server, json_receiver(path=f"hook/{TOKEN}") as hook:
        snaps = snapshots(FORUM)
        serve(server, FORUM, snaps[-1], snaps)  # the whole thread, the day over
        setup_store(data, FORUM, thread_url(server, FORUM))
        monkeypatch.setenv("ASSISTANT_NOW", "2026-11-22T11:00:00+00:00")
        code, out, err = run_cli(capsys, "--data-dir", str(data), "notify", "thread-b",
                                 "--add", hook.url("hook/{env:HOOK_TOKEN}"))
        assert code == 0, err
        child = subprocess.Popen(
            [sys.executable, str(HERE / "notify_crash.py"), "run", "--interval", "0.2",
             "--jitter", "0", "--delay", "0"],
            env=env_for(data), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True)
        lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=lambda: [lines.put(x) for x in child.stdout], daemon=True).start()
        try:
            first = lines.get(timeout=120)  # the daemon polled, found, queued: at its first send
            assert first.startswith("at send "), first
            with GameStore.open(data, "thread-b", create=False) as store:
                waiting = Outbox(store).records(pending=True)
                alerts = AlertLog(store).all()
            assert waiting and alerts
            os.kill(child.pid, signal.SIGKILL)
            child.wait(timeout=30)
        finally:
            if child.poll() is None:
                child.kill()
        assert hook.inbox.messages == []  # nothing was sent before the kill

        # cron's `run --once` after the restart: everything queued, once.
        once = subprocess.run([sys.executable, "-m", "assistant", "run", "--once"],
                              env=env_for(data), capture_output=True, text=True, timeout=300)
        assert once.returncode == 0, once.stderr
        arrived = told(hook.inbox.wait_for(1))
        again = subprocess.run([sys.executable, "-m", "assistant", "run", "--once"],
                               env=env_for(data), capture_output=True, text=True, timeout=300)
        assert again.returncode == 0, again.stderr
        total = len(hook.inbox.messages)

    assert sorted(arrived) == sorted(r.notice.title for r in waiting)
    assert len(arrived) == len(set(arrived))
    assert total == len(hook.inbox.messages) == 1  # a backlog of many goes as one digest
    with GameStore.open(data, "thread-b", create=False) as store:
        assert all(r.delivered_at is not None for r in Outbox(store).records())
    assert TOKEN not in once.stderr + again.stderr
