"""Parsing speed: the assistant's parsers against a plain BeautifulSoup parser.

Parses the real topic pages many times and prints posts per second for both, measured
in the same run, and their ratio. The baseline is a straightforward BeautifulSoup
(`html.parser`) extraction of the same fields (id, author and member id, time, body
HTML, edit notice, quotes with their cited post) written for the SMF 2.1 and phpBB 3.3
pages of `realforum/`; the wild pages (other versions and themes) are timed for the
assistant only, since the baseline does not read them.

    python benchmarks/parse.py [--rounds 20]
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from bs4 import BeautifulSoup

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from assistant.scrapers import parse_topic_page  # noqa: E402
from assistant.scrapers.common import decode_html  # noqa: E402

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


def assistant_parse(folder: str, data: bytes) -> int:
    """As the poller reads a thread's pages after its first: the forum software known."""
    software = "smf" if folder.startswith("smf") else "phpbb"
    return len(parse_topic_page(data, url_for(folder), tz=UTC_ZONE, now=NOW,
                                software=software).posts)


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
    html = decode_html(data)
    return len(bs4_smf21(html) if folder == "smf21" else bs4_phpbb33(html))


def timed(fn, pages, rounds: int) -> tuple[int, float]:
    posts = 0
    start = time.perf_counter()
    for _ in range(rounds):
        for folder, data in pages:
            posts += fn(folder, data)
    return posts, time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=20)
    args = ap.parse_args()
    pages = realforum_pages()
    for folder, data in pages:  # same pages, same posts: otherwise the race is unfair
        ours = parse_topic_page(data, url_for(folder), tz=UTC_ZONE, now=NOW).posts
        html = decode_html(data)
        theirs = bs4_smf21(html) if folder == "smf21" else bs4_phpbb33(html)
        if [(p.post_id, p.author, p.author_id) for p in ours] != [
            (p["id"], p["author"], p["author_id"]) for p in theirs
        ]:
            raise SystemExit(f"the two parsers disagree on a {folder} page")
    # Interleave the two so machine noise hits both alike.
    totals = {"assistant": [0, 0.0], "bs4": [0, 0.0]}
    for _ in range(args.rounds):
        for name, fn in (("assistant", assistant_parse), ("bs4", bs4_parse)):
            n, secs = timed(fn, pages, 1)
            totals[name][0] += n
            totals[name][1] += secs
    rate = {k: n / secs for k, (n, secs) in totals.items()}
    wild = [("wild", d) for d in wild_pages()]
    wn, ws = timed(lambda _f, d: len(parse_topic_page(
        d, "http://forum.test/index.php?topic=1.0", tz=UTC_ZONE, now=NOW).posts), wild, args.rounds)
    print(f"{len(pages)} realforum topic pages, {totals['assistant'][0] // args.rounds} posts, "
          f"{args.rounds} rounds")
    print(f"  assistant (selectolax/lexbor): {rate['assistant']:10.0f} posts/s")
    print(f"  BeautifulSoup (html.parser):   {rate['bs4']:10.0f} posts/s")
    print(f"  ratio assistant / bs4:         {rate['assistant'] / rate['bs4']:10.1f}x")
    print(f"{len(wild)} wild pages (SMF 2.0, phpBB 3.0-3.2, other themes), {wn // args.rounds} "
          f"posts: assistant {wn / ws:.0f} posts/s")


if __name__ == "__main__":
    main()
