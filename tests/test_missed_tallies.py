"""`run --once` on a long game whose 5-minute tally slots were missed for days (the daemon
stopped, the machine asleep): the run of missed slots is one marker and one log line,
whatever its length, and the game file is written a few times, not once per slot (issue
26: 31 MB rewritten per missed slot ran past 10 minutes). Work is counted (writes, markers),
never timed."""

from __future__ import annotations

import dataclasses
import json
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cli_support import run_at
from forum_server import running_forum, thread_files

from assistant.daemon import MARKERS
from assistant.models import to_iso
from assistant.store import GameStore

T0 = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)  # the thread's first post
START = T0 + timedelta(days=2)  # Day 1 starts after the thread's last post
CHATTER = "<br>".join(["Nobody has claimed yet and it is getting late, look at the wagons"] * 450)


def grow(data_dir: Path, posts: int) -> int:
    """The game's store grown past 30 MB: `posts` long posts of chatter during the day."""
    with GameStore.open(data_dir, "long", create=False) as store:
        last = store.posts()[-1].latest
        extra = [dataclasses.replace(last, post_id=last.post_id + 1 + i,
                                     position=last.position + 1 + i, body_html=CHATTER,
                                     posted_at=START + timedelta(minutes=1 + i), page=99)
                 for i in range(posts)]
        store.record_posts(extra, START + timedelta(hours=1))
    folder = Path(data_dir) / "games"
    return sum(p.stat().st_size for p in folder.glob("long.json*"))


def test_days_of_missed_tally_slots_are_one_marker_and_a_few_writes(capsys, monkeypatch,
                                                                     tmp_path, caplog):
    players = tmp_path / "players.txt"
    players.write_text("Mr. Pickles\nxX_Slayer_Xx\nJd-\nConia\nLady Grey\nKat\n", "utf-8")
    with running_forum() as server:
        url = server.serve_thread("smf", thread_files("smf"))

        def cli(now: datetime, *args: str) -> tuple[int, str, str]:
            return run_at(capsys, monkeypatch, tmp_path, to_iso(now), *args)

        assert cli(START, "game", "new", "long", "--thread", url, "--ruleset", "chat-mafia",
                   "--players", str(players), "--gm", "Host Mira", "--tz", "UTC")[0] == 0
        assert cli(START, "fetch", "--game", "long", "--delay", "0")[0] == 0
        assert cli(START, "phase", "long", "day", "1", "--ends", "+7d")[0] == 0
        assert grow(tmp_path, 1100) > 30_000_000

        game_file = GameStore.game_path(tmp_path, "long")
        writes: list[str] = []
        real = os.replace

        def replace(src, dst, *a, **k):  # noqa: ANN001, ANN202
            if Path(dst) == game_file:
                writes.append(str(dst))
            return real(src, dst, *a, **k)

        monkeypatch.setattr(os, "replace", replace)
        three_days = START + timedelta(days=3, minutes=2)  # 864 slots since the day began
        code, out, err = cli(three_days, "--json", "run", "--once", "--delay", "0")
        assert code == 0, err
        [game] = json.loads(out)["games"]
        assert game["ok"], game
        assert len(writes) <= 4, writes  # (before: one per missed slot, 863 more)
        with GameStore.open(tmp_path, "long", create=False) as store:
            tallies = [m for m in store.table(MARKERS).all() if m["kind"] == "tally"]
        [skipped] = [m for m in tallies if m["status"] == "skipped"]
        [drafted] = [m for m in tallies if m["status"] == "drafted"]
        assert skipped["slots"] == 863 and skipped["at"] == to_iso(START + timedelta(minutes=5))
        assert skipped["through"] == to_iso(three_days - timedelta(minutes=7))
        assert drafted["at"] == to_iso(three_days - timedelta(minutes=2))  # the latest slot
        lines = [ln for ln in err.splitlines() if "skipped (a later count is due)" in ln]
        assert len(lines) == 1 and "863 slots from" in lines[0]

        # Twenty minutes later: four more slots, three missed (one more marker), the last
        # drafted; the days before are not looked at again.
        writes.clear()
        later = three_days + timedelta(minutes=20)
        code, out, err = cli(later, "--json", "run", "--once", "--delay", "0")
        assert code == 0, err
        assert len(writes) <= 4, writes
        with GameStore.open(tmp_path, "long", create=False) as store:
            tallies = [m for m in store.table(MARKERS).all() if m["kind"] == "tally"]
        assert sorted(m.get("slots", 1) for m in tallies if m["status"] == "skipped") == [3, 863]
        assert len([m for m in tallies if m["status"] == "drafted"]) == 2
