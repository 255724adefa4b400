"""The vote history chart on thread B (46 real posts) counted under the mafiascum
convention, where "a majority of the living ends the day at once (the hammer)": every
step of a wagon's line is what `count --at-post` gives at that post, and the hammer is
the post the count says ended the day."""

from __future__ import annotations

import dataclasses
from zoneinfo import ZoneInfo

import thread_b_support as tb

from assistant.count.tally import count
from assistant.game import Game
from assistant.rulesets import find_ruleset
from assistant.web.chart import render_svg, vote_history

FORUM = "smf21"


def _game(ruleset: str) -> Game:
    ends = tb.truth(FORUM)["meta"]["day"]["announced_end_iso"]
    return Game.from_parts("thread-b", [], gms=(tb.GM,), ruleset=ruleset,
                           inputs=tb.inputs(FORUM, day_ends=ends),
                           thread_url=tb.THREAD_URL[FORUM])


def test_each_wagon_over_the_day_with_the_hammer_and_the_deadline() -> None:
    game, ruleset = _game("mafiascum"), find_ruleset("mafiascum")
    posts = list(tb.final_posts(FORUM))
    tally = count(posts, game, ruleset, now=tb.SAVED_AT)
    assert tally.outcome.by_majority and tally.outcome.lynched == ("xX_Slayer_Xx",)

    history = vote_history(posts, game, ruleset, tally, now=tb.SAVED_AT,
                           deadline=tally.deadline)
    assert history is not None and history.majority == tally.majority == 4
    # The hammer: the post the count says reached majority, on the lynched wagon.
    assert [(h.target, h.post_id) for h in history.hammers] == [
        ("xX_Slayer_Xx", tally.outcome.at_post)]
    # Every step is the count as it stood after that post (`count --at-post`).
    for target, steps in history.series.items():
        assert steps[0].votes == 0 and steps[0].post_id is None
        for step in steps[1:]:
            then = count(posts, game, ruleset, at_post=step.post_id, now=tb.SAVED_AT,
                         deadline=tally.deadline)
            wagon = then.wagon(target)
            assert (wagon.effective if wagon else 0) == step.votes, (target, step)
    # Each wagon ends where the count stands.
    final = {w.target: w.effective for w in tally.wagons}
    assert {t: s[-1].votes for t, s in history.series.items() if s[-1].votes} == final

    svg = str(render_svg(history, ZoneInfo("UTC"), [w.target for w in tally.wagons]))
    assert svg.count('class="wagon"') == len(history.series)
    assert svg.count('class="hammer"') == 1 and "hammer: xX_Slayer_Xx" in svg
    assert svg.count('class="deadline"') == 1 and "majority 4" in svg


def test_a_plurality_day_has_no_hammer_and_names_are_escaped_in_the_picture() -> None:
    """002: "the hammer is not enforced: the clock decides"; a wagon named with markup
    is drawn as text."""
    game, ruleset = _game("chat-mafia"), find_ruleset("chat-mafia")
    posts = list(tb.final_posts(FORUM))
    tally = count(posts, game, ruleset, now=tb.SAVED_AT)
    history = vote_history(posts, game, ruleset, tally, now=tb.SAVED_AT,
                           deadline=tally.deadline)
    assert history is not None and history.hammers == () and history.majority is None
    renamed = {f"<b>{t}</b>" if t == "Conia" else t: s for t, s in history.series.items()}
    svg = str(render_svg(dataclasses.replace(history, series=renamed), ZoneInfo("UTC")))
    assert "<b>" not in svg and "&lt;b&gt;Conia&lt;/b&gt;" in svg
