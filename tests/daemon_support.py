"""Thread B as it grew, served on 127.0.0.1: the live snapshots in `live_manifest.json`,
and a game store set up as its GM did (Day 2 with the announced end, the OP's house rule)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import thread_b_support as tb
from conftest import REALFORUM
from forum_server import ForumServer, page_path

from assistant.store import GameStore

LIVE = REALFORUM / "live"
SOFTWARE = {"smf21": "smf", "phpbb33": "phpbb"}


@dataclass(frozen=True)
class Snapshot:
    number: int
    saved_at: datetime
    files: dict[int, Path]
    """Page number -> the file saved for it at this snapshot."""


def snapshots(forum: str) -> list[Snapshot]:
    manifest = json.loads((LIVE / "live_manifest.json").read_text(encoding="utf-8"))
    by_no: dict[int, Snapshot] = {}
    for s in manifest["snapshots"]:
        if s["forum"] != forum:
            continue
        snap = by_no.setdefault(
            s["snapshot_no"],
            Snapshot(
                s["snapshot_no"], datetime.fromisoformat(s["saved_at_iso"]).astimezone(UTC), {}
            ),
        )
        snap.files[s["page"]] = LIVE / s["file"]
    return [by_no[k] for k in sorted(by_no)]


def serve(server: ForumServer, forum: str, upto: Snapshot, all_snaps: list[Snapshot]) -> None:
    """The thread as the forum showed it at `upto`: each page as last saved by then."""
    latest: dict[int, Path] = {}
    for snap in all_snaps:
        if snap.number > upto.number:
            break
        latest.update(snap.files)
    for page, path in latest.items():
        server.set_page(page_path(SOFTWARE[forum], 3, page), path.read_bytes())


def thread_url(server: ForumServer, forum: str) -> str:
    return server.base_url + page_path(SOFTWARE[forum], 3, 1)


def setup_store(data_dir: Path, forum: str, url: str) -> None:
    meta = tb.truth(forum)["meta"]
    # The host's Day 2 post: starts now, "ends at 11:23 UTC" (phpBB: 11:22); the OP forbids
    # copy-pasting role PMs (a house rule over 002's default).
    store = tb.new_store(data_dir, forum, day_ends=meta["day"]["announced_end_iso"])
    store.update_config(
        thread_url=url,
        posting={"pm_copy": "violation"},
        recheck_every_polls=1,
        title="Chat Mafia",
    )
    store.close()


def open_store(data_dir: Path) -> GameStore:
    return GameStore.open(data_dir, "thread-b", create=False)
