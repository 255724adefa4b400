"""Votes from an account the players file does not name: one alert per account, with its
votes, the players who have not posted today and the command that answers it (a renamed
account is a player: `game alias`). Nothing is applied without the GM."""

from __future__ import annotations

from collections.abc import Sequence

from assistant.alerts import Alert
from assistant.checks import PostingRules
from assistant.count.tally import Tally
from assistant.count.unlisted import alias_proposals
from assistant.game import Game
from assistant.models import Post


def check_non_player_votes(
    tally: Tally, posts: Sequence[Post], game: Game, rules: PostingRules
) -> list[Alert]:
    """`posts`: the day's posts counted. Severity: the ruleset's `invalid_vote`."""
    if rules.invalid_vote == "none":
        return []
    day = [p for p in posts if tally.last_post is None or p.post_id <= tally.last_post]
    alerts = []
    for prop in alias_proposals(tally.votes, day, game):
        first = next((v for v in tally.votes if v.voter == prop.account), None)
        alerts.append(
            Alert(
                kind="non_player_vote",
                severity=rules.invalid_vote,
                message=prop.question(game.game_id),
                player=prop.account,
                post_id=prop.votes[0][0],
                post_url=first.url if first is not None else None,
                evidence="; ".join(t for _, t in prop.votes),
                occurred_at=first.at if first is not None else None,
                detail_key=f"day {tally.day}",
            )
        )
    return alerts
