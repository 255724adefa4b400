"""000 (paranormal): "Nights will last for 24 hours or until I've heard from each player
with a night role." The GM enters the setup and the orders with the real commands; the
night's deadline follows them, and the daemon handles the early end once."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from assistant.cli import main
from assistant.clock import FakeClock
from assistant.daemon import Daemon

SETUP = """
seed = 3
players = [
  { name = "Alice", role = "agent", side = "town" },
  { name = "Bob", role = "psychic-warden", side = "town" },
  { name = "Carol", role = "doppelganger-leader" }, { name = "Dave", role = "doppelganger" },
  { name = "Eve", side = "town" }, { name = "Fay", side = "town" },
]
"""
NIGHT_STARTS = "2026-11-21T23:00:00+00:00"  # Sat 18:00 EST


def cli(capsys, monkeypatch, data_dir: Path, now: str, *args: str) -> str:
    monkeypatch.setenv("ASSISTANT_NOW", now)
    monkeypatch.setenv("ASSISTANT_DATA_DIR", str(data_dir))
    try:
        main(list(args))
    except SystemExit as e:
        out, err = capsys.readouterr()
        raise AssertionError(f"`assistant {' '.join(args)}` exited {e.code}: {err}") from None
    return capsys.readouterr().out


@pytest.fixture
def night_game(tmp_path, capsys, monkeypatch) -> Path:
    # Fay: with Bob modkilled the humans still outnumber the doppelgangers (the game goes on).
    (tmp_path / "players.txt").write_text("Alice\nBob\nCarol\nDave\nEve\nFay\n",
                                          encoding="utf-8")
    (tmp_path / "setup.toml").write_text(SETUP, encoding="utf-8")
    data = tmp_path / "data"
    at = "2026-11-21T22:00:00+00:00"
    cli(capsys, monkeypatch, data, at, "game", "new", "g", "--thread",
        "http://127.0.0.1:9/index.php?topic=1.0", "--ruleset", "paranormal", "--players",
        str(tmp_path / "players.txt"), "--gm", "Host", "--tz", "America/New_York")
    cli(capsys, monkeypatch, data, at, "roles", "g", "--file", str(tmp_path / "setup.toml"))
    out = cli(capsys, monkeypatch, data, NIGHT_STARTS, "phase", "g", "night", "1")
    assert "Deadline: Sun 22 Nov 2026 18:00 EST" in out  # 24 h by default
    assert "waiting for Alice, Bob, the doppelgangers side's order" in out
    return data


def phase_json(capsys, monkeypatch, data: Path, now: str) -> dict:
    return json.loads(cli(capsys, monkeypatch, data, now, "--json", "phase", "g"))


def test_the_night_ends_when_the_last_night_role_sends_orders(
    night_game, capsys, monkeypatch
) -> None:
    data = night_game
    cli(capsys, monkeypatch, data, "2026-11-22T00:00:00+00:00", "order", "g",
        "Alice: investigate Carol")
    cli(capsys, monkeypatch, data, "2026-11-22T01:00:00+00:00", "order", "g",
        "Doppelgangers: kill Eve")
    state = phase_json(capsys, monkeypatch, data, "2026-11-22T01:30:00+00:00")
    assert state["deadline"] == "2026-11-22T23:00:00+00:00"  # Bob's order is still owed
    assert state["orders"]["missing"] == ["Bob"]
    assert state["orders"]["owed"] == ["Alice", "Bob", "side:doppelgangers"]

    cli(capsys, monkeypatch, data, "2026-11-22T02:00:00+00:00", "order", "g", "Bob: foil Carol")
    state = phase_json(capsys, monkeypatch, data, "2026-11-22T02:10:00+00:00")
    assert state["deadline"] == "2026-11-22T02:00:00+00:00"
    assert state["why"] == "every night role has sent orders: the night ends"
    assert state["orders"] == {"owed": ["Alice", "Bob", "side:doppelgangers"], "missing": [],
                               "all_in_at": "2026-11-22T02:00:00+00:00"}
    out = cli(capsys, monkeypatch, data, "2026-11-22T02:10:00+00:00", "phase", "g")
    assert "Deadline: Sat 21 Nov 2026 21:00 EST (ended)" in out and "all 3 in" in out

    # The daemon (no forum here: the poll fails, the review still runs) ends the night once.
    clock = FakeClock(datetime(2026, 11, 22, 2, 10, tzinfo=UTC))
    daemon = Daemon(data, clock, lambda: pytest.fail("the test calls review, not poll"))
    report = daemon.review_report("g")
    ends = [e for e in report.handled if e.kind == "deadline"]
    assert [(e.key, e.status, e.at) for e in ends] == [
        ("night1:deadline", "ended", datetime(2026, 11, 22, 2, 0, tzinfo=UTC))
    ]
    text = ends[0].file.read_text(encoding="utf-8")
    assert text.startswith("Night 1 ended Sat 21 Nov 2026 21:00 EST (every night role")
    assert "assistant resolve g --night 1" in text
    clock.advance(600)
    assert daemon.review_report("g").handled == ()  # handled once, not again


def test_a_dead_night_role_is_not_waited_for(night_game, capsys, monkeypatch) -> None:
    """Bob is modkilled before sending his order: the night ends at his death, the moment
    nobody owes an order any more, not at the earlier orders."""
    data = night_game
    cli(capsys, monkeypatch, data, "2026-11-22T00:00:00+00:00", "order", "g",
        "Alice: investigate Carol")
    cli(capsys, monkeypatch, data, "2026-11-22T01:00:00+00:00", "order", "g",
        "Doppelgangers: kill Eve")
    cli(capsys, monkeypatch, data, "2026-11-22T03:00:00+00:00", "kill", "g", "Bob", "--how",
        "modkill")
    state = phase_json(capsys, monkeypatch, data, "2026-11-22T03:05:00+00:00")
    assert state["orders"]["owed"] == ["Alice", "side:doppelgangers"]
    assert state["deadline"] == "2026-11-22T03:00:00+00:00"


def test_orders_for_another_night_do_not_count(
    night_game, capsys, monkeypatch
) -> None:
    data = night_game
    for text in ("Alice: investigate Carol", "Bob: foil Carol", "Doppelgangers: kill Eve"):
        cli(capsys, monkeypatch, data, "2026-11-22T00:00:00+00:00", "order", "g", "--night",
            "2", text)
    state = phase_json(capsys, monkeypatch, data, "2026-11-22T01:00:00+00:00")
    assert state["deadline"] == "2026-11-22T23:00:00+00:00"
    assert len(state["orders"]["missing"]) == 3


def test_without_a_setup_the_phase_says_how_to_end_nights_by_orders(
    tmp_path, capsys, monkeypatch
) -> None:
    (tmp_path / "players.txt").write_text("Alice\nBob\n", encoding="utf-8")
    data = tmp_path / "data"
    cli(capsys, monkeypatch, data, NIGHT_STARTS, "game", "new", "g", "--thread",
        "http://127.0.0.1:9/index.php?topic=1.0", "--ruleset", "paranormal", "--players",
        str(tmp_path / "players.txt"), "--gm", "Host")
    out = cli(capsys, monkeypatch, data, NIGHT_STARTS, "phase", "g", "night", "1")
    assert "no setup entered, so the night runs to its deadline" in out
    assert "`assistant roles g --file setup.toml`" in out
