"""Phases and the end of the game (issue 22), through the command line on thread B served
on 127.0.0.1: `phase` never ignores what it was given (a running day entered again with
`--ends` takes that deadline, replacing the moves and extensions before it, and keeps its
start unless `--starts` is given; a deadline before the start is refused however it is
given), every phase command prints the deadline that results and why; after a confirmed win
`phase`, `order` and `resolve` refuse in one line (`--force` goes on), `count` and `phase`
say "Game over: Town won (Day 2)" and no order is owed; a night started over a lynch never
confirmed says so; "Not voting" never lists the dead, whatever `--starts` says."""

from __future__ import annotations

import json
from functools import partial

import pytest
import thread_b_support as tb
from cli_support import error_line
from thread_b_cli import (  # noqa: F401 - the fixtures
    enter_day_2,
    new_game,
    run_at_time,
    serve_thread_b,
    served_forum,
    setup_file,
)

FORUM = "phpbb33"  # post times to the second
START = tb.truth(FORUM)["meta"]["day"]["start_iso"]  # 11:01:57, the host's Day 2 post


@pytest.fixture
def day_2(forum, run, tmp_path) -> None:
    """Thread B's game as its GM ran it live: Day 2 opened at the host's post at 11:05, to
    end at 11:22 as announced; the two earlier deaths at that post."""
    enter_day_2(partial(run, "11:05"), tmp_path, forum, FORUM)


def _phase(run, now: str) -> dict:
    code, out, err = run(now, "--json", "phase", "b")
    assert code == 0, err
    return json.loads(out)


def test_a_running_day_entered_again_with_ends_takes_that_deadline(day_2, run) -> None:
    code, out, _ = run("11:06", "phase", "b", "--extend", "5m")
    assert out.startswith("Day 2 extended by 5 min.\nDay 2 started Sun 22 Nov 2026 11:01 UTC\n"
                          "Deadline: Sun 22 Nov 2026 11:27 UTC (in 21 min); deadline set by the "
                          "GM (20 min 3 s day); extended by 5 min\n")  # fmt: skip
    code, out, _ = run("11:07", "phase", "b", "--move-to", "11:40")
    assert out.startswith("Day 2's deadline moved to Sun 22 Nov 2026 11:40 UTC.\n")
    assert "Deadline: Sun 22 Nov 2026 11:40 UTC (in 33 min); deadline moved by the GM" in out

    code, out, err = run("11:08", "phase", "b", "day", "2", "--ends", "11:30")
    assert code == 0, err
    assert out == (
        "Day 2 entered again: its start is kept (Sun 22 Nov 2026 11:01 UTC).\n"
        "The deadline you gave replaces Sun 22 Nov 2026 11:40 UTC (deadline moved by the GM), "
        "and with it the extension of 5 min and the move to Sun 22 Nov 2026 11:40 UTC.\n"
        "Day 2 started Sun 22 Nov 2026 11:01 UTC\n"
        "Deadline: Sun 22 Nov 2026 11:30 UTC (in 22 min); deadline set by the GM on entering "
        "Day 2 again (28 min 3 s day)\n"
        "An extension is still possible.\n"
    )
    state = _phase(run, "11:09")
    assert state["starts_at"] == START and state["deadline"] == "2026-11-22T11:30:00+00:00"
    # Everyone has voted with Tom & Jerry's re-vote at 11:15:31, after the GM set the new
    # deadline: the clock drops to 5 minutes all the same.
    state = _phase(run, "11:25")
    assert state["deadline"] == "2026-11-22T11:20:31+00:00"
    assert state["why"] == "everyone has voted: the clock dropped to 5 min"
    code, out, _ = run("11:25", "--json", "count", "b")
    assert json.loads(out)["outcome"]["lynched"] == ["xX_Slayer_Xx"]


def test_entered_again_without_a_deadline_the_day_keeps_the_gms(day_2, run) -> None:
    code, out, _ = run("11:06", "phase", "b", "day", "2", "--starts", "11:00")
    assert out.startswith("Day 2 entered again: its start moved from Sun 22 Nov 2026 11:01 UTC "
                          "to Sun 22 Nov 2026 11:00 UTC.\n")  # fmt: skip
    state = _phase(run, "11:06")
    assert state["starts_at"] == "2026-11-22T11:00:00+00:00"
    assert state["deadline"] == "2026-11-22T11:22:00+00:00"  # the GM's 11:22, kept
    code, out, _ = run("11:07", "phase", "b", "day", "2")  # nothing given: nothing changes
    assert out.startswith("Day 2 was entered already (started Sun 22 Nov 2026 11:00 UTC); "
                          "nothing changed: give --ends, --starts or --start-post to change it.\n"
                          "Day 2 started Sun 22 Nov 2026 11:00 UTC\nDeadline: Sun 22 Nov "
                          "2026 11:22 UTC (in 15 min); deadline set by the GM (22 min day)\n"
                          )  # fmt: skip


@pytest.mark.parametrize("option", ["--move-to", "--shorten-to"])
def test_a_deadline_before_the_start_is_refused_however_it_is_given(
    day_2, run, tmp_path, option
) -> None:
    stored = (tmp_path / "data" / "games" / "b.json").read_bytes()
    code, out, err = run("11:06", "phase", "b", option, "2026-11-22T10:30")
    assert code == 1 and out == ""
    assert error_line(err) == (
        f"{option}: Day 2 would end at Sun 22 Nov 2026 10:30 UTC, not after its start Sun 22 Nov "
        "2026 11:01 UTC; give a time after the start"
    )
    assert (tmp_path / "data" / "games" / "b.json").read_bytes() == stored
    code, _, err = run("11:06", "phase", "b", "day", "2", "--ends", "2026-11-22T10:30")
    assert code == 1 and "day 2 would end at Sun 22 Nov 2026 10:30 UTC, not after its start" in err


def _win(run, tmp_path) -> None:
    """The setup the role PMs tell, and the dusk of Day 2 confirmed: the last mafia lynched."""
    assert run("11:25", "roles", "b", "--file", str(setup_file(tmp_path, FORUM)))[0] == 0
    code, out, err = run("11:25", "draft", "dusk", "b", "--day", "2", "--confirm")
    assert code == 0 and "Victory: Town!" in out, err


def test_after_a_confirmed_win_the_game_is_over(day_2, run, tmp_path) -> None:
    _win(run, tmp_path)
    code, out, _ = run("11:26", "count", "b")
    assert out.startswith("Game over: Town won (Day 2).\nDay 2\n\n")
    code, out, _ = run("11:26", "--json", "count", "b")
    assert json.loads(out)["game_over"] == "Game over: Town won (Day 2)"
    won = ("Town won at the dusk of Day 2 (All threats to the Town have been eliminated): the "
           "game b is over; ")  # fmt: skip
    force = " (--force to go on, for a GM's ruling)"
    for args, what in (
        (("phase", "b", "night", "2"), "no phase follows it"),
        (("phase", "b", "--extend", "5m"), "its clock is stopped"),
        (("order", "b", "Conia: jail Jd"), "orders are no longer taken"),
        (("resolve", "b", "--night", "2"), "there is nothing left to resolve"),
    ):
        code, out, err = run("11:26", *args)
        assert (code, out) == (1, "") and error_line(err) == won + what + force, err
    code, out, err = run("11:26", "phase", "b")
    assert code == 0 and out.endswith("Game over: Town won (Day 2).\n"), err
    # A GM's ruling that the game goes on: --force.
    code, out, err = run("11:27", "phase", "b", "night", "2", "--force")
    assert code == 0 and out.endswith("Game over: Town won (Day 2).\n"), err
    code, out, err = run("11:28", "order", "b", "Conia: jail Jd", "--force")
    assert code == 0 and out.startswith("stored for night 2"), err


def test_a_night_begun_over_an_unconfirmed_lynch_says_so(day_2, run) -> None:
    code, out, err = run("11:25", "--json", "phase", "b", "night", "2")
    assert code == 0, err
    note = ("Day 2's lynch was never confirmed: xX_Slayer_Xx is still alive in the game's facts; "
            "record it with `assistant draft dusk b --day 2 --confirm` (or `assistant kill b "
            "xX_Slayer_Xx --how lynch --day 2`)")  # fmt: skip
    assert json.loads(out)["notes"] == [note] and err == f"note: {note}\n"
    assert run("11:26", "draft", "dusk", "b", "--day", "2", "--confirm")[0] == 0
    code, out, err = run("11:27", "phase", "b", "night", "2", "--ends", "12:00")
    assert code == 0 and err == "", err  # confirmed now: nothing to say


def test_not_voting_never_lists_the_dead_whatever_starts_says(forum, run, tmp_path) -> None:
    """The GM joined at noon: started Day 2 "now", entered Day 1's lynch and Night 1's kill
    "now", then set the day's real start and end. The deaths belong to Day 1 and Night 1:
    ÆtherWolf and Kat are dead all Day 2, neither is "not voting", Kat is not inactive, and
    ÆtherWolf's vote does not count (the host's final tally: 6 alive, Slayer lynched)."""
    new_game(partial(run, "12:00"), tmp_path, FORUM, serve_thread_b(forum, FORUM))
    assert run("12:00", "phase", "b", "day", "2")[0] == 0
    assert run("12:00", "kill", "b", "Kat", "--how", "nightkill")[0] == 0
    assert run("12:00", "kill", "b", "ÆtherWolf", "--how", "lynch", "--day", "1")[0] == 0
    code, _, err = run("12:01", "phase", "b", "day", "2", "--starts", START[11:16], "--ends",
                       "11:22")  # fmt: skip
    assert code == 0, err
    code, out, _ = run("12:02", "--json", "count", "b")
    tally = json.loads(out)
    meta = tb.truth(FORUM)["meta"]
    assert tally["not_voting"] == [] and sorted(tally["alive"]) == sorted(meta["alive"])
    truth = {line.split(" (")[0]: sorted(line.split(": ", 1)[1].split(", "))
             for line in meta["final_tally_002"] if not line.startswith("Not voting")}  # fmt: skip
    assert {w["target"]: sorted(w["voters"]) for w in tally["wagons"]} == truth
    code, out, _ = run("12:02", "--json", "alerts", "b", "--check")
    assert not [a for a in json.loads(out)["alerts"] if a["kind"].startswith("inactive")]


PARANORMAL_SETUP = """seed = 5
players = [
  { name = "Lady Grey", role = "agent", side = "town" },
  { name = "Conia", role = "psychic-warden", side = "town" },
  { name = "xX_Slayer_Xx", role = "doppelganger-leader" },
  { name = "ÆtherWolf", role = "doppelganger" },
  { name = "Mr. Pickles", side = "town" }, { name = "Jd-", side = "town" },
  { name = "Tom & Jerry's", side = "town" }, { name = "Kat", side = "town" },
]
"""


def test_a_won_game_owes_no_night_orders(forum, run, tmp_path) -> None:
    """000: "Nights will last ... until I've heard from each player with a night role". Once
    the Town has won, nobody owes an order: a night the GM starts anyway (--force) lists no
    one as missing."""
    url = serve_thread_b(forum, FORUM)
    players = tmp_path / "players.txt"
    players.write_text("\n".join(tb.truth(FORUM)["meta"]["players"]) + "\n", encoding="utf-8")
    code, _, err = run("12:00", "game", "new", "b", "--thread", url, "--ruleset", "paranormal",
                       "--players", str(players), "--gm", tb.GM)  # fmt: skip
    assert code == 0, err
    (tmp_path / "setup.toml").write_text(PARANORMAL_SETUP, encoding="utf-8")
    assert run("12:00", "roles", "b", "--file", str(tmp_path / "setup.toml"))[0] == 0
    assert run("12:00", "phase", "b", "day", "2", "--starts", START[11:16])[0] == 0
    assert run("12:00", "kill", "b", "ÆtherWolf", "--how", "lynch", "--day", "1")[0] == 0
    assert run("12:01", "kill", "b", "xX_Slayer_Xx", "--how", "lynch", "--day", "2")[0] == 0
    code, _, err = run("12:02", "phase", "b", "night", "2")
    assert code == 1 and "the game b is over; no phase follows it" in err
    code, out, err = run("12:02", "phase", "b", "night", "2", "--force")
    assert code == 0, err
    assert "Night orders" not in out and out.endswith("Game over: Town won (Day 2).\n"), out
    state = _phase(run, "12:03")
    assert state["orders"] is None and state["game_over"] == "Game over: Town won (Day 2)"
