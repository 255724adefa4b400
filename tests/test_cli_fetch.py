"""`assistant fetch` and `assistant posts` end to end: the real pages over 127.0.0.1,
the JSON shape scripts rely on, and one-line errors (exit 1, no traceback)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import partial
from urllib.parse import parse_qsl

import pytest
from cli_support import run_cli
from forum_server import ForumServer, page_path, route_key, running_forum, thread_files
from test_fetch import PHPBB_LOGIN, PHPBB_MEMBER

from assistant.store import GameStore


@pytest.fixture
def forum() -> Iterator[ForumServer]:
    with running_forum() as f:
        yield f


@pytest.fixture
def run(tmp_path, monkeypatch, capsys):
    """Run the CLI in-process; returns (exit code, stdout, stderr)."""
    monkeypatch.setenv("ASSISTANT_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("ASSISTANT_NOW", "2026-11-22T12:00:00+00:00")
    return partial(run_cli, capsys)


@pytest.mark.parametrize("software", ["smf", "phpbb"])
def test_fetch_then_posts_json(forum, run, tmp_path, software):
    url = forum.serve_thread(software, thread_files(software))

    code, out, err = run("fetch", url, "--game", "g1", "--tz", "UTC", "--delay", "0")
    assert code == 0, err
    assert out.startswith("g1: read the thread: 66 new, 0 edited, 0 vanished")
    assert "5 page(s) with 5 request(s)" in out

    code, out, _ = run("fetch", "--game", "g1", "--json", "--delay", "0")  # URL remembered
    summary = json.loads(out)
    assert code == 0 and summary["new"] == [] and summary["requests"] <= 2
    assert summary["posts_stored"] == 66 and summary["backfill"] is False

    code, out, _ = run("posts", "g1", "--json")
    posts = json.loads(out)
    assert code == 0 and len(posts) == 66
    first = posts[0]
    keys = {"id", "position", "author", "posted_at", "edited", "body_html", "versions"}
    assert keys <= set(first)
    assert (first["id"], first["position"]) == (2, 0)
    assert first["posted_at"].endswith("+00:00")
    assert set(first["versions"][0]) == {"seen_at", "hash", "body_html", "edit"}
    assert first["versions"][0]["seen_at"] == "2026-11-22T12:00:00+00:00"
    assert "Tom & Jerry's" in {p["author"] for p in posts}
    edited = [p for p in posts if p["edited"]]
    assert edited and all(p["versions"][-1]["edit"] is not None for p in edited)

    with GameStore.open(tmp_path, "g1", create=False) as store:
        config = store.config()
    assert config["thread_url"] == forum.base_url + page_path(software, 2, 1)
    assert config["tz"] == "UTC"  # the key `game new`, the daemon and the counter read


def test_posts_filters(forum, run):
    url = forum.serve_thread("smf", thread_files("smf"))
    assert run("fetch", url, "--game", "g1", "--delay", "0")[0] == 0

    def ids(*args: str) -> list[int]:
        code, out, err = run("posts", "g1", "--json", *args)
        assert code == 0, err
        return [p["id"] for p in json.loads(out)]

    assert ids("--since", "60") == list(range(62, 68))
    assert ids("--since", "#64") == [64, 65, 66, 67]
    assert ids("--since", "msg64") == [64, 65, 66, 67]
    tom = ids("--author", "tom & JERRY's")
    assert tom and all(i in range(2, 68) for i in tom)
    assert ids("--author", "Tom & Jerry's", "--since", "30") == [i for i in tom if i >= 32]
    edited = ids("--edited")
    assert 0 < len(edited) < 66

    code, out, _ = run("posts", "g1", "--author", "Nobody")
    assert code == 0 and "no posts by 'Nobody'" in out and "Tom & Jerry's" in out
    code, out, _ = run("posts", "g1", "--since", "40")
    assert code == 0 and out.count("\n") == 26 and out.startswith("#42      pos 40 ")


@pytest.mark.parametrize(("args", "message"), [
    (["fetch", "https://forum.example.org/index.php?board=4.0", "--game", "g1"],
     "is a board's list of topics, not a topic: open the game thread"),
    (["fetch", "https://forum.example.org/app.php/feed/topic/7", "--game", "g1"],
     "is a feed, not a topic: the assistant reads a topic's own pages; give the topic instead: "
     "https://forum.example.org/viewtopic.php?t=7"),
    (["fetch", "forum.example.org/viewtopic.php?t=2", "--game", "g1"], "http:// or https://"),
    (["fetch", "--game", "g1"], "has no thread yet"),
    (["fetch", "https://f.org/viewtopic.php?t=2", "--game", "g1", "--tz", "Mars/Olympus"],
     "unknown time zone 'Mars/Olympus'"),
    (["fetch", "https://f.org/viewtopic.php?t=2", "--game", "g1", "--login", "Conia",
      "--password-env", "NO_SUCH_VARIABLE_SET"], "NO_SUCH_VARIABLE_SET: that environment"),
    (["fetch", "https://f.org/viewtopic.php?t=2", "--game", "bad name!"], "not a usable game name"),
    (["posts", "nogame"], "no game called 'nogame'"),
])
def test_errors_are_one_line_without_a_traceback(run, args, message):
    code, out, err = run(*args)
    assert code == 1 and out == ""
    assert message in err and err.startswith("error: ") and err.count("\n") == 1
    assert "Traceback" not in err


def test_a_page_that_is_not_a_forum_is_a_one_line_error(forum, run):
    forum.set_page("/viewtopic.php?t=5", b"<html><body><h1>Cat pictures</h1></body></html>")

    code, out, err = run("fetch", forum.base_url + "/viewtopic.php?t=5", "--game", "g1",
                         "--delay", "0")

    assert code == 1 and "neither SMF nor phpBB" in err and err.count("\n") == 1
    assert "Traceback" not in err


def test_an_unreachable_forum_and_a_missing_topic_say_what_to_do(forum, run):
    code, _, err = run("fetch", forum.base_url + "/viewtopic.php?t=99", "--game", "g1",
                       "--delay", "0")
    assert code == 1 and "HTTP 404" in err and "deleted or moved" in err

    # the game never read its thread, so another URL is still welcome
    url = forum.serve_thread("phpbb", thread_files("phpbb"))
    code, out, err = run("fetch", url, "--game", "g1", "--delay", "0")
    assert code == 0, err
    code, _, err = run("fetch", forum.base_url + "/viewtopic.php?t=3", "--game", "g1")
    assert code == 1 and "use a new --game name" in err


@pytest.mark.parametrize("password", ["s3cret", "wrong"])
def test_fetch_logs_in_with_the_password_from_the_environment(forum, run, monkeypatch, password):
    url = forum.serve_thread("phpbb", thread_files("phpbb"))
    forum.set_page("/ucp.php?mode=login", PHPBB_LOGIN.format(error="").encode())
    refused = PHPBB_LOGIN.format(error='<div class="error">Incorrect password.</div>')
    forum.post_pages[route_key("/ucp.php?mode=login")] = (
        PHPBB_MEMBER if password == "s3cret" else refused).encode()
    monkeypatch.setenv("FORUM_PW", password)

    code, out, err = run("fetch", url, "--game", "g1", "--login", "Conia",
                         "--password-env", "FORUM_PW", "--delay", "0")

    (path, body), = forum.posted
    sent = dict(parse_qsl(body.decode()))
    assert (sent["username"], sent["password"]) == ("Conia", password)
    assert sent["form_token"] and sent["creation_time"]
    if password == "s3cret":
        assert code == 0 and "66 new" in out, err
    else:
        assert code == 1 and "login to" in err and "'Conia' failed" in err
        assert "Incorrect password." in err and forum.log == [path, path]  # no page was read


def test_fetch_uses_the_thread_url_given_to_game_new(tmp_path, capsys) -> None:
    """`game new --thread URL` then `fetch --game G` (no URL) reads that thread."""
    from assistant.cli import main
    from assistant.demo_forum import DemoForum

    players = tmp_path / "players.txt"
    players.write_text("Alice\nBram\nCleo\n", encoding="utf-8")
    with DemoForum() as forum:
        forum.stage = 3
        main(["--data-dir", str(tmp_path), "game", "new", "g", "--thread", forum.thread_url,
              "--ruleset", "mafiascum", "--players", str(players), "--tz", "Europe/London"])
        main(["--data-dir", str(tmp_path), "fetch", "--game", "g", "--delay", "0", "--json"])
    out = capsys.readouterr().out
    doc = json.loads(out[out.index("{\n"):])
    assert doc["posts_stored"] == 10 and doc["backfill"] is True


def test_posts_show_times_in_the_games_zone_read_in_the_forums_zone(forum, run):
    """The game runs on New York time; the SMF forum shows guests UTC text dates. `--forum-tz`
    reads them right, and `posts` prints them as the GM's players read deadlines."""
    url = forum.serve_thread("smf", thread_files("smf"))
    code, _, err = run("fetch", url, "--game", "g1", "--tz", "America/New_York",
                       "--forum-tz", "UTC", "--delay", "0")
    assert code == 0, err
    code, out, _ = run("posts", "g1", "--since", "#67")
    assert out.startswith("#67      pos 65    Sun 22 Nov 2026 02:11 EST  Host Mira: ")
    last = json.loads(run("posts", "g1", "--since", "#67", "--json")[1])[0]
    assert last["posted_at"] == "2026-11-22T07:11:00+00:00"  # the thread's truth, to the minute
    with GameStore.open(forum_data_dir(run), "g1", create=False) as store:
        assert (store.config()["tz"], store.config()["forum_tz"]) == ("America/New_York", "UTC")


def forum_data_dir(run):
    import os
    from pathlib import Path

    return Path(os.environ["ASSISTANT_DATA_DIR"])


def test_a_print_view_says_which_topic_address_to_give(forum, run):
    """A forum that answers a topic address with its print view (a mis-pasted link behind
    a shortener): one line naming the page and the topic address to give."""
    from conftest import REALFORUM

    forum.set_page("/index.php?topic=7.0", (REALFORUM / "smf21" / "smf21_printpage.html")
                   .read_bytes())
    code, out, err = run("fetch", forum.base_url + "/index.php?topic=7.0", "--game", "g1",
                         "--delay", "0")
    assert code == 1 and out == "" and err.count("\n") == 1
    assert err.startswith(f"error: {forum.base_url}/index.php?topic=7.0 is the print view of "
                          "“Mafia Game 1 — Day 1”")
    assert f"give the topic's own address instead: {forum.base_url}/index.php?topic=2.0" in err


def test_game_new_keeps_the_zone_fetch_gave_the_game(forum, run, tmp_path):
    """Found by the docs: `fetch --tz Europe/London` then `game new` without --tz set the
    game back to UTC, so every deadline typed after was an hour off in summer. Now the zone
    stays; a different --tz changes it and says so; a game new from nothing is UTC."""
    url = forum.serve_thread("smf", thread_files("smf"))
    players = tmp_path / "players.txt"
    players.write_text("Conia\nKat\n", encoding="utf-8")
    new = ("game", "new", "g1", "--thread", url, "--ruleset", "mafiascum",
           "--players", str(players))
    code, _, err = run("fetch", url, "--game", "g1", "--tz", "Europe/London", "--delay", "0")
    assert code == 0, err
    code, out, err = run(*new, "--json")
    assert (code, err) == (0, "") and json.loads(out)["tz"] == "Europe/London"
    with GameStore.open(tmp_path, "g1", create=False) as store:
        assert store.config()["tz"] == "Europe/London"

    code, _, err = run("fetch", url, "--game", "g2", "--tz", "Europe/London", "--delay", "0")
    assert code == 0, err
    code, out, err = run(*new[:2], "g2", *new[3:], "--tz", "America/New_York")
    assert code == 0 and out.endswith("time zone America/New_York.\n")
    assert err == "note: g2's time zone changes from Europe/London (given to fetch) to " \
        "America/New_York\n"

    code, out, err = run(*new[:2], "g3", *new[3:], "--json")
    assert code == 0 and json.loads(out)["tz"] == "UTC"
