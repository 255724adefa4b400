"""The daemon end to end: thread B served on 127.0.0.1 as it grew (live snapshots every
5 posts), the clock driven by the test. Alerts, interval tallies and the final count
must come out as stated here and match thread_b.json."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

import httpx
import pytest
import thread_b_support as tb
from daemon_support import open_store, serve, setup_store, snapshots, thread_url
from forum_server import running_forum

from assistant.alerts import AlertLog
from assistant.clock import FakeClock
from assistant.daemon import MARKERS, Daemon
from assistant.engine.setup import PlayerSetup, Setup
from assistant.scrapers.http import Fetcher, FetchSettings
from assistant.store import GameStore


def make_daemon(data_dir, clock) -> Daemon:
    return Daemon(
        data_dir,
        clock,
        lambda: Fetcher(
            httpx.Client(), FetchSettings(delay=0, backoff=0), sleep=lambda s: None, clock=clock
        ),
    )


def drive(
    daemon: Daemon,
    clock: FakeClock,
    server,
    forum: str,
    *,
    stop_after: int | None = None,
    start: int = 0,
) -> list[datetime]:
    """Tick at every snapshot time and at every clock event the daemon asks for."""
    snaps = snapshots(forum)
    ticks = []
    i = start
    upcoming: datetime | None = None
    while True:
        next_snap = snaps[i].saved_at if i < len(snaps) else None
        candidates = [t for t in (next_snap, upcoming) if t is not None]
        if not candidates:
            return ticks
        moment = min(candidates)
        clock.set(moment)
        if next_snap is not None and moment == next_snap:
            serve(server, forum, snaps[i], snaps)
            i += 1
            if stop_after is not None and i > stop_after:
                return ticks
        upcoming = daemon.tick("thread-b")
        ticks.append(moment)


def host_tally_lines(forum: str, label: str) -> set[str]:
    post = next(p for p in tb.truth(forum)["posts"] if p["label"] == label)
    return {line for line in post["bbcode_body"].splitlines() if "(" in line and "):" in line}


def wagons(lines) -> set[tuple[str, frozenset[str]]]:
    out = set()
    for line in lines:
        head, _, voters = line.partition("): ")
        target = head.rsplit(" (", 1)[0]
        names = frozenset(v.strip() for v in voters.split(",") if v.strip() and v.strip() != "none")
        out.add((target, names))
    return out


@pytest.mark.parametrize("forum", tb.FORUMS)
def test_daemon_follows_thread_b_as_it_grew(tmp_path, forum, caplog) -> None:
    caplog.set_level(logging.INFO, logger="assistant.daemon")
    clock = FakeClock(datetime(2026, 11, 22, 11, 0, tzinfo=UTC))
    with running_forum() as server:
        setup_store(tmp_path, forum, thread_url(server, forum))
        daemon = make_daemon(tmp_path, clock)
        drive(daemon, clock, server, forum)

    with open_store(tmp_path) as store:
        alerts = AlertLog(store).all()
        markers = store.table(MARKERS).all()
        final = store.table("final_counts").all()
        posts = store.posts()
    # Every post of the thread, the silently edited one with both versions.
    assert len(posts) == 46
    # The alerts: every expected one, live-only ones included, and nothing else.
    found = {(s.alert.post_id, s.alert.kind) for s in alerts}
    assert found == tb.expected(forum)
    assert len({s.id for s in alerts}) == len(alerts)
    by_kind = {s.alert.kind: s.alert for s in alerts}
    assert by_kind["role_pm_copy"].severity == "violation"  # the OP's house rule
    assert "[vote Jd-] -> [vote Slayer]" in by_kind["vote_changed_by_edit"].message
    assert "-[Vote: Slayr]" in by_kind["silent_edit"].evidence
    # Each alert was logged once, when first found.
    logged = [r.getMessage() for r in caplog.records if r.getMessage().startswith("alert ")]
    assert sorted(line.split()[2].rstrip(":") for line in logged) == sorted(s.id for s in alerts)

    # The clock: 002's 5-minute tallies from the day's start, then everyone voted (Tom & Jerry's
    # re-vote) and the clock dropped to 5 minutes, from that post's time as the forum shows it
    # (SMF: to the minute). The host reacted 27 s later and said 11:21:07 (phpBB 11:20:57).
    meta = tb.truth(forum)["meta"]
    start = datetime.fromisoformat(meta["day"]["start_iso"])
    tom_revote = next(p for p in tb.truth(forum)["posts"] if p["label"] == "tom_revote_conia")
    [revote] = [sp.latest for sp in posts if sp.post_id == tom_revote["msg_id"]]
    assert abs(revote.posted_at - datetime.fromisoformat(tom_revote["posted_at_iso"])) < timedelta(
        minutes=1
    )
    deadline = revote.posted_at + timedelta(minutes=5)
    kinds = [(m["kind"], m["status"]) for m in markers]
    assert len({m["key"] for m in markers}) == len(markers)
    tallies = [m for m in markers if m["kind"] == "tally"]
    assert [datetime.fromisoformat(m["at"]) for m in tallies] == [
        start + timedelta(minutes=5),
        start + timedelta(minutes=10),
        start + timedelta(minutes=15),
    ]
    assert ("deadline", "locked") in kinds
    assert {m["key"].split(":")[-1] for m in markers if m["kind"] == "warning"} == {"300", "60"}

    drafts = tmp_path / "drafts" / "thread-b"
    first, second, third = sorted(drafts.glob("day2-tally-*.txt"))
    # Tally #1 as drafted is the host's (posted at the same moment, 11:07:07).
    assert wagons(_lines(first)) == wagons(host_tally_lines(forum, "vc1"))
    # Tally #2: the host's, except Mr. Pickles. The daemon's last poll (snapshot 20) still
    # showed his first version, [Vote: Slayr] (no such player), which does not count and
    # leaves his earlier vote on Lady Grey standing; the silent edit shows from snapshot 25.
    host2 = wagons(host_tally_lines(forum, "vc2"))
    expected2 = {(t, v - {"Mr. Pickles"}) for t, v in host2 if t != "Lady Grey"} | {
        ("Lady Grey", frozenset({"Mr. Pickles", "xX_Slayer_Xx"}))
    }
    assert wagons(_lines(second)) == expected2
    # Tally #3 at 11:17:07, before Conia edited her vote from Jd- to Slayer (11:17:23; the
    # host's #3 at 11:18:01 already counts the edit).
    assert wagons(_lines(third)) == {
        ("xX_Slayer_Xx", frozenset({"Lady Grey", "Mr. Pickles"})),
        ("Mr. Pickles", frozenset({"Jd-"})),
        ("Lady Grey", frozenset({"xX_Slayer_Xx"})),
        ("Jd-", frozenset({"Conia"})),
        ("Conia", frozenset({"Tom & Jerry's"})),
        ("Not voting", frozenset()),
    }
    # The final count, locked at the deadline, is the thread's ground truth.
    [locked] = final
    assert locked["deadline"] == deadline.astimezone(UTC).isoformat()
    assert wagons(_lines(drafts / "day2-final.txt")) == wagons(meta["final_tally_002"])
    assert locked["tally"]["outcome"]["lynched"] == ["xX_Slayer_Xx"]
    assert {
        v: t for w in locked["tally"]["wagons"] for t in [w["target"]] for v in w["voters"]
    } == meta["final_votes_002"]
    # No setup entered (`assistant roles`): no dusk draft, and no dusk marked as handled.
    assert not (drafts / "day2-dusk.txt").exists()
    assert not [m for m in markers if m["kind"] == "dusk"]


def _lines(path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if "): " in line]


@pytest.mark.parametrize("forum", ["smf21"])
def test_restart_after_a_missed_deadline_handles_it_once(tmp_path, forum, caplog) -> None:
    """Stopped after snapshot 8, started again after the deadline: the missed tally is not
    drafted late, the deadline is handled once, and another restart repeats nothing."""
    caplog.set_level(logging.INFO, logger="assistant.daemon")
    clock = FakeClock(datetime(2026, 11, 22, 11, 0, tzinfo=UTC))
    with running_forum() as server:
        setup_store(tmp_path, forum, thread_url(server, forum))
        drive(make_daemon(tmp_path, clock), clock, server, forum, stop_after=8)
        snaps = snapshots(forum)
        serve(server, forum, snaps[-1], snaps)
        clock.set(datetime(2026, 11, 22, 11, 40, tzinfo=UTC))
        again = make_daemon(tmp_path, clock)
        assert again.tick("thread-b") is None
        with open_store(tmp_path) as store:
            first = {(m["key"], m["status"]) for m in store.table(MARKERS).all()}
            n_alerts = len(AlertLog(store).all())
        clock.advance(timedelta(minutes=5))
        make_daemon(tmp_path, clock).tick("thread-b")
        with open_store(tmp_path) as store:
            assert {(m["key"], m["status"]) for m in store.table(MARKERS).all()} == first
            assert len(AlertLog(store).all()) == n_alerts
            assert len(store.table("final_counts").all()) == 1
    assert ("day2:deadline", "locked") in first
    deadline_logs = [r for r in caplog.records if r.getMessage().startswith("deadline ")]
    assert len(deadline_logs) == 1


# Thread B's setup, from the role PMs its host sent (meta.role_pms): 002 role keys.
THREAD_B_SETUP = Setup(
    (
        PlayerSetup("Mr. Pickles", "town"),
        PlayerSetup("xX_Slayer_Xx", "mafia", "roleblocker"),
        PlayerSetup("Jd-", "town", "child"),
        PlayerSetup("Conia", "town", "jailkeeper"),
        PlayerSetup("Lady Grey", "town", "investigator"),
        PlayerSetup("Tom & Jerry's", "town"),
        PlayerSetup("ÆtherWolf", "mafia"),
        PlayerSetup("Kat", "town", "doctor"),
    ),
    seed=2,
)


def setup_store_with_roles(data_dir, forum: str, url: str) -> None:
    """Thread B's store as `setup_store` makes it, with the setup entered right after the
    players: the engine replays the deaths entered after the setup (ÆtherWolf, Kat)."""
    meta = tb.truth(forum)["meta"]
    at = datetime(2026, 11, 22, 11, 0, tzinfo=UTC)
    with GameStore.open(data_dir, "thread-b") as store:
        store.update_config(
            ruleset="chat-mafia",
            gms=[tb.GM],
            tz="UTC",
            thread_url=url,
            posting={"pm_copy": "violation"},
            recheck_every_polls=1,
        )
        with store.batch():
            for doc in tb.inputs(forum, day_ends=meta["day"]["announced_end_iso"]):
                store.add_input(doc["kind"], doc["data"], at)
                if doc["kind"] == "players":
                    store.add_input("roles", THREAD_B_SETUP.to_dict(), at)


@pytest.mark.parametrize("forum", ["smf21"])
def test_the_deadline_drafts_the_dusk_once_the_game_has_a_setup(tmp_path, forum, caplog) -> None:
    """With the setup entered, the deadline also drafts the dusk post (engine.dusk): the
    lynch of the locked count, its 002 reveal, and the Town's win; once, across a restart."""
    caplog.set_level(logging.INFO, logger="assistant.daemon")
    clock = FakeClock(datetime(2026, 11, 22, 11, 0, tzinfo=UTC))
    with running_forum() as server:
        setup_store_with_roles(tmp_path, forum, thread_url(server, forum))
        drive(make_daemon(tmp_path, clock), clock, server, forum)
        clock.advance(timedelta(minutes=30))
        make_daemon(tmp_path, clock).tick("thread-b")  # a restart after it: nothing again

    dusk = tmp_path / "drafts" / "thread-b" / "day2-dusk.txt"
    # 002: "If a player is lynched, their alignment and role will be revealed to all
    # players"; both mafia are dead, so "All threats to the Town have been eliminated".
    text = dusk.read_text(encoding="utf-8")
    # The dusk links the deciding post (its permalink on the test forum's own port).
    [deciding] = [ln for ln in text.splitlines() if ln.startswith("The deciding vote: ")]
    assert deciding.startswith("The deciding vote: http://127.0.0.1:")
    assert text == (
        "Day 2 is over.\n"
        "xX_Slayer_Xx has been lynched. xX_Slayer_Xx was the Roleblocker (Mafia).\n"
        f"{deciding}\n"
        "\n"
        "The game is over. Victory: Town!\n"
        "All threats to the Town have been eliminated.\n"
        "Winners: Mr. Pickles, Jd-, Conia, Lady Grey, Tom & Jerry's, Kat.\n"
    )
    with open_store(tmp_path) as store:
        markers = store.table(MARKERS).all()
        [locked] = store.table("final_counts").all()
        # The draft stores nothing: the GM confirms the lynch (`draft dusk --confirm`).
        assert [i for i in store.inputs("death") if i["data"].get("dusk")] == []
    [mark] = [m for m in markers if m["kind"] == "dusk"]
    assert (mark["key"], mark["status"], mark["at"]) == ("day2:dusk", "drafted", locked["deadline"])
    logged = [r.getMessage() for r in caplog.records if r.getMessage().startswith("dusk ")]
    # Counted to the effective deadline (the drop to 5 minutes), not the announced 11:23:
    # the outcome is final, as in the locked count.
    assert logged == [
        f"dusk thread-b Day 2: xX_Slayer_Xx (xX_Slayer_Xx leads with 4), Town win -> {dusk}"
    ]


def test_a_setup_entered_after_the_deadline_still_gets_its_dusk(tmp_path) -> None:
    """The dusk waits (unmarked) for a setup; a wrong setup is logged and waits too."""
    clock = FakeClock(datetime(2026, 11, 22, 11, 0, tzinfo=UTC))
    with running_forum() as server:
        setup_store(tmp_path, "phpbb33", thread_url(server, "phpbb33"))
        drive(make_daemon(tmp_path, clock), clock, server, "phpbb33")
        drafts = tmp_path / "drafts" / "thread-b"
        assert (drafts / "day2-final.txt").is_file() and not (drafts / "day2-dusk.txt").exists()
        wrong = Setup((PlayerSetup("Nobody", "town"), *THREAD_B_SETUP.players[1:]), seed=2)
        with open_store(tmp_path) as store:
            store.add_input("roles", wrong.to_dict(), clock.now())
        clock.advance(timedelta(minutes=1))
        report = make_daemon(tmp_path, clock).cycle("thread-b")
        assert report.handled == () and not (drafts / "day2-dusk.txt").exists()
        with open_store(tmp_path) as store:
            store.add_input("roles", THREAD_B_SETUP.to_dict(), clock.now())
        clock.advance(timedelta(minutes=1))
        report = make_daemon(tmp_path, clock).cycle("thread-b")
    assert [(e.key, e.status) for e in report.handled] == [("day2:dusk", "drafted")]
    assert "xX_Slayer_Xx was the Roleblocker (Mafia)." in (drafts / "day2-dusk.txt").read_text()
