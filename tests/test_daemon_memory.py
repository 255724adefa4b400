"""What a daemon polling 200 games keeps in memory (issue 26: peak RSS under 100 MB): a
poll waiting on its forum holds neither its game file nor its posts, and one re-reading
the day's pages holds a few of them at a time, not the day; a cache keyed by a game's name
matcher keeps one entry per GM post, not one per review."""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import sys
import weakref
from datetime import timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import httpx
from test_votes_real_archives import archive, day_game, day_of

from assistant.clock import FakeClock
from assistant.count import gm_counts
from assistant.count.gm_counts import read_counts
from assistant.names import NameMatcher, Slot
from assistant.poller import Poller, PollSettings
from assistant.rulesets import find_ruleset
from assistant.scrapers.http import Fetcher, FetchSettings
from assistant.store import GameStore

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from long_thread import LongThread  # noqa: E402


def test_two_matchers_of_the_same_names_are_one_key() -> None:
    slots = [Slot("Kat", ("Kitty",)), Slot("Jd-")]
    a, b = NameMatcher(slots), NameMatcher(list(slots))
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a.match("kitty").slot == b.match("kitty").slot == "Kat"
    assert a != NameMatcher(slots, close_spelling=0.9)
    assert a != NameMatcher([Slot("Kat")])


def test_the_gms_counts_are_read_once_whatever_the_reviews() -> None:
    # Each review builds the game anew, and with it a new name matcher: the GM's counts
    # read by the first review are not read (nor kept) again by the next.
    _doc, posts = archive("1883")
    game = day_game("1883", day_of("1883", 1497))
    rules = find_ruleset("mafiascum").votes
    first = read_counts(posts, game, rules)
    assert first  # the game has GM counts to read
    before = gm_counts._COUNTS.misses, len(gm_counts._COUNTS)
    again = read_counts(posts, dataclasses.replace(game), rules)
    after = gm_counts._COUNTS.misses, len(gm_counts._COUNTS)
    assert again == first
    assert after == before


def test_a_kept_gm_count_holds_neither_its_post_nor_the_matcher() -> None:
    # 200 games' GM posts were kept by their whole bodies, with every review's matcher and
    # all it had learned (5 MB of matches across 200 games): a count is kept by a
    # fingerprint of the body and by what the matcher matches with.
    _doc, posts = archive("1883")
    game = day_game("1883", day_of("1883", 1497))
    rules = find_ruleset("mafiascum").votes
    gm_posts = [p for p in posts if game.is_gm(p.author)]
    matcher = NameMatcher(game.slots, close_spelling=0.8123)  # a key no other test made
    gone = weakref.ref(matcher)
    counts = [gm_counts._count_of(p.body_html, matcher, rules) for p in gm_posts]
    assert any(counts)
    again = NameMatcher(game.slots, close_spelling=0.8123)
    del matcher
    gc.collect()
    assert gone() is None
    misses = gm_counts._COUNTS.misses
    assert [gm_counts._count_of(p.body_html, again, rules) for p in gm_posts] == counts
    assert gm_counts._COUNTS.misses == misses  # the same counts, kept, for an equal matcher


class _Waiting:
    """An async fetcher (as the daemon's) answering from a plain one, noting at each
    request what the poll's store holds in memory while the poll waits on the forum."""

    def __init__(self, fetcher: Fetcher, store: GameStore) -> None:
        self.fetcher, self.store, self.held = fetcher, store, []

    def __getattr__(self, name: str) -> object:
        return getattr(self.fetcher, name)

    async def get(self, url: str) -> object:
        self.held.append((self.store._storage._data is not None, len(self.store._log.docs)))
        return self.fetcher.get(url)


def test_a_poll_rereading_the_day_holds_a_few_pages_and_no_posts_while_it_waits(tmp_path):
    thread = LongThread(300)  # 20 pages, every post of the running day

    def answer(request: httpx.Request) -> httpx.Response:
        status, body = thread.answer(str(request.url))
        return httpx.Response(status, content=body, headers={"Content-Type": "text/html"})

    fetcher = Fetcher(httpx.Client(transport=httpx.MockTransport(answer)),
                      FetchSettings(delay=0), sleep=lambda s: None)
    clock = FakeClock(thread.first_at + timedelta(hours=6))
    settings = PollSettings(progress=False, recheck_every_polls=0, recheck_every=None)
    with GameStore.open(tmp_path, "g1") as store:
        Poller(store, fetcher, clock, ZoneInfo("UTC"), settings, thread_url=thread.url(1)).poll()
    thread.posts += 1  # a new post, and an edit on page 3 (a post's text changed in place)
    edited = thread.page(3).replace(b"I&#39;m staying where I am.", b"I&#39;m moving.", 1)
    assert edited != thread.page(3)
    first = thread.answer

    def answer_edited(url: str) -> tuple[int, bytes]:
        status, body = first(url)
        return (status, edited) if url.endswith("topic=2.30") else (status, body)

    thread.answer = answer_edited  # type: ignore[method-assign]
    clock.advance(60)
    with GameStore.open(tmp_path, "g1", create=False) as store:
        poller = Poller(store, fetcher, clock, ZoneInfo("UTC"), settings,
                        thread_url=thread.url(1))
        written: list[int] = []
        write = poller._write

        def counted(reads, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
            written.append(len(reads))
            return write(reads, *args, **kwargs)

        poller._write = counted  # type: ignore[method-assign]
        waiting = _Waiting(fetcher, store)
        poller.fetcher = waiting  # type: ignore[assignment]

        result = asyncio.run(poller.apoll(recheck=True, recheck_since=thread.first_at))

    assert result.rechecked and len(result.new) == 1 and len(result.changed) == 1
    assert result.requests == len(waiting.held) >= 20
    # Past its first write (the last page), the posts as read are dropped at every wait,
    # and the game file is at every one.
    assert [held for held in waiting.held if held != (False, 0)] == []
    # The day's 19 earlier pages stored ten at a time, as a first read stores them.
    assert max(written) <= PollSettings().pages_per_write and sum(written) >= 20
    with GameStore.open(tmp_path, "g1", create=False) as store:
        assert len(store.posts()) == 301
        assert sum(len(sp.versions) for sp in store.posts()) == 302


def test_the_rest_of_a_cycle_goes_ahead_of_the_polls_steps_waiting() -> None:
    # A review waits for a worker holding its game's posts as read (post_log.pinned): it
    # goes before the polls' steps already waiting, which hold a page at most.
    import threading

    from assistant.daemon.process import Workers

    workers = Workers(1)
    busy, ran = threading.Event(), []
    workers.submit(busy.wait)  # the one worker is busy
    steps = [workers.submit(ran.append, f"step {n}") for n in range(3)]
    review = workers.submit_first(ran.append, "review")
    busy.set()
    for future in [*steps, review]:
        future.result(timeout=60)
    assert ran == ["review", "step 0", "step 1", "step 2"]


def test_the_benchmarks_games_are_each_a_thread_of_its_own_with_the_same_votes():
    """benchmarks/daemon.py's 200 games were one thread 200 times: the same post ids and
    bodies, so every cache keyed by a post's id and body (its marks, its text) was shared
    by all and its figures too kind. Each game's posts now have ids and first words of
    their own, and read the same votes."""
    from datetime import UTC, datetime

    from assistant.count.votes import chunks_lexbor, raw_marks
    from assistant.scrapers import parse_topic_page

    def posts(thread: LongThread) -> list:
        return [p for n in range(1, thread.pages + 1) for p in parse_topic_page(
            thread.page(n).decode(), thread.url(n), tz=ZoneInfo("UTC"),
            now=datetime.now(UTC)).posts]

    plain, g1, g2 = (posts(LongThread(80, first_id=1000 + k, salt=s))
                     for k, s in ((0, ""), (100_000, "g001"), (200_000, "g002")))
    assert {p.post_id for p in g1}.isdisjoint(p.post_id for p in g2)
    assert not {p.body_html for p in g1} & {p.body_html for p in g2}

    def marks(ps: list) -> list:
        return [[(m.action, m.target_text, m.text)
                 for m in raw_marks(p.body_html, i, chunks_lexbor)] for i, p in enumerate(ps)]

    assert marks(g1) == marks(g2) == marks(plain)
    assert sum(map(len, marks(plain))) > 20
