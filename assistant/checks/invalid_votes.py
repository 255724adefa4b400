"""Votes that did not count for a reason the GM should see: a self-vote, a dead, unknown
or ambiguous target, a new vote without an unvote (003), the wrong colour or markup, a vote after
the deadline.

It reads the `Vote` records of `assistant.tally.count`, whose `reason` says why a vote
did not count; `KINDS` maps those reasons to alert kinds (the first match wins). Votes
not counted because they sit in a quote or code box, are a host's example, or come from
a dead player or a non-player are left out here: the posting check reports the post.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from assistant.alerts import Alert
from assistant.checks import PostingRules
from assistant.tally import Vote

KINDS: tuple[tuple[str, re.Pattern[str], str], ...] = (
    ("ambiguous_vote_target", re.compile(r"^ambiguous: "), "invalid_vote"),
    ("unknown_vote_target", re.compile(r"matches no player|names no one"), "invalid_vote"),
    ("vote_after_deadline", re.compile(r"after the deadline"), "vote_late"),
    ("self_vote", re.compile(r"self-votes are not allowed"), "invalid_vote"),
    ("vote_without_unvote", re.compile(r"only after an unvote"), "invalid_vote"),
    ("wrong_vote_markup", re.compile(r"this ruleset counts"), "invalid_vote"),
)
"""(alert kind, pattern on the vote's reason, the [posting] key giving its severity)."""
_DEAD_TARGET = re.compile(r"^not counted: (.+) is dead")


def check_invalid_votes(votes: Iterable[Vote], rules: PostingRules) -> list[Alert]:
    alerts = []
    for vote in votes:
        if vote.accepted:
            continue
        kind, severity_key = _classify(vote)
        if kind is None:
            continue
        severity = getattr(rules, severity_key)
        if severity == "none":
            continue
        where = f"post #{vote.post_id}" if vote.post_id is not None else "a PM vote"
        alerts.append(
            Alert(
                kind=kind,
                severity=severity,
                player=vote.voter,
                post_id=vote.post_id,
                post_url=vote.url,
                message=f"{vote.voter}'s {vote.text} in {where}: {vote.reason}",
                evidence=f"{vote.text} ({vote.markup})",
                occurred_at=vote.at,
                detail_key=f"{vote.text}@{vote.at.isoformat()}",
            )
        )
    return alerts


def _classify(vote: Vote) -> tuple[str | None, str]:
    m = _DEAD_TARGET.match(vote.reason)
    if m and vote.target is not None and m.group(1) == vote.target:
        return "vote_for_dead_player", "invalid_vote"
    for kind, pattern, key in KINDS:
        if pattern.search(vote.reason):
            return kind, key
    return None, "invalid_vote"
