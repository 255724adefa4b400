"""A player killed during the day drops out of that day's tally from the moment he dies.

Seed 002 (Sorcerer's day kill, line 89): "all votes by and for him are removed".
Seed 001 (the Executioner's axe, line 135): "the vote of the executed player no longer counts".

The engine stores a day action's death with the time the GM confirmed `resolve --day N`
(no post), usually after the last post read; a GM `kill --post N` may name the last post.
The tally read now must see both.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from realthreads import FORUMS, NOW, game_a, game_b, thread_posts, truth, wagons

from assistant.count.tally import count
from assistant.models import from_iso, to_iso
from assistant.rulesets import find_ruleset


def death(player: str, *, at: str | None = None, at_post: int | None = None) -> dict:
    """A death as `resolve --day N` (at, no post) or `kill --post N` stores it."""
    data = {"player": player, "at_post": at_post, "at": at, "how": "other", "replacement": None}
    return {"kind": "death", "data": data}


@pytest.mark.parametrize("forum", FORUMS)
def test_002_day_kill_after_the_last_post_removes_votes_by_and_for_him(forum: str) -> None:
    # The Sorcerer's kill on xX_Slayer_Xx is confirmed 2 s before the day ends (after every
    # vote of thread B; the host's last post comes just before or after it).
    end = from_iso(truth(forum, "b")["meta"]["day"]["end_after_all_voted_iso"])
    game = game_b(forum, inputs=[death("xX_Slayer_Xx", at=to_iso(end - timedelta(seconds=2)))])
    t = count(thread_posts(forum, "b"), game, find_ruleset("chat-mafia"), now=NOW)
    assert "xX_Slayer_Xx" not in t.alive and len(t.alive) == 5
    # His wagon (4 votes) and his vote on Lady Grey are gone; his voters vote no one.
    assert wagons(t) == [("Conia", ["Tom & Jerry's"])]
    assert set(t.not_voting) == {"Mr. Pickles", "Jd-", "Conia", "Lady Grey"}
    assert t.outcome.lynched == ("Conia",)


@pytest.mark.parametrize("forum", FORUMS)
def test_002_a_kill_after_the_day_ended_does_not_change_that_day(forum: str) -> None:
    game = game_b(forum, inputs=[death("xX_Slayer_Xx", at="2026-11-22T11:40:00+00:00")])
    t = count(thread_posts(forum, "b"), game, find_ruleset("chat-mafia"), now=NOW)
    assert t.wagon("xX_Slayer_Xx").voters == ("Lady Grey", "Mr. Pickles", "Conia", "Jd-")
    assert t.outcome.lynched == ("xX_Slayer_Xx",)


@pytest.mark.parametrize("forum", FORUMS)
def test_002_gm_kill_at_the_last_post_counts_in_the_tally_read_now(forum: str) -> None:
    last = thread_posts(forum, "b")[-1].post_id
    game = game_b(forum, inputs=[death("Tom & Jerry's", at_post=last)])
    t = count(thread_posts(forum, "b"), game, find_ruleset("chat-mafia"), now=NOW)
    assert "Tom & Jerry's" not in t.alive
    assert t.wagon("Conia") is None  # his only vote, on Conia, is removed
    # As of the post itself (`count --at-post`), the death has not happened yet.
    before = count(thread_posts(forum, "b"), game, find_ruleset("chat-mafia"), at_post=last)
    assert before.wagon("Conia").voters == ("Tom & Jerry's",)


@pytest.mark.parametrize("forum", FORUMS)
def test_001_executed_players_vote_no_longer_counts(forum: str) -> None:
    # Thread A read under 001: ÆtherWolf (3): Slayer, Pickles, Jd-. The Executioner axes
    # Mr. Pickles at 08:00, after the last post (07:11).
    game = game_a([death("Mr. Pickles", at="2026-11-22T08:00:00+00:00")])
    rules = find_ruleset("millers-hollow")
    t = count(thread_posts(forum), game, rules, now=datetime(2026, 11, 22, 9, tzinfo=UTC))
    assert t.wagon("ÆtherWolf").voters == ("xX_Slayer_Xx", "Jd-")
    assert t.wagon("Mr. Pickles") is None
    assert len(t.alive) == 8 and "Mr. Pickles" not in t.not_voting
    # Read before the axe fell, he still votes.
    early = count(thread_posts(forum), game, rules, now=datetime(2026, 11, 22, 7, 30, tzinfo=UTC))
    assert early.wagon("ÆtherWolf").voters == ("xX_Slayer_Xx", "Mr. Pickles", "Jd-")
