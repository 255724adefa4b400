"""Who may post, and when: dead players, people not in the game, talk at night.

000 lets the dead post once after death ("last words", reported as info so the GM
reads it for game information); 001 and 002 allow no post at all. Posts by forum
members who are neither players nor GMs are reported once each. Under 002 players may
speak only during the day.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from assistant.alerts import Alert
from assistant.checks import PostingRules
from assistant.game import Game, Phase
from assistant.models import Post
from assistant.phases import phase_at, phase_label


def check_posting(
    posts: Iterable[Post],
    game: Game,
    rules: PostingRules,
    phases: Sequence[Phase] = (),
) -> list[Alert]:
    alerts: list[Alert] = []
    after_death: dict[str, int] = {}
    for post in sorted(posts, key=lambda p: (p.position, p.post_id)):
        if game.is_gm(post.author):
            continue
        slot = game.slot_of_author(post.author)
        if slot is None:
            if rules.non_player_post != "none":
                alerts.append(
                    _alert(
                        post,
                        "non_player_post",
                        rules.non_player_post,
                        f"{post.author} is not a player in this game but posted "
                        f"#{post.post_id}; any vote in it does not count",
                    )
                )
            continue
        if not game.is_alive(slot, post_id=post.post_id, at=post.posted_at):
            n = after_death[slot] = after_death.get(slot, 0) + 1
            death = game.death_of(slot)
            how = f" ({death.how})" if death is not None and death.how != "other" else ""
            if n <= rules.dead_posts_allowed:
                alerts.append(
                    _alert(
                        post,
                        "dead_player_last_words",
                        "info",
                        f"{slot} is dead{how} and used post {n} of the {rules.dead_posts_allowed} "
                        f"the rules allow after death (#{post.post_id}): check it gives no game "
                        "information",
                        player=slot,
                    )
                )
            elif rules.dead_post != "none":
                alerts.append(
                    _alert(
                        post,
                        "dead_player_post",
                        rules.dead_post,
                        f"{slot} is dead{how} and posted #{post.post_id}"
                        + (
                            f" (post {n} after death; {rules.dead_posts_allowed} allowed)"
                            if rules.dead_posts_allowed
                            else "; the dead may not post"
                        )
                        + "; any vote in it does not count",
                        player=slot,
                    )
                )
            continue
        if rules.night_post != "none":
            phase = phase_at(phases, post.posted_at)
            if phase is not None and phase.kind == "night":
                alerts.append(
                    _alert(
                        post,
                        "night_post",
                        rules.night_post,
                        f"{slot} posted #{post.post_id} during {phase_label(phase)}; players may "
                        "speak only during the day",
                        player=slot,
                    )
                )
    return alerts


def _alert(
    post: Post, kind: str, severity: str, message: str, *, player: str | None = None
) -> Alert:
    return Alert(
        kind=kind,
        severity=severity,
        message=message,
        player=player or post.author,
        post_id=post.post_id,
        post_url=post.url,
        occurred_at=post.posted_at,
    )
