"""Whether a post or PM the forum shows is the text the assistant sent: the idempotency
check before a retry ("is it there already?") and how a new post's id is found.

The forum never shows what was sent byte for byte: BBCode becomes HTML, smileys become
images, `&` becomes `&amp;`, SMF trims and re-wraps. What survives is the run of words,
so both sides are reduced to their words (casefolded) and compared whole. A smiley
counts as its code on both sides (its image's alt text is the code). Quote headers
("Quote from: X on ...") and code boxes would add words, but the drafts hold neither.
"""

from __future__ import annotations

import hashlib
import html as html_module
import re

from selectolax.lexbor import LexborHTMLParser

# The tags SMF and phpBB render (anything else in brackets, "[Vote: Kat]", is shown as typed).
_BBCODE_TAG = re.compile(
    r"\[/?(?:b|i|u|s|color|size|font|url|iurl|email|ftp|img|quote|code|php|list|\*|li|hr|"
    r"center|left|right|justify|sub|sup|tt|pre|table|tr|td|th|spoiler|nobbc|me|glow|shadow|"
    r"move|abbr|acronym|time|attach|youtube|flash|html|ltr|rtl|black|red|green|blue|white)"
    r"(?:[= ][^\[\]]{0,200})?\]", re.I)
_WORD = re.compile(r"\w+", re.UNICODE)


def bbcode_words(text: str) -> list[str]:
    """The words a reader sees of BBCode source (tags left out, links by their text)."""
    return [w.casefold() for w in _WORD.findall(_BBCODE_TAG.sub(" ", text))]


def html_words(body_html: str) -> list[str]:
    """The words a reader sees of a rendered post or PM body (images by their alt text)."""
    tree = LexborHTMLParser(f"<div>{body_html}</div>")
    for img in tree.css("img"):
        alt = img.attributes.get("alt") or ""
        img.replace_with(f" {alt} ")
    for br in tree.css("br"):
        br.replace_with(" ")
    body = tree.body
    text = body.text(deep=True, separator=" ") if body is not None else ""
    return [w.casefold() for w in _WORD.findall(html_module.unescape(text))]


def words_key(words: list[str]) -> str:
    """A short stable key of a run of words (stored, compared)."""
    return hashlib.sha256(" ".join(words).encode("utf-8")).hexdigest()[:16]


def same_text(sent_bbcode: str, shown_html: str) -> bool:
    return bbcode_words(sent_bbcode) == html_words(shown_html)
