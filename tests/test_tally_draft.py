"""`draft tally` after a day that ended at majority: no time left, the deciding post linked.

Thread A (the real SMF 2.1 and phpBB 3.3 pages) under the permissive preset, a majority
ruleset like mafiascum: the fifth vote on ÆtherWolf, post 66, is the hammer.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import output
from realthreads import HOST, NOW, PLAYERS_A, thread_posts

from assistant.store import GameStore

THREAD = {
    "smf21": (
        "http://127.0.0.1:8021/index.php?topic=2.0",
        "http://127.0.0.1:8021/index.php?msg=66",
    ),
    "phpbb33": (
        "http://127.0.0.1:8033/viewtopic.php?t=2",
        "http://127.0.0.1:8033/viewtopic.php?p=66#p66",
    ),
}


def run(capsys: pytest.CaptureFixture[str], mp: pytest.MonkeyPatch, data: Path, *args: str) -> str:
    mp.setenv("ASSISTANT_NOW", NOW.isoformat())  # 2026-11-22 12:00 UTC, after the last post
    return output(capsys, data, *args)


@pytest.mark.parametrize("forum", ["smf21", "phpbb33"])
def test_a_day_ended_at_majority_shows_the_hammer_not_the_time_left(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, forum: str
) -> None:
    thread, hammer_url = THREAD[forum]
    (tmp_path / "p.txt").write_text("\n".join(PLAYERS_A) + "\n", encoding="utf-8")
    call = lambda *a: run(capsys, monkeypatch, tmp_path, *a)  # noqa: E731
    call(
        "game",
        "new",
        "a",
        "--thread",
        thread,
        "--ruleset",
        "permissive",
        "--players",
        str(tmp_path / "p.txt"),
        "--gm",
        HOST,
    )
    call(
        "phase",
        "a",
        "day",
        "1",
        "--starts",
        "2026-11-21T09:00:00+00:00",
        "--ends",
        "2026-11-23T13:00:00+00:00",
    )
    with GameStore.open(tmp_path, "a") as store:
        store.record_posts(thread_posts(forum), NOW)

    # As of post 41: the moment it was made (2026-11-21 22:14 UTC), as `--at` that time shows.
    before = call("draft", "tally", "a", "--at-post", "41")
    assert "[i]Deadline: 2026-11-23 13:00 UTC (38 h 46 min left).[/i]" in before

    after = call("draft", "tally", "a")
    assert after.rstrip("\n").endswith(
        "With 9 alive, it takes 5 to lynch.\n"
        f"[i]The day ended at majority with [url={hammer_url}]post 66[/url]: ÆtherWolf.[/i]"
    )
    assert "left" not in after and "Deadline" not in after
