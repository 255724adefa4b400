"""Vote extraction from real post bodies (SMF 2.1 and phpBB 3.3 via the real scrapers)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest
from realthreads import FORUMS, HOST, game_a, thread_posts, truth

from assistant.count import votes
from assistant.count.tally import count
from assistant.count.votes import (
    VoteRules,
    chunks_lexbor,
    clear_extract_cache,
    extract_votes,
    marks_from_chunks,
    may_hold_marks,
    normalize_color,
)
from assistant.errors import RulesetError
from assistant.models import Post
from assistant.rulesets import available_rulesets, find_ruleset
from assistant.vote_codes import VoteCode


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


# ---- reading only what can hold a mark, and only once ---------------------------------------

T0 = datetime(2026, 11, 21, 9, tzinfo=UTC)


def written(body: str, author: str = "Kat", post_id: int = 5) -> Post:
    return Post(post_id=post_id, position=0, author=author, author_id=None, posted_at=T0,
                body_html=body, page=1)


def marks_of(body: str, ruleset: str) -> list[tuple[str, str | None, tuple[str, ...], bool]]:
    rules = VoteRules.from_ruleset(find_ruleset(ruleset))
    return [(m.action, m.text, m.forms, m.usable) for m in extract_votes(written(body), rules)]


@pytest.mark.parametrize("ruleset", sorted(available_rulesets()))
def test_posts_left_unparsed_hold_no_mark(ruleset: str) -> None:
    """`may_hold_marks` skips parsing; every real post it skips has no mark to report."""
    rules = VoteRules.from_ruleset(find_ruleset(ruleset))
    skipped = 0
    for forum in FORUMS:
        for post in (*thread_posts(forum), *thread_posts(forum, "b")):
            if may_hold_marks(post.body_html, rules):
                continue
            skipped += 1
            marks = marks_from_chunks(chunks_lexbor(post.body_html))
            if rules.name_only:
                assert marks == [], post.post_id
            else:  # only bold names without the word "vote", as ever
                assert {m.action for m in marks} <= {"name"}, post.post_id
    assert skipped > 0


def test_marks_written_with_character_references_and_odd_letters_are_found() -> None:
    # "&#118;ote" is "vote" once parsed: read where a bare name counts, as it always was.
    assert marks_of("<p>&#118;ote Kat</p>", "permissive") == [
        ("vote", "vote Kat", ("plain",), True)
    ]
    assert marks_of("Going with<br>&#x56;OTE: Conia", "millers-hollow") == [
        ("vote", "VOTE: Conia", ("plain",), False)
    ]
    assert marks_of('<span class="bb&#118;ote">Kat</span>', "permissive") == [
        ("name", "Kat", ("tag",), True)
    ]
    assert marks_of('I think <span style="color: red">Jd-</span>', "permissive") == [
        ("name", "Jd-", ("color",), True)
    ]
    assert marks_of("Nothing to see here, <i>Kat</i>.", "permissive") == []
    # "İ" lowers to two letters: offsets found in the lowered text would point past the vote
    assert marks_of("İİİİİİİİİİ voting is fun", "permissive") == [
        ("mention", "İİİİİİİİİİ voting is fun", ("plain",), False)
    ]
    assert marks_of("İİİ trip!<br>vote Kat. İ <b>vote Conia</b>", "mafiascum") == [
        ("vote", "vote Kat. İ vote Conia", ("plain",), False),
        ("vote", "vote Conia", ("bold",), True),
    ]


def test_a_recount_reads_only_new_and_edited_posts() -> None:
    posts = list(thread_posts("smf21"))
    ruleset = find_ruleset("permissive")
    clear_extract_cache()
    first = count(posts, game_a(), ruleset)
    read = votes._JUDGED.misses
    again = count(posts, game_a(), ruleset)
    assert votes._JUDGED.misses == read
    assert again.to_json(why=True) == first.to_json(why=True)

    edited = replace(posts[20], body_html=posts[20].body_html + "<br>[Vote: Conia]")
    after = count([*posts[:20], edited, *posts[21:]], game_a(), ruleset)
    assert votes._JUDGED.misses == read + 1
    assert after.votes_of(after.votes[-1].voter)  # the edit is counted...
    assert [v for v in after.votes if v.post_id == edited.post_id][-1].text == "[Vote: Conia]"


def test_a_day_longer_than_the_kept_marks_is_recounted_without_reading_a_post_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The judged marks kept start at a few thousand posts (200 games of 300 posts would
    # push each other's out anyway) and grow to the longest day counted: else a recount
    # going through a longer day pushes out every post just before it reads it again.
    posts = list(thread_posts("smf21"))
    ruleset = find_ruleset("permissive")
    clear_extract_cache()
    monkeypatch.setattr(votes._JUDGED, "size", 8)
    first = count(posts, game_a(), ruleset)
    read = votes._JUDGED.misses
    assert read > 8  # more posts with marks than were kept at first
    again = count(posts, game_a(), ruleset)
    assert votes._JUDGED.misses == read
    assert again.to_json(why=True) == first.to_json(why=True)


def test_kept_marks_belong_to_their_own_post_and_author() -> None:
    rules = VoteRules.from_ruleset(find_ruleset("permissive"))
    body = "[Vote: Kat]"
    by_player = extract_votes(written(body, post_id=7), rules, gms=[HOST])
    by_other_post = extract_votes(written(body, post_id=8), rules, gms=[HOST])
    by_host = extract_votes(written(body, author=HOST, post_id=7), rules, gms=[HOST])
    assert [(m.post_id, m.code) for m in by_player] == [(7, VoteCode.COUNTED)]
    assert [(m.post_id, m.code) for m in by_other_post] == [(8, VoteCode.COUNTED)]
    assert [(m.post_id, m.code) for m in by_host] == [(7, VoteCode.HOST_EXAMPLE)]
    by_player.clear()  # the caller's list is its own
    assert len(extract_votes(written(body, post_id=7), rules, gms=[HOST])) == 1
