"""The count kept between counts in one process (count/resume.py): after a poll that brought
a few posts, the next count applies only them, and it is always the very count a whole
count makes — checked over many random steps of a growing day (new posts, edits, posts
vanishing and coming back, a GM input) under every ruleset, every vote and reason compared.
Work is counted (the posts whose marks the pass reads), never timed."""

from __future__ import annotations

import dataclasses
import json
import random
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
@pytest.fixture(autouse=True)
def as_the_daemon(monkeypatch):
    """Counts kept and posts files' reads shared, as in the daemon's process."""
    monkeypatch.setattr(post_log, "_sharing", [True])
    monkeypatch.setattr(post_log, "LONG", 10)
    monkeypatch.setattr(resume, "LONG", 10)  # (days of a few hundred posts kept as long ones)
    with resume.counted_whole(False):
        yield


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
def test_a_count_carried_on_is_the_whole_count_at_every_step(tmp_path, ruleset):
    rng = random.Random(f"resume/{ruleset}")
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


def test_a_poll_that_brought_five_posts_is_counted_by_reading_five_posts(tmp_path,
                                                                         monkeypatch):
    """The daemon's next count of a 600-post day reads the marks of the five new posts only
    (a whole count reads every post of the day)."""
    day = day_of(605)
    new_game(tmp_path, "chat-mafia")
    with GameStore.open(tmp_path, "g") as store:
        store.record_posts(day[:600], day[599].posted_at)
    read: list[int] = []
    real = tally.numbered_marks

    def counting(post, *args, **kwargs):  # noqa: ANN001, ANN202
        read.append(post.post_id)
        return real(post, *args, **kwargs)

    monkeypatch.setattr(tally, "numbered_marks", counting)
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
