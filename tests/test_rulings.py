"""Issue 22, first half: the GM corrects any single reading (`rule`), a tie someone must
break waits for them, a lynch that depends on what the assistant could not see is not
"Decided", and every GM input is in a log with an undo that is a fact of its own.

All on the real fixture threads: thread B (002, Day 2) and thread A (Day 1), as the saved
pages and the live snapshots a poller saw show them.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
import thread_b_support as tb
from cli_support import CliAt
from daemon_support import setup_store, snapshots, thread_url
from forum_server import running_forum
from realthreads import FORUMS, HOST, PLAYERS_A, post_id, thread_posts
from test_daemon import drive, make_daemon
from thread_b_cli import setup_file

from assistant.clock import FakeClock
from assistant.store import GameStore

AT = "2026-11-22T11:40:00+00:00"
"""The GM's clock: Day 2 of thread B is over (it ended at 11:20-11:23)."""


class Cli(CliAt):
    def __call__(self, *args: str, ok: bool = True) -> str:
        return self.at(AT, *args, ok=ok)

    def json(self, *args: str) -> dict:
        return json.loads(self("--json", *args))


@pytest.fixture
def cli(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch) -> Cli:
    return Cli(tmp_path, capsys, monkeypatch)


def thread_b(cli: Cli, forum: str) -> None:
    """Thread B's game as its GM set it up, its final pages read once at noon."""
    meta = tb.truth(forum)["meta"]
    with tb.new_store(cli.data, forum, day_ends=meta["day"]["announced_end_iso"]) as store:
        store.record_posts(tb.final_posts(forum), tb.SAVED_AT)


def b_post(forum: str, smf_id: int) -> int:
    """Thread B's post at the position SMF's `smf_id` has (phpBB numbers them one lower)."""
    return post_id(forum, smf_id - 116, "b")


def voters(tally: dict) -> dict[str, list[str]]:
    return {w["target"]: w["voters"] for w in tally["wagons"]}


# ---- rulings ---------------------------------------------------------------------------------


@pytest.mark.parametrize("forum", FORUMS)
def test_rulings_change_the_count_why_and_the_drafts(cli: Cli, forum: str) -> None:
    thread_b(cli, forum)
    jd_on_slayer, conia_edited = b_post(forum, 153), b_post(forum, 141)
    assert cli.json("count", "thread-b")["outcome"]["lynched"] == ["xX_Slayer_Xx"]
    # The GM reads Jd-'s late switch as a vote for Conia, and Conia's edited vote (the OP
    # asks not to edit votes) as the Jd- it first said.
    out = cli("rule", "thread-b", "--post", str(jd_on_slayer), "--vote", "conia")
    assert out.startswith(f"Ruled on post {jd_on_slayer} (Jd-): a vote for Conia. Day 2's count "
                          "was xX_Slayer_Xx 4, Lady Grey 1, Conia 1 (xX_Slayer_Xx lynched); now")
    out = cli("rule", "thread-b", "--post", str(conia_edited), "--vote", "Jd")
    assert "; now xX_Slayer_Xx 2, Conia 2, Lady Grey 1, Jd- 1 (Conia lynched)." in out
    tally = cli.json("count", "thread-b", "--why", "Jd-")
    assert voters(tally)["Conia"] == ["Tom & Jerry's", "Jd-"]
    assert tally["outcome"]["lynched"] == ["Conia"]  # the 2-2 tie, drawn as 002 draws it
    ruled = [v for v in tally["votes"] if v["post"] == jd_on_slayer]
    assert [(v["code"], v["target"], v["markup"]) for v in ruled] == [
        ("counted", "Conia", "GM's ruling")
    ]
    assert ruled[0]["reason"] == (
        "counted: ruled by the GM at 2026-11-22 11:40 UTC: a vote for Conia"
    )
    text = cli("count", "thread-b", "--why", "Conia")
    assert (f"post {conia_edited} " in text
            and "-> counted: ruled by the GM at 2026-11-22 11:40 UTC: a vote for Jd-" in text)
    assert "Conia (2): Tom & Jerry's, Jd-\n" in cli("draft", "tally", "thread-b")
    dusk = cli("draft", "dusk", "thread-b", "--day", "2")
    assert dusk.splitlines()[0] == "Day 2 is over." and "Conia has been lynched." in dusk


@pytest.mark.parametrize("forum", FORUMS)
def test_a_ruling_names_one_vote_of_a_post_that_holds_two(cli: Cli, forum: str) -> None:
    """Post 127: "[Vote: Tom] ... [Vote: Pickles]" (002: the last one counts). `--why`
    numbers them; the GM rules the second one out, and the first stands."""
    thread_b(cli, forum)
    two, before_switch = b_post(forum, 127), b_post(forum, 150)
    why = cli("count", "thread-b", "--why", "Jd-", "--at-post", str(before_switch))
    assert f"post {two} #1 " in why and f"post {two} #2 " in why
    assert voters(cli.json("count", "thread-b", "--at-post", str(before_switch)))[
        "Mr. Pickles"] == ["Jd-"]
    out = cli("rule", "thread-b", "--post", str(two), "--which", "2", "--ignore")
    assert out.startswith(f"Ruled on post {two} (Jd-): vote #2 of the post is not a vote.")
    tally = cli.json("count", "thread-b", "--why", "Jd-", "--at-post", str(before_switch))
    assert voters(tally)["Tom & Jerry's"] == ["Jd-"] and "Mr. Pickles" not in voters(tally)
    marks = [(v["mark"], v["code"]) for v in tally["votes"] if v["post"] == two]
    assert marks == [(1, "counted"), (2, "ruled_not_a_vote")]
    # A mark the post does not have, and what to give instead, in one line.
    err = cli("rule", "thread-b", "--post", str(two), "--which", "3", "--ignore", ok=False)
    assert err.strip() == (f"error: --which 3: post {two} holds 2 vote-like mark(s): "
                           "#1 '[Vote: Tom]', #2 '[Vote: Pickles]'")


@pytest.mark.parametrize("forum", FORUMS)
def test_rule_refuses_what_it_cannot_rule_on_in_one_line(cli: Cli, forum: str) -> None:
    thread_b(cli, forum)
    host, bob = b_post(forum, 116), b_post(forum, 148)
    cases = [
        (("--post", "9999", "--ignore"), "post 9999 is not stored in game 'thread-b'"),
        (("--post", str(host), "--ignore"), f"post {host} is by the GM (Host Mira)"),
        (("--post", str(bob), "--vote", "Conia"), f"post {bob} is by bob the builder, who is "
                                                   "not a player"),
        (("--post", str(bob), "--vote", "Nobody"), f"post {bob} is by bob the builder"),
        (("--post", str(b_post(forum, 153)), "--vote", "Zed"), "--vote: 'Zed' matches no player"),
        (("--post", str(b_post(forum, 153))), "say what the post is: --ignore"),
    ]
    for args, said in cases:
        err = cli("rule", "thread-b", *args, ok=False)
        assert said in err and len(err.strip().splitlines()) == 1, err
    with GameStore.open(cli.data, "thread-b") as store:
        assert not store.inputs("ruling")


@pytest.mark.parametrize("forum", FORUMS)
def test_a_ruling_stands_through_refetches_and_a_later_edit_raises_an_alert(
    cli: Cli, forum: str
) -> None:
    """The poller's real snapshots: the GM rules on Conia's "[Vote: Jd-]" (post 141) while it
    is unedited; Conia's later edit to "[Vote: Slayer]" does not override the ruling, it is
    an alert; reading the same pages again changes nothing."""
    meta = tb.truth(forum)["meta"]
    store = tb.new_store(cli.data, forum, day_ends=meta["day"]["announced_end_iso"])
    conia = b_post(forum, 141)
    snaps = snapshots(forum)
    seen_edit = None
    for snap in snaps:
        for path in snap.files.values():
            store.record_posts(tb.parse(path, forum), snap.saved_at)
        stored = store.post(conia)
        if stored is not None and seen_edit is None and "Jd-" in stored.latest.body_html:
            cli.at(snap.saved_at.isoformat(), "rule", "thread-b", "--post", str(conia), "--ignore")
            seen_edit = False
        elif stored is not None and len(stored.versions) > 1:
            seen_edit = True
    store.close()
    assert seen_edit, "the snapshots show the edit of post 141 after the ruling"
    tally = cli.json("count", "thread-b", "--why", "Conia")
    ruled = [v for v in tally["votes"] if v["post"] == conia]
    assert [v["code"] for v in ruled] == ["ruled_not_a_vote"]
    assert "Conia" not in voters(tally).get("xX_Slayer_Xx", [])
    alerts = cli.json("alerts", "thread-b", "--check")["alerts"]
    after = [a for a in alerts if a["kind"] == "edited_after_ruling"]
    assert [a["post_id"] for a in after] == [conia]
    assert "the ruling stands" in after[0]["message"] and "Slayer" in after[0]["evidence"]
    with GameStore.open(cli.data, "thread-b") as store:  # a refetch of the final pages
        store.record_posts(tb.final_posts(forum), tb.SAVED_AT)
    assert cli.json("count", "thread-b")["wagons"] == tally["wagons"]


# ---- a tie someone must break --------------------------------------------------------------


def _game_001(cli: Cli, forum: str) -> None:
    players = cli.data / "players.txt"
    players.write_text("\n".join(PLAYERS_A) + "\n", encoding="utf-8")
    cli("game", "new", "w", "--thread", tb.THREAD_A_URL[forum], "--ruleset", "millers-hollow",
        "--players", str(players), "--gm", HOST)
    posts = thread_posts(forum)
    with GameStore.open(cli.data, "w") as store:
        store.record_posts(posts, tb.SAVED_AT)
    start, tie = str(posts[0].post_id), posts[55]  # by post 57 Jd- and Mr. Pickles are tied
    cli("phase", "w", "day", "1", "--start-post", start, "--ends", tie.posted_at.isoformat())
    cli("sheriff", "w", "Lady Grey", "--day", "1")


@pytest.mark.parametrize("forum", FORUMS)
def test_a_tie_the_sheriff_must_break_waits_for_the_sheriff(cli: Cli, forum: str) -> None:
    """001: "If there's a tie, the sheriff decides who is lynched among those with the most
    votes." Until the sheriff's choice is entered, the count, the dusk draft and the JSON
    say the day waits for it: never "no lynch", never "Nobody was lynched today"."""
    _game_001(cli, forum)
    text = cli("count", "w")
    assert "Not decided yet: tie between Jd- and Mr. Pickles (2 each): waiting for the " \
           "sheriff's choice" in text and "Decided: no lynch" not in text
    outcome = cli.json("count", "w")["outcome"]
    assert outcome["waiting_for"] == "the sheriff (Lady Grey)"
    assert outcome["tied"] == ["Jd-", "Mr. Pickles"] and outcome["no_lynch"] is False
    dusk = cli("draft", "dusk", "w")
    assert "The vote is tied between Jd- and Mr. Pickles: the sheriff (Lady Grey) chooses " \
           "who is lynched." in dusk
    assert "Nobody was lynched today." not in dusk
    assert "`assistant tiebreak w NAME --day 1`" in dusk
    err = cli("draft", "dusk", "w", "--confirm", ok=False)
    assert "the sheriff (Lady Grey) must break: record the choice with `assistant tiebreak w " \
           "NAME --day 1`, then confirm" in err
    cli("tiebreak", "w", "Jd-", "--day", "1")
    assert cli.json("count", "w")["outcome"]["lynched"] == ["Jd-"]
    assert "Jd- has been lynched." in cli("draft", "dusk", "w")


# ---- a lynch that depends on what the assistant could not see ------------------------------


@pytest.mark.parametrize("forum", FORUMS)
def test_a_lynch_that_depends_on_a_post_first_read_edited_is_not_decided(
    cli: Cli, forum: str
) -> None:
    """Thread A fetched after the day: post 19 (Tom & Jerry's "vote Conia", edited at 13:58
    with an ETA line) was first read already edited after the 13:50 deadline, so whether it
    held that vote at the deadline cannot be known: as read Conia and Lady Grey tie (no
    lynch); without it Lady Grey leads. Until the GM rules, nothing is "Decided"."""
    players = cli.data / "players.txt"
    players.write_text("\n".join(PLAYERS_A) + "\n", encoding="utf-8")
    cli("game", "new", "a", "--thread", tb.THREAD_A_URL[forum], "--ruleset", "permissive",
        "--players", str(players), "--gm", HOST)
    posts = thread_posts(forum)
    with GameStore.open(cli.data, "a") as store:
        store.record_posts(posts, tb.SAVED_AT)
    cli("phase", "a", "day", "1", "--start-post", str(posts[0].post_id),
        "--ends", "2026-11-21T13:50:00+00:00")
    tom = posts[17].post_id
    text = cli("count", "a")
    assert "Decided" not in text
    assert (f"Not decided: uncertain: post {tom} could not be seen as it stood at the deadline: "
            f"post {tom} as read: no lynch; post {tom} if it held no vote at the deadline (first "
            f"read already edited after it): Lady Grey; rule on it with `assistant rule`") in text
    outcome = cli.json("count", "a")["outcome"]
    assert [(r["post"], r["lynched"]) for r in outcome["uncertain"]] == [
        (tom, "no lynch"), (tom, "Lady Grey")
    ]
    assert outcome["no_lynch"] is False
    err = cli("draft", "dusk", "a", "--confirm", ok=False)
    assert f"depends on post {tom}, which the assistant could not see" in err
    assert f"(Not decided: the lynch depends on post {tom}" in cli("draft", "dusk", "a")
    # The GM asks Tom and rules: his vote stood. Decided.
    cli("rule", "a", "--post", str(tom), "--vote", "Conia")
    assert "Decided: no lynch: tie between Conia and Lady Grey" in cli("count", "a")


# ---- the log and undo ------------------------------------------------------------------------


@pytest.mark.parametrize("forum", FORUMS)
def test_the_log_lists_every_input_and_undo_withdraws_one_as_a_fact(cli: Cli, forum: str) -> None:
    thread_b(cli, forum)
    kat_vote = b_post(forum, 143)  # Tom & Jerry's "[Vote: Kat]": Kat is dead
    cli("rule", "thread-b", "--post", str(b_post(forum, 153)), "--ignore")
    cli("alerts", "thread-b", "--rule", "pm_copy=violation")
    alert = next(a for a in cli.json("alerts", "thread-b")["alerts"]
                 if a["kind"] == "role_pm_copy")
    cli("alerts", "thread-b", "--ack", alert["id"], "--note", "warned her")
    log = cli.json("log", "thread-b")["inputs"]
    kinds = [e["kind"] for e in log]
    assert kinds[:4] == ["players", "death", "death", "phase"]
    assert kinds[-3:] == ["ruling", "setting", "ack"]
    said = {e["kind"]: e["what"] for e in log}
    assert said["ruling"] == f"ruling on post {b_post(forum, 153)} (Jd-): not a vote"
    assert said["setting"] == "setting posting.pm_copy = violation (was the ruleset default)"
    assert said["ack"] == f"alert {alert['id']} acknowledged: warned her"
    text = cli("log", "thread-b")
    assert "   3  2026-11-22 11:00  death        Kat died (nightkill)" in text

    # Undo Kat's death: she is alive, and Tom's vote for her counts.
    out = cli("undo", "thread-b", "3")
    assert out.startswith("Withdrawn: input 3 (Kat died (nightkill)).")
    tally = cli.json("count", "thread-b", "--why", "Tom & Jerry's")
    assert any(v["post"] == kat_vote and v["code"] == "replaced" for v in tally["votes"])
    assert "Kat" in tally["alive"]
    withdrawal = cli.json("log", "thread-b")["inputs"][-1]
    assert withdrawal["kind"] == "withdraw" and withdrawal["what"].startswith(
        "withdrew input 3 (death): Kat died")
    assert cli.json("log", "thread-b")["inputs"][2]["withdrawn_by"] == withdrawal["id"]
    # Undoing the withdrawal puts the death back; the log keeps all three.
    cli("undo", "thread-b", str(withdrawal["id"]))
    assert "Kat" not in cli.json("count", "thread-b")["alive"]
    # The ruling, the setting and the acknowledgement are withdrawn the same way.
    ruling, setting, ack = (next(e["id"] for e in log if e["kind"] == k)
                            for k in ("ruling", "setting", "ack"))
    cli("undo", "thread-b", str(ruling))
    assert cli.json("count", "thread-b")["outcome"]["lynched"] == ["xX_Slayer_Xx"]
    assert voters(cli.json("count", "thread-b"))["xX_Slayer_Xx"][-1] == "Jd-"
    cli("undo", "thread-b", str(ack))
    reopened = next(a for a in cli.json("alerts", "thread-b")["alerts"] if a["id"] == alert["id"])
    assert reopened["acked_at"] is None
    cli("undo", "thread-b", str(setting))
    with GameStore.open(cli.data, "thread-b") as store:
        assert "pm_copy" not in (store.config().get("posting") or {})
        assert len(store.history()) == len(log) + 5  # five withdrawals, nothing erased
    # What cannot be undone says why in one line.
    err = cli("undo", "thread-b", "1", ok=False)
    assert err.strip().startswith("error: input 1 is the players list of thread-b, its only one")
    err = cli("undo", "thread-b", str(ruling), ok=False)
    assert "was already withdrawn by input" in err and "puts it back" in err
    assert "has no input 999 " in cli("undo", "thread-b", "999", ok=False)


@pytest.mark.parametrize("forum", FORUMS)
def test_a_night_order_is_withdrawn_by_none_or_by_undo(cli: Cli, forum: str) -> None:
    thread_b(cli, forum)
    cli("roles", "thread-b", "--file", str(setup_file(cli.data, forum)))
    cli("phase", "thread-b", "night", "2")
    first = cli("order", "thread-b", "Lady Grey: investigate Conia")
    assert first.strip() == "stored for night 2: Lady Grey: investigate Conia"
    order_id = cli.json("log", "thread-b")["inputs"][-1]["id"]
    out = cli("order", "thread-b", "Lady Grey: none")
    assert out.strip() == (f"Lady Grey: no action on night 2; withdrawn: Lady Grey: investigate "
                           f"Conia (input {order_id})")
    dry = cli("resolve", "thread-b", "--night", "2", "--dry-run")
    assert "investigate" not in dry
    cli("undo", "thread-b", str(order_id + 1))  # the withdrawal: the order stands again
    assert "Lady Grey: investigate Conia" in cli("resolve", "thread-b", "--night", "2",
                                                 "--dry-run")
    cli("undo", "thread-b", str(order_id))
    assert "investigate" not in cli("resolve", "thread-b", "--night", "2", "--dry-run")


@pytest.mark.parametrize("forum", FORUMS)
def test_the_daemons_locked_count_applies_a_ruling_made_after_the_lock(
    cli: Cli, forum: str, caplog
) -> None:
    """The daemon polled thread B as it grew and locked Day 2's final count at the deadline
    (Slayer lynched). The GM then rules on two posts: the daemon locks a revised final count
    beside the first, and the lock, `count` and `draft tally` agree again."""
    caplog.set_level("WARNING", logger="assistant.daemon")
    clock = FakeClock(datetime(2026, 11, 22, 11, 0, tzinfo=UTC))
    with running_forum() as server:
        setup_store(cli.data, forum, thread_url(server, forum))
        daemon = make_daemon(cli.data, clock)
        drive(daemon, clock, server, forum)
        with GameStore.open(cli.data, "thread-b", create=False) as store:
            [first] = store.table("final_counts").all()
        assert first["tally"]["outcome"]["lynched"] == ["xX_Slayer_Xx"]
        cli("rule", "thread-b", "--post", str(b_post(forum, 153)), "--vote", "Conia")
        cli("rule", "thread-b", "--post", str(b_post(forum, 141)), "--vote", "Jd-")
        clock.set(datetime.fromisoformat(AT))
        daemon.tick("thread-b")
        daemon.tick("thread-b")  # nothing new: no third lock
    with GameStore.open(cli.data, "thread-b", create=False) as store:
        locked = store.table("final_counts").all()
    assert len(locked) == 2 and locked[1]["tally"]["outcome"]["lynched"] == ["Conia"]
    counted = cli.json("count", "thread-b")
    drafted = cli.json("draft", "tally", "thread-b")
    drafted.pop("bbcode")
    assert locked[1]["tally"] == counted == drafted
    assert any("changed since it was locked" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("forum", FORUMS)
def test_a_replaced_order_is_marked_replaced_for_the_dashboard(cli: Cli, forum: str) -> None:
    """`gm.orders_entered` (the dashboard's list of tonight's orders): an order the same
    player's later order replaced says so, as the night's resolution will treat it."""
    from assistant.gm import orders_entered

    thread_b(cli, forum)
    cli("roles", "thread-b", "--file", str(setup_file(cli.data, forum)))
    cli("phase", "thread-b", "night", "2")
    cli("order", "thread-b", "Lady Grey: investigate Conia")
    cli("order", "thread-b", "Lady Grey: investigate Jd-")
    with GameStore.open(cli.data, "thread-b") as store:
        night, orders = orders_entered(store, datetime.fromisoformat(AT))
    assert night == 2
    assert [(o["text"], o["status"]) for o in orders] == [
        ("Lady Grey: investigate Conia", "replaced"), ("Lady Grey: investigate Jd-", "stands")
    ]
    assert orders[0]["why"] == "by the later order Lady Grey: investigate Jd-"
