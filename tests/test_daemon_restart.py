"""The daemon as a process: killed with SIGKILL in the middle of a poll and started again,
then stopped with SIGTERM. No poll's posts and no alert are lost, and none is repeated.

The processes use a fixed clock (ASSISTANT_NOW) and poll a 127.0.0.1 server every 0.2 s.
The kill is made to land mid-poll: the test server holds back one page's answer until the
kill has been sent, and its request log shows where the poll was. The test waits for log
lines and requests (generous limits that end as soon as the condition is met), never for
game time."""

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
from forum_server import ForumServer, page_path, route_key, running_forum

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
                "--verbose",  # every poll logged: the test counts them
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


class HeldPage:
    """A page body the server calls for every request: once `armed`, the first request that
    comes after a request for `after` is held (the poll is then in flight, blocked on it)
    until `release`; every other request is answered at once."""

    def __init__(self, server: ForumServer, path: str, body: bytes, after: str) -> None:
        self.server, self.body, self.after = server, body, route_key(after)
        self.path = route_key(path)
        self.armed_at: int | None = None
        self.held = threading.Event()
        self.released = threading.Event()
        server.pages[self.path] = self  # callable: called per request, after it is logged

    def arm(self) -> None:
        self.armed_at = len(self.server.log)

    def __call__(self) -> bytes:
        if self.armed_at is not None and not self.held.is_set():
            since = [route_key(p) for p in self.server.log[self.armed_at :]]
            if self.after in since[:-1]:
                self.held.set()
                self.released.wait(timeout=120)
        return self.body

    def release(self) -> None:
        self.released.set()


def test_sigkill_mid_poll_then_restart_then_sigterm(tmp_path) -> None:
    snaps = snapshots(FORUM)
    page1, page2 = page_path("smf", 3, 1), page_path("smf", 3, 2)
    with running_forum() as server:
        setup_store(tmp_path, FORUM, thread_url(server, FORUM))
        serve(server, FORUM, snaps[3], snaps)  # 20 posts: Mr. Pickles' [Vote: Slayr] as posted
        first = Daemon(tmp_path, "2026-11-22T11:15:45+00:00")
        first.wait_for(lambda lines: first.polls() >= 2)
        with open_store(tmp_path) as store:
            assert len(store.posts()) == 20

        # The thread grows to 30 posts (post 135 silently edited, on page 2). Every poll reads
        # forward from the last page (page 2, written at once), then re-reads page 1 (the
        # recheck), and writes that. Hold page 1 once page 2 has been read since now: the
        # kill then lands between the poll's two writes.
        serve(server, FORUM, snaps[5], snaps)
        held = HeldPage(server, page1, server.page(page1), after=page2)
        polls_before = first.polls()
        held.arm()
        try:
            assert held.held.wait(timeout=90), server.log[-10:]
            first.proc.send_signal(signal.SIGKILL)
            first.proc.wait(timeout=60)
        finally:
            held.release()  # the server thread answers (to nobody) and ends
        assert first.proc.returncode == -signal.SIGKILL
        first._reader.join(timeout=5)
        # The kill came while a poll was in flight: it had asked for page 2 and then page 1
        # (held), and never logged its end.
        asked = [route_key(p) for p in server.log[held.armed_at :]]
        assert asked[-1] == route_key(page1) and route_key(page2) in asked[:-1]
        assert first.polls() == polls_before

        # What the killed poll had written is whole: page 2's posts, each once, and the
        # edit of 135 as a second version. The store opens and reads cleanly.
        with open_store(tmp_path) as store:
            posts = store.posts()
            alerts_after_kill = {s.id for s in AlertLog(store).all()}
        assert [sp.post_id for sp in posts] == sorted({sp.post_id for sp in posts})
        assert len(posts) == 30
        assert [len(sp.versions) for sp in posts if sp.post_id == 135] == [2]
        # Alerts are reviewed after a poll ends: the killed poll recorded none of its own.
        assert set(first.alert_ids()) == alerts_after_kill

        second = Daemon(tmp_path, "2026-11-22T11:15:45+00:00")
        second.wait_for(
            lambda lines: any("silent_edit" in x for x in lines) and second.polls() >= 3
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
    assert len({s.id for s in alerts}) == len(alerts) == len(found)
    # Every stored alert was announced exactly once, by one of the two processes: the
    # second announced the alerts of the killed poll's posts, and none the first had.
    logged = first.alert_ids() + second.alert_ids()
    assert sorted(logged) == sorted(s.id for s in alerts)
    assert set(second.alert_ids()) == {s.id for s in alerts} - alerts_after_kill
    assert any(" silent_edit post 135 " in line for line in second.lines)
