"""Fetching forum pages politely: one `Fetcher` over an injected `httpx.Client`.

Polite means: a User-Agent that names the assistant, a pause between requests, retries
with exponential backoff only where retrying helps (connection errors, 5xx, 429, with
the forum's own Retry-After honoured up to a cap). The client is injected so tests drive
the whole thing through respx or a server on 127.0.0.1; the sleep and the clock are
injected so tests never wait. httpx errors become `FetchError` here and nowhere else.

Guarded means: every request, retries included, ends by an overall deadline, not only a
per-read timeout (a forum answering one byte a second is given up); a page is read as a
stream and refused once its decoded size passes a cap (a gzip bomb, a 50 MB page); and
`cancel()` (the daemon stopping) ends a request within a fraction of a second. The
deadline and the cancel reach inside httpx through a network backend of our own
(`guarded_client`), so they also cut a forum that drips its headers.
"""

from __future__ import annotations

import contextvars
import ssl
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any

import httpcore
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
    deadline: float = 60.0
    """Seconds one attempt may take in all: connecting, the headers, the whole page. (The
    waits between attempts are `backoff` and `max_retry_after`, each capped.)"""
    max_page_bytes: int = 8 * 1024 * 1024
    """A page larger than this once decoded is refused (a real topic page is under 2 MB)."""


class _Guard:
    """The deadline and the cancel event of the request running in this thread."""

    def __init__(self, deadline: float, cancel: threading.Event) -> None:
        self.deadline = deadline
        self.cancel = cancel

    def remaining(self) -> float:
        return self.deadline - time.monotonic()


_GUARD: contextvars.ContextVar[_Guard | None] = contextvars.ContextVar("guard", default=None)
_SLICE = 0.25
"""Seconds a socket waits at a time, so a cancel is seen that soon."""


class _GuardedStream(httpcore.NetworkStream):
    """A socket stream that never waits past the request's deadline or a cancel."""

    def __init__(self, inner: httpcore.NetworkStream) -> None:
        self.inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        guard = _GUARD.get()
        if guard is None:
            return self.inner.read(max_bytes, timeout)
        waited = 0.0
        while True:
            left = guard.remaining()
            if guard.cancel.is_set():
                raise httpcore.ReadError("cancelled: the assistant is stopping")
            if left <= 0:
                raise httpcore.ReadTimeout("the request's overall deadline passed")
            step = min(_SLICE, left, (timeout - waited) if timeout is not None else _SLICE)
            try:
                return self.inner.read(max_bytes, step)
            except httpcore.ReadTimeout:
                waited += step
                if timeout is not None and waited >= timeout:
                    raise

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        guard = _GUARD.get()
        if guard is not None:
            timeout = _bounded(timeout, guard)
        self.inner.write(buffer, timeout)

    def close(self) -> None:
        self.inner.close()

    def start_tls(self, ssl_context: Any, server_hostname: str | None = None,
                  timeout: float | None = None) -> httpcore.NetworkStream:
        guard = _GUARD.get()
        if guard is not None:
            timeout = _bounded(timeout, guard)
        return _GuardedStream(self.inner.start_tls(ssl_context, server_hostname, timeout))

    def get_extra_info(self, info: str) -> Any:
        return self.inner.get_extra_info(info)


class _GuardedBackend(httpcore.NetworkBackend):
    """httpcore's own socket backend, with every wait bounded by the request's guard."""

    def __init__(self) -> None:
        self.inner = httpcore.SyncBackend()

    def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                    local_address: str | None = None,
                    socket_options: Iterable[Any] | None = None) -> httpcore.NetworkStream:
        guard = _GUARD.get()
        if guard is not None:
            timeout = _bounded(timeout, guard)
        return _GuardedStream(self.inner.connect_tcp(host, port, timeout, local_address,
                                                     socket_options))

    def connect_unix_socket(self, path: str, timeout: float | None = None,
                            socket_options: Iterable[Any] | None = None) -> httpcore.NetworkStream:
        return _GuardedStream(self.inner.connect_unix_socket(path, timeout, socket_options))

    def sleep(self, seconds: float) -> None:
        self.inner.sleep(seconds)


def _bounded(timeout: float | None, guard: _Guard) -> float:
    left = guard.remaining()
    if guard.cancel.is_set():
        raise httpcore.ConnectError("cancelled: the assistant is stopping")
    if left <= 0:
        raise httpcore.ConnectTimeout("the request's overall deadline passed")
    return left if timeout is None else min(timeout, left)


_SSL_CONTEXT: ssl.SSLContext | None = None


def ssl_context() -> ssl.SSLContext:
    """One TLS context (certifi's CAs, as httpx builds by default) for every client: each
    context holds its own copy of the CA list, about 0.8 MB, so a client per game of a
    200-game daemon cost 160 MB of RSS for 200 copies of the same certificates."""
    global _SSL_CONTEXT
    if _SSL_CONTEXT is None:
        import certifi

        _SSL_CONTEXT = ssl.create_default_context(cafile=certifi.where())
    return _SSL_CONTEXT


def guarded_client() -> httpx.Client:
    """An httpx client whose sockets keep the Fetcher's deadline and cancel (see above)."""
    transport = httpx.HTTPTransport(verify=ssl_context())
    pool = transport._pool  # httpx builds it; we only swap the network backend under it
    pool._network_backend = _GuardedBackend()
    return httpx.Client(transport=transport)


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
        sleep: Callable[[float], None] | None = None,
        monotonic: Callable[[], float] = time.monotonic,
        clock: Clock | None = None,
    ) -> None:
        self.settings = settings or FetchSettings()
        self.client = client if client is not None else guarded_client()
        self.client.headers["User-Agent"] = self.settings.user_agent
        self.client.timeout = httpx.Timeout(self.settings.timeout)
        self.cancelled = threading.Event()
        """Set by `cancel()`: the request in flight ends, and every later one fails."""
        self.sleep = sleep if sleep is not None else self._wait
        self.monotonic = monotonic
        self.clock = clock or SystemClock()
        self.requests = 0
        """HTTP requests sent, retries included."""
        self._last_start: float | None = None

    def close(self) -> None:
        self.client.close()

    def cancel(self) -> None:
        """Stop: the request in flight ends within a fraction of a second (from any thread)."""
        self.cancelled.set()

    def _wait(self, seconds: float) -> None:
        """The default sleep: a pause that a cancel cuts short."""
        self.cancelled.wait(seconds)

    def __enter__(self) -> Fetcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def get(self, url: str) -> Response:
        return self.request("GET", url)

    def post(self, url: str, data: Mapping[str, Any], *, error_pages: bool = False,
             once: bool = False) -> Response:
        """POST a form. `error_pages`: a 4xx answer is returned with its page (a login
        form's refusal is an HTTP 403 page saying why) instead of raising FetchError.
        `once`: never sent again by itself (a post or a PM: a second send could write it
        twice; the caller looks for it first), a 5xx answer included."""
        return self.request("POST", url, error_pages=error_pages, data=dict(data),
                            retries=0 if once else None)

    def request(self, method: str, url: str, *, error_pages: bool = False,
                retries: int | None = None, **kwargs: Any) -> Response:
        """One request, retried on transient failures (up to `retries`, default the
        settings'), each attempt ended by the overall deadline or a cancel; FetchError says
        what went wrong (for a 4xx only without `error_pages`) and whether the request may
        have reached the forum (`reached`)."""
        s = self.settings
        limit = s.retries if retries is None else retries
        attempt = 0
        while True:
            self._pace()
            guard = _Guard(time.monotonic() + s.deadline, self.cancelled)
            self._check(url, guard)
            self.requests += 1
            try:
                with _guarded(guard):
                    r, content = self._send(method, url, guard, error_pages, **kwargs)
            except httpx.HTTPError as e:
                self._check(url, guard)
                if attempt >= limit or not _transient(e):
                    reached = not isinstance(e, (httpx.ConnectError, httpx.ConnectTimeout))
                    raise FetchError(_network_message(url, e, attempt + 1), url,
                                     reached=reached) from None
                wait = self._backoff(attempt)
                self.sleep(wait)
                attempt += 1
                continue
            if r.status_code in RETRY_STATUSES:
                wait = self._retry_after(r) if r.status_code in (429, 503) else None
                wait = wait if wait is not None else self._backoff(attempt)
                if attempt >= limit:
                    raise FetchError(
                        f"{url}: the forum answered HTTP {r.status_code} {r.reason_phrase} "
                        f"{attempt + 1} times; it may be down or overloaded: try again later",
                        url, r.status_code,
                    )
                self.sleep(wait)
                attempt += 1
                continue
            if r.status_code >= 400 and not (error_pages and r.status_code < 500):
                raise FetchError(_status_message(url, r.status_code, r.reason_phrase), url,
                                 r.status_code)
            return Response(strip_session_ids(str(r.url)), r.status_code, content,
                            r.charset_encoding)

    def _send(self, method: str, url: str, guard: _Guard, error_pages: bool,
              **kwargs: Any) -> tuple[httpx.Response, bytes]:
        """The answer and its decoded body, read as a stream: refused past the size cap,
        given up past the deadline (checked between chunks, for any transport)."""
        cap = self.settings.max_page_bytes
        with self.client.stream(method, url, follow_redirects=True, **kwargs) as r:
            wanted = error_pages and 400 <= r.status_code < 500
            if (r.status_code >= 400 and not wanted) or r.status_code in RETRY_STATUSES:
                return r, b""  # an error page's body is not used
            declared = r.headers.get("Content-Length", "")
            if declared.isdigit() and int(declared) > cap and "Content-Encoding" not in r.headers:
                raise FetchError(_too_big(url, cap), url)
            chunks, size = [], 0
            for chunk in r.iter_bytes():
                size += len(chunk)
                if size > cap:
                    raise FetchError(_too_big(url, cap), url)
                chunks.append(chunk)
                self._check(url, guard)
            return r, b"".join(chunks)

    def _check(self, url: str, guard: _Guard) -> None:
        """End the request: the daemon is stopping, or the overall deadline has passed."""
        if guard.cancel.is_set():
            raise FetchError(f"{url}: not read: the assistant is stopping", url)
        if guard.remaining() <= 0:
            raise FetchError(
                f"{url}: the forum did not send the whole page within "
                f"{self.settings.deadline:g} s; it may be overloaded or hostile: try again later",
                url,
            )

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
        return _retry_after(r, self.settings, self.clock)


def _retry_after(r: httpx.Response, settings: FetchSettings, clock: Clock) -> float | None:
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
        seconds = (when - clock.now()).total_seconds()
    return max(0.0, min(seconds, settings.max_retry_after))


class AsyncFetcher:
    """The `Fetcher`'s manners (pace, retries, Retry-After, overall deadline, size cap)
    over an `httpx.AsyncClient`, for the daemon: it waits on many forums at once from one
    thread instead of a thread per game. `limit` is the forum's semaphore, shared by the
    games on it, so a forum hosting many games is asked a few pages at a time. A cancelled
    task ends its request at once (asyncio's own cancel), and the deadline is asyncio's
    timeout around the whole attempt, so a forum that drips its headers is cut too."""

    def __init__(
        self,
        client: httpx.AsyncClient,
        settings: FetchSettings | None = None,
        *,
        limit: Any = None,
        clock: Clock | None = None,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings = settings or FetchSettings()
        self.client = client
        self.client.headers["User-Agent"] = self.settings.user_agent
        self.client.timeout = httpx.Timeout(self.settings.timeout)
        self.limit = limit
        """An `asyncio.Semaphore` held while a request is in flight (None: no limit)."""
        self.clock = clock or SystemClock()
        self.monotonic = monotonic
        self.requests = 0
        """HTTP requests sent, retries included."""
        self._last_start: float | None = None

    async def get(self, url: str) -> Response:
        return await self.request("GET", url)

    async def request(self, method: str, url: str, **kwargs: Any) -> Response:
        """As `Fetcher.request`."""
        import asyncio

        s = self.settings
        attempt = 0
        while True:
            await self._pace()
            self.requests += 1
            try:
                if self.limit is not None:
                    async with self.limit:
                        r, content = await self._attempt(method, url, **kwargs)
                else:
                    r, content = await self._attempt(method, url, **kwargs)
            except TimeoutError:
                raise FetchError(
                    f"{url}: the forum did not send the whole page within {s.deadline:g} s; "
                    "it may be overloaded or hostile: try again later", url,
                ) from None
            except httpx.HTTPError as e:
                if attempt >= s.retries or not _transient(e):
                    raise FetchError(_network_message(url, e, attempt + 1), url) from None
                await asyncio.sleep(min(s.backoff * 2**attempt, s.max_backoff))
                attempt += 1
                continue
            if r.status_code in RETRY_STATUSES:
                wait = _retry_after(r, s, self.clock) if r.status_code in (429, 503) else None
                wait = wait if wait is not None else min(s.backoff * 2**attempt, s.max_backoff)
                if attempt >= s.retries:
                    raise FetchError(
                        f"{url}: the forum answered HTTP {r.status_code} {r.reason_phrase} "
                        f"{attempt + 1} times; it may be down or overloaded: try again later",
                        url, r.status_code,
                    )
                await asyncio.sleep(wait)
                attempt += 1
                continue
            if r.status_code >= 400:
                raise FetchError(_status_message(url, r.status_code, r.reason_phrase), url,
                                 r.status_code)
            return Response(strip_session_ids(str(r.url)), r.status_code, content,
                            r.charset_encoding)

    async def _attempt(self, method: str, url: str,
                       **kwargs: Any) -> tuple[httpx.Response, bytes]:
        """One attempt within the overall deadline, its body read as a stream and refused
        past the size cap."""
        import asyncio

        cap = self.settings.max_page_bytes
        async with asyncio.timeout(self.settings.deadline):
            async with self.client.stream(method, url, follow_redirects=True, **kwargs) as r:
                if r.status_code >= 400 or r.status_code in RETRY_STATUSES:
                    return r, b""
                declared = r.headers.get("Content-Length", "")
                if (declared.isdigit() and int(declared) > cap
                        and "Content-Encoding" not in r.headers):
                    raise FetchError(_too_big(url, cap), url)
                chunks, size = [], 0
                async for chunk in r.aiter_bytes():
                    size += len(chunk)
                    if size > cap:
                        raise FetchError(_too_big(url, cap), url)
                    chunks.append(chunk)
                return r, b"".join(chunks)

    async def _pace(self) -> None:
        """Wait until `delay` seconds have passed since this game's previous request."""
        import asyncio

        now = self.monotonic()
        if self._last_start is not None:
            wait = self.settings.delay - (now - self._last_start)
            if wait > 0:
                await asyncio.sleep(wait)
                now += wait
        self._last_start = now


@contextmanager
def _guarded(guard: _Guard) -> Iterator[None]:
    token = _GUARD.set(guard)
    try:
        yield
    finally:
        _GUARD.reset(token)


def _too_big(url: str, cap: int) -> str:
    return (
        f"{url}: the page is larger than {cap // (1024 * 1024)} MB once decoded (a real topic "
        "page is well under 2 MB); refused, nothing stored: check the address in a browser"
    )


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
        403: "the forum refused access: the topic may have been deleted or moved (SMF answers "
        "a member so), the board may be for members only (pass --login USER --password-env "
        "VARIABLE, as a member who may see it) or the forum blocks automated readers; check "
        "the address in a browser",
        404: "no such page: the topic may have been deleted or moved; check the address",
        410: "the topic was removed",
    }.get(status, "check the address in a browser")
    return f"{url}: the forum answered HTTP {status} {reason}: {advice}"
