"""The daemon at scale (issue 13): 200 games on one forum, stopped mid-round; a daemon
stuck in a read stopped all the same, and at once by a second signal; a forum asked a few
pages at a time whatever the number of games on it; idle polls out of the log, a summary
line instead; no review when nothing changed.

Every wait is for something the test can see (a log line, requests held by the server,
the daemon holding a file open), never for a guessed while."""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import daemon_support as ds
import httpx
import respx
from conftest import REALFORUM
from forum_server import running_forum, thread_files
from test_daemon_hostile import RunningDaemon

from assistant.clock import FakeClock
from assistant.daemon import Daemon, DaemonSettings
from assistant.scrapers.http import Fetcher, FetchSettings
from assistant.store import GameStore

ROOT = Path(__file__).resolve().parent.parent
THREAD_A = [REALFORUM / "smf21" / f"smf21_topic_p{n}.html" for n in range(1, 6)]
SAVED_FROM = b"http://127.0.0.1:8021"
WAIT = 120.0
"""The longest the test waits for something it can see happen: only a bound for a stuck
run, never a sleep."""


@dataclass
class ManyGames:
    """Thread A (66 posts, 5 pages) under a folder per game: /g007/index.php?topic=2.0.
    Once `hold` is set, every request waits for `release` (or for the client to go)."""

    base_url: str = ""
    pages: list[bytes] = field(default_factory=list)
    requests: int = 0
    in_flight: int = 0
    most_in_flight: int = 0
    hold: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    changed: threading.Condition = field(default_factory=threading.Condition)

    def answer(self, raw: str) -> bytes | None:
        parts = urlsplit(raw)
        folder = parts.path.strip("/").split("/")[0]
        start = int(dict(parse_qsl(parts.query))["topic"].split(".")[1])
        page = start // 15
        if page >= len(self.pages):
            return None
        return self.pages[page].replace(SAVED_FROM, f"{self.base_url}/{folder}".encode())

    def wait_until(self, test, what: str) -> None:  # noqa: ANN001
        with self.changed:
            if not self.changed.wait_for(lambda: test(self), timeout=WAIT):
                raise AssertionError(f"the forum never saw {what}")


@contextmanager
def many_games_forum() -> Iterator[ManyGames]:
    forum = ManyGames(pages=[p.read_bytes() for p in THREAD_A])

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's naming
            with forum.changed:
                forum.requests += 1
                forum.in_flight += 1
                forum.most_in_flight = max(forum.most_in_flight, forum.in_flight)
                forum.changed.notify_all()
            try:
                if forum.hold.is_set():
                    forum.release.wait(WAIT)
                body = forum.answer(self.path)
                self.send_response(200 if body else 404)
                body = body or b"<html><body>Not found</body></html>"
                self.send_header("Content-Type", "text/html; charset=UTF-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            except OSError:
                pass  # the daemon hung up
            finally:
                with forum.changed:
                    forum.in_flight -= 1
                    forum.changed.notify_all()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    forum.base_url = f"http://127.0.0.1:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True).start()
    try:
        yield forum
    finally:
        forum.release.set()
        server.shutdown()
        server.server_close()


PLAYERS = ["Kat", "Conia", "xX_Slayer_Xx", "Tom & Jerry's", "ÆtherWolf", "Lady Grey",
           "Mr. Pickles", "bob the builder", "Jd-"]


def make_games(data_dir: Path, base_url: str, n: int) -> list[str]:
    games = []
    for i in range(n):
        game = f"g{i:03}"
        with GameStore.open(data_dir, game) as store:
            store.update_config(thread_url=f"{base_url}/{game}/index.php?topic=2.0",
                                ruleset="mafiascum", tz="UTC", forum_tz="UTC", gms=["Host"])
            store.add_input("players", {"players": [[p] for p in PLAYERS]},
                            datetime(2026, 11, 21, tzinfo=UTC))
        games.append(game)
    return games


def test_sigterm_with_200_games_mid_round_stops_within_2_s_and_tears_nothing(tmp_path) -> None:
    """Before: SIGTERM did not stop a 200-game daemon within 5 s (it had to be killed).
    The test lets the first round run until 40 games' threads were read, then holds every
    request: once the forum holds as many as the daemon may ask of it at once, SIGTERM."""
    with many_games_forum() as forum:
        games = make_games(tmp_path, forum.base_url, 200)
        daemon = RunningDaemon(tmp_path)
        try:
            daemon.wait_for("started: 200 game(s)")
            for _ in range(40):
                daemon.wait_for(" INFO poll g")
            forum.hold.set()
            forum.wait_until(lambda f: f.in_flight >= 4, "4 requests in flight")
            took = daemon.stop()
        finally:
            daemon.kill()
        most = forum.most_in_flight
    assert daemon.proc.returncode == 0
    assert took < 2.0, took
    assert most == 4  # the forum's limit, whatever the number of games on it
    stored = []
    for game in games:  # every game file whole: a thread read whole, or not yet at all
        with GameStore.open(tmp_path, game, create=False) as store:
            stored.append(len(store.posts()))
    assert set(stored) <= {0, 66} and stored.count(66) >= 40, stored
    assert "Traceback" not in "\n".join(daemon.seen)
    assert "maximum number of running instances" not in "\n".join(daemon.seen)


def _held_open_for_reading(fifo: Path) -> bool:
    """The daemon has the pipe open for reading (a writer can open it without waiting)."""
    try:
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as e:
        if e.errno == errno.ENXIO:
            return False
        raise
    _held_open_for_reading.fds.append(fd)  # kept open: the daemon's read then waits
    return True


_held_open_for_reading.fds = []  # type: ignore[attr-defined]


def _stuck_daemon(tmp_path: Path) -> tuple[RunningDaemon, Path]:
    """A daemon stuck in a read: a game file that is a pipe nobody writes to (as a hung
    network disk would be), found by its look for new games, which then never returns."""
    snaps = ds.snapshots("smf21")
    forum_cm = running_forum()
    forum = forum_cm.__enter__()
    ds.serve(forum, "smf21", snaps[-1], snaps)
    ds.setup_store(tmp_path, "smf21", ds.thread_url(forum, "smf21"))
    daemon = RunningDaemon(tmp_path)
    daemon.forum_cm = forum_cm  # type: ignore[attr-defined]
    daemon.wait_for("started: 1 game(s)")
    fifo = tmp_path / "games" / "stuck.json"
    os.mkfifo(fifo)
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    end = time.monotonic() + WAIT
    while not _held_open_for_reading(fifo):
        assert time.monotonic() < end and daemon.proc.poll() is None, daemon.seen
        time.sleep(0.01)  # a look at the pipe, not a guess at the daemon's progress
    return daemon, fifo


def test_a_daemon_stuck_in_a_read_stops_within_2_s(tmp_path) -> None:
    daemon, _ = _stuck_daemon(tmp_path)
    try:
        took = daemon.stop()
    finally:
        daemon.kill()
        daemon.forum_cm.__exit__(None, None, None)  # type: ignore[attr-defined]
    assert daemon.proc.returncode == 0 and took < 2.0, took
    assert daemon.wait_for("work in progress was abandoned")


def test_a_second_signal_stops_the_daemon_at_once(tmp_path, monkeypatch) -> None:
    """The first signal's own deadline is put off (a minute), so only the second signal
    can be what ends the stuck daemon."""
    monkeypatch.setenv("ASSISTANT_STOP_DEADLINE", "60")
    daemon, _ = _stuck_daemon(tmp_path)
    try:
        start = time.monotonic()
        daemon.proc.send_signal(signal.SIGINT)
        daemon.wait_for("stopping (SIGINT)")
        daemon.proc.send_signal(signal.SIGINT)
        daemon.proc.wait(timeout=WAIT)
        took = time.monotonic() - start
    finally:
        daemon.kill()
        daemon.forum_cm.__exit__(None, None, None)  # type: ignore[attr-defined]
    assert daemon.proc.returncode == 1
    assert took < 60, took  # long before the first signal's (put off) deadline
    assert daemon.wait_for("stopping now (SIGINT again)")


# ---- in the process: the log and the reviews, with the test's clock --------------------------


def _daemon(data_dir: Path, clock: FakeClock, **settings: object) -> Daemon:
    return Daemon(
        data_dir, clock,
        lambda: Fetcher(httpx.Client(), FetchSettings(delay=0), sleep=lambda s: None),
        DaemonSettings(**settings),  # type: ignore[arg-type]
        FetchSettings(delay=0),
    )


def test_idle_polls_are_debug_and_a_summary_line_counts_them(tmp_path, caplog) -> None:
    """Before: one INFO line per poll (209 lines in 7 minutes at a 2 s interval) buried the
    alerts. Now a poll with nothing new is at DEBUG; alerts stay at INFO; the summary
    line says what the polls did since the last one."""
    clock = FakeClock(datetime(2026, 11, 22, 11, 10, tzinfo=UTC))
    snaps = ds.snapshots("smf21")
    with running_forum() as forum:
        ds.serve(forum, "smf21", snaps[4], snaps)
        ds.setup_store(tmp_path, "smf21", ds.thread_url(forum, "smf21"))
        daemon = _daemon(tmp_path, clock)
        caplog.set_level(logging.DEBUG, logger="assistant")
        first = daemon.cycle("thread-b")
        for _ in range(3):
            clock.advance(60)
            daemon.cycle("thread-b")
        ds.serve(forum, "smf21", snaps[-1], snaps)
        clock.advance(60)
        last = daemon.cycle("thread-b")
        summary = daemon.log_summary()
    polls = [r for r in caplog.records if r.getMessage().startswith("poll thread-b:")]
    assert [r.levelno for r in polls] == [logging.INFO] + [logging.DEBUG] * 3 + [logging.INFO]
    alerts = [r for r in caplog.records if r.getMessage().startswith("alert thread-b ")]
    assert alerts and all(r.levelno == logging.INFO for r in alerts)
    new = len(first.poll.new) + len(last.poll.new)
    assert len(alerts) == len(first.new_alerts) + len(last.new_alerts)
    line = caplog.records[-1]
    assert line.levelno == logging.INFO and line.getMessage() == (
        f"summary: 5 poll(s) of 1 game(s): {new} new post(s), {summary.changed} changed, "
        f"{len(alerts)} alert(s), 0 failed poll(s), 0 failed review(s)")
    assert new == 46  # thread B whole, counted once
    assert daemon.log_summary().polls == 0  # each line counts from the one before


def test_the_event_loop_reviews_only_when_something_can_have_changed(tmp_path) -> None:
    """Issue 13: each idle poll recounted the day from scratch. In `run`, a poll that
    found nothing, with the game file untouched and no clock event due, is not reviewed;
    new posts, a GM command, a due clock event or `review_every` passing are."""
    clock = FakeClock(datetime(2026, 11, 22, 11, 10, tzinfo=UTC))
    snaps = ds.snapshots("smf21")
    with running_forum() as forum:
        ds.serve(forum, "smf21", snaps[4], snaps)
        ds.setup_store(tmp_path, "smf21", ds.thread_url(forum, "smf21"))
        daemon = _daemon(tmp_path, clock, review_every=600.0)
        reviews: list[datetime] = []
        real = daemon.review_report

        def counted(game_id: str):  # noqa: ANN202
            reviews.append(clock.now())
            return real(game_id)

        daemon.review_report = counted  # type: ignore[method-assign]

        async def idle(n: int) -> None:
            for _ in range(n):
                clock.advance(10)
                await daemon.acycle("thread-b")

        async def cycles() -> list[int]:
            first = await daemon.acycle("thread-b")  # new posts: reviewed
            assert first.poll is not None and first.poll.new and reviews
            await idle(1)  # the review stored alerts: the file changed, so once more
            seen = [len(reviews)]
            await idle(3)  # nothing new, the file as reviewed, nothing due: not reviewed
            seen.append(len(reviews))
            with GameStore.open(tmp_path, "thread-b", create=False) as store:  # a GM command
                store.add_input("note", {"text": "a GM's note"}, clock.now())
            await idle(3)
            seen.append(len(reviews))
            ds.serve(forum, "smf21", snaps[5], snaps)  # five more posts
            await idle(1)
            seen.append(len(reviews))
            await idle(1)  # settled
            settled = len(reviews)
            nxt = daemon._next_events["thread-b"]
            assert nxt is not None and nxt > clock.now()
            clock.set(nxt + timedelta(seconds=1))  # the next clock event is due
            report = await daemon.acycle("thread-b")
            seen.append(len(reviews) - settled)
            assert report.handled  # and was handled
            await idle(2)  # settled
            settled = len(reviews)
            clock.advance(601)  # review_every passed
            await idle(1)
            seen.append(len(reviews) - settled)
            return [n - seen[0] for n in seen[:4]] + seen[4:]

        steps = asyncio.run(cycles())
    assert steps[:3] == [0, 0, 1]  # idle: none; the GM's note: one
    assert steps[3] in (2, 3)  # new posts (and once more if their alerts were stored)
    assert steps[4:] == [1, 1]  # a clock event due; review_every passed


def _thirty_at_once(tmp_path: Path, held: int, **settings: object) -> tuple[int, list]:
    """Thirty games on one forum cycled in the same moment: the most requests the forum saw
    in flight, and the cycles' reports. The forum holds every request until `held` are
    waiting at once, so the figure does not depend on how slowly this machine runs."""
    clock = FakeClock(datetime(2026, 11, 24, tzinfo=UTC))
    with many_games_forum() as forum:
        games = make_games(tmp_path, forum.base_url, 30)
        daemon = _daemon(tmp_path, clock, **settings)

        async def all_at_once() -> list:
            return await asyncio.gather(*(daemon.acycle(g) for g in games))

        forum.hold.set()
        releaser = threading.Thread(target=lambda: (
            forum.wait_until(lambda f: f.in_flight >= held, f"{held} requests in flight"),
            forum.release.set()))
        releaser.start()
        reports = asyncio.run(all_at_once())
        releaser.join()
        return forum.most_in_flight, reports


def test_a_forum_is_asked_a_few_pages_at_a_time_by_the_event_loop(tmp_path) -> None:
    """Thirty games on one forum, first polled in the same moment: never more than
    `per_forum` requests in flight, and every thread read whole."""
    most, reports = _thirty_at_once(tmp_path, 3, per_forum=3)
    assert most == 3
    assert [len(r.poll.new) for r in reports] == [66] * 30


def test_games_due_at_one_moment_are_cycled_a_few_at_a_time(tmp_path) -> None:
    """Thirty games due at once (a tally slot they share), on a forum that would take all
    their requests: no more than `cycles_at_once` cycles ask it anything at a time, so no
    more pages are held waiting for the workers to parse them; every thread is read."""
    most, reports = _thirty_at_once(tmp_path, 4, per_forum=30, cycles_at_once=4)
    assert most == 4
    assert [len(r.poll.new) for r in reports] == [66] * 30


def test_run_documents_its_log_options() -> None:
    out = subprocess.run([sys.executable, "-m", "assistant", "run", "--help"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    assert "--verbose" in out and "--summary-every" in out


@respx.mock
def test_the_event_loop_logs_in_and_reads_a_members_only_thread(tmp_path, monkeypatch) -> None:
    """A members-only board (`fetch --login`) in `run`: the login form is sent once by the
    game's plain client, and its session cookie carries the async polls; without the
    cookie the board shows its login form instead of the thread."""
    from test_fetch import PHPBB_LOGIN, PHPBB_MEMBER

    base = "https://forum.example.org"
    pages = [p.read_bytes() for p in thread_files("phpbb")]
    respx.get(f"{base}/ucp.php?mode=login").mock(
        return_value=httpx.Response(200, text=PHPBB_LOGIN.format(error="")))
    login = respx.post(f"{base}/ucp.php?mode=login").mock(return_value=httpx.Response(
        200, text=PHPBB_MEMBER, headers={"Set-Cookie": "phpbb3_sid=s3ss10n; path=/"}))

    def topic(request: httpx.Request) -> httpx.Response:
        if "phpbb3_sid=s3ss10n" not in request.headers.get("cookie", ""):
            return httpx.Response(200, text=PHPBB_LOGIN.format(error=""))
        page = pages[int(request.url.params.get("start", 0)) // 15]
        return httpx.Response(200, content=page, headers={"Content-Type": "text/html"})

    respx.get(url__regex=r".*/viewtopic\.php.*").mock(side_effect=topic)
    with GameStore.open(tmp_path, "g") as store:
        store.update_config(thread_url=f"{base}/viewtopic.php?t=2", ruleset="mafiascum",
                            tz="UTC", gms=["Host"],
                            login={"user": "Conia", "password_env": "FORUM_PW"})
        store.add_input("players", {"players": [[p] for p in PLAYERS]},
                        datetime(2026, 11, 21, tzinfo=UTC))
    monkeypatch.setenv("FORUM_PW", "s3cret")
    daemon = _daemon(tmp_path, FakeClock(datetime(2026, 11, 24, tzinfo=UTC)))

    async def two_polls() -> list:
        return [await daemon.acycle("g"), await daemon.acycle("g")]

    first, second = asyncio.run(two_polls())
    assert first.poll_error is None and len(first.poll.new) == 66
    assert second.poll_error is None and second.poll.requests == 1
    assert login.call_count == 1
    assert dict(parse_qsl(login.calls[0].request.content.decode()))["password"] == "s3cret"
