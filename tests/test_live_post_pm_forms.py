"""The GM's writes through the real SMF 2.1.5 and phpBB 3.3.10 forms (scrapers/writing.py):
a reply found back in the thread, a reply sent again after "new replies while you were
typing", a reply and a PM held back by the forum's flood limit and sent after the wait, a
PM read by its recipient in their own inbox (forum.py) and found in the GM's sent box, the
GM's inbox read, and the refusals (a locked topic, a captcha, an unknown recipient) as one
line naming them. The forum's flood settings are changed through its admin tools for one
test and put back."""

from __future__ import annotations

import math
import re
import time
from datetime import UTC, datetime

import pytest
from live_admin import lock_topic, phpbb_config, smf_setting

from assistant.errors import WriteRefusedError
from assistant.scrapers import thread_url_info
from assistant.scrapers.http import Fetcher, FetchSettings, guarded_client
from assistant.scrapers.login import login
from assistant.scrapers.writing import (
    MIN_FORM_AGE,
    PHPBB_FLOOD_STEPS,
    ForumWriter,
    Recipient,
)

PASSWORD = "gm-Pa55word-live"


class Interposing(Fetcher):
    """A fetcher that lets `before` run once, just before the first form it posts that
    matches `marker` (a member replying while the GM's form is open)."""

    def __init__(self, marker: str, before) -> None:  # noqa: ANN001
        super().__init__(guarded_client(), FetchSettings(delay=0))
        self.marker, self.before = marker, before

    def post(self, url, data, **kwargs):  # noqa: ANN001, ANN201
        if self.before is not None and self.marker in url:
            before, self.before = self.before, None
            before()
        return super().post(url, data, **kwargs)


def gm_writer(live, software: str, topic: int, gm: str,
              fetcher: Fetcher | None = None) -> ForumWriter:
    ref = thread_url_info(live.topic_url(software, topic))
    fetcher = fetcher or Fetcher(guarded_client(), FetchSettings(delay=0))
    login(fetcher, ref, gm, PASSWORD)
    return ForumWriter(fetcher, ref, tz=UTC, now=lambda: datetime.now(UTC))


@pytest.mark.parametrize("software", ["smf", "phpbb"])
def test_post_reply_resent_after_new_replies_and_found_back(live_forums, software):
    board = live_forums.forum(software)
    gm, ann = live_forums.names("gmpost", "annpost")
    board.create_members(gm, password=PASSWORD)
    board.create_members(ann)
    topic, first = board.new_topic(ann, "Posting game", "Signups. [b]vote nobody[/b]")
    typed = []
    marker = "post2" if software == "smf" else "posting.php"
    fetcher = Interposing(marker, lambda: typed.append(board.reply(ann, topic, "Meanwhile.")))
    writer = gm_writer(live_forums, software, topic, gm, fetcher)
    body = "[b]Vote count, Day 1[/b]\nannpost (1): gmpost :)\n[i]Not voting: none[/i] & <b>"

    done = writer.reply(body)

    assert typed, "a member replied while the GM's form was open"
    ids = board.post_ids(topic)
    assert ids == [first, typed[0], done.id]  # sent again after the forum's warning: once
    assert writer.identity is not None and writer.identity.member_id == board.member_id(gm)
    found = writer.find_reply(body, first)
    assert found is not None and found.id == done.id
    assert writer.find_reply(body + " changed", first) is None
    assert writer.find_reply(body, None).id == done.id  # the last page, when no anchor is known


class ForumClock:
    """The writer's clock, its waits taken on the forum's clock: a flood wait moves the
    forum's record of the account's last write back by as long (SMF's flood log, phpBB's
    last post time) instead of the test sleeping it out, so the forum's answer does not
    depend on how fast the machine is. A form's one-second age is slept: phpBB checks it
    against its own clock."""

    def __init__(self, board, software: str, member: str) -> None:  # noqa: ANN001
        self.board, self.software, self.member = board, software, member
        self.offset = 0.0
        self.waits: list[float] = []

    def monotonic(self) -> float:
        return time.monotonic() + self.offset

    def sleep(self, seconds: float) -> None:
        if seconds <= MIN_FORM_AGE:
            time.sleep(seconds)
            return
        self.waits.append(seconds)
        self.offset += seconds
        self.age(math.ceil(seconds))

    def age(self, seconds: int) -> None:
        """The forum's record of the account's last write, `seconds` earlier."""
        if self.software == "smf":
            self.board.sql(f"UPDATE smf_log_floodcontrol SET log_time = log_time - {seconds}")
        else:
            self.board.sql(f"UPDATE phpbb_users SET user_lastpost_time = user_lastpost_time "
                           f"- {seconds} WHERE user_id = {self.board.member_id(self.member)}")


@pytest.mark.parametrize("software", ["smf", "phpbb"])
def test_post_and_pm_flood_limited_are_sent_after_the_wait(live_forums, software):
    """SMF says "less than N seconds ago" and counts from the refused attempt; phpBB says
    "so soon after your last" and never how long. Both are waited out (on the forum's
    clock, ForumClock), then sent, once each."""
    board = live_forums.forum(software)
    gm, ann = live_forums.names("gmflood", "annflood")
    board.create_members(gm, password=PASSWORD)
    board.create_members(ann)
    topic, first = board.new_topic(ann, "Flood game", "Day 1 begins.")
    clock = ForumClock(board, software, gm)
    fetcher = Fetcher(guarded_client(), FetchSettings(delay=0), sleep=clock.sleep,
                      monotonic=clock.monotonic)
    writer = gm_writer(live_forums, software, topic, gm, fetcher)
    limit = 30
    if software == "smf":
        before = smf_setting(board, "postsettings;sa=posts", "spamWaitTime", str(limit))
    else:
        phpbb_config(board, "flood_interval", str(limit))
    try:
        one = writer.reply("First of two posts in a row.")
        # SMF logs a write's whole second, and a second write within that second leaves
        # its row unchanged (MariaDB's REPLACE counts one row): not refused. The first
        # post is made a second older, so the next is refused however soon it comes.
        clock.age(1)
        two = writer.reply("Second of two posts in a row.")
        waits = list(clock.waits)
        pm = writer.send_pm(Recipient(ann), "Flood PM", "A PM right after two posts.")
        pm_waits = clock.waits[len(waits):]
    finally:
        if software == "smf":
            smf_setting(board, "postsettings;sa=posts", "spamWaitTime", before)
        else:
            phpbb_config(board, "flood_interval", "0")
    assert board.post_ids(topic) == [first, one.id, two.id]  # each once
    assert one.waited == 0 and two.waited == pytest.approx(sum(waits))
    if software == "smf":
        assert waits == [limit + 1.0]  # "less than 30 seconds ago": 30 s + 1, once
    else:  # never said how long: 2, 3, 5, 8, 13 s, until the forum's 30 s have passed
        assert waits == list(PHPBB_FLOOD_STEPS[:len(waits)]) and limit <= sum(waits) + 1
    assert pm.id > 0 and pm.waited > 0 and pm.waited == pytest.approx(sum(pm_waits))  # the gap kept
    print(f"{software}: the second post waited {waits}, the PM {pm_waits} (forum's clock)")


@pytest.mark.parametrize("software", ["smf", "phpbb"])
def test_pm_sent_read_by_its_recipient_and_the_gm_inbox_read(live_forums, software):
    board = live_forums.forum(software)
    gm, ann, bob, eve = live_forums.names("gmpm", "annpm", "bobpm", "evepm")
    board.create_members(gm, password=PASSWORD)
    board.create_members(ann, bob, eve)
    topic, _first = board.new_topic(ann, "PM game", "Day 1 begins.")
    writer = gm_writer(live_forums, software, topic, gm)

    to_ann = writer.send_pm(Recipient(ann, board.member_id(ann)), "PM game: results of Night 1",
                            "You investigated [b]bobpm[/b]: [i]Town[/i].")
    to_bob = writer.send_pm(Recipient(bob), "PM game: results of Night 1", "You were healed.")
    assert to_bob.id > to_ann.id

    # Each recipient reads it in their own inbox, through the forum's own pages.
    box = "index.php?action=pm" if software == "smf" else f"ucp.php?i=pm&mode=view&p={to_ann.id}"
    _url, page = board.fetch(box, as_member=board._session(ann).name)
    assert "You investigated" in page and "PM game: results of Night 1" in page
    assert "You were healed" not in page
    # The sent box shows both; a text never sent is not found.
    assert writer.find_sent_pm(Recipient(bob), "PM game: results of Night 1",
                               "You were healed.").id == to_bob.id
    assert writer.find_sent_pm(Recipient(ann), "PM game: results of Night 1",
                               "You were healed.") is None

    # The GM's inbox: players' and others' messages, newest first, each with its text.
    board.send_pm(ann, gm, "Night 1 action", "I'd like to protect [b]bobpm[/b] tonight.")
    board.send_pm(eve, gm, "Hello", "Not in the game, just saying hi.")
    inbox = writer.read_folder("inbox")
    assert [(m.sender, m.subject) for m in inbox] == [(eve, "Hello"), (ann, "Night 1 action")]
    assert inbox[0].pm_id > inbox[1].pm_id
    mine = inbox[1]
    assert mine.sender_id == board.member_id(ann)
    assert re.sub(r"<[^>]+>", "", mine.body_html or "") == "I'd like to protect bobpm tonight."
    assert mine.sent_at is not None
    assert abs((datetime.now(UTC) - mine.sent_at).total_seconds()) < 180
    # A second read that knows both ids opens nothing and stops at once.
    before = writer.fetcher.requests
    assert writer.read_folder("inbox", known={m.pm_id for m in inbox}) == []
    assert writer.fetcher.requests - before == 1


def one_line(e: pytest.ExceptionInfo, *words: str) -> str:
    text = str(e.value)
    assert "\n" not in text and all(w in text for w in words), text
    return text


@pytest.mark.parametrize("software", ["smf", "phpbb"])
def test_post_refused_by_a_locked_topic_and_pm_to_an_unknown_member(live_forums, software):
    board = live_forums.forum(software)
    gm, ann = live_forums.names("gmlock", "annlock")
    board.create_members(gm, password=PASSWORD)
    board.create_members(ann)
    topic, first = board.new_topic(ann, "Locked game", "Day 1 begins.")
    writer = gm_writer(live_forums, software, topic, gm)
    lock_topic(board, topic)
    with pytest.raises(WriteRefusedError) as e:
        writer.reply("This must not appear.")
    assert e.value.kind == "locked"
    one_line(e, "not written", "the topic is locked", "the forum says")
    assert board.post_ids(topic) == [first]
    with pytest.raises(WriteRefusedError) as e:
        writer.send_pm(Recipient("nobody-" + gm), "Results", "For nobody.")
    assert e.value.kind == "recipient"
    one_line(e, "nobody-" + gm)
    if software == "smf":  # SMF asks members with few posts for a captcha when set to
        topic2, _ = board.new_topic(ann, "Captcha game", "Day 1 begins.")
        writer2 = gm_writer(live_forums, software, topic2, gm)
        was = board.sql("SELECT value FROM smf_settings WHERE variable='posts_require_captcha'")
        before = smf_setting(board, "antispam", "posts_require_captcha", "5")
        try:
            with pytest.raises(WriteRefusedError) as e:
                writer2.reply("This needs a captcha.")
        finally:
            # (unset before: SMF's form then keeps -1, a captcha for guests only)
            smf_setting(board, "antispam", "posts_require_captcha", before,
                        was[0][0] if was else "-1")
        assert e.value.kind == "captcha"
        one_line(e, "captcha")
