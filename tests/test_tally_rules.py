"""Every vote rule of the issue, each on posts written in the markup SMF 2.1 and phpBB 3.3
really produce (copied from the fixture pages: `<span style="color: red;" class="bbc_color">`,
`<b>`, `<strong class="text-strong">`, `[Vote: X]` as literal text)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from assistant.count.outcome import TallyRules, decide, draw, seeded_order
from assistant.count.tally import count
from assistant.game import Game
from assistant.models import Post
from assistant.rulesets import find_ruleset
from assistant.vote_codes import VoteCode as C

T0 = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)
FIVE = ["Ann", "Bob", "Cat", "Dan", "Eve"]


def smf_color(color: str, text: str) -> str:
    return f'<span style="color: {color};" class="bbc_color">{text}</span>'


def phpbb_color(color: str, text: str) -> str:
    return f'<span style="color:{color}">{text}</span>'


def smf_bold(text: str) -> str:
    return f"<b>{text}</b>"


def phpbb_bold(text: str) -> str:
    return f'<strong class="text-strong">{text}</strong>'


def tag(text: str) -> str:
    return f"Some thoughts first.<br><br>[{text}]"


def thread(*entries: tuple[str, str], start: int = 100) -> list[Post]:
    """Posts (author, body) one minute apart, ids from `start`."""
    return [
        Post(start + i, i, author, None, T0 + timedelta(minutes=i), body, 1)
        for i, (author, body) in enumerate(entries)
    ]


def game(players: list[str] = FIVE, inputs: list[dict[str, Any]] = (), **kw: Any) -> Game:  # type: ignore[assignment]
    return Game.from_parts("g", [[p] for p in players], gms=["Host"], inputs=list(inputs), **kw)


def phase(number: int = 1, ends_in_minutes: int | None = None) -> dict[str, Any]:
    return {
        "kind": "phase",
        "data": {
            "kind": "day",
            "number": number,
            "starts_at": T0.isoformat(),
            "ends_at": (T0 + timedelta(minutes=ends_in_minutes)).isoformat()
            if ends_in_minutes
            else None,
            "start_post": None,
        },
    }


def as_sets(tally) -> dict[str, set[str]]:
    return {w.target: set(w.voters) for w in tally.wagons}


# ---- markup ------------------------------------------------------------------------------


@pytest.mark.parametrize("red", ["red", "#f00", "#FF0000", "rgb(255, 0, 0)"])
def test_red_in_every_spelling_counts_under_paranormal(red: str) -> None:
    posts = thread(("Ann", smf_color(red, "vote Bob")), ("Bob", phpbb_color(red, "vote Ann")))
    tally = count(posts, game(), find_ruleset("paranormal"))
    assert as_sets(tally) == {"Bob": {"Ann"}, "Ann": {"Bob"}}
    assert tally.votes[0].reason == "counted: red vote"


def test_bold_in_every_form_counts_under_mafiascum() -> None:
    posts = thread(
        ("Ann", smf_bold("vote: Bob")),
        ("Bob", phpbb_bold("VOTE: Cat")),
        ("Cat", '<span style="font-weight: bold">vote Dan</span>'),
        ("Dan", "[vote]Eve[/vote]"),
    )
    assert as_sets(count(posts, game(), find_ruleset("mafiascum"))) == {
        "Bob": {"Ann"},
        "Cat": {"Bob"},
        "Dan": {"Cat"},
        "Eve": {"Dan"},
    }


def test_quote_spoiler_code_strike_and_mentions_never_count() -> None:
    posts = thread(
        (
            "Ann",
            '<blockquote class="bbc_standard_quote"><cite><a href="http://f/index.php?msg=40">'
            "Quote from: Bob on Nov 21, 2026</a></cite><b>vote: Cat</b></blockquote>so?",
        ),
        ("Bob", '<div class="codebox"><p>Code: </p><pre><code>[Vote: Dan]</code></pre></div>'),
        ("Cat", "[spoiler]<b>vote: Eve</b>[/spoiler] hidden"),
        ("Dan", "<s><b>vote: Ann</b></s> changed my mind"),
        ("Eve", "I am not voting yet, my vote comes later."),
    )
    tally = count(posts, game(), find_ruleset("permissive"))
    assert tally.wagons == ()
    assert [v.code for v in tally.votes] == [C.IN_QUOTE, C.IN_CODE, C.IN_SPOILER, C.STRUCK]
    reasons = [v.reason for v in tally.votes]
    assert reasons == [
        "not counted: inside a quote of post 40 (Bob)",
        "not counted: inside a code block",
        "not counted: inside a spoiler",
        "not counted: struck through",
    ]


def test_host_examples_are_reported_not_counted() -> None:
    posts = thread(("Host", "Vote like this: " + smf_bold("vote: Name") + " or [Vote: Name]"))
    tally = count(posts, game(), find_ruleset("permissive"))
    assert tally.wagons == () and len(tally.votes) == 2
    assert {v.code for v in tally.votes} == {C.HOST_EXAMPLE}
    assert {v.reason for v in tally.votes} == {"not counted: host's example (posted by the GM)"}


def test_the_last_vote_in_a_post_wins() -> None:
    posts = thread(("Ann", "[Vote: Bob] hmm, no. [Vote: Cat]"))
    tally = count(posts, game(), find_ruleset("chat-mafia"))
    assert as_sets(tally) == {"Cat": {"Ann"}}
    assert [v.code for v in tally.votes] == [C.REPLACED, C.COUNTED]
    assert tally.votes[0].reason.startswith("replaced by the later vote in the same post")


# ---- vote rules ----------------------------------------------------------------------------


def test_replace_002_versus_unvote_first_003() -> None:
    tags = thread(
        ("Ann", tag("Vote: Bob")),
        ("Ann", tag("Vote: Cat")),
        ("Bob", tag("Vote: Ann")),
        ("Bob", tag("Unvote")),
    )
    t002 = count(tags, game(), find_ruleset("chat-mafia"))
    assert as_sets(t002) == {"Cat": {"Ann"}} and t002.not_voting == ("Bob", "Cat", "Dan", "Eve")
    assert t002.votes[0].reason == "replaced by post 101 (counted: tag vote)"
    assert [v.code for v in t002.votes] == [C.REPLACED, C.COUNTED, C.UNVOTED, C.COUNTED]

    blue = lambda t: smf_color("blue", t)  # noqa: E731
    red = lambda t: smf_color("red", t)  # noqa: E731
    posts = thread(
        ("Ann", blue("vote Bob")),
        ("Ann", blue("vote Cat")),
        ("Ann", red("unvote Bob")),
        ("Ann", blue("vote Cat")),
    )
    t003 = count(posts, game(), find_ruleset("three-factions"), at_post=101)
    assert as_sets(t003) == {"Bob": {"Ann"}}
    assert t003.votes[1].code == C.NO_UNVOTE_FIRST
    assert as_sets(count(posts, game(), find_ruleset("three-factions"))) == {"Cat": {"Ann"}}


def test_self_votes_forbidden_in_001_allowed_elsewhere() -> None:
    posts = thread(("Ann", smf_bold("vote: Ann")))
    t001 = count(posts, game(), find_ruleset("millers-hollow"))
    assert t001.wagons == ()
    assert t001.votes[0].code == C.SELF_VOTE
    assert t001.votes[0].reason == "not counted: self-votes are not allowed under this ruleset"
    assert as_sets(count(posts, game(), find_ruleset("mafiascum"))) == {"Ann": {"Ann"}}


def test_no_lynch_allowed_or_not() -> None:
    posts = thread(("Ann", smf_color("purple", "vote No Lynch")), ("Bob", "[Vote: No Lynch]"))
    t003 = count(posts, game(), find_ruleset("three-factions"))
    assert as_sets(t003) == {"No Lynch": {"Ann"}}
    t002 = count(posts, game(), find_ruleset("chat-mafia"))
    assert t002.wagons == ()
    assert t002.votes[1].code == C.NO_LYNCH_NOT_ALLOWED
    assert t002.votes[1].reason == "not counted: No Lynch is not allowed under this ruleset"


def test_abstaining_allowed_in_004_not_in_001() -> None:
    g = game(
        inputs=[
            {"kind": "vote", "data": {"voter": "Ann", "target": "Abstain", "at": T0.isoformat()}}
        ]
    )
    t004 = count([], g, find_ruleset("dctp-mini"))
    assert t004.abstaining == ("Ann",) and "Ann" not in t004.not_voting
    t001 = count(thread(("Ann", smf_bold("vote: abstain"))), game(), find_ruleset("millers-hollow"))
    assert t001.votes[0].code == C.ABSTAIN_NOT_ALLOWED
    assert t001.votes[0].reason == "not counted: abstaining is not allowed under this ruleset"
    assert "Ann" in t001.not_voting


def test_dead_voters_and_dead_targets() -> None:
    deaths = [
        {
            "kind": "death",
            "data": {
                "player": "Eve",
                "at_post": 101,
                "at": None,
                "how": "modkill",
                "replacement": None,
            },
        }
    ]
    posts = thread(
        ("Ann", "[Vote: Eve]"),
        ("Eve", "[Vote: Bob]"),
        ("Eve", "[Vote: Cat]"),
        ("Bob", "[Vote: Eve]"),
    )
    tally = count(posts, game(inputs=deaths), find_ruleset("chat-mafia"))
    # Eve is alive up to post 101 (her vote there counts while she lives), dead after it.
    reasons = [v.reason for v in tally.votes]
    assert reasons[2] == "not counted: Eve is dead (modkill)"
    assert reasons[3] == "not counted: Eve is dead (modkill)"
    # the same words, told apart by their codes: Eve voting, and a vote for Eve
    assert [v.code for v in tally.votes][2:] == [C.DEAD_VOTER, C.DEAD_TARGET]
    assert tally.alive == ("Ann", "Bob", "Cat", "Dan")
    # Ann's vote on Eve (cast before the death) and Eve's own vote drop out: votes by and
    # for the dead are removed, so Ann is back among those not voting.
    assert tally.wagons == ()
    assert tally.not_voting == ("Ann", "Bob", "Cat", "Dan")
    assert count(posts, game(inputs=deaths), find_ruleset("chat-mafia"), at_post=101).wagon(
        "Bob"
    ).voters == ("Eve",)


def test_votes_after_the_deadline_do_not_count() -> None:
    posts = thread(("Ann", "[Vote: Bob]"), ("Bob", "[Vote: Ann]"), ("Cat", "[Vote: Bob]"))
    tally = count(
        posts,
        game(inputs=[phase(1, ends_in_minutes=1)]),
        find_ruleset("chat-mafia"),
        now=T0 + timedelta(hours=1),
    )
    assert as_sets(tally) == {"Bob": {"Ann"}, "Ann": {"Bob"}}
    assert tally.votes[2].code == C.AFTER_DEADLINE
    assert tally.outcome.final


def test_replaced_players_vote_and_are_voted_as_one_slot() -> None:
    g = game(
        inputs=[
            {
                "kind": "death",
                "data": {
                    "player": "Eve",
                    "how": "replaced",
                    "replacement": "Zed",
                    "at_post": None,
                    "at": None,
                },
            }
        ]
    )
    posts = thread(("Eve", "[Vote: Ann]"), ("Zed", "[Vote: Bob]"), ("Ann", "[Vote: Zed]"))
    tally = count(posts, g, find_ruleset("chat-mafia"))
    assert as_sets(tally) == {"Bob": {"Eve"}, "Eve": {"Ann"}}
    assert "Eve" in tally.alive and "Zed" not in tally.alive


# ---- weights -------------------------------------------------------------------------------


def modifier(player: str, **data: Any) -> dict[str, Any]:
    return {"kind": "modifier", "data": {"player": player, **data}}


def test_doublevoter_and_enchanter_count_twice_but_show_once() -> None:
    posts = thread(
        ("Ann", smf_color("red", "vote Cat")),
        ("Bob", smf_color("red", "vote Dan")),
        ("Eve", smf_color("red", "vote Dan")),
    )
    g = game(inputs=[modifier("Ann", vote_weight=2)])  # 000 Enchanter: "His votes count double"
    tally = count(posts, g, find_ruleset("paranormal"))
    cat, dan = tally.wagon("Cat"), tally.wagon("Dan")
    assert (cat.displayed, cat.effective) == (1, 2) and (dan.displayed, dan.effective) == (2, 2)
    assert tally.outcome.lynched == () and "tie" in tally.outcome.reason  # 2-2: no lynch in 000
    assert tally.votes[0].weight == 2 and tally.votes[0].reason.endswith("(counts 2)")


def test_lovers_voting_together_count_three_002() -> None:
    posts = thread(
        ("Ann", "[Vote: Cat]"),
        ("Bob", "[Vote: Cat]"),
        ("Dan", "[Vote: Eve]"),
        ("Eve", "[Vote: Dan]"),
        ("Cat", "[Vote: Eve]"),
    )
    g = game(inputs=[modifier("Ann", lover_of="Bob"), modifier("Bob", lover_of="Ann")])
    tally = count(posts, g, find_ruleset("chat-mafia"))
    assert (tally.wagon("Cat").displayed, tally.wagon("Cat").effective) == (2, 3)
    assert tally.wagon("Eve").effective == 2


def test_hexed_vote_shows_but_does_not_count_002() -> None:
    posts = thread(("Ann", "[Vote: Cat]"), ("Bob", "[Vote: Dan]"))
    g = game(inputs=[phase(2), modifier("Ann", powerless=True, day=2)])
    tally = count(posts, g, find_ruleset("chat-mafia"))
    cat = tally.wagon("Cat")
    assert (cat.displayed, cat.effective) == (1, 0)
    assert tally.outcome.lynched == ("Dan",)
    assert tally.votes[0].weight == 0 and tally.votes[0].code == C.POWERLESS
    assert tally.votes[0].reason == "counted: tag vote (powerless: shown, not counted)"
    # the hex lasts one day: on day 3 Ann's vote counts again
    g3 = game(inputs=[phase(3), modifier("Ann", powerless=True, day=2)])
    assert count(posts, g3, find_ruleset("chat-mafia")).wagon("Cat").effective == 1


# ---- outcomes ------------------------------------------------------------------------------


def test_ties_per_ruleset() -> None:
    posts = thread(
        ("Ann", smf_bold("vote: Cat") + " " + smf_color("red", "vote Cat") + " [Vote: Cat]"),
        ("Bob", smf_bold("vote: Dan") + " " + smf_color("red", "vote Dan") + " [Vote: Dan]"),
    )
    t000 = count(posts, game(), find_ruleset("paranormal"))
    assert t000.outcome.lynched == () and "no lynch" in t000.outcome.reason
    t001 = count(posts, game(), find_ruleset("millers-hollow"))
    # 001 with no sheriff recorded: "If there's no sheriff ... nobody will be lynched."
    assert t001.outcome.lynched == ()
    assert t001.outcome.reason.endswith("there is no sheriff, so nobody is lynched")
    t002 = count(posts, game(), find_ruleset("chat-mafia"))
    # The draw is written out: stored games replay it, so a change to the draw must fail here.
    assert t002.outcome.lynched == ("Dan",)
    assert t002.outcome.reason == (
        "if the day ended now: tie between Cat and Dan (1 each): "
        "drawn at random: Dan (seed 'g/day 1')"
    )
    # The recorded seed alone gives the same pick, whatever order the names come in.
    assert draw(["Dan", "Cat"], "g/day 1") == draw(["Cat", "Dan"], "g/day 1") == "Dan"
    assert draw(["Cat", "Dan"], "g/day 3") == "Cat"  # the seed matters: another day, another pick
    # The whole seeded order, written out (a two-name draw alone would hide half the changes).
    assert seeded_order(FIVE, "g/day 1") == ["Cat", "Bob", "Ann", "Eve", "Dan"]
    assert seeded_order([f"P{i}" for i in range(10)], "thread-a/day 1") == [
        "P5", "P8", "P4", "P2", "P7", "P0", "P1", "P6", "P3", "P9"
    ]


def test_no_votes_at_all_002_everyone_tied() -> None:
    tally = count(thread(("Ann", "hello")), game(), find_ruleset("chat-mafia"))
    assert tally.outcome.lynched == ("Cat",)
    assert tally.outcome.reason == (
        "if the day ended now: no votes: all 5 living players are tied at 0; "
        "drawn at random: Cat (seed 'g/day 1'); the role is not revealed"
    )
    assert count(thread(("Ann", "hello")), game(), find_ruleset("paranormal")).outcome.lynched == ()


def test_no_lynch_leading_003() -> None:
    purple = lambda t: smf_color("purple", t)  # noqa: E731
    posts = thread(
        ("Ann", purple("vote No Lynch")),
        ("Bob", purple("vote No Lynch")),
        ("Cat", smf_color("blue", "vote Dan")),
    )
    tally = count(posts, game(), find_ruleset("three-factions"))
    assert tally.outcome.lynched == () and "No Lynch leads with 2" in tally.outcome.reason


TEN = [f"P{i}" for i in range(10)]


def test_multi_lynch_thresholds_003() -> None:
    blue = lambda t: smf_color("blue", t)  # noqa: E731
    # 10 alive: P0 gets 5, P1 gets 4 (40 % > 34 %), P2 gets 1 (10 %, not over 10 %).
    votes = ["P0"] * 5 + ["P1"] * 4 + ["P2"]
    posts = thread(*[(f"P{i}", blue(f"vote {t}")) for i, t in zip(range(10), votes, strict=True)])
    rules = find_ruleset("three-factions")
    lynch3 = [{"kind": "lynches", "data": {"day": 2, "available": 3}}]
    tally = count(posts, game(TEN, inputs=[phase(2), *lynch3]), rules)
    assert tally.outcome.lynched == ("P0", "P1")
    assert "P2 is third with 1 of 10 (10%, not over 10%): not lynched" in tally.outcome.reason
    # With P2 at 2 (20 %), the third lynch happens too.
    votes = ["P0"] * 4 + ["P1"] * 4 + ["P2"] * 2
    posts = thread(*[(f"P{i}", blue(f"vote {t}")) for i, t in zip(range(10), votes, strict=True)])
    tally = count(posts, game(TEN, inputs=[phase(2), *lynch3]), rules)
    # P0 and P1 tie at 4: the seeded draw puts P1 first (written out: replays depend on it).
    assert tally.outcome.lynched == ("P1", "P0", "P2")
    assert tally.outcome.reason == (
        "if the day ended now: tie between P0 and P1 (4 each): drawn at random: P1 "
        "(seed 'g/day 2'); P0 is second with 4 of 10 (40% > 34%): also lynched; "
        "P2 is third with 2 of 10 (20% > 10%): also lynched; 3 lynches available today"
    )
    # Only one lynch available (the default), or Day 1: one lynch, the same seeded pick.
    assert count(posts, game(TEN, inputs=[phase(2)]), rules).outcome.lynched == ("P1",)
    day1 = [phase(1), {"kind": "lynches", "data": {"day": 1, "available": 3}}]
    day1_outcome = count(posts, game(TEN, inputs=day1), rules).outcome
    assert day1_outcome.lynched == ("P1",) and "(seed 'g/day 1')" in day1_outcome.reason


def test_majority_ends_the_day_mafiascum() -> None:
    posts = thread(
        ("Ann", phpbb_bold("VOTE: Eve")),
        ("Bob", phpbb_bold("VOTE: Eve")),
        ("Cat", phpbb_bold("VOTE: Eve")),
        ("Dan", phpbb_bold("VOTE: Ann")),
        ("Ann", phpbb_bold("UNVOTE:")),
    )
    tally = count(posts, game(), find_ruleset("mafiascum"))
    assert tally.majority == 3
    assert (
        tally.outcome.lynched == ("Eve",) and tally.outcome.at_post == 102 and tally.outcome.final
    )
    assert tally.votes[3].code == C.AFTER_HAMMER
    assert tally.votes[3].reason == "not counted: the day ended at post 102 (majority on Eve)"
    assert as_sets(tally) == {"Eve": {"Ann", "Bob", "Cat"}}
    # Under plurality (002) the same votes do not end the day: Ann's unvote counts.
    assert count(posts, game(), find_ruleset("mafiascum"), at_post=101).outcome.final is False


def test_decide_directly_with_thresholds_and_no_votes() -> None:
    rules = TallyRules(tie="random")
    out = decide(
        [],
        alive=["A", "B"],
        majority=2,
        rules=rules,
        seed="s",
        day=1,
        lynches_available=1,
        hammer=None,
        last_post=None,
        final=True,
    )
    assert out.lynched == () and out.reason == "no votes: no lynch"


# ---- odd posts a GM meets: nothing crashes, nothing is counted twice or lost ----------------

SMF_QUOTE = (
    '<blockquote class="bbc_standard_quote"><cite><a href="http://127.0.0.1:8021/index.php?'
    'msg=8">Quote from: Lady Grey on Nov 21, 2026, 10:42 AM</a></cite>{}</blockquote>'
)
PHPBB_QUOTE = (
    '<blockquote cite="./viewtopic.php?p=8#p8"><div><cite><a href="./memberlist.php?mode='
    'viewprofile&amp;u=63">Lady Grey</a> wrote: <span class="responsive-hide">Sat Nov 21, '
    "2026 10:42 am</span></cite>\n{}</div></blockquote>"
)
ODD = ["Mr. Pickles", "Tom & Jerry's", "Jd-", "Conia", "Lady Grey"]
RULESETS = [
    "permissive",
    "paranormal",
    "millers-hollow",
    "chat-mafia",
    "three-factions",
    "dctp-mini",
    "mafiascum",
]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_empty_and_quote_only_posts_count_nothing(ruleset: str) -> None:
    vote = smf_bold("vote: Jd-") + " " + smf_color("red", "vote Jd-") + " [Vote: Jd-]"
    bodies = [
        "",
        "   <br>\n",
        "<b></b>",
        SMF_QUOTE.format(vote),
        PHPBB_QUOTE.format(PHPBB_QUOTE.format(phpbb_bold("vote: Jd-")) + "[Vote: Jd-]"),
        SMF_QUOTE.format(SMF_QUOTE.format(smf_bold("Jd-")) + smf_bold("Conia")),
    ]
    posts = thread(*[("Conia", b) for b in bodies])
    tally = count(posts, game(ODD), find_ruleset(ruleset))
    assert tally.wagons == ()
    assert {v.code for v in tally.votes} <= {C.IN_QUOTE}
    assert {v.post_id for v in tally.votes} <= {103, 104, 105}


def test_names_with_punctuation_and_html_entities() -> None:
    """Names are never used as patterns: dots, ampersands, apostrophes and entities."""
    posts = thread(
        ("Conia", "[Vote: Tom &amp; Jerry&#39;s]"),  # the SMF 2.1 / phpBB escaping
        ("Jd-", phpbb_bold("vote: Tom &amp; Jerry's")),
        ("Lady Grey", smf_bold("VOTE: MR. PICKLES")),
        ("Mr. Pickles", smf_bold("vote: Jd-\u200b")),  # a zero-width space pasted along
        ("Tom & Jerry's", "[Vote: .*]"),  # not a pattern: it names no one
    )
    tally = count(posts, game(ODD), find_ruleset("permissive"))
    assert as_sets(tally) == {
        "Tom & Jerry's": {"Conia", "Jd-"},
        "Mr. Pickles": {"Lady Grey"},
        "Jd-": {"Mr. Pickles"},
    }
    assert tally.votes[3].reason == "counted: bold vote"
    assert tally.votes[4].code == C.UNKNOWN_TARGET
    # 001: a bold name alone is a vote, punctuation and all.
    t001 = count(thread(("Conia", smf_bold("Tom &amp; Jerry's"))), game(ODD), find_ruleset("001"))
    assert as_sets(t001) == {"Tom & Jerry's": {"Conia"}}


def test_a_vote_without_a_name_is_reported_not_counted() -> None:
    posts = thread(("Conia", smf_bold("vote:")), ("Jd-", "[Vote: ]"))
    tally = count(posts, game(ODD), find_ruleset("permissive"))
    assert tally.wagons == ()
    assert [(v.code, v.reason) for v in tally.votes] == [
        (C.UNKNOWN_TARGET, "not counted: the vote names no one")
    ] * 2


def test_an_edited_post_given_twice_counts_once() -> None:
    """Two versions of one post (an edit) must not cast two votes: the last one given counts."""
    first, other = thread(("Conia", "[Vote: Jd-]"), ("Jd-", "[Vote: Conia]"))
    edited = Post(first.post_id, first.position, "Conia", None, first.posted_at, "[Vote: Kat]", 1)
    g = game(["Conia", "Jd-", "Kat"])
    tally = count([first, other, edited], g, find_ruleset("chat-mafia"))
    assert as_sets(tally) == {"Kat": {"Conia"}, "Conia": {"Jd-"}}
    assert [v.post_id for v in tally.votes] == [100, 101]


def test_votes_are_applied_in_post_order_even_with_stale_positions() -> None:
    """After a moderator deletes a post, pages fetched again shift their positions while older
    pages keep theirs: the later vote must still be the one that stands."""
    early, late = thread(("Conia", "[Vote: Jd-]"), ("Conia", "[Vote: Kat]"))
    late = Post(late.post_id, 0, late.author, None, late.posted_at, late.body_html, 1)
    early = Post(early.post_id, 3, early.author, None, early.posted_at, early.body_html, 1)
    tally = count([late, early], game(["Conia", "Jd-", "Kat"]), find_ruleset("chat-mafia"))
    assert as_sets(tally) == {"Kat": {"Conia"}}
    assert [v.code for v in tally.votes] == [C.REPLACED, C.COUNTED]


def pm(voter: str, target: str, minutes: int) -> dict[str, Any]:
    at = (T0 + timedelta(minutes=minutes)).isoformat()
    return {"kind": "vote", "data": {"voter": voter, "target": target, "at": at}}


def test_a_hammer_by_pm_names_no_post() -> None:
    """A majority reached by a PM vote ends the day at no post (not at "post -1")."""
    rules = _Ruleset({"votes": {"forms": ["pm"]}, "tally": {"decision": "majority"}})
    votes = [pm("Ann", "Eve", 0), pm("Bob", "Eve", 1), pm("Cat", "Eve", 2)]
    tally = count([], game(inputs=votes), rules)
    assert tally.outcome.lynched == ("Eve",) and tally.outcome.at_post is None
    late = count([], game(inputs=[*votes, pm("Dan", "Ann", 60)]), rules)
    assert late.votes[-1].code == C.AFTER_HAMMER
    assert late.votes[-1].reason == "not counted: the day ended at a PM vote (majority on Eve)"


class _Ruleset:
    """A ruleset made of sections, as `find_ruleset` gives them (for a house rule)."""

    name = "house"
    path = "house.toml"

    def __init__(self, sections: dict[str, dict[str, Any]]) -> None:
        self.sections = sections

    def section(self, name: str) -> dict[str, Any]:
        return self.sections.get(name, {})
