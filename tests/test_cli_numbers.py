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
