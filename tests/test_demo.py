"""The README's main command: `assistant demo` plays the bundled thread end to end."""

from __future__ import annotations

import json
import os
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
    page = parse_topic_page(
        render_page(thread, 3, 2),
        "http://127.0.0.1:1/viewtopic.php?t=7&start=5",
        tz=ZoneInfo("Europe/London"),
        now=datetime(2026, 11, 22, tzinfo=UTC),
    )
    assert page.software == "phpbb" and (page.page, page.page_count) == (2, 2)
    assert [p.post_id for p in page.posts] == [106, 107, 108, 109, 110]
    esme = page.posts[1]
    assert esme.edit is not None and esme.edit.by == "Esme" and "Felix" in esme.body_html


def test_demo_runs_the_whole_day_and_night(tmp_path, capsys) -> None:
    run_demo(tmp_path, _run_cli)
    out = capsys.readouterr().out
    # The day ended at majority on Gwen's post 109, with Esme's edited vote on Felix; the
    # setup (entered first) changes no vote: 7 alive, 4 to lynch. Esme's vote on Felix counts
    # from her edit (12:15), after Felix's vote on her (11:48): his wagon is listed first.
    assert "Day 2 is over (ended at majority with post 109). Decided: Bram is lynched: " in out
    assert (
        "Bram (4): Alice, Cleo, Dmitri, Gwen\nCleo (1): Bram\nEsme (1): Felix\nFelix (1): Esme\n"
        in out
    )
    assert "With 7 alive, it takes 4 to lynch." in out
    drafts = tmp_path / "drafts" / "demo"
    assert (drafts / "day2-final.txt").is_file()
    # Dusk: drafted by the daemon at the deadline, then confirmed by the GM.
    dusk = "Day 2 is over.\nBram has been lynched. Bram was the Mafia Goon (Mafia).\n"
    assert (drafts / "day2-dusk.txt").read_text(encoding="utf-8").startswith(dusk)
    assert dusk in out and "Night 2 begins. Send your night actions to the GM.\n" in out
    assert "stored: Bram (lynch)" in out
    # Night 2: the Godfather shows as Town to the Cop, the Tracker follows the kill.
    assert "[kill] Esme (mafia): kill Gwen: kills Gwen" in out
    assert "night 2: dry run (nothing stored)" in out and "night 2: resolved and stored" in out
    assert (
        "Night 2 is over.\nGwen has died. Gwen was the Vanilla Townie (Town).\nDay 3 begins.\n"
        in out
    )
    assert "To: Alice\n" in out and "Your investigation of Esme: Town.\n" in out
    assert "To: Felix\n" in out and "Esme targeted: Gwen.\n" in out
    with GameStore.open(tmp_path, "demo", create=False) as store:
        kinds = {(d["alert"]["kind"], d["alert"]["post_id"]) for d in store.alert_records()[0]}
        assert len(store.posts()) == 10
        assert len(store.post(107).versions) == 2  # the edit was kept as a second version
        deaths = [(i["data"]["player"], i["data"]["how"]) for i in store.inputs("death")]
        assert store.inputs("resolution")[0]["data"] == {"phase": "night", "number": 2}
    assert deaths == [("Hugo", "nightkill"), ("Bram", "lynch"), ("Gwen", "nightkill")]
    assert ("dead_player_post", 104) in kinds
    assert ("vote_changed_by_edit", 107) in kinds
    # The day's count from the stored game, as a script would read it: as of the hammer
    # (Bram's lynch is now recorded after post 109).
    doc = _count_json(tmp_path, capsys, "--day", "2", "--at-post", "109")
    bram = next(w for w in doc["wagons"] if w["target"] == "Bram")
    assert bram["voters"] == ["Alice", "Cleo", "Dmitri", "Gwen"]
    assert doc["outcome"]["lynched"] == ["Bram"] and doc["outcome"]["at_post"] == 109


def _count_json(data_dir, capsys, *args: str) -> dict:
    capsys.readouterr()
    assert _run_cli(["--data-dir", str(data_dir), "count", "demo", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_day_count_keeps_the_lynch_wagon_after_the_dusk_is_confirmed(tmp_path, capsys) -> None:
    run_demo(tmp_path, _run_cli, echo=lambda _line: None)
    doc = _count_json(tmp_path, capsys, "--day", "2")
    assert [w["voters"] for w in doc["wagons"] if w["target"] == "Bram"] == [
        ["Alice", "Cleo", "Dmitri", "Gwen"]
    ]


def test_demo_command_runs_as_a_user_would(tmp_path) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "assistant", "demo", "--data-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr + r.stdout
    assert "majority reached" in r.stdout
    assert "Gwen has died. Gwen was the Vanilla Townie (Town)." in r.stdout


def test_the_demo_names_the_data_dir_it_used_whatever_the_environment(tmp_path) -> None:
    """With ASSISTANT_DATA_DIR set (a GM's own games there), the demo's steps went to that
    directory while its closing hint named the demo's: `assistant --data-dir DIR posts
    demo` then found nothing, and the demo's daemon polled the GM's real games."""
    own, given = tmp_path / "gm-games", tmp_path / "demo"
    env = {**os.environ, "ASSISTANT_DATA_DIR": str(own)}
    r = subprocess.run(
        [sys.executable, "-m", "assistant", "--data-dir", str(given), "demo"],
        capture_output=True, text=True, timeout=120, env=env,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert r.stdout.endswith(
        f"The game's store is {given / 'games' / 'demo.json'}; the alert feed is beside it. "
        f"Try `assistant --data-dir {given} posts demo`.\n"
    )
    assert (given / "games" / "demo.json").is_file() and not own.exists()
    assert "Subject: Harbour Town Mafia: results of Night 2\n" in r.stdout  # "— Day 2" left out
    posts = subprocess.run(
        [sys.executable, "-m", "assistant", "--data-dir", str(given), "posts", "demo"],
        capture_output=True, text=True, timeout=60, env=env,
    )  # fmt: skip
    assert posts.returncode == 0 and "#101" in posts.stdout, posts.stderr
