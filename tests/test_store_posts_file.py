"""The posts file (post_log.py): a first read of a long thread writes as much per page at its
end as at its start; a game stored before the file existed (schema 1) opens as it is and
moves its posts there on its first write; readers read only what is stored and build only
the posts that are new; a damaged or missing posts file is refused with advice."""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import httpx
import pytest
from conftest import REALFORUM

from assistant import append_log, post_log
from assistant import store as store_module
from assistant.clock import FakeClock
from assistant.errors import StoreError
from assistant.game_file import AtomicJSONStorage
from assistant.models import Post, to_iso
from assistant.poller import Poller, PollSettings
from assistant.post_log import log_path
from assistant.scrapers import parse_topic_page
from assistant.scrapers.http import Fetcher, FetchSettings
from assistant.store import GameStore

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from long_thread import LongThread  # noqa: E402

T0 = datetime(2026, 11, 22, 12, tzinfo=UTC)


def page_posts(n: int) -> list[Post]:
    path = REALFORUM / "smf21" / f"smf21_topic_p{n}.html"
    return list(parse_topic_page(path.read_bytes(), "http://127.0.0.1:8021/index.php?topic=2.0",
                                 tz=ZoneInfo("UTC"), now=T0).posts)


def all_posts() -> list[Post]:
    return [p for n in range(1, 6) for p in page_posts(n)]


def schema_1_game(data_dir: Path, posts: list[Post]) -> Path:
    """A game file as the assistant wrote it before the posts file (schema 1): its posts in
    its "posts" table, one record per post with every version, one of them vanished."""
    path = GameStore.game_path(data_dir, "old")
    path.parent.mkdir(parents=True, exist_ok=True)
    table = {}
    for p in posts:
        versions = [{"seen_at": to_iso(T0), "hash": p.content_hash, "post": p.to_dict()}]
        if p.post_id == posts[-1].post_id:
            edited = dataclasses.replace(p, body_html=p.body_html + "<br>PS")
            versions.append({"seen_at": to_iso(T0 + timedelta(minutes=5)),
                             "hash": edited.content_hash, "post": edited.to_dict()})
        table[str(p.post_id)] = {"post_id": p.post_id, "versions": versions,
                                 "vanished_at": to_iso(T0) if p is posts[3] else None}
    doc = {"meta": {"1": {"schema_version": 1, "game_id": "old",
                          "config": {"thread_url": "http://127.0.0.1:8021/index.php?topic=2.0",
                                     "ruleset": "chat-mafia", "tz": "UTC"}}},
           "crawl": {"1": {"backfilled": True, "page_count": 5, "polls": 3}},
           "inputs": {"1": {"seq": 1, "kind": "players", "data": {"players": [["Kat"]]},
                            "entered_at": to_iso(T0)}},
           "posts": table}
    path.write_text(json.dumps(doc, ensure_ascii=False, separators=(",", ":")), "utf-8")
    return path


def snapshot(store: GameStore) -> list[tuple]:
    return [(sp.post_id, sp.vanished_at, tuple((v.post, v.seen_at, v.hash) for v in sp.versions))
            for sp in store.posts()]


def test_a_schema_1_game_opens_as_it_is_and_moves_its_posts_on_its_first_write(tmp_path):
    path = schema_1_game(tmp_path, all_posts())
    before = path.read_bytes()
    with GameStore.open(tmp_path, "old", create=False) as store:
        old = snapshot(store)
        assert len(old) == 66 and len(store.posts(include_vanished=False)) == 65
        assert store.post(67).versions[-1].post.body_html.endswith("<br>PS")
        assert store.crawl_state()["polls"] == 3
    assert path.read_bytes() == before and not log_path(path).exists()  # reading writes nothing

    with GameStore.open(tmp_path, "old", create=False) as store:
        store.add_input("phase", {"kind": "day", "number": 1}, T0)  # the first write
    document = json.loads(path.read_text("utf-8"))
    assert "posts" not in document and document["meta"]["1"]["schema_version"] == 3
    assert log_path(path).stat().st_size == document["posts_file"]["1"]["bytes"]
    with GameStore.open(tmp_path, "old", create=False) as store:
        assert snapshot(store) == old
        assert [i["kind"] for i in store.inputs()] == ["players", "phase"]
        assert store.config()["ruleset"] == "chat-mafia"
        new = dataclasses.replace(page_posts(5)[-1], post_id=68, position=66)
        assert store.record_posts([new], T0 + timedelta(hours=1)).new == [68]
    with GameStore.open(tmp_path, "old", create=False) as store:
        assert [sp.post_id for sp in store.posts()][-1] == 68 and len(store.posts()) == 67


def test_a_schema_1_game_whose_first_write_is_posts_moves_them_with_the_new_ones(tmp_path):
    path = schema_1_game(tmp_path, all_posts()[:30])
    with GameStore.open(tmp_path, "old", create=False) as store:
        result = store.record_posts(page_posts(3), T0 + timedelta(hours=1))
    assert result.new == [p.post_id for p in page_posts(3)]
    assert "posts" not in json.loads(path.read_text("utf-8"))
    with GameStore.open(tmp_path, "old", create=False) as store:
        assert [sp.post_id for sp in store.posts()] == list(range(2, 47))


def test_a_move_that_fails_leaves_the_schema_1_file_whole(tmp_path, monkeypatch):
    """Killed (here: failing) after the posts file was written, before the game file was
    replaced: the game file is still schema 1 with its posts, read as before; the next
    write moves them again."""
    path = schema_1_game(tmp_path, all_posts())
    before = path.read_bytes()
    real = os.replace

    def failing(src, dst, *a, **k):  # noqa: ANN001, ANN202
        if Path(dst) == path:
            raise OSError(28, "No space left on device")
        return real(src, dst, *a, **k)

    monkeypatch.setattr(os, "replace", failing)
    with GameStore.open(tmp_path, "old", create=False) as store, pytest.raises(StoreError):
        store.add_input("phase", {"kind": "day", "number": 1}, T0)
    assert path.read_bytes() == before and log_path(path).exists()
    monkeypatch.setattr(os, "replace", real)
    with GameStore.open(tmp_path, "old", create=False) as store:
        assert len(store.posts()) == 66 and store.inputs("phase") == []
        store.add_input("phase", {"kind": "day", "number": 1}, T0)
    with GameStore.open(tmp_path, "old", create=False) as store:
        assert len(store.posts()) == 66 and len(store.inputs("phase")) == 1


def _first_read(data_dir: Path, thread: LongThread) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        status, body = thread.answer(str(request.url))
        return httpx.Response(status, content=body, headers={"Content-Type": "text/html"})

    store = GameStore.open(data_dir, "long")
    fetcher = Fetcher(httpx.Client(transport=httpx.MockTransport(handler)),
                      FetchSettings(delay=0), sleep=lambda s: None)
    Poller(store, fetcher, FakeClock(T0), ZoneInfo("UTC"),
           PollSettings(progress=False, pages_per_write=2), thread_url=thread.url(1)).poll()
    store.close()


def test_a_first_read_writes_as_much_per_page_at_its_end_as_at_its_start(tmp_path, monkeypatch):
    """Bytes written per write (the game file replaced, the posts file appended) while a
    60-page thread is read two pages a write: the last writes are no bigger than the first
    (the whole game file rewritten at each write grew with the thread: 30 times bigger)."""
    writes: list[tuple[str, int]] = []
    real_flush = AtomicJSONStorage.flush

    def flush(self):  # noqa: ANN001, ANN202
        if self._dirty and self._data is not None:
            writes.append(("game", len(json.dumps(self._data, ensure_ascii=False,
                                                  separators=(",", ":")).encode())))
        real_flush(self)

    real_line = append_log._write_line

    def line(fd: int, data: bytes) -> None:
        writes.append(("posts", len(data)))
        real_line(fd, data)

    monkeypatch.setattr(AtomicJSONStorage, "flush", flush)
    monkeypatch.setattr(append_log, "_write_line", line)
    thread = LongThread(900)
    _first_read(tmp_path, thread)
    game = [n for kind, n in writes if kind == "game"]
    lines = [n for kind, n in writes if kind == "posts"]
    assert len(lines) == thread.pages // 2 and len(game) >= len(lines)
    assert max(game[-5:]) <= 1.2 * max(game[1:5]), game
    assert max(lines[-5:]) <= 1.3 * min(lines[:5]), lines
    with GameStore.open(tmp_path, "long", create=False) as store:
        assert len(store.posts()) == 900


def test_a_reader_builds_only_the_posts_that_are_new(tmp_path, monkeypatch):
    """The daemon's next review reads the posts file's new lines and builds the records of
    the new posts only; the others are kept from its last look (a process that shares its
    reads, as the daemon's does)."""
    monkeypatch.setattr(post_log, "_sharing", [True])
    monkeypatch.setattr(post_log, "LONG", 10)  # (a game of 66 posts kept as a long one)
    posts = all_posts()
    with GameStore.open(tmp_path, "g") as store:
        store.record_posts(posts[:60], T0)
    built: list[int] = []
    real = store_module._stored_post

    def counting(doc, source):  # noqa: ANN001, ANN202
        built.append(doc["post_id"])
        return real(doc, source)

    monkeypatch.setattr(store_module, "_stored_post", counting)
    with GameStore.open(tmp_path, "g", create=False) as store:
        assert len(store.posts()) == 60
    assert len(built) == 60
    with GameStore.open(tmp_path, "g", create=False) as store:
        assert len(store.posts()) == 60
    assert len(built) == 60  # nothing new: nothing built
    with GameStore.open(tmp_path, "g") as store:
        store.record_posts(posts[58:], T0 + timedelta(minutes=5))  # two known, six new
    with GameStore.open(tmp_path, "g", create=False) as store:
        assert [sp.post_id for sp in store.posts()] == [p.post_id for p in posts]
    assert sorted(built[60:]) == [p.post_id for p in posts[60:]]


def test_a_posts_file_cut_or_removed_is_refused_with_advice(tmp_path):
    with GameStore.open(tmp_path, "g") as store:
        store.record_posts(all_posts(), T0)
        path = store.path
    posts_file = log_path(path)
    data = posts_file.read_bytes()
    posts_file.write_bytes(data[: len(data) // 2])
    with pytest.raises(StoreError, match="posts file .* restore it from a backup"):
        GameStore.open(tmp_path, "g", create=False).posts()
    posts_file.write_bytes(data.replace(b'"v"', b'"?"', 1))
    post_log._SHARED.clear()  # as another process, which has not read the file before
    with pytest.raises(StoreError, match="damaged at byte 0"):
        GameStore.open(tmp_path, "g", create=False).posts()
    posts_file.unlink()
    with pytest.raises(StoreError, match="is missing"):
        GameStore.open(tmp_path, "g", create=False).posts()


def test_a_post_is_stored_as_dataclasses_asdict_made_it(tmp_path):
    """`Post.to_dict` builds the stored form directly: the same dict `asdict` made."""
    for post in all_posts():
        d = dataclasses.asdict(post)
        d["posted_at"] = to_iso(post.posted_at)
        if post.edit is not None:
            d["edit"]["at"] = to_iso(post.edit.at)
        d["quotes"] = [dataclasses.asdict(q) for q in post.quotes]
        assert post.to_dict() == d and list(post.to_dict()) == list(d)
        assert Post.from_dict(post.to_dict()) == post


def test_a_closed_store_is_freed_at_once_with_the_posts_it_built(tmp_path):
    """A store's storage pointed back to the store: a closed store, with every post it had
    read and built, waited for the cycle collector (a 300-post game's 3,700 objects a poll;
    a daemon whose collector waits for the end of a job held hundreds of MB of them)."""
    import gc

    with GameStore.open(tmp_path, "g1") as store:
        store.record_posts(all_posts(), T0)
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        for _ in range(3):
            with GameStore.open(tmp_path, "g1", create=False) as store:
                assert len(store.posts()) == 66
                store.config()
        del store
        assert gc.collect() == 0
    finally:
        if was:
            gc.enable()
