"""The store as the poller uses it: versions appended, vanished marks, atomic batches,
refusing files it cannot read — with posts parsed from the real fixture pages."""

from __future__ import annotations

import dataclasses
import json
import math
import os
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import orjson
import pytest
from conftest import REALFORUM

from assistant.errors import StoreError
from assistant.game_file import json_bytes, read_exact_json
from assistant.models import Post
from assistant.scrapers import parse_topic_page
from assistant.store import GameStore, list_games

T0 = datetime(2026, 11, 22, 12, tzinfo=UTC)


def page_posts(n: int = 5) -> list[Post]:
    path = REALFORUM / "smf21" / f"smf21_topic_p{n}.html"
    return list(parse_topic_page(path.read_bytes(), "http://127.0.0.1:8021/index.php?topic=2.60",
                                 tz=ZoneInfo("UTC"), now=T0).posts)


def test_versions_are_appended_never_overwritten(tmp_path):
    posts = page_posts()
    with GameStore.open(tmp_path, "g") as store:
        first = store.record_posts(posts, T0)
        again = store.record_posts(posts, T0 + timedelta(minutes=5))
        edited = dataclasses.replace(posts[-1], body_html=posts[-1].body_html + "<br>PS")
        changed = store.record_posts([edited], T0 + timedelta(minutes=10))

    assert first.new == [p.post_id for p in posts] and again.unchanged == len(posts)
    assert changed.changed == [posts[-1].post_id]
    with GameStore.open(tmp_path, "g", create=False) as store:  # read back from disk
        sp = store.post(posts[-1].post_id)
        assert [v.seen_at for v in sp.versions] == [T0, T0 + timedelta(minutes=10)]
        assert sp.versions[0].post == posts[-1] and sp.latest == edited and sp.edited
        assert sp.as_of(T0 + timedelta(minutes=9)) == posts[-1]
        assert sp.as_of(T0 - timedelta(seconds=1)) is None


def test_a_moved_post_keeps_its_version_and_gets_its_new_place(tmp_path):
    post = page_posts()[0]
    with GameStore.open(tmp_path, "g") as store:
        store.record_posts([post], T0)
        store.record_posts([dataclasses.replace(post, page=4, position=post.position - 1)], T0)
        sp = store.post(post.post_id)
    assert len(sp.versions) == 1 and (sp.latest.page, sp.latest.position) == (4, post.position - 1)


def test_vanished_posts_stay_and_can_come_back(tmp_path):
    posts = page_posts()
    with GameStore.open(tmp_path, "g") as store:
        store.record_posts(posts, T0)
        assert store.mark_vanished([posts[1].post_id, 9999], T0) == [posts[1].post_id]
        assert store.mark_vanished([posts[1].post_id], T0 + timedelta(1)) == []  # first time kept
        assert posts[1].post_id not in [sp.post_id for sp in store.posts(include_vanished=False)]
        assert store.post(posts[1].post_id).vanished_at == T0
        back = store.record_posts(posts, T0 + timedelta(hours=1))
        assert back.reappeared == [posts[1].post_id]
        assert store.post(posts[1].post_id).vanished_at is None


def test_a_batch_that_fails_leaves_the_file_as_it_was(tmp_path):
    posts = page_posts()
    with GameStore.open(tmp_path, "g") as store:
        store.record_posts(posts[:3], T0)
        before = store.path.read_bytes()
        with pytest.raises(RuntimeError), store.batch():
            store.record_posts(posts[3:], T0)
            store.set_crawl_state(last_page=5)
            raise RuntimeError("the page after these was not understood")
        assert store.path.read_bytes() == before
        assert len(store.posts()) == 3 and store.crawl_state() == {}


def test_a_batch_writes_the_file_once(tmp_path, monkeypatch):
    writes = []
    real = GameStore.open(tmp_path, "g")._storage.__class__.flush

    def counting(self):
        if self._dirty:
            writes.append(1)
        real(self)

    monkeypatch.setattr("assistant.game_file.AtomicJSONStorage.flush", counting)
    with GameStore.open(tmp_path, "g") as store, store.batch():
        for n in (1, 2, 3):
            store.record_posts(page_posts(n), T0)
        store.set_crawl_state(last_page=3)
        store.update_config(thread_url="http://127.0.0.1:8021/index.php?topic=2.0")
    assert len(writes) == 1


def test_the_file_is_the_compact_json_of_the_document(tmp_path):
    """What a write puts on disk: the whole document as compact UTF-8 JSON, names and
    bodies unescaped ("ÆtherWolf", not "\\u00c6therWolf"), written by orjson."""
    posts = page_posts(1) + page_posts(5)
    with GameStore.open(tmp_path, "g") as store:
        store.record_posts(posts, T0)
        store.update_config(players=["ÆtherWolf", "Tom & Jerry's"])
        raw = store.path.read_bytes()
        document = store._storage.read()
    assert raw == orjson.dumps(document)
    assert json.loads(raw) == document
    assert "ÆtherWolf" in raw.decode("utf-8") and b", " not in raw[:200]


def test_what_orjson_cannot_write_as_json_would_is_written_by_json(tmp_path):
    """orjson writes NaN and infinities as null and refuses integers past 64 bits: a
    document holding them is written by the json module, and reads back the same."""
    plain = {"name": "ÆtherWolf", "list": [1, 2.5, None, True], "big": 2**63 - 1}
    assert json_bytes(plain) == orjson.dumps(plain)
    for value in (math.nan, math.inf, -math.inf, 2**70, -(2**64), [1.5, math.nan]):
        text = json_bytes({"x": value})
        assert text == json.dumps({"x": value}, separators=(",", ":")).encode("utf-8")
        back = read_exact_json(text)["x"]
        assert repr(back) == repr(value)  # (NaN is not equal to itself)
    with GameStore.open(tmp_path, "g") as store:
        store.update_config(forum_ids=[2**70 + 1, 5])  # (orjson reads it as a float)
    with GameStore.open(tmp_path, "g", create=False) as store:  # read back from the file
        assert store.config()["forum_ids"] == [2**70 + 1, 5]
        store.update_config(poll_interval=math.nan)
        store.set_crawl_state(ratio=math.inf)
    with GameStore.open(tmp_path, "g", create=False) as store:
        config, crawl = store.config(), store.crawl_state()
        store.set_crawl_state(last_page=2)  # written again: still the same
    assert math.isnan(config["poll_interval"]) and config["forum_ids"] == [2**70 + 1, 5]
    assert crawl["ratio"] == math.inf
    with GameStore.open(tmp_path, "g", create=False) as store:
        config, crawl = store.config(), store.crawl_state()
    assert math.isnan(config["poll_interval"]) and config["forum_ids"] == [2**70 + 1, 5]
    assert crawl["ratio"] == math.inf and crawl["last_page"] == 2


def test_live_post_ids_leave_out_the_vanished(tmp_path):
    posts = page_posts()
    with GameStore.open(tmp_path, "g") as store:
        store.record_posts(posts, T0)
        store.mark_vanished([posts[2].post_id], T0)
        live = store.live_post_ids()
        listed = [sp.post_id for sp in store.posts(include_vanished=False)]
    assert sorted(live) == sorted(listed) == sorted(p.post_id for p in posts if p is not posts[2])


def test_files_it_cannot_read_are_refused_with_advice(tmp_path):
    path = GameStore.game_path(tmp_path, "g")
    path.parent.mkdir(parents=True)
    path.write_text("{not json", "utf-8")
    with pytest.raises(StoreError, match="not valid JSON.*restore it from a backup"):
        GameStore.open(tmp_path, "g")

    path.write_text(json.dumps({"meta": {"1": {"schema_version": 99, "config": {}}}}), "utf-8")
    with pytest.raises(StoreError, match="schema_version 99"):
        GameStore.open(tmp_path, "g")

    with pytest.raises(StoreError, match="not a usable game name"):
        GameStore.open(tmp_path, "../escape")
    with pytest.raises(StoreError, match="no game called 'other'.*games there: g"):
        GameStore.open(tmp_path, "other", create=False)
    assert list_games(tmp_path) == ["g"]


def test_leftover_temp_files_of_a_killed_writer_are_cleared(tmp_path, monkeypatch):
    """At a game's first opening in a process (here: a new process's table of looks), then
    once an hour at most: the daemon opened each game three times a cycle, and each opening
    listed the whole games folder."""
    import assistant.game_file as game_file

    with GameStore.open(tmp_path, "g") as store:
        store.record_posts(page_posts()[:1], T0)
        stale = store.path.parent / f".{store.path.name}.abc123.tmp"
    stale.write_text("{half", "utf-8")
    old = (T0 - timedelta(days=1)).timestamp()
    os.utime(stale, (old, old))
    fresh = store.path.parent / f".{store.path.name}.def456.tmp"
    fresh.write_text("{being written", "utf-8")

    monkeypatch.setattr(game_file, "_TEMP_LOOKS", {})  # another process: its first opening
    with GameStore.open(tmp_path, "g") as store:
        assert len(store.posts()) == 1
    assert not stale.exists() and fresh.exists()  # a fresh one may be another writer's

    stale.write_text("{half", "utf-8")
    os.utime(stale, (old, old))
    GameStore.open(tmp_path, "g").close()  # the same process within the hour: not looked for
    assert stale.exists()
    later = game_file.time.monotonic() + game_file.STALE_TEMP_AGE
    monkeypatch.setattr(game_file.time, "monotonic", lambda: later)
    GameStore.open(tmp_path, "g").close()  # an hour on: looked for again
    assert not stale.exists() and fresh.exists()


def test_a_second_process_writing_meanwhile_is_not_overwritten(tmp_path):
    """The daemon's store stays open while the GM's command writes an input: the daemon's
    next write must keep it."""
    posts = page_posts()
    daemon = GameStore.open(tmp_path, "g")
    daemon.record_posts(posts[:2], T0)
    with GameStore.open(tmp_path, "g") as command:
        command.add_input("death", {"player": "Kat"}, T0)
    daemon.record_posts(posts[2:], T0 + timedelta(minutes=1))
    daemon.close()
    with GameStore.open(tmp_path, "g", create=False) as store:
        assert [i["kind"] for i in store.inputs()] == ["death"]
        assert len(store.posts()) == len(posts)
