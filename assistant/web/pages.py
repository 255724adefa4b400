"""What each dashboard page shows, gathered from the functions the command line uses.

Nothing here counts, checks or drafts on its own: the count is `count`'s `game_tally`, the
alerts are the store's alert log, the drafts are `draft tally / dusk / dawn / pms`. The
page reads the game once (`monitor.load_view`) and hands that view to each of them, so a
10,000-post day is counted once per page, not once per part.

A draft that cannot exist yet (the dawn while the day runs) says when it will, for the
GM to read in grey; only a real problem (a setup the engine cannot read) is an error.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from markupsafe import Markup

from assistant.alerts import AlertLog, StoredAlert
from assistant.checks.text import post_text
from assistant.corrections import LogEntry, game_log
from assistant.count.gm_counts import read_counts
from assistant.count.outcome import NO_LYNCH
from assistant.count.tally import Tally, Vote
from assistant.count.votes import VoteRules
from assistant.engine.history import ROLES
from assistant.errors import AssistantError
from assistant.game import Game
from assistant.gm import (
    dawn_draft,
    dusk_text,
    game_tally,
    has_sheriff,
    orders_entered,
    orders_night,
    over_line,
    pm_drafts,
    prod_drafts,
    tally_bbcode,
    tie_decider,
    why_name,
)
from assistant.monitor import GameView, day_deadline, draft_dusk, game_title, load_view
from assistant.night_orders import night_orders_status
from assistant.notify.manage import target_rows
from assistant.outbox import PostDraft
from assistant.phase_entry import game_over
from assistant.phases import Deadline, game_zone, local_text, phase_label
from assistant.proposals import proposals
from assistant.safe_text import isolate, names
from assistant.store import GameStore, list_games
from assistant.web.chart import (
    CastVote,
    History,
    Mark,
    player_history,
    render_svg,
    steps_html,
    vote_history,
)
from assistant.web.writes import DraftWrite, draft_writes

RECENT_POSTS = 12
TABS = (("drafts", "Drafts"), ("inbox", "Inbox"), ("players", "Players"), ("night", "Night"),
        ("votes", "Votes"), ("gm", "Clock & deaths"), ("setup", "Setup"), ("log", "Log"),
        ("notify", "Notify"), ("posts", "Posts"))
"""The tabs under the alerts, each the template `web/tab_KEY.html`: a new section of the
page (the inbox's proposals, the log) is one more entry and one more template."""
SOON = timedelta(hours=1)
SHOWN_ALERTS = 50


@dataclass(frozen=True)
class DraftAction:
    """A button beside a draft: a POST to `/game/GAME/{action}` with `fields`. Posting a
    draft to the thread or sending the PMs (issue 23) is one more of these."""

    action: str
    label: str
    fields: tuple[tuple[str, str], ...] = ()
    confirm: str | None = None
    """Asked in the browser before the form is sent (a write the GM cannot take back)."""


@dataclass(frozen=True)
class Draft:
    key: str
    title: str
    text: str | None
    error: str | None = None
    """A real problem drafting it (shown as an error)."""
    notes: str | None = None
    """For the GM, not for the thread (what `draft dusk` prints under the post)."""
    later: str | None = None
    """The draft cannot exist yet: when it will (shown in grey, not as an error)."""
    actions: tuple[DraftAction, ...] = ()
    post: PostDraft | None = None
    """What its Post button posts (tally, dusk, dawn); None while it cannot be posted."""
    post_not_yet: str | None = None
    """Why it cannot be posted yet, when the draft itself is shown."""


@dataclass(frozen=True)
class PlayerRow:
    name: str
    aliases: tuple[str, ...]
    status: str
    """"alive", or how the player died ("lynch", "nightkill", "modkill", ...)."""
    role: str | None
    voting_for: str | None


@dataclass(frozen=True)
class PostRow:
    post_id: int
    author: str
    when: str
    text: str
    url: str | None
    edited: bool


@dataclass(frozen=True)
class AlertRow:
    stored: StoredAlert
    zone: ZoneInfo
    thread_url: str | None

    @property
    def when(self) -> str:
        return local_text(self.stored.alert.occurred_at or self.stored.first_seen, self.zone)

    @property
    def url(self) -> str | None:
        return forum_link(self.stored.alert.post_url, self.thread_url)


@dataclass(frozen=True)
class State:
    """The game's state in words, for the top of the page and the overview."""

    parts: tuple[str, ...]
    """"Day 3", "2 h 14 min left", "L-1 on Conia": joined with " · "."""
    tone: str
    """"running", "ended", "night", "over" or "none": the colour the page gives it."""
    deadline_iso: str | None = None
    """While the phase runs: its deadline, which the page's script counts down to."""
    left: int | None = None
    """Which of `parts` is the time left (the script keeps it counting)."""

    @property
    def text(self) -> str:
        return " · ".join(self.parts)


@dataclass
class GamePage:
    game_id: str
    title: str
    thread_url: str | None
    ruleset: str = ""
    zone: str = "UTC"
    phase: str | None = None
    state: State = State(("No phase yet",), "none")
    deadline_iso: str | None = None
    deadline_local: str | None = None
    deadline_why: str | None = None
    error: str | None = None
    """Why the game cannot be shown at all (no players yet, a broken ruleset)."""
    tally: Tally | None = None
    tally_json: dict[str, Any] | None = None
    tally_at: datetime | None = None
    count_title: str = "Count"
    over: str | None = None
    """Once the day has ended: what it decided, as `count` says it."""
    count_error: str | None = None
    day_end: Deadline | None = None
    """When the counted day really ends (`monitor.day_deadline`), found once for the page."""
    chart: Markup | None = None
    steps: Markup | None = None
    """What each step of the chart says on hover or tap."""
    history: History | None = None
    open_alerts: list[AlertRow] = field(default_factory=list)
    """The open alerts listed, violations first, newest first (`SHOWN_ALERTS` of them
    unless every one is asked for)."""
    acked_alerts: list[AlertRow] = field(default_factory=list)
    alert_counts: dict[str, int] = field(default_factory=dict)
    """Open alerts per severity."""
    open_total: int = 0
    acked_total: int = 0
    why: str | None = None
    why_votes: list[Vote] = field(default_factory=list)
    why_error: str | None = None
    why_marks: dict[int, int] = field(default_factory=dict)
    """Post -> how many vote-like marks it holds, where `--why` numbers them."""
    drafts: list[Draft] = field(default_factory=list)
    players: list[PlayerRow] = field(default_factory=list)
    posts: list[PostRow] = field(default_factory=list)
    orders_phase: str | None = None
    orders_error: str | None = None
    orders: list[str] = field(default_factory=list)
    order_rows: list[dict[str, Any]] = field(default_factory=list)
    """Tonight's orders with their input id and whether each stands or was replaced
    (`gm.orders_entered`)."""
    missing_orders: list[str] = field(default_factory=list)
    log: list[LogEntry] = field(default_factory=list)
    """Every GM input, newest first, with an Undo for those that stand (`assistant log`)."""
    ruling_targets: list[str] = field(default_factory=list)
    """What a ruling may name: the players and No Lynch."""
    has_setup: bool = False
    extensions_open: bool = False
    has_sheriff: bool = False
    tie_decider: str | None = None
    """Who breaks a tied lynch ("the sheriff", "the GM"), when someone does."""
    next_kind: str = "day"
    next_number: int | None = None
    """The phase the "start" form offers: the one after the running phase."""
    game_over: str | None = None
    """The engine's confirmed win ("Town won at the dusk of Day 2"): no orders are taken."""
    pm_votes: bool = False
    post_links: dict[int, str] = field(default_factory=dict)
    notify_rows: list[dict[str, Any]] = field(default_factory=list)
    """The game's notification targets (`notify --list`)."""
    writes: dict[str, DraftWrite] = field(default_factory=dict)
    """Each draft card's Post or Send button and what was written of it (web/writes.py)."""
    send_cards: list[DraftWrite] = field(default_factory=list)
    """PM kinds with no draft card of their own, each shown on a card with its Send."""
    proposals: list[ProposalRow] = field(default_factory=list)
    """The inbox's proposals, newest message first (`assistant inbox GAME --stored`)."""
    inbox_error: str | None = None
    has_login: bool = False
    """The game has a forum login (`fetch --login`): its inbox can be read."""

    @property
    def open_proposals(self) -> int:
        return sum(1 for p in self.proposals if p.status == "open")

    @property
    def sure_proposals(self) -> int:
        return sum(1 for p in self.proposals if p.sure)

    def open_by_severity(self) -> dict[str, int]:
        return self.alert_counts


@dataclass(frozen=True)
class ProposalRow:
    """One inbox proposal as the page lists it, with the message it came from."""

    id: str
    player: str
    sent: str
    status: str
    kind: str
    line: str
    sure: bool
    doubts: tuple[str, ...]
    refusal: str | None
    subject: str
    text: str
    pm_ids: tuple[int, ...]
    replaces: str | None
    replaced_by: str | None
    fact: int | None
    stored_as: str | None = None


@dataclass(frozen=True)
class GameSummary:
    """One game on the overview, with what needs the GM's attention first."""

    game_id: str
    title: str
    phase: str | None = None
    deadline_local: str | None = None
    deadline_iso: str | None = None
    left: str | None = None
    violations: int = 0
    open_alerts: int = 0
    missing_orders: tuple[str, ...] = ()
    deadline_soon: bool = False
    error: str | None = None
    state: State | None = None

    @property
    def attention(self) -> tuple[int, ...]:
        """Sort key: unacknowledged violations, then a deadline within the hour, then
        missing night orders, then other open alerts."""
        return (-self.violations, not self.deadline_soon, -len(self.missing_orders),
                -self.open_alerts)

    @property
    def needs(self) -> list[str]:
        out = []
        if self.error:
            out.append(self.error)
        if self.violations:
            out.append(f"{self.violations} unacknowledged violation(s)")
        if self.deadline_soon:
            out.append(f"deadline in {self.left}")
        if self.missing_orders:
            out.append("orders missing: " + names(self.missing_orders))
        return out


def forum_link(url: str | None, thread_url: str | None) -> str | None:
    """A link to a post, only when it points at the game's own forum over http(s): a page
    never links anywhere a player's text chose."""
    if not url or not thread_url:
        return None
    site = _site(thread_url)
    if site and url.startswith(site):  # the common case, without parsing the address
        return url
    to, forum = urlsplit(url), urlsplit(thread_url)
    if to.scheme not in ("http", "https") or (to.scheme, to.netloc) != (forum.scheme,
                                                                        forum.netloc):
        return None
    return url


@lru_cache(maxsize=64)
def _site(thread_url: str) -> str | None:
    """ "http://host:port/" of the game's forum, when it is http(s)."""
    forum = urlsplit(thread_url)
    return f"{forum.scheme}://{forum.netloc}/" if forum.scheme in ("http", "https") else None


def post_excerpt(body_html: str, most: int = 280) -> str:
    """A post's own words (quotes left out, as the checks read them), shortened: the page
    escapes them when it shows them."""
    text = " ".join(post_text(body_html or "", quotes=False).split())
    return text if len(text) <= most else text[: most - 1] + "…"


def short_duration(delta: timedelta) -> str:
    """A time span as a GM says it: "4 d 18 h", "2 h 14 min", "9 min 5 s", never negative
    (the page's script counts down in the same words)."""
    seconds = max(int(delta.total_seconds()), 0)
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h" if hours else f"{days} d"
    if hours:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    if minutes:
        return f"{minutes} min {secs} s" if secs else f"{minutes} min"
    return f"{secs} s"


def _ago(delta: timedelta) -> str:
    """How long ago, to the largest unit: "4 d", "3 h", "12 min"."""
    seconds = max(int(delta.total_seconds()), 0)
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds // size} {unit}"
    return "under a minute"


def _names(items: tuple[str, ...] | list[str]) -> str:
    """"A, B and C", each name bidi isolated in the sentence (safe_text.isolate)."""
    shown = [isolate(n) for n in items]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def _lead(tally: Tally) -> str:
    """Who leads the running day: "L-1 on Conia" (majority), "Conia leads with 3"."""
    wagons = [w for w in tally.wagons if w.effective > 0]
    if not wagons:
        return "no votes yet"
    top = max(w.effective for w in wagons)
    leaders = tuple(w.target for w in wagons if w.effective == top)
    if tally.decision == "majority" and tally.majority:
        return f"L-{max(tally.majority - top, 0)} on {_names(leaders)}"
    if len(leaders) > 1:
        return f"tied at {top}: {_names(leaders)}"
    return f"{isolate(leaders[0])} leads with {top}"


def _decided(tally: Tally) -> str:
    lynched = tally.outcome.lynched
    if tally.outcome.failed:
        return "the lynch failed"
    if tally.outcome.waiting or tally.outcome.uncertain:
        return tally.outcome.said()  # "waiting for the sheriff's choice", never "no lynch"
    if not lynched:
        return "no lynch"
    return f"{_names(lynched)} lynched"


def game_state(view: GameView, tally: Tally | None, missing: list[str], now: datetime) -> State:
    """The state line: the phase, the time left (never negative), and what matters in it;
    after a confirmed win, "Game over" (issue 22 makes the end of the game a stored state:
    until then the engine's win check on the confirmed facts says it)."""
    over = game_over(view)  # "Game over: Town won (Day 2)", as `count` and `phase` say it
    if over is not None:
        return State((over,), "over")
    phase = view.phase
    if phase is None:
        return State(("No phase yet",), "none")
    label = phase_label(phase)
    at = view.deadline.at if view.deadline else None
    ended = at is not None and at <= now
    if phase.kind == "day":
        if ended or (tally is not None and tally.outcome.final):
            when = f" {_ago(now - at)} ago" if at is not None else ""
            what = f": {_decided(tally)}" if tally is not None and tally.day == phase.number \
                else ""
            return State((f"{label} ended{when}{what}",), "ended")
        bits = [label, f"{short_duration(at - now)} left" if at else "no deadline set"]
        if tally is not None:
            bits.append(_lead(tally))
        return State(tuple(bits), "running", at.isoformat() if at else None,
                     1 if at else None)
    if ended:
        return State((f"{label} ended {_ago(now - at)} ago",), "ended")  # type: ignore[operator]
    bits = [label]
    if at is not None:
        bits.append(f"{short_duration(at - now)} left")
    if _resolved(view):
        bits.append("resolved: the dawn is drafted")
    elif missing:
        bits.append(f"waiting for {len(missing)} order{'s' if len(missing) != 1 else ''}")
    elif view.orders is not None and view.orders.owed:
        bits.append("all orders in")
    return State(tuple(bits), "night", at.isoformat() if at else None,
                 1 if at is not None else None)


def overview(data_dir: Any, now: datetime) -> list[GameSummary]:
    """Every game in the data directory, the one needing attention first."""
    out = []
    for game_id in list_games(data_dir):
        try:
            with GameStore.open(data_dir, game_id, create=False) as store:
                out.append(_summary(store, now))
        except AssistantError as e:
            out.append(GameSummary(game_id, game_id, error=str(e)))
    return sorted(out, key=lambda s: (s.attention, s.game_id))


def _summary(store: GameStore, now: datetime) -> GameSummary:
    title = game_title(store)
    open_alerts = AlertLog(store).all(include_acked=False)
    violations = sum(1 for s in open_alerts if s.alert.severity == "violation")
    try:
        view = load_view(store, now)
    except AssistantError as e:
        return GameSummary(store.game_id, title, violations=violations,
                           open_alerts=len(open_alerts), error=str(e))
    zone = game_zone(view.game.tz)
    at = view.deadline.at if view.deadline else None
    left = at - now if at else None
    missing = _orders_status(store, view)
    return GameSummary(
        store.game_id,
        title,
        phase=phase_label(view.phase) if view.phase else None,
        deadline_local=local_text(at, zone) if at else None,
        deadline_iso=at.isoformat() if at else None,
        left=short_duration(left) if left is not None and left > timedelta(0) else None,
        violations=violations,
        open_alerts=len(open_alerts),
        missing_orders=tuple(missing),
        deadline_soon=left is not None and timedelta(0) < left <= SOON,
        state=game_state(view, view.tally, missing, now),
    )


def game_page(store: GameStore, now: datetime, *, why: str | None = None,
              all_alerts: bool = False) -> GamePage:
    """Everything the game's page shows, as of `now`, from one view of the game."""
    config = store.config()
    page = GamePage(store.game_id, game_title(store),
                    config.get("thread_url"))
    try:
        view = load_view(store, now)
    except AssistantError as e:
        page.error = str(e)
        return page
    game = view.game
    zone = game_zone(game.tz)
    page.ruleset, page.zone = game.ruleset, zone.key
    page.pm_votes = "pm" in VoteRules.from_ruleset(view.ruleset).forms
    page.has_setup = bool(store.inputs(ROLES))
    if view.phase is not None:
        page.phase = phase_label(view.phase)
    if view.deadline is not None and view.deadline.at is not None:
        page.deadline_iso = view.deadline.at.isoformat()
        page.deadline_local = local_text(view.deadline.at, zone)
        page.deadline_why = view.deadline.why
    page.extensions_open = bool(view.deadline and view.deadline.extensions_open)
    page.tie_decider = tie_decider(view.ruleset)
    page.has_sheriff = has_sheriff(view.ruleset)
    page.next_kind, page.next_number = _next_phase(view)
    _count(page, store, view, now, why)
    page.missing_orders = _orders_status(store, view)
    page.state = game_state(view, page.tally, page.missing_orders, now)
    if view.replay is not None and view.replay.won is not None:
        page.game_over = view.replay.won.text()
    triage = AlertLog(store).triage(None if all_alerts else SHOWN_ALERTS)
    page.open_alerts = [AlertRow(s, zone, page.thread_url) for s in triage.open]
    page.acked_alerts = [AlertRow(s, zone, page.thread_url) for s in triage.acked]
    page.alert_counts = triage.open_by_severity
    page.open_total, page.acked_total = triage.open_total, triage.acked_total
    page.players = _players(store, game, page.tally, now)
    page.posts = [
        PostRow(p.post_id, p.author, local_text(p.posted_at, zone), post_excerpt(p.body_html),
                forum_link(p.url, page.thread_url), sp.edited)
        for sp in reversed(view.stored[-RECENT_POSTS:])
        if sp.vanished_at is None
        for p in (sp.latest,)
    ]
    _orders(page, store, view, now)
    page.drafts = _drafts(store, view, now, page)
    page.writes, page.send_cards = draft_writes(store, page.drafts, now, page.zone)
    page.log = list(reversed(game_log(store)))
    page.ruling_targets = [*game.players, NO_LYNCH]
    page.notify_rows = target_rows(store)
    page.has_login = bool((store.config().get("login") or {}).get("user"))
    _proposals(page, store, zone)
    return page


def _proposals(page: GamePage, store: GameStore, zone: ZoneInfo) -> None:
    """The inbox's proposals (gm_inbox.py decides them, as `assistant inbox` does)."""
    try:
        found = proposals(store)
    except AssistantError as e:
        page.inbox_error = str(e)
        return
    page.proposals = [
        ProposalRow(p.id, p.player, local_text(p.sent_at, zone) if p.sent_at else "?", p.status,
                    p.reading.kind, p.reading.line, p.sure, p.reading.doubts,
                    p.reading.refusal, p.subject, p.text, p.pm_ids, p.replaces,
                    p.replaced_by, p.fact, p.stored_as)
        for p in reversed(found)
    ]


def _next_phase(view: GameView) -> tuple[str, int | None]:
    """The phase after the running one, by the ruleset's numbering: a night keeps the
    number of the day before it where games begin by day (Day 1, Night 1, Day 2; the
    engine's `[night] first_phase`)."""
    engine = view.ruleset.engine
    began_by_day = engine is not None and engine.first_phase == "day"
    phase = view.phase
    if phase is None:
        return ("day", 1) if began_by_day else ("night", 1)
    if phase.kind == "day":
        return "night", phase.number if began_by_day else phase.number + 1
    return "day", phase.number + 1 if began_by_day else phase.number


def _count(page: GamePage, store: GameStore, view: GameView, now: datetime,
           why: str | None) -> None:
    try:
        game, ruleset, tally, at = game_tally(store, now, view=view)
    except AssistantError as e:
        page.count_error = str(e)
        return
    page.tally, page.tally_at = tally, at
    page.over = over_line(tally, game.tz)
    running = view.phase is not None and view.phase.kind == "day" and \
        view.phase.number == tally.day
    if tally.day is not None:
        page.count_title = f"Count · Day {tally.day}" + ("" if running else " (ended)")
    page.tally_json = tally.to_json()
    page.post_links = {v.post_id: link for v in tally.votes if v.post_id is not None
                       for link in (forum_link(v.url, page.thread_url),) if link}
    zone = game_zone(game.tz)
    page.day_end = day_deadline(view, store.inputs(), tally.day)
    marks = _marks(view, tally, page.day_end, page.thread_url)
    history = vote_history(view.posts, view.game, ruleset, tally, now=at,
                           deadline=tally.deadline, marks=marks)
    if history is not None:
        page.history = history
        page.chart = render_svg(history, zone, [w.target for w in tally.wagons])
        page.steps = steps_html(history, zone, page.post_links)
    if why:
        page.why = why
        try:
            who = why_name(tally, game, why.strip(), ruleset)
        except AssistantError as e:
            page.why_error = str(e)
            return
        page.why = who
        page.why_votes = list(tally.votes if who == "*" else tally.votes_of(who or ""))
        for v in tally.votes:  # a post with several votes: the ruling names which (#N)
            if v.post_id is not None and v.mark is not None:
                page.why_marks[v.post_id] = max(page.why_marks.get(v.post_id, 0), v.mark)


@dataclass
class HistoryPage:
    """The day's votes as a table, per player (the automod "vote history" page)."""

    game_id: str
    title: str
    zone: str = "UTC"
    day: int | None = None
    rows: list[tuple[str, list[CastVote]]] = field(default_factory=list)
    error: str | None = None


def history_page(store: GameStore, now: datetime, day: int | None = None) -> HistoryPage:
    """Every vote each player cast on `day` (default: the last day), counted or not, and
    when: `count --why`'s votes grouped by voter."""
    config = store.config()
    page = HistoryPage(store.game_id, game_title(store))
    try:
        game, _ruleset, tally, _at = game_tally(store, now, day=day)
    except AssistantError as e:
        page.error = str(e)
        return page
    zone = game_zone(game.tz)
    page.zone, page.day = zone.key, tally.day
    links = {v.post_id: link for v in tally.votes if v.post_id is not None
             for link in (forum_link(v.url, config.get("thread_url")),) if link}
    page.rows = player_history(tally, zone, links)
    return page


def _marks(view: GameView, tally: Tally, ends: Deadline | None, thread_url: str | None
           ) -> list[Mark]:
    """The host's vote counts posted during the day, and the moment everyone had voted
    where that moved the deadline (the clock drop)."""
    phase = view.game.day(tally.day)
    if phase is None:
        return []
    out = []
    hosts = {a for a in {p.author for p in view.posts} if view.game.is_gm(a)}
    in_day = [p for p in view.posts if p.author in hosts and p.posted_at >= phase.starts_at
              and (tally.deadline is None or p.posted_at <= tally.deadline)]
    by_id = {p.post_id: p for p in in_day}
    for c in read_counts(in_day, view.game, VoteRules.from_ruleset(view.ruleset)):
        post = by_id[c.post_id]
        out.append(Mark("host-count", post.posted_at, f"{isolate(post.author)}'s vote count",
                        c.post_id, forum_link(post.url, thread_url)))
    if ends is not None and ends.all_voted_at is not None:
        out.append(Mark("all-voted", ends.all_voted_at, "everyone voted"))
    return out


def _players(
    store: GameStore, game: Game, tally: Tally | None, now: datetime
) -> list[PlayerRow]:
    roles: dict[str, str] = {}
    setups = store.inputs(ROLES)
    if setups:
        for p in setups[-1]["data"].get("players", []):
            role = p.get("role") or "vanilla"
            roles[p["name"]] = f"{role} ({p.get('side')})" if p.get("side") else role
    voting = {}
    if tally is not None:
        voting = {voter: w.target for w in tally.wagons for voter in w.voters}
    rows = []
    for slot in game.slots:
        death = game.death_of(slot.name)
        alive = game.alive_after(slot.name, at=now)
        status = "alive" if alive else (death.how if death else "dead")
        rows.append(PlayerRow(slot.name, slot.aliases, status, roles.get(slot.name),
                              voting.get(slot.name)))
    return rows


def _drafts(store: GameStore, view: GameView, now: datetime, page: GamePage) -> list[Draft]:
    out = []
    zone = game_zone(view.game.tz)
    if page.tally is not None:
        text = tally_bbcode(view.game, view.ruleset, page.tally, page.tally_at or now)
        title = f"Tally · Day {page.tally.day}" if page.tally.day is not None else "Tally"
        out.append(Draft("tally", title, text, post=PostDraft(
            "tally", text.strip() + "\n", "day", page.tally.day)))
    elif page.count_error:
        out.append(Draft("tally", "Tally", None, page.count_error))
    if view.game.day() is not None:
        out.append(_dusk(store, view, now, page, zone))
    if page.has_setup:
        out += _night_drafts(store, view, now, zone, page.orders_phase)
    out.append(_prods(store, view, now))
    return out


def _prods(store: GameStore, view: GameView, now: datetime) -> Draft:
    """`draft prods`: a PM to each living player who has not posted (or voted) as the
    ruleset asks; a ruleset that asks nothing says so in grey."""
    title = "Prods"
    try:
        pms = prod_drafts(store, now, view=view)
    except AssistantError as e:
        return Draft("prods", title, None, later=str(e))
    if not pms:
        return Draft("prods", title, None,
                     later="Nobody to prod: everyone has posted (and voted) as the ruleset asks.")
    return Draft("prods", f"{title} ({len(pms)})", "\n---\n".join(
        v.rstrip("\n") for v in pms.values()))


def _dusk(store: GameStore, view: GameView, now: datetime, page: GamePage,
          zone: ZoneInfo) -> Draft:
    try:
        result = draft_dusk(store, now, view=view, tally=page.tally, ends=page.day_end)
    except AssistantError as e:
        return Draft("dusk", "Dusk", None, str(e))
    full = dusk_text(result, None, zone)
    post = result.post.rstrip("\n")
    notes = full[len(post):].strip().removeprefix("---").strip()
    title = f"Dusk · Day {result.day}" if result.day is not None else "Dusk"
    actions: tuple[DraftAction, ...] = ()
    if result.final and not result.confirmed:
        actions = (DraftAction(
            "dusk-confirm", "Record the lynch", (("day", str(result.day or "")),),
            confirm="Record the lynch (and the deaths it sets off) as deaths?"),)
    ready = PostDraft("dusk", post.strip() + "\n", "day", result.day) \
        if result.final and result.confirmed else None
    not_yet = None if ready else (
        "Posted once the lynch is recorded." if result.final
        else f"Posted once Day {result.day} is over.")
    return Draft("dusk", title, post, notes=notes, actions=actions, post=ready,
                 post_not_yet=not_yet)


def _night_drafts(store: GameStore, view: GameView, now: datetime, zone: ZoneInfo,
                  night: str | None) -> list[Draft]:
    """The dawn and the result PMs of the last resolved night; before any night is
    resolved, when they will be."""
    rep = view.replay
    resolved = rep is not None and any(r.phase == "night" for r in rep.results)
    if not resolved and rep is not None and rep.won is not None:
        over = f"The game is over ({rep.won.text()}): no night follows."
        return [Draft("dawn", "Dawn", None, later=over),
                Draft("pms", "Result PMs", None, later=over)]
    if not resolved:
        later = _when_night_resolves(view, night, zone)
        return [Draft("dawn", "Dawn", None, later=f"The dawn post is drafted {later}"),
                Draft("pms", "Result PMs", None, later=f"The result PMs are drafted {later}")]
    out = []
    try:
        dawn = dawn_draft(store)
        ready = PostDraft("dawn", dawn["post"].strip() + "\n", "night", dawn["night"]) \
            if dawn["confirmed"] else None
        out.append(Draft("dawn", f"Dawn · after Night {dawn['night']}", dawn["post"],
                         post=ready, post_not_yet=None if ready else
                         f"Posted once Night {dawn['night']} is resolved."))
    except AssistantError as e:
        out.append(Draft("dawn", "Dawn", None, str(e)))
    try:
        pms = pm_drafts(store, now)
        text = "\n---\n".join(v.rstrip("\n") for v in pms.values()) or "no PMs to send"
        out.append(Draft("pms", "Result PMs", text))
    except AssistantError as e:
        out.append(Draft("pms", "Result PMs", None, str(e)))
    return out


def _when_night_resolves(view: GameView, night: str | None, zone: ZoneInfo) -> str:
    """ "once Night 1 is resolved: the night follows the end of Day 1 (Sun 22 Nov 11:23)"."""
    phase = view.phase
    at = view.deadline.at if view.deadline else None
    which = night or "the first night"
    if phase is None:
        return f"once {which} is resolved."
    if phase.kind == "day":
        ends = f" ({local_text(at, zone)})" if at else ""
        return f"once {which} is resolved: the night follows the end of " \
            f"{phase_label(phase)}{ends}."
    ends = f"; the night ends {local_text(at, zone)}" if at else ""
    return f"once {which} is resolved (Resolve in the Night tab, or `assistant resolve`)" \
        f"{ends}."


def _orders_status(store: GameStore, view: GameView) -> list[str]:
    """Who still owes an order tonight (a night with a setup entered), under every ruleset:
    the daemon only waits for them where the night ends when all are in (000). None once
    the game is over: nobody owes anything."""
    if view.phase is None or view.phase.kind != "night":
        return []
    if view.replay is not None and view.replay.won is not None or _resolved(view):
        return []
    status = view.orders or night_orders_status(view.ruleset, store.inputs(), view.phase)
    return [_need(n) for n in status.missing] if status else []


def _resolved(view: GameView) -> bool:
    """The running night is resolved (`resolve`): it owes no orders any more."""
    phase, rep = view.phase, view.replay
    return phase is not None and phase.kind == "night" and rep is not None and \
        rep.result("night", phase.number) is not None


def _need(need: str) -> str:
    """ "Conia", or "side:mafia" -> "the mafia side's order"."""
    return f"the {need[5:]} side's order" if need.startswith("side:") else need


def _orders(page: GamePage, store: GameStore, view: GameView, now: datetime) -> None:
    if not page.has_setup:
        return
    try:
        number = orders_night(store, now)
    except AssistantError as e:  # a setup the engine cannot read: `roles` says why
        page.orders_error = str(e)
        return
    page.orders_phase = f"Night {number}"
    try:
        _night, page.order_rows = orders_entered(store, now)
    except AssistantError as e:
        page.orders_error = str(e)
        return
    page.orders = [str(o["text"]) for o in page.order_rows]

