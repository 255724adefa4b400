"""`assistant demo`: the main job on a bundled game, where no forum is at hand.

It starts the demo forum on 127.0.0.1, creates a game for it, and then runs the same
commands a GM runs, printing each one: the daemon's cycle (`run --once`) after every
burst of posts, the live count, the alert feed, and the tally draft. The clock is the
thread's own (`ASSISTANT_NOW`), so the demo takes seconds, not two game days.
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

from assistant.demo_forum import DemoForum, DemoThread
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
    drafts = data_dir / "drafts" / game
    if drafts.is_dir():
        echo(f"\nDrafts written by the daemon, ready to paste: {drafts}")
        for path in sorted(drafts.iterdir()):
            echo(f"  {path.name}")
    echo(f"\nThe game's store is {data_dir / 'games' / (game + '.json')}; the alert feed is "
         "beside it. Try `assistant --data-dir " + shlex.quote(str(data_dir)) + " posts demo`.")
    return data_dir
