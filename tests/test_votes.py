"""Vote extraction from real post bodies (SMF 2.1 and phpBB 3.3 via the real scrapers)."""

from __future__ import annotations

import pytest
from realthreads import FORUMS, HOST, game_a, thread_posts, truth

from assistant.errors import RulesetError
from assistant.rulesets import find_ruleset
from assistant.tally import count
from assistant.vote_codes import VoteCode
from assistant.votes import VoteRules, extract_votes, normalize_color


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("red", "#ff0000"),
        ("#f00", "#ff0000"),
        ("#FF0000", "#ff0000"),
        ("rgb(255, 0, 0)", "#ff0000"),
        ("Purple", "#800080"),
        ("blue;", "#0000ff"),
        ("not-a-colour", None),
    ],
)
def test_normalize_color(value: str, expected: str | None) -> None:
    assert normalize_color(value) == expected


@pytest.mark.parametrize("forum", FORUMS)
def test_both_forums_give_the_same_marks(forum: str) -> None:
    rules = VoteRules.from_ruleset(find_ruleset("permissive"))
    marks = [
        (m.action, m.target_text, m.markup, m.reason)
        for p in thread_posts(forum)
        for m in extract_votes(p, rules, gms=[HOST])
    ]
    other = "phpbb33" if forum == "smf21" else "smf21"
    assert marks == [
        (m.action, m.target_text, m.markup, m.reason)
        for p in thread_posts(other)
        for m in extract_votes(p, rules, gms=[HOST])
    ]


@pytest.mark.parametrize("forum", FORUMS)
def test_permissive_reads_every_intent_of_thread_a(forum: str) -> None:
    """Post by post, the votes counted under `permissive` are the authors' `intent`."""
    tally = count(thread_posts(forum), game_a(), find_ruleset("permissive"))
    for entry in truth(forum)["posts"]:
        pid = entry.get("post_id") or entry["msg_id"]
        mine = [v for v in tally.votes if v.post_id == pid and v.accepted]
        intended_votes = [i[1] for i in entry["intent"] if i[0] == "vote"]
        assert [v.target for v in mine if v.action == "vote"] == intended_votes, (
            pid,
            entry["note"],
        )
        if any(i[0] == "unvote" for i in entry["intent"]):
            assert any(v.action == "unvote" for v in mine), pid


@pytest.mark.parametrize("forum", FORUMS)
def test_marks_not_counted_carry_their_reason(forum: str) -> None:
    rules = VoteRules.from_ruleset(find_ruleset("paranormal"))
    posts = {p.post_id: p for p in thread_posts(forum)}
    quoted = extract_votes(posts[13], rules)
    assert [m.code for m in quoted] == [VoteCode.IN_QUOTE, VoteCode.WRONG_COLOR]
    assert [(m.text, m.usable, m.reason) for m in quoted] == [
        ("vote Conia", False, "not counted: inside a quote of post 8 (Lady Grey)"),
        ("vote Lady Grey", False, "not counted: a vote in blue; this ruleset counts votes in red"),
    ]
    plain = extract_votes(posts[21], rules)
    assert plain[-1].code == VoteCode.WRONG_MARKUP
    assert plain[-1].text == "vote pickles" and plain[-1].reason == (
        "not counted: plain text; this ruleset counts votes in red"
    )
    mention = extract_votes(posts[11], rules)
    assert [(m.action, m.code) for m in mention] == [("mention", VoteCode.MENTION)]
    assert mention[0].reason == "not counted: a mention of voting, not a vote"
    spoiler = extract_votes(posts[24], rules)  # "[spoiler]...[/spoiler]" is literal text on SMF 2.1
    assert [m.code for m in spoiler] == [VoteCode.MENTION]  # "sticking with my vote"
    host = extract_votes(posts[2], rules, gms=[HOST])
    assert {m.code for m in host if m.action != "mention"} == {VoteCode.HOST_EXAMPLE}
    assert {m.reason for m in host if m.action != "mention"} == {
        "not counted: host's example (posted by the GM)"
    }


def test_thread_b_code_box_and_quote() -> None:
    rules = VoteRules.from_ruleset(find_ruleset("chat-mafia"))
    for forum in FORUMS:
        by_text = {m.text: m for p in thread_posts(forum, "b") for m in extract_votes(p, rules)}
        assert by_text["[Vote: Mr. Pickles]"].reason == "not counted: inside a code block"
        assert by_text["[Vote: Mr. Pickles]"].code == VoteCode.IN_CODE
        quoted = [
            m
            for p in thread_posts(forum, "b")
            for m in extract_votes(p, rules)
            if m.code == VoteCode.IN_QUOTE
        ]
        assert [m.text for m in quoted] == ["[vote: conia]"]


def test_ruleset_sections_are_checked() -> None:
    with pytest.raises(RulesetError, match="unknown keys"):
        VoteRules.from_ruleset({"colour": ["red"]})
    with pytest.raises(RulesetError, match="not a colour"):
        VoteRules.from_ruleset({"vote_colors": ["reddish"]})
    with pytest.raises(RulesetError, match="forms"):
        VoteRules.from_ruleset({"forms": ["italic"]})
