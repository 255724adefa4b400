"""Who may reach the dashboard, and which requests may change a game.

The page acts for the GM (it acknowledges alerts, stores orders and votes), so:

- Without a token it answers only requests addressed to a loopback name (127.0.0.1,
  localhost, [::1]): a web page elsewhere cannot reach it through DNS rebinding.
- Bound to another address it needs the token the GM set (`ASSISTANT_WEB_TOKEN`): given
  once as `?token=...`, then kept in a same-site cookie.
- A request that changes something (POST) must come from the dashboard's own page: a
  cross-site `Origin` or `Sec-Fetch-Site` is refused, and the form must carry the
  page's anti-forgery value, which another site cannot read.
- Every answer forbids framing and inline scripts (Content-Security-Policy), so text a
  player wrote can never run as script even if it slipped through escaping.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qsl, urlencode

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1", "[::1]")
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
    return host in LOOPBACK_NAMES or host.startswith("127.")


@dataclass
class Guard:
    """The dashboard's access rules; `token` None means loopback only."""

    token: str | None = None
    secret: bytes = field(default_factory=lambda: secrets.token_bytes(32))

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
        host = host_header.rsplit(":", 1)[0] if not host_header.endswith("]") else host_header
        token = self.guard.token
        if token is None and not is_loopback(host):
            return 403, (f"this dashboard answers only on 127.0.0.1, not {host_header!r}; "
                         "to reach it from elsewhere start it with ASSISTANT_WEB_TOKEN set"), []
        if token is not None:
            query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
            cookies = SimpleCookie(headers.get("cookie", ""))
            cookie = cookies.get(TOKEN_COOKIE)
            if query.get("token") is not None and hmac.compare_digest(query["token"], token):
                rest = {k: v for k, v in query.items() if k != "token"}
                where = scope.get("path", "/") + (f"?{urlencode(rest)}" if rest else "")
                return 303, "signed in", [
                    (b"location", where.encode("latin-1")),
                    (b"set-cookie", f"{TOKEN_COOKIE}={token}; HttpOnly; SameSite=Strict; "
                                    "Path=/".encode("latin-1")),
                ]
            if cookie is None or not hmac.compare_digest(cookie.value, token):
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


async def _reply(send: Any, status: int, text: str, extra: list[tuple[bytes, bytes]]) -> None:
    body = (text + "\n").encode("utf-8")
    await send({
        "type": "http.response.start",
        "status": status,
        "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                    (b"content-length", str(len(body)).encode()), *extra, *SECURITY_HEADERS],
    })
    await send({"type": "http.response.body", "body": body})
