"""A game day played on the real SMF and phpBB while the daemon polls (issue 10).

Members post through the forums' own forms; the daemon's clock is a FakeClock set to the
real time at each tick (the posts carry the forum's real times) and moved past the
deadline at the end, so nothing waits. What the test posted decides the expected count:

    alice  [color=red]vote bob[/color]            000's red vote
    bob    [b]carol[/b]                           001's bold name
    carol  [Vote: erin], edited at once to [Vote: dave]  002's tag; a silent edit (SMF's
           90 s grace / phpBB's last post)
    dave   [color=blue]vote bob[/color]           003's blue vote
    erin   [b]VOTE: alice[/b]                     mafiascum's bold VOTE:
    bob    quotes alice's vote, then "vote erin"  a plain line; the quoted vote is not his
    frank  vote alice                             dead since the night: not counted, alerted
    alice  [Unvote], then [color=red]vote bob[/color] again
    ... chat up to exactly one full page (15 / 10 posts), then one post onto page 2
    erin   edits her vote to bob after the deadline (the edit notice says so)

At the deadline: bob 2 (alice, dave), dave 1 (carol), erin 1 (bob), alice 1 (erin);
plurality lynches bob. Counting erin's late edit would make bob 3, a majority.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from cli_support import call

from assistant.clock import FakeClock
from assistant.daemon import Daemon
from assistant.scrapers.http import Fetcher, FetchSettings

PLAYERS = ("alice", "bob", "carol", "dave", "erin", "frank")


class Game:
    """The test's GM: the CLI in-process at the FakeClock's time, and the daemon ticking."""

    def __init__(self, data: Path, capsys, monkeypatch) -> None:
        self.data, self.capsys, self.mp = data, capsys, monkeypatch
        self.clock = FakeClock(datetime.now(UTC))
        self.daemon = Daemon(data, self.clock, lambda: Fetcher(
            httpx.Client(), FetchSettings(delay=0, backoff=0), sleep=lambda s: None,
            clock=self.clock))

    def run(self, *args: str) -> str:
        self.mp.setenv("ASSISTANT_NOW", self.clock.now().isoformat())
        code, out, err = call(self.capsys, self.data, *args)
        assert code == 0, err or out
        return out

    def json(self, *args: str):
        return json.loads(self.run("--json", *args))

    def tick(self, at: datetime | None = None):
        """One daemon cycle at `at` (default: the real time now, as a running daemon)."""
        self.clock.set(at or max(self.clock.now(), datetime.now(UTC)))
        report = self.daemon.cycle("g")
        assert report.poll_error is None and report.error is None, report
        return report


@pytest.mark.parametrize("software", ["smf", "phpbb"])
def test_a_game_day_on_the_real_forum_while_the_daemon_polls(
    live_forums, software, tmp_path, capsys, monkeypatch
):
    board = live_forums.forum(software)
    host, *names = live_forums.names("host", *PLAYERS)
    alice, bob, carol, dave, erin, frank = names
    board.create_members(host, *names)
    game = Game(tmp_path, capsys, monkeypatch)
    deadline = (datetime.now(UTC) + timedelta(minutes=30)).replace(second=0, microsecond=0)

    topic, op = board.new_topic(host, "Day 1", f"{frank} was found dead. Day 1 begins.")
    players = tmp_path / "players.txt"
    players.write_text("\n".join(names) + "\n", encoding="utf-8")
    url = live_forums.topic_url(software, topic)
    zones = ["--tz", "America/New_York"]  # the GM's zone is not the board's (UTC)
    if software == "smf":  # SMF's text dates do not say their zone: the GM gives it
        zones += ["--forum-tz", "UTC"]
    game.run("game", "new", "g", "--thread", url, "--ruleset", "permissive",
             "--players", str(players), "--gm", host, *zones)
    game.run("fetch", "--game", "g", "--delay", "0")
    game.run("phase", "g", "day", "1", "--start-post", str(op), "--ends", deadline.isoformat())
    game.run("kill", "g", frank, "--how", "nightkill", "--at-post", str(op))
    assert game.tick().poll.requests <= 2

    votes = {}
    votes["alice"] = board.reply(alice, topic, f"[color=red]vote {bob}[/color]")
    votes["bob"] = board.reply(bob, topic, f"I think it is [b]{carol}[/b].")
    votes["carol"] = board.reply(carol, topic, f"[Vote: {erin}]")
    game.tick()
    # Silent on both forums: SMF within its 90 s grace, phpBB the topic's last post.
    assert board.edit(carol, votes["carol"], f"[Vote: {dave}]") is False
    game.tick()
    votes["dave"] = board.reply(dave, topic, f"[color=blue]vote {bob}[/color]")
    votes["erin"] = board.reply(erin, topic, f"[b]VOTE: {alice}[/b]")
    quote = f'[quote="{alice}"][color=red]vote {bob}[/color][/quote]\nNo.\nvote {erin}'
    votes["bob2"] = board.reply(bob, topic, quote)
    dead_post = board.reply(frank, topic, f"I am not dead! vote {alice}")
    board.reply(alice, topic, "[Unvote]")
    game.tick()
    board.reply(alice, topic, f"Changed my mind back: [color=red]vote {bob}[/color]")
    while len(board.post_ids(topic)) < board.per_page:  # exactly one full page
        board.reply(host, topic, "Chat, no votes here.")
    full = game.tick()
    assert full.poll.page_count == 1 and full.poll.requests <= 2
    onto_page_2 = board.reply(dave, topic, "First post of page 2.")
    crossed = game.tick()
    assert crossed.poll.new == (onto_page_2,) and crossed.poll.page_count == 2
    idle = game.tick()
    assert idle.poll.new == () and idle.poll.requests <= 2  # politeness: an idle poll

    at_deadline = game.tick(deadline)  # the daemon's poll at the deadline
    assert at_deadline.poll.new == ()

    # After the deadline erin edits her vote (a forum edit notice, time after the deadline).
    assert board.edit(erin, votes["erin"], f"[b]VOTE: {bob}[/b]", notice=True)
    board.backdate(votes["erin"], edited=deadline + timedelta(minutes=5))
    late = game.tick(deadline + timedelta(minutes=10))
    assert late.poll.changed == (votes["erin"],)

    count = game.json("count", "g", "--at", deadline.isoformat())
    wagons = {w["target"]: sorted(w["voters"]) for w in count["wagons"]}
    assert wagons == {bob: [alice, dave], dave: [carol], erin: [bob], alice: [erin]}
    assert count["not_voting"] == [] and frank not in count["alive"]
    # The day's final count, asked after it ended, reads every post as it stood at the end.
    final = game.json("count", "g")
    assert {w["target"]: sorted(w["voters"]) for w in final["wagons"]} == wagons
    alerts = game.json("alerts", "g")["alerts"]
    by_post = {}
    for a in alerts:
        by_post.setdefault(a["post_id"], []).append(a)
    assert {dead_post, votes["carol"], votes["erin"]} <= set(by_post)
    assert any(a["player"] == frank for a in by_post[dead_post])
    draft = game.run("draft", "tally", "g")
    assert f"{bob} (2)" in draft and f"{dave} (1)" in draft
