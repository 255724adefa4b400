"""The vote a Mind Control Ray takes (seed 000), through `assistant.cli.main` as a GM runs it:
the night's control leaves the next day's vote to the controller; the GM enters each of the
controller's choices (sent by PM) with `assistant vote`, and the controlled player's own red
votes in the thread (real post bodies of fixture thread A, as in test_gm_session_000) do not
count that day.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from tests.test_gm_session_000 import D1, Cli, Thread, quote, red_vote

PLAYERS = ["Ms", "Pw", "Ag", "Gus", "Dop", "Lea"]
SETUP = """seed = 5
players = [
  { name = "Ms", role = "cutting-edge-scientist", side = "town", items = ["ms-mind-control-ray"] },
  { name = "Pw", role = "psychic-warden", side = "town" },
  { name = "Ag", role = "agent", side = "town" },
  { name = "Gus", role = "townie" },
  { name = "Dop", role = "doppelganger" },
  { name = "Lea", role = "doppelganger-leader" },
]
"""


@pytest.fixture
def cli(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Cli:
    return Cli(tmp_path / "data", capsys, monkeypatch)


def test_the_mind_control_ray_takes_the_next_days_vote(cli: Cli, tmp_path: Path) -> None:
    cli.new_game(tmp_path, PLAYERS, SETUP)
    thread = Thread(cli.data)
    cli.text(D1, "phase", "pn", "day", "1")
    end1 = D1 + timedelta(hours=72, minutes=1)
    cli.text(end1, "phase", "pn", "night", "1")
    n1 = end1 + timedelta(hours=1)
    quote("The Ray also allows the Scientist to control that player's vote during the next day "
          "and may change it as often as he wishes.")
    cli.text(n1, "order", "pn", "Ms: control Pw and Dop")
    d2 = D1 + timedelta(hours=96)
    resolved = cli.text(d2, "resolve", "pn")
    assert ("Ms's Mind Control Ray: Ms chooses Pw's vote on Day 2, as often as they wish; enter "
            "each choice with `assistant vote GAME Pw NAME` (Pw's own votes that day do not "
            "count).") in resolved
    cli.text(d2, "phase", "pn", "day", "2")
    p = "phpbb33"
    thread.post(d2 + timedelta(hours=1), ("Pw", red_vote(p, "Gus")), ("Ag", red_vote(p, "Lea")),
                ("Gus", red_vote(p, "Lea")))
    # Ms's choices, sent to the GM by PM: first Dop, then (changed) Lea.
    cli.text(d2 + timedelta(hours=2), "vote", "pn", "Pw", "Dop")
    count = cli.json(d2 + timedelta(hours=3), "count", "pn")
    wagons = {w["target"]: w["effective"] for w in count["wagons"]}
    assert wagons == {"Lea": 2, "Dop": 1}
    cli.text(d2 + timedelta(hours=4), "vote", "pn", "Pw", "Lea")
    count = cli.json(d2 + timedelta(hours=5), "count", "pn")
    assert {w["target"]: w["effective"] for w in count["wagons"]} == {"Lea": 3}
    why = cli.text(d2 + timedelta(hours=5), "count", "pn", "--why", "Pw")
    assert ("not counted: Pw's vote today is Ms's to choose (Mind Control Ray); the GM enters "
            "it with `assistant vote GAME Pw NAME`") in why
    assert "counted: Pw's vote as Ms chose it (Mind Control Ray), sent to the GM by PM" in why
    # Another player's PM vote is still refused: 000 takes votes in red in the thread.
    err = cli.at((d2 + timedelta(hours=6)).isoformat(), "vote", "pn", "Ag", "Gus", ok=False)
    assert "does not take votes by PM" in err
    # The next day the vote is Pw's own again.
    cli.text(d2 + timedelta(hours=72, minutes=1), "phase", "pn", "night", "2")
    d3 = D1 + timedelta(hours=192)
    cli.text(d3 - timedelta(hours=1), "resolve", "pn")
    cli.text(d3, "phase", "pn", "day", "3")
    thread.post(d3 + timedelta(hours=1), ("Pw", red_vote(p, "Gus")))
    count = cli.json(d3 + timedelta(hours=2), "count", "pn")
    assert {w["target"]: w["effective"] for w in count["wagons"]} == {"Gus": 1}


MS_SETUP = """seed = 3
stockpile = { Mi = ["detective", "vigilante", "guardian"] }
role_points = { agent = 2 }
points_to_win = 2
players = [
  { name = "Mi", role = "mind-stealer", items = ["robot"] },
  { name = "Ag", role = "agent", side = "town" },
  { name = "Gus", role = "townie" },
  { name = "Dop", role = "doppelganger" },
  { name = "Lea", role = "doppelganger-leader" },
]
"""


def test_a_mind_stealer_night_through_the_command_line(cli: Cli, tmp_path: Path) -> None:
    quote("The Robot can use that role in addition to any actions the MS takes")
    cli.new_game(tmp_path, ["Mi", "Ag", "Gus", "Dop", "Lea"], MS_SETUP, game="ms")
    cli.text(D1, "phase", "ms", "day", "1")
    cli.text(D1 + timedelta(hours=1), "order", "ms", "Mi: program vigilante", "--day", "1")
    end1 = D1 + timedelta(hours=72)
    cli.text(end1, "resolve", "ms", "--day", "1")
    cli.text(end1 + timedelta(minutes=1), "phase", "ms", "night", "1")
    n1 = end1 + timedelta(hours=1)
    cli.text(n1, "order", "ms", "Mi: robot kill Gus")
    cli.text(n1, "order", "ms", "Mi: abduct Ag")
    d2 = D1 + timedelta(hours=96)
    resolved = cli.text(d2, "resolve", "ms")
    assert "Mi has stolen 2 points worth of roles (2 needed) and wins." in resolved
    quote("The Mind Stealer wins if it has stolen enough points worth of Roles.")
    # Two doppelgangers against Mi and Ag: the doppelgangers win, and Mi with them.
    assert cli.text(d2, "draft", "dawn", "ms") == (
        "Night 1 is over.\nGus has died. Gus was a Townie (Town).\n\nThe game is over. "
        "Doppelgangers Win: they are as many as everyone else.\nWinners: Dop, Lea, Mi.\n"
    )
    pms = cli.json(d2, "draft", "pms", "ms")
    assert "You took Ag's role: Agent." in pms["Mi"]
    assert "Your role was taken from you. You are now: Townie." in pms["Ag"]
