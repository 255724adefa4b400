"""How fast a day is counted: a synthetic 10,000-post day built from the real fixture posts.

Prints posts per second for (1) a full recount from scratch (`tally.count`: extraction, name
matching, rules, outcome) and (2) vote extraction alone, with selectolax (what the assistant
uses) and with BeautifulSoup (the baseline, measured in the same run on the same posts and
checked to find the very same marks). Ratios, not bare times, are what to compare across
machines.

    .venv/bin/python benchmarks/count.py [--posts 10000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bs4 import BeautifulSoup, NavigableString, Tag

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.game import Game  # noqa: E402
from assistant.models import Post  # noqa: E402
from assistant.rulesets import find_ruleset  # noqa: E402
from assistant.scrapers import parse_topic_page  # noqa: E402
from assistant.tally import count  # noqa: E402
from assistant.votes import (  # noqa: E402
    _BLOCK,
    _QUOTE_FROM,
    _SKIP,
    Chunks,
    VoteRules,
    _merge_run,
    chunks_lexbor,
    element_hiding,
    element_style,
    extract_votes,
    quote_reason,
)

SHARED = ROOT.parent / "shared" / "fixtures" / "realforum"
PLAYERS = ["Mr. Pickles", "xX_Slayer_Xx", "Jd-", "Conia", "Lady Grey", "Tom & Jerry's",
           "ÆtherWolf", "bob the builder", "Kat"]
NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


def fixture_posts() -> list[Post]:
    posts = []
    for forum, url in (("smf21", "http://127.0.0.1:8021/index.php?topic=2.{}"),
                       ("phpbb33", "http://127.0.0.1:8033/viewtopic.php?t=2&start={}")):
        for page in range(1, 6):
            html = (SHARED / forum / f"{forum}_topic_p{page}.html").read_bytes()
            posts.extend(parse_topic_page(html, url.format(15 * (page - 1)), tz=UTC, now=NOW).posts)
    return posts


def synthetic_day(n: int) -> list[Post]:
    """`n` posts cycling through the fixture bodies, authors rotating over the players."""
    source = fixture_posts()
    t0 = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)
    out = []
    for i in range(n):
        p = source[i % len(source)]
        author = p.author if p.author == "Host Mira" else PLAYERS[i % len(PLAYERS)]
        out.append(replace(p, post_id=1000 + i, position=i, author=author,
                           posted_at=t0 + timedelta(seconds=10 * i)))
    return out


# ---- the BeautifulSoup baseline: the same walk over a bs4 tree --------------------------------


def chunks_bs4(body_html: str) -> Chunks:
    soup = BeautifulSoup(body_html, "html.parser")
    out = Chunks()
    _walk_bs4(soup, out, None, None)
    return out


def _walk_bs4(node: Tag, out: Chunks, hidden: str | None, run: int | None) -> None:
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
        block = tag in _BLOCK
        if block:
            out.emit("\n", hidden, run)
        if tag == "blockquote":
            cite = child.find("cite")
            href = author = None
            if cite is not None:
                link = cite.find("a")
                href = link.get("href") if link is not None else None
                ctext = cite.get_text()
                m = _QUOTE_FROM.search(ctext)
                if m:
                    author = m.group(1)
                elif link is not None and "wrote" in ctext:
                    author = link.get_text().strip() or None
            _walk_bs4(child, out, hidden or quote_reason(attrs, href, author), None)
        else:
            why = element_hiding(tag, attrs)
            child_run = run
            if why is None:
                bold, color, is_tag = element_style(tag, attrs)
                if bold or color or is_tag:
                    child_run = _merge_run(out, run, bold, color, is_tag)
            _walk_bs4(child, out, hidden or why, None if why else child_run)
        if block:
            out.emit("\n", hidden, run)


def best_of(repeat: int, func) -> tuple[float, object]:  # noqa: ANN001
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = func()
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--posts", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    posts = synthetic_day(args.posts)
    ruleset = find_ruleset("permissive")
    rules = VoteRules.from_ruleset(ruleset)
    game = Game.from_parts("bench", [[p] for p in PLAYERS], gms=["Host Mira"])

    def extract(chunker):  # noqa: ANN001, ANN202
        return [(m.post_id, m.action, m.target_text, m.reason)
                for p in posts for m in extract_votes(p, rules, gms=game.gms, chunker=chunker)]

    t_count, tally = best_of(args.repeat, lambda: count(posts, game, ruleset))
    t_lex, marks_lex = best_of(args.repeat, lambda: extract(chunks_lexbor))
    t_bs4, marks_bs4 = best_of(args.repeat, lambda: extract(chunks_bs4))
    if marks_lex != marks_bs4:
        sys.exit("the BeautifulSoup baseline found different marks: the comparison is void")

    n = len(posts)
    print(f"synthetic day: {n} posts from {len(fixture_posts())} fixture posts, "
          f"{len(marks_lex)} vote-like marks, {len(tally.votes)} votes judged")
    print(f"full recount (tally.count):        {t_count * 1000:8.1f} ms  "
          f"{n / t_count:10.0f} posts/s")
    print(f"extraction, selectolax (lexbor):   {t_lex * 1000:8.1f} ms  {n / t_lex:10.0f} posts/s")
    print(f"extraction, BeautifulSoup:         {t_bs4 * 1000:8.1f} ms  {n / t_bs4:10.0f} posts/s")
    print(f"ratio BeautifulSoup / selectolax extraction: {t_bs4 / t_lex:.1f}x")
    print(f"ratio BeautifulSoup extraction / full recount: {t_bs4 / t_count:.1f}x")


if __name__ == "__main__":
    main()
