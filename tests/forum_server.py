"""A forum on 127.0.0.1 for tests: serves the real fixture pages by their forum URLs.

SMF pages are reached as `/index.php?topic=2.15`, phpBB pages as
`/viewtopic.php?t=2&start=15`. SMF writes absolute links to the address the pages were
saved from (http://127.0.0.1:8021); the server rewrites them to its own address.
Tests change `pages` between polls (an edit, a deleted post, a new page) and queue
one-off answers (a 503, a 429) in `queued`; `log` lists every request path.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from socketserver import BaseServer
from urllib.parse import parse_qsl, urlencode, urlsplit

from conftest import REALFORUM

SMF_SAVED_FROM = b"http://127.0.0.1:8021"
PER_PAGE = 15


def route_key(url: str) -> str:
    """Path and sorted query of a URL: the same page whatever the parameter order."""
    parts = urlsplit(url)
    query = sorted(parse_qsl(parts.query.replace(";", "&"), keep_blank_values=True))
    return parts.path + ("?" + urlencode(query) if query else "")


@dataclass
class Answer:
    status: int
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class ForumServer:
    base_url: str = ""
    pages: dict[str, bytes | Callable[[], bytes]] = field(default_factory=dict)
    post_pages: dict[str, bytes] = field(default_factory=dict)
    """Answers to POSTs (a login form's target), by path."""
    posted: list[tuple[str, bytes]] = field(default_factory=list)
    queued: dict[str, list[Answer]] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)

    # ---- routing -----------------------------------------------------------------------

    def set_page(self, path: str, body: bytes) -> None:
        self.pages[route_key(path)] = body.replace(SMF_SAVED_FROM, self.base_url.encode())

    def page(self, path: str) -> bytes:
        body = self.pages[route_key(path)]
        return body() if callable(body) else body

    def queue(self, path: str, *answers: Answer) -> None:
        self.queued.setdefault(route_key(path), []).extend(answers)

    def answer(self, raw_path: str, posted: bytes | None = None) -> Answer:
        self.log.append(raw_path)
        key = route_key(raw_path)
        if self.queued.get(key):
            return self.queued[key].pop(0)
        if posted is not None:
            self.posted.append((raw_path, posted))
        body = (self.post_pages if posted is not None else self.pages).get(key)
        if body is None:
            return Answer(404, b"<html><body>Not found</body></html>")
        return Answer(200, body() if callable(body) else body,
                      {"Content-Type": "text/html; charset=UTF-8"})

    # ---- the real threads ----------------------------------------------------------------

    def serve_thread(self, software: str, files: list[Path], topic: int = 2) -> str:
        """Serve `files` as pages 1..n of a topic; returns the thread's URL."""
        for n, path in enumerate(files, start=1):
            self.set_page(page_path(software, topic, n), path.read_bytes())
        return self.base_url + page_path(software, topic, 1)


def page_path(software: str, topic: int, page: int) -> str:
    start = (page - 1) * PER_PAGE
    if software == "smf":
        return f"/index.php?topic={topic}.{start}"
    return f"/viewtopic.php?t={topic}" + (f"&start={start}" if start else "")


def thread_files(software: str) -> list[Path]:
    """The five pages of the realforum game thread (66 posts) on one forum."""
    folder, prefix = ("smf21", "smf21") if software == "smf" else ("phpbb33", "phpbb33")
    return [REALFORUM / folder / f"{prefix}_topic_p{n}.html" for n in range(1, 6)]


@contextmanager
def running_forum() -> Iterator[ForumServer]:
    """A ForumServer listening on a free port of 127.0.0.1 for the length of a test."""
    forum = ForumServer()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's naming
            self._reply(forum.answer(self.path))

        def do_POST(self) -> None:  # noqa: N802
            length = int(self.headers.get("Content-Length") or 0)
            self._reply(forum.answer(self.path, self.rfile.read(length)))

        def _reply(self, a: Answer) -> None:
            self.send_response(a.status)
            for k, v in a.headers.items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(a.body)))
            self.end_headers()
            self.wfile.write(a.body)

        def log_message(self, *args: object) -> None:
            pass

    with serve_loopback(ThreadingHTTPServer(("127.0.0.1", 0), Handler)) as url:
        forum.base_url = url
        yield forum


@contextmanager
def serve_loopback(server: BaseServer) -> Iterator[str]:
    """Serve `server` (bound to 127.0.0.1) on a daemon thread and yield its base URL;
    shut it down and close its socket on the way out, whatever the test did."""
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
