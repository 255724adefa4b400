"""Crash safety: a writer polling in a loop is killed with SIGKILL at random moments; the
store still loads and holds every poll the writer finished, and nothing else is torn."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.store import GameStore

ROOT = Path(__file__).resolve().parent.parent
WRITER = Path(__file__).resolve().parent / "crash_writer.py"


def run_until_killed(data_dir: Path, software: str, polls_before_kill: int,
                     rng: random.Random) -> list[int]:
    """Start the writer, let it finish some polls, SIGKILL it mid-way; the polls it finished."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, str(WRITER), str(data_dir), software],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT)
    done = []
    try:
        assert proc.stdout is not None
        while True:
            line = proc.stdout.readline().decode()
            if not line:
                pytest.fail(f"the writer stopped by itself: {proc.stderr.read().decode()}")
            if line.startswith("done"):
                done.append(int(line.split()[1]))
            if len(done) >= polls_before_kill:
                break
        # kill somewhere inside the next poll: busy-wait a random while (no sleeping)
        for _ in range(rng.randint(0, 2_000_000)):
            pass
    finally:
        proc.send_signal(signal.SIGKILL)
        out, _ = proc.communicate()
    done += [int(m) for m in re.findall(rb"done (\d+)", out)]  # finished before the kill landed
    assert proc.returncode == -signal.SIGKILL
    return done


def stored_whole_pages(data_dir: Path) -> int:
    """How many posts a killed backfill left: always whole pages (15 a page, 66 in all)."""
    if not GameStore.game_path(data_dir, "crash").exists():
        return 0
    with GameStore.open(data_dir, "crash", create=False) as store:
        ids = [sp.post_id for sp in store.posts()]
        assert ids == list(range(2, 2 + len(ids)))
        return len(ids)


@pytest.mark.parametrize("software", ["smf", "phpbb"])
def test_killing_the_writer_loses_at_most_the_poll_in_flight(tmp_path, software):
    rng = random.Random(20261122)
    # Killed during the first read of the thread: whole pages or nothing, then it resumes.
    assert run_until_killed(tmp_path, software, 0, rng) == []
    assert stored_whole_pages(tmp_path) in (0, 30, 60, 66)

    finished: list[int] = []
    for _ in range(4):
        finished += run_until_killed(tmp_path, software, rng.randint(1, 4), rng)

        path = GameStore.game_path(tmp_path, "crash")
        json.loads(path.read_text("utf-8"))  # a whole JSON document, never a torn one
        with GameStore.open(tmp_path, "crash", create=False) as store:
            posts = store.posts()
            assert [sp.post_id for sp in posts] == list(range(2, 68))
            state = store.crawl_state()
            assert state["backfilled"] and state["page_count"] == 5
            seen = {int(m) for v in store.post(67).versions
                    for m in re.findall(r"poll (\d+)", v.post.body_html)}
        assert set(finished) <= seen  # every finished poll is there...
        assert seen <= set(range(max(finished) + 2))  # ...plus at most the one in flight
    assert len(finished) >= 4
