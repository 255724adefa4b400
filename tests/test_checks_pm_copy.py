"""GM PMs made public, in real markup: a role PM pasted without quote tags (thread B),
role PMs inside quote boxes (thread A), and quote boxes citing the GM from outside the thread."""

from __future__ import annotations

import pytest
import thread_b_support as tb

from assistant.checks import posting_rules
from assistant.checks.pm_copy import KnownPM, check_pm_copies, check_quoted_gm_pms, pms_from_inputs
from assistant.rulesets import find_ruleset


def rules(name: str, **house):
    return posting_rules(find_ruleset(name), house or None)


@pytest.mark.parametrize("forum", tb.FORUMS)
def test_role_pm_pasted_without_quote_tags(forum) -> None:
    posts = tb.final_posts(forum)
    alerts = check_pm_copies(posts, tb.game(forum), rules("002"), pms_from_inputs(tb.inputs(forum)))
    expected = {(p, k) for p, k in tb.expected(forum) if k == "role_pm_copy"}
    assert {(a.post_id, a.kind) for a in alerts} == expected
    [alert] = alerts
    assert alert.player == "Lady Grey" and "their own role PM without quote tags" in alert.message
    assert "Your role is Investigator" in alert.evidence
    assert alert.severity == "warning"
    # The game's OP forbids it as a house rule: the GM raises the severity for this game.
    [strict] = check_pm_copies(
        posts, tb.game(forum), rules("002", pm_copy="violation"), pms_from_inputs(tb.inputs(forum))
    )
    assert strict.severity == "violation"
    # 003 lets players quote their role PM.
    assert (
        check_pm_copies(posts, tb.game(forum), rules("003"), pms_from_inputs(tb.inputs(forum)))
        == []
    )


@pytest.mark.parametrize("forum", tb.FORUMS)
def test_role_pms_inside_quote_boxes_found_by_overlap(forum) -> None:
    """Thread A: Tom & Jerry's (post 9) and Jd- (post 46) quote their role PMs. The GM stored
    the PMs as sent, longer than what was pasted and worded with its own line breaks."""
    pms = [
        KnownPM(
            "Tom & Jerry's",
            "Role PM: You are Tom & Jerry's, the Vanilla Townie.\n\nYou have no "
            "night action. You win when all members of the Mafia are dead. Good luck, and "
            "remember that your PMs are private.",
        ),
        KnownPM(
            "Jd-",
            "Role PM: You are Jd-, the Doctor. Each night you may protect one player "
            "from being killed. You cannot protect the same player two nights in a row.",
        ),
        KnownPM(
            "Kat",
            "Role PM: You are Kat, the Cop. Each night you may investigate one player "
            "and learn whether they are Mafia.",
        ),
    ]
    game = tb.thread_a_game(forum, "paranormal")
    alerts = check_pm_copies(tb.thread_a_posts(forum), game, rules("000"), pms)
    assert {(a.post_id, a.player) for a in alerts} == {(9, "Tom & Jerry's"), (46, "Jd-")}
    assert all("inside a quote box" in a.message for a in alerts)
    assert all(a.severity == "violation" for a in alerts)  # 000: "you may NOT quote any PM"


@pytest.mark.parametrize("forum", tb.FORUMS)
def test_text_the_gm_said_in_the_thread_is_not_a_copy(forum) -> None:
    """Thread A post 42 quotes post 40 by Jd-. Were Jd- the GM and the same words also in a
    PM, quoting the thread post is not a PM copy: the words are public."""
    pm = KnownPM("Conia", "unvote Moving to Mr. Pickles, his vote was pure bandwagon. Tonight")
    posts = tb.thread_a_posts(forum)
    as_gm = tb.thread_a_game(forum, "paranormal", gms=("Jd-",))
    assert check_pm_copies(posts, as_gm, rules("000"), [pm]) == []
    # The same PM when Jd- is a player: then Conia's post does carry the PM's words.
    as_player = tb.thread_a_game(forum, "paranormal")
    found = check_pm_copies(posts, as_player, rules("000"), [pm])
    assert (42, "Conia") in {(a.post_id, a.player) for a in found}


@pytest.mark.parametrize("forum", tb.FORUMS)
def test_quote_citing_the_gm_from_outside_the_thread(forum) -> None:
    """Post 25 quotes xX_Slayer_Xx's post 16. Were Slayer the GM and post 16 not a post of
    this thread (a PM has no post in it), the quote is a GM's PM made public."""
    posts = tb.thread_a_posts(forum)
    game = tb.thread_a_game(forum, "millers-hollow", gms=("xX_Slayer_Xx",))
    in_thread = {p.post_id for p in posts}
    assert check_quoted_gm_pms(posts, game, rules("001"), in_thread) == []
    alerts = check_quoted_gm_pms(posts, game, rules("001"), in_thread - {16})
    assert [(a.post_id, a.kind, a.severity) for a in alerts] == [(25, "quoted_gm_pm", "violation")]
    assert "vote ÆtherWolf" in alerts[0].evidence
    assert check_quoted_gm_pms(posts, game, rules("003"), in_thread - {16}) == []
