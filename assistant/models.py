"""Records that cross module borders (see DESIGN.md): what a scraper hands to the store.

Votes, tallies, alerts and engine records live with the module that derives them;
only the forum facts are defined here, because every later step reads them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

T = TypeVar("T")


def to_iso(dt: datetime | None) -> str | None:
    """UTC ISO-8601 text for storage; naive datetimes are refused (they hide bugs)."""
    if dt is None:
        return None
    if dt.tzinfo is None:
        raise ValueError(f"naive datetime {dt!r}: the assistant keeps aware UTC datetimes")
    return dt.astimezone(UTC).isoformat()


def from_iso(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text).astimezone(UTC)


def stored_date(value: Any, what: str) -> datetime | None:
    """A date read back from a stored record (None stays None); ValueError saying `what`
    is not a date for anything else (a date typed by hand, a number, a word)."""
    if value is None:
        return None
    try:
        return datetime.fromisoformat(value).astimezone(UTC)
    except (TypeError, ValueError):
        raise ValueError(f"its {what} {value!r} is not a date") from None


def stored_text(value: Any, what: str) -> str:
    """A text read back from a stored record; ValueError when it is missing or not text."""
    if type(value) is not str:
        raise ValueError(f"it has no {what}" if value is None
                         else f"its {what} {value!r} is not a text")
    return value


def built(cls: type[T], **fields: Any) -> T:
    """A frozen dataclass with every one of its `fields` given, made without its `__init__`:
    that sets them one by one through `object.__setattr__`, which was most of reading a
    long game's store (10,000 posts, each a Post, a version and a stored post). Only for
    records read back from the store, which were checked when they were made, and for
    those a parser makes with every field (a class with no `__post_init__` to skip)."""
    obj = object.__new__(cls)
    obj.__dict__.update(fields)
    return obj


@dataclass(frozen=True)
class Quote:
    """A quote box in a post body."""

    author: str | None
    """The cited author's name as the quote header shows it; None for an uncited quote."""
    post_id: int | None = None
    """The forum post id the quote links to (SMF `?msg=N`, phpBB `?p=N`), when linked."""


@dataclass(frozen=True)
class EditNote:
    """The "Last edit" notice a forum shows under an edited post."""

    at: datetime | None
    """When the edit was made (aware UTC), if the notice gives a time."""
    by: str | None = None
    """Who edited (the author or a moderator)."""
    reason: str | None = None
    """The edit reason, when the forum shows one."""
    count: int | None = None
    """phpBB's "edited N times in total"."""


@dataclass(frozen=True)
class Post:
    """One post as one page showed it at one moment."""

    post_id: int
    """The forum's own id (SMF msg id, phpBB post id): stable across edits and pages."""
    position: int
    """0-based position in the thread (the opening post is 0)."""
    author: str
    """The author's display name, unescaped ("Tom & Jerry's")."""
    author_id: int | None
    """The author's member id; None for guests or themes that do not link profiles."""
    posted_at: datetime
    """When it was posted, aware UTC."""
    body_html: str
    """The inner HTML of the post body, as the forum rendered it."""
    page: int
    """1-based page number of the topic page it was read from."""
    edit: EditNote | None = None
    """The forum's edit notice, if shown."""
    quotes: tuple[Quote, ...] = ()
    """Quote boxes in the body, outermost first, in document order."""
    url: str | None = None
    """A permalink to the post, without session ids."""

    @property
    def content_hash(self) -> str:
        """Identifies a version: the body and the edit notice, which change with an edit."""
        h = hashlib.sha256(self.body_html.encode("utf-8"))
        if self.edit is not None:
            h.update(repr((to_iso(self.edit.at), self.edit.by, self.edit.reason)).encode())
        return h.hexdigest()[:16]

    def to_dict(self) -> dict[str, Any]:
        """The stored form (the fields in order; `dataclasses.asdict` made the same dict
        through a deep copy of every field, a fifth of a first read's time)."""
        edit = self.edit
        return {
            "post_id": self.post_id, "position": self.position, "author": self.author,
            "author_id": self.author_id, "posted_at": to_iso(self.posted_at),
            "body_html": self.body_html, "page": self.page,
            "edit": None if edit is None else {"at": to_iso(edit.at), "by": edit.by,
                                               "reason": edit.reason, "count": edit.count},
            "quotes": [{"author": q.author, "post_id": q.post_id} for q in self.quotes],
            "url": self.url,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Post:
        """The post a stored record holds; ValueError, KeyError or TypeError saying what
        is wrong with a record damaged outside the assistant (the store names it)."""
        edit = d.get("edit")
        posted_at = stored_date(d.get("posted_at"), "date (posted_at)")
        if posted_at is None:
            raise ValueError("it has no date (posted_at)")
        return built(
            cls,
            post_id=int(d["post_id"]),
            position=int(d["position"]),
            author=stored_text(d.get("author"), "author"),
            author_id=d.get("author_id"),
            posted_at=posted_at,
            body_html=stored_text(d.get("body_html"), "body (body_html)"),
            page=int(d["page"]),
            edit=None if edit is None else EditNote(
                at=stored_date(edit.get("at"), "edit's date"), by=edit.get("by"),
                reason=edit.get("reason"), count=edit.get("count"),
            ),
            quotes=tuple([Quote(q.get("author"), q.get("post_id")) for q in quotes])
            if (quotes := d.get("quotes")) else (),
            url=d.get("url"),
        )


@dataclass(frozen=True)
class TopicPage:
    """One parsed topic page."""

    software: str
    """"smf" or "phpbb"."""
    version: str | None
    """What the page says of the software version / generation ("2.1", "2.0", "3.x"), if it says."""
    url: str
    """The page's URL, session ids stripped."""
    topic_id: int | None
    title: str | None
    page: int
    """1-based number of this page."""
    page_count: int
    """How many pages the thread has, as this page shows."""
    per_page: int | None
    """Posts per page, when the page's links tell (SMF `topic=2.15`, phpBB `start=15`)."""
    page_urls: Sequence[str]
    """URL of every page 1..page_count, built from the thread URL and offsets."""
    posts: tuple[Post, ...] = field(default_factory=tuple)


