"""The daemon at scale: many games on one loopback forum, polled for a fixed number of rounds.

A forum on 127.0.0.1 (in this process) serves, under a folder per game
(`/g007/index.php?topic=2.0`), a thread of real SMF 2.1 pages (benchmarks/long_thread.py)
that starts with `--posts` posts and grows by one post every `--post-every` seconds (each
game's posts at its own moments; 0: nobody posts, idle games), each game's posts with ids
and first words of their own, as on a real forum; the games' rulesets are
every ruleset of rulesets/ in turn (or `--ruleset NAME` for all). Each game is set up as a
GM would (`game new` with the players, `phase ... day 1` from the thread's first post),
the threads are read once with `run --once` (not measured), then `assistant run` runs as
a child process for `--rounds` poll intervals and is stopped with SIGTERM. Measured from
outside the daemon:

- CPU: the child's user+system seconds after its first round, as % of one core;
- peak RSS (VmHWM) of the child;
- the gap between two polls of a game (server side: a poll is the requests of a game
  closer together than half an interval): median, p90, max, and how many exceed
  interval + jitter;
- APScheduler's "missed" / "maximum number of running instances" lines in the log;
- CPU per poll (the CPU figure's seconds over the polls the forum saw meanwhile);
- posts stored at the end (the threads grew), requests per poll, log lines per minute,
  seconds from SIGTERM to exit.

    .venv/bin/python benchmarks/daemon.py [--games 200] [--interval 20] [--jitter 2]
        [--rounds 6] [--posts 60] [--post-every 60] [--ruleset NAME] [--baseline-ref REF]

A game re-reads the pages of its last hour every 6th poll and its whole day every half
hour (poller.py), each game from a point of its own: `--rounds 6` or more measures that
cycle (3 rounds may hold none of a game's re-reads).

`--baseline-ref` runs the same measurement first on a `git worktree` of REF (e.g. the
commit before a change), with the same pages and the same settings: before and after in
the same run. The daemon runs with the system clock; the run is bounded by
(rounds + 1) × interval plus set-up and stop.
"""

from __future__ import annotations

import argparse
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
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from long_thread import FIRST_ID, LongThread  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("ASSISTANT_SHARED", ROOT.parent / "shared")).resolve()
TICKS = os.sysconf("SC_CLK_TCK")
PLAYERS = ["Mr. Pickles", "xX_Slayer_Xx", "Jd-", "Conia", "Lady Grey", "Tom & Jerry's",
           "ÆtherWolf", "Kat"]
HOST = "Host Mira"
FIRST_AT = datetime.now(UTC).replace(microsecond=0) - timedelta(hours=2)
"""The threads' first post: two hours ago, a post a minute since (live games)."""


# ---- the forum ----------------------------------------------------------------------------


@dataclass
class Forum:
    """A growing thread per game folder (`g000`, `g001`...)."""

    posts: int
    post_every: float
    started: float = field(default_factory=time.monotonic)
    """When the threads began to grow (set again when the measured run starts)."""
    base_url: str = ""
    threads: dict[str, LongThread] = field(default_factory=dict)
    log: list[tuple[float, str]] = field(default_factory=list)
    """(monotonic time, the game's folder) per request."""
    lock: threading.Lock = field(default_factory=threading.Lock)
    grow: bool = False

    def thread(self, folder: str) -> LongThread | None:
        if not re.fullmatch(r"g\d{3}", folder):
            return None
        t = self.threads.get(folder)
        if t is None:
            # Each game's posts their own ids and words, as on a real forum (else the
            # 200 games' posts are one game's to every cache keyed by a post).
            t = self.threads[folder] = LongThread(
                self.posts, f"{self.base_url}/{folder}", FIRST_AT,
                first_id=FIRST_ID + 100_000 * int(folder[1:]), salt=folder)
        if self.grow and self.post_every > 0:  # each game's posts at their own moments
            offset = (int(folder[1:]) * 7.919) % self.post_every
            t.posts = self.posts + max(0, int((time.monotonic() - self.started + offset)
                                               // self.post_every))
        return t

    def answer(self, raw: str) -> tuple[int, bytes]:
        folder = urlsplit(raw).path.strip("/").split("/")[0]
        with self.lock:
            self.log.append((time.monotonic(), folder))
            thread = self.thread(folder)
        if thread is None:
            return 404, b"<html><body>Not found</body></html>"
        return thread.answer(raw)


def serve(forum: Forum) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # (else each answer waits 40 ms for an ACK)

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


def rulesets(only: str | None) -> list[str]:
    return [only] if only else sorted(p.stem for p in (ROOT / "rulesets").glob("*.toml"))


def setup(data_dir: Path, base_url: str, games: int, ruleset: str | None) -> None:
    """The games as a GM sets them up, through the measured checkout's own commands: the
    day opened at the threads' first post, three days long."""
    from assistant.cli import cli

    players = data_dir / "players.txt"
    players.write_text("\n".join(PLAYERS) + "\n", encoding="utf-8")
    names = rulesets(ruleset)

    def call(*args: str) -> None:
        cli.main(["--data-dir", str(data_dir), *args], standalone_mode=False)

    os.environ["ASSISTANT_NOW"] = (FIRST_AT - timedelta(minutes=1)).isoformat()
    for i in range(games):
        game = f"g{i:03}"
        call("game", "new", game, "--thread", f"{base_url}/{game}/index.php?topic=2.0",
             "--ruleset", names[i % len(names)], "--players", str(players), "--gm", HOST,
             "--tz", "UTC", "--forum-tz", "UTC")
        call("phase", game, "day", "1", "--ends", "+72h")


# ---- one measured run ---------------------------------------------------------------------


@dataclass
class Figures:
    cpu_percent: float
    cpu_ms_per_poll: float
    posts_added: int
    peak_rss_mb: float
    gap_median: float
    gap_p90: float
    gap_max: float
    late: int
    polls: int
    missed: int
    skipped: int
    requests_per_poll: float
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
    forum = Forum(args.posts, args.post_every)
    server = serve(forum)
    try:
        with tempfile.TemporaryDirectory(prefix="bench-daemon-") as tmp:
            data_dir = Path(tmp)
            env = _env(code_root, data_dir)
            subprocess.run([sys.executable, __file__, "--setup", str(data_dir), "--base-url",
                            forum.base_url, "--games", str(args.games),
                            *(["--ruleset", args.ruleset] if args.ruleset else [])],
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
        forum.started, forum.grow = time.monotonic(), True
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
            time.sleep(interval * args.rounds)
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
    gaps, polls, requests, measured = _polls(forum.log, interval, t0, t1)
    gaps.sort()
    return Figures(
        cpu_percent=100 * (cpu1 - cpu0) / (t1 - t0),
        cpu_ms_per_poll=1000 * (cpu1 - cpu0) / measured if measured else float("nan"),
        posts_added=sum(t.posts for t in forum.threads.values()) - args.posts * args.games,
        peak_rss_mb=rss,
        gap_median=statistics.median(gaps) if gaps else float("nan"),
        gap_p90=gaps[int(0.9 * (len(gaps) - 1))] if gaps else float("nan"),
        gap_max=gaps[-1] if gaps else float("nan"),
        late=sum(g > interval + jitter + 1.0 for g in gaps),
        polls=polls,
        missed=len(re.findall(r"was missed by", text)),
        skipped=len(re.findall(r"maximum number of running instances", text)),
        requests_per_poll=requests / polls if polls else float("nan"),
        log_lines_per_min=len(text.splitlines()) / (ran / 60),
        stop_seconds=stop_seconds,
        exit_code=code,
    )


def _polls(log: list[tuple[float, str]], interval: float, t0: float, t1: float
           ) -> tuple[list[float], int, int, int]:
    """Requests grouped into polls per game: the gaps between a game's consecutive polls,
    the polls, the requests, and the polls that began in [t0, t1] (the measured window)."""
    by_game: dict[str, list[float]] = {}
    for at, folder in log:
        by_game.setdefault(folder, []).append(at)
    gaps: list[float] = []
    polls = requests = measured = 0
    for times in by_game.values():
        starts = [times[0]]
        for prev, at in zip(times, times[1:], strict=False):
            if at - prev > interval / 2:
                starts.append(at)
        polls += len(starts)
        measured += sum(t0 <= s <= t1 for s in starts)
        gaps += [b - a for a, b in zip(starts, starts[1:], strict=False)]
        requests += len(times)
    return gaps, polls, requests, measured


# ---- the report -----------------------------------------------------------------------------


ROWS = [
    ("CPU, % of one core (after the first round)", "cpu_percent", "{:.1f}"),
    ("CPU per poll (and its review), ms", "cpu_ms_per_poll", "{:.1f}"),
    ("posts added to the threads meanwhile", "posts_added", "{}"),
    ("peak RSS, MB", "peak_rss_mb", "{:.0f}"),
    ("gap between two polls of a game: median, s", "gap_median", "{:.1f}"),
    ("  p90, s", "gap_p90", "{:.1f}"),
    ("  max, s", "gap_max", "{:.1f}"),
    ("  gaps past interval + jitter (+1 s)", "late", "{}"),
    ("polls seen by the forum", "polls", "{}"),
    ("APScheduler 'missed' lines", "missed", "{}"),
    ("APScheduler 'max instances' lines", "skipped", "{}"),
    ("requests per poll", "requests_per_poll", "{:.2f}"),
    ("log lines per minute", "log_lines_per_min", "{:.1f}"),
    ("SIGTERM to exit, s", "stop_seconds", "{:.2f}"),
    ("exit code", "exit_code", "{}"),
]


def report(results: dict[str, Figures], args: argparse.Namespace) -> None:
    grows = (f"a post every {args.post_every:g} s each" if args.post_every > 0 else "idle")
    print(f"{args.games} games on one loopback forum ({args.ruleset or 'every ruleset in turn'}"
          f"; threads of {args.posts} posts, {grows}), a poll every {args.interval:g} s "
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
    p.add_argument("--rounds", type=int, default=6)
    p.add_argument("--posts", type=int, default=60, help="posts of each thread at the start")
    p.add_argument("--post-every", type=float, default=60.0,
                   help="seconds between two posts of a thread (0: idle threads)")
    p.add_argument("--ruleset", help="every game under this ruleset (default: each in turn)")
    p.add_argument("--baseline-ref", help="a git commit to measure first, as the baseline")
    p.add_argument("--setup", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--base-url", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.setup:
        setup(args.setup, args.base_url, args.games, args.ruleset)
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
