"""After the day ends, what the count and the dusk say (issue 14, "Mistakes a GM makes"):
thread B (002) on the real forums' pages, served on 127.0.0.1 and read through the CLI.

- After the deadline `count` said "xX_Slayer_Xx leads with 4" as if voting went on: it says
  the day is over, when, and what it decided.
- The dusk draft's "deciding vote" linked to the last post of the day (the host's own
  "Time is up" post on the real thread): it links to the vote that put the lynched player
  where they ended.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
import thread_b_support as tb
from test_count_followups import post_id
from thread_b_cli import (  # noqa: F401 - the fixtures
    FORUMS,
    enter_day_2,
    run_at_noon,
    served_forum,
)


def _id(post: dict) -> int:
    return post.get("msg_id", post.get("post_id"))


def _last_vote_on(forum: str, target: str) -> dict:
    """The ground truth's last counted vote for `target` (thread B's `votes` statuses)."""
    last = None
    for p in tb.truth(forum)["posts"]:
        for v in p.get("votes", []):
            if v.get("status") == "counted" and v.get("target") == target:
                last = p
    assert last is not None
    return last


@pytest.mark.parametrize("forum_name", list(FORUMS))
def test_count_after_the_deadline_says_the_day_is_over_and_what_it_decided(
    forum_name, forum, run, tmp_path
) -> None:
    enter_day_2(run, tmp_path, forum, forum_name)
    lynched = tb.truth(forum_name)["meta"]["lynched"].split(" (")[0]  # "xX_Slayer_Xx (Mafia..."
    # Before the end (11:15, Tom & Jerry's vote still missing) the count is "if it ended now".
    code, out, err = run("count", "b", now="2026-11-22T11:15:00+00:00")
    assert code == 0, err
    assert "is over" not in out
    assert out.splitlines()[-1].startswith("Outcome: ") and "if the day ended now" in out
    # At noon the day is over: when it ended (5 minutes after the last missing vote, 002),
    # and what it decided; nothing reads as if voting went on.
    code, out, err = run("count", "b")
    assert code == 0, err
    revote = next(p for p in tb.final_posts(forum_name) if p.post_id == post_id(forum_name))
    ends = revote.posted_at + timedelta(minutes=5)
    assert out.splitlines()[-1] == (
        f"Day 2 is over (ended at {ends:%Y-%m-%d %H:%M} UTC). "
        f"Decided: {lynched} is lynched: {lynched} leads with 4"
    )
    assert "Outcome:" not in out



@pytest.mark.parametrize("forum_name", list(FORUMS))
def test_the_dusk_links_the_deciding_vote_not_the_hosts_closing_post(
    forum_name, forum, run, tmp_path
) -> None:
    enter_day_2(run, tmp_path, forum, forum_name)
    posts = tb.truth(forum_name)["posts"]
    closing = posts[-1]
    assert closing["author"] == tb.HOST and "Day 2 is over" in closing["bbcode_body"]
    jd = _last_vote_on(forum_name, "xX_Slayer_Xx")  # Jd-'s [Vote: slayer], the 4th
    assert jd["author"] == "Jd-"
    code, out, err = run("draft", "dusk", "b")
    assert code == 0, err
    assert "xX_Slayer_Xx has been lynched." in out
    deciding = next(ln for ln in out.splitlines() if ln.startswith("The deciding vote: "))
    # The permalink each forum gives its posts: SMF `index.php?msg=N`, phpBB `?p=N#pN`.
    n = _id(jd)
    link = {"smf21": f"/index.php?msg={n}", "phpbb33": f"/viewtopic.php?p={n}#p{n}"}
    assert deciding == f"The deciding vote: {forum.base_url}{link[forum_name]}"
    assert str(_id(closing)) not in deciding
