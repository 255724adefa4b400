"""The two faults only a running forum showed (issue 10), each checked on the real forum."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

from cli_support import call

from assistant.models import from_iso


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


@contextmanager
def phpbb_board_zone(phpbb, zone: str) -> Iterator[None]:
    """The phpBB board's default zone set as its admin would (ACP / `config:set`), put back
    to UTC afterwards: guests read every time in it."""
    set_config(phpbb, "board_timezone", zone)
    try:
        yield
    finally:
        set_config(phpbb, "board_timezone", "UTC")


def set_config(phpbb, name: str, value: str) -> None:
    subprocess.run(["php", "-d", "date.timezone=UTC", "bin/phpbbcli.php", "--no-ansi",
                    "config:set", name, value], cwd=phpbb.root, check=True,
                   capture_output=True, stdin=subprocess.DEVNULL, timeout=60)


def test_phpbb_edit_times_are_read_in_the_boards_zone(live_forums, tmp_path, capsys):
    """phpBB writes "Last edited by NAME on <time>" as text in the board's zone, with no
    datetime. A Berlin board and a New York game: the edit time must be the real moment,
    learnt from the page, not read as New York time."""
    phpbb = live_forums.phpbb
    host, ann = live_forums.names("host", "ann")
    phpbb.create_members(host, ann)
    topic, first = phpbb.new_topic(host, "Berlin board", "Day 1 begins.")
    reply = phpbb.reply(ann, topic, "vote host")
    assert phpbb.edit(host, first, "Day 1 begins. Deadline Friday.")  # not the last post
    posted, edited = datetime(2026, 11, 20, 9, 0, tzinfo=UTC), datetime(2026, 11, 20, 10, 30,
                                                                        tzinfo=UTC)
    phpbb.backdate(first, posted=posted, edited=edited)
    phpbb.backdate(reply, posted=datetime(2026, 11, 20, 9, 5, tzinfo=UTC))
    url = live_forums.topic_url("phpbb", topic)

    with phpbb_board_zone(phpbb, "Europe/Berlin"):
        assert "11:30 am" in phpbb.page(topic)  # the notice as the forum writes it (UTC+1)
        code, out, err = call(capsys, tmp_path, "fetch", url, "--game", "g", "--tz",
                              "America/New_York", "--delay", "0")
        assert code == 0, err
        code, out, err = call(capsys, tmp_path, "posts", "g", "--json")
    assert code == 0, err
    by_id = {p["id"]: p for p in json.loads(out)}
    assert from_iso(by_id[first]["posted_at"]) == posted
    assert from_iso(by_id[first]["versions"][-1]["edit"]["at"]) == edited
    assert from_iso(by_id[reply]["posted_at"]) == datetime(2026, 11, 20, 9, 5, tzinfo=UTC)
