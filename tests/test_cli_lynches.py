"""`assistant game lynches`: 003's lynches for a day when the engine does not know them.

Seed 003: "The available number of lynches is equal to the number of Town players who
died during the preceding Night, not to exceed 3." A GM who resolves nights by hand (no
`assistant roles` setup) enters the number; the count then applies the 34 % rule to it.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

from cli_support import call
from conftest import SEEDS
from realthreads import PLAYERS_A, thread_posts

from assistant.store import GameStore


def _game(tmp_path, capsys, ruleset: str) -> None:
    players = tmp_path / "players.txt"
    players.write_text("\n".join(PLAYERS_A) + "\n", encoding="utf-8")
    code, _, err = call(capsys, tmp_path, "game", "new", "g", "--ruleset", ruleset,
                        "--thread", "http://127.0.0.1:8021/index.php?topic=2.0",
                        "--players", str(players), "--gm", "Host Mira")
    assert code == 0, err
    with GameStore.open(tmp_path, "g", create=False) as store:
        store.record_posts(thread_posts("smf21"), datetime(2026, 11, 22, 12, tzinfo=UTC))
    code, _, err = call(capsys, tmp_path, "phase", "g", "day", "2", "--start-post", "2",
                        "--ends", "2026-11-23T15:00")
    assert code == 0, err


def test_the_gms_number_of_lynches_is_used_by_the_count(tmp_path, capsys) -> None:
    seed = (SEEDS / "003_020ef07b047f4cc1.txt").read_text(encoding="utf-8")
    assert "The available number of lynches is equal to the number of Town players" in seed
    _game(tmp_path, capsys, "three-factions")
    code, out, _ = call(capsys, tmp_path, "count", "g", "--json")
    assert code == 0 and "lynches available" not in json.loads(out)["outcome"]["reason"]
    code, out, err = call(capsys, tmp_path, "game", "lynches", "g", "--day", "2",
                          "--available", "2")
    assert code == 0 and out.strip() == "Recorded: Day 2 has 2 lynches.", err
    code, out, _ = call(capsys, tmp_path, "count", "g", "--json")
    reason = json.loads(out)["outcome"]["reason"]
    # Thread A under 003: Conia and Lady Grey tie at 1; the second has 1 of 9 (11 %).
    assert "2 lynches available today" in reason
    assert "second with 1 of 9 (11%, not over 34%): not lynched" in reason


def test_lynches_are_refused_where_they_mean_nothing(tmp_path, capsys) -> None:
    _game(tmp_path, capsys, "three-factions")
    code, _, err = call(capsys, tmp_path, "game", "lynches", "g", "--day", "2", "--available", "4")
    assert code == 1 and "between 1 and 3" in err and "Traceback" not in err
    other = tmp_path / "other"
    other.mkdir()
    _game(other, capsys, "mafiascum")
    code, _, err = call(capsys, other, "game", "lynches", "g", "--day", "2", "--available", "2")
    assert code == 1 and "one lynch a day" in err
