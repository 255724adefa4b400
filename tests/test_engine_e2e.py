"""Whole small games, night to dawn, through the command line and the store.

Setup by `assistant roles`, orders by `assistant order` (one line and --file), lynches as
the GM's death inputs (the vote counter decides them; here they are given), resolutions
by `assistant resolve`, and the drafts compared whole with the expected text.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from assistant.cli import main
from assistant.store import GameStore


def run(capsys: pytest.CaptureFixture[str], data: Path, *args: str) -> str:
    capsys.readouterr()
    try:
        main(["--data-dir", str(data), *args])
    except SystemExit as e:
        assert e.code == 0, capsys.readouterr().err
    return capsys.readouterr().out


def lynch(data: Path, game: str, player: str, day: int) -> None:
    with GameStore.open(data, game) as store:
        store.add_input(
            "death",
            {"player": player, "at_post": None, "at": None, "how": "lynch", "replacement": None},
            datetime(2026, 1, day, tzinfo=UTC),
        )


def test_chat_mafia_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """002: Day 1 lynch, a saved night with an investigation, then the Bomb ends the mafia."""
    (tmp_path / "setup.toml").write_text(
        "seed = 11\nplayers = [\n"
        '  { name = "Carol", role = "godfather" }, { name = "Moe", side = "mafia" },\n'
        '  { name = "Doc", role = "doctor" }, { name = "Ivy", role = "investigator" },\n'
        '  { name = "Bo", role = "bomb" }, { name = "Gus", side = "town" },\n'
        '  { name = "Hal", side = "town" },\n]\n',
        encoding="utf-8",
    )
    run(capsys, tmp_path, "roles", "cm", "--file", str(tmp_path / "setup.toml"), "--ruleset", "002")
    lynch(tmp_path, "cm", "Hal", 1)
    (tmp_path / "n1.txt").write_text(
        "# night 1\nCarol: kill Ivy\nDoc: protect Ivy\nIvy: investigate Moe\n", encoding="utf-8"
    )
    run(capsys, tmp_path, "order", "cm", "--file", str(tmp_path / "n1.txt"))
    run(capsys, tmp_path, "resolve", "cm")
    assert run(capsys, tmp_path, "draft", "dawn", "cm") == (
        "Dawn breaks after Night 1.\n"
        "Everyone wakes up safe and sound.\n"
        "Day 2 begins. 6 players remain: Carol, Moe, Doc, Ivy, Bo, Gus.\n"
    )
    assert run(capsys, tmp_path, "draft", "pms", "cm") == (
        "To: Ivy\nSubject: Turtle's Chat Mafia: results of Night 1\n\n"
        "Your investigation of Moe returns: Mafia.\n"
    )
    lynch(tmp_path, "cm", "Moe", 2)
    with pytest.raises(SystemExit):
        main(["--data-dir", str(tmp_path), "order", "cm", "Moe: kill Gus"])
    assert capsys.readouterr().err == (
        "error: 'Moe: kill Gus': Moe is dead; the dead give no orders\n"
    )
    run(capsys, tmp_path, "order", "cm", "Mafia: kill Bo")
    run(capsys, tmp_path, "order", "cm", "Doc: protect Gus")
    out = run(capsys, tmp_path, "resolve", "cm", "--night", "2")
    assert out.splitlines()[1:] == [
        "[protections] Doc: protect Gus: protects Gus (against all)",
        "[nightkills] Carol (mafia): kill Bo: kills Bo",
        "[nightkills] Bo: dies (Carol (mafia): kill Bo)",
        "[nightkills] Bo (Bomb): explodes on Carol (the only one of the mafia it can take)",
        "[nightkills] Carol: dies (caught in Bo's explosion)",
        "deaths: Bo (nightkill), Carol (nightkill)",
    ]
    assert run(capsys, tmp_path, "draft", "dawn", "cm") == (
        "Dawn breaks after Night 2.\n"
        "Bo was found dead.\n"
        "Carol was found dead.\n"
        "\n"
        "The game is over. Victory: Town!\n"
        "All threats to the Town have been eliminated.\n"
        "Winners: Doc, Ivy, Bo, Gus, Hal.\n"
    )
    with GameStore.open(tmp_path, "cm") as store:
        engine_deaths = [
            d["data"]["player"]
            for d in store.inputs("death")
            if d["data"].get("source") == "engine"
        ]
    assert engine_deaths == ["Bo", "Carol"]


def test_millers_hollow_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """001: a guarded night with a vision, a lynch, then the hunter takes the alpha with him."""
    (tmp_path / "setup.toml").write_text(
        "seed = 4\nplayers = [\n"
        '  { name = "Ann", role = "seer" }, { name = "Ben", role = "guardian" },\n'
        '  { name = "Cid", role = "hunter" }, { name = "Dee", role = "peasant" },\n'
        '  { name = "Hea", role = "healer" }, { name = "Wolf", role = "werewolf" },\n'
        '  { name = "Alf", role = "alpha" },\n]\n',
        encoding="utf-8",
    )
    run(capsys, tmp_path, "roles", "mh", "--file", str(tmp_path / "setup.toml"), "--ruleset", "001")
    for line in ("Werewolves: eat Dee by Wolf", "Ben: guard Dee", "Ann: see Wolf"):
        run(capsys, tmp_path, "order", "mh", line)
    run(capsys, tmp_path, "resolve", "mh")
    assert run(capsys, tmp_path, "draft", "dawn", "mh") == (
        "The sun rises over Miller's Hollow after night 1.\n"
        "The village wakes: nobody died tonight.\n"
        "Day 1: vote in bold. 7 villagers remain: Ann, Ben, Cid, Dee, Hea, Wolf, Alf.\n"
    )
    assert run(capsys, tmp_path, "draft", "pms", "mh") == (
        "To: Ann\nSubject: Miller's Hollow: results of Night 1\n\n"
        "Your vision: Wolf is the Werewolf.\n"
        "---\n"
        "To: Hea\nSubject: Miller's Hollow: results of Night 1\n\n"
        "You cannot find any victims tonight.\n"
    )
    lynch(tmp_path, "mh", "Wolf", 1)
    (tmp_path / "n2.txt").write_text(
        "Alf: eat Cid\nCid: shoot Alf\nBen: guard Ann\nBen: guard Dee\n", encoding="utf-8"
    )
    with pytest.raises(SystemExit):
        main(["--data-dir", str(tmp_path), "order", "mh", "--file", str(tmp_path / "n2.txt")])
    assert "two nights running" in capsys.readouterr().err
    (tmp_path / "n2.txt").write_text(
        "Alf: eat Cid\nCid: shoot Alf\nBen: guard Ann\n", encoding="utf-8"
    )
    run(capsys, tmp_path, "order", "mh", "--file", str(tmp_path / "n2.txt"))
    run(capsys, tmp_path, "resolve", "mh", "--night", "2")
    assert run(capsys, tmp_path, "draft", "dawn", "mh") == (
        "The sun rises over Miller's Hollow after night 2.\n"
        "Cid did not survive the night. Cid was the Hunter.\n"
        "Alf did not survive the night. Alf was the Alpha.\n"
        "\n"
        "The game is over. Victory: Villagers!\n"
        "All the werewolves have been killed.\n"
        "Winners: Ann, Ben, Cid, Dee, Hea.\n"
    )
    assert run(capsys, tmp_path, "draft", "pms", "mh") == (
        "To: Hea\nSubject: Miller's Hollow: results of Night 2\n\n"
        'Tonight the werewolves attacked Cid. Reply with "heal" to save them.\n'
    )
