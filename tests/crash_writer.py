"""A writer for the crash test: polls a fixture thread into a store, forever, each poll
finding post 67 edited once more ("poll N"); prints "done N" after each completed poll.
As `alerts`, it stores alerts instead: each round one new alert (`crash_alert(N)`) and the
acknowledgement of the one before, in one batch.

It reports where it is and waits there for the test: at each point below it prints
"at POINT" and reads one line from stdin before going on, so the test kills it (SIGKILL)
at a point of its choosing, never after a guessed while:
  "at fetch P"   the thread's page P (0-based) is being served, nothing of it stored yet;
  "at torn"      half of a batch's line is appended to the posts file (post_log.py) or
                 the alerts file, the rest not yet: a line a killed writer leaves torn;
  "at appended"  the whole line is appended and fsynced, the game file (which says how
                 much of the posts file is stored) not yet replaced;
  "at replace"   a new store file is written and fsynced beside the old one, not yet
                 put in its place (os.replace);
  "at replaced"  the new store file has replaced the old one.

Run: python tests/crash_writer.py DATA_DIR smf|phpbb|alerts  (the parent kills it with SIGKILL)
"""

from __future__ import annotations

import os
import re
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from forum_server import PER_PAGE, thread_files  # noqa: E402

from assistant import append_log  # noqa: E402
from assistant.alerts import Alert, AlertLog  # noqa: E402
from assistant.clock import FakeClock  # noqa: E402
from assistant.poller import Poller, PollSettings  # noqa: E402
from assistant.scrapers.http import Fetcher, FetchSettings  # noqa: E402
from assistant.store import GameStore  # noqa: E402

BASE = "http://forum.test"
MARK = re.compile(r"poll (\d+)")


def checkpoint(point: str) -> None:
    """Say where the writer is and wait for the test's go-ahead (or its SIGKILL)."""
    print(f"at {point}", flush=True)
    if not sys.stdin.readline():
        sys.exit(0)  # the test went away: stop, do not poll on unsupervised


def watch_replaces(game_file: Path) -> None:
    """Checkpoints on both sides of the store's atomic replace of `game_file`."""
    real_replace = os.replace

    def replace(src, dst, *args, **kwargs):  # noqa: ANN001, ANN202 - os.replace's signature
        if Path(dst) != game_file:
            return real_replace(src, dst, *args, **kwargs)
        checkpoint("replace")
        real_replace(src, dst, *args, **kwargs)
        checkpoint("replaced")
        return None

    os.replace = replace


def tearing_write(fd: int, line: bytes) -> None:
    """The posts file's append with checkpoints: half the line written ("at torn"), then
    the rest, fsynced ("at appended")."""
    half = len(line) // 2
    os.write(fd, line[:half])
    checkpoint("torn")
    os.write(fd, line[half:])
    os.fsync(fd)
    checkpoint("appended")


def crash_alert(n: int) -> Alert:
    return Alert("silent_edit", "warning", f"alert {n}", player="Kat", post_id=n)


def alerts_main(data_dir: str) -> None:
    watch_replaces(GameStore.game_path(data_dir, "crash"))
    append_log._write_line = tearing_write
    store = GameStore.open(data_dir, "crash")
    log = AlertLog(store)
    n = log.count()
    print(f"start {n}", flush=True)
    t0 = datetime(2026, 11, 22, 12, tzinfo=UTC)
    while True:
        with store.batch():
            log.record([crash_alert(n)], t0 + timedelta(minutes=n))
            if n:
                log.ack(crash_alert(n - 1).id, t0 + timedelta(minutes=n), f"by {n}")
        print(f"done {n}", flush=True)
        n += 1


def main(data_dir: str, software: str) -> None:
    if software == "alerts":
        alerts_main(data_dir)
        return
    pages = [p.read_bytes() for p in thread_files(software)]
    watch_replaces(GameStore.game_path(data_dir, "crash"))
    append_log._write_line = tearing_write
    store = GameStore.open(data_dir, "crash")
    last = store.post(67)
    n = 1 + max((int(m) for v in last.versions for m in MARK.findall(v.post.body_html)),
                default=-1) if last else 0

    def handler(request: httpx.Request) -> httpx.Response:
        q = dict(request.url.params)
        start = int(q["topic"].split(".")[1]) if "topic" in q else int(q.get("start", 0))
        checkpoint(f"fetch {start // PER_PAGE}")
        body = pages[start // PER_PAGE]
        if start // PER_PAGE == 4:
            body = body.replace(b"Night 1 begins now.", f"Night 1 begins now. poll {n}".encode())
        return httpx.Response(200, content=body, headers={"Content-Type": "text/html"})

    fetcher = Fetcher(httpx.Client(transport=httpx.MockTransport(handler)),
                      FetchSettings(delay=0), sleep=lambda s: None)
    url = f"{BASE}/index.php?topic=2.0" if software == "smf" else f"{BASE}/viewtopic.php?t=2"
    clock = FakeClock(datetime(2026, 11, 22, 12, tzinfo=UTC))
    poller = Poller(store, fetcher, clock, ZoneInfo("UTC"), PollSettings(pages_per_write=2),
                    thread_url=url)
    print(f"start {n}", flush=True)  # the number of its first poll
    while True:
        clock.set(datetime(2026, 11, 22, 12, tzinfo=UTC) + timedelta(minutes=n))
        poller.poll(recheck=False)
        print(f"done {n}", flush=True)
        n += 1


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
