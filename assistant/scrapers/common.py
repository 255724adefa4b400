"""What the SMF and phpBB parsers share: decoding bytes, cleaning URLs, small text helpers,
member ids, posts per page, and the error for a page whose layout is not understood.

Forum dates have their own module, `dates.py`.
"""

from __future__ import annotations

import codecs
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from operator import itemgetter
from urllib.parse import unquote, urljoin, urlsplit, urlunsplit

from assistant.errors import LayoutError

_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)
# Session ids forums put in links for visitors without cookies.
SESSION_PARAMS = frozenset({"phpsessid", "sid", "s"})
_SESSION_IN_PATH = re.compile(r"(?:[?&;]|\b)PHPSESSID=[0-9A-Za-z,-]+", re.I)
_SID_IN_TEXT = re.compile(r"(&amp;|[?&;])(?:sid|PHPSESSID)=[0-9A-Za-z,-]{16,}(&amp;|&|;)?", re.I)


def decode_html(data: bytes | str, header_charset: str | None = None) -> str:
    """Text of a page: the HTTP header's charset, else the page's meta charset, else UTF-8.

    Old SMF forums serve ISO-8859-1 (geekhack); an empty `<meta charset="">` means UTF-8.
    Undecodable bytes are replaced rather than raising: one odd byte must not lose a page.
    """
    return decode_page(data, header_charset)[0]


def decode_page(data: bytes | str, header_charset: str | None = None) -> tuple[str, bytes | str]:
    """The page's text (as `decode_html`), and what the C parser should read: the page's
    own bytes when the text was decoded from them as UTF-8, since the parser would only
    encode the text back into those very bytes (a tenth of its time on a long page), else
    the text."""
    if isinstance(data, str):
        return data, data
    for charset in (header_charset, _meta_charset(data), "utf-8"):
        if not charset:
            continue
        try:
            codec = _python_codec(charset)
            text = data.decode(codec)
        except (LookupError, UnicodeDecodeError):
            continue
        return text, (data if codecs.lookup(codec).name == "utf-8" else text)
    text = data.decode("utf-8", errors="replace")
    return text, text


class PageText:
    """A topic page's text, and what the C parser reads of it (`source`), decoded only
    where the text itself is looked at: its start (is it a feed?), its end (was it cut
    short?), a few words (`in`), the whole of it on the rarer paths (`text`). Decoding a
    whole page into a string was a twentieth of its parsing, and the parser never needs
    it: it reads the page's bytes (`decode_page`).

    A page no charset says is other than UTF-8 is given to the parser as its bytes even
    where they are not valid UTF-8: lexbor then replaces each broken sequence just as
    `bytes.decode(errors="replace")` does (tests/test_scrape_page_text.py), so its tree
    is the one the replaced text gave; the text is decoded that way when asked for."""

    def __init__(self, data: bytes | str, header_charset: str | None = None) -> None:
        self._data: bytes | None = None
        self._text: str | None = None
        self.source: bytes | str
        if isinstance(data, bytes) and _only_utf8(data, header_charset):
            self._data = self.source = data
        else:
            self._text, self.source = decode_page(data, header_charset)

    @property
    def text(self) -> str:
        if self._text is None:
            assert self._data is not None
            self._text = self._data.decode("utf-8", errors="replace")
        return self._text

    def start(self, chars: int) -> str:
        """The text's first `chars` characters (from at most four bytes each: a character
        cut at the end of those bytes stands past them)."""
        if self._data is None or self._text is not None:
            return self.text[:chars]
        return self._data[:4 * chars].decode("utf-8", errors="replace")[:chars]

    def head_bytes(self, count: int) -> bytes | None:
        """The page's first `count` bytes while its text is not decoded, else None."""
        return self._data[:count] if self._data is not None and self._text is None else None

    def ends_with_tag(self, tag: str, chars: int, pattern: re.Pattern[str]) -> bool:
        """Whether `tag` (ASCII) stands in the text's last `chars` characters, else
        whether `pattern` is found there: a tag in the bytes' last `chars` bytes stands
        in the last `chars` characters (no character is less than a byte)."""
        if self._data is not None and self._text is None and self._data.rfind(
                tag.encode("ascii"), max(len(self._data) - chars, 0)) >= 0:
            return True
        text = self.text
        tail = max(len(text) - chars, 0)  # (searched in place, from the end: no copy of the tail)
        return text.rfind(tag, tail) >= 0 or pattern.search(text, tail) is not None

    def __contains__(self, needle: str) -> bool:
        """Whether the text holds `needle`; an ASCII needle is looked for in the bytes,
        which hold it exactly where the text does (a broken sequence is replaced whole,
        never with an ASCII character, and never takes one into it)."""
        if self._data is None or self._text is not None or not needle.isascii():
            return needle in self.text
        return needle.encode("ascii") in self._data


def as_text(html: str | PageText) -> str:
    """The text of `html`: a `PageText`'s whole text, decoded if it was not yet."""
    return html if isinstance(html, str) else html.text


def source_of(html: str | PageText) -> bytes | str:
    """What the C parser reads of `html` (`PageText.source`)."""
    return html if isinstance(html, str) else html.source


def _only_utf8(data: bytes, header_charset: str | None) -> bool:
    """Whether `decode_page` can only read `data` as UTF-8: no charset names another
    codec (an unknown one is passed over, as `decode_page` passes it over)."""
    for charset in (header_charset, _meta_charset(data)):
        if not charset:
            continue
        try:
            if codecs.lookup(_python_codec(charset)).name != "utf-8":
                return False
        except LookupError:
            continue
    return True


def _meta_charset(data: bytes) -> str | None:
    m = _META_CHARSET.search(data[:4096])
    return m.group(1).decode("ascii") if m else None


def _python_codec(charset: str) -> str:
    # Browsers read ISO-8859-1 as windows-1252 (curly quotes in old posts); so do we.
    latin = {"iso-8859-1", "latin1", "latin-1", "us-ascii"}
    return "cp1252" if charset.lower() in latin else charset


def strip_session_ids(url: str) -> str:
    """The URL without `PHPSESSID=` / `sid=` parameters, which change per visit.

    The rest of the query is kept byte for byte, with its own separators: SMF writes
    `?action=printpage;topic=2.0`, and re-encoding would turn its ";" into "%3B".
    """
    parts = urlsplit(url)
    tokens = re.split(r"([&;])", parts.query)
    pieces = [("", tokens[0]), *zip(tokens[1::2], tokens[2::2], strict=True)]
    kept = [(sep, piece) for sep, piece in pieces if piece and not _is_session(piece)]
    query = "".join(sep + piece for sep, piece in kept)[len(kept[0][0]) if kept else 0:]
    path = _SESSION_IN_PATH.sub("", parts.path)
    return urlunsplit((parts.scheme, parts.netloc, path, query, parts.fragment))


def _is_session(piece: str) -> bool:
    key, _, value = piece.partition("=")
    key = unquote(key).lower()
    return key in SESSION_PARAMS and not (key == "s" and len(value) < 16)


def strip_session_ids_in_html(html: str, lowered: bytes | None = None) -> str:
    """Remove session ids from links inside a post body, so a body does not look edited
    just because the page was read on a first visit without a cookie. (`lowered`: the
    HTML's `ascii_lowered`, when the caller made it already.)"""
    if lowered is None:
        if not any(spelling in html for spelling in _ID_IS):
            return html  # (no "sid=" in any case: a few searches, no lowered copy)
        lowered = ascii_lowered(html)
    if b"sid=" not in lowered and b"phpsessid" not in lowered:
        return html
    return _SID_IN_TEXT.sub(_drop_sid, html)


_ID_IS = ("id=", "ID=", "Id=", "iD=")
"""The end of "sid=" and "PHPSESSID=" in each case: a session id's name holds one."""


def ascii_lowered(text: str) -> bytes:
    """`text` as UTF-8 with its ASCII letters lowered: it holds an ASCII word without a "k"
    (in any case) exactly when `text.lower()` does, at a third of the cost of `str.lower`
    on a text with any other character than ASCII (a post body, mostly). (The only others
    lowered to ASCII: the Kelvin sign to "k", and "İ" to "i" followed by a combining dot,
    never to the letter alone.)"""
    return text.encode("utf-8", "surrogatepass").lower()


def _drop_sid(m: re.Match[str]) -> str:
    """Keep exactly one separator: `?sid=X&amp;t=2` -> `?t=2`, `p=8&amp;sid=X#p8` -> `p=8#p8`."""
    lead, trail = m.group(1), m.group(2)
    if lead == "?":
        return "?" if trail else ""
    return lead if trail else ""


def absolute(base_url: str, href: str) -> str:
    return strip_session_ids(urljoin(base_url, href))


# The ASCII characters str.split() takes for spaces and HTML does not.
_NOT_HTML_SPACES = frozenset("\x0b\x1c\x1d\x1e\x1f")


def plain_classes(classes: str) -> list[str] | None:
    """The tokens of a class attribute when `str.split` reads it as HTML does (ASCII, no
    odd spaces), else None: a caller sorting elements by class itself then leaves it to
    the C parser's selectors."""
    if classes.isascii() and _NOT_HTML_SPACES.isdisjoint(classes):
        return classes.split()
    return None


def clean_text(text: str | None) -> str:
    """Collapse runs of whitespace (including non-breaking spaces) and strip.

    (`str.split` splits at exactly the characters a regex's \\s matches, non-breaking
    spaces among them, at a third of the cost: it runs some 70 times a page.)"""
    return " ".join((text or "").split())


_MEMBER_ID = re.compile(r"[?&;](?:amp;)?u=(\d+)")


_DIGITS = re.compile(r"\d+")


def member_id(profile_href: str) -> int | None:
    """The member id in a profile link: SMF `action=profile;u=61`, phpBB
    `memberlist.php?mode=viewprofile&amp;u=61`. When the link's first "u=" is such a
    parameter, its number is read there (no search of the whole link: a link of each
    post is read); else `_MEMBER_ID` looks further."""
    at = profile_href.find("u=")
    if at > 0 and (profile_href[at - 1] in "?&;" or (
            profile_href[at - 5:at] in ("&amp;", "?amp;", ";amp;"))):
        digits = _DIGITS.match(profile_href, at + 2)
        if digits:  # (the first match _MEMBER_ID would find: it holds the first "u=")
            return int(digits.group())
    m = _MEMBER_ID.search(profile_href)
    return int(m.group(1)) if m else None


def first_id(pattern: re.Pattern[str], texts: Iterable[str | None]) -> int | None:
    """Group 1 of `pattern` in the first of `texts` it is found in: the topic or post id
    in the first of several links that names one."""
    for text in texts:
        m = pattern.search(text or "")
        if m:
            return int(m.group(1))
    return None


def per_page_from_links(links: Iterable[tuple[int, int]], stated: Iterable[int] = ()) -> int | None:
    """Posts per page from the page links, as (page number, offset) pairs: a link to page n
    at offset o says o / (n - 1). `stated` adds values a page gives outright. The most
    common answer wins (ties: the first seen), so one odd link does not decide."""
    votes: dict[int, int] = {}  # (a dict keeps the order values are first seen in)
    for n, offset in links:
        if n > 1 and offset % (n - 1) == 0:
            value = offset // (n - 1)
            votes[value] = votes.get(value, 0) + 1
    for value in stated:
        votes[value] = votes.get(value, 0) + 1
    best, most = None, 0
    for value, count in votes.items():
        if count > most:  # (strictly: the first seen among equals)
            best, most = value, count
    return best


def first_most_common(counts: Counter[int]) -> int | None:
    """The most common value, the first seen among equals: what `counts.most_common(1)`
    gives, by the very `max` that `heapq.nlargest` comes down to for one item, without
    the import and wrapping around it on every call."""
    return max(counts.items(), key=itemgetter(1))[0] if counts else None


def per_page_from_offset(offset: int | None, page: int) -> int | None:
    """Posts per page from the page's own offset, for a last page that links only to the
    pages before it: the offset spread over those pages."""
    if not offset or page < 2:
        return None
    return offset // (page - 1) or None


class PageUrls(Sequence[str]):
    """The URL of every page of a topic, each made when asked for: a page of a 3,000-page
    thread is parsed without making 3,000 URLs (a first read of it made them all on every
    page: nine million). Equal to the tuple (or list) of the same URLs, and shown as it."""

    __slots__ = ("_count", "_per_page", "_url_at")

    def __init__(self, page_count: int, per_page: int | None,
                 url_at: Callable[[int], str]) -> None:
        self._count, self._per_page, self._url_at = page_count, per_page or 0, url_at

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index):  # noqa: ANN001, ANN204 - Sequence's signature
        if isinstance(index, slice):
            return tuple(self)[index]
        n = index + self._count if index < 0 else index
        if not 0 <= n < self._count:
            raise IndexError("page index out of range")
        return self._url_at(n * self._per_page)

    def __iter__(self) -> Iterator[str]:
        return (self._url_at(n * self._per_page) for n in range(self._count))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PageUrls | tuple | list):
            return len(other) == self._count and all(
                a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))


def page_urls(page_count: int, per_page: int | None,
              url_at: Callable[[int], str]) -> PageUrls:
    """The URL of every page of a topic, from a function offset -> URL."""
    return PageUrls(page_count, per_page, url_at)


def layout_error(url: str, what: str, problem: str) -> LayoutError:
    """The error for a topic page with a part missing: `what` names the part (kept as
    `LayoutError.what`), `problem` says what was missing and what was looked for."""
    return LayoutError(
        f"{url}: {problem}; the forum's theme is not one the assistant understands, so nothing "
        "from this page was stored: keep the page and report it", url, what=what)
