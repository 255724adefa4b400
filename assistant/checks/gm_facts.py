"""What the GM's own thread posts state that the game's facts do not hold yet (a
replacement, a death during the day, a reset of the votes, a vote ruled out): one alert
each, with the command that records it. The count never applies them without the GM
(count/gm_facts.py)."""

from __future__ import annotations

from collections.abc import Sequence

from assistant.alerts import Alert
from assistant.count.gm_facts import fact_proposals
from assistant.game import Game
from assistant.models import Post


def check_gm_facts(posts: Sequence[Post], game: Game) -> list[Alert]:
    """`posts`: the posts of the day so far."""
    by_id = {p.post_id: p for p in posts}
    return [
        Alert(
            kind="gm_fact",
            severity="warning",
            message=(f"your {f.describe()} is not in the game's facts, so the count does not "
                     f"know it; record it: `{f.command(game.game_id)}`"),
            player=f.player,
            post_id=f.post_id,
            post_url=by_id[f.post_id].url if f.post_id in by_id else None,
            evidence=f.said,
            occurred_at=by_id[f.post_id].posted_at if f.post_id in by_id else None,
            detail_key=f"{f.kind} {f.player or ''} {f.replacement or ''}",
        )
        for f in fact_proposals(posts, game)
    ]
