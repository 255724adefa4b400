"""Player text made harmless where the GM pastes it (drafts) or reads it (the terminal).

Names, vote targets and anything else players wrote reach the drafts the GM pastes into
the thread, and the terminal. Three tricks are neutralised:

- **BBCode.** A name like `[/url][url=https://evil.example]Click` or `[img]…` would turn
  into markup in the pasted post. A WORD JOINER (U+2060, invisible, zero width) goes after
  every `[`: neither SMF 2.1 nor phpBB 3.3 then sees a tag, and the name looks the same.
  Checked on the real forums of `../shared/forums`: SMF turns a zero-width space (U+200B)
  into U+FFFD and drops empty tags (`[[b][/b]url]` becomes a live `[url]` on SMF), and both
  show HTML entities (`&#91;`) as typed, so neither is used. The same joiner goes into
  `://`, before `@` and after every dot inside a word, so no address, domain or e-mail is
  turned into a link (phpBB links `http://…`, `www.…` and addresses; SMF links bare
  domains too, even after `http:⁠//`, and mails even with a joiner by the `@`).
- **Bidirectional text.** A right-to-left override (U+202E) in a name reverses the rest of
  its line. Text carrying bidi controls or right-to-left letters is wrapped in FIRST STRONG
  ISOLATE … POP DIRECTIONAL ISOLATE (U+2068 … U+2069); isolates the text opened are closed
  and stray closers dropped, so nothing reaches past it (Unicode UAX #9: the closing
  isolate ends every embedding and override opened inside it). Both forums keep these
  characters as they are.
- **Terminal control.** Text printed to a terminal gets control characters (ESC sequences
  that could clear the screen or retitle the window) and bidi controls outside a closed
  isolate shown as escapes (`\\x1b`, `\\u202e`) instead of obeyed.

`BBCode` marks text the assistant itself wrote as markup (a rendered template, a forum
permalink): templates print it as it is.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

WORD_JOINER = "\u2060"
FSI, PDI = "\u2068", "\u2069"
_ISOLATE_OPENERS = frozenset("\u2066\u2067\u2068")  # LRI, RLI, FSI
_EMBEDDINGS = frozenset("\u202a\u202b\u202d\u202e")  # LRE, RLE, LRO, RLO
_PDF = "\u202c"
_MARKS = frozenset("\u200e\u200f\u061c")  # LRM, RLM, ALM: no scope, harmless
_EXPLICIT = _ISOLATE_OPENERS | _EMBEDDINGS | {_PDF, PDI}
_RTL = frozenset({"R", "AL"})
# Characters a terminal obeys rather than shows: C0 (but tab and newline), DEL, C1, and
# the Unicode line and paragraph separators.
_TERMINAL_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")

_BIDI_CONTROL = re.compile("[\u202a-\u202e\u2066-\u2069]")
_INERT = (
    (re.compile("\\[(?!\u2060)"), "[" + WORD_JOINER),
    (re.compile(":(?!\u2060)//"), ":" + WORD_JOINER + "//"),
    (re.compile(r"(?<=\w)\.(?=\w)"), "." + WORD_JOINER),
    (re.compile("(?<!\u2060)@"), WORD_JOINER + "@"),
)


class BBCode(str):
    """Text the assistant wrote as BBCode (a rendered template, a permalink): printed as is."""

    __slots__ = ()


def _is_rtl(ch: str) -> bool:
    return ch >= "\u0590" and unicodedata.bidirectional(ch) in _RTL


def _contained(text: str) -> bool:
    """True when nothing in `text` can reorder what follows it: no bidi control or
    right-to-left letter outside an isolate that is closed within the text."""
    depth = 0
    for ch in text:
        if ch in _ISOLATE_OPENERS:
            depth += 1
        elif ch == PDI:
            if depth == 0:
                return False
            depth -= 1
        elif depth == 0 and (ch in _EMBEDDINGS or ch == _PDF or _is_rtl(ch)):
            return False
    return depth == 0


def _balanced(text: str) -> str:
    """`text` with its stray closers dropped and what it left open closed, in order."""
    out: list[str] = []
    stack: list[str] = []
    for ch in text:
        if ch in _ISOLATE_OPENERS or ch in _EMBEDDINGS:
            stack.append(ch)
        elif ch == _PDF:
            if not stack or stack[-1] in _ISOLATE_OPENERS:
                continue  # closes nothing here (UAX #9 X7: ignored)
            stack.pop()
        elif ch == PDI:
            if not any(c in _ISOLATE_OPENERS for c in stack):
                continue  # would close an isolate around the text
            while stack.pop() not in _ISOLATE_OPENERS:
                pass
        out.append(ch)
    out.extend(PDI if c in _ISOLATE_OPENERS else _PDF for c in reversed(stack))
    return "".join(out)


def isolate(text: str) -> str:
    """`text` wrapped in an isolate when it holds bidi controls or right-to-left letters
    that could reorder what follows; other text (and text already isolated) unchanged."""
    if _contained(text):
        return text
    return FSI + _balanced(text) + PDI


def names(items: Iterable[object], sep: str = ", ") -> str:
    """Names joined, each isolated on its own (a list in a draft: "A, B, C")."""
    return sep.join(isolate(str(n)) for n in items)


def inert_bbcode(text: str) -> str:
    """`text` with no BBCode tag, link or address a forum would act on, looking the same."""
    for pattern, repl in _INERT:
        text = pattern.sub(repl, text)
    return text


def for_forum(text: str) -> str:
    """Player text as a draft carries it: bidi isolated, BBCode and links inert."""
    return inert_bbcode(isolate(text))


def _terminal_line(line: str) -> str:
    if not _BIDI_CONTROL.search(line):
        return _TERMINAL_CONTROL.sub(_escape, line)
    # Which isolates close on this line: those are kept (a draft's isolated names).
    matched: set[int] = set()
    opened: list[int] = []
    for i, ch in enumerate(line):
        if ch in _ISOLATE_OPENERS:
            opened.append(i)
        elif ch == PDI and opened:
            matched.add(opened.pop())
            matched.add(i)
    out: list[str] = []
    depth = 0
    for i, ch in enumerate(line):
        if i in matched:
            depth += 1 if ch in _ISOLATE_OPENERS else -1
            out.append(ch)
        elif ch in _EXPLICIT and (depth == 0 or ch in _ISOLATE_OPENERS or ch == PDI):
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return _TERMINAL_CONTROL.sub(_escape, "".join(out))


def _escape(m: re.Match[str]) -> str:
    code = ord(m.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def for_terminal(text: str) -> str:
    """Text as the terminal shows it: controls and unclosed bidi controls as escapes."""
    if not _BIDI_CONTROL.search(text):  # the usual case: one pass, no line by line
        return _TERMINAL_CONTROL.sub(_escape, text)
    return "\n".join(_terminal_line(line) for line in text.split("\n"))


_JSON_ESCAPE = re.compile(
    "[\x7f-\x9f\u2028\u2029\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]"
)


def for_json(text: str) -> str:
    """A JSON document whose strings keep every character, with the invisible ones that
    act on a terminal written as \\u escapes (they occur only inside strings)."""
    return _JSON_ESCAPE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
