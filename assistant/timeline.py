"""Each post as it stood at a moment: its first version from when it was posted, and each
later version from when the edit was made. What a count as of a moment reads.

When an edit was made: the forum's "Last edit" notice says so when the notice changed
with it. SMF and phpBB print it to the minute, so a notice without seconds means some
moment of that minute; and it is clamped into the window between the two polls (a
notice in a wrong zone cannot predate the poll that still showed the old text). A
silent edit (no new notice: SMF within 90 s, phpBB on the topic's last post) is known
only to lie between the poll that last showed the old text and the poll that first
showed the new one. Either way the edit counts from the latest moment it can have been
made (for a silent edit: what the assistant had at every moment), and its window is
kept, so an alert can say when a window straddles a deadline instead of guessing.

A post first seen already edited (a thread fetched late) has no known earlier version:
its one version stands from when it was posted, and the edit check reports it as unknown.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from assistant.models import Post

if TYPE_CHECKING:  # the count reads `Edit` without the store's database behind it
    from assistant.store import PostVersion, StoredPost


@dataclass(frozen=True)
class Edit:
    """One change of a post between two versions the assistant stored."""

    before: Post
    after: Post
    at: datetime
    """When the new text counts from: the latest moment the edit can have been made."""
    earliest: datetime
    """The earliest moment it can have been made (`at` when the time is known exactly)."""
    silent: bool = False
    """No new edit notice came with it: only the polls tell when it was made."""

    @property
    def post_id(self) -> int:
        return self.after.post_id

    @property
    def known(self) -> bool:
        """Whether the edit's time is known (a forum notice), not only a window."""
        return self.earliest == self.at

    def straddles(self, moment: datetime) -> bool:
        """Whether `moment` (a deadline) falls inside the window of an edit of unknown time."""
        return self.earliest < moment < self.at


@dataclass(frozen=True)
class Thread:
    """The thread's facts as a count reads them: every post as first posted, and the edits
    made to them since, in time order."""

    posts: tuple[Post, ...]
    edits: tuple[Edit, ...] = ()

    def as_of(self, moment: datetime | None = None) -> list[Post]:
        """Each post as it stood at `moment` (None: its latest version)."""
        current = {p.post_id: p for p in self.posts}
        for e in self.edits:
            if moment is None or e.at <= moment:
                current[e.post_id] = e.after
        return list(current.values())


def edit_between(before: PostVersion, after: PostVersion) -> Edit:
    """The edit that turned `before` into `after`, with when it was made (see the module)."""
    old, new = before.post, after.post
    notice = new.edit.at if new.edit is not None and new.edit != old.edit else None
    if notice is None:
        return Edit(old, new, after.seen_at, before.seen_at, silent=True)
    last = notice + (_MINUTE if notice.second == 0 and notice.microsecond == 0 else timedelta())
    earliest = min(max(notice, before.seen_at), after.seen_at)
    return Edit(old, new, max(earliest, min(last, after.seen_at)), earliest)


_MINUTE = timedelta(seconds=59)
"""The rest of a minute a notice printed without seconds may mean."""


def thread_of(stored: Iterable[StoredPost], at: datetime | None = None) -> Thread:
    """The thread as the store holds it, as of `at` (None: now): posts a moderator deleted
    by then are left out. Every version is read, whenever it was seen: a count as of `at`
    applies the edits made by then (`Edit.at`), even those the assistant saw only later."""
    posts: list[Post] = []
    edits: list[Edit] = []
    for sp in stored:
        if sp.vanished_at is not None and (at is None or sp.vanished_at <= at):
            continue
        versions = sp.versions
        posts.append(versions[0].post)
        edits.extend(edit_between(b, a) for b, a in zip(versions, versions[1:], strict=False))
    edits.sort(key=lambda e: (e.at, e.post_id))
    return Thread(tuple(posts), tuple(edits))
