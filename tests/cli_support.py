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
