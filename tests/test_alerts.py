"""Alerts: stored once (stable ids), acknowledged, and written as an Atom feed that a feed
parser reads back, newest first, each entry linking to its post."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import feedparser
import pytest
import thread_b_support as tb

from assistant.alerts import FEED_ENTRIES, Alert, AlertLog, feed_path, write_feed
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
    store.add_alerts([
        {
            "schema_version": 99,
            "id": "x",
            "alert": a.to_dict(),
            "first_seen": "2026-11-22T12:00:00+00:00",
        }
    ])
    with pytest.raises(StoreError, match=r"thread-b\.json\.alerts: alert x has schema_version 99"):
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


def _many(n: int, t0: datetime) -> list[Alert]:
    return [Alert("silent_edit", "warning", f"m{i}", player="Kat", post_id=1000 + i,
                  post_url=f"http://127.0.0.1:8021/index.php?msg={1000 + i}",
                  occurred_at=t0 + timedelta(seconds=i)) for i in range(n)]


def test_the_feed_holds_the_latest_alerts_and_every_alert_stays_listed(tmp_path, clock) -> None:
    """A feed reader keeps what it read: the feed holds the latest FEED_ENTRIES alerts (the
    newest first, the newest of all among them) and says how many there are; `alerts
    --all`, the dashboard's triage and notifications still have every one."""
    from assistant.daemon.review import review_game
    from assistant.gm import refresh_feed

    store = tb.new_store(tmp_path, "smf21")
    store.record_posts(tb.final_posts("smf21"), clock.now())
    log = AlertLog(store)
    older = _many(FEED_ENTRIES + 5, clock.now() - timedelta(days=1))
    log.record(older[:60], clock.now() - timedelta(hours=2))
    log.record(older[60:], clock.now() - timedelta(hours=1))
    path = refresh_feed(store, clock.now())
    parsed = feedparser.parse(path.read_bytes())
    assert not parsed.bozo, parsed.get("bozo_exception")
    ids = [e.id.rsplit(":", 1)[1] for e in parsed.entries]
    assert ids == [a.id for a in reversed(older[-FEED_ENTRIES:])]
    assert f"The latest {FEED_ENTRIES} of its {len(older)} alerts" in parsed.feed.subtitle
    assert "`assistant alerts thread-b --all`" in parsed.feed.subtitle
    store.close()

    # The daemon's review: the checks' new alerts (the newest of all) are in its feed.
    new = {s.id for s in review_game(tmp_path, "thread-b", clock.now()).new_alerts}
    assert 0 < len(new) < FEED_ENTRIES
    parsed = feedparser.parse(path.read_bytes())
    ids = [e.id.rsplit(":", 1)[1] for e in parsed.entries]
    assert len(ids) == FEED_ENTRIES and set(ids[:len(new)]) == new
    assert ids[len(new):] == [a.id for a in reversed(older[-FEED_ENTRIES + len(new):])]
    assert f"of its {len(older) + len(new)} alerts" in parsed.feed.subtitle
    with GameStore.open(tmp_path, "thread-b") as store:
        log = AlertLog(store)
        every = log.all()
        assert len(every) == len(older) + len(new) == log.count()
        assert log.triage().open_total == len(every)
        assert [s.id for s in log.latest(len(new) + 1)] == [
            s.id for s in every[-len(new) - 1:]] and every[-len(new) - 1].id == older[-1].id


def test_a_short_feed_says_nothing_of_a_limit(tmp_path, clock) -> None:
    with GameStore.open(tmp_path, "g") as store:
        log = AlertLog(store)
        log.record(_many(3, clock.now()), clock.now())
        path = write_feed(log.latest(), feed_path(store), game_id="g", title="G", link=None,
                          now=clock.now(), total=log.count())
    parsed = feedparser.parse(path.read_bytes())
    assert len(parsed.entries) == 3 and "latest" not in parsed.feed.subtitle


def test_record_finds_the_new_alerts_by_their_stored_ids(tmp_path, clock, monkeypatch) -> None:
    """A review's checks give every alert again: the new ones are found by the ids stored,
    without reading the stored alerts back (Alert.from_dict) and hashing each alert once."""
    import assistant.alerts as alerts_module

    with GameStore.open(tmp_path, "g") as store:
        log = AlertLog(store)
        first = _many(50, clock.now())
        log.record(first, clock.now())
        hashed: list[str] = []
        real_sha1 = alerts_module.hashlib.sha1

        def counting_sha1(data: bytes):  # noqa: ANN202
            hashed.append(data.decode())
            return real_sha1(data)

        def no_reading(doc):  # noqa: ANN001, ANN202
            raise AssertionError("a stored alert was read back to find the new ones")

        monkeypatch.setattr(alerts_module.hashlib, "sha1", counting_sha1)
        monkeypatch.setattr(Alert, "from_dict", classmethod(no_reading))
        again = _many(53, clock.now())  # the same facts, three more, as new records
        clock.advance(60)
        fresh = log.record(again + again[-3:], clock.now())
        assert [s.alert for s in fresh] == again[50:]
        assert len(hashed) == len(again)  # each alert's id worked out once
        assert all(s.first_seen == clock.now() for s in fresh)
        assert log.record(again, clock.now()) == []
        monkeypatch.undo()
        assert [s.id for s in log.all()] == [a.id for a in again]
        assert log.get(again[-1].id[:8]).first_seen == clock.now()


def test_a_review_that_finds_nothing_new_reads_no_stored_alert(tmp_path, clock,
                                                                monkeypatch) -> None:
    """The daemon's checks give a game's alerts again at every poll: when they are the
    ones recorded last and the stored alerts have not changed since, the alerts file is
    not read (a long game's thousands of alerts, at every poll); once something else
    changed it (the GM's acknowledgement, another process's record), it is read again,
    and every new alert is stored as before."""
    from assistant.alerts_file import AlertsFile

    reads: list[int] = []
    real = AlertsFile.apply
    monkeypatch.setattr(AlertsFile, "apply", lambda self, ops: (reads.append(1), real(self, ops)))
    first = _many(50, clock.now())
    with GameStore.open(tmp_path, "g") as store:
        assert len(AlertLog(store).record(first, clock.now())) == 50
    reads.clear()
    for _ in range(2):  # two reviews, each with the game's file opened anew
        with GameStore.open(tmp_path, "g") as store:
            assert AlertLog(store).record(_many(50, clock.now()), clock.now()) == []
    assert reads == []
    with GameStore.open(tmp_path, "g") as store:  # the GM acknowledges one
        AlertLog(store).ack(first[0].id, clock.now())
    reads.clear()
    with GameStore.open(tmp_path, "g") as store:
        assert AlertLog(store).record(_many(50, clock.now()), clock.now()) == []
    assert reads  # the file changed: read again
    clock.advance(60)
    with GameStore.open(tmp_path, "g") as store:
        fresh = AlertLog(store).record(_many(52, clock.now()), clock.now())
        assert [s.alert for s in fresh] == _many(52, clock.now())[50:]
    with GameStore.open(tmp_path, "g") as store:
        assert AlertLog(store).count() == 52
        assert AlertLog(store).record(_many(52, clock.now()), clock.now()) == []
