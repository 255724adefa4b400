"""The daemon as a process: killed with SIGKILL in the middle and started again, then
stopped with SIGTERM. No poll's posts and no alert are lost, and none is repeated.

The processes use a fixed clock (ASSISTANT_NOW) and poll a 127.0.0.1 server every 0.2 s;
the test waits for their log lines, never for game time."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import thread_b_support as tb
from daemon_support import open_store, serve, setup_store, snapshots, thread_url
from forum_server import running_forum

from assistant.alerts import AlertLog

FORUM = "smf21"


class Daemon:
    """`assistant run` in a child process, its log lines collected as they come."""

    def __init__(self, data_dir: Path, now: str) -> None:
        env = {**os.environ, "ASSISTANT_NOW": now, "ASSISTANT_DATA_DIR": str(data_dir)}
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "assistant",
                "run",
                "--interval",
                "0.2",
                "--jitter",
                "0",
                "--delay",
                "0",
            ],
            env=env,
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
        )
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append(line.rstrip("\n"))

    def wait_for(self, predicate, timeout: float = 90.0) -> None:  # noqa: ANN001
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if predicate(self.lines):
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise AssertionError("the daemon did not get there; its log:\n" + "\n".join(self.lines))

    def polls(self) -> int:
        return sum(" poll thread-b:" in line for line in self.lines)

    def alert_ids(self) -> list[str]:
        return [
            line.split(" alert thread-b ")[1].split(":")[0]
            for line in self.lines
            if " alert thread-b " in line
        ]


def test_sigkill_then_restart_then_sigterm(tmp_path) -> None:
    snaps = snapshots(FORUM)
    with running_forum() as server:
        setup_store(tmp_path, FORUM, thread_url(server, FORUM))
        serve(
            server, FORUM, snaps[3], snaps
        )  # 20 posts: Mr. Pickles' [Vote: Slayr] as first posted
        first = Daemon(tmp_path, "2026-11-22T11:11:30+00:00")
        first.wait_for(lambda lines: sum(" poll thread-b:" in x for x in lines) >= 3)
        first.proc.send_signal(signal.SIGKILL)  # in the middle of whatever it is doing
        first.proc.wait(timeout=60)
        assert first.proc.returncode == -signal.SIGKILL

        with open_store(tmp_path) as store:
            assert len(store.posts()) == 20  # the poll's posts were kept

        serve(server, FORUM, snaps[5], snaps)  # 30 posts; post 135 silently edited
        second = Daemon(tmp_path, "2026-11-22T11:15:45+00:00")
        second.wait_for(
            lambda lines: (
                any("silent_edit" in x for x in lines)
                and sum(" poll thread-b:" in x for x in lines) >= 3
            )
        )
        second.proc.send_signal(signal.SIGTERM)
        second.proc.wait(timeout=60)
        second._reader.join(timeout=5)
        assert second.proc.returncode == 0
        assert any("stopping (SIGTERM)" in line for line in second.lines)
        assert second.lines[-1].endswith("stopped")

    with open_store(tmp_path) as store:
        posts = store.posts()
        alerts = AlertLog(store).all()
    assert len(posts) == 30
    assert [len(sp.versions) for sp in posts if sp.post_id == 135] == [2]
    found = {(s.alert.post_id, s.alert.kind) for s in alerts}
    # Everything thread_b.json expects among the first 30 posts, nothing else, each once
    # (Conia edits post 141 only at 11:17:23, after snapshot 30).
    expected = {(p, k) for p, k in tb.expected(FORUM) if p <= 145} - {(141, "vote_changed_by_edit")}
    assert found == expected
    assert len({s.id for s in alerts}) == len(alerts)
    # No alert was announced twice across the two processes; the second announced only
    # alerts the first had not stored.
    logged = first.alert_ids() + second.alert_ids()
    assert len(logged) == len(set(logged))
    assert set(logged) <= {s.id for s in alerts}
