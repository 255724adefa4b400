"""The `Daemon`: every watched game's cycle (poll, then review), blocking (`tick`, `cycle`,
`run --once`) or as tasks of one event loop (`acycle`), each forum's connection pool and
semaphore, the APScheduler jobs that decide when a game ticks, and a clean stop."""

from __future__ import annotations

import asyncio
import logging
import math
import os
from collections.abc import Awaitable, Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from assistant.clock import Clock, ClockWatch
from assistant.count.resume import keep_counts
from assistant.daemon.autopost import AutoPosted, auto_post, auto_post_on
from assistant.daemon.logs import BusyJobs
from assistant.daemon.mail import MailReader
from assistant.daemon.process import (
    REVIEW_THREADS,
    STOP_GRACE,
    Workers,
    exit_now,
    settle_heap,
)
from assistant.daemon.reports import CycleReport, PollStats
from assistant.daemon.review import Review, drafts_dir, review_game
from assistant.errors import AssistantError, ConfigError, LoginError
from assistant.game_file import collect_as_usual, write_errnos, write_error
from assistant.limits import LONGEST_INTERVAL, LONGEST_JITTER
from assistant.models import from_iso
from assistant.monitor import load_view
from assistant.notify.push import note_poll, push
from assistant.outbox import Account, open_account
from assistant.phases import (
    format_duration,
    game_zone,
)
from assistant.poller import Poller, PollResult, PollSettings, forum_zone_name
from assistant.post_log import pinned, share_reads
from assistant.scrapers import thread_url_info
from assistant.scrapers.http import AsyncFetcher, Fetcher, FetchSettings, ssl_context
from assistant.scrapers.login import login
from assistant.store import GameStore, list_games

log = logging.getLogger("assistant.daemon")

CLOCK_LOOK = 5.0
"""Seconds (monotonic) between two looks at whether the wall clock stepped."""
STEADY_JOBS = ("poll:", "rescan", "summary")
"""Jobs that keep their pace when the wall clock steps (their ids start so); the others,
a game's next clock event, stay at their wall-clock moment."""


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
    inbox_interval: float = 600.0
    """Seconds between two reads of a game's GM inbox, for games with a forum login (a
    game's `inbox_interval` setting wins; 0 there: never)."""
    cycles_at_once: int = 16
    """Games' cycles (poll and review) under way at once, at most; the others wait before
    they ask anything. 200 games due at one moment (a tally slot) each fetched their page
    at once and held it while the workers parsed them in turn: 11 MB at the slot."""

    def __post_init__(self) -> None:
        # An interval of 0 or less polls without pause (100 % CPU, a hammered forum).
        interval = self.poll_interval
        if not (math.isfinite(interval) and 0 < interval <= LONGEST_INTERVAL):
            raise ConfigError(f"poll interval {self.poll_interval!r}: give more than 0 seconds, "
                              f"at most {LONGEST_INTERVAL:g}")
        if not (math.isfinite(self.jitter) and 0 <= self.jitter <= LONGEST_JITTER):
            raise ConfigError(f"jitter {self.jitter!r}: give 0 seconds or more, at most "
                              f"{LONGEST_JITTER:g}")
        if self.jitter > self.poll_interval:
            # A poll pushed back by more than the interval lands after the next one is due:
            # polls bunch up and the interval the GM asked for means nothing.
            raise ConfigError(
                f"--jitter {self.jitter:g} s is more than the --interval of "
                f"{self.poll_interval:g} s between polls; give a jitter of at most the interval "
                f"(e.g. --jitter {self.poll_interval / 10:g})"
            )
        for name in ("review_every", "summary_every", "inbox_interval"):
            value = getattr(self, name)
            if not (math.isfinite(value) and 0 < value <= LONGEST_INTERVAL):
                raise ConfigError(f"{name.replace('_', ' ')} {value!r}: give more than 0 "
                                  f"seconds, at most {LONGEST_INTERVAL:g}")
        if self.cycles_at_once < 1:
            raise ConfigError(f"cycles at once {self.cycles_at_once!r}: give 1 or more")
        if self.per_forum < 1:
            raise ConfigError(f"requests per forum {self.per_forum!r}: give 1 or more")


class Daemon:
    """Runs the cycle for every game in `data_dir` that has a thread URL."""

    def __init__(
        self,
        data_dir: Path,
        clock: Clock,
        fetcher_factory: Callable[[], Fetcher],
        settings: DaemonSettings | None = None,
        fetch_settings: FetchSettings | None = None,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        self.data_dir = Path(data_dir)
        self.clock = clock
        self.sleep = sleep
        """How the clock watch waits `CLOCK_LOOK` seconds between two looks (on the event
        loop's monotonic clock); a test passes its own to say when each look comes."""
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
        self._unreadable: dict[str, str] = {}
        """Per game whose file cannot be read: why (logged once, when first seen)."""
        self._reviewed: dict[str, tuple[Any, float]] = {}
        """Per game: the game file's signature before its last review, and when (the
        clock's monotonic seconds: a step of the wall clock neither delays nor hurries it)."""
        self._next_events: dict[str, datetime | None] = {}
        self._booked: dict[str, datetime] = {}
        """Per game: the clock event its `event:` job was last booked for (booked again
        only when it changed or the job ran: each booking wakes the scheduler up)."""
        self._game_locks: dict[str, asyncio.Lock] = {}
        self._slots: tuple[Any, asyncio.Semaphore] | None = None
        """The running loop's semaphore of `cycles_at_once`."""
        self._tasks: set[asyncio.Task[Any]] = set()
        self._reviewing: set[asyncio.Task[Any]] = set()
        self._workers: Workers | None = None
        self._poll_failing: dict[str, bool] = {}
        """Per game: whether its polls were failing when last noted in its store."""
        self.stats = PollStats()
        self.mail = MailReader(clock, fetcher_factory, self.settings.inbox_interval,
                               own_fetcher=self._logged_in_fetcher,
                               own_lapsed=self._session_lapsed)
        self._inbox_scheduled: set[str] = set()

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
            self._unreadable[game_id] = str(e)
            config = None
        else:
            self._unreadable.pop(game_id, None)
        self._configs[game_id] = (signature, config)
        return config

    def _unreadable_report(self, game_id: str) -> CycleReport | None:
        """A game whose file cannot be read is not polled or reviewed: its cycle is the
        one line `_config` logged when the file became so, not one line per step."""
        if self._config(game_id) is not None or game_id not in self._unreadable:
            return None
        report = CycleReport(game_id, None, None, (), (), None, error=self._unreadable[game_id])
        self.stats.add(report)
        return report

    def drafts_dir(self, game_id: str) -> Path:
        return drafts_dir(self.data_dir, game_id)

    # ---- the cycle ----------------------------------------------------------------------

    def tick(self, game_id: str) -> datetime | None:
        """Poll, review, handle due events; returns the next clock event's time (or None)."""
        return self.cycle(game_id).next_event

    def cycle(self, game_id: str) -> CycleReport:
        """One whole cycle for a game. A failing poll is logged and the review still runs
        on what is stored; a review that cannot run (no players yet, a broken ruleset) is
        logged and reported, so one game's problem never stops the others."""
        with self._pinned(game_id):
            return self._cycle(game_id)

    def _pinned(self, game_id: str) -> AbstractContextManager[None]:
        return pinned(GameStore.game_path(self.data_dir, game_id))

    def _cycle(self, game_id: str) -> CycleReport:
        unreadable = self._unreadable_report(game_id)
        if unreadable is not None:
            return unreadable
        result, poll_error = None, None
        try:
            result = self.poll(game_id)
        except AssistantError as e:
            poll_error = str(e)
            log.warning("poll %s failed: %s", game_id, e)
        self._note_poll(game_id, poll_error)
        inbox = self.mail.read_if_due(self.data_dir, game_id)
        report = replace(self._reviewed_report(game_id, result, poll_error), inbox=inbox)
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
            self._push_unreviewed(game_id)
            return CycleReport(game_id, result, poll_error, (), (), None, error=str(e))
        posted = self.auto_post(game_id)
        wakes = [t for t in (review.next_event, posted and posted.wake_at) if t is not None]
        return CycleReport(
            game_id, result, poll_error, review.new_alerts, review.handled,
            min(wakes) if wakes else None, auto_post=posted,
        )

    def auto_post(self, game_id: str) -> AutoPosted | None:
        """The tally the game's GM let the daemon post on its own, if one is due
        (autopost.py); None for a game without `--auto-post`."""
        if not auto_post_on(self._config(game_id) or {}):
            return None
        try:
            with GameStore.open(self.data_dir, game_id, create=False) as store:
                view = load_view(store, self.clock.now())
                return auto_post(store, view, self.clock, self._account)
        except AssistantError as e:
            log.error("auto post %s: %s", game_id, e)
            return AutoPosted(error=str(e))

    def _account(self, store: GameStore) -> AbstractContextManager[Account]:
        """The GM's forum account, logged in for one write (as `assistant post` does)."""
        return open_account(store, settings=self.fetch_settings)

    def _push_unreviewed(self, game_id: str) -> None:
        """A game that cannot be reviewed still tells of its failing polls and sends what
        waits in its outbox."""
        try:
            with GameStore.open(self.data_dir, game_id, create=False) as store:
                push(store, None, self.clock.now())
        except AssistantError as e:
            log.error("notify %s: %s", game_id, e)

    def _note_poll(self, game_id: str, error: str | None) -> None:
        """Keep in the game's store when its polls began failing (or that they work again),
        read and written only when that changes, or first after a start."""
        failing = error is not None
        if self._poll_failing.get(game_id) == failing:
            return
        try:
            with GameStore.open(self.data_dir, game_id, create=False) as store:
                note_poll(store, self.clock.now(), error)
        except AssistantError as e:
            log.error("notify %s: %s", game_id, e)
            return
        self._poll_failing[game_id] = failing

    def run_once(self) -> list[CycleReport]:
        """One cycle for every game (`run --once`), each whatever happened to the others."""
        return [self.cycle(game_id) for game_id in self.games()]

    def cancel(self) -> None:
        """Stop: every request in flight ends at once, and no new one starts."""
        self._stopping = True
        for fetcher in list(self._fetchers.values()):
            fetcher.cancel()
        self.mail.cancel()

    def _fetcher(self, game_id: str) -> Fetcher:
        """Each game its own fetcher (its own pace, cookies and login)."""
        fetcher = self._fetchers.get(game_id) or self._fetchers.setdefault(
            game_id, self.fetcher_factory()
        )
        if self._stopping:
            fetcher.cancel()
        return fetcher

    def _logged_in_fetcher(self, game_id: str, config: dict[str, Any]) -> Fetcher:
        """The game's fetcher, logged in as `fetch --login` (the inbox is read through it)."""
        fetcher = self._fetcher(game_id)
        self._login(game_id, fetcher, config)
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
            stagger=True,
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
        async with lock, self._cycle_slots():
            # (the poll, the review and an auto post read one PostLog: post_log.pinned)
            with self._pinned(game_id):
                unreadable = self._unreadable_report(game_id)
                if unreadable is not None:
                    return unreadable
                result, poll_error = None, None
                try:
                    result = await self.apoll(game_id)
                except AssistantError as e:
                    poll_error = str(e)
                    log.warning("poll %s failed: %s", game_id, e)
                if self._poll_failing.get(game_id) != (poll_error is not None):
                    await self._first(self._note_poll, game_id, poll_error)
                if self._review_can_wait(game_id, result):
                    report = CycleReport(game_id, result, poll_error, (), (),
                                         self._next_events.get(game_id))
                else:
                    signature = _signature(GameStore.game_path(self.data_dir, game_id))
                    reviewed_at = self.clock.monotonic()
                    task = asyncio.current_task()
                    assert task is not None
                    self._reviewing.add(task)
                    try:
                        report = await self._first(self._reviewed_report, game_id, result,
                                                   poll_error)
                    finally:
                        self._reviewing.discard(task)
                    if not report.failed:
                        self._reviewed[game_id] = (signature, reviewed_at)
                    self._next_events[game_id] = report.next_event
                self.stats.add(report)
                return report

    def _cycle_slots(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        if self._slots is None or self._slots[0] is not loop:
            self._slots = (loop, asyncio.Semaphore(self.settings.cycles_at_once))
        return self._slots[1]

    def _first(self, fn: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        """`fn` on a worker ahead of the polls' steps waiting there: the rest of a cycle
        whose poll is done and holds the game's posts as read (`Workers.submit_first`)."""
        if self._workers is None:  # (a cycle outside `serve`: the loop's own executor)
            return asyncio.get_running_loop().run_in_executor(None, fn, *args)
        return asyncio.wrap_future(self._workers.submit_first(fn, *args))

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
        upcoming = self._next_events.get(game_id)
        if upcoming is not None and upcoming <= self.clock.now():
            return False
        return self.clock.monotonic() - at < self.settings.review_every

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
            self._saw_config(game_id, await self._first(store.config_seen))
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
        """Store new alerts, rewrite the feed, handle every due clock event not handled yet
        (review.py)."""
        review = review_game(self.data_dir, game_id, self.clock.now())
        if review.config_seen is not None:
            self._saw_config(game_id, review.config_seen)
        return review

    def _saw_config(self, game_id: str, seen: tuple[Any, dict[str, Any] | None]) -> None:
        """A game's config as a store this process opened anyway read it (with its file's
        signature), kept for `_config`: each write of a poll or a review changes the file,
        and `_config` read it all again after each (a fifth of a 200-game daemon's opens)."""
        if seen[0] is not None:
            self._configs[game_id] = seen
            self._unreadable.pop(game_id, None)


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
                # A game's own shorter interval keeps the jitter within it.
                IntervalTrigger(seconds=interval, jitter=min(self.settings.jitter, interval)),
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
        self.watch_inboxes(scheduler)
        return added

    def watch_inboxes(self, scheduler: Any) -> list[str]:
        """A job reading the GM's inbox for every game with a forum login not read yet,
        each at the game's inbox interval, the first reads spread over one interval;
        returns the games added (a login given while the daemon runs is picked up at the
        next look for new games)."""
        from apscheduler.triggers.interval import IntervalTrigger

        wanted = []
        for game_id in self.games():
            config = self._config(game_id) or {}
            every = self.mail.interval(game_id, config)
            if every is not None and game_id not in self._inbox_scheduled:
                wanted.append((game_id, every))
        now = datetime.now().astimezone()
        for i, (game_id, every) in enumerate(wanted):
            scheduler.add_job(
                self._run_inbox_job, IntervalTrigger(seconds=every, jitter=self.settings.jitter),
                args=[game_id], id=f"inbox:{game_id}", replace_existing=True, max_instances=1,
                coalesce=True, misfire_grace_time=max(1, int(every)),
                next_run_time=now + timedelta(seconds=every * (i + 1) / (len(wanted) + 1)))
            self._inbox_scheduled.add(game_id)
            log.info("reading the inbox of %s every %s", game_id,
                     format_duration(timedelta(seconds=every)))
        return [g for g, _every in wanted]

    async def _run_inbox_job(self, game_id: str) -> None:
        """One read of a game's inbox (when due) on a worker thread, never at the same time
        as the game's own poll: one game asks its forum one thing at a time."""
        lock = self._game_locks.setdefault(game_id, asyncio.Lock())
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            async with lock:
                report = await asyncio.get_running_loop().run_in_executor(
                    self._workers, self.mail.read_if_due, self.data_dir, game_id)
        except asyncio.CancelledError:
            return
        finally:
            self._tasks.discard(task)
        self.stats.add_inbox(report)

    def _interval(self, game_id: str, value: Any) -> float:
        """A game's own `poll_interval`, when it is a usable number of seconds."""
        if value is None:
            return self.settings.poll_interval
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            seconds = math.nan
        if not (math.isfinite(seconds) and 0 < seconds <= LONGEST_INTERVAL):
            log.warning("game %s: its poll_interval %r is not a number of seconds above 0 and "
                        "at most %s; polling every %s s instead", game_id, value,
                        f"{LONGEST_INTERVAL:g}", f"{self.settings.poll_interval:g}")
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
            self._book(scheduler, game_id, report.next_event)

    def _book(self, scheduler: Any, game_id: str, at: datetime) -> None:
        """A game's next clock event (a tally slot, a deadline): when it comes before the
        game's next poll, that poll moves to it, and the polls' pace goes on from there;
        else a job of its own, until a poll comes closer to it. An event's cycle polls the
        thread like any, so a poll a few seconds on would read it again (200 games with
        5-minute tally slots polled each minute: six cycles in five minutes, not five)."""
        run_date = datetime.now().astimezone() + (at - self.clock.now())
        job_id = f"event:{game_id}"
        poll = scheduler.get_job(f"poll:{game_id}")
        if poll is not None and poll.next_run_time is not None and run_date <= poll.next_run_time:
            if poll.next_run_time != run_date:
                poll.modify(next_run_time=run_date)
            self._booked.pop(game_id, None)
            if scheduler.get_job(job_id) is not None:
                scheduler.remove_job(job_id)
            return
        if self._booked.get(game_id) == at and scheduler.get_job(job_id) is not None:
            return  # booked by an earlier cycle (five polls to a 5-minute tally slot)
        self._booked[game_id] = at
        scheduler.add_job(
            self._run_job,
            "date",
            run_date=run_date,
            args=[scheduler, game_id],
            id=job_id,
            replace_existing=True,
            misfire_grace_time=None,
        )

    def keep_pace(self, scheduler: Any, watch: ClockWatch) -> timedelta | None:
        """If the wall clock stepped since the last look: one log line, and after a step
        back every poll (and the rescan and summary) moved back by the step, so it comes
        after the same monotonic wait (APScheduler 3 times its jobs by the wall clock:
        stepped back 10 minutes, no game would be polled for 10 minutes). After a step
        forward the polls that fell due run now, once each (coalesced), as after a
        machine's sleep, which some systems cannot tell from a step. A game's next clock
        event (a deadline, an interval tally) stays at its wall-clock moment either way.
        Returns the step."""
        step = watch.step()
        if step is None:
            return None
        if step > timedelta(0):
            log.warning("the wall clock stepped forward by %s: the polls due meanwhile run "
                        "now; deadlines and tallies stay at their moments on the clock",
                        format_duration(step))
            return step
        moved = 0
        for job in scheduler.get_jobs():
            if job.id.startswith(STEADY_JOBS) and job.next_run_time is not None:
                job.modify(next_run_time=job.next_run_time + step)
                moved += 1
        log.warning("the wall clock stepped back by %s: the %d poll job(s) keep their pace; "
                    "deadlines and tallies stay at their moments on the clock",
                    format_duration(-step), moved)
        return step

    async def _watch_clock(self, scheduler: Any) -> None:
        """`keep_pace` every `CLOCK_LOOK` seconds, waited on the event loop's monotonic
        clock (a job of the scheduler would itself be held up by a step back)."""
        watch = ClockWatch(self.clock)
        while True:
            await self.sleep(CLOCK_LOOK)
            self.keep_pace(scheduler, watch)

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
        share_reads()  # ... and its next look at a game reads and counts only what is new
        keep_counts()
        self._workers = Workers(REVIEW_THREADS)
        scheduler = AsyncIOScheduler(event_loop=asyncio.get_running_loop())
        logging.getLogger("apscheduler.scheduler").addFilter(BusyJobs(self.stats_busy))
        watch = asyncio.create_task(self._watch_clock(scheduler))
        try:
            self.schedule(scheduler)
            scheduler.start()
            settle_heap()
            log.info("started: %d game(s)", len(self._scheduled))
            await stop.wait()
        finally:
            watch.cancel()
            if scheduler.running:
                scheduler.shutdown(wait=False)
            unfinished = await self._stop_tasks()
            for forum in self._forums.values():
                await forum.transport.aclose()
        if unfinished:
            log.info("stopped (%d review(s) left unfinished; nothing is torn)", unfinished)
            exit_now(0)

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
class _Forum:
    """One forum's connection pool and the semaphore its games' requests share."""

    transport: Any
    limit: asyncio.Semaphore


def _log_poll(game_id: str, result: PollResult) -> None:
    """A poll with something new is worth a line; one with nothing goes to DEBUG (the
    summary line counts it)."""
    found = result.new or result.changed or result.vanished or result.reappeared
    (log.info if found or result.backfill else log.debug)(
        "poll %s: %d new, %d changed, %d vanished, %d request(s)", game_id, len(result.new),
        len(result.changed), len(result.vanished), result.requests)


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

    return from_iso(phases[-1]["starts_at"]) if phases else None
