"""Every number the command line takes is checked where it is read (issue 14, "Hostile or
broken servers"): `run --interval -5` spun the daemon at 100 % CPU and `--interval nan`
was an internal error. Now: one line naming the option and what to give; nothing runs."""

from __future__ import annotations

import math

import pytest
from cli_support import call

from assistant.daemon import DaemonSettings
from assistant.errors import ConfigError


@pytest.mark.parametrize(
    "args, says",
    [
        (["run", "--interval", "-5"], "Invalid value for '--interval': '-5': give more than 0"),
        (["run", "--interval", "0"], "Invalid value for '--interval': '0': give more than 0"),
        (["run", "--interval", "nan"], "'nan' is not a finite number of seconds"),
        (["run", "--interval", "inf"], "'inf' is not a finite number of seconds"),
        (["run", "--interval", "5m"], "'5m' is not a number of seconds"),
        (["run", "--jitter", "-1"], "Invalid value for '--jitter': '-1': give at least 0"),
        (["run", "--summary-every", "0"],
         "Invalid value for '--summary-every': '0': give more than 0"),
        (["run", "--delay", "nan"], "Invalid value for '--delay'"),
        (["fetch", "--game", "g", "--delay", "-0.5"], "Invalid value for '--delay'"),
        (["count", "g", "--at-post", "-3"], "Invalid value for '--at-post'"),
        (["count", "g", "--day", "-1"], "Invalid value for '--day'"),
        (["phase", "g", "day", "--", "-2"], "Invalid value for '[NUMBER]'"),
        (["phase", "g", "--supporters", "-1"], "Invalid value for '--supporters'"),
        (["kill", "g", "Kat", "--at-post", "0"], "Invalid value for '--at-post'"),
        (["game", "lynches", "g", "--day", "1", "--available", "-1"],
         "Invalid value for '--available'"),
        (["resolve", "g", "--night", "-1"], "Invalid value for '--night'"),
        (["draft", "pms", "g", "--night", "nan"], "Invalid value for '--night'"),
        # Finite but absurd: refused like nan (1e12 s was a date past the year 9999).
        (["run", "--interval", "1e12"],
         "Invalid value for '--interval': '1e12': give at most 86400 seconds (1 day)"),
        (["run", "--interval", "86401"], "give at most 86400 seconds (1 day)"),
        (["run", "--jitter", "1e9"], "Invalid value for '--jitter': '1e9': give at most 3600"),
        (["run", "--summary-every", "1e300"], "Invalid value for '--summary-every'"),
        (["run", "--delay", "1e6"], "Invalid value for '--delay': '1e6': give at most 60"),
        (["fetch", "--game", "g", "--delay", "3601"], "Invalid value for '--delay'"),
        (["count", "g", "--at-post", "99999999999999999999999"], "Invalid value for '--at-post'"),
        (["count", "g", "--day", "1000"], "Invalid value for '--day'"),
        (["phase", "g", "--living", "1000000"], "Invalid value for '--living'"),
        (["undo", "g", "5000000000"], "Invalid value for 'ID'"),
        (["rule", "g", "--post", "5", "--which", "100000"], "Invalid value for '--which'"),
    ],
)
def test_a_bad_number_is_one_line_naming_the_option(tmp_path, capsys, args, says) -> None:
    code, out, err = call(capsys, tmp_path, *args)
    assert code == 2 and out == "", err
    assert says in err, err
    assert "Traceback" not in err and "internal error" not in err
    assert err.strip().splitlines()[-1].startswith("Error: Invalid value for")
    assert not (tmp_path / "games").exists()  # nothing ran


@pytest.mark.parametrize("interval, jitter", [(-5, 0), (0, 0), (math.nan, 0), (300, -1),
                                              (300, math.inf)])
def test_the_daemon_refuses_a_spinning_interval_from_any_caller(interval, jitter) -> None:
    with pytest.raises(ConfigError):
        DaemonSettings(poll_interval=interval, jitter=jitter)


@pytest.mark.parametrize("settings", [
    {"summary_every": 0.0}, {"summary_every": float("nan")}, {"review_every": -1.0},
    {"per_forum": 0},
])
def test_the_daemon_refuses_a_summary_review_or_forum_limit_that_cannot_work(settings) -> None:
    """A summary every 0 s would log without pause; a forum limit of 0 would never poll."""
    with pytest.raises(ConfigError):
        DaemonSettings(**settings)


def _commands(group: object, path: tuple[str, ...] = ()):  # noqa: ANN202
    import click

    if isinstance(group, click.Group):
        ctx = click.Context(group)
        for name in group.list_commands(ctx):
            yield from _commands(group.get_command(ctx, name), (*path, name))
    else:
        yield path, group


CHECKED_WHERE_READ = {(("game", "modifier"), "vote_weight")}
"""Numbers the command checks itself, to say more than a range in its one line (exit 1)."""


def test_every_number_the_command_line_takes_has_a_floor_and_a_ceiling() -> None:
    """Every numeric option and argument of every command (lazily loaded ones too) is one
    of the bounded types of cli/numbers.py, or checked where read (CHECKED_WHERE_READ,
    tried below): a plain int or float would take 1e12."""
    import click

    from assistant.cli import cli
    from assistant.cli.numbers import Seconds

    numeric = []
    for path, command in _commands(cli):
        for param in command.params:
            kind = param.type
            if (path, param.name) in CHECKED_WHERE_READ:
                numeric.append((path, param.name))
            elif isinstance(kind, Seconds):
                assert math.isfinite(kind.maximum), (path, param.name)
                numeric.append((path, param.name))
            elif isinstance(kind, click.types._NumberParamTypeBase):  # noqa: SLF001
                assert isinstance(kind, click.types._NumberRangeBase), (path, param.name)  # noqa: SLF001
                assert kind.min is not None and kind.max is not None, (path, param.name)
                numeric.append((path, param.name))
    assert (("run",), "interval") in numeric and (("undo",), "input_id") in numeric
    assert len(numeric) >= 35


@pytest.mark.parametrize("settings", [
    {"poll_interval": 1e12}, {"jitter": 1e9}, {"summary_every": 1e300}, {"review_every": 1e12},
])
def test_the_daemon_refuses_absurd_finite_numbers_from_any_caller(settings) -> None:
    with pytest.raises(ConfigError, match="at most"):
        DaemonSettings(**settings)


def test_a_games_own_poll_interval_of_1e12_is_logged_and_the_default_used(caplog) -> None:
    from pathlib import Path

    from assistant.clock import FakeClock
    from assistant.daemon import Daemon

    daemon = Daemon(Path("."), FakeClock(__import__("datetime").datetime.now()), lambda: None,  # type: ignore[arg-type, return-value]
                    DaemonSettings(poll_interval=300))
    assert daemon._interval("g", 1e12) == 300  # noqa: SLF001
    assert "its poll_interval 1000000000000.0 is not a number of seconds above 0 and at " \
        "most 86400" in caplog.text


def test_a_vote_weight_past_100_is_one_line(tmp_path, capsys) -> None:
    """`game modifier --weight 99999999999999999999999` was stored as such."""
    import daemon_support as ds

    ds.setup_store(tmp_path, "smf21", "http://127.0.0.1:9/index.php?topic=3.0")
    for weight in ("99999999999999999999999", "101", "-1"):
        code, out, err = call(capsys, tmp_path, "game", "modifier", "thread-b", "Kat",
                              "--weight", weight)
        assert (code, out) == (1, "") and err == (
            f"error: --weight {weight}: a vote is worth 0 or more, at most 100 (0: it never "
            "counts; --powerless: shown but not counted)\n")
