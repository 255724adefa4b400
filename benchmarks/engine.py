"""What a busy night costs the engine: 30 different orders in a 40-player 002 game.

The night is `fixtures/night30/` (the setup as `assistant roles --file` reads it, the orders
as `assistant order --file` reads them; tests/test_engine_cli.py checks its whole event
log). Timed in the same run, each the median of `--runs` repetitions:

- baseline: the same game's night with one order (the mafia kill), resolved;
- the copy of the 40-player state every resolution starts with (`GameState.copy`);
- the 30 orders, parsed and checked beforehand, resolved;
- the 30 orders from their text: parsed, checked and resolved;
- `assistant resolve --dry-run` on a stored game holding the night: the command as the GM
  runs it (store read, facts replayed, orders resolved, output written).

Printed: each time and its ratio to the baseline (the project's rule: ratios against a
baseline measured in the same run, not bare times), and the cost of one more order.

    .venv/bin/python benchmarks/engine.py [--runs 200]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.cli import main as cli_main  # noqa: E402
from assistant.engine.orders import Order, check_order, parse_order  # noqa: E402
from assistant.engine.resolver import resolve_phase  # noqa: E402
from assistant.engine.rules import load_engine_rules  # noqa: E402
from assistant.engine.setup import read_setup_file  # noqa: E402
from assistant.engine.state import GameState  # noqa: E402
from assistant.rulesets import find_ruleset  # noqa: E402

NIGHT = ROOT / "fixtures" / "night30"
BASELINE_ORDER = "Mafia: kill Van1 by Gf"


def order_lines() -> list[str]:
    text = (NIGHT / "orders.txt").read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.strip() and not line.startswith("#")]


def parsed(state: GameState, lines: list[str]) -> list[Order]:
    orders = [parse_order(t, state, phase="night", number=1) for t in lines]
    for o in orders:
        check_order(o, state)
    return orders


def median_ms(fn: Callable[[], object], runs: int) -> float:
    fn()  # warm caches (rules, templates, imports) outside the timing
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def cli(data_dir: str, *args: str) -> None:
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            cli_main(["--data-dir", data_dir, *args])
        except SystemExit as e:
            if e.code:
                raise RuntimeError(f"assistant {' '.join(args)} failed ({e.code})") from None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=200)
    args = ap.parse_args()

    rules = load_engine_rules(find_ruleset("chat-mafia"))
    state = GameState.from_setup(
        rules, read_setup_file(NIGHT / "setup.toml", rules, default_seed=1)
    )
    lines = order_lines()
    one = parsed(state, [BASELINE_ORDER])
    thirty = parsed(state, lines)
    assert len(thirty) == 30 and len({o.actor for o in thirty}) == 30

    base = median_ms(lambda: resolve_phase(state, "night", 1, one), args.runs)
    copy = median_ms(state.copy, args.runs)
    resolved = median_ms(lambda: resolve_phase(state, "night", 1, thirty), args.runs)
    from_text = median_ms(
        lambda: resolve_phase(state, "night", 1, parsed(state, lines)), args.runs
    )
    with tempfile.TemporaryDirectory() as data_dir:
        cli(data_dir, "roles", "big", "--file", str(NIGHT / "setup.toml"), "--ruleset", "002")
        cli(data_dir, "order", "big", "--file", str(NIGHT / "orders.txt"))
        command = median_ms(
            lambda: cli(data_dir, "resolve", "big", "--dry-run"), max(10, args.runs // 10)
        )

    deaths = [d.player for d in resolve_phase(state, "night", 1, thirty).deaths]
    print(f"40 players (chat-mafia), night 1; median of {args.runs} runs; deaths: "
          f"{', '.join(deaths)}")
    rows = [
        ("baseline: 1 order (the mafia kill), resolved", base),
        ("copying the 40-player state (part of every resolution)", copy),
        ("30 orders, pre-parsed, resolved", resolved),
        ("30 orders from text: parsed, checked, resolved", from_text),
        ("`assistant resolve --dry-run` (store, replay, 30 orders)", command),
    ]
    width = max(len(label) for label, _ in rows)
    for label, ms in rows:
        print(f"  {label:<{width}}  {ms:8.3f} ms  {ms / base:7.1f}x baseline")
    print(f"  each order beyond the first: {(resolved - base) / 29 * 1000:+.1f} µs "
          f"({(resolved - base) / 29 / base:+.3f}x the one-order night)")


if __name__ == "__main__":
    main()
