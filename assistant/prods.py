"""Prods: the players who have not yet done what the ruleset asks of them this phase, and
the PM that reminds each of them, in the ruleset's own words.

The checks (`checks/inactivity.py`) judge a phase once it has ended; a prod comes before
that, while the player can still post. Who is prodded follows the ruleset's `[posting]`:
- `min_posts_per_day` (002: "All players must make at least one post per day"): during a
  day, every living player with fewer posts since it began;
- `inactive_cycle` (003: "a full Day-Night cycles without contributing to the thread"):
  every living player with no post since the last day began (that day and its night are
  the cycle they must post in);
- `voting_mandatory` (001: "Voting is mandatory"): during a day, every living player with
  no vote standing.
A GM can ask for any window instead (`since`: no post since then). The PM quotes the
ruleset's `activity_rule` (the seed's sentence) and is rendered from templates/pm_prod.j2.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from assistant.checks import PostingRules
from assistant.game import Game, Phase
from assistant.models import Post
from assistant.phases import local_text, phase_label
from assistant.templating import template


@dataclass(frozen=True)
class Prod:
    """One player to remind, and of what."""

    player: str
    posts: int
    """Their posts since `since`."""
    since: datetime
    """Where the window they are judged on began."""
    window: str
    """In words: "since Day 2 began", "since Day 2 began (Day 2 and Night 2 are the cycle)"."""
    no_post: bool = True
    """Fewer posts in the window than the ruleset asks for."""
    no_vote: bool = False
    """Voting is mandatory and they have no vote standing."""

    def to_json(self) -> dict[str, object]:
        return {"player": self.player, "posts": self.posts, "since": self.since.isoformat(),
                "window": self.window, "no_post": self.no_post, "no_vote": self.no_vote}


def window_of(rules: PostingRules, phases: Sequence[Phase]) -> tuple[datetime, str, int] | None:
    """Where the ruleset's posting window began, in words, and the posts it asks for;
    None when the ruleset asks for none now (no such rule, or a daily rule at night)."""
    if not phases:
        return None
    current = phases[-1]
    days = [p for p in phases if p.kind == "day"]
    if rules.inactive_cycle != "none" and days:
        day = days[-1]
        return day.starts_at, f"since {phase_label(day)} began", 1
    if rules.min_posts_per_day and rules.inactive_day != "none" and current.kind == "day":
        return current.starts_at, f"since {phase_label(current)} began", rules.min_posts_per_day
    return None


def at_risk(
    posts: Sequence[Post],
    game: Game,
    rules: PostingRules,
    now: datetime,
    *,
    not_voting: Sequence[str] = (),
    since: datetime | None = None,
    zone: ZoneInfo | None = None,
) -> list[Prod]:
    """The living players to prod as of `now`, in the players file's order. `not_voting`:
    the running day's count's living players with no vote (read when voting is mandatory);
    `since`: the GM's own window instead of the ruleset's."""
    phases = [p for p in game.phases if p.starts_at <= now]
    current = phases[-1] if phases else None
    if since is not None:
        window: tuple[datetime, str, int] | None = (
            since, f"since {local_text(since, zone or ZoneInfo('UTC'))}", 1)
    else:
        window = window_of(rules, phases)
    day_running = current is not None and current.kind == "day"
    no_vote = set(not_voting) if rules.voting_mandatory and day_running else set()
    if window is None and not no_vote:
        return []
    start, words, needed = window or (current.starts_at, "", 0)  # type: ignore[union-attr]
    # SMF and many boards show a post's minute: a post in the window's first minute is
    # given the benefit of the doubt (a prod sent to one who posted is worse than none).
    first_minute = start.replace(second=0, microsecond=0)
    counts: dict[str, int] = {}
    for post in posts:
        if first_minute <= post.posted_at <= now:
            slot = game.slot_of_author(post.author)
            if slot is not None:
                counts[slot] = counts.get(slot, 0) + 1
    out = []
    for slot in game.players:
        if not game.is_alive(slot, at=now):
            continue
        short = counts.get(slot, 0) < needed
        if short or slot in no_vote:
            out.append(Prod(slot, counts.get(slot, 0), start, words, short, slot in no_vote))
    return out


def prod_pms(prods: Sequence[Prod], rules: PostingRules, *, title: str,
             phase: Phase | None, deadline: datetime | None, zone: ZoneInfo) -> dict[str, str]:
    """One PM per player to prod (player -> text, `To:` and `Subject:` lines first, as the
    result PMs): what they have not done, by when, and the ruleset's sentence."""
    pm = template("pm_prod.j2")
    return {
        p.player: pm.render(
            player=p.player,
            title=title,
            phase=phase_label(phase) if phase else "",
            posts=p.posts,
            window=p.window,
            no_post=p.no_post,
            no_vote=p.no_vote,
            deadline=local_text(deadline, zone) if deadline else "",
            rule=rules.activity_rule,
        )
        for p in prods
    }
