"""Vote-like marks in a post body, and whether the ruleset's markup makes them votes.

`extract_votes(post, rules)` reads a post's body HTML and returns every mark that looks like
a vote, unvote or a mention of voting, each with `usable` and a human reason: counted
markup ("red vote"), or why not ("inside a quote of post 40", "in bold, but this ruleset
counts votes in red", "host's example"). Which player a mark names, and whether the vote
stands (dead players, replaced votes, deadlines), is for `tally.py` to decide.

Reading happens in two steps so that other HTML parsers can be plugged in (the benchmark
compares BeautifulSoup): `chunks_lexbor()` turns the body into text chunks that carry their
context (hidden by a quote / spoiler / code / strike-through; inside which bold or coloured
run), and `marks_from_chunks()` finds the marks in that text.
"""

from __future__ import annotations

import html
import re
from bisect import bisect_right
from collections.abc import Iterable, Mapping
from contextvars import ContextVar, Token
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from rapidfuzz.distance import OSA
from selectolax.lexbor import LexborHTMLParser, LexborNode

from assistant.errors import RulesetError
from assistant.lru import Lru, fingerprint
from assistant.models import Post
from assistant.names import fold
from assistant.settings import known_section, show, typed_fields
from assistant.vote_codes import VoteCode

# ---- colours ---------------------------------------------------------------------------

#: CSS colour names forum colour pickers offer (SMF, phpBB), plus the basic CSS set.
COLOR_NAMES = {
    "black": "#000000",
    "white": "#ffffff",
    "red": "#ff0000",
    "green": "#008000",
    "blue": "#0000ff",
    "purple": "#800080",
    "orange": "#ffa500",
    "yellow": "#ffff00",
    "pink": "#ffc0cb",
    "brown": "#a52a2a",
    "gray": "#808080",
    "grey": "#808080",
    "darkred": "#8b0000",
    "darkblue": "#00008b",
    "darkgreen": "#006400",
    "navy": "#000080",
    "maroon": "#800000",
    "teal": "#008080",
    "lime": "#00ff00",
    "aqua": "#00ffff",
    "cyan": "#00ffff",
    "fuchsia": "#ff00ff",
    "magenta": "#ff00ff",
    "olive": "#808000",
    "silver": "#c0c0c0",
    "beige": "#f5f5dc",
    "crimson": "#dc143c",
    "indigo": "#4b0082",
    "violet": "#ee82ee",
    "gold": "#ffd700",
    "limegreen": "#32cd32",
    "royalblue": "#4169e1",
    "skyblue": "#87ceeb",
    "orangered": "#ff4500",
    "deeppink": "#ff1493",
    "sienna": "#a0522d",
    "chocolate": "#d2691e",
    "darkorange": "#ff8c00",
    "darkviolet": "#9400d3",
}
_HEX_NAMES = {}
for _name, _hex in COLOR_NAMES.items():
    _HEX_NAMES.setdefault(_hex, _name)
_RGB = re.compile(r"rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})")


def normalize_color(value: str) -> str | None:
    """`red`, `#f00`, `#FF0000`, `rgb(255, 0, 0)` -> "#ff0000"; None if not a colour."""
    v = value.strip().lower().rstrip(";").strip()
    if v in COLOR_NAMES:
        return COLOR_NAMES[v]
    if re.fullmatch(r"#[0-9a-f]{3}", v):
        return "#" + "".join(c * 2 for c in v[1:])
    if re.fullmatch(r"#[0-9a-f]{6}", v):
        return v
    m = _RGB.match(v)
    if m:
        return "#" + "".join(f"{min(int(x), 255):02x}" for x in m.groups())
    return None


#: Characters that show as nothing (zero-width spaces and joiners, soft hyphen, BOM).
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))


def visible(text: str | None) -> str | None:
    """A written name without invisible characters ("Jd-\u200b" pasted from a chat is "Jd-")."""
    if text is None or text.isascii():
        return text
    return text.translate(_INVISIBLE).strip() or None


def color_name(hex_value: str) -> str:
    """ "#ff0000" -> "red"; unnamed colours stay as hex."""
    return _HEX_NAMES.get(hex_value, hex_value)


# ---- the ruleset's vote markup -------------------------------------------------------------

FORMS = ("tag", "bold", "color", "plain", "pm")
EDIT_POLICIES = ("count_from_edit", "first_posted")
"""`[votes] edits`: whether an edit can change a vote (see `VoteRules.edits`)."""


@dataclass(frozen=True)
class VoteRules:
    """The `[votes]` section of a ruleset: which markup is a vote and which votes stand."""

    forms: tuple[str, ...] = ("tag", "bold", "color", "plain")
    """Markup that carries a vote: "tag" ([Vote: X], [Unvote], phpBB [vote]X[/vote]),
    "bold", "color", "plain" (a line starting "vote X"), "pm" (entered by the GM)."""
    vote_colors: tuple[str, ...] = ()
    """For "color": colours of a vote ("#rrggbb"); empty = any colour."""
    unvote_colors: tuple[str, ...] = ()
    no_lynch_colors: tuple[str, ...] = ()
    name_only: bool = False
    """A bold or coloured player name without the word "vote" is a vote."""
    replace: bool = True
    """A new vote replaces the old one (002); False: it counts only after an unvote (003)."""
    strict_unvote: bool = False
    """An unvote naming a player other than the one voted removes nothing (003: "no new
    vote will be counted without an unvote of any prior vote"); False: any unvote removes
    the standing vote."""
    self_vote: bool = True
    no_lynch: bool = True
    no_lynch_words: tuple[str, ...] = ("No Lynch", "nolynch", "No Lynching", "No Elimination")
    abstain: bool = False
    """Abstaining is allowed (004): an abstainer is not listed as not voting."""
    abstain_words: tuple[str, ...] = ("Abstain", "No Vote")
    after_deadline: bool = False
    """Votes posted after the day's deadline count (they never do in the bundled rulesets)."""
    close_spelling: float = field(default=0.8, metadata={"min": 0, "max": 1})
    """Minimum similarity (0-1) for a misspelt full name to count; 0 turns it off."""
    gm_counts: bool = True
    """Read the GM's own vote counts in the thread for names no rule resolves: a voter the
    GM's count lists under a player, whose last vote named no player ("VOTE: Pods McQuill") or
    two, meant that player (gm_counts.py). False: only the players file's names count."""
    thread_nicknames: bool = True
    """Read the nicknames the thread gives players ("CO=cloudocean", "VOTE: tn(Zipcode)")
    in later votes, from the post that gave them on (nicknames.py). False: only the players
    file's names and the matching rules count."""
    edits: str = "count_from_edit"
    """What an edit that changes a post's votes does: "count_from_edit" (the edited vote
    counts from the edit's time) or "first_posted" (the vote stands as first posted and the
    edit is reported; 001 forbids editing). An edit after the day's end never counts."""

    @classmethod
    def from_ruleset(cls, ruleset: Any) -> VoteRules:
        """A ruleset's `[votes]`: read once when the file was loaded (`Ruleset.votes`); a
        plain table, or raw tables with `section()` (the loader, house rules), read here."""
        if isinstance(built := getattr(ruleset, "votes", None), cls):
            return built
        section, where = known_section(ruleset, "votes", cls.__dataclass_fields__)
        values = typed_fields(cls, section, f"{where} [votes]")
        bad = [f for f in values.get("forms", ()) if f not in FORMS]
        if bad:
            raise RulesetError(
                f"{where} [votes] forms = {show(values['forms'])}: {bad} unknown; use {list(FORMS)}"
            )
        for key in [k for k in values if k.endswith("_colors")]:
            colors = []
            for c in values[key]:
                hexed = normalize_color(c)
                if hexed is None:
                    raise RulesetError(
                        f"{where} [votes] {key} = {show(values[key])}: {show(c)} is not a colour"
                    )
                colors.append(hexed)
            values[key] = tuple(colors)
        if values.get("edits", "count_from_edit") not in EDIT_POLICIES:
            raise RulesetError(
                f"{where} [votes] edits = {show(values['edits'])}: use one of "
                f"{', '.join(EDIT_POLICIES)}"
            )
        made = cls(**values)
        # One instance per distinct rules: the counts' caches then find them by identity.
        return _RULES.setdefault(made, made)

    def __hash__(self) -> int:
        """The fields' hash, made once: every post a count reads looks its marks up by these
        rules (`_judged`), and the generated hash walked every field at each lookup."""
        found = self.__dict__.get("_hash")
        if found is None:
            found = hash(tuple(getattr(self, f) for f in self.__dataclass_fields__))
            object.__setattr__(self, "_hash", found)
        return found

    @cached_property
    def _no_lynch_keys(self) -> frozenset[str]:
        return frozenset(fold(w) for w in self.no_lynch_words)

    @cached_property
    def _abstain_keys(self) -> frozenset[str]:
        return frozenset(fold(w) for w in self.abstain_words)

    def is_no_lynch(self, text: str | None) -> bool:
        """No Lynch in the ruleset's words, also after "to" or "for" ("Vote to No Lynch")."""
        if text is None:
            return False
        keys = self._no_lynch_keys
        return fold(text) in keys or fold(_FILLER.sub("", text)) in keys

    def is_abstain(self, text: str | None) -> bool:
        return text is not None and fold(text) in self._abstain_keys

    def describe(self) -> str:
        """What this ruleset accepts, for reasons: "votes in red", "[Vote: name] tags"..."""
        parts = []
        if "color" in self.forms:
            if self.vote_colors:
                text = "votes in " + "/".join(color_name(c) for c in self.vote_colors)
                if self.unvote_colors and self.unvote_colors != self.vote_colors:
                    text += ", unvotes in " + "/".join(color_name(c) for c in self.unvote_colors)
                if (
                    self.no_lynch
                    and self.no_lynch_colors
                    and self.no_lynch_colors != self.vote_colors
                ):
                    text += ", No Lynch in " + "/".join(color_name(c) for c in self.no_lynch_colors)
                parts.append(text)
            else:
                parts.append("coloured votes")
        if "bold" in self.forms:
            parts.append("votes in bold")
        if "tag" in self.forms:
            parts.append("[Vote: name] / [Unvote] tags")
        if "plain" in self.forms:
            parts.append("plain 'vote name' lines")
        if "pm" in self.forms:
            parts.append("votes sent to the GM by PM")
        return "; ".join(parts) or "no markup"


_RULES: dict[VoteRules, VoteRules] = {}
#: A word before the No Lynch a vote names: "Vote to No Lynch", "vote for no lynch".
_FILLER = re.compile(r"^\s*(?:to|for)\s+", re.I)


# ---- reading the body -------------------------------------------------------------------


@dataclass
class Run:
    """A bold / coloured / vote-tag element: its text is read as one unit."""

    bold: bool = False
    color: str | None = None
    tag: bool = False
    start: int = 0
    end: int = 0


@dataclass(frozen=True)
class Hidden:
    """What hides a piece of a post from being a vote: a code for programs, words for people."""

    code: VoteCode
    """IN_QUOTE, IN_CODE, IN_SPOILER or STRUCK."""
    text: str
    """ "inside a quote of post 8 (Lady Grey)", "inside a code block", ..."""

    def __str__(self) -> str:
        return self.text


IN_CODE = Hidden(VoteCode.IN_CODE, "inside a code block")
IN_SPOILER = Hidden(VoteCode.IN_SPOILER, "inside a spoiler")
STRUCK = Hidden(VoteCode.STRUCK, "struck through")


@dataclass
class Chunks:
    """A body as text, with what hides each piece and which run it belongs to."""

    parts: list[tuple[str, Hidden | None, int | None]] = field(default_factory=list)
    """(text, what hides it or None, run index or None)."""
    runs: list[Run] = field(default_factory=list)

    def emit(self, text: str, hidden: Hidden | None, run: int | None) -> None:
        if text:
            self.parts.append((text, hidden, run))


_BLOCK = frozenset(
    {
        "div",
        "p",
        "li",
        "ul",
        "ol",
        "blockquote",
        "table",
        "tr",
        "td",
        "th",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "pre",
        "dl",
        "dt",
        "dd",
        "hr",
        "details",
    }
)
_SKIP = frozenset({"script", "style", "cite", "img", "-comment", "button", "summary"})
_INLINE_STYLE = re.compile(r"display\s*:\s*inline(?![\w-])", re.I)


def is_block(tag: str, attrs: Mapping[str, str | None]) -> bool:
    """Whether an element starts a line of its own. A `div` styled `display:inline` does
    not: phpBB styles (mafiascum's) write bold and colour as such divs, and a vote written
    a colour a letter ("V", "O", "T", "E" each its own div) is one line of text."""
    if tag not in _BLOCK:
        return False
    return not (tag == "div" and _INLINE_STYLE.search(attrs.get("style") or ""))
_STRIKE = frozenset({"s", "del", "strike"})
_STYLE_COLOR = re.compile(r"(?:^|;)\s*color\s*:\s*([^;]+)", re.I)
_STYLE_BOLD = re.compile(r"font-weight\s*:\s*(bold|bolder|[6-9]00)", re.I)
_QUOTE_MSG = re.compile(r"[?&;](?:msg|p)=(\d+)")
_QUOTE_FROM = re.compile(r"Quote from:\s*(.+?)\s+on\s", re.I)


def quote_reason(
    attrs: Mapping[str, str | None], cite_href: str | None, cite_author: str | None
) -> Hidden:
    """ "inside a quote of post 8 (Lady Grey)" from a quote box's link and header."""
    post = None
    for src in (attrs.get("cite"), cite_href):
        m = _QUOTE_MSG.search(src or "")
        if m:
            post = m.group(1)
            break
    who = f" ({cite_author})" if cite_author else ""
    text = f"inside a quote of post {post}{who}" if post else f"inside a quote{who}"
    return Hidden(VoteCode.IN_QUOTE, text)


def element_hiding(tag: str, attrs: Mapping[str, str | None]) -> Hidden | None:
    """Why an element's content is not a vote, or None (quotes are handled by the caller)."""
    classes = (attrs.get("class") or "").lower()
    if (
        tag in ("code", "pre")
        or "codebox" in classes
        or "codeheader" in classes
        or "bbc_code" in classes
    ):
        return IN_CODE
    if "spoiler" in classes or tag == "details" or "sp-wrap" in classes:
        return IN_SPOILER
    style = (attrs.get("style") or "").lower()
    if tag in _STRIKE or "line-through" in style or "bbc_s" in classes.split():
        return STRUCK
    return None


def element_style(tag: str, attrs: Mapping[str, str | None]) -> tuple[bool, str | None, bool]:
    """(bold, colour, vote tag) of one element."""
    style = attrs.get("style") or ""
    bold = tag in ("b", "strong") or bool(_STYLE_BOLD.search(style))
    color = None
    m = _STYLE_COLOR.search(style)
    if m:
        color = normalize_color(m.group(1))
    elif tag == "font" and attrs.get("color"):
        color = normalize_color(attrs.get("color") or "")
    is_tag = "bbvote" in (attrs.get("class") or "")
    return bold, color, is_tag


def element_scope(
    out: Chunks, tag: str, attrs: Mapping[str, str | None], hidden: Hidden | None, run: int | None
) -> tuple[Hidden | None, int | None]:
    """What hides an element's content and the run it is read in (not for quote boxes):
    the one reading of an element that every parser's walk shares."""
    why = element_hiding(tag, attrs)
    if why is not None:
        return hidden or why, None
    bold, color, is_tag = element_style(tag, attrs)
    if bold or color or is_tag:
        run = _merge_run(out, run, bold, color, is_tag)
    return hidden, run


def quote_author(cite_text: str, link_text: str | None) -> str | None:
    """Whom a quote box quotes, from its header: "Quote from: Lady Grey on ...", or the
    header's link in "Lady Grey wrote:"."""
    m = _QUOTE_FROM.search(cite_text)
    if m:
        return m.group(1)
    if link_text is not None and "wrote" in cite_text:
        return link_text.strip() or None
    return None


def chunks_lexbor(body_html: str) -> Chunks:
    """A body read with selectolax's lexbor parser (fast)."""
    tree = LexborHTMLParser(body_html)
    out = Chunks()
    root = tree.body
    if root is not None:
        _walk_lexbor(root, out, None, None)
    return out


def _walk_lexbor(node: LexborNode, out: Chunks, hidden: Hidden | None, run: int | None) -> None:
    emit = out.emit
    for child in node.iter(include_text=True):
        tag = child.tag
        if tag == "-text":
            emit(child.text_content or "", hidden, run)
            continue
        if tag == "br":
            emit("\n", hidden, run)
            continue
        if tag in _SKIP:
            continue
        attrs = child.attributes
        block = is_block(tag, attrs)
        if block:
            emit("\n", hidden, run)
        if tag == "blockquote":
            cite = child.css_first("cite")
            href = author = None
            if cite is not None:
                link = cite.css_first("a")
                href = link.attributes.get("href") if link is not None else None
                author = quote_author(cite.text() or "", link.text() if link is not None else None)
            _walk_lexbor(child, out, hidden or quote_reason(attrs, href, author), None)
        else:
            _walk_lexbor(child, out, *element_scope(out, tag, attrs, hidden, run))
        if block:
            emit("\n", hidden, run)


def _merge_run(out: Chunks, run: int | None, bold: bool, color: str | None, is_tag: bool) -> int:
    if run is None:
        out.runs.append(Run(bold, color, is_tag))
        return len(out.runs) - 1
    r = out.runs[run]
    r.bold = r.bold or bold
    r.color = color or r.color  # the innermost colour is the one shown
    r.tag = r.tag or is_tag
    return run


# ---- finding marks in the text ----------------------------------------------------------------


@dataclass(frozen=True)
class Mark:
    """A vote-like piece of a post, before the ruleset judges it."""

    action: str
    """"vote", "unvote", "name" (a bold/coloured name without "vote"), "mention"."""
    target_text: str | None
    text: str
    """The mark as written: "[Vote: Slayer]", "vote Conia"."""
    forms: tuple[str, ...]
    """Markup it carries: "tag", "bold", "color", "plain"."""
    color: str | None
    hidden: Hidden | None
    offset: int


_LITERAL_HIDE = re.compile(
    r"\[(spoiler|code|quote|s|strike|hide|noparse)(?:[= ][^\]]*)?\](.*?)\[/\1\]", re.I | re.S
)
_LITERAL_WHY = {
    "spoiler": IN_SPOILER,
    "hide": IN_SPOILER,
    "code": IN_CODE,
    "noparse": IN_CODE,
    "quote": Hidden(VoteCode.IN_QUOTE, "inside a quote"),
    "s": STRUCK,
    "strike": STRUCK,
}
_TAG_VOTE = re.compile(
    r"\[(?P<un2>un)?vote\]\s*(?P<t2>[^\[\n]*?)\s*\[/(?:un)?vote\]"
    r"|\[\s*(?P<un1>un)?vote\s*(?::\s*(?P<t1>[^\]\n]*?))?\s*\]",
    re.I,
)
_RUN_VOTE = re.compile(r"^\W*(un)?vote\b\s*[:\-]?\s*(.*?)\s*$", re.I | re.S)
_PLAIN_VOTE = re.compile(
    r"(?:^|(?<=[.!?])[ \t]+)[ \t]*(un)?vote\b[ \t]*:?[ \t]*([^\n]*)", re.I | re.M
)
_MENTION = re.compile(r"\b(?:un)?vot(?:e|es|ed|ing)\b", re.I)
#: "Unvote; Vote: X", "unvote vote X", "Unvote: A Vote: B", "UNVOTE, VOTE X" written as one
#: unit (one bold line, one [vote] tag): an unvote, then a vote. The unvote's own name is
#: the words before the second "vote" (often none).
_UNVOTE_THEN_VOTE = re.compile(
    r"^\W*unvote\b[\s:\-]*(?P<old>.*?)[\s;,.:/|&+\-]*(?:(?:and|then|&)\s+)?"
    r"(?<![\w'])(?P<vote>vote\b)[\s:\-]*(?P<new>.*?)\s*$",
    re.I | re.S,
)


#: A first word that may be a mistyped "unvote" ("Unovte; Vote: X").
_FIRST_WORD = re.compile(r"^\W*([A-Za-z]{6})\b")


def _typed_unvote(text: str) -> str:
    """`text` with a first word that is "unvote" mistyped by one swap or one wrong letter
    ("Unovte", "Unvite") written right, when a "vote" follows it in the same unit: then it
    can only be an unvote. The length is kept, so offsets into `text` hold."""
    m = _FIRST_WORD.match(text)
    if m is None or m.group(1).lower() == "unvote":
        return text
    word = m.group(1).lower()
    if OSA.distance(word, "unvote") != 1 or not word.startswith("u"):
        return text
    if not re.search(r"(?<![\w'])vote\b", text[m.end():], re.I):
        return text
    return text[: m.start(1)] + "unvote" + text[m.end(1):]


def split_actions(text: str) -> list[tuple[str, str | None, int]]:
    """One written unit of voting as (action, name or None, offset in `text`): "VOTE: X" is
    a vote, "unvote" an unvote, "Unvote, Vote: X" an unvote followed by a vote (its unvote
    mistyped by a letter too, "Unovte; Vote: X"); a text that is no vote at all gives []."""
    text = _typed_unvote(text)
    m = _UNVOTE_THEN_VOTE.match(text)
    if m:
        return [
            ("unvote", m.group("old").strip() or None, 0),
            ("vote", m.group("new").strip() or None, m.start("vote")),
        ]
    m = _RUN_VOTE.match(text)
    if not m:
        return []
    if not m.group(1) and m.group(2) and _STARTS_UNVOTE.match(m.group(2)):
        # phpBB shows [vote]Unvote, Vote: X[/vote] as "VOTE: Unvote, Vote: X": what the
        # tag holds is the action, not a player called "Unvote".
        inner = split_actions(m.group(2))
        return [(a, name, m.start(2) + at) for a, name, at in inner]
    if not m.group(1) and m.group(2) and _RUN_VOTE.match(m.group(2)):
        # "VOTE: Vote: X" (a [vote] tag around "Vote: X"): one vote.
        inner = split_actions(m.group(2))
        return [(a, name, m.start(2) + at) for a, name, at in inner]
    return [("unvote" if m.group(1) else "vote", m.group(2) or None, 0)]


_STARTS_UNVOTE = re.compile(r"\W*unvote\b", re.I)
#: "vote" inside a bold or coloured line, not at its start ("Cross fingers, vote RedFox"),
#: and "VOTE:" as a [vote] tag shows it inside one ("Hammer [vote]VOTE: X[/vote]").
_INNER_VOTE = re.compile(r"(?<![\w'\-])(?:un)?vote\b", re.I)
_TAG_SHOWN = re.compile(r"(?<![\w'\-])(?:UN)?VOTE:")
#: The most words before a vote in running bold text ("Cross fingers," yes; a sentence
#: quoting a vote, no).
INNER_LEAD_WORDS = 3
#: "@Mod: vote count please": asking for a count, not a vote.
_COUNT_ASKED = re.compile(r"\s*:?\s*counts?\b", re.I)


def _vote_inside(line: str, tag: bool) -> tuple[list[tuple[str, str | None, int]], bool]:
    """The vote a bold / coloured / tagged line holds after a few words: `(actions, inline)`.
    In a vote tag the tag's own "VOTE:" starts the vote ("Hammer VOTE: X", "Confirming
    VOTE: Milk"); in bold or colour a "vote" after a short lead that ends a clause
    ("Cross fingers, vote RedFox"), never after quotes or a hyphen ("pre-vote"), and then
    only a name that is a player's counts (`inline`: judge.apply_mark's guard for plain text)."""
    if tag:
        m = _TAG_SHOWN.search(line, 1)
        if m is not None:
            return [(a, n, m.start() + at) for a, n, at in split_actions(line[m.start():])], False
    m = _INNER_VOTE.search(line, 1)
    if m is None:
        return [], False
    lead = line[: m.start()].rstrip()
    if (
        not lead
        or lead[-1] not in ",;.!:"
        or len(lead.split()) > INNER_LEAD_WORDS
        or any(q in lead for q in "\"“”«»")
        or _COUNT_ASKED.match(line, m.end())
    ):
        return [], False
    return [(a, n, m.start() + at) for a, n, at in split_actions(line[m.start():])], True


def marks_from_chunks(chunks: Chunks) -> list[Mark]:
    """Every vote-like mark in reading order."""
    parts = chunks.parts
    text = "".join([part[0] for part in parts])
    lower = text.lower()
    first_vot = lower.find("vot")
    if first_vot < 0 and not chunks.runs:
        return []  # no vote word and no bold / coloured text: nothing looks like a vote

    starts: list[int] = []  # where each part starts; parts are consecutive and not empty
    runs: dict[int, list[int]] = {}  # run index -> [start of its first part, end of its last]
    pos = 0
    for part, _why, run in parts:
        starts.append(pos)
        end = pos + len(part)
        if run is not None:
            r = runs.get(run)
            if r is None:
                runs[run] = [pos, end]
            else:
                r[1] = end
        pos = end

    literal = (
        [
            (m.start(), m.end(), _LITERAL_WHY[m.group(1).lower()])
            for m in _LITERAL_HIDE.finditer(text)
        ]
        if "[" in text
        else []
    )

    def hidden(offset: int) -> Hidden | None:
        for start, end, why in literal:
            if start <= offset < end:
                return why
        i = bisect_right(starts, offset) - 1
        if i >= 0 and offset < starts[i] + len(parts[i][0]):
            return parts[i][1]
        return None

    covered: list[tuple[int, int]] = []
    marks: list[Mark] = []

    def run_at(offset: int) -> int | None:
        for idx, (start, end) in runs.items():
            if start <= offset < end:
                return idx
        return None

    if "vote" in lower:
        for m in _TAG_VOTE.finditer(text):
            un = m.group("un1") or m.group("un2")
            target = m.group("t1") if m.group("t1") is not None else m.group("t2")
            run = run_at(m.start())
            style = chunks.runs[run] if run is not None else None
            forms = ("tag",) + _run_forms(style, tag_too=False)
            actions = [("unvote" if un else "vote", (target or "").strip() or None, 0)]
            if not un and target and _STARTS_UNVOTE.match(target):
                # [vote]unvote[/vote], [vote]Unvote, Vote: X[/vote]: what the tag holds.
                actions = split_actions(target.strip())
            for action, name, _ in actions:
                marks.append(
                    Mark(
                        action,
                        name,
                        m.group(0),
                        forms,
                        style.color if style else None,
                        hidden(m.start()),
                        m.start(),
                    )
                )
            covered.append((m.start(), m.end()))

    for idx, (start, end) in sorted(runs.items(), key=lambda kv: kv[1][0]):
        style = chunks.runs[idx]
        if any(s < end and start < e for s, e in covered):
            continue
        forms = _run_forms(style, tag_too=True)
        offset = start
        for line in text[start:end].split("\n"):
            stripped = line.strip()
            line_start = offset + (len(line) - len(line.lstrip()))
            offset += len(line) + 1
            if not stripped:
                continue
            actions = split_actions(stripped)
            line_forms = forms
            if not actions:
                actions, inline = _vote_inside(stripped, style.tag)
                if inline:  # running text around it: a vote only if it names a player
                    line_forms = (*forms, "plain")
            if actions:
                for action, name, at in actions:
                    marks.append(
                        Mark(
                            action,
                            name,
                            stripped,
                            line_forms,
                            style.color,
                            hidden(line_start + at),
                            line_start + at,
                        )
                    )
            elif len(stripped) <= 40 and len(stripped.split()) <= 5:
                marks.append(
                    Mark(
                        "name",
                        stripped,
                        stripped,
                        forms,
                        style.color,
                        hidden(line_start),
                        line_start,
                    )
                )
        covered.append((start, end))

    if first_vot >= 0:
        # No match starts before the line of the first "vote" (the plain pattern) or two
        # letters before the first "vot" (a mention, "unvoted"): search from there. (Only
        # when lowering kept every offset: "İ" lowers to two characters.)
        plain_from = mention_from = 0
        if len(lower) == len(text):
            first_vote = lower.find("vote", first_vot)
            plain_from = text.rfind("\n", 0, first_vote) + 1 if first_vote >= 0 else len(text)
            mention_from = max(first_vot - 2, 0)
        for m in _PLAIN_VOTE.finditer(text, plain_from):
            at = m.start(1) if m.group(1) else m.group(0).lower().find("vote") + m.start()
            if any(s <= at < e for s, e in covered):
                continue
            target = (m.group(2) or "").strip() or None
            written = text[at : m.end()].strip()
            marks.append(
                Mark(
                    "unvote" if m.group(1) else "vote",
                    target,
                    written,
                    ("plain",),
                    None,
                    hidden(at),
                    at,
                )
            )
            covered.append((at, m.end()))
        for m in _MENTION.finditer(text, mention_from):
            if any(s <= m.start() < e for s, e in covered):
                continue
            line_start = text.rfind("\n", 0, m.start()) + 1
            line_end = text.find("\n", m.end())
            context = text[line_start : line_end if line_end >= 0 else len(text)].strip()
            marks.append(
                Mark("mention", None, context[:120], ("plain",), None, hidden(m.start()), m.start())
            )
    marks.sort(key=lambda mk: mk.offset)
    return marks


def _run_forms(style: Run | None, *, tag_too: bool) -> tuple[str, ...]:
    if style is None:
        return ()
    forms = []
    if style.tag and tag_too:
        forms.append("tag")
    if style.bold:
        forms.append("bold")
    if style.color:
        forms.append("color")
    return tuple(forms)


# ---- judging marks against the ruleset ------------------------------------------------------


@dataclass(frozen=True)
class VoteMark:
    """A mark as this ruleset sees it: `usable` markup or not, and why."""

    post_id: int
    index: int
    """Order within the post (0-based)."""
    action: str
    target_text: str | None
    text: str
    forms: tuple[str, ...]
    color: str | None
    hidden: Hidden | None
    usable: bool
    reason: str
    code: VoteCode
    """Why it is usable or not, for programs (`reason` says it for people)."""

    @property
    def markup(self) -> str:
        """How it was written, for people: "red", "bold", "[Vote: X] tag", "plain text"."""
        parts = []
        if "tag" in self.forms:
            parts.append("tag")
        if "color" in self.forms and self.color:
            parts.append(color_name(self.color))
        if "bold" in self.forms:
            parts.append("bold")
        if "pm" in self.forms:
            parts.append("PM")
        return " ".join(parts) or "plain text"


def judge(mark: Mark, rules: VoteRules) -> tuple[bool, str, VoteCode]:
    """Whether a mark's markup makes it a vote under `rules`, the reason and its code."""
    if mark.action == "mention":
        return False, "not counted: a mention of voting, not a vote", VoteCode.MENTION
    if mark.hidden:
        return False, f"not counted: {mark.hidden.text}", mark.hidden.code
    accepted = [f for f in mark.forms if f in rules.forms]
    if "color" in accepted and mark.color:
        wanted = _colors_for(mark, rules)
        if wanted and mark.color not in wanted:
            accepted.remove("color")
            if not accepted:
                what = _what(mark, rules)
                return (
                    False,
                    f"not counted: {what} in {color_name(mark.color)}; "
                    f"this ruleset counts {rules.describe()}",
                    VoteCode.WRONG_COLOR,
                )
    if not accepted:
        written = {
            "plain": "plain text",
            "bold": "in bold",
            "color": f"in {color_name(mark.color or '')}",
            "tag": "a [Vote: ...] tag",
        }
        how = " and ".join(written[f] for f in mark.forms if f in written) or "plain text"
        return (
            False,
            f"not counted: {how}; this ruleset counts {rules.describe()}",
            VoteCode.WRONG_MARKUP,
        )
    if mark.action == "name" and not rules.name_only:
        return (
            False,
            "not counted: a name in bold or colour without the word 'vote'",
            VoteCode.NAME_WITHOUT_VOTE,
        )
    label = {
        "tag": "tag",
        "bold": "bold",
        "plain": "plain-text",
        "color": color_name(mark.color or ""),
    }
    kind = {"vote": "vote", "unvote": "unvote", "name": "name vote"}[mark.action]
    if rules.is_no_lynch(mark.target_text) and mark.action == "vote":
        kind = "No Lynch vote"
    return True, f"counted: {' '.join(label[f] for f in accepted)} {kind}", VoteCode.COUNTED


def _colors_for(mark: Mark, rules: VoteRules) -> tuple[str, ...]:
    if mark.action == "unvote":
        return rules.unvote_colors or rules.vote_colors
    if rules.is_no_lynch(mark.target_text) and rules.no_lynch_colors:
        return rules.no_lynch_colors
    return rules.vote_colors


def _what(mark: Mark, rules: VoteRules) -> str:
    if mark.action == "unvote":
        return "an unvote"
    if rules.is_no_lynch(mark.target_text):
        return "a No Lynch vote"
    return "a vote"


#: Raw (lowered) HTML of a bold or coloured element: only these make a run, and a run's line
#: is a mark when a bare bold / coloured name counts (`name_only`). Tag and attribute names
#: cannot be written as character references; a vote tag's class value can ("bb&#118;ote").
_RUN_MARKUP = re.compile(r"<(?:b|strong|font)\b|style|bbvote")


#: "VOTE" written a letter an element ("<div ...>V</div><div ...>O</div>..."), lowered.
_VOTE_A_LETTER_A_TAG = re.compile(r">v<(?:[^>]{0,80}>){1,4}o<(?:[^>]{0,80}>){1,4}t<")


def may_hold_marks(body_html: str, rules: VoteRules) -> bool:
    """False when `body_html` cannot hold a mark `extract_votes` would report, so it need
    not be parsed: no "vote" in it, and (under `name_only`) no bold or coloured element."""
    lowered = body_html.lower()
    if "vot" in lowered or _VOTE_A_LETTER_A_TAG.search(lowered) is not None:
        return True
    # Without `name_only` a body that never reads "vote" is not reported: a bold name
    # alone is no vote there (and was never looked for).
    if not rules.name_only:
        return False
    if _RUN_MARKUP.search(lowered) is not None:
        return True
    # "&#118;ote" is "vote" once parsed.
    return "&#" in lowered and "vot" in html.unescape(body_html).lower()


def extract_votes(
    post: Post, rules: VoteRules, *, gms: Iterable[str] = (), chunker: Any = chunks_lexbor
) -> list[VoteMark]:
    """Every vote-like mark in `post`, judged by `rules`; a GM's marks are host's examples.

    A pure function of the body, the post id, whether the author is a GM and the rules,
    so the answer is kept (`_judged`): the daemon and the checks count the same posts again
    and again (every poll, every replay as of a post), and only new or edited posts are read.
    """
    body = post.body_html
    if not may_hold_marks(body, rules):
        return []  # the common case, and the fast path of a full recount
    by_gm = post.author in set(gms)
    pid = post.post_id
    key = (pid, *fingerprint(body), by_gm, rules, chunker)
    return list(_JUDGED.get_or_make(key, lambda: _judged(body, pid, by_gm, rules, chunker)))


JUDGED_POSTS = 1 << 12
"""Posts whose judged marks are kept at first (a daemon's 200 games of 300 posts are 60,000,
too many to keep: each was read again only after the other 199 games had pushed it out,
and 32,768 of them held 37 MB). `hold_day` raises it to the longest day counted, so that
a recount going through every post of a day does not push out what it is about to read."""
_JUDGED: Lru[tuple[object, ...], tuple[VoteMark, ...]] = Lru(JUDGED_POSTS, most=1 << 17)


def hold_day(posts: int) -> None:
    """Keep the judged marks of at least a day of `posts` posts (and a quarter more)."""
    _JUDGED.grow_to(posts + posts // 4)


def _judged(
    body: str, post_id: int, by_gm: bool, rules: VoteRules, chunker: Any
) -> tuple[VoteMark, ...]:
    out = []
    for i, mark in enumerate(raw_marks(body, post_id, chunker)):
        if by_gm and mark.action == "name":
            continue  # bold names in a GM's post are announcements, not examples
        if by_gm and mark.action != "mention":
            usable, reason, code = (
                False,
                "not counted: host's example (posted by the GM)",
                VoteCode.HOST_EXAMPLE,
            )
        else:
            usable, reason, code = judge(mark, rules)
        out.append(
            VoteMark(
                post_id,
                i,
                mark.action,
                mark.target_text,
                mark.text,
                mark.forms,
                mark.color,
                mark.hidden,
                usable,
                reason,
                code,
            )
        )
    return tuple(out)


_SHELF: ContextVar[Any] = ContextVar("marks_shelf", default=None)
"""Marks kept between processes (marks_cache.py), while a caller has a game's file open."""


def marks_shelf() -> Any:
    return _SHELF.get()


def set_marks_shelf(shelf: Any) -> Token[Any]:
    return _SHELF.set(shelf)


def reset_marks_shelf(token: Token[Any]) -> None:
    _SHELF.reset(token)


def raw_marks(body: str, post_id: int, chunker: Any = chunks_lexbor) -> tuple[Mark, ...]:
    """The marks in a body before any ruleset judges them: from the game's marks file when
    one is open and holds them (read with this parser), else read from the HTML."""
    shelf = _SHELF.get() if chunker is chunks_lexbor else None
    if shelf is not None:
        kept = shelf.get(post_id, body)
        if kept is not None:
            return kept
    marks = tuple(marks_from_chunks(chunker(body)))
    if shelf is not None:
        shelf.put(post_id, body, marks)
    return marks


def clear_extract_cache() -> None:
    """Forget every judged post (benchmarks measuring a first count call this)."""
    _JUDGED.clear()
