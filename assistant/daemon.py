"""The daemon: polls every configured game, keeps its clock, raises alerts, drafts posts.

One `tick(game)` is the whole cycle: poll the thread, look at the game as of now
(`monitor.load_view`), store the new alerts and rewrite the Atom feed, then handle every
clock event that is due and not yet handled: interval tallies (002: every 5 minutes),
deadline warnings, and at the deadline the final count, locked and drafted with its
outcome, then (once the game has a setup, `assistant roles`) the dusk post: the lynch,
its reveal and a win, from `engine.dusk.draft_dusk`. Events are keyed by phase and
kind and marked handled in the store's "daemon" table, so a restart neither repeats nor
loses one: a deadline missed while the daemon was down is handled once when it starts
again (interval tallies missed then are not drafted late, except the latest).

APScheduler (3.x) only decides *when* to tick: one interval job per game (with jitter)
and one date job at the game's next clock event. Everything else takes the injected
clock, so tests call `tick` with a fake clock and never sleep.

`run` (`run_forever`) is one asyncio event loop: every game's poll is a task waiting on
its forum through an `AsyncFetcher` (one connection pool and one semaphore per forum, so
a forum hosting many games is asked a few pages at a time), and the review (counting,
checks, drafts: CPU work) runs on a small pool of worker threads. A poll that found
nothing, with no clock event due and the game file untouched since its last review, is
not reviewed again (a review at least every `review_every` seconds all the same). Polls
with nothing new log at DEBUG; a one-line summary comes every `summary_every` seconds.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import math
import os
import queue
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlsplit

from assistant.alerts import AlertLog, StoredAlert, feed_path, write_feed
from assistant.clock import Clock
from assistant.count.outcome import TallyRules
from assistant.count.tally import count
from assistant.count.tally_draft import render_tally
from assistant.engine.history import ROLES
from assistant.errors import AssistantError, ConfigError, LoginError
from assistant.models import Post, from_iso, to_iso
from assistant.monitor import GameView, day_tally, draft_dusk, load_view, run_checks
from assistant.phases import (
    format_duration,
    game_zone,
    local_text,
    phase_label,
    tally_times,
    warning_times,
)
from assistant.poller import Poller, PollResult, PollSettings, forum_zone_name
from assistant.safe_text import for_terminal
from assistant.scrapers import thread_url_info
from assistant.scrapers.http import AsyncFetcher, Fetcher, FetchSettings, ssl_context
from assistant.scrapers.login import login
from assistant.store import GameStore, collect_as_usual, list_games, write_errnos, write_error

log = logging.getLogger("assistant.daemon")
MARKERS = "daemon"


class ClockFormatter(logging.Formatter):
    """One line per event, stamped with the assistant's clock rather than the wall clock,
    so a replay or the demo (`ASSISTANT_NOW`) logs the moments it acts at."""

    def __init__(self, clock: Clock) -> None:
        super().__init__("%(asctime)s %(levelname)s %(message)s")
        self.clock = clock

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802
        return f"{self.clock.now():%Y-%m-%d %H:%M:%S} UTC"

    def format(self, record: logging.LogRecord) -> str:
        """The line as a terminal shows it: a player's name cannot send it escape codes or
        reverse it (safe_text.for_terminal)."""
        return for_terminal(super().format(record))


def setup_logging(clock: Clock, stream: TextIO, *, verbose: bool = False) -> logging.Handler:
    """Send the assistant's log to `stream`, stamped by `clock`; a second call replaces the
    first handler instead of doubling every line. `verbose`: DEBUG too (every poll)."""
    logger = logging.getLogger("assistant")
    for old in [h for h in logger.handlers if getattr(h, "assistant_clock_log", False)]:
        logger.removeHandler(old)
    handler = logging.StreamHandler(stream)
    handler.setFormatter(ClockFormatter(clock))
    handler.assistant_clock_log = True  # type: ignore[attr-defined]
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG if verbose else logging.INFO)
    logging.getLogger("apscheduler").setLevel(logging.WARNING)  # one line per event: ours
    logging.getLogger("httpx").setLevel(logging.WARNING)  # our poll line says what was fetched
    return handler


@dataclass(frozen=True)
class DaemonSettings:
    poll_interval: float = 300.0
    """Seconds between polls of a game (a game's config key `poll_interval` overrides)."""
    jitter: float = 30.0
    """Up to this many seconds added at random to each poll, so polls do not align."""
    per_forum: int = 4
    """Requests in flight to one forum (scheme, host and port) at most, whatever the
    number of games on it: a forum hosting 200 games is not asked 200 pages at once."""
    review_every: float = 600.0
    """A game whose polls find nothing is still reviewed this often (seconds): a check
    that depends on the time alone. Clock events are reviewed when due, whatever this."""
    summary_every: float = 600.0
    """Seconds between two one-line summaries of the polls in the log."""

    def __post_init__(self) -> None:
        # An interval of 0 or less polls without pause (100 % CPU, a hammered forum).
        if not (math.isfinite(self.poll_interval) and self.poll_interval > 0):
            raise ConfigError(f"poll interval {self.poll_interval!r}: give more than 0 seconds")
        if not (math.isfinite(self.jitter) and self.jitter >= 0):
            raise ConfigError(f"jitter {self.jitter!r}: give 0 seconds or more")
        for name in ("review_every", "summary_every"):
            value = getattr(self, name)
            if not (math.isfinite(value) and value > 0):
                raise ConfigError(f"{name.replace('_', ' ')} {value!r}: give more than 0 seconds")
        if self.per_forum < 1:
            raise ConfigError(f"requests per forum {self.per_forum!r}: give 1 or more")


@dataclass(frozen=True)
class ClockEvent:
    """Something due at a moment of a phase."""

    key: str
    """Stable: "day2:tally:2026-11-22T11:07:07+00:00", "day2:warn:3600", "day2:deadline",
    "day2:dusk"."""
    kind: str
    """"tally", "warning", "deadline" or "dusk" (a day's, right after its deadline)."""
    at: datetime
    before: timedelta | None = None
    """For a warning: how long before the deadline."""


def clock_events(view: GameView) -> list[ClockEvent]:
    """Every clock event of the running phase, in time order (due or not)."""
    phase, dl = view.phase, view.deadline
    if phase is None or dl is None or dl.at is None:
        return []
    tag = f"{phase.kind}{phase.number}"
    events = [
        ClockEvent(f"{tag}:tally:{to_iso(t)}", "tally", t)
        for t in tally_times(phase, dl.at, view.phase_rules)
    ]
    events += [
        ClockEvent(f"{tag}:warn:{int(w.total_seconds())}", "warning", t, w)
        for w, t in warning_times(dl.at, phase.starts_at, view.phase_rules)
    ]
    events.append(ClockEvent(f"{tag}:deadline", "deadline", dl.at))
    if phase.kind == "day":
        events.append(ClockEvent(f"{tag}:dusk", "dusk", dl.at))
    rank = {"deadline": 0, "dusk": 1}
    return sorted(events, key=lambda e: (e.at, rank.get(e.kind, 2)))


@dataclass(frozen=True)
class HandledEvent:
    """A clock event the daemon handled in a cycle, as stored in the "daemon" table."""

    key: str
    kind: str
    at: datetime
    status: str
    """"drafted", "skipped", "locked" (a day's final count), "revised" (that count changed
    after the lock) or "ended" (a night's end)."""
    file: Path | None = None

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "kind": self.kind, "at": to_iso(self.at),
                "status": self.status, "file": str(self.file) if self.file else None}


@dataclass(frozen=True)
class CycleReport:
    """What one cycle did for one game: for `run --once --json` and the tests."""

    game_id: str
    poll: PollResult | None
    """None when the poll failed (`poll_error` says why) or was not run."""
    poll_error: str | None
    new_alerts: tuple[StoredAlert, ...]
    handled: tuple[HandledEvent, ...]
    next_event: datetime | None
    error: str | None = None
    """Why the game could not be reviewed (no players yet, a broken ruleset...): nothing
    was counted, alerted or drafted for it this cycle; the other games still were."""

    @property
    def failed(self) -> bool:
        """The game could not be handled: its review did not run (a failed poll alone is
        not a failure: what is stored is still reviewed)."""
        return self.error is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game_id,
            "ok": self.error is None and self.poll_error is None,
            "error": self.error,
            "poll": None if self.poll is None else self.poll.to_dict(),
            "poll_error": self.poll_error,
            "new_alerts": [a.to_json() for a in self.new_alerts],
            "events": [e.to_json() for e in self.handled],
            "next_event": to_iso(self.next_event),
        }

    def summary(self) -> str:
        """One line for `run --once`: what the cycle did for the game, or why it could not."""
        parts = []
        if self.poll is not None:
            parts.append(
                f"{len(self.poll.new)} new, {len(self.poll.changed)} changed, "
                f"{len(self.poll.vanished)} vanished post(s)"
            )
        else:
            parts.append(f"poll failed: {self.poll_error}")
        if self.error is not None:
            parts.append(f"not reviewed: {self.error}")
        else:
            parts.append(f"{len(self.new_alerts)} new alert(s)")
            parts += [f"{e.kind} {e.status}" + (f" -> {e.file}" if e.file else "")
                      for e in self.handled]
        return f"{self.game_id}: " + "; ".join(parts)


@dataclass(frozen=True)
class Review:
    new_alerts: tuple[StoredAlert, ...]
    handled: tuple[HandledEvent, ...]
    next_event: datetime | None


class Daemon:
    """Runs the cycle for every game in `data_dir` that has a thread URL."""

    def __init__(
        self,
        data_dir: Path,
        clock: Clock,
        fetcher_factory: Callable[[], Fetcher],
        settings: DaemonSettings | None = None,
        fetch_settings: FetchSettings | None = None,
    ) -> None:
        self.data_dir = Path(data_dir)
        self.clock = clock
        self.fetcher_factory = fetcher_factory
        self.settings = settings or DaemonSettings()
        self._fetchers: dict[str, Fetcher] = {}
        self._logged_in: set[str] = set()
        self._scheduled: set[str] = set()
        self._stopping = False
        self.fetch_settings = fetch_settings or FetchSettings()
        self._forums: dict[str, _Forum] = {}
        self._afetchers: dict[str, AsyncFetcher] = {}
        self._configs: dict[str, tuple[Any, dict[str, Any] | None]] = {}
        self._reviewed: dict[str, tuple[Any, datetime]] = {}
        """Per game: the game file's signature before its last review, and when."""
        self._next_events: dict[str, datetime | None] = {}
        self._game_locks: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._reviewing: set[asyncio.Task[Any]] = set()
        self._workers: _Workers | None = None
        self.stats = PollStats()

    def games(self) -> list[str]:
        """The games to watch: those with a thread URL, not paused. A game whose store cannot
        be read is kept in the list, so its cycle reports why instead of it going silent."""
        out = []
        for game_id in list_games(self.data_dir):
            config = self._config(game_id)
            if config is None or (config.get("thread_url") and not config.get("paused")):
                out.append(game_id)
        return out

    def _config(self, game_id: str) -> dict[str, Any] | None:
        """A game's config (None: its file cannot be read), read again only when the file
        changed: the daemon looks at every game each minute, and 200 games' files read
        and parsed each time cost more than their idle polls."""
        signature = _signature(GameStore.game_path(self.data_dir, game_id))
        known = self._configs.get(game_id)
        if known is not None and signature is not None and known[0] == signature:
            return known[1]
        try:
            with GameStore.open(self.data_dir, game_id, create=False) as store:
                config: dict[str, Any] | None = store.config()
        except AssistantError as e:
            log.warning("game %s cannot be read: %s", game_id, e)
            config = None
        self._configs[game_id] = (signature, config)
        return config

    def drafts_dir(self, game_id: str) -> Path:
        return self.data_dir / "drafts" / game_id

    # ---- the cycle ----------------------------------------------------------------------

    def tick(self, game_id: str) -> datetime | None:
        """Poll, review, handle due events; returns the next clock event's time (or None)."""
        return self.cycle(game_id).next_event

    def cycle(self, game_id: str) -> CycleReport:
        """One whole cycle for a game. A failing poll is logged and the review still runs
        on what is stored; a review that cannot run (no players yet, a broken ruleset) is
        logged and reported, so one game's problem never stops the others."""
        result, poll_error = None, None
        try:
            result = self.poll(game_id)
        except AssistantError as e:
            poll_error = str(e)
            log.warning("poll %s failed: %s", game_id, e)
        report = self._reviewed_report(game_id, result, poll_error)
        self.stats.add(report)
        return report

    def _reviewed_report(
        self, game_id: str, result: PollResult | None, poll_error: str | None
    ) -> CycleReport:
        """The review after a poll (or a failed one), as a report; a review that cannot run
        is logged and reported."""
        try:
            review = self.review_report(game_id)
        except (AssistantError, OSError) as e:
            if isinstance(e, OSError):  # a draft or the feed could not be written
                if e.errno not in write_errnos():
                    raise
                e = write_error(Path(e.filename or self.data_dir), e, game_file=False)
            log.error("review %s failed: %s", game_id, e)
            return CycleReport(game_id, result, poll_error, (), (), None, error=str(e))
        return CycleReport(
            game_id, result, poll_error, review.new_alerts, review.handled, review.next_event
        )

    def run_once(self) -> list[CycleReport]:
        """One cycle for every game (`run --once`), each whatever happened to the others."""
        return [self.cycle(game_id) for game_id in self.games()]

    def cancel(self) -> None:
        """Stop: every request in flight ends at once, and no new one starts."""
        self._stopping = True
        for fetcher in list(self._fetchers.values()):
            fetcher.cancel()

    def _fetcher(self, game_id: str) -> Fetcher:
        """Each game its own fetcher (its own pace, cookies and login)."""
        fetcher = self._fetchers.get(game_id) or self._fetchers.setdefault(
            game_id, self.fetcher_factory()
        )
        if self._stopping:
            fetcher.cancel()
        return fetcher

    def _login(self, game_id: str, fetcher: Fetcher, config: dict[str, Any]) -> None:
        """Log in once per fetcher for a game on a members-only board (`fetch --login`):
        the member's name is kept with the game, the password only in the environment
        variable it names."""
        account = config.get("login")
        if not account or game_id in self._logged_in:
            return
        user, variable = account.get("user"), account.get("password_env")
        password = os.environ.get(variable or "")
        if not password:
            raise ConfigError(
                f"game {game_id!r} logs in as {user!r} with the password in the environment "
                f"variable {variable}, which is not set for the daemon: set it where the daemon "
                "starts (e.g. in its service file) and restart it"
            )
        login(fetcher, thread_url_info(config["thread_url"]), user, password)
        self._logged_in.add(game_id)

    def _session_lapsed(self, game_id: str) -> bool:
        """A page showed the login form although this game had logged in: the forum ended
        the session (expired, or the member logged out elsewhere). Forget the login, so
        the caller logs in again at once and polls once more, instead of failing this poll
        with "log in" advice the game already follows."""
        if game_id not in self._logged_in:
            return False
        self._logged_in.discard(game_id)
        log.info("session of %s ended on the forum: logging in again", game_id)
        return True

    def poll(self, game_id: str) -> PollResult:
        fetcher = self._fetcher(game_id)
        with GameStore.open(self.data_dir, game_id, create=False) as store:
            config = store.config()
            self._login(game_id, fetcher, config)
            try:
                try:
                    result = self._poller(store, fetcher, config).poll(
                        recheck_since=_day_start(store))
                except LoginError:
                    if not self._session_lapsed(game_id):
                        raise
                    self._login(game_id, fetcher, config)
                    result = self._poller(store, fetcher, config).poll(
                        recheck_since=_day_start(store))
            except AssistantError:
                self._logged_in.discard(game_id)  # log in again next time
                raise
        _log_poll(game_id, result)
        return result

    def _poller(self, store: GameStore, fetcher: Any, config: dict[str, Any]) -> Poller:
        settings = PollSettings(
            progress=False,
            **{k: config[k] for k in ("recheck_every_polls",) if config.get(k) is not None},
        )
        return Poller(store, fetcher, self.clock, game_zone(forum_zone_name(config)), settings,
                      thread_url=config.get("thread_url"))

    # ---- the cycle in the event loop (`run`) ----------------------------------------------

    async def acycle(self, game_id: str) -> CycleReport:
        """`cycle` for the event loop: the poll awaits its forum, the review runs on a
        worker thread, and is left out when nothing can have changed (`_review_can_wait`).
        One cycle of a game at a time."""
        lock = self._game_locks.setdefault(game_id, asyncio.Lock())
        async with lock:
            result, poll_error = None, None
            try:
                result = await self.apoll(game_id)
            except AssistantError as e:
                poll_error = str(e)
                log.warning("poll %s failed: %s", game_id, e)
            if self._review_can_wait(game_id, result):
                report = CycleReport(game_id, result, poll_error, (), (),
                                     self._next_events.get(game_id))
            else:
                signature = _signature(GameStore.game_path(self.data_dir, game_id))
                reviewed_at = self.clock.now()
                task = asyncio.current_task()
                assert task is not None
                self._reviewing.add(task)
                try:
                    report = await asyncio.get_running_loop().run_in_executor(
                        self._workers, self._reviewed_report, game_id, result, poll_error)
                finally:
                    self._reviewing.discard(task)
                if not report.failed:
                    self._reviewed[game_id] = (signature, reviewed_at)
                self._next_events[game_id] = report.next_event
            self.stats.add(report)
            return report

    def _review_can_wait(self, game_id: str, result: PollResult | None) -> bool:
        """Nothing to review: the poll found nothing new (or failed), the game file is as
        it was at the last review (no GM command since), no clock event is due, and the
        last review is less than `review_every` old."""
        if result is not None and (result.new or result.changed or result.vanished
                                   or result.reappeared):
            return False
        last = self._reviewed.get(game_id)
        if last is None:
            return False
        signature, at = last
        path = GameStore.game_path(self.data_dir, game_id)
        if signature is None or _signature(path) != signature:
            return False
        now = self.clock.now()
        upcoming = self._next_events.get(game_id)
        if upcoming is not None and upcoming <= now:
            return False
        return (now - at).total_seconds() < self.settings.review_every

    async def apoll(self, game_id: str) -> PollResult:
        """`poll` through the game's `AsyncFetcher`. Reading the game file, parsing pages
        and writing run on the worker threads: the event loop only waits on forums (and a
        game file whose lock a stuck command holds holds up one worker, not every game)."""
        loop = asyncio.get_running_loop()

        def run(fn: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
            return loop.run_in_executor(self._workers, fn, *args)

        store = await run(_open_store, self.data_dir, game_id)
        try:
            config = store.config()
            fetcher = self._afetcher(game_id, config.get("thread_url") or "")
            await self._alogin(game_id, fetcher, config)
            poller = await run(self._poller, store, fetcher, config)
            since = _day_start(store)
            try:
                try:
                    result = await poller.apoll(recheck_since=since, run=run)
                except LoginError:
                    if not self._session_lapsed(game_id):
                        raise
                    await self._alogin(game_id, fetcher, config)
                    poller = await run(self._poller, store, fetcher, config)
                    result = await poller.apoll(recheck_since=since, run=run)
            except AssistantError:
                self._logged_in.discard(game_id)
                raise
        finally:
            store.close()
        _log_poll(game_id, result)
        return result

    def _afetcher(self, game_id: str, url: str) -> AsyncFetcher:
        """The game's async fetcher (its own cookies and pace) on its forum's connection
        pool and semaphore."""
        import httpx

        parts = urlsplit(url)
        key = f"{parts.scheme}://{parts.netloc}".lower()
        forum = self._forums.get(key)
        if forum is None:
            forum = self._forums[key] = _Forum(
                httpx.AsyncHTTPTransport(verify=ssl_context()),
                asyncio.Semaphore(self.settings.per_forum))
        fetcher = self._afetchers.get(game_id)
        if fetcher is None or fetcher.limit is not forum.limit:
            fetcher = self._afetchers[game_id] = AsyncFetcher(
                httpx.AsyncClient(transport=forum.transport), self.fetch_settings,
                limit=forum.limit, clock=self.clock)
        return fetcher

    async def _alogin(self, game_id: str, fetcher: AsyncFetcher, config: dict[str, Any]) -> None:
        """As `_login`: the login form is sent by the game's plain fetcher (on a thread),
        and its session cookies handed to the async client."""
        if not config.get("login") or game_id in self._logged_in:
            return
        plain = self._fetcher(game_id)
        await asyncio.to_thread(self._login, game_id, plain, config)
        fetcher.client.cookies.update(plain.client.cookies)

    def review(self, game_id: str) -> datetime | None:
        return self.review_report(game_id).next_event

    def review_report(self, game_id: str) -> Review:
        """Store new alerts, rewrite the feed, handle every due clock event not handled yet."""
        now = self.clock.now()
        with GameStore.open(self.data_dir, game_id, create=False) as store:
            view = load_view(store, now)
            alerts = AlertLog(store)
            fresh = alerts.record(run_checks(view, store), now)
            for s in fresh:
                a = s.alert
                log.info(
                    "alert %s %s: %s %s post %s (%s)",
                    game_id,
                    s.id,
                    a.severity,
                    a.kind,
                    a.post_id,
                    a.player,
                )
            config = store.config()
            write_feed(
                alerts.all(),
                feed_path(store),
                game_id=game_id,
                title=config.get("title") or game_id,
                link=config.get("thread_url"),
                now=now,
                zone=game_zone(view.game.tz),
            )
            events = clock_events(view)
            due = [e for e in events if e.at <= now]
            done = {d["key"] for d in store.table(MARKERS).all()}
            handled = []
            for event in due:
                if event.key in done:
                    continue
                status, path = self._handle(store, view, event, due)
                if status is None:  # not for now (a dusk before the setup): not marked
                    continue
                store.table(MARKERS).insert(
                    {
                        "key": event.key,
                        "kind": event.kind,
                        "at": to_iso(event.at),
                        "handled_at": to_iso(now),
                        "status": status,
                        "file": str(path) if path else None,
                    }
                )
                handled.append(HandledEvent(event.key, event.kind, event.at, status, path))
            revised = self._revise_final(store, view)
            if revised is not None:
                handled.append(revised)
            upcoming = [e.at for e in events if e.at > now]
        return Review(tuple(fresh), tuple(handled), min(upcoming) if upcoming else None)

    # ---- events -----------------------------------------------------------------------

    def _handle(
        self, store: GameStore, view: GameView, event: ClockEvent, due: list[ClockEvent]
    ) -> tuple[str | None, Path | None]:
        """Handle one due event: its status and draft file; status None leaves it unmarked,
        to be handled by a later cycle."""
        game_id, phase, now = store.game_id, view.phase, view.now
        assert phase is not None and view.deadline is not None
        label = phase_label(phase)
        if event.kind == "dusk":
            return self._dusk(store, view, event)
        if event.kind == "tally":
            later = [e for e in due if e.kind in ("tally", "deadline") and e.at > event.at]
            if later:
                log.info(
                    "tally %s %s at %s: skipped (a later count is due)",
                    game_id,
                    label,
                    local_text(event.at, game_zone(view.game.tz)),
                )
                return "skipped", None
            thread = view.thread
            tally = count(
                thread.posts, view.game, view.ruleset, at=event.at, now=event.at,
                edits=thread.edits,
            )  # fmt: skip
            text = render_tally(
                tally,
                TallyRules.from_ruleset(view.ruleset),
                tz=view.game.tz,
                now=event.at,
                post_urls=_urls(view.posts),
            )
            path = self._write(
                game_id, f"{phase.kind}{phase.number}-tally-{event.at:%Y%m%dT%H%M%S}.txt", text
            )
            log.info("tally %s %s as of %s -> %s", game_id, label,
                     local_text(event.at, game_zone(view.game.tz)), path)
            return "drafted", path
        if event.kind == "warning":
            if view.deadline.at is not None and now >= view.deadline.at:
                return "skipped", None
            zone = game_zone(view.game.tz)
            text = (
                f"{label} ends in {format_duration(event.before or timedelta(0))}: at "
                f"{local_text(view.deadline.at, zone)} ({view.deadline.why}).\n"
            )  # type: ignore[arg-type]
            path = self._write(
                game_id,
                f"{phase.kind}{phase.number}-warning-{int(event.before.total_seconds())}s.txt",
                text,
            )  # type: ignore[union-attr]
            log.info(
                "warning %s %s ends in %s -> %s",
                game_id,
                label,
                format_duration(event.before or timedelta(0)),
                path,
            )
            return "drafted", path
        if phase.kind == "night":
            return self._night_ends(store, view, event)
        # The deadline: the count as of the effective deadline, locked in the store: the
        # same count `count` and `draft tally` show of this day, whenever they are run.
        tally = day_tally(view, store.inputs())
        text = render_tally(
            tally,
            TallyRules.from_ruleset(view.ruleset),
            tz=view.game.tz,
            now=event.at,
            post_urls=_urls(view.posts),
        )
        path = self._write(game_id, f"{phase.kind}{phase.number}-final.txt", text)
        store.table("final_counts").insert(
            {
                "phase": label,
                "deadline": to_iso(event.at),
                "locked_at": to_iso(now),
                "tally": tally.to_json(),
            }
        )
        lynched = ", ".join(tally.outcome.lynched) or "no lynch"
        log.info(
            "deadline %s %s at %s: final count locked, %s -> %s",
            game_id,
            label,
            local_text(event.at, game_zone(view.game.tz)),
            lynched,
            path,
        )
        return "locked", path

    def _revise_final(self, store: GameStore, view: GameView) -> HandledEvent | None:
        """The running day's count once its final count was locked: when it differs (a
        post made before the deadline that the forum showed only later, as a moderation
        queue or a slow mirror does; a GM's input since), a revised final count is locked
        and drafted beside the first and the log says what changed, so the lock, `count`
        and `draft tally` agree again. A night begun ends the revisions of its day."""
        phase = view.phase
        if phase is None or phase.kind != "day":
            return None
        label = phase_label(phase)
        locked = [r for r in store.table("final_counts").all() if r["phase"] == label]
        if not locked:
            return None
        tally = day_tally(view, store.inputs())
        if _votes_of(tally.to_json()) == _votes_of(locked[-1]["tally"]):
            return None
        game_id = store.game_id
        deadline = from_iso(locked[-1]["deadline"])
        text = render_tally(
            tally,
            TallyRules.from_ruleset(view.ruleset),
            tz=view.game.tz,
            now=deadline,
            post_urls=_urls(view.posts),
        )
        revision = len(locked) + 1
        path = self._write(game_id, f"{phase.kind}{phase.number}-final-{revision}.txt", text)
        store.table("final_counts").insert(
            {
                "phase": label,
                "deadline": locked[-1]["deadline"],
                "locked_at": to_iso(view.now),
                "revises": locked[-1]["locked_at"],
                "tally": tally.to_json(),
            }
        )
        was = ", ".join(locked[-1]["tally"].get("outcome", {}).get("lynched", [])) or "no lynch"
        now_lynched = ", ".join(tally.outcome.lynched) or "no lynch"
        log.warning(
            "final count of %s %s changed since it was locked at %s (a post made before the "
            "deadline seen only now, or a GM input): %s -> %s; revised -> %s",
            game_id,
            label,
            local_text(from_iso(locked[-1]["locked_at"]), game_zone(view.game.tz)),
            was,
            now_lynched,
            path,
        )
        return HandledEvent(f"{label}-final-{revision}", "deadline", deadline, "revised", path)

    def _dusk(
        self, store: GameStore, view: GameView, event: ClockEvent
    ) -> tuple[str | None, Path | None]:
        """The day's dusk post, once the game has a setup; without one, nothing (the GM's
        `draft dusk` still shows the lynch) and the event waits for a setup."""
        game_id, phase = store.game_id, view.phase
        assert phase is not None
        if not store.inputs(ROLES):
            return None, None
        try:
            result = draft_dusk(store, max(view.now, event.at), day=phase.number)
        except AssistantError as e:
            log.warning("dusk %s %s: not drafted: %s", game_id, phase_label(phase), e)
            return None, None
        path = self._write(game_id, f"day{phase.number}-dusk.txt", result.post)
        won = f", {result.win.title} win" if result.win else ""
        log.info(
            "dusk %s %s: %s (%s)%s -> %s",
            game_id,
            phase_label(phase),
            ", ".join(result.lynched) or "no lynch",
            result.tally.outcome.reason,
            won,
            path,
        )
        for note in result.notes:
            log.info("dusk %s note: %s", game_id, note)
        return "drafted", path

    def _night_ends(
        self, store: GameStore, view: GameView, event: ClockEvent
    ) -> tuple[str, Path | None]:
        """A night's end: nothing to count; the GM resolves the orders. Say so, once."""
        game_id, phase = store.game_id, view.phase
        assert phase is not None and view.deadline is not None
        zone = game_zone(view.game.tz)
        why = view.deadline.why
        n = phase.number
        text = (
            f"{phase_label(phase)} ended {local_text(event.at, zone)} ({why}).\n"
            f"Resolve it: `assistant resolve {game_id} --night {n} --dry-run`, then "
            f"`assistant resolve {game_id} --night {n}` and `assistant draft dawn {game_id}`.\n"
        )
        path = self._write(game_id, f"night{n}-end.txt", text)
        log.info("night end %s %s at %s: %s -> %s", game_id, phase_label(phase),
                 local_text(event.at, zone), why, path)
        return "ended", path

    def _write(self, game_id: str, name: str, text: str) -> Path:
        folder = self.drafts_dir(game_id)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / name
        tmp = folder / f".{name}.tmp"
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
        return path

    # ---- scheduling ---------------------------------------------------------------------

    def schedule(self, scheduler: Any) -> None:
        """One poll job per game (interval with jitter), the first polls spread over one
        interval; each cycle books a date job at the game's next clock event. The data
        dir is looked at again every `rescan_every` seconds, so a game created while the
        daemon runs is watched at once; a summary line every `summary_every` seconds."""
        self.watch_new_games(scheduler, starting=True)
        scheduler.add_job(
            self.watch_new_games, "interval", seconds=self.rescan_every, args=[scheduler],
            id="rescan", replace_existing=True, max_instances=1, coalesce=True,
        )
        scheduler.add_job(
            self.log_summary, "interval", seconds=self.settings.summary_every, id="summary",
            replace_existing=True, max_instances=1, coalesce=True,
        )

    @property
    def rescan_every(self) -> float:
        """Seconds between two looks for new games: a minute, or the poll interval if less."""
        return min(60.0, self.settings.poll_interval)

    def watch_new_games(self, scheduler: Any, starting: bool = False) -> list[str]:
        """Add a poll job for every game not watched yet; returns the games added. Their
        first polls are spread evenly over one interval (200 games at once would ask
        the forum for 200 pages at the same moment, and again at every interval)."""
        from apscheduler.triggers.interval import IntervalTrigger

        added = [g for g in self.games() if g not in self._scheduled]
        now = datetime.now().astimezone()
        for i, game_id in enumerate(added):
            config = self._config(game_id) or {}
            interval = self._interval(game_id, config.get("poll_interval"))
            first = now + timedelta(seconds=interval * i / len(added))
            scheduler.add_job(
                self._run_job,
                IntervalTrigger(seconds=interval, jitter=self.settings.jitter),
                args=[scheduler, game_id],
                id=f"poll:{game_id}",
                replace_existing=True,
                max_instances=1,
                coalesce=True,
                misfire_grace_time=max(1, int(interval)),  # late, still run: never skipped
                next_run_time=first,
            )
            self._scheduled.add(game_id)
            (log.debug if starting else log.info)(
                "watching %s: a poll every %s (jitter up to %s s)", game_id,
                format_duration(timedelta(seconds=interval)), int(self.settings.jitter))
        if starting:
            log.info("watching %d game(s): a poll every %s (jitter up to %s s), at most %d "
                     "request(s) at a time to one forum", len(added),
                     format_duration(timedelta(seconds=self.settings.poll_interval)),
                     int(self.settings.jitter), self.settings.per_forum)
        return added

    def _interval(self, game_id: str, value: Any) -> float:
        """A game's own `poll_interval`, when it is a usable number of seconds."""
        if value is None:
            return self.settings.poll_interval
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            seconds = math.nan
        if not (math.isfinite(seconds) and seconds > 0):
            log.warning("game %s: its poll_interval %r is not a number of seconds above 0; "
                        "polling every %s s instead", game_id, value,
                        f"{self.settings.poll_interval:g}")
            return self.settings.poll_interval
        return seconds

    async def _run_job(self, scheduler: Any, game_id: str) -> None:
        """One cycle as a task of the event loop; books the game's next clock event."""
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            report = await self.acycle(game_id)
        except asyncio.CancelledError:
            return  # the daemon is stopping: the poll in flight is abandoned, nothing torn
        except AssistantError as e:
            log.error("%s: %s", game_id, e)
            return
        finally:
            self._tasks.discard(task)
        if report.next_event is not None and not self._stopping:
            delay = report.next_event - self.clock.now()
            scheduler.add_job(
                self._run_job,
                "date",
                run_date=datetime.now().astimezone() + delay,
                args=[scheduler, game_id],
                id=f"event:{game_id}",
                replace_existing=True,
                misfire_grace_time=None,
            )

    def log_summary(self) -> PollStats:
        """The one INFO line about polls since the last one (those with something new, the
        alerts and the failures have their own lines too); returns what it summed up."""
        stats, self.stats = self.stats, PollStats()
        log.info("summary: %s", stats.line())
        return stats

    # ---- running and stopping -----------------------------------------------------------

    async def serve(self, stop: asyncio.Event) -> None:
        """Poll every game until `stop` is set, then stop within `STOP_GRACE` seconds:
        the polls in flight are cancelled (whole pages read are kept, nothing is torn:
        every write is one atomic replace), a review in progress may finish meanwhile."""
        from apscheduler.schedulers.asyncio import AsyncIOScheduler

        collect_as_usual()  # a process that runs for days: no garbage waits (store.paused_gc)
        self._workers = _Workers(REVIEW_THREADS)
        scheduler = AsyncIOScheduler(event_loop=asyncio.get_running_loop())
        logging.getLogger("apscheduler.scheduler").addFilter(_BusyJobs(self.stats_busy))
        try:
            self.schedule(scheduler)
            scheduler.start()
            log.info("started: %d game(s)", len(self._scheduled))
            await stop.wait()
        finally:
            if scheduler.running:
                scheduler.shutdown(wait=False)
            unfinished = await self._stop_tasks()
            for forum in self._forums.values():
                await forum.transport.aclose()
        if unfinished:
            log.info("stopped (%d review(s) left unfinished; nothing is torn)", unfinished)
            _exit(0)

    def stats_busy(self) -> None:
        self.stats.busy += 1

    async def _stop_tasks(self) -> int:
        """Cancel the polls in flight, give the reviews running `STOP_GRACE`; returns how
        many are still running."""
        self.cancel()
        for task in list(self._tasks):
            if task not in self._reviewing:
                task.cancel()
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=STOP_GRACE)
        return sum(not t.done() for t in self._tasks)


@dataclass
class PollStats:
    """What the polls did since the last summary line."""

    games: set[str] = field(default_factory=set)
    polls: int = 0
    new: int = 0
    changed: int = 0
    alerts: int = 0
    failed_polls: int = 0
    failed_reviews: int = 0
    busy: int = 0
    """Polls not started because the game's previous one was still running."""

    def add(self, report: CycleReport) -> None:
        self.games.add(report.game_id)
        self.polls += 1
        if report.poll is not None:
            self.new += len(report.poll.new)
            self.changed += len(report.poll.changed)
        self.alerts += len(report.new_alerts)
        self.failed_polls += report.poll_error is not None
        self.failed_reviews += report.failed

    def line(self) -> str:
        busy = f", {self.busy} not started (the previous still running)" if self.busy else ""
        return (f"{self.polls} poll(s) of {len(self.games)} game(s){busy}: {self.new} new "
                f"post(s), {self.changed} changed, {self.alerts} alert(s), "
                f"{self.failed_polls} failed poll(s), {self.failed_reviews} failed review(s)")


@dataclass
class _Forum:
    """One forum's connection pool and the semaphore its games' requests share."""

    transport: Any
    limit: asyncio.Semaphore


class _BusyJobs(logging.Filter):
    """APScheduler warns at every interval a game's previous poll is still running (a
    slow forum, 60 s deadline): counted in the summary line instead of a line each."""

    def __init__(self, count: Callable[[], None]) -> None:
        super().__init__()
        self.count = count

    def filter(self, record: logging.LogRecord) -> bool:
        if "maximum number of running instances reached" in record.getMessage():
            self.count()
            return False
        return True


class _Workers(concurrent.futures.Executor):
    """The threads the reviews run on (counting, checks and drafts are CPU work that would
    hold up every other game's poll on the event loop). Daemon threads: stopping never
    waits for a review past `STOP_GRACE`."""

    def __init__(self, threads: int) -> None:
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        for n in range(threads):
            threading.Thread(target=self._work, name=f"review-{n}", daemon=True).start()

    def submit(self, fn: Callable[..., Any], /, *args: Any,
               **kwargs: Any) -> concurrent.futures.Future[Any]:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        self._queue.put((future, fn, args, kwargs))
        return future

    def _work(self) -> None:
        while True:
            future, fn, args, kwargs = self._queue.get()
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(fn(*args, **kwargs))
            except BaseException as e:  # noqa: BLE001 - handed to the awaiting task
                future.set_exception(e)


REVIEW_THREADS = 3
"""Worker threads for the CPU and disk work of polls and reviews (parsing, counting,
writing): more would only share the one core; three, so that a game file whose lock a
stuck command holds does not hold up the other games."""
STOP_GRACE = 0.5
"""Seconds a stopping daemon gives the reviews in progress (the polls end at once)."""
STOP_DEADLINE = 1.0
"""Seconds after the first Ctrl-C or SIGTERM by which the process is gone (2 s promised),
whatever it is doing (a write in progress is an atomic replace: the store keeps the old
file or the new). A second of the promise is left to a busy machine: a process starved of
the CPU hears the signal and runs its exit late."""


def run_forever(daemon: Daemon) -> None:
    """Block until Ctrl-C or SIGTERM, then stop within 2 s (`STOP_DEADLINE`); a second
    signal stops at once. The signal handlers are Python's own, not the event loop's, so
    they run even while the loop is busy with a long write."""
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()
    signals: list[int] = []

    def on_signal(signum: int, _frame: Any) -> None:
        signals.append(signum)
        name = signal.Signals(signum).name
        if len(signals) > 1:
            log.info("stopping now (%s again)", name)
            _exit(1)
        log.info("stopping (%s)", name)
        daemon.cancel()
        timer = threading.Timer(_stop_deadline(), _late_exit)
        timer.daemon = True
        timer.start()
        loop.call_soon_threadsafe(stop.set)

    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        loop.run_until_complete(daemon.serve(stop))
    finally:
        if not signals:  # stopping, the handler stays: a second signal while the process
            for s, handler in previous.items():  # winds down still stops it at once
                signal.signal(s, handler)
        loop.close()
    log.info("stopped")


def _stop_deadline() -> float:
    """`STOP_DEADLINE`, or `ASSISTANT_STOP_DEADLINE` seconds (a test that needs the first
    signal to wait, to see the second one act)."""
    try:
        return float(os.environ.get("ASSISTANT_STOP_DEADLINE") or STOP_DEADLINE)
    except ValueError:
        return STOP_DEADLINE


def _late_exit() -> None:
    log.info("stopped (the work in progress was abandoned; nothing is torn)")
    _exit(0)


def _exit(code: int) -> None:
    """Leave now: the log is flushed, the rest (threads in a review, a write in progress:
    an atomic replace) is left as a kill would."""
    for handler in logging.getLogger("assistant").handlers:
        handler.flush()
    os._exit(code)


def _log_poll(game_id: str, result: PollResult) -> None:
    """A poll with something new is worth a line; one with nothing goes to DEBUG (the
    summary line counts it)."""
    found = result.new or result.changed or result.vanished or result.reappeared
    (log.info if found or result.backfill else log.debug)(
        "poll %s: %d new, %d changed, %d vanished, %d request(s)", game_id, len(result.new),
        len(result.changed), len(result.vanished), result.requests)


def _votes_of(tally: dict[str, Any]) -> dict[str, Any]:
    """What a revised final count is for: the votes and the outcome, not the post the
    outcome is told at (a host's closing post in the deadline's minute moves it)."""
    outcome = {k: v for k, v in tally.get("outcome", {}).items() if k != "at_post"}
    return {**tally, "outcome": outcome}


def _open_store(data_dir: Path, game_id: str) -> GameStore:
    return GameStore.open(data_dir, game_id, create=False)


def _signature(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def _day_start(store: GameStore) -> datetime | None:
    phases = [d["data"] for d in store.inputs("phase")]
    from assistant.models import from_iso

    return from_iso(phases[-1]["starts_at"]) if phases else None


def _urls(posts: tuple[Post, ...]) -> dict[int, str]:
    return {p.post_id: p.url for p in posts if p.url}
