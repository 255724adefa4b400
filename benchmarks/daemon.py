"""The daemon at scale: many games on one loopback forum, polled for a fixed number of rounds.

A forum on 127.0.0.1 (in this process) serves the real SMF pages of `../shared/fixtures/
realforum`: one game follows thread B as it grew (its live snapshots, one more each
round) and every other game follows thread A (66 posts, 5 pages) under a folder of its
own (`/g007/index.php?topic=2.0`), which nobody posts to. Each game is set up as a GM
would (`game new` with the players, `phase ... day 1`), the threads are read once with
`run --once` (not measured), then `assistant run` runs as a child process for `--rounds`
poll intervals and is stopped with SIGTERM. Measured from outside the daemon:

- CPU: the child's user+system seconds after its first round, as % of one core;
- peak RSS (VmHWM) of the child;
- the gap between two polls of a game (server side: a poll is the requests of a game
  closer together than half an interval): median, p90, max, and how many exceed
  interval + jitter;
- APScheduler's "missed" / "maximum number of running instances" lines in the log;
- requests per poll of an idle game; log lines per minute; seconds from SIGTERM to exit.

    .venv/bin/python benchmarks/daemon.py [--games 200] [--interval 20] [--jitter 2]
        [--rounds 5] [--baseline-ref REF]

`--baseline-ref` runs the same measurement first on a `git worktree` of REF (e.g. the
commit before a change), with the same pages and the same settings: before and after in
the same run. The daemon runs with the system clock; the run is bounded by
(rounds + 1) × interval plus set-up and stop.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("ASSISTANT_SHARED", ROOT.parent / "shared")).resolve()
REALFORUM = SHARED / "fixtures" / "realforum"
SAVED_FROM = b"http://127.0.0.1:8021"
PER_PAGE = 15
TICKS = os.sysconf("SC_CLK_TCK")


# ---- the forum ----------------------------------------------------------------------------


@dataclass
class Forum:
    """Thread A under every game's folder, thread B's snapshots under /live."""

    base_url: str = ""
    thread_a: list[bytes] = field(default_factory=list)
    snapshots: list[dict[int, bytes]] = field(default_factory=list)
    """Snapshot number -> page -> body, each page as last saved by then."""
    snapshot: int = 0
    log: list[tuple[float, str]] = field(default_factory=list)
    """(monotonic time, the game's folder) per request."""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answer(self, raw: str) -> tuple[int, bytes]:
        parts = urlsplit(raw)
        folder = parts.path.strip("/").split("/")[0]
        with self.lock:
            self.log.append((time.monotonic(), folder))
        query = dict(parse_qsl(parts.query.replace(";", "&")))
        try:
            start = int(query["topic"].split(".")[1])
        except (KeyError, IndexError, ValueError):
            return 404, b"<html><body>Not found</body></html>"
        page = start // PER_PAGE + 1
        if folder == "live":
            body = self.snapshots[min(self.snapshot, len(self.snapshots) - 1)].get(page)
        else:
            body = self.thread_a[page - 1] if page <= len(self.thread_a) else None
        if body is None:
            return 404, b"<html><body>Not found</body></html>"
        return 200, body.replace(SAVED_FROM, f"{self.base_url}/{folder}".encode())


def load_forum() -> Forum:
    forum = Forum()
    forum.thread_a = [(REALFORUM / "smf21" / f"smf21_topic_p{n}.html").read_bytes()
                      for n in range(1, 6)]
    manifest = json.loads((REALFORUM / "live" / "live_manifest.json").read_text("utf-8"))
    latest: dict[int, bytes] = {}
    by_no: dict[int, list[dict]] = {}
    for s in manifest["snapshots"]:
        if s["forum"] == "smf21":
            by_no.setdefault(s["snapshot_no"], []).append(s)
    for no in sorted(by_no):
        for s in by_no[no]:
            latest[s["page"]] = (REALFORUM / "live" / s["file"]).read_bytes()
        forum.snapshots.append(dict(latest))
    return forum


def serve(forum: Forum) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's naming
            status, body = forum.answer(self.path)
            self.send_response(status)
            self.send_header("Content-Type", "text/html; charset=UTF-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    forum.base_url = f"http://127.0.0.1:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    return server


# ---- setting the games up (run in a child with the measured checkout's code) ---------------


def setup(data_dir: Path, base_url: str, games: int) -> None:
    """The games as a GM sets them up, through the measured checkout's own commands."""
    from assistant.cli import cli

    players_a = data_dir / "players_a.txt"
    meta = json.loads((REALFORUM / "smf21" / "thread.json").read_text("utf-8"))["meta"]
    players_a.write_text("\n".join(meta["final_intended_votes"]) + "\n", encoding="utf-8")
    players_b = data_dir / "players_b.txt"
    meta_b = json.loads((REALFORUM / "smf21" / "thread_b.json").read_text("utf-8"))["meta"]
    players_b.write_text("\n".join(meta_b["players"]) + "\n", encoding="utf-8")

    def call(*args: str) -> None:
        cli.main(["--data-dir", str(data_dir), *args], standalone_mode=False)

    for i in range(games):
        game, folder = (("live", "live") if i == 0 else (f"g{i:03}", f"g{i:03}"))
        topic = 3 if i == 0 else 2
        call("game", "new", game, "--thread", f"{base_url}/{folder}/index.php?topic={topic}.0",
             "--ruleset", "chat-mafia" if i == 0 else "mafiascum",
             "--players", str(players_b if i == 0 else players_a), "--gm", "Host", "--tz", "UTC",
             "--forum-tz", "UTC")
        call("phase", game, "day", "1", "--ends", "+20m" if i == 0 else "+72h")


# ---- one measured run ---------------------------------------------------------------------


@dataclass
class Figures:
    cpu_percent: float
    peak_rss_mb: float
    gap_median: float
    gap_p90: float
    gap_max: float
    late: int
    polls: int
    missed: int
    skipped: int
    idle_requests_per_poll: float
    log_lines_per_min: float
    stop_seconds: float
    exit_code: int | None


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def _peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _env(code_root: Path, data_dir: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(code_root), "ASSISTANT_DATA_DIR": str(data_dir),
            "ASSISTANT_SHARED": str(SHARED)}


def measure(code_root: Path, args: argparse.Namespace) -> Figures:
    forum = load_forum()
    server = serve(forum)
    try:
        with tempfile.TemporaryDirectory(prefix="bench-daemon-") as tmp:
            data_dir = Path(tmp)
            env = _env(code_root, data_dir)
            subprocess.run([sys.executable, __file__, "--setup", str(data_dir), "--base-url",
                            forum.base_url, "--games", str(args.games)],
                           env=env, cwd=code_root, check=True, stdout=subprocess.DEVNULL)
            subprocess.run([sys.executable, "-m", "assistant", "run", "--once", "--delay", "0"],
                           env=env, cwd=code_root, check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            return _run(code_root, data_dir, forum, args)
    finally:
        server.shutdown()
        server.server_close()


def _run(code_root: Path, data_dir: Path, forum: Forum, args: argparse.Namespace) -> Figures:
    interval, jitter = args.interval, args.jitter
    with forum.lock:
        forum.log.clear()
    log_path = data_dir / "daemon.log"
    with open(log_path, "w", encoding="utf-8") as log_file:
        started = time.monotonic()
        proc = subprocess.Popen(
            [sys.executable, "-m", "assistant", "run", "--interval", f"{interval:g}",
             "--jitter", f"{jitter:g}"],
            env=_env(code_root, data_dir), cwd=code_root, stdout=subprocess.DEVNULL,
            stderr=log_file,
        )
        try:
            # The first round (start-up, imports) is not in the CPU figure.
            time.sleep(interval)
            cpu0, t0 = _cpu_seconds(proc.pid), time.monotonic()
            for _ in range(args.rounds):
                forum.snapshot += 1  # thread B grows by five posts a round
                time.sleep(interval)
            cpu1, t1 = _cpu_seconds(proc.pid), time.monotonic()
            rss = _peak_rss_mb(proc.pid)
            stop_at = time.monotonic()
            proc.send_signal(signal.SIGTERM)
            try:
                code = proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                code = proc.wait()
            stop_seconds = time.monotonic() - stop_at
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    ran = time.monotonic() - started
    text = log_path.read_text(encoding="utf-8", errors="replace")
    gaps, polls, idle_requests, idle_polls = _polls(forum.log, interval)
    gaps.sort()
    return Figures(
        cpu_percent=100 * (cpu1 - cpu0) / (t1 - t0),
        peak_rss_mb=rss,
        gap_median=statistics.median(gaps) if gaps else float("nan"),
        gap_p90=gaps[int(0.9 * (len(gaps) - 1))] if gaps else float("nan"),
        gap_max=gaps[-1] if gaps else float("nan"),
        late=sum(g > interval + jitter + 1.0 for g in gaps),
        polls=polls,
        missed=len(re.findall(r"was missed by", text)),
        skipped=len(re.findall(r"maximum number of running instances", text)),
        idle_requests_per_poll=idle_requests / idle_polls if idle_polls else float("nan"),
        log_lines_per_min=len(text.splitlines()) / (ran / 60),
        stop_seconds=stop_seconds,
        exit_code=code,
    )


def _polls(log: list[tuple[float, str]], interval: float) -> tuple[list[float], int, int, int]:
    """Requests grouped into polls per game; the gaps between a game's consecutive polls."""
    by_game: dict[str, list[float]] = {}
    for at, folder in log:
        by_game.setdefault(folder, []).append(at)
    gaps: list[float] = []
    polls = idle_requests = idle_polls = 0
    for folder, times in by_game.items():
        starts = [times[0]]
        for prev, at in zip(times, times[1:], strict=False):
            if at - prev > interval / 2:
                starts.append(at)
        polls += len(starts)
        gaps += [b - a for a, b in zip(starts, starts[1:], strict=False)]
        if folder != "live":
            idle_requests += len(times)
            idle_polls += len(starts)
    return gaps, polls, idle_requests, idle_polls


# ---- the report -----------------------------------------------------------------------------


ROWS = [
    ("CPU, % of one core (after the first round)", "cpu_percent", "{:.1f}"),
    ("peak RSS, MB", "peak_rss_mb", "{:.0f}"),
    ("gap between two polls of a game: median, s", "gap_median", "{:.1f}"),
    ("  p90, s", "gap_p90", "{:.1f}"),
    ("  max, s", "gap_max", "{:.1f}"),
    ("  gaps past interval + jitter (+1 s)", "late", "{}"),
    ("polls seen by the forum", "polls", "{}"),
    ("APScheduler 'missed' lines", "missed", "{}"),
    ("APScheduler 'max instances' lines", "skipped", "{}"),
    ("requests per poll of an idle game", "idle_requests_per_poll", "{:.2f}"),
    ("log lines per minute", "log_lines_per_min", "{:.1f}"),
    ("SIGTERM to exit, s", "stop_seconds", "{:.2f}"),
    ("exit code", "exit_code", "{}"),
]


def report(results: dict[str, Figures], args: argparse.Namespace) -> None:
    print(f"{args.games} games on one loopback forum, a poll every {args.interval:g} s "
          f"(jitter {args.jitter:g} s), {args.rounds} rounds measured")
    names = list(results)
    print(f"{'':46}" + "".join(f"{n:>14}" for n in names))
    for label, key, fmt in ROWS:
        print(f"{label:46}" + "".join(f"{fmt.format(getattr(results[n], key)):>14}"
                                      for n in names))


def _worktree(ref: str) -> Path:
    path = Path(tempfile.mkdtemp(prefix="bench-baseline-"))
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(path), ref],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return path


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--interval", type=float, default=20.0)
    p.add_argument("--jitter", type=float, default=2.0)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--baseline-ref", help="a git commit to measure first, as the baseline")
    p.add_argument("--setup", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--base-url", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.setup:
        setup(args.setup, args.base_url, args.games)
        return
    results: dict[str, Figures] = {}
    if args.baseline_ref:
        tree = _worktree(args.baseline_ref)
        try:
            results[f"baseline {args.baseline_ref[:8]}"] = measure(tree, args)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                           check=False)
    results["this checkout"] = measure(ROOT, args)
    report(results, args)


if __name__ == "__main__":
    main()
