"""An SMF board whose default zone is not UTC, and a GM whose game zone is neither
(issue 10; phpBB's Berlin board is in test_live_faults.py).

The admin sets "Forum default time zone" to Pacific/Auckland (UTC+13 in November) in
SMF's own settings page; guests then see every time in it, "Today" and "Yesterday" by
Auckland's calendar. The GM's game is in America/New_York (UTC-5), 18 hours behind, so
for most of the day Auckland's "today" is New York's "tomorrow". Every post time and
"Last Edit" time the assistant stores must be the moment SMF itself stored (its
`poster_time` / `modified_time`, to the minute SMF prints), whether the GM gave the
board's zone (`--forum-tz`) or not (the zone the page shows), and when the GM reads
logged in as a member whose own zone is a third one (Asia/Kolkata, UTC+5:30).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from cli_support import call
from live_admin import smf_default_zone, smf_member_zone

from assistant.models import from_iso

BOARD_ZONE = "Pacific/Auckland"
GAME_ZONE = "America/New_York"
MEMBER_ZONE = "Asia/Kolkata"
PASSWORD = "Member-pw-zones-2027"
VARIABLE = "LIVE_ZONES_PASSWORD"


@contextmanager
def smf_board_zone(smf, zone: str) -> Iterator[None]:
    smf_default_zone(smf, zone)
    try:
        yield
    finally:
        smf_default_zone(smf, "UTC")


def minute(epoch: str) -> datetime:
    return datetime.fromtimestamp(int(epoch), UTC).replace(second=0)


def test_smf_post_and_edit_times_on_a_board_in_another_zone(
    live_forums, tmp_path, capsys, monkeypatch
):
    smf = live_forums.smf
    host, ann, member = live_forums.names("host", "ann", "member")
    smf.create_members(host, ann)
    smf.create_members(member, password=PASSWORD)
    smf_member_zone(smf, member, MEMBER_ZONE)
    now = datetime.now(UTC).replace(microsecond=0)
    topic, first = smf.new_topic(host, "Auckland day 1", "Day 1 begins.")
    older = smf.reply(ann, topic, "vote host")
    yesterday = smf.reply(host, topic, "A post from the board's yesterday.")
    today = smf.reply(ann, topic, "A post from just now.")
    smf.backdate(first, posted=now - timedelta(days=5, hours=3, minutes=7))
    smf.backdate(older, posted=now - timedelta(days=4, minutes=41))
    smf.backdate(yesterday, posted=now - timedelta(days=1))
    # Edits with SMF's "Last Edit" notice: one made days ago, one today.
    assert smf.edit(ann, older, "vote host, I mean it", notice=True)
    smf.backdate(older, edited=now - timedelta(days=3, hours=11, minutes=2))
    assert smf.edit(ann, today, "A post from just now, edited.", notice=True)
    db = {int(r[0]): (minute(r[1]), minute(r[2]) if r[2] != "0" else None) for r in smf.sql(
        f"SELECT id_msg, poster_time, modified_time FROM smf_messages WHERE id_topic={topic}")}
    assert db[today][1] is not None and db[older][1] is not None

    url = live_forums.topic_url("smf", topic)
    with smf_board_zone(smf, BOARD_ZONE):
        page = smf.page(topic)
        auckland = db[first][0].astimezone(ZoneInfo(BOARD_ZONE))
        assert auckland.strftime("%I:%M %p") in page  # the forum writes Auckland's time
        kolkata = db[first][0].astimezone(ZoneInfo(MEMBER_ZONE)).strftime("%I:%M %p")
        assert kolkata in smf.page(topic, as_member=member) and kolkata not in page
        # The GM who knows the board's zone says so; the one who does not relies on the
        # zone the page shows (its header's <time datetime> beside the same moment as text).
        # A GM logged in as a member whose own zone is Kolkata's (UTC+5:30) sees that zone
        # on every page: the page's header says so too.
        monkeypatch.setenv(VARIABLE, PASSWORD)
        for game, told in (("told", ["--forum-tz", BOARD_ZONE]), ("untold", []),
                           ("member", ["--login", member, "--password-env", VARIABLE])):
            code, out, err = call(capsys, tmp_path, "fetch", url, "--game", game, "--tz",
                                  GAME_ZONE, *told, "--delay", "0")
            assert code == 0, err
    for game in ("told", "untold", "member"):
        code, out, err = call(capsys, tmp_path, "posts", game, "--json")
        assert code == 0, err
        stored = {p["id"]: p for p in json.loads(out)}
        assert set(stored) == set(db)
        for post_id, (posted, edited) in db.items():
            assert from_iso(stored[post_id]["posted_at"]) == posted, (game, post_id)
            edit = stored[post_id]["versions"][-1]["edit"]
            assert (from_iso(edit["at"]) if edit else None) == edited, (game, post_id)
