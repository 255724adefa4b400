"""`assistant ...` run in-process through `assistant.cli.main`, as the CLI tests drive it:
one place that turns the exit (SystemExit or none) and the captured output into a result."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.cli import main


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run `assistant ARGS`; returns (exit code, stdout, stderr), the output being all that
    was captured since capsys was last read."""
    code = 0
    try:
        main(list(args))
    except SystemExit as e:
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def run_at(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    data_dir: Path,
    now: str,
    *args: str,
) -> tuple[int, str, str]:
    """`run_cli` with ASSISTANT_NOW and ASSISTANT_DATA_DIR set, as a cron job or a GM's
    shell would have them."""
    monkeypatch.setenv("ASSISTANT_NOW", now)
    monkeypatch.setenv("ASSISTANT_DATA_DIR", str(data_dir))
    return run_cli(capsys, *args)


def call(capsys: pytest.CaptureFixture[str], data: Path, *args: str) -> tuple[int, str, str]:
    """`assistant --data-dir DATA ARGS` with only this command's output (earlier output is
    dropped first)."""
    capsys.readouterr()
    return run_cli(capsys, "--data-dir", str(data), *args)


class CliAt:
    """`assistant --data-dir DATA ...` at a moment set like ASSISTANT_NOW; each test file's
    `Cli` says how it names the moment."""

    def __init__(self, data: Path, capsys: pytest.CaptureFixture[str], mp: pytest.MonkeyPatch):
        self.data, self.capsys, self.mp = data, capsys, mp

    def at(self, now: str, *args: str, ok: bool = True) -> str:
        """Run at NOW; returns stdout when it should succeed (`ok`), stderr when it should
        fail, and asserts which it did."""
        self.mp.setenv("ASSISTANT_NOW", now)
        code, out, err = call(self.capsys, self.data, *args)
        assert (code == 0) == ok, err or out
        return out if ok else err


def output(capsys: pytest.CaptureFixture[str], data: Path, *args: str) -> str:
    """`assistant --data-dir DATA ARGS`, which must exit 0 (a failure shows its stderr);
    returns this command's stdout."""
    capsys.readouterr()
    try:
        main(["--data-dir", str(data), *args])
    except SystemExit as e:
        assert e.code == 0, capsys.readouterr().err
    return capsys.readouterr().out


def error_line(stderr: str) -> str:
    """The one line the command line printed as its error (without "error: ")."""
    lines = [ln for ln in stderr.splitlines() if ln.startswith("error: ")]
    assert len(lines) == 1, stderr
    return lines[0].removeprefix("error: ")


def in_terminal(
    *args: str, env: dict[str, str], size: tuple[int, int] | None = None, timeout: float = 120
) -> str:
    """`assistant ARGS` in a child process whose stdin, stdout and stderr are a pseudo-
    terminal, as a GM's shell runs it; `size` (columns, lines) sets the terminal's size,
    None leaves it unset (0 by 0, as `script` or an IDE's console give). Returns all it
    wrote, in the order it wrote it; fails the test on a non-zero exit."""
    import fcntl
    import os
    import pty
    import select
    import struct
    import subprocess
    import sys
    import termios

    main_fd, child_fd = pty.openpty()
    if size is not None:
        fcntl.ioctl(child_fd, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
    proc = subprocess.Popen(
        [sys.executable, "-m", "assistant", *args],
        stdin=child_fd, stdout=child_fd, stderr=child_fd, env=env, close_fds=True,
    )  # fmt: skip
    os.close(child_fd)
    chunks = []
    while True:
        ready, _, _ = select.select([main_fd], [], [], timeout)
        if not ready:  # a child that writes nothing for `timeout` seconds is stuck
            proc.kill()
            break
        try:
            chunk = os.read(main_fd, 65536)
        except OSError:  # the child closed the terminal (EIO on Linux)
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(main_fd)
    code = proc.wait(timeout=timeout)
    text = b"".join(chunks).decode("utf-8", "replace")
    assert code == 0, text
    return text
