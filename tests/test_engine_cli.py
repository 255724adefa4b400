"""`roles`, `order`, `resolve --dry-run`, `draft dawn`, `draft pms` through assistant.cli.main."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from assistant.cli import main
from assistant.engine.orders import parse_order
from assistant.engine.resolver import resolve_phase
from assistant.engine.rules import load_engine_rules
from assistant.engine.setup import PlayerSetup, Setup
from assistant.engine.state import GameState
from assistant.rulesets import find_ruleset
from assistant.store import GameStore

SETUP = """seed = 2
players = [
  { name = "Alice", role = "doctor" }, { name = "Bob", role = "investigator" },
  { name = "Carol", role = "godfather" }, { name = "Dan", role = "roleblocker" },
  { name = "Eve", side = "town" }, { name = "Finn", role = "doublevoter", side = "town" },
]
"""


def call(capsys: pytest.CaptureFixture[str], data: Path, *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = 0
    try:
        main(["--data-dir", str(data), *args])
    except SystemExit as e:
        code = int(e.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def data(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    (tmp_path / "setup.toml").write_text(SETUP, encoding="utf-8")
    code, out, _ = call(
        capsys,
        tmp_path,
        "roles",
        "g",
        "--file",
        str(tmp_path / "setup.toml"),
        "--ruleset",
        "chat-mafia",
    )
    assert code == 0 and out.splitlines()[0] == "setup of g stored (6 players, seed 2):"
    return tmp_path


def test_dry_run_prints_the_steps_and_stores_nothing(data: Path, capsys):
    for line in ("Alice: protect Eve", "Mafia: kill Eve", "Dan: block Alice", "Bob: check Carol"):
        assert call(capsys, data, "order", "g", line)[0] == 0
    with GameStore.open(data, "g") as store:
        before = len(store.inputs())
    code, out, _ = call(capsys, data, "resolve", "g", "--night", "1", "--dry-run")
    assert code == 0
    assert out.splitlines() == [
        "night 1: dry run (nothing stored)",
        "[roleblocks] Dan: block Alice: roleblocks Alice",
        "[investigations] Bob: investigate Carol: result: Town",
        "[protections] Alice: protect Eve: fails (Alice is roleblocked)",
        "[nightkills] Carol (mafia): kill Eve: kills Eve",
        "[nightkills] Eve: dies (Carol (mafia): kill Eve)",
        "deaths: Eve (nightkill)",
    ]
    with GameStore.open(data, "g") as store:
        assert len(store.inputs()) == before
    code, out, _ = call(capsys, data, "draft", "dawn", "g", "--night", "1")
    assert out.startswith(
        "(preview: night 1 is not resolved yet)\nDawn breaks after Night 1.\nEve was found dead.\n"
    )


def test_resolve_json_then_drafts_and_no_second_resolution(data: Path, capsys):
    call(capsys, data, "order", "g", "Mafia: kill Eve")
    code, out, _ = call(capsys, data, "resolve", "g", "--json")
    doc = json.loads(out)
    assert (doc["phase"], doc["number"], doc["stored"]) == ("night", 1, True)
    assert doc["deaths"] == [
        {
            "player": "Eve",
            "how": "nightkill",
            "cause": "Carol (mafia): kill Eve",
            "killers": ["Carol", "Dan"],
        }
    ]
    code, out, _ = call(capsys, data, "draft", "pms", "g", "--json")
    assert json.loads(out) == {
        "Carol": "To: Carol\nSubject: Turtle's Chat Mafia: results of Night 1\n\n"
        "Eve, whom you killed, was Vanilla (Town).\n",
        "Dan": "To: Dan\nSubject: Turtle's Chat Mafia: results of Night 1\n\n"
        "Eve, whom you killed, was Vanilla (Town).\n",
    }
    code, _, err = call(capsys, data, "resolve", "g", "--night", "1")
    assert code == 1 and err == (
        "error: night 1 of g is already resolved; see it with "
        "`assistant draft dawn g` / `assistant draft pms g`\n"
    )
    code, _, err = call(capsys, data, "order", "g", "Alice: protect Eve", "--night", "1")
    assert code == 1 and "already resolved" in err


def test_errors_are_one_line(tmp_path: Path, data: Path, capsys):
    code, _, err = call(capsys, data, "order", "g", "Alice protect Eve")
    assert code == 1 and err.startswith("error: 'Alice protect Eve' is not an order")
    code, _, err = call(capsys, data, "draft", "dawn", "g")
    assert code == 1 and "no night of g is resolved yet" in err
    (tmp_path / "bad.toml").write_text(
        'players = [{ name = "X", role = "wizard", side = "town" }]\n'
    )
    code, _, err = call(
        capsys, data, "roles", "h", "--file", str(tmp_path / "bad.toml"), "--ruleset", "002"
    )
    assert code == 1 and "X's role 'wizard' is not a role of chat-mafia" in err
    code, _, err = call(capsys, data, "roles", "h", "--file", str(tmp_path / "bad.toml"))
    # Without --ruleset an unknown game is not created (a typo must not start a game).
    assert code == 1 and "no game called 'h'" in err
    assert "Traceback" not in err


def test_thirty_orders_resolve_in_milliseconds():
    """A night of 30 orders (the acceptance asks for milliseconds); timed over 20 runs."""
    rules = load_engine_rules(find_ruleset("chat-mafia"))
    roles = [
        "doctor",
        "investigator",
        "vigilante",
        "jailkeeper",
        "monk",
        "redirector",
        "oracle",
        "witch",
        "cupid",
        "time-mage",
        "roleblocker",
        "forger",
        "strongman",
        "thief",
    ]
    players = [
        PlayerSetup(
            f"P{i:02}", rules.role(r).sides[0] if len(rules.role(r).sides) == 1 else "town", r
        )
        for i, r in enumerate(roles)
    ]
    players += [PlayerSetup(f"P{i:02}", "mafia" if i % 4 == 0 else "town") for i in range(14, 40)]
    state = GameState.from_setup(rules, Setup(tuple(players), 1))
    texts = [
        "P00: protect P20",
        "P01: investigate P14",
        "P02: kill P16",
        "P03: jail P21",
        "P04: hamedo",
        "P05: redirect P22 and P23",
        "P06: divine P24",
        "P07: silence P25",
        "P08: arrow P26 and P27",
        "P09: hasten",
        "P10: block P01",
        "P11: investigate P01",
        "P12: strengthen",
        "P13: steal",
        "Mafia: kill P28 by P16",
    ]
    texts += [f"P00: protect P{30 + i % 10}" for i in range(15)]  # replaced orders count too
    orders = [parse_order(t, state, phase="night", number=1) for t in texts]
    assert len(orders) == 30
    start = time.perf_counter()
    for _ in range(20):
        result = resolve_phase(state, "night", 1, orders)
    per_night_ms = (time.perf_counter() - start) / 20 * 1000
    assert result.events and per_night_ms < 250, per_night_ms
