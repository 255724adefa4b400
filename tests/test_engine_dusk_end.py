"""`assistant draft dusk` counts the day up to its effective end, as `assistant phase` and
the daemon see it: a 002 day where everyone voted ends 5 minutes later, a mafiascum day at
the majority, an extended day later. Before that end the dusk is a preview; after it, it
is final, and votes cast after it do not count, whether or not the GM has started the
night yet.

Votes are posts in each ruleset's markup (002 `[Vote: X]` as literal text, mafiascum bold
"VOTE: X"), stored as the poller stores them; everything else goes through the CLI.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from cli_support import CliAt

from assistant.models import Post
from assistant.store import GameStore
from tests.conftest import SEEDS

T0 = datetime(2026, 11, 24, 18, 0, tzinfo=UTC)


def quote(seed: str, sentence: str) -> None:
    text = " ".join(next(SEEDS.glob(f"{seed}_*.txt")).read_text(encoding="utf-8").split())
    assert " ".join(sentence.split()) in text, sentence


class Cli(CliAt):
    """`assistant ...` at a moment `minutes` after the day started (ASSISTANT_NOW)."""

    def __call__(self, minutes: float, *args: str, ok: bool = True) -> str:
        return self.at((T0 + timedelta(minutes=minutes)).isoformat(), *args, ok=ok)

    def json(self, minutes: float, *args: str) -> dict:
        return json.loads(self(minutes, *args, "--json"))


def new_game(
    cli: Cli, ruleset: str, players: dict[str, str], length: str, votes: list[tuple]
) -> None:
    """A game with its players, setup and day 1 (through the CLI) and the day's posts:
    votes are (minute, voter, target)."""
    lines = [f'  {{ name = "{n}", side = "{side}" }},' for n, side in players.items()]
    (cli.data / "setup.toml").write_text(
        "seed = 4\nplayers = [\n" + "\n".join(lines) + "\n]\n", encoding="utf-8"
    )
    with GameStore.open(cli.data, "g") as store:
        store.update_config(ruleset=ruleset, gms=["Host"], tz="UTC")
        store.add_input("players", {"players": [[n] for n in players]}, T0)
    cli(0, "roles", "g", "--file", str(cli.data / "setup.toml"))
    cli(0, "phase", "g", "day", "1", "--ends", length)
    markup = {
        "chat-mafia": lambda t: f"Let's go.<br><br>[Vote: {t}]",
        "mafiascum": lambda t: f"I think so.<br><b>VOTE: {t}</b>",
    }[ruleset]
    posts = [
        Post(300 + i, i, voter, None, T0 + timedelta(minutes=m), markup(target), 1)
        for i, (m, voter, target) in enumerate(votes)
    ]
    with GameStore.open(cli.data, "g") as store:
        store.record_posts(posts, T0 + timedelta(minutes=max(m for m, _, _ in votes)))


@pytest.fixture
def cli(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Cli:
    return Cli(tmp_path, capsys, monkeypatch)


CHAT = {"Ann": "town", "Ben": "town", "Cat": "mafia"}


def test_002_day_where_everyone_voted_ends_five_minutes_later(cli: Cli) -> None:
    quote(
        "002",
        "all players have cast a vote, the time will immediately drop to 5 minutes",
    )
    # Everyone has voted at minute 3: the day ends at 18:08, not at 18:20. Ben's switch
    # at minute 9 comes after that end and must not decide the lynch.
    new_game(
        cli,
        "chat-mafia",
        CHAT,
        "+20m",
        [(1, "Ann", "Cat"), (2, "Ben", "Cat"), (3, "Cat", "Ann"), (9, "Ben", "Ann")],
    )
    assert cli.json(5, "phase", "g")["deadline"] == "2026-11-24T18:08:00+00:00"

    # Before the effective end: a preview that cannot be confirmed.
    out = cli(5, "draft", "dusk", "g")
    gm = out.split("\n---\n")[1].splitlines()
    assert gm[1:3] == [
        "preview: the day is not over yet; the count may still change",
        "day ends: Tue 24 Nov 2026 18:08 UTC; everyone has voted: the clock dropped to 5 min",
    ]
    err = cli(5, "draft", "dusk", "g", "--confirm", ok=False)
    assert err.startswith("error: day 1 of g is not over yet (deadline 2026-11-24T18:08:00+00:00)")

    # After it (and before the 18:20 first set): final, with the votes cast by 18:08.
    doc = cli.json(10, "draft", "dusk", "g")
    assert (doc["final"], doc["ends_at"], doc["outcome"]["lynched"]) == (
        True,
        "2026-11-24T18:08:00+00:00",
        ["Cat"],
    )
    assert doc["outcome"]["reason"] == "Cat leads with 2"
    assert doc["win"]["winner"] == "town"

    # The GM starts the night first: the day's end is still the early one.
    cli(11, "phase", "g", "night", "1")
    after = cli.json(12, "draft", "dusk", "g")
    assert {k: after[k] for k in ("final", "ends_at", "ends_why", "outcome", "post")} == {
        k: doc[k] for k in ("final", "ends_at", "ends_why", "outcome", "post")
    }
    stored = cli.json(12, "draft", "dusk", "g", "--confirm")["stored"]
    assert [(f["player"], f["how"]) for f in stored] == [("Cat", "lynch")]


def test_002_extended_day_is_not_over_at_the_first_deadline(cli: Cli) -> None:
    quote("002", "with the option for a five- or ten-minute extension")
    new_game(cli, "chat-mafia", CHAT, "+20m", [(1, "Ann", "Cat"), (2, "Ben", "Cat")])
    cli(15, "phase", "g", "--extend", "10m")
    doc = cli.json(21, "draft", "dusk", "g")
    assert (doc["final"], doc["ends_at"]) == (False, "2026-11-24T18:30:00+00:00")
    err = cli(21, "draft", "dusk", "g", "--confirm", ok=False)
    assert "not over yet (deadline 2026-11-24T18:30:00+00:00)" in err
    assert cli.json(31, "draft", "dusk", "g")["final"] is True


def test_mafiascum_day_that_ended_at_majority(cli: Cli) -> None:
    players = {"Ann": "town", "Ben": "town", "Cat": "town", "Dan": "town", "Kim": "mafia"}
    # Three of five is a majority: Cat's vote at minute 3 ends the day (set for 48 hours).
    new_game(
        cli,
        "mafiascum",
        players,
        "+48h",
        [(1, "Ann", "Kim"), (2, "Ben", "Kim"), (3, "Cat", "Kim"), (7, "Kim", "Ann")],
    )
    out = cli(30, "draft", "dusk", "g")
    post, gm = out.split("\n---\n")
    assert post.splitlines()[:2] == [
        "Day 1 is over.",
        "Kim has been lynched. Kim was Vanilla (Mafia).",
    ]
    assert gm.splitlines()[1:3] == [
        "day ended: Tue 24 Nov 2026 18:03 UTC; a player reached a majority: the day ends",
        "outcome (post 302): majority reached: 3 votes on Kim ends the day",
    ]
    doc = cli.json(30, "draft", "dusk", "g")
    assert (doc["final"], doc["ends_at"], doc["win"]["winner"]) == (
        True,
        "2026-11-24T18:03:00+00:00",
        "town",
    )
    # After `phase g night 1` the day's end is still the majority's, and it can be confirmed.
    cli(40, "phase", "g", "night", "1")
    after = cli.json(41, "draft", "dusk", "g", "--confirm")
    assert (after["ends_at"], after["post"]) == (doc["ends_at"], doc["post"])
    assert [(f["player"], f["how"], f["at_post"]) for f in after["stored"]] == [
        ("Kim", "lynch", 302)
    ]
