"""Counts of the real fixture threads under every ruleset, at the end and at three points.

Thread A is Day 1 of a nine-player game (post ids 2-67 on both forums, host Host Mira).
Each expectation is justified post by post in the comments; the host's own vote counts in
the thread (posts 15, 41, 67) are the ground truth for the casual (`permissive`) reading,
and thread B's host tallies (#1-#3, final) for 002.
"""

from __future__ import annotations

import re

import pytest
from realthreads import FORUMS, game_a, game_b, post_id, thread_posts, truth, votes_by_voter, wagons

from assistant.count.tally import count
from assistant.models import from_iso
from assistant.rulesets import find_ruleset
from assistant.vote_codes import VoteCode as C


def host_count(forum: str, position: int, thread: str = "a") -> dict[str, set[str]]:
    """The host's own count in a post: {target: {voters}} from lines "Target (n): a, b"."""
    body = truth(forum, thread)["posts"][position]["bbcode_body"]
    out = {}
    for target, voters in re.findall(r"^([^\n(]+?) \(\d+\): (.+)$", body, re.M):
        if target.strip().startswith("Not voting"):
            continue
        out[target.strip()] = {v.strip() for v in voters.split(",")}
    return out


def as_sets(tally) -> dict[str, set[str]]:
    return {w.target: set(w.voters) for w in tally.wagons}


# ---- permissive: every style counts; the host's counts are the truth ------------------------


@pytest.mark.parametrize("forum", FORUMS)
def test_permissive_final_equals_intended_votes(forum: str) -> None:
    tally = count(thread_posts(forum), game_a(), find_ruleset("permissive"))
    assert votes_by_voter(tally) == truth(forum)["meta"]["final_intended_votes"]
    # Post 66 (Jd-: bold unvote + "vote: ÆtherWolf") is the fifth vote on ÆtherWolf: the
    # day ends there with majority 5 of 9, and the host's final count agrees.
    assert tally.outcome.lynched == ("ÆtherWolf",) and tally.outcome.at_post == 66
    assert tally.majority == 5 and tally.not_voting == ()
    assert as_sets(tally) == host_count(forum, 65)
    assert wagons(tally)[0] == (
        "ÆtherWolf",
        ["xX_Slayer_Xx", "Conia", "Mr. Pickles", "bob the builder", "Jd-"],
    )


@pytest.mark.parametrize("forum", FORUMS)
def test_permissive_at_three_points(forum: str) -> None:
    rules, posts = find_ruleset("permissive"), thread_posts(forum)
    # After post 15 (host's Vote Count 1.1): Pickles bold on Kat (3), Kat bold on Pickles (4),
    # Lady Grey red on Conia (8), ÆtherWolf bold on Tom & Jerry's (10), Jd- bold on Lady Grey
    # (12, edited from "Lady Gray"), Conia blue on Lady Grey (13; the quoted red vote of
    # post 8 inside her post does not count). Tom's quoted role PM (9) holds no vote.
    at15 = count(posts, game_a(), rules, at_post=15)
    assert as_sets(at15) == host_count(forum, 13)
    assert at15.not_voting == ("xX_Slayer_Xx", "Tom & Jerry's", "bob the builder")
    assert at15.outcome.lynched == ("Lady Grey",) and not at15.outcome.final

    # After post 41 (Vote Count 1.2): Pickles "[Unvote]" (18) then bold Jd- (34); Kat
    # "[Vote: xX_Slayer_Xx]" (17) replaces her bold vote; Tom blue on Conia (19); bob's plain
    # "vote pickles" (21) then "vote jd" (38); ÆtherWolf bold unvote + Slayer (25); Lady Grey
    # red unvote Conia + red vote Jd- (31); Jd- bold unvote + bold name "Mr. Pickles" (40).
    at41 = count(posts, game_a(), rules, at_post=41)
    assert as_sets(at41) == host_count(forum, 39)
    assert at41.not_voting == ()
    assert wagons(at41)[0] == ("Jd-", ["Lady Grey", "Mr. Pickles", "bob the builder"])

    # After post 57: Conia's quote of Jd- (42) does not count; Tom bold on Jd- (45) then
    # purple No Lynch (55); bob red unvote (49); Pickles red "unvote Jd-" (50); Conia blue on
    # ÆtherWolf (51). Slayer and ÆtherWolf tie at 2: permissive's tie rule is no lynch.
    at57 = count(posts, game_a(), rules, at_post=57)
    assert as_sets(at57) == {
        "ÆtherWolf": {"xX_Slayer_Xx", "Conia"},
        "xX_Slayer_Xx": {"Kat", "ÆtherWolf"},
        "Jd-": {"Lady Grey"},
        "Mr. Pickles": {"Jd-"},
        "No Lynch": {"Tom & Jerry's"},
    }
    assert at57.not_voting == ("Mr. Pickles", "bob the builder")
    assert (
        at57.outcome.lynched == ()
        and "tie between xX_Slayer_Xx and ÆtherWolf" in at57.outcome.reason
    )


# ---- mafiascum: bold VOTE: and tags; majority ends the day -----------------------------------


#: The first four bold votes (posts 3, 4, 10 and 12), as of post 15: every bold convention's
#: count there.
BOLD_AT_15 = {
    "Kat": {"Mr. Pickles"},
    "Mr. Pickles": {"Kat"},
    "Tom & Jerry's": {"ÆtherWolf"},
    "Lady Grey": {"Jd-"},
}


@pytest.mark.parametrize("forum", FORUMS)
def test_mafiascum_counts_bold_and_tags_only(forum: str) -> None:
    rules, posts = find_ruleset("mafiascum"), thread_posts(forum)
    # At post 15: the bold votes of Pickles (3), Kat (4), ÆtherWolf (10), Jd- (12); Lady
    # Grey's red (8) and Conia's blue (13) are colour votes, not counted here.
    at15 = count(posts, game_a(), rules, at_post=15)
    assert as_sets(at15) == BOLD_AT_15
    assert at15.outcome.lynched == ()  # a four-way tie at 1: no lynch
    # At post 41: Pickles "[Unvote]" (18, a tag) then bold Jd- (34); Kat's tag vote Slayer
    # (17); ÆtherWolf bold unvote + Slayer (25); Jd- bold unvote (40): his bold name alone
    # ("Mr. Pickles") is not a vote under this convention; Slayer bold on ÆtherWolf (16).
    at41 = count(posts, game_a(), rules, at_post=41)
    assert as_sets(at41) == {
        "xX_Slayer_Xx": {"Kat", "ÆtherWolf"},
        "ÆtherWolf": {"xX_Slayer_Xx"},
        "Jd-": {"Mr. Pickles"},
    }
    jd_name = [v for v in at41.votes if v.post_id == 40 and v.text == "Mr. Pickles"]
    assert jd_name[0].reason == "not counted: a name in bold or colour without the word 'vote'"
    # At post 57: Tom bold on Jd- (45); Pickles' red "unvote Jd-" (50) is colour: still on Jd-.
    at57 = count(posts, game_a(), rules, at_post=57)
    assert as_sets(at57) == {
        "xX_Slayer_Xx": {"Kat", "ÆtherWolf"},
        "Jd-": {"Mr. Pickles", "Tom & Jerry's"},
        "ÆtherWolf": {"xX_Slayer_Xx"},
    }
    # End: Pickles bold on ÆtherWolf (58), Jd- bold on ÆtherWolf (66): 3 of the 5 needed,
    # so no hammer; at the deadline without a majority nobody is lynched (the convention's
    # default, rulesets/mafiascum.toml at_deadline = "no_lynch").
    end = count(posts, game_a(), rules)
    assert as_sets(end) == {
        "ÆtherWolf": {"xX_Slayer_Xx", "Mr. Pickles", "Jd-"},
        "xX_Slayer_Xx": {"Kat", "ÆtherWolf"},
        "Jd-": {"Tom & Jerry's"},
    }
    assert end.not_voting == ("Conia", "Lady Grey", "bob the builder")
    assert end.outcome.lynched == () and not end.outcome.final
    assert end.outcome.reason == "if the day ended now: no one has a majority (5): no lynch"


# ---- 000 paranormal: red only ---------------------------------------------------------------


@pytest.mark.parametrize("forum", FORUMS)
def test_paranormal_counts_red_only(forum: str) -> None:
    rules, posts = find_ruleset("paranormal"), thread_posts(forum)
    # Only Lady Grey writes red votes: "vote Conia" (8), then "unvote Conia" + "vote Jd-" (31).
    # The red vote quoted by Conia (13) stays in the quote; bob's (49) and Pickles' (50) red
    # unvotes remove nothing (their votes were never red).
    assert wagons(count(posts, game_a(), rules, at_post=15)) == [("Conia", ["Lady Grey"])]
    assert wagons(count(posts, game_a(), rules, at_post=30)) == [("Conia", ["Lady Grey"])]
    at41 = count(posts, game_a(), rules, at_post=41)
    assert wagons(at41) == [("Jd-", ["Lady Grey"])]
    end = count(posts, game_a(), rules)
    assert wagons(end) == [("Jd-", ["Lady Grey"])]
    assert len(end.not_voting) == 8
    bold = [v for v in end.votes if v.post_id == 3][0]
    assert bold.reason == "not counted: in bold; this ruleset counts votes in red"
    quoted = [v for v in end.votes if v.post_id == 13][0]
    assert quoted.reason == "not counted: inside a quote of post 8 (Lady Grey)"


# ---- 001 Miller's Hollow: bold, a bold name is a vote, ties go to the sheriff -----------------


@pytest.mark.parametrize("forum", FORUMS)
def test_millers_hollow_counts_bold_names(forum: str) -> None:
    rules, posts = find_ruleset("millers-hollow"), thread_posts(forum)
    # At 15: the bold votes of Pickles (3), Kat (4), ÆtherWolf (10), Jd- (12): four-way tie,
    # and no sheriff recorded: "If there's no sheriff ... nobody will be lynched."
    at15 = count(posts, game_a(), rules, at_post=15)
    assert as_sets(at15) == BOLD_AT_15
    assert at15.outcome.lynched == () and at15.outcome.reason.endswith(
        "tie between Kat, Lady Grey, Mr. Pickles and Tom & Jerry's (1 each): "
        "there is no sheriff, so nobody is lynched"
    )
    # At 41: Kat's "[Vote: ...]" (17) and Pickles' "[Unvote]" (18) are not bold: Kat stays
    # on Pickles; Pickles moves to Jd- (34); Jd-'s bold name "Mr. Pickles" (40) IS a vote.
    at41 = count(posts, game_a(), rules, at_post=41)
    assert wagons(at41)[0] == ("Mr. Pickles", ["Kat", "Jd-"])
    # At 57: Tom bold on Jd- (45): Jd- and Mr. Pickles tie at 2; no sheriff: no lynch.
    at57 = count(posts, game_a(), rules, at_post=57)
    assert as_sets(at57)["Jd-"] == {"Mr. Pickles", "Tom & Jerry's"}
    assert at57.outcome.reason.endswith(
        "tie between Jd- and Mr. Pickles (2 each): there is no sheriff, so nobody is lynched"
    )
    end = count(posts, game_a(), rules)
    assert wagons(end)[0] == ("ÆtherWolf", ["xX_Slayer_Xx", "Mr. Pickles", "Jd-"])
    assert end.outcome.lynched == ("ÆtherWolf",)


# ---- 002 chat mafia: [Vote: X] tags ----------------------------------------------------------


@pytest.mark.parametrize("forum", FORUMS)
def test_chat_mafia_on_thread_a(forum: str) -> None:
    rules, posts = find_ruleset("chat-mafia"), thread_posts(forum)
    # No tag vote before post 17: a day with no votes -> everyone tied at 0, drawn at random
    # reproducibly, role not revealed.
    at15 = count(posts, game_a(), rules, at_post=15)
    # The draw is written out: stored games replay it, so a change to the draw must fail here.
    assert at15.wagons == () and at15.outcome.lynched == ("Tom & Jerry's",)
    assert at15.outcome.reason == (
        "if the day ended now: no votes: all 9 living players are tied at 0; drawn at random: "
        "Tom & Jerry's (seed 'thread-a/day 1'); the role is not revealed"
    )
    # Kat's "[Vote: xX_Slayer_Xx]" (17) is the only tag vote of the thread; Pickles'
    # "[Unvote]" (18) removes nothing (his bold vote never counted).
    for at_post in (17, 41, 57, None):
        assert wagons(count(posts, game_a(), rules, at_post=at_post)) == [("xX_Slayer_Xx", ["Kat"])]


@pytest.mark.parametrize("forum", FORUMS)
def test_chat_mafia_thread_b_matches_the_host(forum: str) -> None:
    meta = truth(forum, "b")["meta"]
    posts, rules = thread_posts(forum, "b"), find_ruleset("chat-mafia")
    end_at = from_iso(meta["day"]["end_after_all_voted_iso"])
    tally = count(posts, game_b(forum), rules, now=end_at)
    assert votes_by_voter(tally) == meta["final_votes_002"]
    assert list(tally.not_voting) == meta["not_voting_002"] == []
    assert tally.alive == tuple(meta["alive"])
    assert tally.outcome.lynched == ("xX_Slayer_Xx",) and tally.outcome.final
    assert as_sets(tally) == host_count(forum, 45, "b")
    # The ambiguous, dead-player, dead-target and spectator votes are reported, not counted.
    reasons = {(v.voter, v.text): v for v in tally.votes}
    j = reasons[("Conia", "[Vote: J]")]
    assert (
        not j.accepted and j.reason == "ambiguous: 'J' could be Jd- or Tom & Jerry's; not counted"
    )
    assert (
        reasons[("ÆtherWolf", "[Vote: Conia]")].reason == "not counted: ÆtherWolf is dead (lynch)"
    )
    assert (
        reasons[("Tom & Jerry's", "[Vote: Kat]")].reason == "not counted: Kat is dead (nightkill)"
    )
    assert reasons[("bob the builder", "[Vote: Slayer]")].reason == (
        "not counted: bob the builder is not a player in this game"
    )
    # The host's three interim tallies, at the posts they were made.
    for position in (10, 21, 36):
        interim = count(posts, game_b(forum), rules, at_post=post_id(forum, position, "b"))
        assert as_sets(interim) == host_count(forum, position, "b"), position


@pytest.mark.parametrize("forum", FORUMS)
def test_thread_b_every_vote_has_the_fixture_status(forum: str) -> None:
    """Every vote-looking text thread_b.json lists, with the status its authors gave it."""
    posts, rules = thread_posts(forum, "b"), find_ruleset("chat-mafia")
    tally = count(posts, game_b(forum), rules)
    expected_reason = {
        "counted": r"(^|\()counted: ",
        "superseded": r"^replaced by the later vote in the same post",
        "in_quote": r"^not counted: inside a quote of post \d+",
        "in_code": r"inside a code block",
        "dead_voter": r"is dead",
        "dead_target": r"^not counted: Kat is dead",
        "ambiguous_target": r"^ambiguous: ",
        "non_player": r"is not a player",
        "host_example": r"host's example",
    }
    for entry in truth(forum, "b")["posts"]:
        pid = entry.get("post_id") or entry["msg_id"]
        for expected in entry["votes"]:
            mine = [v for v in tally.votes if v.post_id == pid and v.text == expected["text"]]
            assert len(mine) == 1, (pid, expected)
            vote = mine[0]
            assert re.search(expected_reason[expected["status"]], vote.reason), (
                pid,
                expected,
                vote,
            )
            if expected["status"] in ("counted", "superseded"):
                assert vote.accepted and vote.target == expected.get("target")
            else:
                assert not vote.accepted or "replaced" in vote.reason


# ---- 003 three factions: blue votes, red unvotes, no new vote without an unvote ------------------


@pytest.mark.parametrize("forum", FORUMS)
def test_three_factions_needs_unvote_first(forum: str) -> None:
    rules, posts = find_ruleset("three-factions"), thread_posts(forum)
    # At 15: Conia's blue "vote Lady Grey" (13) is the only blue vote; Lady Grey's red vote
    # (8) is red, which this ruleset keeps for unvotes.
    at15 = count(posts, game_a(), rules, at_post=15)
    assert wagons(at15) == [("Lady Grey", ["Conia"])]
    red = [v for v in at15.votes if v.post_id == 8][0]
    assert red.reason.startswith("not counted: a vote in red; this ruleset counts votes in blue")
    # At 41: Tom blue on Conia (19): a 1-1 tie, drawn at random with a recorded seed.
    at41 = count(posts, game_a(), rules, at_post=41)
    assert as_sets(at41) == {"Lady Grey": {"Conia"}, "Conia": {"Tom & Jerry's"}}
    # The draw is written out: stored games replay it, so a change to the draw must fail here.
    assert at41.outcome.lynched == ("Lady Grey",)
    assert at41.outcome.reason == (
        "if the day ended now: tie between Conia and Lady Grey (1 each): drawn at random: "
        "Lady Grey (seed 'thread-a/day 1')"
    )
    # At 57: Conia's blue "vote ÆtherWolf" (51) and Tom's purple No Lynch (55) come without an
    # unvote of their standing votes: not counted.
    at57 = count(posts, game_a(), rules, at_post=57)
    assert as_sets(at57) == {"Lady Grey": {"Conia"}, "Conia": {"Tom & Jerry's"}}
    refused = {v.post_id: v.reason for v in at57.votes if v.post_id in (51, 55)}
    assert refused[51] == (
        "not counted: still voting Lady Grey; this ruleset counts a new vote only after an unvote"
    )
    assert refused[55].startswith("not counted: still voting Conia")
    end = count(posts, game_a(), rules)
    assert as_sets(end) == as_sets(at57)
    assert end.outcome.lynched == ("Lady Grey",)  # the same tie and seed: the same pick
    assert end.outcome.reason == at41.outcome.reason


# ---- 004 DCTP: votes by PM only ------------------------------------------------------------------


@pytest.mark.parametrize("forum", FORUMS)
def test_dctp_counts_pm_votes_only(forum: str) -> None:
    rules, posts = find_ruleset("dctp-mini"), thread_posts(forum)
    # The thread's votes do not count: 004 votes are PMs the GM enters.
    bare = count(posts, game_a(), rules)
    assert bare.wagons == () and bare.outcome.reason.endswith("no votes: no lynch")
    assert all(not v.accepted for v in bare.votes)
    t = {p.post_id: p.posted_at for p in posts}
    pm = [
        {"kind": "vote", "data": {"voter": "Conia", "target": "Jd-", "at": t[14].isoformat()}},
        {"kind": "vote", "data": {"voter": "Kat", "target": "Jd-", "at": t[20].isoformat()}},
        {"kind": "vote", "data": {"voter": "Jd-", "target": "Abstain", "at": t[30].isoformat()}},
        {"kind": "vote", "data": {"voter": "Conia", "target": None, "at": t[45].isoformat()}},
        {"kind": "vote", "data": {"voter": "Lady Grey", "target": "Kat", "at": t[50].isoformat()}},
    ]
    g = game_a(pm)
    # After post 15: Conia's PM (sent with post 14) counts.
    assert wagons(count(posts, g, rules, at_post=15)) == [("Jd-", ["Conia"])]
    # After post 41: Kat's PM joins; Jd- abstains (allowed in 004) and is not "not voting".
    at41 = count(posts, g, rules, at_post=41)
    assert wagons(at41) == [("Jd-", ["Conia", "Kat"])] and at41.abstaining == ("Jd-",)
    assert "Jd-" not in at41.not_voting
    # After post 57: Conia unvoted by PM; Lady Grey's PM on Kat: a 1-1 tie, the GM decides.
    at57 = count(posts, g, rules, at_post=57)
    assert as_sets(at57) == {"Jd-": {"Kat"}, "Kat": {"Lady Grey"}}
    assert "the GM decides" in at57.outcome.reason
    assert as_sets(count(posts, g, rules)) == as_sets(at57)


# ---- 001: the sheriff breaks a tie ("the sheriff must decide among those with the most votes
# who will actually be lynched"; "If there's no sheriff ... nobody will be lynched") ----------


def _day1(forum: str, *facts: dict) -> list[dict]:
    start = thread_posts(forum)[0].posted_at.isoformat()
    day = {"kind": "day", "number": 1, "starts_at": start, "ends_at": None, "start_post": None}
    return [{"kind": "phase", "data": day}, *facts]


def _sheriff(player: str, day: int | None = 1, at_post: int | None = None) -> dict:
    return {"kind": "sheriff", "data": {"player": player, "day": day, "at_post": at_post}}


def _choice(choice: str, day: int | None = 1) -> dict:
    return {"kind": "tie_break", "data": {"day": day, "choice": choice}}


@pytest.mark.parametrize("forum", FORUMS)
def test_millers_hollow_sheriff_decides_the_real_tie_at_57(forum: str) -> None:
    rules, posts = find_ruleset("millers-hollow"), thread_posts(forum)
    # At 57 the real bold votes tie Jd- (Mr. Pickles 34, Tom 45) and Mr. Pickles (Kat 4, Jd- 40).
    waiting = count(posts, game_a(_day1(forum, _sheriff("lady grey"))), rules, at_post=57)
    assert waiting.outcome.lynched == ()
    assert waiting.outcome.reason == (
        "if the day ended now: tie between Jd- and Mr. Pickles (2 each): waiting for the "
        "sheriff's choice: the sheriff (Lady Grey) decides among them who is lynched"
    )
    # Issue 22: a tie someone must break is waiting, never "no lynch".
    assert waiting.outcome.waiting == "the sheriff (Lady Grey)"
    assert waiting.outcome.tied == ("Jd-", "Mr. Pickles")
    assert not waiting.outcome.no_lynch
    assert waiting.outcome.said() == "waiting for the sheriff's choice"
    # The sheriff chooses Jd-: Jd- is lynched, and only Jd-.
    chose = count(
        posts, game_a(_day1(forum, _sheriff("Lady Grey"), _choice("Jd-"))), rules, at_post=57
    )
    assert chose.outcome.lynched == ("Jd-",)
    assert chose.outcome.reason.endswith(
        "tie between Jd- and Mr. Pickles (2 each): the sheriff (Lady Grey) chose Jd-"
    )
    # The sheriff's own vote neither decides nor counts double: the wagons are unchanged.
    assert wagons(chose) == wagons(waiting)
    # "decide among those with the most votes": a choice outside the tie lynches nobody.
    outside = count(
        posts, game_a(_day1(forum, _sheriff("Lady Grey"), _choice("Kat"))), rules, at_post=57
    )
    assert outside.outcome.lynched == () and outside.outcome.reason.endswith(
        "waiting for the sheriff's choice: the recorded choice, Kat, is not one of them"
    )
    # A choice for another day does not decide today's tie.
    other_day = game_a(_day1(forum, _sheriff("Lady Grey"), _choice("Jd-", day=2)))
    assert count(posts, other_day, rules, at_post=57).outcome.lynched == ()
    # Without a tie the sheriff has nothing to decide: at the end ÆtherWolf leads alone.
    assert count(posts, other_day, rules).outcome.lynched == ("ÆtherWolf",)


@pytest.mark.parametrize("forum", FORUMS)
def test_millers_hollow_dead_sheriff_means_no_lynch(forum: str) -> None:
    rules, posts = find_ruleset("millers-hollow"), thread_posts(forum)
    death = {
        "kind": "death",
        "data": {"player": "Lady Grey", "how": "modkill", "at_post": 50, "at": None},
    }
    g = game_a(_day1(forum, _sheriff("Lady Grey"), death, _choice("Jd-")))
    at57 = count(posts, g, rules, at_post=57)
    assert at57.outcome.lynched == ()
    assert at57.outcome.reason.endswith(
        "there is no sheriff: Lady Grey is dead (modkill), so nobody is lynched"
    )
    # Before the death (post 45: Jd- 2, Mr. Pickles 2 already) the sheriff's choice stands.
    assert count(posts, g, rules, at_post=49).outcome.lynched == ("Jd-",)


@pytest.mark.parametrize("forum", FORUMS)
def test_millers_hollow_votes_before_the_sheriff_announcement_are_the_election(
    forum: str,
) -> None:
    """Day 1 elects the sheriff first; the lynch vote starts after the GM announces it."""
    rules, posts = find_ruleset("millers-hollow"), thread_posts(forum)
    g = game_a(_day1(forum, _sheriff("Lady Grey", at_post=15)))
    at57 = count(posts, g, rules, at_post=57)
    election = [v for v in at57.votes if v.code == "sheriff_election"]
    # The bold votes of Pickles (3), Kat (4), ÆtherWolf (10), Jd- (12) were the election.
    assert [(v.post_id, v.voter) for v in election] == [
        (3, "Mr. Pickles"),
        (4, "Kat"),
        (10, "ÆtherWolf"),
        (12, "Jd-"),
    ]
    assert all(not v.accepted for v in election)
    assert election[0].reason == (
        "not counted for the lynch: a sheriff-election vote (the election of Lady Grey "
        "was announced in post 15)"
    )
    # Kat's election vote (4) no longer props up Mr. Pickles: Jd- leads alone, no tie.
    assert as_sets(at57)["Mr. Pickles"] == {"Jd-"}
    assert at57.outcome.lynched == ("Jd-",)
    # Day 2 (a sheriff elected on day 1 serves on): nothing is an election vote.
    assert g.sheriff(2).player == "Lady Grey"


@pytest.mark.parametrize("forum", FORUMS)
@pytest.mark.parametrize(
    "ruleset",
    ["permissive", "paranormal", "millers-hollow", "chat-mafia", "three-factions", "mafiascum"],
)
def test_every_vote_has_a_code_that_agrees_with_its_reason(forum: str, ruleset: str) -> None:
    """`code` is what programs read and `reason` what people read (`accepted` is derived
    from `code`): on every real post they must tell the same story, and only counted votes
    carry weight or stand on a wagon."""
    rules = find_ruleset(ruleset)
    prose = {
        C.REPLACED: r"^replaced by (post \d+|the later vote in the same post) \(counted: ",
        C.UNVOTED: r"^removed by the unvote in post \d+ \(counted: ",
        C.AMBIGUOUS_TARGET: r"^ambiguous: '[^']+' could be ",
    }
    for tally in (
        count(thread_posts(forum), game_a(), rules),
        count(thread_posts(forum, "b"), game_b(forum), rules),
    ):
        assert tally.votes
        standing = {(v, p) for w in tally.wagons for v, p in zip(w.voters, w.posts, strict=True)}
        for v in tally.votes:
            where = (v.post_id, v.code, v.reason)
            expected = prose.get(v.code, r"^counted: " if v.accepted else r"^not counted: ")
            assert re.search(expected, v.reason), where
            if not v.accepted:
                assert v.weight == 0, where
            assert v.to_json()["code"] == str(v.code)
            assert v.to_json()["accepted"] == v.accepted
        # Each vote on a wagon is one that counted and still stands.
        stands = {C.COUNTED, C.POWERLESS, C.SAME_TARGET}
        for voter, post in standing:
            assert any(
                v.voter == voter and v.post_id == post and v.code in stands for v in tally.votes
            ), (voter, post)
