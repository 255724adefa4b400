"""A whole small DCTP Live Mini Mafia (004) game through `assistant.cli.main`, as its GM runs it.

Votes arrive by PM ("To use an ability or vote, you must PM the order directly to the GM")
and the GM enters them with `assistant vote`; night and day orders go in with `assistant
order`, `resolve` settles them in the seed's order of actions, and the dawn, dusk and PM
drafts are what a GM pastes. Each rule checked quotes the seed sentence it comes from.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from cli_support import CliAt
from conftest import SEEDS

#: The game's name in PM subjects: it has no thread read, so its ruleset's title.
TITLE = "DCTP Live Mini Mafia (Detective Conan)"
PLAYERS = ["Abs", "Miaka", "Akonyl", "Pofa", "Jd-", "Lynz", "Conia", "Parkur"]
SETUP = """seed = 11
players = [
  { name = "Abs", role = "gin" }, { name = "Miaka", role = "pisco" },
  { name = "Akonyl", role = "shiratori" }, { name = "Pofa", role = "satou" },
  { name = "Jd-", role = "araide" }, { name = "Lynz", role = "ran" },
  { name = "Conia", role = "conan" }, { name = "Parkur", role = "camel" },
]
"""


def quote(sentence: str) -> None:
    """The rule checked next is the seed's own sentence."""
    text = " ".join(next(SEEDS.glob("004_*.txt")).read_text(encoding="utf-8").split())
    assert " ".join(sentence.split()) in text, sentence


class Cli(CliAt):
    def json(self, now: datetime, *args: str) -> dict:
        return json.loads(self.at(now.isoformat(), "--json", *args))

    def text(self, now: datetime, *args: str) -> str:
        return self.at(now.isoformat(), *args)


N1 = datetime(2026, 11, 24, 20, 0, tzinfo=UTC)


@pytest.fixture
def cli(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Cli:
    return Cli(tmp_path / "data", capsys, monkeypatch)


def test_a_whole_dctp_game(cli: Cli, tmp_path: Path) -> None:
    players = tmp_path / "players.txt"
    players.write_text("\n".join(PLAYERS) + "\n", encoding="utf-8")
    setup = tmp_path / "setup.toml"
    setup.write_text(SETUP, encoding="utf-8")
    before = N1 - timedelta(hours=1)
    cli.text(before, "game", "new", "dc", "--thread", "http://127.0.0.1:8021/index.php?topic=4.0",
             "--ruleset", "dctp-mini", "--players", str(players), "--gm", "Jd")  # fmt: skip
    roles = cli.text(before, "roles", "dc", "--file", str(setup))
    assert "Abs: Gin, Mafia Slanderer (Black Org)" in roles
    assert "Akonyl: Shiratori, Police Inspector (Town)" in roles

    # ---- Night 1 ----
    quote("If they do travel beginning in prep, they will be in the air on Night 1, thus making "
          "it so they cannot use their action during the night. If this path is chosen, they "
          "will arrive during Day 1")  # Night 1 comes first, then Day 1
    cli.text(N1, "phase", "dc", "night", "1")
    quote("To use an ability or vote, you must PM the order directly to the GM.")
    for order in ("Black Org: kill Parkur by Abs", "Jd-: heal Lynz", "Conia: interrogate Miaka",
                  "Akonyl: investigate Abs kills Parkur"):
        cli.text(N1 + timedelta(minutes=5), "order", "dc", order)
    d1 = N1 + timedelta(hours=12)
    log = cli.text(d1, "resolve", "dc")
    assert "[killing] Parkur: dies (Abs (black-org): kill Parkur)" in log
    assert cli.text(d1, "draft", "dawn", "dc") == (
        "Night 1 is over.\nParkur has died. Parkur was Camel, FBI Agent (Town).\n"
        "Day 1 begins.\n"
    )
    quote('Actions: conia kills Ctu. Xpon investigates conia. "Conia kills CTU" - True')
    quote('He\'ll get the result "BO" or "Not BO".')
    assert cli.json(d1, "draft", "pms", "dc") == {
        "Akonyl": f"To: Akonyl\nSubject: {TITLE}: results of Night 1\n\n"
                  '"Abs kills Parkur" - True\n',
        "Conia": f"To: Conia\nSubject: {TITLE}: results of Night 1\n\nInterrogation of Miaka: BO\n",
    }

    # ---- Day 1: votes by PM, an APTX before the lynch ----
    cli.text(d1, "phase", "dc", "day", "1", "--ends", (d1 + timedelta(hours=24)).isoformat())
    quote("Players may abstain from voting.")
    for i, (voter, target) in enumerate([("Abs", "Conia"), ("Miaka", "Conia"), ("Lynz", "Conia"),
                                         ("Akonyl", "Miaka"), ("Pofa", "Miaka"),
                                         ("Jd-", "Miaka"), ("Conia", "abstain")]):
        cli.text(d1 + timedelta(hours=1, minutes=i), "vote", "dc", voter, target)
    count = cli.json(d1 + timedelta(hours=3), "count", "dc")
    assert {w["target"]: w["effective"] for w in count["wagons"]} == {"Conia": 3, "Miaka": 3}
    quote("During each day any BO member may attempt to poison another player (BO or Townie) "
          "by sending a PM with that players name and identity to the GM.")
    cli.text(d1 + timedelta(hours=2), "order", "dc", "Miaka: aptx Jd- as Araide", "--day", "1")
    end1 = d1 + timedelta(hours=24, minutes=1)
    day1 = cli.text(end1, "resolve", "dc", "--day", "1")
    assert "[aptx] Miaka (black-org): aptx Jd- as Araide: kills Jd-" in day1
    quote("Succseful APTX: The target was that role (success).The BO will keep the ATPX. The "
          "actions and the votes of the victim doesn't count and the target dies.")
    count = cli.json(end1, "count", "dc")
    assert {w["target"]: w["effective"] for w in count["wagons"]} == {"Conia": 3, "Miaka": 2}
    assert count["outcome"]["lynched"] == ["Conia"]
    dusk1 = cli.text(end1, "draft", "dusk", "dc", "--confirm")
    assert dusk1.startswith(
        "Day 1 is over.\nJd- has died. Jd- was Araide, Doctor (Town).\n"
        "Conia has been lynched. Conia was Conan, Shrunken Meitantei (Town).\n"
    )

    # ---- Night 2: an arrest for the Night 1 murder ----
    cli.text(end1, "phase", "dc", "night", "2")
    quote('Needs to accuse a player for a specific crime during a specific past phase: "Arrest '
          'Akonyl for Killing Conia on Night 1"')
    for order in ("Black Org: kill Lynz by Miaka",
                  "Akonyl: arrest Abs for killing Parkur on Night 1",
                  "Pofa: investigate Miaka kills Lynz"):
        cli.text(end1 + timedelta(minutes=5), "order", "dc", order)
    d2 = end1 + timedelta(hours=12)
    log = cli.text(d2, "resolve", "dc")
    assert "[arrest] Akonyl: arrest Abs for killing Parkur on Night 1: arrests Abs" in log
    quote("An arrested person's identity remains secret.")
    assert cli.text(d2, "draft", "dawn", "dc") == (
        "Night 2 is over.\nLynz has died. Lynz was Ran, Protector (Town).\n"
        "Abs has been arrested.\nDay 2 begins.\n"
    )
    pms = cli.json(d2, "draft", "pms", "dc")
    assert pms["Akonyl"].endswith("\n\nYou arrested Abs.\n")
    assert pms["Pofa"].endswith('\n\n"Miaka kills Lynz" - True\n')

    # ---- Day 2: the arrested player's vote does not count; the last Black Org is lynched ----
    cli.text(d2, "phase", "dc", "day", "2", "--ends", (d2 + timedelta(hours=24)).isoformat())
    quote("They may speak and participate freely in the game, but they will remain unable to "
          "vote.")
    for i, (voter, target) in enumerate([("Akonyl", "Miaka"), ("Pofa", "Miaka"),
                                         ("Miaka", "Pofa"), ("Abs", "Pofa")]):
        cli.text(d2 + timedelta(hours=1, minutes=i), "vote", "dc", voter, target)
    cli.text(d2 + timedelta(hours=2), "order", "dc", "Miaka: aptx Akonyl as Megure", "--day", "2")
    end2 = d2 + timedelta(hours=24, minutes=1)
    cli.text(end2, "resolve", "dc", "--day", "2")
    quote("The BO will get a message that the APTX failed and how many APTX are left.")
    assert cli.json(end2, "draft", "pms", "dc", "--day", "2") == {
        "Miaka": f"To: Miaka\nSubject: {TITLE}: results of Day 2\n\n"
                 "The APTX on Akonyl failed. 1 APTX left.\n",
    }
    count = cli.json(end2, "count", "dc")
    assert {w["target"]: w["effective"] for w in count["wagons"]} == {"Miaka": 2, "Pofa": 1}
    quote("Arrested players are considered \"out\" of the game when determining which side has "
          "won.")
    dusk2 = cli.text(end2, "draft", "dusk", "dc", "--confirm")
    assert dusk2.startswith(
        "Day 2 is over.\nMiaka has been lynched. Miaka was Pisco, Mafia Eraser (Black Org)."
        "\n\nThe game is over. Victory: Town!\nEvery Black Org member is dead or arrested.\n"
        "Winners: Akonyl, Pofa, Jd-, Lynz, Conia, Parkur.\n"
    )
    err = cli.at(end2.isoformat(), "order", "dc", "Pofa: investigate Abs kills Pofa", ok=False)
    assert "the game dc is over" in err
