"""What a count reads: the day's posts up to the moment, each once and in thread order,
with the GM's PM votes and the edits of those posts placed among them by time; and the
authors the players file does not name but one silent slot's name is close to."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from assistant.game import Game, Phase
from assistant.models import Post
from assistant.names import Slot
from assistant.timeline import Edit


def select_posts(
    posts: Iterable[Post], game: Game, phase: Phase | None, at_post: int | None, at: datetime | None
) -> list[Post]:
    """The day's posts up to the moment, in thread order, each post once.

    A post given twice (two versions of an edited post, or an archive that repeats a
    line) is counted once, as the last version given: counting both would cast its
    votes twice. Thread order is the order of post ids (as SMF and phpBB number them,
    and as `at_post`, deaths and day starts are compared), not the stored positions: a
    position goes stale when a moderator deletes an earlier post and only later pages
    are fetched again, and ordering by it would apply two votes of a player the wrong
    way round.
    """
    by_id: dict[int, Post] = {}
    for p in posts:
        if not game.in_day(p, phase):
            continue
        if at_post is not None and p.post_id > at_post:
            continue
        if at is not None and p.posted_at > at:
            continue
        by_id.pop(p.post_id, None)
        by_id[p.post_id] = p
    return sorted(by_id.values(), key=lambda p: p.post_id)


def with_unlisted_authors(game: Game, posts: Sequence[Post]) -> tuple[Game, dict[str, str]]:
    """The game with each author the players file does not name, but whose name is a close
    spelling of one slot's that never posts in `posts` (the whole thread given, so the
    reading does not change with the moment counted: "Donempire" posting, the file's
    "Dongempire" silent), added to that slot's names; and a note for their votes' reasons."""
    authors = {p.author for p in posts}
    matcher = game.matcher()
    found: dict[str, list[str]] = {}
    notes: dict[str, str] = {}
    for author in sorted(authors):
        if game.is_gm(author) or game.slot_of_author(author) is not None:
            continue
        m = matcher.unlisted_author(author, authors)
        if m is not None and m.slot is not None:
            found.setdefault(m.slot, []).append(author)
            notes[author] = (
                f" (posted by {author}, not in the players file: read as {m.slot}, "
                f"{m.how}, a slot that posts under none of its names)"
            )
    found = {slot: names for slot, names in found.items() if len(names) == 1}
    if not found:
        return game, {}
    slots = tuple(
        Slot(s.name, (*s.aliases, *found[s.name])) if s.name in found else s for s in game.slots
    )
    return dataclasses.replace(game, slots=slots), {
        a: n for a, n in notes.items() if any(a in names for names in found.values())
    }


def event_time(kind: str, item: Any) -> datetime:
    """When an event of `day_events` happened: a post when made, an edit when edited."""
    return item.posted_at if kind == "post" else item.at


@dataclass(frozen=True)
class RuledPost:
    """A post the GM ruled on, as the GM saw it (`post`), counted from `at` (`--from`)."""

    post: Post
    at: datetime


def versions_of(posts: Sequence[Post], edits: Sequence[Edit]) -> dict[int, list[Post]]:
    """Each post's versions in order: as first posted, then after each edit."""
    out: dict[int, list[Post]] = {p.post_id: [p] for p in posts}
    for e in edits:
        if e.post_id in out:
            out[e.post_id].append(e.after)
    return out


def with_rulings(
    events: list[tuple[str, Any]],
    game: Game,
    posts: Sequence[Post],
    edits: Sequence[Edit],
    at: datetime | None,
) -> tuple[list[tuple[str, Any]], dict[int, Post]]:
    """The events with the GM's rulings (`assistant rule`) applied: a ruled post's edits
    dropped (the ruling is on the post as the GM saw it), a post ruled to count from
    another moment moved there ("ruled" event). Also each ruled post's version, to count
    in its place; a moved post is not among them."""
    if not game.rulings:
        return events, {}
    ruled_ids = {r.post for r in game.rulings}
    ruled = {p.post_id for p in posts if p.post_id in ruled_ids}
    if not ruled:
        return events, {}
    versions = versions_of(posts, edits)
    in_place: dict[int, Post] = {}
    moved: list[tuple[datetime, RuledPost]] = []
    for post_id in ruled:
        rulings = game.rulings_on(post_id)
        seen = versions[post_id]
        k = rulings[-1].version
        version = seen[min(k, len(seen)) - 1] if k > 0 else seen[-1]
        version = dataclasses.replace(version, posted_at=seen[0].posted_at)
        moment = next((r.at for r in rulings if r.which is None and r.at is not None), None)
        if moment is None:
            in_place[post_id] = version
        elif at is None or moment <= at:
            then = dataclasses.replace(version, posted_at=moment)
            moved.append((moment, RuledPost(then, moment)))
    out = [(k, i) for k, i in events if not (k == "edit" and i.post_id in ruled)]
    for moment, item in sorted(moved, key=lambda t: t[0]):
        place = next(
            (n for n, (k, i) in enumerate(out) if event_time(k, i) > moment), len(out)
        )
        out.insert(place, ("ruled", item))
    return out, in_place


def day_events(
    posts: Sequence[Post],
    game: Game,
    phase: Phase | None,
    at_post: int | None,
    at: datetime | None,
    edits: Sequence[Edit] = (),
) -> list[tuple[str, Any]]:
    """Posts in thread order with the GM's PM votes and the edits of those posts placed by
    time among them ("as of post N" is the moment post N was made: later edits wait)."""
    timed: list[tuple[datetime, str, Any]] = [
        (v.at, "pm", v)
        for v in game.pm_votes
        if (phase is None or v.at >= phase.starts_at) and (at is None or v.at <= at)
    ]
    chosen = {p.post_id for p in posts}
    timed += [
        (e.at, "edit", e)
        for e in edits
        if e.post_id in chosen and (at is None or e.at <= at) and e.at >= e.before.posted_at
    ]
    if at_post is not None and posts:
        timed = [t for t in timed if t[0] <= posts[-1].posted_at]
    timed.sort(key=lambda t: t[0])
    events: list[tuple[str, Any]] = []
    i = 0
    for p in posts:
        while i < len(timed) and timed[i][0] < p.posted_at:
            events.append(timed[i][1:])
            i += 1
        events.append(("post", p))
    events.extend(t[1:] for t in timed[i:])
    return events
