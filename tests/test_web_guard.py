"""Who may reach the dashboard and what it links to, without a browser: the address
`run --web` accepts, the GM's token, the game-only post links, the overview's order."""

from __future__ import annotations

import html as html_text
import json
from pathlib import Path

import httpx
import pytest
import thread_b_support as tb
from cli_support import call, error_line, run_at
from daemon_support import serve, setup_store, snapshots, thread_url
from forum_server import running_forum

from assistant.clock import FakeClock
from assistant.errors import ConfigError
from assistant.store import GameStore
from assistant.web.app import Dashboard
from assistant.web.guard import Guard
from assistant.web.pages import forum_link, overview
from assistant.web.server import parse_address, start


def test_the_dashboard_listens_on_loopback_unless_the_gm_set_a_token() -> None:
    assert parse_address("127.0.0.1:8765", token=None) == ("127.0.0.1", 8765)
    assert parse_address("9000", token=None) == ("127.0.0.1", 9000)
    assert parse_address("localhost:9000", token=None) == ("localhost", 9000)
    with pytest.raises(ConfigError, match="needs a token: set ASSISTANT_WEB_TOKEN"):
        parse_address("0.0.0.0:8765", token=None)
    assert parse_address("0.0.0.0:8765", token="s3cret-of-the-gm-0042") == ("0.0.0.0", 8765)
    with pytest.raises(ConfigError, match="give HOST:PORT or PORT"):
        parse_address("127.0.0.1:http", token=None)


def test_run_web_refuses_a_public_address_without_a_token_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ASSISTANT_WEB_TOKEN", raising=False)
    code, out, err = call(capsys, tmp_path, "run", "--web", "0.0.0.0:8765")
    assert code == 1 and err.count("\n") == 1 and "ASSISTANT_WEB_TOKEN" in err
    code, out, err = call(capsys, tmp_path, "run", "--web", "--once")
    assert code == 1 and err == "error: --web serves the dashboard while the daemon runs; " \
        "drop --once\n"


def test_with_a_token_every_request_needs_it_once(tmp_path: Path) -> None:
    clock = FakeClock(tb.SAVED_AT)
    web = start(Dashboard(tmp_path, clock, Guard("s3cret-of-the-gm-0042")), "127.0.0.1", 0)
    try:
        with httpx.Client(base_url=web.url) as client:
            r = client.get("/")
            assert r.status_code == 401 and "ASSISTANT_WEB_TOKEN" in r.text
            assert client.get("/?token=wrong").status_code == 401
            r = client.get("/?token=s3cret-of-the-gm-0042")
            assert r.status_code == 303 and r.headers["location"] == "/"
            assert "HttpOnly; SameSite=Strict" in r.headers["set-cookie"]
            r = client.get("/")  # the cookie now
            assert r.status_code == 200 and "No games yet" in r.text
            assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
    finally:
        web.stop()


def test_post_links_go_only_to_the_games_forum() -> None:
    thread = "http://127.0.0.1:8021/index.php?topic=3.0"
    assert forum_link("http://127.0.0.1:8021/index.php?msg=140", thread) is not None
    assert forum_link("http://evil.example/index.php?msg=140", thread) is None
    assert forum_link("javascript:alert(1)", thread) is None
    assert forum_link("https://127.0.0.1:8021/index.php?msg=140", thread) is None
    assert forum_link("http://127.0.0.1:8021/index.php?msg=140", None) is None


def test_the_overview_puts_the_game_with_violations_first(tmp_path: Path) -> None:
    """Thread B's copied role PM (a violation under its house rule) puts it above a game
    with nothing to see; both are listed."""
    from assistant.alerts import AlertLog
    from assistant.monitor import load_view, run_checks

    setup_store(tmp_path, "smf21", tb.THREAD_URL["smf21"])
    quiet = tb.new_store(tmp_path, "smf21", "a-quiet-game")
    quiet.close()
    with GameStore.open(tmp_path, "thread-b", create=False) as store:
        store.record_posts(tb.final_posts("smf21"), tb.SAVED_AT)
        AlertLog(store).record(run_checks(load_view(store, tb.SAVED_AT), store), tb.SAVED_AT)
    games = overview(tmp_path, tb.SAVED_AT)
    assert [g.game_id for g in games] == ["thread-b", "a-quiet-game"]
    assert games[0].violations >= 1 and games[1].violations == 0
    assert any("unacknowledged violation" in n for n in games[0].needs)


def test_run_web_serves_the_dashboard_beside_the_daemon_and_stops_on_sigterm(
    tmp_path: Path,
) -> None:
    """`assistant run --web` in a child process, as a GM starts it: the daemon polls thread
    B, the page shows what it stored, and SIGTERM stops both cleanly."""
    import os
    import signal
    import subprocess
    import sys
    import threading
    import time

    with running_forum() as forum:
        snaps = snapshots("smf21")
        setup_store(tmp_path, "smf21", thread_url(forum, "smf21"))
        serve(forum, "smf21", snaps[2], snaps)
        env = {**os.environ, "ASSISTANT_NOW": snaps[2].saved_at.isoformat(),
               "ASSISTANT_DATA_DIR": str(tmp_path)}
        env.pop("ASSISTANT_WEB_TOKEN", None)
        proc = subprocess.Popen(
            [sys.executable, "-m", "assistant", "run", "--web", "127.0.0.1:0",
             "--interval", "3600", "--jitter", "0", "--delay", "0"],
            env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        lines: list[str] = []
        reader = threading.Thread(
            target=lambda: lines.extend(ln.rstrip("\n") for ln in proc.stderr), daemon=True)
        reader.start()

        def wait_for(what: str) -> str:
            end = time.monotonic() + 90
            while time.monotonic() < end and proc.poll() is None:
                found = [ln for ln in lines if what in ln]
                if found:
                    return found[0]
                time.sleep(0.05)
            raise AssertionError(f"no {what!r} from `run --web`; its log:\n" + "\n".join(lines))

        try:
            url = wait_for("dashboard: http://127.0.0.1:").split("dashboard: ")[1].rstrip("/")
            wait_for("poll thread-b:")
            with httpx.Client(base_url=url) as client:
                assert "Chat Mafia" in client.get("/").text
                page = client.get("/game/thread-b").text
                assert 'id="post-120"' in page and "Not voting" in page
        finally:
            proc.send_signal(signal.SIGTERM)
            code = proc.wait(timeout=60)
        reader.join(timeout=10)
        assert code == 0, "\n".join(lines)
        assert any("stopped" in ln for ln in lines)


def test_a_vote_sent_by_pm_is_entered_on_the_page_as_vote_enters_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """004 (DCTP Live Mini Mafia): "Votes are sent to the GM by PM". Thread B's players
    under 004: the page's form stores the vote `assistant vote` stores, and refuses a
    voter who is not playing with `vote`'s own error."""
    during = snapshots("smf21")[5].saved_at  # 11:15, Day 2 running
    setup_store(tmp_path, "smf21", tb.THREAD_URL["smf21"])
    with GameStore.open(tmp_path, "thread-b", create=False) as store:
        store.update_config(ruleset="dctp-mini")
        store.record_posts(
            [p for p in tb.final_posts("smf21") if p.posted_at <= during], during)
    clock = FakeClock(during)
    web = start(Dashboard(tmp_path, clock, Guard()), "127.0.0.1", 0)
    try:
        with httpx.Client(base_url=web.url) as client:
            html = client.get("/game/thread-b").text
            assert 'action="/game/thread-b/vote"' in html
            csrf = html.split('name="csrf" value="', 1)[1].split('"', 1)[0]
            r = client.post("/game/thread-b/vote",
                            data={"csrf": csrf, "voter": "Nobody", "target": "Jd-"})
            code, out, err = run_at(capsys, monkeypatch, tmp_path, during.isoformat(),
                                    "vote", "thread-b", "Nobody", "Jd-")
            assert code == 1 and r.status_code == 400
            refusal = error_line(err)
            shown_error = r.text.split('<p class="error" role="alert">', 1)[1].split("</p>")[0]
            assert html_text.unescape(shown_error) == refusal
            r = client.post("/game/thread-b/vote",
                            data={"csrf": csrf, "voter": "Conia", "target": "Jd-"})
            assert r.status_code == 303
            shown = client.get(r.headers["location"]).text
            assert "Recorded: Conia votes Jd- at " in shown
            page_count = client.get("/game/thread-b/count.json").json()
        code, out, err = run_at(capsys, monkeypatch, tmp_path, during.isoformat(),
                                "count", "thread-b", "--json")
        assert json.loads(out)["wagons"] == page_count["wagons"]
        assert {"target": "Jd-", "voters": ["Conia"]}.items() <= page_count["wagons"][0].items()
    finally:
        web.stop()


def test_after_the_deadline_the_page_says_the_day_is_over_as_count_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    setup_store(tmp_path, "smf21", tb.THREAD_URL["smf21"])
    with GameStore.open(tmp_path, "thread-b", create=False) as store:
        store.record_posts(tb.final_posts("smf21"), tb.SAVED_AT)
    code, out, err = run_at(capsys, monkeypatch, tmp_path, tb.SAVED_AT.isoformat(),
                            "count", "thread-b")
    over = [ln for ln in out.splitlines() if ln.startswith("Day 2 is over")]
    assert code == 0 and len(over) == 1, out
    web = start(Dashboard(tmp_path, FakeClock(tb.SAVED_AT), Guard()), "127.0.0.1", 0)
    try:
        page = httpx.get(web.url + "/game/thread-b").text
    finally:
        web.stop()
    shown = page.split('<p class="outcome over"><strong>', 1)[1].split("</strong>")[0]
    assert html_text.unescape(shown) == over[0]


def test_the_overview_lists_the_night_orders_still_missing_and_the_form_fills_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Night 2 of thread B with its setup (002 roles from the host's role PMs): the players
    with a night action and the mafia's kill are awaited; an order entered on the page is
    no longer."""
    from test_daemon import setup_store_with_roles

    setup_store_with_roles(tmp_path, "smf21", tb.THREAD_URL["smf21"])
    night = tb.SAVED_AT
    code, out, err = run_at(capsys, monkeypatch, tmp_path, night.isoformat(), "phase",
                            "thread-b", "night", "2")
    assert code == 0, err
    [game] = overview(tmp_path, night)
    assert game.phase == "Night 2"
    waiting = list(game.missing_orders)
    assert "Conia" in waiting and "the mafia side's order" in waiting
    assert "Kat" not in waiting and "ÆtherWolf" not in waiting  # dead: nothing to send
    assert any(n.startswith("orders missing: ") for n in game.needs)
    web = start(Dashboard(tmp_path, FakeClock(night), Guard()), "127.0.0.1", 0)
    try:
        with httpx.Client(base_url=web.url) as client:
            html = client.get("/game/thread-b").text
            csrf = html.split('name="csrf" value="', 1)[1].split('"', 1)[0]
            r = client.post("/game/thread-b/order",
                            data={"csrf": csrf, "orders": "Conia: jail Jd-"})
            assert r.status_code == 303
    finally:
        web.stop()
    [game] = overview(tmp_path, night)
    assert list(game.missing_orders) == [n for n in waiting if n != "Conia"]


def test_loopback_is_an_ip_literal_or_localhost_never_a_names_prefix() -> None:
    from assistant.web.guard import host_of, is_loopback

    for host in ("127.0.0.1", "127.1.2.3", "localhost", "LocalHost", "[::1]", "::1"):
        assert is_loopback(host), host
    for host in ("127.0.0.1.rebind.example", "127.evil.example", "localhost.evil.example",
                 "0x7f000001", "127.1", "evil.example", "", "[127.0.0.1]", "10.0.0.1"):
        assert not is_loopback(host), host
    assert host_of("127.0.0.1.rebind.example:8765") == "127.0.0.1.rebind.example"
    assert host_of("[::1]:8765") == "[::1]" and host_of("localhost") == "localhost"
    with pytest.raises(ConfigError, match="needs a token"):
        parse_address("127.0.0.1.rebind.example:8765", token=None)


def test_a_page_reached_through_a_name_that_starts_with_127_is_not_served(
    tmp_path: Path,
) -> None:
    """DNS rebinding: a site's name (127.0.0.1.rebind.example) made to resolve to the GM's
    machine. Neither the page nor its anti-forgery value is served to it, and a POST from
    its origin acknowledges nothing, even with the right form value."""
    from assistant.alerts import AlertLog
    from assistant.monitor import load_view, run_checks

    setup_store(tmp_path, "smf21", tb.THREAD_URL["smf21"])
    with GameStore.open(tmp_path, "thread-b", create=False) as store:
        store.record_posts(tb.final_posts("smf21"), tb.SAVED_AT)
        AlertLog(store).record(run_checks(load_view(store, tb.SAVED_AT), store), tb.SAVED_AT)
        alert_id = store.alert_records()[0][0]["id"]
    guard = Guard()
    web = start(Dashboard(tmp_path, FakeClock(tb.SAVED_AT), guard), "127.0.0.1", 0)
    rebound = f"127.0.0.1.rebind.example:{web.port}"
    try:
        with httpx.Client(base_url=web.url) as client:
            for path in ("/", "/game/thread-b", "/game/thread-b/count.json"):
                r = client.get(path, headers={"Host": rebound})
                assert r.status_code == 403, (path, r.status_code)
                assert guard.csrf not in r.text and "thread-b" not in r.text
            r = client.post("/game/thread-b/ack", data={"alert": alert_id, "csrf": guard.csrf},
                            headers={"Host": rebound, "Origin": f"http://{rebound}"})
            assert r.status_code == 403 and "answers only on 127.0.0.1" in r.text
            for host in (f"127.0.0.1:{web.port}", f"localhost:{web.port}",
                         f"127.4.5.6:{web.port}"):
                assert guard.csrf in client.get("/game/thread-b", headers={"Host": host}).text
    finally:
        web.stop()
    with GameStore.open(tmp_path, "thread-b", create=False) as store:
        doc = next(d for d in store.alert_records()[0] if d["id"] == alert_id)
    assert not doc.get("acked_at")


def test_a_token_of_any_characters_is_checked_never_a_server_error(tmp_path: Path) -> None:
    """A wrong token with accents (in the query or the cookie) is a 401 like any wrong
    one; the GM's own token may hold accents, spaces or a '+' and still signs in."""
    clock = FakeClock(tb.SAVED_AT)
    token = "Schlüssel für die Spielleitung+1"
    web = start(Dashboard(tmp_path, clock, Guard(token)), "127.0.0.1", 0)
    try:
        with httpx.Client(base_url=web.url) as client:
            for query in ("/?token=%C3%A9t%C3%A9-%C3%A0-la-plage-2024", "/?token=%FF%FE",
                          "/?token=Schl%C3%BCssel"):
                assert client.get(query).status_code == 401, query
            for cookie in ("assistant_token=\u00e9t\u00e9-\u00e0-la-plage-2024".encode(),
                           b"assistant_token=\xff\xfe", b"assistant_token=\"a b\""):
                r = client.get("/", headers={"Cookie": cookie})
                assert r.status_code == 401 and "ASSISTANT_WEB_TOKEN" in r.text, cookie
            r = client.get("/?token=Schl%C3%BCssel%20f%C3%BCr%20die%20Spielleitung+1&x=1")
            assert r.status_code == 303 and r.headers["location"] == "/?x=1"
            assert token not in r.headers["set-cookie"]
            assert client.get("/").status_code == 200  # the cookie now
    finally:
        web.stop()


def test_a_token_shorter_than_16_characters_is_refused_at_start_up(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(ConfigError, match="at least 16"):
        Guard("fifteen-chars!!")
    Guard("sixteen-chars!!!")
    with pytest.raises(ConfigError, match="ASSISTANT_WEB_TOKEN is 6 characters"):
        parse_address("127.0.0.1:8765", token="s3cret")
    setup_store(tmp_path, "smf21", tb.THREAD_URL["smf21"])
    monkeypatch.setenv("ASSISTANT_WEB_TOKEN", "s3cret")
    code, out, err = call(capsys, tmp_path, "run", "--web", "0.0.0.0:8765")
    assert code == 1 and err.count("\n") == 1, err
    assert err.startswith("error: ASSISTANT_WEB_TOKEN is 6 characters")
