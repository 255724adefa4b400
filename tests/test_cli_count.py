"""The issue-3 commands end to end: `game new`, `count`, `draft tally`, `vote`, `replay`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import run_cli as run
from realthreads import HOST, NOW, PLAYERS_A, thread_posts, truth

from assistant.store import GameStore

SMF_A = "http://127.0.0.1:8021/index.php?topic=2.0"


@pytest.fixture
def game_a(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    players = tmp_path / "players.txt"
    players.write_text("\n".join(PLAYERS_A) + "\n", encoding="utf-8")
    code, out, err = run(
        capsys,
        "--data-dir",
        str(tmp_path),
        "game",
        "new",
        "a",
        "--thread",
        SMF_A,
        "--ruleset",
        "permissive",
        "--players",
        str(players),
        "--gm",
        HOST,
    )
    assert code == 0, err
    with GameStore.open(tmp_path, "a") as store:
        store.record_posts(thread_posts("smf21"), NOW)
    return tmp_path


def test_count_json_has_exactly_the_issue_shape(game_a: Path, capsys) -> None:
    code, out, _ = run(capsys, "--data-dir", str(game_a), "count", "a", "--json")
    doc = json.loads(out)
    assert code == 0 and set(doc) == {"wagons", "not_voting", "alive", "majority", "outcome"}
    assert all(set(w) == {"target", "voters", "displayed", "effective"} for w in doc["wagons"])
    assert doc["outcome"] == {
        "lynched": ["ÆtherWolf"],
        "no_lynch": False,
        "decided_by": "majority",
        "at_post": 66,
        "reason": "majority reached: 5 votes on ÆtherWolf ends the day",
    }
    final = {v: w["target"] for w in doc["wagons"] for v in w["voters"]}
    assert final == truth("smf21")["meta"]["final_intended_votes"]
    assert doc["majority"] == 5 and doc["not_voting"] == [] and len(doc["alive"]) == 9


def test_count_why_explains_one_players_votes(game_a: Path, capsys) -> None:
    code, out, _ = run(capsys, "--data-dir", str(game_a), "count", "a", "--why", "jd", "--json")
    votes = json.loads(out)["votes"]
    assert code == 0 and {v["voter"] for v in votes} == {"Jd-"}
    first = votes[0]
    assert {"post", "markup", "accepted", "code", "reason"} <= set(first)
    assert (first["post"], first["markup"], first["accepted"]) == (12, "bold", True)
    assert first["code"] == "unvoted"
    assert first["reason"] == "removed by the unvote in post 40 (counted: bold vote)"
    code, out, _ = run(capsys, "--data-dir", str(game_a), "count", "a", "--why")
    assert (
        "post 13 #1 http://127.0.0.1:8021/index.php?msg=13 [red] Conia: 'vote Conia' -> "
        "not counted: inside a quote of post 8 (Lady Grey)" in out
    )


def test_count_at_post_and_at_time(game_a: Path, capsys) -> None:
    _, out, _ = run(capsys, "--data-dir", str(game_a), "count", "a", "--at-post", "41", "--json")
    assert json.loads(out)["wagons"][0] == {
        "target": "Jd-",
        "effective": 3,
        "displayed": 3,
        "voters": ["Lady Grey", "Mr. Pickles", "bob the builder"],
    }
    at41 = thread_posts("smf21")[39].posted_at.isoformat()
    _, out2, _ = run(capsys, "--data-dir", str(game_a), "count", "a", "--at", at41, "--json")
    assert json.loads(out2)["wagons"] == json.loads(out)["wagons"]


def test_draft_tally_is_bbcode(game_a: Path, capsys) -> None:
    code, out, _ = run(capsys, "--data-dir", str(game_a), "draft", "tally", "a", "--at-post", "15")
    assert code == 0
    assert out.startswith("[b]Vote Count[/b]")
    assert (
        "Lady Grey (2): [url=http://127.0.0.1:8021/index.php?msg=12]Jd-[/url], "
        "[url=http://127.0.0.1:8021/index.php?msg=13]Conia[/url]" in out
    )
    assert "Not voting (3): xX_Slayer_Xx, Tom & Jerry's, bob the builder" in out
    assert "With 9 alive, it takes 5 to lynch." in out


def test_draft_tally_json_is_the_issue_shape_plus_the_post(game_a: Path, capsys) -> None:
    """Issue 3: `draft --json` prints wagons / not_voting / alive / majority / outcome, like
    `count --json`, and the BBCode the plain command prints."""
    d = str(game_a)
    code, text, _ = run(capsys, "--data-dir", d, "draft", "tally", "a", "--at-post", "15")
    _, js, _ = run(capsys, "--data-dir", d, "draft", "tally", "a", "--at-post", "15", "--json")
    doc = json.loads(js)
    assert code == 0 and set(doc) == {
        "wagons", "not_voting", "alive", "majority", "outcome", "bbcode"
    }
    # At post 15 (see test_tally_realforum): Jd- (12) and Conia (13) on Lady Grey, Pickles (3)
    # on Kat, Kat (4) on Pickles, Lady Grey (8) on Conia, ÆtherWolf (10) on Tom & Jerry's.
    assert doc["wagons"] == [
        {"target": "Lady Grey", "voters": ["Jd-", "Conia"], "displayed": 2, "effective": 2},
        {"target": "Kat", "voters": ["Mr. Pickles"], "displayed": 1, "effective": 1},
        {"target": "Mr. Pickles", "voters": ["Kat"], "displayed": 1, "effective": 1},
        {"target": "Conia", "voters": ["Lady Grey"], "displayed": 1, "effective": 1},
        {"target": "Tom & Jerry's", "voters": ["ÆtherWolf"], "displayed": 1, "effective": 1},
    ]
    assert doc["not_voting"] == ["xX_Slayer_Xx", "Tom & Jerry's", "bob the builder"]
    assert doc["alive"] == PLAYERS_A and doc["majority"] == 5
    assert doc["outcome"] == {
        "lynched": ["Lady Grey"],
        "no_lynch": False,
        "decided_by": "not_yet",
        "reason": "if the day ended now: Lady Grey leads with 2",
        "at_post": 15,
    }
    assert doc["bbcode"].rstrip("\n") == text.rstrip("\n")  # the post the plain command prints
    # The same numbers as `count --json` at the same point: one document, two commands.
    _, counted, _ = run(capsys, "--data-dir", d, "count", "a", "--at-post", "15", "--json")
    assert {k: v for k, v in doc.items() if k != "bbcode"} == json.loads(counted)
    # At the end the hammer (post 66) decides, and the post says so.
    _, js, _ = run(capsys, "--data-dir", d, "draft", "tally", "a", "--json")
    end = json.loads(js)
    assert end["wagons"][0] == {
        "target": "ÆtherWolf",
        "voters": ["xX_Slayer_Xx", "Conia", "Mr. Pickles", "bob the builder", "Jd-"],
        "displayed": 5,
        "effective": 5,
    }
    assert [w["target"] for w in end["wagons"]] == ["ÆtherWolf", "xX_Slayer_Xx", "Jd-", "No Lynch"]
    assert end["not_voting"] == [] and end["majority"] == 5
    assert end["outcome"] == {
        "lynched": ["ÆtherWolf"],
        "no_lynch": False,
        "decided_by": "majority",
        "reason": "majority reached: 5 votes on ÆtherWolf ends the day",
        "at_post": 66,
    }
    assert end["bbcode"].endswith(
        "[i]The day ended at majority with "
        "[url=http://127.0.0.1:8021/index.php?msg=66]post 66[/url]: ÆtherWolf.[/i]\n"
    )


def test_pm_votes_004(tmp_path: Path, capsys) -> None:
    players = tmp_path / "p.txt"
    players.write_text("Conia\nJd-\nKat\n", encoding="utf-8")
    run(
        capsys,
        "--data-dir",
        str(tmp_path),
        "game",
        "new",
        "d",
        "--thread",
        SMF_A,
        "--ruleset",
        "004",
        "--players",
        str(players),
        "--gm",
        HOST,
    )
    assert (
        run(
            capsys,
            "--data-dir",
            str(tmp_path),
            "vote",
            "d",
            "conia",
            "jd",
            "--at",
            "2026-11-21T10:00",
        )[0]
        == 0
    )
    run(capsys, "--data-dir", str(tmp_path), "vote", "d", "Kat", "Jd-", "--at", "2026-11-21T10:05")
    _, out, _ = run(capsys, "--data-dir", str(tmp_path), "count", "d", "--json")
    assert json.loads(out)["wagons"] == [
        {"target": "Jd-", "voters": ["Conia", "Kat"], "displayed": 2, "effective": 2}
    ]
    code, _, err = run(capsys, "--data-dir", str(tmp_path), "vote", "d", "Kat", "Zorro")
    assert code == 1 and err.startswith("error: the target 'Zorro' matches no player")


def _jsonl(tmp_path: Path, forum: str, thread: str) -> Path:
    path = tmp_path / "posts.jsonl"
    with path.open("w", encoding="utf-8") as f:
        for p in thread_posts(forum, thread):
            f.write(
                json.dumps(
                    {
                        "number": p.post_id,
                        "user": p.author,
                        "content": p.body_html,
                        "time": p.posted_at.isoformat(),
                    },
                    ensure_ascii=False,
                )
                + "\n"
            )
    return path


def test_replay_counts_to_the_majority_post(tmp_path: Path, capsys) -> None:
    posts = _jsonl(tmp_path, "phpbb33", "a")
    players = tmp_path / "players.txt"
    players.write_text("\n".join(PLAYERS_A) + "\n", encoding="utf-8")
    code, out, _ = run(
        capsys,
        "replay",
        str(posts),
        "--ruleset",
        "permissive",
        "--players",
        str(players),
        "--gm",
        HOST,
        "--json",
    )
    doc = json.loads(out)
    assert code == 0 and doc["outcome"]["at_post"] == 66
    assert doc["wagons"][0]["target"] == "ÆtherWolf" and doc["wagons"][0]["effective"] == 5
    _, out, _ = run(
        capsys,
        "replay",
        str(posts),
        "--ruleset",
        "permissive",
        "--players",
        str(players),
        "--gm",
        HOST,
        "--to-post",
        "41",
        "--json",
    )
    assert json.loads(out)["wagons"][0]["voters"] == ["Lady Grey", "Mr. Pickles", "bob the builder"]


def test_replay_thread_b_under_002(tmp_path: Path, capsys) -> None:
    meta = truth("smf21", "b")["meta"]
    posts = _jsonl(tmp_path, "smf21", "b")
    players = tmp_path / "players.txt"
    players.write_text(
        "".join(" | ".join([p, *meta["common_names"][p]]) + "\n" for p in meta["alive"]),
        encoding="utf-8",
    )
    code, out, _ = run(
        capsys,
        "replay",
        str(posts),
        "--ruleset",
        "002",
        "--players",
        str(players),
        "--gm",
        HOST,
        "--json",
        "--why",
    )
    doc = json.loads(out)
    assert code == 0
    assert {v: w["target"] for w in doc["wagons"] for v in w["voters"]} == meta["final_votes_002"]
    reasons = {v["text"]: v["reason"] for v in doc["votes"] if not v["accepted"]}
    assert reasons["[Vote: J]"] == "ambiguous: 'J' could be Jd- or Tom & Jerry's; not counted"
    assert reasons["[Vote: Kat]"].startswith("not counted: 'Kat' matches no player")


def test_errors_are_one_line(tmp_path: Path, capsys) -> None:
    code, out, err = run(capsys, "--data-dir", str(tmp_path), "count", "nope")
    assert code == 1 and err.startswith("error: no game called 'nope'") and "Traceback" not in err
    bad = tmp_path / "bad.txt"
    bad.write_text("Conia\nConia\n", encoding="utf-8")
    code, _, err = run(
        capsys,
        "--data-dir",
        str(tmp_path),
        "game",
        "new",
        "x",
        "--thread",
        SMF_A,
        "--ruleset",
        "permissive",
        "--players",
        str(bad),
    )
    assert code == 1 and "is already on line 1" in err
    code, _, err = run(
        capsys,
        "--data-dir",
        str(tmp_path),
        "game",
        "new",
        "x",
        "--thread",
        SMF_A,
        "--ruleset",
        "nosuch",
        "--players",
        str(bad),
    )
    assert code == 1 and "no ruleset called 'nosuch'" in err


# ---- 001: the sheriff and the tie-break, end to end --------------------------------------


def _game_001(tmp_path: Path, capsys) -> Path:
    players = tmp_path / "players.txt"
    players.write_text("\n".join(PLAYERS_A) + "\n", encoding="utf-8")
    args = ["--data-dir", str(tmp_path), "game", "new", "w", "--thread", SMF_A]
    args += ["--ruleset", "millers-hollow", "--players", str(players), "--gm", HOST]
    assert run(capsys, *args)[0] == 0
    with GameStore.open(tmp_path, "w") as store:
        store.record_posts(thread_posts("smf21"), NOW)
    return tmp_path


def test_sheriff_and_tiebreak_commands_decide_the_real_tie(tmp_path: Path, capsys) -> None:
    d = str(_game_001(tmp_path, capsys))
    at57 = ("count", "w", "--at-post", "57", "--json")
    _, out, _ = run(capsys, "--data-dir", d, *at57)
    reason = json.loads(out)["outcome"]["reason"]
    assert reason.endswith("there is no sheriff, so nobody is lynched")
    code, out, _ = run(capsys, "--data-dir", d, "sheriff", "w", "lady grey", "--json")
    assert code == 0 and json.loads(out) == {"player": "Lady Grey", "day": None, "at_post": None}
    _, out, _ = run(capsys, "--data-dir", d, *at57)
    assert json.loads(out)["outcome"]["lynched"] == []
    assert "the sheriff (Lady Grey) decides among them" in json.loads(out)["outcome"]["reason"]
    code, out, _ = run(capsys, "--data-dir", d, "tiebreak", "w", "mr. pickles")
    assert code == 0 and out.startswith("Recorded: the sheriff chose Mr. Pickles")
    _, out, _ = run(capsys, "--data-dir", d, *at57)
    assert json.loads(out)["outcome"]["lynched"] == ["Mr. Pickles"]
    _, out, _ = run(capsys, "--data-dir", d, "count", "w", "--at-post", "57")
    assert "Outcome: Mr. Pickles (post 57): if the day ended now: tie between Jd- and " in out
    assert "the sheriff (Lady Grey) chose Mr. Pickles" in out


def test_sheriff_and_tiebreak_refuse_what_cannot_be_used(game_a: Path, tmp_path, capsys) -> None:
    code, _, err = run(capsys, "--data-dir", str(game_a), "sheriff", "a", "Conia")
    assert code == 1 and err.startswith("error: the ruleset of 'a' (permissive) has no sheriff")
    code, _, err = run(capsys, "--data-dir", str(game_a), "tiebreak", "a", "Conia")
    assert code == 1 and "nobody decides a tie" in err
    (tmp_path / "w").mkdir()
    d = str(_game_001(tmp_path / "w", capsys))
    code, _, err = run(capsys, "--data-dir", d, "sheriff", "w", "Zorro")
    assert code == 1 and err.startswith("error: the sheriff 'Zorro' matches no player")
    code, _, err = run(capsys, "--data-dir", d, "tiebreak", "w", "J")  # names are exact here
    assert code == 1 and err.startswith("error: the choice 'J' matches no player; players: Mr.")


# ---- bad input: one line naming the file and the line, never a stack trace ----------------


def _replay(capsys, posts: Path, players: Path, *more: str) -> tuple[int, str, str]:
    return run(
        capsys, "replay", str(posts), "--ruleset", "002", "--players", str(players), *more
    )


@pytest.fixture
def players_file(tmp_path: Path) -> Path:
    path = tmp_path / "players.txt"
    path.write_text("\n".join(PLAYERS_A) + "\n", encoding="utf-8")
    return path


def _line(number: object, user: object, content: object, time: object) -> str:
    return json.dumps({"number": number, "user": user, "content": content, "time": time})


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"number": 3, "user": "Kat", "content": "x"', "line 2: not JSON"),
        ("[1, 2, 3]", "line 2: a JSON list, not an object"),
        ('{"number": 3, "user": "Kat"}', "line 2: no content, time"),
        (_line("three", "Kat", "x", "2026-11-21T10:00"), "line 2: number 'three' is not"),
        (_line(3, None, "x", "2026-11-21T10:00"), "line 2: user None is not a name"),
        (_line(3, "Kat", None, "2026-11-21T10:00"), "line 2: content must be"),
        (_line(3, "Kat", "x", "yesterday"), "line 2: 'yesterday' is not a time"),
        (_line(3, "Kat", "x", {"at": 1}), "line 2: time {'at': 1} is not a time"),
    ],
)
def test_replay_bad_lines_name_the_file_and_line(
    tmp_path: Path, players_file: Path, capsys, line: str, message: str
) -> None:
    posts = tmp_path / "posts.jsonl"
    good = _line(2, "Kat", "[Vote: Conia]", "2026-11-21T09:00")
    posts.write_text(good + "\n" + line + "\n", encoding="utf-8")
    code, _, err = _replay(capsys, posts, players_file)
    assert code == 1 and err.startswith(f"error: {posts}, {message}"), err
    assert "Traceback" not in err and "internal error" not in err


def test_replay_bad_files(tmp_path: Path, players_file: Path, capsys) -> None:
    posts = tmp_path / "posts.jsonl"
    posts.write_text("\n\n", encoding="utf-8")
    code, _, err = _replay(capsys, posts, players_file)
    assert code == 1 and err.startswith(f"error: {posts} holds no posts")
    posts.write_bytes(b'{"number": 2, "user": "K\xe4t", "content": "", "time": "2026-11-21"}\n')
    code, _, err = _replay(capsys, posts, players_file)
    assert code == 1 and err.startswith(f"error: {posts}: the posts file is not UTF-8")
    posts.write_text(_line(2, "Kat", "x", "2026-11-21T09:00") + "\n", encoding="utf-8")
    empty = tmp_path / "empty.txt"
    empty.write_text("# nobody yet\n", encoding="utf-8")
    code, _, err = _replay(capsys, posts, empty)
    assert code == 1 and err.startswith(f"error: {empty} lists no players")
    code, _, err = _replay(capsys, posts, tmp_path / "missing.txt")
    assert code == 2 and "does not exist" in err and "Traceback" not in err
    latin = tmp_path / "latin.txt"
    latin.write_bytes(b"Conia\nK\xe4t\n")
    code, _, err = _replay(capsys, posts, latin)
    assert code == 1 and err.startswith(f"error: {latin}: the players file is not UTF-8")


def test_replay_counts_a_repeated_post_once_and_takes_unix_times(
    tmp_path: Path, players_file: Path, capsys
) -> None:
    """An archive that repeats a post (an edit saved twice) must not cast its vote twice."""
    posts = tmp_path / "posts.jsonl"
    rows = [
        _line(2, "Kat", '<b>vote: Conia</b>', 1_795_000_000),
        _line(3, "Jd-", "[Vote: Conia]", 1_795_000_060.5),
        _line(3, "Jd-", "[Vote: Kat]", 1_795_000_060.5),  # the same post, edited
    ]
    posts.write_text("\n".join(rows) + "\n", encoding="utf-8")
    code, out, err = _replay(capsys, posts, players_file, "--json", "--why")
    doc = json.loads(out)
    assert code == 0, err
    assert doc["wagons"] == [{"target": "Kat", "voters": ["Jd-"], "displayed": 1, "effective": 1}]
    assert [(v["post"], v["code"]) for v in doc["votes"]] == [(2, "wrong_markup"), (3, "counted")]


def test_count_a_day_that_was_never_entered(game_a: Path, capsys) -> None:
    code, _, err = run(capsys, "--data-dir", str(game_a), "count", "a", "--day", "5")
    assert code == 1 and err.startswith("error: game 'a' has no day 5: no day has been entered")


def test_a_pm_vote_under_a_ruleset_without_pm_votes_is_refused(game_a: Path, capsys) -> None:
    code, _, err = run(capsys, "--data-dir", str(game_a), "vote", "a", "Conia", "Jd-")
    assert code == 1 and err.startswith(
        "error: the ruleset of 'a' (permissive) does not take votes by PM"
    )
    with GameStore.open(game_a, "a") as store:
        assert store.inputs("vote") == []


def test_game_new_refuses_a_url_that_is_not_a_topic_and_keeps_the_forum_zone(tmp_path, capsys):
    from assistant.cli import main
    from assistant.store import GameStore

    players = tmp_path / "players.txt"
    players.write_text("Kat\nConia\n", encoding="utf-8")
    base = ["--data-dir", str(tmp_path), "game", "new"]
    with pytest.raises(SystemExit) as e:
        main([*base, "bad", "--thread", "https://forum.example.org/index.php?board=4.0",
              "--ruleset", "permissive", "--players", str(players)])
    assert e.value.code == 1
    err = capsys.readouterr().err
    assert "not a topic" in err and "index.php?topic=" in err and "Traceback" not in err
    assert not (tmp_path / "games" / "bad.json").exists()
    main([*base, "g", "--thread", "https://forum.example.org/index.php?topic=12.0",
          "--ruleset", "permissive", "--players", str(players), "--tz", "America/New_York",
          "--forum-tz", "UTC"])
    with GameStore.open(tmp_path, "g", create=False) as store:
        assert store.config()["tz"] == "America/New_York"
        assert store.config()["forum_tz"] == "UTC"


def test_game_new_completes_a_game_that_fetch_created(tmp_path, capsys) -> None:
    """Issue 2's `fetch URL --game G` creates the game; `game new G` then adds its players
    (the daemon's hint says so) instead of refusing a game that "already exists"."""
    from cli_support import call

    from assistant.demo_forum import DemoForum

    players = tmp_path / "players.txt"
    players.write_text("Alice\nBram\nCleo\nDmitri\nEsme\nFelix\nGwen\nHugo\n", encoding="utf-8")
    with DemoForum() as forum:
        forum.stage = 3
        code, _, err = call(capsys, tmp_path, "fetch", forum.thread_url, "--game", "g",
                            "--delay", "0", "--tz", "Europe/London")
        assert code == 0, err
        new = ["game", "new", "g", "--ruleset", "mafiascum", "--players", str(players),
               "--gm", "Mod Otto", "--tz", "Europe/London"]
        code, _, err = call(capsys, tmp_path, *new[:3], "--thread",
                            forum.thread_url.replace("t=7", "t=8"), *new[3:])
        assert code == 1 and "already follows" in err
        code, out, err = call(capsys, tmp_path, *new[:3], "--thread", forum.thread_url, *new[3:])
        assert code == 0, err
        code, _, err = call(capsys, tmp_path, *new[:3], "--thread", forum.thread_url, *new[3:])
        assert code == 1 and "already exists" in err and "with its players" in err
    code, out, err = call(capsys, tmp_path, "count", "g", "--json")
    assert code == 0, err
    doc = json.loads(out)
    bram = next(w for w in doc["wagons"] if w["target"] == "Bram")
    assert bram["voters"] == ["Alice", "Cleo", "Dmitri", "Gwen"]
