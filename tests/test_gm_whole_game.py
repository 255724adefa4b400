"""Issue 22's acceptance, the whole game on thread B through the command line as a GM plays
it live (its pages served on 127.0.0.1, on both forums): Day 2 opened at the host's post, a
ruling that changes the lynch and its undo, the day entered again with a new deadline, the
dusk confirmed with the Town's win, and the next phase refused."""

from __future__ import annotations

import json
from functools import partial

import pytest
import thread_b_support as tb
from cli_support import error_line
from thread_b_cli import (  # noqa: F401 - the fixtures
    FORUMS,
    enter_day_2,
    run_at_time,
    served_forum,
    setup_file,
)


def _post(forum: str, label: str) -> int:
    """A post of thread B by its label in `thread_b.json` (SMF and phpBB ids differ)."""
    post = next(p for p in tb.truth(forum)["posts"] if p["label"] == label)
    return post.get("msg_id") or post["post_id"]


def _json(run, now: str, *args: str) -> dict:
    code, out, err = run(now, "--json", *args)
    assert code == 0, err
    return json.loads(out)


@pytest.mark.parametrize("which", list(FORUMS))
def test_a_whole_game_on_thread_b(which, forum, run, tmp_path) -> None:
    enter_day_2(partial(run, "11:03"), tmp_path, forum, which)
    assert run("11:03", "roles", "b", "--file", str(setup_file(tmp_path, which)))[0] == 0
    # The thread read whole: everyone voted, the clock dropped to 11:20, Slayer leads.
    assert _json(run, "11:30", "count", "b")["outcome"]["lynched"] == ["xX_Slayer_Xx"]

    # Rulings that change the lynch: the GM reads Jd-'s late switch and Mr. Pickles' quickly
    # edited vote as votes for Conia, and Conia's edited vote as the Jd- it first said.
    posts = [_post(which, label) for label in ("jd_vote_slayer", "pickles_quick_edit")]
    for post in posts:
        assert run("11:31", "rule", "b", "--post", str(post), "--vote", "Conia")[0] == 0
    code, out, err = run("11:31", "rule", "b", "--post", str(_post(which, "conia_vote_jd")),
                         "--vote", "Jd")  # fmt: skip
    assert code == 0 and out.endswith("now Conia 3, xX_Slayer_Xx 1, Lady Grey 1, Jd- 1 (Conia "
                                      "lynched).\n"), out  # fmt: skip
    assert _json(run, "11:32", "count", "b")["outcome"]["lynched"] == ["Conia"]
    code, out, _ = run("11:32", "draft", "dusk", "b", "--day", "2")
    assert "Conia has been lynched." in out and "Victory" not in out  # a Townie
    # ...and their undo: the three rulings withdrawn, each by a fact of its own in the log.
    log = _json(run, "11:33", "log", "b")["inputs"]
    for ruling in [e["id"] for e in log if e["kind"] == "ruling"]:
        code, out, err = run("11:33", "undo", "b", str(ruling))
        assert code == 0 and out.startswith(f"Withdrawn: input {ruling} "), err
    assert _json(run, "11:34", "count", "b")["outcome"]["lynched"] == ["xX_Slayer_Xx"]
    assert [e["kind"] for e in _json(run, "11:34", "log", "b")["inputs"]][-3:] == [
        "withdraw"] * 3

    # The day entered again with a new deadline: it takes it, replacing the early end.
    code, out, err = run("11:35", "phase", "b", "day", "2", "--ends", "11:45")
    assert code == 0, err
    assert out.startswith("Day 2 entered again: its start is kept (")
    assert "The deadline you gave replaces Sun 22 Nov 2026 11:2" in out
    assert "(everyone has voted: the clock dropped to 5 min)" in out
    state = _json(run, "11:36", "phase", "b")
    assert state["deadline"] == "2026-11-22T11:45:00+00:00"
    code, _, err = run("11:40", "draft", "dusk", "b", "--day", "2", "--confirm")
    assert code == 1 and "day 2 of b is not over yet" in err  # the new deadline holds

    # The win confirmed at the new deadline, and the game over.
    code, out, err = run("11:46", "draft", "dusk", "b", "--day", "2", "--confirm")
    assert code == 0, err
    assert "xX_Slayer_Xx has been lynched." in out and "Victory: Town!" in out
    code, out, _ = run("11:47", "count", "b")
    assert out.startswith("Game over: Town won (Day 2).\n")
    code, out, err = run("11:47", "phase", "b", "night", "2")
    assert (code, out) == (1, "") and error_line(err) == (
        "Town won at the dusk of Day 2 (All threats to the Town have been eliminated): the game "
        "b is over; no phase follows it (--force to go on, for a GM's ruling)"
    )
    assert _json(run, "11:48", "phase", "b")["phase"] == "Day 2"  # nothing was started
