"""The dashboard's Setup tab (issue 25: every action the CLI has for a game is on the page):
the game's name, its majority rules and house rules, a vote modifier, another account, a
reset of the votes, a day's lynches and the setup, each posted to the running dashboard on
thread B as the page posts it, stored as the command stores it (`log` lists it, `count`
applies it), and refused in the command's own words."""

from __future__ import annotations

import json

import httpx
import thread_b_support as tb
from notify_support import THREAD_B_SETUP
from test_web_actions import _post
from test_web_dashboard import Live, live  # noqa: F401 - the fixture
from web_form_support import GAME, cli_at, flash_of, log_of, refused_alike

from assistant.store import GameStore


def test_the_setup_tab_names_sets_rules_and_undoes_like_the_command_line(
    live: Live, capsys, monkeypatch  # noqa: ANN001, F811
) -> None:
    live.grow_to(4)
    with httpx.Client(base_url=live.web.url) as client:
        page = client.get(f"/game/{GAME}").text
        assert 'id="panel-setup"' in page and 'action="/game/thread-b/game-title"' in page

        said = flash_of(client, _post(client, f"/game/{GAME}/game-title", title=" Harbour  Town "))
        assert said == "Set: thread-b is called 'Harbour Town'."
        code, out, _ = cli_at(capsys, monkeypatch, live, "game", "title", GAME)
        assert out == "thread-b is called 'Harbour Town' in drafts and subjects.\n"
        entry = log_of(capsys, monkeypatch, live)[-1]
        assert entry["what"] == 'the game\'s title set to "Harbour Town" (was "Chat Mafia")'
        said = flash_of(client, _post(client, f"/game/{GAME}/undo", input=str(entry["id"])))
        assert said.startswith(f"Withdrawn: input {entry['id']} (the game's title set to")
        assert "<title>Chat Mafia · Assistant</title>" in client.get(f"/game/{GAME}").text

        # chat-mafia decides by plurality: the majority variants are refused as `game rules`
        # refuses them.
        refused_alike(client, capsys, monkeypatch, live, "game-rules",
                       {"at_deadline": "plurality"},
                       "game", "rules", GAME, "--at-deadline", "plurality", section=True)
        # House rules: checked against the ruleset's [posting] first, then a setting.
        refused_alike(client, capsys, monkeypatch, live, "house-rules",
                       {"rules": "dead_post=sometimes"},
                       "alerts", GAME, "--rule", "dead_post=sometimes", section=True)
        said = flash_of(client, _post(client, f"/game/{GAME}/house-rules",
                                    rules="night_post=violation\nmin_posts_per_day=2"))
        assert said == "House rules set: night_post = violation, min_posts_per_day = 2."
        with GameStore.open(live.data, GAME, create=False) as store:
            posting = store.config()["posting"]
        assert posting == {"pm_copy": "violation", "night_post": "violation",
                           "min_posts_per_day": 2}
        assert log_of(capsys, monkeypatch, live)[-1]["what"] == (
            "setting posting.night_post = violation, posting.min_posts_per_day = 2 "
            "(was the ruleset default, the ruleset default)")

        # A day's lynches: chat-mafia has one a day, so there is nothing to record.
        refused_alike(client, capsys, monkeypatch, live, "lynches",
                       {"day": "2", "available": "2"},
                       "game", "lynches", GAME, "--day", "2", "--available", "2", section=True)


def test_a_majority_game_takes_its_own_rules_from_the_page(
    live: Live, capsys, monkeypatch  # noqa: ANN001, F811
) -> None:
    players = live.data / "players.txt"
    players.write_text("\n".join(tb.truth("smf21")["meta"]["players"]) + "\n", encoding="utf-8")
    code, _out, err = cli_at(capsys, monkeypatch, live, "game", "new", "ms", "--thread",
                           tb.THREAD_URL["smf21"], "--ruleset", "mafiascum", "--players",
                           str(players))
    assert code == 0, err
    with httpx.Client(base_url=live.web.url) as client:
        said = flash_of(client, _post(client, "/game/ms/game-rules",
                                    at_deadline="plurality", no_lynch_majority="one_less"))
    code, out, err = cli_at(capsys, monkeypatch, live, "game", "rules", "ms")
    assert code == 0, err
    assert said == "Set. " + out.rstrip("\n")
    assert "  at_deadline = plurality  (this game's)" in out
    assert "  no_lynch_majority = one_less  (this game's)" in out
    with httpx.Client(base_url=live.web.url) as client:  # what the daemon may post itself
        said = flash_of(client, _post(client, "/game/ms/game-rules", auto_post="off",
                                      auto_post_gap="3m"))
    code, out, err = cli_at(capsys, monkeypatch, live, "--json", "game", "rules", "ms")
    assert code == 0, err
    doc = json.loads(out)
    assert (doc["auto_post"], doc["auto_post_gap"]) == ("off", "3m"), (said, doc)


def test_modifier_alias_reset_and_setup_from_the_page(
    live: Live, capsys, monkeypatch  # noqa: ANN001, F811
) -> None:
    live.grow_to(4)  # 25 posts: votes on three wagons
    with httpx.Client(base_url=live.web.url) as client:
        refused_alike(client, capsys, monkeypatch, live, "modifier",
                       {"player": "Nobody Here", "weight": "2"},
                       "game", "modifier", GAME, "Nobody Here", "--weight", "2", section=True)
        before = json.loads(cli_at(capsys, monkeypatch, live, "count", GAME, "--json")[1])
        voter = before["wagons"][0]["voters"][0]
        said = flash_of(client, _post(client, f"/game/{GAME}/modifier", player=voter.upper(),
                                    weight="2", day="2"))
        assert said == f"Recorded for {voter}: weight 2 on day 2."
        assert log_of(capsys, monkeypatch, live)[-1]["what"] == (
            f"vote modifier for {voter}: weight 2, Day 2")
        count = json.loads(cli_at(capsys, monkeypatch, live, "count", GAME, "--json")[1])
        assert client.get(f"/game/{GAME}/count.json").json() == count
        why = json.loads(cli_at(capsys, monkeypatch, live, "count", GAME, "--why", voter,
                              "--json")[1])
        counted = [v for v in why["votes"] if v["accepted"]]
        assert counted and all(v["weight"] == 2 for v in counted)
        assert count["wagons"][0]["effective"] == before["wagons"][0]["effective"] + 1

        refused_alike(client, capsys, monkeypatch, live, "alias",
                       {"player": "Kat", "account": "Conia"},
                       "game", "alias", GAME, "Kat", "Conia", section=True)
        said = flash_of(client, _post(client, f"/game/{GAME}/alias", player="kat",
                                    account="KatOnHerPhone"))
        assert said == "Recorded: KatOnHerPhone posts and votes as Kat."

        last = max(p["id"] for p in json.loads(
            cli_at(capsys, monkeypatch, live, "posts", GAME, "--json")[1]))
        said = flash_of(client, _post(client, f"/game/{GAME}/reset", at_post=str(last)))
        assert said == f"Recorded: the votes were reset in post {last}."
        count = json.loads(cli_at(capsys, monkeypatch, live, "count", GAME, "--json")[1])
        assert client.get(f"/game/{GAME}/count.json").json() == count
        assert all(w["effective"] == 0 for w in count["wagons"])  # every vote ended there

        refused_alike(client, capsys, monkeypatch, live, "roles", {"setup": "[[players]\n"},
                       "roles", GAME, "--file", str(_bad_setup(live)),
                       where=(str(_bad_setup(live)), "the setup"), section=True)
        setup = "\n".join(
            f'[[players]]\nname = "{p.name}"\nside = "{p.side}"'
            + (f'\nrole = "{p.role}"' if p.role else "") for p in THREAD_B_SETUP.players)
        said = flash_of(client, _post(client, f"/game/{GAME}/roles", setup=setup))
        players = len(tb.truth("smf21")["meta"]["players"])
        assert said.startswith(f"setup of {GAME} stored ({players} players, seed ")
        assert "xX_Slayer_Xx: Roleblocker (Mafia)" in said
        assert log_of(capsys, monkeypatch, live)[-1]["kind"] == "roles"


def _bad_setup(at: Live):  # noqa: ANN202
    path = at.data / "bad-setup.toml"
    path.write_text("[[players]\n", encoding="utf-8")
    return path
