"""Smoke test of the `live_forums` fixture: one topic on each real forum, read by `assistant
fetch` exactly as a GM would point it at a thread."""

from __future__ import annotations

import json

import pytest
from cli_support import call


@pytest.mark.parametrize("software", ["smf", "phpbb"])
def test_fetch_reads_a_topic_posted_through_the_real_forms(
    live_forums, software, tmp_path, capsys
):
    board = live_forums.forum(software)
    host, ann = live_forums.names("host", "ann")
    board.create_members(host, ann)
    topic, first = board.new_topic(host, "Smoke day 1", "Day 1 begins.")
    reply = board.reply(ann, topic, f'[quote="{host}"]Day 1 begins.[/quote]Hello, [b]town[/b].')

    url = live_forums.topic_url(software, topic)
    code, out, err = call(capsys, tmp_path, "fetch", url, "--game", "g", "--delay", "0")
    assert code == 0, err
    code, out, err = call(capsys, tmp_path, "posts", "g", "--json")
    assert code == 0, err
    posts = json.loads(out)
    assert [(p["id"], p["author"]) for p in posts] == [(first, host), (reply, ann)]
    assert "town" in posts[1]["body_html"]
