"""`assistant phase`, `kill`, `alerts` and `run --once` as a GM types them."""

from __future__ import annotations

import json
import re

import feedparser
import pytest
import thread_b_support as tb
from cli_support import run_at as run

from assistant.store import GameStore


@pytest.fixture
def game_dir(tmp_path):
    store = GameStore.open(tmp_path, "g")
    store.update_config(ruleset="three-factions", gms=[tb.GM], tz="America/New_York")
    store.add_input("players", {"players": [["Conia"], ["Jd-", "Jd"], ["Kat"]]}, tb.SAVED_AT)
    store.close()
    return tmp_path


def test_phase_start_uses_the_fixed_schedule_and_game_zone(capsys, monkeypatch, game_dir) -> None:
    code, out, _ = run(
        capsys, monkeypatch, game_dir, "2026-10-27T19:00:00+00:00", "phase", "g", "day", "1"
    )
    assert code == 0
    assert "Day 1 started Tue 27 Oct 2026 15:00 EDT" in out
    assert "Deadline: Sun 1 Nov 2026 15:00 EST" in out and "fixed deadline" in out
    code, out, _ = run(
        capsys, monkeypatch, game_dir, "2026-10-29T12:00:00+00:00", "--json", "phase", "g"
    )
    data = json.loads(out)
    assert data["deadline"] == "2026-11-01T20:00:00+00:00" and data["phase"] == "Day 1"
    # 003's days cannot be shortened: one line, no traceback, nothing stored.
    code, _, err = run(
        capsys,
        monkeypatch,
        game_dir,
        "2026-10-29T12:00:00+00:00",
        "phase",
        "g",
        "--shorten-to",
        "Friday 15:00",
    )
    assert code == 1 and err.startswith("error: Day 1: this ruleset's phase lengths are fixed")
    assert "Traceback" not in err
    with GameStore.open(game_dir, "g") as store:
        assert store.inputs("phase_adjust") == []


def test_phase_extensions_under_002(capsys, monkeypatch, tmp_path) -> None:
    store = tb.new_store(tmp_path, "smf21")
    store.close()
    now = "2026-11-22T11:30:00+00:00"
    code, out, _ = run(capsys, monkeypatch, tmp_path, now, "phase", "thread-b", "day", "3")
    assert "Deadline: Sun 22 Nov 2026 11:50 UTC (in 20 min)" in out
    code, out, _ = run(capsys, monkeypatch, tmp_path, now, "phase", "thread-b", "--extend", "10m")
    assert code == 0 and "12:00 UTC" in out and "extended by 10 min" in out
    code, _, err = run(capsys, monkeypatch, tmp_path, now, "phase", "thread-b", "--extend", "5m")
    assert code == 1 and "the 1 allowed were used" in err


def test_kill_records_a_death_the_count_reads(capsys, monkeypatch, game_dir) -> None:
    code, out, _ = run(
        capsys,
        monkeypatch,
        game_dir,
        "2026-10-28T12:00:00+00:00",
        "kill",
        "g",
        "jd",
        "--at-post",
        "412",
        "--how",
        "modkill",
    )
    assert code == 0 and out.strip() == "Recorded: Jd- dead (modkill) after post #412."
    from assistant.monitor import load_game

    with GameStore.open(game_dir, "g") as store:
        game = load_game(store)
    assert game.death_of("Jd-").at_post == 412
    assert game.is_alive("Jd-", post_id=412) and not game.is_alive("Jd-", post_id=413)
    code, _, err = run(
        capsys, monkeypatch, game_dir, "2026-10-28T12:00:00+00:00", "kill", "g", "Bob"
    )
    assert code == 1 and "'Bob' matches no player" in err
    code, _, err = run(
        capsys, monkeypatch, game_dir, "2026-10-28T12:00:00+00:00", "kill", "g", "Jd-"
    )
    assert code == 1 and "already recorded as dead" in err


def test_kill_refuses_the_dead_but_not_a_player_the_engine_revived(
    capsys, monkeypatch, tmp_path
) -> None:
    """002's Priest revives Eve (a "revive" fact written by `resolve`): she is alive again and
    can be killed again; while dead (and at a moment before the revival) she cannot."""
    store = GameStore.open(tmp_path, "g")
    store.update_config(ruleset="chat-mafia", gms=[tb.GM], tz="UTC")
    store.add_input("players", {"players": [["Pia"], ["Eve"], ["Max"], ["Tom"]]}, tb.SAVED_AT)
    store.close()
    (tmp_path / "setup.toml").write_text(
        'seed = 1\nplayers = [{ name = "Pia", role = "priest", side = "town" },\n'
        '  { name = "Eve", side = "town" }, { name = "Max", role = "godfather" },\n'
        '  { name = "Tom", side = "town" }]\n',
        encoding="utf-8",
    )

    def at(now: str, *args: str) -> tuple[int, str, str]:
        return run(capsys, monkeypatch, tmp_path, now, *args)

    assert (
        at("2026-11-20T12:00:00+00:00", "roles", "g", "--file", str(tmp_path / "setup.toml"))[0]
        == 0
    )
    code, out, _ = at("2026-11-20T18:00:00+00:00", "kill", "g", "Eve", "--how", "lynch")
    assert code == 0 and out.startswith("Recorded: Eve dead (lynch)")
    code, _, err = at("2026-11-21T09:00:00+00:00", "kill", "g", "Eve", "--how", "modkill")
    assert code == 1 and err == (
        "error: Eve is already recorded as dead (lynch) at that moment; only a living "
        "(or revived) player can be killed\n"
    )
    assert at("2026-11-21T10:00:00+00:00", "order", "g", "Pia: revive Eve", "--day", "2")[0] == 0
    code, out, _ = at("2026-11-21T10:05:00+00:00", "--json", "resolve", "g", "--day", "2")
    assert code == 0 and json.loads(out)["revived"] == ["Eve"]
    # Alive again from the revival: the CLI kills her; a moment before it, she was dead.
    code, _, err = at(
        "2026-11-21T11:00:00+00:00", "kill", "g", "Eve", "--at", "2026-11-21T10:00:00+00:00"
    )
    assert code == 1 and "already recorded as dead (lynch)" in err
    code, out, _ = at("2026-11-21T20:00:00+00:00", "kill", "g", "Eve", "--how", "nightkill")
    assert code == 0 and out.startswith("Recorded: Eve dead (nightkill)")
    from assistant.monitor import load_game

    with GameStore.open(tmp_path, "g") as store:
        game = load_game(store)
    assert not game.is_alive("Eve")
    assert [d.how for d in game.deaths if d.player == "Eve"] == ["lynch", "nightkill"]
    code, _, err = at("2026-11-21T21:00:00+00:00", "kill", "g", "Eve")
    assert code == 1 and "already recorded as dead (nightkill)" in err


def test_alerts_check_ack_and_feed(capsys, monkeypatch, tmp_path) -> None:
    store = tb.new_store(tmp_path, "phpbb33")
    store.record_posts(tb.final_posts("phpbb33"), tb.SAVED_AT)
    store.close()
    now = "2026-11-22T12:05:00+00:00"
    code, out, _ = run(
        capsys,
        monkeypatch,
        tmp_path,
        now,
        "--json",
        "alerts",
        "thread-b",
        "--check",
        "--rule",
        "pm_copy=violation",
    )
    data = json.loads(out)
    kinds = {(a["post_id"], a["kind"]) for a in data["alerts"]}
    assert (128, "role_pm_copy") in kinds and (131, "dead_player_post") in kinds
    copy = next(a for a in data["alerts"] if a["kind"] == "role_pm_copy")
    assert copy["severity"] == "violation"
    code, out, _ = run(
        capsys,
        monkeypatch,
        tmp_path,
        now,
        "alerts",
        "thread-b",
        "--ack",
        copy["id"],
        "--note",
        "warned",
    )
    # Confirmed in one line; no longer among the open alerts listed after it.
    assert out.startswith(f"Acknowledged {copy['id']} (role_pm_copy).\n")
    assert out.count(copy["id"]) == 1
    code, out, _ = run(capsys, monkeypatch, tmp_path, now, "alerts", "thread-b", "--all")
    assert f"{copy['id']}  violation role_pm_copy [acked]" in out
    feed = feedparser.parse(data["feed"])
    assert not feed.bozo and len(feed.entries) == len(data["alerts"])
    code, _, err = run(
        capsys, monkeypatch, tmp_path, now, "alerts", "thread-b", "--rule", "edit=loud"
    )
    assert code == 1 and "use none, info, warning, violation" in err


def test_run_without_games_says_what_to_do(capsys, monkeypatch, tmp_path) -> None:
    code, _, err = run(capsys, monkeypatch, tmp_path, "2026-11-22T12:00:00+00:00", "run", "--once")
    assert code == 1 and "assistant fetch URL --game NAME" in err


def test_run_once_logs_the_assistants_clock_and_json_is_one_document(
    capsys, monkeypatch, tmp_path
) -> None:
    """Under a faked clock (ASSISTANT_NOW, as `assistant demo` runs) each log line carries
    that moment, one line per event; --json prints one document on stdout."""
    from daemon_support import LIVE, serve, setup_store, snapshots, thread_url
    from forum_server import running_forum

    with running_forum() as server:
        snaps = snapshots("phpbb33")
        serve(server, "phpbb33", snaps[-1], snaps)
        setup_store(tmp_path, "phpbb33", thread_url(server, "phpbb33"))
        assert LIVE.is_dir()
        code, out, err = run(
            capsys,
            monkeypatch,
            tmp_path,
            "2026-11-22T11:30:00+00:00",
            "--json",
            "run",
            "--once",
            "--delay",
            "0",
        )
    assert code == 0, err
    data = json.loads(out)
    (game,) = data["games"]
    # 45: the served page 3 is the one saved before post 46 started page 4, and a first read
    # asks for no page past the last it was shown (the next poll's probe finds page 4).
    assert game["game"] == "thread-b" and len(game["poll"]["new"]) == 45
    assert game["new_alerts"] and all(a["id"] for a in game["new_alerts"])
    assert any(e["kind"] == "deadline" and e["status"] == "locked" for e in game["events"])
    lines = err.splitlines()
    assert lines and all(line.startswith("2026-11-22 11:30:00 UTC ") for line in lines), lines
    assert any(" INFO poll thread-b: 45 new" in line for line in lines)
    assert any(" INFO deadline thread-b Day 2 at Sun 22 Nov 2026 11:2" in line for line in lines)


def test_alerts_read_in_the_games_zone_and_a_bad_ack_changes_nothing(
    capsys, monkeypatch, tmp_path
) -> None:
    store = tb.new_store(tmp_path, "phpbb33")
    store.update_config(tz="America/New_York")
    store.record_posts(tb.final_posts("phpbb33"), tb.SAVED_AT)
    store.close()
    now = "2026-11-22T12:05:00+00:00"
    code, out, _ = run(capsys, monkeypatch, tmp_path, now, "alerts", "thread-b")
    assert code == 0 and "No open alerts." in out
    assert "`assistant alerts thread-b --check`" in out  # the checks never ran: say how
    code, out, _ = run(capsys, monkeypatch, tmp_path, now, "alerts", "thread-b", "--check")
    first = out.splitlines()[0]
    assert re.fullmatch(r"[0-9a-f]{10}  \w+ +\w+  Sun 22 Nov 2026 06:\d\d EST", first), first
    assert "+00:00" not in out
    ids = [line.split()[0] for line in out.splitlines() if re.match(r"[0-9a-f]{10}  ", line)]
    # One good id and one unknown: an error, and the good one is not acknowledged either.
    code, _, err = run(
        capsys, monkeypatch, tmp_path, now, "alerts", "thread-b", "--ack", ids[0], "--ack", "ffff"
    )
    assert code == 1 and "no alert 'ffff'" in err
    with GameStore.open(tmp_path, "thread-b") as store:
        records = store.alert_records()[0]
        assert records and all(d["acked_at"] is None for d in records)
    code, out, _ = run(
        capsys, monkeypatch, tmp_path, now, "--json", "alerts", "thread-b", "--ack", ids[0]
    )
    data = json.loads(out)
    assert data["acknowledged"] == [ids[0]]
    feed = feedparser.parse(data["feed"])
    acked = next(e for e in feed.entries if e.id.endswith(ids[0]))
    assert "Acknowledged Sun 22 Nov 2026 07:05 EST" in acked.content[0].value


def test_kill_and_phase_speak_the_games_time(capsys, monkeypatch, game_dir) -> None:
    now = "2026-10-28T12:00:00+00:00"
    code, out, _ = run(
        capsys, monkeypatch, game_dir, now, "kill", "g", "Kat", "--at", "2026-10-28T07:30"
    )
    assert code == 0 and out.strip() == "Recorded: Kat dead (other) at Wed 28 Oct 2026 07:30 EDT."
    run(capsys, monkeypatch, game_dir, now, "phase", "g", "day", "1")
    code, out, _ = run(capsys, monkeypatch, game_dir, now, "--json", "phase", "g")
    data = json.loads(out)
    assert data["deadline"] == "2026-11-01T20:00:00+00:00"
    assert (data["deadline_local"], data["time_zone"]) == (
        "Sun 1 Nov 2026 15:00 EST",
        "America/New_York",
    )


def test_phase_at_a_start_post_not_yet_fetched_says_it_starts_now(tmp_path, capsys) -> None:
    from assistant.cli import main

    players = tmp_path / "players.txt"
    players.write_text("Kat\nConia\nJd-\n", encoding="utf-8")
    base = ["--data-dir", str(tmp_path)]
    main([*base, "game", "new", "p", "--thread", "https://forum.example.org/index.php?topic=2.0",
          "--ruleset", "paranormal", "--players", str(players)])
    capsys.readouterr()
    main([*base, "phase", "p", "day", "1", "--start-post", "2"])
    err = capsys.readouterr().err
    assert "post #2 is not stored yet" in err and "--starts" in err
