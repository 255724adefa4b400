"""Every write to a game is serialised (issue 14, "GM input lost while the daemon runs"):
a GM command that says "Stored" while the daemon polls has stored, and stays stored."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import daemon_support as ds
import pytest
from cli_support import call
from forum_server import running_forum

from assistant.store import GameStore

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent
PM = "You are the Doctor. Each night you may protect one player from a kill, number {i}."


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=f"{ROOT}{os.pathsep}{TESTS}")


def _pms(data: Path, game: str = "thread-b") -> list[str]:
    with GameStore.open(data, game, create=False) as store:
        return [d["data"]["text"] for d in store.inputs("role_pm")
                if d["data"]["text"].startswith(PM[:20])]


def test_gm_commands_while_the_daemon_polls_hard_are_all_kept(tmp_path, capsys) -> None:
    """The daemon cycles with no pause against thread B on 127.0.0.1 while 40 `pm`
    commands run; afterwards every one of the 40 is in the store, and the daemon's polls
    were stored too (its counter saw every cycle)."""
    snaps = ds.snapshots("smf21")
    stop = tmp_path / "stop"
    with running_forum() as server:
        ds.serve(server, "smf21", snaps[-1], snaps)
        ds.setup_store(tmp_path, "smf21", ds.thread_url(server, "smf21"))
        proc = subprocess.Popen(
            [sys.executable, str(TESTS / "busy_daemon.py"), str(tmp_path), "thread-b", str(stop)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env(), cwd=ROOT, text=True,
        )
        try:
            assert proc.stdout is not None
            first = proc.stdout.readline()  # the backfill is done: from now on, every cycle
            assert first.startswith("done"), first + proc.stderr.read()  # writes its counters
            for i in range(40):
                code, out, err = call(capsys, tmp_path, "pm", "thread-b", "Conia",
                                      PM.format(i=i))
                assert code == 0 and out.startswith("Stored"), err
        finally:
            stop.touch()
            out, err = proc.communicate(timeout=120)
    cycles = [int(ln.split()[1]) for ln in [first, *out.splitlines()] if ln.startswith("done")]
    assert "error" not in out and proc.returncode == 0, out + err  # poll- or review-error
    assert sorted(_pms(tmp_path)) == sorted(PM.format(i=i) for i in range(40))
    with ds.open_store(tmp_path) as store:
        assert store.crawl_state()["polls"] == max(cycles)  # no poll's write was lost either


def test_a_command_waits_for_a_write_in_progress_instead_of_overwriting_it(
    tmp_path, capsys, monkeypatch
) -> None:
    """Another process is in the middle of a write (it has read the file and not yet
    replaced it). A `pm` that cannot get the lock says so and stores nothing; it never
    says "Stored" for a fact the other write would then wipe out. Once that write is
    done, the same command stores, and both facts are kept."""
    ds.setup_store(tmp_path, "smf21", "http://127.0.0.1:9/index.php?topic=3.0")
    holder = subprocess.Popen(
        [sys.executable, str(TESTS / "lock_holder.py"), str(tmp_path), "thread-b"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env(),
        cwd=ROOT, text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdin is not None
        assert holder.stdout.readline() == "holding\n", holder.stderr.read()
        monkeypatch.setenv("ASSISTANT_LOCK_TIMEOUT", "0")
        code, out, err = call(capsys, tmp_path, "pm", "thread-b", "Conia", PM.format(i=1))
        assert code == 1 and out == ""
        assert err.startswith("error: the game file ") and "being written by another" in err
        assert len(err.strip().splitlines()) == 1
        holder.stdin.write("go\n")
        holder.stdin.flush()
        assert holder.stdout.readline() == "done\n"
    finally:
        holder.communicate(timeout=60)
    assert _pms(tmp_path) == []
    code, out, err = call(capsys, tmp_path, "pm", "thread-b", "Conia", PM.format(i=2))
    assert code == 0 and out.startswith("Stored"), err
    with ds.open_store(tmp_path) as store:
        assert [d["data"]["text"] for d in store.inputs("note")] == ["held write"]
    assert _pms(tmp_path) == [PM.format(i=2)]


@pytest.mark.parametrize("software", ["smf", "phpbb"])
def test_on_a_real_forum_gm_commands_and_a_growing_thread_are_all_kept(
    live_forums, software, tmp_path, capsys
) -> None:
    """The same on the real SMF 2.1.5 / phpBB 3.3.10: while the daemon cycles without pause
    on a thread that grows by a reply every few commands, 24 `pm` commands run; then every
    PM and every reply is stored, each post once."""
    board = live_forums.forum(software)
    host, ann, bob = live_forums.names("host", "ann", "bob")
    board.create_members(host, ann, bob)
    topic, first = board.new_topic(host, "Concurrency day 1", "Day 1 begins.")
    url = live_forums.topic_url(software, topic)
    players = tmp_path / "players.txt"
    players.write_text(f"{ann}\n{bob}\n", encoding="utf-8")
    code, _, err = call(capsys, tmp_path, "game", "new", "g", "--thread", url, "--ruleset",
                        "chat-mafia", "--players", str(players), "--gm", host, "--tz", "UTC")
    assert code == 0, err
    stop = tmp_path / "stop"
    proc = subprocess.Popen(
        [sys.executable, str(TESTS / "busy_daemon.py"), str(tmp_path), "g", str(stop)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env(), cwd=ROOT, text=True,
    )
    replies = [first]
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith(("done", "review-error")), line + proc.stderr.read()
        for i in range(24):
            if i % 4 == 0:
                replies.append(board.reply(ann if i % 8 else bob, topic, f"Reply {i}."))
            code, out, err = call(capsys, tmp_path, "pm", "g", ann, PM.format(i=i))
            assert code == 0 and out.startswith("Stored"), err
    finally:
        stop.touch()
        out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0 and "poll-error" not in out, out + err
    code, _, err = call(capsys, tmp_path, "fetch", "--game", "g", "--delay", "0")
    assert code == 0, err
    assert sorted(_pms(tmp_path, "g")) == sorted(PM.format(i=i) for i in range(24))
    with GameStore.open(tmp_path, "g", create=False) as store:
        assert [sp.post_id for sp in store.posts()] == replies


@pytest.mark.parametrize("value", ["-1", "nan", "soon"])
def test_a_bad_lock_timeout_setting_is_one_line(tmp_path, capsys, monkeypatch, value) -> None:
    ds.setup_store(tmp_path, "smf21", "http://127.0.0.1:9/index.php?topic=3.0")
    monkeypatch.setenv("ASSISTANT_LOCK_TIMEOUT", value)
    code, _, err = call(capsys, tmp_path, "pm", "thread-b", "Conia", PM.format(i=1))
    assert code == 1 and err.startswith("error: ASSISTANT_LOCK_TIMEOUT=")
    assert GameStore.game_path(tmp_path, "thread-b").exists()
