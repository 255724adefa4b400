"""Hostile forums on 127.0.0.1 for the fetch tests: one that drips its page a byte at a
time (after its headers, or inside them), one that sends a gzip bomb, one with a 50 MB
page. Each counts its requests, and stops sending once the client hangs up."""

from __future__ import annotations

import threading
import time
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from socketserver import StreamRequestHandler, ThreadingTCPServer

from forum_server import serve_loopback

DRIP_EVERY = 0.05
"""Seconds between two bytes of a dripping forum (it never stops on its own)."""
PAGE = b"<!DOCTYPE html><html><head><title>Day 2</title></head><body>" + b"x" * 200


@dataclass
class Hostile:
    base_url: str = ""
    requests: list[str] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)


def _drip(wfile, data: bytes, stop: threading.Event) -> None:
    """Send `data` one byte every DRIP_EVERY seconds, then go on with spaces forever."""
    i = 0
    while not stop.is_set():
        wfile.write(data[i:i + 1] if i < len(data) else b" ")
        wfile.flush()
        i += 1
        stop.wait(DRIP_EVERY)


def _gzip_bomb(wfile, stop: threading.Event) -> None:
    """Gigabytes of zeros, compressed on the fly: a few kB a MB on the wire."""
    z = zlib.compressobj(9, zlib.DEFLATED, 31)
    zeros = b"\0" * (1024 * 1024)
    for _ in range(4096):  # 4 GB decoded
        if stop.is_set():
            return
        wfile.write(z.compress(zeros))
    wfile.write(z.flush())


@contextmanager
def hostile_forum() -> Iterator[Hostile]:
    """Paths: /drip-body (and any SMF topic address), /drip-headers, /bomb, /big
    (Content-Length 50 MB), /big-chunked."""
    forum = Hostile()

    class Handler(StreamRequestHandler):
        def handle(self) -> None:
            line = self.rfile.readline().decode("latin-1")
            while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                pass
            path = line.split(" ")[1] if " " in line else ""
            forum.requests.append(path)
            w = self.wfile
            try:
                if path == "/drip-headers":
                    _drip(w, b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Slow: "
                          + b"a" * 100000, forum.stop)
                    return
                if path == "/drip-body" or path.startswith("/index.php"):
                    w.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
                            b"Connection: close\r\n\r\n")
                    _drip(w, PAGE, forum.stop)
                elif path == "/bomb":
                    w.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
                            b"Content-Encoding: gzip\r\nConnection: close\r\n\r\n")
                    _gzip_bomb(w, forum.stop)
                elif path in ("/big", "/big-chunked"):
                    size = 50 * 1024 * 1024
                    head = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\n"
                    if path == "/big":
                        head += f"Content-Length: {size}\r\n".encode()
                    w.write(head + b"\r\n" + PAGE)
                    block = b"<p>" + b"y" * 1020 + b"</p>"
                    for _ in range(size // len(block)):
                        if forum.stop.is_set():
                            return
                        w.write(block)
                else:
                    w.write(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
            except (TimeoutError, BrokenPipeError, ConnectionResetError):
                return  # the client hung up: what a good client does

    class Server(ThreadingTCPServer):
        daemon_threads = True
        allow_reuse_address = True

    with serve_loopback(Server(("127.0.0.1", 0), Handler)) as url:
        forum.base_url = url
        try:
            yield forum
        finally:
            forum.stop.set()  # before the shutdown: handlers still sending must end first


def elapsed(start: float) -> float:
    return time.monotonic() - start
