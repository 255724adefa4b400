"""What each dashboard page shows, gathered from the functions the command line uses.

Nothing here counts, checks or drafts on its own: the count is `count`'s `game_tally`, the
alerts are the store's alert log, the drafts are `draft tally / dusk / dawn / pms`. A part
that cannot be made (no posts yet, no night resolved) carries the command line's one-line
error instead, so one missing piece never hides the rest of the page.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from markupsafe import Markup

from assistant.alerts import AlertLog, StoredAlert
from assistant.checks.text import post_text
from assistant.count.tally import Tally, Vote
from assistant.count.votes import VoteRules
from assistant.engine.history import ORDER, ROLES
from assistant.errors import AssistantError
from assistant.game import Game, load_game, posts_of
from assistant.gm import (
    dawn_draft,
    dusk_text,
    game_tally,
    orders_night,
    over_line,
    pm_drafts,
    tally_bbcode,
    why_name,
)
from assistant.monitor import GameView, draft_dusk, load_view
from assistant.night_orders import night_orders_status
from assistant.phases import format_duration, game_zone, local_text, phase_label
from assistant.store import GameStore, list_games
from assistant.web.chart import render_svg, vote_history

RECENT_POSTS = 12
SOON = timedelta(hours=1)


@dataclass(frozen=True)
class Draft:
    key: str
    title: str
    text: str | None
    error: str | None = None
    notes: str | None = None
    """For the GM, not for the thread (what `draft dusk` prints under the post)."""


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
    when: str
    url: str | None


@dataclass
class GamePage:
    game_id: str
    title: str
    thread_url: str | None
    ruleset: str = ""
    zone: str = "UTC"
    phase: str | None = None
    deadline_iso: str | None = None
    deadline_local: str | None = None
    deadline_why: str | None = None
    error: str | None = None
    """Why the game cannot be shown at all (no players yet, a broken ruleset)."""
    tally: Tally | None = None
    tally_json: dict[str, Any] | None = None
    tally_at: datetime | None = None
    over: str | None = None
    """Once the day has ended: what it decided, as `count` says it."""
    count_error: str | None = None
    chart: Markup | None = None
    alerts: list[AlertRow] = field(default_factory=list)
    why: str | None = None
    why_votes: list[Vote] = field(default_factory=list)
    why_error: str | None = None
    drafts: list[Draft] = field(default_factory=list)
    players: list[PlayerRow] = field(default_factory=list)
    posts: list[PostRow] = field(default_factory=list)
    orders_phase: str | None = None
    orders_error: str | None = None
    orders: list[str] = field(default_factory=list)
    missing_orders: list[str] = field(default_factory=list)
    has_setup: bool = False
    pm_votes: bool = False
    post_links: dict[int, str] = field(default_factory=dict)


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
            out.append("orders missing: " + ", ".join(self.missing_orders))
        return out


def forum_link(url: str | None, thread_url: str | None) -> str | None:
    """A link to a post, only when it points at the game's own forum over http(s): a page
    never links anywhere a player's text chose."""
    if not url or not thread_url:
        return None
    to, forum = urlsplit(url), urlsplit(thread_url)
    if to.scheme not in ("http", "https") or (to.scheme, to.netloc) != (forum.scheme,
                                                                        forum.netloc):
        return None
    return url


def post_excerpt(body_html: str, most: int = 280) -> str:
    """A post's own words (quotes left out, as the checks read them), shortened: the page
    escapes them when it shows them."""
    text = " ".join(post_text(body_html or "", quotes=False).split())
    return text if len(text) <= most else text[: most - 1] + "…"


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
    config = store.config()
    title = config.get("title") or store.game_id
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
    return GameSummary(
        store.game_id,
        title,
        phase=phase_label(view.phase) if view.phase else None,
        deadline_local=local_text(at, zone) if at else None,
        deadline_iso=at.isoformat() if at else None,
        left=format_duration(timedelta(seconds=int(left.total_seconds()))) if left else None,
        violations=violations,
        open_alerts=len(open_alerts),
        missing_orders=tuple(_orders_status(store, view)),
        deadline_soon=left is not None and timedelta(0) < left <= SOON,
    )


def game_page(store: GameStore, now: datetime, *, why: str | None = None) -> GamePage:
    """Everything the game's page shows, as of `now`."""
    config = store.config()
    page = GamePage(store.game_id, config.get("title") or store.game_id,
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
    _count(page, store, view, now, why)
    page.alerts = [
        AlertRow(s, local_text(s.alert.occurred_at or s.first_seen, zone),
                 forum_link(s.alert.post_url, page.thread_url))
        for s in reversed(AlertLog(store).all(include_acked=True))
    ]
    page.alerts.sort(key=lambda r: r.stored.acked_at is not None)  # open ones first
    page.players = _players(store, game, page.tally, now)
    page.posts = [
        PostRow(p.post_id, p.author, local_text(p.posted_at, zone), post_excerpt(p.body_html),
                forum_link(p.url, page.thread_url), sp.edited)
        for sp in reversed(view.stored[-RECENT_POSTS:])
        if sp.vanished_at is None
        for p in (sp.latest,)
    ]
    page.drafts = _drafts(store, view, now, page)
    _orders(page, store, view, now)
    return page


def _count(page: GamePage, store: GameStore, view: GameView, now: datetime,
           why: str | None) -> None:
    try:
        game, ruleset, tally, at = game_tally(store, now)
    except AssistantError as e:
        page.count_error = str(e)
        return
    page.tally, page.tally_at = tally, at
    page.over = over_line(tally, game.tz)
    page.tally_json = tally.to_json()
    page.post_links = {v.post_id: link for v in tally.votes if v.post_id is not None
                       for link in (forum_link(v.url, page.thread_url),) if link}
    history = vote_history(posts_of(store), game, ruleset, tally, now=at,
                           deadline=tally.deadline)
    if history is not None:
        page.chart = render_svg(history, game_zone(game.tz), [w.target for w in tally.wagons])
    if why:
        page.why = why
        try:
            who = why_name(tally, game, why.strip(), ruleset)
        except AssistantError as e:
            page.why_error = str(e)
            return
        page.why = who
        page.why_votes = list(tally.votes if who == "*" else tally.votes_of(who or ""))


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
    if page.tally is not None:
        text = tally_bbcode(load_game(store), view.ruleset, page.tally, page.tally_at or now)
        out.append(Draft("tally", "Tally", text))
    elif page.count_error:
        out.append(Draft("tally", "Tally", None, page.count_error))
    if view.game.day() is not None:
        try:
            result = draft_dusk(store, now)
            full = dusk_text(result, None, game_zone(view.game.tz))
            post = result.post.rstrip("\n")
            notes = full[len(post):].strip().removeprefix("---").strip()
            out.append(Draft("dusk", "Dusk", post, notes=notes))
        except AssistantError as e:
            out.append(Draft("dusk", "Dusk", None, str(e)))
    if page.has_setup:
        try:
            out.append(Draft("dawn", "Dawn", dawn_draft(store)["post"]))
        except AssistantError as e:
            out.append(Draft("dawn", "Dawn", None, str(e)))
        try:
            pms = pm_drafts(store, now)
            text = "\n---\n".join(v.rstrip("\n") for v in pms.values()) or "no PMs to send"
            out.append(Draft("pms", "Result PMs", text))
        except AssistantError as e:
            out.append(Draft("pms", "Result PMs", None, str(e)))
    return out


def _orders_status(store: GameStore, view: GameView) -> list[str]:
    """Who still owes an order tonight (a night with a setup entered), under every ruleset:
    the daemon only waits for them where the night ends when all are in (000)."""
    if view.phase is None or view.phase.kind != "night":
        return []
    status = view.orders or night_orders_status(view.ruleset, store.inputs(), view.phase)
    return [_need(n) for n in status.missing] if status else []


def _need(need: str) -> str:
    """ "Conia", or "side:mafia" -> "the mafia side's order"."""
    return f"the {need[5:]} side's order" if need.startswith("side:") else need


def _orders(page: GamePage, store: GameStore, view: GameView, now: datetime) -> None:
    page.missing_orders = _orders_status(store, view)
    if not page.has_setup:
        return
    try:
        number = orders_night(store, now)
    except AssistantError as e:  # a setup the engine cannot read: `roles` says why
        page.orders_error = str(e)
        return
    page.orders_phase = f"Night {number}"
    page.orders = [
        str(d["data"].get("text") or d["data"].get("actor"))
        for d in store.inputs(ORDER)
        if d["data"].get("phase") == "night" and d["data"].get("number") == number
    ]
