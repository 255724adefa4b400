""""Everyone has voted" found in the count's one pass, checked against the way it was found
before: a count as of every vote, in time order, until one has nobody alive not voting.

Seed 002: "If all players have cast a vote, the time will immediately drop to 5 minutes."
Seed 000: "Days will last for 72 hours or until everyone has voted."

The pass must find the very moment the recount finds, for every ruleset, on the real
threads (thread B grown poll by poll, with its marked and silent edits; thread A), on the
same threads with their times bunched into shared seconds, edits and PM votes at a post's
very second and times going backwards (where the pass hands a vote to a count of its
own), and on the benchmark's long synthetic day.
"""

from __future__ import annotations

import dataclasses
import random
import sys
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import realthreads
import thread_b_support as tb
from conftest import ROOT
from test_count_edits import grown_store

from assistant.count.tally import Tally, count
from assistant.game import Game, PmVote
from assistant.models import Post
from assistant.monitor import all_voted_watch, load_game
from assistant.rulesets import find_ruleset
from assistant.timeline import Edit, Thread, thread_of

RULESETS = sorted(p.stem for p in (ROOT / "rulesets").glob("*.toml"))
NOW = datetime.fromisoformat("2026-11-22T12:00:00+00:00")


def by_recount(thread: Thread, game: Game, ruleset: Any, tally: Tally, now: datetime) -> Any:
    """The old way (monitor.early_end_moments before the pass), kept here as the reference:
    a count as of each accepted vote's post (or the edit's time), the first with everyone
    alive voting."""
    posts, edits = list(thread.posts), thread.edits
    by_id = {p.post_id: p for p in posts}
    moments = sorted(
        {
            (v.at, v.post_id)
            for v in tally.votes
            if v.accepted and v.post_id is not None and v.post_id in by_id
        }
    )
    for at, post_id in moments:
        if at == by_id[post_id].posted_at:
            partial = count(posts, game, ruleset, at_post=post_id, now=now, edits=edits)
        else:
            partial = count(posts, game, ruleset, at=at, now=now, edits=edits)
        if partial.alive and not partial.not_voting:
            return at
    return None


def both_ways(thread: Thread, game: Game, name: str, now: datetime = NOW) -> tuple[Any, Any, int]:
    """(the pass's moment, the recount's moment, how many votes the pass counted on their own)."""
    ruleset = find_ruleset(name)
    watch = all_voted_watch(thread, game, ruleset, now)
    own = []
    exact = watch.exact
    watch.exact = lambda at, post_id: own.append(post_id) or exact(at, post_id)
    tally = count(thread.posts, game, ruleset, now=now, edits=thread.edits, watch=watch)
    found = watch.moment(tally.votes)
    plain = count(thread.posts, game, ruleset, now=now, edits=thread.edits)
    assert plain.to_json(why=True) == tally.to_json(why=True)  # watching changes no count
    return found, by_recount(thread, game, ruleset, tally, now), len(own)


@pytest.fixture(scope="module")
def thread_b(tmp_path_factory) -> dict[str, tuple[Thread, Game]]:
    """Thread B grown snapshot by snapshot (its edits stored as a poller saw them), the
    day running to the announced end, on both forums."""
    out = {}
    for forum in realthreads.FORUMS:
        ends = tb.truth(forum)["meta"]["day"]["announced_end_iso"]
        with grown_store(tmp_path_factory.mktemp(forum), forum, day_ends=ends) as store:
            out[forum] = (thread_of(store.posts()), load_game(store))
    return out


@pytest.mark.parametrize("forum", realthreads.FORUMS)
def test_in_thread_b_under_002_everyone_has_voted_with_tom_and_jerrys_revote(thread_b, forum):
    """The fixture's record: Tom & Jerry's re-vote on Conia was the last vote missing."""
    thread, game = thread_b[forum]
    found, old, own = both_ways(thread, game, "chat-mafia")
    revote = next(p for p in tb.truth(forum)["posts"] if p["label"] == "tom_revote_conia")
    post = next(p for p in thread.posts if p.post_id == revote.get("msg_id", revote.get("post_id")))
    assert found == old == post.posted_at
    assert own == 0  # the pass stood in for every count


@pytest.mark.parametrize("forum", realthreads.FORUMS)
def test_the_last_vote_counts_though_an_unvote_follows_in_the_same_second(thread_b, forum):
    """Seed 002: "If all players have cast a vote, the time will immediately drop to 5
    minutes." Tom & Jerry's re-vote completes everyone's votes; his "[Unvote]" (the real
    post tom_unvote) shown in the same second right after it does not undo that moment."""
    thread, game = thread_b[forum]
    ids = {p["label"]: p.get("msg_id", p.get("post_id")) for p in tb.truth(forum)["posts"]}
    revote = next(p for p in thread.posts if p.post_id == ids["tom_revote_conia"])
    unvote = next(p for p in thread.posts if p.post_id == ids["tom_unvote"])
    posts = [p for p in thread.posts if p.post_id <= revote.post_id]
    posts.append(dataclasses.replace(unvote, post_id=revote.post_id + 1,
                                     posted_at=revote.posted_at))
    cut = Thread(tuple(posts), tuple(e for e in thread.edits if e.at <= revote.posted_at))
    found, old, own = both_ways(cut, game, "chat-mafia")
    assert found == old == revote.posted_at and own == 0


@pytest.mark.parametrize("name", RULESETS)
@pytest.mark.parametrize("forum", realthreads.FORUMS)
def test_on_the_real_threads_the_pass_finds_the_recounts_moment(thread_b, forum, name):
    thread, game = thread_b[forum]
    found, old, own = both_ways(thread, game, name)
    assert found == old and own == 0
    a = Thread(realthreads.thread_posts(forum, "a"))
    found, old, own = both_ways(a, realthreads.game_a(), name)
    assert found == old and own == 0


def _bunched(
    thread: Thread, game: Game, rng: random.Random, *, coincide: bool, backwards: bool
) -> tuple[Thread, Game]:
    """The thread with its posts' times bunched into shared seconds (up to four posts a
    second, as a busy phpBB day shows them). `coincide`: edits and PM votes at a post's
    very second; `backwards`: two posts' times swapped."""
    posts = list(thread.posts)
    t0 = posts[0].posted_at
    moved: dict[int, Post] = {}
    second = 0
    for p in posts:
        second += rng.choice((0, 0, 1))
        moved[p.post_id] = dataclasses.replace(p, posted_at=t0 + timedelta(seconds=30 * second))
    if backwards:
        a, b = rng.sample(sorted(moved), 2)
        moved[a], moved[b] = (dataclasses.replace(moved[a], posted_at=moved[b].posted_at),
                              dataclasses.replace(moved[b], posted_at=moved[a].posted_at))
    times = sorted(p.posted_at for p in moved.values())
    edits = []
    for e in thread.edits:
        before = dataclasses.replace(e.before, posted_at=moved[e.post_id].posted_at)
        after = dataclasses.replace(e.after, posted_at=moved[e.post_id].posted_at)
        later = [t for t in times if t >= before.posted_at]
        at = rng.choice(later) if coincide else rng.choice(later) + timedelta(seconds=7)
        edits.append(Edit(before, after, at, at - timedelta(seconds=rng.choice((0, 40))), e.silent))
    edits.sort(key=lambda e: (e.at, e.post_id))
    players = list(game.players)
    pm = [PmVote(rng.choice(players), rng.choice([*players, None]),
                 rng.choice(times) + timedelta(seconds=0 if coincide else 11))
          for _ in range(rng.randint(0, 4))]
    game = dataclasses.replace(game, pm_votes=(*game.pm_votes, *pm))
    return Thread(tuple(moved[p.post_id] for p in posts), tuple(edits)), game


def with_tag_votes(tmp_path: Path, name: str, *, gm_counts: bool) -> str:
    """The bundled ruleset with thread B's [Vote: X] tags as its vote markup, so that every
    ruleset sees thread B's day reach everyone voting; `gm_counts`: the GM's vote counts
    read back (gm_counts.py: thread B's "J" is ambiguous, and its host posts counts)."""
    lines = find_ruleset(name).path.read_text(encoding="utf-8").splitlines()
    lines = [line for line in lines if not line.startswith("gm_counts =")]
    i = lines.index("[votes]")
    j = next(k for k in range(i + 1, len(lines)) if lines[k].startswith("forms ="))
    lines[j] = f'forms = ["tag", "pm"]\ngm_counts = {str(gm_counts).lower()}'
    path = tmp_path / f"{name}-tags-{gm_counts}.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("name", RULESETS)
def test_with_shared_seconds_edits_pm_votes_and_times_going_backwards(thread_b, name, tmp_path):
    """Posts sharing a second are read in id order, then the PM votes and edits of that
    second: a count as of a post that shares its second with later posts is where the pass
    stands right after it; with a PM vote or an edit in that second, or times going
    backwards, the pass hands that vote to a count of its own."""
    rng = random.Random(f"all voted {name}")
    found_some = 0
    tags, counts = (with_tag_votes(tmp_path, name, gm_counts=g) for g in (False, True))
    for ruleset in (name, tags, counts):
        for forum in realthreads.FORUMS:
            for _ in range(4):
                thread, game = _bunched(*thread_b[forum], rng, coincide=False, backwards=False)
                found, old, own = both_ways(thread, game, ruleset)
                # The GM's counts teach names: a count as of a vote after the first vote
                # naming no one reads them, and is made on its own.
                assert found == old and own == 0
                found_some += found is not None
                for coincide, backwards in ((True, False), (False, True), (True, True)):
                    thread, game = _bunched(
                        *thread_b[forum], rng, coincide=coincide, backwards=backwards
                    )
                    found, old, _ = both_ways(thread, game, ruleset)
                    assert found == old
    assert found_some >= 8


@pytest.mark.parametrize(("game_id", "post"), [("1883", 721), ("1933", 2716), ("1720", 692)])
@pytest.mark.parametrize("name", ["mafiascum", "chat-mafia"])
def test_on_real_days_whose_gm_counts_teach_names(game_id, post, name):
    """Real archived mafiascum days (../shared/mafiascum-dev) where the GM's vote count
    says what a name meant ("FF" for Formerfish, game 1720's
    nickname): the pass made with the names each GM count teaches from its own post on is
    the count as of every vote after it, so the pass finds the recount's moment."""
    from test_votes_real_archives import archive, day_game, day_of

    _, posts = archive(game_id)
    day = day_of(game_id, post)
    chosen = tuple(p for p in posts if day["start_post"] <= p.post_id <= day["end_post"])
    game = day_game(game_id, day)
    found, old, own = both_ways(Thread(chosen), game, name, chosen[-1].posted_at)
    assert found == old and own == 0
    tally = count(chosen, game, find_ruleset(name), now=chosen[-1].posted_at)
    taught = [v for v in tally.votes if "as the GM's vote count in post" in v.reason]
    assert taught or game_id == "1720"  # its nickname is taught after its last use
    when = {p.post_id: p.posted_at for p in chosen}
    for v in taught:  # a count teaches from its own post on, never the moments before it
        taught_at = int(v.reason.split("vote count in post ")[1].split()[0].rstrip(")"))
        assert v.at >= when[taught_at] and (v.post_id > taught_at or "counted from" in v.reason)


@pytest.mark.parametrize("name", RULESETS)
def test_on_the_long_synthetic_day_the_pass_finds_the_recounts_moment(name):
    """The benchmark's day (benchmarks/count.py: the real fixture posts again and again,
    the authors rotating over nine players), 2,000 posts: the recount is a count per vote,
    so the 10,000-post day is compared by the benchmark itself."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from count import HOST, PLAYERS, synthetic_day

    posts = synthetic_day(2000)
    now = posts[-1].posted_at + timedelta(minutes=5)
    for players in (PLAYERS, PLAYERS[:5]):
        game = Game.from_parts("long", [[p] for p in players], gms=[HOST])
        found, old, own = both_ways(Thread(tuple(posts)), game, name, now)
        assert found == old and own == 0

