"""DCTP (seed 004): what acts on the lynch. Voice of Reason, Voice of Accusation, Accompany,
and an arrested or poisoned leader of the vote, through the GM's commands: votes entered
from PMs, the day's actions resolved at the day's end, then the count. Each test quotes the
sentence of ../shared/seeds/004_*.txt it checks.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from cli_support import CliAt
from conftest import SEEDS

D1 = datetime(2026, 11, 25, 8, 0, tzinfo=UTC)
END = D1 + timedelta(hours=24, minutes=1)


def quote(sentence: str) -> None:
    text = " ".join(next(SEEDS.glob("004_*.txt")).read_text(encoding="utf-8").split())
    assert " ".join(sentence.split()) in text, sentence


class Day(CliAt):
    """A 004 game on Day 1 (after a quiet Night 1) with PM votes, day orders and the count."""

    def start(self, tmp: Path, roles: dict[str, str], night_orders: tuple[str, ...] = ()) -> None:
        (tmp / "players.txt").write_text("\n".join(roles) + "\n", encoding="utf-8")
        (tmp / "setup.toml").write_text(
            "seed = 3\nplayers = [\n"
            + "".join(f'  {{ name = "{n}", role = "{r}" }},\n' for n, r in roles.items())
            + "]\n",
            encoding="utf-8",
        )
        at = (D1 - timedelta(hours=13)).isoformat()
        self.at(at, "game", "new", "g", "--thread", "http://127.0.0.1:9/index.php?topic=1.0",
                "--ruleset", "dctp-mini", "--players", str(tmp / "players.txt"), "--gm", "GM")
        self.at(at, "roles", "g", "--file", str(tmp / "setup.toml"))
        self.at(at, "phase", "g", "night", "1")
        for line in night_orders:
            self.at(at, "order", "g", line)
        self.at(D1.isoformat(), "resolve", "g", "--night", "1")
        self.at(D1.isoformat(), "phase", "g", "day", "1", "--ends",
                (D1 + timedelta(hours=24)).isoformat())

    def votes(self, *pairs: tuple[str, str]) -> None:
        for i, (voter, target) in enumerate(pairs):
            self.at((D1 + timedelta(hours=1, minutes=i)).isoformat(), "vote", "g", voter, target)

    def orders(self, *lines: str) -> str:
        for line in lines:
            self.at((D1 + timedelta(hours=2)).isoformat(), "order", "g", line, "--day", "1")
        return self.at(END.isoformat(), "resolve", "g", "--day", "1")

    def count(self) -> dict:
        return json.loads(self.at(END.isoformat(), "--json", "count", "g"))


@pytest.fixture
def day(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Day:
    return Day(tmp_path / "data", capsys, monkeypatch)


ROLES = {"Eri": "eri", "Kujou": "kujou", "Kaz": "kazuha", "Abs": "gin", "Miaka": "pisco",
         "Pofa": "satou", "Lynz": "ran"}  # fmt: skip


def wagons(count: dict) -> dict[str, int]:
    return {w["target"]: w["effective"] for w in count["wagons"]}


def test_voice_of_reason_stops_the_lynch(day: Day, tmp_path: Path) -> None:
    quote("Can stop the lynching once per game. Doing so will not expose her role. The lynching "
          "must be stopped before the results are known, and if successful no one will be "
          "killed by lynching during that day.")
    day.start(tmp_path, ROLES)
    day.votes(("Abs", "Lynz"), ("Miaka", "Lynz"), ("Pofa", "Abs"))
    assert day.count()["outcome"]["lynched"] == ["Lynz"]
    day.orders("Eri: voice of reason")
    count = day.count()
    assert count["outcome"]["lynched"] == []
    assert "the lynching failed" in count["outcome"]["reason"]


# Voice of Accusation: tests/test_engine_004_dctpd.py (only on a player Kujou cross-examined).


def test_accompany_takes_one_vote_off_the_target(day: Day, tmp_path: Path) -> None:
    quote("The target will have his/her lynching votes reduced by 1 for that day.")
    quote("She may accompany anyone during the day and the accompanied will learn that someone "
          "accompanied/followed them.")
    day.start(tmp_path, ROLES)
    day.votes(("Abs", "Lynz"), ("Miaka", "Lynz"), ("Eri", "Lynz"), ("Pofa", "Abs"),
              ("Kujou", "Abs"))
    assert day.count()["outcome"]["lynched"] == ["Lynz"]
    day.orders("Kaz: accompany Lynz")
    assert wagons(day.count()) == {"Lynz": 2, "Abs": 2}
    pms = json.loads(day.at(END.isoformat(), "--json", "draft", "pms", "g", "--day", "1"))
    assert pms["Lynz"].endswith("\n\nSomeone accompanied you today.\n")


def test_the_leader_of_the_vote_arrested_that_day_means_no_lynch(day: Day, tmp_path: Path) -> None:
    quote("If the person who got the most lynch votes is also arrested that same phase, there "
          "will be no lynch. Same for APTX.")
    day.start(tmp_path, ROLES)
    day.votes(("Eri", "Abs"), ("Kujou", "Abs"), ("Pofa", "Abs"), ("Abs", "Lynz"))
    day.orders("Pofa: arrest Abs")
    count = day.count()
    assert count["outcome"]["lynched"] == []
    assert "cannot be lynched: the lynching failed" in count["outcome"]["reason"]


def test_of_two_tied_one_poisoned_the_other_is_lynched(day: Day, tmp_path: Path) -> None:
    quote("If two people recieve the same number of lynch votes in a day phase and one of those "
          "two people is arrested or APTXed, the other will be lynched.")
    day.start(tmp_path, ROLES)
    day.votes(("Eri", "Abs"), ("Kujou", "Abs"), ("Abs", "Lynz"), ("Miaka", "Lynz"))
    log = day.orders("Miaka: aptx Lynz as Ran")
    assert "kills Lynz" in log
    assert day.count()["outcome"]["lynched"] == ["Abs"]


LOVERS_GAME = {"Yumi": "yumi", "A": "camel", "B": "jodie", "Abs": "gin", "Boss": "anokata",
               "Pofa": "satou", "Eri": "eri"}  # fmt: skip


def test_lovey_dovey_that_stopped_the_lynch_rests_both_lovers_two_phases(
    day: Day, tmp_path: Path
) -> None:
    """The lovers' protection by day keeps the vote's leader from the lynch; once the GM
    confirms the dusk, neither lover may use Lovey-Dovey on Night 2 or Day 2 (before: the
    rest was left to the GM, and Night 2's Lovey-Dovey was taken)."""
    quote("This protect will hinder lynching, killing, sniping and even APTX")
    quote("If it successfully hinders a lynching, killing, sniping, or poisoning, the lovers "
          "lose this ability for 2 phases")
    from assistant.engine.history import replay
    from assistant.engine.rules import load_engine_rules
    from assistant.rulesets import find_ruleset
    from assistant.store import GameStore

    day.start(tmp_path, LOVERS_GAME, night_orders=("Yumi: amor A, B, Pofa, Eri",))
    with GameStore.open(day.data, "g", create=False) as store:
        inputs = store.inputs()
    [(one, other)] = replay(load_engine_rules(find_ruleset("dctp-mini")), inputs).state.lovers
    voters = [p for p in LOVERS_GAME if p not in (one, other)]
    day.votes(*((v, one) for v in voters[:3]), (one, voters[0]))
    day.orders(f"{other}: lovey-dovey {one}")
    dusk = day.at(END.isoformat(), "draft", "dusk", "g", "--day", "1", "--confirm")
    assert "The lynching failed." in dusk
    assert f"{one} rests from lovey-dovey" in dusk and f"{other} rests from lovey-dovey" in dusk
    n2 = (END + timedelta(hours=1)).isoformat()
    day.at(n2, "phase", "g", "night", "2")
    for lover, target in ((one, other), (other, one)):
        err = day.at(n2, "order", "g", f"{lover}: lovey-dovey {target}", "--night", "2", ok=False)
        assert "may not use lovey-dovey again before night 3" in err, err
