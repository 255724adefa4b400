"""Fetching forum pages politely: one `Fetcher` over an injected `httpx.Client`.

Polite means: a User-Agent that names the assistant, a pause between requests, retries
with exponential backoff only where retrying helps (connection errors, 5xx, 429, with
the forum's own Retry-After honoured up to a cap). The client is injected so tests drive
the whole thing through respx or a server on 127.0.0.1; the sleep and the clock are
injected so tests never wait. httpx errors become `FetchError` here and nowhere else.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any

import httpx

from assistant import __version__
from assistant.clock import Clock, SystemClock
from assistant.errors import FetchError
from assistant.scrapers.common import strip_session_ids

USER_AGENT = (
    f"forum-game-assistant/{__version__} (+a Mafia game moderator's helper; "
    "polls one thread every few minutes)"
)
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504, 520, 521, 522, 523, 524})


@dataclass(frozen=True)
class FetchSettings:
    """How hard and how often to ask a forum."""

    user_agent: str = USER_AGENT
    timeout: float = 20.0
    """Seconds for connecting and for each read."""
    retries: int = 4
    """Extra attempts after the first, for connection errors, 5xx and 429."""
    backoff: float = 2.0
    """The first retry waits this long; each next one twice as long."""
    max_backoff: float = 120.0
    max_retry_after: float = 600.0
    """A Retry-After longer than this is cut to it (a forum asking for hours is not waited on)."""
    delay: float = 1.5
    """At least this many seconds between the starts of two requests."""


@dataclass(frozen=True)
class Response:
    """A page as the forum answered it."""

    url: str
    """The final URL (after redirects), session ids stripped."""
    status: int
    content: bytes
    charset: str | None
    """The charset from the Content-Type header, if it gave one."""

    @property
    def text(self) -> str:
        return self.content.decode(self.charset or "utf-8", errors="replace")


class Fetcher:
    """GETs and POSTs with retries and a polite pace; counts its requests (`requests`)."""

    def __init__(
        self,
        client: httpx.Client | None = None,
        settings: FetchSettings | None = None,
        *,
        sleep: Callable[[float], None] = time.sleep,
        monotonic: Callable[[], float] = time.monotonic,
        clock: Clock | None = None,
    ) -> None:
        self.settings = settings or FetchSettings()
        self.client = client if client is not None else httpx.Client()
        self.client.headers["User-Agent"] = self.settings.user_agent
        self.client.timeout = httpx.Timeout(self.settings.timeout)
        self.sleep = sleep
        self.monotonic = monotonic
        self.clock = clock or SystemClock()
        self.requests = 0
        """HTTP requests sent, retries included."""
        self._last_start: float | None = None

    def close(self) -> None:
        self.client.close()

    def __enter__(self) -> Fetcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def get(self, url: str) -> Response:
        return self.request("GET", url)

    def post(self, url: str, data: Mapping[str, str]) -> Response:
        return self.request("POST", url, data=dict(data))

    def request(self, method: str, url: str, **kwargs: Any) -> Response:
        """One request, retried on transient failures; FetchError says what went wrong."""
        s = self.settings
        attempt = 0
        while True:
            self._pace()
            self.requests += 1
            try:
                r = self.client.request(method, url, follow_redirects=True, **kwargs)
            except httpx.HTTPError as e:
                if attempt >= s.retries or not _transient(e):
                    raise FetchError(_network_message(url, e, attempt + 1), url) from None
                self.sleep(self._backoff(attempt))
                attempt += 1
                continue
            if r.status_code in RETRY_STATUSES:
                if attempt >= s.retries:
                    raise FetchError(
                        f"{url}: the forum answered HTTP {r.status_code} {r.reason_phrase} "
                        f"{attempt + 1} times; it may be down or overloaded: try again later",
                        url, r.status_code,
                    )
                wait = self._retry_after(r) if r.status_code in (429, 503) else None
                self.sleep(wait if wait is not None else self._backoff(attempt))
                attempt += 1
                continue
            if r.status_code >= 400:
                raise FetchError(_status_message(url, r.status_code, r.reason_phrase), url,
                                 r.status_code)
            return Response(strip_session_ids(str(r.url)), r.status_code, r.content,
                            r.charset_encoding)

    def _pace(self) -> None:
        """Wait until `delay` seconds have passed since the previous request started."""
        now = self.monotonic()
        if self._last_start is not None:
            wait = self.settings.delay - (now - self._last_start)
            if wait > 0:
                self.sleep(wait)
                now += wait
        self._last_start = now

    def _backoff(self, attempt: int) -> float:
        return min(self.settings.backoff * 2**attempt, self.settings.max_backoff)

    def _retry_after(self, r: httpx.Response) -> float | None:
        """Seconds the forum asked us to wait (a number or an HTTP date), capped."""
        value = r.headers.get("Retry-After", "").strip()
        if not value:
            return None
        if value.isdigit():
            seconds = float(value)
        else:
            try:
                when = parsedate_to_datetime(value)
            except (TypeError, ValueError):
                return None
            if when.tzinfo is None:
                return None
            seconds = (when - self.clock.now()).total_seconds()
        return max(0.0, min(seconds, self.settings.max_retry_after))


def _transient(e: httpx.HTTPError) -> bool:
    return isinstance(e, httpx.TransportError) and not isinstance(e, httpx.UnsupportedProtocol)


def _network_message(url: str, e: httpx.HTTPError, attempts: int) -> str:
    if isinstance(e, httpx.UnsupportedProtocol):
        return f"{url}: not an http(s) address; copy the thread's address from the browser"
    if isinstance(e, httpx.TimeoutException):
        what = "did not answer in time"
    elif isinstance(e, httpx.ConnectError):
        what = "could not be reached (connection refused or no such host)"
    else:
        what = f"failed ({type(e).__name__}: {e})"
    return (
        f"{url}: the forum {what} after {attempts} attempt(s); check the address and your "
        "network, or try again later"
    )


def _status_message(url: str, status: int, reason: str) -> str:
    advice = {
        401: "the board wants a login: pass --login USER --password-env VARIABLE",
        403: "the forum refused access: the board may be for members only (pass --login USER "
        "--password-env VARIABLE) or it blocks automated readers",
        404: "no such page: the topic may have been deleted or moved; check the address",
        410: "the topic was removed",
    }.get(status, "check the address in a browser")
    return f"{url}: the forum answered HTTP {status} {reason}: {advice}"
