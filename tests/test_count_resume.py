"""The count kept between counts in one process (count/resume.py): after a poll that brought
a few posts, the next count applies only them, and it is always the very count a whole
count makes — checked over many random steps of a growing day (new posts, edits, posts
vanishing and coming back, a GM input) under every ruleset, every vote and reason compared.
Work is counted (the posts whose marks the pass reads), never timed."""

from __future__ import annotations

import dataclasses
import json
import pickle
import random
import zlib
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from conftest import REALFORUM

from assistant import post_log
from assistant.count import resume, tally
from assistant.models import Post, to_iso
from assistant.monitor import load_view
from assistant.scrapers import parse_topic_page
from assistant.store import GameStore

PLAYERS = ["Mr. Pickles", "xX_Slayer_Xx", "Jd-", "Conia", "Lady Grey", "Tom & Jerry's",
           "ÆtherWolf", "Kat"]
HOST = "Host Mira"
T0 = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)
@pytest.fixture(autouse=True, params=["as it is", "packed", "packed anew each count"])
def as_the_daemon(request, monkeypatch):
    """Counts kept and posts files' reads shared, as in the daemon's process; every test
    with the day's count kept as a long day's is, and packed as a short day's is (packed
    again after a few new events, or after each count that brought one)."""
    monkeypatch.setattr(post_log, "_sharing", [True])
    monkeypatch.setattr(post_log, "LONG", 10)
    # (days of a few hundred posts kept as long ones, or all packed)
    monkeypatch.setattr(resume, "LONG", 10 if request.param == "as it is" else 10**9)
    monkeypatch.setattr(resume, "SHORTEST_PACKED", 10)
    if request.param == "packed anew each count":
        monkeypatch.setattr(resume, "REPACK_AFTER", 1)
    monkeypatch.setattr(resume, "_KEPT", type(resume._KEPT)())
    monkeypatch.setattr(resume, "_PACKED", type(resume._PACKED)())
    monkeypatch.setattr(resume, "_packed_bytes", [0])
    with resume.counted_whole(False):
        yield request.param


RULESETS = sorted(p.stem for p in (Path(__file__).resolve().parent.parent / "rulesets")
                  .glob("*.toml"))


def fixture_posts() -> list[Post]:
    posts = []
    for forum, url in (("smf21", "http://127.0.0.1:8021/index.php?topic=2.{}"),
                       ("phpbb33", "http://127.0.0.1:8033/viewtopic.php?t=2&start={}")):
        for page in range(1, 6):
            html = (REALFORUM / forum / f"{forum}_topic_p{page}.html").read_bytes()
            posts += parse_topic_page(html, url.format(15 * (page - 1)), tz=UTC,
                                      now=T0 + timedelta(days=1)).posts
    return posts


def day_of(n: int) -> list[Post]:
    """`n` posts cycling through the real bodies, a post a minute, authors in turn."""
    source = fixture_posts()
    out = []
    for i in range(n):
        p = source[i % len(source)]
        author = p.author if p.author == HOST else PLAYERS[i % len(PLAYERS)]
        out.append(dataclasses.replace(p, post_id=1000 + i, position=i, author=author,
                                       posted_at=T0 + timedelta(minutes=1 + i), edit=None))
    return out


def new_game(data: Path, ruleset: str) -> None:
    with GameStore.open(data, "g") as store, store.batch():
        store.update_config(thread_url="http://127.0.0.1:8033/viewtopic.php?t=2",
                            ruleset=ruleset, tz="UTC", gms=[HOST])
        store.add_input("players", {"players": [[p] for p in PLAYERS]}, T0)
        store.add_input("phase", {"kind": "day", "number": 1, "starts_at": to_iso(T0),
                                  "ends_at": to_iso(T0 + timedelta(days=3))}, T0)


def marks_read(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The ids of the posts the counts read the marks of from now on, in order."""
    read: list[int] = []
    real = tally.numbered_marks

    def counting(post, *args, **kwargs):  # noqa: ANN001, ANN202
        read.append(post.post_id)
        return real(post, *args, **kwargs)

    monkeypatch.setattr(tally, "numbered_marks", counting)
    return read


def counts(data: Path, now: datetime) -> tuple[str, str]:
    """The view's count as the daemon's process makes it (kept counts carried on), and a
    whole count of the same store: each with its every vote and reason, and the deadline."""
    def seen(whole: bool) -> str:
        with GameStore.open(data, "g", create=False) as store:
            if whole:
                with resume.counted_whole():
                    view = load_view(store, now)
            else:
                view = load_view(store, now)
        return json.dumps([view.tally.to_json(why=True) if view.tally else None,
                           str(view.deadline)], sort_keys=True, default=str)
    return seen(False), seen(True)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_count_carried_on_is_the_whole_count_at_every_step(tmp_path, ruleset, monkeypatch):
    rng = random.Random(f"resume/{ruleset}")
    carried_on = []
    real_find = resume.find

    def find(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        found = real_find(*args, **kwargs)
        if resume._enabled[-1]:  # (not the whole count beside it)
            carried_on.append(found is not None)
        return found

    monkeypatch.setattr(resume, "find", find)
    day = day_of(400)
    new_game(tmp_path, ruleset)
    stored = 120
    with GameStore.open(tmp_path, "g") as store:
        store.record_posts(day[:stored], day[stored - 1].posted_at)
    now = day[stored - 1].posted_at + timedelta(seconds=30)
    assert counts(tmp_path, now)[0] == counts(tmp_path, now)[1]
    for step in range(40):
        roll = rng.random()
        with GameStore.open(tmp_path, "g") as store:
            if roll < 0.6 or stored < 130:  # a poll that brought a few posts
                k = rng.randint(1, 8)
                store.record_posts(day[stored:stored + k], day[stored + k - 1].posted_at)
                stored += k
            elif roll < 0.75:  # an edit of an earlier post (a vote changed or added)
                post = day[rng.randrange(stored)]
                other = day[rng.randrange(stored)]
                edited = dataclasses.replace(post, body_html=other.body_html + "<br>edit")
                store.record_posts([edited], now)
            elif roll < 0.9:  # a post vanished, or one back
                post = day[rng.randrange(stored)]
                if store.post(post.post_id).vanished_at is None:
                    store.mark_vanished([post.post_id], now)
                else:
                    store.record_posts([store.post(post.post_id).latest], now)
            else:  # a GM input: a death
                store.add_input("death", {"player": rng.choice(PLAYERS), "kind": "modkill",
                                          "at": to_iso(now)}, now)
        now = max(now, day[stored - 1].posted_at) + timedelta(seconds=20)
        carried, whole = counts(tmp_path, now)
        assert carried == whole, f"step {step} ({roll:.2f})"
    assert sum(carried_on) > len(carried_on) / 2  # most polls' counts carried on


def test_a_poll_that_brought_five_posts_is_counted_by_reading_five_posts(tmp_path,
                                                                         monkeypatch):
    """The daemon's next count of a 600-post day reads the marks of the five new posts only
    (a whole count reads every post of the day)."""
    day = day_of(605)
    new_game(tmp_path, "chat-mafia")
    with GameStore.open(tmp_path, "g") as store:
        store.record_posts(day[:600], day[599].posted_at)
    read = marks_read(monkeypatch)
    with GameStore.open(tmp_path, "g", create=False) as store:
        first = load_view(store, day[599].posted_at + timedelta(seconds=30))
    assert len(read) >= 600
    with GameStore.open(tmp_path, "g") as store:
        store.record_posts(day[600:], day[604].posted_at)
    read.clear()
    now = day[604].posted_at + timedelta(seconds=30)
    with GameStore.open(tmp_path, "g", create=False) as store:
        view = load_view(store, now)
    assert sorted(set(read)) == [p.post_id for p in day[600:]]
    assert len(view.tally.votes) >= len(first.tally.votes)
    assert counts(tmp_path, now)[0] == counts(tmp_path, now)[1]


@pytest.mark.parametrize("as_the_daemon", ["packed"], indirect=True)
def test_a_short_days_count_is_kept_packed_without_its_posts(tmp_path, as_the_daemon):
    """The daemon's 200 games of 300-post days: each day's count is kept for the next
    review (which reads the new posts only), packed in a few kilobytes, not with the day's
    posts (half a megabyte each as they were kept)."""
    day = day_of(305)
    new_game(tmp_path, "chat-mafia")
    with GameStore.open(tmp_path, "g") as store:
        store.record_posts(day[:300], day[299].posted_at)
    with GameStore.open(tmp_path, "g", create=False) as store:
        load_view(store, day[299].posted_at + timedelta(seconds=30))
    assert not resume._KEPT
    (packed,) = resume._PACKED.values()
    assert 0 < resume.packed_bytes() == len(packed.blob) < 24_000  # 200 games: < 5 MB
    assert b"body_html" not in zlib.decompress(packed.blob)  # no post pickled in it
    with GameStore.open(tmp_path, "g") as store:
        store.record_posts(day[300:], day[304].posted_at)
    now = day[304].posted_at + timedelta(seconds=30)
    found = []
    real = resume._unpack
    def unpacking(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        found.append(real(*args, **kwargs))
        return found[-1]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(resume, "_unpack", unpacking)
        carried, whole = counts(tmp_path, now)
    assert found and found[0] is not None and found[0][1] == 300
    assert carried == whole


@pytest.mark.parametrize("as_the_daemon", ["packed"], indirect=True)
def test_a_packed_count_is_packed_again_only_after_a_few_new_events(tmp_path, monkeypatch,
                                                                    as_the_daemon):
    """A review that brought a post or two carries on from the packed count and leaves it as
    it was (packing is most of what the carry-on costs); the next one carries on from it
    over those posts again, and once `REPACK_AFTER` events came the count is packed anew."""
    monkeypatch.setattr(resume, "REPACK_AFTER", 4)
    day = day_of(310)
    new_game(tmp_path, "chat-mafia")
    with GameStore.open(tmp_path, "g") as store:
        store.record_posts(day[:300], day[299].posted_at)
    assert counts(tmp_path, day[299].posted_at + timedelta(seconds=30))[0] is not None
    (slot, first), = resume._PACKED.items()
    assert first.events == 300
    read = marks_read(monkeypatch)
    for stored in range(301, 305):
        with GameStore.open(tmp_path, "g") as store:
            store.record_posts(day[stored - 1:stored], day[stored - 1].posted_at)
        read.clear()
        now = day[stored - 1].posted_at + timedelta(seconds=30)
        with GameStore.open(tmp_path, "g", create=False) as store:
            load_view(store, now)
        # carried on from the 300 posts packed: only the posts since are read
        assert sorted(set(read)) == [p.post_id for p in day[300:stored]]
        assert counts(tmp_path, now)[0] == counts(tmp_path, now)[1]
        if stored - 300 < 4:
            assert resume._PACKED[slot] is first  # left as it was
    assert resume._PACKED[slot].events == 304  # four new events: packed anew
    with GameStore.open(tmp_path, "g") as store:
        store.record_posts(day[304:306], day[305].posted_at)
    read.clear()
    with GameStore.open(tmp_path, "g", create=False) as store:
        load_view(store, day[305].posted_at + timedelta(seconds=30))
    assert sorted(set(read)) == [p.post_id for p in day[304:306]]


@pytest.mark.parametrize("as_the_daemon", ["packed"], indirect=True)
def test_packed_counts_stay_within_their_bytes(monkeypatch, as_the_daemon):
    """Past `PACKED_BYTES` the least recently counted day is dropped first (counted whole
    at its next review), whatever the number of games."""
    day = day_of(120)

    def kept(g: int) -> resume.Kept:
        votes = [{"voter": PLAYERS[i % 8], "target": PLAYERS[(i * 3) % 8], "post_id": p.post_id,
                  "text": f"vote {PLAYERS[(i * 3) % 8]} ({g})", "at": p.posted_at}
                 for i, p in enumerate(day)]
        return resume.Kept((g,), [("post", p) for p in day], resume.RunningCount(votes=votes))

    resume.keep(("game", 0), kept(0))
    one = resume.packed_bytes()
    assert one > 0
    monkeypatch.setattr(resume, "PACKED_BYTES", int(one * 2.5))
    for g in range(1, 6):
        resume.keep(("game", g), kept(g))
        assert resume.packed_bytes() <= int(one * 2.5)
    assert list(resume._PACKED) == [("game", 4), ("game", 5)]
    # the next count of a day dropped finds nothing; one kept carries on
    events = [("post", p) for p in day]
    assert resume.find(("game", 0), (0,), events) is None
    found = resume.find(("game", 5), (5,), events)
    assert found is not None and found[1] == len(day)
    assert found[0].state.votes == kept(5).state.votes
    assert resume.find(("game", 5), (6,), events) is None  # other facts
    edited = [*events[:-1], ("post", dataclasses.replace(day[-1], body_html="<b>vote Kat</b>"))]
    assert resume.find(("game", 5), (5,), edited) is None  # an event changed


@pytest.mark.parametrize("as_the_daemon", ["packed"], indirect=True)
def test_a_count_that_cannot_be_packed_is_counted_whole_next_time(tmp_path, monkeypatch,
                                                                  as_the_daemon):
    """A count whose running state cannot be pickled is simply not kept: the next review
    counts the day whole, and right."""
    def refuse(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        raise pickle.PicklingError("not this one")
    monkeypatch.setattr(resume.pickle, "dumps", refuse)
    day = day_of(60)
    new_game(tmp_path, "chat-mafia")
    with GameStore.open(tmp_path, "g") as store:
        store.record_posts(day, day[-1].posted_at)
    now = day[-1].posted_at + timedelta(seconds=30)
    carried, whole = counts(tmp_path, now)
    assert carried == whole
    assert resume.packed_bytes() == 0 and not resume._PACKED


@pytest.mark.parametrize("as_the_daemon", ["packed"], indirect=True)
def test_a_day_shorter_than_the_shortest_packed_is_not_kept(tmp_path, monkeypatch,
                                                            as_the_daemon):
    """Below `SHORTEST_PACKED` events the day is counted whole at each review (it costs
    about what unpacking would) and nothing is held for it."""
    monkeypatch.setattr(resume, "SHORTEST_PACKED", 200)
    day = day_of(205)
    new_game(tmp_path, "chat-mafia")
    with GameStore.open(tmp_path, "g") as store:
        store.record_posts(day[:150], day[149].posted_at)
    assert counts(tmp_path, day[149].posted_at + timedelta(seconds=30))[0] is not None
    assert not resume._PACKED and resume.packed_bytes() == 0
    with GameStore.open(tmp_path, "g") as store:
        store.record_posts(day[150:], day[204].posted_at)
    carried, whole = counts(tmp_path, day[204].posted_at + timedelta(seconds=30))
    assert carried == whole
    assert len(resume._PACKED) >= 1 and resume.packed_bytes() > 0
