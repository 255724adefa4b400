"""Hostile or broken servers (issue 14): a forum that drips its page, a gzip bomb, a 50 MB
page. Each request has an overall deadline and a size cap: one line, nothing stored, one
request (no retry of a refusal), and a cancel ends a request in flight at once. Served by
a forum of our own on 127.0.0.1; the deadlines are short so the tests are, and the time
bounds asserted are loose (ten times the deadline) so a busy machine passes too."""

from __future__ import annotations

import threading
import time

import pytest
from hostile_server import elapsed, hostile_forum

from assistant.errors import FetchError
from assistant.scrapers.http import Fetcher, FetchSettings


def fetcher(**settings) -> Fetcher:
    return Fetcher(settings=FetchSettings(delay=0, retries=0, **settings))


@pytest.mark.parametrize("path", ["/drip-body", "/drip-headers"])
def test_a_forum_dripping_a_byte_at_a_time_is_given_up_at_the_deadline(path) -> None:
    """It was still being read at 900 s: each read came within the read timeout."""
    with hostile_forum() as forum, fetcher(deadline=1.0, timeout=20.0) as f:
        start = time.monotonic()
        with pytest.raises(FetchError) as err:
            f.get(forum.base_url + path)
        took = elapsed(start)
    assert took < 10.0, took
    assert "did not send the whole page within 1 s" in str(err.value)
    assert forum.requests == [path]


def test_a_request_past_its_deadline_is_not_retried() -> None:
    """Retrying a forum that drips would multiply the wait by the retries: one attempt."""
    sleeps: list[float] = []
    with hostile_forum() as forum:
        f = Fetcher(settings=FetchSettings(delay=0, retries=2, deadline=0.5, backoff=0.01),
                    sleep=sleeps.append)
        with pytest.raises(FetchError), f:
            f.get(forum.base_url + "/drip-body")
    assert forum.requests == ["/drip-body"] and sleeps == []


@pytest.mark.parametrize(
    "path",
    ["/bomb", "/big", "/big-chunked"],
)
def test_a_page_past_the_size_cap_is_refused_in_one_line(path) -> None:
    """A gzip bomb took 177 s and 2.17 GB; a 50 MB page was stored (21 MB game file)."""
    with hostile_forum() as forum, fetcher() as f:
        with pytest.raises(FetchError) as err:
            f.get(forum.base_url + path)
    message = str(err.value)
    assert "larger than 8 MB once decoded" in message and "refused" in message
    assert "\n" not in message
    assert forum.requests == [path]  # refused, not retried


def test_cancel_ends_a_request_in_flight_at_once() -> None:
    """The daemon's SIGTERM: a poll reading a dripping forum (deadline a minute away)
    stops within a fraction of a second of the cancel."""
    errors: list[Exception] = []
    with hostile_forum() as forum, fetcher(deadline=60.0) as f:
        def read() -> None:
            try:
                f.get(forum.base_url + "/drip-body")
            except FetchError as e:
                errors.append(e)

        worker = threading.Thread(target=read)
        worker.start()
        while not forum.requests:  # the request has reached the forum
            time.sleep(0.01)
        start = time.monotonic()
        f.cancel()
        worker.join(timeout=10)
        assert not worker.is_alive()
        assert elapsed(start) < 5.0
    assert len(errors) == 1 and "the assistant is stopping" in str(errors[0])
