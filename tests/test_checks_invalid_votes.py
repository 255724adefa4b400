"""Invalid votes from the vote counter's records: ambiguous, unknown and dead targets
(thread B, 002), wrong markup (000 counts only red), votes after the deadline."""

from __future__ import annotations

import dataclasses

import pytest
import thread_b_support as tb

from assistant.checks import posting_rules
from assistant.checks.invalid_votes import check_invalid_votes
from assistant.game import Phase
from assistant.rulesets import find_ruleset
from assistant.tally import count


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
