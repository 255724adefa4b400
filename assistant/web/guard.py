"""Who may reach the dashboard, and which requests may change a game.

The page acts for the GM (it acknowledges alerts, stores orders and votes), so:

- Without a token it answers only requests addressed to loopback: an IP literal in
  127.0.0.0/8, `[::1]` or `localhost`, never a name that merely starts with "127."
  (`127.0.0.1.rebind.example` is anyone's name): a web page elsewhere cannot reach it
  through DNS rebinding.
- Bound to another address it needs the token the GM set (`ASSISTANT_WEB_TOKEN`, at
  least 16 characters): given once as `?token=...`, then kept in a same-site cookie as
  the token's digest (any character of the token survives a cookie that way). A wrong
  token, whatever its characters, is a 401.
- A request that changes something (POST) must come from the dashboard's own page: a
  cross-site `Origin` or `Sec-Fetch-Site` is refused, and the form must carry the
  page's anti-forgery value, which another site cannot read.
- Every answer forbids framing and inline scripts (Content-Security-Policy), so text a
  player wrote can never run as script even if it slipped through escaping.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qsl, unquote, urlencode

from assistant.errors import ConfigError

MIN_TOKEN_LENGTH = 16
TOKEN_COOKIE = "assistant_token"
CSRF_FIELD = "csrf"
SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
     b"connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"cache-control", b"no-store"),
]


def is_loopback(host: str) -> bool:
    """Whether HOST (a bare host, `[::1]` bracketed or not) names this machine for sure:
    `localhost` or an IP literal of a loopback network. A name is never read by its
    prefix: DNS answers for `127.0.0.1.rebind.example` whatever its owner wants."""
    host = host.strip()
    if host.lower() == "localhost":
        return True
    bracketed = host.startswith("[") and host.endswith("]")
    try:
        address = ipaddress.ip_address(host[1:-1] if bracketed else host)
    except ValueError:
        return False
    return address.is_loopback and (address.version == 6 or not bracketed)


def host_of(host_header: str) -> str:
    """The host of a Host header without its port: `[::1]:8765` -> `[::1]`."""
    if host_header.startswith("["):
        return host_header.split("]", 1)[0] + "]"
    return host_header.rpartition(":")[0] if ":" in host_header else host_header


def check_token(token: str) -> None:
    """Refuse at start-up a token a guesser could find (one line, what to do)."""
    if len(token) < MIN_TOKEN_LENGTH:
        raise ConfigError(
            f"ASSISTANT_WEB_TOKEN is {len(token)} characters: it guards the GM's dashboard, "
            f"so give one of at least {MIN_TOKEN_LENGTH}, e.g. the output of "
            "`python3 -c 'import secrets; print(secrets.token_urlsafe(24))'`"
        )


def _digest(text: str) -> bytes:
    """Bytes to compare in constant time, whatever the characters (hmac.compare_digest
    refuses a str that is not ASCII)."""
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).digest()


@dataclass
class Guard:
    """The dashboard's access rules; `token` None means loopback only."""

    token: str | None = None
    secret: bytes = field(default_factory=lambda: secrets.token_bytes(32))

    def __post_init__(self) -> None:
        if self.token is not None:
            check_token(self.token)

    def token_ok(self, value: str | None) -> bool:
        """Whether VALUE is the GM's token (False for any other text, never an error)."""
        return (value is not None and self.token is not None
                and hmac.compare_digest(_digest(value), _digest(self.token)))

    @property
    def cookie_value(self) -> str:
        """What the sign-in cookie holds: the token's digest, never the token (ASCII, so
        a token with spaces or accents survives the cookie)."""
        return hashlib.sha256(b"cookie:" + _digest(self.token or "")).hexdigest()

    def cookie_ok(self, value: str | None) -> bool:
        return (value is not None and self.token is not None
                and hmac.compare_digest(_digest(value), _digest(self.cookie_value)))

    @property
    def csrf(self) -> str:
        """The anti-forgery value every form carries (one per server run)."""
        return hmac.new(self.secret, b"csrf", hashlib.sha256).hexdigest()

    def csrf_ok(self, value: Any) -> bool:
        return isinstance(value, str) and hmac.compare_digest(value, self.csrf)


class GuardMiddleware:
    """ASGI middleware applying a `Guard` to every HTTP request."""

    def __init__(self, app: Any, guard: Guard) -> None:
        self.app = app
        self.guard = guard

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", [])}
        refusal = self.refusal(scope, headers)
        if refusal is not None:
            await _reply(send, *refusal)
            return

        async def send_with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = list(message["headers"]) + SECURITY_HEADERS
            await send(message)

        await self.app(scope, receive, send_with_headers)

    def refusal(
        self, scope: dict[str, Any], headers: dict[str, str]
    ) -> tuple[int, str, list[tuple[bytes, bytes]]] | None:
        """Why a request is refused (status, one line, extra headers), or None."""
        host_header = headers.get("host", "")
        token = self.guard.token
        if token is None and not is_loopback(host_of(host_header)):
            return 403, (f"this dashboard answers only on 127.0.0.1, not {host_header!r}; "
                         "to reach it from elsewhere start it with ASSISTANT_WEB_TOKEN set"), []
        if token is not None:
            raw_query = scope.get("query_string", b"").decode("latin-1")
            given = _query_token(raw_query)
            if self.guard.token_ok(given):
                rest = [(k, v) for k, v in parse_qsl(raw_query) if k != "token"]
                where = scope.get("path", "/") + (f"?{urlencode(rest)}" if rest else "")
                return 303, "signed in", [
                    (b"location", where.encode("utf-8")),
                    (b"set-cookie", f"{TOKEN_COOKIE}={self.guard.cookie_value}; HttpOnly; "
                                    "SameSite=Strict; Path=/".encode("ascii")),
                ]
            cookie = SimpleCookie(headers.get("cookie", "")).get(TOKEN_COOKIE)
            if not self.guard.cookie_ok(None if cookie is None else cookie.value):
                return 401, ("this dashboard needs the token you set in ASSISTANT_WEB_TOKEN: "
                             "open it once as /?token=YOUR_TOKEN"), []
        if scope.get("method", "GET") not in ("GET", "HEAD"):
            site = headers.get("sec-fetch-site")
            if site is not None and site not in ("same-origin", "none"):
                return 403, f"refused a {site} request: act from the dashboard's own page", []
            origin = headers.get("origin")
            own = f"{scope.get('scheme', 'http')}://{host_header}"
            if origin is not None and origin != own:
                return 403, (f"refused a request from {origin!r}: act from the dashboard's "
                             "own page"), []
        return None


def _query_token(raw_query: str) -> str | None:
    """The `token` of a query string as typed: percent-escapes decoded as UTF-8, a `+`
    kept (a token of base64 holds some; parse_qsl would make them spaces)."""
    for part in raw_query.split("&"):
        key, sep, value = part.partition("=")
        if sep and unquote(key) == "token":
            return unquote(value, errors="surrogateescape")
    return None


async def _reply(send: Any, status: int, text: str, extra: list[tuple[bytes, bytes]]) -> None:
    body = (text + "\n").encode("utf-8")
    await send({
        "type": "http.response.start",
        "status": status,
        "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                    (b"content-length", str(len(body)).encode()), *extra, *SECURITY_HEADERS],
    })
    await send({"type": "http.response.body", "body": body})
