"""Invalid votes from the vote counter's records: ambiguous, unknown and dead targets
(thread B, 002), wrong markup (000 counts only red), votes after the deadline."""

from __future__ import annotations

import dataclasses

import pytest
import thread_b_support as tb

from assistant.checks import posting_rules
from assistant.checks.invalid_votes import check_invalid_votes
from assistant.count.tally import count
from assistant.game import Phase
from assistant.rulesets import find_ruleset


@pytest.mark.parametrize("forum", tb.FORUMS)
def test_thread_b_final_pages(forum) -> None:
    rs = find_ruleset("002")
    tally = count(tb.final_posts(forum), tb.game(forum), rs)
    alerts = check_invalid_votes(tally.votes, posting_rules(rs))
    expected = {
        (p, k)
        for p, k in tb.expected(forum, live_only=False)
        if k in ("ambiguous_vote_target", "vote_for_dead_player")
    }
    assert {(a.post_id, a.kind) for a in alerts} == expected
    amb = next(a for a in alerts if a.kind == "ambiguous_vote_target")
    assert "Jd- or Tom & Jerry's" in amb.message and amb.player == "Conia"


@pytest.mark.parametrize("forum,post_id", [("smf21", 135), ("phpbb33", 134)])
def test_unknown_target_in_the_first_version(forum, post_id) -> None:
    """Live snapshot 20 holds Mr. Pickles' post before the silent edit: [Vote: Slayr]."""
    posts = tb.parse(tb.REALFORUM / "live" / f"{forum}_b_live_20_p2.html", forum)
    rs = find_ruleset("002")
    alerts = check_invalid_votes(count(posts, tb.game(forum), rs).votes, posting_rules(rs))
    assert [(a.post_id, a.kind) for a in alerts] == [(post_id, "unknown_vote_target")]
    assert "'Slayr' matches no player" in alerts[0].message
    assert alerts[0].message.startswith("Mr. Pickles' [Vote: Slayr]")  # not "Pickles's"


def test_wrong_markup() -> None:
    rs = find_ruleset("000")  # 000: "All votes should be colored red"
    posts = tb.thread_a_posts("smf21")
    game = tb.thread_a_game("smf21", "paranormal")
    alerts = check_invalid_votes(count(posts, game, rs).votes, posting_rules(rs))
    wrong = [a for a in alerts if a.kind == "wrong_vote_markup"]
    assert wrong and all("this ruleset counts" in a.message for a in wrong)
    assert any("(blue)" in a.evidence for a in wrong)
    assert not any("(red)" in a.evidence for a in wrong)


def test_votes_after_the_deadline() -> None:
    rs = find_ruleset("permissive")
    posts = tb.thread_a_posts("phpbb33")
    game = tb.thread_a_game("phpbb33", "permissive")
    deadline = posts[-20].posted_at
    day = Phase("day", 1, posts[0].posted_at, deadline)
    phased = dataclasses.replace(game, phases=(day,))
    alerts = check_invalid_votes(
        count(posts, phased, rs, now=posts[-1].posted_at).votes, posting_rules(rs)
    )
    late = [a for a in alerts if a.kind == "vote_after_deadline"]
    assert late and all(a.occurred_at > deadline for a in late)
    assert {a.post_id for a in late} <= {p.post_id for p in posts[-19:]}
    assert all(a.severity == "info" for a in late)  # permissive: vote_late = "info"


def test_alerts_follow_the_codes_not_the_wording() -> None:
    """Rewording every reason changes no alert kind: the check reads `Vote.code` only."""
    rs = find_ruleset("002")
    votes = count(tb.final_posts("smf21"), tb.game("smf21"), rs).votes
    reworded = [dataclasses.replace(v, reason="(reworded)") for v in votes]
    before = check_invalid_votes(votes, posting_rules(rs))
    after = check_invalid_votes(reworded, posting_rules(rs))
    assert before and [(a.post_id, a.kind) for a in after] == [
        (a.post_id, a.kind) for a in before
    ]


def test_self_votes_and_votes_without_an_unvote() -> None:
    """001 forbids self-votes, 003 counts a new vote only after an unvote: real thread A posts
    with their authors changed so that the real markup carries those votes."""
    posts = {p.post_id: p for p in tb.thread_a_posts("smf21")}
    # Post 3: Mr. Pickles' bold vote on Kat; written by Kat it is a self-vote.
    selfvote = dataclasses.replace(posts[3], author="Kat")
    rs = find_ruleset("001")
    alerts = check_invalid_votes(
        count([selfvote], tb.thread_a_game("smf21", "millers-hollow"), rs).votes,
        posting_rules(rs),
    )
    assert [(a.kind, a.player, a.post_id) for a in alerts] == [("self_vote", "Kat", 3)]
    # 003 (three-factions) counts blue votes only after a red unvote: Conia's blue vote on
    # ÆtherWolf (51) while still on Lady Grey (13), and Tom's purple No Lynch (55) while
    # still on Conia (19).
    rs3 = find_ruleset("003")
    votes = count(tb.thread_a_posts("smf21"), tb.thread_a_game("smf21", "three-factions"), rs3)
    alerts = check_invalid_votes(votes.votes, posting_rules(rs3))
    assert [(a.post_id, a.player) for a in alerts if a.kind == "vote_without_unvote"] == [
        (51, "Conia"),
        (55, "Tom & Jerry's"),
    ]
