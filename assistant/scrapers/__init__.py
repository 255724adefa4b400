"""Forum pages in, `TopicPage` records out: which software a page is, and thread URLs.

The SMF and phpBB parsers live in `smf.py` and `phpbb.py`; this module picks the right
one from the page itself. The shape of each forum's topic URLs is `urls.py` (re-exported
here); pages that are not topics are `other_pages.py`. Both are leaves: they import
nothing from this package module, so there is no import cycle.
"""

from __future__ import annotations

import html
import importlib
import re
from datetime import datetime, tzinfo
from types import ModuleType

from assistant.errors import (
    LayoutError,
    LoginError,
    NotAThreadError,
    TruncatedPageError,
    UnsupportedForumError,
)
from assistant.models import TopicPage
from assistant.scrapers.common import PageText
from assistant.scrapers.other_pages import feed_error, other_page_error, page_feed_kind
from assistant.scrapers.urls import THREAD_URL_HELP, ThreadRef, thread_url_info

__all__ = [
    "PARSERS",
    "THREAD_URL_HELP",
    "ThreadRef",
    "detect_software",
    "check_whole",
    "parse_topic_page",
    "thread_url_info",
]

#: The parser module of each forum software, and the function that recognises its pages.
PARSERS: dict[str, tuple[str, str]] = {
    "smf": ("assistant.scrapers.smf", "looks_like_smf"),
    "phpbb": ("assistant.scrapers.phpbb", "looks_like_phpbb"),
}

# A login form left on a page that should have shown posts: the board is members-only.
_LOGIN_FORM = re.compile(
    r"""<form[^>]+action=["'][^"']*(?:action=login2?|ucp\.php\?mode=login)[^>]*>""", re.I
)
_PASSWORD_INPUT = re.compile(r"""<input[^>]+type=["']?password""", re.I)
# What the forum says above that form: SMF "The topic or board you are looking for appears
# to be either missing or off limits to you." (a deleted topic and a closed board alike),
# phpBB "The board requires you to be registered and logged in to view this forum."
_LOGIN_NOTICE = re.compile(
    r"""<(?:p|div)\s+class=["']information[^"']*["'][^>]*>(.*?)(?:<br|</p|</div)"""
    r"""|<h2\s+class=["']login-title["'][^>]*>(.*?)</h2>""",
    re.I | re.S,
)


def _login_notice(text: str) -> str | None:
    """The forum's own sentence above a login form shown instead of a topic, if any."""
    m = _LOGIN_NOTICE.search(text)
    if m is None:
        return None
    words = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", m.group(1) or m.group(2))).split())
    return words[:200] or None


_MODULES: dict[str, ModuleType] = {}


def _parser(software: str) -> ModuleType:
    """The parser module of `software`, imported when first asked for (a command that
    parses no page does not load selectolax), then kept: `import_module` on every page
    was a hundredth of its parsing."""
    module = _MODULES.get(software)
    if module is None:
        module = _MODULES[software] = importlib.import_module(PARSERS[software][0])
    return module


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
    forum_tz: tzinfo | None = None,
    software: str | None = None,
) -> TopicPage:
    """Parse a topic page of either forum. Bytes are decoded by header, meta charset, UTF-8.

    Text dates are read in `forum_tz` when the GM gave the forum's zone, else in the zone
    the page states (phpBB), else in `tz`.

    A print view, a board or a feed becomes its own NotAThreadError naming a topic
    address to give instead (`other_pages.py`). A page that still shows a login form
    where posts should be becomes a LoginError that says to log in, rather than a
    puzzling "layout not understood".

    `software` ("smf" or "phpbb") is given by a caller that already knows it (the poller,
    after the thread's first page): telling it from the page runs a dozen regexes over the
    whole page, a third of the time a page takes to parse.
    """
    page_text = PageText(html, header_charset)
    if page_feed_kind(page_text) is not None:
        feed = feed_error(page_text.text, url)
        if feed is not None:
            raise feed
    if software not in PARSERS:
        software = detect_software(page_text.text, url)
    if not page_text.ends_with_tag("</html>", _TAIL, _CLOSING):
        _check_closed(page_text.text, url)  # before parsing: a cut post reads as a strange theme
    try:
        page = _parser(software).parse_page(page_text, url, tz=tz, now=now, forum_tz=forum_tz,
                                            source=page_text.source)
    except (LayoutError, NotAThreadError) as e:
        text = page_text.text
        other = other_page_error(text, url, software) if isinstance(e, NotAThreadError) else None
        if other is not None:
            raise other from None
        if _LOGIN_FORM.search(text) and _PASSWORD_INPUT.search(text):
            notice = _login_notice(text)
            said = f', saying "{notice}"' if notice else ""
            raise LoginError(
                f"{url}: the forum shows a login form instead of the topic{said}: if the "
                "board is for members only (or the session expired), fetch with --login USER "
                "--password-env VARIABLE; some forums show guests the same for a topic that was "
                "deleted or moved: check the address in a browser",
                url,
            ) from None
        raise
    _check_count(page, url)  # (its closing markup was checked before parsing)
    return page


# Both forums end every page with their footer and </html>; a page cut in transit does not.
_CLOSING = re.compile(r"</html\s*>", re.I)
_TAIL = 64 * 1024
"""Where the closing tag is looked for: the page's end (scripts may follow it)."""


def _check_closed(text: str, url: str) -> None:
    """A page that ends before the forum's closing markup was cut short on the way."""
    tail = max(len(text) - _TAIL, 0)  # (searched in place, from the end: no copy of the tail)
    if text.rfind("</html>", tail) < 0 and not _CLOSING.search(text, tail):
        raise TruncatedPageError(
            f"{url}: the page ends before the forum's closing markup (</html>): it was cut "
            "short on the way; nothing from it was stored, and the next poll reads it again",
            url,
        )


def check_whole(page: TopicPage, text: str, url: str) -> None:
    """Refuse a topic page that arrived cut short: it ends before the forum's closing
    markup, or a page before the last shows fewer (or more) posts than its own pagination
    puts on a page. Stored, it would lose posts silently and then look like deletions."""
    _check_closed(text, url)
    _check_count(page, url)


def _check_count(page: TopicPage, url: str) -> None:
    """A page before the last that shows fewer (or more) posts than its pagination puts
    on a page was cut short (`check_whole`)."""
    if (page.posts and page.page < page.page_count and page.per_page
            and len(page.posts) != page.per_page):  # (no posts at all: the caller says so)
        raise TruncatedPageError(
            f"{url}: page {page.page} of {page.page_count} shows {len(page.posts)} post(s) where "
            f"its pagination puts {page.per_page} on a page: it is incomplete; nothing from it "
            "was stored, and the next poll reads it again",
            url,
        )
