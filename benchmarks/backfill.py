"""What a first `fetch` of a long thread costs: CPU per post at 2,000, 10,000 and 50,000 posts.

A thread of N posts (benchmarks/long_thread.py: real SMF 2.1 pages, 15 posts each) is
served on 127.0.0.1 by this process, and `assistant fetch URL --game bench --delay 0` reads
it whole in a child process started in the checkout measured (its code is the one
imported), into an empty data folder. Measured from outside: the child's CPU (user +
system, what a busy machine's wait for a core leaves out), its peak RSS, and its wall
time; then the CPU per post, and the ratio of the CPU per post of the longest thread to
the shortest's (1.0: linear; the whole game file rewritten at every write made it grow
with the thread). With `--against CHECKOUT` (e.g. a `git worktree` of the commit before
a change) the same fetches with that checkout's code, taking turns size by size.

    .venv/bin/python benchmarks/backfill.py [--posts 2000 10000 50000] [--against /tmp/base]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from long_thread import LongThread  # noqa: E402

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


def fetch(checkout: Path, thread: LongThread) -> dict[str, float]:
    """One first fetch of the whole thread by `checkout`'s code: CPU, peak RSS, wall."""
    with tempfile.TemporaryDirectory(prefix="bench-backfill-") as data_dir:
        env = {**os.environ, "PYTHONPATH": str(checkout), "ASSISTANT_DATA_DIR": data_dir}
        started = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "assistant", "fetch", thread.url(1), "--game", "bench",
             "--delay", "0", "--tz", "UTC"],
            cwd=checkout, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        _, _, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
        out, err = proc.stdout.read(), proc.stderr.read()  # type: ignore[union-attr]
        proc.stdout.close(), proc.stderr.close()  # type: ignore[union-attr]
        if f"{thread.posts} post(s) stored" not in out.decode():
            sys.exit(f"fetch with {checkout} did not store {thread.posts} posts:\n"
                     f"{out.decode()}{err.decode()}")
        sizes = sum(p.stat().st_size for p in Path(data_dir, "games").iterdir())
    return {"cpu": usage.ru_utime + usage.ru_stime, "rss_mb": usage.ru_maxrss / 1024,
            "wall": wall, "bytes": sizes}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--posts", type=int, nargs="+", default=[2000, 10_000, 50_000])
    ap.add_argument("--against", type=Path, help="another checkout to time")
    args = ap.parse_args()
    checkouts = {"this checkout": ROOT}
    if args.against:
        checkouts["before"] = args.against.resolve()
    results: dict[str, dict[int, dict[str, float]]] = {name: {} for name in checkouts}
    print(f"first `fetch` of a loopback SMF thread (15 posts a page, no delay); load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'posts':>7} {'checkout':14} {'CPU s':>8} {'ms/post':>8} {'peak RSS':>9} "
          f"{'wall s':>7} {'files MB':>9}")
    for n in args.posts:
        thread = LongThread(n)
        server = serve(thread)
        try:
            for name, checkout in checkouts.items():
                r = results[name][n] = fetch(checkout, thread)
                print(f"{n:7} {name:14} {r['cpu']:8.1f} {r['cpu'] / n * 1000:8.3f} "
                      f"{r['rss_mb']:7.0f} MB {r['wall']:7.1f} {r['bytes'] / 1e6:9.1f}",
                      flush=True)
        finally:
            server.shutdown()
            server.server_close()
    low, high = min(args.posts), max(args.posts)
    for name in checkouts:
        per = {n: results[name][n]["cpu"] / n for n in args.posts}
        print(f"{name}: CPU per post at {high} / at {low}: {per[high] / per[low]:.2f}x")
    if args.against:
        for n in args.posts:
            ratio = results["before"][n]["cpu"] / results["this checkout"][n]["cpu"]
            print(f"{n} posts: CPU before / this checkout: {ratio:.1f}x")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
