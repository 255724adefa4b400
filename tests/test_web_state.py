"""The state line at the top of a game's page and on the overview, on thread B's real
Day 2 counted under a majority ruleset (mafiascum) and a plurality one (chat-mafia): the
time left never below zero, L-n under a majority, the leader under a plurality, a day
that ended says what it decided."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace

import thread_b_support as tb

from assistant.count.tally import count
from assistant.game import Game
from assistant.phases import Deadline
from assistant.rulesets import find_ruleset
from assistant.web.pages import game_state, short_duration

FORUM = "smf21"


def _view(ruleset: str, before_end: timedelta, at_post: int | None = None):  # noqa: ANN202
    """The day's view and count `before_end` before its deadline (negative: after)."""
    ends = tb.truth(FORUM)["meta"]["day"]["announced_end_iso"]
    game = Game.from_parts("thread-b", [], gms=(tb.GM,), ruleset=ruleset,
                           inputs=tb.inputs(FORUM, day_ends=ends),
                           thread_url=tb.THREAD_URL[FORUM])
    phase = game.day()
    now = phase.ends_at - before_end
    posts = [p for p in tb.final_posts(FORUM) if p.posted_at <= now]
    tally = count(posts, game, find_ruleset(ruleset), at_post=at_post, now=now)
    view = SimpleNamespace(replay=None, phase=phase, orders=None,
                           deadline=Deadline(phase.ends_at, "set by the GM"))
    return view, tally, now


def test_a_running_majority_day_says_l_minus_n_on_the_leader() -> None:
    view, tally, now = _view("mafiascum", timedelta(minutes=8))
    state = game_state(view, tally, [], now)
    top = max(w.effective for w in tally.wagons)
    leaders = [w.target for w in tally.wagons if w.effective == top]
    assert state.tone == "running" and state.left == 1
    assert state.text == f"Day 2 · 8 min left · L-{tally.majority - top} on " + \
        " and ".join(leaders)


def test_a_plurality_day_names_the_leader_and_an_ended_day_what_it_decided() -> None:
    view, tally, now = _view("chat-mafia", timedelta(minutes=9, seconds=5))
    running = game_state(view, tally, [], now)
    assert running.text.startswith("Day 2 · 9 min 5 s left · ")
    top = max(w.effective for w in tally.wagons)
    leaders = [w.target for w in tally.wagons if w.effective == top]
    assert running.text.endswith(f"{leaders[0]} leads with {top}" if len(leaders) == 1
                                 else f"tied at {top}: " + " and ".join(leaders))
    view, tally, now = _view("chat-mafia", -timedelta(days=4, hours=18))
    ended = game_state(view, tally, [], now)
    assert ended.text == "Day 2 ended 4 d ago: xX_Slayer_Xx lynched"
    assert ended.tone == "ended" and ended.deadline_iso is None  # nothing to count down


def test_time_left_is_said_as_a_gm_says_it_and_never_below_zero() -> None:
    assert short_duration(timedelta(days=4, hours=18, minutes=45)) == "4 d 18 h"
    assert short_duration(timedelta(hours=2, minutes=14, seconds=9)) == "2 h 14 min"
    assert short_duration(timedelta(minutes=9, seconds=5)) == "9 min 5 s"
    assert short_duration(timedelta(seconds=-300)) == "0 s"
