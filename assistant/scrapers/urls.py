"""Topic URLs of both forums: what a thread URL points at, and the URL of any page of it.

The poller builds the URL of every page from the thread URL and the posts-per-page offset
(`topic=2.15`, `&start=15`) instead of trusting the host written into the page's links.
A URL that is a feed or a board's list of topics becomes its own error naming what to give
instead. This module knows nothing of page markup, so both the package and
`other_pages.py` (which reads topic links off boards and feeds) can import it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from assistant.errors import BoardPageError, FeedError, LayoutError, NotAThreadError
from assistant.scrapers.common import strip_session_ids

THREAD_URL_HELP = (
    "an SMF topic looks like https://forum.example.org/index.php?topic=1234.0, "
    "a phpBB one https://forum.example.org/viewtopic.php?t=1234"
)


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

    feed_topic = FEED_TOPIC_PATH.search(path)
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


#: A phpBB topic feed (`feed/topic/2`, `app.php/feed/topic/2`): group 1 the forum path, 2 the topic.
FEED_TOPIC_PATH = re.compile(r"^(.*?/)(?:app\.php/)?feed/topic/(\d+)/?$")


def _int(text: str | None) -> int | None:
    return int(text) if text and text.isdigit() else None
