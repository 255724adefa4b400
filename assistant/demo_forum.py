"""The bundled demo game's forum: our own small thread, rendered as phpBB 3.3 pages and
served on 127.0.0.1, so `assistant demo` shows the whole pipeline where no forum is at hand.

The thread (fixtures/demo/thread.toml) is posted in stages; `DemoForum.stage` says how
much of it the forum shows, the way a real thread grows between two polls.
"""

from __future__ import annotations

import threading
import tomllib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit
from zoneinfo import ZoneInfo

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from assistant import PROJECT_ROOT

DEMO_DIR = PROJECT_ROOT / "fixtures" / "demo"


@dataclass(frozen=True)
class DemoThread:
    """The demo thread's data file, read once."""

    data: dict[str, Any]

    @classmethod
    def load(cls, path: Path = DEMO_DIR / "thread.toml") -> DemoThread:
        return cls(tomllib.loads(path.read_text(encoding="utf-8")))

    @property
    def stages(self) -> int:
        return max(p["stage"] for p in self.data["posts"])

    def stage_time(self, stage: int) -> datetime:
        """A moment just after the last post (or edit) the forum shows at `stage`."""
        times = [datetime.fromisoformat(p["at"]) for p in self.data["posts"] if p["stage"] <= stage]
        times += [datetime.fromisoformat(p["edited_at"]) for p in self.data["posts"]
                  if "edited_at" in p and p["stage"] < stage]
        return max(times).astimezone(UTC).replace(second=0) + _minute(5)

    def posts_at(self, stage: int) -> list[dict[str, Any]]:
        """The posts as the forum shows them at `stage`: an edit shows from the next stage on."""
        tz = ZoneInfo(self.data["tz"])
        shown = []
        for p in self.data["posts"]:
            if p["stage"] > stage:
                continue
            at = datetime.fromisoformat(p["at"])
            post = {
                "id": p["id"], "uid": p["uid"], "author": p["author"],
                "at_iso": at.astimezone(UTC).isoformat(), "at_text": _phpbb_time(at, tz),
                "body": Markup(p["body"]), "edit_text": None,
            }
            if "edited_body" in p and stage > p["stage"]:
                post["body"] = Markup(p["edited_body"])
                post["edit_text"] = _phpbb_time(datetime.fromisoformat(p["edited_at"]), tz)
            shown.append(post)
        return shown


def _minute(n: int):  # noqa: ANN202 - a timedelta
    from datetime import timedelta

    return timedelta(minutes=n)


def _phpbb_time(moment: datetime, tz: ZoneInfo) -> str:
    """phpBB's default date format: "Sat Nov 21, 2026 9:15 am", in the board's zone."""
    local = moment.astimezone(tz)
    hour = local.hour % 12 or 12
    return f"{local:%a %b %d, %Y} {hour}:{local:%M} {'am' if local.hour < 12 else 'pm'}"


def render_page(thread: DemoThread, stage: int, page: int) -> str:
    """Page `page` (1-based) of the thread as the forum shows it at `stage`."""
    env = Environment(loader=FileSystemLoader(DEMO_DIR), autoescape=select_autoescape(["j2"]))
    posts = thread.posts_at(stage)
    per_page = thread.data["per_page"]
    page_count = max(1, -(-len(posts) // per_page))
    page = min(max(page, 1), page_count)
    start = (page - 1) * per_page
    return env.get_template("viewtopic.html.j2").render(
        title=thread.data["title"], topic_id=thread.data["topic_id"], page=page,
        page_count=page_count, per_page=per_page, start=start, total=len(posts),
        posts=posts[start:start + per_page],
    )


@dataclass
class DemoForum:
    """A phpBB-looking forum on 127.0.0.1 serving the demo thread at its current stage."""

    thread: DemoThread = field(default_factory=DemoThread.load)
    stage: int = 1
    requests: int = 0
    _server: ThreadingHTTPServer | None = None

    @property
    def thread_url(self) -> str:
        assert self._server is not None, "start the forum first"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/viewtopic.php?t={self.thread.data['topic_id']}"

    def __enter__(self) -> DemoForum:
        forum = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - the http.server API
                forum.requests += 1
                parts = urlsplit(self.path)
                query = parse_qs(parts.query)
                topic = str(forum.thread.data["topic_id"])
                if parts.path != "/viewtopic.php" or query.get("t") != [topic]:
                    self.send_error(404, "The requested topic does not exist.")
                    return
                start = int(query.get("start", ["0"])[0] or 0)
                page = start // forum.thread.data["per_page"] + 1
                body = render_page(forum.thread, forum.stage, page).encode("utf-8")
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=UTF-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:  # keep the demo's output readable
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
