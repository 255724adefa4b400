"""The engine replays the GM's facts whatever order they were entered in, through the CLI.

A death is a fact about the game, not about the setup: a player recorded dead with
`assistant kill` before the GM entered `assistant roles` (or before a corrected setup)
is dead to the engine too, so orders naming them are refused and the win checks count
the living as they are.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from cli_support import call

from assistant.store import GameStore

T0 = datetime(2026, 11, 24, 18, 0, tzinfo=UTC)

# mafiascum: two town power roles, two vanilla townies, one goon.
SETUP = """seed = 5
players = [
  { name = "Ann", role = "cop" }, { name = "Ben", role = "townie" },
  { name = "Jon", role = "townie" }, { name = "Doc", role = "doctor" },
  { name = "Kim", role = "goon" },
]
"""


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A mafiascum game with its players (as `game new` leaves it) and no setup yet."""
    monkeypatch.setenv("ASSISTANT_NOW", T0.isoformat())
    with GameStore.open(tmp_path, "g") as store:
        store.update_config(ruleset="mafiascum", gms=["Host"], tz="UTC")
        store.add_input(
            "players", {"players": [[n] for n in ("Ann", "Ben", "Jon", "Doc", "Kim")]}, T0
        )
    (tmp_path / "setup.toml").write_text(SETUP, encoding="utf-8")
    return tmp_path


def roles(capsys: pytest.CaptureFixture[str], data: Path) -> None:
    code, out, err = call(capsys, data, "roles", "g", "--file", str(data / "setup.toml"))
    assert code == 0, err


def test_a_death_entered_before_the_setup_counts_for_orders_and_the_win(data: Path, capsys):
    code, out, _ = call(capsys, data, "kill", "g", "Ben", "--how", "modkill")
    assert (code, out) == (0, "Recorded: Ben dead (modkill) at Tue 24 Nov 2026 18:00 UTC.\n")
    code, out, _ = call(capsys, data, "kill", "g", "Doc", "--how", "lynch")
    assert code == 0
    roles(capsys, data)
    # The dead give no orders and cannot be targeted.
    code, _, err = call(capsys, data, "order", "g", "Doc: protect Ann")
    assert code == 1 and err == (
        "error: 'Doc: protect Ann': Doc is dead; the dead give no orders\n"
    )
    code, _, err = call(capsys, data, "order", "g", "Mafia: kill Ben by Kim")
    assert code == 1 and "Ben is dead; kill targets the living" in err
    # Night 1: the mafia kills Ann. With Ben and Doc dead, Jon and Kim are left: parity.
    assert call(capsys, data, "order", "g", "Mafia: kill Ann by Kim")[0] == 0
    code, out, _ = call(capsys, data, "resolve", "g")
    assert code == 0 and out.splitlines()[-1] == "deaths: Ann (nightkill)"
    code, out, _ = call(capsys, data, "draft", "dawn", "g", "--json")
    post = json.loads(out)["post"]
    assert "Ann has died. Ann was the Cop (Town)." in post
    assert "The Mafia have reached parity with the Town." in post
    assert "Victory: Mafia!" in post


def test_the_same_facts_entered_after_the_setup_give_the_same_dawn(
    data: Path, tmp_path_factory: pytest.TempPathFactory, capsys
):
    """The order of entry does not matter: kill-then-roles and roles-then-kill agree."""

    def night_one(where: Path) -> dict:
        call(capsys, where, "order", "g", "Mafia: kill Jon by Kim")
        assert call(capsys, where, "resolve", "g")[0] == 0
        return json.loads(call(capsys, where, "draft", "dawn", "g", "--json")[1])

    call(capsys, data, "kill", "g", "Ben", "--how", "modkill")
    call(capsys, data, "kill", "g", "Ann", "--how", "modkill")
    roles(capsys, data)
    before = night_one(data)

    other = tmp_path_factory.mktemp("after")
    with GameStore.open(other, "g") as store:
        store.update_config(ruleset="mafiascum", gms=["Host"], tz="UTC")
        store.add_input(
            "players", {"players": [[n] for n in ("Ann", "Ben", "Jon", "Doc", "Kim")]}, T0
        )
    (other / "setup.toml").write_text(SETUP, encoding="utf-8")
    roles(capsys, other)
    call(capsys, other, "kill", "g", "Ben", "--how", "modkill")
    call(capsys, other, "kill", "g", "Ann", "--how", "modkill")
    assert night_one(other) == before
    # Doc and Kim are left: parity, whichever way round the GM typed it.
    assert "Victory: Mafia!" in before["post"]


def test_a_corrected_setup_keeps_the_deaths_and_orders_entered_before_it(data: Path, capsys):
    roles(capsys, data)
    call(capsys, data, "kill", "g", "Ben", "--how", "modkill")
    assert call(capsys, data, "order", "g", "Mafia: kill Ann by Kim")[0] == 0
    # The GM fixes the setup (Jon is the doctor, not a townie) after those facts.
    (data / "setup.toml").write_text(
        SETUP.replace('"Jon", role = "townie"', '"Jon", role = "doctor"'), encoding="utf-8"
    )
    roles(capsys, data)
    code, out, _ = call(capsys, data, "resolve", "g", "--dry-run")
    assert code == 0 and out.splitlines() == [
        "night 1: dry run (nothing stored)",
        "[kill] Kim (mafia): kill Ann: kills Ann",
        "[kill] Ann: dies (Kim (mafia): kill Ann)",
        "deaths: Ann (nightkill)",
    ]
    code, _, err = call(capsys, data, "order", "g", "Mafia: kill Ben by Kim")
    assert code == 1 and "Ben is dead; kill targets the living" in err
    # The corrected role is the one that acts.
    assert call(capsys, data, "order", "g", "Jon: protect Ann")[0] == 0
    code, out, _ = call(capsys, data, "resolve", "g", "--dry-run")
    assert out.splitlines()[-1] == "deaths: none"
