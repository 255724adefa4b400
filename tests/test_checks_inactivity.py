"""Inactivity: no post during a day (002), a full day-night cycle without a post (003),
no vote at the end of a day where voting is mandatory (001). Real posts of thread B with
phases the tests place; only ended phases are judged."""

from __future__ import annotations

from datetime import UTC, datetime

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
    day = Phase("day", 2, t("11:02:07"))
    # Had the day ended at 11:04:50, Jd- (first post 11:04:58) would not have posted.
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


def test_003_full_day_night_cycle_without_a_post() -> None:
    rules = posting_rules(find_ruleset("003"))
    # Mr. Pickles first posts at 11:04:28 and Jd- at 11:04:58: both after this cycle.
    day1, night1 = Phase("day", 1, t("11:00:00")), Phase("night", 1, t("11:04:00"))
    spans = [(day1, t("11:04:00")), (night1, t("11:04:20"))]
    alerts = check_inactivity(POSTS, tb.game("phpbb33"), rules, spans, now=t("11:05:00"))
    assert {(a.kind, a.player) for a in alerts} == {
        ("inactive_cycle", "Jd-"),
        ("inactive_cycle", "Mr. Pickles"),
    }
    assert all("action: replace" in a.message for a in alerts)
    day4, night4 = Phase("day", 4, t("11:00:00")), Phase("night", 4, t("11:04:00"))
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
