"""What a first `fetch` of a long thread costs (CPU per post at 2,000, 10,000 and 50,000
posts), and then a `count` of the game it made.

A thread of N posts (benchmarks/long_thread.py: real SMF 2.1 pages, 15 posts each, a post
a minute) is served on 127.0.0.1 by this process. In a child process started in the
checkout measured (its code is the one imported), into an empty data folder, the game is
set up as a GM does (`game new` with the thread's players under `--ruleset`, not
measured), `assistant fetch --game bench --delay 0` reads the thread whole (measured),
`phase bench day 1` opens a day holding every post (not measured), and `assistant count
bench` counts it (measured). Measured from outside: each child's CPU (user + system, what
a busy machine's wait for a core leaves out), its peak RSS, and its wall time; then the
fetch's CPU per post, and the ratio of the CPU per post of the longest thread to the
shortest's (1.0: linear; the whole game file rewritten at every write made it grow with
the thread). With `--against CHECKOUT` (e.g. a `git worktree` of the commit before a
change) the same with that checkout's code, taking turns size by size.

    .venv/bin/python benchmarks/backfill.py [--posts 2000 10000 50000] [--ruleset chat-mafia]
                                            [--against /tmp/base]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from long_thread import FIRST_AT, LongThread  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def serve(thread: LongThread) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # (else each answer waits 40 ms for an ACK)

        def do_GET(self) -> None:  # noqa: N802 - http.server's naming
            status, body = thread.answer(self.path)
            self.send_response(status)
            self.send_header("Content-Type", "text/html; charset=UTF-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread.base_url = f"http://127.0.0.1:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    return server


PLAYERS = ["Mr. Pickles", "xX_Slayer_Xx", "Jd-", "Conia", "Lady Grey", "Tom & Jerry's",
           "ÆtherWolf", "Kat"]
HOST = "Host Mira"


def _run(checkout: Path, env: dict[str, str], *args: str) -> str:
    """`assistant ARGS` in a child started in `checkout` (set-up: not measured)."""
    done = subprocess.run([sys.executable, "-m", "assistant", *args], cwd=checkout, env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"`assistant {' '.join(args)}` with {checkout} failed:\n{done.stderr}")
    return done.stdout


def measured(checkout: Path, env: dict[str, str], *args: str) -> tuple[dict[str, float], str]:
    """`_run` with the child's own CPU and peak RSS (os.wait4 on it alone)."""
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "assistant", *args], cwd=checkout, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = proc.stdout.read()  # type: ignore[union-attr]
    err = proc.stderr.read()  # type: ignore[union-attr]
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - started
    if proc.returncode != 0:
        sys.exit(f"`assistant {' '.join(args)}` with {checkout} failed:\n{err.decode()}")
    return {"cpu": usage.ru_utime + usage.ru_stime, "rss_mb": usage.ru_maxrss / 1024,
            "wall": wall}, out.decode()


def fetch_and_count(checkout: Path, thread: LongThread, ruleset: str) -> dict[str, Any]:
    """The game set up, its first fetch and its count, by `checkout`'s code."""
    with tempfile.TemporaryDirectory(prefix="bench-backfill-") as data_dir:
        players = Path(data_dir) / "players.txt"
        players.write_text("\n".join(PLAYERS) + "\n", encoding="utf-8")
        start = FIRST_AT - timedelta(minutes=1)
        last = FIRST_AT + timedelta(minutes=thread.posts - 1)
        env = {**os.environ, "PYTHONPATH": str(checkout), "ASSISTANT_DATA_DIR": data_dir,
               "ASSISTANT_NOW": start.isoformat()}
        _run(checkout, env, "game", "new", "bench", "--thread", thread.url(1), "--ruleset",
             ruleset, "--players", str(players), "--gm", HOST, "--tz", "UTC")
        fetched, out = measured(checkout, env, "fetch", "--game", "bench", "--delay", "0")
        if f"{thread.posts} post(s) stored" not in out:
            sys.exit(f"fetch with {checkout} did not store {thread.posts} posts:\n{out}")
        fetched["bytes"] = sum(p.stat().st_size for p in Path(data_dir, "games").iterdir())
        _run(checkout, env, "phase", "bench", "day", "1", "--ends",
             (last + timedelta(days=1)).isoformat())
        env["ASSISTANT_NOW"] = (last + timedelta(minutes=5)).isoformat()
        counted, out = measured(checkout, {**env}, "--json", "count", "bench")
        doc = json.loads(out)
    return {"fetch": fetched, "count": counted,
            "tally": json.dumps(doc.get("wagons"), sort_keys=True)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--posts", type=int, nargs="+", default=[2000, 10_000, 50_000])
    ap.add_argument("--ruleset", default="chat-mafia", help="the game's ruleset (for count)")
    ap.add_argument("--against", type=Path, help="another checkout to time")
    args = ap.parse_args()
    checkouts = {"this checkout": ROOT}
    if args.against:
        checkouts["before"] = args.against.resolve()
    results: dict[str, dict[int, dict[str, Any]]] = {name: {} for name in checkouts}
    print(f"first `fetch` of a loopback SMF thread (15 posts a page, no delay), then `count` "
          f"of the game under {args.ruleset}, a day holding every post; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'posts':>7} {'checkout':14} {'fetch CPU s':>11} {'ms/post':>8} {'peak RSS':>9} "
          f"{'wall s':>7} {'files MB':>9} {'count CPU s':>11} {'wall s':>7} {'RSS':>7}")
    for n in args.posts:
        thread = LongThread(n)
        server = serve(thread)
        try:
            for name, checkout in checkouts.items():
                r = results[name][n] = fetch_and_count(checkout, thread, args.ruleset)
                f, c = r["fetch"], r["count"]
                print(f"{n:7} {name:14} {f['cpu']:11.1f} {f['cpu'] / n * 1000:8.3f} "
                      f"{f['rss_mb']:6.0f} MB {f['wall']:7.1f} {f['bytes'] / 1e6:9.1f} "
                      f"{c['cpu']:11.2f} {c['wall']:7.2f} {c['rss_mb']:4.0f} MB", flush=True)
            if args.against and results["before"][n]["tally"] != results["this checkout"][n][
                    "tally"]:
                sys.exit(f"the two checkouts count the {n}-post game differently")
        finally:
            server.shutdown()
            server.server_close()
    low, high = min(args.posts), max(args.posts)
    for name in checkouts:
        per = {n: results[name][n]["fetch"]["cpu"] / n for n in args.posts}
        print(f"{name}: fetch CPU per post at {high} / at {low}: {per[high] / per[low]:.2f}x")
    if args.against:
        for n in args.posts:
            b, a = results["before"][n], results["this checkout"][n]
            print(f"{n} posts: before / this checkout: fetch CPU "
                  f"{b['fetch']['cpu'] / a['fetch']['cpu']:.1f}x, count CPU "
                  f"{b['count']['cpu'] / a['count']['cpu']:.1f}x (same count)")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
