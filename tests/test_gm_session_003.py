"""A whole 003 (three-factions) game through `assistant.cli.main`, as its GM runs it.

Every vote is a real post body of fixture thread A (SMF 2.1's `bbc_color` spans on Day 1,
phpBB 3.3's `<span style="color:...">` on Day 2 and 3) with the voted name swapped for
this game's players: blue `vote NAME`, red `unvote NAME`, purple `vote No Lynch`. The
posts are stored as the poller stores them; the days run on the seed's fixed schedule in
the game's zone (America/New_York); the night's kills are orders resolved by the engine.
Each rule checked quotes the seed sentence it comes from.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from cli_support import CliAt
from conftest import SEEDS
from realthreads import thread_posts

from assistant.models import Post
from assistant.store import GameStore

TOWN = ["Ada", "Bea", "Cal", "Dot", "Eve", "Fay", "Gil", "Hal"]
MAFIA = ["Mo", "Max"]
WOLVES = ["Wes", "Wil"]


def quote(sentence: str) -> None:
    """The rule checked next is the seed's own sentence."""
    text = " ".join(next(SEEDS.glob("003_*.txt")).read_text(encoding="utf-8").split())
    assert " ".join(sentence.split()) in text, sentence


def body(forum: str, post_id: int, old: str, new: str) -> str:
    """A real post body of thread A on `forum`, the name `old` swapped for `new`."""
    html = next(p.body_html for p in thread_posts(forum, "a") if p.post_id == post_id)
    assert html.count(old) == 1, (forum, post_id, old)
    return html.replace(old, new)


def vote(forum: str, name: str) -> str:  # post 19: blue "vote Conia"
    return body(forum, 19, "vote Conia", f"vote {name}")


def unvote(forum: str, name: str) -> str:  # post 50: red "unvote Jd-"
    return body(forum, 50, "unvote Jd-", f"unvote {name}")


def no_lynch(forum: str) -> str:  # post 55: purple "vote No Lynch", as written
    return body(forum, 55, "vote No Lynch", "vote No Lynch")


class Thread:
    """The game thread as the poller stores it: posts one minute apart, seen just after."""

    def __init__(self, data: Path) -> None:
        self.data, self.next_id = data, 500

    def post(self, at: datetime, *entries: tuple[str, str]) -> None:
        posts = [
            Post(self.next_id + i, self.next_id + i - 499, author, None,
                 at + timedelta(minutes=i), html, 1,
                 url=f"http://127.0.0.1:8021/index.php?msg={self.next_id + i}")
            for i, (author, html) in enumerate(entries)
        ]  # fmt: skip
        self.next_id += len(entries)
        with GameStore.open(self.data, "tf") as store:
            store.record_posts(posts, posts[-1].posted_at + timedelta(seconds=30))


class Cli(CliAt):
    def json(self, now: datetime, *args: str) -> dict:
        return json.loads(self.at(now.isoformat(), "--json", *args))

    def text(self, now: datetime, *args: str) -> str:
        return self.at(now.isoformat(), *args)


# Tuesday 24 Nov 2026 3:00 PM EST (20:00 UTC) to Sunday 29 Nov 3:00 PM EST; Night 1 to
# Tuesday 1 Dec; Day 2 to Sunday 6 Dec; Day 3 from Tuesday 8 Dec.
D1 = datetime(2026, 11, 24, 20, 0, tzinfo=UTC)
WEEK = timedelta(days=7)
DAY_LENGTH = timedelta(days=5)


@pytest.fixture
def cli(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Cli:
    return Cli(tmp_path / "data", capsys, monkeypatch)


def test_a_whole_three_factions_game(cli: Cli, tmp_path: Path) -> None:
    players = tmp_path / "players.txt"
    players.write_text("\n".join(TOWN + MAFIA + WOLVES) + "\n", encoding="utf-8")
    setup = tmp_path / "setup.toml"
    rows = [(n, "town") for n in TOWN] + [(n, "mafia") for n in MAFIA]
    rows += [(n, "wolves") for n in WOLVES]
    setup.write_text(
        "seed = 3\nplayers = [\n"
        + "".join(f'  {{ name = "{n}", side = "{s}" }},\n' for n, s in rows) + "]\n",
        encoding="utf-8",
    )
    before = D1 - timedelta(hours=2)
    cli.text(before, "game", "new", "tf", "--thread", "http://127.0.0.1:8021/index.php?topic=2.0",
             "--ruleset", "three-factions", "--players", str(players), "--gm", "Host",
             "--tz", "America/New_York")  # fmt: skip
    cli.text(before, "roles", "tf", "--file", str(setup))
    thread = Thread(cli.data)

    quote("Every Day will begin exactly at 3:00PM Eastern Standard Time (noon Pacific) on a "
          "Tuesday, and end at exactly 3:00PM Eastern Standard Time (noon Pacific) on a Sunday.")
    assert cli.text(D1, "phase", "tf", "day", "1") == (
        "Day 1 started Tue 24 Nov 2026 15:00 EST\n"
        "Deadline: Sun 29 Nov 2026 15:00 EST (in 5 d); fixed deadline: Sunday 15:00 "
        "America/New_York\n")
    assert cli.json(D1, "phase", "tf")["deadline"] == "2026-11-29T20:00:00+00:00"

    s, p = "smf21", "phpbb33"
    thread.post(
        D1 + timedelta(hours=1),
        ("Ada", vote(s, "Mo")), ("Bea", vote(s, "Mo")), ("Cal", vote(s, "Mo")),
        ("Max", vote(s, "Mo")), ("Wes", vote(s, "Mo")),
        ("Dot", vote(s, "Wes")), ("Eve", vote(s, "Wes")), ("Fay", vote(s, "Wes")),
        ("Wil", vote(s, "Wes")), ("Mo", vote(s, "Wes")),
        ("Gil", vote(s, "Wes")),  # 510
        ("Gil", vote(s, "Mo")),  # 511: no unvote first: not counted
        ("Gil", unvote(s, "Wes")),  # 512
        ("Gil", vote(s, "Mo")),  # 513: counted
    )  # fmt: skip
    mid = D1 + timedelta(days=2)
    quote("It is possible for there to be as many as three (3) lynches in any given Day except "
          "for Day One (there can only be a single lynch on Day One).")
    # Wes has 5 of 12 (42 %, over 34 %) but Day One lynches one player only.
    assert cli.text(mid, "count", "tf").endswith(
        "Outcome: Mo (post 513): if the day ended now: Mo leads with 6\n")
    quote("no new vote will be counted without an unvote of any prior vote.")
    why = cli.text(mid, "count", "tf", "--why", "Gil")
    assert "'vote Mo' -> not counted: still voting Wes; this ruleset counts a new vote only " \
        "after an unvote" in why
    assert "[red] Gil: 'unvote Wes' -> counted" in why and "[blue] Gil: 'vote Mo' -> counted" in why
    end1 = D1 + DAY_LENGTH + timedelta(minutes=1)
    quote("Death reveals (including for lynch and Night/Day kill victims) will include the role "
          "name and alignment of the player.")
    assert cli.text(end1, "draft", "dusk", "tf", "--confirm").startswith(
        "Day 1 is over.\nMo has been lynched. Mo was Vanilla (Mafia).\nThe deciding vote: ")
    n1 = end1 + timedelta(hours=1)
    cli.text(end1, "phase", "tf", "night", "1")
    cli.text(n1, "order", "tf", "Mafia: kill Ada")
    cli.text(n1, "order", "tf", "Wolves: kill Bea")
    d2 = D1 + WEEK
    cli.text(d2, "resolve", "tf")
    quote("So if two Town players are killed on Night One, then two lynches are available on "
          "Day Two.")
    assert cli.text(d2, "draft", "dawn", "tf") == (
        "Night 1 is over.\nAda has died. Ada was Vanilla (Town).\n"
        "Bea has died. Bea was Vanilla (Town).\n"
        "Day 2 begins. 2 lynches are available today.\n")  # no win at this dawn
    assert "Deadline: Sun 6 Dec 2026 15:00 EST" in cli.text(d2, "phase", "tf", "day", "2")
    quote("Any player who goes a full Day-Night cycles without contributing to the thread will "
          "be replaced (if it is before Day Four and a replacement is available)")
    alerts = cli.text(d2 + timedelta(minutes=5), "alerts", "tf", "--check")
    assert "violation inactive_cycle  Tue 1 Dec 2026 15:00 EST\n    Hal did not post during " \
        "Day 1 and Night 1 (a full day-night cycle); action: replace" in alerts
    assert alerts.count("inactive_cycle") == 1

    thread.post(
        d2 + timedelta(hours=1),
        ("Cal", vote(p, "Max")), ("Dot", vote(p, "Max")), ("Eve", vote(p, "Max")),
        ("Fay", vote(p, "Max")), ("Gil", vote(p, "Wes")), ("Max", vote(p, "Wes")),
        ("Wil", vote(p, "Wes")), ("Wes", vote(p, "Max")),
    )  # fmt: skip
    quote("The available number of lynches is equal to the number of Town players who died "
          "during the preceding Night, not to exceed 3.")
    quote("the second-leading vote getter will also be lynched if (s)he has received more "
          "than 34% of the available votes.")
    assert cli.text(d2 + timedelta(hours=2), "count", "tf").endswith(
        "Max leads with 5; Wes is second with 3 of 9 (33%, not over 34%): not lynched; "
        "2 lynches available today\n")
    thread.post(d2 + timedelta(hours=3), ("Hal", vote(p, "Wes")))
    assert cli.text(d2 + timedelta(hours=4), "count", "tf").endswith(
        "Max leads with 5; Wes is second with 4 of 9 (44% > 34%): also lynched; "
        "2 lynches available today\n")
    end2 = d2 + DAY_LENGTH + timedelta(minutes=1)
    assert cli.text(end2, "draft", "dusk", "tf", "--confirm").startswith(
        "Day 2 is over.\nMax has been lynched. Max was Vanilla (Mafia).\n"
        "Wes has been lynched. Wes was Vanilla (Wolves).\nThe deciding vote for Max: ")
    assert "Deadline: Tue 8 Dec 2026 15:00 EST" in cli.text(end2, "phase", "tf", "night", "2")
    cli.text(end2, "order", "tf", "Wolves: kill Cal")
    d3 = d2 + WEEK
    cli.text(d3, "resolve", "tf")
    assert "Cal has died. Cal was Vanilla (Town)." in cli.text(d3, "draft", "dawn", "tf")
    cli.text(d3, "phase", "tf", "day", "3")
    thread.post(
        d3 + timedelta(hours=1),
        ("Dot", no_lynch(p)), ("Eve", no_lynch(p)), ("Fay", no_lynch(p)),
        ("Gil", vote(p, "Wil")), ("Hal", vote(p, "Wil")), ("Wil", vote(p, "Gil")),
    )  # fmt: skip
    quote("If “No Lynch” has the highest number of votes, no player will be lynched.")
    assert cli.text(d3 + timedelta(hours=2), "count", "tf").endswith(
        "Outcome: no lynch (post 528): if the day ended now: No Lynch leads with 3: "
        "no one is lynched\n")
    thread.post(d3 + timedelta(hours=3), ("Dot", unvote(p, "No Lynch")), ("Dot", vote(p, "Wil")),
                ("Eve", unvote(p, "No Lynch")), ("Eve", vote(p, "Wil")))
    end3 = d3 + DAY_LENGTH + timedelta(minutes=1)
    quote("Win conditions will be checked in the following order every Dawn and every Dusk:")
    quote("Town Wins! if all 14 Scum players are dead.")
    out3 = cli.text(end3, "draft", "dusk", "tf", "--confirm")
    assert out3.startswith("Day 3 is over.\nWil has been lynched. Wil was Vanilla (Wolves).\n")
    # The check's text names the winner: said once, not after "Victory: Town!" as well.
    assert ("\n\nThe game is over. Town Wins! All Scum players are dead.\n"
            "Winners: Ada, Bea, Cal, Dot, Eve, Fay, Gil, Hal.\n") in out3
