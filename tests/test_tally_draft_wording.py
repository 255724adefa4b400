"""What the tally draft says beside the wagons: 003's lynches and thresholds, a day that
has ended, a day without votes. Thread A's real posts read under the rulesets concerned."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from conftest import SEEDS
from realthreads import FORUMS, NOW, game_a, thread_posts

from assistant.count.outcome import TallyRules
from assistant.count.tally import count
from assistant.count.tally_draft import render_tally
from assistant.rulesets import find_ruleset


def day2(ends_at: str, *, starts_at: str = "2026-11-21T09:00:00+00:00") -> dict[str, Any]:
    data = {"kind": "day", "number": 2, "starts_at": starts_at, "ends_at": ends_at}
    return {"kind": "phase", "data": data}


def draft(forum: str, ruleset: str, inputs: list[dict[str, Any]], now=NOW) -> str:
    rules = find_ruleset(ruleset)
    t = count(thread_posts(forum), game_a(inputs), rules, now=now)
    return render_tally(t, TallyRules.from_ruleset(rules), now=now)


def seed(number: str) -> str:
    return next(SEEDS.glob(f"{number}_*.txt")).read_text(encoding="utf-8")


@pytest.mark.parametrize("forum", FORUMS)
def test_003_tally_states_the_lynches_available_and_the_thresholds(forum: str) -> None:
    rule = "second-leading vote getter will also be lynched if (s)he has received more than 34%"
    assert rule in seed("003")
    deadline = day2("2026-11-22T08:00:00+00:00")
    one = draft(
        forum, "three-factions", [deadline, {"kind": "lynches", "data": {"day": 2, "available": 1}}]
    )
    assert "With 9 alive, the most votes at the deadline lynch.\n" in one
    assert "lynches today" not in one
    two = draft(
        forum, "three-factions", [deadline, {"kind": "lynches", "data": {"day": 2, "available": 2}}]
    )
    # 34 % of 9 is 3.06: the second needs 4 votes.
    assert "2 lynches today: the leader, the second if over 34% of the 9 votes (4 or more)." in two
    three = draft(
        forum, "three-factions", [deadline, {"kind": "lynches", "data": {"day": 2, "available": 3}}]
    )
    assert (
        "3 lynches today: the leader, the second if over 34% of the 9 votes (4 or more), "
        "the third if the second is lynched and over 10% of the 9 votes (1 or more)."
    ) in three


@pytest.mark.parametrize("forum", FORUMS)
def test_003_day_one_has_a_single_lynch_whatever_is_entered(forum: str) -> None:
    assert "there can only be a single lynch on Day One" in seed("003")
    day1 = {
        "kind": "phase",
        "data": {
            "kind": "day",
            "number": 1,
            "starts_at": "2026-11-21T09:00:00+00:00",
            "ends_at": "2026-11-22T08:00:00+00:00",
        },
    }
    text = draft(
        forum, "three-factions", [day1, {"kind": "lynches", "data": {"day": 1, "available": 3}}]
    )
    assert "lynches today" not in text


@pytest.mark.parametrize("forum", FORUMS)
@pytest.mark.parametrize("ruleset", ["chat-mafia", "three-factions"])
def test_a_tally_after_the_deadline_says_the_day_has_ended(forum: str, ruleset: str) -> None:
    text = draft(forum, ruleset, [day2("2026-11-22T08:00:00+00:00")])
    assert "Day 2 ended at 2026-11-22 08:00 UTC." in text
    assert "Time remaining" not in text and "none left" not in text
    before = draft(
        forum, ruleset, [day2("2026-11-22T08:00:00+00:00")], now=NOW - timedelta(hours=5)
    )
    assert "ended at" not in before and "1 h 0 min" in before


@pytest.mark.parametrize("forum", FORUMS)
@pytest.mark.parametrize("ruleset", ["chat-mafia", "three-factions", "mafiascum"])
def test_a_tally_without_votes_has_one_blank_line_before_not_voting(
    forum: str, ruleset: str
) -> None:
    # Day 2 starts after the thread's last post: nobody has voted yet.
    empty = draft(
        forum, ruleset, [day2("2026-11-24T08:00:00+00:00", starts_at="2026-11-23T09:00:00+00:00")]
    )
    assert "[/b]\n\nNot voting (9):" in empty and "\n\n\n" not in empty
    # With votes, one blank line after the header (and in the classic count, before "Not
    # voting"; 002's chat tally puts it right under the wagons, as its host did).
    full = draft(forum, ruleset, [day2("2026-11-24T08:00:00+00:00")])
    assert "\n\n\n" not in full and "[/b]\n\n" in full
    assert ("\n\nNot voting" in full) == (ruleset != "chat-mafia")
