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
"""

from __future__ import annotations

import logging
import math
import os
import signal
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, TextIO

from assistant.alerts import AlertLog, StoredAlert, feed_path, write_feed
from assistant.clock import Clock
from assistant.engine.history import ROLES
from assistant.errors import AssistantError, ConfigError
from assistant.models import Post, to_iso
from assistant.monitor import GameView, day_tally, draft_dusk, load_view, run_checks
from assistant.outcome import TallyRules
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
from assistant.scrapers.http import Fetcher
from assistant.scrapers.login import login
from assistant.store import GameStore, list_games, write_errnos, write_error
from assistant.tally import count
from assistant.tally_draft import render_tally

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


def setup_logging(clock: Clock, stream: TextIO) -> logging.Handler:
    """Send the assistant's log to `stream`, stamped by `clock`; a second call replaces the
    first handler instead of doubling every line."""
    logger = logging.getLogger("assistant")
    for old in [h for h in logger.handlers if getattr(h, "assistant_clock_log", False)]:
        logger.removeHandler(old)
    handler = logging.StreamHandler(stream)
    handler.setFormatter(ClockFormatter(clock))
    handler.assistant_clock_log = True  # type: ignore[attr-defined]
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logging.getLogger("apscheduler").setLevel(logging.WARNING)  # one line per event: ours
    logging.getLogger("httpx").setLevel(logging.WARNING)  # our poll line says what was fetched
    return handler


@dataclass(frozen=True)
class DaemonSettings:
    poll_interval: float = 300.0
    """Seconds between polls of a game (a game's config key `poll_interval` overrides)."""
    jitter: float = 30.0
    """Up to this many seconds added at random to each poll, so polls do not align."""

    def __post_init__(self) -> None:
        # An interval of 0 or less polls without pause (100 % CPU, a hammered forum).
        if not (math.isfinite(self.poll_interval) and self.poll_interval > 0):
            raise ConfigError(f"poll interval {self.poll_interval!r}: give more than 0 seconds")
        if not (math.isfinite(self.jitter) and self.jitter >= 0):
            raise ConfigError(f"jitter {self.jitter!r}: give 0 seconds or more")


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
    """"drafted", "skipped", "locked" (a day's final count) or "ended" (a night's end)."""
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
    ) -> None:
        self.data_dir = Path(data_dir)
        self.clock = clock
        self.fetcher_factory = fetcher_factory
        self.settings = settings or DaemonSettings()
        self._fetchers: dict[str, Fetcher] = {}
        self._logged_in: set[str] = set()
        self._scheduled: set[str] = set()
        self._stopping = False

    def games(self) -> list[str]:
        """The games to watch: those with a thread URL, not paused. A game whose store cannot
        be read is kept in the list, so its cycle reports why instead of it going silent."""
        out = []
        for game_id in list_games(self.data_dir):
            try:
                with GameStore.open(self.data_dir, game_id, create=False) as store:
                    config = store.config()
            except AssistantError as e:
                log.warning("game %s cannot be read: %s", game_id, e)
                out.append(game_id)
                continue
            if config.get("thread_url") and not config.get("paused"):
                out.append(game_id)
        return out

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

    def poll(self, game_id: str) -> PollResult:
        fetcher = self._fetcher(game_id)
        with GameStore.open(self.data_dir, game_id, create=False) as store:
            config = store.config()
            self._login(game_id, fetcher, config)
            since = _day_start(store)
            settings = PollSettings(
                progress=False,
                **{k: config[k] for k in ("recheck_every_polls",) if config.get(k) is not None},
            )
            poller = Poller(
                store,
                fetcher,
                self.clock,
                game_zone(forum_zone_name(config)),
                settings,
                thread_url=config["thread_url"],
            )
            try:
                result = poller.poll(recheck_since=since)
            except AssistantError:
                self._logged_in.discard(game_id)  # a lapsed session: log in again next time
                raise
        log.info(
            "poll %s: %d new, %d changed, %d vanished, %d request(s)",
            game_id,
            len(result.new),
            len(result.changed),
            len(result.vanished),
            result.requests,
        )
        return result

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
        """One poll job per game (interval with jitter), first run now; each tick books a
        date job at the game's next clock event. The data dir is looked at again every
        `rescan` seconds, so a game created while the daemon runs is watched at once."""
        self.watch_new_games(scheduler)
        scheduler.add_job(
            self.watch_new_games, "interval", seconds=self.rescan_every, args=[scheduler],
            id="rescan", replace_existing=True, max_instances=1, coalesce=True,
        )

    @property
    def rescan_every(self) -> float:
        """Seconds between two looks for new games: a minute, or the poll interval if less."""
        return min(60.0, self.settings.poll_interval)

    def watch_new_games(self, scheduler: Any) -> list[str]:
        """Add a poll job for every game not watched yet; returns the games added."""
        from apscheduler.triggers.interval import IntervalTrigger

        added = []
        for game_id in self.games():
            if game_id in self._scheduled:
                continue
            try:
                with GameStore.open(self.data_dir, game_id, create=False) as store:
                    interval = self._interval(game_id, store.config().get("poll_interval"))
            except AssistantError:
                interval = self.settings.poll_interval  # its cycle will say what is wrong
            scheduler.add_job(
                self._job,
                IntervalTrigger(seconds=interval, jitter=self.settings.jitter),
                args=[scheduler, game_id],
                id=f"poll:{game_id}",
                replace_existing=True,
                max_instances=1,
                coalesce=True,
                next_run_time=datetime.now().astimezone(),
            )
            self._scheduled.add(game_id)
            added.append(game_id)
            log.info(
                "watching %s: a poll every %s (jitter up to %s s)",
                game_id,
                format_duration(timedelta(seconds=interval)),
                int(self.settings.jitter),
            )
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

    def _job(self, scheduler: Any, game_id: str) -> None:
        try:
            upcoming = self.tick(game_id)
        except AssistantError as e:
            log.error("%s: %s", game_id, e)
            return
        if upcoming is not None:
            delay = upcoming - self.clock.now()
            scheduler.add_job(
                self._job,
                "date",
                run_date=datetime.now().astimezone() + delay,
                args=[scheduler, game_id],
                id=f"event:{game_id}",
                replace_existing=True,
                misfire_grace_time=None,
            )


def run_forever(daemon: Daemon) -> None:
    """Block until Ctrl-C or SIGTERM. Each game polls in a thread of its own (a forum that
    answers slowly holds up only its game); stopping cancels every request in flight, so
    the daemon exits within a fraction of a second whatever the forums are doing."""
    from apscheduler.executors.pool import ThreadPoolExecutor
    from apscheduler.schedulers.blocking import BlockingScheduler

    scheduler = BlockingScheduler(executors={"default": ThreadPoolExecutor(POLL_THREADS)})
    daemon.schedule(scheduler)

    def stop(signum: int, _frame: Any) -> None:
        log.info("stopping (%s)", signal.Signals(signum).name)
        daemon.cancel()
        scheduler.shutdown(wait=False)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    log.info("started: %d game(s)", len(daemon.games()))
    scheduler.start()
    log.info("stopped")


POLL_THREADS = 64
"""Games polled at the same moment at most: each waits on its own forum, not on the others."""


def _day_start(store: GameStore) -> datetime | None:
    phases = [d["data"] for d in store.inputs("phase")]
    from assistant.models import from_iso

    return from_iso(phases[-1]["starts_at"]) if phases else None


def _urls(posts: tuple[Post, ...]) -> dict[int, str]:
    return {p.post_id: p.url for p in posts if p.url}
