"""A daemon polling one game as hard as it can, for the concurrency test: `Daemon.cycle`
in a loop against a forum on 127.0.0.1, with no pause between requests or cycles, until
the file STOP exists (or MAX_CYCLES, so a forgotten process ends). Prints "done N" after
each cycle.

Run: python tests/busy_daemon.py DATA_DIR GAME STOP_FILE
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path

import httpx

from assistant.clock import FakeClock
from assistant.daemon import Daemon
from assistant.scrapers.http import Fetcher, FetchSettings

MAX_CYCLES = 5000


def main(data_dir: str, game: str, stop: str) -> None:
    clock = FakeClock(datetime(2026, 11, 22, 11, 10, tzinfo=UTC))
    daemon = Daemon(
        Path(data_dir), clock,
        lambda: Fetcher(httpx.Client(), FetchSettings(delay=0, retries=0), sleep=lambda s: None),
    )
    for n in range(1, MAX_CYCLES + 1):
        if Path(stop).exists():
            break
        report = daemon.cycle(game)
        if report.poll_error:
            print(f"poll-error {report.poll_error}", flush=True)
        if report.error:
            print(f"review-error {report.error}", flush=True)
        print(f"done {n}", flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:4])
