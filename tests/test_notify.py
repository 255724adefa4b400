"""Notification targets, the outbox and its delivery, against receivers on 127.0.0.1 (an
SMTP server and an HTTP endpoint for Apprise's json://): secrets only by reference, a
refusing service retried with backoff on the injected clock and sent once, quiet hours
held and sent as one digest in the morning, one delivery at a time."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from cli_support import call
from receivers import json_receiver, smtp_receiver

from assistant.errors import ConfigError
from assistant.notify.deliver import DIGEST_OVER, deliver
from assistant.notify.notices import Notice
from assistant.notify.outbox import Outbox, backoff
from assistant.notify.send import send
from assistant.notify.targets import QuietHours, new_target, resolve
from assistant.store import GameStore

T0 = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
NEW_YORK = ZoneInfo("America/New_York")


def notice(key: str, severity: str = "warning", event: str = "alerts",
           at: datetime = T0) -> Notice:
    return Notice(key, event, severity, f"Chat Mafia: {severity} — {key}",
                  f"what happened ({key})", at)


@pytest.fixture
def store(tmp_path):
    s = GameStore.open(tmp_path, "g1")
    s.update_config(tz="America/New_York", title="Chat Mafia")
    yield s
    s.close()


# ---- targets --------------------------------------------------------------------------------


def test_a_secret_in_clear_is_refused_and_a_reference_is_resolved_only_to_send() -> None:
    for url, what in [("discord://1234567890/abcdefTOKENxyz", "webhook token"),
                      ("mailtos://gm:hunter2@smtp.example.org?to=gm@example.org", "password"),
                      ("json://user:hunter2@127.0.0.1:9/hook", "password")]:
        with pytest.raises(ConfigError, match=f"holds its {what} in clear"):
            new_target(url, T0)
    # The Discord webhook's id is a number, no secret; its token comes from the environment.
    target = new_target("discord://1234567890/{env:DISCORD_TOKEN}", T0)
    assert target.variables == ("DISCORD_TOKEN",)
    resolved = resolve(target, {"DISCORD_TOKEN": "tok/en@1"})
    assert resolved.url == "discord://1234567890/tok%2Fen%401"  # escaped: still one field
    assert resolved.redact("failed: tok/en@1 and tok%2Fen%401") == (
        "failed: {env:DISCORD_TOKEN} and {env:DISCORD_TOKEN}")
    with pytest.raises(ConfigError, match="DISCORD_TOKEN, not set"):
        resolve(target, {})
    with pytest.raises(ConfigError, match="Apprise cannot use the URL nosuch://x"):
        new_target("nosuch://x", T0)
    with pytest.raises(ConfigError, match="--events 'alerts,dusk'"):
        new_target("json://127.0.0.1:9/x", T0, events=["alerts", "dusk"])


def test_quiet_hours_are_read_on_the_games_wall_clock_across_a_dst_change() -> None:
    quiet = QuietHours.parse("23:00-07:00")
    # 2026-11-01: New York leaves daylight time at 02:00 (UTC-4 -> UTC-5).
    evening = datetime(2026, 11, 1, 3, 30, tzinfo=UTC)  # Sat 31 Oct 23:30 EDT
    assert quiet.holds(evening, NEW_YORK)
    seven_est = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
    assert quiet.next_end(evening, NEW_YORK) == seven_est
    assert not quiet.holds(datetime(2026, 11, 1, 12, 0, tzinfo=UTC), NEW_YORK)
    dawn = datetime(2026, 11, 1, 10, 30, tzinfo=UTC)  # 05:30 EST: quiet there, not in UTC
    assert quiet.holds(dawn, NEW_YORK) and not quiet.holds(dawn, ZoneInfo("UTC"))
    assert QuietHours.parse("13:00-14:30").holds(datetime(2026, 1, 5, 14, 29, tzinfo=UTC),
                                                ZoneInfo("UTC"))
    for bad in ("23-07", "25:00-07:00", "07:00-07:00"):
        with pytest.raises(ConfigError, match="--quiet"):
            QuietHours.parse(bad)


# ---- the outbox and delivery -----------------------------------------------------------------


def test_a_receiver_that_fails_twice_then_accepts_gets_the_message_once(store) -> None:
    with json_receiver(fail_first=2) as hook:
        target = new_target(hook.url(), T0 - timedelta(hours=1))
        box = Outbox(store)
        assert len(box.queue([notice("alert:a1")], [target], T0)) == 1
        assert box.queue([notice("alert:a1")], [target], T0) == []  # once per key and target
        zone = ZoneInfo("UTC")
        first = deliver(store, [target], T0, zone)
        assert (first.messages, first.failed, first.next_at) == (0, 1, T0 + backoff(1))
        # Not due yet: nothing is asked of the service.
        assert deliver(store, [target], T0 + timedelta(seconds=30), zone).failed == 0
        assert hook.inbox.refused == 1
        second = deliver(store, [target], T0 + backoff(1), zone)
        assert second.next_at == T0 + backoff(1) + backoff(2)
        third = deliver(store, [target], second.next_at, zone)
        assert third.delivered == (("alert:a1", target.id),)
        later = deliver(store, [target], second.next_at + timedelta(hours=2), zone)
        assert later.messages == 0 and later.next_at is None
        [record] = box.records()
    assert hook.inbox.refused == 2
    assert [m["title"] for m in hook.inbox.messages] == ["Chat Mafia: warning — alert:a1"]
    assert record.attempts == 2 and record.delivered_at == second.next_at
    assert backoff(1) == timedelta(minutes=1) and backoff(30) == timedelta(hours=1)


def test_quiet_hours_hold_all_but_violations_then_send_one_digest(store) -> None:
    evening = datetime(2026, 11, 23, 4, 30, tzinfo=UTC)  # Sun 22 Nov 23:30 EST
    with json_receiver() as hook:
        target = new_target(hook.url(), T0, quiet="23:00-07:00")
        box = Outbox(store)
        box.queue([notice("day2:warn:3600", "info", "deadline", evening),
                   notice("alert:e1", "warning", at=evening),
                   notice("alert:v1", "violation", at=evening)], [target], evening)
        night = deliver(store, [target], evening, NEW_YORK)
        assert hook.inbox.titles() == ["Chat Mafia: violation — alert:v1"]
        assert night.held == 2
        morning = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)  # 07:00 EST
        assert night.next_at == morning
        assert deliver(store, [target], morning - timedelta(minutes=1), NEW_YORK).messages == 0
        done = deliver(store, [target], morning, NEW_YORK)
        assert done.messages == 1 and len(done.delivered) == 2
        assert deliver(store, [target], morning + timedelta(hours=1), NEW_YORK).messages == 0
    assert len(hook.inbox.messages) == 2
    digest = hook.inbox.messages[1]
    assert digest["title"] == "Chat Mafia: 2 notices held over the quiet hours"
    assert "- Chat Mafia: info — day2:warn:3600" in digest["body"]
    assert "- Chat Mafia: warning — alert:e1" in digest["body"]


def test_a_burst_goes_out_as_one_message_and_each_target_gets_what_it_asked_for(store) -> None:
    with json_receiver() as everything, json_receiver() as serious:
        wide = new_target(everything.url(), T0, min_severity="info")
        narrow = new_target(serious.url(), T0, min_severity="violation", events=["alerts"])
        burst = [notice(f"alert:b{i}", "info") for i in range(DIGEST_OVER + 1)]
        burst += [notice("alert:v", "violation"), notice("day2:hammer", "warning", "hammer"),
                  notice("alert:old", "violation", at=T0 - timedelta(minutes=1))]
        Outbox(store).queue(burst, [wide, narrow], T0)
        deliver(store, [wide, narrow], T0, ZoneInfo("UTC"))
    [digest] = everything.inbox.messages
    # the whole burst, not the one before the last was added
    assert digest["title"] == f"Chat Mafia: {DIGEST_OVER + 3} notices"
    assert serious.inbox.titles() == ["Chat Mafia: violation — alert:v"]


def test_one_process_at_a_time_delivers_a_games_outbox(store) -> None:
    from filelock import FileLock

    with json_receiver() as hook:
        target = new_target(hook.url(), T0)
        Outbox(store).queue([notice("alert:x")], [target], T0)
        with FileLock(f"{store.path}.notify.lock"):  # another process delivering
            assert deliver(store, [target], T0, ZoneInfo("UTC")).busy
        assert hook.inbox.messages == []
        assert deliver(store, [target], T0, ZoneInfo("UTC")).messages == 1


def test_an_email_target_logs_in_with_the_password_from_the_environment() -> None:
    with smtp_receiver(user="gm", password="s3cr:t/pw@x") as smtp:
        target = new_target(smtp.url(login="gm:{env:SMTP_PASSWORD}"), T0)
        sent = send(target, "g1: violation — dead player post", "Kat posted while dead.",
                    "violation", {"SMTP_PASSWORD": "s3cr:t/pw@x"})
        assert sent.ok, sent.reason
        [mail] = smtp.inbox.wait_for(1)
        refused = send(target, "t", "b", "info", {"SMTP_PASSWORD": "wrong-pw"})
    assert smtp.logins[0] == ("gm", "s3cr:t/pw@x")
    assert mail["title"] == "g1: violation — dead player post"
    assert "Kat posted while dead." in mail["body"] and mail["to"] == ["gm@example.org"]
    assert not refused.ok and "wrong-pw" not in refused.reason


# ---- the command line ----------------------------------------------------------------------


def test_notify_adds_tests_lists_and_removes_a_target_keeping_no_secret(
        tmp_path, capsys, monkeypatch) -> None:
    GameStore.open(tmp_path, "g1").update_config(tz="UTC", title="Chat Mafia")
    monkeypatch.setenv("ASSISTANT_NOW", "2026-11-22T12:00:00+00:00")
    token = "Zq8-hook-token-Y3"
    with json_receiver(path=f"hook/{token}") as hook:
        url = hook.url("hook/{env:HOOK_TOKEN}")
        code, out, err = call(capsys, tmp_path, "notify", "g1", "--add", url,
                              "--quiet", "23:00-07:00", "--events", "alerts,deadline")
        assert code == 0, err
        assert "note: HOOK_TOKEN not set here" in out
        code, out, err = call(capsys, tmp_path, "notify", "g1", "--test")
        assert code == 1 and "NOT delivered" in out and "HOOK_TOKEN" in out
        monkeypatch.setenv("HOOK_TOKEN", token)
        code, out, err = call(capsys, tmp_path, "notify", "g1", "--test")
        assert code == 0, err
        assert out.endswith(": arrived\n")
        [test] = hook.inbox.messages
        assert test["title"] == "Chat Mafia: a test from the assistant" and token in test["path"]
        assert "Notifications of Chat Mafia (g1) reach you here" in test["body"]
        code, out, err = call(capsys, tmp_path, "--json", "notify", "g1")
        [row] = json.loads(out)["targets"]
        assert (row["url"], row["events"], row["quiet"]) == (url, ["alerts", "deadline"],
                                                             "23:00-07:00")
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert files and not [p for p in files if token.encode() in p.read_bytes()]
    assert token not in out + err
    code, out, err = call(capsys, tmp_path, "notify", "g1", "--remove", row["id"])
    assert code == 0 and f"Removed target {row['id']}" in out
