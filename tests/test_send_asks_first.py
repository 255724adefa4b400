"""`assistant send` before anything reaches the forum (issue 23): what it refuses in one
line before showing a PM (no login, a player's login, an option of another kind), and
what it shows and asks when it can send: every prod in full, then the question; a no
sends nothing. No forum is touched: the GM answers no (the sending itself runs on the
real forums in tests/test_live_send_role_pms_prods.py)."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

import pytest
from cli_support import call

from assistant.store import GameStore

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
PLAYERS = ("Kat", "Jd", "Ava", "Bo")


@pytest.fixture
def game(tmp_path, capsys, monkeypatch):  # noqa: ANN001, ANN201
    monkeypatch.setenv("ASSISTANT_NOW", NOW.isoformat())
    data = tmp_path / "data"
    players = tmp_path / "players.txt"
    players.write_text("\n".join(PLAYERS) + "\n", encoding="utf-8")
    setup = tmp_path / "setup.toml"
    setup.write_text('seed = 1\nplayers = [\n  { name = "Kat", role = "doctor" },\n'
                     '  { name = "Jd", role = "godfather" },\n  { name = "Ava", side = "town" },\n'
                     '  { name = "Bo", side = "town" },\n]\n', encoding="utf-8")

    def run(*args: str, ok: bool = True) -> tuple[str, str]:
        code, out, err = call(capsys, data, *args)
        assert (code == 0) == ok, (code, out, err)
        assert "Traceback" not in out + err
        return out, err

    run("game", "new", "g", "--thread", "https://forum.example.org/viewtopic.php?t=7",
        "--ruleset", "chat-mafia", "--players", str(players))
    run("roles", "g", "--file", str(setup))
    run("phase", "g", "day", "1", "--starts", (NOW - timedelta(hours=2)).isoformat(),
        "--ends", (NOW + timedelta(hours=22)).isoformat())
    return data, run


def login(data, user: str, monkeypatch) -> None:  # noqa: ANN001
    """The login `fetch --login USER --password-env VAR` keeps (without a fetch)."""
    GameStore.open(data, "g").update_config(login={"user": user, "password_env": "GM_PW"})
    monkeypatch.setenv("GM_PW", "secret-pw")


def test_send_refuses_before_showing_a_pm(game, monkeypatch):  # noqa: ANN001
    data, run = game
    out, err = run("send", "g", "role-pms", "--night", "1", ok=False)
    assert err.strip().endswith("--night is for `send g result-pms`, not role-pms"), err
    out, err = run("send", "g", "result-pms", "--since", "2h", ok=False)
    assert "--since is for `send g prods`" in err and "\n" not in err.strip()
    out, err = run("send", "g", "role-pms", ok=False)  # no login kept: said before the PMs
    assert "no forum login" in err and "fetch --game g --login" in err and "To:" not in out
    login(data, "Kat", monkeypatch)
    out, err = run("send", "g", "role-pms", ok=False)
    assert "is the player Kat" in err and "To:" not in out
    assert "\n" not in err.strip()


def test_send_prods_shows_each_prod_and_a_no_sends_nothing(game, monkeypatch):  # noqa: ANN001
    data, run = game
    login(data, "Host Mira", monkeypatch)
    monkeypatch.setattr("sys.stdin", io.StringIO("n\n"))
    out, err = run("send", "g", "prods", ok=False)
    assert "4 prods to send as Host Mira" in out
    assert all(f"To: {p}" in out for p in PLAYERS)
    assert "You have not posted in the game thread since Day 1 began." in out
    assert "Host Mira is not among the GMs of g: it will be added" in out
    assert "Send these 4 PMs as Host Mira?" in err and "nothing was written (you said no)" in err
    store = GameStore.open(data, "g")
    assert store.inputs("pm_attempt") == [] and store.inputs("pm_sent") == []
    assert store.config().get("gms", []) == []  # the account is added only when sending
