"""The daemon with notification targets, as the acceptance tests run it: thread B served on
127.0.0.1 as it grew, three games in one data dir (002 with its setup: alerts, warnings,
the final count and the dusk; the same thread under mafiascum's majority: the hammer; a
000 night whose forum is down: missing orders and failing polls), targets added with the
real `notify` command, the clock driven by the test."""

from __future__ import annotations

import re
import socket
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import thread_b_support as tb
from cli_support import run_cli
from daemon_support import serve, setup_store, snapshots

from assistant.clock import FakeClock
from assistant.daemon import Daemon
from assistant.engine.setup import PlayerSetup, Setup
from assistant.scrapers.http import Fetcher, FetchSettings
from assistant.store import GameStore

FORUM = "smf21"
START = datetime(2026, 11, 22, 11, 0, tzinfo=UTC)
NIGHT_ENDS = START + timedelta(hours=2)
THREAD_B_SETUP = Setup(
    (
        PlayerSetup("Mr. Pickles", "town"),
        PlayerSetup("xX_Slayer_Xx", "mafia", "roleblocker"),
        PlayerSetup("Jd-", "town", "child"),
        PlayerSetup("Conia", "town", "jailkeeper"),
        PlayerSetup("Lady Grey", "town", "investigator"),
        PlayerSetup("Tom & Jerry's", "town"),
        PlayerSetup("ÆtherWolf", "mafia"),
        PlayerSetup("Kat", "town", "doctor"),
    ),
    seed=2,
)
NIGHT_SETUP = """
seed = 3
players = [
  { name = "Alice", role = "agent", side = "town" },
  { name = "Bob", role = "psychic-warden", side = "town" },
  { name = "Carol", role = "doppelganger-leader" }, { name = "Dave", role = "doppelganger" },
  { name = "Eve", side = "town" },
]
"""


def make_daemon(data_dir: Path, clock: FakeClock) -> Daemon:
    return Daemon(
        data_dir, clock,
        lambda: Fetcher(httpx.Client(), FetchSettings(delay=0, backoff=0, retries=0),
                        sleep=lambda s: None, clock=clock),
    )


def cli(capsys, monkeypatch, data_dir: Path, now: datetime, *args: str) -> str:
    monkeypatch.setenv("ASSISTANT_NOW", now.isoformat())
    code, out, err = run_cli(capsys, "--data-dir", str(data_dir), *args)
    assert code == 0, f"`assistant {' '.join(args)}`: {err}"
    return out


def closed_port() -> int:
    """A port of 127.0.0.1 nothing listens on: a forum that is down."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def three_games(tmp_path: Path, capsys, monkeypatch, url: str) -> Path:
    """thread-b (002, with its setup), majority (the same thread under mafiascum) and night
    (000, Night 1 from 11:00 to 13:00, its forum down)."""
    data = tmp_path / "data"
    setup_store(data, FORUM, url)
    with GameStore.open(data, "thread-b", create=False) as store:
        store.add_input("roles", THREAD_B_SETUP.to_dict(), START)
    meta = tb.truth(FORUM)["meta"]
    majority = tb.new_store(data, FORUM, "majority", day_ends=meta["day"]["announced_end_iso"])
    majority.update_config(thread_url=url, ruleset="mafiascum", recheck_every_polls=1)
    majority.close()
    (tmp_path / "players.txt").write_text("Alice\nBob\nCarol\nDave\nEve\n", encoding="utf-8")
    (tmp_path / "setup.toml").write_text(NIGHT_SETUP, encoding="utf-8")
    before = START - timedelta(hours=1)
    cli(capsys, monkeypatch, data, before, "game", "new", "night", "--thread",
        f"http://127.0.0.1:{closed_port()}/index.php?topic=1.0", "--ruleset", "paranormal",
        "--players", str(tmp_path / "players.txt"), "--gm", "Host", "--tz", "UTC")
    cli(capsys, monkeypatch, data, before, "roles", "night", "--file",
        str(tmp_path / "setup.toml"))
    cli(capsys, monkeypatch, data, START, "phase", "night", "night", "1", "--ends",
        NIGHT_ENDS.isoformat())
    return data


class Driver:
    """Ticks every game at each snapshot of thread B and each game at every moment it asks
    for (its clock events, a retry, the end of quiet hours); `run(until)` goes on from
    where the last run stopped."""

    def __init__(self, daemon: Daemon, clock: FakeClock, server, games: list[str]) -> None:
        self.daemon, self.clock, self.server, self.games = daemon, clock, server, games
        self.snaps = snapshots(FORUM)
        self.upcoming: dict[str, datetime | None] = {g: START for g in games}
        self.i = 0

    def run(self, until: datetime) -> None:
        for _ in range(10_000):  # a game asking for "now" again and again would spin
            candidates = [t for t in self.upcoming.values() if t is not None]
            if self.i < len(self.snaps):
                candidates.append(self.snaps[self.i].saved_at)
            moment = min(candidates, default=None)
            if moment is None or moment > until:
                self.clock.set(max(until, self.clock.now()))
                return
            self.clock.set(max(moment, self.clock.now()))
            snapped = self.i < len(self.snaps) and self.snaps[self.i].saved_at <= moment
            if snapped:
                serve(self.server, FORUM, self.snaps[self.i], self.snaps)
                self.i += 1
            for game in self.games:
                due = self.upcoming[game]
                if snapped or (due is not None and due <= self.clock.now()):
                    self.upcoming[game] = self.daemon.tick(game)
        raise AssertionError(f"the games kept asking for another tick: {self.upcoming}")


def told(messages: Iterable[dict]) -> list[str]:
    """The title of every notice that arrived: a message's own, or each of a digest's."""
    out = []
    for m in messages:
        if re.fullmatch(r".*: \d+ notices( held over the quiet hours)?", m["title"]):
            out += [line[2:] for line in m["body"].splitlines() if line.startswith("- ")]
        else:
            out.append(m["title"])
    return out
