"""Who may reach the dashboard and what it links to, without a browser: the address
`run --web` accepts, the GM's token, the game-only post links, the overview's order."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
import thread_b_support as tb
from cli_support import call
from daemon_support import setup_store

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
    assert parse_address("0.0.0.0:8765", token="s3cret") == ("0.0.0.0", 8765)
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
    web = start(Dashboard(tmp_path, clock, Guard("s3cret")), "127.0.0.1", 0)
    try:
        with httpx.Client(base_url=web.url) as client:
            r = client.get("/")
            assert r.status_code == 401 and "ASSISTANT_WEB_TOKEN" in r.text
            assert client.get("/?token=wrong").status_code == 401
            r = client.get("/?token=s3cret")
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
