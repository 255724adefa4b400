"""The dashboard's web server, run in a thread beside the daemon's scheduler.

`assistant run --web` starts it before the scheduler and stops it after: the daemon's
own loop is not touched. uvicorn serves the Starlette app on one socket the caller
opened, so a test can ask for a free port (port 0) and learn which one it got.
"""

from __future__ import annotations

import logging
import socket
import threading
from dataclasses import dataclass

import uvicorn

from assistant.errors import ConfigError
from assistant.web.app import Dashboard, create_app
from assistant.web.guard import check_token, is_loopback

log = logging.getLogger("assistant.web")
DEFAULT_ADDRESS = "127.0.0.1:8765"


def parse_address(text: str, *, token: str | None) -> tuple[str, int]:
    """HOST:PORT (or PORT) for `--web`; any host but a loopback one needs a token, and a
    token given is long enough."""
    host, sep, port_text = text.strip().rpartition(":")
    if not sep:
        host, port_text = "127.0.0.1", text.strip()
    host = host.strip("[]") or "127.0.0.1"
    try:
        port = int(port_text)
        if not 0 <= port <= 65535:
            raise ValueError
    except ValueError:
        raise ConfigError(
            f"--web {text!r}: give HOST:PORT or PORT, e.g. --web 127.0.0.1:8765"
        ) from None
    if token is not None:
        check_token(token)
    if not is_loopback(host) and not token:
        raise ConfigError(
            f"--web {text}: the dashboard acts for the GM, so serving it on {host} needs a "
            "token: set ASSISTANT_WEB_TOKEN to a long secret and open /?token=SECRET once"
        )
    return host, port


@dataclass
class WebServer:
    """A running dashboard: its address, and how to stop it."""

    server: uvicorn.Server
    dashboard: Dashboard
    thread: threading.Thread
    sock: socket.socket
    host: str
    port: int

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def stop(self) -> None:
        self.dashboard.closing.set()  # live-update streams end at their next look
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()


def start(dashboard: Dashboard, host: str, port: int) -> WebServer:
    """Serve the dashboard on HOST:PORT in a background thread; returns once it listens."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as e:
        sock.close()
        raise ConfigError(
            f"--web {host}:{port}: cannot listen there ({e.strerror}); pick another port"
        ) from None
    sock.listen(64)
    config = uvicorn.Config(
        create_app(dashboard),
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=5,
        lifespan="off",
    )
    server = uvicorn.Server(config)
    started = threading.Event()

    def run() -> None:
        server.run(sockets=[sock])

    thread = threading.Thread(target=run, name="assistant-web", daemon=True)
    thread.start()
    bound_port = sock.getsockname()[1]
    web = WebServer(server, dashboard, thread, sock, host, bound_port)
    for _ in range(200):  # wait for uvicorn's loop to be serving (it sets `started`)
        if server.started or not thread.is_alive():
            break
        started.wait(0.05)
    if not server.started:
        web.stop()
        raise ConfigError(f"the dashboard could not start on {host}:{bound_port}")
    log.info("dashboard on %s", web.url)
    return web
