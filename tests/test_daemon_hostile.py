"""The daemon among hostile forums and a changing data dir (issue 14): eleven forums that
drip their pages do not hold up a healthy one, SIGTERM stops it at once whatever is in
flight, a game created while it runs is watched without a restart, and a game on a
members-only board is polled with the login kept with the game."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import parse_qsl

import daemon_support as ds
from cli_support import call
from forum_server import route_key, running_forum, thread_files
from hostile_server import elapsed, hostile_forum
from test_cli_fetch import PHPBB_LOGIN, PHPBB_MEMBER

from assistant.store import GameStore

ROOT = Path(__file__).resolve().parent.parent
WAIT = 120.0
"""The longest a test waits for a log line: generous, for a busy machine; never slept."""


class RunningDaemon:
    """`assistant run` in a child process; its log lines arrive in a queue."""

    def __init__(self, data_dir: Path) -> None:
        env = {**os.environ, "ASSISTANT_DATA_DIR": str(data_dir)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "assistant", "run", "--interval", "0.2", "--jitter", "0",
             "--delay", "0", "--verbose"],  # every poll logged: the tests wait for them
            env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, cwd=ROOT,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, text: str) -> str:
        """The first log line (from now on) holding `text`."""
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=deadline - time.monotonic())
            except queue.Empty:
                break
            self.seen.append(line)
            if text in line:
                return line
        raise AssertionError(f"no log line with {text!r} in {WAIT} s; saw:\n" +
                             "\n".join(self.seen[-30:]))

    def stop(self) -> float:
        """SIGTERM; seconds until the process was gone."""
        start = time.monotonic()
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=WAIT)
        return elapsed(start)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def test_eleven_dripping_forums_hold_up_neither_a_healthy_game_nor_sigterm(tmp_path) -> None:
    """Before: a healthy game was polled once in 150 s and SIGTERM waited 13 minutes."""
    snaps = ds.snapshots("smf21")
    with running_forum() as healthy, ExitStack() as forums:
        slow = [forums.enter_context(hostile_forum()) for _ in range(11)]
        ds.serve(healthy, "smf21", snaps[-1], snaps)
        ds.setup_store(tmp_path, "smf21", ds.thread_url(healthy, "smf21"))
        for i, forum in enumerate(slow):
            with GameStore.open(tmp_path, f"slow{i:02}") as store:
                store.update_config(thread_url=f"{forum.base_url}/index.php?topic={i + 5}.0",
                                    ruleset="chat-mafia", tz="UTC")
        daemon = RunningDaemon(tmp_path)
        try:
            daemon.wait_for("started: 12 game(s)")
            daemon.wait_for("poll thread-b:")
            daemon.wait_for("poll thread-b:")  # polled again while eleven forums drip
            while sum(len(f.requests) for f in slow) < 11:  # a request in flight on each
                daemon.wait_for("")
            took = daemon.stop()
        finally:
            daemon.kill()
    assert daemon.proc.returncode == 0
    assert took < 2.0, took  # issue 13: within 2 s whatever the daemon is doing
    assert [len(f.requests) for f in slow] == [1] * 11  # still in flight: no retries piled up


def test_a_game_created_while_the_daemon_runs_is_watched_without_a_restart(tmp_path,
                                                                           capsys) -> None:
    snaps = ds.snapshots("smf21")
    with running_forum() as healthy:
        ds.serve(healthy, "smf21", snaps[-1], snaps)
        url = ds.thread_url(healthy, "smf21")
        ds.setup_store(tmp_path, "smf21", url)
        daemon = RunningDaemon(tmp_path)
        try:
            daemon.wait_for("poll thread-b:")
            players = tmp_path / "players.txt"
            players.write_text("Conia\nKat\n", encoding="utf-8")
            code, _, err = call(capsys, tmp_path, "game", "new", "late", "--thread", url,
                                "--ruleset", "chat-mafia", "--players", str(players))
            assert code == 0, err
            daemon.wait_for("watching late:")
            line = daemon.wait_for("poll late:")
            daemon.stop()
        finally:
            daemon.kill()
    assert "new" in line
    with GameStore.open(tmp_path, "late", create=False) as store:
        assert len(store.posts()) > 0


def _members_only(forum, password: str) -> str:
    url = forum.serve_thread("phpbb", thread_files("phpbb"))
    forum.set_page("/ucp.php?mode=login", PHPBB_LOGIN.format(error="").encode())
    forum.post_pages[route_key("/ucp.php?mode=login")] = PHPBB_MEMBER.encode()
    return url


def test_the_daemon_logs_in_as_fetch_did_with_the_password_from_its_environment(
    tmp_path, capsys, monkeypatch
) -> None:
    """Before: a members-only game could be fetched with --login but not watched."""
    with running_forum() as forum:
        url = _members_only(forum, "s3cret")
        monkeypatch.setenv("FORUM_PW", "s3cret")
        code, out, err = call(capsys, tmp_path, "fetch", url, "--game", "g", "--login", "Conia",
                              "--password-env", "FORUM_PW", "--delay", "0")
        assert code == 0, err
        forum.posted.clear()
        code, out, err = call(capsys, tmp_path, "fetch", "--game", "g", "--delay", "0")
        assert code == 0 and len(forum.posted) == 1, err  # a later fetch logs in as the first
        forum.posted.clear()
        code, out, err = call(capsys, tmp_path, "run", "--once", "--delay", "0")
        assert "poll failed" not in out, out + err
        (_, body), = forum.posted  # the daemon logged in, once
        assert dict(parse_qsl(body.decode()))["password"] == "s3cret"
        # The password is nowhere in the data dir: only the variable's name is kept.
        for path in tmp_path.rglob("*"):
            if path.is_file():
                assert b"s3cret" not in path.read_bytes(), path
        with GameStore.open(tmp_path, "g", create=False) as store:
            assert store.config()["login"] == {"user": "Conia", "password_env": "FORUM_PW"}

        monkeypatch.delenv("FORUM_PW")
        forum.posted.clear()
        code, out, err = call(capsys, tmp_path, "run", "--once", "--delay", "0")
    assert ("poll failed: game 'g' logs in as 'Conia' with the password in the environment "
            "variable FORUM_PW, which is not set for the daemon") in out
    assert forum.posted == []
