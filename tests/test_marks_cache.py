"""The marks file beside a game (marks_cache.py): a `count` in a new process reads the
vote-like marks its last count read, instead of parsing every post's HTML again, and counts
exactly as without it. Thread B (seed 002) on the real SMF 2.1 and phpBB 3.3 pages, with
the edits a poller saw (the live snapshots): the file is a cache, so deleting it, a file
written by other code, a damaged one or a folder that cannot be written change nothing but
the speed."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
import thread_b_support as tb
from test_count_edits import conias_post, grown_store

from assistant.count import marks_cache, votes
from assistant.gm import game_tally
from assistant.models import from_iso
from assistant.rulesets import find_ruleset
from assistant.store import GameStore

NOW = from_iso("2026-11-22T12:00:00+00:00")
FORUMS = ("smf21", "phpbb33")


def counted(data: Path) -> dict:
    """`count --json --why` of thread B as a new process makes it (nothing in memory)."""
    votes.clear_extract_cache()
    with GameStore.open(data, "thread-b", create=False) as store:
        _, _, tally, _ = game_tally(store, NOW)
    return tally.to_json(why=True)


def marks_file(data: Path) -> Path:
    return marks_cache.marks_path(GameStore.game_path(data, "thread-b"))


class HtmlReads:
    """The post bodies whose HTML is parsed (votes.chunks_lexbor's parser, spied on)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.bodies: list[str] = []
        parser = votes.LexborHTMLParser

        def parsing(body: str):  # noqa: ANN202
            self.bodies.append(body)
            return parser(body)

        monkeypatch.setattr(votes, "LexborHTMLParser", parsing)

    def __len__(self) -> int:
        return len(self.bodies)


@pytest.mark.parametrize("forum", FORUMS)
def test_a_count_in_a_new_process_reads_no_html_its_last_count_read(
    tmp_path: Path, forum: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    grown_store(tmp_path, forum, day_ends=None).close()
    reads = HtmlReads(monkeypatch)
    first = counted(tmp_path)
    assert len(reads) > 10  # the posts that speak of voting were read
    assert marks_file(tmp_path).exists()
    reads.bodies.clear()
    again = counted(tmp_path)
    assert len(reads) == 0
    assert again == first
    assert "xX_Slayer_Xx" in {w["target"] for w in again["wagons"]}


@pytest.mark.parametrize("forum", FORUMS)
def test_the_counts_are_those_made_without_the_file_under_every_ruleset(
    tmp_path: Path, forum: str
) -> None:
    """The file keeps the marks before a ruleset judges them: one file left by a chat-mafia
    count serves a count under every other ruleset (000 wants red, 003 a bare bold name)."""
    grown_store(tmp_path, forum, day_ends=None).close()
    counted(tmp_path)
    kept = marks_file(tmp_path).read_bytes()
    for path in sorted((Path(votes.__file__).parent.parent / "rulesets").glob("*.toml")):
        with GameStore.open(tmp_path, "thread-b", create=False) as store:
            store.update_config(ruleset=find_ruleset(path.stem).name)
        marks_file(tmp_path).write_bytes(kept)
        with_file = counted(tmp_path)
        marks_file(tmp_path).unlink()
        assert with_file == counted(tmp_path), path.stem


@pytest.mark.parametrize("forum", FORUMS)
def test_an_edited_post_is_read_again_and_its_first_version_kept(
    tmp_path: Path, forum: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Conia edited her vote from Jd- to Slayer (11:17): both versions are in the file,
    each under its own body, and a count as of before the edit reads the first."""
    store = grown_store(tmp_path, forum, day_ends=None)
    [conia] = [sp for sp in store.posts() if sp.post_id == conias_post(forum)]
    store.close()
    assert len(conia.versions) == 2
    counted(tmp_path)
    kept = json.loads(marks_file(tmp_path).read_text())["posts"][str(conia.post_id)]
    assert set(kept) == {marks_cache.body_digest(v.post.body_html) for v in conia.versions}
    targets = {tuple(row[1] for row in rows if row[0] == "vote") for rows in kept.values()}
    assert targets == {("Jd-",), ("Slayer",)}


@pytest.mark.parametrize("damage", ["other code", "not json", "wrong shape", "wrong rows"])
def test_a_file_written_by_other_code_or_damaged_is_ignored_and_replaced(
    tmp_path: Path, damage: str
) -> None:
    grown_store(tmp_path, "smf21", day_ends=None).close()
    truth = counted(tmp_path)
    path = marks_file(tmp_path)
    doc = json.loads(path.read_text())
    if damage == "other code":  # a votes.py that reads marks differently wrote it
        doc["code"] = "0" * 20
        for rows in (r for post in doc["posts"].values() for r in post.values()):
            for row in rows:
                row[1] = "Mr. Pickles"  # what such code might have read
        path.write_text(json.dumps(doc))
    elif damage == "not json":
        path.write_bytes(path.read_bytes()[:1000])  # cut short
    elif damage == "wrong shape":
        path.write_text(json.dumps({"code": doc["code"], "posts": [1, 2]}))
    else:
        for rows in (r for post in doc["posts"].values() for r in post.values()):
            for row in rows:
                row[:] = row[:3]
        path.write_text(json.dumps(doc))
    assert counted(tmp_path) == truth
    assert json.loads(path.read_text())["code"] == marks_cache.code_version()
    assert counted(tmp_path) == truth


def test_deleting_the_file_changes_nothing_but_the_speed(tmp_path: Path) -> None:
    grown_store(tmp_path, "phpbb33", day_ends=None).close()
    truth = counted(tmp_path)
    marks_file(tmp_path).unlink()
    assert counted(tmp_path) == truth
    assert marks_file(tmp_path).exists()


def test_a_folder_that_cannot_be_written_still_counts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    grown_store(tmp_path, "smf21", day_ends=None).close()

    def read_only(*args: object, **kwargs: object) -> None:
        raise PermissionError(30, "Read-only file system")

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    doc = counted(tmp_path)
    assert not marks_file(tmp_path).exists()
    monkeypatch.undo()
    assert counted(tmp_path) == doc


def test_posts_no_longer_stored_are_dropped(tmp_path: Path) -> None:
    """The file holds the marks of the game's own posts: a post gone from the store (one
    that never was, here) is dropped when the file is next written."""
    store = tb.new_store(tmp_path, "smf21")
    store.record_posts(tb.final_posts("smf21"), tb.SAVED_AT)
    store.close()
    counted(tmp_path)
    path = marks_file(tmp_path)
    doc = json.loads(path.read_text())
    doc["posts"]["999999"] = {"feedbeef": []}
    path.write_text(json.dumps(doc))
    ours = GameStore.open(tmp_path, "thread-b").posts()
    shelf = marks_cache.MarksFile(path)
    shelf.keep = {sp.post_id for sp in ours}
    body = ours[-1].latest.body_html
    shelf.put(ours[-1].post_id, body, votes.raw_marks(body, ours[-1].post_id))
    shelf.save()
    kept = json.loads(path.read_text())["posts"]
    assert "999999" not in kept and str(ours[-1].post_id) in kept


@pytest.mark.parametrize("software", ["smf", "phpbb"])
def test_the_first_count_after_a_fetch_reads_no_html(
    tmp_path: Path, software: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """`fetch` reads the marks of what it stored (the real SMF / phpBB pages of thread A,
    served on 127.0.0.1): the GM's `count` right after it parses no post's HTML, and
    counts as it would have from the HTML."""
    from cli_support import run_cli
    from forum_server import running_forum, thread_files

    monkeypatch.setenv("ASSISTANT_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("ASSISTANT_NOW", "2026-11-22T12:00:00+00:00")
    with running_forum() as forum:
        url = forum.serve_thread(software, thread_files(software))
        code, _, err = run_cli(capsys, "game", "new", "g1", "--thread", url,
                               "--ruleset", "chat-mafia", "--gm", tb.HOST, "--tz", "UTC",
                               "--players", str(_players_file(tmp_path)))
        assert code == 0, err
        code, _, err = run_cli(capsys, "fetch", "--game", "g1", "--delay", "0")
        assert code == 0, err
    assert marks_cache.marks_path(GameStore.game_path(tmp_path, "g1")).exists()
    reads = HtmlReads(monkeypatch)
    votes.clear_extract_cache()
    code, out, err = run_cli(capsys, "count", "g1", "--json", "--why", "*")
    assert code == 0, err
    assert len(reads) == 0
    marks_cache.marks_path(GameStore.game_path(tmp_path, "g1")).unlink()
    votes.clear_extract_cache()
    code, again, err = run_cli(capsys, "count", "g1", "--json", "--why", "*")
    assert len(reads) > 10 and again == out
    assert "xX_Slayer_Xx" in {w["target"] for w in json.loads(out)["wagons"]}


def _players_file(tmp_path: Path) -> Path:
    import realthreads

    meta = realthreads.truth("smf21", "a")["meta"]
    path = tmp_path / "players.txt"
    path.write_text("\n".join(meta["final_intended_votes"]) + "\n", encoding="utf-8")
    return path


def test_the_daemons_reviews_keep_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every view of the game (the daemon's review of a poll, `phase`, the dashboard) leaves
    the marks it read in the file: a GM's `count` in another process then reads none."""
    from assistant.monitor import load_view

    grown_store(tmp_path, "smf21", day_ends=None).close()
    votes.clear_extract_cache()
    with GameStore.open(tmp_path, "thread-b", create=False) as store:
        load_view(store, NOW)
    reads = HtmlReads(monkeypatch)
    counted(tmp_path)
    assert len(reads) == 0


def test_a_mark_holding_a_lone_surrogate_is_kept_and_read_back(tmp_path: Path) -> None:
    # A body from a page with a broken character (a lone UTF-16 half, which Python keeps
    # as a surrogate) gives a mark whose text UTF-8 cannot hold: the file is still written
    # (the json module's way, as before orjson) and read back, or read again from the post.
    path = tmp_path / "g.json.marks"
    body = "<b>vote Kat\ud800</b>"
    shelf = marks_cache.MarksFile(path)
    marks = (votes.Mark(action="vote", target_text="Kat\ud800", text="vote Kat\ud800",
                        forms=("bold",), color=None, hidden=None, offset=0),)
    shelf.put(7, body, marks)
    shelf.save()
    assert path.exists()
    again = marks_cache.MarksFile(path).get(7, body)
    assert again in (None, marks)
    plain = "<b>vote Conia</b>"
    ordinary = tuple(votes.marks_from_chunks(votes.chunks_lexbor(plain)))
    shelf = marks_cache.MarksFile(tmp_path / "h.json.marks")
    shelf.put(8, plain, ordinary)
    shelf.save()
    assert marks_cache.MarksFile(tmp_path / "h.json.marks").get(8, plain) == ordinary
