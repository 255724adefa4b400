"""The drafts a GM reviewed (002 on SMF): day actions reach the dusk and a PM, a quiet
modkill reaches the dawn, the subject names the game, the jail tells nobody."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from cli_support import output as run
from test_engine_e2e import D1, Thread, at, game_new, real_body

SETUP = (
    "seed = 5\nplayers = [\n"
    '  { name = "Carol", role = "godfather" },\n  { name = "Moe", side = "mafia" },\n'
    '  { name = "Sor", role = "sorcerer", side = "town" },\n'
    '  { name = "Kid", role = "child", side = "town" },\n'
    '  { name = "Doc", role = "doctor" },\n  { name = "Gus", side = "town" },\n'
    '  { name = "Hal", side = "town" },\n]\n'
)


def test_002_day_actions_and_a_quiet_modkill_reach_the_drafts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    at(monkeypatch, D1 - timedelta(hours=1))
    game_new(capsys, tmp_path, "rv", "002", "http://127.0.0.1:8021/index.php?topic=3.0", SETUP)
    forum = Thread(tmp_path, "rv", "http://127.0.0.1:8021/index.php?msg={id}")
    end1 = (D1 + timedelta(minutes=20)).isoformat()
    run(capsys, tmp_path, "phase", "rv", "day", "1", "--starts", D1.isoformat(), "--ends", end1)
    at(monkeypatch, D1 + timedelta(minutes=2))
    # 002:89 "the Sorcerer may kill one target of his choice. The target dies instantly";
    # 002:58 the Child "may name a person to be struck by a rock".
    run(capsys, tmp_path, "order", "rv", "Sor: zap Gus", "--day", "1")
    run(capsys, tmp_path, "order", "rv", "Kid: rock Hal", "--day", "1")
    run(capsys, tmp_path, "resolve", "rv", "--day", "1")
    vote = lambda name: real_body("smf21", "b", 118, {"[Vote: Conia]": f"[Vote: {name}]"})  # noqa: E731
    forum.post(D1 + timedelta(minutes=3), ("Carol", vote("Hal")), ("Moe", vote("Hal")),
               ("Doc", vote("Hal")), ("Kid", vote("Hal")), ("Sor", vote("Moe")))
    at(monkeypatch, D1 + timedelta(minutes=21))
    out = run(capsys, tmp_path, "draft", "dusk", "rv", "--confirm")
    # The deciding vote is Kid's, the fourth on Hal (post 503), not Sor's later one on Moe.
    assert out.split("\n---\n")[0] == (
        "Day 1 is over.\n"
        "Hal is struck by a rock!\n"
        "Gus has died.\n"
        "Hal has been lynched. Hal was Vanilla (Town).\n"
        "The deciding vote: http://127.0.0.1:8021/index.php?msg=503\n"
        "Night 1 begins. Send your night actions to the GM.\n"
    )
    # "only the killer shall know the deceased's alignment and role" (002 [reveal]).
    assert run(capsys, tmp_path, "draft", "pms", "rv", "--day", "1") == (
        "To: Sor\nSubject: Turtle's Chat Mafia: results of Day 1\n\n"
        "Gus, whom you killed, was Vanilla (Town).\n"
    )
    # A quiet modkill during the night: the dawn names Doc, not only the survivors.
    at(monkeypatch, D1 + timedelta(minutes=30))
    run(capsys, tmp_path, "kill", "rv", "Doc", "--how", "modkill")
    run(capsys, tmp_path, "resolve", "rv", "--night", "1")
    assert run(capsys, tmp_path, "draft", "dawn", "rv") == (
        "Dawn breaks after Night 1.\n"
        "Doc was found dead.\n"
        "Day 2 begins. 4 players remain: Carol, Moe, Sor, Kid.\n"
    )


def test_win_post_says_the_winner_once():
    from assistant.engine.drafts import Reveal, win_post
    from assistant.engine.win import Win
    from assistant.templating import template

    # 003's check text names the winner ("Town Wins! if all 14 Scum players are dead.").
    town = Win("town", "Town", "Town Wins! All Scum players are dead.", ("Ada",), True)
    assert win_post(town) == (
        "The game is over. Town Wins! All Scum players are dead.\nWinners: Ada."
    )
    wolves = Win("village", "Villagers", "All the werewolves have been killed.", ("Ann",))
    assert win_post(wolves) == (
        "The game is over. Victory: Villagers!\nAll the werewolves have been killed.\n"
        "Winners: Ann."
    )
    # A death whose role is not shown prints no "was the None".
    dawn = template("dawn_millers-hollow.j2").render(
        number=1, deaths=[Reveal("Cid", None, None)], public=[], win=None, next_day=1,
        living=["Ann"],
    )
    assert "Cid did not survive the night.\n" in dawn and "None" not in dawn
