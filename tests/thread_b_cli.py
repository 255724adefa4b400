"""Thread B played through the command line, as a GM would: its pages served on 127.0.0.1,
the players file and the setup its `thread_b.json` describes, the game made with `game new`
and read with `fetch`. The CLI tests of whole sessions on thread B share these."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import thread_b_support as tb
from conftest import REALFORUM
from forum_server import ForumServer, page_path

FORUMS = {"smf21": "smf", "phpbb33": "phpbb"}
Run = Callable[..., tuple[int, str, str]]


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
