"""Inactivity: no post during a day (002), a full day-night cycle without a post (003),
no vote at the end of a day where voting is mandatory (001). Real posts of thread B with
phases the tests place; only ended phases are judged."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import thread_b_support as tb

from assistant.checks import posting_rules
from assistant.checks.inactivity import check_inactivity
from assistant.count.tally import count
from assistant.game import Phase
from assistant.rulesets import find_ruleset


def t(hms: str) -> datetime:
    h, m, s = (int(x) for x in hms.split(":"))
    return datetime(2026, 11, 22, h, m, s, tzinfo=UTC)


POSTS = tb.final_posts("phpbb33")  # phpBB shows post times to the second


def test_002_everyone_posted_on_day_2() -> None:
    day = Phase("day", 2, t("11:02:07"))
    alerts = check_inactivity(
        POSTS,
        tb.game("phpbb33"),
        posting_rules(find_ruleset("002")),
        [(day, t("11:21:10"))],
        now=t("11:30:00"),
    )
    assert alerts == []


def test_002_no_post_this_day_means_modkill() -> None:
    rules = posting_rules(find_ruleset("002"))
    # Had Day 2 run from 10:49 to 11:04:50, Jd- (first post 11:04:58) would not have posted.
    day = Phase("day", 2, t("10:49:00"))
    spans = [(day, t("11:04:50"))]
    assert check_inactivity(POSTS, tb.game("phpbb33"), rules, spans, now=t("11:04:00")) == []
    [alert] = check_inactivity(POSTS, tb.game("phpbb33"), rules, spans, now=t("11:04:50"))
    assert (alert.kind, alert.player, alert.severity) == ("inactive_day", "Jd-", "violation")
    assert "modkill" in alert.message
    # Dead players are not judged: ÆtherWolf and Kat never appear.
    assert all(
        a.player not in ("ÆtherWolf", "Kat")
        for a in check_inactivity(POSTS, tb.game("phpbb33"), rules, spans, now=t("12:00:00"))
    )


def test_002_a_day_shorter_than_the_rules_window_is_not_judged() -> None:
    """ "most days are going to be 15-20 minutes": Day 2 seen from 11:02:07 to 11:04:50
    (the GM entered it late, or ended it after minutes) is no day to be modkilled for."""
    rules = posting_rules(find_ruleset("002"))
    assert rules.inactivity_window == "15m"
    short = [(Phase("day", 2, t("11:02:07")), t("11:04:50"))]
    assert check_inactivity(POSTS, tb.game("phpbb33"), rules, short, now=t("12:00:00")) == []
    just = [(Phase("day", 2, t("10:49:50")), t("11:04:50"))]  # 15 min: judged
    assert [a.player for a in check_inactivity(
        POSTS, tb.game("phpbb33"), rules, just, now=t("12:00:00"))] == ["Jd-"]  # fmt: skip


def test_a_player_dead_when_the_day_began_is_not_judged() -> None:
    """Kat died in Night 1; the GM entered her death while Day 2 ran (`kill Kat --how
    nightkill` at 11:10, not at the post that opened the day): she is dead for the whole
    day, not a player who failed to post."""
    from assistant.game import Game

    rules = posting_rules(find_ruleset("002"))
    inputs = [i for i in tb.inputs("phpbb33") if not (
        i["kind"] == "death" and i["data"]["player"] == "Kat")]  # fmt: skip
    kat = {"player": "Kat", "at_post": None, "at": "2026-11-22T11:10:00+00:00",
           "how": "nightkill", "night_before_day": 2}  # fmt: skip
    inputs.append({"kind": "death", "data": kat})
    game = Game.from_parts("thread-b", [], gms=(tb.GM,), ruleset="chat-mafia", inputs=inputs)
    day = game.day(2)
    assert day is not None and not game.is_alive("Kat", at=day.starts_at)
    spans = [(day, t("11:21:10"))]
    assert check_inactivity(POSTS, game, rules, spans, now=t("12:00:00")) == []


def test_003_full_day_night_cycle_without_a_post() -> None:
    rules = posting_rules(find_ruleset("003"))
    # Mr. Pickles first posts at 11:04:28 and Jd- at 11:04:58: both after this cycle, a week
    # from Day 1's start to Night 1's end.
    week = timedelta(days=7)
    day1, night1 = Phase("day", 1, t("11:04:20") - week), Phase("night", 1, t("11:04:00"))
    spans = [(day1, t("11:04:00")), (night1, t("11:04:20"))]
    alerts = check_inactivity(POSTS, tb.game("phpbb33"), rules, spans, now=t("11:05:00"))
    assert {(a.kind, a.player) for a in alerts} == {
        ("inactive_cycle", "Jd-"),
        ("inactive_cycle", "Mr. Pickles"),
    }
    assert all("action: replace" in a.message for a in alerts)
    day4, night4 = Phase("day", 4, t("11:04:20") - week), Phase("night", 4, t("11:04:00"))
    late = check_inactivity(
        POSTS,
        tb.game("phpbb33"),
        rules,
        [(day4, t("11:04:00")), (night4, t("11:04:20"))],
        now=t("11:05:00"),
    )
    assert all("action: modkill" in a.message for a in late) and len(late) == 2
    # A day alone is not a full cycle.
    assert check_inactivity(POSTS, tb.game("phpbb33"), rules, spans[:1], now=t("11:05:00")) == []
    # Nor is a cycle the assistant saw for 20 minutes (Day 1 entered late): "a full Day-Night
    # cycle" is a week under 003's schedule.
    seen = [(Phase("day", 1, t("10:44:20")), t("11:04:00")), (night1, t("11:04:20"))]
    assert check_inactivity(POSTS, tb.game("phpbb33"), rules, seen, now=t("11:05:00")) == []


def test_001_voting_is_mandatory() -> None:
    rs = find_ruleset("001")
    rules = posting_rules(rs)
    game = tb.game("phpbb33")
    day = Phase("day", 2, t("11:02:07"))
    end = t("11:08:00")
    tally = count(
        POSTS, game, find_ruleset("002"), at=end
    )  # thread B's votes as written (002 tags)
    voted = {2: [v for w in tally.wagons for v in w.voters]}
    alerts = check_inactivity(POSTS, game, rules, [(day, end)], now=end, voted=voted)
    assert {a.player for a in alerts if a.kind == "not_voted"} == set(tally.not_voting)
    # By 11:08 Tom had unvoted; Slayer, Mr. Pickles and Jd- had votes standing.
    assert set(tally.not_voting) == {"Conia", "Lady Grey", "Tom & Jerry's"}
    assert all(a.severity == "violation" for a in alerts)
    # 002 does not make voting mandatory.
    assert (
        check_inactivity(
            POSTS, game, posting_rules(find_ruleset("002")), [(day, end)], now=end, voted=voted
        )
        == []
    )
