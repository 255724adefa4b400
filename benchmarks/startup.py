"""How fast the command line starts: `assistant --version` and `assistant count` of a stored game.

Measured in the same run, each in a fresh interpreter (`python -m assistant`, started in
the checkout so that its code is the one imported), the checkouts taking turns:

1. the wall time and the CPU time (user + system: what a busy machine's wait for a core
   leaves out) of `--version` and of `count GAME` (a game holding `--posts` posts of the
   synthetic day of benchmarks/count.py, under chat-mafia, Day 1 running): the median of
   `--runs`;
2. `python -X importtime`: the time the imports of each command take (the sum of the
   top-level imports' cumulative times), and the heaviest packages imported;
3. with `--against CHECKOUT` (e.g. a `git worktree` of the commit before a change): the
   same with that checkout's code, and the ratios.

Each checkout's package is compiled to bytecode first, as an install is.

    .venv/bin/python benchmarks/startup.py [--runs 15] [--posts 1000] [--against /tmp/base]
"""

from __future__ import annotations

import argparse
import compileall
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def make_game(data_dir: Path, posts: int) -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    sys.path.insert(0, str(ROOT))
    from count import stored_game, synthetic_day

    stored_game(data_dir, synthetic_day(posts), "chat-mafia")


def run(checkout: Path, args: list[str], *, importtime: bool = False
        ) -> tuple[float, str, float]:
    """(wall seconds, stderr, CPU seconds) of `python -m assistant ARGS` started in
    `checkout`. The CPU time (user + system) is what the process cost, whatever the wait
    for a core on a busy machine added to its wall time."""
    cmd = [sys.executable, *(["-X", "importtime"] if importtime else []), "-m", "assistant", *args]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=checkout, capture_output=True, text=True, check=False)
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"`assistant {' '.join(args)}` in {checkout} failed:\n{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return took, done.stderr, cpu


def imports(stderr: str) -> tuple[float, list[tuple[str, float]]]:
    """The imports' total (top-level cumulative times) and the heaviest top packages."""
    total, packages = 0.0, {}
    for line in stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        _, cumulative, name = line[len("import time:"):].split("|")
        if not name.startswith("  "):  # a top-level import (not one inside another)
            total += int(cumulative) / 1e6
        top = name.strip().split(".")[0]
        if name.strip() == top:
            packages[top] = max(packages.get(top, 0.0), int(cumulative) / 1e6)
    return total, sorted(packages.items(), key=lambda kv: -kv[1])[:6]


def code_of(checkout: Path) -> Path:
    done = subprocess.run([sys.executable, "-c", "import assistant; print(assistant.__file__)"],
                          cwd=checkout, capture_output=True, text=True, check=True)
    return Path(done.stdout.strip()).parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--posts", type=int, default=1000)
    ap.add_argument("--against", type=Path, help="another checkout to time")
    args = ap.parse_args()
    checkouts = [ROOT] + ([args.against.resolve()] if args.against else [])
    for checkout in checkouts:
        if code_of(checkout).resolve() != checkout.resolve():
            sys.exit(f"python started in {checkout} imports the code of {code_of(checkout)}")
        # As an install has them (pip compiles what it installs): with PYTHONDONTWRITEBYTECODE
        # set and no bytecode yet, every run would compile the package from source (~0.25 s).
        compileall.compile_dir(checkout / "assistant", quiet=1)
    with tempfile.TemporaryDirectory() as tmp:
        make_game(Path(tmp), args.posts)
        commands = {"--version": ["--version"],
                    "count": ["count", "bench", "--data-dir", tmp]}  # fmt: skip
        times: dict[tuple[Path, str], list[float]] = {}
        cpus: dict[tuple[Path, str], list[float]] = {}
        load = os.getloadavg()[0]
        for _ in range(args.runs):
            for name, argv in commands.items():
                for checkout in checkouts:
                    took, _, cpu = run(checkout, argv)
                    times.setdefault((checkout, name), []).append(took)
                    cpus.setdefault((checkout, name), []).append(cpu)
        print(f"start-up, median of {args.runs} runs each (fresh interpreters taking turns); "
              f"count: a stored {args.posts}-post chat-mafia day; load average "
              f"{load:.1f} -> {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        for name, argv in commands.items():
            for checkout in checkouts:
                median = statistics.median(times[(checkout, name)])
                cpu = statistics.median(cpus[(checkout, name)])
                total, heavy = imports(run(checkout, argv, importtime=True)[1])
                top = ", ".join(f"{p} {s * 1000:.0f}" for p, s in heavy)
                print(f"  {name:10} {str(checkout):22} {median * 1000:7.0f} ms wall "
                      f"{cpu * 1000:5.0f} ms CPU; imports {total * 1000:5.0f} ms "
                      f"(-X importtime; heaviest, ms: {top})")
            if args.against:
                ratio = (statistics.median(times[(checkouts[1], name)])
                         / statistics.median(times[(checkouts[0], name)]))
                print(f"  {name:10} ratio {args.against} / this checkout: {ratio:.2f}x")


if __name__ == "__main__":
    main()
