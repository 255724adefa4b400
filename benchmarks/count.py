"""How fast a day is counted: a synthetic 10,000-post day built from the real fixture posts.

Measured in the same run, on the same posts (each a post of its own: no two share an id):

1. a first count (`tally.count` with the extraction cache emptied): every post read;
2. the same count again, as every daemon poll, replay and check does: only new or
   edited posts are read, the others' judged marks are kept;
3. vote extraction alone with selectolax (what the assistant uses) and with BeautifulSoup
   (the baseline: an independent walk over a bs4 tree, checked to find the very same
   marks), both from an empty cache and through the same pre-filter;
4. with `--against CHECKOUT`: the first count with another checkout's code (e.g. a `git
   worktree` of the last commit) in a child process, on the same posts, checked to give
   the very same tally.

Ratios, not bare times, are what to compare across machines.

    .venv/bin/python benchmarks/count.py [--posts 10000] [--repeat 5] [--ruleset permissive]
                                         [--against /tmp/base [--rounds 3]]
"""

from __future__ import annotations

import argparse
import hashlib
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


def first_count(posts: list[Any], ruleset_name: str, repeat: int, *, empty_cache: bool = True
                ) -> tuple[float, Any]:
    """The best time of a count from an empty cache, or (`empty_cache=False`) of a count
    again; any checkout: only stable APIs."""
    import assistant.votes
    from assistant.game import Game
    from assistant.rulesets import find_ruleset
    from assistant.tally import count

    ruleset = find_ruleset(ruleset_name)
    game = Game.from_parts("bench", [[p] for p in PLAYERS], gms=[HOST])
    empty = getattr(assistant.votes, "clear_extract_cache", lambda: None)
    if not empty_cache:
        count(posts, game, ruleset)
        empty = lambda: None  # noqa: E731
    return best_of(repeat, lambda: count(posts, game, ruleset), empty)


# ---- the BeautifulSoup baseline: an independent walk over a bs4 tree ---------------------------


def chunks_bs4(body_html: str) -> Any:
    from bs4 import BeautifulSoup

    from assistant.votes import Chunks

    soup = BeautifulSoup(body_html, "html.parser")
    out = Chunks()
    _walk_bs4(soup, out, None, None)
    return out


def _walk_bs4(node: Any, out: Any, hidden: Any, run: int | None) -> None:
    from bs4 import NavigableString

    from assistant.votes import _BLOCK, _SKIP, element_scope, quote_author, quote_reason

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
        if tag in _BLOCK:
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
        if tag in _BLOCK:
            out.emit("\n", hidden, run)


# ---- running ------------------------------------------------------------------------------


def against(checkouts: list[Path], posts: list[Any], ruleset: str, repeat: int, rounds: int
            ) -> list[dict[str, Any]]:
    """`first_count` with each checkout's code, each in child processes taking turns (so
    that a busy machine slows both alike), on these very posts; the best of each."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump([p.to_dict() for p in posts], f)
    best: list[dict[str, Any]] = [{} for _ in checkouts]
    try:
        for _ in range(rounds):
            for i, checkout in enumerate(checkouts):
                out = subprocess.run(
                    [sys.executable, __file__, "--child", f.name, "--root", str(checkout),
                     "--ruleset", ruleset, "--repeat", str(repeat)],
                    capture_output=True, text=True, check=False,
                )
                if out.returncode != 0:
                    sys.exit(f"the count with {checkout} failed:\n{out.stderr}")
                got = json.loads(out.stdout)
                best[i] = {key: min(value, best[i].get(key, value)) if key != "digest" else value
                           for key, value in got.items()}
    finally:
        os.unlink(f.name)
    return best


def child(posts_file: str, ruleset: str, repeat: int) -> None:
    from assistant.models import Post

    posts = [Post.from_dict(d) for d in json.loads(Path(posts_file).read_text("utf-8"))]
    seconds, tally = first_count(posts, ruleset, repeat)
    again, _ = first_count(posts, ruleset, repeat, empty_cache=False)
    print(json.dumps({"seconds": seconds, "again": again, "digest": digest(tally)}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--posts", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--ruleset", default="permissive")
    ap.add_argument("--against", type=Path, help="another checkout to time the first count of")
    ap.add_argument("--rounds", type=int, default=3, help="turns each checkout takes")
    ap.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    sys.path.insert(0, str(args.root.resolve()))
    if args.child:
        child(args.child, args.ruleset, args.repeat)
        return

    from assistant.game import Game
    from assistant.rulesets import find_ruleset
    from assistant.tally import count
    from assistant.votes import VoteRules, chunks_lexbor, clear_extract_cache, extract_votes

    posts = synthetic_day(args.posts)
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
    print(f"synthetic day: {n} posts from {len(fixture_posts())} fixture posts, ruleset "
          f"{args.ruleset}: {len(marks_lex)} vote-like marks, {len(tally.votes)} votes judged")
    print(f"first count (tally.count):          {t_first * 1000:8.1f} ms  "
          f"{n / t_first:10.0f} posts/s")
    print(f"count again (posts already read):   {t_again * 1000:8.1f} ms  "
          f"{n / t_again:10.0f} posts/s")
    print(f"extraction, selectolax (lexbor):    {t_lex * 1000:8.1f} ms  {n / t_lex:10.0f} posts/s")
    print(f"extraction, BeautifulSoup:          {t_bs4 * 1000:8.1f} ms  {n / t_bs4:10.0f} posts/s")
    print(f"ratio BeautifulSoup / selectolax extraction: {t_bs4 / t_lex:.1f}x")
    print(f"ratio first count / count again: {t_first / t_again:.1f}x")
    if args.against:
        mine, other = against([args.root, args.against], posts, args.ruleset, args.repeat,
                              args.rounds)
        if other["digest"] != mine["digest"] or mine["digest"] != digest(tally):
            sys.exit(f"{args.against} counts this day differently: the comparison is void")
        print(f"first count, child processes taking turns ({args.rounds} rounds; same tally, "
              "every vote and reason):")
        for name, r in ((args.root, mine), (args.against, other)):
            print(f"  {str(name):20} first count {r['seconds'] * 1000:8.1f} ms, "
                  f"count again {r['again'] * 1000:8.1f} ms")
        print(f"ratio {args.against} / this checkout: first count "
              f"{other['seconds'] / mine['seconds']:.2f}x, count again "
              f"{other['again'] / mine['again']:.1f}x")

if __name__ == "__main__":
    main()
