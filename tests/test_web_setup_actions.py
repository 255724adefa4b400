"""The dashboard's Setup tab (issue 25: every action the CLI has for a game is on the page):
the game's name, its majority rules and house rules, a vote modifier, another account, a
reset of the votes, a day's lynches and the setup, each posted to the running dashboard on
thread B as the page posts it, stored as the command stores it (`log` lists it, `count`
applies it), and refused in the command's own words."""

from __future__ import annotations

import json
import re
from html import unescape

import httpx
import thread_b_support as tb
from cli_support import run_at
from notify_support import THREAD_B_SETUP
from test_web_actions import _post
from test_web_dashboard import Live, live  # noqa: F401 - the fixture

from assistant.store import GameStore

GAME = "thread-b"


def _cli(capsys, monkeypatch, at: Live, *args: str) -> tuple[int, str, str]:  # noqa: ANN001
    return run_at(capsys, monkeypatch, at.data, at.now(), *args)


def _flash(client: httpx.Client, r: httpx.Response) -> str:
    assert r.status_code == 303, r.text[-2000:]
    page = client.get(r.headers["location"]).text
    return unescape(re.search(r'<p class="flash" role="status">(.*?)</p>', page, re.S)[1])


def _refused_alike(client: httpx.Client, capsys, monkeypatch, at: Live,  # noqa: ANN001
                   action: str, fields: dict[str, str], *cli_args: str,
                   where: tuple[str, str] = ("", "")) -> str:
    """The page's refusal of `fields` is the command's error for the same input (`where`:
    the command's name for it, the page's), shown in the action's own section; neither
    stores anything."""
    before = _log(capsys, monkeypatch, at)
    r = _post(client, f"/game/{GAME}/{action}", **fields)
    code, _out, err = _cli(capsys, monkeypatch, at, *cli_args)
    refusal = err.removeprefix("error: ").strip().replace(*where)
    assert r.status_code == 400 and code == 1
    section = r.text.split(f'<section id="{action}">', 1)[1].split("</section>", 1)[0]
    assert refusal in unescape(section)
    assert _log(capsys, monkeypatch, at) == before
    return refusal


def _log(capsys, monkeypatch, at: Live) -> list[dict]:  # noqa: ANN001
    code, out, err = _cli(capsys, monkeypatch, at, "--json", "log", GAME)
    assert code == 0, err
    return json.loads(out)["inputs"]


def test_the_setup_tab_names_sets_rules_and_undoes_like_the_command_line(
    live: Live, capsys, monkeypatch  # noqa: ANN001, F811
) -> None:
    live.grow_to(4)
    with httpx.Client(base_url=live.web.url) as client:
        page = client.get(f"/game/{GAME}").text
        assert 'id="panel-setup"' in page and 'action="/game/thread-b/game-title"' in page

        said = _flash(client, _post(client, f"/game/{GAME}/game-title", title=" Harbour  Town "))
        assert said == "Set: thread-b is called 'Harbour Town'."
        code, out, _ = _cli(capsys, monkeypatch, live, "game", "title", GAME)
        assert out == "thread-b is called 'Harbour Town' in drafts and subjects.\n"
        entry = _log(capsys, monkeypatch, live)[-1]
        assert entry["what"] == 'the game\'s title set to "Harbour Town" (was "Chat Mafia")'
        said = _flash(client, _post(client, f"/game/{GAME}/undo", input=str(entry["id"])))
        assert said.startswith(f"Withdrawn: input {entry['id']} (the game's title set to")
        assert "<title>Chat Mafia · Assistant</title>" in client.get(f"/game/{GAME}").text

        # chat-mafia decides by plurality: the majority variants are refused as `game rules`
        # refuses them.
        _refused_alike(client, capsys, monkeypatch, live, "game-rules",
                       {"at_deadline": "plurality"},
                       "game", "rules", GAME, "--at-deadline", "plurality")
        # House rules: checked against the ruleset's [posting] first, then a setting.
        _refused_alike(client, capsys, monkeypatch, live, "house-rules",
                       {"rules": "dead_post=sometimes"},
                       "alerts", GAME, "--rule", "dead_post=sometimes")
        said = _flash(client, _post(client, f"/game/{GAME}/house-rules",
                                    rules="night_post=violation\nmin_posts_per_day=2"))
        assert said == "House rules set: night_post = violation, min_posts_per_day = 2."
        with GameStore.open(live.data, GAME, create=False) as store:
            posting = store.config()["posting"]
        assert posting == {"pm_copy": "violation", "night_post": "violation",
                           "min_posts_per_day": 2}
        assert _log(capsys, monkeypatch, live)[-1]["what"] == (
            "setting posting.night_post = violation, posting.min_posts_per_day = 2 "
            "(was the ruleset default, the ruleset default)")

        # A day's lynches: chat-mafia has one a day, so there is nothing to record.
        _refused_alike(client, capsys, monkeypatch, live, "lynches",
                       {"day": "2", "available": "2"},
                       "game", "lynches", GAME, "--day", "2", "--available", "2")


def test_a_majority_game_takes_its_own_rules_from_the_page(
    live: Live, capsys, monkeypatch  # noqa: ANN001, F811
) -> None:
    players = live.data / "players.txt"
    players.write_text("\n".join(tb.truth("smf21")["meta"]["players"]) + "\n", encoding="utf-8")
    code, _out, err = _cli(capsys, monkeypatch, live, "game", "new", "ms", "--thread",
                           tb.THREAD_URL["smf21"], "--ruleset", "mafiascum", "--players",
                           str(players))
    assert code == 0, err
    with httpx.Client(base_url=live.web.url) as client:
        said = _flash(client, _post(client, "/game/ms/game-rules",
                                    at_deadline="plurality", no_lynch_majority="one_less"))
    code, out, err = _cli(capsys, monkeypatch, live, "game", "rules", "ms")
    assert code == 0, err
    assert said == "Set. " + out.rstrip("\n")
    assert "  at_deadline = plurality  (this game's)" in out
    assert "  no_lynch_majority = one_less  (this game's)" in out


def test_modifier_alias_reset_and_setup_from_the_page(
    live: Live, capsys, monkeypatch  # noqa: ANN001, F811
) -> None:
    live.grow_to(4)  # 25 posts: votes on three wagons
    with httpx.Client(base_url=live.web.url) as client:
        _refused_alike(client, capsys, monkeypatch, live, "modifier",
                       {"player": "Nobody Here", "weight": "2"},
                       "game", "modifier", GAME, "Nobody Here", "--weight", "2")
        before = json.loads(_cli(capsys, monkeypatch, live, "count", GAME, "--json")[1])
        voter = before["wagons"][0]["voters"][0]
        said = _flash(client, _post(client, f"/game/{GAME}/modifier", player=voter.upper(),
                                    weight="2", day="2"))
        assert said == f"Recorded for {voter}: weight 2 on day 2."
        assert _log(capsys, monkeypatch, live)[-1]["what"] == (
            f"vote modifier for {voter}: weight 2, Day 2")
        count = json.loads(_cli(capsys, monkeypatch, live, "count", GAME, "--json")[1])
        assert client.get(f"/game/{GAME}/count.json").json() == count
        why = json.loads(_cli(capsys, monkeypatch, live, "count", GAME, "--why", voter,
                              "--json")[1])
        counted = [v for v in why["votes"] if v["accepted"]]
        assert counted and all(v["weight"] == 2 for v in counted)
        assert count["wagons"][0]["effective"] == before["wagons"][0]["effective"] + 1

        _refused_alike(client, capsys, monkeypatch, live, "alias",
                       {"player": "Kat", "account": "Conia"},
                       "game", "alias", GAME, "Kat", "Conia")
        said = _flash(client, _post(client, f"/game/{GAME}/alias", player="kat",
                                    account="KatOnHerPhone"))
        assert said == "Recorded: KatOnHerPhone posts and votes as Kat."

        last = max(p["id"] for p in json.loads(
            _cli(capsys, monkeypatch, live, "posts", GAME, "--json")[1]))
        said = _flash(client, _post(client, f"/game/{GAME}/reset", at_post=str(last)))
        assert said == f"Recorded: the votes were reset in post {last}."
        count = json.loads(_cli(capsys, monkeypatch, live, "count", GAME, "--json")[1])
        assert client.get(f"/game/{GAME}/count.json").json() == count
        assert all(w["effective"] == 0 for w in count["wagons"])  # every vote ended there

        _refused_alike(client, capsys, monkeypatch, live, "roles", {"setup": "[[players]\n"},
                       "roles", GAME, "--file", str(_bad_setup(live)),
                       where=(str(_bad_setup(live)), "the setup"))
        setup = "\n".join(
            f'[[players]]\nname = "{p.name}"\nside = "{p.side}"'
            + (f'\nrole = "{p.role}"' if p.role else "") for p in THREAD_B_SETUP.players)
        said = _flash(client, _post(client, f"/game/{GAME}/roles", setup=setup))
        players = len(tb.truth("smf21")["meta"]["players"])
        assert said.startswith(f"setup of {GAME} stored ({players} players, seed ")
        assert "xX_Slayer_Xx: Roleblocker (Mafia)" in said
        assert _log(capsys, monkeypatch, live)[-1]["kind"] == "roles"


def _bad_setup(at: Live):  # noqa: ANN202
    path = at.data / "bad-setup.toml"
    path.write_text("[[players]\n", encoding="utf-8")
    return path
