"""Votes that did not count for a reason the GM should see: a self-vote, a dead, unknown
or ambiguous target, a new vote without an unvote (003), the wrong colour or markup, a vote after
the deadline.

It reads the `Vote` records of `assistant.count.tally.count` and classifies them by their
`code` (assistant/vote_codes.py), never by the wording of their reason: `KINDS` maps a
code to an alert kind. Votes not counted because they sit in a quote or code box, are a
host's example, or come from a dead player or a non-player are left out here: the posting
check reports the post.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from assistant.alerts import Alert
from assistant.checks import PostingRules
from assistant.checks.text import possessive
from assistant.count.tally import Vote
from assistant.vote_codes import VoteCode

KINDS: Mapping[VoteCode, tuple[str, str]] = {
    VoteCode.AMBIGUOUS_TARGET: ("ambiguous_vote_target", "invalid_vote"),
    VoteCode.UNKNOWN_TARGET: ("unknown_vote_target", "invalid_vote"),
    VoteCode.DEAD_TARGET: ("vote_for_dead_player", "invalid_vote"),
    VoteCode.AFTER_DEADLINE: ("vote_after_deadline", "vote_late"),
    VoteCode.SELF_VOTE: ("self_vote", "invalid_vote"),
    VoteCode.NO_UNVOTE_FIRST: ("vote_without_unvote", "invalid_vote"),
    VoteCode.UNVOTE_NOT_VOTING: ("unvote_not_voting", "invalid_vote"),
    VoteCode.NO_LYNCH_NOT_ALLOWED: ("no_lynch_not_allowed", "invalid_vote"),
    VoteCode.ABSTAIN_NOT_ALLOWED: ("abstain_not_allowed", "invalid_vote"),
    VoteCode.WRONG_MARKUP: ("wrong_vote_markup", "invalid_vote"),
    VoteCode.WRONG_COLOR: ("wrong_vote_markup", "invalid_vote"),
    # An edit the day's count refused because the day had ended: as serious as a late vote.
    VoteCode.EDITED_AFTER_END: ("edited_after_day_end", "vote_late"),
    VoteCode.EDITED_AROUND_END: ("edit_time_unknown_at_deadline", "vote_late"),
}
"""A vote's code -> (alert kind, the [posting] key giving its severity). Codes not here
raise no alert of this check."""


def check_invalid_votes(votes: Iterable[Vote], rules: PostingRules) -> list[Alert]:
    alerts = []
    for vote in votes:
        if vote.accepted or vote.code not in KINDS:
            continue
        kind, severity_key = KINDS[vote.code]
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
                message=f"{possessive(vote.voter)} {vote.text} in {where}: {vote.reason}",
                evidence=f"{vote.text} ({vote.markup})",
                occurred_at=vote.at,
                detail_key=f"{vote.text}@{vote.at.isoformat()}",
            )
        )
    return alerts
