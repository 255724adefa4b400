"""Who may post: dead players (000 allows one post, 001/002 none), non-players, and
talk at night (002), on the real thread pages."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import thread_b_support as tb

from assistant.checks import posting_rules
from assistant.checks.posting import check_posting
from assistant.game import Phase
from assistant.rulesets import find_ruleset


def rules(name: str):
    return posting_rules(find_ruleset(name))


@pytest.mark.parametrize("forum", tb.FORUMS)
def test_thread_b_dead_player_and_spectator(forum) -> None:
    alerts = check_posting(tb.final_posts(forum), tb.game(forum), rules("002"))
    expected = {
        (p, k) for p, k in tb.expected(forum) if k in ("dead_player_post", "non_player_post")
    }
    assert {(a.post_id, a.kind) for a in alerts} == expected
    by_kind = {a.kind: a for a in alerts}
    assert by_kind["dead_player_post"].player == "ÆtherWolf"
    assert "dead (lynch)" in by_kind["dead_player_post"].message
    assert by_kind["non_player_post"].player == "bob the builder"
    assert all(a.post_url and str(a.post_id) in a.post_url for a in alerts)


@pytest.mark.parametrize("forum", tb.FORUMS)
def test_000_allows_one_post_after_death_001_none(forum) -> None:
    posts = tb.thread_a_posts(forum)
    own = [p.post_id for p in posts if p.author == "ÆtherWolf"]
    died_after = own[-3]  # ÆtherWolf dies after this post and posts twice more
    death = {
        "kind": "death",
        "data": {
            "player": "ÆtherWolf",
            "at_post": died_after,
            "at": None,
            "how": "nightkill",
            "replacement": None,
        },
    }
    g000 = tb.thread_a_game(forum, "paranormal", extra=[death])
    got = [
        (a.post_id, a.kind, a.severity)
        for a in check_posting(posts, g000, rules("000"))
        if a.player == "ÆtherWolf"
    ]
    assert got == [
        (own[-2], "dead_player_last_words", "info"),
        (own[-1], "dead_player_post", "violation"),
    ]
    g001 = tb.thread_a_game(forum, "millers-hollow", extra=[death])
    got = [
        (a.post_id, a.kind)
        for a in check_posting(posts, g001, rules("001"))
        if a.player == "ÆtherWolf"
    ]
    assert got == [(own[-2], "dead_player_post"), (own[-1], "dead_player_post")]


def test_002_players_speak_only_by_day() -> None:
    posts = tb.final_posts("smf21")
    day = Phase("day", 2, datetime(2026, 11, 22, 11, 2, 7, tzinfo=UTC))
    night = Phase("night", 2, datetime(2026, 11, 22, 11, 20, tzinfo=UTC))  # as if dusk came early
    alerts = check_posting(posts, tb.game("smf21"), rules("002"), [day, night])
    night_posts = {a.post_id for a in alerts if a.kind == "night_post"}
    # Lady Grey 11:20:14 and Slayer 11:20:33 posted after 11:20; the host's dusk post is the GM's.
    assert night_posts == {159, 160}
    assert not [
        a
        for a in check_posting(posts, tb.game("smf21"), rules("000"), [day, night])
        if a.kind == "night_post"
    ]
