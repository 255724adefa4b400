"""A long SMF 2.1 thread made of the real fixture pages' posts, any number of posts long.

Page `n` of an `N`-post thread is page 2 of `../shared/fixtures/realforum/smf21` (its head,
its foot, its page links rewritten to the pages around `n` and the last) holding 15 of the
thread's 66 real post blocks in turn, each given the id and reply number of its place in
the long thread. So every page is one a real SMF 2.1 renders, and a first `fetch` of it
reads as many pages and posts as a thread of that length has. Used by benchmarks/
backfill.py (served on 127.0.0.1) and by tests that need a long thread.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("ASSISTANT_SHARED", ROOT.parent / "shared")).resolve()
SMF21 = SHARED / "fixtures" / "realforum" / "smf21"
SAVED_FROM = "http://127.0.0.1:8021"
PER_PAGE = 15
FIRST_ID = 1000
FIRST_AT = datetime(2026, 10, 1, 9, 0, tzinfo=UTC)
"""When the first post was made; post i a minute after post i-1."""
_BLOCK = re.compile(r'<div class="windowbg" id="msg(\d+)">.*?<hr class="post_separator">',
                    re.S)
_BODY = 'id="msg_\x00ID\x00">'
"""Where a post block's body begins (its first words)."""
_PAGELINKS = re.compile(r'(<div class="pagelinks[^"]*">).*?(</div>)', re.S)


@dataclass
class LongThread:
    """An SMF thread of `posts` posts at `base_url` (topic 2), the first made at `first_at`."""

    posts: int
    base_url: str = SAVED_FROM
    first_at: datetime = FIRST_AT
    first_id: int = FIRST_ID
    """The first post's id: the games of one forum number their posts apart."""
    salt: str = ""
    """Words each post's body starts with, then its number ("g007 #12: "): the posts of
    many threads made of the same 66 real posts are then each a post of its own, as on a
    real forum; without it every cache keyed by a post's id and body is shared by all."""

    def __post_init__(self) -> None:
        self._head, self._foot, self._blocks = _parts()

    @property
    def pages(self) -> int:
        return max(1, -(-self.posts // PER_PAGE))

    def url(self, page: int = 1) -> str:
        return f"{self.base_url}/index.php?topic=2.{(page - 1) * PER_PAGE}"

    def page(self, n: int) -> bytes:
        """Page `n` (1-based; past the end: the last page, as SMF answers)."""
        n = min(max(n, 1), self.pages)
        first = (n - 1) * PER_PAGE
        posts = []
        for i in range(first, min(first + PER_PAGE, self.posts)):
            template = self._blocks[i % len(self._blocks)]
            at = self.first_at + timedelta(minutes=i)
            if self.salt:
                template = template.replace(_BODY, f"{_BODY}{self.salt} #{i}: ", 1)
            posts.append(template.replace("\x00ID\x00", str(self.first_id + i))
                         .replace("\x00NO\x00", str(i))
                         .replace("\x00AT\x00", _smf_time(at))
                         .replace("\x00EDIT\x00", _smf_time(at + timedelta(minutes=2))))
        links = self._links(n)
        head = _PAGELINKS.sub(lambda m: m[1] + links + m[2], self._head, count=1)
        foot = _PAGELINKS.sub(lambda m: m[1] + links + m[2], self._foot, count=1)
        head = head.replace("topic=2.15", f"topic=2.{first}")
        html = head + "\n".join(posts) + foot
        return html.replace(SAVED_FROM, self.base_url).encode("utf-8")

    def _links(self, n: int) -> str:
        """SMF's page links: the first, the pages around `n`, the last."""
        near = {1, n - 2, n - 1, n, n + 1, n + 2, self.pages}
        shown = sorted(p for p in near if 1 <= p <= self.pages)
        out = ['<span class="pages">Pages</span>']
        prev = 0
        for p in shown:
            if p - prev > 1:
                out.append(' <span class="expand_pages"> ... </span> ')
            if p == n:
                out.append(f' <span class="current_page">{p}</span> ')
            else:
                out.append(f' <a class="nav_page" href="{SAVED_FROM}/index.php?topic=2.'
                           f'{(p - 1) * PER_PAGE}">{p}</a> ')
            prev = p
        return "".join(out)

    def answer(self, path_and_query: str) -> tuple[int, bytes]:
        """A GET of `/index.php?topic=2.START` (what the server in front answers)."""
        m = re.search(r"topic=2\.(\d+)", path_and_query)
        if not m:
            return 404, b"<html><body>Not found</body></html>"
        return 200, self.page(int(m[1]) // PER_PAGE + 1)


@cache
def _parts() -> tuple[str, str, list[str]]:
    """Page 2's head and foot, and the 66 post blocks as templates."""
    page2 = (SMF21 / "smf21_topic_p2.html").read_text(encoding="utf-8")
    first = _BLOCK.search(page2)
    last = list(_BLOCK.finditer(page2))[-1]
    assert first is not None
    blocks = []
    for n in range(1, 6):
        html = (SMF21 / f"smf21_topic_p{n}.html").read_text(encoding="utf-8")
        blocks += [(int(m[1]), m[0]) for m in _BLOCK.finditer(html)]
    return (page2[: first.start()], page2[last.end():],
            [_template(pid, block) for pid, block in blocks])


def _smf_time(at: datetime) -> str:
    """SMF 2.1's time as a guest in UTC sees it: "Nov 21, 2026, 01:21 PM"."""
    return f"{at:%b} {at.day}, {at:%Y, %I:%M %p}"


def _template(post_id: int, block: str) -> str:
    """A post block with its id, reply number and times as placeholders."""
    pid = str(post_id)
    block = re.sub(rf'(msg|msg=|msg_|modified_|subject_|data-msgid="){pid}(?!\d)',
                   lambda m: m[1] + "\x00ID\x00", block)
    block = re.sub(r'(page_number floatright">#|Reply #)\d+', lambda m: m[1] + "\x00NO\x00",
                   block)
    block = re.sub(r'(class="smalltext">)(?:<strong>Today</strong> at )?[^<]*(</a>)',
                   lambda m: m[1] + "\x00AT\x00" + m[2], block)
    return re.sub(r"(Last Edit</span>: )(?:<strong>Today</strong> at [^ ]+ [AP]M|[A-Z][a-z]{2} "
                  r"\d+, \d{4}, \d\d:\d\d [AP]M)", lambda m: m[1] + "\x00EDIT\x00", block)
