"""`assistant run --once` (for cron) goes through every game: a game it cannot handle is
reported (text and JSON) and the others are still polled; the exit status is 1 only when
no game could be handled."""

from __future__ import annotations

import json

from cli_support import run_at
from daemon_support import serve, setup_store, snapshots, thread_url
from forum_server import page_path, running_forum, thread_files

from assistant.cli import main

NOW = "2026-11-22T11:30:00+00:00"


def run(capsys, monkeypatch, data_dir, *args: str) -> tuple[int, str, str]:
    return run_at(capsys, monkeypatch, data_dir, NOW, *args)


def test_a_game_without_players_does_not_stop_the_others(capsys, monkeypatch, tmp_path) -> None:
    with running_forum() as server:
        snaps = snapshots("phpbb33")
        serve(server, "phpbb33", snaps[-1], snaps)
        setup_store(tmp_path, "phpbb33", thread_url(server, "phpbb33"))
        # `fetch URL --game a-broken` makes a game with a thread and posts but no players
        # (its name sorts first: it is cycled before the good game).
        other = server.serve_thread("phpbb", thread_files("phpbb"))
        code, _, err = run(capsys, monkeypatch, tmp_path, "fetch", other, "--game", "a-broken",
                           "--delay", "0")
        assert code == 0, err
        code, out, err = run(capsys, monkeypatch, tmp_path, "--json", "run", "--once",
                             "--delay", "0")
        assert code == 0, err
        games = {g["game"]: g for g in json.loads(out)["games"]}
        assert set(games) == {"a-broken", "thread-b"}
        broken, good = games["a-broken"], games["thread-b"]
        assert not broken["ok"] and "has no players yet" in broken["error"]
        assert broken["poll_error"] is None and broken["poll"]["new"] == []
        # 45: the served page 3 predates page 4, and a first read asks for no page past the
        # last it was shown; the next poll's probe of the full page 3 finds post 46.
        assert good["ok"] and good["error"] is None and len(good["poll"]["new"]) == 45
        assert any(e["kind"] == "deadline" and e["status"] == "locked" for e in good["events"])
        assert "ERROR review a-broken failed: game 'a-broken' has no players yet" in err
        assert "internal error" not in err

        # Text: one line a game, the broken one saying why.
        code, out, err = run(capsys, monkeypatch, tmp_path, "run", "--once", "--delay", "0")
        assert code == 0, err
        lines = out.splitlines()
        assert len(lines) == 2
        assert lines[0].startswith("a-broken: 0 new, 0 changed, 0 vanished post(s); not "
                                   "reviewed: game 'a-broken' has no players yet")
        assert lines[1].startswith("thread-b: 1 new, 0 changed, 0 vanished post(s); ")  # 46


def test_exit_status_is_1_only_when_every_game_failed(capsys, monkeypatch, tmp_path) -> None:
    with running_forum() as server:
        url = server.serve_thread("smf", thread_files("smf"))
        for game in ("g1", "g2"):
            assert run(capsys, monkeypatch, tmp_path, "fetch", url, "--game", game,
                       "--delay", "0")[0] == 0
        server.pages.pop(next(k for k in server.pages if k.endswith(page_path("smf", 2, 5))))
        code, out, err = run(capsys, monkeypatch, tmp_path, "--json", "run", "--once",
                             "--delay", "0")
    assert code == 1
    games = json.loads(out)["games"]
    assert [g["game"] for g in games] == ["g1", "g2"]
    assert all("has no players yet" in g["error"] for g in games)
    assert all("404" in g["poll_error"] or "not found" in g["poll_error"].lower() for g in games)
    assert err.splitlines()[-1] == "error: none of the 2 game(s) could be handled; see each " \
        "game's error"
    assert "internal error" not in err


def test_run_help_says_when_the_exit_status_is_not_zero(capsys) -> None:
    try:
        main(["run", "--help"])
    except SystemExit:
        pass
    out = " ".join(capsys.readouterr().out.split())
    assert "exit status is 1 only when no game could be handled" in out
