"""Edited posts: marked by the forum, or found as a silent change between two polls.

Each change between two stored versions of a post is one edit, reported with a
before/after diff and whether the usable votes in the post changed. A post seen only
after it was edited (the forum's "Last edit" notice, no earlier version) is reported
with what the notice says; whether that edit changed a vote cannot be known.

Kinds: "moderator_edit" (someone other than the author edited), "silent_edit" (the
body changed and the forum shows no new notice: SMF within 90 s, phpBB on the last
post), "vote_changed_by_edit" (a marked edit that changed a vote), "edit" (the rest).
The GM's own posts are not checked.
"""

from __future__ import annotations

import difflib
import threading
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from zoneinfo import ZoneInfo

from assistant.alerts import Alert
from assistant.checks import PostingRules
from assistant.checks.text import possessive, post_text
from assistant.count.votes import VoteRules, extract_votes
from assistant.game import Game
from assistant.models import Post, to_iso
from assistant.names import fold
from assistant.phases import game_zone, local_text
from assistant.store import PostVersion, StoredPost

VotesOf = Callable[[Post], tuple[str, ...]]
"""The usable votes of a post as short texts ("vote Slayer", "unvote"), in order."""


def check_edits(
    posts: Iterable[StoredPost],
    game: Game,
    rules: PostingRules,
    votes_of: VotesOf,
    *,
    first_posted: bool = False,
    day_ends: Sequence[datetime] = (),
) -> list[Alert]:
    """`first_posted`: the ruleset does not let an edit change a vote ([votes] edits,
    001): an edit that changed one says the vote stands as first posted. `day_ends`: when
    the days that are over ended; a post seen only after an edit made after one of them
    says the vote it stood with at that end is unknown."""
    alerts: list[Alert] = []
    zone = game_zone(game.tz)
    for sp in posts:
        versions = sp.versions
        if len(versions) == 1 and versions[0].post.edit is None:
            continue  # never edited, as far as anyone can tell (most posts)
        if game.is_gm(sp.latest.author):
            continue
        if len(versions) == 1:
            alert = _seen_edited(versions[0], rules, votes_of, zone, day_ends)
            if alert is not None:
                alerts.append(alert)
            continue
        for before, after in zip(sp.versions, sp.versions[1:], strict=False):
            alert = _edit(before, after, rules, votes_of, zone, first_posted)
            if alert is not None:
                alerts.append(alert)
    return alerts


def _editor_is_author(post: Post) -> bool:
    by = post.edit.by if post.edit is not None else None
    return by is None or fold(by) == fold(post.author)


def _edit(
    before: PostVersion,
    after: PostVersion,
    rules: PostingRules,
    votes_of: VotesOf,
    zone: ZoneInfo,
    first_posted: bool = False,
) -> Alert | None:
    old, new = before.post, after.post
    marked = new.edit is not None and new.edit != old.edit
    old_votes, new_votes = votes_of(old), votes_of(new)
    vote_changed = old_votes != new_votes
    if marked and not _editor_is_author(new):
        kind, severity = "moderator_edit", rules.moderator_edit
        who = f"{new.edit.by} (not the author)"  # type: ignore[union-attr]
    else:
        kind = "silent_edit" if not marked else ("vote_changed_by_edit" if vote_changed else "edit")
        severity = rules.vote_edit if vote_changed else rules.edit
        who = new.author
    if severity == "none":
        return None
    when = new.edit.at if marked and new.edit is not None else None
    window = (
        f"between {local_text(before.seen_at, zone)} and {local_text(after.seen_at, zone)}"
        if when is None
        else f"at {local_text(when, zone)}"
    )
    how = {
        "silent_edit": "silently edited (no edit notice)",
        "moderator_edit": "edited by a moderator",
        "vote_changed_by_edit": "edited, changing a vote",
        "edit": "edited",
    }[kind]
    message = f"{possessive(new.author)} post #{new.post_id} was {how} {window}; edited by {who}"
    if new.edit is not None and new.edit.reason:
        message += f" (reason: {new.edit.reason})"
    if vote_changed:
        message += f"; votes {_votes(old_votes)} -> {_votes(new_votes)}"
        if first_posted:
            message += (
                "; this ruleset does not let an edit change a vote: the vote stands as first "
                "posted"
            )
    elif kind == "moderator_edit":
        message += "; the votes in it are unchanged"
    return Alert(
        kind=kind,
        severity=severity,
        message=message,
        player=new.author,
        post_id=new.post_id,
        post_url=new.url,
        evidence=diff(before, after),
        occurred_at=when or after.seen_at,
        detail_key=after.hash,
    )


def _seen_edited(
    version: PostVersion,
    rules: PostingRules,
    votes_of: VotesOf,
    zone: ZoneInfo,
    day_ends: Sequence[datetime] = (),
) -> Alert | None:
    post = version.post
    assert post.edit is not None
    by_author = _editor_is_author(post)
    kind = "edit" if by_author else "moderator_edit"
    votes = votes_of(post)
    severity = rules.moderator_edit if not by_author else (rules.vote_edit if votes else rules.edit)
    if severity == "none":
        return None
    when = f" at {local_text(post.edit.at, zone)}" if post.edit.at else ""
    message = (
        f"{possessive(post.author)} post #{post.post_id} was edited{when} by "
        f"{post.edit.by or post.author}"
    )
    if post.edit.reason:
        message += f" (reason: {post.edit.reason})"
    if votes:
        message += (
            f"; it carries {_votes(votes)}: the first version was not seen, so whether "
            "the edit changed a vote is unknown"
        )
        ended = [
            end for end in day_ends if post.posted_at <= end and post.edit.at and post.edit.at > end
        ]
        if ended:
            message += (
                f"; the edit came after the day ended ({local_text(ended[0], zone)}): the vote "
                "the post stood with then is unknown, and that day's count reads this version"
            )
    return Alert(
        kind=kind,
        severity=severity,
        message=message,
        player=post.author,
        post_id=post.post_id,
        post_url=post.url,
        evidence="(first version not seen)\n" + version_text(version),
        occurred_at=post.edit.at or version.seen_at,
        detail_key=f"notice:{to_iso(post.edit.at)}",
    )


VERSION_TEXTS = 1 << 13
"""Versions whose visible text `version_text` keeps: more than 200 games' posts seen only
after an edit (some 27 in a 300-post thread the daemon started on)."""
_texts: dict[int, str] = {}
_texts_lock = threading.Lock()


def version_text(version: PostVersion) -> str:
    """`post_text` of a stored version, kept by the version's fingerprint (its post's id
    and its content hash), never by its body: every review shows the same edited posts'
    text again (the evidence of their alerts), and parsing a body was most of the check."""
    key = (version.post.post_id << 64) | int(version.hash, 16)
    text = _texts.get(key)
    if text is None:
        text = post_text(version.post.body_html)
        with _texts_lock:  # reviews run on several threads
            if len(_texts) >= VERSION_TEXTS:
                del _texts[next(iter(_texts))]  # the one kept longest
            _texts[key] = text
    return text


def diff(old: PostVersion, new: PostVersion) -> str:
    """A unified diff of the two versions' visible text."""
    lines = difflib.unified_diff(
        version_text(old).splitlines(),
        version_text(new).splitlines(),
        fromfile="before",
        tofile="after",
        lineterm="",
        n=1,
    )
    return "\n".join(lines)


def _votes(votes: tuple[str, ...]) -> str:
    return "[" + ", ".join(votes) + "]" if votes else "[no vote]"


def usable_votes(vote_rules: VoteRules, gms: Iterable[str] = ()) -> VotesOf:
    """`VotesOf` from the ruleset's vote markup: the marks `extract_votes` calls usable."""
    gm_names = tuple(gms)

    def votes_of(post: Post) -> tuple[str, ...]:
        return tuple(
            f"{m.action} {m.target_text}".strip() if m.target_text else m.action
            for m in extract_votes(post, vote_rules, gms=gm_names)
            if m.usable
        )

    return votes_of


def check_edits_after_rulings(posts: Iterable[StoredPost], game: Game) -> list[Alert]:
    """A post edited after the GM ruled on it (`assistant rule`): the ruling stands (it is
    on the post as the GM saw it), and the GM is told, to rule again if the edit matters."""
    ruled_posts = {r.post for r in game.rulings}
    alerts = []
    for sp in posts:
        if sp.post_id not in ruled_posts:
            continue  # (most posts: asked of each post, `rulings_on` was most of the check)
        rulings = game.rulings_on(sp.post_id)
        seen = max((r.version for r in rulings), default=0)
        if not seen or len(sp.versions) <= seen:
            continue
        ruled = sp.versions[seen - 1]
        for version in sp.versions[seen:]:
            post = version.post
            alerts.append(Alert(
                kind="edited_after_ruling",
                severity="warning",
                message=(
                    f"{post.author} edited post {post.post_id} after your ruling on it "
                    f"({'; '.join(r.by_gm() for r in rulings)}): the ruling stands; to change "
                    f"it, `assistant rule {game.game_id} --post {post.post_id} ...` again, or "
                    "undo it (`assistant log`)"
                ),
                player=game.slot_of_author(post.author) or post.author,
                post_id=post.post_id,
                post_url=post.url,
                evidence=diff(ruled, version),
                occurred_at=(post.edit.at if post.edit is not None else None) or version.seen_at,
                detail_key=f"ruled:{version.hash}",
            ))
    return alerts
