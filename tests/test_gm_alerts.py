"""Alerts a GM can act on (issue 22): the most severe first (violations, warnings, info) in
the terminal and in `--json`, the severity in colour on a terminal (none when piped or with
NO_COLOR), `fetch` and `run --once` running the checks so that `alerts` right after them is
complete, and `fetch` showing its progress bar on a terminal. Thread B served on 127.0.0.1,
its GM's facts entered before the thread is read."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import thread_b_support as tb
from cli_support import in_terminal
from thread_b_cli import NOW, players_file, run_at_noon, serve_thread_b, served_forum  # noqa: F401 - the fixtures

RANK = {"violation": 0, "warning": 1, "info": 2}


def _enter_day_2(run, tmp_path: Path, url: str, game: str = "b") -> None:
    """Thread B's game as its GM set it up before reading the thread: Day 2 from the host's
    post, the two earlier deaths, Lady Grey's role PM, the OP's house rule on copies."""
    meta = tb.truth("smf21")["meta"]
    players = str(players_file(tmp_path, "smf21"))
    code, _, err = run("game", "new", game, "--thread", url, "--ruleset", "chat-mafia",
                       "--players", players, "--gm", tb.GM)  # fmt: skip
    assert code == 0, err
    start = meta["day"]["start_iso"]
    assert run("phase", game, "day", "2", "--starts", start, "--ends", "11:23")[0] == 0
    for who, how in (("ÆtherWolf", "lynch"), ("Kat", "nightkill")):
        assert run("kill", game, who, "--how", how, "--at", start)[0] == 0
    pm = tmp_path / "grey.txt"
    pm.write_text(meta["role_pms"]["Lady Grey"], encoding="utf-8")
    assert run("pm", game, "Lady Grey", "--file", str(pm))[0] == 0
    (tmp_path / "data" / "games").mkdir(parents=True, exist_ok=True)


def _severities(text: str) -> list[str]:
    return re.findall(r"^[0-9a-f]{10}  (violation|warning|info)\b", text, re.M)


def test_alerts_right_after_fetch_are_complete_and_the_most_severe_come_first(
    forum, run, tmp_path
) -> None:
    _enter_day_2(run, tmp_path, serve_thread_b(forum, "smf21"))
    code, out, err = run("fetch", "--game", "b", "--delay", "0")
    assert code == 0, err
    assert re.search(r"; \d+ new alerts \(\d+ violations?, \d+ warnings, \d+ info\): "
                     r"`assistant alerts b`\n$", out), out  # fmt: skip

    code, out, _ = run("alerts", "b")  # no --check: what the fetch found
    shown = _severities(out)
    assert shown == sorted(shown, key=RANK.__getitem__) and set(shown) == set(RANK)
    assert "The checks run with each poll" not in out
    code, out, _ = run("--json", "alerts", "b")
    listed = json.loads(out)["alerts"]
    assert [a["severity"] for a in listed] == shown
    found = {(a["post_id"], a["kind"]) for a in listed}
    assert tb.expected("smf21", live_only=False) - {
        (p, k) for p, k in tb.expected("smf21") if k == "vote_changed_by_edit"
    } <= found  # the first version of that edit was never seen here: an "edit" alert instead
    for earlier, later in zip(listed, listed[1:], strict=False):  # the latest first within one
        if earlier["severity"] == later["severity"]:
            assert earlier["occurred_at"] >= later["occurred_at"]

    code, out, _ = run("--json", "alerts", "b", "--check")  # the checks again: nothing new
    assert [a["id"] for a in json.loads(out)["alerts"]] == [a["id"] for a in listed]


def test_run_once_runs_the_checks_too(forum, run, tmp_path) -> None:
    _enter_day_2(run, tmp_path, serve_thread_b(forum, "smf21"))
    code, out, err = run("run", "--once", "--delay", "0")
    assert code == 0, err
    code, out, _ = run("--json", "alerts", "b")
    kinds = {a["kind"] for a in json.loads(out)["alerts"]}
    assert {"dead_player_post", "role_pm_copy", "ambiguous_vote_target"} <= kinds


def test_the_severity_is_coloured_on_a_terminal_only(forum, run, tmp_path) -> None:
    _enter_day_2(run, tmp_path, serve_thread_b(forum, "smf21"))
    assert run("fetch", "--game", "b", "--delay", "0")[0] == 0
    env = {**os.environ, "ASSISTANT_DATA_DIR": str(tmp_path / "data"), "ASSISTANT_NOW": NOW}
    env.pop("NO_COLOR", None)
    env["TERM"] = "xterm-256color"
    coloured = in_terminal("alerts", "b", env=env, size=(100, 30))
    assert re.search(r"[0-9a-f]{10}  \x1b\[31m\x1b\[1mviolation\x1b\[0m", coloured), coloured
    assert re.search(r"[0-9a-f]{10}  \x1b\[33mwarning\x1b\[0m", coloured)
    assert re.search(r"[0-9a-f]{10}  \x1b\[36minfo\x1b\[0m", coloured)
    plain = in_terminal("alerts", "b", env={**env, "NO_COLOR": "1"}, size=(100, 30))
    assert "\x1b[" not in plain and _severities(plain.replace("\r\n", "\n"))
    piped = subprocess.run([sys.executable, "-m", "assistant", "alerts", "b"], env=env,
                           capture_output=True, text=True, timeout=60)  # fmt: skip
    assert piped.returncode == 0 and "\x1b[" not in piped.stdout and _severities(piped.stdout)


@pytest.mark.parametrize("size", [None, (80, 24)])
def test_fetch_on_a_terminal_shows_its_progress_bar(forum, tmp_path, size) -> None:
    """A pseudo-terminal nobody sized (0 by 0: `script`, an IDE's console) drew nothing."""
    url = serve_thread_b(forum, "smf21")
    env = {**os.environ, "ASSISTANT_DATA_DIR": str(tmp_path / "data"), "ASSISTANT_NOW": NOW}
    shown = in_terminal("fetch", url, "--game", "b", "--delay", "0", env=env, size=size)
    bars = re.findall(r"reading thread: +(\d+)%\|[^|]*\| (\d)/4", shown)
    assert bars and bars[-1] == ("100", "4"), shown
    assert shown.rstrip().endswith("the thread has 4 page(s), 46 post(s) stored")
    again = subprocess.run(
        [sys.executable, "-m", "assistant", "fetch", url, "--game", "piped", "--delay", "0"],
        env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert again.returncode == 0 and "reading thread" not in again.stderr + again.stdout
