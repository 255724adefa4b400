"""A whole small Paranormal (000) game through `assistant.cli.main`, as its GM runs it.

Every vote is a real post body of fixture thread A (SMF 2.1's `bbc_color` span on Day 1,
phpBB 3.3's `<span style="color:red">` on Day 2): the red "unvote Jd-" of post 50 with the
words swapped for this game's vote, since "All votes should be colored red". The nights are
orders the engine resolves in the seed's event order; the dawn and the PMs are the drafts a
GM pastes. Each rule checked quotes the seed sentence it comes from.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from cli_support import CliAt
from conftest import SEEDS
from realthreads import thread_posts

from assistant.models import Post
from assistant.store import GameStore

PLAYERS = ["Vet", "Pw", "Ag", "Gus", "Dop", "Lea", "En"]
SETUP = """seed = 5
players = [
  { name = "Vet", role = "war-vet", side = "town" },
  { name = "Pw", role = "psychic-warden", side = "town" },
  { name = "Ag", role = "agent", side = "town", items = ["mind-shield"] },
  { name = "Gus", role = "townie" },
  { name = "Dop", role = "doppelganger" },
  { name = "Lea", role = "doppelganger-leader" },
  { name = "En", role = "enchanter", side = "town" },
]
"""


def quote(sentence: str) -> None:
    """The rule checked next is the seed's own sentence."""
    text = " ".join(next(SEEDS.glob("000_*.txt")).read_text(encoding="utf-8").split())
    assert " ".join(sentence.split()) in text, sentence


def red_vote(forum: str, name: str) -> str:
    """Post 50 of thread A on `forum`: its red span now says "vote NAME"."""
    html = next(p.body_html for p in thread_posts(forum, "a") if p.post_id == 50)
    assert html.count("unvote Jd-") == 1 and "red" in html
    return html.replace("unvote Jd-", f"vote {name}")


class Thread:
    """The game thread as the poller stores it: posts one minute apart, seen just after."""

    def __init__(self, data: Path) -> None:
        self.data, self.next_id = data, 700

    def post(self, at: datetime, *entries: tuple[str, str]) -> None:
        posts = [
            Post(self.next_id + i, self.next_id + i - 699, author, None,
                 at + timedelta(minutes=i), html, 1,
                 url=f"http://127.0.0.1:8021/index.php?msg={self.next_id + i}")
            for i, (author, html) in enumerate(entries)
        ]  # fmt: skip
        self.next_id += len(entries)
        with GameStore.open(self.data, "pn") as store:
            store.record_posts(posts, posts[-1].posted_at + timedelta(seconds=30))


class Cli(CliAt):
    def json(self, now: datetime, *args: str) -> dict:
        return json.loads(self.at(now.isoformat(), "--json", *args))

    def text(self, now: datetime, *args: str) -> str:
        return self.at(now.isoformat(), *args)

    def new_game(self, tmp: Path, players: list[str], setup: str, game: str = "pn") -> str:
        """A paranormal game with its players and setup, an hour before Day 1: what `roles`
        printed."""
        (tmp / "players.txt").write_text("\n".join(players) + "\n", encoding="utf-8")
        (tmp / "setup.toml").write_text(setup, encoding="utf-8")
        before = D1 - timedelta(hours=1)
        self.text(before, "game", "new", game, "--thread",
                  "http://127.0.0.1:8021/index.php?topic=2.0", "--ruleset", "paranormal",
                  "--players", str(tmp / "players.txt"), "--gm", "Host")  # fmt: skip
        return self.text(before, "roles", game, "--file", str(tmp / "setup.toml"))


D1 = datetime(2026, 11, 24, 18, 0, tzinfo=UTC)


@pytest.fixture
def cli(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Cli:
    return Cli(tmp_path / "data", capsys, monkeypatch)


def test_a_whole_paranormal_game(cli: Cli, tmp_path: Path) -> None:
    roles = cli.new_game(tmp_path, PLAYERS, SETUP)
    assert "Lea: Doppelganger leader (Doppelgangers)" in roles
    assert "Ag: Agent (Town)" in roles
    thread = Thread(cli.data)
    with GameStore.open(cli.data, "pn") as store:  # the thread's title, as the poller keeps it
        store.set_crawl_state(title="Paranormal 7")

    quote("Days will last for 72 hours or until everyone has voted")
    cli.text(D1, "phase", "pn", "day", "1")
    assert cli.json(D1, "phase", "pn")["deadline"] == "2026-11-27T18:00:00+00:00"
    quote("All votes should be colored red to make it easy for me to spot them.")
    s, p = "smf21", "phpbb33"
    thread.post(
        D1 + timedelta(hours=1),
        ("Vet", red_vote(s, "Dop")), ("Pw", red_vote(s, "Dop")), ("Gus", red_vote(s, "Dop")),
        ("Ag", red_vote(s, "Gus")), ("Dop", red_vote(s, "Gus")), ("Lea", red_vote(s, "Gus")),
        ("En", red_vote(s, "Dop")),
    )  # fmt: skip
    quote("His votes count double.")
    count = cli.json(D1 + timedelta(hours=2), "count", "pn")
    wagons = {w["target"]: w for w in count["wagons"]}
    assert wagons["Dop"]["effective"] == 5 and wagons["Gus"]["effective"] == 3
    end1 = D1 + timedelta(hours=72, minutes=1)
    dusk1 = cli.text(end1, "draft", "dusk", "pn", "--confirm")
    assert dusk1.startswith(
        "Day 1 is over.\nDop has been lynched. Dop was the Doppelganger (Doppelgangers).\n"
    )

    cli.text(end1, "phase", "pn", "night", "1")
    n1 = end1 + timedelta(hours=1)
    quote("The Psychic Warden does not need to leave his house to use this power.")
    quote("A Role-Blocked War Vet loses their kill ability for the night.")
    quote("the leader is immune to detection by Agent or Detective short of death.")
    for order in ("Pw: foil Vet", "Doppelgangers: kill Vet", "Ag: investigate Lea",
                  "Vet: hold fire"):
        cli.text(n1, "order", "pn", order)
    dry = cli.text(n1, "resolve", "pn", "--dry-run")
    assert "[roleblocks] Pw: foil Vet: roleblocks Vet" in dry
    assert "Vet: hold fire Vet" not in dry  # a self action is shown as typed
    assert "deaths: Vet (nightkill)" in dry
    assert "[results] PM to Vet: not sent (Vet died: Someone has tampered with you tonight.)" in dry
    d2 = D1 + timedelta(hours=96)
    cli.text(d2, "resolve", "pn")
    assert cli.text(d2, "draft", "dawn", "pn") == (
        "Night 1 is over.\nVet has died. Vet was the War Vet (Town).\nDay 2 begins.\n"
    )
    pms = cli.json(d2, "draft", "pms", "pn")
    assert pms == {
        "Ag": "To: Ag\nSubject: Paranormal 7: results of Night 1\n\nLea's race: Human.\n",
    }
    assert cli.text(d2, "resolve", "pn", "--log").splitlines()[1:] == [
        line for line in dry.splitlines()[1:] if not line.startswith("PM now")
    ]

    cli.text(d2, "phase", "pn", "day", "2")
    thread.post(
        d2 + timedelta(hours=1),
        ("Gus", red_vote(p, "Lea")), ("En", red_vote(p, "Lea")), ("Ag", red_vote(p, "Lea")),
        ("Pw", red_vote(p, "Gus")), ("Lea", red_vote(p, "Gus")),
    )  # fmt: skip
    end2 = d2 + timedelta(hours=72, minutes=1)
    quote("Victory: Town Wins")
    dusk2 = cli.text(end2, "draft", "dusk", "pn", "--confirm")
    assert dusk2.startswith(
        "Day 2 is over.\nLea has been lynched. Lea was the Doppelganger leader (Doppelgangers).\n"
    )
    assert "Town Wins: every doppelganger is dead." in dusk2
    assert "Winners: Vet, Pw, Ag, Gus, En." in dusk2
    err = cli.at(end2.isoformat(), "order", "pn", "Pw: foil Gus", ok=False)
    assert "the game pn is over" in err
