"""The README and the guide (`docs/*.md`) as the tests read them: their fenced blocks and
the `assistant ...` command lines in their `sh` blocks."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from conftest import ROOT

DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
"""Every page a GM reads: the README, then the guide's pages."""

_FENCE = re.compile(r"^```(\w*)\n(.*?)^```\n", re.S | re.M)
_SHELL_SEPARATORS = {"&&", "||", ";", "|"}


@dataclass(frozen=True)
class Block:
    """One fenced block of a page."""

    page: Path
    line: int
    """The line of its opening fence (1-based)."""
    lang: str
    text: str
    follows: Block | None
    """The block just before it, when only blank lines stand between them."""

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


@dataclass(frozen=True)
class Example:
    """One `assistant ...` line of an `sh` block."""

    page: Path
    line: int
    text: str
    """The command as written after `assistant`, continuation lines joined."""
    words: tuple[str, ...]
    block: Block

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    out: list[Block] = []
    end_of_last = None
    for m in _FENCE.finditer(text):
        between = text[end_of_last:m.start()] if end_of_last is not None else "x"
        follows = out[-1] if out and not between.strip() else None
        out.append(Block(page, text.count("\n", 0, m.start()) + 1, m.group(1), m.group(2),
                         follows))
        end_of_last = m.end()
    return out


def examples(block: Block) -> list[Example]:
    """The `assistant` commands of an `sh` block: words after `assistant` (or
    `.venv/bin/assistant`, after any `VAR=value`), up to `&&`, `|` or a comment."""
    if block.lang != "sh":
        return []
    out = []
    lines = block.text.split("\n")
    i = 0
    while i < len(lines):
        first = i
        line = lines[i]
        while line.endswith("\\") and i + 1 < len(lines):
            i += 1
            line = line[:-1] + " " + lines[i].strip()
        i += 1
        words = shlex.split(line, comments=True)
        starts = [n for n, w in enumerate(words) if w == "assistant" or w.endswith("/assistant")]
        if not starts:
            continue
        command: list[str] = []
        for word in words[starts[0] + 1:]:
            if word in _SHELL_SEPARATORS:
                break
            command.append(word)
        text = shlex.join(command)
        out.append(Example(block.page, block.line + 1 + first, text, tuple(command), block))
    return out


def all_blocks() -> list[Block]:
    return [b for page in PAGES for b in blocks(page)]


def all_examples() -> list[Example]:
    return [e for b in all_blocks() for e in examples(b)]
