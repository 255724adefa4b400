"""The process around the event loop: the threads the reviews run on, how long a stopping
daemon waits for them, and leaving at once."""

from __future__ import annotations

import concurrent.futures
import gc
import logging
import os
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

from assistant.store import paused_gc


class Workers(concurrent.futures.Executor):
    """The threads the reviews run on (counting, checks and drafts are CPU work that would
    hold up every other game's poll on the event loop). Daemon threads: stopping never
    waits for a review past `STOP_GRACE`."""

    def __init__(self, threads: int) -> None:
        self._first: deque[Any] = deque()
        self._jobs: deque[Any] = deque()
        self._ready = threading.Condition(threading.Lock())
        for n in range(threads):
            threading.Thread(target=self._work, name=f"review-{n}", daemon=True).start()

    def submit(self, fn: Callable[..., Any], /, *args: Any,
               **kwargs: Any) -> concurrent.futures.Future[Any]:
        return self._put(self._jobs, fn, args, kwargs)

    def submit_first(self, fn: Callable[..., Any], /,
                     *args: Any) -> concurrent.futures.Future[Any]:
        """As `submit`, ahead of the jobs waiting: the end of a cycle whose poll is done
        (its review), which holds the game's posts as read until it runs (post_log.pinned).
        In turn with the polls' steps, 200 games' cycles due at one moment (a tally slot
        they share) held some 45 games' posts at once, each waiting for its review behind
        the others' polls (80 MB)."""
        return self._put(self._first, fn, args, {})

    def _put(self, jobs: deque[Any], fn: Callable[..., Any], args: tuple[Any, ...],
             kwargs: dict[str, Any]) -> concurrent.futures.Future[Any]:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        with self._ready:
            jobs.append((future, fn, args, kwargs))
            self._ready.notify()
        return future

    def _take(self) -> Any:
        with self._ready:
            while not (self._first or self._jobs):
                self._ready.wait()
            return (self._first or self._jobs).popleft()

    def _work(self) -> None:
        while True:
            future, fn, args, kwargs = self._take()
            if not future.set_running_or_notify_cancel():
                continue
            try:
                # The collector waits for the end of the job: a review builds a game's posts
                # and counts (tens of thousands of objects), and a collection in the middle
                # walked them all to find them alive, a full one every game's few reviews (a
                # fifth of a 200-game daemon's CPU); at the end they are freed already, and
                # the collection that follows walks only what outlived the job.
                with paused_gc():
                    result = fn(*args, **kwargs)
                future.set_result(result)
            except BaseException as e:  # noqa: BLE001 - handed to the awaiting task
                future.set_exception(e)


YOUNG_OBJECTS = 50_000
"""Objects made and not yet freed from which the daemon's collector looks for garbage
(Python's default: 700). A cycle holds a game's posts from its poll to the end of its
review (post_log.pinned): at 700 each of its jobs ended in a collection that walked them
all to find them alive, and every tenth in one that walked them again; they are freed
when the review ends, so at 50,000 few collections come at all, and the garbage that
needs one (objects pointing at each other) waits for at most that many objects."""


def settle_heap() -> None:
    """What the daemon built to start (modules, the games' jobs, the forums' clients) is
    left out of every later collection (`gc.freeze`): it lives as long as the process,
    and each full collection walked it all again (7 of a 300-post game's 33 ms per cycle,
    with what the reviews leave in between). Later collections wait for `YOUNG_OBJECTS`."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_OBJECTS, *gc.get_threshold()[1:])


REVIEW_THREADS = 2
"""Worker threads for the CPU and disk work of polls and reviews (parsing, counting,
writing): more would only share the one core, each holding a review's posts at the peak
(200 growing games: 93 MB with three, 88 with one); two, so that a game file whose lock a
stuck command holds does not hold up the other games."""
STOP_GRACE = 0.5
"""Seconds a stopping daemon gives the reviews in progress (the polls end at once)."""


def exit_now(code: int) -> None:
    """Leave now: the log is flushed, the rest (threads in a review, a write in progress:
    an atomic replace) is left as a kill would."""
    for handler in logging.getLogger("assistant").handlers:
        handler.flush()
    os._exit(code)
