"""The commands' options on the dashboard's forms (issue 25): a death at a time or the
lynch of a given day, a phase with its start, a deadline shortened, orders for a given
night or a day action, a resolution of a given phase, a post counted from another moment,
a sheriff from a given day, the result PMs of any phase. Each posted to the running
dashboard on thread B as the page posts it; the fact stored is the one the command stores
for the same input (the page's is withdrawn with `undo`, the command's entered, and the
two are compared in `log`), and a refusal is the command's."""

from __future__ import annotations

import json
import re
from html import unescape

import httpx
from cli_support import run_cli as run
from realthreads import NOW
from test_cli_count import _game_001
from test_web_actions import _post
from test_web_dashboard import Live, live  # noqa: F401 - the fixture
from web_form_support import GAME, cli_at, flash_of, log_of, refused_alike

from assistant.clock import FakeClock
from assistant.web.app import Dashboard
from assistant.web.guard import Guard
from assistant.web.server import start


def _stores_as_the_command(client: httpx.Client, capsys, monkeypatch, at: Live,  # noqa: ANN001
                           action: str, fields: dict[str, str], *cli_args: str) -> str:
    """The page's action stores what the command stores for the same input: the page's
    fact is withdrawn, the command's entered, and the two read the same in the log."""
    said = flash_of(client, _post(client, f"/game/{GAME}/{action}", **fields))
    page_fact = log_of(capsys, monkeypatch, at)[-1]
    code, _out, err = cli_at(capsys, monkeypatch, at, "undo", GAME, str(page_fact["id"]))
    assert code == 0, err
    code, _out, err = cli_at(capsys, monkeypatch, at, *cli_args)
    assert code == 0, err
    cli_fact = log_of(capsys, monkeypatch, at)[-1]
    assert (cli_fact["kind"], cli_fact["what"]) == (page_fact["kind"], page_fact["what"])
    return said


def test_deaths_phases_and_deadlines_with_the_commands_options(
    live: Live, capsys, monkeypatch  # noqa: ANN001, F811
) -> None:
    live.grow_to(4)
    with httpx.Client(base_url=live.web.url) as client:
        page = client.get(f"/game/{GAME}").text
        for name in ("at", "day", "starts", "shorten_to"):
            assert f'name="{name}"' in page
        said = _stores_as_the_command(
            client, capsys, monkeypatch, live, "kill",
            {"player": "Tom & Jerry's", "how": "modkill", "at": "2026-11-22 11:05"},
            "kill", GAME, "Tom & Jerry's", "--how", "modkill", "--at", "2026-11-22 11:05")
        assert said.startswith("Recorded")
        refused_alike(client, capsys, monkeypatch, live, "kill",
                       {"player": "Conia", "how": "modkill", "at": "teatime"},
                       "kill", GAME, "Conia", "--how", "modkill", "--at", "teatime")
        _stores_as_the_command(
            client, capsys, monkeypatch, live, "kill",
            {"player": "Conia", "how": "lynch", "day": "2"},
            "kill", GAME, "Conia", "--how", "lynch", "--day", "2")
        _stores_as_the_command(
            client, capsys, monkeypatch, live, "deadline", {"shorten_to": "2026-11-22 11:16"},
            "phase", GAME, "--shorten-to", "2026-11-22 11:16")
        refused_alike(client, capsys, monkeypatch, live, "deadline",
                       {"shorten_to": "2026-11-20 09:00"},
                       "phase", GAME, "--shorten-to", "2026-11-20 09:00")
        _stores_as_the_command(
            client, capsys, monkeypatch, live, "phase",
            {"kind": "night", "number": "2", "starts": "2026-11-22 11:30",
             "ends": "2026-11-22 13:00"},
            "phase", GAME, "night", "2", "--starts", "2026-11-22 11:30",
            "--ends", "2026-11-22 13:00")


def test_orders_resolutions_rulings_and_pms_of_a_given_phase(
    live: Live, capsys, monkeypatch  # noqa: ANN001, F811
) -> None:
    live.grow_to(4)
    with httpx.Client(base_url=live.web.url) as client:
        _stores_as_the_command(client, capsys, monkeypatch, live, "order",
                               {"orders": "Lady Grey: investigate Conia", "night": "2"},
                               "order", GAME, "Lady Grey: investigate Conia", "--night", "2")
        refused_alike(client, capsys, monkeypatch, live, "order",
                       {"orders": "Lady Grey: investigate Conia", "day": "2"},
                       "order", GAME, "Lady Grey: investigate Conia", "--day", "2")
        said = flash_of(client, _post(client, f"/game/{GAME}/resolve", night="2", dry_run="1"))
        code, out, err = cli_at(capsys, monkeypatch, live, "resolve", GAME, "--night", "2",
                              "--dry-run")
        assert code == 0, err
        assert said.strip() == out.strip()

        votes = json.loads(cli_at(capsys, monkeypatch, live, "--json", "count", GAME,
                                "--why")[1])["votes"]
        first, last = votes[0]["post"], votes[-1]["post"]
        _stores_as_the_command(client, capsys, monkeypatch, live, "rule",
                               {"ruling": "as_read", "post": str(first),
                                "from_post": str(last)},
                               "rule", GAME, "--post", str(first), "--from-post", str(last))

        # Night 2 resolved and stored from the page; its result PMs are `draft pms`'s.
        said = flash_of(client, _post(client, f"/game/{GAME}/resolve", night="2"))
        assert said.startswith("night 2: resolved and stored")
        page = client.get(f"/game/{GAME}/pms", params={"night": "2"}).text
        code, out, err = cli_at(capsys, monkeypatch, live, "draft", "pms", GAME, "--night", "2")
        assert code == 0, err
        boxes = re.findall(r'<textarea readonly[^>]*>(.*?)</textarea>', page, re.S)
        assert boxes and "Lady Grey" in page
        assert "\n---\n".join(unescape(b).rstrip("\n") for b in boxes) == out.rstrip()
        page = client.get(f"/game/{GAME}/pms", params={"day": "2", "night": "2"}).text
        assert "give a day alone" in unescape(page)
        page = client.get(f"/game/{GAME}/pms", params={"day": "1"}).text
        code, out, err = cli_at(capsys, monkeypatch, live, "draft", "pms", GAME, "--day", "1")
        assert code == 1 and err.removeprefix("error: ").strip() in unescape(page)


def test_the_sheriff_from_a_given_day(tmp_path, capsys) -> None:  # noqa: ANN001
    data = _game_001(tmp_path, capsys)
    web = start(Dashboard(data, FakeClock(NOW), Guard()), "127.0.0.1", 0)
    try:
        with httpx.Client(base_url=web.url) as client:
            r = _post(client, "/game/w/sheriff", player="lady grey", day="2")
            assert r.status_code == 303
    finally:
        web.stop()
    code, out, err = run(capsys, "--data-dir", str(data), "--json", "log", "w")
    assert code == 0, err
    assert json.loads(out)["inputs"][-1]["what"] == "Lady Grey is the sheriff from Day 2"


def test_the_threshold_of_failing_polls_from_the_notify_tab(
    live: Live, capsys, monkeypatch  # noqa: ANN001, F811
) -> None:
    with httpx.Client(base_url=live.web.url) as client:
        said = flash_of(client, _post(client, f"/game/{GAME}/poll-after", poll_after="45m"))
        assert said == "Polls failing for 45 min are told."
        code, out, err = cli_at(capsys, monkeypatch, live, "--json", "notify", GAME)
        assert code == 0 and json.loads(out)["poll_after_s"] == 45 * 60, err
        r = _post(client, f"/game/{GAME}/poll-after", poll_after="soon")
        code, _out, err = cli_at(capsys, monkeypatch, live, "notify", GAME, "--poll-after", "soon")
        assert r.status_code == 400 and code == 1
        assert err.removeprefix("error: ").strip() in unescape(r.text)
