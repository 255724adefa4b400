"""SMF topic pages (2.1, 2.0, 2.0 RC3, custom themes) into a `TopicPage` of `Post` records.

Themes rename classes freely (Nostalgia, BlackStorm, the RC3 "core" theme), but every SMF
theme keeps the ids SMF gives each message: `msgN` (anchor or post div), `subject_N`,
`msg_N` (the body) and `modified_N` (the edit notice). Posts are found by those ids; a
post's container is the largest element holding that message's ids and no other's, and
author, time and edit notice are looked for inside it only, so a broken post raises a
`LayoutError` instead of borrowing its neighbour's data.

SMF prints times as text in the viewer's time zone (for guests, the forum's), in the
format the admin chose and the board's language; `parse_forum_time` reads them with the
shared reader of `dates.py`, strictly. "Today" / "Yesterday" are resolved against the
clock the page itself shows (SMF 2.1's `<time datetime>` header) when there is one, else
against the `now` passed in.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import NamedTuple
from urllib.parse import urlsplit, urlunsplit
from zoneinfo import ZoneInfo

from selectolax.lexbor import LexborHTMLParser, LexborNode

from assistant.errors import LayoutError, NotAThreadError
from assistant.models import EditNote, Post, Quote, TopicPage, built
from assistant.scrapers import common, dates, page_zone
from assistant.scrapers.common import (
    PageText,
    as_text,
    clean_text,
    source_of,
    strip_session_ids,
    strip_session_ids_in_html,
)
from assistant.scrapers.page_tree import may_hold_tag, page_tree, stamped_times, text_of

__all__ = ["looks_like_smf", "parse_page", "parse_forum_time"]

# ---------------------------------------------------------------------------------------
# Detection

_STRONG_SIGNS = (
    re.compile(r"var\s+smf_(?:scripturl|theme_url|session_id|images_url)\b"),
    re.compile(r"<a[^>]+(?:simplemachines\.org|action=credits)[^>]*>[^<]*\bSMF\b", re.I),
)
_WEAK_SIGNS = (
    re.compile(r"index\.php(?:\?[^\"'>]*?\btopic=|/topic,)\d+\."),
    re.compile(r"action=profile;u=\d+"),
    re.compile(r"""id=["']subject_\d+["']"""),
    re.compile(r"""id=["']msg_?\d+["']"""),
    re.compile(r"Simple Machines", re.I),
)


def looks_like_smf(html: str) -> bool:
    """Whether the page was rendered by SMF: its JS globals or credits, else two of its
    URL / id habits (custom themes may drop the credits, never all of these)."""
    if any(p.search(html) for p in _STRONG_SIGNS):
        return True
    return sum(1 for p in _WEAK_SIGNS if p.search(html)) >= 2


# ---------------------------------------------------------------------------------------
# Forum times


def parse_forum_time(text: str, tz: tzinfo, now: datetime) -> datetime:
    """An SMF date that is the whole of `text` ("Nov 21, 2026, 12:01 PM", "Today at 12:27
    AM", "2018. április 25, 10:11:12"), read in the forum's zone `tz`, as aware UTC.

    Strict, so quote headers can be split by trying it (see `dates.parse_forum_time`);
    SMF's default formats put the month first in slashed dates. Raises ValueError.
    """
    return dates.parse_forum_time(text, tz, now, slashes=dates.Slashes.MONTH_FIRST)


def _is_forum_time(text: str) -> bool:
    try:
        parse_forum_time(text, ZoneInfo("UTC"), datetime(2000, 1, 1, tzinfo=UTC))
    except ValueError:
        return False
    return True


# ---------------------------------------------------------------------------------------
# Finding posts

_MSG_IN_HREF = re.compile(r"(?:[?&;]msg=|\.msg|#msg)(\d+)")
_TOPIC_IN_URL = re.compile(r"topic[=,](\d+)(?:\.(\d+|msg\d+|new))?")
_PAGE_LINK = re.compile(r"topic[=,](\d+)\.(\d+)(?!\d)")
_EXPAND_PAGES = re.compile(r"expandPages\([^)]*?,\s*\d+\s*,\s*\d+\s*,\s*(\d+)\s*\)")
_CREDITS_VERSION = re.compile(r"\bSMF\s+(\d+\.\d+(?:\.\d+)*)")
_STOP_CLIMB = frozenset({"form", "body", "html"})
_MARKER_ID = re.compile(r"(msg|msg_|subject_|modified_)(\d+)")
_MARKER_SLOT = {"msg": "anchor", "msg_": "body", "subject_": "subject", "modified_": "modified"}


@dataclass
class _Markers:
    """The elements SMF tags with one message's id."""

    post_id: int
    anchor: LexborNode | None = None
    body: LexborNode | None = None
    subject: LexborNode | None = None
    modified: LexborNode | None = None


def _collect_markers(tree: LexborHTMLParser) -> list[_Markers]:
    found: dict[int, _Markers] = {}
    for node in tree.css("[id]"):  # (one selector: three prefixes cost more than the ids)
        ident = node.id
        if not ident or ident[0] not in "ms":  # ("msg", "subject_", "modified_")
            continue
        marker = _marker(ident)
        if marker is None:
            continue
        slot, pid = marker
        marks = found.get(pid)
        if marks is None:
            marks = found[pid] = _Markers(pid)
        if getattr(marks, slot) is None:
            setattr(marks, slot, node)
    return list(found.values())  # dicts keep document order of first sight


def _marker(ident: str) -> tuple[str, int] | None:
    """The `_Markers` slot and message number an element id names ("msg_12": the body of
    message 12), None for any other id. An id's digits are cut off its end and what is
    left looked up (a regex match per id was a tenth of an SMF page's parsing); the regex
    only for an id with other characters than ASCII (its digits may be any script's)."""
    prefix = ident.rstrip("0123456789")
    slot = _MARKER_SLOT.get(prefix)
    if slot is not None and len(prefix) < len(ident):
        return slot, int(ident[len(prefix):])
    m = None if ident.isascii() else _MARKER_ID.fullmatch(ident)
    return (_MARKER_SLOT[m[1]], int(m[2])) if m else None


def _marker_kinds(marks: _Markers) -> int:
    """How many of SMF's per-message ids were found (a board's topic list has one, `msg_N`)."""
    return ((marks.anchor is not None) + (marks.body is not None) + (marks.subject is not None)
            + (marks.modified is not None))


_SHARED = -1
"""In `_containers`: an element holding the ids of more than one post."""


def _containers(markers: list[_Markers]) -> dict[int, LexborNode]:
    """Per post, the largest element holding its ids and no other post's: climbing from
    its body (else another of its elements) while the element above holds no other
    post's id. Each element's parent is asked for once (a new node object each time):
    the climb from the body is kept, and walked again once every post's ids are placed."""
    holds: dict[int, int] = {}  # element -> the one post whose ids it holds, or _SHARED
    climbs: list[tuple[int, list[LexborNode]]] = []
    for marks in markers:
        pid = marks.post_id
        first = marks.body or marks.subject or marks.modified or marks.anchor
        assert first is not None  # every _Markers was created from a node
        climbs.append((pid, _climb(first, pid, holds)))
        for node in (marks.anchor, marks.body, marks.subject, marks.modified):
            _climb(node, pid, holds)
    result: dict[int, LexborNode] = {}
    for pid, climb in climbs:
        container = climb[0]
        for node in climb[1:]:
            if holds[node.mem_id] != pid or node.tag in _STOP_CLIMB or node.id == "forumposts":
                break
            container = node
        result[pid] = container
    return result


def _climb(node: LexborNode | None, pid: int, holds: dict[int, int]) -> list[LexborNode]:
    """Mark `node` and its ancestors as holding post `pid`'s ids (`_SHARED` where another
    post's are held too), up to the first already marked so; the elements marked."""
    climbed: list[LexborNode] = []
    while node is not None:
        key = node.mem_id
        held = holds.get(key)
        if held == pid or held == _SHARED:
            break  # climbed from here before: every ancestor holds it already
        holds[key] = pid if held is None else _SHARED
        climbed.append(node)
        node = node.parent
    return climbed


def _inside(node: LexborNode, stop: LexborNode, excluded: set[int]) -> bool:
    """Whether `node` lies in one of the `excluded` subtrees, looking up to `stop`."""
    stop_key = stop.mem_id
    current: LexborNode | None = node
    while current is not None:
        key = current.mem_id
        if key == stop_key:
            return False
        if key in excluded:
            return True
        current = current.parent
    return False


# ---------------------------------------------------------------------------------------
# One post


@dataclass(frozen=True)
class _PageContext:
    url: str
    tz: tzinfo
    now: datetime
    permalink_base: str
    time_holders: frozenset[int] = frozenset()
    """The elements holding a `<time datetime>` (SMF 2.1 prints one, in the header): a
    post's container among them is searched for one, the others need not be."""

    def error(self, post_id: int, what: str, hint: str) -> LayoutError:
        return common.layout_error(self.url, f"post #msg{post_id}: {what}",
                            f"post #msg{post_id}: {what}; {hint}")


# A post's side columns: the poster's (its author) and the signature, where a date is
# not the post's. Searched once for both.
_SIDES = ".poster, .signature"


def _first_poster(sides: list[LexborNode], container: LexborNode) -> LexborNode | None:
    """`container.css_first(".poster")`, read off the `_SIDES` elements found already: the
    first whose classes hold "poster". Where lexbor might read a class otherwise (one
    differing only in case, which it matches on a quirks-mode page; odd spaces), lexbor
    is asked."""
    for node in sides:
        tokens = common.plain_classes(node.attrs.get("class") or "")
        if tokens is None or ("poster" not in tokens
                              and any(t.lower() == "poster" for t in tokens)):
            return container.css_first(".poster")
        if "poster" in tokens:
            return node
    return None


def _author(container: LexborNode, poster: LexborNode | None, post_id: int,
            ctx: _PageContext) -> tuple[str, int | None]:
    """The author's name and member id, from the poster's column (`poster`) if the post
    has one, else from the whole post."""
    if poster is None:
        poster = container
    for link, href in _profile_links(poster):
        name = clean_text(text_of(link))
        number = common.member_id(href)
        if name and number is not None:
            return name, number
    heading = poster.css_first("h4")
    name = clean_text(text_of(heading)) if heading is not None else ""
    if name:  # a guest: SMF prints the name without a profile link
        return name, None
    raise ctx.error(post_id, "no author link found",
                    "expected a profile link (action=profile;u=N) or a name in the poster's h4")


_NEAR = 8
"""How many of the poster's elements are looked at one by one for its profile link (SMF
puts it third: the poster's column, its `h4`, the link) before lexbor is asked."""


def _profile_links(poster: LexborNode) -> Iterator[tuple[LexborNode, str]]:
    """The profile links in `poster` (itself included), in document order, with their
    addresses: what `poster.css('a[href*="action=profile"]')` finds. The first ones are
    looked for among its first elements (a query costs as much as some twenty of them);
    past `_NEAR` elements, lexbor is asked for them all, those seen skipped."""
    seen = found = 0
    for node in poster.traverse():
        seen += 1
        if seen > _NEAR:
            yield from ((link, link.attrs.get("href") or "")
                        for link in poster.css('a[href*="action=profile"]')[found:])
            return
        if node.tag == "a":
            href = node.attrs.get("href")
            if href and "action=profile" in href:
                found += 1
                yield node, href


def _time_text_candidates(text: str) -> list[str]:
    """The whole text, then what follows a label ("« Reply #1 on: DATE »")."""
    text = clean_text(text).strip(" «»")
    out = [text]
    if ": " in text:
        out.append(text.split(": ", 1)[1])
    return out


def _posted_at(container: LexborNode, marks: _Markers, sides: list[LexborNode],
               ctx: _PageContext) -> datetime:
    """The post's time, found outside its body, edit notice and side columns (`sides`)."""
    excluded = {n.mem_id for n in sides}
    for n in (marks.body, marks.modified):
        if n is not None:
            excluded.add(n.mem_id)
    times = container.css("time[datetime]") if container.mem_id in ctx.time_holders else ()
    for node in times:  # machine-readable, when a theme gives it
        if not _inside(node, container, excluded):
            moment = _aware(node.attrs.get("datetime"))
            if moment is not None:
                return moment
    # The second, wider selector only when no .smalltext held the date (it rarely runs).
    for selector in (".smalltext", ".keyinfo *, .postinfo *"):
        for node in container.css(selector):
            if _inside(node, container, excluded):
                continue
            for text in _time_text_candidates(text_of(node)):
                try:
                    return parse_forum_time(text, ctx.tz, ctx.now)
                except ValueError:
                    continue
    raise ctx.error(marks.post_id, "no post time found",
                    "expected a date such as 'Nov 21, 2026, 12:01 PM' beside the subject")


_EDIT_BY = re.compile(
    r"^(?P<time>.*?\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AaPp]\.?\s?[Mm]\.?)?)\s+(?P<by>\S+)\s+(?P<name>.+)$"
)


def _edit_note(marks: _Markers, ctx: _PageContext) -> EditNote | None:
    """SMF 2.1: "Last Edit: Nov 21, 2026, 12:13 PM by Jd- Reason: typo"; SMF 2.0:
    "« Last Edit: September 24, 2007, 12:57:14 PM by gregswallow »" (any language)."""
    node = marks.modified
    if node is None:
        return None
    text = clean_text(text_of(node)).strip(" «»")
    if not text:
        return None
    reason: str | None = None
    labels = node.css(".lastedit")
    if len(labels) >= 2:
        label = clean_text(text_of(labels[1]))
        at = text.rfind(label)
        if label and at > 0:
            reason = text[at + len(label):].lstrip(" :") or None
            text = text[:at].strip()
    if ": " in text:
        text = text.split(": ", 1)[1]
    m = _EDIT_BY.match(text)
    time_text, editor = (m["time"], m["name"].strip()) if m else (text, None)
    try:
        at_time = parse_forum_time(time_text, ctx.tz, ctx.now)
    except ValueError:
        raise ctx.error(marks.post_id, f"edit notice {clean_text(text_of(node))!r} not understood",
                        "expected 'Last Edit: DATE by NAME'") from None
    return EditNote(at=at_time, by=editor, reason=reason)


def _quote_author(header_text: str) -> str | None:
    """"Quote from: Lady Grey on Nov 21, 2026, 10:42 AM" -> "Lady Grey"; "Quote" -> None.
    The word between name and date varies by language ("on", "-"), so the split is the
    first one whose remainder is a date."""
    text = clean_text(header_text)
    if ":" not in text:
        return None
    rest = text.split(":", 1)[1].strip()
    if not rest:
        return None
    words = rest.split(" ")
    for i in range(1, len(words) - 1):
        if _is_forum_time(" ".join(words[i + 1:])):
            return " ".join(words[:i])
    return rest


def _quote_post_id(header: LexborNode) -> int | None:
    return common.first_id(_MSG_IN_HREF, (a.attrs.get("href") for a in header.css("a[href]")))


_QUOTE_BOXES = "div.quoteheader, blockquote"


def _may_quote(body: LexborNode, inner_html: str) -> bool:
    """Whether `_quotes` may find one of `_QUOTE_BOXES` in a post's body: its HTML
    (`inner_html`) opens a blockquote or a div (SMF 2.0's quote header), or the body is a
    quote box itself. Most posts quote nothing, and a search of their HTML costs a
    fraction of a query (the page searched twice, to tell whether it quotes at all, cost
    more than its posts' HTML)."""
    if "<blockquote" in inner_html or "<div" in inner_html:
        return True
    return body.tag == "blockquote" or "quoteheader" in (body.attrs.get("class") or "").lower()


def _quotes(body: LexborNode) -> tuple[Quote, ...]:
    """Quote boxes in document order (outer before inner). SMF 2.0 puts a
    `div.quoteheader` before the blockquote, SMF 2.1 a `<cite>` inside it."""
    quotes: list[Quote] = []
    for node in body.css(_QUOTE_BOXES):
        if node.tag == "blockquote":
            prev = node.prev
            while prev is not None and not prev.is_element_node:
                prev = prev.prev
            if prev is not None and "quoteheader" in (prev.attrs.get("class") or ""):
                continue  # counted with its header
            header = node.css_first("cite")
            if header is None:
                quotes.append(Quote(None))
                continue
        else:
            header = node
        quotes.append(Quote(_quote_author(text_of(header)), _quote_post_id(header)))
    return tuple(quotes)


def _parse_post(marks: _Markers, container: LexborNode, position: int, page: int,
                ctx: _PageContext) -> Post:
    if marks.body is None:
        raise ctx.error(marks.post_id, "no message body found",
                        f"expected an element with id msg_{marks.post_id}")
    if _marker_kinds(marks) < 2:
        raise ctx.error(marks.post_id, "only the message body was found",
                        f"expected its subject (subject_{marks.post_id}) or anchor "
                        f"(msg{marks.post_id}) too")
    sides = container.css(_SIDES)
    author, author_id = _author(container, _first_poster(sides, container), marks.post_id, ctx)
    posted_at = _posted_at(container, marks, sides, ctx)
    inner = marks.body.inner_html or ""
    body_html = strip_session_ids_in_html(inner.strip())
    return built(  # (Post's own __init__ sets its ten fields one by one: 2 % of a parse)
        Post,
        post_id=marks.post_id,
        position=position,
        author=author,
        author_id=author_id,
        posted_at=posted_at,
        body_html=body_html,
        page=page,
        edit=_edit_note(marks, ctx),
        quotes=_quotes(marks.body) if _may_quote(marks.body, inner) else (),
        url=f"{ctx.permalink_base}?msg={marks.post_id}",
    )


# ---------------------------------------------------------------------------------------
# The page around the posts


@dataclass(frozen=True)
class _Pagination:
    page: int
    page_count: int
    per_page: int | None
    start: int
    """Position in the thread of the page's first post, as the page says (not the URL)."""


class _Head:
    """The page's own address and title, as the first `link[rel="canonical"]`,
    `meta[property="og:url"]`, `meta[property="og:title"]` and `title` of the document
    give them: found in its `<head>` by one query (they were four, each with its set-up of
    the selector engine, one of them twice), in the whole page only for one the head does
    not hold (the head comes first in the document)."""

    _SELECTORS = {"canonical": 'link[rel="canonical"]', "og:url": 'meta[property="og:url"]',
                  "og:title": 'meta[property="og:title"]', "title": "title"}

    def __init__(self, tree: LexborHTMLParser) -> None:
        self._tree = tree
        self._found: dict[str, LexborNode | None] = {}
        head = tree.head
        for node in head.css(", ".join(self._SELECTORS.values())) if head is not None else ():
            tag = node.tag  # (each matches one selector: a meta, one of the two properties)
            if tag == "meta":
                tag = "og:url" if (node.attrs.get("property") or "").lower() == "og:url" else (
                    "og:title")
            self._found.setdefault("canonical" if tag == "link" else tag, node)

    def node(self, name: str) -> LexborNode | None:
        """The first element named `name` ("canonical", "og:url", "og:title", "title")."""
        if name not in self._found:
            self._found[name] = self._tree.css_first(self._SELECTORS[name])
        return self._found[name]

    def attr(self, name: str, attribute: str) -> str | None:
        return _attr(self.node(name), attribute)


def _topic_id(head: _Head, html: str | PageText, url: str) -> int | None:
    # The page's own links first: a merged or moved topic answers for another id.
    topic_id = common.first_id(_TOPIC_IN_URL, (
        head.attr("canonical", "href"), head.attr("og:url", "content"), url))
    if topic_id is not None:
        return topic_id
    text = as_text(html)
    m = re.search(r"iTopicId:\s*(\d+)", text)
    if m:
        return int(m[1])
    counts = Counter(int(m[1]) for m in _PAGE_LINK.finditer(text))
    return common.first_most_common(counts)


def _attr(node: LexborNode | None, name: str) -> str | None:
    return None if node is None else node.attrs.get(name)


class _Links(NamedTuple):
    """The page's links that say where it is and what it is: those whose address holds
    "topic" (every one `_PAGE_LINK` reads), with it, and the credits (to SMF's site or
    `action=credits`), in document order."""

    topic: list[tuple[LexborNode, str]]
    credits: list[LexborNode]


def _links(tree: LexborHTMLParser) -> _Links:
    """The page's `_Links`, from lexbor's list of its links, each address read once: two
    queries, `a[href*="topic"]` and `a[href*="simplemachines"], a[href*="action=credits"]`,
    cost half as much again (each compares its selectors with every element)."""
    topic: list[tuple[LexborNode, str]] = []
    credits: list[LexborNode] = []
    for link in tree.tags("a"):
        href = link.attrs.get("href")
        if not href:
            continue
        if "topic" in href:
            topic.append((link, href))
        if "simplemachines" in href or "action=credits" in href:
            credits.append(link)
    return _Links(topic, credits)


def _pagination(links: _Links, head: _Head, html: str | PageText, url: str,
                topic_id: int | None) -> _Pagination:
    numbered: list[tuple[int, int, LexborNode]] = []
    for link, href in links.topic:  # (every href _PAGE_LINK matches holds "topic")
        m = _PAGE_LINK.search(href)
        if not m:
            continue  # (most links: their text need not be read)
        label = clean_text(text_of(link))
        if label.isdigit() and (topic_id is None or int(m[1]) == topic_id):
            numbered.append((int(label), int(m[2]), link))
    per_page = common.per_page_from_links((n, off) for n, off, _ in numbered)
    if per_page is None and (m := _EXPAND_PAGES.search(as_text(html))):
        per_page = int(m[1])
    canonical = _offset_in(head.attr("canonical", "href"))
    offset = canonical if canonical is not None else _offset_in(url)
    current = _current_page_marker(numbered)
    if current is None:
        current = offset // per_page + 1 if offset and per_page else 1
    if per_page is None:
        per_page = common.per_page_from_offset(offset, current)
    page_count = max([current] + [n for n, _, _ in numbered])
    # Where the page starts, as the page says: its canonical link when it lies on the page
    # shown, else its page number; the URL's offset only when the page says neither (a
    # forum may answer an offset past the end with its last page).
    if canonical is not None and (not per_page or canonical // per_page + 1 == current):
        start = canonical
    elif per_page:
        start = (current - 1) * per_page
    else:
        start = 0 if current == 1 else (offset or 0)
    return _Pagination(current, page_count, per_page, start)


def _current_page_marker(numbered: list[tuple[int, int, LexborNode]]) -> int | None:
    """The current page as the page links show it: SMF 2.1 `span.current_page`, SMF 2.0
    `[<strong>3</strong>]`, beside the numbered links."""
    seen: set[int] = set()
    for _, _, link in numbered:
        box = link.parent
        if box is None or box.mem_id in seen:
            continue
        seen.add(box.mem_id)
        for node in box.css(".current_page, strong, b, span"):
            text = clean_text(text_of(node)).strip("[]")
            if text.isdigit() and not _holds_link(node) and node.parent.tag != "a":
                return int(text)
    return None


def _holds_link(node: LexborNode) -> bool:
    """`node.css_first("a") is not None`, the query asked only when `node` is a link or its
    HTML opens an element whose name starts with "a" (a page number's never does)."""
    return may_hold_tag(node, node.inner_html or "", "a") and node.css_first("a") is not None


def _offset_in(url: str | None) -> int | None:
    m = _TOPIC_IN_URL.search(url or "")
    return int(m[2]) if m and m[2] and m[2].isdigit() else None


def _url_builders(clean_url: str, topic_id: int) -> tuple[str, Callable[[int], str]]:
    """The script URL for permalinks, and a function offset -> page URL, built from the URL
    the page was read from, without its session ids (`clean_url`; not from the page's
    links: their host may be another name)."""
    parts = urlsplit(clean_url)
    path = parts.path
    queryless = re.search(r"/topic,\d+\.[^/?#]*", path)
    script_path = path
    if "index.php" in path:
        script_path = path[: path.index("index.php") + len("index.php")]
    script = urlunsplit((parts.scheme, parts.netloc, script_path, "", ""))
    tid = topic_id
    if queryless:
        prefix = urlunsplit((parts.scheme, parts.netloc, path[: queryless.start()], "", ""))
        return script, lambda offset: f"{prefix}/topic,{tid}.{offset}.html"
    return script, lambda offset: f"{script}?topic={tid}.{offset}"


def _title(head: _Head, page: int) -> str | None:
    title = clean_text(head.attr("og:title", "content"))
    if not title and (node := head.node("title")) is not None:
        title = clean_text(text_of(node))
    if page > 1:  # SMF appends " - Page N" in the board's language
        title = re.sub(rf"\s+-\s+\S+\s+{page}$", "", title)
    return title or None


def _version(links: _Links, html: str | PageText) -> str | None:
    for link in links.credits:
        m = _CREDITS_VERSION.search(clean_text(text_of(link)))
        if m:  # "SMF 2.1.5", "SMF 2.0.15.10", "SMF 2.0 RC3": the generation is what differs
            return ".".join(m[1].split()[0].split(".")[:2])
    if 'class="current_page"' in html or "data-msgid=" in html:
        return "2.1"
    if "quoteheader" in html or "navPages" in html:
        return "2.0"
    return None


def _aware(text: str | None) -> datetime | None:
    """An ISO-8601 attribute value as aware UTC; None if absent, malformed or zoneless."""
    try:
        moment = datetime.fromisoformat(text or "")
    except ValueError:
        return None
    return moment.astimezone(UTC) if moment.tzinfo is not None else None


def _page_clock(times: list[LexborNode], now: datetime) -> datetime:
    """The server's "now" as SMF 2.1 prints it in the header (the first of the page's
    `<time datetime>` elements, `times`); "Today" means that day."""
    for node in times:
        moment = _aware(node.attrs.get("datetime"))
        if moment is not None:
            return moment
    return now


def _holders(nodes: list[LexborNode]) -> frozenset[int]:
    """The elements `nodes` lie in (themselves included), by `mem_id`."""
    held: set[int] = set()
    for node in nodes:
        current: LexborNode | None = node
        while current is not None and current.mem_id not in held:
            held.add(current.mem_id)
            current = current.parent
    return frozenset(held)


def _empty_topic_page(tree: LexborHTMLParser, html: str | PageText, url: str,
                      clean_url: str) -> TopicPage | None:
    """The page SMF serves past a topic's end: its topic display (`#forumposts`, its own
    canonical `topic=T.N` and page links) with no posts. Asked for the page after a full
    last page (15, 30, ... posts), SMF answers HTTP 200 with this instead of an error;
    it means "nothing here yet", so it is a topic page with no posts, not "not a thread"."""
    if tree.css_first("#forumposts") is None or tree.css_first('input[type="password"]'):
        return None  # not a topic display, or a login form where the posts should be
    head = _Head(tree)
    topic_id = common.first_id(_TOPIC_IN_URL, (head.attr("canonical", "href"),))
    if topic_id is None:
        return None
    links = _links(tree)
    pages = _pagination(links, head, html, url, topic_id)
    _, page_url = _url_builders(clean_url, topic_id)
    return TopicPage(
        software="smf", version=_version(links, html), url=clean_url, topic_id=topic_id,
        title=_title(head, pages.page), page=pages.page, page_count=pages.page_count,
        per_page=pages.per_page,
        page_urls=common.page_urls(pages.page_count, pages.per_page, page_url), posts=(),
    )


def _shown_zone(tree: LexborHTMLParser, times: list[LexborNode], tz: tzinfo,
                now: datetime) -> tzinfo:
    """The zone SMF 2.1 writes this page's times in: its header prints the server's "now"
    as `<time datetime="...Z">` around the same moment as text in the board's (or the
    member's) zone, so their difference is the zone's offset now. The game's zone `tz`
    when it has that offset now (it also knows the other half of the year), else the
    offset itself; `tz` when the page does not show it (SMF 2.0, other formats). `times`:
    the page's `time[datetime]` elements."""
    def read(text: str, zone: tzinfo) -> datetime | None:
        try:
            return parse_forum_time(text, zone, now)
        except ValueError:
            return None

    shown = page_zone.offset_from_times(tree, read, times)
    if shown is None:
        return tz
    clock = _page_clock(times, now)
    return tz if tz.utcoffset(clock) == shown.utcoffset(clock) else shown


def parse_page(html: str | PageText, url: str, *, tz: ZoneInfo, now: datetime,
               forum_tz: ZoneInfo | None = None,
               source: bytes | str | None = None) -> TopicPage:
    """Parse one SMF topic page read from `url`; times are read in the forum's zone: the
    GM's `forum_tz` when given, else the zone the page shows (`_shown_zone`), else `tz`.

    Raises NotAThreadError for an SMF page without posts (a board, the index, a login
    page), except the topic's own empty page past its end (a `TopicPage` with no posts),
    and LayoutError for a topic page whose posts cannot be read completely. `source` is
    what the C parser reads when not the text itself (`common.decode_page`).
    """
    if now.tzinfo is None:
        raise ValueError("parse_page needs an aware `now` (UTC)")
    clean_url = strip_session_ids(url)
    tree = page_tree(source_of(html) if source is None else source)
    times = stamped_times(tree)  # (searched once: each search walks the whole page)
    zone = forum_tz or _shown_zone(tree, times, tz, now)
    markers = _collect_markers(tree)
    if not any(_marker_kinds(m) >= 2 for m in markers):
        empty = _empty_topic_page(tree, html, url, clean_url)
        if empty is not None:
            return empty
        raise NotAThreadError(
            f"{clean_url} is not an SMF topic page: it shows no posts (no msgN ids). "
            "Give the URL of the thread itself, e.g. .../index.php?topic=1234.0",
            url=clean_url,
        )
    head = _Head(tree)
    topic_id = _topic_id(head, html, url)
    if topic_id is None:
        raise LayoutError(
            f"{clean_url}: no topic id found (no topic=N in the URL, the canonical link or the "
            "page links); keep this page and report it.", url=clean_url, what="the topic id")
    links = _links(tree)
    pages = _pagination(links, head, html, url, topic_id)
    script, page_url = _url_builders(clean_url, topic_id)
    ctx = _PageContext(clean_url, zone, _page_clock(times, now), script, _holders(times))
    containers = _containers(markers)
    posts = tuple(
        _parse_post(marks, containers[marks.post_id], pages.start + i, pages.page, ctx)
        for i, marks in enumerate(markers)
    )
    return TopicPage(
        software="smf",
        version=_version(links, html),
        url=clean_url,
        topic_id=topic_id,
        title=_title(head, pages.page),
        page=pages.page,
        page_count=pages.page_count,
        per_page=pages.per_page,
        page_urls=common.page_urls(pages.page_count, pages.per_page, page_url),
        posts=posts,
    )
