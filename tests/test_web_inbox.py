"""The inbox's proposals on the dashboard, in a real browser (headless Chromium through
Playwright, as tests/test_web_dashboard.py drives it): each proposal beside the message it
came from, Accept stores it as `inbox --accept` does, Accept as written stores the GM's
line, Reject keeps the GM's no, Accept all takes only those read without doubt; what the
page stored is what `inbox --stored --json` and `log` then show."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from cli_support import run_at
from inbox_support import NIGHT_1, keep_message, make_games
from test_web_dashboard import WAIT_MS, browser, shots  # noqa: F401  (fixtures)

from assistant.clock import FakeClock
from assistant.engine.history import ORDER
from assistant.store import GameStore
from assistant.web.app import Dashboard
from assistant.web.guard import Guard
from assistant.web.server import WebServer, start

NOW = NIGHT_1 + timedelta(hours=1)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_games(tmp_path_factory.mktemp("web-inbox") / "data")


@pytest.fixture
def served(built: Path, tmp_path: Path) -> Iterator[tuple[WebServer, Path]]:
    data = tmp_path / "data"
    shutil.copytree(built, data)
    with GameStore.open(data, "chat", create=False) as store:
        keep_message(store, 21, "Conia", "I'd like to protect Kat tonight", NIGHT_1, subject="N1")
        keep_message(store, 22, "Conia", "I'd like to protect Kat tonight", NIGHT_1, subject="N1")
        keep_message(store, 23, "Kat", "Night action: investigate Jd-",
                     NIGHT_1 + timedelta(minutes=2))
        keep_message(store, 24, "Jd-", "kill: Kaat", NIGHT_1 + timedelta(minutes=3))
        keep_message(store, 25, "Abs", "roleblock J", NIGHT_1 + timedelta(minutes=4))
        keep_message(store, 26, "Lady Grey", "Hi GM! <b>When</b> does the night end?",
                     NIGHT_1 + timedelta(minutes=5), body_html="Hi GM! &lt;b&gt;When&lt;/b&gt;"
                     " does the night end?")
    web = start(Dashboard(data, FakeClock(NOW), Guard(), watch_interval=0.1), "127.0.0.1", 0)
    try:
        yield web, data
    finally:
        web.stop()


def test_the_gm_accepts_edits_and_rejects_proposals_on_the_page(
        served, browser, shots: Path, capsys, monkeypatch) -> None:  # noqa: ANN001, F811
    web, data = served
    page = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: d.accept())  # the confirmation of Accept all
    page.goto(f"{web.url}/game/chat#inbox")
    panel = page.locator("#panel-inbox")
    panel.wait_for(state="visible", timeout=WAIT_MS)
    rows = page.locator("li.proposal")
    assert rows.count() == 5  # Conia's two PMs are one proposal
    conia = page.locator("#proposal-21")
    assert "PM 21, 22" in conia.inner_text() and "Conia: protect Kat" in conia.inner_text()
    assert "I'd like to protect Kat tonight" in conia.locator(".message").inner_text()
    # Player text is text, never markup.
    assert page.locator("#proposal-26 .message").inner_text().endswith(
        "Hi GM! <b>When</b> does the night end?")
    assert page.locator("#proposal-26 .message b").count() == 0
    assert "Check: 'Kaat' read as Kat" in page.locator("#proposal-24").inner_text()
    assert "could be Jd-, Jerry" in page.locator("#proposal-25").inner_text()
    page.screenshot(path=str(shots / "inbox.png"), full_page=True)

    # Accept all: only the two read without doubt.
    page.click("form.accept-all button")
    page.wait_for_selector("#proposal-23.accepted", state="attached", timeout=WAIT_MS)
    assert page.locator("#proposal-21").get_attribute("class").split()[:2] == [
        "proposal", "accepted"]
    assert "open" in page.locator("#proposal-24").get_attribute("class")
    # Accept the doubtful one as read, the ambiguous one as the GM reads it.
    page.locator("#proposal-24 button.accept").click()
    page.wait_for_selector("#proposal-24.accepted", state="attached", timeout=WAIT_MS)
    assert "Accepted 24 (Jd-, PM 24): stored for night 1: Jd- (mafia): kill Kat." in (
        page.locator(".flash").inner_text())
    page.locator("#proposal-25 .accept-as input[name=as]").fill("Abs: block Jd-")
    page.locator("#proposal-25 .accept-as button").click()
    page.wait_for_selector("#proposal-25.accepted", state="attached", timeout=WAIT_MS)
    # A refusal is the command line's one line, nothing stored.
    page.locator("#proposal-26 .accept-as input[name=as]").fill("Lady Grey: protect Kat")
    page.locator("#proposal-26 .accept-as button").click()
    page.wait_for_selector("#inbox .error", timeout=WAIT_MS)
    assert "has no ability 'protect'" in page.locator("#inbox .error").inner_text()
    page.locator("#proposal-26 button.reject").click()
    page.wait_for_selector("#proposal-26.rejected", state="attached", timeout=WAIT_MS)
    assert not errors, errors

    # What the page stored is what the command line shows.
    code, out, err = run_at(capsys, monkeypatch, data, NOW.isoformat(), "inbox", "chat",
                            "--stored", "--json")
    assert code == 0, err
    status = {p["id"]: p["status"] for p in json.loads(out)["proposals"]}
    assert status == {"21": "accepted", "23": "accepted", "24": "accepted", "25": "accepted",
                      "26": "rejected"}
    with GameStore.open(data, "chat", create=False) as store:
        texts = [(d["data"]["text"], d["data"]["proposal"]) for d in store.inputs(ORDER)]
    assert texts == [("Conia: protect Kat", "21"), ("Kat: investigate Jd-", "23"),
                     ("Jd-: kill Kat", "24"), ("Abs: block Jd-", "25")]
