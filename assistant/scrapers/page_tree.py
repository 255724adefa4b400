"""A topic page's tree, and what a post's serialized HTML says it cannot hold.

Each query lexbor runs walks the tree it is asked of; a post's body is serialized anyway
(its HTML is kept), so a search of that text answers "is there a blockquote in it?" far
cheaper than a query (most posts quote nothing).
"""

from __future__ import annotations

from selectolax.lexbor import LexborDocumentOptions, LexborHTMLParser, LexborNode

__all__ = ["may_hold_tag", "page_tree"]


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
