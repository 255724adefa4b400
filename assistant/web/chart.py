"""The day's vote history: each wagon over the day, the hammers and the deadline.

GMs rebuild this by hand from the thread: the count's own counted votes replayed in order,
so every step of a line is the count the GM gets from `count --at-post` at that post
(the tests hold the two equal on the real threads). The picture is
an SVG drawn on the server: no chart library and no script on the page.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from markupsafe import Markup, escape

from assistant.count.tally import ABSTAIN, Tally
from assistant.game import Game
from assistant.models import Post

WIDTH, HEIGHT = 760, 280
LEFT, RIGHT, TOP, BOTTOM = 44, 150, 16, 34
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b",
           "#e377c2", "#7f7f7f", "#bcbd22")


@dataclass(frozen=True)
class Step:
    """A wagon's total from `at` on (after post `post_id`)."""

    at: datetime
    post_id: int | None
    votes: int


@dataclass(frozen=True)
class Hammer:
    """A wagon reaching the votes that lynch (majority rulesets)."""

    target: str
    at: datetime
    post_id: int | None


@dataclass(frozen=True)
class History:
    start: datetime
    end: datetime
    deadline: datetime | None
    majority: int | None
    """The votes that lynch at once, when the ruleset's decision is majority."""
    series: dict[str, tuple[Step, ...]]
    hammers: tuple[Hammer, ...]


def vote_history(
    posts: Sequence[Post],
    game: Game,
    ruleset: Any,
    tally: Tally,
    *,
    now: datetime,
    deadline: datetime | None,
) -> History | None:
    """The wagons' totals after every post of the day that carried a counted vote; None
    when the count is not a day's (no phase yet).

    The count's own votes are replayed in order, as a GM rebuilds the history by hand:
    a counted vote moves its voter's weight to its target, a counted unvote takes it
    away. Recounting the thread after every vote post (`count --at-post`) gives the same
    steps but takes a count per vote post, minutes on a long day; the tests hold the two
    equal on the real threads. The last step is the count itself, so the chart always
    ends where the count stands (a day-killed voter's vote, a lovers' bonus)."""
    phase = game.day(tally.day)
    if phase is None:
        return None
    known = {p.post_id for p in posts}
    standing: dict[str, tuple[str, int]] = {}
    series: dict[str, list[Step]] = {}

    def record(at: datetime, post_id: int | None, totals: dict[str, int]) -> None:
        for target in sorted(set(series) | set(totals)):
            steps = series.setdefault(target, [Step(phase.starts_at, None, 0)])
            votes = totals.get(target, 0)
            if steps[-1].votes != votes:
                steps.append(Step(at, post_id, votes))

    def totals() -> dict[str, int]:
        out: dict[str, int] = {}
        for target, weight in standing.values():
            out[target] = out.get(target, 0) + weight
        return out

    counted = [v for v in tally.votes if v.accepted and (v.post_id is None or v.post_id in known)]
    for i, v in enumerate(counted):
        if v.action == "unvote":
            standing.pop(v.voter, None)
        elif v.target is not None and v.target != ABSTAIN:
            standing[v.voter] = (v.target, v.weight)
        elif v.target == ABSTAIN:
            standing.pop(v.voter, None)
        following = counted[i + 1] if i + 1 < len(counted) else None
        if following is None or following.post_id != v.post_id or v.post_id is None:
            record(v.at, v.post_id, totals())
    final = {w.target: w.effective for w in tally.wagons}
    if final != {t: n for t, n in totals().items() if n}:
        at = tally.last_post_at or (counted[-1].at if counted else phase.starts_at)
        record(at, tally.last_post, final)
    majority = tally.majority if tally.decision == "majority" else None
    hammers = []
    if majority:
        for target, steps in series.items():
            hit = next((s for s in steps if s.votes >= majority), None)
            if hit is not None:
                hammers.append(Hammer(target, hit.at, hit.post_id))
    last = max((s.at for steps in series.values() for s in steps), default=phase.starts_at)
    end = max(min(now, deadline) if deadline else now, last)
    if end <= phase.starts_at:
        end = phase.starts_at + timedelta(hours=1)
    return History(
        phase.starts_at, end, deadline, majority,
        {t: tuple(s) for t, s in series.items()},
        tuple(sorted(hammers, key=lambda h: h.at)),
    )


def render_svg(history: History, zone: ZoneInfo, order: Sequence[str] = ()) -> Markup:
    """The chart as inline SVG; every name in it is escaped. `order` puts the current
    wagons first in the legend, as the count lists them."""
    span_end = max(history.end, history.deadline or history.end)
    span = (span_end - history.start).total_seconds() or 1.0
    top_votes = max([s.votes for steps in history.series.values() for s in steps]
                    + [history.majority or 0, 1])
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(at: datetime) -> float:
        return LEFT + plot_w * (at - history.start).total_seconds() / span

    def y_of(votes: int) -> float:
        return TOP + plot_h * (1 - votes / top_votes)


    out = [
        f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img" aria-label="Vote history">',
        f'<line x1="{LEFT}" y1="{TOP + plot_h}" x2="{LEFT + plot_w}" y2="{TOP + plot_h}" '
        'stroke="#888"/>',
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + plot_h}" stroke="#888"/>',
    ]
    for v in range(0, top_votes + 1, max(1, top_votes // 6)):
        out.append(f'<text x="{LEFT - 6}" y="{y_of(v) + 4:.1f}" text-anchor="end" '
                   f'class="tick">{v}</text>')
    for at, anchor in ((history.start, "start"), (span_end, "end")):
        out.append(f'<text x="{x(at):.1f}" y="{HEIGHT - 8}" text-anchor="{anchor}" '
                   f'class="tick">{escape(_local(at, zone))}</text>')
    if history.majority:
        out.append(f'<line class="majority" x1="{LEFT}" y1="{y_of(history.majority):.1f}" '
                   f'x2="{LEFT + plot_w}" y2="{y_of(history.majority):.1f}" stroke="#555" '
                   'stroke-dasharray="2 3"/>')
        out.append(f'<text x="{LEFT + 4}" y="{y_of(history.majority) - 4:.1f}" class="tick">'
                   f'majority {history.majority}</text>')
    if history.deadline is not None:
        dx = x(history.deadline)
        out.append(f'<line class="deadline" x1="{dx:.1f}" y1="{TOP}" x2="{dx:.1f}" '
                   f'y2="{TOP + plot_h}" stroke="#b00" stroke-dasharray="6 4"/>')
        out.append(f'<text x="{dx - 4:.1f}" y="{TOP + 10}" text-anchor="end" class="mark">'
                   'deadline</text>')
    if history.end < span_end:  # the day is still running: where "now" is
        nx = x(history.end)
        out.append(f'<line x1="{nx:.1f}" y1="{TOP}" x2="{nx:.1f}" y2="{TOP + plot_h}" '
                   'stroke="#bbb"/>')
        out.append(f'<text x="{nx + 3:.1f}" y="{TOP + plot_h - 4}" class="now">now</text>')
    names = [t for t in order if t in history.series]
    names += sorted(t for t in history.series if t not in names)
    for i, target in enumerate(names):
        colour = COLOURS[i % len(COLOURS)]
        steps = history.series[target]
        lift = 2.0 * i - (len(names) - 1)  # wagons level with each other stay apart

        def y(votes: int, lift: float = lift) -> float:
            return y_of(votes) - lift

        points: list[str] = []
        for j, s in enumerate(steps):
            if j:
                points.append(f"{x(s.at):.1f},{y(steps[j - 1].votes):.1f}")
            points.append(f"{x(s.at):.1f},{y(s.votes):.1f}")
        points.append(f"{x(history.end):.1f},{y(steps[-1].votes):.1f}")
        out.append(f'<polyline class="wagon" data-target="{escape(target)}" '
                   f'data-final="{steps[-1].votes}" fill="none" '
                   f'stroke="{colour}" stroke-width="2" points="{" ".join(points)}"/>')
        ly = TOP + 14 + 16 * i
        out.append(f'<line x1="{WIDTH - RIGHT + 10}" y1="{ly - 4}" x2="{WIDTH - RIGHT + 26}" '
                   f'y2="{ly - 4}" stroke="{colour}" stroke-width="3"/>')
        out.append(f'<text x="{WIDTH - RIGHT + 30}" y="{ly}" class="legend">'
                   f'{escape(_short(target))} ({steps[-1].votes})</text>')
    for h in history.hammers:
        hx, hy = x(h.at), y_of(history.majority or 0)
        post = f" (post {h.post_id})" if h.post_id is not None else ""
        out.append(f'<g class="hammer"><title>{escape(h.target)} reached majority{post}</title>'
                   f'<circle cx="{hx:.1f}" cy="{hy:.1f}" r="6" fill="#000"/>'
                   f'<text x="{hx + 8:.1f}" y="{hy - 8:.1f}" class="mark">hammer: '
                   f'{escape(_short(h.target))}</text></g>')
    out.append("</svg>")
    return Markup("".join(out))


def _local(at: datetime, zone: ZoneInfo) -> str:
    return at.astimezone(zone).strftime("%a %H:%M")


def _short(name: str, most: int = 18) -> str:
    return name if len(name) <= most else name[: most - 1] + "…"
