"""Whole small games, night to dawn, through the command line and the store.

Setup by `assistant roles`, orders by `assistant order` (one line and --file), resolutions
by `assistant resolve`, and the drafts compared whole with the expected text. The first
two games take their lynches from counted votes: the thread's posts (real post bodies of
the fixture threads, as SMF 2.1 and phpBB 3.3 rendered them, with the voted name changed
to this game's players) are stored as a poll stores them, and `assistant draft dusk
--confirm` counts them at the deadline and records the lynch. The last two enter the
lynches by hand, as a GM does when the count was done elsewhere.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from cli_support import call
from cli_support import output as run
from realthreads import HOST, thread_posts

from assistant.cli import main
from assistant.models import Post
from assistant.store import GameStore


def lynch(data: Path, game: str, player: str, day: int) -> None:
    with GameStore.open(data, game) as store:
        store.add_input(
            "death",
            {"player": player, "at_post": None, "at": None, "how": "lynch", "replacement": None},
            datetime(2026, 1, day, tzinfo=UTC),
        )


def real_body(forum: str, thread: str, post_id: int, swap: dict[str, str] | None = None) -> str:
    """A real post body of a fixture thread, with names swapped for this game's players."""
    body = next(p.body_html for p in thread_posts(forum, thread) if p.post_id == post_id)
    for old, new in (swap or {}).items():
        assert body.count(old) == 1, (post_id, old)
        body = body.replace(old, new)
    return body


class Thread:
    """The game thread as the poller stores it: posts with forum ids, times and links."""

    def __init__(self, data: Path, game: str, url: str) -> None:
        self.data, self.game, self.url, self.next_id = data, game, url, 500

    def post(self, at: datetime, *entries: tuple[str, str]) -> None:
        """(author, body) posts one minute apart from `at`, seen just after the last one."""
        posts = [
            Post(self.next_id + i, self.next_id + i - 500, author, None,
                 at + timedelta(minutes=i), body, 1, url=self.url.format(id=self.next_id + i))
            for i, (author, body) in enumerate(entries)
        ]
        self.next_id += len(entries)
        with GameStore.open(self.data, self.game) as store:
            store.record_posts(posts, posts[-1].posted_at + timedelta(seconds=30))


def game_new(
    capsys: pytest.CaptureFixture[str], data: Path, game: str, ruleset: str, thread: str,
    setup: str,
) -> None:
    """`game new` with the players of `setup` (a setup.toml text), then `roles --file`."""
    names = [line.split('"')[1] for line in setup.split("{ name = ")[1:]]
    (data / f"{game}-players.txt").write_text("\n".join(names) + "\n", encoding="utf-8")
    (data / f"{game}-setup.toml").write_text(setup, encoding="utf-8")
    run(capsys, data, "game", "new", game, "--thread", thread, "--ruleset", ruleset,
        "--players", str(data / f"{game}-players.txt"), "--gm", HOST)
    run(capsys, data, "roles", game, "--file", str(data / f"{game}-setup.toml"))


def at(monkeypatch: pytest.MonkeyPatch, moment: datetime) -> None:
    """The assistant's clock for the next commands (the CLI reads ASSISTANT_NOW)."""
    monkeypatch.setenv("ASSISTANT_NOW", moment.isoformat())


D1 = datetime(2026, 11, 23, 18, 0, tzinfo=UTC)
CM_SETUP = (
    "seed = 11\nplayers = [\n"
    '  { name = "Carol", role = "godfather" },\n  { name = "Moe", side = "mafia" },\n'
    '  { name = "Doc", role = "doctor" },\n  { name = "Ivy", role = "investigator" },\n'
    '  { name = "Bo", role = "bomb" },\n  { name = "Gus", side = "town" },\n'
    '  { name = "Hal", side = "town" },\n]\n'
)


def test_chat_mafia_game_lynches_from_the_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """002 on SMF: two days whose lynches come from `[Vote: X]` posts counted at the
    deadline, a saved night between them, then the Bomb ends the mafia."""
    at(monkeypatch, D1 - timedelta(hours=1))
    url = "http://127.0.0.1:8021/index.php?topic=3.0"
    game_new(capsys, tmp_path, "cm", "002", url, CM_SETUP)
    forum = Thread(tmp_path, "cm", "http://127.0.0.1:8021/index.php?msg={id}")
    end1 = (D1 + timedelta(minutes=20)).isoformat()
    run(capsys, tmp_path, "phase", "cm", "day", "1", "--starts", D1.isoformat(), "--ends", end1)
    vote = lambda name: real_body("smf21", "b", 118, {"[Vote: Conia]": f"[Vote: {name}]"})  # noqa: E731
    forum.post(
        D1 + timedelta(minutes=1),
        ("Gus", vote("Hal")),  # 500
        ("Hal", real_body("smf21", "b", 121, {"[VOTE: Lady G]": "[VOTE: Gus]"})),  # 501
        ("Ivy", real_body("smf21", "b", 124)),  # 502: the vote is inside a quote
        ("Carol", vote("Hal")),  # 503
        ("Moe", vote("Gus")),  # 504
        ("Bo", real_body("smf21", "b", 125)),  # 505: [Unvote] with nothing to unvote
        # 506: two votes in one post, the later one counts (Hal)
        ("Doc", real_body("smf21", "b", 127, {"[Vote: Tom]": "[Vote: Moe]",
                                              "[Vote: Pickles]": "[Vote: Hal]"})),
        ("Ivy", vote("Hal")),  # 507
    )
    at(monkeypatch, D1 + timedelta(minutes=21))
    assert run(capsys, tmp_path, "draft", "dusk", "cm", "--confirm") == (
        "Day 1 is over.\n"
        "Hal has been lynched. Hal was Vanilla (Town).\n"
        "The deciding vote: http://127.0.0.1:8021/index.php?msg=507\n"
        "Night 1 begins. Send your night actions to the GM.\n"
        "\n---\nfor the GM (not for the thread):\n"
        "day ended: Mon 23 Nov 2026 18:20 UTC; 20 min day (the ruleset's length)\n"
        "outcome (post 507): Hal leads with 4\n"
        "stored: Hal (lynch)\n"
    )
    (tmp_path / "n1.txt").write_text(
        "# night 1\nCarol: kill Ivy\nDoc: protect Ivy\nIvy: investigate Moe\n", encoding="utf-8"
    )
    run(capsys, tmp_path, "order", "cm", "--file", str(tmp_path / "n1.txt"))
    run(capsys, tmp_path, "resolve", "cm")
    assert run(capsys, tmp_path, "draft", "dawn", "cm") == (
        "Dawn breaks after Night 1.\n"
        "Everyone wakes up safe and sound.\n"
        "Day 2 begins. 6 players remain: Carol, Moe, Doc, Ivy, Bo, Gus.\n"
    )
    assert run(capsys, tmp_path, "draft", "pms", "cm") == (
        "To: Ivy\nSubject: Turtle's Chat Mafia: results of Night 1\n\n"
        "Your investigation of Moe returns: Mafia.\n"
    )
    d2 = D1 + timedelta(days=1)
    at(monkeypatch, d2)
    end2 = (d2 + timedelta(minutes=20)).isoformat()
    run(capsys, tmp_path, "phase", "cm", "day", "2", "--starts", d2.isoformat(), "--ends", end2)
    forum.post(
        d2 + timedelta(minutes=1),
        ("Ivy", vote("Moe")),  # 508
        ("Moe", vote("Ivy")),  # 509
        ("Gus", vote("Moe")),  # 510
        ("Hal", vote("Carol")),  # 511: Hal is dead: not counted
        ("Carol", vote("Ivy")),  # 512
        ("Doc", vote("Moe")),  # 513
        ("Bo", vote("Moe")),  # 514
    )
    at(monkeypatch, d2 + timedelta(minutes=21))
    assert run(capsys, tmp_path, "draft", "dusk", "cm", "--confirm") == (
        "Day 2 is over.\n"
        "Moe has been lynched. Moe was Vanilla (Mafia).\n"
        "The deciding vote: http://127.0.0.1:8021/index.php?msg=514\n"
        "Night 2 begins. Send your night actions to the GM.\n"
        "\n---\nfor the GM (not for the thread):\n"
        # Bo's vote (18:07) was the last one missing: 002 drops the clock to 5 minutes.
        "day ended: Tue 24 Nov 2026 18:12 UTC; everyone has voted: the clock dropped to 5 min\n"
        "outcome (post 514): Moe leads with 4\n"
        "stored: Moe (lynch)\n"
    )
    code, out, err = call(capsys, tmp_path, "count", "cm", "--day", "2", "--why", "Hal")
    assert "post 511" in out and "not counted: Hal is dead (lynch)" in out, (code, err)
    code, out, err = call(capsys, tmp_path, "count", "cm", "--day", "1", "--why", "Ivy")
    assert "post 502" in out and "not counted: inside a quote of post 119" in out, (code, err)
    run(capsys, tmp_path, "order", "cm", "Mafia: kill Bo")
    run(capsys, tmp_path, "order", "cm", "Doc: protect Gus")
    run(capsys, tmp_path, "resolve", "cm", "--night", "2")
    assert run(capsys, tmp_path, "draft", "dawn", "cm") == (
        "Dawn breaks after Night 2.\n"
        "Bo was found dead.\n"
        "Carol was found dead.\n"
        "\n"
        "The game is over. Victory: Town!\n"
        "All threats to the Town have been eliminated.\n"
        "Winners: Doc, Ivy, Bo, Gus, Hal.\n"
    )
    with GameStore.open(tmp_path, "cm") as store:
        deaths = [(d["data"]["player"], d["data"]["how"], d["data"].get("at_post"))
                  for d in store.inputs("death")]
    assert deaths[:2] == [("Hal", "lynch", 507), ("Moe", "lynch", 514)]


MH_SETUP = (
    "seed = 4\nplayers = [\n"
    '  { name = "Ann", role = "seer" },\n  { name = "Ben", role = "guardian" },\n'
    '  { name = "Cid", role = "hunter" },\n  { name = "Dee", role = "peasant" },\n'
    '  { name = "Hea", role = "healer" },\n  { name = "Wolf", role = "werewolf" },\n'
    '  { name = "Alf", role = "alpha" },\n]\n'
)


def test_millers_hollow_game_lynch_from_the_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """001 on phpBB: a guarded night, a day whose lynch comes from bold votes (a bold name
    is a vote too) counted at the deadline, then the hunter takes the alpha with him."""
    at(monkeypatch, D1 - timedelta(hours=12))
    url = "http://127.0.0.1:8033/viewtopic.php?t=2"
    game_new(capsys, tmp_path, "mh", "001", url, MH_SETUP)
    forum = Thread(tmp_path, "mh", "http://127.0.0.1:8033/viewtopic.php?p={id}#p{id}")
    for line in ("Werewolves: eat Dee by Wolf", "Ben: guard Dee", "Ann: see Wolf"):
        run(capsys, tmp_path, "order", "mh", line)
    run(capsys, tmp_path, "resolve", "mh")
    assert run(capsys, tmp_path, "draft", "dawn", "mh") == (
        "The sun rises over Miller's Hollow after night 1.\n"
        "The village wakes: nobody died tonight.\n"
        "Day 1: vote in bold. 7 villagers remain: Ann, Ben, Cid, Dee, Hea, Wolf, Alf.\n"
    )
    at(monkeypatch, D1)
    ends = (D1 + timedelta(days=1)).isoformat()
    run(capsys, tmp_path, "phase", "mh", "day", "1", "--starts", D1.isoformat(), "--ends", ends)
    bold = lambda name: real_body("phpbb33", "a", 12, {"vote: Lady Grey": f"vote: {name}"})  # noqa: E731
    forum.post(
        D1 + timedelta(hours=1),
        ("Ann", bold("Wolf")),  # 500
        ("Wolf", real_body("phpbb33", "a", 58, {"vote: ÆtherWolf": "vote: Cid"})),  # 501
        ("Cid", bold("Alf")),  # 502
        ("Ben", real_body("phpbb33", "a", 10, {"vote: Tom &amp; Jerry's": "vote: Wolf"})),  # 503
        ("Alf", bold("Cid")),  # 504
        # 505: a bold "unvote", then a bold name: 001 counts the name as the new vote
        ("Cid", real_body("phpbb33", "a", 40, {"Mr. Pickles": "Wolf"})),
        ("Hea", bold("Cid")),  # 506
        ("Dee", bold("Wolf")),  # 507
    )
    at(monkeypatch, D1 + timedelta(days=1, minutes=1))
    code, out, err = call(capsys, tmp_path, "count", "mh", "--why", "Cid")
    assert "post 505" in out and "removed by the unvote in post 505" in out, (code, err)
    assert run(capsys, tmp_path, "draft", "dusk", "mh", "--confirm") == (
        "Day 1 is over.\n"
        "Wolf has been lynched. Wolf was the Werewolf.\n"
        "The deciding vote: http://127.0.0.1:8033/viewtopic.php?p=507#p507\n"
        "Night 2 begins. Send your night actions to the GM.\n"
        "\n---\nfor the GM (not for the thread):\n"
        "day ended: Tue 24 Nov 2026 18:00 UTC; deadline set by the GM (1 d day)\n"
        "outcome (post 507): Wolf leads with 4\n"
        "stored: Wolf (lynch)\n"
    )
    (tmp_path / "n2.txt").write_text(
        "Alf: eat Cid\nCid: shoot Alf\nBen: guard Ann\n", encoding="utf-8"
    )
    run(capsys, tmp_path, "order", "mh", "--file", str(tmp_path / "n2.txt"))
    run(capsys, tmp_path, "resolve", "mh", "--night", "2")
    assert run(capsys, tmp_path, "draft", "dawn", "mh") == (
        "The sun rises over Miller's Hollow after night 2.\n"
        "Cid did not survive the night. Cid was the Hunter.\n"
        "Alf did not survive the night. Alf was the Alpha.\n"
        "\n"
        "The game is over. Victory: Villagers!\n"
        "All the werewolves have been killed.\n"
        "Winners: Ann, Ben, Cid, Dee, Hea.\n"
    )


def test_chat_mafia_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """002: Day 1 lynch, a saved night with an investigation, then the Bomb ends the mafia."""
    (tmp_path / "setup.toml").write_text(
        "seed = 11\nplayers = [\n"
        '  { name = "Carol", role = "godfather" }, { name = "Moe", side = "mafia" },\n'
        '  { name = "Doc", role = "doctor" }, { name = "Ivy", role = "investigator" },\n'
        '  { name = "Bo", role = "bomb" }, { name = "Gus", side = "town" },\n'
        '  { name = "Hal", side = "town" },\n]\n',
        encoding="utf-8",
    )
    run(capsys, tmp_path, "roles", "cm", "--file", str(tmp_path / "setup.toml"), "--ruleset", "002")
    lynch(tmp_path, "cm", "Hal", 1)
    (tmp_path / "n1.txt").write_text(
        "# night 1\nCarol: kill Ivy\nDoc: protect Ivy\nIvy: investigate Moe\n", encoding="utf-8"
    )
    run(capsys, tmp_path, "order", "cm", "--file", str(tmp_path / "n1.txt"))
    run(capsys, tmp_path, "resolve", "cm")
    assert run(capsys, tmp_path, "draft", "dawn", "cm") == (
        "Dawn breaks after Night 1.\n"
        "Everyone wakes up safe and sound.\n"
        "Day 2 begins. 6 players remain: Carol, Moe, Doc, Ivy, Bo, Gus.\n"
    )
    assert run(capsys, tmp_path, "draft", "pms", "cm") == (
        "To: Ivy\nSubject: Turtle's Chat Mafia: results of Night 1\n\n"
        "Your investigation of Moe returns: Mafia.\n"
    )
    lynch(tmp_path, "cm", "Moe", 2)
    with pytest.raises(SystemExit):
        main(["--data-dir", str(tmp_path), "order", "cm", "Moe: kill Gus"])
    assert capsys.readouterr().err == (
        "error: 'Moe: kill Gus': Moe is dead; the dead give no orders\n"
    )
    run(capsys, tmp_path, "order", "cm", "Mafia: kill Bo")
    run(capsys, tmp_path, "order", "cm", "Doc: protect Gus")
    out = run(capsys, tmp_path, "resolve", "cm", "--night", "2")
    assert out.splitlines()[1:] == [
        "[protections] Doc: protect Gus: protects Gus (against all)",
        "[nightkills] Carol (mafia): kill Bo: kills Bo",
        "[nightkills] Bo: dies (Carol (mafia): kill Bo)",
        "[nightkills] Bo (Bomb): explodes on Carol (the only one of the mafia it can take)",
        "[nightkills] Carol: dies (caught in Bo's explosion)",
        "deaths: Bo (nightkill), Carol (nightkill)",
    ]
    assert run(capsys, tmp_path, "draft", "dawn", "cm") == (
        "Dawn breaks after Night 2.\n"
        "Bo was found dead.\n"
        "Carol was found dead.\n"
        "\n"
        "The game is over. Victory: Town!\n"
        "All threats to the Town have been eliminated.\n"
        "Winners: Doc, Ivy, Bo, Gus, Hal.\n"
    )
    with GameStore.open(tmp_path, "cm") as store:
        engine_deaths = [
            d["data"]["player"]
            for d in store.inputs("death")
            if d["data"].get("source") == "engine"
        ]
    assert engine_deaths == ["Bo", "Carol"]


def test_millers_hollow_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """001: a guarded night with a vision, a lynch, then the hunter takes the alpha with him."""
    (tmp_path / "setup.toml").write_text(
        "seed = 4\nplayers = [\n"
        '  { name = "Ann", role = "seer" }, { name = "Ben", role = "guardian" },\n'
        '  { name = "Cid", role = "hunter" }, { name = "Dee", role = "peasant" },\n'
        '  { name = "Hea", role = "healer" }, { name = "Wolf", role = "werewolf" },\n'
        '  { name = "Alf", role = "alpha" },\n]\n',
        encoding="utf-8",
    )
    run(capsys, tmp_path, "roles", "mh", "--file", str(tmp_path / "setup.toml"), "--ruleset", "001")
    for line in ("Werewolves: eat Dee by Wolf", "Ben: guard Dee", "Ann: see Wolf"):
        run(capsys, tmp_path, "order", "mh", line)
    # 001: the healer gets "a PM every night, with information about who was attacked"
    # so he "can choose to save the person": drafted before the night is resolved.
    assert run(capsys, tmp_path, "draft", "pms", "mh", "--pending") == (
        "To: Hea\nSubject: Miller's Hollow: during Night 1\n\n"
        "You cannot find any victims tonight.\n"
    )
    run(capsys, tmp_path, "resolve", "mh")
    assert run(capsys, tmp_path, "draft", "dawn", "mh") == (
        "The sun rises over Miller's Hollow after night 1.\n"
        "The village wakes: nobody died tonight.\n"
        "Day 1: vote in bold. 7 villagers remain: Ann, Ben, Cid, Dee, Hea, Wolf, Alf.\n"
    )
    assert run(capsys, tmp_path, "draft", "pms", "mh") == (
        "To: Ann\nSubject: Miller's Hollow: results of Night 1\n\n"
        "Your vision: Wolf is the Werewolf.\n"
    )
    lynch(tmp_path, "mh", "Wolf", 1)
    (tmp_path / "n2.txt").write_text(
        "Alf: eat Cid\nCid: shoot Alf\nBen: guard Ann\nBen: guard Dee\n", encoding="utf-8"
    )
    with pytest.raises(SystemExit):
        main(["--data-dir", str(tmp_path), "order", "mh", "--file", str(tmp_path / "n2.txt")])
    assert "two nights running" in capsys.readouterr().err
    (tmp_path / "n2.txt").write_text(
        "Alf: eat Cid\nCid: shoot Alf\nBen: guard Ann\n", encoding="utf-8"
    )
    run(capsys, tmp_path, "order", "mh", "--file", str(tmp_path / "n2.txt"))
    run(capsys, tmp_path, "resolve", "mh", "--night", "2")
    assert run(capsys, tmp_path, "draft", "dawn", "mh") == (
        "The sun rises over Miller's Hollow after night 2.\n"
        "Cid did not survive the night. Cid was the Hunter.\n"
        "Alf did not survive the night. Alf was the Alpha.\n"
        "\n"
        "The game is over. Victory: Villagers!\n"
        "All the werewolves have been killed.\n"
        "Winners: Ann, Ben, Cid, Dee, Hea.\n"
    )
    # The dawn says Cid died: no PM offering to save him goes out with it.
    assert run(capsys, tmp_path, "draft", "pms", "mh") == "no PMs to send\n"
