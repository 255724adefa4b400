"""The vote-like marks of a game's posts, kept on disk between commands (`G.json.marks`).

Reading the marks out of a post's HTML (votes.py) is most of a count's work on a long day:
a 10,000-post day has some 5,600 posts that speak of voting. A body never changes (an edit
is a new version with a new body), so the marks read from it once hold for good: the file
keeps them by post id and a digest of the body, and the next `count` in a new process reads
them back instead of parsing the HTML again. Only the raw marks are kept, before any
ruleset judges them, so one file serves every ruleset and every game setting.

The file is a cache and nothing else: safe to delete (the marks are read again), written
atomically beside the game file, and ignored whole when it was written by other vote-reading
code (`FORMAT`, and a digest of votes.py's source and the HTML parser's version), cannot be
read, or is not what it should be. A folder that cannot be written only costs the next count
its speed-up.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import orjson

from assistant.count import votes
from assistant.count.votes import Hidden, Mark, VoteRules, may_hold_marks
from assistant.game_file import read_json
from assistant.models import built
from assistant.store import StoredPost
from assistant.vote_codes import VoteCode

FORMAT = 1
"""The file's layout; a change of it (or of how marks are read) makes old files ignored."""


@cache
def code_version() -> str:
    """What the kept marks were read with: this layout, votes.py's own source and the
    HTML parser's version. A change to any of them reads every post again."""
    import selectolax

    h = hashlib.sha256(f"{FORMAT}/{getattr(selectolax, '__version__', '?')}/".encode())
    try:
        h.update(Path(votes.__file__).read_bytes())
    except OSError:  # no source beside the bytecode: the package's version stands in
        from importlib.metadata import version

        h.update(version("assistant").encode())
    return h.hexdigest()[:20]


def body_digest(body: str) -> str:
    return hashlib.blake2b(body.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


def marks_path(game_file: Path) -> Path:
    return game_file.with_name(f"{game_file.name}.marks")


class MarksFile:
    """The kept marks of one game: read on the first post asked about, written by `save`
    when posts were read that it did not hold."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._posts: dict[str, dict[str, list[Any]]] | None = None
        self._dirty = False
        self.keep: set[int] | None = None
        """The game's post ids, when known: the posts no longer stored are dropped."""

    def _load(self) -> dict[str, dict[str, list[Any]]]:
        if self._posts is None:
            self._posts = {}
            try:
                data = read_json(self.path.read_bytes())
            except (OSError, ValueError):
                return self._posts  # none yet, or unreadable: read the posts again
            if (isinstance(data, dict) and data.get("code") == code_version()
                    and isinstance(data.get("posts"), dict)):
                self._posts = data["posts"]
        return self._posts

    def get(self, post_id: int, body: str) -> tuple[Mark, ...] | None:
        """The marks kept for this version of the post, or None when there are none."""
        kept = self._load().get(str(post_id))
        rows = kept.get(body_digest(body)) if isinstance(kept, dict) else None
        if not isinstance(rows, list):
            return None
        try:
            return tuple([_mark(row) for row in rows])
        except (TypeError, ValueError, IndexError):
            return None  # not what this code writes: read the post again

    def put(self, post_id: int, body: str, marks: Iterable[Mark]) -> None:
        self._load().setdefault(str(post_id), {})[body_digest(body)] = [_row(m) for m in marks]
        self._dirty = True

    def save(self) -> None:
        """Write the file if posts were read that it did not hold (atomically; a folder
        that cannot be written is left as it is)."""
        if not self._dirty or self._posts is None:
            return
        posts = self._posts
        if self.keep is not None:
            wanted = {str(i) for i in self.keep}
            posts = {k: v for k, v in posts.items() if k in wanted}
        import tempfile

        doc = {"format": FORMAT, "code": code_version(), "posts": posts}
        try:  # orjson: the daemon writes a game's file again at each poll that read a post
            raw = orjson.dumps(doc)
        except TypeError:  # a lone surrogate in a mark's text (orjson writes only UTF-8)
            raw = json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode(
                "utf-8", "surrogatepass")
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp",
                                       dir=self.path.parent)
        except OSError:
            return
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(raw)
            os.replace(tmp, self.path)
            self._dirty = False
        except OSError:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _row(m: Mark) -> list[Any]:
    hidden = m.hidden
    return [m.action, m.target_text, m.text, list(m.forms), m.color,
            None if hidden is None else hidden.code.value,
            None if hidden is None else hidden.text, m.offset]  # fmt: skip


def _mark(row: list[Any]) -> Mark:
    action, target, text, forms, color, code, why, offset = row
    hidden = None if code is None else _hidden(code, str(why))
    if not (isinstance(action, str) and isinstance(text, str) and isinstance(offset, int)):
        raise TypeError(f"not a kept mark: {row!r}")
    return built(Mark, action=action, target_text=target, text=text, forms=tuple(forms),
                 color=color, hidden=hidden, offset=offset)


@lru_cache(maxsize=1024)
def _hidden(code: str, why: str) -> Hidden:
    """What hid a mark: few of them, each met in many posts."""
    return Hidden(VoteCode(code), why)


@contextmanager
def kept_beside(game_file: Path) -> Iterator[MarksFile]:
    """Within: posts read for their marks (votes.extract_votes) use and fill the game's
    marks file, written at the end. Nested uses share the outermost's."""
    current = votes.marks_shelf()
    if current is not None:
        yield current
        return
    shelf = MarksFile(marks_path(game_file))
    token = votes.set_marks_shelf(shelf)
    try:
        yield shelf
    finally:
        votes.reset_marks_shelf(token)
    shelf.save()


def read_marks_of(game_file: Path, stored: list[StoredPost], rules: VoteRules) -> None:
    """Every stored version's marks the game's file does not hold yet, read into it: what
    `fetch` does once it has stored a thread, so that even the first count after it parses
    no post's HTML (the daemon's reviews keep the file as they count)."""
    with kept_beside(game_file) as shelf:
        shelf.keep = {sp.post_id for sp in stored}
        for sp in stored:
            for version in sp.versions:
                body = version.post.body_html
                if may_hold_marks(body, rules):
                    votes.raw_marks(body, sp.post_id)
