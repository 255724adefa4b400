"""What a GM trips over running 000 (paranormal), 003 (three-factions) and 004 (dctp-mini)
games through the CLI, and the 002 redirect PM's wording.

Thread A (real SMF 2.1 pages) is served on 127.0.0.1; every expectation cites the seed
sentence it follows.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import REALFORUM, SEEDS
from forum_server import ForumServer, page_path, running_forum

from assistant.cli import main
from assistant.engine.orders import parse_order
from assistant.engine.resolver import resolve_phase
from assistant.engine.rules import load_engine_rules
from assistant.engine.setup import PlayerSetup, Setup
from assistant.engine.state import GameState
from assistant.rulesets import find_ruleset

HOST = "Host Mira"
PLAYERS = (
    "Mr. Pickles | pickles\nKat\nxX_Slayer_Xx | slayer\nConia\nJd- | jd\nLady Grey\n"
    "Tom & Jerry's | tom\nÆtherWolf | aether\nbob the builder | bob\n"
)


def quote(seed: str, sentence: str) -> None:
    """The cited sentence must really be in the seed (whitespace-normalised)."""
    text = " ".join(next(SEEDS.glob(f"{seed}_*.txt")).read_text(encoding="utf-8").split())
    assert " ".join(sentence.split()) in text, sentence


@pytest.fixture
def forum() -> Iterator[ForumServer]:
    with running_forum() as f:
        for n in range(1, 6):
            path = REALFORUM / "smf21" / f"smf21_topic_p{n}.html"
            f.set_page(page_path("smf", 2, n), path.read_bytes())
        yield f


@pytest.fixture
def run(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("ASSISTANT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("ASSISTANT_NOW", "2026-11-22T07:30:00+00:00")
    (tmp_path / "players.txt").write_text(PLAYERS, encoding="utf-8")

    def _run(*args: str) -> str:
        try:
            main(list(args))
        except SystemExit as e:
            assert e.code in (0, None), capsys.readouterr().err
        return capsys.readouterr().out

    return _run


def new_game(run, tmp_path: Path, game: str, ruleset: str, url: str) -> None:
    run("game", "new", game, "--thread", url, "--ruleset", ruleset,
        "--players", str(tmp_path / "players.txt"), "--gm", HOST)  # fmt: skip


@pytest.mark.parametrize(
    ("ruleset", "sentence"),
    [
        ("paranormal", ("000", "In the event of a tie, no lynch will occur.")),
        ("three-factions", ("003", "At the conclusion of each Day, the player with the highest "
                                   "total number of votes will be lynched")),
    ],
)
def test_plurality_counts_do_not_claim_a_majority_lynches(
    ruleset, sentence, forum, run, tmp_path
) -> None:
    """Under 000 and 003 the most votes at the deadline lynch: a count saying "it takes 5
    to lynch" sends the GM (and the thread, through the draft) looking for a hammer that
    these rules do not have."""
    quote(*sentence)
    new_game(run, tmp_path, "g", ruleset, forum.base_url + page_path("smf", 2, 1))
    run("fetch", "--game", "g", "--delay", "0")
    run("phase", "g", "day", "1", "--start-post", "2", "--ends", "2026-11-23T09:00")
    out = run("count", "g")
    assert "With 9 alive, the most votes at the deadline lynch." in out
    assert "it takes" not in out
    draft = run("draft", "tally", "g")
    assert "With 9 alive, the most votes at the deadline lynch." in draft
    assert "it takes" not in draft


def test_permissive_majority_count_still_names_the_hammer(forum, run, tmp_path) -> None:
    new_game(run, tmp_path, "g", "permissive", forum.base_url + page_path("smf", 2, 1))
    run("fetch", "--game", "g", "--delay", "0")
    run("phase", "g", "day", "1", "--start-post", "2", "--ends", "2026-11-23T09:00")
    assert "With 9 alive, it takes 5 to lynch." in run("count", "g")


def test_dctp_pm_abstain_is_recorded_as_an_abstention(run, tmp_path) -> None:
    quote("004", "Players may abstain from voting.")
    new_game(run, tmp_path, "d", "dctp-mini", "http://127.0.0.1:9/index.php?topic=2.0")
    run("phase", "d", "day", "1", "--ends", "+24h")
    assert run("vote", "d", "bob", "abstain").startswith("Recorded: bob the builder abstains at ")
    assert run("vote", "d", "Kat", "Conia").startswith("Recorded: Kat votes Conia at ")
    out = run("count", "d")
    assert "Abstaining (1): bob the builder" in out
    assert "With 9 alive, the most votes at the deadline lynch." in out
    quote("004", "Each player's vote is made public at the end of each day phase")
    draft = run("draft", "tally", "d")
    assert "bob the builder abstained\n" in draft and "Kat voted Conia\n" in draft


def test_redirected_investigation_pm_reads_as_english() -> None:
    """002's Redirector learns what was moved: "A investigate aimed at ..." named the verb
    with the wrong article; the ruleset's `noun` names the action."""
    rules = load_engine_rules(find_ruleset("chat-mafia"))
    slots = [PlayerSetup("Ivy", "town", "investigator"), PlayerSetup("Red", "town", "redirector"),
             PlayerSetup("Van3", "town", None), PlayerSetup("Gus", "town", None),
             PlayerSetup("Moe", "mafia", None)]  # fmt: skip
    state = GameState.from_setup(rules, Setup(tuple(slots), 1))
    orders = ["Ivy: investigate Van3", "Red: redirect Van3 and Gus"]
    r = resolve_phase(
        state, "night", 1, [parse_order(o, state, phase="night", number=1) for o in orders]
    )
    assert r.pms["Red"] == ("An investigation aimed at Van3 was redirected to Gus.",)
