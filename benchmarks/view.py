"""How fast the daemon sees a game: `monitor.load_view` on the 10,000-post day.

The day of `benchmarks/count.py` (10,000 posts built from the real fixture posts) is
stored in a game of the chat-mafia ruleset with a setup entered (a Tiebreaker among the
players: the engine derives a vote effect from it), Day 1 running. Measured in the same
run, on the same store:

1. the view again (`load_view(store, now)`, as every daemon poll and every command asks
   for it; the posts are already read), and the view with every check (`run_checks`, as
   each daemon poll does): the best of `--repeat` in each of `--rounds` child processes,
   and the median over the rounds of both;
2. what one view (and one view with its checks) recomputes, counted with cProfile:
   readings of a ruleset section (`known_section`: `[votes]`, `[tally]`, `[phases]`;
   `typed_fields`: every section and ability), readings of the engine's tables
   (`_table`), and replays of the engine's night history (`replay`);
3. with `--against CHECKOUT`: the same with another checkout's code (e.g. a `git worktree`
   of the commit before) in child processes taking turns, checked to give the very same
   view (deadline, count, every vote and reason, role modifiers).

    .venv/bin/python benchmarks/view.py [--posts 10000] [--repeat 5] [--against /tmp/base]
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import json
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: What one view may recompute: the functions counted (by name, in the assistant's code).
COUNTED = ("known_section", "typed_fields", "_table", "replay")


def build_store(data_dir: Path, n: int) -> tuple[Any, Any]:
    """A chat-mafia game holding the synthetic day, and the moment to look at it."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from count import HOST, PLAYERS, synthetic_day

    from assistant.engine.setup import PlayerSetup, Setup
    from assistant.models import to_iso
    from assistant.store import GameStore

    posts = synthetic_day(n)
    t0 = posts[0].posted_at - timedelta(minutes=1)
    now = posts[-1].posted_at + timedelta(minutes=5)
    roles = ["tiebreaker", "doctor", "investigator"] + [None] * (len(PLAYERS) - 3)
    sides = ["town"] * (len(PLAYERS) - 2) + ["mafia", "mafia"]
    setup = Setup(tuple(PlayerSetup(p, s, r) for p, s, r in zip(PLAYERS, sides, roles,
                                                               strict=True)), 7)
    store = GameStore.open(data_dir, "bench")
    with store.batch():
        store.update_config(thread_url="http://127.0.0.1:8033/viewtopic.php?t=2",
                            ruleset="chat-mafia", tz="UTC", gms=[HOST])
        store.add_input("players", {"players": [[p] for p in PLAYERS]}, t0)
        store.add_input("roles", setup.to_dict(), t0)
        store.add_input("phase", {"kind": "day", "number": 1, "starts_at": to_iso(t0),
                                  "ends_at": to_iso(t0 + timedelta(days=3))}, t0)
        store.record_posts(posts, t0)
    return store, now


def view_digest(view: Any) -> str:
    """The view as a GM sees it, hashed: equal digests, equal views."""
    doc = {
        "deadline": str(view.deadline.at if view.deadline else None),
        "why": view.deadline.why if view.deadline else None,
        "tally": view.tally.to_json(why=True) if view.tally else None,
        "modifiers": [str(m) for m in view.game.modifiers],
    }
    return hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode()).hexdigest()


def measure(n: int, repeat: int) -> dict[str, Any]:
    """Time the view again and count what one view recomputes (any checkout: only
    `monitor.load_view`, the store and the engine's setup, which all have)."""
    import assistant
    from assistant.monitor import load_view, run_checks

    with tempfile.TemporaryDirectory() as tmp:
        store, now = build_store(Path(tmp), n)
        view = load_view(store, now)  # warm: posts read once, as a running daemon has them
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            load_view(store, now)
            best = min(best, time.perf_counter() - start)
        with_checks = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            run_checks(load_view(store, now), store)
            with_checks = min(with_checks, time.perf_counter() - start)
        calls = counted_calls(load_view, store, now)
        calls_checks = counted_calls(lambda: run_checks(load_view(store, now), store))
        store.close()
    return {"seconds": best, "calls": calls, "digest": view_digest(view),
            "seconds_checks": with_checks, "calls_checks": calls_checks,
            "code": str(Path(assistant.__file__).parent.parent)}


def counted_calls(func: Any, *args: Any) -> dict[str, int]:
    """How often one call of `func` calls each of `COUNTED` (cProfile's call counts)."""
    profile = cProfile.Profile()
    profile.runcall(func, *args)
    calls = {name: 0 for name in COUNTED}
    for (filename, _, name), row in pstats.Stats(profile).stats.items():  # type: ignore[attr-defined]
        if name in calls and "assistant" in filename:
            calls[name] += row[1]
    return calls


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--posts", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--against", type=Path, help="another checkout to time the view with")
    ap.add_argument("--rounds", type=int, default=3,
                    help="child processes per checkout (taking turns with --against)")
    ap.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    sys.path.insert(0, str(args.root.resolve()))
    if args.child:
        print(json.dumps(measure(args.posts, args.repeat)))
        return
    checkouts = [args.root] + ([args.against] if args.against else [])
    rounds: list[list[dict[str, Any]]] = [[] for _ in checkouts]
    for _ in range(args.rounds):
        for i, checkout in enumerate(checkouts):
            out = subprocess.run(
                [sys.executable, __file__, "--child", "--root", str(checkout),
                 "--posts", str(args.posts), "--repeat", str(args.repeat)],
                capture_output=True, text=True, check=False,
            )
            if out.returncode != 0:
                sys.exit(f"the view with {checkout} failed:\n{out.stderr}")
            rounds[i].append(json.loads(out.stdout))
    best: list[dict[str, Any]] = []
    for got in rounds:  # each round's best of --repeat; across rounds, the median of both
        summary = dict(got[-1])
        for key in ("seconds", "seconds_checks"):
            summary[key] = statistics.median(g[key] for g in got)
        if len({g["digest"] for g in got}) != 1:
            sys.exit(f"{summary['code']} saw the game differently from one round to the next")
        best.append(summary)
    if len({b["digest"] for b in best}) != 1:
        sys.exit(f"{args.against} sees this game differently: the comparison is void")
    print(f"monitor.load_view on a {args.posts}-post chat-mafia day with a setup (the median "
          f"over {args.rounds} rounds" + (" taking turns" if args.against else "")
          + f" of each round's best of {args.repeat})")
    for checkout, b in zip(checkouts, best, strict=True):
        if Path(b["code"]).resolve() != checkout.resolve():
            sys.exit(f"the child meant to run {checkout} ran the code of {b['code']}")
        calls = ", ".join(f"{k} {v}" for k, v in b["calls"].items())
        checks = ", ".join(f"{k} {v}" for k, v in b["calls_checks"].items())
        print(f"  {str(checkout):24} view again {b['seconds'] * 1000:8.1f} ms; "
              f"one view calls {calls}")
        print(f"  {'':24} view + checks {b['seconds_checks'] * 1000:8.1f} ms; "
              f"calls {checks}")
    if args.against:
        print(f"ratio {args.against} / this checkout: view again "
              f"{best[1]['seconds'] / best[0]['seconds']:.2f}x")


if __name__ == "__main__":
    main()
