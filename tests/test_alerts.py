"""Alerts: stored once (stable ids), acknowledged, and written as an Atom feed that a feed
parser reads back, newest first, each entry linking to its post."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import feedparser
import pytest
import thread_b_support as tb

from assistant.alerts import Alert, AlertLog, feed_path, write_feed
from assistant.checks import posting_rules
from assistant.checks.posting import check_posting
from assistant.errors import StoreError
from assistant.rulesets import find_ruleset
from assistant.store import GameStore


def _alerts(forum: str = "smf21") -> list[Alert]:
    return check_posting(tb.final_posts(forum), tb.game(forum), posting_rules(find_ruleset("002")))


def test_record_dedupes_by_fact_and_survives_reopening(tmp_path, clock) -> None:
    store = tb.new_store(tmp_path, "smf21")
    log = AlertLog(store)
    first = log.record(_alerts(), clock.now())
    assert len(first) == 2
    clock.advance(timedelta(minutes=5))
    assert log.record(_alerts(), clock.now()) == []  # the same facts: nothing new
    store.close()
    reopened = AlertLog(GameStore.open(tmp_path, "thread-b"))
    assert [s.id for s in reopened.all()] == [s.id for s in first]
    assert all(s.first_seen == datetime(2026, 11, 22, 12, tzinfo=UTC) for s in reopened.all())
    assert reopened.record(_alerts(), clock.now()) == []


def test_ack_hides_from_the_open_list(tmp_path, clock) -> None:
    log = AlertLog(tb.new_store(tmp_path, "smf21"))
    stored = log.record(_alerts(), clock.now())
    target = stored[0]
    acked = log.ack(target.id[:6], clock.now(), "warned in thread")
    assert acked.acked_at == clock.now() and acked.ack_note == "warned in thread"
    assert [s.id for s in log.all(include_acked=False)] == [stored[1].id]
    clock.advance(60)
    assert log.ack(target.id, clock.now()).acked_at == datetime(2026, 11, 22, 12, tzinfo=UTC)
    with pytest.raises(StoreError, match="no alert 'zzzz'"):
        log.ack("zzzz", clock.now())


def test_atom_feed_parses_back_newest_first(tmp_path, clock) -> None:
    store = tb.new_store(tmp_path, "phpbb33")
    log = AlertLog(store)
    alerts = _alerts("phpbb33")
    log.record(alerts[:1], clock.now())
    clock.advance(timedelta(minutes=1))
    log.record(alerts[1:], clock.now())
    log.ack(alerts[0].id, clock.now(), "handled")
    path = write_feed(
        log.all(),
        feed_path(store),
        game_id="thread-b",
        title="Chat Mafia",
        link=tb.THREAD_URL["phpbb33"],
        now=clock.now(),
    )
    parsed = feedparser.parse(path.read_bytes())
    assert not parsed.bozo, parsed.get("bozo_exception")
    assert parsed.version == "atom10"
    entries = parsed.entries
    assert [e.id.rsplit(":", 1)[1] for e in entries] == [alerts[1].id, alerts[0].id]
    assert entries[0].link == alerts[1].post_url == "http://127.0.0.1:8033/viewtopic.php?p=147#p147"
    assert "bob the builder" in entries[0].title and "non player post" in entries[0].title
    assert "Acknowledged" in entries[1].summary and "handled" in entries[1].summary
    assert {t.term for t in entries[1].tags} == {"dead_player_post", "violation"}


def test_alert_round_trip_and_unknown_schema(tmp_path, clock) -> None:
    a = _alerts()[0]
    assert Alert.from_dict(a.to_dict()) == a
    store = tb.new_store(tmp_path, "smf21")
    store.table("alerts").insert(
        {
            "schema_version": 99,
            "id": "x",
            "alert": a.to_dict(),
            "first_seen": "2026-11-22T12:00:00+00:00",
        }
    )
    with pytest.raises(StoreError, match="schema_version 99"):
        AlertLog(store).all()


def test_triage_lists_open_violations_first_and_the_newest_first(tmp_path) -> None:
    """The dashboard's order: open before acknowledged, violations, warnings, info, each
    newest first; a limit loads only the first of each list and still counts them all."""
    from datetime import UTC, datetime, timedelta

    from assistant.alerts import Alert, AlertLog
    from assistant.store import GameStore

    t0 = datetime(2026, 11, 22, 11, 0, tzinfo=UTC)
    with GameStore.open(tmp_path, "g") as store:
        log = AlertLog(store)
        kinds = [("info", 0), ("violation", 1), ("warning", 2), ("violation", 3), ("info", 4)]
        log.record([Alert(f"k{i}", sev, f"m{i}", post_id=i, occurred_at=t0 + timedelta(
            minutes=i)) for sev, i in kinds], t0)
        log.ack(Alert("k3", "violation", "m3", post_id=3).id, t0)
        full = log.triage()
        assert [s.alert.message for s in full.open] == ["m1", "m2", "m4", "m0"]
        assert [s.alert.message for s in full.acked] == ["m3"]
        assert full.open_by_severity == {"violation": 1, "warning": 1, "info": 2}
        short = log.triage(2)
        assert [s.alert.message for s in short.open] == ["m1", "m2"]
        assert (short.open_total, short.acked_total) == (4, 1)


def test_the_terminal_and_the_dashboard_list_alerts_in_one_order(tmp_path) -> None:
    """`alerts` (most_severe_first) and the dashboard (AlertLog.triage) share the one order:
    equal times decided by the id, a severity the code does not know listed last."""
    from datetime import UTC, datetime, timedelta

    from assistant.alerts import Alert, AlertLog, most_severe_first
    from assistant.store import GameStore

    t0 = datetime(2026, 11, 22, 11, 0, tzinfo=UTC)
    given = [("warning", 0), ("info", 1), ("violation", 1), ("warning", 1), ("violation", 1),
             ("info", 2), ("odd", 3), ("violation", 0)]
    with GameStore.open(tmp_path, "g") as store:
        log = AlertLog(store)
        log.record([Alert(f"k{i}", sev, f"m{i}", post_id=i, occurred_at=t0 + timedelta(
            minutes=m)) for i, (sev, m) in enumerate(given)], t0)
        terminal = [s.id for s in most_severe_first(log.all())]
        assert [s.id for s in log.triage().open] == terminal
        severities = [s.alert.severity for s in most_severe_first(log.all())]
    assert severities == ["violation"] * 3 + ["warning"] * 2 + ["info"] * 2 + ["odd"]
