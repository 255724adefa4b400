"""A writer for the crash test: polls a fixture thread into a store, forever, each poll
finding post 67 edited once more ("poll N"); prints "done N" after each completed poll.

Run: python tests/crash_writer.py DATA_DIR smf|phpbb  (the parent kills it with SIGKILL)
"""

from __future__ import annotations

import re
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from forum_server import PER_PAGE, thread_files  # noqa: E402

from assistant.clock import FakeClock  # noqa: E402
from assistant.poller import Poller, PollSettings  # noqa: E402
from assistant.scrapers.http import Fetcher, FetchSettings  # noqa: E402
from assistant.store import GameStore  # noqa: E402

BASE = "http://forum.test"
MARK = re.compile(r"poll (\d+)")


def main(data_dir: str, software: str) -> None:
    pages = [p.read_bytes() for p in thread_files(software)]
    store = GameStore.open(data_dir, "crash")
    last = store.post(67)
    n = 1 + max((int(m) for v in last.versions for m in MARK.findall(v.post.body_html)),
                default=-1) if last else 0

    def handler(request: httpx.Request) -> httpx.Response:
        q = dict(request.url.params)
        start = int(q["topic"].split(".")[1]) if "topic" in q else int(q.get("start", 0))
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
    print("start", flush=True)
    while True:
        clock.set(datetime(2026, 11, 22, 12, tzinfo=UTC) + timedelta(minutes=n))
        poller.poll(recheck=False)
        print(f"done {n}", flush=True)
        n += 1


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
