"""What an incremental poll costs in writes: a thread's last page polled into a big store.

The real 5-page SMF thread is read into a store (through an in-memory transport: nothing
leaves the process), the store is grown to `--posts` posts with copies of the thread's
posts (marked vanished, so the polls leave them alone: they only make the file the size
of a long game's), and then `--polls` incremental polls each find the last post edited
once more. Printed: the file's size, atomic replaces of the file per poll, the time a
poll takes, and, as the baseline measured in the same run, the least an atomic write of
that same document can cost (json.dumps, write, fsync, rename): their ratio is what a
poll adds over the one write it cannot avoid.

    .venv/bin/python benchmarks/poll.py [--posts 6000] [--polls 20] [--root CHECKOUT]

`--root` times another checkout's poller and store (e.g. a `git worktree` of the last
commit) with the same pages and store, for a before/after in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("ASSISTANT_SHARED", ROOT.parent / "shared")).resolve()
THREAD = SHARED / "fixtures" / "realforum" / "smf21"
PAGES = [THREAD / f"smf21_topic_p{n}.html" for n in range(1, 6)]
PER_PAGE = 15
START = datetime(2026, 11, 22, 12, tzinfo=UTC)


def run(posts: int, polls: int) -> dict[str, float]:
    import httpx

    from assistant.clock import FakeClock
    from assistant.poller import Poller, PollSettings
    from assistant.scrapers.http import Fetcher, FetchSettings
    from assistant.store import GameStore

    pages = [p.read_bytes() for p in PAGES]
    edit = {"n": 0}

    def handler(request: httpx.Request) -> httpx.Response:
        start = int(dict(request.url.params)["topic"].split(".")[1])
        body = pages[min(start // PER_PAGE, len(pages) - 1)]
        if start // PER_PAGE == len(pages) - 1:
            edited = f"Night 1 begins now ({edit['n']}).".encode()
            body = body.replace(b"Night 1 begins now.", edited)
        return httpx.Response(200, content=body, headers={"Content-Type": "text/html"})

    with tempfile.TemporaryDirectory() as data_dir:
        store = GameStore.open(data_dir, "bench")
        fetcher = Fetcher(httpx.Client(transport=httpx.MockTransport(handler)),
                          FetchSettings(delay=0), sleep=lambda s: None)
        clock = FakeClock(START)
        poller = Poller(store, fetcher, clock, ZoneInfo("UTC"), PollSettings(progress=False),
                        thread_url="http://forum.test/index.php?topic=2.0")
        poller.poll()  # the backfill
        thread = [sp.latest for sp in store.posts()]
        copies = [replace(thread[i % len(thread)], post_id=1_000_000 + i)
                  for i in range(max(posts - len(thread), 0))]
        with store.batch():
            store.record_posts(copies, START)
            store.mark_vanished([p.post_id for p in copies], START)
        size = sum(p.stat().st_size for p in store.path.parent.glob(f"{store.path.name}*"))

        replaces = []
        real_replace = os.replace

        def counting_replace(src: str, dst: str) -> None:
            replaces.append(dst)
            real_replace(src, dst)

        os.replace = counting_replace  # type: ignore[assignment]
        try:
            times = []
            for n in range(1, polls + 1):
                edit["n"] = n
                clock.set(START + timedelta(minutes=n))
                t0 = time.perf_counter()
                result = poller.poll(recheck=False)
                times.append(time.perf_counter() - t0)
                assert result.changed, "the poll did not see the edit"
        finally:
            os.replace = real_replace  # type: ignore[assignment]
        stored = len(store.posts())
        document = json.loads(store.path.read_text(encoding="utf-8"))
        store.close()
        bare = []
        target = Path(data_dir) / "baseline.json"
        for _ in range(polls):
            t0 = time.perf_counter()
            tmp = target.with_suffix(".tmp")
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(json.dumps(document, ensure_ascii=False, separators=(",", ":")))
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, target)
            bare.append(time.perf_counter() - t0)
    times.sort()
    bare.sort()
    return {"posts": stored, "bytes": size, "replaces_per_poll": len(replaces) / polls,
            "median_s": times[len(times) // 2], "best_s": times[0],
            "bare_write_median_s": bare[len(bare) // 2]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--posts", type=int, default=6000)
    ap.add_argument("--polls", type=int, default=20)
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout whose code is timed")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    sys.path.insert(0, str(args.root.resolve()))
    r = run(args.posts, args.polls)
    if args.json:
        print(json.dumps(r))
        return
    print(f"store: {r['posts']} posts, {r['bytes'] / 1e6:.1f} MB ({args.root})")
    print(f"atomic replaces of the file per poll: {r['replaces_per_poll']:.1f}")
    print(f"one incremental poll: median {r['median_s'] * 1000:.1f} ms, "
          f"best {r['best_s'] * 1000:.1f} ms")
    print(f"baseline, one bare atomic write of the same store: median "
          f"{r['bare_write_median_s'] * 1000:.1f} ms")
    print(f"ratio poll / bare write: {r['median_s'] / r['bare_write_median_s']:.2f}x")


if __name__ == "__main__":
    main()
