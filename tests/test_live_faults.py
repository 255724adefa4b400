"""The two faults only a running forum showed (issue 10), each checked on the real forum."""

from __future__ import annotations

import json

from cli_support import call


def test_smf_empty_page_past_a_full_last_page_is_nothing_new(live_forums, tmp_path, capsys):
    """SMF answers the page after a full last page (15, 30, ... posts) with HTTP 200 and no
    posts. Reading it must mean "nothing new", not "this is not a thread"."""
    smf = live_forums.smf
    host, ann = live_forums.names("host", "ann")
    smf.create_members(host, ann)
    topic, _ = smf.new_topic(host, "Exactly thirty", "Day 1 begins.")
    for i in range(2, 2 * smf.per_page + 1):  # 30: page 2 is full and links to page 1
        smf.reply(ann if i % 2 else host, topic, f"post {i}")
    assert len(smf.post_ids(topic)) == 30
    assert 'id="msg_' not in smf.page(topic, 3)  # the forum's own empty page past the end

    url = live_forums.topic_url("smf", topic)
    code, out, err = call(capsys, tmp_path, "fetch", url, "--game", "g", "--delay", "0", "--json")
    assert code == 0, err
    first = json.loads(out)
    assert len(first["new"]) == 30 and first["page_count"] == 2

    code, out, err = call(capsys, tmp_path, "fetch", "--game", "g", "--delay", "0", "--json")
    assert code == 0, err  # before the fix: "... is not an SMF topic page ... Give the URL"
    again = json.loads(out)
    assert again["new"] == [] and again["vanished"] == [] and again["requests"] <= 2

    thirty_first = smf.reply(ann, topic, "post 31")
    code, out, err = call(capsys, tmp_path, "fetch", "--game", "g", "--delay", "0", "--json")
    assert code == 0, err
    assert json.loads(out)["new"] == [thirty_first]
