"""Start-up: a command imports what it uses, nothing more (benchmarks/startup.py times it).

`assistant --version` imports the command line's own module and click; `assistant count`
of a stored game reads the store and counts, without the daemon, the forums' fetching
(httpx), the engine, the dashboard (Starlette, uvicorn) or the drafts' Jinja2. Checked
in a fresh interpreter by the modules it holds afterwards, not by a time."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
import pytest
import thread_b_support as tb

from assistant.cli import COMMANDS, DRAFTS, cli, draft
from assistant.rulesets import find_ruleset

#: Modules a count has no use for: the daemon and its scheduling, fetching, the engine
#: (but for `engine.rules`, the ruleset section type the loader reads), the dashboard, the
#: drafts' templates, the progress bar, the Atom feed; the game file's lock (a count only
#: reads), the default data folder (`--data-dir` given) and the checks other than the
#: count's own invalid votes.
NOT_FOR_A_COUNT = (
    "httpx", "apscheduler", "starlette", "uvicorn", "jinja2", "tqdm", "feedgen", "bs4",
    "asyncio", "assistant.daemon", "assistant.poller", "assistant.web", "assistant.demo",
    "assistant.scrapers.http", "assistant.count.tally_draft", "assistant.templating",
    "assistant.night_orders", "assistant.cli.daemon_cmds", "assistant.cli.engine_cmds",
    "assistant.cli.fetch_cmds", "assistant.cli.demo_cmds",
    "filelock", "platformdirs", "difflib", "assistant.checks.edits",
    "assistant.checks.pm_copy", "assistant.checks.posting", "assistant.checks.inactivity",
)  # fmt: skip
ENGINE_ALLOWED = {"assistant.engine", "assistant.engine.rules"}

CHILD = """
import json, sys
from assistant.cli import main
try:
    main(sys.argv[2:])
except SystemExit:
    pass
with open(sys.argv[1], "w") as f:
    json.dump(sorted(sys.modules), f)
"""


def modules_after(tmp_path: Path, *args: str) -> tuple[set[str], str]:
    """The modules a fresh interpreter holds after running `assistant ARGS`, and its output."""
    out = tmp_path / "modules.json"
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(out), *args],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert out.exists(), done.stderr
    return set(json.loads(out.read_text())), done.stdout


def unneeded(modules: set[str]) -> list[str]:
    return sorted(
        m for m in modules
        if any(m == p or m.startswith(p + ".") for p in NOT_FOR_A_COUNT)
        or (m.startswith("assistant.engine") and m not in ENGINE_ALLOWED)
    )  # fmt: skip


def test_version_imports_the_command_line_and_click_only(tmp_path: Path) -> None:
    modules, out = modules_after(tmp_path, "--version")
    assert out.strip() == "assistant, version 0.1.0"
    ours = {m for m in modules if m.startswith("assistant")}
    assert ours <= {"assistant", "assistant.cli", "assistant.clock", "assistant.errors",
                    "assistant.safe_text"}, ours  # fmt: skip
    assert not {"tinydb", "filelock", "selectolax", "rapidfuzz", "platformdirs"} & modules


@pytest.mark.parametrize("args", [(), ("--why", "Conia"), ("--json",)])
def test_count_of_a_stored_game_imports_no_daemon_fetching_engine_or_web(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    """Thread B (the real SMF pages) stored as its GM set it up, counted."""
    data = tmp_path / "data"
    with tb.new_store(data, "smf21") as store:
        store.record_posts(tb.final_posts("smf21"), tb.SAVED_AT)
    modules, out = modules_after(tmp_path, "count", "thread-b", "--data-dir", str(data), *args)
    assert "xX_Slayer_Xx" in out  # it counted
    assert unneeded(modules) == []
    assert "assistant.cli.count_cmds" in modules


def test_a_game_with_a_setup_imports_the_engine_it_needs(tmp_path: Path) -> None:
    """The guard is not vacuous: with a setup entered, the count replays the engine."""
    from assistant.engine.setup import PlayerSetup, Setup

    data = tmp_path / "data"
    with tb.new_store(data, "smf21") as store:
        store.record_posts(tb.final_posts("smf21"), tb.SAVED_AT)
        players = [p[0] for p in tb.thread_b_players("smf21")]
        setup = Setup(tuple(PlayerSetup(p, "town", None) for p in players), 1)
        store.add_input("roles", setup.to_dict(), tb.SAVED_AT)
    modules, out = modules_after(tmp_path, "count", "thread-b", "--data-dir", str(data))
    assert "xX_Slayer_Xx" in out
    assert "assistant.engine.history" in unneeded(modules)


def test_every_command_is_where_the_lazy_command_line_looks_for_it() -> None:
    """`COMMANDS` and `DRAFTS` name the module defining each command (a command missing
    from them is still found, by importing every module, but costs every import)."""
    for group, where in ((cli, COMMANDS), (draft, DRAFTS)):
        defined = {name: sys.modules[cmd.callback.__module__].__name__
                   for name, cmd in group.commands.items() if cmd is not draft}  # fmt: skip
        assert defined == {name: f"assistant.cli.{m}" for name, m in where.items()}
    assert isinstance(cli.get_command(click.Context(cli), "draft"), click.Group)


def test_the_setup_input_kind_is_the_engines() -> None:
    from assistant.engine.history import ROLES
    from assistant.monitor import ROLES as monitor_roles

    assert monitor_roles == ROLES


def test_a_bundled_ruleset_asked_for_by_name_is_read_alone() -> None:
    """`count` of a game reads its ruleset file only; an alias ("002") still finds it among
    all. Exact because no bundled file's name or alias is claimed by another file."""
    from assistant import RULESETS_DIR
    from assistant.rulesets import _load_cached, load_ruleset

    claimed: dict[str, str] = {}
    for path in sorted(RULESETS_DIR.glob("*.toml")):
        rs = load_ruleset(path)
        assert rs.name == path.stem
        for key in (rs.name, *rs.aliases):
            assert claimed.setdefault(key.lower(), path.stem) == path.stem, key
    _load_cached.cache_clear()
    assert find_ruleset("chat-mafia").name == "chat-mafia"
    assert _load_cached.cache_info().currsize == 1
    assert find_ruleset("002").name == "chat-mafia"
    assert _load_cached.cache_info().currsize == len(list(RULESETS_DIR.glob("*.toml")))


#: What the daemon imports only when it uses it: the drafts' Jinja2 (a first draft), the
#: Atom feed (a first alert), notifications (a first one to send), the parser of other
#: forums' odd pages, the progress bar (never), the dashboard (without --web).
NOT_AT_THE_DAEMONS_START = (
    "jinja2", "markupsafe", "feedgen", "lxml", "apprise", "bs4", "tqdm", "starlette",
    "uvicorn", "assistant.web",
)  # fmt: skip

DAEMON_CHILD = """
import asyncio, json, sys
from datetime import datetime, UTC
from pathlib import Path
from assistant.cli import main
try:
    main(["run", "--help"])  # the command's module, as `assistant run` imports it
except SystemExit:
    pass
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from assistant.clock import FakeClock
from assistant.daemon import Daemon, DaemonSettings
from assistant.scrapers.http import Fetcher, FetchSettings, guarded_client

data = Path(sys.argv[2])
clock = FakeClock(datetime(2026, 11, 22, 11, 12, tzinfo=UTC))
daemon = Daemon(data, clock, lambda: Fetcher(guarded_client(), FetchSettings()),
                DaemonSettings(poll_interval=60, jitter=5))

async def start():
    daemon.schedule(AsyncIOScheduler(event_loop=asyncio.get_running_loop()))

asyncio.run(start())
started = sorted(sys.modules)
review = daemon.review_report("thread-b")
json.dump({"started": started, "reviewed": sorted(sys.modules),
           "handled": [h.kind for h in review.handled],
           "alerts": len(review.new_alerts)}, open(sys.argv[1], "w"))
"""


def test_the_daemons_start_imports_what_a_review_needs_only_when_it_needs_it(tmp_path):
    """Each of these is megabytes of a daemon's memory (issue 26: 200 games under 100 MB)
    from its start to the first time it is used, or for good."""
    data = tmp_path / "data"
    ends = tb.truth("smf21")["meta"]["day"]["announced_end_iso"]  # the host's 11:23 UTC
    with tb.new_store(data, "smf21", day_ends=ends) as store:
        store.record_posts(tb.final_posts("smf21"), tb.SAVED_AT)
    out = tmp_path / "modules.json"
    done = subprocess.run([sys.executable, "-c", DAEMON_CHILD, str(out), str(data)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert out.exists(), done.stderr
    seen = json.loads(out.read_text())

    def of(modules: list[str]) -> list[str]:
        return sorted(m for m in modules if any(m == p or m.startswith(p + ".")
                                                for p in NOT_AT_THE_DAEMONS_START))

    assert of(seen["started"]) == []
    # Not vacuous: its first review drafts the interval tallies due (Jinja2) and writes
    # the alerts' feed (feedgen); the files are there.
    assert "tally" in seen["handled"] and seen["alerts"] > 0
    assert {"jinja2", "feedgen"} <= set(of(seen["reviewed"]))
    assert list((data / "drafts" / "thread-b").glob("*tally*"))
    assert list((data / "games").glob("thread-b.alerts.atom"))
