"""How fast a day is counted: a synthetic 10,000-post day built from the real fixture posts.

Measured in the same run, on the same posts (each a post of its own: no two share an id):

1. `assistant count` of the day stored in a game, under EVERY ruleset of rulesets/ (those
   whose day ends early when everyone has voted, at a majority, or by the clock
   included): `gm.game_tally`, what the command computes (the game's view with its
   effective deadline, then the day's count), from a freshly opened store; the best of
   `--repeat` of each start (`STARTS`): a count with nothing read yet (no marks file), a
   count in a new process (the marks file beside the game, marks_cache.py, as `fetch`, the
   daemon or the last count left it) and a count again in the same process;
2. a first count (`tally.count` with the extraction cache emptied) under `--ruleset`, and
   the same count again, as every daemon poll, replay and check does: only new or edited
   posts are read, the others' judged marks are kept;
3. vote extraction alone with selectolax (what the assistant uses) and with BeautifulSoup
   (the baseline: an independent walk over a bs4 tree, checked to find the very same
   marks), both from an empty cache and through the same pre-filter;
4. with `--against CHECKOUT`: 1. with another checkout's code (e.g. a `git worktree` of
   the commit before a change) in child processes taking turns with this checkout's, on
   the same posts, checked to give the very same count (every vote and reason) and the
   same deadline;
5. with `--recount`: only the daemon's recount after a poll: the day stored under
   `--ruleset`, a process set up as the daemon's (it keeps its counts and reads, where the
   checkout has them), the game viewed once (`monitor.load_view`), then `--polls` times
   five new posts stored and the game viewed again: the CPU of the count(s) in each view
   (and of the view), the median, this checkout and `--against`'s in turn, same counts
   checked.

Ratios, not bare times, are what to compare across machines.

    .venv/bin/python benchmarks/count.py [--posts 10000] [--repeat 3] [--ruleset permissive]
                                         [--only chat-mafia ...] [--against /tmp/base]
    .venv/bin/python benchmarks/count.py --recount --ruleset chat-mafia [--against /tmp/base]
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("ASSISTANT_SHARED", ROOT.parent / "shared")).resolve()
REALFORUM = SHARED / "fixtures" / "realforum"
PLAYERS = ["Mr. Pickles", "xX_Slayer_Xx", "Jd-", "Conia", "Lady Grey", "Tom & Jerry's",
           "ÆtherWolf", "bob the builder", "Kat"]
HOST = "Host Mira"
NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


def fixture_posts() -> list[Any]:
    from assistant.scrapers import parse_topic_page

    posts = []
    for forum, url in (("smf21", "http://127.0.0.1:8021/index.php?topic=2.{}"),
                       ("phpbb33", "http://127.0.0.1:8033/viewtopic.php?t=2&start={}")):
        for page in range(1, 6):
            html = (REALFORUM / forum / f"{forum}_topic_p{page}.html").read_bytes()
            posts.extend(parse_topic_page(html, url.format(15 * (page - 1)), tz=UTC, now=NOW).posts)
    return posts


def synthetic_day(n: int) -> list[Any]:
    """`n` posts cycling through the fixture bodies, authors rotating over the players."""
    source = fixture_posts()
    t0 = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)
    out = []
    for i in range(n):
        p = source[i % len(source)]
        author = p.author if p.author == HOST else PLAYERS[i % len(PLAYERS)]
        out.append(replace(p, post_id=1000 + i, position=i, author=author,
                           posted_at=t0 + timedelta(seconds=10 * i)))
    return out


def best_of(repeat: int, func: Callable[[], Any], before: Callable[[], None] = lambda: None
            ) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeat):
        before()
        start = time.perf_counter()
        result = func()
        best = min(best, time.perf_counter() - start)
    return best, result


def digest(tally: Any) -> str:
    """The whole tally with every vote's reason, hashed: equal digests, equal counts."""
    doc = json.dumps(tally.to_json(why=True), sort_keys=True, default=str)
    return hashlib.sha256(doc.encode()).hexdigest()


def count_module(name: str) -> Any:
    """`assistant.count.NAME`, or `assistant.NAME` in a checkout from before the count's
    modules became the `assistant/count/` package (`--against` an older commit). Looked up
    in the checkout's own folder: an import that fails there would be answered by the
    editable install's finder with this checkout's module instead."""
    import assistant

    package = Path(assistant.__file__).parent
    moved = (package / "count" / f"{name}.py").exists()
    return importlib.import_module(f"assistant.count.{name}" if moved else f"assistant.{name}")


def first_count(posts: list[Any], ruleset_name: str, repeat: int, *, empty_cache: bool = True
                ) -> tuple[float, Any]:
    """The best time of a count from an empty cache, or (`empty_cache=False`) of a count
    again; any checkout: only stable APIs."""
    from assistant.game import Game
    from assistant.rulesets import find_ruleset

    count = count_module("tally").count
    ruleset = find_ruleset(ruleset_name)
    game = Game.from_parts("bench", [[p] for p in PLAYERS], gms=[HOST])
    empty = getattr(count_module("votes"), "clear_extract_cache", lambda: None)
    if not empty_cache:
        count(posts, game, ruleset)
        empty = lambda: None  # noqa: E731
    return best_of(repeat, lambda: count(posts, game, ruleset), empty)


# ---- the BeautifulSoup baseline: an independent walk over a bs4 tree ---------------------------


def chunks_bs4(body_html: str) -> Any:
    from bs4 import BeautifulSoup

    from assistant.count.votes import Chunks

    soup = BeautifulSoup(body_html, "html.parser")
    out = Chunks()
    _walk_bs4(soup, out, None, None)
    return out


def _walk_bs4(node: Any, out: Any, hidden: Any, run: int | None) -> None:
    from bs4 import NavigableString

    from assistant.count.votes import _SKIP, element_scope, is_block, quote_author, quote_reason

    for child in node.children:
        if isinstance(child, NavigableString):
            if type(child) is NavigableString:  # not a comment / doctype
                out.emit(str(child), hidden, run)
            continue
        tag = child.name
        if tag == "br":
            out.emit("\n", hidden, run)
            continue
        if tag in _SKIP:
            continue
        attrs = {k: " ".join(v) if isinstance(v, list) else v for k, v in child.attrs.items()}
        block = is_block(tag, attrs)
        if block:
            out.emit("\n", hidden, run)
        if tag == "blockquote":
            cite = child.find("cite")
            href = author = None
            if cite is not None:
                link = cite.find("a")
                href = link.get("href") if link is not None else None
                author = quote_author(cite.get_text(), link.get_text() if link else None)
            _walk_bs4(child, out, hidden or quote_reason(attrs, href, author), None)
        else:
            _walk_bs4(child, out, *element_scope(out, tag, attrs, hidden, run))
        if block:
            out.emit("\n", hidden, run)


# ---- `assistant count` of a stored day, per ruleset --------------------------------------


def rulesets() -> list[str]:
    return sorted(path.stem for path in (ROOT / "rulesets").glob("*.toml"))


def stored_game(data_dir: Path, posts: list[Any], ruleset: str) -> datetime:
    """The day stored in game "bench" under `ruleset`, Day 1 running (3 days long) with
    the GM's players; returns the moment to count at (five minutes after the last post).
    Any checkout: only the store's long-standing API."""
    from assistant.models import to_iso
    from assistant.store import GameStore

    t0 = posts[0].posted_at - timedelta(minutes=1)
    store = GameStore.open(data_dir, "bench")
    with store.batch():
        store.update_config(thread_url="http://127.0.0.1:8033/viewtopic.php?t=2",
                            ruleset=ruleset, tz="UTC", gms=[HOST])
        store.add_input("players", {"players": [[p] for p in PLAYERS]}, t0)
        store.add_input("phase", {"kind": "day", "number": 1, "starts_at": to_iso(t0),
                                  "ends_at": to_iso(t0 + timedelta(days=3))}, t0)
        store.record_posts(posts, t0)
    store.close()
    return posts[-1].posted_at + timedelta(minutes=5)


#: How each count of `time_count_command` starts: "first" with nothing of the posts read
#: (no marks file beside the game: a game stored before the marks were kept, or the file
#: deleted; `fetch` and the daemon's reviews keep it), "count" as a GM's `count` in a new
#: process (the marks file as `fetch`, the daemon or the last count left it, nothing in
#: memory), "again" as the daemon's process (the marks judged in memory).
STARTS = ("first", "count", "again")


def time_count_command(posts: list[Any], ruleset: str, repeat: int) -> dict[str, Any]:
    """The best time of `gm.game_tally` (what `assistant count` computes), each from a
    store opened anew, for each of `STARTS`; with the count's digest."""
    import assistant
    from assistant.gm import game_tally
    from assistant.store import GameStore

    empty = getattr(count_module("votes"), "clear_extract_cache", lambda: None)
    with tempfile.TemporaryDirectory() as tmp:
        now = stored_game(Path(tmp), posts, ruleset)
        marks = GameStore.game_path(Path(tmp), "bench").with_suffix(".json.marks")
        best = dict.fromkeys(STARTS, float("inf"))
        cpu = float("inf")
        tally = None
        for _ in range(repeat):
            for start in STARTS:
                if start == "first":
                    marks.unlink(missing_ok=True)
                if start != "again":
                    empty()
                began, began_cpu = time.perf_counter(), time.process_time()
                with GameStore.open(Path(tmp), "bench", create=False) as store:
                    _, _, tally, _ = game_tally(store, now)
                best[start] = min(best[start], time.perf_counter() - began)
                if start == "count":
                    cpu = min(cpu, time.process_time() - began_cpu)
    return {"seconds": best["count"], "first": best["first"], "again": best["again"],
            "cpu": cpu,
            "digest": digest(tally), "deadline": str(tally.deadline),
            "lynched": tally.outcome.to_json().get("lynched"),
            "code": str(Path(assistant.__file__).parent.parent)}


def run_child(root: Path, posts_file: str, ruleset: str, repeat: int) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, __file__, "--child", posts_file, "--root", str(root),
         "--ruleset", ruleset, "--repeat", str(repeat)],
        capture_output=True, text=True, check=False,
    )
    if out.returncode != 0:
        sys.exit(f"`count` under {ruleset} with {root} failed:\n{out.stderr}")
    got = json.loads(out.stdout)
    if Path(got["code"]).resolve() != root.resolve():
        sys.exit(f"the child meant to run {root} ran the code of {got['code']}")
    return got


def per_ruleset(posts: list[Any], names: list[str], repeat: int, root: Path,
                against: Path | None, against_repeat: int) -> None:
    """`assistant count` under each ruleset, each checkout in a child process of its own,
    taking turns ruleset by ruleset (a busy machine slows both alike)."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump([p.to_dict() for p in posts], f)
    head = f"{'ruleset':16} {'first':>9} {'count':>9} {'(CPU)':>9} {'again':>9}"
    if against:
        head += f" {'before':>10} {'ratio':>7}  same count"
    print(f"`assistant count` of the stored {len(posts)}-post day (gm.game_tally, the store opened"
          " anew; first: no marks file beside the game and none in memory (a game stored"
          " before the marks were kept); count: a new process, the marks file `fetch`, the"
          " daemon or the last count left; again: the posts' marks judged in memory, as the"
          f" daemon; (CPU): the process's CPU time of `count`, what a busy machine's wait"
          f" for a core leaves out; best of {repeat}; load average {os.getloadavg()[0]:.1f}"
          f" on {os.cpu_count()} cores"
          + (f"; before: count (a new process) with {against}, best of {against_repeat};"
             " ratio: before / count" if against else "")
          + "):")
    print(head + "   deadline, lynched")
    try:
        for name in names:
            mine = run_child(root, f.name, name, repeat)
            line = (f"{name:16} {mine.get('first', mine['seconds']) * 1000:6.0f} ms"
                    f" {mine['seconds'] * 1000:6.0f} ms {mine.get('cpu', 0) * 1000:6.0f} ms"
                    f" {mine['again'] * 1000:6.0f} ms")
            if against:
                other = run_child(against, f.name, name, against_repeat)
                same = other["digest"] == mine["digest"] and other["deadline"] == mine["deadline"]
                ratio = other["seconds"] / mine["seconds"]
                line += (f" {other['seconds'] * 1000:7.0f} ms {ratio:6.1f}x"
                         f"  {'yes' if same else 'NO'}")
                if not same:
                    print(line)
                    sys.exit(f"{against} counts this day differently under {name}: the "
                             "comparison is void")
            print(f"{line}   {mine['deadline']}, {mine['lynched']}", flush=True)
        print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    finally:
        os.unlink(f.name)


def child(posts_file: str, ruleset: str, repeat: int) -> None:
    from assistant.models import Post

    posts = [Post.from_dict(d) for d in json.loads(Path(posts_file).read_text("utf-8"))]
    print(json.dumps(time_count_command(posts, ruleset, repeat)))


def recount_child(ruleset: str, posts_n: int, polls: int, whole: bool = False
                  ) -> dict[str, Any]:
    """In a process set up as the daemon's: the CPU of each view's counts after five new
    posts, `polls` times (see the module's 5.); `whole`: without keeping counts and reads
    between views (each count made whole: the baseline of the same code)."""
    import statistics

    import assistant
    import assistant.monitor as monitor
    from assistant.game_file import collect_as_usual
    from assistant.store import GameStore

    for setup in ("assistant.post_log:share_reads", "assistant.count.resume:keep_counts"):
        module, name = setup.split(":")
        try:
            if not whole:
                getattr(importlib.import_module(module), name)()  # (a checkout that has it)
        except (ImportError, AttributeError):
            pass
    collect_as_usual()
    posts = synthetic_day(posts_n + 5 * polls)
    real, spent = monitor.count, []

    def timed(*a: Any, **k: Any) -> Any:
        began = time.process_time()
        try:
            return real(*a, **k)
        finally:
            spent.append(time.process_time() - began)

    monitor.count = timed
    counts, views, digests = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        now = stored_game(Path(tmp), posts[:posts_n], ruleset)
        for k in range(polls + 1):
            if k:
                new = posts[posts_n + 5 * (k - 1): posts_n + 5 * k]
                with GameStore.open(Path(tmp), "bench", create=False) as store:
                    store.record_posts(new, new[-1].posted_at)
                now = new[-1].posted_at + timedelta(seconds=5)
            spent.clear()
            began = time.process_time()
            with GameStore.open(Path(tmp), "bench", create=False) as store:
                view = monitor.load_view(store, now)
            if k:  # (the first view reads the whole day: not a recount)
                views.append(time.process_time() - began)
                counts.append(sum(spent))
            digests.append(digest(view.tally))
    return {"count": statistics.median(counts), "view": statistics.median(views),
            "digests": digests, "code": str(Path(assistant.__file__).parent.parent)}


def recount(args: argparse.Namespace) -> None:
    checkouts = {"this checkout": (args.root.resolve(), False),
                 "counted whole": (args.root.resolve(), True)}
    if args.against:
        checkouts["before"] = (args.against.resolve(), False)
    got = {}
    for name, (root, whole) in checkouts.items():
        out = subprocess.run(
            [sys.executable, __file__, "--recount-child", "--root", str(root), "--ruleset",
             args.ruleset, "--posts", str(args.posts), "--polls", str(args.polls),
             *(["--whole"] if whole else [])],
            capture_output=True, text=True, check=False)
        if out.returncode != 0:
            sys.exit(f"the recount with {root} failed:\n{out.stderr}")
        got[name] = json.loads(out.stdout)
        if Path(got[name]["code"]).resolve() != root:
            sys.exit(f"the child meant to run {root} ran the code of {got[name]['code']}")
    if got["counted whole"]["digests"] != got["this checkout"]["digests"]:
        sys.exit("the counts carried on differ from the counts made whole: a bug")
    same = not args.against or got["before"]["digests"] == got["this checkout"]["digests"]
    print(f"the daemon's recount after a poll that brought 5 posts to a {args.posts}-post "
          f"{args.ruleset} day (the median of {args.polls} polls; CPU; counted whole: this "
          f"checkout without its counts kept; load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores):")
    for name, r in got.items():
        print(f"  {name:14} count(s) {r['count'] * 1000:7.1f} ms   whole view "
              f"{r['view'] * 1000:7.1f} ms")
    a = got["this checkout"]
    for name in [n for n in got if n != "this checkout"]:
        b = got[name]
        note = "same counts" if name == "counted whole" or same else (
            "NOT the same counts: that checkout counts otherwise (other changes)")
        print(f"  ratio {name} / this checkout: count {b['count'] / a['count']:.1f}x, view "
              f"{b['view'] / a['view']:.1f}x ({note})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--posts", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--ruleset", default="permissive",
                    help="the ruleset of the first count and the extraction comparison")
    ap.add_argument("--only", nargs="+", metavar="RULESET",
                    help="time `count` under these rulesets only (default: every one)")
    ap.add_argument("--against", type=Path, help="another checkout to time `count` with")
    ap.add_argument("--against-repeat", type=int, default=1,
                    help="best of how many for the other checkout (a slow one takes long)")
    ap.add_argument("--recount", action="store_true",
                    help="only the daemon's recount after a poll of 5 posts (see 5. above)")
    ap.add_argument("--polls", type=int, default=9, help="with --recount: polls measured")
    ap.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--recount-child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--whole", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    sys.path.insert(0, str(args.root.resolve()))
    if args.child:
        child(args.child, args.ruleset, args.repeat)
        return
    if args.recount_child:
        print(json.dumps(recount_child(args.ruleset, args.posts, args.polls, args.whole)))
        return
    if args.recount:
        recount(args)
        return

    from assistant.count.tally import count
    from assistant.count.votes import VoteRules, chunks_lexbor, clear_extract_cache, extract_votes
    from assistant.game import Game
    from assistant.rulesets import find_ruleset

    posts = synthetic_day(args.posts)
    names = args.only or rulesets()
    per_ruleset(posts, names, args.repeat, args.root, args.against, args.against_repeat)

    ruleset = find_ruleset(args.ruleset)
    rules = VoteRules.from_ruleset(ruleset)
    game = Game.from_parts("bench", [[p] for p in PLAYERS], gms=[HOST])

    def extract(chunker: Callable[[str], Any]) -> list[tuple[Any, ...]]:
        return [(m.post_id, m.action, m.target_text, m.reason, m.code)
                for p in posts for m in extract_votes(p, rules, gms=game.gms, chunker=chunker)]

    t_first, tally = first_count(posts, args.ruleset, args.repeat)
    t_again, again = best_of(args.repeat, lambda: count(posts, game, ruleset))
    if digest(again) != digest(tally):
        sys.exit("the second count differs from the first: the cache is wrong")
    t_lex, marks_lex = best_of(args.repeat, lambda: extract(chunks_lexbor), clear_extract_cache)
    t_bs4, marks_bs4 = best_of(args.repeat, lambda: extract(chunks_bs4), clear_extract_cache)
    if marks_lex != marks_bs4:
        sys.exit("the BeautifulSoup baseline found different marks: the comparison is void")

    n = len(posts)
    print(f"\nsynthetic day: {n} posts from {len(fixture_posts())} fixture posts, ruleset "
          f"{args.ruleset}: {len(marks_lex)} vote-like marks, {len(tally.votes)} votes judged")
    print(f"first count (tally.count):          {t_first * 1000:8.1f} ms  "
          f"{n / t_first:10.0f} posts/s")
    print(f"count again (posts already read):   {t_again * 1000:8.1f} ms  "
          f"{n / t_again:10.0f} posts/s")
    print(f"extraction, selectolax (lexbor):    {t_lex * 1000:8.1f} ms  {n / t_lex:10.0f} posts/s")
    print(f"extraction, BeautifulSoup:          {t_bs4 * 1000:8.1f} ms  {n / t_bs4:10.0f} posts/s")
    print(f"ratio BeautifulSoup / selectolax extraction: {t_bs4 / t_lex:.1f}x")
    print(f"ratio first count / count again: {t_first / t_again:.1f}x")


if __name__ == "__main__":
    main()
