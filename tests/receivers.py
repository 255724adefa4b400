"""Receivers on 127.0.0.1 for the notification tests: an SMTP server (aiosmtpd) and an
HTTP endpoint for Apprise's `json://`. Each keeps what arrived in an `Inbox`, which a
test waits on for a number of messages (a condition, not a sleep). The HTTP endpoint can
refuse its first requests (HTTP 500), as a service that is down does, and both can ask
for a secret (a password, a token in the path) to check the assistant sent the real one.
"""

from __future__ import annotations

import json
import logging
import socket
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email import message_from_bytes
from email.header import decode_header, make_header
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from forum_server import serve_loopback

# A test SMTP server asks for a login over plain SMTP on 127.0.0.1: aiosmtpd's warning
# about that (a line per connection) says nothing here.
warnings.filterwarnings("ignore", message="Requiring AUTH while not requiring TLS")
logging.getLogger("mail.log").setLevel(logging.ERROR)


@dataclass
class Inbox:
    """What a receiver accepted, in order; `wait_for` blocks until there are enough."""

    messages: list[dict[str, Any]] = field(default_factory=list)
    refused: int = 0
    """Requests answered with an error (the service down, a wrong secret)."""
    _cond: threading.Condition = field(default_factory=threading.Condition)

    def add(self, message: dict[str, Any]) -> None:
        with self._cond:
            self.messages.append(message)
            self._cond.notify_all()

    def refuse(self) -> None:
        with self._cond:
            self.refused += 1
            self._cond.notify_all()

    def wait_for(self, count: int, timeout: float = 60.0) -> list[dict[str, Any]]:
        with self._cond:
            if not self._cond.wait_for(lambda: len(self.messages) >= count, timeout):
                raise AssertionError(f"{len(self.messages)} message(s) arrived, not {count}: "
                                     f"{self.messages}")
            return list(self.messages)

    def titles(self) -> list[str]:
        return [m["title"] for m in self.messages]


@dataclass
class JsonReceiver:
    base_url: str
    inbox: Inbox
    fail_next: list[int]
    """How many of the next requests to refuse with HTTP 500 (a one-item list, settable)."""

    def url(self, path: str = "hook", *, auth: str = "") -> str:
        """The Apprise URL of this endpoint: `json://[auth@]127.0.0.1:PORT/path`."""
        host = self.base_url.removeprefix("http://")
        return f"json://{auth + '@' if auth else ''}{host}/{path}"


@contextmanager
def json_receiver(*, fail_first: int = 0, path: str | None = None,
                  basic_auth: str | None = None) -> Iterator[JsonReceiver]:
    """Accepts Apprise's JSON posts (`{"title", "message", "type"}`) at any path, or only
    at `path` (a token in the URL) and with `basic_auth` ("user:password") when given."""
    inbox = Inbox()
    fail = [fail_first]

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's naming
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            wrong_path = path is not None and self.path.split("?")[0] != f"/{path}"
            wrong_auth = basic_auth is not None and self._auth() != basic_auth
            if fail[0] > 0 or wrong_path or wrong_auth:
                fail[0] = max(0, fail[0] - 1) if not (wrong_path or wrong_auth) else fail[0]
                inbox.refuse()
                self._reply(500 if not (wrong_path or wrong_auth) else 403)
                return
            data = json.loads(body)
            inbox.add({"title": data.get("title", ""), "body": data.get("message", ""),
                       "type": data.get("type"), "path": self.path})
            self._reply(200)

        def _auth(self) -> str | None:
            import base64

            header = self.headers.get("Authorization") or ""
            if not header.startswith("Basic "):
                return None
            return base64.b64decode(header[6:]).decode("utf-8")

        def _reply(self, status: int) -> None:
            self.send_response(status)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"{}")

        def log_message(self, *args: object) -> None:
            pass

    with serve_loopback(ThreadingHTTPServer(("127.0.0.1", 0), Handler)) as url:
        yield JsonReceiver(url, inbox, fail)


@dataclass
class SmtpReceiver:
    port: int
    inbox: Inbox
    logins: list[tuple[str, str]]
    """(user, password) of every login tried."""

    def url(self, to: str = "gm@example.org", *, login: str = "") -> str:
        """An Apprise `mailto://` URL sending through this server (plain SMTP)."""
        auth = f"{login}@" if login else ""
        return (f"mailto://{auth}127.0.0.1:{self.port}?from=assistant@example.org"
                f"&to={to}")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def smtp_receiver(*, user: str | None = None, password: str | None = None
                  ) -> Iterator[SmtpReceiver]:
    """An SMTP server on 127.0.0.1 keeping every message (subject and text); with a
    `password`, it requires a login with it (over plain SMTP: a test server)."""
    from aiosmtpd.controller import Controller
    from aiosmtpd.smtp import AuthResult, LoginPassword

    inbox = Inbox()
    logins: list[tuple[str, str]] = []

    class Handler:
        async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
            msg = message_from_bytes(envelope.content)
            text = ""
            for part in msg.walk():
                if part.get_content_type() == "text/plain":
                    text = part.get_payload(decode=True).decode(part.get_content_charset()
                                                                or "utf-8")
            inbox.add({"title": str(make_header(decode_header(msg["Subject"] or ""))),
                       "body": text, "to": list(envelope.rcpt_tos)})
            return "250 OK"

    def authenticator(server: Any, session: Any, envelope: Any, mechanism: str,
                      data: Any) -> AuthResult:
        if isinstance(data, LoginPassword):
            got = (data.login.decode(), data.password.decode())
            logins.append(got)
            if got == (user, password):
                return AuthResult(success=True)
        inbox.refuse()
        return AuthResult(success=False, handled=False)

    kwargs: dict[str, Any] = {}
    if password is not None:
        kwargs = {"authenticator": authenticator, "auth_required": True,
                  "auth_require_tls": False}
    port = _free_port()
    controller = Controller(Handler(), hostname="127.0.0.1", port=port, **kwargs)
    controller.start()
    try:
        yield SmtpReceiver(port, inbox, logins)
    finally:
        controller.stop()
