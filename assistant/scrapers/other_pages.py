"""Forum pages that are not topic pages, told apart so the GM hears what to give instead.

A GM pastes whatever address the browser shows: a topic's print view, the board that
lists the game threads, a feed. None of them can be followed (print views have no post
ids, so an edit cannot be told from a new post; boards and feeds hold no whole thread),
so each becomes its own `NotAThreadError` naming the page, what it is, and a topic
address found on it. Only called once a page is known not to be a topic, or for feeds
(which are not HTML at all), so a real topic page never pays for it.
"""

from __future__ import annotations

import html as html_lib
import re
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlsplit, urlunsplit

from selectolax.lexbor import LexborHTMLParser

from assistant.errors import BoardPageError, FeedError, NotAThreadError, PrintViewError
from assistant.scrapers.common import PageText, absolute, clean_text
from assistant.scrapers.urls import FEED_TOPIC_PATH, thread_url_info

#: How many topics of a board or feed the message names.
MAX_SUGGESTIONS = 3

_ROOT_TAG = re.compile(r"<(?![?!])([A-Za-z][\w:.-]*)")
_ROOT_TAG_BYTES = re.compile(_ROOT_TAG.pattern.encode("ascii"))
_FEED_ROOTS = {"rss": "an RSS feed", "feed": "an Atom feed", "rdf:rdf": "an RSS (RDF) feed"}
_FEED_LINK = re.compile(
    r"""<link[^>]*\bhref=["']([^"']+)["'][^>]*>|<link(?:\s[^>]*)?>\s*(?:<!\[CDATA\[)?([^<\]]+)""",
    re.I,
)
_FEED_ENTRY = re.compile(r"<(entry|item|recent-post)\b.*?</\1>", re.I | re.S)
_FEED_TITLE = re.compile(r"<(?:title|subject)\b[^>]*>\s*(?:<!\[CDATA\[)?(.*?)(?:\]\]>)?\s*</", re.S)
_SMF_PRINT = re.compile(r"action=printpage", re.I)
_SMF_PRINT_POSTS = re.compile(r"""class=["']postheader["']""", re.I)
_PHPBB_PRINT = re.compile(r"""theme/print\.css|[?&;]view=print\b""", re.I)


@dataclass(frozen=True)
class TopicLink:
    """A topic found on a page: its first page's address and its title, if shown."""

    url: str
    title: str | None = None
    permalink: bool = False
    """True for a phpBB post link (`?p=67`): it opens the topic, but names no topic id."""

    def text(self) -> str:
        return f"{self.url} (“{self.title}”)" if self.title else self.url


# ---- feeds ---------------------------------------------------------------------------


FEED_START = 4096
"""How much of a document's start `feed_kind` reads (its first tag stands there)."""


def feed_kind(text: str) -> str | None:
    """ "an Atom feed", "an RSS feed", "an SMF XML feed" when the document is one, else None.
    (Only its first `FEED_START` characters are read.)"""
    m = _ROOT_TAG.search(text[:FEED_START])
    return None if m is None else _root_kind(m.group(1))


def page_feed_kind(page: PageText) -> str | None:
    """`feed_kind` of a page's text, read off its bytes where they tell what the text
    would: a first tag whole and ASCII in its first `FEED_START` bytes (so in as many
    characters), the text's start decoded otherwise."""
    head = page.head_bytes(FEED_START)
    if head is not None:
        m = _ROOT_TAG_BYTES.search(head)
        if m is not None and m.end() < len(head) and head[m.end()] < 0x80:
            return _root_kind(m.group(1).decode("ascii"))
    return feed_kind(page.start(FEED_START))


def _root_kind(root: str) -> str | None:
    root = root.lower()
    if root.endswith("xml-feed"):
        return "an SMF XML feed"
    return _FEED_ROOTS.get(root)


def feed_error(text: str, url: str) -> FeedError | None:
    """The error for a feed given where a topic page was expected; None for any other page."""
    kind = feed_kind(text)
    if kind is None:
        return None
    links: list[TopicLink] = []
    for entry in _FEED_ENTRY.finditer(text):
        body = entry.group(0)
        title_m = _FEED_TITLE.search(body)
        title = _strip_reply(clean_text(html_lib.unescape(title_m.group(1)))) if title_m else None
        for m in _FEED_LINK.finditer(body):
            found = _topic_link(url, html_lib.unescape(m.group(1) or m.group(2) or ""), title)
            if found is not None:
                _add(links, found)
                break
    own = _self_topics(text, url)
    if own:  # a topic's own feed: that topic, titled as its posts are
        links = [TopicLink(own[0].url, links[0].title if links else None)]
    return FeedError(
        f"{url} is {kind}, not a topic page: the assistant reads a topic's own pages (feeds "
        f"hold only the latest posts, without edits); {_instead(links)}",
        url,
        links[0].url if links else None,
    )


def _self_topics(text: str, url: str) -> list[TopicLink]:
    """phpBB's per-topic feed (`app.php/feed/topic/2`) names its topic in its own address."""
    out = []
    for candidate in (url, *(m.group(1) or "" for m in _FEED_LINK.finditer(text[:2048]))):
        parts = urlsplit(absolute(url, candidate))
        m = FEED_TOPIC_PATH.match(parts.path)
        query = dict(parse_qsl(parts.query))
        if m is not None:
            base = urlunsplit((parts.scheme, parts.netloc, m.group(1), "", ""))
            out.append(TopicLink(f"{base}viewtopic.php?t={m.group(2)}"))
        elif parts.path.endswith("feed.php") and query.get("t", "").isdigit():
            base = urlunsplit((parts.scheme, parts.netloc, parts.path[: -len("feed.php")], "", ""))
            out.append(TopicLink(f"{base}viewtopic.php?t={query['t']}"))
    return out


def _strip_reply(title: str) -> str:
    """ "Re: Mafia Game 1" -> "Mafia Game 1"; phpBB's "Forum • Topic" -> "Topic"."""
    title = title.rsplit(" • ", 1)[-1]
    return re.sub(r"^(?:Re|AW|SV|Odp)\s*:\s*", "", title, flags=re.I)


# ---- HTML pages --------------------------------------------------------------------


def other_page_error(text: str, url: str, software: str) -> NotAThreadError | None:
    """The specific error for a print view or a board's list of topics; None otherwise."""
    tree = LexborHTMLParser(text)
    if _is_print_view(text, url, software):
        link = _print_view_topic(tree, url, software)
        title = _page_heading(tree, software)
        about = f" of “{title}”" if title else ""
        instead = (
            f"give the topic's own address instead: {link.url}"
            if link
            else "open the topic itself and give the address your browser shows"
        )
        return PrintViewError(
            f"{url} is the print view{about}, not the topic: it shows no post ids, so edits "
            f"and deleted posts cannot be followed; {instead}",
            url,
            link.url if link else None,
        )
    topics = _board_topics(tree, url, software)
    if topics or _looks_like_board(text, url, software):
        return BoardPageError(
            f"{url} is a board (a list of topics), not a topic; {_instead(topics)}",
            url,
            topics[0].url if topics else None,
        )
    return None


def _is_print_view(text: str, url: str, software: str) -> bool:
    if software == "smf":
        return bool(_SMF_PRINT_POSTS.search(text) and (_SMF_PRINT.search(text) or
                                                        _SMF_PRINT.search(url)))
    return bool(_PHPBB_PRINT.search(text[:8192]) or _PHPBB_PRINT.search(url))


def _print_view_topic(tree: LexborHTMLParser, url: str, software: str) -> TopicLink | None:
    """The topic a print view shows: its canonical link or its links (the page knows its
    topic best), else the address it was read from; a topic link before a post permalink."""
    hrefs = [n.attributes.get("href") or "" for n in tree.css("link[rel=canonical]")]
    hrefs += [n.attributes.get("href") or "" for n in tree.css("a[href]")]
    hrefs.append(url)
    found = [t for h in hrefs if (t := _topic_link(url, h, None, software=software))]
    topics = [t for t in found if not t.permalink]
    return (topics or found or [None])[0]


def _page_heading(tree: LexborHTMLParser, software: str) -> str | None:
    selectors = ("div.postheader strong", "h2") if software == "smf" else ("h2", "h3")
    for selector in selectors:
        node = tree.css_first(selector)
        if node is not None and clean_text(node.text()):
            return clean_text(node.text())
    return None


def _board_topics(tree: LexborHTMLParser, url: str, software: str) -> list[TopicLink]:
    """The topics a board lists, in page order: SMF `span#msg_N a`, phpBB `a.topictitle`."""
    selector = 'span[id^="msg_"] > a' if software == "smf" else "a.topictitle"
    out: list[TopicLink] = []
    for node in tree.css(selector):
        found = _topic_link(url, node.attributes.get("href") or "", clean_text(node.text()))
        if found is not None:
            _add(out, found)
    return out


def _looks_like_board(text: str, url: str, software: str) -> bool:
    query = dict(parse_qsl(urlsplit(url).query.replace(";", "&")))
    if software == "smf":
        return "board" in query or 'id="messageindex"' in text
    return "viewforum.php" in url or "section-viewforum" in text


# ---- shared ------------------------------------------------------------------------


def _topic_link(
    page_url: str, href: str, title: str | None, *, software: str | None = None
) -> TopicLink | None:
    """The first page of the topic `href` points at, or None if it is not a topic link."""
    if not href or href.startswith(("#", "javascript:")):
        return None
    try:
        ref = thread_url_info(absolute(page_url, html_lib.unescape(href)))
    except NotAThreadError:
        return None
    if software is not None and ref.software != software:
        return None
    if ref.topic_id is None:  # a phpBB post permalink (`?p=67`): it opens the topic too
        return TopicLink(ref.url.split("#", 1)[0], title, permalink=True)
    return TopicLink(ref.first_page_url, title)


def _add(links: list[TopicLink], link: TopicLink) -> None:
    """Keep one link a topic: the same address, or a permalink to a topic already named."""
    for existing in links:
        if existing.url == link.url or (link.permalink and link.title == existing.title):
            return
    links.append(link)


def _instead(links: list[TopicLink]) -> str:
    if not links:
        return (
            "open the game thread and give the address your browser shows, e.g. "
            "https://forum.example.org/index.php?topic=1234.0 (SMF) or "
            "https://forum.example.org/viewtopic.php?t=1234 (phpBB)"
        )
    shown = ", ".join(link.text() for link in links[:MAX_SUGGESTIONS])
    extra = len(links) - MAX_SUGGESTIONS
    more = f" ({extra} more on the page)" if extra > 0 else ""
    one = "the topic" if len(links) == 1 else "one of its topics"
    return f"give {one} instead: {shown}{more}"
