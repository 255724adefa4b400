"""Thread B played through the command line, as a GM would: its pages served on 127.0.0.1,
the players file and the setup its `thread_b.json` describes, the game made with `game new`
and read with `fetch`, Day 2 entered as its GM entered it. The CLI tests of whole sessions on
thread B share these, and the fixtures `forum` and `run`: a test module takes them with
`from thread_b_cli import served_forum, run_at_noon` (or `run_at_time`); the fixtures are
named apart from their functions, so a test's parameter `forum` shadows no import."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import thread_b_support as tb
from cli_support import run_cli
from conftest import REALFORUM
from forum_server import ForumServer, page_path, running_forum

FORUMS = {"smf21": "smf", "phpbb33": "phpbb"}
Run = Callable[..., tuple[int, str, str]]
NOW = "2026-11-22T12:00:00+00:00"
"""Noon of the day thread B ran (11:02-11:21): the GM joins after the thread was posted."""


@pytest.fixture(name="forum")
def served_forum() -> Iterator[ForumServer]:
    """A forum server on 127.0.0.1, to be given thread B's pages (`serve_thread_b`)."""
    with running_forum() as f:
        yield f


@pytest.fixture(name="run")
def run_at_noon(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                capsys: pytest.CaptureFixture[str]) -> Run:
    """The CLI in-process on `tmp_path/data` at NOW, or at `now=` (ISO-8601); returns
    (exit code, stdout, stderr)."""
    monkeypatch.setenv("ASSISTANT_DATA_DIR", str(tmp_path / "data"))

    def run(*args: str, now: str = NOW) -> tuple[int, str, str]:
        monkeypatch.setenv("ASSISTANT_NOW", now)
        return run_cli(capsys, *args)

    return run


@pytest.fixture(name="run")
def run_at_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                capsys: pytest.CaptureFixture[str]) -> Run:
    """The CLI in-process on `tmp_path/data` at a time of thread B's day, as a GM playing it
    live: `run("11:05", "phase", "b")`; returns (exit code, stdout, stderr)."""
    monkeypatch.setenv("ASSISTANT_DATA_DIR", str(tmp_path / "data"))

    def run(now: str, *args: str) -> tuple[int, str, str]:
        monkeypatch.setenv("ASSISTANT_NOW", f"2026-11-22T{now}:00+00:00")
        return run_cli(capsys, *args)

    return run


def serve_thread_b(server: ForumServer, forum: str) -> str:
    """Thread B's four saved pages served by `server`; returns the thread's URL."""
    software = FORUMS[forum]
    for n in range(1, 5):
        path = REALFORUM / forum / f"{forum}_b_topic_p{n}.html"
        server.set_page(page_path(software, 3, n), path.read_bytes())
    return server.base_url + page_path(software, 3, 1)


def players_lines(forum: str) -> list[str]:
    """One player a line with the common names of `meta.common_names` after `|`."""
    meta = tb.truth(forum)["meta"]
    return [" | ".join([n, *meta["common_names"].get(n, [])]) for n in meta["players"]]


def players_file(tmp_path: Path, forum: str) -> Path:
    path = tmp_path / "players.txt"
    path.write_text("\n".join(players_lines(forum)) + "\n", encoding="utf-8")
    return path


def setup_file(tmp_path: Path, forum: str) -> Path:
    """The setup the role PMs of `meta.role_pms` describe, in 002's role keys."""
    rows = []
    for name, pm in tb.truth(forum)["meta"]["role_pms"].items():
        side = re.search(r"Your alignment is (\w+)", pm).group(1).lower()  # type: ignore[union-attr]
        role = re.search(r"Your role is (\w+)", pm)
        key = f', role = "{role.group(1).lower()}"' if role else ""
        rows.append(f'  {{ name = "{name}", side = "{side}"{key} }},')
    path = tmp_path / "setup.toml"
    path.write_text("seed = 7\nplayers = [\n" + "\n".join(rows) + "\n]\n", encoding="utf-8")
    return path


def first_post(forum: str) -> int:
    """The forum id of the host's post that opened Day 2."""
    posts = tb.truth(forum)["posts"]
    return posts[0].get("msg_id", posts[0].get("post_id"))


def new_game(
    run: Run, tmp_path: Path, forum: str, url: str, *extra: str, players: Path | None = None
) -> None:
    """`game new b` on thread B (002, Host Mira), then its first `fetch`."""
    code, _, err = run(
        "game", "new", "b", "--thread", url, "--ruleset", "chat-mafia",
        "--players", str(players or players_file(tmp_path, forum)), "--gm", tb.GM, *extra,
    )  # fmt: skip
    assert code == 0, err
    code, _, err = run("fetch", "--game", "b", "--delay", "0")
    assert code == 0, err


def enter_day_2(run: Run, tmp_path: Path, server: ForumServer, forum: str) -> None:
    """Thread B's game as its GM ran it: made and fetched, Day 2 from the host's post to the
    announced end, Day 1's deaths (ÆtherWolf lynched, Kat killed at night) at that post."""
    new_game(run, tmp_path, forum, serve_thread_b(server, forum))
    op = str(first_post(forum))
    end = tb.truth(forum)["meta"]["day"]["announced_end_iso"][11:16]  # 11:23 SMF, 11:22 phpBB
    assert run("phase", "b", "day", "2", "--start-post", op, "--ends", end)[0] == 0
    for who, how in (("ÆtherWolf", "lynch"), ("Kat", "nightkill")):
        assert run("kill", "b", who, "--how", how, "--at-post", op)[0] == 0
