"""`draft prods`: who has not posted (or voted) as the ruleset asks, on thread B (seed 002,
the real SMF thread) read as it stood partway through Day 2, and the PM in the ruleset's
words. The expected players come from the thread's ground truth, not from our count."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest
import thread_b_support as tb
from cli_support import call

from assistant.store import GameStore

FORUM = "smf21"
DAY_START = datetime.fromisoformat(tb.truth(FORUM)["meta"]["day"]["start_iso"])
DEAD = {"ÆtherWolf", "Kat"}  # lynched on Day 1, killed on Night 1 (thread B's facts)


def posted_at(post_id: int) -> datetime:
    """When a post was made, to the second (SMF shows the minute)."""
    [p] = [p for p in tb.truth(FORUM)["posts"] if p["msg_id"] == post_id]
    return datetime.fromisoformat(p["posted_at_iso"])


def game_at(tmp_path, moment: datetime, ruleset: str) -> None:
    """Thread B's store with the posts the forum showed by `moment`."""
    store = tb.new_store(tmp_path, FORUM)
    store.update_config(ruleset=ruleset)
    store.record_posts([p for p in tb.final_posts(FORUM) if posted_at(p.post_id) <= moment],
                       moment)
    store.close()


def silent_since(start: datetime, moment: datetime) -> list[str]:
    """The living players with no post between `start` and `moment`, from the truth file."""
    players = [p[0] for p in tb.thread_b_players(FORUM) if p[0] not in DEAD]
    posted = {p["author"] for p in tb.truth(FORUM)["posts"]
              if start <= datetime.fromisoformat(p["posted_at_iso"]) <= moment}
    return [p for p in players if p not in posted]


def prods(capsys, tmp_path, moment: datetime, *extra: str) -> tuple[int, dict, str]:
    code, out, err = call(capsys, tmp_path, "--json", "draft", "prods", "thread-b", *extra)
    return code, (json.loads(out) if code == 0 else {}), err


def test_002_prods_who_has_not_posted_today_in_the_rulesets_words(
        tmp_path, capsys, monkeypatch) -> None:
    moment = DAY_START + timedelta(minutes=2)
    expected = silent_since(DAY_START, moment)
    assert expected and len(expected) < 6  # partway: some have posted, some not yet
    game_at(tmp_path, moment, "chat-mafia")
    monkeypatch.setenv("ASSISTANT_NOW", moment.isoformat())
    code, pms, err = prods(capsys, tmp_path, moment)
    assert code == 0, err
    assert list(pms) == expected
    pm = pms[expected[0]]
    # The game's name, never its id (issue 22): no thread read here, so its ruleset's title.
    assert pm.startswith(
        f"To: {expected[0]}\nSubject: Turtle's Chat Mafia: a reminder for Day 2"
    )
    assert "You have not posted in the game thread since Day 2 began." in pm
    # Seed 002: "All players must make at least one post per day."
    assert 'The rules: "All players must make at least one post per day.' in pm
    # By the day's end everyone alive had posted.
    end = datetime.fromisoformat(tb.truth(FORUM)["meta"]["day"]["end_after_all_voted_iso"])
    assert silent_since(DAY_START, end) == []


def test_003_counts_the_whole_day_night_cycle_and_002_only_the_day(
        tmp_path, capsys, monkeypatch) -> None:
    moment = DAY_START + timedelta(minutes=2)
    expected = silent_since(DAY_START, moment)
    game_at(tmp_path, moment, "three-factions")
    night = moment + timedelta(minutes=1)
    with GameStore.open(tmp_path, "thread-b") as store:
        store.add_input("phase", {"kind": "night", "number": 2, "starts_at": night.isoformat(),
                                  "ends_at": None, "start_post": None}, night)
    monkeypatch.setenv("ASSISTANT_NOW", (night + timedelta(minutes=1)).isoformat())
    # Seed 003: "Any player who goes a full Day-Night cycles without contributing to the
    # thread will be replaced": at night, the day's silent players are still at risk.
    code, pms, err = prods(capsys, tmp_path, night)
    assert code == 0, err
    assert list(pms) == expected
    assert "full Day-Night cycles without contributing" in pms[expected[0]]
    with GameStore.open(tmp_path, "thread-b") as store:
        store.update_config(ruleset="chat-mafia")
    code, pms, err = prods(capsys, tmp_path, night)
    assert (code, pms) == (0, {})  # 002's rule is per day: at night there is nobody to prod


def test_001_prods_who_has_no_vote_and_a_ruleset_without_a_rule_asks_for_a_window(
        tmp_path, capsys, monkeypatch) -> None:
    moment = DAY_START + timedelta(minutes=2)
    game_at(tmp_path, moment, "millers-hollow")
    monkeypatch.setenv("ASSISTANT_NOW", moment.isoformat())
    code, out, err = call(capsys, tmp_path, "--json", "count", "thread-b")
    not_voting = json.loads(out)["not_voting"]
    code, pms, err = prods(capsys, tmp_path, moment)
    assert code == 0, err
    assert list(pms) == not_voting and pms  # "Voting is mandatory. You cannot abstain"
    assert "You have no vote standing." in pms[not_voting[0]]
    with GameStore.open(tmp_path, "thread-b") as store:
        store.update_config(ruleset="paranormal")
    code, pms, err = prods(capsys, tmp_path, moment)
    assert code == 1 and "--since 48h" in err
    code, pms, err = prods(capsys, tmp_path, moment, "--since", "3m")
    assert code == 0 and list(pms) == silent_since(moment - timedelta(minutes=3), moment)


@pytest.mark.parametrize("ruleset", ["chat-mafia", "three-factions", "millers-hollow"])
def test_the_rulesets_that_police_activity_quote_their_seed(ruleset) -> None:
    from assistant.rulesets import find_ruleset

    assert find_ruleset(ruleset).posting.activity_rule
