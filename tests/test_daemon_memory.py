"""What a daemon polling 200 games keeps in memory (issue 26: peak RSS under 100 MB): a game
store it closed is freed at once, not left for the cycle collector with its whole game
file as read; a cache keyed by a game's name matcher keeps one entry per GM post, not one
per review."""

from __future__ import annotations

import dataclasses
import gc
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from conftest import REALFORUM
from test_votes_real_archives import archive, day_game, day_of

from assistant.count import gm_counts
from assistant.count.gm_counts import read_counts
from assistant.names import NameMatcher, Slot
from assistant.rulesets import find_ruleset
from assistant.scrapers import parse_topic_page
from assistant.store import GameStore

T0 = datetime(2026, 11, 22, 12, tzinfo=UTC)


@contextmanager
def no_cycle_collector() -> Iterator[None]:
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def test_a_closed_game_store_is_freed_without_the_cycle_collector(tmp_path) -> None:
    page = REALFORUM / "smf21" / "smf21_topic_p1.html"
    posts = parse_topic_page(page.read_bytes(), "http://127.0.0.1:8021/index.php?topic=2.0",
                             tz=ZoneInfo("UTC"), now=T0).posts
    with GameStore.open(tmp_path, "g1") as store:
        store.update_config(thread_url="http://127.0.0.1:8021/index.php?topic=2.0")
        with store.batch():
            store.record_posts(posts, T0)
    with no_cycle_collector():
        # As the daemon opens a game for each poll and review: its config, crawl state and
        # posts read, then closed.
        store = GameStore.open(tmp_path, "g1", create=False)
        assert store.config()["thread_url"].endswith("topic=2.0")
        assert len(store.posts()) == len(posts)
        document = store._storage._data  # the game file as read
        assert document is not None
        held = [weakref.ref(store), weakref.ref(store._storage), weakref.ref(store.db)]
        store.close()
        del store, document
        # Freed by reference counting alone: a cycle here left every closed store (200
        # games' files) waiting for a full collection.
        assert [ref() for ref in held] == [None, None, None]


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
    before = gm_counts._count_of.cache_info()
    again = read_counts(posts, dataclasses.replace(game), rules)
    after = gm_counts._count_of.cache_info()
    assert again == first
    assert after.misses == before.misses and after.currsize == before.currsize
