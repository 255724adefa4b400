"""`assistant post`, `send` and `inbox` on the real SMF 2.1.5 and phpBB 3.3.10, as a GM uses
them (issue 23): the tally posted and read back by the next poll as a host post (no vote,
no alert), a repeated post refused, the dusk and the dawn posted, the result PMs read by
the right members in their own inboxes (forum.py), a forum stopped half-way through the
PMs and the run resumed without a duplicate, a PM whose answer was lost found in the sent
box instead of sent again, and the GM's inbox kept: players' messages since the game
began, others counted and left out, a message read twice kept once.

The GM's account logs in with `fetch --login/--password-env`; it is not given to `game
new --gm`, so `post` adds it to the GMs (and says so)."""

from __future__ import annotations

import html
import json
import re
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import unquote

import httpx
import pytest
from cli_support import call
from live_pm_support import line_as_shown, member_reads, recipient_of
from live_support import FORUMS

import assistant.outbox
from assistant.errors import FetchError
from assistant.scrapers.http import Fetcher, guarded_client
from assistant.store import GameStore

PASSWORD = "gm-Pa55word-cli"
VARIABLE = "LIVE_GM_PASSWORD"
ROLES = ("doctor", "investigator", "godfather", None, None, None)


class Gm:
    """The test's GM at the command line, at a moment set like ASSISTANT_NOW."""

    def __init__(self, data: Path, capsys, monkeypatch) -> None:  # noqa: ANN001
        self.data, self.capsys, self.mp = data, capsys, monkeypatch
        self.now = datetime.now(UTC)
        monkeypatch.setenv(VARIABLE, PASSWORD)

    def run(self, *args: str, ok: bool = True) -> tuple[str, str]:
        self.mp.setenv("ASSISTANT_NOW", self.now.isoformat())
        code, out, err = call(self.capsys, self.data, *args)
        assert (code == 0) == ok, (code, out, err)
        assert "Traceback" not in out + err
        return out, err

    def json(self, *args: str):  # noqa: ANN201
        return json.loads(self.run("--json", *args)[0])


def new_game(live, software: str, tmp_path: Path, capsys, monkeypatch, tag: str,  # noqa: ANN001, ANN201
             roles: tuple[str | None, ...] = ROLES):
    board = live.forum(software)
    names = live.names(*(f"{tag}{c}" for c in "abcdefgh"[:len(roles)]))
    gm = live.names(f"{tag}gm")[0]
    board.create_members(gm, password=PASSWORD)
    board.create_members(*names)
    topic, _first = board.new_topic(gm, f"{tag} game, Day 1", "Day 1 begins. Vote!")
    players = tmp_path / "players.txt"
    players.write_text("\n".join(names) + "\n", encoding="utf-8")
    g = Gm(tmp_path / "data", capsys, monkeypatch)
    g.run("game", "new", "g", "--thread", live.topic_url(software, topic), "--ruleset",
          "chat-mafia", "--players", str(players))
    setup = tmp_path / "setup.toml"
    setup.write_text("seed = 2\nplayers = [\n" + ",\n".join(
        f'  {{ name = "{n}", role = "{r}" }}' if r else f'  {{ name = "{n}", side = "town" }}'
        for n, r in zip(names, roles, strict=True)) + "\n]\n", encoding="utf-8")
    g.run("roles", "g", "--file", str(setup))
    g.run("phase", "g", "day", "1", "--starts", (g.now - timedelta(hours=1)).isoformat(),
          "--ends", (g.now + timedelta(hours=1)).isoformat())
    return board, topic, gm, names, g


class Clients(list):
    """Every httpx client the commands made, kept for their cookies (the forum's session)."""

    def __call__(self) -> httpx.Client:
        self.append(guarded_client())
        return self[-1]


def cookie_secrets(clients: Clients) -> set[str]:
    values = {c.value for client in clients for c in client.cookies.jar}
    values |= {unquote(v) for v in values}
    return {v for v in values if len(v) >= 8}


@pytest.mark.parametrize("software", ["smf", "phpbb"])
def test_post_tally_read_back_as_a_host_post_and_not_posted_twice(
        live_forums, software, tmp_path, capsys, monkeypatch):
    clients = Clients()
    monkeypatch.setattr(assistant.outbox, "guarded_client", clients)
    board, topic, gm, (a, b, c, d, e, f), g = new_game(
        live_forums, software, tmp_path, capsys, monkeypatch, "tly")
    board.reply(a, topic, f"[Vote: {c}]")
    board.reply(b, topic, f"[Vote: {c}]")
    g.run("fetch", "--game", "g", "--delay", "0", "--login", gm, "--password-env", VARIABLE)
    before = g.json("count", "g")

    out, err = g.run("post", "g", "tally", "--yes", "--delay", "0")
    assert f"{gm} was not among the GMs of g: added" in out
    assert "Vote Tally" in out and "posted as post" in out  # the draft shown, then the result
    made = GameStore.open(tmp_path / "data", "g").inputs("posted")
    assert len(made) == 1 and made[0]["data"]["draft"] == "tally"
    post_id = made[0]["data"]["post_id"]
    assert board.post_ids(topic)[-1] == post_id

    polled = g.json("fetch", "--game", "g", "--delay", "0")
    assert polled["new"] == [post_id]
    after = g.json("count", "g", "--why")
    assert after["wagons"] == before["wagons"] and len(before["wagons"]) == 1
    assert post_id not in {v.get("post_id") for v in after.get("votes", [])}
    alerts = g.json("alerts", "g", "--check")["alerts"]
    assert not [x for x in alerts if x.get("post_id") == post_id], alerts

    printed = [out, err]
    out, err = g.run("post", "g", "tally", "--yes", "--delay", "0", ok=False)
    printed += [out, err]
    line = err.strip()
    assert "\n" not in line and "posted already" in line and "--again" in line, err
    assert board.post_ids(topic)[-1] == post_id
    out, err = g.run("--json", "post", "g", "tally", "--yes", "--again", "--delay", "0")
    printed += [out, err]
    again = json.loads(out)
    assert again["post_id"] != post_id and board.post_ids(topic)[-1] == again["post_id"]

    # Neither the password nor the session the forum handed out is printed or kept.
    secrets = {PASSWORD} | cookie_secrets(clients)
    assert len(secrets) > 1, "the forum set session cookies"
    assert not [s for s in secrets for text in printed if s in text]
    for path in (tmp_path / "data").rglob("*"):
        data = path.read_bytes() if path.is_file() else b""
        assert not [s for s in secrets if s.encode() in data], path


def stop_and_restart(live) -> None:  # noqa: ANN001
    """The forums' servers stopped (`down`), then started again on the same ports with the
    same data (`up`), as the forums' README says."""
    subprocess.run([str(FORUMS / "down"), str(live.dir)], check=True, capture_output=True,
                   timeout=120)


def restart(live) -> None:  # noqa: ANN001
    subprocess.run([str(FORUMS / "up"), str(live.dir)], check=True, capture_output=True,
                   timeout=600)


@pytest.mark.parametrize("software", ["smf", "phpbb"])
def test_post_dusk_dawn_and_result_pms_resumed_after_the_forum_stopped(
        live_forums, software, tmp_path, capsys, monkeypatch):
    """The dusk and dawn posted; the result PMs sent, the forum stopped after the first (a
    hook between two sends), the rerun sending only the rest; each member reads theirs."""
    board, topic, gm, (a, b, c, d, e, f), g = new_game(
        live_forums, software, tmp_path, capsys, monkeypatch, f"dsk{software[0]}")
    for voter in (a, b, d, e):
        board.reply(voter, topic, f"[Vote: {f}]")
    g.run("fetch", "--game", "g", "--delay", "0", "--login", gm, "--password-env", VARIABLE)
    g.now += timedelta(hours=2)
    g.run("draft", "dusk", "g", "--confirm")
    dusk = g.json("draft", "dusk", "g", "--day", "1")["post"].strip()
    out, _ = g.run("post", "g", "dusk", "--yes", "--delay", "0")
    assert "Day 1 is over" in out and f in out and "posted as post" in out
    _, err = g.run("post", "g", "dusk", "--yes", "--delay", "0", ok=False)  # one dusk a day
    assert "posted already" in err

    g.run("phase", "g", "night", "1")
    g.run("order", "g", f"{a}: protect {b}")
    g.run("order", "g", f"{b}: investigate {c}")
    g.run("order", "g", f"{c}: kill {a}")
    g.run("resolve", "g", "--night", "1")
    dawn = g.json("draft", "dawn", "g")["post"].strip()
    out, _ = g.run("post", "g", "dawn", "--yes", "--delay", "0")
    assert dawn in out and "posted as post" in out
    made = {m["data"]["draft"]: m["data"]["post_id"]
            for m in GameStore.open(tmp_path / "data", "g").inputs("posted")}
    assert board.post_ids(topic)[-2:] == [made["dusk"], made["dawn"]]
    shown = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", board.page(topic))).split())
    for draft in (dusk, dawn):  # the thread as a guest reads it shows both as drafted
        assert line_as_shown(draft, draft.splitlines()[0]) in shown, (draft, shown[-2000:])
    pms = g.json("draft", "pms", "g", "--night", "1")
    assert set(pms) >= {b} and len(pms) >= 2, pms  # the investigator learns the result

    # The forum stops after the first PM (a hook between two sends), then comes back.
    real = assistant.outbox._sent
    calls = []

    def stop_after_first(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        real(*args, **kwargs)
        calls.append(1)
        if len(calls) == 1:
            stop_and_restart(live_forums)

    monkeypatch.setattr(assistant.outbox, "_sent", stop_after_first)
    sent_first = None
    try:
        code, out, err = call(capsys, tmp_path / "data", "send", "g", "result-pms", "--yes",
                              "--delay", "0")
        assert code == 1 and "stopped at" in out and "not sent" in out, (out, err)
        assert "nothing is sent twice" in out
        sent_first = GameStore.open(tmp_path / "data", "g").inputs("pm_sent")
        assert len(sent_first) == 1
    finally:
        restart(live_forums)
    monkeypatch.setattr(assistant.outbox, "_sent", real)
    out, err = g.run("send", "g", "result-pms", "--yes", "--delay", "0")
    done = GameStore.open(tmp_path / "data", "g").inputs("pm_sent")
    assert len(done) == len(pms)
    assert sorted(d["data"]["player"] for d in done) == sorted(pms)
    assert len({d["data"]["pm_id"] for d in done}) == len(pms)
    g.run("send", "g", "result-pms", "--yes", "--delay", "0")  # all sent: nothing again
    # Each member reads exactly their own PM in their inbox; none was sent twice.
    for fact in done:
        player, pm_id = fact["data"]["player"], fact["data"]["pm_id"]
        assert recipient_of(board, software, pm_id) == board.member_id(player)
        last = line_as_shown(pms[player], pms[player].strip().splitlines()[-1])
        assert last in member_reads(board, software, player, pm_id), (player, last)
    assert pms_from(board, software, gm) == len(pms)
    # The PM-copy check knows them without `assistant pm`.
    player, text = next(iter(pms.items()))
    board.reply(player, topic, "My PM says: " + text.strip().splitlines()[-1] + " honest!")
    g.run("fetch", "--game", "g", "--delay", "0")
    alerts = g.json("alerts", "g", "--check")["alerts"]
    assert any("result PM" in x["message"] for x in alerts), alerts


def pms_from(board, software: str, member: str) -> int:  # noqa: ANN001
    """How many PMs the forum holds from `member`."""
    table, column = (("smf_personal_messages", "id_member_from") if software == "smf"
                     else ("phpbb_privmsgs", "author_id"))
    rows = board.sql(f"SELECT COUNT(*) FROM {table} WHERE {column}={board.member_id(member)}")
    return int(rows[0][0])


class Dropping(Fetcher):
    """The connection drops after a post or PM form went out: the forum took it, its answer
    is never read."""

    def post(self, url, data, **kwargs):  # noqa: ANN001, ANN003, ANN201
        answer = super().post(url, data, **kwargs)
        if kwargs.get("once"):
            raise FetchError(f"{url}: the connection dropped", url, reached=True)
        return answer


def test_post_answer_lost_is_found_in_the_thread_not_posted_twice(
        live_forums, tmp_path, capsys, monkeypatch):
    board, topic, gm, names, g = new_game(live_forums, "smf", tmp_path, capsys, monkeypatch,
                                          "drop")
    g.run("fetch", "--game", "g", "--delay", "0", "--login", gm, "--password-env", VARIABLE)
    note = tmp_path / "note.txt"
    note.write_text("[b]Reminder[/b]: votes are [Vote: name] tags.\n", encoding="utf-8")
    monkeypatch.setattr(assistant.outbox, "Fetcher",
                        lambda client, settings: Dropping(client, settings))
    before = board.post_ids(topic)
    made = g.json("post", "g", str(note), "--yes", "--delay", "0")
    assert made["found_after_failure"] is True
    assert board.post_ids(topic) == [*before, made["post_id"]]  # once


def test_pm_answer_lost_is_found_in_the_sent_box_not_sent_twice(
        live_forums, tmp_path, capsys, monkeypatch):
    """phpBB: the connection drops after a PM went out (its answer never read): the sent
    box (here the outbox: unread) shows it, and it is recorded, not sent again."""
    board, topic, gm, names, g = new_game(
        live_forums, "phpbb", tmp_path, capsys, monkeypatch, "lost")
    g.run("fetch", "--game", "g", "--delay", "0", "--login", gm, "--password-env", VARIABLE)
    g.run("order", "g", f"{names[1]}: investigate {names[2]}")
    g.run("phase", "g", "night", "1")
    g.run("resolve", "g", "--night", "1")

    monkeypatch.setattr(assistant.outbox, "Fetcher",
                        lambda client, settings: Dropping(client, settings))
    out, _ = g.run("send", "g", "result-pms", "--yes", "--delay", "0")
    done = GameStore.open(tmp_path / "data", "g").inputs("pm_sent")
    assert len(done) == 1 and done[0]["data"]["found_after_failure"] is True
    assert pms_from(board, "phpbb", gm) == 1


def test_inbox_keeps_players_messages_since_the_game_began(
        live_forums, tmp_path, capsys, monkeypatch):
    """SMF (its PMs take 0.1 s to send; phpBB's inbox pages are read in the forms' test)."""
    board, topic, gm, (a, b, *_), g = new_game(
        live_forums, "smf", tmp_path, capsys, monkeypatch, "inb")
    board.send_pm(b, gm, "Signups", "Before the game: can I play?")  # before Day 1 began
    g.run("fetch", "--game", "g", "--delay", "0", "--login", gm, "--password-env", VARIABLE)
    board.sql(f"UPDATE smf_personal_messages SET msgtime=msgtime-7200 WHERE id_member_from="
              f"{board.member_id(b)}")  # TEST ONLY: the signup PM two hours back
    outsider = live_forums.names("inbout")[0]
    board.create_members(outsider)
    board.send_pm(a, gm, "Night 1", f"I'd like to protect [b]{b}[/b] tonight.")
    board.send_pm(outsider, gm, "Hi", "Not a player.")
    first = g.json("inbox", "g", "--delay", "0")
    assert [(m["player"], m["subject"]) for m in first["messages"]] == [(a, "Night 1")]
    assert first["messages"][0]["text"] == f"I'd like to protect {b} tonight."
    assert first["others"] == 1  # the signup PM, older than the game, is not read at all
    again = g.json("inbox", "g", "--delay", "0")
    assert [m["pm_id"] for m in again["messages"]] == [m["pm_id"] for m in first["messages"]]
    assert not any(m["new"] for m in again["messages"])
    out, _ = g.run("inbox", "g", "--stored")
    assert f"{a}: protect {b}" in out and "> Night 1: I'd like to protect" in out
