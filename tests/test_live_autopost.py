"""The daemon's own tallies on the real SMF 2.1.5 and phpBB 3.3.10 (issue 23), on a 002 game
whose GM turned them on (`game rules g --auto-post tallies`), the daemon driven by a
FakeClock: seed 002's "Vote tallies are given at five minute intervals ... The vote tally
or the remaining time can be given on request."

    T0+1m   nothing due: nothing posted
    T0+5m   the interval slot: one tally, read back by the next poll as a host post
    T0+6m   dave votes and asks "Vote count, please!" within the 2-minute gap, votes
            changed: it waits for the gap's end ...
    T0+7m   ... and is answered: one tally; erin's "can we get a count?" right after, with
            nothing changed since, is answered by that fresh tally (nothing posted)
    T0+10m  the next slot: one tally, the process killed after the form went out and
            before the write was recorded; restarted, the daemon finds it in the thread
            and records it: never posted twice
    T0+15m  the daemon's password variable gone: nothing posted, the GM told once
A second game on its own topic, auto-post off, gets the same request and slots: nothing.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from cli_support import call
from receivers import json_receiver

import assistant.outbox
from assistant.clock import FakeClock
from assistant.daemon import Daemon
from assistant.daemon.autopost import TABLE
from assistant.scrapers.http import Fetcher, FetchSettings
from assistant.store import GameStore

PASSWORD = "gm-Pa55word-auto"
VARIABLE = "LIVE_AUTO_PASSWORD"


class Killed(BaseException):
    """The daemon's process killed at a point the test chooses."""


@pytest.mark.parametrize("software", ["smf", "phpbb"])
def test_daemon_auto_posts_interval_tallies_and_answers_a_request_once(
        live_forums, software, tmp_path, capsys, monkeypatch):
    board = live_forums.forum(software)
    gm, a, b, c, d, e = live_forums.names("agm", "ana", "bo", "cy", "di", "ed")
    board.create_members(gm, password=PASSWORD)
    board.create_members(a, b, c, d, e)
    monkeypatch.setenv(VARIABLE, PASSWORD)
    data = tmp_path / "data"
    players = tmp_path / "players.txt"
    players.write_text("\n".join((a, b, c, d, e)) + "\n", encoding="utf-8")
    clock = FakeClock(datetime.now(UTC).replace(second=0, microsecond=0))  # forums: minutes
    t0 = clock.now()

    def cli(*args: str) -> str:
        monkeypatch.setenv("ASSISTANT_NOW", clock.now().isoformat())
        code, out, err = call(capsys, data, *args)
        assert code == 0 and "Traceback" not in out + err, (out, err)
        return out

    topics = {}
    for game in ("g", "h"):
        topics[game], _ = board.new_topic(gm, f"{game} game, Day 1", "Day 1 begins. Vote!")
        forum_tz = ["--forum-tz", "UTC"] if software == "smf" else []
        cli("game", "new", game, "--thread", live_forums.topic_url(software, topics[game]),
            "--ruleset", "chat-mafia", "--players", str(players), *forum_tz)
        login = ["--login", gm, "--password-env", VARIABLE] if game == "g" else []
        cli("fetch", "--game", game, "--delay", "0", *login)
        cli("phase", game, "day", "1", "--starts", t0.isoformat(),
            "--ends", (t0 + timedelta(minutes=20)).isoformat())
    topic_title = "g game"  # the thread's title without its day, as notices name the game
    shown = cli("game", "rules", "g", "--auto-post", "tallies")
    assert "auto_post = tallies" in shown and "every 5 min" in shown, shown
    assert "auto_post = off" in cli("game", "rules", "h")

    def daemon() -> Daemon:
        # Real seconds only where the forum asks for them: phpBB takes a login form
        # sent no sooner than a second after it was shown.
        return Daemon(data, clock, lambda: Fetcher(
            httpx.Client(), FetchSettings(delay=0, backoff=0), clock=clock),
            fetch_settings=FetchSettings(delay=0, backoff=0))

    runner = daemon()

    def tick(minutes: float, game: str = "g"):  # noqa: ANN202
        clock.set(t0 + timedelta(minutes=minutes))
        report = runner.cycle(game)
        assert report.error is None and report.poll_error is None, report
        assert report.auto_post is None or report.auto_post.error is None, report.auto_post
        return report

    def made_by_daemon(game: str) -> list[int]:
        store = GameStore.open(data, game, create=False)
        try:
            return [i["data"]["post_id"] for i in store.inputs("posted")
                    if i["data"].get("by") == "daemon"]
        finally:
            store.close()

    for game in ("g", "h"):
        board.reply(a, topics[game], f"[Vote: {c}]")
        board.reply(b, topics[game], f"[Vote: {c}]")
    assert tick(1).auto_post.post_id is None

    slot5 = tick(5).auto_post.post_id
    assert slot5 is not None and board.post_ids(topics["g"])[-1] == slot5
    back = tick(5.3)
    assert back.poll.new == (slot5,) and back.auto_post.post_id is None  # once per interval
    count = json.loads(cli("--json", "count", "g", "--why"))

    assert [(w["target"], w["displayed"]) for w in count["wagons"]] == [(c, 2)]
    assert slot5 not in {v.get("post_id") for v in count.get("votes", [])}
    assert not [x for x in json.loads(cli("--json", "alerts", "g", "--check"))["alerts"]
                if x.get("post_id") == slot5]

    for game in ("g", "h"):
        board.reply(d, topics[game], f"[Vote: {a}]\nVote count, please!")
    waiting = tick(6)
    assert waiting.auto_post.post_id is None  # the gap: at most one post in 2 minutes
    assert waiting.next_event == t0 + timedelta(minutes=7)
    answer = tick(7).auto_post.post_id
    assert answer is not None and board.post_ids(topics["g"])[-1] == answer
    for game in ("g", "h"):
        board.reply(e, topics[game], "can we get a count?")
    assert tick(7.3).auto_post.post_id is None  # answered by the fresh tally above it
    assert tick(8).auto_post.post_id is None  # ... and once only
    with GameStore.open(data, "g", create=False) as store:
        asked = {r["post_id"]: r for r in store.table(TABLE).all() if r["kind"] == "request"}
    assert [r["how"] for r in asked.values()] == ["posted", "fresh"]
    assert {r["by_post"] for r in asked.values()} == {answer}
    tally = board.post_ids(topics["g"])
    assert answer in tally and tally.index(answer) == len(tally) - 2  # erin's asking is last

    # The slot of T0+10m: the process dies after the form went out, before the write is kept.
    real = assistant.outbox._posted

    def killed(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        raise Killed

    monkeypatch.setattr(assistant.outbox, "_posted", killed)
    with pytest.raises(Killed):
        tick(10)
    monkeypatch.setattr(assistant.outbox, "_posted", real)
    posted_before = board.post_ids(topics["g"])
    runner = daemon()  # restarted
    settled = tick(10.2)
    assert board.post_ids(topics["g"])[len(posted_before):] == []  # not posted again
    assert settled.poll.new == (posted_before[-1],)
    slot10 = posted_before[-1]
    assert made_by_daemon("g") == [slot5, answer, slot10]
    log = cli("log", "g")
    assert f"posted as post {slot10} by the daemon (the interval tally of" in log, log
    assert "found in the thread after a lost answer" in log

    # The daemon cannot post (its password variable is gone): the GM is told, once.
    with json_receiver() as hook:
        cli("notify", "g", "--add", hook.url(), "--events", "polls")
        monkeypatch.delenv(VARIABLE)
        clock.set(t0 + timedelta(minutes=15))
        failed = runner.cycle("g").auto_post
        assert VARIABLE in failed.error and "\n" not in failed.error
        tick(15.5)  # the next review pushes it; the slot is not tried again within the gap
        tick(16)
        assert hook.inbox.titles() == [f"{topic_title}: the daemon cannot post its tallies"]
    assert board.post_ids(topics["g"])[-1] == slot10

    # The game without auto-post: the same slots and request, nothing posted.
    for minutes in (5, 7, 10):
        assert tick(minutes, "h").auto_post is None
    assert made_by_daemon("h") == [] and len(board.post_ids(topics["h"])) == 5
