"""A topic page's tree, an element's text, and what a post's serialized HTML says it
cannot hold.

Each query lexbor runs walks the tree it is asked of; a post's body is serialized anyway
(its HTML is kept), so a search of that text answers "is there a blockquote in it?" far
cheaper than a query (most posts quote nothing).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from selectolax.lexbor import LexborDocumentOptions, LexborHTMLParser, LexborNode

__all__ = ["listed_once", "may_hold_tag", "page_tree", "stamped_times", "text_of"]


def page_tree(source: bytes | str) -> LexborHTMLParser:
    """The page's tree as its markup wrote it: without lexbor's DOM events after the parse
    (on a page, its only one copies a `<select>`'s chosen option into a
    `<selectedcontent>`, which no forum writes and no parser reads)."""
    return LexborHTMLParser(source, options=LexborDocumentOptions.WO_EVENTS)


def may_hold_tag(node: LexborNode, inner_html: str, tag: str) -> bool:
    """Whether `node.css(tag)` may find an element (an HTML tag name, lower case): `node`
    is one, or its inner HTML (`node.inner_html`, serialized already) opens one, since
    lexbor serializes every element's tag in lower case."""
    return node.tag == tag or f"<{tag}" in inner_html


text_of: Callable[[LexborNode], str] = LexborNode.text_lexbor
"""The text of a node and everything in it, as `node.text()` gives it: lexbor's own text
content, one call, where `text()` runs a callback for every text node (half the cost,
read some twenty times a post). The method itself, called as a function: no frame of
ours around it."""


def stamped_times(tree: LexborHTMLParser) -> list[LexborNode]:
    """The page's `<time datetime>` elements, in document order: what the query
    `time[datetime]` finds, from lexbor's list of the `<time>` elements (a third of the
    query's cost: it compares no selector with every element)."""
    return [node for node in tree.tags("time") if "datetime" in node.attrs]


def listed_once(found: list[LexborNode]) -> Iterator[tuple[LexborNode, int]]:
    """Each element a query of several selectors found, with how many of them it matches:
    lexbor lists an element once per selector it matches, in a row."""
    i = 0
    while i < len(found):
        node, key = found[i], found[i].mem_id
        listed = 1
        while i + listed < len(found) and found[i + listed].mem_id == key:
            listed += 1
        i += listed
        yield node, listed
