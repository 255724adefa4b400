"""How often the count reaches the lynch real games had: every predictable day of the real
mafiascum games in ../shared/mafiascum-dev, replayed under the `mafiascum` ruleset.

A day is checked as that folder's README says: the posts from the day's `start_post` to its
`end_post`, the day's slots as the players (a slot's names are one player), the moderators
as GMs, doublevoters weighing 2. The day is right when the count reaches a majority for one
of `expected_choice` (No Lynch when it is "NO LYNCH"), and no majority when it is [].
"One less for No Lynch" days (`less_one_for_mislynch`) set the game's No Lynch majority to
one less, as `replay --no-lynch-majority one_less` does. The GM's run of posts that closes a
day (its final count, the lynch) is left out: the count learns names from the GM's vote
counts (gm_counts.py), and the closing count would hand it the day's answer.

Prints days right / days and the misses by cause; no day may crash (a crash is a miss of
its own cause, with the error). `--misses` lists every missed day with its closing count;
`--game ID --day N --why` prints one day's every vote and its reason. `--false-votes`
measures how often bold text that is no vote (emphasis, "FoS: X") would be read as a vote
where a bare bold name is one (001).

    .venv/bin/python benchmarks/accuracy.py [--jobs 2] [--misses] [--game ID [--day N] [--why]]
        [--closing-posts] [--false-votes]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import traceback
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
from assistant.count.outcome import NO_LYNCH, with_tally  # noqa: E402
from assistant.count.tally import Tally, count  # noqa: E402
from assistant.count.votes import extract_votes  # noqa: E402
from assistant.game import Game  # noqa: E402
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


def _ruleset(less_one: bool) -> Any:
    """The mafiascum ruleset, with No Lynch winning at one less where the game said so
    (as `replay --no-lynch-majority one_less` sets it)."""
    rules = find_ruleset("mafiascum")
    return with_tally(rules, no_lynch_majority="one_less") if less_one else rules


def _game(game_doc: dict[str, Any], day: dict[str, Any]) -> Game:
    slots = [list(s) for s in day["slots"]]
    inputs = [
        {"kind": "modifier", "data": {"player": s[0], "vote_weight": 2, "source": "doublevoter"}}
        for s in day.get("doublevoters") or []
    ]
    return Game.from_parts(
        f"msdev-{game_doc['game_id']}-{day['day']}",
        slots,
        gms=tuple(game_doc.get("moderators") or ()),
        ruleset="mafiascum",
        inputs=inputs,
    )


#: Whether the GM's posts that close the day (its final count, the lynch) are replayed.
#: They are left out by default: the count may learn names from the GM's vote counts
#: (gm_counts.py), and the closing count would hand it the day's answer.
CLOSING_POSTS = False


def day_posts(game_doc: dict[str, Any], day: dict[str, Any], posts: list[Any]) -> list[Any]:
    """The posts of one day; without the GM's run of posts that ends it (`CLOSING_POSTS`)."""
    chosen = [p for p in posts if day["start_post"] <= p.post_id <= day["end_post"]]
    if not CLOSING_POSTS:
        gms = {g.casefold() for g in game_doc.get("moderators") or ()}
        while chosen and chosen[-1].author.casefold() in gms:
            chosen.pop()
    return chosen


def replay_day(game_doc: dict[str, Any], day: dict[str, Any], posts: list[Any]) -> Tally:
    """The count of one archived day, as `replay --from-post --to-post` makes it."""
    g = _game(game_doc, day)
    chosen = day_posts(game_doc, day, posts)
    return count(chosen, g, _ruleset(bool(day.get("less_one_for_mislynch"))))


def _expected(day: dict[str, Any]) -> str:
    choice = day["expected_choice"]
    if choice == "NO LYNCH":
        return NO_LYNCH
    return " / ".join(choice) if choice else "no majority"


def check_day(game_doc: dict[str, Any], day: dict[str, Any], posts: list[Any]) -> DayResult:
    gid, n = game_doc["game_id"], day["day"]
    expected = _expected(day)
    try:
        tally = replay_day(game_doc, day, posts)
    except Exception as e:  # a crash is a miss of its own kind, never the end of the run
        where = traceback.extract_tb(e.__traceback__)[-1]
        return DayResult(
            gid, n, False, "crash", expected, "-",
            f"{type(e).__name__}: {e} ({Path(where.filename).name}:{where.lineno})",
        )
    out = tally.outcome
    if out.by_majority:
        got = NO_LYNCH if not out.lynched else " / ".join(out.lynched)
    else:
        got = "no majority"
    choice = day["expected_choice"]
    if choice == "NO LYNCH":
        right = got == NO_LYNCH
    elif choice:
        right = out.by_majority and bool(out.lynched) and out.lynched[0] in choice
    else:
        right = not out.by_majority
    if right:
        cause = "right"
    elif not out.by_majority:
        cause = "no majority reached"
    elif not choice:
        cause = "a majority on a day that had none"
    elif got == NO_LYNCH:
        cause = "majority for No Lynch instead of a player"
    elif choice == "NO LYNCH":
        cause = "majority on a player instead of No Lynch"
    else:
        cause = "majority on another player"
    wagons = "; ".join(f"{w.target} {w.effective}" for w in tally.wagons[:4])
    detail = f"at post {out.at_post}: {wagons} (majority {tally.majority})"
    return DayResult(gid, n, right, cause, expected, got, detail)


def load_posts(game_id: str) -> list[Any]:
    return read_posts_jsonl(GAMES / game_id / "posts.jsonl.gz", "UTC")


def check_game(game_id: str, only_day: int | None = None) -> list[DayResult]:
    game_doc = json.loads((GAMES / game_id / "game.json").read_text(encoding="utf-8"))
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
    return [check_day(game_doc, d, posts) for d in days]


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
        g = _game(game_doc, day)
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
    """Every vote-like mark of one day and what became of it (for investigating a miss)."""
    game_doc = json.loads((GAMES / game_id / "game.json").read_text(encoding="utf-8"))
    day = next(d for d in game_doc["days"] if d["day"] == day_no)
    tally = replay_day(game_doc, day, load_posts(game_id))
    print(f"Game {game_id} day {day_no}: expected {_expected(day)}")
    for v in tally.votes:
        print(f"  post {v.post_id} {v.voter}: {v.text!r} -> {v.target}: {v.reason}")
    for w in tally.wagons:
        print(f"  {w.target} ({w.effective}): {', '.join(w.voters)}")
    if tally.majority_note:
        print(f"  threshold: {tally.majority_note}")
    print(f"  outcome: {tally.outcome.reason}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--misses", action="store_true", help="List every missed day.")
    ap.add_argument("--game", help="Only this game id.")
    ap.add_argument("--day", type=int, help="Only this day (with --game).")
    ap.add_argument("--why", action="store_true", help="With --game and --day: every vote.")
    ap.add_argument("--closing-posts", action="store_true",
                    help="Replay the GM's posts that close a day too (its final count: "
                    "for comparison only, it hands the count the answer).")
    ap.add_argument("--false-votes", action="store_true",
                    help="How often bold text that is no vote would be read as one (001).")
    args = ap.parse_args(argv)
    global CLOSING_POSTS
    CLOSING_POSTS = args.closing_posts
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
