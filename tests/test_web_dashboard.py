"""The dashboard in a real browser: headless Chromium (Debian's package, driven by
Playwright with `executable_path`) on thread B as it grew, served on 127.0.0.1 and polled
by the daemon with the test's clock. The page must agree with the command line: the count
with `count --json`, the copied tally with `draft tally`, the refused order with `order`'s
error, the acknowledged alert with `alerts --all --json`.

Screenshots of the main views go to ASSISTANT_SCREENSHOTS (or pytest's tmp dir).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import thread_b_support as tb
from cli_support import error_line, run_at
from daemon_support import serve, setup_store, snapshots, thread_url
from forum_server import ForumServer, page_path, running_forum
from test_daemon import setup_store_with_roles

from assistant.clock import FakeClock
from assistant.daemon import Daemon
from assistant.scrapers.http import Fetcher, FetchSettings
from assistant.store import GameStore
from assistant.web.app import Dashboard
from assistant.web.guard import Guard
from assistant.web.server import WebServer, start

playwright_api = pytest.importorskip("playwright.sync_api")  # a test dependency: always there

CHROMIUM = Path(os.environ.get("ASSISTANT_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
FORUM = "smf21"
WAIT_MS = 20_000
"""How long the browser may take to show a change: generous, since CI is a busy box; the
waits end as soon as the page shows it, and nothing sleeps."""


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not CHROMIUM.exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: `apt-get install chromium` (.ci/run does it), "
                    "or set ASSISTANT_CHROMIUM")
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = os.environ.get("ASSISTANT_SCREENSHOTS")
    folder = Path(where) if where else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@dataclass
class Live:
    """Thread B served as it grew, its store, the daemon and the dashboard."""

    forum: ForumServer
    data: Path
    clock: FakeClock
    daemon: Daemon
    web: WebServer
    snaps: list

    def grow_to(self, index: int) -> None:
        """The thread as the forum showed it at snapshot `index`, and one daemon cycle."""
        snap = self.snaps[index]
        self.clock.set(snap.saved_at)
        serve(self.forum, FORUM, snap, self.snaps)
        report = self.daemon.cycle("thread-b")
        assert report.error is None and report.poll_error is None, report.summary()

    def now(self) -> str:
        return self.clock.now().isoformat()


def make_daemon(data: Path, clock: FakeClock) -> Daemon:
    return Daemon(data, clock, lambda: Fetcher(
        httpx.Client(), FetchSettings(delay=0, backoff=0), sleep=lambda s: None, clock=clock))


@pytest.fixture
def live(tmp_path: Path) -> Iterator[Live]:
    with running_forum() as forum:
        snaps = snapshots(FORUM)
        clock = FakeClock(snaps[0].saved_at)
        setup_store_with_roles(tmp_path, FORUM, thread_url(forum, FORUM))
        with GameStore.open(tmp_path, "thread-b", create=False) as store:
            store.update_config(title="Chat Mafia")
        daemon = make_daemon(tmp_path, clock)
        web = start(Dashboard(tmp_path, clock, Guard(), watch_interval=0.1), "127.0.0.1", 0)
        try:
            yield Live(forum, tmp_path, clock, daemon, web, snaps)
        finally:
            web.stop()


def page_count(page) -> dict:  # noqa: ANN001 - a Playwright Page
    """The count as the page shows it: target -> (effective votes, voters), not voting."""
    rows = page.locator("#count tr.wagon")
    wagons = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        voters = [v.strip() for v in row.locator("td.voters").inner_text().split(",")
                  if v.strip()]
        wagons[row.locator("td.target").inner_text().strip()] = (
            int(row.locator("td.votes").get_attribute("data-effective")), voters)
    names = page.locator("#count .not-voting .names").inner_text().strip()
    return {"wagons": wagons, "not_voting": [] if names == "none" else names.split(", ")}


def cli_count(capsys, monkeypatch, live: Live) -> dict:  # noqa: ANN001
    code, out, err = run_at(capsys, monkeypatch, live.data, live.now(), "count", "thread-b",
                            "--json")
    assert code == 0, err
    doc = json.loads(out)
    return {
        "wagons": {w["target"]: (w["effective"], w["voters"]) for w in doc["wagons"]},
        "not_voting": doc["not_voting"],
    }


def test_the_dashboard_shows_and_acts_like_the_command_line(
    live: Live, browser, shots: Path, capsys, monkeypatch  # noqa: ANN001
) -> None:
    live.grow_to(4)  # 25 posts: votes on three wagons, the first alerts
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live.web.url)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    # The overview: every game, what needs attention first.
    page.goto(live.web.url + "/")
    row = page.locator("tr.game[data-game='thread-b']")
    assert "Chat Mafia" in row.inner_text()
    assert "Day 2" in row.inner_text()
    page.screenshot(path=str(shots / "overview.png"), full_page=True)

    # The game's page: the count is `count --json`'s.
    row.locator("a").click()
    page.wait_for_selector("#count")
    expected = cli_count(capsys, monkeypatch, live)
    assert expected["wagons"], "thread B has votes by snapshot 5"
    assert page_count(page) == expected
    # The chart: a line per wagon of the day, each ending where the count stands (a wagon
    # emptied since ends at 0).
    lines = page.locator("svg.chart polyline.wagon").evaluate_all(
        "els => els.map(e => [e.dataset.target, Number(e.dataset.final)])")
    ends = dict(lines)
    assert len(ends) == len(lines) and set(expected["wagons"]) <= set(ends)
    assert {t: n for t, n in ends.items() if n} == {
        t: n for t, (n, _voters) in expected["wagons"].items()}
    assert page.locator("svg.chart line.deadline").count() == 1
    page.screenshot(path=str(shots / "game.png"), full_page=True)
    page.locator("#count").screenshot(path=str(shots / "count-and-chart.png"))

    # --why for one player: every vote, counted or not, and why (the CLI's reasons).
    page.click("#tab-votes")
    page.fill("#why input[name=why]", "Mr. Pickles")
    page.click("#why button")
    page.wait_for_selector("table.why")
    code, out, err = run_at(capsys, monkeypatch, live.data, live.now(), "count", "thread-b",
                            "--why", "Mr. Pickles", "--json")
    reasons = [v["reason"] for v in json.loads(out)["votes"]]
    assert reasons and page.locator("table.why tbody td:nth-child(5)").all_inner_texts() == reasons

    # Acknowledge an alert: the CLI sees it acknowledged, with the note.
    first = page.locator("#alerts .alert:not(.acked)").first
    alert_id = first.get_attribute("data-alert")
    kind = first.locator(".kind").text_content()
    page.fill("#alerts input[name=note]", "warned him <b>twice</b>")
    first.locator("button.ack").click()
    page.wait_for_selector(f"#alert-{alert_id}.acked", state="attached")
    assert page.locator(".flash").inner_text() == f"Acknowledged {alert_id} ({kind})."
    assert "warned him <b>twice</b>" in page.locator(
        f"#alert-{alert_id} .acked-note").text_content()
    code, out, err = run_at(capsys, monkeypatch, live.data, live.now(), "alerts", "thread-b",
                            "--all", "--json")
    acked = {a["id"]: a for a in json.loads(out)["alerts"]}[alert_id]
    assert acked["acked_at"] is not None and acked["ack_note"] == "warned him <b>twice</b>"

    # A bad order is refused with the command line's error, and nothing is stored.
    bad = "Conia: jail Nobody"
    code, out, err = run_at(capsys, monkeypatch, live.data, live.now(), "order", "thread-b",
                            bad)
    assert code == 1
    page.click("#tab-night")
    page.fill("#order textarea", bad)
    page.click("#order button")
    page.wait_for_selector("#order .error")
    assert page.locator("#order .error").inner_text() == error_line(err)
    assert page.locator("#order textarea").input_value() == bad  # kept for fixing
    page.screenshot(path=str(shots / "order-refused.png"), full_page=True)
    page.locator("#order").screenshot(path=str(shots / "order-form.png"))
    with GameStore.open(live.data, "thread-b", create=False) as store:
        assert store.inputs("order") == []
    # A good one is stored, as `order` stores it.
    page.fill("#order textarea", "Conia: jail Jd-")
    page.click("#order button")
    page.wait_for_selector(".flash")
    stored = page.locator(".flash").inner_text()
    assert stored.startswith("stored for night ")
    night = stored.removeprefix("stored for night ").split(":")[0]
    # The form's heading names the night the order went to, and lists it.
    assert page.locator("#order h2").inner_text() == f"Night orders · Night {night}"
    assert "Conia" in page.locator("#order .entered").inner_text()
    with GameStore.open(live.data, "thread-b", create=False) as store:
        orders = [d["data"] for d in store.inputs("order")]
    assert [(o["actor"], o["targets"]) for o in orders] == [("Conia", ["Jd-"])]

    # Copy the tally draft: the clipboard holds what `draft tally` prints.
    page.click("#tab-drafts")
    page.click("#draft-tally button.copy")
    page.wait_for_selector("#draft-tally .copied:has-text('Copied.')")
    copied = page.evaluate("navigator.clipboard.readText()")
    code, out, err = run_at(capsys, monkeypatch, live.data, live.now(), "draft", "tally",
                            "thread-b")
    assert code == 0, err
    assert copied.rstrip("\n") == out.rstrip("\n")

    # A poll brings new posts: they appear without a reload, and the count follows.
    page.evaluate("window.notReloaded = true")
    before = set(page.locator("#posts li.post").evaluate_all(
        "els => els.map(e => e.dataset.post)"))
    live.grow_to(5)
    with GameStore.open(live.data, "thread-b", create=False) as store:
        newest = max(store.live_post_ids())
    assert str(newest) not in before
    page.wait_for_selector(f"#posts #post-{newest}", timeout=WAIT_MS, state="attached")
    assert page.evaluate("window.notReloaded") is True
    assert page_count(page) == cli_count(capsys, monkeypatch, live)
    page.screenshot(path=str(shots / "game-after-poll.png"), full_page=True)
    assert errors == []
    context.close()


HOSTILE_NAME = '<img src=x onerror="window.pwned=1">Conia'
HOSTILE_POST = '<script>window.pwned=2</script><b onmouseover="window.pwned=3">hi</b>'


def test_a_player_name_and_a_post_with_html_and_script_stay_text(
    tmp_path: Path, browser, shots: Path  # noqa: ANN001
) -> None:
    """A forum shows what members type as text; so must the dashboard: a name and a post
    holding HTML and a script show as those characters, and nothing of them runs."""
    page_file = tb.REALFORUM / "live" / "smf21_b_live_10_p1.html"
    raw = page_file.read_bytes()
    escaped_name = HOSTILE_NAME.replace("&", "&amp;").replace("<", "&lt;").replace(
        ">", "&gt;").replace('"', "&quot;")
    escaped_post = HOSTILE_POST.replace("<", "&lt;").replace(">", "&gt;").replace(
        '"', "&quot;")
    hostile = raw.replace(b">Conia<", f">{escaped_name}<".encode()).replace(
        b'id="msg_117">', f'id="msg_117">{escaped_post} <img src=x onerror="window.pwned=4">'
        .encode())
    assert hostile.count(escaped_name.encode()) >= 1 and escaped_post.encode() in hostile
    with running_forum() as forum:
        clock = FakeClock(snapshots(FORUM)[1].saved_at)
        setup_store(tmp_path, FORUM, thread_url(forum, FORUM))
        with GameStore.open(tmp_path, "thread-b", create=False) as store:
            players = store.inputs("players")[0]["data"]["players"]
            renamed = [[HOSTILE_NAME if n == "Conia" else n for n in slot] for slot in players]
            store.add_input("players", {"players": renamed}, clock.now())
        forum.set_page(page_path("smf", 3, 1), hostile)
        report = make_daemon(tmp_path, clock).cycle("thread-b")
        assert report.error is None, report.summary()
        web = start(Dashboard(tmp_path, clock, Guard()), "127.0.0.1", 0)
        try:
            page = browser.new_page()
            dialogs: list[str] = []
            page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            page.goto(web.url + "/game/thread-b")
            page.click("#tab-posts")
            post = page.locator("#post-117 .post-text").inner_text()
            assert HOSTILE_POST in post
            assert HOSTILE_NAME in page.locator("#players").text_content()
            assert HOSTILE_NAME in page.locator("#posts").inner_text()  # as the author
            page.locator("#post-117").hover()
            assert page.evaluate("window.pwned") is None
            assert page.locator("main img, main script, main b[onmouseover]").count() == 0
            assert dialogs == []
            page.screenshot(path=str(shots / "hostile-text.png"), full_page=True)
            page.close()
        finally:
            web.stop()


def test_a_cross_site_post_is_refused(live: Live, browser) -> None:  # noqa: ANN001
    """Another site's page (here: the forum's own origin, another port) submitting the
    acknowledge form: Chromium sends it, the dashboard refuses it, the alert stays open."""
    live.grow_to(4)
    with GameStore.open(live.data, "thread-b", create=False) as store:
        alert_id = store.alert_records()[0][0]["id"]
    live.forum.set_page("/evil.html", (
        f'<html><body><form id="f" method="post" action="{live.web.url}/game/thread-b/ack">'
        f'<input name="alert" value="{alert_id}"><input name="csrf" value="guessed">'
        '</form><script>document.getElementById("f").submit()</script></body></html>'
    ).encode())
    page = browser.new_page()
    with page.expect_navigation(url=f"{live.web.url}/game/thread-b/ack"):
        page.goto(live.forum.base_url + "/evil.html")
    assert "refused" in page.locator("body").inner_text()
    page.close()
    with GameStore.open(live.data, "thread-b", create=False) as store:
        doc = next(d for d in store.alert_records()[0] if d["id"] == alert_id)
    assert not doc.get("acked_at")

    # Without a browser's Origin header, the form's anti-forgery value still decides.
    client = httpx.Client(base_url=live.web.url)
    r = client.post("/game/thread-b/ack", data={"alert": alert_id, "csrf": "guessed"})
    assert r.status_code == 403 and "did not come from this dashboard" in r.text
    # A page reached under another host name (DNS rebinding) is not served at all.
    r = client.get("/game/thread-b", headers={"Host": "evil.example:80"})
    assert r.status_code == 403 and "answers only on 127.0.0.1" in r.text
    # The page's own form value passes (same origin, no Origin header: a curl by the GM).
    html = client.get("/game/thread-b").text
    csrf = html.split('name="csrf" value="', 1)[1].split('"', 1)[0]
    r = client.post("/game/thread-b/ack", data={"alert": alert_id, "csrf": csrf})
    assert r.status_code == 303


RLO = "\u202e"
ORDER_JS = """([selector, contains, first, second]) => {
    // The x of the first character of `first` and of the next `second` after it, in the
    // element whose text holds `contains`, as the browser laid them out.
    const el = [...document.querySelectorAll(selector)]
        .find(e => e.textContent.includes(contains));
    const nodes = [];
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) nodes.push(n);
    const text = nodes.map(n => n.data).join("");
    const x = (at) => {
        for (const node of nodes) {
            if (at < node.data.length) {
                if (el instanceof SVGTextContentElement) {
                    return el.getStartPositionOfChar(text.indexOf(node.data) + at).x;
                }
                const r = document.createRange();
                r.setStart(node, at);
                r.setEnd(node, at + 1);
                return r.getBoundingClientRect().left;
            }
            at -= node.data.length;
        }
        return null;
    };
    const a = text.indexOf(first);
    return [x(a), x(text.indexOf(second, a + 1))];
}"""


def test_a_right_to_left_override_in_a_name_reverses_nothing_around_it(
    tmp_path: Path, browser, shots: Path  # noqa: ANN001
) -> None:
    """A player whose name starts with U+202E (RIGHT-TO-LEFT OVERRIDE), as the drafts
    isolate it (safe_text): the chart's legend still reads "name (4)", the players table's
    row "name (Jd-, Jd, JD)"; the name the GM picks from the list stays as written."""
    renamed = {"Jd-": RLO + "Jd-", "xX_Slayer_Xx": RLO + "xX_Slayer_Xx"}
    setup_store(tmp_path, FORUM, tb.THREAD_URL[FORUM])
    with GameStore.open(tmp_path, "thread-b", create=False) as store:
        players = [[renamed[s[0]], *s] if s[0] in renamed else s
                   for s in tb.thread_b_players(FORUM)]
        store.add_input("players", {"players": players}, tb.SAVED_AT)
        store.record_posts(tb.final_posts(FORUM), tb.SAVED_AT)
    web = start(Dashboard(tmp_path, FakeClock(tb.SAVED_AT), Guard()), "127.0.0.1", 0)
    try:
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.goto(web.url + "/game/thread-b")
        legend = page.evaluate(ORDER_JS, ["svg text.legend", "Slayer", "(", ")"])
        assert None not in legend and legend[0] < legend[1], legend
        page.click("#tab-players")
        row = page.evaluate(ORDER_JS, ["#players td.name", "Jd", "(", ")"])
        assert None not in row and row[0] < row[1], row
        page.screenshot(path=str(shots / "rtl-override-name.png"), full_page=True)
        page.close()
        html = httpx.get(web.url + "/game/thread-b").text
    finally:
        web.stop()
    isolated = "\u2068" + RLO + "Jd-\u202c\u2069"  # its override closed inside the isolate
    assert f'<td class="name">{isolated} <span class="aliases">' in html
    assert f'<option value="{RLO}Jd-">' in html  # what the GM picks: the name as written
