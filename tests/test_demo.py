"""The README's main command: `assistant demo` plays the bundled thread end to end."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from assistant.cli.demo_cmds import _run_cli
from assistant.demo import run_demo
from assistant.demo_forum import DemoThread, render_page
from assistant.scrapers import parse_topic_page
from assistant.store import GameStore


def test_demo_pages_parse_as_phpbb() -> None:
    thread = DemoThread.load()
    page = parse_topic_page(render_page(thread, 3, 2), "http://127.0.0.1:1/viewtopic.php?t=7&start=5",
                            tz=ZoneInfo("Europe/London"), now=datetime(2026, 11, 22, tzinfo=UTC))
    assert page.software == "phpbb" and (page.page, page.page_count) == (2, 2)
    assert [p.post_id for p in page.posts] == [106, 107, 108, 109, 110]
    esme = page.posts[1]
    assert esme.edit is not None and esme.edit.by == "Esme" and "Felix" in esme.body_html


def test_demo_runs_the_whole_day(tmp_path, capsys) -> None:
    run_demo(tmp_path, _run_cli)
    out = capsys.readouterr().out
    # The day ended at majority on Gwen's post 109, with Esme's edited vote on Felix.
    assert "Outcome: Bram (post 109): majority reached" in out
    assert (tmp_path / "drafts" / "demo" / "day2-final.txt").is_file()
    with GameStore.open(tmp_path, "demo", create=False) as store:
        kinds = {(d["alert"]["kind"], d["alert"]["post_id"]) for d in store.table("alerts").all()}
        assert len(store.posts()) == 10
        assert len(store.post(107).versions) == 2  # the edit was kept as a second version
    assert ("dead_player_post", 104) in kinds
    assert ("vote_changed_by_edit", 107) in kinds
    # The count from the stored game, as a script would read it.
    status = _run_cli(["--data-dir", str(tmp_path), "count", "demo", "--json"])
    assert status == 0
    doc = json.loads(capsys.readouterr().out)
    bram = next(w for w in doc["wagons"] if w["target"] == "Bram")
    assert bram["voters"] == ["Alice", "Cleo", "Dmitri", "Gwen"]
    assert doc["outcome"]["lynched"] == ["Bram"] and doc["outcome"]["at_post"] == 109


def test_demo_command_runs_as_a_user_would(tmp_path) -> None:
    r = subprocess.run([sys.executable, "-m", "assistant", "demo", "--data-dir", str(tmp_path)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr + r.stdout
    assert "majority reached" in r.stdout
