"""The daemon reads the GM's inbox (issue 23) on a schedule of its own: for each game with
a forum login (`fetch --login`), every `inbox_interval` seconds (the game's setting, else
`DaemonSettings.inbox_interval`; 0 turns it off), the inbox of that login and of each
co-moderator's (`inbox --co-gm`), each account logged in once on its own fetcher, at its
own pace. What it keeps is what `assistant inbox` keeps (inbox.py); the proposals read in
the messages are derived, and pushed to the GM ("orders") by the review's notifications.

When the inbox was last read is kept in the game's crawl state, so a cron job's `run
--once` reads it only when due, and a restart does not read it again at once."""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from assistant.clock import Clock
from assistant.errors import AssistantError, ConfigError, LoginError
from assistant.inbox import INBOX_INTERVAL, inbox_logins, read_inbox
from assistant.models import from_iso, to_iso
from assistant.notify.push import push
from assistant.outbox import account_on
from assistant.scrapers import thread_url_info
from assistant.scrapers.http import Fetcher
from assistant.scrapers.login import login
from assistant.store import GameStore

log = logging.getLogger("assistant.daemon")
READ_AT = "inbox_read_at"
"""Crawl state: when the game's inbox was last read (aware UTC, ISO)."""


@dataclass(frozen=True)
class InboxReport:
    """What one read of a game's inbox(es) did."""

    game_id: str
    accounts: tuple[str, ...] = ()
    new: int = 0
    """Players' messages kept by this read."""
    others: int = 0
    error: str | None = None


@dataclass
class MailReader:
    """Reads each game's inboxes when due, one fetcher (and login) per account."""

    clock: Clock
    fetcher_factory: Callable[[], Fetcher]
    default_interval: float
    own_fetcher: Callable[[str, dict[str, Any]], Fetcher] | None = None
    """The game's own fetcher, logged in as `fetch --login` (the daemon's, which its polls
    use): the game's own inbox is read through it, so the forum sees one login, not two."""
    own_lapsed: Callable[[str], bool] | None = None
    """Forget the game's own login after the forum ended its session (True if it had one)."""
    _fetchers: dict[tuple[str, str], Fetcher] = field(default_factory=dict)
    _logged_in: set[tuple[str, str]] = field(default_factory=set)

    def interval(self, game_id: str, config: dict[str, Any]) -> float | None:
        """Seconds between two reads of the game's inbox; None: not read (no login, or 0)."""
        if not inbox_logins(config):
            return None
        value = config.get(INBOX_INTERVAL)
        seconds = self.default_interval
        if value is not None:
            try:
                seconds = float(value)
            except (TypeError, ValueError):
                seconds = math.nan
            if not (math.isfinite(seconds) and seconds >= 0):
                log.warning("game %s: its inbox_interval %r is not a number of seconds; "
                            "reading the inbox every %g s instead", game_id, value,
                            self.default_interval)
                seconds = self.default_interval
        return seconds or None

    def due(self, game_id: str, config: dict[str, Any], state: dict[str, Any],
            now: datetime) -> bool:
        every = self.interval(game_id, config)
        if every is None:
            return False
        last = from_iso(state.get(READ_AT))
        return last is None or (now - last).total_seconds() >= every - 1

    def read_if_due(self, data_dir: Path, game_id: str) -> InboxReport | None:
        """Read the game's inboxes if due; None when not. A failure is reported (and
        logged), never raised: the game's polls and reviews go on."""
        now = self.clock.now()
        try:
            with GameStore.open(data_dir, game_id, create=False) as store:
                if not self.due(game_id, store.config(), store.crawl_state(), now):
                    return None
                if not store.inputs("players"):
                    return None  # no one's messages to keep yet; the review says what to do
                return self._read(store, now)
        except AssistantError as e:
            log.warning("inbox %s: %s", game_id, e)
            return InboxReport(game_id, error=str(e))

    def _read(self, store: GameStore, now: datetime) -> InboxReport:
        config = store.config()
        game_id = store.game_id
        accounts, new, others = [], 0, 0
        try:
            for i, entry in enumerate(inbox_logins(config)):
                user = str(entry["user"])
                own = i == 0 and self.own_fetcher is not None  # the game's own login
                fetcher = self._fetcher_for(game_id, config, entry, own)
                try:
                    read = read_inbox(store, account_on(config, user, fetcher, self.clock.now),
                                      now)
                except LoginError:  # the forum ended the session: log in again, once
                    if own and self.own_lapsed is not None:
                        self.own_lapsed(game_id)
                    self._logged_in.discard((game_id, user))
                    fetcher = self._fetcher_for(game_id, config, entry, own)
                    read = read_inbox(store, account_on(config, user, fetcher, self.clock.now),
                                      now)
                accounts.append(user)
                new += len(read.new)
                others += read.others
        finally:
            store.set_crawl_state(**{READ_AT: to_iso(now)})  # failed or not: not again at once
        if new:
            log.info("inbox %s: %d new message(s) from players (%s)", game_id, new,
                     ", ".join(accounts))
            push(store, None, now)  # the new proposals told at once, not at the next review
        return InboxReport(game_id, tuple(accounts), new, others)

    def _fetcher_for(self, game_id: str, config: dict[str, Any], entry: dict[str, Any],
                     own: bool) -> Fetcher:
        """A fetcher logged in as `entry`: the game's own (`own`), else one of this
        reader's, each co-moderator's with its own cookies, logged in once."""
        if own and self.own_fetcher is not None:
            return self.own_fetcher(game_id, config)
        user = str(entry["user"])
        key = (game_id, user)
        fetcher = self._fetchers.get(key) or self._fetchers.setdefault(key,
                                                                       self.fetcher_factory())
        if key not in self._logged_in:
            variable = entry.get("password_env") or ""
            password = os.environ.get(variable)
            if not password:
                raise ConfigError(
                    f"game {game_id!r} reads the inbox of {user!r} with the password in the "
                    f"environment variable {variable}, which is not set for the daemon: set it "
                    "where the daemon starts and restart it")
            login(fetcher, thread_url_info(config["thread_url"]), user, password)
            self._logged_in.add(key)
        return fetcher

    def cancel(self) -> None:
        for fetcher in list(self._fetchers.values()):
            fetcher.cancel()
