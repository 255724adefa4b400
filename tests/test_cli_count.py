"""The issue-3 commands end to end: `game new`, `count`, `draft tally`, `vote`, `replay`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from realthreads import HOST, NOW, PLAYERS_A, thread_posts, truth

from assistant.cli import main
from assistant.store import GameStore

SMF_A = "http://127.0.0.1:8021/index.php?topic=2.0"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as e:
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


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
    assert {"post", "markup", "accepted", "reason"} <= set(first)
    assert (first["post"], first["markup"], first["accepted"]) == (12, "bold", True)
    assert first["reason"] == "removed by the unvote in post 40 (counted: bold vote)"
    code, out, _ = run(capsys, "--data-dir", str(game_a), "count", "a", "--why")
    assert (
        "post 13 http://127.0.0.1:8021/index.php?msg=13 [red] Conia: 'vote Conia' -> "
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
    _, js, _ = run(capsys, "--data-dir", str(game_a), "draft", "tally", "a", "--json")
    assert json.loads(js)["bbcode"].startswith("[b]Vote Count[/b]")


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
