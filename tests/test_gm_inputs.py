"""Input files a GM really writes, and the name drafts give the game (issue 22): a players
file saved by Windows Notepad (a byte-order mark, CRLF) or by PowerShell (UTF-16), aliases
listed with commas after `|`; the game called by its own name in PM subjects and the alert
feed ("Chat Mafia", never "Chat Mafia — Day 2: results of Night 1" nor the game's id).
Thread B served on 127.0.0.1, played through the command line."""

from __future__ import annotations

import json

import feedparser
import pytest
import thread_b_support as tb
from thread_b_cli import (  # noqa: F401 - the fixtures
    new_game,
    players_lines,
    run_at_noon,
    serve_thread_b,
    served_forum,
    setup_file,
)


def _comma_lines(forum: str) -> list[str]:
    """The players file as GMs write it: the common names after `|`, separated by commas."""
    meta = tb.truth(forum)["meta"]
    return [
        n + (" | " + ", ".join(meta["common_names"][n]) if meta["common_names"].get(n) else "")
        for n in meta["players"]
    ]


@pytest.mark.parametrize(
    ("encoding", "newline"), [("utf-8-sig", "\r\n"), ("utf-16", "\r\n"), ("utf-8", "\n")]
)
def test_a_players_file_from_notepad_or_powershell_with_comma_aliases_reads_as_meant(
    forum, run, tmp_path, encoding, newline
) -> None:
    path = tmp_path / "players.txt"
    path.write_bytes((newline.join(_comma_lines("smf21")) + newline).encode(encoding))
    new_game(run, tmp_path, "smf21", serve_thread_b(forum, "smf21"), players=path)
    with_bars = tmp_path / "bars.txt"
    with_bars.write_text("\n".join(players_lines("smf21")) + "\n", encoding="utf-8")
    code, out, err = run("--json", "game", "new", "bars", "--thread", tb.THREAD_URL["smf21"],
                         "--ruleset", "chat-mafia", "--players", str(with_bars))  # fmt: skip
    assert code == 0, err
    expected = json.loads(out)["players"]  # `name | alias | alias`, one name between bars
    assert expected[0] == ["Mr. Pickles", "Pickles", "Mr Pickles"]
    with open(tmp_path / "data" / "games" / "b.json", encoding="utf-8") as f:
        stored = [i for i in json.load(f)["inputs"].values() if i["kind"] == "players"]
    assert stored[-1]["data"]["players"] == expected  # no "\ufeffMr. Pickles", no "Tom, Jerry"

    code, out, err = run("--json", "count", "b")
    tally = json.loads(out)
    assert "Mr. Pickles" in tally["alive"] and not any("\ufeff" in n for n in tally["alive"])
    assert {w["target"]: len(w["voters"]) for w in tally["wagons"]}["xX_Slayer_Xx"] == 4


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("Conia\nJd- | Jd,, JD\n", "players.txt, line 2: an empty name in 'Jd- | Jd,, JD'"),
        ("Conia\r\nKat | \r\n", "players.txt, line 2: an empty name in 'Kat |'"),
        ("\ufeffConia\nconia | C\n", "players.txt, line 2: 'conia' is already on line 1"),
    ],
)
def test_a_players_file_line_that_cannot_be_read_is_refused_naming_it(
    run, tmp_path, text, says
) -> None:
    path = tmp_path / "players.txt"
    path.write_bytes(text.encode("utf-8"))
    code, out, err = run("game", "new", "g", "--thread", tb.THREAD_URL["smf21"],
                         "--ruleset", "chat-mafia", "--players", str(path))  # fmt: skip
    assert code == 1 and out == "" and err.count("\n") == 1, err
    assert says in err
    assert not (tmp_path / "data" / "games" / "g.json").exists() or "players" not in (
        tmp_path / "data" / "games" / "g.json"
    ).read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("title", "name"),
    [
        ("Chat Mafia — Day 2", "Chat Mafia"),
        ("Chat Mafia — Day 2: results of Night 2", "Chat Mafia"),
        ("Harbour Town Mafia — Day 2", "Harbour Town Mafia"),
        ("Paranormal Mafia - Day 2 - Results of Night 2", "Paranormal Mafia"),
        ("[Day 4] Town of Salem Mafia", "Town of Salem Mafia"),
        ("Mini Normal 1999 [Day 2]", "Mini Normal 1999"),
        ("Werewolf Game (Night 3)", "Werewolf Game"),
        ("Day 3 - Town Mafia", "Town Mafia"),
        ("Mafia XII: Day Three", "Mafia XII"),
        ("Mafia Game 1", "Mafia Game 1"),
        ("Mafia: The Day After", "Mafia: The Day After"),
        ("Dayton Mafia", "Dayton Mafia"),
        ("Day 2", "Day 2"),
    ],
)
def test_the_games_name_is_its_threads_title_without_the_day(title, name) -> None:
    from assistant.game import title_without_phase

    assert title_without_phase(title) == name


def _night_1_pms(run, tmp_path) -> str:
    assert run("roles", "b", "--file", str(setup_file(tmp_path, "smf21")))[0] == 0
    assert run("order", "b", "Lady Grey: investigate Slayer", "--night", "1")[0] == 0
    assert run("resolve", "b", "--night", "1")[0] == 0
    code, out, err = run("draft", "pms", "b", "--night", "1")
    assert code == 0, err
    return out


def test_drafts_subjects_and_the_feed_call_the_game_by_its_name(forum, run, tmp_path) -> None:
    new_game(run, tmp_path, "smf21", serve_thread_b(forum, "smf21"))
    code, out, _ = run("game", "title", "b")
    assert out == (
        "b is called 'Chat Mafia' in drafts and subjects (the thread's title without its day; "
        "give it a name with `assistant game title b NAME`).\n"
    )
    pms = _night_1_pms(run, tmp_path)
    assert "Subject: Chat Mafia: results of Night 1\n" in pms  # the thread: "Chat Mafia — Day 2"
    assert "Day 2" not in pms and "Subject: b:" not in pms
    run("alerts", "b", "--check")
    feed = feedparser.parse(str(tmp_path / "data" / "games" / "b.alerts.atom"))
    assert feed.feed.title.startswith("Chat Mafia") and "Day 2" not in feed.feed.title


def test_game_new_title_names_the_game_everywhere(forum, run, tmp_path) -> None:
    new_game(run, tmp_path, "smf21", serve_thread_b(forum, "smf21"), "--title", "Chat Mafia 12")
    assert "Subject: Chat Mafia 12: results of Night 1\n" in _night_1_pms(run, tmp_path)
    code, out, _ = run("game", "title", "b", "Turtle's Chat Mafia")
    assert out == "Set. b is called \"Turtle's Chat Mafia\" in drafts and subjects.\n"
    code, out, _ = run("draft", "pms", "b", "--night", "1")
    assert "Subject: Turtle's Chat Mafia: results of Night 1\n" in out
    code, _, err = run("game", "title", "b", "  ")
    assert code == 1 and "give b's name, e.g. `assistant game title b \"Chat Mafia\"`" in err
    code, out, _ = run("game", "title", "b", "Turtle's  Chat Mafia")  # the same name, respaced
    assert out.startswith("Unchanged. ")


def test_a_title_set_is_a_gm_input_that_log_lists_and_undo_withdraws(
        forum, run, tmp_path) -> None:
    new_game(run, tmp_path, "smf21", serve_thread_b(forum, "smf21"), "--title", "Chat Mafia 12")
    assert run("game", "title", "b", "Turtle's Chat Mafia")[0] == 0
    code, out, _ = run("--json", "log", "b")
    [entry] = [e for e in json.loads(out)["inputs"] if e["kind"] == "setting"]
    assert entry["what"] == ("the game's title set to \"Turtle's Chat Mafia\" "
                             "(was \"Chat Mafia 12\")")
    code, out, err = run("--json", "undo", "b", str(entry["id"]))
    assert code == 0, err
    [withdrawal] = json.loads(out)["inputs"]
    assert withdrawal["what"].startswith(f"withdrew input {entry['id']} (setting): the game's")
    assert run("game", "title", "b")[1] == "b is called 'Chat Mafia 12' in drafts and subjects.\n"
    assert "Subject: Chat Mafia 12: results of Night 1\n" in _night_1_pms(run, tmp_path)
    assert run("undo", "b", str(withdrawal["id"]))[0] == 0  # undoing the undo: the name again
    assert run("game", "title", "b")[1] == (
        "b is called \"Turtle's Chat Mafia\" in drafts and subjects.\n")


def test_before_the_thread_is_read_the_game_is_called_by_its_ruleset(run, tmp_path) -> None:
    path = tmp_path / "players.txt"
    path.write_text("\n".join(players_lines("smf21")) + "\n", encoding="utf-8")
    code, _, err = run("game", "new", "b", "--thread", tb.THREAD_URL["smf21"],
                       "--ruleset", "chat-mafia", "--players", str(path))  # fmt: skip
    assert code == 0, err
    pms = _night_1_pms(run, tmp_path)
    assert "Subject: Turtle's Chat Mafia: results of Night 1\n" in pms  # not "b: results ..."
