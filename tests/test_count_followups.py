"""What a GM hit in a full walkthrough of thread B (002), served on 127.0.0.1 and driven
through `assistant.cli.main` as in test_gm_walkthrough.py:

- `count`, `draft tally`, `phase`, `draft dusk` and the daemon's view show one deadline,
  the effective one (everyone voted at 11:15:40, so 002 drops the clock to 5 minutes), and
  votes after a deadline the GM moved earlier are not counted;
- `count --at` reads times as `phase` / `kill` do ("11:12", "2026-11-22 11:12"), with their
  error;
- `count --why` reads a name as votes read names, non-players included;
- a game with no posts stored says to fetch them instead of counting nothing;
- orders after a win, and a night resolved before an earlier one, are refused.
"""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta
from pathlib import Path

import pytest
import thread_b_support as tb
from thread_b_cli import (  # noqa: F401 - the fixtures
    FORUMS,
    NOW,
    enter_day_2,
    new_game,
    players_file,
    run_at_noon,
    serve_thread_b,
    served_forum,
    setup_file,
)

from assistant.monitor import day_end, load_view
from assistant.store import GameStore


def tally_end(draft: str) -> str:
    """The deadline a tally draft shows ("Day 2 ends at 2026-11-22 11:20 UTC")."""
    found = re.search(r"Day \d+ end(?:s|ed) at (\S+ \S+) UTC", draft)
    assert found is not None, draft
    return found.group(1)


def post_id(forum: str, label: str = "tom_revote_conia") -> int:
    post = next(p for p in tb.truth(forum)["posts"] if p["label"] == label)
    return post.get("msg_id", post.get("post_id"))


# ---- 1. one deadline everywhere: the effective one ------------------------------------------


@pytest.mark.parametrize("forum_name", list(FORUMS))
def test_count_tally_phase_dusk_and_daemon_show_the_day_ending_after_everyone_voted(
    forum_name, forum, run, tmp_path
) -> None:
    enter_day_2(run, tmp_path, forum, forum_name)
    # Tom & Jerry's re-vote (post 145 on SMF) was the last missing vote: 5 minutes from it
    # (as the forum shows its time: SMF without seconds).
    revote = next(p for p in tb.final_posts(forum_name) if p.post_id == post_id(forum_name))
    ends = revote.posted_at + timedelta(minutes=5)
    assert ends < datetime.fromisoformat(tb.truth(forum_name)["meta"]["day"]["announced_end_iso"])

    phase = json.loads(run("--json", "phase", "b")[1])
    assert phase["deadline"] == ends.isoformat()
    assert phase["why"] == "everyone has voted: the clock dropped to 5 min"
    count = json.loads(run("--json", "count", "b")[1])
    assert count["outcome"]["lynched"] == ["xX_Slayer_Xx"]
    code, text, _ = run("draft", "tally", "b")
    assert tally_end(text) == f"{ends:%Y-%m-%d %H:%M}"  # not the announced 11:23 / 11:22
    dusk = json.loads(run("--json", "draft", "dusk", "b", "--day", "2")[1])
    assert dusk["ends_at"] == ends.isoformat() and dusk["final"] is True

    # The daemon asks monitor.load_view; a count by day number (`--day 2`) agrees too.
    with GameStore.open(tmp_path / "data", "b", create=False) as store:
        now = datetime.fromisoformat(NOW)
        view = load_view(store, now)
        assert view.tally is not None and view.tally.deadline == ends
        assert day_end(store, now, 2).at == ends  # type: ignore[union-attr]
    assert tally_end(run("draft", "tally", "b", "--day", "2")[1]) == f"{ends:%Y-%m-%d %H:%M}"

    # After the GM starts the night, yesterday still ended when it ended.
    assert run("phase", "b", "night", "2", "--ends", "+30m")[0] == 0
    assert tally_end(run("draft", "tally", "b", "--day", "2")[1]) == f"{ends:%Y-%m-%d %H:%M}"
    dusk = json.loads(run("--json", "draft", "dusk", "b", "--day", "2")[1])
    assert dusk["ends_at"] == ends.isoformat()


def test_a_vote_after_a_deadline_the_gm_moved_earlier_is_not_counted(forum, run, tmp_path) -> None:
    """At 11:16:30 the GM moves the deadline to 11:17: Jd-'s [Vote: slayer] at 11:18 comes
    after it. Counting against the announced 11:23 would count it (4 on Slayer)."""
    enter_day_2(run, tmp_path, forum, "smf21")
    code, _, err = run("phase", "b", "--move-to", "11:17", now="2026-11-22T11:16:30+00:00")
    assert code == 0, err

    doc = json.loads(run("--json", "count", "b", "--why", "Jd-")[1])
    slayer = next(w for w in doc["wagons"] if w["target"] == "xX_Slayer_Xx")
    assert slayer["voters"] == ["Lady Grey", "Mr. Pickles", "Conia"]
    late = doc["votes"][-1]
    assert (late["post"], late["accepted"], late["code"]) == (153, False, "after_deadline")
    assert late["reason"] == "not counted: cast after the deadline (2026-11-22T11:17:00+00:00)"

    code, text, _ = run("draft", "tally", "b")
    assert "xX_Slayer_Xx (3): Lady Grey, Mr. Pickles, Conia" in text
    assert "Day 2 ended at 2026-11-22 11:17 UTC" in text  # the deadline has passed
    dusk = json.loads(run("--json", "draft", "dusk", "b")[1])
    assert dusk["ends_at"] == "2026-11-22T11:17:00+00:00"
    assert dusk["outcome"]["reason"] == "xX_Slayer_Xx leads with 3"
    assert dusk["ends_why"] == "deadline shortened by the GM"


def test_dusk_gives_the_reason_for_the_day_end_without_nested_brackets(
    forum, run, tmp_path
) -> None:
    """Day 2 cut at 11:10, before everyone voted: the deadline as the GM set it, whose
    reason carries its own brackets ("deadline set by the GM (8 min day)")."""
    new_game(run, tmp_path, "smf21", serve_thread_b(forum, "smf21"))
    run("phase", "b", "day", "2", "--start-post", "116", "--ends", "2026-11-22T11:10")
    why = json.loads(run("--json", "phase", "b")[1])["why"]
    assert why.startswith("deadline set by the GM (") and why.endswith(" day)")
    code, out, err = run("draft", "dusk", "b")
    assert code == 0, err
    line = next(ln for ln in out.splitlines() if ln.startswith("day ended: "))
    assert line == f"day ended: Sun 22 Nov 2026 11:10 UTC; {why}"
    assert "))" not in out


# ---- 2. one time reader ---------------------------------------------------------------------


def test_count_at_reads_times_as_phase_and_kill_do(forum, run, tmp_path) -> None:
    """At noon, "11:12" is this morning's 11:12 (the host's tally #2 came at 11:12:07)."""
    enter_day_2(run, tmp_path, forum, "smf21")
    docs = [
        json.loads(run("--json", "count", "b", "--at", at)[1])
        for at in ("11:12", "2026-11-22 11:12", "2026-11-22T11:12", "2026-11-22T11:12:00Z",
                   "Sunday 11:12")
    ]  # fmt: skip
    assert all(d == docs[0] for d in docs)
    wagons = {w["target"]: w["voters"] for w in docs[0]["wagons"]}
    assert wagons == {
        "Lady Grey": ["xX_Slayer_Xx"],
        "xX_Slayer_Xx": ["Lady Grey", "Mr. Pickles"],
        "Mr. Pickles": ["Jd-"],
    }
    # As of 11:12 nobody knew yet that everyone would have voted by 11:15: the announced end.
    code, text, _ = run("draft", "tally", "b", "--at", "11:12")
    assert tally_end(text) == "2026-11-22 11:23" and "11 min" in text

    # A PM vote's time is read the same way (the ruleset refuses PM votes, not the time).
    code, _, vote_err = run("vote", "b", "Conia", "Jd-", "--at", "11:12")
    assert code == 1 and "does not take votes by PM" in vote_err

    # One reader, one message: what `count` says of a bad time is what `kill` says.
    code, _, count_err = run("count", "b", "--at", "yesterday 11:12")
    _, _, kill_err = run("kill", "b", "Conia", "--at", "yesterday 11:12")
    assert code == 1 and count_err == kill_err
    assert count_err.startswith("error: --at: 'yesterday 11:12' is not a time")
    code, _, err = run("count", "b", "--at", "11:99")
    assert (code, err) == (1, "error: --at: '11:99' is not a time of day; write 00:00 to 23:59\n")


# ---- 3. --why reads names as votes do ------------------------------------------------------------


def test_why_finds_players_aliases_and_non_players_by_the_loose_rules(forum, run, tmp_path) -> None:
    enter_day_2(run, tmp_path, forum, "smf21")
    code, out, err = run("count", "b", "--why", "bob")
    assert code == 0, err
    why = out.split("\n\n")[-1].splitlines()
    assert why[0] == "Votes of bob the builder (1):"
    assert why[1].endswith(
        "[tag] bob the builder: '[Vote: Slayer]' -> not counted: bob the builder is not a "
        "player in this game"
    )
    doc = json.loads(run("--json", "count", "b", "--why", "BOB THE")[1])
    assert [(v["post"], v["voter"]) for v in doc["votes"]] == [(148, "bob the builder")]
    # Players come first: "pickles" is Mr. Pickles, "slayer" the alias of xX_Slayer_Xx.
    doc = json.loads(run("--json", "count", "b", "--why", "pickles")[1])
    assert {v["voter"] for v in doc["votes"]} == {"Mr. Pickles"} and len(doc["votes"]) == 2
    doc = json.loads(run("--json", "count", "b", "--why", "slayer")[1])
    assert {v["voter"] for v in doc["votes"]} == {"xX_Slayer_Xx"}
    # The host's vote examples are explained under her name.
    doc = json.loads(run("--json", "count", "b", "--why", "mira")[1])
    assert [v["text"] for v in doc["votes"]][:2] == ["[Vote: player]", "[Unvote]"]
    assert {v["voter"] for v in doc["votes"]} == {"Host Mira"}

    code, out, err = run("count", "b", "--why", "J")
    assert (code, out) == (1, "")
    assert err == "error: --why: 'J' could be Jd- or Tom & Jerry's; write more of the name\n"
    code, out, err = run("count", "b", "--why", "Zorro")
    assert (code, out) == (1, "")
    assert err.startswith("error: --why: no player, and nobody else who voted on day 2, is "
                          "called 'Zorro'; players: Mr. Pickles, xX_Slayer_Xx, ")  # fmt: skip
    assert err.endswith("; other voters: Host Mira, bob the builder\n")
    code, _, err = run("count", "b", "--why", "Lady Gary")
    assert code == 0, err  # a close spelling, as in votes


# ---- 4. nothing fetched yet ---------------------------------------------------------------------


def test_a_game_without_posts_says_to_fetch_them(run, tmp_path) -> None:
    new = ("game", "new", "b", "--thread", tb.THREAD_URL["smf21"], "--ruleset", "chat-mafia")
    assert run(*new, "--players", str(players_file(tmp_path, "smf21")), "--gm", tb.GM)[0] == 0
    run("phase", "b", "day", "2", "--ends", "+1h")
    message = (
        "error: no posts of game 'b' are stored yet: run `assistant fetch --game b` to read the "
        "thread, then count again\n"
    )
    for args in (("count", "b"), ("draft", "tally", "b"), ("draft", "dusk", "b"),
                 ("--json", "count", "b", "--why")):  # fmt: skip
        assert run(*args) == (1, "", message), args
    store = tmp_path / "data" / "games" / "b.json"
    before = store.read_bytes()
    assert run("draft", "dusk", "b", "--confirm")[0] == 1 and store.read_bytes() == before


def test_a_game_voting_by_pm_counts_without_a_thread(run, tmp_path) -> None:
    """004 (votes by PM): the thread may never be fetched; the votes the GM entered count."""
    (tmp_path / "p.txt").write_text("Ann\nBen\nCat\n", encoding="utf-8")
    run("game", "new", "d", "--thread", "http://127.0.0.1:9/index.php?topic=1.0",
        "--ruleset", "dctp-mini", "--players", str(tmp_path / "p.txt"))  # fmt: skip
    run("phase", "d", "day", "1", "--ends", "+1h", now="2026-11-22T11:00:00+00:00")
    code, _, err = run("count", "d")
    assert code == 1 and "and no votes were entered by PM" in err
    assert "(or `assistant vote d VOTER TARGET`)" in err
    assert run("vote", "d", "Ann", "Ben", "--at", "11:30")[0] == 0
    doc = json.loads(run("--json", "count", "d")[1])
    assert doc["wagons"] == [{"target": "Ben", "voters": ["Ann"], "displayed": 1, "effective": 1}]


# ---- 5. the engine after a win and between nights ----------------------------------------------


def test_orders_after_a_win_are_refused_saying_who_won_and_when(run, tmp_path) -> None:
    _engine_game(run, tmp_path)
    assert run("kill", "b", "Slayer", "--how", "modkill")[0] == 0  # the last mafia
    code, out, err = run("order", "b", "Conia: jail Jd", "--night", "2")
    assert (code, out) == (1, "")
    assert err == (
        "error: Town won when xX_Slayer_Xx died (modkill) (All threats to the Town have been "
        "eliminated): the game b is over; orders are no longer taken (--force to go on, for a "
        "GM's ruling)\n"
    )
    code, _, err = run("resolve", "b", "--night", "2")
    assert code == 1 and err.endswith(
        "the game b is over; there is nothing left to resolve (--force to go on, for a GM's "
        "ruling)\n"
    )


def test_a_night_is_not_resolved_before_an_earlier_one(run, tmp_path) -> None:
    _engine_game(run, tmp_path)
    store = tmp_path / "data" / "games" / "b.json"
    # A GM joining at night 2 has no night 1 to resolve...
    assert run("order", "b", "Lady G: investigate Jerry", "--night", "2")[0] == 0
    code, out, err = run("resolve", "b", "--night", "2")
    assert code == 0 and out.startswith("night 2: resolved and stored"), err
    # ...but night 4 after night 2 skips night 3, dry run or not.
    before = store.read_bytes()
    for extra in ((), ("--dry-run",)):
        code, out, err = run("resolve", "b", "--night", "4", *extra)
        assert (code, out) == (1, "") and err == (
            "error: night 3 of b is not resolved yet; nights resolve in order: first "
            "`assistant resolve b --night 3` (a night without orders resolves to nothing), "
            "then night 4\n"
        )
    assert store.read_bytes() == before
    assert run("resolve", "b", "--night", "3")[0] == 0
    assert run("resolve", "b", "--night", "4")[0] == 0


def test_orders_waiting_for_an_earlier_night_stop_a_later_one(run, tmp_path) -> None:
    _engine_game(run, tmp_path)
    assert run("order", "b", "Conia: jail Jd", "--night", "1")[0] == 0
    assert run("phase", "b", "night", "3", "--ends", "+1h")[0] == 0  # the GM's clock
    code, _, err = run("resolve", "b")
    assert code == 1 and err.startswith("error: nights 1, 2 of b are not resolved yet;")


def _engine_game(run, tmp_path: Path) -> None:
    """Thread B's players and setup, no posts; ÆtherWolf (mafia) lynched on Day 1."""
    new = ("game", "new", "b", "--thread", tb.THREAD_URL["smf21"], "--ruleset", "chat-mafia")
    assert run(*new, "--players", str(players_file(tmp_path, "smf21")), "--gm", tb.GM)[0] == 0
    assert run("roles", "b", "--file", str(setup_file(tmp_path, "smf21")))[0] == 0
    assert run("kill", "b", "ÆtherWolf", "--how", "lynch", "--day", "1")[0] == 0


@pytest.mark.parametrize("forum_name", list(FORUMS))
def test_the_night_after_a_dusk_that_ends_nothing(forum_name, forum, run, tmp_path) -> None:
    """The walkthrough's Night 2 with Tom & Jerry's a third mafia, so Slayer's lynch does not
    end the game: orders read names like votes, and the night is the GM's clock's."""
    enter_day_2(run, tmp_path, forum, forum_name)
    setup = setup_file(tmp_path, forum_name)
    text = setup.read_text(encoding="utf-8")
    setup.write_text(
        text.replace('name = "Tom & Jerry\'s", side = "town"', 'name = "Tom & Jerry\'s", '
                     'side = "mafia"'), encoding="utf-8"
    )  # fmt: skip
    assert run("roles", "b", "--file", str(setup))[0] == 0
    code, out, err = run("draft", "dusk", "b", "--day", "2", "--confirm")
    assert code == 0 and "Victory" not in out, err

    # Night 2 (the GM's clock), not the engine's "first night it has resolved".
    assert run("phase", "b", "night", "2", "--ends", "+30m")[0] == 0
    assert run("order", "b", "Conia: jail Jd") == (0, "stored for night 2: Conia: jail Jd-\n", "")
    code, out, err = run("order", "b", "Lady G: investigate Jerry")  # aliases, as in votes
    assert out == "stored for night 2: Lady Grey: investigate Tom & Jerry's\n", err
    code, _, err = run("order", "b", "Conia: jail J")
    assert code == 1 and err == (
        "error: 'Conia: jail J': 'J' could be Jd-, Tom & Jerry's; write more of the name\n"
    )
    code, _, err = run("order", "b", "Kat: protect Conia")
    assert code == 1 and "Kat is dead; the dead give no orders" in err
    code, _, err = run("order", "b", "Zed: jail Conia")
    assert code == 1 and "no player called 'Zed'" in err

    code, out, err = run("resolve", "b", "--dry-run")
    assert code == 0 and out.startswith("night 2: dry run (nothing stored)"), err
    code, out, err = run("resolve", "b")
    assert code == 0 and out.startswith("night 2: resolved and stored"), err
    code, out, _ = run("draft", "dawn", "b")
    assert out.startswith("Dawn breaks after Night 2.")
    pms = json.loads(run("--json", "draft", "pms", "b")[1])
    assert "Your investigation of Tom & Jerry's returns: Mafia." in pms["Lady Grey"]
    # 002 tells only the Roleblocker's target; the jailed Jd- gets no PM. The subject names
    # the game (its thread's title), not the ruleset.
    assert "Jd-" not in pms and "Turtle's Chat Mafia" not in pms["Lady Grey"]
    assert pms["Lady Grey"].splitlines()[1].endswith(": results of Night 2")
