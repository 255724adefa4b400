"""How often the count reaches the lynch real games had: every predictable day of the real
mafiascum games in ../shared/mafiascum-dev, replayed under the `mafiascum` ruleset by the
command a GM runs on an archive, `assistant replay` (in this process, its JSON read back).

A day is checked as that folder's README says, as the players left it: the posts from the
day's `start_post` to its last post by a player (`--to-post`; the moderators' closing
posts, the lynch and the final count, came after the day was decided and are not read),
the day's slots as the players file (a slot's names are one player, one line), the
moderators as GMs (`--gm`), and what the GM of the game knew, given as a GM gives it:
`--no-lynch-majority one_less` where `less_one_for_mislynch`, `--weight NAME=2` for each
doublevoter, and `--gm-facts`: the GM's answer to each question the count asks (an account
not in the players file read as the one player it can be). The day is right when the
outcome is decided by majority (`outcome.decided_by`)
for one of `expected_choice` (No Lynch when it is "NO LYNCH"), and not by majority when it
is []. A day whose replay exits with an error is a crash, a miss of its own cause.

Prints days right / days and the misses by cause, and both halves of the games (`--half`:
the even-numbered games of the index, which fixes are tuned on, and the odd ones, kept to
see whether a fix generalises). `--misses` lists every missed day; `--game ID --day N
--why` prints that day's `replay --why`. `--false-votes` measures how often bold text that
is no vote (emphasis, "FoS: X") would be read as a vote where a bare bold name is one (001).

    .venv/bin/python benchmarks/accuracy.py [--jobs 2] [--misses] [--game ID [--day N] [--why]]
        [--false-votes]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("ASSISTANT_SHARED", ROOT.parent / "shared")).resolve()
GAMES = SHARED / "mafiascum-dev"
sys.path.insert(0, str(ROOT))

from assistant.archive import read_posts_jsonl  # noqa: E402
from assistant.cli import main as assistant_main  # noqa: E402
from assistant.count.outcome import NO_LYNCH  # noqa: E402
from assistant.count.votes import extract_votes  # noqa: E402
from assistant.game import Game  # noqa: E402
from assistant.names import fold  # noqa: E402
from assistant.rulesets import find_ruleset  # noqa: E402


@dataclass
class DayResult:
    game: str
    day: int
    right: bool
    cause: str
    """"right", or what went wrong: "no majority reached", "majority on another player"..."""
    expected: str
    got: str
    detail: str = ""


def last_player_post(game_doc: dict[str, Any], day: dict[str, Any], posts: list[Any]) -> int:
    """The day's last post by a player (a name of any slot of the game), not a moderator's:
    the posts that close a day (the lynch, the final count) come after it was decided."""
    names = {fold(n) for p in game_doc.get("players") or () for n in (p["name"], *p["replaced"])}
    names |= {fold(n) for slot in day["slots"] for n in slot}
    names -= {fold(m) for m in game_doc.get("moderators") or ()}
    in_day = [p for p in posts if day["start_post"] <= p.post_id <= day["end_post"]]
    by_player = [p.post_id for p in in_day if fold(p.author) in names]
    return by_player[-1] if by_player else day["start_post"]


def replay_args(
    game_doc: dict[str, Any], day: dict[str, Any], posts: list[Any], folder: Path
) -> list[str]:
    """The command line a GM would type to replay this day (its players file written)."""
    players = folder / f"players-{game_doc['game_id']}-{day['day']}.txt"
    players.write_text("".join(" | ".join(s) + "\n" for s in day["slots"]), encoding="utf-8")
    args = [
        "replay", str(GAMES / game_doc["game_id"] / "posts.jsonl.gz"),
        "--ruleset", "mafiascum", "--players", str(players),
        "--from-post", str(day["start_post"]),
        "--to-post", str(last_player_post(game_doc, day, posts)),
    ]
    for gm in game_doc.get("moderators") or ():
        args += ["--gm", gm]
    if day.get("less_one_for_mislynch"):
        args += ["--no-lynch-majority", "one_less"]
    for slot in day.get("doublevoters") or ():
        args += ["--weight", f"{slot[0]}=2"]
    return [*args, "--gm-facts"]


def run_cli(args: list[str]) -> tuple[int, str, str]:
    """`assistant ARGS` in this process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            assistant_main(args)
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 1
    return code, out.getvalue(), err.getvalue()


def _expected(day: dict[str, Any]) -> str:
    choice = day["expected_choice"]
    if choice == "NO LYNCH":
        return NO_LYNCH
    return " / ".join(choice) if choice else "no majority"


def check_day(
    game_doc: dict[str, Any], day: dict[str, Any], posts: list[Any], folder: Path
) -> DayResult:
    gid, n = game_doc["game_id"], day["day"]
    expected = _expected(day)
    code, out, err = run_cli(["--json", *replay_args(game_doc, day, posts, folder)])
    if code != 0:  # a crash is a miss of its own kind, never the end of the run
        return DayResult(gid, n, False, "crash", expected, "-", err.strip().splitlines()[-1])
    doc = json.loads(out)
    outcome = doc["outcome"]
    by_majority = outcome["decided_by"] == "majority"
    lynched = outcome["lynched"]
    got = (NO_LYNCH if not lynched else " / ".join(lynched)) if by_majority else "no majority"
    choice = day["expected_choice"]
    if choice == "NO LYNCH":
        right = got == NO_LYNCH
    elif choice:
        right = by_majority and bool(lynched) and lynched[0] in choice
    else:
        right = not by_majority
    if right:
        cause = "right"
    elif not by_majority:
        cause = "no majority reached"
    elif not choice:
        cause = "a majority on a day that had none"
    elif got == NO_LYNCH:
        cause = "majority for No Lynch instead of a player"
    elif choice == "NO LYNCH":
        cause = "majority on a player instead of No Lynch"
    else:
        cause = "majority on another player"
    wagons = "; ".join(f"{w['target']} {w['effective']}" for w in doc["wagons"][:4])
    detail = f"at post {outcome['at_post']}: {wagons} (majority {doc['majority']})"
    return DayResult(gid, n, right, cause, expected, got, detail)


def load_posts(game_id: str) -> list[Any]:
    return read_posts_jsonl(GAMES / game_id / "posts.jsonl.gz", "UTC")


def _game_doc(game_id: str) -> dict[str, Any]:
    return json.loads((GAMES / game_id / "game.json").read_text(encoding="utf-8"))


def check_game(game_id: str, only_day: int | None = None) -> list[DayResult]:
    game_doc = _game_doc(game_id)
    days = [
        d for d in game_doc["days"]
        if d.get("can_predict_lynch") and (only_day is None or d["day"] == only_day)
    ]
    if not days:
        return []
    try:
        posts = load_posts(game_id)
    except Exception as e:
        return [
            DayResult(game_id, d["day"], False, "crash", _expected(d), "-", f"posts: {e}")
            for d in days
        ]
    with tempfile.TemporaryDirectory(prefix="accuracy-") as folder:
        return [check_day(game_doc, d, posts, Path(folder)) for d in days]


def false_votes(game_id: str) -> Counter[str]:
    """Bold text without the word "vote" in players' posts, read as 001 reads a bare bold
    name (`name_only`). In these games such text is never a vote (their votes say VOTE:),
    so each one read as a player is a false vote a bare-name ruleset would count."""
    game_doc = json.loads((GAMES / game_id / "game.json").read_text(encoding="utf-8"))
    posts = load_posts(game_id)
    rules = find_ruleset("millers-hollow")
    seen: Counter[str] = Counter()
    for day in game_doc["days"]:
        if not day.get("can_predict_lynch"):
            continue
        g = Game.from_parts(f"msdev-{game_id}-{day['day']}", [list(s) for s in day["slots"]],
                            gms=tuple(game_doc.get("moderators") or ()), ruleset="mafiascum")
        chosen = [p for p in posts if day["start_post"] <= p.post_id <= day["end_post"]]
        marks = [
            (p, m) for p in chosen if g.slot_of_author(p.author) is not None
            for m in extract_votes(p, rules.votes, gms=g.gms)
            if m.action == "name" and m.hidden is None
        ]
        matcher = g.matcher(rules.votes.close_spelling)
        for _, m in marks:
            seen["bold texts"] += 1
            found = matcher.match(m.target_text or "", bare=True)
            if found.how == "exact" or found.how == "ignoring case and accents":
                seen["read as a player: the exact name"] += 1
            elif found.ok:
                seen["read as a player: a looser match"] += 1
            elif found.how == "ambiguous":
                seen["an ambiguity alert"] += 1
    return seen


def explain(game_id: str, day_no: int) -> None:
    """A day's `assistant replay --why`, the command printed above it (for a miss)."""
    game_doc = _game_doc(game_id)
    day = next(d for d in game_doc["days"] if d["day"] == day_no)
    with tempfile.TemporaryDirectory(prefix="accuracy-") as folder:
        args = replay_args(game_doc, day, load_posts(game_id), Path(folder))
        print(f"Game {game_id} day {day_no}: expected {_expected(day)}")
        print("assistant " + " ".join(args) + " --why")
        code, out, err = run_cli([*args, "--why"])
    print(out + err)


def halves(ids: list[str]) -> tuple[set[str], set[str]]:
    """The games fixes are tuned on (every other game of the index, from the first) and
    the games kept out, to see whether a fix generalises."""
    return set(ids[0::2]), set(ids[1::2])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--misses", action="store_true", help="List every missed day.")
    ap.add_argument("--game", help="Only this game id.")
    ap.add_argument("--day", type=int, help="Only this day (with --game).")
    ap.add_argument("--why", action="store_true", help="With --game and --day: every vote.")
    ap.add_argument("--false-votes", action="store_true",
                    help="How often bold text that is no vote would be read as one (001).")
    args = ap.parse_args(argv)
    if not GAMES.is_dir():
        print(f"no games at {GAMES}: put shared/ beside the repository or set ASSISTANT_SHARED")
        return 2
    if args.why:
        if not (args.game and args.day):
            ap.error("--why needs --game and --day")
        explain(args.game, args.day)
        return 0
    ids = json.loads((GAMES / "index.json").read_text(encoding="utf-8"))["games"]
    if args.game:
        ids = [args.game]
    if args.false_votes:
        total: Counter[str] = Counter()
        with ProcessPoolExecutor(max(args.jobs, 1)) as pool:
            for part in pool.map(false_votes, ids):
                total.update(part)
        texts = total["bold texts"]
        print(f"bold texts without 'vote' in players' posts: {texts} (in {len(ids)} games)")
        for key in ("read as a player: the exact name", "read as a player: a looser match",
                    "an ambiguity alert"):
            print(f"  {total[key]:6d}  {key} ({total[key] / max(texts, 1):.2%})")
        return 0
    started = time.perf_counter()
    results: list[DayResult] = []
    if args.jobs > 1 and len(ids) > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            for part in pool.map(check_game, ids, [args.day] * len(ids)):
                results.extend(part)
    else:
        for gid in ids:
            results.extend(check_game(gid, args.day))
    elapsed = time.perf_counter() - started
    right = sum(r.right for r in results)
    total = len(results)
    share = right / total if total else 0.0
    print(f"days right: {right} / {total} ({share:.1%}) over {len(ids)} games "
          f"in {elapsed:.1f} s with {args.jobs} process(es)")
    tuned, kept = halves(json.loads((GAMES / "index.json").read_text(encoding="utf-8"))["games"])
    for label, half in (("tuned on", tuned), ("kept out", kept)):
        part = [r for r in results if r.game in half]
        if part and len(part) != total:
            print(f"  {label}: {sum(r.right for r in part)} / {len(part)} "
                  f"({sum(r.right for r in part) / len(part):.1%})")
    causes = Counter(r.cause for r in results if not r.right)
    for cause, n in causes.most_common():
        print(f"  {n:4d}  {cause}")
    crashes = [r for r in results if r.cause == "crash"]
    if args.misses or crashes:
        for r in results:
            if not r.right and (args.misses or r.cause == "crash"):
                print(f"game {r.game} day {r.day}: {r.cause}: expected {r.expected}, "
                      f"got {r.got}; {r.detail}")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
