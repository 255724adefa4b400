"""Parsing speed: the assistant's parsers against a plain BeautifulSoup parser.

Parses the real topic pages many times and prints posts per second for both, measured
in the same run, and their ratio. The baseline is a straightforward BeautifulSoup
(`html.parser`) extraction of the same fields (id, author and member id, time, body
HTML, edit notice, quotes with their cited post) written for the SMF 2.1 and phpBB 3.3
pages of `realforum/`; the wild pages (other versions and themes) are timed for the
assistant only, since the baseline does not read them.

The assistant parses in a child process of its own (the code of this checkout), and with
`--against CHECKOUT` (e.g. a `git worktree` of the commit before a change) another child
parses with that checkout's code, checked to read every page the same (every field of
every post); the children and BeautifulSoup take turns round by round, in an order that
turns each round, so a busy machine slows all of them alike. Printed: the median over the
rounds of each one's posts per second, and of the ratios within a round. Each page is
parsed as a poll reads it: the forum software known, and no date remembered from an
earlier round.

    python benchmarks/parse.py [--rounds 20] [--against /tmp/base]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from bs4 import BeautifulSoup

ROOT = Path(__file__).resolve().parent.parent

SHARED = Path(os.environ.get("ASSISTANT_SHARED", ROOT.parent / "shared")).resolve()
REALFORUM = SHARED / "fixtures" / "realforum"
WILD = SHARED / "fixtures" / "wild"
NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)
UTC_ZONE = ZoneInfo("UTC")
_MSG = re.compile(r"msg=?(\d+)")
_USER = re.compile(r"[?;&]u=(\d+)")
_P = re.compile(r"[?&]p=(\d+)")


def realforum_pages() -> list[tuple[str, bytes]]:
    pages = []
    for folder in ("smf21", "phpbb33"):
        for path in sorted((REALFORUM / folder).glob("*topic*.html")):
            pages.append((folder, path.read_bytes()))
    for path in sorted((REALFORUM / "live").glob("*.html")):
        pages.append(("smf21" if path.name.startswith("smf") else "phpbb33", path.read_bytes()))
    return pages


def wild_pages() -> list[bytes]:
    return [p.read_bytes() for p in sorted(WILD.glob("*.html"))]


def url_for(folder: str) -> str:
    if folder.startswith("smf"):
        return "http://127.0.0.1:8021/index.php?topic=2.0"
    return "http://127.0.0.1:8033/viewtopic.php?t=2"


def load(root: Path) -> Any:
    """The scrapers package of the checkout at `root` (put first on the import path)."""
    sys.path.insert(0, str(root))
    import assistant.scrapers as scrapers
    import assistant.scrapers.dates  # noqa: F401  (the attribute below)

    if Path(scrapers.__file__).resolve().parent.parent.parent != root.resolve():
        sys.exit(f"meant to time the code of {root}, imported {scrapers.__file__}")
    return scrapers


def assistant_parser(scrapers: Any) -> Callable[[str, bytes], Any]:
    """As the poller reads a thread's pages after its first: the forum software known.
    Every page is parsed as if read for the first time: dates read from the same page in
    an earlier round are forgotten (a poll reads each page at a new clock)."""
    forget = getattr(scrapers.dates, "clear_cache", lambda: None)  # (older checkouts: none)

    def parse(folder: str, data: bytes) -> Any:
        forget()
        software = "smf" if folder.startswith("smf") else "phpbb"
        return scrapers.parse_topic_page(data, url_for(folder), tz=UTC_ZONE, now=NOW,
                                         software=software)
    return parse


def bs4_smf21(html: str) -> list[dict]:
    soup = BeautifulSoup(html, "html.parser")
    out = []
    for post in soup.select("div.windowbg[id^=msg]"):
        pid = int(post["id"][3:])
        author = post.select_one(".poster h4 a")
        when = post.select_one(".postinfo a.smalltext")
        body = post.select_one("div.inner[data-msgid]")
        edit = post.select_one(f"#modified_{pid}")
        quotes = []
        for q in body.select("blockquote") if body else ():
            cite = q.find("cite")
            link = cite.find("a") if cite else None
            m = _MSG.search(link["href"]) if link and link.has_attr("href") else None
            quotes.append((cite.get_text(" ", strip=True) if cite else None,
                           int(m.group(1)) if m else None))
        m = _USER.search(author["href"]) if author and author.has_attr("href") else None
        out.append({
            "id": pid, "author": author.get_text(strip=True) if author else None,
            "author_id": int(m.group(1)) if m else None,
            "time": when.get_text(" ", strip=True) if when else None,
            "body": body.decode_contents() if body else "",
            "edit": edit.get_text(" ", strip=True) if edit else None, "quotes": quotes,
        })
    return out


def bs4_phpbb33(html: str) -> list[dict]:
    soup = BeautifulSoup(html, "html.parser")
    out = []
    for post in soup.select("div.post[id^=p]"):
        author = post.select_one("p.author a.username, p.author a.username-coloured, "
                                 "dl.postprofile a.username, dl.postprofile a.username-coloured")
        when = post.select_one("p.author time[datetime]")
        body = post.select_one("div.content")
        edit = post.select_one("div.notice")
        quotes = []
        for q in body.select("blockquote") if body else ():
            cite = q.find("cite")
            m = _P.search(q.get("cite", "")) if q.has_attr("cite") else None
            quotes.append((cite.get_text(" ", strip=True) if cite else None,
                           int(m.group(1)) if m else None))
        m = _USER.search(author["href"]) if author and author.has_attr("href") else None
        out.append({
            "id": int(post["id"][1:]), "author": author.get_text(strip=True) if author else None,
            "author_id": int(m.group(1)) if m else None,
            "time": datetime.fromisoformat(when["datetime"]) if when else None,
            "body": body.decode_contents() if body else "",
            "edit": edit.get_text(" ", strip=True) if edit else None, "quotes": quotes,
        })
    return out


def bs4_parse(folder: str, data: bytes) -> int:
    return len(bs4_smf21(decode(data)) if folder == "smf21" else bs4_phpbb33(decode(data)))


def decode(data: bytes) -> str:
    """The page's text as the assistant decodes it, for the baseline (no time counted
    against the assistant that it does not spend)."""
    from assistant.scrapers.common import decode_html  # (this checkout's: the same everywhere)

    return decode_html(data)


def timed(fn: Callable[[str, bytes], int], pages: list[tuple[str, bytes]]) -> tuple[int, float]:
    posts = 0
    start = time.perf_counter()
    for folder, data in pages:
        posts += fn(folder, data)
    return posts, time.perf_counter() - start


def child(root: Path) -> None:
    """Parse on request, one line per request on stdin, one JSON answer per line."""
    scrapers = load(root)
    parse = assistant_parser(scrapers)
    pages, wild = realforum_pages(), [("wild", d) for d in wild_pages()]
    count = lambda folder, data: len(parse(folder, data).posts)  # noqa: E731
    read_wild = lambda _folder, data: scrapers.parse_topic_page(  # noqa: E731
        data, "http://forum.test/index.php?topic=1.0", tz=UTC_ZONE, now=NOW)
    timed(count, pages)  # warm: imports, compiled regexes
    for line in sys.stdin:
        request = line.strip()
        if request == "round":
            answer: Any = timed(count, pages)
        elif request == "wild":
            answer = timed(lambda f, d: len(read_wild(f, d).posts), wild)
        elif request == "ids":  # what the baseline must find too
            answer = [[(p.post_id, p.author, p.author_id) for p in parse(f, d).posts]
                      for f, d in pages]
        else:  # "digest": every field of every post of every page, to compare checkouts
            read = [parse(f, d) for f, d in pages] + [read_wild(f, d) for f, d in wild]
            answer = hashlib.sha256(repr(read).encode()).hexdigest()
        print(json.dumps(answer), flush=True)


class Child:
    """A child process parsing with the code of one checkout."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--child", str(root)], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, text=True)

    def ask(self, request: str) -> Any:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(request + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            sys.exit(f"the child parsing with {self.root} stopped")
        return json.loads(line)

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--against", type=Path, help="another checkout to time the parser of")
    ap.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child)
        return
    sys.path.insert(0, str(ROOT))
    pages = realforum_pages()
    children = {"assistant": Child(ROOT)}
    if args.against:
        children["before"] = Child(args.against.resolve())
    try:
        report(pages, children, args.rounds, args.against)
    finally:
        for c in children.values():
            c.close()


def report(pages: list[tuple[str, bytes]], children: dict[str, Child], rounds: int,
           against: Path | None) -> None:
    ours = children["assistant"].ask("ids")
    for (folder, data), found in zip(pages, ours, strict=True):  # same posts: a fair race
        html = decode(data)
        theirs = bs4_smf21(html) if folder == "smf21" else bs4_phpbb33(html)
        if [tuple(p) for p in found] != [(p["id"], p["author"], p["author_id"]) for p in theirs]:
            sys.exit(f"the assistant and the baseline disagree on a {folder} page")
    if against and children["before"].ask("digest") != children["assistant"].ask("digest"):
        sys.exit(f"{against} parses the pages differently: the comparison is void")
    # Take turns so machine noise hits all alike, in an order that turns each round: the
    # one that runs right after BeautifulSoup finds the caches cold (the same code ran 5 %
    # slower there than after the other child), so none may always be that one. Medians
    # over the rounds, so one round slowed by another process does not move the figures.
    rates: dict[str, list[float]] = {name: [] for name in [*children, "bs4"]}
    names = list(rates)
    posts = 0
    for round_ in range(rounds):
        turn = round_ % len(names)
        for name in names[turn:] + names[:turn]:
            posts, secs = timed(bs4_parse, pages) if name == "bs4" else children[name].ask("round")
            rates[name].append(posts / secs)
    rate = {name: statistics.median(values) for name, values in rates.items()}
    ratio = {name: statistics.median(r / b for r, b in zip(values, rates["bs4"], strict=True))
             for name, values in rates.items()}
    print(f"{len(pages)} realforum topic pages, {posts} posts, {rounds} rounds (medians)")
    print(f"  assistant (selectolax/lexbor): {rate['assistant']:10.0f} posts/s")
    if against:
        print(f"  before ({against}): {rate['before']:10.0f} posts/s")
    print(f"  BeautifulSoup (html.parser):   {rate['bs4']:10.0f} posts/s")
    print(f"  ratio assistant / bs4:         {ratio['assistant']:10.1f}x")
    if against:
        print(f"  ratio before / bs4:            {ratio['before']:10.1f}x")
        before = statistics.median(a / b for a, b in zip(rates["assistant"], rates["before"],
                                                         strict=True))
        print(f"  ratio assistant / before:      {before:10.2f}x")
    for name, c in children.items():
        wn, ws = 0, 0.0
        for _ in range(rounds):
            n, secs = c.ask("wild")
            wn, ws = wn + n, ws + secs
        print(f"{len(wild_pages())} wild pages (SMF 2.0, phpBB 3.0-3.2, other themes), "
              f"{wn // rounds} posts: {name} {wn / ws:.0f} posts/s")


if __name__ == "__main__":
    main()
