"""How fast the dashboard shows a long day: the game page of the 10,000-post day.

The day of `benchmarks/count.py` (10,000 posts built from the real fixture posts) is
stored as `benchmarks/view.py` stores it (chat-mafia, a setup entered, Day 1 running),
with the alerts the daemon's checks raise on it. Measured in the same run, on the same
store, each from a store opened anew, the best of `--repeat`:

1. `assistant count` (`gm.game_tally`, what the command computes: the baseline);
2. the game page, a whole GET /game/bench through the dashboard's app (routing, the
   guard, one view of the game, the count, chart, alerts, drafts, the templates);
3. the live update after a poll that brought one more post: GET /game/bench/live with
   the digests of the page the browser holds, and the bytes it sends against the
   whole page's.

Beside the wall times, the CPU time of the process (a busy machine's wait for a core is
not the page's).

Each for two starts: "count" as a new process finds the game (the marks file beside it,
nothing in memory) and "again" as the dashboard's own process (`run --web`: the posts'
marks already judged in memory).

    .venv/bin/python benchmarks/web.py [--posts 10000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def best_of(repeat: int, func: Callable[[], Any], before: Callable[[], None]
            ) -> tuple[float, float, Any]:
    """The best wall time and the best CPU time of the process (every thread: the app
    serves the page in a worker thread), with the last result."""
    best, cpu, result = float("inf"), float("inf"), None
    for _ in range(repeat):
        before()
        began, began_cpu = time.perf_counter(), time.process_time()
        result = func()
        best = min(best, time.perf_counter() - began)
        cpu = min(cpu, time.process_time() - began_cpu)
    return best, cpu, result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--posts", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()

    from count import synthetic_day
    from starlette.testclient import TestClient
    from view import build_store

    from assistant.alerts import AlertLog
    from assistant.clock import FakeClock
    from assistant.gm import game_tally
    from assistant.monitor import load_view, run_checks
    from assistant.store import GameStore
    from assistant.web.app import Dashboard, create_app
    from assistant.web.guard import Guard

    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        store, now = build_store(data, args.posts)
        AlertLog(store).record(run_checks(load_view(store, now), store), now)
        alerts = len(AlertLog(store).all())
        store.close()
        clock = FakeClock(now)
        client = TestClient(create_app(Dashboard(data, clock, Guard())),
                            base_url="http://127.0.0.1")
        from assistant.count.votes import clear_extract_cache as empty

        def count() -> Any:
            with GameStore.open(data, "bench", create=False) as s:
                return game_tally(s, now)[2]

        def page() -> str:
            r = client.get("/game/bench")
            assert r.status_code == 200, r.text[:500]
            return r.text

        tally = count()  # the marks file written, as `fetch` or the daemon leave it
        html = page()
        # Each timed call starts with the garbage of the one before collected, so neither
        # pays for the other's.
        starts = {"count": lambda: (empty(), gc.collect()), "again": gc.collect}
        times: dict[str, dict[str, float]] = {}
        for start, before in starts.items():
            t_count, c_count, _ = best_of(args.repeat, count, before)
            t_page, c_page, html = best_of(args.repeat, page, before)
            times[start] = {"count": t_count, "page": t_page, "count_cpu": c_count,
                            "page_cpu": c_page}

        # One more post, as a poll brings it; the browser asks for what changed.
        have = ",".join(f"{name}:{digest}" for name, digest in
                        re.findall(r'data-part="(\w+)" data-digest="(\w+)"', html))
        with GameStore.open(data, "bench", create=False) as s:
            last = s.post(max(s.live_post_ids())).latest
            extra = replace(last, post_id=last.post_id + 1, position=last.position + 1,
                            posted_at=last.posted_at + timedelta(seconds=10))
            s.record_posts([extra], now)
        clock.set(now + timedelta(seconds=20))
        t_live, _cpu, live = best_of(args.repeat, lambda: client.get(
            "/game/bench/live", params={"have": have}), gc.collect)
        changed = sorted(live.json()["parts"])

    n = len(synthetic_day(args.posts)) if args.posts < 50 else args.posts
    print(f"the game page of a {n}-post day ({tally.day and f'Day {tally.day}, '}"
          f"{len(tally.votes)} votes, {alerts} alerts), best of {args.repeat}, load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores:")
    print(f"{'start':8} {'count':>9} {'page':>9} {'page/count':>11}   {'count CPU':>9} "
          f"{'page CPU':>9} {'ratio':>6}")
    for start, t in times.items():
        print(f"{start:8} {t['count'] * 1000:6.0f} ms {t['page'] * 1000:6.0f} ms "
              f"{t['page'] / t['count']:10.2f}x   {t['count_cpu'] * 1000:6.0f} ms "
              f"{t['page_cpu'] * 1000:6.0f} ms {t['page_cpu'] / t['count_cpu']:5.2f}x")
    print(f"whole page: {len(html.encode()) / 1024:.0f} KiB; the live update after one new "
          f"post: {t_live * 1000:.0f} ms, {len(live.content) / 1024:.0f} KiB, parts "
          f"{', '.join(changed)}")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
