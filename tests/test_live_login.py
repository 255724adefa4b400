"""A members-only board on the real SMF and phpBB, read with `--login/--password-env`
(issue 10).

Each forum's administrator closes a board to guests through the forum's own admin pages
(tests/live_admin.py). Then, as a GM would: a plain `fetch` is refused with one line
saying to log in; a wrong password is one line saying what the forum said; the right
one reads the thread, and the daemon (`run --once`, and `run`'s event loop) logs in the
same way, and again at once when the forum ends its session. Neither the password nor
the session cookies the forum handed out appear in what was printed, in
`--json`, in the daemon's log or anywhere in the data directory.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from urllib.parse import unquote

import httpx
import pytest
from cli_support import call
from live_admin import end_sessions, phpbb_members_only_forum, smf_members_only_board

import assistant.cli.daemon_cmds
import assistant.cli.fetch_cmds
from assistant.clock import SystemClock
from assistant.daemon import Daemon
from assistant.scrapers.http import Fetcher, FetchSettings, guarded_client

PASSWORD = "Tr0ub4dor-3-live"  # the GM's member password (not forum.py's default)
VARIABLE = "LIVE_FORUM_PASSWORD"


@pytest.fixture(scope="module")
def closed_boards(live_forums) -> dict[str, int]:
    """One members-only board on each forum for this module's tests."""
    return {
        "smf": smf_members_only_board(live_forums.smf, "Members only (login test)"),
        "phpbb": phpbb_members_only_forum(live_forums.phpbb, "Members only (login test)"),
    }


class Clients(list):
    """Every httpx client the commands made, kept after they close, for their cookies."""

    def __call__(self) -> httpx.Client:
        self.append(guarded_client())
        return self[-1]


def one_line_error(code: int, out: str, err: str) -> str:
    assert code == 1, (code, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err + out
    return lines[0]


def secrets_in(path: Path, secrets: set[str]) -> list[tuple[str, str]]:
    """(file, secret) for every file under `path` holding one of `secrets`, as bytes."""
    found = []
    for file in sorted(p for p in path.rglob("*") if p.is_file()):
        data = file.read_bytes()
        found += [(str(file), s) for s in secrets if s.encode() in data]
    return found


def cookie_secrets(clients: Clients) -> set[str]:
    """The values of every cookie the forum set in the assistant's clients, and their
    URL-decoded forms (SMF's cookie is URL-encoded JSON around a hash)."""
    values = {c.value for client in clients for c in client.cookies.jar}
    values |= {unquote(v) for v in values}
    return {v for v in values if len(v) >= 8}


@pytest.mark.parametrize("software", ["smf", "phpbb"])
def test_a_members_only_board_is_read_with_a_login_and_nothing_secret_is_kept(
    live_forums, closed_boards, software, tmp_path, capsys, monkeypatch
):
    board = live_forums.forum(software)
    host, ann = live_forums.names("host", "ann")
    board.create_members(host, password=PASSWORD)
    board.create_members(ann)
    topic, first = board.new_topic(ann, "Members-only day 1", "Day 1 begins. [b]vote host[/b]",
                                   board=closed_boards[software])
    reply = board.reply(ann, topic, "Still voting.")
    assert "Still voting." not in board.page(topic)  # the forum itself turns guests away
    url = live_forums.topic_url(software, topic)
    data = tmp_path / "data"
    clients = Clients()
    monkeypatch.setattr(assistant.cli.fetch_cmds, "guarded_client", clients)
    monkeypatch.setattr(assistant.cli.daemon_cmds, "guarded_client", clients)
    players = tmp_path / "players.txt"
    players.write_text(f"{ann}\n{host}\n", encoding="utf-8")
    code, out, err = call(capsys, data, "game", "new", "g", "--thread", url, "--ruleset",
                          "permissive", "--players", str(players), "--gm", host)
    assert code == 0, err
    printed: list[str] = [out, err]

    # A guest: refused, and told how to log in.
    code, out, err = call(capsys, data, "fetch", url, "--game", "g", "--delay", "0")
    printed += [out, err]
    line = one_line_error(code, out, err)
    assert "members only" in line and "--login" in line and "--password-env" in line

    # A wrong password: the forum's own words, one line.
    monkeypatch.setenv(VARIABLE, "not-" + PASSWORD)
    code, out, err = call(capsys, data, "fetch", url, "--game", "g", "--delay", "0",
                          "--login", host, "--password-env", VARIABLE)
    printed += [out, err]
    line = one_line_error(code, out, err)
    assert f"login to {board.url}" in line and repr(host) in line and "failed" in line
    assert "password" in line.lower()

    # The right one (SMF may first ask to wait 2 s after the refused login: it is waited).
    monkeypatch.setenv(VARIABLE, PASSWORD)
    code, out, err = call(capsys, data, "--json", "fetch", url, "--game", "g", "--delay", "0",
                          "--login", host, "--password-env", VARIABLE)
    printed += [out, err]
    assert code == 0, err
    assert json.loads(out)["new"] == [first, reply]

    # The daemon logs in by itself with the name kept with the game and the variable (its
    # most talkative log: --verbose).
    later = board.reply(ann, topic, f"[b]vote {host}[/b]")
    code, out, err = call(capsys, data, "--json", "run", "--once", "--verbose", "--delay", "0")
    printed += [out, err]
    assert code == 0, err
    (report,) = json.loads(out)["games"]
    assert report["poll"]["new"] == [later], report
    assert "poll g: 1 new" in err  # the log was captured
    # The daemon of `run` (its event loop): logs in through the form, hands the session on.
    last = board.reply(ann, topic, "One more.")
    daemon = Daemon(data, SystemClock(), lambda: Fetcher(clients(), FetchSettings(delay=0)),
                    fetch_settings=FetchSettings(delay=0))
    cycle = asyncio.run(daemon.acycle("g"))
    assert cycle.poll_error is None and cycle.poll is not None and cycle.poll.new == (last,)
    printed += [capsys.readouterr().err]

    # The forum ends the session (the member logs out elsewhere, or it expires): the next
    # poll is shown the login form, logs in again at once and reads what is new.
    end_sessions(board, host)
    after = board.reply(ann, topic, "After the session ended.")
    cycle = asyncio.run(daemon.acycle("g"))
    assert cycle.poll_error is None and cycle.poll is not None and cycle.poll.new == (after,)
    end_sessions(board, host)  # the same for the daemon's plain cycle (`run --once`)
    again = board.reply(ann, topic, "After the second end.")
    cycle = daemon.cycle("g")
    assert cycle.poll_error is None and cycle.poll is not None and cycle.poll.new == (again,)
    printed += [capsys.readouterr().err]
    code, out, err = call(capsys, data, "--json", "posts", "g")
    printed += [out, err]
    assert [p["id"] for p in json.loads(out)] == [first, reply, later, last, after, again]

    cookies = cookie_secrets(clients)
    assert any(c.name.lower().startswith(("smfcookie", "phpbb"))
               for client in clients for c in client.cookies.jar)  # a real session was had
    secrets = {PASSWORD} | cookies
    leaks = [(where, s) for where, text in enumerate(printed) for s in secrets if s in text]
    assert leaks == [], "a secret was printed"
    assert secrets_in(data, secrets) == [], "a secret was stored"
    kept = [p.read_text("utf-8", "replace") for p in data.rglob("*") if p.is_file()]
    assert any(VARIABLE in text for text in kept)  # the variable's name is kept, not its value
