"""The inbox's proposals and what the GM does with them (issue 23): each proposal shows the
message it came from; the GM accepts it as read, as edited (`--as`), or rejects it;
`--accept-all` takes only those read without doubt; an accepted proposal is the same fact
as a typed order or PM vote (with where it came from, so `log` shows it and `undo`
withdraws it); the same order sent to two co-moderators is one order; a later message of
the same player for the same night is proposed as a replacement.

The messages are kept as `assistant inbox` keeps what it reads from the forum (the live
tests read them from real forums: tests/test_live_inbox_orders.py)."""

from __future__ import annotations

import shutil
from datetime import timedelta

import pytest
from inbox_support import DCTP_DAY_1, DCTP_NIGHT_2, NIGHT_1, keep_message, make_games

from assistant.corrections import game_log, undo
from assistant.engine.history import ORDER
from assistant.errors import ProposalError
from assistant.gm import replay_of
from assistant.gm_inbox import accept, accept_all, reject
from assistant.proposals import proposals
from assistant.store import GameStore

LATER = NIGHT_1 + timedelta(hours=2)


@pytest.fixture(scope="module")
def built(tmp_path_factory):  # noqa: ANN201
    return make_games(tmp_path_factory.mktemp("games") / "data")


@pytest.fixture
def data(built, tmp_path):  # noqa: ANN201
    copy = tmp_path / "data"
    shutil.copytree(built, copy)
    return copy


def at(minutes: int):  # noqa: ANN201
    return NIGHT_1 + timedelta(minutes=minutes)


def test_the_same_order_to_two_gms_is_one_proposal_and_one_order(data) -> None:
    with GameStore.open(data, "chat", create=False) as store:
        # Conia sends her order to each co-moderator: two PMs, two ids.
        keep_message(store, 31, "Conia", "I'd like to protect Kat tonight", at(1), subject="N1")
        keep_message(store, 32, "Conia", "I'd like to protect Kat tonight", at(1), subject="N1")
        [p] = proposals(store)
        assert (p.id, p.pm_ids, p.reading.line, p.status) == (
            "31", (31, 32), "Conia: protect Kat", "open")
        assert p.text == "I'd like to protect Kat tonight"  # the message beside the proposal
        done, refused = accept_all(store, LATER)
        assert [d.proposal.id for d in done] == ["31"] and not refused
        orders = [d["data"] for d in store.inputs(ORDER)]
        assert len(orders) == 1
        assert (orders[0]["text"], orders[0]["source"], orders[0]["pm_id"],
                orders[0]["pm_ids"]) == ("Conia: protect Kat", "inbox", 31, [31, 32])
        _rules, rep = replay_of(store)
        assert [o.label() for o in rep.orders_for("night", 1)] == ["Conia: protect Kat"]
        [p] = proposals(store)
        assert p.status == "accepted"


def test_a_later_message_replacing_an_order_is_proposed_as_its_replacement(data) -> None:
    with GameStore.open(data, "chat", create=False) as store:
        keep_message(store, 40, "Conia", "protect Kat", at(1))
        keep_message(store, 41, "Kat", "Night action: investigate Conia", at(2))
        keep_message(store, 42, "Conia", "Change of plans: protect Jerry instead", at(30))
        found = {p.id: p for p in proposals(store)}
        assert (found["40"].status, found["40"].replaced_by) == ("replaced", "42")
        assert (found["42"].status, found["42"].replaces) == ("open", "40")
        done, _refused = accept_all(store, LATER)
        assert [d.proposal.id for d in done] == ["41", "42"]  # never the replaced one
        with pytest.raises(ProposalError, match="replaced by 42"):
            accept(store, "40", LATER)
        texts = [d["data"]["text"] for d in store.inputs(ORDER)]
        assert texts == ["Kat: investigate Conia", "Conia: protect Jerry"]


def test_a_replacement_of_an_accepted_order_stands_as_the_later_order(data) -> None:
    with GameStore.open(data, "chat", create=False) as store:
        keep_message(store, 50, "Conia", "protect Kat", at(1))
        accept(store, "50", LATER)
        keep_message(store, 51, "Conia", "Actually, protect Bob instead.", at(40))
        p = {p.id: p for p in proposals(store)}["51"]
        assert (p.replaces, p.status) == ("50", "open")
        said = accept(store, "51", LATER).text
        assert "replaces 50" in said
        _rules, rep = replay_of(store)
        from assistant.engine.resolver import resolve_phase

        result = resolve_phase(rep.state, "night", 1, rep.orders_for("night", 1))
        assert any(e.effect == "replaced" and "Conia: protect Kat" in e.action
                   for e in result.events)


def test_a_message_with_no_order_is_listed_never_dropped_and_can_be_rejected(data) -> None:
    with GameStore.open(data, "chat", create=False) as store:
        keep_message(store, 60, "Lady Grey", "Hi GM! When does the night end?", at(3),
                     subject="Question")
        [p] = proposals(store)
        assert (p.reading.kind, p.status, p.subject) == ("none", "open", "Question")
        with pytest.raises(ProposalError, match="holds no order"):
            accept(store, "60", LATER)
        assert accept_all(store, LATER) == ([], [])
        decision = reject(store, "60", LATER)
        assert "Rejected 60 (Lady Grey, PM 60)" in decision.text
        [p] = proposals(store)
        assert p.status == "rejected"
        assert "inbox proposal 60 rejected" in game_log(store)[-1].what


def test_accept_all_leaves_doubts_and_refusals_to_the_gm(data) -> None:
    with GameStore.open(data, "chat", create=False) as store:
        keep_message(store, 70, "Jd-", "kill: Kaat", at(1))  # misspelt
        keep_message(store, 71, "Abs", "roleblock J", at(2))  # Jd- or Jerry
        keep_message(store, 72, "Lady Grey", "I'd like to protect Kat tonight", at(3))  # no role
        keep_message(store, 73, "Bob", "Shoot Abs.", at(4))
        done, _refused = accept_all(store, LATER)
        assert [d.proposal.id for d in done] == ["73"]
        found = {p.id: p for p in proposals(store)}
        assert found["70"].reading.doubts and found["70"].status == "open"
        # The GM accepts the doubtful one as read, and enters the ambiguous one as read.
        assert "Jd- (mafia): kill Kat" in accept(store, "70", LATER).text
        with pytest.raises(ProposalError, match="'J' could be Jd-, Jerry"):
            accept(store, "71", LATER)
        assert "Abs: block Jd-" in accept(store, "71", LATER, as_line="Abs: block Jd-").text
        with pytest.raises(ProposalError, match="has no ability 'protect'"):
            accept(store, "72", LATER)
        facts = {d["data"]["proposal"]: d["data"]["text"] for d in store.inputs(ORDER)}
        assert facts == {"73": "Bob: kill Abs", "70": "Jd-: kill Kat", "71": "Abs: block Jd-"}


def test_an_accepted_proposal_is_in_the_log_and_undo_withdraws_it(data) -> None:
    with GameStore.open(data, "chat", create=False) as store:
        keep_message(store, 80, "Conia", "protect kat", at(1))
        accept(store, "80", LATER)
        entry = game_log(store)[-1]
        assert entry.kind == "order"
        assert entry.what == "order for night 1: Conia: protect Kat (inbox proposal 80, PM 80)"
        undo(store, entry.id, LATER)
        [p] = proposals(store)
        assert p.status == "withdrawn"
        assert accept_all(store, LATER) == ([], [])  # an undone proposal is the GM's call
        accept(store, "80", LATER)  # ... who may accept it again
        [p] = proposals(store)
        assert p.status == "accepted"
        with pytest.raises(ProposalError, match="accepted already"):
            accept(store, "80", LATER)


def test_an_order_typed_already_is_not_proposed_again(data) -> None:
    from assistant.gm import enter_orders

    with GameStore.open(data, "chat", create=False) as store:
        enter_orders(store, ["Kat: investigate Abs"], NIGHT_1, night=1)
        keep_message(store, 90, "Kat", "Check Abs please", at(5))
        [p] = proposals(store)
        assert p.status == "entered"
        assert accept_all(store, LATER) == ([], [])


def test_a_reply_quoting_the_gms_pm_is_read_without_the_quote(data) -> None:
    """A player answering the role PM quotes it ("You may protect one player a night"):
    only their own words are read."""
    with GameStore.open(data, "chat", create=False) as store:
        keep_message(store, 95, "Conia", "protect Jerry", at(1), subject="Re: Your role",
                     body_html="<blockquote><cite>GM wrote:</cite>You are the Doctor. Protect "
                               "one player a night, e.g. protect Kat.</blockquote>protect Jerry")
        [p] = proposals(store)
        assert (p.reading.line, p.text) == ("Conia: protect Jerry", "protect Jerry")


def test_a_pm_vote_is_stored_at_the_time_it_was_sent(data) -> None:
    """004: "To use an ability or vote, you must PM the order directly to the GM.\""""
    with GameStore.open(data, "dctp", create=False) as store:
        keep_message(store, 100, "Parkur", "vote Abs", DCTP_DAY_1)
        keep_message(store, 101, "Pofa", "I vote for Parkur, sorry",
                     DCTP_DAY_1 + timedelta(minutes=5))
        keep_message(store, 102, "Jd-", "heal parkur tonight, and my vote is on Abs",
                     DCTP_DAY_1 + timedelta(minutes=9))
        keep_message(store, 103, "Akonyl", "Arrest Abs for killing Kleene on Night 1. "
                     "Investigate Jd- heals Parkur.", DCTP_NIGHT_2)
        found = {p.id: p for p in proposals(store)}
        assert [(i, p.reading.line) for i, p in found.items()] == [
            ("100", "Parkur: vote Abs"), ("101", "Pofa: vote Parkur"),
            ("102", "Jd-: heal Parkur"), ("102.2", "Jd-: vote Abs"),
            ("103", "Akonyl: arrest Abs for killing Kleene on Night 1"),
            ("103.2", "Akonyl: investigate Jd- heals Parkur")]
        done, refused = accept_all(store, DCTP_NIGHT_2)
        assert len(done) == 6 and not refused
        votes = [d["data"] for d in store.inputs("vote")]
        assert [(v["voter"], v["target"], v["at"]) for v in votes] == [
            ("Parkur", "Abs", "2026-01-01T13:00:00+00:00"),
            ("Pofa", "Parkur", "2026-01-01T13:05:00+00:00"),
            ("Jd-", "Abs", "2026-01-01T13:09:00+00:00")]
        assert {v["source"] for v in votes} == {"inbox"}
        orders = [(d["data"]["text"], d["data"]["phase"], d["data"]["number"])
                  for d in store.inputs(ORDER) if d["data"].get("source") == "inbox"]
        assert orders == [("Jd-: heal Parkur", "night", 2),
                          ("Akonyl: arrest Abs for killing Kleene on Night 1", "night", 2),
                          ("Akonyl: investigate Jd- heals Parkur", "night", 2)]


def test_each_new_proposal_is_pushed_once_as_an_orders_event(data) -> None:
    """The notification push (issue 24) tells a target that wants "orders" of each order
    read in a player's PM, with the command that accepts it; one not wanting them hears
    nothing, and a message kept before the target was added is not told."""
    from assistant.notify.manage import add_target
    from assistant.notify.outbox import Outbox
    from assistant.notify.push import gather

    with GameStore.open(data, "chat", create=False) as store:
        keep_message(store, 110, "Conia", "protect kat", at(1))  # before the target
        add_target(store, "json://127.0.0.1:9/orders", at(2), events="orders")
        add_target(store, "json://127.0.0.1:9/alerts", at(2), events="alerts")
        keep_message(store, 111, "Kat", "Night action: investigate Conia", at(3))
        keep_message(store, 112, "Jd-", "kill: Kaat", at(4))
        keep_message(store, 113, "Lady Grey", "When does the night end?", at(5))
        notices = [n for n in gather(store, None, at(6)) if n.event == "orders"]
        assert {n.key for n in notices} == {"inbox:110", "inbox:111", "inbox:112", "inbox:113"}
        by_key = {n.key: n for n in notices}
        assert by_key["inbox:111"].title == (  # the game's title; its id in the command
            "Turtle's Chat Mafia: PM from Kat — Kat: investigate Conia")
        assert "Accept: assistant inbox chat --accept 111" in by_key["inbox:111"].body
        assert "(check it)" in by_key["inbox:112"].title
        assert "Check: 'Kaat' read as Kat" in by_key["inbox:112"].body
        assert "no order read" in by_key["inbox:113"].title
        from assistant.notify.targets import targets_of

        queued = Outbox(store).queue(notices, targets_of(store.config()), at(6))
        assert sorted(r.key for r in queued) == ["inbox:111", "inbox:112", "inbox:113"]
        assert Outbox(store).queue(notices, targets_of(store.config()), at(7)) == []


def test_a_player_switching_back_to_an_earlier_order_is_a_new_order(data) -> None:
    """Kat, then Bob, then Kat again: the third message is not the first one "entered
    already" (Bob's order stands by then), it is proposed and, accepted, stands."""
    with GameStore.open(data, "chat", create=False) as store:
        keep_message(store, 120, "Conia", "protect Kat", at(1))
        accept(store, "120", LATER)
        keep_message(store, 121, "Conia", "protect Bob instead", at(2))
        accept(store, "121", LATER)
        keep_message(store, 122, "Conia", "Sorry, protect Kat after all", at(3))
        p = {p.id: p for p in proposals(store)}["122"]
        assert (p.status, p.replaces) == ("open", "121")
        accept(store, "122", LATER)
        _rules, rep = replay_of(store)
        from assistant.engine.resolver import resolve_phase

        result = resolve_phase(rep.state, "night", 1, rep.orders_for("night", 1))
        kept = [e.action for e in result.events if e.tier != "orders"
                and e.action.startswith("Conia")]
        assert kept and all("protect Kat" in a for a in kept), kept
