"""The lynch threshold the GM states in the thread (gm_threshold.py, [tally] gm_threshold), on
real archived mafiascum games (../shared/mafiascum-dev). No seed speaks of it: the mafiascum
convention's GMs open each count with "With N alive, it takes M to lynch", and the players
vote to the GM's number."""

from __future__ import annotations

import dataclasses

from test_votes_real_archives import archive, day_game, day_of, tally_to

from assistant.cli.count_cmds import _text
from assistant.count.gm_threshold import stated_threshold
from assistant.count.tally import count
from assistant.rulesets import find_ruleset


def _body(game_id: str, post: int) -> str:
    _, posts = archive(game_id)
    return next(p for p in posts if p.post_id == post).body_html


def test_the_gms_stated_threshold_ends_the_day_at_the_gms_number() -> None:
    # Game 1216, Day 4: six alive; the GM's posts 580 and 646 say "With 6 (players) alive,
    # it takes 3 to lynch!" (the ruleset's majority is 4). don_johnson's vote in post 657
    # is JAMFTW's third: the GM lynched JAMFTW on it.
    before = tally_to("1216", 656)
    assert before.majority == 3 and not before.outcome.by_majority
    t = tally_to("1216", 657)
    assert t.outcome.by_majority and t.outcome.lynched == ("JAMFTW",)
    assert t.outcome.at_post == 657
    assert t.majority == 3
    assert t.majority_note == (
        "the GM's post 646 says it takes 3 to lynch with 6 alive; the ruleset's majority is "
        "4: counted to the GM's 3 ([tally] gm_threshold)"
    )
    assert t.to_json()["majority_note"] == t.majority_note
    text = _text(t, None)
    assert "With 6 alive, it takes 3 to lynch." in text
    assert "Note: the GM's post 646 says it takes 3 to lynch with 6 alive" in text


def test_a_ruleset_can_keep_its_own_majority() -> None:
    rules = find_ruleset("mafiascum")
    off = dataclasses.replace(rules, tally=dataclasses.replace(rules.tally, gm_threshold=False))
    _, posts = archive("1216")
    day = day_of("1216", 657)
    chosen = [p for p in posts if day["start_post"] <= p.post_id <= day["end_post"]]
    t = count(chosen, day_game("1216", day), off, at_post=657)
    assert t.majority == 4 and not t.outcome.by_majority and t.majority_note == ""


def test_a_threshold_for_another_living_count_is_not_read() -> None:
    # Game 1216, post 579 ends Day 3 and opens Day 4: "With 9 players alive, it takes 5 to
    # lynch!" - the day before, when nine lived. As of it, Day 4's six alive still need
    # the ruleset's majority.
    doc, posts = archive("1216")
    day4 = next(d for d in doc["days"] if d["day"] == 4)
    chosen = [p for p in posts if day4["start_post"] <= p.post_id <= day4["end_post"]]
    t = count(chosen, day_game("1216", day4), find_ruleset("mafiascum"), at_post=579)
    assert stated_threshold(_body("1216", 579), 579) is not None
    assert t.majority == 4 and t.majority_note == ""
    # The GM restating the ruleset's own majority leaves no note (Game 1216, Day 2, post
    # 122: "With 11 players alive, it takes 6 to lynch!").
    assert stated_threshold(_body("1216", 122), 122) is not None
    t = tally_to("1216", 122)
    assert t.majority == 6 and t.majority_note == ""


def test_the_shapes_gms_write_it_in() -> None:
    # Game 1159, post 316: "13 Alive == 7 to Lynch && 7 to No-Lynch".
    got = stated_threshold(_body("1159", 316), 316)
    assert got is not None and (got.alive, got.need) == (13, 7)
    # Game 1905, post 3157: "With 5 players living, 3/5 votes are required to lynch."
    got = stated_threshold(_body("1905", 3157), 3157)
    assert got is not None and (got.alive, got.need) == (5, 3)
    # Game 1474, post 878: "With 6 people alive, it requires 4 votes to lynch."
    got = stated_threshold(_body("1474", 878), 878)
    assert got is not None and (got.alive, got.need) == (6, 4)


def test_a_day_that_is_over_is_not_a_threshold() -> None:
    # Game 1387, post 447: "With 13 alive, it took 7 to lynch and to end Day 1." - the day
    # that just ended, in the past tense.
    assert stated_threshold(_body("1387", 447), 447) is None


def test_every_bundled_ruleset_states_whether_the_gms_threshold_is_read() -> None:
    from conftest import ROOT

    for path in sorted((ROOT / "rulesets").glob("*.toml")):
        text = path.read_text(encoding="utf-8")
        assert "\ngm_threshold = " in text, f"{path.name} does not state [tally] gm_threshold"
        rules = find_ruleset(str(path)).tally
        # Only a majority ruleset has a threshold to take from the GM.
        assert rules.gm_threshold is (rules.decision == "majority"), path.name
