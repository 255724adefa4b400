"""Forum pages in, `TopicPage` records out: which software a page is, and thread URLs.

The SMF and phpBB parsers live in `smf.py` and `phpbb.py`; this module picks the right
one from the page itself and knows the shape of each forum's topic URLs, so the poller
can build the URL of any page from the thread URL and the posts-per-page offset
(`topic=2.15`, `&start=15`) instead of trusting the host written into the page's links.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from datetime import datetime, tzinfo
from types import ModuleType
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from assistant.errors import (
    BoardPageError,
    FeedError,
    LayoutError,
    LoginError,
    NotAThreadError,
    UnsupportedForumError,
)
from assistant.models import TopicPage
from assistant.scrapers.common import decode_html, strip_session_ids
from assistant.scrapers.other_pages import feed_error, other_page_error

#: The parser module of each forum software, and the function that recognises its pages.
PARSERS: dict[str, tuple[str, str]] = {
    "smf": ("assistant.scrapers.smf", "looks_like_smf"),
    "phpbb": ("assistant.scrapers.phpbb", "looks_like_phpbb"),
}

THREAD_URL_HELP = (
    "an SMF topic looks like https://forum.example.org/index.php?topic=1234.0, "
    "a phpBB one https://forum.example.org/viewtopic.php?t=1234"
)

# A login form left on a page that should have shown posts: the board is members-only.
_LOGIN_FORM = re.compile(
    r"""<form[^>]+action=["'][^"']*(?:action=login2?|ucp\.php\?mode=login)[^>]*>""", re.I
)
_PASSWORD_INPUT = re.compile(r"""<input[^>]+type=["']?password""", re.I)


def _parser(software: str) -> ModuleType:
    return importlib.import_module(PARSERS[software][0])


def detect_software(html: str, url: str | None = None) -> str:
    """ "smf" or "phpbb", from the page's own markup; UnsupportedForumError otherwise."""
    for software, (_module, looks_like) in PARSERS.items():
        if getattr(_parser(software), looks_like)(html):
            return software
    where = url or "the page"
    raise UnsupportedForumError(
        f"{where}: this page is neither SMF nor phpBB; the assistant reads SMF 2.x and "
        f"phpBB 3.x topics only ({THREAD_URL_HELP})",
        url,
    )


def parse_topic_page(
    html: str | bytes,
    url: str,
    *,
    tz: tzinfo,
    now: datetime,
    header_charset: str | None = None,
) -> TopicPage:
    """Parse a topic page of either forum. Bytes are decoded by header, meta charset, UTF-8.

    A print view, a board or a feed becomes its own NotAThreadError naming a topic
    address to give instead (`other_pages.py`). A page that still shows a login form
    where posts should be becomes a LoginError that says to log in, rather than a
    puzzling "layout not understood".
    """
    text = decode_html(html, header_charset)
    feed = feed_error(text, url)
    if feed is not None:
        raise feed
    software = detect_software(text, url)
    try:
        return _parser(software).parse_page(text, url, tz=tz, now=now)
    except (LayoutError, NotAThreadError) as e:
        other = other_page_error(text, url, software) if isinstance(e, NotAThreadError) else None
        if other is not None:
            raise other from None
        if _LOGIN_FORM.search(text) and _PASSWORD_INPUT.search(text):
            raise LoginError(
                f"{url}: the forum shows a login form instead of the topic: the board is for "
                "members only (or the session expired); fetch with --login USER "
                "--password-env VARIABLE",
                url,
            ) from None
        raise


@dataclass(frozen=True)
class ThreadRef:
    """What a topic URL says: which forum software, where it lives, which topic and page."""

    software: str
    """"smf" or "phpbb", from the URL's shape (the page itself confirms it)."""
    base: str
    """The forum's address up to and including the last "/" before the script name."""
    topic_id: int | None
    """The topic; None for a phpBB post permalink (`viewtopic.php?p=N`) until the page is read."""
    post_id: int | None = None
    """The post a permalink points at (SMF `topic=N.msgM`, phpBB `p=M`)."""
    start: int = 0
    """The offset of the page the URL shows (`topic=N.30`, `start=30`)."""
    forum_id: int | None = None
    """phpBB's `f=`, kept because some boards need it in links."""
    url: str = ""
    """The URL as given, session ids stripped."""

    def page_url(self, page: int, per_page: int | None) -> str:
        """The URL of a 1-based page of this topic; page 1 needs no `per_page`."""
        if self.topic_id is None:
            raise NotAThreadError(
                f"{self.url} points at a post, not a topic; read it once to learn the topic",
                self.url,
            )
        if page > 1 and not per_page:
            raise LayoutError(
                f"{self.url}: cannot build the URL of page {page} without the posts per page",
                self.url, what="posts per page",
            )
        start = (page - 1) * (per_page or 0)
        if self.software == "smf":
            return f"{self.base}index.php?topic={self.topic_id}.{start}"
        query: list[tuple[str, str]] = []
        if self.forum_id is not None:
            query.append(("f", str(self.forum_id)))
        query.append(("t", str(self.topic_id)))
        if start:
            query.append(("start", str(start)))
        return f"{self.base}viewtopic.php?{urlencode(query)}"

    @property
    def first_page_url(self) -> str:
        return self.page_url(1, None)

    def with_topic(self, topic_id: int) -> ThreadRef:
        return ThreadRef(self.software, self.base, topic_id, self.post_id, 0, self.forum_id,
                         self.url)


_SMF_TOPIC = re.compile(r"^(\d+)(?:\.(\d+|msg(\d+)|new))?(?:;.*)?$")
_SMF_PATH_TOPIC = re.compile(r"/topic,(\d+)(?:\.(\d+|msg(\d+)|new))?(?:\.html)?$")


def thread_url_info(url: str) -> ThreadRef:
    """Validate a thread URL and say what it points at; NotAThreadError says how to fix it."""
    raw = url.strip()
    parts = urlsplit(raw)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise NotAThreadError(
            f"{url!r} is not a topic URL: give the full address starting with http:// or "
            f"https:// ({THREAD_URL_HELP})",
            url,
        )
    clean = strip_session_ids(urlunsplit(parts._replace(fragment="")))
    parts = urlsplit(clean)
    # SMF separates parameters with ";" (`?action=printpage;topic=2.0`): read the raw query.
    query = dict(parse_qsl(urlsplit(raw).query.replace(";", "&"), keep_blank_values=True))
    path = parts.path or "/"
    script = path.rsplit("/", 1)[-1]
    base = urlunsplit((parts.scheme, parts.netloc, path[: len(path) - len(script)], "", ""))

    if script == "viewtopic.php":
        topic, post = _int(query.get("t")), _int(query.get("p"))
        if topic is not None or post is not None:
            return ThreadRef("phpbb", base, topic, post, _int(query.get("start")) or 0,
                             _int(query.get("f")), clean)
    smf_topic = None
    if script in ("index.php", "") and "topic" in query:
        smf_topic = _SMF_TOPIC.match(query["topic"])
    elif "/topic," in path:  # SMF search-engine-friendly URLs: index.php/topic,1234.0.html
        smf_topic = _SMF_PATH_TOPIC.search(path)
        cut = path.find("index.php")
        prefix = path[:cut] if cut >= 0 else path[: path.find("/topic,") + 1]
        base = urlunsplit((parts.scheme, parts.netloc, prefix, "", ""))
    if smf_topic is not None:
        offset, msg = smf_topic.group(2), smf_topic.group(3)
        start = int(offset) if offset and offset.isdigit() else 0
        return ThreadRef("smf", base, int(smf_topic.group(1)), _int(msg), start, None, clean)

    feed_topic = _FEED_TOPIC.search(path)
    if feed_topic or script == "feed.php" or query.get("action", "").startswith(".xml"):
        topic = feed_topic.group(2) if feed_topic else None
        if script == "feed.php":
            topic = query.get("t")
        prefix = feed_topic.group(1) if feed_topic else path[: len(path) - len(script)]
        topic_url = None
        if topic and topic.isdigit():
            topic_url = urlunsplit((parts.scheme, parts.netloc, prefix, "", "")) + (
                f"viewtopic.php?t={topic}")
        instead = (f"give the topic instead: {topic_url}" if topic_url else
                   f"open the game thread and copy its address ({THREAD_URL_HELP})")
        raise FeedError(
            f"{url} is a feed, not a topic: the assistant reads a topic's own pages; {instead}",
            url, topic_url)
    if "board" in query or script == "viewforum.php":
        raise BoardPageError(
            f"{url} is a board's list of topics, not a topic: open the game thread and copy "
            f"its address ({THREAD_URL_HELP})", url)
    raise NotAThreadError(f"{url} is not a topic URL: {THREAD_URL_HELP}", url)


_FEED_TOPIC = re.compile(r"^(.*?/)(?:app\.php/)?feed/topic/(\d+)/?$")


def _int(text: str | None) -> int | None:
    return int(text) if text and text.isdigit() else None
