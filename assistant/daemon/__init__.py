"""The daemon: polls every configured game, keeps its clock, raises alerts, drafts posts.

One `tick(game)` is the whole cycle: poll the thread, look at the game as of now
(`monitor.load_view`), store the new alerts and rewrite the Atom feed, then handle every
clock event that is due and not yet handled: interval tallies (002: every 5 minutes),
deadline warnings, and at the deadline the final count, locked and drafted with its
outcome, then (once the game has a setup, `assistant roles`) the dusk post: the lynch,
its reveal and a win, from `engine.dusk.draft_dusk`. Events are keyed by phase and
kind and marked handled in the store's "daemon" table, so a restart neither repeats nor
loses one: a deadline missed while the daemon was down is handled once when it starts
again (interval tallies missed then are not drafted late, except the latest). Where the
GM turned it on (`game rules GAME --auto-post tallies`), the interval tallies and a tally
for a player who asks are also posted, through the GM's outbox (`autopost.py`).

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

The package in layers (pyproject.toml): `run.py` (`run_forever`: signals, the stop
deadline) over `core.py` (`Daemon`: polls, cycles, scheduling) over `reports.py` (what a
cycle did) over `review.py` (one game's review: alerts, feed, clock events and their
drafts), `autopost.py` (what it posts on its own), `process.py` (the review threads,
leaving at once) and `logs.py` (the log lines).
"""

from assistant.daemon.core import Daemon, DaemonSettings
from assistant.daemon.logs import ClockFormatter, setup_logging
from assistant.daemon.reports import CycleReport, PollStats
from assistant.daemon.review import MARKERS, ClockEvent, HandledEvent, Review, clock_events
from assistant.daemon.run import only_daemon, run_forever

__all__ = [
    "MARKERS",
    "ClockEvent",
    "ClockFormatter",
    "CycleReport",
    "Daemon",
    "DaemonSettings",
    "HandledEvent",
    "PollStats",
    "Review",
    "clock_events",
    "only_daemon",
    "run_forever",
    "setup_logging",
]
