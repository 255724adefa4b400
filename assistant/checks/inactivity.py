"""Players who did not take part: no post during a day (002: modkilled at night), no post
during a whole day-night cycle (003: replaced, or modkilled from Day 4 on), no vote at the
end of a day where voting is mandatory (001).

Only phases that have ended are judged: a player may still post before the deadline.
Only a player alive for the whole phase is judged: not one dead when it began (a nightkill
the GM entered during the day) nor one dead before it ended. A phase shorter than the
ruleset's `[posting] inactivity_window` (a day the GM entered late, or ended after a few
minutes) is no day in the rule's sense: nobody is judged for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime

from assistant.alerts import Alert
from assistant.checks import PostingRules
from assistant.game import Game, Phase
from assistant.models import Post
from assistant.phases import parse_duration, phase_label

Span = tuple[Phase, datetime | None]
"""A phase and when it really ended (None: not yet known)."""


def _posters(posts: Iterable[Post], game: Game, start: datetime, end: datetime) -> dict[str, int]:
    counts: dict[str, int] = {}
    for post in posts:
        if start <= post.posted_at < end:
            slot = game.slot_of_author(post.author)
            if slot is not None:
                counts[slot] = counts.get(slot, 0) + 1
    return counts


def _living_through(game: Game, start: datetime, end: datetime) -> list[str]:
    """The players alive when the phase began and still alive when it ended."""
    return [s for s in game.players if game.is_alive(s, at=start) and game.is_alive(s, at=end)]


def _long_enough(rules: PostingRules, start: datetime, end: datetime) -> bool:
    """Whether a span lasted the rule's window (`inactivity_window`), so silence in it counts."""
    if rules.inactivity_window is None:
        return True
    return end - start >= parse_duration(rules.inactivity_window, where="inactivity_window")


def check_inactivity(
    posts: Sequence[Post],
    game: Game,
    rules: PostingRules,
    spans: Sequence[Span],
    now: datetime,
    *,
    voted: Mapping[int, Iterable[str]] | None = None,
) -> list[Alert]:
    """`voted`: for each ended day number, the players with a vote standing at its end."""
    alerts: list[Alert] = []
    ended = [(p, end) for p, end in spans if end is not None and end <= now]
    for phase, end in ended:
        if phase.kind != "day":
            continue
        assert end is not None
        if not _long_enough(rules, phase.starts_at, end):
            continue
        if rules.min_posts_per_day and rules.inactive_day != "none":
            counts = _posters(posts, game, phase.starts_at, end)
            for slot in _living_through(game, phase.starts_at, end):
                if counts.get(slot, 0) < rules.min_posts_per_day:
                    alerts.append(
                        Alert(
                            kind="inactive_day",
                            severity=rules.inactive_day,
                            player=slot,
                            message=(
                                f"{slot} made {counts.get(slot, 0)} post(s) during "
                                f"{phase_label(phase)}; the rules ask for "
                                f"{rules.min_posts_per_day} a day "
                                f"(action: {rules.inactive_day_action})"
                            ),
                            occurred_at=end,
                            detail_key=f"day:{phase.number}",
                        )
                    )
        if rules.voting_mandatory and rules.not_voted != "none" and voted is not None:
            standing = set(voted.get(phase.number, ()))
            for slot in _living_through(game, phase.starts_at, end):
                if slot not in standing:
                    alerts.append(
                        Alert(
                            kind="not_voted",
                            severity=rules.not_voted,
                            player=slot,
                            message=f"{slot} had no vote at the end of {phase_label(phase)}; "
                            "voting is mandatory",
                            occurred_at=end,
                            detail_key=f"day:{phase.number}",
                        )
                    )
    if rules.inactive_cycle != "none":
        alerts.extend(_cycles(posts, game, rules, ended))
    return alerts


def _cycles(
    posts: Sequence[Post], game: Game, rules: PostingRules, ended: list[Span]
) -> list[Alert]:
    out = []
    for (day, _day_end), (night, night_end) in zip(ended, ended[1:], strict=False):
        if day.kind != "day" or night.kind != "night" or night_end is None:
            continue
        if not _long_enough(rules, day.starts_at, night_end):
            continue
        counts = _posters(posts, game, day.starts_at, night_end)
        late = rules.modkill_from_day is not None and day.number >= rules.modkill_from_day
        action = "modkill" if late else rules.inactive_cycle_action
        for slot in _living_through(game, day.starts_at, night_end):
            if not counts.get(slot):
                out.append(
                    Alert(
                        kind="inactive_cycle",
                        severity=rules.inactive_cycle,
                        player=slot,
                        message=(
                            f"{slot} did not post during {phase_label(day)} and "
                            f"{phase_label(night)} (a full day-night cycle); action: {action}"
                        ),
                        occurred_at=night_end,
                        detail_key=f"cycle:{day.number}",
                    )
                )
    return out
