"""The BBCode vote-count post: a `Tally` rendered with the ruleset's template.

Templates live in `templates/tally_{style}.j2` ([tally] template = "classic", "chat" or
"pm"); this module only prepares the values (links, the deadline in the game's time
zone, the time left) so the templates hold no logic. A day that ended at majority (the
hammer) has no time left: the draft names the deciding post instead of the deadline.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from assistant.count.outcome import TallyRules
from assistant.count.tally import Tally
from assistant.safe_text import BBCode, names
from assistant.templating import template


def time_left(deadline: datetime | None, now: datetime | None) -> str | None:
    """ "about 16 minutes", "5 h 20 min", "2 days 3 h"; None without a deadline; "none" past it."""
    if deadline is None or now is None:
        return None
    seconds = int((deadline - now).total_seconds())
    if seconds <= 0:
        return "none"
    minutes = (seconds + 59) // 60
    if minutes < 60:
        return f"about {minutes} minute{'s' if minutes != 1 else ''}"
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        return f"{hours} h {minutes} min"
    days, hours = divmod(hours, 24)
    return f"{days} days {hours} h"


def render_tally(
    tally: Tally,
    rules: TallyRules,
    *,
    tz: str = "UTC",
    now: datetime | None = None,
    post_urls: dict[int, str] | None = None,
) -> str:
    """The tally post text, ready to paste."""
    # Permalinks are the forum's own: printed as they are (player text is made inert).
    urls = {post: BBCode(url) for post, url in (post_urls or {}).items()}
    zone = ZoneInfo(tz)
    deadline = None
    ended = None
    if tally.outcome.by_majority:
        post = tally.outcome.at_post
        ended = {
            "post": post,
            "url": urls.get(post) if post is not None else None,
            "lynched": tally.outcome.said(names),
        }
    elif tally.deadline is not None:
        local = tally.deadline.astimezone(zone)
        deadline = local.strftime("%Y-%m-%d %H:%M ") + (local.tzname() or tz)
    wagons = [
        {
            "target": w.target,
            "displayed": w.displayed,
            "effective": w.effective,
            "voters": [
                {"name": v, "url": urls.get(p) if p is not None else None}
                for v, p in zip(w.voters, w.posts, strict=True)
            ],
        }
        for w in tally.wagons
    ]
    lynched = tally.outcome.said(names)
    left = time_left(tally.deadline, now)  # "none": the day has ended, say so
    chosen = template(f"tally_{rules.template}.j2", setting="the ruleset's [tally] template")
    return (
        chosen.render(
            day_label=f"Day {tally.day}" if tally.day is not None else "",
            wagons=wagons,
            not_voting=list(tally.not_voting),
            abstaining=list(tally.abstaining),
            alive=list(tally.alive),
            majority=tally.majority,
            lynch_rule=tally.lynch_rule(),
            deadline=deadline,
            time_left=None if ended else left,
            over=left == "none",
            ended=ended,
            result=f"{lynched} ({tally.outcome.reason})",
            votes_hidden=bool(tally.votes_hidden),
            lynched=lynched,
        ).strip()
        + "\n"
    )
