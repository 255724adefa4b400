"""Orders sent as PMs by members in free wording, on the real SMF 2.1.5 and phpBB 3.3.10
(issue 23): read from both co-moderators' inboxes, proposed as the GM reads them,
accepted, and resolved by `resolve --dry-run` exactly as the same orders typed with
`assistant order` are; the same order sent to both GMs is one order; the daemon's own read
of the inbox (`run --once`) keeps a later message and pushes its proposal ('orders') to a
receiver on 127.0.0.1.

Members write as players do: "Hi! I'd like to protect X tonight.", "kill: X" (to each GM),
"Night action: investigate X" (one PM to both GMs), a roleblock on a misspelt name, a
question with no order at all."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from cli_support import call
from receivers import json_receiver

PASSWORD = "gm-Pa55word-inbox"
VARIABLES = ("LIVE_INBOX_GM", "LIVE_INBOX_COGM")
BASES = ("Kathleen", "Conrad", "Jeddah", "Absalom", "Ludwig", "Gertrude")
ROLES = ("doctor", "investigator", "godfather", "roleblocker", None, None)


class Gm:
    """The test's GM at the command line; ASSISTANT_NOW is the real time (the forums
    stamp PMs with it)."""

    def __init__(self, data: Path, capsys, monkeypatch) -> None:  # noqa: ANN001
        self.data, self.capsys, self.mp = data, capsys, monkeypatch
        for v in VARIABLES:
            monkeypatch.setenv(v, PASSWORD)

    def run(self, *args: str, ok: bool = True) -> str:
        self.mp.setenv("ASSISTANT_NOW", datetime.now(UTC).isoformat())
        code, out, err = call(self.capsys, self.data, *args)
        assert (code == 0) == ok, (args, code, out, err)
        assert "Traceback" not in out + err
        return out if ok else err

    def json(self, *args: str):  # noqa: ANN201
        return json.loads(self.run("--json", *args))


def _game(g: Gm, game: str, url: str, names: list[str], gms: list[str], folder: Path) -> None:
    players = folder / f"{game}.players"
    players.write_text("\n".join(names) + "\n", encoding="utf-8")
    setup = folder / f"{game}.setup.toml"
    setup.write_text("seed = 3\nplayers = [\n" + ",\n".join(
        f'  {{ name = "{n}", role = "{r}" }}' if r else f'  {{ name = "{n}", side = "town" }}'
        for n, r in zip(names, ROLES, strict=True)) + "\n]\n", encoding="utf-8")
    now = datetime.now(UTC)
    g.run("game", "new", game, "--thread", url, "--ruleset", "chat-mafia", "--players",
          str(players), *[x for gm in gms for x in ("--gm", gm)])
    g.run("roles", game, "--file", str(setup))
    g.run("phase", game, "day", "1", "--starts", (now - timedelta(hours=3)).isoformat(),
          "--ends", (now - timedelta(hours=2)).isoformat())
    g.run("phase", game, "night", "1", "--starts", (now - timedelta(hours=2)).isoformat(),
          "--ends", (now + timedelta(hours=6)).isoformat())


def _resolution(doc: dict) -> dict:
    """What a dry resolution decides, without the moment it was asked."""
    return {k: doc[k] for k in ("deaths", "events", "pms") if k in doc}


@pytest.mark.parametrize("software", ["smf", "phpbb"])
def test_inbox_orders_sent_as_pms_are_proposed_accepted_and_resolved_as_typed(
        live_forums, software, tmp_path, capsys, monkeypatch) -> None:
    board = live_forums.forum(software)
    names = live_forums.names(*BASES)
    doc, inv, gf, rb, t1, t2 = names
    gm, co = live_forums.names("InboxHost", "InboxCoHost")
    board.create_members(gm, co, password=PASSWORD)
    board.create_members(*names)
    topic, _first = board.new_topic(gm, "Inbox game, Day 1", "Day 1 begins. Send me your orders.")
    g = Gm(tmp_path / "data", capsys, monkeypatch)
    url = live_forums.topic_url(software, topic)
    _game(g, "g", url, names, [gm, co], tmp_path)
    g.run("fetch", "--game", "g", "--delay", "0", "--login", gm, "--password-env", VARIABLES[0])
    said = g.run("inbox", "g", "--co-gm", co, "--password-env", VARIABLES[1])
    assert f"the inbox of {co} is read too" in said

    misspelt = doc[:3] + doc[3] + doc[3:]  # "Kattleen7": a letter doubled
    board.send_pm(doc, gm, "Night 1", f"Hi! I'd like to protect {inv} tonight.")
    board.send_pm(gf, gm, "NK", f"kill: {t1}")
    board.send_pm(gf, co, "NK", f"kill: {t1}")  # the same order to the co-moderator
    board.send_pm(inv, [gm, co], "action", f"Night action: investigate {gf}")  # one PM, two GMs
    board.send_pm(rb, gm, "rb", f"I want to use my roleblock on {misspelt}")
    board.send_pm(t2, co, "question", "When does the night end?")

    read = g.json("inbox", "g", "--delay", "0")
    assert {r["account"] for r in read["read"]} == {gm, co}
    assert sum(r["new"] for r in read["read"]) == 6  # the PM sent to both is kept once
    by_player = {p["player"]: p for p in read["proposals"]}
    assert {p: x["line"] for p, x in by_player.items()} == {
        doc: f"{doc}: protect {inv}", gf: f"{gf}: kill {t1}", inv: f"{inv}: investigate {gf}",
        rb: f"{rb}: block {doc}", t2: None}
    assert len(by_player[gf]["pm_ids"]) == 2  # two PMs, one order
    assert [by_player[p]["sure"] for p in (doc, gf, inv, rb)] == [True, True, True, False]
    assert "read as" in by_player[rb]["doubts"][0]
    assert by_player[t2]["kind"] == "none" and "When does the night end?" in by_player[t2]["text"]

    done = g.json("inbox", "g", "--accept-all")
    assert sorted(d["id"] for d in done["decisions"]) == sorted(
        by_player[p]["id"] for p in (doc, gf, inv))
    g.run("inbox", "g", "--accept", by_player[rb]["id"])
    g.run("inbox", "g", "--reject", by_player[t2]["id"])
    status = {p["player"]: p["status"] for p in g.json("inbox", "g", "--stored")["proposals"]}
    assert status == {doc: "accepted", gf: "accepted", inv: "accepted", rb: "accepted",
                      t2: "rejected"}
    from_inbox = g.json("resolve", "g", "--dry-run")

    # The same orders typed by the GM resolve the same.
    _game(g, "typed", url, names, [gm, co], tmp_path)
    for line in (f"{doc}: protect {inv}", f"{gf}: kill {t1}", f"{inv}: investigate {gf}",
                 f"{rb}: block {doc}"):
        g.run("order", "typed", line)
    typed = g.json("resolve", "typed", "--dry-run")
    assert _resolution(from_inbox) == _resolution(typed)
    assert _resolution(from_inbox)  # something was resolved: the comparison can fail
    log = g.run("log", "g")
    assert f"{gf}: kill {t1} (inbox proposal {by_player[gf]['id']}" in log


def test_inbox_read_by_the_daemon_is_pushed_as_an_orders_event(
        live_forums, tmp_path, capsys, monkeypatch) -> None:
    """`run --once` reads the inbox when it is due (a game with a login), through the
    login its poll uses (the forum sees one login), keeps the new message, counts the read
    in its report, and the notification push tells the GM."""
    board = live_forums.smf
    names = live_forums.names(*BASES)
    doc, inv = names[0], names[1]
    gm = live_forums.names("InboxDaemonHost")[0]
    board.create_members(gm, password=PASSWORD)
    board.create_members(*names)
    topic, _first = board.new_topic(gm, "Daemon inbox game, Day 1", "Day 1 begins.")
    g = Gm(tmp_path / "data", capsys, monkeypatch)
    _game(g, "d", live_forums.topic_url("smf", topic), names, [gm], tmp_path)
    g.run("fetch", "--game", "d", "--delay", "0", "--login", gm, "--password-env", VARIABLES[0])
    import assistant.daemon.core as core
    import assistant.daemon.mail as mail

    logins = []

    def counted(real):  # noqa: ANN001, ANN202
        def login(fetcher, ref, user, password):  # noqa: ANN001, ANN202
            logins.append(user)
            return real(fetcher, ref, user, password)
        return login

    monkeypatch.setattr(core, "login", counted(core.login))
    monkeypatch.setattr(mail, "login", counted(mail.login))
    with json_receiver() as hook:
        g.run("notify", "d", "--add", hook.url(), "--events", "orders")
        board.send_pm(doc, gm, "N1", f"protect {inv} please")
        cycle = g.json("run", "--once", "--delay", "0")
        assert logins == [gm]  # the poll and the inbox read share one login
        [report] = [r for r in cycle["games"] if r["game"] == "d"]
        assert report["inbox"]["new"] == 1 and report["inbox"]["error"] is None
        [message] = hook.inbox.wait_for(1)
        assert f"PM from {doc} — {doc}: protect {inv}" in message["title"]
        assert "assistant inbox d --accept" in message["body"]
        again = g.json("run", "--once", "--delay", "0")  # not due again: not read
        [report] = [r for r in again["games"] if r["game"] == "d"]
        assert report["inbox"] is None
