"""`assistant demo`: the main job on a bundled game, where no forum is at hand.

It starts the demo forum on 127.0.0.1, creates a game for it, and then runs the same
commands a GM runs through a whole day and night, printing each one: the setup
(`roles`), the daemon's cycle (`run --once`) after every burst of posts, the live count,
the alert feed and the tally draft; at the day's end the dusk post (`draft dusk
--confirm`), then the night's orders, their resolution (`resolve --dry-run`, `resolve`),
the dawn post and the result PMs. The clock is the thread's own (`ASSISTANT_NOW`), so
the demo takes seconds, not two game days.
"""

from __future__ import annotations

import os
import shlex
import tempfile
from collections.abc import Callable
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

import click

from assistant.demo_forum import DEMO_DIR, DemoForum, DemoThread
from assistant.models import to_iso

Runner = Callable[[list[str]], int]


@contextmanager
def _now(moment: datetime):  # noqa: ANN202 - a context manager
    """Pin the assistant's clock (the CLI reads ASSISTANT_NOW) for the commands inside."""
    old = os.environ.get("ASSISTANT_NOW")
    os.environ["ASSISTANT_NOW"] = to_iso(moment) or ""
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("ASSISTANT_NOW", None)
        else:
            os.environ["ASSISTANT_NOW"] = old


def run_demo(
    data_dir: Path | None, runner: Runner, echo: Callable[[str], None] = click.echo
) -> Path:
    """Play the demo thread through the assistant; returns the data directory used."""
    data_dir = Path(data_dir) if data_dir else Path(tempfile.mkdtemp(prefix="assistant-demo-"))
    thread = DemoThread.load()
    d = thread.data
    game = "demo"

    def step(*args: str) -> None:
        echo(f"\n$ assistant {' '.join(shlex.quote(a) for a in args)}")
        status = runner(["--data-dir", str(data_dir), *args])
        if status:
            raise click.ClickException(
                f"the demo step `assistant {args[0]}` failed (exit {status})"
            )

    echo(f"Demo game: {d['title']!r}, data in {data_dir}")
    with DemoForum(thread=thread) as forum:
        echo(f"The demo forum is serving the thread at {forum.thread_url}")
        players = data_dir / "demo-players.txt"
        data_dir.mkdir(parents=True, exist_ok=True)
        players.write_text("\n".join(d["players"]) + "\n", encoding="utf-8")
        with _now(datetime.fromisoformat(d["day_starts"])):
            step("game", "new", game, "--thread", forum.thread_url, "--ruleset", d["ruleset"],
                 "--players", str(players), "--gm", d["gm"], "--tz", d["tz"])
            # The setup first: the engine replays the deaths entered after it.
            step("roles", game, "--file", str(DEMO_DIR / d["setup"]))
            for death in d["dead"]:
                step("kill", game, death["player"], "--how", death["how"],
                     "--at", d["day_starts"])
            step("phase", game, "day", "2", "--starts", d["day_starts"], "--ends", d["day_ends"])
        for stage in range(1, thread.stages + 1):
            forum.stage = stage
            moment = thread.stage_time(stage)
            echo(f"\n==== {moment:%a %d %b %H:%M} UTC: the thread has grown "
                 f"({len(thread.posts_at(stage))} posts) ====")
            with _now(moment):
                step("run", "--once", "--delay", "0")
                step("count", game)
                step("alerts", game)
        with _now(thread.stage_time(thread.stages)):
            step("count", game, "--why", "Esme")
            step("draft", "tally", game)
            echo("\n==== Dusk: the day is over; the daemon drafted the dusk post, the GM "
                 "records the lynch ====")
            step("draft", "dusk", game, "--confirm")
        night = d["night"]
        n = str(night["number"])
        echo(f"\n==== Night {n}: the orders arrive by PM ====")
        with _now(datetime.fromisoformat(night["orders_at"])):
            for line in night["orders"]:
                step("order", game, line, "--night", n)
        echo(f"\n==== Dawn: Night {n} is resolved, the dawn post and the PMs drafted ====")
        with _now(datetime.fromisoformat(night["resolve_at"])):
            step("resolve", game, "--night", n, "--dry-run")
            step("resolve", game, "--night", n)
            step("draft", "dawn", game)
            step("draft", "pms", game)
    drafts = data_dir / "drafts" / game
    if drafts.is_dir():
        echo(f"\nDrafts written by the daemon, ready to paste: {drafts}")
        for path in sorted(drafts.iterdir()):
            echo(f"  {path.name}")
    echo(f"\nThe game's store is {data_dir / 'games' / (game + '.json')}; the alert feed is "
         "beside it. Try `assistant --data-dir " + shlex.quote(str(data_dir)) + " posts demo`.")
    return data_dir
