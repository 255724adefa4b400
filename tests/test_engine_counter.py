"""The rules engine and the vote counter as one: a GM enters each fact once.

Thread B (the real SMF 2.1 / phpBB 3.3 pages of a 002 Day 2, `[Vote: X]` as the forums
render it) is played as a whole game through the command line: the setup with
`assistant roles`, Day 1's lynch with `assistant kill`, Night 1 with `assistant order` /
`resolve`, Day 2 with `assistant phase`; then `count` shows what the roles do to the
votes without a single `game modifier`, `draft dusk` drafts the lynch with its reveal and
the win check, and `--confirm` stores it. A second game checks a Priest's revive.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest
from cli_support import CliAt
from realthreads import HOST, NOW, thread_posts, truth

from assistant.monitor import load_game
from assistant.store import GameStore

SETUP = """seed = 7
players = [
  { name = "Mr. Pickles", side = "town" },
  { name = "xX_Slayer_Xx", role = "roleblocker" },
  { name = "Jd-", side = "town" },
  { name = "Conia", role = "priest", side = "town" },
  { name = "Lady Grey", role = "investigator" },
  { name = "Tom & Jerry's", role = "doublevoter", side = "town" },
  { name = "ÆtherWolf", side = "mafia" },
  { name = "Kat", role = "witch", side = "town" },
]
"""
#: Day 2's effective end: 5 minutes after everyone had voted (SMF shows no seconds).
EVERYONE_VOTED_END = {
    "smf21": "2026-11-22T11:20:00+00:00",
    "phpbb33": "2026-11-22T11:20:31+00:00",
}
URL = {
    "smf21": "http://127.0.0.1:8021/index.php?topic=3.0",
    "phpbb33": "http://127.0.0.1:8033/viewtopic.php?t=3",
}


class Cli(CliAt):
    """`assistant ...` through assistant.cli.main, at a moment set like ASSISTANT_NOW."""

    def __call__(self, *args: str, at: str = "2026-11-22T11:00:00+00:00", ok: bool = True):
        return self.at(at, *args, ok=ok)

    def json(self, *args: str, **kw: str) -> dict:
        return json.loads(self(*args, "--json", **kw))


def new_game(cli: Cli, tmp: Path, forum: str, game: str) -> None:
    """`game new`, `roles`, Day 1's lynch and the thread's posts, as its GM would enter them."""
    meta = truth(forum, "b")["meta"]
    lines = [" | ".join([p, *meta["common_names"][p]]) for p in meta["players"]]
    (tmp / "players.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp / "setup.toml").write_text(SETUP, encoding="utf-8")
    cli(
        "game",
        "new",
        game,
        "--thread",
        URL[forum],
        "--ruleset",
        "chat-mafia",
        "--players",
        str(tmp / "players.txt"),
        "--gm",
        HOST,
    )
    cli("roles", game, "--file", str(tmp / "setup.toml"))
    cli("kill", game, "ÆtherWolf", "--how", "lynch", "--at", "2026-11-21T20:00:00+00:00")
    with GameStore.open(tmp, game) as store:
        store.record_posts(thread_posts(forum, "b"), NOW)


def day_two(cli: Cli, game: str) -> None:
    cli(
        "phase",
        game,
        "day",
        "2",
        "--starts",
        "2026-11-22T11:02:07+00:00",
        "--ends",
        "2026-11-22T11:21:07+00:00",
        at="2026-11-22T11:02:07+00:00",
    )


@pytest.fixture
def cli(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Cli:
    return Cli(tmp_path, capsys, monkeypatch)


@pytest.mark.parametrize("forum", ["smf21", "phpbb33"])
def test_roles_and_night_hexes_reach_the_count_and_dusk(cli: Cli, tmp_path: Path, forum: str):
    new_game(cli, tmp_path, forum, "tb")
    cli("order", "tb", "Kat: powerlessness Jd-")
    cli("order", "tb", "Mafia: kill Kat")
    assert "deaths: Kat (nightkill)" in cli("resolve", "tb")
    day_two(cli, "tb")

    # The roles' effects are derived, per day, from the setup and the confirmed night.
    with GameStore.open(tmp_path, "tb") as store:
        mods = [
            (m.player, m.day, m.vote_weight, m.powerless, m.source)
            for m in load_game(store).modifiers
        ]
    assert mods == [
        ("Tom & Jerry's", 1, 2, False, "Doublevoter"),
        ("Jd-", 2, 1, True, "hex: powerless"),  # cast on Night 1: Day 2 only
        ("Tom & Jerry's", 2, 2, False, "Doublevoter"),
    ]

    doc = cli.json("count", "tb", at="2026-11-22T11:30:00+00:00")
    shown = {w["target"]: (w["displayed"], w["effective"]) for w in doc["wagons"]}
    assert shown == {"xX_Slayer_Xx": (4, 3), "Conia": (1, 2), "Lady Grey": (1, 1)}
    standing = {v: w["target"] for w in doc["wagons"] for v in w["voters"]}
    assert standing == truth(forum, "b")["meta"]["final_votes_002"]
    assert doc["outcome"]["lynched"] == ["xX_Slayer_Xx"]
    assert doc["outcome"]["reason"] == "xX_Slayer_Xx leads with 3"

    why = cli.json("count", "tb", "--why", "Jd-", at="2026-11-22T11:30:00+00:00")["votes"]
    assert why[-1]["code"] == "powerless" and why[-1]["weight"] == 0
    assert why[-1]["reason"].endswith("(powerless: shown, not counted; hex: powerless)")
    why = cli.json("count", "tb", "--why", "Tom", at="2026-11-22T11:30:00+00:00")["votes"]
    assert why[-1]["weight"] == 2 and why[-1]["reason"].endswith("(counts 2; Doublevoter)")

    # Before the deadline the dusk is a preview and cannot be confirmed. The deadline is
    # the effective one `assistant phase` shows: everyone had voted by 11:15 (SMF shows no
    # seconds), so the clock dropped to 5 minutes, before the 11:21:07 set for the day.
    end = EVERYONE_VOTED_END[forum]
    phase = cli.json("phase", "tb", at="2026-11-22T11:19:00+00:00")
    assert (phase["deadline"], phase["why"]) == (
        end,
        "everyone has voted: the clock dropped to 5 min",
    )
    err = cli("draft", "dusk", "tb", "--confirm", at="2026-11-22T11:19:00+00:00", ok=False)
    assert err.startswith(f"error: day 2 of tb is not over yet (deadline {end})")
    # Past the effective end, before the end first set: the dusk is final.
    doc = cli.json("draft", "dusk", "tb", at="2026-11-22T11:20:40+00:00")
    assert doc["final"] and doc["outcome"]["lynched"] == ["xX_Slayer_Xx"]

    out = cli("draft", "dusk", "tb", at="2026-11-22T11:30:00+00:00")
    # The dusk links the vote that decided the lynch (the GM's review: "never links the
    # deciding (hammer) post"): its permalink as the forum gave it. That is Conia's, the
    # last one on Slayer that counts: Jd-'s later one is powerless (hexed), and the day's
    # last post is the host's "Time is up".
    conia = next(
        p for p in truth(forum, "b")["posts"] if p["label"] == "conia_vote_jd"
    )  # her vote edited from Jd- to Slayer
    with GameStore.open(tmp_path, "tb") as store:
        decided = store.post(conia.get("msg_id", conia.get("post_id")))
        assert decided is not None
        deciding = decided.latest.url
    assert deciding and str(doc["outcome"]["at_post"]) not in deciding
    assert out.split("\n\n---\n")[0] == (
        "Day 2 is over.\n"
        "xX_Slayer_Xx has been lynched. xX_Slayer_Xx was the Roleblocker (Mafia).\n"
        f"The deciding vote: {deciding}\n"
        "\n"
        "The game is over. Victory: Town!\n"
        "All threats to the Town have been eliminated.\n"
        "Winners: Mr. Pickles, Jd-, Conia, Lady Grey, Tom & Jerry's, Kat."
    )
    # The outcome stands at the day's last post: the host's post after the deadline is
    # read, but the day did not stand there.
    ends = datetime.fromisoformat(end)
    last = [p for p in thread_posts(forum, "b") if p.posted_at <= ends][-1].post_id
    assert f"outcome (post {last}): xX_Slayer_Xx leads with 3" in out

    doc = cli.json("draft", "dusk", "tb", "--confirm", at="2026-11-22T11:30:00+00:00")
    assert doc["stored"] == [
        {
            "player": "xX_Slayer_Xx",
            "how": "lynch",
            "last_voter": "Jd-",
            "at_post": last,
            "at": "2026-11-22T11:30:00+00:00",
            "replacement": None,
            "dusk": 2,
        }
    ]
    assert doc["win"]["winner"] == "town"
    err = cli("draft", "dusk", "tb", "--confirm", at="2026-11-22T11:31:00+00:00", ok=False)
    assert "the dusk of day 2 of tb is already recorded" in err
    # The stored lynch is a fact the engine replays: Slayer, the last mafia, is dead, so the
    # game is over and no order for the next night is taken.
    err = cli("order", "tb", "Conia: jail Jd-", at="2026-11-22T11:32:00+00:00", ok=False)
    assert err == (
        "error: Town won at the dusk of Day 2 (All threats to the Town have been eliminated): "
        "the game tb is over; orders are no longer taken (--force to go on, for a GM's ruling)\n"
    )


def test_a_priests_revive_is_a_fact_the_count_honours(cli: Cli, tmp_path: Path):
    """002: "The target is revived immediately, and may begin voting that Day." """
    new_game(cli, tmp_path, "smf21", "rv")
    cli("kill", "rv", "Kat", "--how", "nightkill", "--at", "2026-11-22T10:00:00+00:00")
    day_two(cli, "rv")
    before = cli.json("count", "rv", "--why", "ÆtherWolf")
    assert before["votes"][0]["code"] == "dead_voter" and "ÆtherWolf" not in before["alive"]

    cli("order", "rv", "Conia: revive ÆtherWolf", "--day", "2", at="2026-11-22T11:05:00+00:00")
    out = cli("resolve", "rv", "--day", "2", at="2026-11-22T11:05:00+00:00")
    assert "[revivals] Conia: revive ÆtherWolf: ÆtherWolf is alive again" in out
    with GameStore.open(tmp_path, "rv") as store:
        (fact,) = [i["data"] for i in store.inputs("revive")]
    assert fact == {
        "player": "ÆtherWolf",
        "at_post": None,
        "at": "2026-11-22T11:05:00+00:00",
        "source": "engine",
        "phase": "day",
        "number": 2,
    }
    after = cli.json("count", "rv", "--why", "ÆtherWolf")
    assert "ÆtherWolf" in after["alive"] and after["majority"] == 4
    assert after["votes"][0]["post"] == 132 and after["votes"][0]["code"] == "counted"
    conia = next(w for w in after["wagons"] if w["target"] == "Conia")
    assert conia["voters"] == ["ÆtherWolf", "Tom & Jerry's"]
    assert (conia["displayed"], conia["effective"]) == (2, 3)  # Tom & Jerry's doublevotes
