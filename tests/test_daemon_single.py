"""One daemon a data directory (issue 22): a second `assistant run` (or a cron `run
--once`) on the directory a daemon watches is refused in one line naming the running one's
process id, and runs once it has stopped; a `--jitter` larger than `--interval` is refused
before anything runs. Thread B served on 127.0.0.1; the first daemon a child process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from cli_support import error_line
from thread_b_cli import NOW, players_file, run_at_noon, serve_thread_b, served_forum  # noqa: F401 - the fixtures


class ChildDaemon:
    """`assistant run` in a child process; `wait_for` blocks until its log says a thing."""

    def __init__(self, data: Path) -> None:
        env = {**os.environ, "ASSISTANT_DATA_DIR": str(data), "ASSISTANT_NOW": NOW}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "assistant", "run", "--interval", "3600", "--delay", "0"],
            env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
        )  # fmt: skip
        self.lines: list[str] = []
        self.changed = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            with self.changed:
                self.lines.append(line)
                self.changed.notify_all()

    def wait_for(self, text: str, timeout: float = 60) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: any(text in ln for ln in self.lines), timeout)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=30)


def test_a_second_daemon_on_the_same_data_dir_is_refused_naming_the_first(
    forum, run, tmp_path
) -> None:
    url = serve_thread_b(forum, "smf21")
    players = str(players_file(tmp_path, "smf21"))
    code, _, err = run("game", "new", "b", "--thread", url, "--ruleset", "chat-mafia",
                       "--players", players)  # fmt: skip
    assert code == 0, err
    first = ChildDaemon(tmp_path / "data")
    try:
        assert first.wait_for("poll b: 46 new"), "".join(first.lines)
        for args in (("run", "--once", "--delay", "0"), ("run", "--interval", "60")):
            code, out, err = run(*args)
            assert code == 1 and out == "", err
            assert error_line(err) == (
                f"another daemon (process {first.proc.pid}) is already watching "
                f"{tmp_path / 'data'}; stop it first, or give this one another --data-dir"
            )
        assert first.proc.poll() is None  # the first one is left alone
    finally:
        first.stop()
    code, out, err = run("run", "--once", "--delay", "0")  # the first one is gone: it runs
    assert code == 0 and out.startswith("b: "), err


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("--interval", "60", "--jitter", "90"),
         "--jitter 90 s is more than the --interval of 60 s between polls; give a jitter of "
         "at most the interval (e.g. --jitter 6)"),
        (("--interval", "0.5", "--jitter", "30"),
         "--jitter 30 s is more than the --interval of 0.5 s between polls"),
    ],
)  # fmt: skip
def test_a_jitter_larger_than_the_interval_is_refused(run, tmp_path, args, says) -> None:
    code, out, err = run("run", *args)
    assert code == 1 and out == "" and error_line(err).startswith(says), err
    assert not (tmp_path / "data").exists()  # nothing ran


def test_a_short_interval_without_a_jitter_gets_one_within_it(forum, run, tmp_path) -> None:
    """The default jitter (30 s) is cut to a tenth of a shorter interval, not refused."""
    url = serve_thread_b(forum, "smf21")
    players = str(players_file(tmp_path, "smf21"))
    assert run("game", "new", "b", "--thread", url, "--ruleset", "chat-mafia",
               "--players", players)[0] == 0  # fmt: skip
    code, out, err = run("run", "--once", "--interval", "10", "--delay", "0")
    assert code == 0 and out.startswith("b: 46 new"), err
