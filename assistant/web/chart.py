"""The day's vote history: each wagon over the day, what moved it, and the day's marks.

GMs rebuild this by hand from the thread: the count's own counted votes replayed in order,
so every step of a line is the count the GM gets from `count --at-post` at that post
(the tests hold the two equal on the real threads). The picture is an SVG drawn on the
server (no chart library); each step carries who voted or unvoted in which post, which
the page's one script shows on hover or tap, and the same history is a table per player
(`player_history`) for reading and for screen readers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from markupsafe import Markup, escape

from assistant.count.tally import ABSTAIN, Tally, Vote
from assistant.game import Game
from assistant.models import Post
from assistant.safe_text import isolate

WIDTH, HEIGHT = 760, 300
LEFT, RIGHT, TOP, BOTTOM = 36, 150, 40, 34
"""The plot's margins: the marks' labels sit in the band above it, never on a line."""
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b",
           "#e377c2", "#7f7f7f", "#bcbd22")
TICK_STEPS = tuple(timedelta(minutes=m) for m in (1, 2, 5, 10, 15, 30)) + tuple(
    timedelta(hours=h) for h in (1, 2, 3, 6, 12, 24, 48, 96, 168))
"""Intervals between two time ticks, the first that gives at most `MAX_TICKS` is used."""
MAX_TICKS = 7


@dataclass(frozen=True)
class Step:
    """A wagon's total from `at` on (after post `post_id`)."""

    at: datetime
    post_id: int | None
    votes: int


@dataclass(frozen=True)
class Change:
    """One voter's standing vote changed at a moment: `before` -> `after` (None: no vote)."""

    voter: str
    before: str | None
    after: str | None

    def text(self) -> str:
        """"Kat voted Jd- (from Conia)", each name bidi isolated in the sentence."""
        voter = isolate(self.voter)
        if self.after is None:
            return f"{voter} unvoted {isolate(self.before)}" if self.before else \
                f"{voter} unvoted"
        moved = f" (from {isolate(self.before)})" if self.before else ""
        return f"{voter} voted {isolate(self.after)}{moved}"


@dataclass(frozen=True)
class Moment:
    """A post (or a PM vote) that moved the count: what changed, and the wagons after it."""

    at: datetime
    post_id: int | None
    url: str | None
    changes: tuple[Change, ...]
    totals: tuple[tuple[str, int], ...]
    """Every wagon with votes after this moment, the biggest first."""


@dataclass(frozen=True)
class Hammer:
    """A wagon reaching the votes that lynch (majority rulesets)."""

    target: str
    at: datetime
    post_id: int | None


@dataclass(frozen=True)
class Mark:
    """Something the GM looks for on the time axis: a host's vote count, the clock
    dropping when everyone voted."""

    kind: str
    """"host-count" or "all-voted"."""
    at: datetime
    label: str
    post_id: int | None = None
    url: str | None = None


@dataclass(frozen=True)
class History:
    start: datetime
    end: datetime
    deadline: datetime | None
    majority: int | None
    """The votes that lynch at once, when the ruleset's decision is majority."""
    series: dict[str, tuple[Step, ...]]
    hammers: tuple[Hammer, ...]
    moments: tuple[Moment, ...] = ()
    marks: tuple[Mark, ...] = ()
    day: int | None = None


def vote_history(
    posts: Sequence[Post],
    game: Game,
    ruleset: Any,
    tally: Tally,
    *,
    now: datetime,
    deadline: datetime | None,
    marks: Iterable[Mark] = (),
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
    moments: list[Moment] = []
    pending: list[Change] = []

    def record(at: datetime, post_id: int | None, url: str | None,
               totals: dict[str, int]) -> None:
        for target in sorted(set(series) | set(totals)):
            steps = series.setdefault(target, [Step(phase.starts_at, None, 0)])
            votes = totals.get(target, 0)
            if steps[-1].votes != votes:
                steps.append(Step(at, post_id, votes))
        changes = tuple(c for c in pending if c.before != c.after)
        pending.clear()
        if changes:
            ranked = sorted(((t, n) for t, n in totals.items() if n), key=lambda x: -x[1])
            moments.append(Moment(at, post_id, url, changes, tuple(ranked)))

    def totals() -> dict[str, int]:
        out: dict[str, int] = {}
        for target, weight in standing.values():
            out[target] = out.get(target, 0) + weight
        return out

    counted = [v for v in tally.votes if v.accepted and (v.post_id is None or v.post_id in known)]
    for i, v in enumerate(counted):
        before = standing.get(v.voter, (None, 0))[0]
        if v.action == "unvote" or v.target == ABSTAIN:
            standing.pop(v.voter, None)
        elif v.target is not None:
            standing[v.voter] = (v.target, v.weight)
        after = standing.get(v.voter, (None, 0))[0]
        if v.target == ABSTAIN:
            after = ABSTAIN
        pending.append(Change(v.voter, before, after))
        following = counted[i + 1] if i + 1 < len(counted) else None
        if following is None or following.post_id != v.post_id or v.post_id is None:
            record(v.at, v.post_id, v.url, totals())
    final = {w.target: w.effective for w in tally.wagons}
    if final != {t: n for t, n in totals().items() if n}:
        at = tally.last_post_at or (counted[-1].at if counted else phase.starts_at)
        record(at, tally.last_post, None, final)
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
    day_marks = tuple(sorted((m for m in marks if phase.starts_at <= m.at <= end),
                             key=lambda m: m.at))
    return History(
        phase.starts_at, end, deadline, majority,
        {t: tuple(s) for t, s in series.items()},
        tuple(sorted(hammers, key=lambda h: h.at)),
        tuple(moments), day_marks, tally.day,
    )


def time_ticks(start: datetime, end: datetime, zone: ZoneInfo) -> list[tuple[datetime, str]]:
    """Ticks at a round interval of the game's clock (every 10 minutes, 6 hours, a day),
    at most `MAX_TICKS`; a tick's label names the day where the day changes."""
    span = end - start
    step = next((s for s in TICK_STEPS if span / s <= MAX_TICKS), TICK_STEPS[-1])
    local = start.astimezone(zone)
    if step >= timedelta(days=1):
        first = local.replace(hour=0, minute=0, second=0, microsecond=0)
    else:
        unit = int(step.total_seconds())
        midnight = local.replace(hour=0, minute=0, second=0, microsecond=0)
        since = int((local - midnight).total_seconds())
        first = midnight + timedelta(seconds=(since // unit) * unit)
    out: list[tuple[datetime, str]] = []
    at, last_day = first, None
    while at <= end.astimezone(zone):
        if at >= local:
            day = at.date()
            if step >= timedelta(days=1):
                label = f"{at:%a} {at.day} {at:%b}"
            elif day != last_day:
                label = f"{at:%a} {at:%H:%M}"
            else:
                label = f"{at:%H:%M}"
            last_day = day
            out.append((at.astimezone(start.tzinfo), label))
        # Step on the wall clock of the zone: a tick stays on the hour across a DST change.
        at = (at.replace(tzinfo=None) + step).replace(tzinfo=zone)
    return out


def render_svg(history: History, zone: ZoneInfo, order: Sequence[str] = ()) -> Markup:
    """The chart as inline SVG; every name in it is escaped. `order` puts the current
    wagons first in the legend, as the count lists them. Each moment that moved the count
    is a band (`g.step`, focusable) that the page's script explains from `steps_html`."""
    span_end = max(history.end, history.deadline or history.end)
    span = (span_end - history.start).total_seconds() or 1.0
    top_votes = max([s.votes for steps in history.series.values() for s in steps]
                    + [history.majority or 0, 1])
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    bottom = TOP + plot_h

    def x(at: datetime) -> float:
        return LEFT + plot_w * (at - history.start).total_seconds() / span

    def y_of(votes: int) -> float:
        return TOP + plot_h * (1 - votes / top_votes)

    out = [
        f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img" aria-label="Vote history of the day: the table below says the same">',
        f'<line x1="{LEFT}" y1="{bottom}" x2="{LEFT + plot_w}" y2="{bottom}" stroke="#888"/>',
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{bottom}" stroke="#888"/>',
    ]
    for v in range(0, top_votes + 1, max(1, top_votes // 6)):
        out.append(f'<line class="grid" x1="{LEFT}" y1="{y_of(v):.1f}" x2="{LEFT + plot_w}" '
                   f'y2="{y_of(v):.1f}"/>')
        out.append(f'<text x="{LEFT - 6}" y="{y_of(v) + 4:.1f}" text-anchor="end" '
                   f'class="tick">{v}</text>')
    for at, label in time_ticks(history.start, span_end, zone):
        tx = x(at)
        out.append(f'<line class="xtick" x1="{tx:.1f}" y1="{bottom}" x2="{tx:.1f}" '
                   f'y2="{bottom + 4}"/>')
        out.append(f'<text x="{tx:.1f}" y="{HEIGHT - 14}" text-anchor="middle" class="tick">'
                   f'{escape(label)}</text>')
    out.append(f'<text x="{LEFT + plot_w}" y="{HEIGHT - 2}" text-anchor="end" class="zone">'
               f'{escape(zone.key)}</text>')
    if history.majority:
        my = y_of(history.majority)
        out.append(f'<line class="majority" x1="{LEFT}" y1="{my:.1f}" x2="{LEFT + plot_w}" '
                   f'y2="{my:.1f}"/>')
        out.append(f'<text x="{LEFT + plot_w + 4}" y="{my + 4:.1f}" class="tick">'
                   f'majority {history.majority}</text>')
    labels = _Labels(LEFT, LEFT + plot_w)
    if history.end < span_end:  # the day is still running: where "now" is
        nx = x(history.end)
        out.append(f'<line class="now" x1="{nx:.1f}" y1="{TOP}" x2="{nx:.1f}" y2="{bottom}"/>')
        labels.place(nx, "now", "now")
    for m in history.marks:
        mx = x(m.at)
        title = escape(m.label + (f" (post {m.post_id})" if m.post_id is not None else ""))
        if m.kind == "host-count":
            out.append(f'<g class="mark host-count"><title>{title}</title>'
                       f'<path d="M{mx - 5:.1f},{TOP - 2} L{mx + 5:.1f},{TOP - 2} '
                       f'L{mx:.1f},{TOP + 5}" /></g>')
        else:
            out.append(f'<line class="mark-line {escape(m.kind)}" x1="{mx:.1f}" y1="{TOP}" '
                       f'x2="{mx:.1f}" y2="{bottom}"><title>{title}</title></line>')
            labels.place(mx, m.label, f"mark {escape(m.kind)}")
    if history.deadline is not None:
        dx = x(history.deadline)
        out.append(f'<line class="deadline" x1="{dx:.1f}" y1="{TOP}" x2="{dx:.1f}" '
                   f'y2="{bottom}"/>')
        labels.place(dx, "deadline", "mark deadline-label")
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
        ly = TOP + 4 + 16 * i
        out.append(f'<line x1="{WIDTH - RIGHT + 10}" y1="{ly - 4}" x2="{WIDTH - RIGHT + 26}" '
                   f'y2="{ly - 4}" stroke="{colour}" stroke-width="3"/>')
        out.append(f'<text x="{WIDTH - RIGHT + 30}" y="{ly}" class="legend">'
                   f'{_name(_short(target))} ({steps[-1].votes})</text>')
    for h in history.hammers:
        hx, hy = x(h.at), y_of(history.majority or 0)
        post = f" (post {h.post_id})" if h.post_id is not None else ""
        out.append(f'<g class="hammer"><title>{_name(h.target)} reached majority{post}</title>'
                   f'<circle cx="{hx:.1f}" cy="{hy:.1f}" r="6"/></g>')
        labels.place(hx, f"hammer: {isolate(_short(h.target))}", "mark hammer-label")
    # The steps last, above the lines: a band from halfway to the moment before to halfway
    # to the next, so the pointer anywhere over the plot finds the nearest step.
    bins = step_bins(history)
    xs = [x(b[0].at) for b in bins]
    for i, group in enumerate(bins):
        lo = LEFT if i == 0 else (xs[i - 1] + xs[i]) / 2
        hi = LEFT + plot_w if i == len(xs) - 1 else (xs[i] + xs[i + 1]) / 2
        hi = max(hi, lo + 1)
        what = "; ".join(c.text() for m in group for c in m.changes[:MAX_CHANGES])
        out.append(f'<g class="step" data-step="{i}" tabindex="0"><title>'
                   f'{escape(_local(group[0].at, zone))}: {escape(_short(what, 300))}</title>'
                   f'<rect x="{lo:.1f}" y="{TOP}" width="{hi - lo:.1f}" height="{plot_h}"/>'
                   f'<line x1="{xs[i]:.1f}" y1="{TOP}" x2="{xs[i]:.1f}" y2="{bottom}"/></g>')
    out.append("".join(labels.out))
    out.append("</svg>")
    return Markup("".join(out))


MAX_CHANGES = 12
"""Lines of one step's details; more are summed up ("and 30 more")."""


def step_bins(history: History) -> list[tuple[Moment, ...]]:
    """The moments, those that fall on the same pixel of the plot put together: a day of
    thousands of vote posts stays a chart of at most a few hundred steps to point at."""
    span_end = max(history.end, history.deadline or history.end)
    span = (span_end - history.start).total_seconds() or 1.0
    plot_w = WIDTH - LEFT - RIGHT
    bins: list[list[Moment]] = []
    last = None
    for m in history.moments:
        pixel = int(plot_w * (m.at - history.start).total_seconds() / span)
        if bins and pixel == last:
            bins[-1].append(m)
        else:
            bins.append([m])
        last = pixel
    return [tuple(b) for b in bins]


def steps_html(history: History, zone: ZoneInfo, links: dict[int, str]) -> Markup:
    """What each step of the chart (`g.step[data-step=i]`) says on hover or tap: when,
    which post (a link to it), who voted or unvoted, and the wagons after it."""
    out = []
    for i, group in enumerate(step_bins(history)):
        first, last = group[0], group[-1]
        when = _local(first.at, zone) if first.at == last.at or _local(first.at, zone) == \
            _local(last.at, zone) else f"{_local(first.at, zone)}–{_local(last.at, zone)}"
        posts = [m.post_id for m in group]
        if len(group) == 1:
            pid = first.post_id
            link = links.get(pid) if pid is not None else None
            where = "by PM" if pid is None else (
                f'<a href="{escape(link)}" rel="noreferrer noopener" target="_blank">post {pid}</a>'
                if link else f"post {pid}")
        else:
            ids = [p for p in posts if p is not None]
            where = f"{len(group)} posts" + (f" ({min(ids)}–{max(ids)})" if ids else "")
        changes = [c for m in group for c in m.changes]
        lines = "".join(f"<li>{escape(c.text())}</li>" for c in changes[:MAX_CHANGES])
        if len(changes) > MAX_CHANGES:
            lines += f"<li>and {len(changes) - MAX_CHANGES} more</li>"
        totals = ", ".join(f"{_name(t)} {n}" for t, n in last.totals) or "no votes"
        out.append(f'<li data-step="{i}"><div class="tip-head">{escape(when)} · {where}</div>'
                   f'<ul class="tip-changes">{lines}</ul>'
                   f'<div class="tip-totals">{totals}</div></li>')
    return Markup("".join(out))


class _Labels:
    """Labels of vertical marks in the band above the plot, each on the first of three
    rows where it does not overlap one already placed: no label sits on a line."""

    ROWS = (TOP - 26, TOP - 15, TOP - 4)
    CHAR = 6.2  # px per character of the 11 px label font

    def __init__(self, left: float, right: float) -> None:
        self.left, self.right = left, right
        self.taken: list[list[tuple[float, float]]] = [[] for _ in self.ROWS]
        self.out: list[str] = []

    def place(self, at: float, text: str, css: str) -> None:
        width = len(text) * self.CHAR
        lo = min(max(at - width / 2, self.left), self.right + RIGHT - width - 4)
        hi = lo + width
        row = next((r for r, spans in enumerate(self.taken)
                    if all(hi + 4 < a or lo > b + 4 for a, b in spans)), len(self.ROWS) - 1)
        self.taken[row].append((lo, hi))
        self.out.append(f'<text x="{lo:.1f}" y="{self.ROWS[row]}" class="{css}">'
                        f'{escape(text)}</text>')


@dataclass(frozen=True)
class CastVote:
    """One vote a player cast, for the per-player table."""

    at: str
    post_id: int | None
    url: str | None
    what: str
    """"voted Conia", "unvoted", "voted No Lynch"."""
    counted: bool
    reason: str


def player_history(tally: Tally, zone: ZoneInfo,
                   links: dict[int, str]) -> list[tuple[str, list[CastVote]]]:
    """Every vote each player cast on the day, counted or not, in order (the automod
    "vote history" page): players in the order they first voted."""
    out: dict[str, list[CastVote]] = {}
    for v in tally.votes:
        out.setdefault(v.voter, []).append(_cast(v, zone, links))
    return list(out.items())


def _cast(v: Vote, zone: ZoneInfo, links: dict[int, str]) -> CastVote:
    """A counted vote as what it did ("voted Conia", "unvoted"); one not counted as
    written ("[Vote: J]"), with why beside it."""
    if not v.accepted:
        what = v.text
    elif v.action == "unvote":
        what = "unvoted"
    else:
        what = f"voted {isolate(v.target or '')}"
    return CastVote(_local(v.at, zone), v.post_id,
                    links.get(v.post_id) if v.post_id is not None else None, what,
                    v.accepted, v.reason)


def _local(at: datetime, zone: ZoneInfo) -> str:
    return at.astimezone(zone).strftime("%a %H:%M")


def _short(name: str, most: int = 18) -> str:
    return name if len(name) <= most else name[: most - 1] + "…"


def _name(name: str) -> Markup:
    """A name as the chart prints it: escaped and bidi isolated (safe_text.isolate), so a
    right-to-left override in it reverses nothing after it (the legend's count)."""
    return escape(isolate(name))
