"""The dashboard's Post and Send buttons on the real SMF 2.1.5 and phpBB 3.3.10 (issues 23
and 25), pressed as a GM presses them: the confirmation shows exactly the text, the thread
and the account before anything is written (in headless Chromium, with a screenshot), the
tally lands in the thread as the GM's post, a second press of the same confirmation is
refused, "post it again" posts it once more, and the next poll reads both as host posts;
the result PMs go out through the forum's PMs, a recipient the forum does not know stops
the run part-way with the sent and the unsent named in one line, Send again sends only the
rest, and each member reads their own PM in their inbox (forum.py)."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path

import httpx
import pytest
from test_live_post_pm_inbox import VARIABLE, new_game
from test_web_dashboard import browser, shots  # noqa: F401 - the fixtures
from test_web_writes import hidden_fields

from assistant.clock import FakeClock
from assistant.scrapers.http import FetchSettings
from assistant.store import GameStore
from assistant.web import writes
from assistant.web.app import Dashboard
from assistant.web.guard import Guard
from assistant.web.server import WebServer, start


@pytest.fixture
def dashboard(monkeypatch) -> Iterator[Callable[[Path, datetime], WebServer]]:  # noqa: ANN001
    """Start the dashboard on a data directory at a moment (no delay between the forum's
    requests, as the CLI tests give --delay 0)."""
    monkeypatch.setattr(writes, "WRITE_SETTINGS", FetchSettings(delay=0, retries=1))
    servers: list[WebServer] = []

    def serve(data: Path, now: datetime) -> WebServer:
        servers.append(start(Dashboard(data, FakeClock(now), Guard()), "127.0.0.1", 0))
        return servers[-1]

    yield serve
    for web in servers:
        web.stop()


def write_link(page: str, which: str) -> str:
    return html.unescape(re.search(  # type: ignore[union-attr]
        rf'href="([^"]+)" data-write="{which}"', page).group(1))


def flash_of(client: httpx.Client, r: httpx.Response) -> str:
    assert r.status_code == 303, r.text[-2000:]
    page = client.get(r.headers["location"]).text
    return html.unescape(re.search(r'class="flash" role="status">([^<]*)<', page).group(1))  # type: ignore[union-attr]


def test_post_the_tally_from_the_page_once_smf(
        live_forums, tmp_path, capsys, monkeypatch, browser, shots, dashboard):  # noqa: ANN001, F811
    board, topic, gm, (a, b, c, *_), g = new_game(
        live_forums, "smf", tmp_path, capsys, monkeypatch, "wpt")
    board.reply(a, topic, f"[Vote: {c}]")
    board.reply(b, topic, f"[Vote: {c}]")
    g.run("fetch", "--game", "g", "--delay", "0", "--login", gm, "--password-env", VARIABLE)
    tally = g.run("draft", "tally", "g")[0].strip()
    before = g.json("count", "g")
    web = dashboard(tmp_path / "data", g.now)
    thread = live_forums.topic_url("smf", topic)
    ids = board.post_ids(topic)

    # In the browser: Post… opens the confirmation, which shows the text, the thread and
    # the account, and nothing is written until its own button is pressed.
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto(web.url + "/game/g")
    page.click("#tab-drafts")
    with page.expect_navigation():
        page.click('a[data-write="post-tally"]')
    assert page.locator("#to-write").inner_text().strip() == tally
    assert page.locator(".confirm-write .account").inner_text() == gm
    assert page.locator(".confirm-write a.thread").get_attribute("href") == thread
    assert f"{gm} is not among the GMs of g: it will be added" in page.inner_text("main")
    page.screenshot(path=str(shots / "confirm-post-tally.png"), full_page=True)
    assert board.post_ids(topic) == ids  # shown, not posted
    with httpx.Client(base_url=web.url, timeout=120) as client:
        fields = hidden_fields(client.get(write_link(client.get("/game/g").text,
                                                     "post-tally")).text)
    with page.expect_navigation():
        page.click("button.write-confirm")
    said = page.locator(".flash").inner_text()
    [made] = GameStore.open(tmp_path / "data", "g").inputs("posted")
    post_id = made["data"]["post_id"]
    assert board.post_ids(topic) == [*ids, post_id]
    assert f"posted as {gm}" in said and f"post {post_id}" in said, said
    page.click("#tab-drafts")
    assert f"post {post_id}" in page.locator('[data-written="post-tally"]').inner_text()
    assert page.locator('a[data-write="post-tally"]').inner_text() == "Post again…"
    page.screenshot(path=str(shots / "posted-tally.png"))
    page.close()

    with httpx.Client(base_url=web.url, timeout=120) as client:
        # The same confirmation pressed a second time: refused, nothing posted.
        r = client.post("/game/g/post", data=fields)
        assert r.status_code == 400
        assert "was posted already" in r.text and "not posted twice" in r.text
        assert board.post_ids(topic) == [*ids, post_id]
        # The confirmation now says it was posted and asks for "post it again".
        confirm = client.get(write_link(client.get("/game/g").text, "post-tally")).text
        assert f"Posted already as <a href=\"{made['data']['url']}\"" in confirm
        assert 'name="again" value="1" required' in confirm
        again = flash_of(client, client.post("/game/g/post", data={
            **hidden_fields(confirm), "again": "1"}))
    second = GameStore.open(tmp_path / "data", "g").inputs("posted")[-1]["data"]["post_id"]
    assert f"post {second}" in again and board.post_ids(topic) == [*ids, post_id, second]

    # The next poll reads both as the host's posts: no vote, the count as it was.
    assert g.json("fetch", "--game", "g", "--delay", "0")["new"] == [post_id, second]
    assert g.json("count", "g")["wagons"] == before["wagons"]
    authors = {sp.latest.post_id: sp.latest.author
               for sp in GameStore.open(tmp_path / "data", "g").posts()}
    assert authors[post_id] == authors[second] == gm


def test_send_result_pms_from_the_page_part_way_then_the_rest_phpbb(
        live_forums, tmp_path, capsys, monkeypatch, dashboard):  # noqa: ANN001
    board, topic, gm, names, g = new_game(
        live_forums, "phpbb", tmp_path, capsys, monkeypatch, "wps")
    setup = tmp_path / "three-cops.toml"  # three result PMs: one sent, one stopped, one left
    setup.write_text("seed = 2\nplayers = [\n" + ",\n".join(
        f'  {{ name = "{n}", role = "{r}" }}' if r else f'  {{ name = "{n}", side = "town" }}'
        for n, r in zip(names, ("investigator", "investigator", "investigator", "godfather",
                                None, None), strict=True)) + "\n]\n", encoding="utf-8")
    g.run("roles", "g", "--file", str(setup))
    g.run("fetch", "--game", "g", "--delay", "0", "--login", gm, "--password-env", VARIABLE)
    g.run("phase", "g", "night", "1")
    for cop, suspect in zip(names[:3], names[3:], strict=True):
        g.run("order", "g", f"{cop}: investigate {suspect}")
    g.run("resolve", "g", "--night", "1")
    pms = g.json("draft", "pms", "g", "--night", "1")
    assert len(pms) == 3, pms
    web = dashboard(tmp_path / "data", g.now)

    with httpx.Client(base_url=web.url, timeout=120) as client:
        confirm = client.get(write_link(client.get("/game/g").text, "send-result-pms")).text
        shown = re.findall(r'To: <strong class="to">([^<]+)</strong>', confirm)
        assert sorted(html.unescape(s) for s in shown) == sorted(pms)
        for text in pms.values():  # each body exactly as drafted
            body = text.strip().splitlines()[-1]
            assert html.escape(body, quote=False) in confirm, body
        fields = hidden_fields(confirm)
        first, second, *rest = [html.unescape(s) for s in shown]

        # The forum does not know the second recipient (renamed): the run stops there.
        uid = board.member_id(second)
        board.sql(f"UPDATE phpbb_users SET username='gone{uid}', username_clean='gone{uid}' "
                  f"WHERE user_id={uid}")
        try:
            r = client.post("/game/g/send", data=fields)
        finally:
            board.sql(f"UPDATE phpbb_users SET username='{second}', username_clean="
                      f"'{second.lower()}' WHERE user_id={uid}")
        assert r.status_code == 400
        line = html.unescape(re.search(r'class="error" role="alert">([^<]*)<', r.text).group(1))  # type: ignore[union-attr]
        assert f"sent: {first} (PM " in line and f"stopped at {second} (not sent)" in line
        assert f"the forum did not accept {second!r} as a recipient" in line
        assert "press Send again to send the rest: nothing is sent twice" in line
        if rest:
            assert f"not sent: {', '.join(rest)}" in line
        [sent] = GameStore.open(tmp_path / "data", "g").inputs("pm_sent")
        assert sent["data"]["player"] == first

        page = client.get("/game/g").text
        assert f"PM {sent['data']['pm_id']} to {first}" in html.unescape(page)
        assert f"Send {1 + len(rest)} PM" in page
        confirm = client.get(write_link(page, "send-result-pms")).text
        assert f"Sent already, not sent again: {first}" in html.unescape(confirm)
        said = flash_of(client, client.post("/game/g/send", data=hidden_fields(confirm)))
        assert said.startswith(f"sent: {second} (PM "), said
        r = client.post("/game/g/send", data=hidden_fields(confirm))  # pressed twice
        assert r.status_code == 400 and "were sent already" in r.text

    done = {s["data"]["player"]: s["data"] for s in GameStore.open(tmp_path / "data",
                                                                       "g").inputs("pm_sent")}
    assert sorted(done) == sorted(pms)
    rows = board.sql(f"SELECT COUNT(*) FROM phpbb_privmsgs WHERE author_id="
                     f"{board.member_id(gm)}")
    assert rows == [[str(len(pms))]]  # none sent twice
    for player, text in pms.items():  # each member reads theirs in their own inbox
        _url, inbox = board.fetch(f"ucp.php?i=pm&mode=view&f=0&p={done[player]['pm_id']}",
                                  as_member=board._session(player).name)
        body = text.strip().splitlines()[-1]
        assert html.escape(body, quote=False) in inbox, (player, body)
