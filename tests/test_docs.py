"""Every command example of the README and the guide runs (the sqlite-utils habit of tested
docs): each `assistant ...` line of a page's `sh` blocks, in order, against the demo thread
served on 127.0.0.1 as `assistant demo` serves it. docs/README.md ("Every example runs")
says what the examples may assume; this file is where it is made true."""

from __future__ import annotations

import re
import shlex
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from cogapp import Cog
from docs_support import DOCS, PAGES, all_examples, blocks, examples

from assistant.cli import cli
from assistant.demo_forum import DemoForum
from assistant.scrapers import http

EXAMPLE_FORUM = "https://forum.example.org"
"""The forum of the examples: the demo forum stands in for it."""
NOW = "2026-11-21T21:30:00+00:00"
"""Saturday evening of the demo's Day 2: ended at majority at 16:20, deadline Sunday 18:00."""

NOT_RUN = {
    "run": "runs until Ctrl-C or SIGTERM (its cycle is `run --once`, which runs)",
    "run --web": "serves the dashboard until stopped (tests/test_web_*.py drive it)",
    "run --web 127.0.0.1:9000": "serves the dashboard until stopped",
    "run --web 0.0.0.0:8765": "serves on every address until stopped; tests never leave loopback",
    "fetch 'https://forum.example.org/viewtopic.php?t=7' --game g3 --login 'Mod Otto' "
    "--password-env FORUM_PASSWORD": "the demo forum has no members; "
    "tests/test_live_login.py logs in to the real SMF and phpBB",
    **dict.fromkeys(
        ["post g1 tally", "post g1 dusk --day 2", "post g1 dawn", "post g1 rules-reminder.txt",
         "send g1 result-pms", "send g1 result-pms --night 2", "inbox g1"],
        "writes or reads as the GM's forum account, which the demo forum has not; "
        "tests/test_live_post_pm_inbox.py runs them on the real SMF and phpBB"),
    **dict.fromkeys(
        ["game rules g1 --auto-post tallies",
         "game rules g1 --auto-post tallies --auto-post-gap 3m"],
        "needs the GM's forum login and a ruleset with interval tallies (g1 is mafiascum's); "
        "tests/test_live_autopost.py turns it on for a 002 game on the real SMF and phpBB"),
    **dict.fromkeys(
        ["send g1 role-pms", "send g1 prods", "send g1 prods --since 48h"],
        "sends as the GM's forum account, which the demo forum has not; "
        "tests/test_live_send_role_pms_prods.py runs them on the real SMF and phpBB"),
    **dict.fromkeys(
        ["fetch --game g1 --login 'Mod Otto' --password-env FORUM_PW", "post g1 dusk"],
        "writes or reads as the GM's forum account, which the demo forum has not; "
        "tests/test_live_post_pm_inbox.py runs them on the real SMF and phpBB"),
    "inbox g1 --accept 4815": "proposal 4815 comes from a message read with a forum login "
    "(tests/test_live_inbox_orders.py and test_inbox_proposals.py accept proposals)",
    "inbox g1 --accept 4816 --as 'Gwen: none'": "proposal 4816 comes from a message read "
    "with a forum login (tests/test_inbox_proposals.py accepts with --as)",
    "inbox g1 --reject 4816": "proposal 4816 comes from a message read with a forum login "
    "(tests/test_inbox_proposals.py rejects one)",
    "inbox g1 --co-gm 'Host Mira' --password-env CO_PW": "a co-moderator's inbox is read "
    "beside the game's own login, which the demo game has not (tests/test_live_inbox_"
    "orders.py reads two GMs' inboxes)",
}
"""Examples left out, each with its reason (the test fails for one no page shows)."""

# The games a page can start from (`<!-- examples: NAME -->` on its first line): the
# README tour's first steps, up to Day 2's count and up to Night 2.
STATES = {
    "day": [
        'game new g1 --thread "https://forum.example.org/viewtopic.php?t=7" '
        '--ruleset mafiascum --players players.txt --gm "Mod Otto" --tz Europe/London',
        "run --once",
        'phase g1 day 2 --start-post 101 --ends "Sunday 18:00"',
        "kill g1 Hugo --how nightkill --at-post 101",
        "roles g1 --file setup.toml",
    ],
}
STATES["night"] = [*STATES["day"], "draft dusk g1 --confirm",
                   'phase g1 night 2 --ends "Sunday 18:00"']
_STATE = re.compile(r"\A<!-- examples: (\w+) -->")


def _state(page: Path) -> str | None:
    m = _STATE.match(page.read_text(encoding="utf-8"))
    return m.group(1) if m else None


@pytest.fixture(scope="module")
def forum() -> Iterator[DemoForum]:
    """The demo thread, all of it (posts 101-110), as the forum of the examples."""
    with DemoForum() as demo:
        demo.stage = demo.thread.stages
        yield demo


def _examples_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The clock of the examples, no data directory of the machine's, no pause between
    requests to our own forum on 127.0.0.1, and `assistant demo`'s data under tmp_path."""
    monkeypatch.setenv("ASSISTANT_NOW", NOW)
    monkeypatch.delenv("ASSISTANT_DATA_DIR", raising=False)
    monkeypatch.setattr(http.Fetcher, "_pace", lambda self: None)

    async def no_pause(self: http.AsyncFetcher) -> None:
        return None

    monkeypatch.setattr(http.AsyncFetcher, "_pace", no_pause)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _examples_env(monkeypatch, tmp_path)


def _run(example_words: tuple[str, ...], data_dir: Path, forum: DemoForum) -> tuple[int, str, str]:
    base = forum.thread_url.rsplit("/", 1)[0]
    words = [w.replace(EXAMPLE_FORUM, base) for w in example_words]
    result = CliRunner().invoke(cli, ["--data-dir", str(data_dir), *words])
    unexpected = result.exception is not None and not isinstance(result.exception, SystemExit)
    output = result.output.replace(base, EXAMPLE_FORUM)
    if unexpected:  # an error the command line would have printed as one line, or a bug
        return -1, output, f"{result.exception!r}"
    return result.exit_code, output, result.stderr


def _workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of docs/examples/ to run in, as a GM runs the examples from beside their files."""
    work = tmp_path / "work"
    shutil.copytree(DOCS / "examples", work)
    monkeypatch.chdir(work)
    return work


@pytest.fixture(scope="module")
def states(forum: DemoForum, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A data directory for each starting state, built once and copied for each page."""
    built = {}
    with pytest.MonkeyPatch.context() as mp:
        root = tmp_path_factory.mktemp("states")
        _examples_env(mp, root)
        for name, commands in STATES.items():
            work = _workdir(root / name, mp)
            for text in commands:
                status, out, err = _run(tuple(shlex.split(text)), work / "data", forum)
                assert status == 0, f"state {name}: `assistant {text}` failed:\n{out}{err}"
            built[name] = work / "data"
    return built


def _pages_with_examples() -> list[Path]:
    return [p for p in PAGES
            if any(e.text not in NOT_RUN for b in blocks(p) for e in examples(b))]


@pytest.mark.parametrize("page", _pages_with_examples(), ids=lambda p: p.name)
def test_every_example_of_the_page_runs(
    page: Path, forum: DemoForum, states: dict[str, Path], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = _state(page)
    assert state is None or state in states, f"{page.name}: no starting state {state!r}"
    work = _workdir(tmp_path, monkeypatch)
    data = work / "data"
    if state:
        shutil.copytree(states[state], data)
    outputs: dict[int, str] = {}  # block line -> what its commands printed
    ran = 0
    for block in blocks(page):
        for example in examples(block):
            if example.text in NOT_RUN:
                continue
            status, out, err = _run(example.words, data, forum)
            assert status == 0 and "Traceback" not in out + err, (
                f"{example.where}: `assistant {example.text}` exited {status}:\n{out}{err}"
            )
            outputs[block.line] = outputs.get(block.line, "") + out
            ran += 1
        if block.lang == "text" and block.follows and block.follows.lang == "sh":
            printed = outputs.get(block.follows.line, "")
            for line in block.text.splitlines():
                assert line.strip() in printed, (
                    f"{block.where}: the output shown is not what {block.follows.where} "
                    f"printed; {line.strip()!r} is missing from:\n{printed}"
                )
    assert ran, f"{page.name}: no example ran"


def test_every_example_left_out_is_still_in_the_docs() -> None:
    shown = {e.text for e in all_examples()}
    stale = [text for text in NOT_RUN if text not in shown]
    assert not stale, f"NOT_RUN lists examples no page shows any more: {stale}"


def test_every_page_of_the_guide_is_in_its_index() -> None:
    index = (DOCS / "README.md").read_text(encoding="utf-8")
    missing = [p.name for p in DOCS.glob("*.md")
               if p.name != "README.md" and f"]({p.name})" not in index]
    assert not missing, f"docs/README.md does not link {missing}: add a row to its table"


def test_the_command_reference_is_current(capsys: pytest.CaptureFixture[str]) -> None:
    status = Cog().main(["cog", "--check", str(DOCS / "reference.md")])
    assert status == 0, (
        "docs/reference.md is not what the command line prints: "
        "run `.venv/bin/cog -r docs/reference.md`\n" + capsys.readouterr().out
    )


def test_the_examples_show_every_kind_of_example() -> None:
    """The count of examples run, so a parser that stopped seeing them cannot pass."""
    assert len([e for e in all_examples() if e.text not in NOT_RUN]) >= 80

