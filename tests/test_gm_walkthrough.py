"""A GM's session end to end through `assistant.cli.main`, on thread B served on 127.0.0.1.

The GM joins the 002 game on Day 2 after the thread was posted (the clock reads noon,
the thread ran 11:02-11:21): the phase starts at the host's post, the two earlier deaths
count from it, and the count, the alerts, the dusk and the night must come out as
`thread_b.json` says. Then the mistakes a GM makes, each answered in one line with
nothing stored.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import thread_b_support as tb
from thread_b_cli import (  # noqa: F401 - the fixtures
    FORUMS,
    first_post,
    new_game,
    players_file,
    run_at_noon,
    serve_thread_b,
    served_forum,
    setup_file,
)

from assistant.store import GameStore


@pytest.mark.parametrize("which", list(FORUMS))
def test_a_gm_joining_day_2_gets_the_hosts_count_alerts_dusk_and_night(
    which, forum, run, tmp_path
) -> None:
    server, forum = forum, which
    meta = tb.truth(forum)["meta"]
    new_game(run, tmp_path, forum, serve_thread_b(server, forum))
    op = first_post(forum)
    end = meta["day"]["announced_end_iso"][11:16]  # "11:23" (SMF) / "11:22" (phpBB)

    # The day starts at the host's post, not at noon when the GM typed it; "11:23" is read
    # after that start, so it is today's 11:23, not tomorrow's.
    code, out, err = run("--json", "phase", "b", "day", "2", "--start-post", str(op), "--ends", end)
    assert code == 0, err
    shown = json.loads(out)
    op_time = tb.truth(forum)["posts"][0]["posted_at_iso"]
    assert shown["starts_at"][:16] == op_time[:16]  # SMF shows no seconds
    for who, how in (("Aether", "lynch"), ("kat", "nightkill")):  # a common name, any case
        code, out, err = run("kill", "b", who, "--how", how, "--at-post", str(op))
        assert code == 0 and out.startswith("Recorded: "), err

    code, out, _ = run("--json", "count", "b")
    tally = json.loads(out)
    truth_lines = {
        line.split(" (")[0]: sorted(line.split(": ", 1)[1].split(", "))
        for line in meta["final_tally_002"]
        if not line.startswith("Not voting")
    }
    assert {w["target"]: sorted(w["voters"]) for w in tally["wagons"]} == truth_lines
    assert tally["not_voting"] == [] and tally["outcome"]["lynched"] == ["xX_Slayer_Xx"]
    assert sorted(tally["alive"]) == sorted(meta["alive"])

    code, out, err = run("roles", "b", "--file", str(setup_file(tmp_path, forum)))
    assert code == 0 and "xX_Slayer_Xx: Roleblocker (Mafia)" in out, err
    pm = tmp_path / "grey_pm.txt"
    pm.write_text(meta["role_pms"]["Lady Grey"], encoding="utf-8")
    code, out, err = run("pm", "b", "Lady G", "--file", str(pm))
    assert code == 0 and out.startswith("Stored Lady Grey's role PM"), err

    code, out, _ = run("--json", "alerts", "b", "--rule", "pm_copy=violation")
    found = {(a["post_id"], a["kind"]) for a in json.loads(out)["alerts"]}
    final_pages = tb.expected(forum, live_only=False) - {
        (p, k) for p, k in tb.expected(forum) if k == "vote_changed_by_edit"
    }  # the first version of that edit was never seen here: an "edit" alert instead
    assert final_pages <= found
    copy = next(a for a in json.loads(out)["alerts"] if a["kind"] == "role_pm_copy")
    assert copy["severity"] == "violation" and copy["player"] == "Lady Grey"

    code, out, err = run("draft", "dusk", "b", "--day", "2", "--confirm")
    assert code == 0, err
    assert "xX_Slayer_Xx has been lynched. xX_Slayer_Xx was the Roleblocker (Mafia)." in out
    assert "Victory: Town!" in out  # ÆtherWolf, the other mafia, was lynched on Day 1

    # The game is over: an order for a night that will not come is refused, saying why
    # (test_count_followups.py plays Night 2 of a setup where the game goes on).
    code, out, err = run("order", "b", "Conia: jail Jd")
    assert (code, out) == (1, "") and err == (
        "error: Town won at the dusk of Day 2 (All threats to the Town have been eliminated): "
        "the game b is over; orders are no longer taken (--force to go on, for a GM's ruling)\n"
    )


def test_kill_at_a_post_before_a_death_entered_at_the_wrong_time(forum, run, tmp_path) -> None:
    """The GM first recorded ÆtherWolf's Day 1 lynch "now" (after the whole thread): his
    vote counted. Recording it again from the Day 2 post on must be accepted and fix it."""
    new_game(run, tmp_path, "smf21", serve_thread_b(forum, "smf21"))
    run("phase", "b", "day", "2", "--start-post", "116", "--ends", "11:23")
    assert run("kill", "b", "ÆtherWolf", "--how", "lynch")[0] == 0
    code, out, _ = run("--json", "count", "b", "--why", "ÆtherWolf")
    assert json.loads(out)["votes"][0]["accepted"] is True  # alive until noon
    code, out, err = run("kill", "b", "ÆtherWolf", "--how", "lynch", "--at-post", "116")
    assert code == 0 and out == "Recorded: ÆtherWolf dead (lynch) after post #116.\n", err
    code, out, _ = run("--json", "count", "b", "--why", "ÆtherWolf")
    vote = json.loads(out)["votes"][0]
    assert vote["accepted"] is False and "is dead" in vote["reason"]


def test_phase_without_a_stored_start_post_starts_now(run, tmp_path) -> None:
    (tmp_path / "p.txt").write_text("Alice\nBob\n", encoding="utf-8")
    run("game", "new", "g", "--thread", "http://127.0.0.1:9/index.php?topic=1.0",
        "--ruleset", "chat-mafia", "--players", str(tmp_path / "p.txt"))  # fmt: skip
    code, out, err = run("--json", "phase", "g", "day", "1", "--start-post", "5")
    assert code == 0, err
    assert json.loads(out)["starts_at"].startswith("2026-11-22T12:00:00")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("day", "3", "--ends", "25:99"), "error: --ends: '25:99' is not a time of day"),
        (("day", "3", "--ends", "Sunday 24:00"), "error: --ends: 'Sunday 24:00' is not a time"),
        (("day", "3", "--starts", "99:00"), "error: --starts: '99:00' is not a time of day"),
        (("day", "3", "--ends", "2026-11-22T11:00"), "error: day 3 would end at Sun 22 Nov 2026"),
        (("--move-to", "tomorrow"), "error: --move-to: 'tomorrow' is not a time"),
    ],
)
def test_phase_times_a_gm_mistypes(run, tmp_path, args, message) -> None:
    (tmp_path / "p.txt").write_text("Alice\nBob\n", encoding="utf-8")
    run("game", "new", "g", "--thread", "http://127.0.0.1:9/index.php?topic=1.0",
        "--ruleset", "chat-mafia", "--players", str(tmp_path / "p.txt"))  # fmt: skip
    run("phase", "g", "day", "2")
    stored = (tmp_path / "data" / "games" / "g.json").read_bytes()
    code, out, err = run("phase", "g", *args)
    assert code == 1 and out == "" and err.startswith(message), err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert (tmp_path / "data" / "games" / "g.json").read_bytes() == stored


def test_phase_hints_at_a_command_that_exists(run, tmp_path) -> None:
    (tmp_path / "p.txt").write_text("Alice\nBob\n", encoding="utf-8")
    run("game", "new", "g", "--thread", "http://127.0.0.1:9/index.php?topic=1.0",
        "--ruleset", "chat-mafia", "--players", str(tmp_path / "p.txt"))  # fmt: skip
    code, out, _ = run("phase", "g", "night", "1")
    assert "give one with `assistant phase g --move-to TIME`" in out
    code, _, err = run("phase", "g", "--extend", "5m")
    assert code == 1 and "only a day can be extended" in err
    assert run("phase", "g", "--move-to", "+1h")[0] == 0


def _thread_b_game(run, tmp_path) -> Path:
    """Thread B's game without posts (the checks below need no thread)."""
    new = ("game", "new", "b", "--thread", tb.THREAD_URL["smf21"], "--ruleset", "chat-mafia")
    code, _, err = run(*new, "--players", str(players_file(tmp_path, "smf21")), "--gm", tb.GM)
    assert code == 0, err
    return tmp_path / "data" / "games" / "b.json"


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ('players = [{ name = "Nobody", role = "doctor" }]', "'Nobody' matches no player"),
        ('players = ["Kat"]', "player #1 is 'Kat'; write it as a table"),
        (
            'players = [{ name = "Slayer", role = "roleblocker" },\n'
            '  { name = "Kat", role = "doctor" }]',
            "the setup lists 2 of the 8 players; missing: Mr. Pickles, Jd-,",
        ),
        (
            'players = [{ name = "Slayer", side = "mafia" },\n'
            '  { name = "xX_Slayer_Xx", side = "mafia" }]',
            "'Slayer' and 'xX_Slayer_Xx' are the same player (xX_Slayer_Xx)",
        ),
        ("players = [", "not valid TOML"),
    ],
)
def test_a_setup_names_the_games_players(run, tmp_path, toml, message) -> None:
    store = _thread_b_game(run, tmp_path)
    before = store.read_bytes()
    (tmp_path / "setup.toml").write_text(toml, encoding="utf-8")
    code, out, err = run("roles", "b", "--file", str(tmp_path / "setup.toml"))
    assert code == 1 and message in err and err.count("\n") == 1, err
    assert store.read_bytes() == before


def test_a_setup_by_alias_is_stored_under_the_shown_names(run, tmp_path) -> None:
    _thread_b_game(run, tmp_path)
    text = setup_file(tmp_path, "smf21").read_text(encoding="utf-8")
    text = text.replace('"xX_Slayer_Xx"', '"Slayer"').replace('"Mr. Pickles"', '"pickles"')
    (tmp_path / "alias.toml").write_text(text, encoding="utf-8")
    code, out, err = run("--json", "roles", "b", "--file", str(tmp_path / "alias.toml"))
    assert code == 0, err
    names = [p["name"] for p in json.loads(out)["players"]]
    assert names == tb.truth("smf21")["meta"]["players"]


def test_unreadable_files_and_unknown_games(run, tmp_path) -> None:
    _thread_b_game(run, tmp_path)
    garbled = tmp_path / "garbled.txt"
    garbled.write_bytes(b"\xff\xfe garbage \x00\n")
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing yet\n\n", encoding="utf-8")
    code, _, err = run("roles", "b", "--file", str(garbled))
    assert code == 1 and "the setup file is not UTF-8 text (byte 0)" in err
    code, _, err = run("roles", "nosuch", "--file", str(setup_file(tmp_path, "smf21")))
    assert code == 1 and err.startswith("error: no game called 'nosuch'")
    assert not (tmp_path / "data" / "games" / "nosuch.json").exists()

    assert run("roles", "b", "--file", str(setup_file(tmp_path, "smf21")))[0] == 0
    for path, message in (
        (tmp_path / "missing.txt", "cannot read the orders file"),
        (garbled, "the orders file is not UTF-8 text (byte 0)"),
        (empty, "no orders in it"),
    ):
        code, out, err = run("order", "b", "--file", str(path))
        assert code == 1 and out == "" and message in err and err.count("\n") == 1, err

    for args, message in (
        (("Nobody", "You are Nobody, a player of nothing at all."), "'Nobody' matches no player"),
        (("Kat", "Doctor"), "has 1 word(s); give its whole text"),
        (("Kat", "--file", str(garbled)), "the PM file is not UTF-8 text"),
    ):
        code, _, err = run("pm", "b", *args)
        assert code == 1 and message in err and err.count("\n") == 1, err


def test_result_pms_of_a_confirmed_night_are_known_to_the_copy_check(run, tmp_path) -> None:
    from assistant.monitor import known_pms
    from assistant.rulesets import find_ruleset

    _thread_b_game(run, tmp_path)
    run("roles", "b", "--file", str(setup_file(tmp_path, "smf21")))
    run("order", "b", "Lady Grey: investigate Slayer", "--night", "1")
    with GameStore.open(tmp_path / "data", "b", create=False) as store:
        assert [pm.label for pm in known_pms(find_ruleset("002"), store.inputs())] == []
    run("resolve", "b", "--night", "1")
    with GameStore.open(tmp_path / "data", "b", create=False) as store:
        pms = known_pms(find_ruleset("002"), store.inputs())
    assert [(p.recipient, p.label, p.text) for p in pms] == [
        ("Lady Grey", "result PM", "Your investigation of xX_Slayer_Xx returns: Mafia.")
    ]


def test_yesterdays_lynch_entered_after_starting_today_is_not_todays(
    forum, run, tmp_path
) -> None:
    """Live, the GM opens Day 2 (11:02) and then records Day 1's lynch "now": it is Day 1's
    (the day is still running), so ÆtherWolf's Day 2 vote does not count. Recorded as Day
    2's own lynch instead, Day 2's count would have kept him alive all day."""
    new_game(run, tmp_path, "smf21", serve_thread_b(forum, "smf21"))
    live = "2026-11-22T11:02:30+00:00"
    assert run("phase", "b", "day", "2", "--start-post", "116", "--ends", "11:23",
               now=live)[0] == 0
    code, out, err = run("kill", "b", "ÆtherWolf", "--how", "lynch", now=live)
    assert out == "Recorded: ÆtherWolf dead (lynch, Day 1) at Sun 22 Nov 2026 11:02 UTC.\n", err
    code, _, err = run("kill", "b", "Kat", "--how", "nightkill", "--day", "1", now=live)
    assert code == 1 and err.startswith("error: --day names the day a lynch ended")
    code, out, _ = run("--json", "count", "b", "--why", "ÆtherWolf")
    doc = json.loads(out)
    assert "ÆtherWolf" not in doc["alive"] and doc["votes"][0]["accepted"] is False
