"""Crash safety: a writer polling in a loop is killed with SIGKILL at points the test
chooses — while a page is being read, with half a batch's line appended to the posts file,
with the whole line appended but the game file not yet replaced, with a new store file
written but not yet in place, just after it was put in place — and the store keeps its
guarantees: it always loads, it
holds whole batches of pages, every poll the writer finished, the poll in flight exactly
when its last write was put in place, and nothing else. No timing is involved: the writer
stops at each point and waits (tests/crash_writer.py), so the kill lands where chosen."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from assistant.alerts import AlertLog
from assistant.alerts_file import alerts_path
from assistant.store import GameStore

ROOT = Path(__file__).resolve().parent.parent
WRITER = Path(__file__).resolve().parent / "crash_writer.py"
POSTS = list(range(2, 68))  # the fixture thread: posts 2..67 on 5 pages of 15
BATCHES = (0, 30, 60, 66)  # pages_per_write=2: whole batches of two pages, or the rest


@dataclass
class Run:
    """What one writer run reported before it was killed."""

    first: int = 0  # the number of its first poll ("start N")
    finished: list[int] = field(default_factory=list)  # "done N" lines
    in_flight_stored: bool = False  # the poll in flight put its page 5 in place
    file_at_last_replace: bytes | None = None  # the store file as the last replace left it


def file_bytes(path: Path) -> bytes | None:
    return path.read_bytes() if path.exists() else None


def run_until(data_dir: Path, software: str, point: str, occurrence: int) -> Run:
    """Start the writer and let it go on until it reports `point` for the `occurrence`-th
    time, then SIGKILL it there (it is waiting for the test, so nothing moves meanwhile).
    At every replace on the way, check the store's write is atomic: before the replace
    the file is still the one the previous replace left (the new one was written beside
    it), after it the file is whole JSON."""
    path = GameStore.game_path(data_dir, "crash")
    env = dict(os.environ, PYTHONPATH=str(ROOT), ASSISTANT_LOCK_TIMEOUT="10")
    proc = subprocess.Popen([sys.executable, str(WRITER), str(data_dir), software],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, cwd=ROOT)
    assert proc.stdin is not None and proc.stdout is not None
    run = Run(file_at_last_replace=file_bytes(path))
    whole = software == "alerts"  # (an alerts writer's round is one batch)
    seen_page_5 = whole
    count = 0
    try:
        while True:
            line = proc.stdout.readline().decode().strip()
            if not line:
                proc.kill()
                pytest.fail(f"the writer stopped by itself: {proc.communicate()[1].decode()}")
            if line.startswith("start "):
                run.first = int(line.split()[1])
                continue
            if line.startswith("done "):
                run.finished.append(int(line.split()[1]))
                seen_page_5, run.in_flight_stored = whole, False
                continue
            if not line.startswith("at "):
                continue
            where = line[3:]
            if where == "fetch 4":
                seen_page_5 = True
            elif where == "replace":
                assert file_bytes(path) == run.file_at_last_replace  # not touched in place
            elif where == "replaced":
                run.file_at_last_replace = file_bytes(path)
                assert run.file_at_last_replace is not None
                json.loads(run.file_at_last_replace)
                run.in_flight_stored = seen_page_5
            if where.split()[0] == point:
                count += 1
                if count == occurrence:
                    break
            proc.stdin.write(b"go\n")
            proc.stdin.flush()
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.communicate()
    assert proc.returncode == -signal.SIGKILL
    return run


def stored(data_dir: Path) -> tuple[list[int], set[int], dict]:
    """The posts stored, the polls seen in post 67's versions, and the crawl state."""
    path = GameStore.game_path(data_dir, "crash")
    if not path.exists():
        return [], set(), {}
    json.loads(path.read_text("utf-8"))  # a whole JSON document, never a torn one
    with GameStore.open(data_dir, "crash", create=False) as store:
        ids = [sp.post_id for sp in store.posts()]
        last = store.post(67)
        polls = {int(m) for v in (last.versions if last else [])
                 for m in re.findall(r"poll (\d+)", v.post.body_html)}
        return ids, polls, store.crawl_state()


# (point, occurrence) for each run in turn, each run resuming from what the last one left:
# the first read of the thread killed before its first batch is in place, just after it,
# mid-page, before its last batch; then polls killed before and after their write.
PLAN = [
    ("replace", 1),
    ("replaced", 1),
    ("fetch", 2),
    ("torn", 1),
    ("replace", 2),
    ("appended", 2),
    ("replaced", 3),
    ("fetch", 3),
    ("torn", 3),
    ("replace", 3),
    ("appended", 1),
    ("replaced", 2),
]


@pytest.mark.parametrize("software", ["smf", "phpbb"])
def test_killing_the_writer_loses_at_most_the_poll_in_flight(tmp_path, software):
    finished: set[int] = set()
    kept: set[int] = set()  # polls whose edit of post 67 must be stored
    for point, occurrence in PLAN:
        run = run_until(tmp_path, software, point, occurrence)
        finished |= set(run.finished)
        in_flight = run.first + len(run.finished)
        kept |= set(run.finished) | ({in_flight} if run.in_flight_stored else set())
        path = GameStore.game_path(tmp_path, "crash")
        assert file_bytes(path) == run.file_at_last_replace  # what the last replace left

        ids, polls, state = stored(tmp_path)
        assert len(ids) in BATCHES and ids == POSTS[:len(ids)]  # whole batches, in order
        if len(ids) == len(POSTS):
            assert state["backfilled"] and state["page_count"] == 5
        assert polls == kept  # every finished poll, the one in flight iff put in place

    assert len(finished) >= 4
    ids, polls, state = stored(tmp_path)
    assert ids == POSTS and state["backfilled"]


@pytest.mark.parametrize("software", ["smf", "phpbb"])
def test_the_first_kills_leave_nothing_then_one_batch(tmp_path, software):
    """Killed with its first batch written beside the (absent) store: no game file at all;
    killed just after that batch was put in place: the first two pages, nothing more."""
    run_until(tmp_path, software, "replace", 1)
    assert stored(tmp_path)[0] == []
    run_until(tmp_path, software, "replaced", 1)
    ids, polls, state = stored(tmp_path)
    assert ids == POSTS[:30] and polls == set() and not state.get("backfilled")


def test_a_torn_line_is_never_read_and_the_next_writer_cuts_it(tmp_path):
    """Killed with half a batch's line appended to the posts file: the file is longer than
    its game file says is stored, the store reads as before the batch, and the next writer
    cuts the torn half off before it appends its own line."""
    run_until(tmp_path, "smf", "replaced", 1)  # the first two pages stored
    game = GameStore.game_path(tmp_path, "crash")
    posts_file = game.with_name(f"{game.name}.posts")
    stored_length = json.loads(game.read_text("utf-8"))["posts_file"]["1"]["bytes"]
    run_until(tmp_path, "smf", "torn", 1)
    assert posts_file.stat().st_size > stored_length
    assert stored(tmp_path)[0] == POSTS[:30]
    run_until(tmp_path, "smf", "appended", 1)  # the next writer's line, whole and fsynced
    data = posts_file.read_bytes()
    assert data.count(b"\n") == 2 and data.endswith(b"\n")  # the torn half is gone
    assert stored(tmp_path)[0] == POSTS[:30]  # appended, not stored: the game file says so


def test_killing_an_alerts_writer_keeps_whole_batches_and_the_next_cuts_a_torn_line(tmp_path):
    """Each round stores an alert and acknowledges the one before, in one batch: killed
    with half its line appended to the alerts file, with the line whole but the game file
    not replaced, just before or after the replace, the store holds the alerts and the
    acknowledgements of the rounds put in place, exactly; the next writer cuts off what a
    killed one appended past the stored length before it appends its own line."""
    game = GameStore.game_path(tmp_path, "crash")
    plan = [("replaced", 1), ("torn", 2), ("appended", 1), ("replace", 2), ("replaced", 3),
            ("torn", 1), ("appended", 3)]
    for point, occurrence in plan:
        run = run_until(tmp_path, "alerts", point, occurrence)
        rounds = run.first + len(run.finished) + run.in_flight_stored
        assert file_bytes(game) == run.file_at_last_replace
        with GameStore.open(tmp_path, "crash", create=False) as store:
            got = [(s.alert.message, s.ack_note) for s in AlertLog(store).all()]
        assert got == [(f"alert {n}", f"by {n + 1}" if n + 1 < rounds else None)
                       for n in range(rounds)]
        data = alerts_path(game).read_bytes()
        committed = json.loads(game.read_text("utf-8"))["alerts_file"]["1"]["bytes"]
        assert data[:committed].count(b"\n") == rounds  # a line a round, each whole
        past = data[committed:]  # the killed writer's line: none once it was stored,
        assert bool(past) == (point != "replaced")  # else torn, or whole and not stored
        assert past.endswith(b"\n") == (point in ("appended", "replace"))
        assert b"\n" not in past[:-1]  # what an earlier killed writer left was cut off
