"""A GM told that the thread cannot be read is told, once, when it is read again ("the
thread is read again since 12:50"); a failure too short to be told is not followed by
good news about it. The daemon polls thread B served on 127.0.0.1 by a forum that answers
503 for a while; the notifications go to an HTTP receiver on 127.0.0.1; the test's clock."""

from __future__ import annotations

from datetime import timedelta

from daemon_support import serve, setup_store, snapshots, thread_url
from forum_server import Answer, running_forum
from notify_support import FORUM, cli, make_daemon
from receivers import json_receiver

from assistant.clock import FakeClock


def test_polls_working_again_after_a_failure_notice_are_told_once(
        tmp_path, capsys, monkeypatch) -> None:
    snaps = snapshots(FORUM)
    start = snaps[-1].saved_at + timedelta(minutes=5)
    clock = FakeClock(start)
    data = tmp_path / "data"
    with running_forum() as server, json_receiver() as hook:
        serve(server, FORUM, snaps[-1], snaps)
        setup_store(data, FORUM, thread_url(server, FORUM))
        cli(capsys, monkeypatch, data, start, "notify", "thread-b", "--add", hook.url(),
            "--events", "polls")
        daemon = make_daemon(data, clock)

        def tick_at(minutes: int, *, down: bool) -> None:
            clock.set(start + timedelta(minutes=minutes))
            server.queued.clear()
            if down:  # every page of the forum answers "503 Service Unavailable"
                for path in list(server.pages):
                    server.queue(path, *[Answer(503, b"<html>Service Unavailable</html>")] * 20)
            report = daemon.cycle("thread-b")
            assert (report.poll_error is not None) == down, report.poll_error

        tick_at(0, down=False)
        tick_at(10, down=True)   # failing since +10 min
        tick_at(25, down=True)   # 15 min: not yet told
        assert hook.inbox.titles() == []
        tick_at(45, down=True)   # 35 min: told
        tick_at(55, down=False)  # read again
        tick_at(65, down=False)
        tick_at(75, down=True)   # a short failure: never told, so no news of its end either
        tick_at(85, down=False)
        tick_at(95, down=False)

    back = start + timedelta(minutes=55)
    assert hook.inbox.titles() == [
        "Chat Mafia: the thread cannot be read (for 35 min)",
        f"Chat Mafia: the thread is read again since {back:%H:%M}",
    ]
    failed = start + timedelta(minutes=10)
    assert hook.inbox.messages[1]["body"] == (
        f"It could not be read for 45 min, from {failed:%a %d %b %Y %H:%M} UTC; the posts "
        "made meanwhile are read now.\nThe count: assistant count thread-b")
