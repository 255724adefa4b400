"""Issue 24's acceptance: the daemon on thread B (the real SMF thread, served on 127.0.0.1
as it grew) pushes to receivers on 127.0.0.1, an HTTP endpoint for Apprise's json:// and
an SMTP server. Each kind of event arrives once with its text; the endpoint refuses twice
and still gets everything once; quiet hours hold all but violations and then send one
digest; no secret reaches the log or the data dir. The clock is the test's."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from daemon_support import thread_url
from forum_server import running_forum
from notify_support import (
    FORUM,
    NIGHT_ENDS,
    START,
    Driver,
    cli,
    make_daemon,
    three_games,
    told,
)
from receivers import json_receiver, smtp_receiver

from assistant.alerts import SEVERITIES, AlertLog
from assistant.clock import FakeClock
from assistant.daemon import setup_logging
from assistant.monitor import game_title
from assistant.notify.outbox import Outbox
from assistant.store import GameStore

HOOK_TOKEN = "hook-tok-9Xq2"
SMTP_PASSWORD = "mail:pw/7@Zr"
GAMES = ["thread-b", "majority", "night"]
NIGHT = "Paranormal (Doppelgangers, Aliens, Mad Scientists)"
"""The night game's name: it has no title and no thread read, so its ruleset's title."""


@pytest.fixture
def secrets(monkeypatch) -> None:
    monkeypatch.setenv("HOOK_TOKEN", HOOK_TOKEN)
    monkeypatch.setenv("SMTP_PASSWORD", SMTP_PASSWORD)


def alert_titles(data, game: str, lowest: str) -> list[str]:
    """The titles the game's alerts at or above `lowest` are told with, from its store."""
    with GameStore.open(data, game, create=False) as store:
        found, title = AlertLog(store).all(), game_title(store)
    return [f"{title}: {s.alert.severity} — {s.alert.kind.replace('_', ' ')} — {s.alert.player}"
            for s in found if SEVERITIES.index(s.alert.severity) >= SEVERITIES.index(lowest)]


def test_each_event_arrives_once_with_its_text_and_no_secret_is_kept(
        tmp_path, capsys, monkeypatch, secrets) -> None:
    clock = FakeClock(START)
    log = io.StringIO()
    setup_logging(clock, log)
    with (running_forum() as server,
          json_receiver(fail_first=2, path=f"hook/{HOOK_TOKEN}") as hook,
          smtp_receiver(user="gm", password=SMTP_PASSWORD) as smtp):
        data = three_games(tmp_path, capsys, monkeypatch, thread_url(server, FORUM))
        url = hook.url("hook/{env:HOOK_TOKEN}")
        cli(capsys, monkeypatch, data, START, "notify", "thread-b", "--add", url)
        cli(capsys, monkeypatch, data, START, "notify", "thread-b", "--add",
            smtp.url(login="gm:{env:SMTP_PASSWORD}"), "--min-severity", "violation",
            "--events", "alerts")
        cli(capsys, monkeypatch, data, START, "notify", "majority", "--add", url,
            "--events", "hammer,deadline")
        cli(capsys, monkeypatch, data, START, "notify", "night", "--add", url,
            "--events", "orders,polls")
        Driver(make_daemon(data, clock), clock, server, GAMES).run(NIGHT_ENDS + timedelta(hours=1))
        # A restart an hour later: every game looked at again, nothing told again.
        later = make_daemon(data, clock)
        for game in GAMES:
            later.tick(game)
        arrived = told(hook.inbox.messages)
        mails = list(smtp.inbox.messages)

    expected = [
        *alert_titles(data, "thread-b", "warning"),
        "Chat Mafia: Day 2 ends in 5 min",
        "Chat Mafia: Day 2 ends in 1 min",
        "Chat Mafia: Day 2 is over — xX_Slayer_Xx",
        "Chat Mafia: Day 2 dusk drafted — xX_Slayer_Xx",
        "Chat Mafia: Day 2 hammered — xX_Slayer_Xx",
        "Chat Mafia: Day 2 is over — xX_Slayer_Xx",
        f"{NIGHT}: the thread cannot be read (for 30 min)",
        f"{NIGHT}: Night 1 ends in 1 h; orders missing: Alice, Bob, the doppelgangers side",
    ]
    assert sorted(arrived) == sorted(expected)  # each once, whatever the refusals
    assert hook.inbox.refused == 2
    assert sorted(m["title"] for m in mails) == sorted(alert_titles(data, "thread-b",
                                                                    "violation"))
    assert len(mails) == 2 and smtp.logins[0] == ("gm", SMTP_PASSWORD)

    by_title = {m["title"]: m["body"] for m in hook.inbox.messages}
    hammer = by_title["Chat Mafia: Day 2 hammered — xX_Slayer_Xx"].splitlines()
    assert hammer[0].startswith("Jd-'s vote in post 153 (Sun 22 Nov 2026 11:18 UTC) reached "
                                "the majority of 4")
    assert hammer[1].endswith("/index.php?msg=153")
    assert hammer[2] == "The dusk: assistant draft dusk majority --day 2"
    dusk = by_title["Chat Mafia: Day 2 dusk drafted — xX_Slayer_Xx"].splitlines()
    assert dusk[0].endswith("/drafts/thread-b/day2-dusk.txt")
    assert dusk[1] == ("Check it and store the lynch: assistant draft dusk thread-b --day 2 "
                       "--confirm")
    polls = by_title[f"{NIGHT}: the thread cannot be read (for 30 min)"].splitlines()
    assert "the forum could not be reached" in polls[0]
    assert polls[1] == "Try it: assistant fetch --game night"
    orders = by_title[f"{NIGHT}: Night 1 ends in 1 h; orders missing: Alice, Bob, the "
                      "doppelgangers side"]
    assert orders == ("Deadline: Sun 22 Nov 2026 13:00 UTC.\n"
                      'Enter one: assistant order night "NAME: ABILITY TARGET"')
    violation = next(m for m in mails if "dead player post" in m["title"])
    assert "/index.php?msg=132" in violation["body"]
    assert "assistant alerts thread-b --ack " in violation["body"]

    # Nothing secret in the data dir (game files, drafts, feeds, locks) or the log.
    text = log.getvalue()
    assert "notify thread-b -> " in text and "not delivered (try 2)" in text
    for secret in (HOOK_TOKEN, SMTP_PASSWORD):
        assert secret not in text
        leaks = [p for p in data.rglob("*") if p.is_file() and secret.encode() in p.read_bytes()]
        assert leaks == []
    with GameStore.open(data, "thread-b", create=False) as store:
        assert all(r.delivered_at is not None for r in Outbox(store).records())


def test_quiet_hours_hold_all_but_violations_then_send_one_digest(
        tmp_path, capsys, monkeypatch, secrets) -> None:
    clock = FakeClock(START)
    with running_forum() as server, json_receiver() as hook:
        data = three_games(tmp_path, capsys, monkeypatch, thread_url(server, FORUM))
        cli(capsys, monkeypatch, data, START, "notify", "thread-b", "--add", hook.url(),
            "--quiet", "11:05-11:25")  # the game's zone: UTC
        driver = Driver(make_daemon(data, clock), clock, server, ["thread-b"])
        driver.run(START + timedelta(minutes=24, seconds=59))
        during = told(hook.inbox.messages)
        driver.run(START + timedelta(minutes=40))
        after = hook.inbox.messages[len(hook.inbox.messages) - 1]

    violations = alert_titles(data, "thread-b", "violation")
    assert sorted(during) == sorted(violations)  # only violations in the quiet hours
    assert after["title"].startswith("Chat Mafia: ") and after["title"].endswith(
        " notices held over the quiet hours")
    held = told([after])
    assert sorted(held) == sorted(
        [t for t in alert_titles(data, "thread-b", "warning") if t not in violations]
        + ["Chat Mafia: Day 2 ends in 5 min", "Chat Mafia: Day 2 ends in 1 min",
           "Chat Mafia: Day 2 is over — xX_Slayer_Xx",
           "Chat Mafia: Day 2 dusk drafted — xX_Slayer_Xx"])
    assert len(hook.inbox.messages) == len(violations) + 1
