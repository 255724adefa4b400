"""The dashboard's pieces of issue 22 on thread B, posted as the page posts them: a ruling
from a vote's row in `--why`, the log with Undo, a tie waiting for its choice, and
tonight's orders with a replaced one marked. Each is stored as the command line stores
it, and the count then reads as `count` does."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import httpx
import pytest
import thread_b_support as tb
from cli_support import call
from test_cli_count import _game_001
from test_rulings import AT, b_post
from thread_b_cli import setup_file

from assistant.clock import FakeClock
from assistant.store import GameStore
from assistant.web.app import Dashboard
from assistant.web.guard import Guard
from assistant.web.server import start

FORUM = "smf21"


def _post(client: httpx.Client, game: str, action: str, **fields: str) -> httpx.Response:
    page = client.get(f"/game/{game}").text
    csrf = re.search(r'name="csrf" value="(\w+)"', page).group(1)  # type: ignore[union-attr]
    return client.post(f"/game/{game}/{action}", data={"csrf": csrf, **fields})


def _said(client: httpx.Client, r: httpx.Response) -> str:
    assert r.status_code == 303, r.text[-2000:]
    return client.get(r.headers["location"]).text


@pytest.fixture
def thread_b_web(tmp_path: Path) -> Iterator[httpx.Client]:
    meta = tb.truth(FORUM)["meta"]
    with tb.new_store(tmp_path, FORUM, day_ends=meta["day"]["announced_end_iso"]) as store:
        store.record_posts(tb.final_posts(FORUM), tb.SAVED_AT)
    web = start(Dashboard(tmp_path, FakeClock(datetime.fromisoformat(AT)), Guard()), "127.0.0.1", 0)
    try:
        with httpx.Client(base_url=web.url) as client:
            client.data = tmp_path  # type: ignore[attr-defined]
            yield client
    finally:
        web.stop()


def test_a_ruling_from_a_votes_row_and_its_undo_from_the_log(thread_b_web, capsys) -> None:
    client, data = thread_b_web, thread_b_web.data
    jd = b_post(FORUM, 153)
    why = client.get("/game/thread-b?why=Jd-").text
    assert f'<input type="hidden" name="post" value="{jd}">' in why  # a Rule form per vote
    two = b_post(FORUM, 127)
    assert f'name="post" value="{two}">\n<input type="hidden" name="which" value="2">' in why
    page = _said(client, _post(client, "thread-b", "rule", post=str(jd), ruling="vote",
                               target="Conia"))
    assert f"Ruled on post {jd} (Jd-): a vote for Conia." in page
    counted = json.loads(call(capsys, data, "count", "thread-b", "--json", "--why", "Jd-")[1])
    ruled = next(v for v in counted["votes"] if v["post"] == jd)
    assert ruled["ruling"].startswith("ruled by the GM at") and ruled["target"] == "Conia"
    log = client.get("/game/thread-b").text
    assert f"ruling on post {jd} (Jd-): a vote for Conia" in log
    entries = json.loads(call(capsys, data, "log", "thread-b", "--json")[1])["inputs"]
    ruling = entries[-1]["id"]
    page = _said(client, _post(client, "thread-b", "undo", input=str(ruling)))
    assert f"Withdrawn: input {ruling} (ruling on post {jd} (Jd-): a vote for Conia)" in page
    assert f"withdrawn by {ruling + 1}" in page
    counted = json.loads(call(capsys, data, "count", "thread-b", "--json")[1])
    assert counted["outcome"]["lynched"] == ["xX_Slayer_Xx"]
    # A refusal is the command's one line.
    r = _post(client, "thread-b", "undo", input="1")
    assert r.status_code == 400 and "its only one: a game cannot be without players" in r.text


def test_tonights_orders_mark_a_replaced_one_and_withdraw_from_the_page(
    thread_b_web, capsys
) -> None:
    client, data = thread_b_web, thread_b_web.data
    call(capsys, data, "roles", "thread-b", "--file", str(setup_file(data, FORUM)))
    call(capsys, data, "phase", "thread-b", "night", "2")
    _said(client, _post(client, "thread-b", "order", orders="Lady Grey: investigate Conia"))
    page = _said(client, _post(client, "thread-b", "order", orders="Lady Grey: investigate Jd-"))
    assert ('<s>Lady Grey: investigate Conia</s> <em class="quiet">replaced by the later order '
            "Lady Grey: investigate Jd-</em>") in page
    page = _said(client, _post(client, "thread-b", "order", orders="Lady Grey: none"))
    assert "Lady Grey: no action on night 2; withdrawn: Lady Grey: investigate Conia" in page
    with GameStore.open(data, "thread-b") as store:
        assert not [d for d in store.inputs("order") if d["data"]["actor"] == "Lady Grey"]


def test_a_tie_waiting_for_the_sheriff_says_so_on_the_page(tmp_path: Path, capsys) -> None:
    data = _game_001(tmp_path, capsys)
    call(capsys, data, "sheriff", "w", "Lady Grey")
    call(capsys, data, "phase", "w", "day", "1", "--start-post", "2", "--ends",
         "2026-11-22T04:02:00+00:00")
    web = start(Dashboard(data, FakeClock(datetime.fromisoformat(AT)), Guard()), "127.0.0.1", 0)
    try:
        with httpx.Client(base_url=web.url) as client:
            page = client.get("/game/w").text
            assert "waiting for the sheriff&#39;s choice" in page
            assert "The count waits for this choice: Jd- or Mr. Pickles." in page
            assert "no lynch" not in page.split('id="count"', 1)[1].split("</section>", 1)[0]
            page = _said(client, _post(client, "w", "tiebreak", choice="Jd-"))
            assert "Recorded: the sheriff chose Jd-" in page
    finally:
        web.stop()
