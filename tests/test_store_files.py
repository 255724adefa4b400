"""A game file the assistant did not write whole (issue 14, "Lost data"), and a data dir it
cannot write (issue 14, "Mistakes a GM makes"): one line naming the file and what to do;
nothing overwritten, nothing reported as a bug."""

from __future__ import annotations

import errno
import os

import daemon_support as ds
import pytest
from cli_support import call

from assistant.alerts import feed_path
from assistant.store import GameStore

PM = "You are the Doctor. Each night you may protect one player from a kill."


@pytest.fixture
def game(tmp_path, monkeypatch):
    """Thread B's game, set up as its GM did, with its alert feed written once. Its thread
    is a closed port: `run --once` is refused there at once, without the half minute of
    the daemon's backoff between retries (these tests are about the files, not the forum)."""
    from assistant.scrapers.http import Fetcher

    monkeypatch.setattr(Fetcher, "_wait", lambda self, seconds: None)
    ds.setup_store(tmp_path, "smf21", "http://127.0.0.1:9/index.php?topic=3.0")
    with ds.open_store(tmp_path) as store:
        feed = feed_path(store)
    feed.write_text("<feed>the GM's alerts</feed>", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    "content, says",
    [
        (b"", "is empty (0 bytes)"),
        (b"\n  \n", "is empty (4 bytes)"),
        (b"[1,2,3]", "holds a JSON list"),
        (b'{"meta": [1]}', "its table 'meta' is a list"),
        (b'{"posts": {"x": 1}}', "its table 'posts' holds entries that are not records"),
        (b'{"inputs": {"1": "kill"}}', "its table 'inputs' holds entries that are not records"),
    ],
)
def test_a_cut_or_wrong_shaped_game_file_is_refused_and_left_alone(
    game, capsys, content, says
) -> None:
    """0 bytes was taken for a new empty game (feed rewritten empty, the daemon dropped the
    game); [1,2,3] was "internal error ... TypeError". Every command that opens the game,
    the daemon included, now refuses it by name, and neither the file nor the feed changes."""
    path = GameStore.game_path(game, "thread-b")
    path.write_bytes(content)
    feed = path.with_name("thread-b.alerts.atom")
    players = game / "players.txt"
    players.write_text("Conia\nKat\n", encoding="utf-8")
    for args in (["count", "thread-b"], ["pm", "thread-b", "Conia", PM], ["alerts", "thread-b"],
                 ["game", "new", "thread-b", "--thread", "http://127.0.0.1:9/index.php?topic=3.0",
                  "--ruleset", "chat-mafia", "--players", str(players)],
                 ["run", "--once"]):
        code, out, err = call(capsys, game, *args)
        assert code == 1, (args, out, err)
        assert f"the game file {path} " in err and says in err, (args, err)
        assert "internal error" not in err and "Traceback" not in err, (args, err)
        assert path.read_bytes() == content, args
        assert feed.read_text(encoding="utf-8") == "<feed>the GM's alerts</feed>", args


def _refuse_writes(monkeypatch, folder, code: int) -> None:
    """Every file opened for writing under `folder` fails as a read-only or full disk would."""
    real_open = os.open
    writes = os.O_WRONLY | os.O_RDWR | os.O_CREAT

    def fake_open(path, flags, *args, **kwargs):
        if flags & writes and str(path).startswith(str(folder)):
            raise OSError(code, os.strerror(code), str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", fake_open)


@pytest.mark.parametrize(
    "code, says",
    [
        (errno.EROFS, "is read-only or not yours (Read-only file system): make it writable"),
        (errno.EACCES, "is read-only or not yours (Permission denied)"),
        (errno.ENOSPC, "is full (No space left on device): free some space"),
    ],
)
def test_a_data_dir_that_cannot_be_written_is_one_line_with_what_to_do(
    game, capsys, monkeypatch, code, says
) -> None:
    path = GameStore.game_path(game, "thread-b")
    before = path.read_bytes()
    _refuse_writes(monkeypatch, game, code)
    code_, out, err = call(capsys, game, "pm", "thread-b", "Conia", PM)
    assert code_ == 1 and out == ""
    assert err.startswith(f"error: cannot write {path}: ") and says in err, err
    assert "nothing was stored" in err and len(err.strip().splitlines()) == 1
    # Reading still works: showing the phase takes no lock and writes nothing.
    code_, out, err = call(capsys, game, "phase", "thread-b")
    assert code_ == 0 and "Day 2" in out, err
    monkeypatch.undo()
    assert path.read_bytes() == before


def test_a_full_disk_found_at_fsync_stores_nothing(game, capsys, monkeypatch) -> None:
    """Some file systems report a full disk only when the data is flushed: the temp file
    is removed and the game file is as it was."""
    path = GameStore.game_path(game, "thread-b")
    before = path.read_bytes()

    def full(_fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    code, _, err = call(capsys, game, "pm", "thread-b", "Conia", PM)
    assert code == 1 and "the disk holding" in err and "is full" in err, err
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")] == []


def test_a_draft_folder_that_cannot_be_written_is_one_line(game, capsys, monkeypatch) -> None:
    """Outside the store too (a draft file written by a command): the same one line."""
    drafts = game / "drafts"
    _refuse_writes(monkeypatch, drafts, errno.EROFS)
    real_mkdir = os.mkdir

    def fake_mkdir(path, *args, **kwargs):
        if str(path).startswith(str(drafts)):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        return real_mkdir(path, *args, **kwargs)

    monkeypatch.setattr(os, "mkdir", fake_mkdir)
    code, out, err = call(capsys, game, "run", "--once")
    assert "internal error" not in err and "Traceback" not in err, err
    assert code == 1 and "not reviewed: cannot write " in out, out
    assert f"the folder {drafts} is read-only or not yours" in out


def test_a_game_file_orjson_refuses_is_read_by_the_json_module(tmp_path) -> None:
    """orjson reads game files faster but refuses NaN, which the json module writes (a
    number a GM's hand-edited setting could hold): such a file opens as it always did."""
    import json

    from assistant.game_file import read_json

    store = GameStore.open(tmp_path, "g1")
    store.update_config(ruleset="permissive", poll={"interval": float("nan")})
    store.close()
    raw = GameStore.game_path(tmp_path, "g1").read_bytes()
    assert b"NaN" in raw
    assert str(read_json(raw)) == str(json.loads(raw))
    config = GameStore.open(tmp_path, "g1", create=False).config()
    assert config["ruleset"] == "permissive" and config["poll"]["interval"] != 0


def _damage_posts_file(data, change, *, suffix: str = "posts") -> None:  # noqa: ANN001
    """Change the first record of the posts file (its first stored post's first version),
    or of the alerts file (its first alert), and the length its game file gives: the file
    is well formed, one record in it is not the assistant's."""
    import json

    path = GameStore.game_path(data, "thread-b")
    records = path.with_name(f"{path.name}.{suffix}")
    first, rest = records.read_bytes().split(b"\n", 1)
    ops = json.loads(first)
    change(ops[0][2]["post"] if suffix == "posts" else ops[0][1])
    changed = records.with_name(f"changed.{suffix}")  # a new file, as an editor saves it
    changed.write_bytes(json.dumps(ops).encode() + b"\n" + rest)
    changed.replace(records)
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc[f"{suffix}_file"]["1"]["bytes"] = records.stat().st_size
    path.write_text(json.dumps(doc), encoding="utf-8")


def _damage_game_file(data, table: str, kind: str | None, change) -> None:  # noqa: ANN001
    import json

    path = GameStore.game_path(data, "thread-b")
    doc = json.loads(path.read_text(encoding="utf-8"))
    change(next(d for d in doc[table].values() if kind is None or d.get("kind") == kind))
    path.write_text(json.dumps(doc), encoding="utf-8")


DAMAGES = {
    "a post without an author": (
        lambda data: _damage_posts_file(data, lambda p: p.pop("author")),
        "thread-b.json.posts: post 116 is damaged: it has no author"),
    "a post date that is not a date": (
        lambda data: _damage_posts_file(data, lambda p: p.update(posted_at="yesterday")),
        "thread-b.json.posts: post 116 is damaged: its date (posted_at) 'yesterday' is not a "
        "date"),
    "a post body that is a number": (
        lambda data: _damage_posts_file(data, lambda p: p.update(body_html=5)),
        "thread-b.json.posts: post 116 is damaged: its body (body_html) 5 is not a text"),
    "a phase's start that is not a date": (
        lambda data: _damage_game_file(
            data, "inputs", "phase", lambda d: d["data"].update(starts_at="Sunday")),
        "thread-b.json: the GM's input #4 (phase) is damaged: its date 'starts_at' 'Sunday' "
        "is not a date"),
    "a death naming no player": (
        lambda data: _damage_game_file(data, "inputs", "death", lambda d: d["data"].pop("player")),
        "thread-b.json: the GM's input #2 (death) is damaged: it has no 'player'"),
    "a players input that is a string": (
        lambda data: _damage_game_file(
            data, "inputs", "players", lambda d: d["data"].update(players="Kat, Jd-, Conia")),
        "thread-b.json: the GM's input #1 (players) is damaged: its players 'Kat, Jd-, Conia' "
        "are not a list of [name, alias...] lists"),
    "a players input of names, not slots": (
        lambda data: _damage_game_file(
            data, "inputs", "players", lambda d: d["data"].update(players=["Kat", "Jd-"])),
        "the GM's input #1 (players) is damaged: its players ['Kat', 'Jd-'] are not a list"),
    "an alert's date that is not a date": (
        lambda data: _damage_posts_file(data, lambda d: d.update(first_seen=1), suffix="alerts"),
        "is damaged: its first sighting (first_seen) 1 is not a date"),
}


@pytest.mark.parametrize("damage", list(DAMAGES))
def test_a_damaged_record_in_a_well_formed_file_is_one_line_naming_the_file_and_the_record(
    game, capsys, damage: str
) -> None:
    """Before: "internal error (a bug in the assistant...): KeyError: 'author'" (or a
    ValueError of a date) from `count`, and `run --once` stopped every game at it."""
    import thread_b_support as tb

    from assistant.alerts import AlertLog
    from assistant.monitor import load_view, run_checks

    with ds.open_store(game) as store:
        store.record_posts(tb.final_posts("smf21"), tb.SAVED_AT)
        AlertLog(store).record(run_checks(load_view(store, tb.SAVED_AT), store), tb.SAVED_AT)
    make, says = DAMAGES[damage]
    make(game)
    commands = [["run", "--once"], ["alerts", "thread-b"]] if "alert" in damage else \
        [["count", "thread-b"], ["run", "--once"]]
    for args in commands:
        code, out, err = call(capsys, game, *args)
        assert code == 1, (args, out, err)
        lines = [ln for ln in err.splitlines() if says in ln]
        assert len(lines) == 1, (args, err)
        assert str(game / "games") in lines[0] and "restore the file from a backup" in lines[0]
        assert "alert" not in damage or "thread-b.json.alerts: alert '" in lines[0]
        assert "internal error" not in err and "Traceback" not in err, (args, err)
