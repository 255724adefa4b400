"""A game's topic deleted by a moderator on the real SMF and phpBB: the next fetch says
so in one line and keeps every post already stored (issue 10's "what a running forum
shows that no fixture does").

SMF shows a guest the same login form for a deleted topic as for a members-only board
("The topic or board you are looking for appears to be either missing or off limits to
you."), and answers a logged-in member HTTP 403; phpBB answers HTTP 404. The error quotes
what the forum said and names both causes where the forum cannot tell them apart.
"""

from __future__ import annotations

import json

import pytest
from cli_support import call
from live_admin import delete_topic

PASSWORD = "Gm-pass-2027-live"
VARIABLE = "LIVE_DELETED_PASSWORD"


def one_line(code: int, out: str, err: str) -> str:
    assert code == 1 and "Traceback" not in out + err, (code, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


@pytest.mark.parametrize("software", ["smf", "phpbb"])
def test_a_deleted_topic_is_one_line_and_nothing_stored_is_lost(
    live_forums, software, tmp_path, capsys, monkeypatch
):
    board = live_forums.forum(software)
    host, ann = live_forums.names("host", "ann")
    board.create_members(host, password=PASSWORD)
    board.create_members(ann)
    topic, first = board.new_topic(host, "Soon deleted", "Day 1 begins.")
    reply = board.reply(ann, topic, f"[b]vote {host}[/b]")
    url = live_forums.topic_url(software, topic)
    code, out, err = call(capsys, tmp_path, "fetch", url, "--game", "g", "--delay", "0")
    assert code == 0, err
    monkeypatch.setenv(VARIABLE, PASSWORD)
    code, out, err = call(capsys, tmp_path, "fetch", url, "--game", "m", "--delay", "0",
                          "--login", host, "--password-env", VARIABLE)
    assert code == 0, err

    delete_topic(board, topic)

    guest = one_line(*call(capsys, tmp_path, "fetch", "--game", "g", "--delay", "0"))
    member = one_line(*call(capsys, tmp_path, "fetch", "--game", "m", "--delay", "0"))
    for line in (guest, member):
        assert "deleted or moved" in line and "check the address" in line
    if software == "smf":
        assert "missing or off limits to you" in guest and "--login USER" in guest
        assert "HTTP 403" in member
    else:
        assert "HTTP 404" in guest and "HTTP 404" in member
    for game in ("g", "m"):
        code, out, err = call(capsys, tmp_path, "--json", "posts", game)
        assert code == 0, err
        assert [p["id"] for p in json.loads(out)] == [first, reply]
