"""Post bodies as text for the checks: the words a reader sees, with or without quotes.

Forum markup stops here: SMF and phpBB both render a quote as `<blockquote>` with a
`<cite>` header, and code as `<code>`; the header is dropped (it is the forum's text,
not the poster's).
"""

from __future__ import annotations

import re

from selectolax.lexbor import LexborHTMLParser

_WS = re.compile(r"\s+")
_BLOCK = ("br", "p", "div", "li", "blockquote", "pre", "tr", "dd", "dt")


def post_text(body_html: str, *, quotes: bool = True) -> str:
    """The visible text of a post body; `quotes=False` leaves out quote boxes."""
    tree = LexborHTMLParser(f"<div id='__body'>{body_html}</div>")
    for cite in tree.css("blockquote cite, div.quoteheader, div.codeheader"):
        cite.decompose()
    if not quotes:
        for box in tree.css("blockquote"):
            box.decompose()
    root = tree.css_first("#__body")
    if root is None:
        return ""
    for tag in _BLOCK:
        for node in root.css(tag):
            node.insert_before("\n")
            if tag != "br":
                node.insert_after("\n")
    return _clean(root.text(separator=""))


def quoted_text(body_html: str) -> str:
    """Only the text inside quote boxes (outermost boxes, headers dropped)."""
    tree = LexborHTMLParser(f"<div id='__body'>{body_html}</div>")
    for cite in tree.css("blockquote cite"):
        cite.decompose()
    return "\n".join(
        _clean(b.text(separator=" "))
        for b in tree.css("blockquote")
        if b.parent is not None and b.parent.tag != "blockquote"
    )


def _clean(text: str) -> str:
    lines = [_WS.sub(" ", line.replace("\xa0", " ")).strip() for line in text.split("\n")]
    return "\n".join(line for line in lines if line)


def possessive(name: str) -> str:
    """ "Kat's", "Tom & Jerry's" (already possessive), "Chris'"."""
    if name.endswith(("'s", "’s")):
        return name
    return name + ("'" if name.endswith("s") else "'s")
