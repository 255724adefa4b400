"""Reads phpBB 3.0-3.3 topic pages into `Post` records.

Styles differ wildly (prosilver, subsilver2 tables, custom themes, pages re-saved by a
browser or a mirroring tool), so posts are found by what phpBB itself writes whatever the
style: a post anchor `id="pNNN"` (or subsilver2's `<a name="pNNN">` in a table row), the
author's `memberlist.php?mode=viewprofile&u=N` link, the `.author` line "by NAME » DATE",
`div.content` / `div.postbody` for the body, `div.notice` for "Last edited by".
A post whose author, time or body cannot be found raises LayoutError: a wrong post in
the store would be worse than a stopped poll.

Text dates are read in the board's time zone as the page states it (`page_zone`: the
footer's zone, or the offset between each `<time datetime>` and its text), else in the
game's configured `tz`, in any language of `dates.LANGUAGES`; phpBB 3.3 `<time datetime>`
wins when present.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, tzinfo
from functools import cached_property
from typing import NamedTuple
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from selectolax.lexbor import LexborHTMLParser, LexborNode

from assistant.errors import LayoutError, NotAThreadError
from assistant.models import EditNote, Post, Quote, TopicPage, built
from assistant.scrapers import common, dates, page_zone
from assistant.scrapers.common import (
    PageText,
    clean_text,
    source_of,
    strip_session_ids,
    strip_session_ids_in_html,
)
from assistant.scrapers.page_tree import listed_once, may_hold_tag, page_tree, text_of

# --- recognising a phpBB page ---------------------------------------------------------

# Each pattern is one sign of phpBB outside any post body; a page needs two.
_PHPBB_SIGNS = tuple(re.compile(p, re.I) for p in (
    r"<body[^>]*\bid=[\"']?phpbb\b",
    r"phpBB style name",
    r"style_cookie\s*=\s*['\"]phpBB",
    r"<meta[^>]+content=[\"'][^\"']*phpBB (?:Group|Limited)",
    r"Powered by\s*<a[^>]+phpbb\.com",
    r"<div[^>]+\bid=[\"']p\d+[\"'][^>]*class=[\"'][^\"']*\bpost\b",
    r"<a\s+name=[\"']p\d+[\"']\s*>\s*</a>\s*<b class=[\"']postauthor",
    r"memberlist[^\"'\s]*\?mode=viewprofile(?:&amp;|&)u=\d+",
    r"viewtopic[^\"'\s]*\?(?:[^\"'\s]*(?:&amp;|&))?t=\d+",
    r"class=[\"']postbody[\"']",
))
# Signs of SMF, whose pages may quote phpBB links in posts.
_SMF_SIGNS = tuple(re.compile(p, re.I) for p in (
    r"smf_scripturl", r"var smf_", r"Simple Machines", r"index\.php\?topic=\d+",
))


def looks_like_phpbb(html: str) -> bool:
    """True when the page itself shows phpBB's markup (any 3.x version or style)."""
    phpbb = sum(1 for sign in _PHPBB_SIGNS if sign.search(html))
    smf = sum(1 for sign in _SMF_SIGNS if sign.search(html))
    return phpbb >= 2 and phpbb > smf


# --- the page --------------------------------------------------------------------------

class _Block(NamedTuple):
    """The nodes holding one post: a prosilver `div#pNNN`, or subsilver2's table rows.
    (A tuple: made for every post of every page, a frozen dataclass cost a hundredth of
    a page's parse.)"""

    post_id: int
    nodes: tuple[LexborNode, ...]
    table: bool
    """True for subsilver2-like table rows (body in `div.postbody`, author in `b.postauthor`)."""

    @property
    def name(self) -> str:
        return f"post #p{self.post_id}"


def parse_page(html: str | PageText, url: str, *, tz: tzinfo, now: datetime,
               forum_tz: tzinfo | None = None,
               source: bytes | str | None = None) -> TopicPage:
    """Parse one phpBB topic page read from `url`. Text dates (edit notices) are read in
    `forum_tz` when the GM gave one, else in the zone the page states or shows
    (`page_zone`), else in `tz`. `source` is what the C parser reads when not the text
    itself (`common.decode_page`)."""
    tree = page_tree(source_of(html) if source is None else source)
    tz = forum_tz or page_zone.stated_zone(tree) or page_zone.offset_from_times(
        tree, lambda text, zone: parse_forum_time(text, zone, now)) or tz
    clean_url = strip_session_ids(url).split("#", 1)[0]
    blocks = _find_blocks(tree)
    if not blocks:
        _raise_no_posts(tree, clean_url)
    pages = _pagination(tree, clean_url, len(blocks))
    topic_id = _topic_id(tree, clean_url)
    if topic_id is None:
        raise LayoutError(
            f"{clean_url}: no topic id (t=N) in the URL or the page's links, so the topic's "
            "pages cannot be addressed: give the topic URL (viewtopic.php?t=N)", clean_url,
            what="the topic id")
    base = _script_base(clean_url)
    forum_id = _url_param(clean_url, "f")
    has = _Has.of(tree)
    posts = tuple(
        _parse_post(block, clean_url, base, pages.page, pages.start + index, tz, now, has)
        for index, block in enumerate(blocks)
    )
    return TopicPage(
        software="phpbb",
        version=_version(html),
        url=clean_url,
        topic_id=topic_id,
        title=_title(tree),
        page=pages.page,
        page_count=pages.page_count,
        per_page=pages.per_page,
        page_urls=common.page_urls(pages.page_count, pages.per_page,
                            lambda start: _page_url(base, topic_id, forum_id, start)),
        posts=posts,
    )


def _find_blocks(tree: LexborHTMLParser) -> list[_Block]:
    blocks: list[_Block] = []
    seen: set[int] = set()
    for node in tree.css('div[id^="p"]'):  # (ids not starting with p never match)
        ident = node.id or ""
        if not ident[1:2].isdecimal():  # ("post_content12", "profile12": not an anchor)
            continue
        post_id = _post_number(ident)
        if post_id is not None and post_id not in seen:
            seen.add(post_id)
            blocks.append(_Block(post_id, (node,), False))  # (positional: a third of the cost)
    if blocks:
        return blocks
    for anchor in tree.css("a[name], a[id]"):  # subsilver2: <tr><td><a name="p24"></a>
        m = _POST_ANCHOR.match(anchor.attrs.get("name") or anchor.attrs.get("id") or "")
        row = _ancestor(anchor, "tr")
        if m and row is not None and int(m.group(1)) not in seen:
            seen.add(int(m.group(1)))
            blocks.append(_Block(int(m.group(1)), tuple(_post_rows(row)), table=True))
    return blocks


_POST_ANCHOR = re.compile(r"^p(\d+)$")


def _post_number(ident: str) -> int | None:
    """The post number of an anchor id ("p123", as `_POST_ANCHOR` reads it), else None:
    its digits told by `str.isdecimal` (what `\\d` matches), the regex only for an id
    ending in a newline (which `$` lets by). A page has some forty ids starting with
    "p" (`post_content123`, `profile123`), a regex match each cost more than the rest."""
    if ident[1:].isdecimal() and ident[:1] == "p":
        return int(ident[1:])
    m = _POST_ANCHOR.match(ident) if ident.endswith("\n") else None
    return int(m.group(1)) if m else None


def _post_rows(first: LexborNode) -> Iterator[LexborNode]:
    """The header row of a subsilver2 post and the rows after it, up to the spacer."""
    yield first
    row = first.next
    while row is not None:
        if row.tag == "tr":
            if row.css_first("td.spacer") is not None or any(
                _POST_ANCHOR.match(a.attrs.get("name") or "") for a in row.css("a[name]")
            ):
                return
            yield row
        row = row.next


def _raise_no_posts(tree: LexborHTMLParser, url: str) -> None:
    if tree.css_first("input[type='password']") is not None:  # the caller names the login
        raise LayoutError(
            f"{url}: no posts on the page, which shows a login form instead", url,
            what="the posts (a login form is shown instead)")
    message = tree.css_first("#message")  # phpBB's "The requested topic does not exist."
    if message is not None and clean_text(text_of(message)):
        raise NotAThreadError(
            f"{url}: the forum shows no topic but the message {clean_text(text_of(message))!r}: "
            "check the thread's address", url)
    body = tree.body
    classes = (body.attrs.get("class") or "") if body is not None else ""
    if "section-viewtopic" in classes:
        raise LayoutError(
            f"{url}: a phpBB topic page, but no post (an element with id=\"pNNN\") was found "
            "in it: the style is not understood", url, what="the posts")
    raise NotAThreadError(
        f"{url} is a phpBB page but not a topic (no posts on it): give the address of the "
        "game thread itself, e.g. https://forum.example.org/viewtopic.php?t=1234", url)


# --- pagination ------------------------------------------------------------------------

@dataclass(frozen=True)
class _Pages:
    page: int
    page_count: int
    per_page: int | None
    start: int
    """Position in the thread of this page's first post."""


_PAGE_OF = re.compile(
    r"\b(?:page|pagina|página|seite|strona|pagină|sivu|side|sida)\s*(\d+)\s*"
    r"(?:of|di|de|von|sur|z|din|/|van|af|av)\s*(\d+)", re.I)
_START = re.compile(r"[?&;](?:amp;)?start=(\d+)")


def _pagination(tree: LexborHTMLParser, url: str, post_count: int) -> _Pages:
    """Where this page sits in its thread, from the pagination boxes every style shows."""
    boxes = _pagination_boxes(tree)
    page = count = None
    numbers: list[int] = []
    offsets: list[tuple[int, int]] = []
    stated: list[int] = []
    for box in boxes:
        text = clean_text(text_of(box))
        m = _PAGE_OF.search(text)
        if m and page is None:
            page, count = int(m.group(1)), int(m.group(2))
        active = box.css_first("li.active span, li.active a, li.active strong")
        if active is not None and clean_text(text_of(active)).isdigit() and page is None:
            page = int(clean_text(text_of(active)))
        for link in box.css("a[href]"):
            label = clean_text(text_of(link))
            href = link.attrs.get("href") or ""
            if not label.isdigit() or ("viewtopic" not in href and "start=" not in href):
                continue
            numbers.append(int(label))
            start = _START.search(href)
            if start:
                offsets.append((int(label), int(start.group(1))))
        for node in box.css("[data-per-page]"):
            value = node.attrs.get("data-per-page") or ""
            if value.isdigit():
                stated.append(int(value))
    shown = page is not None
    page = page or 1
    count = max([count or 1, page, *numbers])
    linked = common.per_page_from_links(offsets, stated)
    offset = _page_offset(tree, url, page if shown else None, linked)
    per_page = linked or common.per_page_from_offset(offset, page)
    if per_page is None and page < count:
        per_page = post_count  # a page before the last one is full
    if per_page is None and count > 1:
        raise LayoutError(
            f"{url}: page {page} of {count}, but neither the page's links nor its URL tell how "
            "many posts a page holds", url, what="the posts per page")
    if offset is not None:
        start = offset
    elif page == 1:
        start = 0
    else:
        start = (page - 1) * (per_page or 0)
    return _Pages(page, count, per_page, start)


_BOXES = ".pagination, .paging, td.nav, td.gensmall, .pagination-wrapper"
_BOX_CLASSES = frozenset({"pagination", "paging", "pagination-wrapper"})
_CELL_CLASSES = frozenset({"nav", "gensmall"})
_BOX_CANDIDATES = '[class*="pagin" i], td:is(.nav, .gensmall)'
"""The elements that may be boxes: a class holding "pagin" in any case (each of
`_BOX_CLASSES` does), and the cells; two selectors cost lexbor 60 % of `_BOXES`' five."""


def _pagination_boxes(tree: LexborHTMLParser) -> list[LexborNode]:
    """`tree.css(_BOXES)`: the boxes in document order, each once per selector it matches
    (as lexbor lists them), from `_BOX_CANDIDATES`, each told by its classes. Where its
    classes as written do not say what lexbor matched (a class in another case, which it
    matches on a quirks-mode page; odd spaces), `_BOXES` is asked."""
    boxes: list[LexborNode] = []
    for node, listed in listed_once(tree.css(_BOX_CANDIDATES)):
        classes = node.attrs.get("class") or ""
        tokens = common.plain_classes(classes)
        if tokens is None or any(t not in _BOX_CLASSES and t.lower() in _BOX_CLASSES
                                 or t not in _CELL_CLASSES and t.lower() in _CELL_CLASSES
                                 for t in tokens):
            return tree.css(_BOXES)
        cell = node.tag == "td" and not _CELL_CLASSES.isdisjoint(tokens)
        if listed != ("pagin" in classes.lower()) + cell:
            return tree.css(_BOXES)
        times = len(_BOX_CLASSES.intersection(tokens))
        if node.tag == "td":
            times += len(_CELL_CLASSES.intersection(tokens))
        boxes += [node] * times
    return boxes


def _page_offset(
    tree: LexborHTMLParser, url: str, page: int | None, per_page: int | None
) -> int | None:
    """The position of the page's first post, as the page itself says it, not as the URL
    asked: phpBB answers a `start=` past the end (after a moderator deleted posts) with the
    last page. The canonical link (3.1+) carries the start phpBB really used, the URL the
    start asked for; either is believed when it lies on the page the pagination shows (an
    odd start such as 7 included), else the page number gives it."""
    candidates = []
    canonical = _canonical(tree)
    if canonical and "viewtopic" in canonical and _url_param(canonical, "t"):
        candidates.append(_url_param(canonical, "start") or "0")
    candidates.append(_url_param(url, "start"))
    starts = [int(v) for v in candidates if v and v.isdigit()]
    if page is None or per_page is None:
        return starts[0] if starts else None
    for start in starts:
        if start // per_page + 1 == page:
            return start
    return (page - 1) * per_page


# --- topic, title, version -------------------------------------------------------------

_TOPIC_IN_HREF = re.compile(
    r"(?:viewtopic|posting)[^?\"'\s]*\?(?:[^\"'\s#]*?[&;])?(?:amp;)?t=(\d+)")


def _topic_id(tree: LexborHTMLParser, url: str) -> int | None:
    """The topic id: from the URL, else the page's canonical link, title link, forms, buttons."""
    from_url = _url_param(url, "t")
    if from_url and from_url.isdigit():
        return int(from_url)
    candidates: list[str] = [_canonical(tree) or ""]
    candidates += [a.attrs.get("href") or "" for a in tree.css("h2 a[href], h1 a[href]")]
    candidates += [a.attrs.get("href") or "" for a in tree.css(".pagination a[href]")]
    candidates += [f.attrs.get("action") or "" for f in tree.css("form[action]")]
    candidates += [a.attrs.get("href") or "" for a in tree.css("a[href*='mode=reply']")]
    topic_id = common.first_id(_TOPIC_IN_HREF, candidates)
    if topic_id is not None:
        return topic_id
    hidden = tree.css_first("input[name='t']")
    value = hidden.attrs.get("value") if hidden is not None else None
    return int(value) if value and value.isdigit() else None


def _canonical(tree: LexborHTMLParser) -> str | None:
    link = tree.css_first("link[rel='canonical']")
    return link.attrs.get("href") if link is not None else None


def _title(tree: LexborHTMLParser) -> str | None:
    for selector in ("h2.topic-title", "#page-body h2", "#pageheader h2", "h2"):
        node = tree.css_first(selector)
        if node is not None and clean_text(text_of(node)):
            return clean_text(text_of(node))
    node = tree.css_first("title")
    if node is None:
        return None
    text = clean_text(text_of(node))
    if " - " in text and "View topic" in text:  # phpBB 3.0: "Board • View topic - Title"
        return text.split(" - ", 1)[1]
    return text.rsplit(" - ", 1)[0] or None


def _version(html: str | PageText) -> str:
    """A guess at the phpBB generation from what each one added to or dropped from its markup."""
    if "<time datetime=" in html and 'class="author"' in html:
        return "3.3"
    if "phpBB Limited" in html or 'class="icon fa-' in html:
        return "3.2"
    if any(sign in html for sign in (
            "phpBB Group", "corners-top", 'class="postauthor"', "style_cookie = 'phpBBstyle'")):
        return "3.0"
    return "3.x"


# --- URLs --------------------------------------------------------------------------------

def _url_param(url: str, name: str) -> str | None:
    """The first value of the query parameter `name`, as `parse_qsl` reads it; split by
    hand when there is nothing to unquote (a third of `parse_qsl`'s cost, asked five
    times a page)."""
    query = urlsplit(url).query.replace("&amp;", "&")
    if "%" in query or "+" in query:
        pairs = parse_qsl(query, keep_blank_values=True)
    else:  # (what parse_qsl does with such a query: empty pieces skipped, "=" optional)
        pairs = [piece.partition("=")[::2] for piece in query.split("&") if piece]
    for key, value in pairs:
        if key == name:
            return value
    return None


def _script_base(url: str) -> str:
    """The board's address up to the script name ("http://host/forum/")."""
    parts = urlsplit(url)
    directory = parts.path.rsplit("/", 1)[0] + "/" if "/" in parts.path else "/"
    return urlunsplit((parts.scheme, parts.netloc, directory, "", ""))


def _page_url(base: str, topic_id: int, forum_id: str | None, start: int) -> str:
    query = [("f", forum_id)] if forum_id and forum_id.isdigit() else []
    query.append(("t", str(topic_id)))
    if start:
        query.append(("start", str(start)))
    if all(value.isascii() for _, value in query):  # digits, which urlencode leaves be
        return f"{base}viewtopic.php?" + "&".join(f"{key}={value}" for key, value in query)
    return f"{base}viewtopic.php?{urlencode(query)}"


# --- one post ----------------------------------------------------------------------------

@dataclass(frozen=True)
class _Has:
    """What the page holds anywhere: a post need not be searched for what the page does
    not hold. (Whether a post quotes, or holds a search highlight, is told from its own
    HTML, `_may_quote`, `_unhighlighted`: walks of the page for them cost more.)"""

    notices: bool = False
    """The page's style prints edit notices as `.notice` (prosilver): one of them holds
    one, so a post without such a `.notice` was not edited."""

    @classmethod
    def of(cls, tree: LexborHTMLParser) -> _Has:
        return cls(notices=any(_EDIT_PHRASES.search(clean_text(text_of(n)))
                               for n in tree.css(".notice")))


def _parse_post(block: _Block, url: str, base: str, page: int, position: int,
                tz: tzinfo, now: datetime, has: _Has) -> Post:
    parts = None if block.table else _parts(block.nodes[0], has)
    body = parts.body if parts is not None else _body(block)
    if body is None:
        raise _missing(url, f"the body of {block.name}",
                       "div.postbody" if block.table else "div.content")
    outside = (_Outside(block, body, parts.classes, parts.before_body) if parts is not None
               else _Outside(block, body, {}))
    author_node, author = _author_node(block, outside)
    if not author:
        raise _missing(url, f"the author of {block.name}",
                       "b.postauthor" if block.table else "the \"by NAME\" line or profile")
    posted_at = _posted_at(block, outside, author, tz, now)
    if posted_at is None:
        raise _missing(url, f"the time of {block.name}",
                       "the \"Posted:\" date" if block.table else "the date after \"by NAME »\"")
    edit = _edit_note(block, body, outside, url, tz, now, has)
    inner = body.inner_html or ""
    lowered = common.ascii_lowered(inner)
    quotes = tuple(_quotes(body)) if _may_quote(body, inner) else ()
    if _unhighlighted(body, lowered):
        inner = body.inner_html or ""
        lowered = common.ascii_lowered(inner)
    return built(  # (Post's own __init__ sets its ten fields one by one: 2 % of a parse)
        Post,
        post_id=block.post_id,
        position=position,
        author=author,
        author_id=_member_id(author_node, outside, block.table),
        posted_at=posted_at,
        body_html=_clean_body_html(inner, lowered),
        page=page,
        edit=edit,
        quotes=quotes,
        url=f"{base}viewtopic.php?p={block.post_id}#p{block.post_id}",
    )


def _missing(url: str, what: str, looked_for: str) -> LayoutError:
    return common.layout_error(url, what, f"{what} was not found (looked for {looked_for})")


# What a post's elements are asked for first, in one query (three cost three set-ups of
# the selector engine, a tenth of a post's parsing): its body, its "by NAME » DATE"
# lines, its edit notices (on a page whose style prints them as `.notice`).
_PARTS = "div.content, .author"
_PARTS_NOTICES = "div.content, .author, .notice"


def _parts(top: LexborNode, has: _Has) -> _Parts | None:
    """A prosilver-like post's body (its first `div.content`), and the elements under
    `top` of the classes "author" and "notice" (the latter when `has.notices`), as
    `top.css(".author")` would list them, from one query; which of them come before the
    body. None when the post has no `div.content`, or when lexbor may have matched a
    class otherwise than as written (a class differing in case, on a quirks-mode page;
    odd spaces): the caller asks the usual way."""
    body: LexborNode | None = None
    classes: dict[str, list[LexborNode]] = {"author": []}
    if has.notices:
        classes["notice"] = []
    before_body: set[int] = set()
    last = None
    for node in top.css(_PARTS_NOTICES if has.notices else _PARTS):
        key = node.mem_id
        if key == last:
            continue  # (matching two of the selectors, it is listed twice in a row)
        last = key
        tokens = common.plain_classes(node.attrs.get("class") or "")
        if tokens is None:
            return None
        matched = False
        if "content" in tokens and node.tag == "div":
            body = body or node
            matched = True
        for name, found in classes.items():
            if name in tokens:
                found.append(node)
                matched = True
        if not matched:
            return None
        if body is None:
            before_body.add(key)
    return _Parts(body, classes, frozenset(before_body)) if body is not None else None


class _Parts(NamedTuple):
    """What `_parts` found of a post in one query."""

    body: LexborNode
    classes: dict[str, list[LexborNode]]
    before_body: frozenset[int]
    """The elements of `classes` before the body in the document (so not inside it)."""


def _body(block: _Block) -> LexborNode | None:
    if block.table:
        return _first(block.nodes, "div.postbody")
    content = _first(block.nodes, "div.content")
    if content is not None:
        return content
    postbody = _first(block.nodes, "div.postbody")  # older div styles: body straight in postbody
    if postbody is not None and postbody.css_first(".author") is None:
        return postbody
    return None


_PROFILE_LINK = re.compile(r"memberlist[^?]*\?(?:[^\"'#]*?[&;])?mode=viewprofile")
_NAME_SELECTOR = ".username, .username-coloured"
_LINE_PARTS = _NAME_SELECTOR + ", time[datetime]"


def _is_profile_link(node: LexborNode) -> bool:
    return node.tag == "a" and bool(_PROFILE_LINK.search(node.attrs.get("href") or ""))


def _author_node(block: _Block, outside: _Outside) -> tuple[LexborNode | None, str]:
    """The author's name and the element it is read from: the "by NAME" line, else the
    profile column, else subsilver2's bold; "" when none holds one."""
    for node in _author_candidates(outside):
        name = clean_text(text_of(node))
        if name:
            return node, name
    return None, ""


def _author_candidates(outside: _Outside) -> Iterator[LexborNode]:
    """The places a name may stand, best first; each looked in only if those before were
    empty (nearly always the first one holds it)."""
    for line in outside.of_class("author"):
        yield from outside.in_line(line)[0]
        yield from (a for a in line.css("a") if _is_profile_link(a))
        yield from line.css("strong")
    for profile in outside.of_class("postprofile"):
        yield from profile.css(_NAME_SELECTOR)
        yield from profile.css(".post-author a")
        yield from (a for a in profile.css("a") if _is_profile_link(a))
    yield from outside.of_class("postauthor")


def _member_id(author_node: LexborNode | None, outside: _Outside,
               table: bool) -> int | None:
    links: list[LexborNode] = []
    if author_node is not None:
        links += [author_node] if author_node.tag == "a" else author_node.css("a")
    if not links or table:  # guests and subsilver2: the profile links around the post
        name = clean_text(text_of(author_node)) if author_node is not None else ""
        links += [n for n in outside.nodes if _is_profile_link(n)
                  and (table or clean_text(text_of(n)) == name)]
    for link in links:
        href = link.attrs.get("href") or ""
        number = common.member_id(href)
        if _PROFILE_LINK.search(href) and number is not None:
            return number
    return None


def _posted_at(block: _Block, outside: _Outside, author: str, tz: tzinfo,
               now: datetime) -> datetime | None:
    lines = outside.of_class("author")
    for line in lines:
        stamp = outside.in_line(line)[1]
        if stamp is not None:
            parsed = dates.parse_iso(stamp.attrs.get("datetime") or "", tz)
            if parsed is not None:
                return parsed
    for node in block.nodes:  # custom styles: <div id="p1" data-date="2020-04-30 11:16:53">
        parsed = dates.parse_iso(node.attrs.get("data-date") or "", tz)
        if parsed is not None:
            return parsed
    for line in lines:  # "by NAME » DATE"; styles without the » still print NAME before DATE
        text = clean_text(text_of(line))
        after = text.rsplit("»", 1)[1] if "»" in text else text.split(author, 1)[-1]
        parsed = parse_forum_time(after, tz, now)
        if parsed is not None:
            return parsed
    if block.table:  # subsilver2: <a href="#p24"><img></a><b>Posted:</b> DATE
        target = f"#p{block.post_id}"
        for link in (n for n in outside.nodes if n.tag == "a"):
            if (link.attrs.get("href") or "").endswith(target) and link.parent is not None:
                parsed = parse_forum_time(_after_label(link.parent), tz, now)
                if parsed is not None:
                    return parsed
    return None


def _after_label(node: LexborNode) -> str:
    """The text of a "Posted: DATE" cell without its bold label."""
    text = clean_text(text_of(node))
    label = node.css_first("b, strong")
    if label is not None and clean_text(text_of(label)) and clean_text(text_of(label)) in text:
        text = text.split(clean_text(text_of(label)), 1)[1]
    return text


# The start of phpBB's "Last edited by NAME on DATE, edited N times in total." per language.
_EDIT_PHRASES = re.compile(
    r"^\s*(?:Last edited by|Ultima modifica di|Zuletzt geändert von|Dernière édition par|"
    r"Última edición por|Laatst bewerkt door|Última edição por|Ostatnio edytowany przez)",
    re.I)


# The same anywhere in a text: a post whose text holds none has no edit notice, so its
# elements need not be searched one by one (most posts are never edited).
_EDIT_PHRASE_IN = re.compile(
    _EDIT_PHRASES.pattern.replace(r"^\s*", "", 1).replace(" ", r"[\s\xa0]+"), re.I)
"""(On a post's raw text: the spaces of a phrase may be any run of spaces, as clean_text
would have made one of them.)"""
# A word each phrase above holds: a text holding none of them holds no phrase, and
# looking for them is far cheaper than the regex (most posts are never edited).
_EDIT_WORDS = ("edited", "modifica", "geändert", "édition", "edición", "bewerkt", "edição",
               "edytowany")


# A piece of each word above that every text holding the word in any case holds, once
# its UTF-8 bytes are lowered (ASCII letters only, a fraction of str.lower's cost on a
# text with any accent): the word's ASCII letters but a "k" (the Kelvin sign lowers to
# "k"; no other character but "İ" lowers to an ASCII letter, and its "i" is followed by a
# dot, never by the next letter of a word), and "ç" as either case's bytes.
_EDIT_WORD_PIECES = (b"edited", b"modifica", b"ndert", b"dition", b"edici", b"edi\xc3\xa7",
                     b"edi\xc3\x87", b"bewer", b"edytowany")


def _holds_edit_phrase(text: str) -> bool:
    lowered_bytes = common.ascii_lowered(text)
    if not any(piece in lowered_bytes for piece in _EDIT_WORD_PIECES):
        return False  # (no word either: the test below would say the same)
    lowered = text.lower()
    return any(w in lowered for w in _EDIT_WORDS) and bool(_EDIT_PHRASE_IN.search(text))


# "by NAME on DATE" when the editor's name is not a link.
_EDITOR_IN_TEXT = re.compile(
    r"\b(?:by|di|von|par|por|door|przez)\s+(.+?)\s+(?:on|il|am|le|el|em|op|dnia)\s+(.*)$")


def _edit_note(block: _Block, body: LexborNode, outside: _Outside, url: str,
               tz: tzinfo, now: datetime, has: _Has) -> EditNote | None:
    notices = [n for n in outside.of_class("notice")
               if _EDIT_PHRASES.search(clean_text(text_of(n)))] if has.notices else []
    # Not in a `.notice`: looked for in the post's other elements, on a page whose style
    # does not print its notices so (the post's whole text read for it on every page was a
    # sixteenth of a phpBB page's parsing).
    if (not notices and not has.notices
            and any(_holds_edit_phrase(text_of(n)) for n in block.nodes)):
        # subsilver2 and custom styles: the smallest element starting with it
        holding_body = _ancestor_ids(body)  # whose text would start with the post's own words
        found = [n for n in outside.nodes if n.tag in ("div", "span", "td", "p")
                 and n.mem_id not in holding_body
                 and _EDIT_PHRASES.search(clean_text(text_of(n)))]
        notices = sorted(found, key=lambda n: len(text_of(n)))[:1]
    if not notices:
        return None
    notice = notices[0]
    sentence, reason = _notice_parts(notice)
    editor_node = notice.css_first(_NAME_SELECTOR) or next(
        (a for a in notice.css("a") if _is_profile_link(a)), None)
    editor = clean_text(text_of(editor_node)) if editor_node is not None else None
    if editor and editor in sentence:
        rest = sentence.split(editor, 1)[1]
    else:
        m = _EDITOR_IN_TEXT.search(sentence)
        editor, rest = (m.group(1), m.group(2)) if m else (None, sentence)
    when, _, tail = rest.rpartition(",")
    count = re.search(r"\d+", tail)
    at = parse_forum_time(when, tz, now)
    if at is None:
        raise _missing(url, f"the time of the edit notice of {block.name} ({sentence!r})",
                       "a date after \"Last edited by NAME on\"")
    return EditNote(at=at, by=editor, reason=reason,
                    count=int(count.group()) if count else None)


def _notice_parts(notice: LexborNode) -> tuple[str, str | None]:
    """An edit notice's sentence, the words of its HTML before the first line break ("Last
    edited by NAME on DATE, edited 1 time in total."), and its reason, after it (the
    `<em>` there, else the words after a label: "Reason: typo"), None without one.

    Read off the notice's own nodes, before and after its first `<br>`; HTML that parses
    otherwise once cut there (comments, raw text, tables; a tag that only begins with
    "br") is cut and parsed again, as each half of the notice's HTML. (A new document
    for each half cost a fortieth of a phpBB page's parsing in all: two per edited post.)"""
    html = notice.inner_html or ""
    sentence_html, cut, reason_html = html.partition("<br")
    if cut and (not reason_html[:1] or reason_html[0] not in " \t\n\r\f/>"):
        return _notice_parts_parsed(sentence_html, reason_html)
    if any(tag in html for tag in _REPARSED_TAGS):
        return _notice_parts_parsed(sentence_html, reason_html)
    before: list[str] = []
    after: list[str] = []
    emphasis: LexborNode | None = None
    broken = False
    for node in notice.traverse(include_text=True):
        tag = node.tag
        if tag == "-text":
            (after if broken else before).append(node.text_content or "")
        elif tag == "br" and not broken:
            broken = True
        elif tag == "em" and broken and emphasis is None:
            emphasis = node
    if not cut:
        return clean_text("".join(before)), None
    if not broken:  # (the cut was elsewhere than at a `<br>`: parsed again, to be sure)
        return _notice_parts_parsed(sentence_html, reason_html)
    return clean_text("".join(before)), _reason(
        text_of(emphasis) if emphasis is not None else "".join(after), emphasis is not None)


_REPARSED_TAGS = ("<!--", "<script", "<style", "<template", "<textarea", "<title", "<xmp",
                  "<noscript", "<noembed", "<noframes", "<iframe", "<plaintext", "<table",
                  "<select", "<svg", "<math")
"""What parses otherwise in a piece of a notice's HTML than in the notice (its text moved,
or taken as markup)."""


def _notice_parts_parsed(sentence_html: str, reason_html: str) -> tuple[str, str | None]:
    """`_notice_parts` from the two halves of the notice's HTML, each parsed again."""
    sentence = clean_text(LexborHTMLParser(sentence_html).text())
    if not reason_html:
        return sentence, None
    fragment = LexborHTMLParser("<div><br" + reason_html + "</div>")
    emphasis = fragment.css_first("em")
    text = text_of(emphasis) if emphasis is not None else fragment.text()
    return sentence, _reason(text, emphasis is not None)


def _reason(text: str, emphasized: bool) -> str | None:
    """An edit's reason from the text after the notice's line break: the `<em>`'s, else
    what follows the label ("Reason: typo")."""
    text = clean_text(text)
    if not emphasized and ":" in text:
        text = text.split(":", 1)[1].strip()
    return text or None


# --- quotes --------------------------------------------------------------------------

_WROTE = re.compile(
    r"^(?:by\s+)?(.*?)\s*(?:wrote|ha scritto|schrieb|a écrit|escribió|escreveu|napisał|schreef|"
    r"skrev|kirjoitti|írta|napsal|yazdı|писал|έγραψε)\w*(?:\(а\))?\s*:", re.I | re.S)
_QUOTED_POST = re.compile(r"(?:[?&;](?:amp;)?p=|#p)(\d+)")


def _may_quote(body: LexborNode, inner_html: str) -> bool:
    """Whether `_quotes` may find a quote box in a post's body: its HTML (`inner_html`)
    opens a blockquote or a div (subsilver2's `div.quotetitle`), or the body is a quote
    box itself. Most posts quote nothing, and a search of their HTML costs a fraction of
    a query."""
    if may_hold_tag(body, inner_html, "blockquote") or "<div" in inner_html:
        return True
    return body.tag == "div" and "quotetitle" in (body.attrs.get("class") or "").lower()


def _quotes(body: LexborNode) -> Iterator[Quote]:
    """Quote boxes in document order (an outer quote before the ones inside it)."""
    for box in body.css("blockquote, div.quotetitle"):
        if box.tag != "blockquote":  # subsilver2: <div class="quotetitle">NAME wrote:</div>
            m = _WROTE.match(clean_text(text_of(box)))
            yield Quote(clean_text(m.group(1)) or None if m else None, None)
            continue
        cite = next((c for c in box.css("cite") if _same(_ancestor(c, "blockquote"), box)), None)
        post_id = _quoted_post_id(box, cite)
        if cite is None:
            yield Quote(None, post_id)
            continue
        yield Quote(_cited_name(cite), post_id)


def _cited_name(cite: LexborNode) -> str | None:
    named = cite.css_first(".quote-author")
    scope = named if named is not None else cite
    for link in scope.css("a"):
        if _is_profile_link(link) and clean_text(text_of(link)):
            return clean_text(text_of(link))
    text = clean_text(text_of(scope))
    m = _WROTE.match(text)
    if m:
        return clean_text(m.group(1)) or None
    if named is not None:
        return re.sub(r"^by\s+", "", text) or None
    return text.rstrip(":").strip() or None


def _quoted_post_id(box: LexborNode, cite: LexborNode | None) -> int | None:
    hrefs = [box.attrs.get("cite") or ""]
    if cite is not None:
        hrefs += [f"#p{a.attrs.get('data-post-id')}" for a in cite.css("a[data-post-id]")]
        hrefs += [a.attrs.get("href") or "" for a in cite.css("a[href*='viewtopic']")]
    return common.first_id(_QUOTED_POST, hrefs)


# --- body HTML -------------------------------------------------------------------------

_LEFTOVER_SEPARATOR = re.compile(r"(?:&amp;|&|\?)(?=#|$)")


_ATTRIBUTE = re.compile(r'(?<==")[^"<>]*(?=")')


def _unhighlighted(body: LexborNode, lowered: bytes) -> bool:
    """Unwrap the search highlights (`span.posthilit`, which phpBB adds to a page read
    with `hilit=`) in a post's body: they are not part of the post. Looked for only when
    the body's HTML (`lowered`: `common.ascii_lowered`) names the class, or the body is a
    span. Whether there were any."""
    if b"posthilit" not in lowered and body.tag != "span":
        return False
    highlights = body.css("span.posthilit")
    for hilit in highlights:
        hilit.unwrap()
    return bool(highlights)


def _clean_body_html(html: str, lowered: bytes | None = None) -> str:
    """The body without session ids, so a first-visit page gives the same body as any other
    (`lowered`: the HTML's `common.ascii_lowered`, when made already)."""
    stripped = strip_session_ids_in_html(html, lowered)
    if stripped is html:
        return html
    # strip_session_ids_in_html leaves the separator before a removed sid at the end of a
    # link ("?p=8&amp;#p8"); drop it where it now stands right before a fragment or quote.
    return _ATTRIBUTE.sub(lambda m: _LEFTOVER_SEPARATOR.sub("", m.group()), stripped)


# --- dates -------------------------------------------------------------------------------

def parse_forum_time(text: str, tz: tzinfo, now: datetime) -> datetime | None:
    """A phpBB date somewhere in `text` ("Sat Nov 21, 2026 12:01 pm", "martedì 21 gennaio
    2020, 14:24", "Today, 12:01", "5 minutes ago") in the board's `tz`, as aware UTC; None
    when the text holds no date and time. Boards that print slashed dates mostly put the
    day first."""
    return dates.find_forum_time(text, tz, now, slashes=dates.Slashes.DAY_FIRST)


# --- small tree helpers ------------------------------------------------------------------

class _Outside:
    """The elements of a post outside its body, in document order: those of a class found
    by the C parser's selectors (a Python walk over every element, asking each for its
    class once per question, took most of a page's parsing time), all of them only when
    a question needs them."""

    def __init__(self, block: _Block, body: LexborNode, matched: dict[str, list[LexborNode]],
                 before_body: frozenset[int] = frozenset()) -> None:
        self._block = block
        self._body = body
        self._by_class: dict[str, list[LexborNode]] = {}
        self._matched = matched
        """Per class, what `.css(".class")` of the block's one node found already."""
        self._before_body = before_body
        """Those of them that come before the body in the document: not inside it."""
        self._lines: dict[int, tuple[list[LexborNode], LexborNode | None]] = {}

    def in_line(self, line: LexborNode) -> tuple[list[LexborNode], LexborNode | None]:
        """The names in a "by NAME » DATE" line (`line.css(_NAME_SELECTOR)`, each once),
        and its first `time[datetime]`, from one query (two cost two set-ups of the
        selector engine, a fifteenth of a post's parsing)."""
        key = line.mem_id
        found = self._lines.get(key)
        if found is None:
            names: list[LexborNode] = []
            stamp: LexborNode | None = None
            for node, times in listed_once(line.css(_LINE_PARTS)):
                if node.tag == "time" and "datetime" in node.attrs:
                    stamp = stamp or node
                    if times == 1:
                        continue  # (a time, not a name)
                names.append(node)
            found = self._lines[key] = (names, stamp)
        return found

    @cached_property
    def nodes(self) -> list[LexborNode]:
        return list(_outside(self._block.nodes, self._body))

    def of_class(self, name: str) -> list[LexborNode]:
        if name not in self._by_class:
            found: list[LexborNode] = []
            for top in self._block.nodes:
                if top.mem_id == self._body.mem_id:
                    continue
                matched = self._matched.get(name)
                if matched is not None:  # (each holds the class: none but the top need ask)
                    if name in (top.attrs.get("class") or "").split():
                        found.append(top)
                    found += [node for node in matched if node.mem_id in self._before_body
                              or not _within(node, self._body, top)]
                    continue
                for node in (top, *top.css(f".{name}")):
                    if (name in (node.attrs.get("class") or "").split()
                            and not _within(node, self._body, top)):
                        found.append(node)
            self._by_class[name] = found
        return self._by_class[name]


def _within(node: LexborNode, body: LexborNode, top: LexborNode) -> bool:
    """Whether `node`, found under `top`, is `body` or inside it."""
    current: LexborNode | None = node
    while current is not None and current.mem_id != top.mem_id:
        if current.mem_id == body.mem_id:
            return True
        current = current.parent
    return False


def _outside(nodes: Iterable[LexborNode], skip: LexborNode) -> Iterator[LexborNode]:
    """Every element under `nodes` (themselves included) except `skip` and what it holds."""
    stack = list(reversed(list(nodes)))
    while stack:
        node = stack.pop()
        if node.mem_id == skip.mem_id:
            continue
        yield node
        stack.extend(reversed(list(node.iter())))


def _first(nodes: Iterable[LexborNode], selector: str) -> LexborNode | None:
    for node in nodes:
        match = node.css_first(selector)
        if match is not None:
            return match
    return None


def _ancestor(node: LexborNode, tag: str) -> LexborNode | None:
    current = node.parent
    while current is not None and current.tag != tag:
        current = current.parent
    return current


def _ancestor_ids(node: LexborNode) -> set[int]:
    ids: set[int] = set()
    current = node.parent
    while current is not None:
        ids.add(current.mem_id)
        current = current.parent
    return ids


def _same(a: LexborNode | None, b: LexborNode | None) -> bool:
    return a is not None and b is not None and a.mem_id == b.mem_id
