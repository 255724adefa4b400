"""Reading a thread into the store: a full backfill once, then cheap incremental polls.

The first poll reads every page (resuming where a killed backfill stopped). Later polls
re-read the last known page and follow the thread onto new pages, which costs one
request when nothing is new; every few polls they also re-read the earlier pages holding
the last hour's posts, because edits happen there too (mostly soon after the post), and
every half hour every earlier page of the current day. Writes go in batches of whole
pages (`pages_per_write`), each one atomic replace of the store file, so a crash or a
page the parser does not understand loses at most the pages not yet written.

Vanished posts: a post is marked vanished only when a run of consecutive pages read in
one poll spans its id and it is not there. Post ids grow along the thread on both forums,
so a post that merely moved to the previous page (because one before it was deleted) is
never mistaken for a deleted one.
"""

from __future__ import annotations

import math
import os
import shutil
import sys
import zlib
from collections.abc import Awaitable, Callable, Generator, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta, tzinfo
from typing import TYPE_CHECKING, Any, TextIO, TypeVar
from zoneinfo import ZoneInfo

from assistant.clock import Clock
from assistant.errors import (
    ConfigError,
    FetchError,
    LayoutError,
    NotAThreadError,
    TruncatedPageError,
)
from assistant.models import TopicPage, from_iso, to_iso
from assistant.scrapers import ThreadRef, parse_topic_page, thread_url_info
from assistant.scrapers.http import Fetcher, Response
from assistant.store import GameStore

if TYPE_CHECKING:
    from tqdm import tqdm  # (imported when a bar is shown: the daemon never shows one)

T = TypeVar("T")
Steps = Generator[str, Response, T]
"""A poll's steps: it yields the URL it needs next and is sent the forum's answer. The
poll is written once, and `drive` (a `Fetcher`, for commands) or `adrive` (an
`AsyncFetcher`, for the daemon) does the asking; a failed request is thrown into it where
it asked, so it keeps the whole pages already read."""


def drive(steps: Steps[T], get: Callable[[str], Response]) -> T:
    """Run a poll's steps, each request with `get`."""
    try:
        url = next(steps)
        while True:
            try:
                answer = get(url)
            except BaseException as e:  # noqa: BLE001 - thrown in where the poll asked
                url = steps.throw(e)
            else:
                url = steps.send(answer)
    except StopIteration as done:
        return done.value


async def adrive(
    steps: Steps[T],
    get: Callable[[str], Awaitable[Response]],
    run: Callable[..., Awaitable[Any]] | None = None,
    waiting: Callable[[], None] | None = None,
) -> T:
    """Run a poll's steps, awaiting each request. `run(fn, *args)` runs each step (parsing
    a page, writing the store) elsewhere, e.g. on a worker thread, so the event loop only
    waits on forums; `waiting()` is called before each wait (no step runs then). A
    cancelled poll is abandoned where it waits: nothing more is written (every write is
    whole), and the next poll reads those pages again."""
    import asyncio

    async def advance(method: Callable[..., Any], *args: Any) -> tuple[bool, Any]:
        return _advance(method, *args) if run is None else await run(_advance, method, *args)

    done, value = await advance(next, steps)
    while not done:
        if waiting is not None:
            waiting()
        try:
            answer = await get(value)
        except asyncio.CancelledError:
            raise
        except BaseException as e:  # noqa: BLE001 - thrown in where the poll asked
            done, value = await advance(steps.throw, e)
        else:
            done, value = await advance(steps.send, answer)
    return value


def _advance(method: Callable[..., Any], *args: Any) -> tuple[bool, Any]:
    """One step: (False, the next URL) or (True, the poll's result). (A StopIteration
    cannot cross a future, so the end is a value.)"""
    try:
        return False, method(*args)
    except StopIteration as end:
        return True, end.value


@dataclass(frozen=True)
class PollSettings:
    """How a poll spends its requests."""

    recheck_every_polls: int = 6
    """Re-read the earlier pages holding posts of the last `recheck_recent` every N polls
    (0: never by count)."""
    recheck_recent: timedelta | None = timedelta(hours=1)
    """How far back the re-read every N polls goes (None: the whole current day). A
    300-post day's 20 pages re-read every 6 polls were a third of 200 such games' CPU;
    its last hour is a few pages."""
    recheck_recent_pages: int | None = 2
    """... and at most this many pages before the last (None: every one of that hour): a
    thread as fast as a chat fills ten pages in an hour, and each page read waits its
    turn on the forum (`FetchSettings.delay`)."""
    recheck_every: timedelta | None = timedelta(minutes=30)
    """Re-read every earlier page of the current day when this long has passed since the
    last such re-read (None: never by time)."""
    recheck_window: timedelta = timedelta(hours=24)
    """Without a day start from the caller, "the current day" is this long back from now."""
    stagger: bool = False
    """After the first read of a thread, start the re-reads' count and time at a point of
    their own for each game (by its name), as if it had re-read a while ago: the daemon's
    games set up together would otherwise re-read their days together, each such poll
    holding one of the cycles under way for the whole re-read (200 games: polls two and
    three minutes late)."""
    pages_per_write: int = 10
    """Pages stored per atomic write during a long read (a 400-page thread: 40 writes)."""
    progress: bool | None = None
    """Show a progress bar on stderr; None: only when stderr is a terminal."""


@dataclass(frozen=True)
class PollResult:
    """What one poll found and what it cost."""

    thread_url: str
    new: tuple[int, ...]
    changed: tuple[int, ...]
    """Posts whose body or edit notice differs from the stored version (a version added)."""
    vanished: tuple[int, ...]
    reappeared: tuple[int, ...]
    pages_read: tuple[int, ...]
    requests: int
    """HTTP requests this poll sent, retries and login included."""
    page_count: int
    backfill: bool
    """True when this poll read the thread from the start (or resumed such a read)."""
    rechecked: bool
    """True when this poll re-read earlier pages of the current day."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "thread_url": self.thread_url, "new": list(self.new), "changed": list(self.changed),
            "vanished": list(self.vanished), "reappeared": list(self.reappeared),
            "pages_read": list(self.pages_read), "requests": self.requests,
            "page_count": self.page_count, "backfill": self.backfill,
            "rechecked": self.rechecked,
        }


@dataclass
class _Tally:
    new: list[int] = field(default_factory=list)
    changed: list[int] = field(default_factory=list)
    vanished: list[int] = field(default_factory=list)
    reappeared: list[int] = field(default_factory=list)
    pages: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class _Read:
    page: TopicPage
    seen_at: datetime


class Poller:
    """Polls one game's thread into its store. The thread URL comes from the game config."""

    def __init__(
        self,
        store: GameStore,
        fetcher: Fetcher,
        clock: Clock,
        tz: tzinfo,
        settings: PollSettings | None = None,
        *,
        thread_url: str | None = None,
        progress_file: TextIO | None = None,
    ) -> None:
        self.store = store
        self.fetcher = fetcher
        self.clock = clock
        self.tz = tz
        self.settings = settings or PollSettings()
        self._software: str | None = None
        """The thread's forum software once a page of it was read: later pages need not
        be told apart (that costs a third of a page's parsing)."""
        url = thread_url or store.config().get("thread_url")
        if not url:
            raise ConfigError(
                f"game {store.game_id!r} has no thread URL; run `assistant fetch URL --game "
                f"{store.game_id}` once"
            )
        self.ref = thread_url_info(url)
        forum_tz = store.config().get("forum_tz")
        self.forum_tz: tzinfo | None = ZoneInfo(forum_tz) if forum_tz else None
        """The forum's zone as the GM gave it (`--forum-tz`): it wins over what a page says."""
        self.progress_file = progress_file or sys.stderr

    # ---- the poll --------------------------------------------------------------------

    def poll(
        self, *, recheck: bool | None = None, recheck_since: datetime | None = None
    ) -> PollResult:
        """Read what is new. `recheck` forces (True) or skips (False) re-reading earlier
        pages; `recheck_since` is the start of the current game day, when the caller knows it."""
        return drive(self._poll(recheck, recheck_since), self.fetcher.get)

    async def apoll(
        self,
        *,
        recheck: bool | None = None,
        recheck_since: datetime | None = None,
        run: Callable[..., Awaitable[Any]] | None = None,
    ) -> PollResult:
        """The same poll with an `AsyncFetcher`: the daemon waits on many forums at once
        from one thread, and a cancelled poll stops at its request in flight. `run`: see
        `adrive`. The game file as read is dropped while the poll waits on the forum."""
        return await adrive(self._poll(recheck, recheck_since), self.fetcher.get, run,
                            self.store.forget_read)

    def _poll(self, recheck: bool | None, recheck_since: datetime | None) -> Steps[PollResult]:
        state = self.store.crawl_state()
        self._check_same_thread(state)
        if state.get("topic_id") and self.ref.topic_id is None:
            self.ref = self.ref.with_topic(int(state["topic_id"]))
        before = self.fetcher.requests
        now = self.clock.now()
        tally = _Tally()
        backfill = not state.get("backfilled")
        whole = recent = False  # (re-reading the whole day; the last hour's pages)
        if not backfill:
            if recheck is None:
                whole = self._whole_recheck_due(state, now)
                recent = not whole and self._recent_recheck_due(state)
            else:
                whole = recheck
        due = whole or recent
        # The poll's counters go into its last write, so that a poll is one atomic write
        # of the file (two or more only when it reads more pages than `pages_per_write`,
        # or re-reads earlier pages).
        counters: dict[str, Any] = {
            "polls": int(state.get("polls", 0)) + 1,
            "polls_since_recheck": (
                0 if (due or backfill) else int(state.get("polls_since_recheck", 0)) + 1
            ),
        }
        if whole or backfill:
            counters["last_recheck_at"] = to_iso(now)
            if backfill and self.settings.stagger:
                polls, time = self._stagger()
                counters["polls_since_recheck"] = polls
                counters["last_recheck_at"] = to_iso(now - time)
        elif state.get("last_recheck_at"):
            # Carried along: a recheck that stored nothing left its time beside the game
            # file only, and this poll's counters, if it stores something, replace those.
            counters["last_recheck_at"] = state["last_recheck_at"]
        if backfill:
            yield from self._read_forward(int(state.get("backfill_next") or 1), state, tally,
                                          backfill=True, counters=counters)
        else:
            yield from self._read_forward(int(state.get("last_page") or 1), state, tally,
                                          backfill=False, counters=None if due else counters)
            if due:
                since = recheck_since or now - self.settings.recheck_window
                if recent and self.settings.recheck_recent is not None:
                    since = max(since, now - self.settings.recheck_recent)
                yield from self._recheck(since, state, tally, counters,
                                         last=self.settings.recheck_recent_pages if recent
                                         else None)
        rechecked = due
        return PollResult(
            thread_url=state.get("thread_url") or self.ref.url,
            new=tuple(tally.new), changed=tuple(tally.changed),
            vanished=tuple(tally.vanished), reappeared=tuple(tally.reappeared),
            pages_read=tuple(tally.pages), requests=self.fetcher.requests - before,
            page_count=int(state.get("page_count") or 0), backfill=backfill,
            rechecked=rechecked,
        )

    def _check_same_thread(self, state: dict[str, Any]) -> None:
        known = state.get("topic_id")
        if known and self.ref.topic_id and int(known) != self.ref.topic_id:
            raise ConfigError(
                f"game {self.store.game_id!r} follows topic {known} ({state.get('thread_url')}), "
                f"not {self.ref.url}; use a new game name for another thread"
            )

    def _recent_recheck_due(self, state: dict[str, Any]) -> bool:
        n = self.settings.recheck_every_polls
        return bool(n and int(state.get("polls_since_recheck", 0)) + 1 >= n)

    def _whole_recheck_due(self, state: dict[str, Any], now: datetime) -> bool:
        every = self.settings.recheck_every
        last = from_iso(state.get("last_recheck_at"))
        return bool(every and last and now - last >= every)

    def _stagger(self) -> tuple[int, timedelta]:
        """This game's start in the re-reads' count of polls and in their time (`stagger`):
        the same for the game whenever it is asked, spread evenly over the games."""
        s = self.settings
        mixed = zlib.crc32(self.store.game_id.encode("utf-8"))
        polls = mixed % s.recheck_every_polls if s.recheck_every_polls > 1 else 0
        every = s.recheck_every.total_seconds() if s.recheck_every else 0
        return polls, timedelta(seconds=(mixed >> 8) % int(every) if every >= 1 else 0)

    # ---- reading pages -------------------------------------------------------------------

    def _read_page(self, page_no: int, per_page: int | None) -> Steps[_Read]:
        if self.ref.topic_id is None:  # a post permalink: read it once to learn the topic
            url = self.ref.url
        else:
            url = self.ref.page_url(page_no, per_page)
        answer = yield url
        seen_at = self.clock.now()
        try:
            try:
                page = parse_topic_page(answer.content, answer.url, tz=self.tz, now=seen_at,
                                        header_charset=answer.charset, forum_tz=self.forum_tz,
                                        software=self._software)
            except TruncatedPageError:
                # Cut short on the way: ask once more now; a second cut page fails the poll
                # (the whole pages before it are kept) and the next poll asks again.
                answer = yield url
                seen_at = self.clock.now()
                page = parse_topic_page(answer.content, answer.url, tz=self.tz, now=seen_at,
                                        header_charset=answer.charset, forum_tz=self.forum_tz,
                                        software=self._software)
            self._software = page.software
            if not page.posts and (page.page <= 1 or page.page < page.page_count):
                # Only SMF's page past the end may be empty: its last page, after page 1.
                raise NotAThreadError(
                    f"{page.url} shows no posts. Give the URL of the thread itself, e.g. "
                    ".../index.php?topic=1234.0", url=page.url)
        except (NotAThreadError, LayoutError) as e:
            if self.ref.topic_id is None or (page_no == 1 and not self.store.crawl_state()):
                raise  # the URL the user gave: "not a thread" is the right answer
            raise LayoutError(
                f"page {page_no} of topic {self.ref.topic_id} was not understood: {e}. The "
                "forum may be having problems or changed its theme; what was stored is kept: "
                "try again later, and report it if it persists",
                answer.url, what=getattr(e, "what", None) or f"the posts of page {page_no}",
            ) from None
        if self.ref.topic_id is None:
            if page.topic_id is None:
                raise LayoutError(
                    f"{answer.url}: the page does not say which topic it belongs to; give the "
                    "thread's own URL (…/viewtopic.php?t=1234) instead of a post link",
                    answer.url, what="the topic id",
                )
            self.ref = self.ref.with_topic(page.topic_id)
            if page.page != page_no:
                return (yield from self._read_page(page_no, page.per_page or per_page))
        elif page.topic_id is not None and page.topic_id != self.ref.topic_id:
            raise LayoutError(
                f"{url} shows topic {page.topic_id}, not topic {self.ref.topic_id}: the thread "
                "was moved or merged; check it in a browser and fetch the new address into a "
                "new game",
                url, what="the topic id",
            )
        return _Read(page, seen_at)

    def _read_forward(
        self,
        start: int,
        state: dict[str, Any],
        tally: _Tally,
        *,
        backfill: bool,
        counters: dict[str, Any] | None = None,
    ) -> Steps[None]:
        """Read from page `start` to the thread's last page, writing every few pages.

        When a poll's last page read is full, the next page is asked for once as well: a
        page may be served from a cache that predates the new page, and a full page is
        exactly when the next post starts a page its links cannot show yet. SMF answers
        that page, until someone posts, with an empty topic page (HTTP 200, no posts):
        nothing new. A backfill does not ask: it has just read the last page, phpBB would
        answer with that same page again, and the next poll asks anyway, so the first read
        of a thread asks for each page once and for nothing else."""
        per_page: int | None = state.get("per_page")
        page_count: int | None = None
        page_no = start
        buffer: list[_Read] = []
        prev_hi: float | None = -math.inf if start == 1 else None
        bar = None
        probing = probed = False
        last: TopicPage | None = None
        try:
            while True:
                if page_count is not None and page_no > page_count:
                    if (backfill or probed or not per_page or last is None
                            or len(last.posts) < per_page):
                        break
                    probing = probed = True
                try:
                    read = yield from self._read_page(page_no, per_page)
                except FetchError as e:
                    if probing and e.status == 404:
                        break
                    raise
                page = read.page
                if probing and page.page < page_no:
                    break  # the forum answered with the last page again: nothing new
                if not page.posts:  # SMF's page past the end (phpBB repeats its last page)
                    if probing or last is not None:
                        break  # after a full last page: nothing new yet
                    page_no -= 1  # the last page known is past the end: posts were removed
                    continue
                probing = False
                last = page
                # The scrapers already read the page's own offset when its links do not
                # tell (common.per_page_from_offset): no URL parsing here.
                per_page = page.per_page or per_page
                page_count = max(page.page_count, page.page)
                buffer.append(read)
                tally.pages.append(page.page)
                if bar is None and page_count - page.page >= 1:
                    bar = self._progress(page_count, start, backfill, done=page.page - start + 1)
                elif bar is not None:
                    bar.total = page_count - start + 1
                    bar.update(1)
                if len(buffer) >= self.settings.pages_per_write:
                    prev_hi = self._write(buffer, tally, state, per_page, page_count, prev_hi,
                                          backfill)
                    buffer = []
                page_no = max(page_no, page.page) + 1
        except BaseException as e:
            # keep the whole pages already read (also on Ctrl-C or a cancelled poll); the
            # error says what stopped us
            if buffer and not isinstance(e, GeneratorExit):
                self._write(buffer, tally, state, per_page, page_count or 0, prev_hi, backfill,
                            done=False)
            raise
        finally:
            if bar is not None:
                bar.close()
        self._write(buffer, tally, state, per_page, page_count or 0, prev_hi, backfill, done=True,
                    counters=counters)

    def _recheck(
        self, since: datetime, state: dict[str, Any], tally: _Tally, counters: dict[str, Any],
        *, last: int | None = None,
    ) -> Steps[None]:
        """Re-read the pages before the last one that hold posts made since `since` (only
        the `last` of them, when given); the poll's `counters` go into the last write."""
        read_now = set(tally.pages)
        pages = sorted({
            sp.latest.page for sp in self.store.posts(include_vanished=False)
            if sp.latest.posted_at >= since and sp.latest.page not in read_now
        })
        if last is not None:
            pages = pages[-last:] if last > 0 else []
        per_page = state.get("per_page")
        page_count = int(state.get("page_count") or 0)
        runs = _runs(pages)
        if not runs:
            self._save_counters(counters)
        for i, run in enumerate(runs):
            # Written every few pages, as a first read is: a poll re-reading the day waits
            # on each page (its own pace, the forum's turn), and a round of 100 such polls
            # held every page read so far (a 20-page day: 0.55 MB each).
            prev_hi: float | None = -math.inf if run[0] == 1 else None
            step = max(1, self.settings.pages_per_write)
            for at in range(0, len(run), step):
                reads = []
                for page_no in run[at:at + step]:
                    reads.append((yield from self._read_page(page_no, per_page)))
                    tally.pages.append(reads[-1].page.page)
                last = i == len(runs) - 1 and at + step >= len(run)
                prev_hi = self._write(reads, tally, state, per_page, page_count, prev_hi,
                                      backfill=False, touch_end=False,
                                      counters=counters if last else None)

    def _progress(self, total: int, start: int, backfill: bool, *, done: int) -> tqdm | None:
        """The bar of a read of several pages, on a terminal; `done` pages read already
        (counted, not timed: the rate starts with the next page)."""
        show = self.settings.progress
        if show is None:
            show = bool(getattr(self.progress_file, "isatty", lambda: False)())
        if not show:
            return None
        from tqdm import tqdm

        columns, lines = _shape(self.progress_file)
        return tqdm(total=total - start + 1, initial=done, file=self.progress_file, unit="page",
                    desc="reading thread" if backfill else "new pages", leave=False,
                    mininterval=0, ncols=columns, nrows=lines)

    # ---- storing ---------------------------------------------------------------------

    def _write(
        self,
        reads: list[_Read],
        tally: _Tally,
        state: dict[str, Any],
        per_page: int | None,
        page_count: int,
        prev_hi: float | None,
        backfill: bool,
        *,
        done: bool = False,
        touch_end: bool = True,
        counters: dict[str, Any] | None = None,
    ) -> float | None:
        """Store whole pages, vanished marks and the crawl state in one atomic write, with
        the poll's `counters` when this is the poll's last write.

        `prev_hi` is the highest id before these pages (-inf from the thread's start, None
        when unknown: the window then starts at these pages' lowest id). Returns the
        highest post id of these pages, the bound for the next run."""
        if not reads:
            with self.store.batch():
                if done and touch_end:
                    self._save_state(state, per_page, page_count, None, backfill, done)
                if counters is not None:
                    self._save_counters(counters)
            return prev_hi
        ids = [p.post_id for r in reads for p in r.page.posts]
        ends_thread = touch_end and reads[-1].page.page >= page_count
        with self.store.batch():
            for r in reads:
                result = self.store.record_posts(r.page.posts, r.seen_at)
                tally.new += result.new
                tally.changed += result.changed
                tally.reappeared += result.reappeared
            if ids:
                lo = min(ids) if prev_hi is None else prev_hi + 1
                hi = math.inf if ends_thread else max(ids)
                gone = self._missing(set(ids), lo, hi)
                tally.vanished += self.store.mark_vanished(gone, reads[-1].seen_at)
            if touch_end:
                self._save_state(state, per_page, max(page_count, reads[-1].page.page), reads,
                                 backfill, done)
            if counters is not None:
                self._save_counters(counters)
        return max(ids) if ids else prev_hi

    def _save_counters(self, counters: dict[str, Any]) -> None:
        """The poll's counters, stamped with the moment it ended: with the poll's other
        changes in one write of the game file, or, when it changed nothing, beside it (an
        idle poll does not rewrite a long game's whole file for a counter)."""
        values = {**counters, "last_poll_at": to_iso(self.clock.now())}
        if self.store.writing:
            self.store.set_crawl_state(**values)
        else:
            self.store.save_poll_counters(**values)

    def _missing(self, present: set[int], lo: float, hi: float) -> list[int]:
        """Stored, not-vanished posts with ids in [lo, hi] that the pages did not show."""
        return [pid for pid in self.store.live_post_ids(lo, hi) if pid not in present]

    def _save_state(
        self,
        state: dict[str, Any],
        per_page: int | None,
        page_count: int,
        reads: list[_Read] | None,
        backfill: bool,
        done: bool,
    ) -> None:
        ref = self.ref
        values: dict[str, Any] = {
            "thread_url": ref.first_page_url, "software": ref.software,
            "topic_id": ref.topic_id, "per_page": per_page, "page_count": page_count,
        }
        if ("page_urls" not in state or state.get("page_count") != page_count
                or state.get("per_page") != per_page
                or state.get("thread_url") != ref.first_page_url):
            # (made again only when they change: a long thread's list at every write of
            # its first read cost as much as the rest of the write)
            values["page_urls"] = _page_urls(ref, page_count, per_page)
        if reads:
            last = reads[-1].page
            values.update(version=last.version, title=last.title, last_page=last.page)
            if last.posts:
                values["last_post_id"] = max(p.post_id for p in last.posts)
            if backfill:
                values["backfill_next"] = last.page + 1
        if backfill and done:
            values.update(backfilled=True, backfill_next=None)
        state.update(values)
        self.store.set_crawl_state(**values)


def forum_zone_name(config: dict[str, Any]) -> str | None:
    """The zone a game's forum shows its text dates in (SMF): the `forum_tz` the GM gave
    to `fetch --forum-tz`, else the game's own time zone."""
    return config.get("forum_tz") or config.get("tz")


def _page_urls(ref: ThreadRef, page_count: int, per_page: int | None) -> list[str]:
    if ref.topic_id is None:
        return []
    if not per_page:
        return [ref.first_page_url] if page_count <= 1 else []
    return [ref.page_url(n, per_page) for n in range(1, page_count + 1)]


def _runs(pages: Iterable[int]) -> list[list[int]]:
    """Consecutive page numbers grouped: [1, 2, 4] -> [[1, 2], [4]]."""
    runs: list[list[int]] = []
    for p in pages:
        if runs and p == runs[-1][-1] + 1:
            runs[-1].append(p)
        else:
            runs.append([p])
    return runs


def _shape(stream: TextIO) -> tuple[int, int]:
    """The terminal's (columns, lines) for the progress bar. A terminal that reports no
    size (a pseudo-terminal nobody sized: an IDE's console, `script`, a CI runner) is 0 by 0
    to tqdm, which then draws nothing at all: 80 by 24 there."""
    try:
        columns, lines = os.get_terminal_size(stream.fileno())
    except (AttributeError, OSError, ValueError):
        columns = lines = 0
    fallback = shutil.get_terminal_size((80, 24))
    return columns or fallback.columns or 80, lines or fallback.lines or 24
