"""What a cycle did for one game (`run --once --json`, the tests) and what the polls did
since the last summary line."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from assistant.alerts import StoredAlert
from assistant.daemon.autopost import AutoPosted
from assistant.daemon.mail import InboxReport
from assistant.daemon.review import HandledEvent
from assistant.models import to_iso
from assistant.poller import PollResult


@dataclass(frozen=True)
class CycleReport:
    """What one cycle did for one game: for `run --once --json` and the tests."""

    game_id: str
    poll: PollResult | None
    """None when the poll failed (`poll_error` says why) or was not run."""
    poll_error: str | None
    new_alerts: tuple[StoredAlert, ...]
    handled: tuple[HandledEvent, ...]
    next_event: datetime | None
    error: str | None = None
    """Why the game could not be reviewed (no players yet, a broken ruleset...): nothing
    was counted, alerted or drafted for it this cycle; the other games still were."""
    auto_post: AutoPosted | None = None
    """What the daemon posted on its own (a game with `--auto-post`), or why it could not."""
    inbox: InboxReport | None = None
    """The GM's inbox read in this cycle, when it was due (`run --once`)."""

    @property
    def failed(self) -> bool:
        """The game could not be handled: its review did not run (a failed poll alone is
        not a failure: what is stored is still reviewed)."""
        return self.error is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game_id,
            "ok": self.error is None and self.poll_error is None,
            "error": self.error,
            "poll": None if self.poll is None else self.poll.to_dict(),
            "poll_error": self.poll_error,
            "new_alerts": [a.to_json() for a in self.new_alerts],
            "events": [e.to_json() for e in self.handled],
            "next_event": to_iso(self.next_event),
            "auto_post": None if self.auto_post is None else self.auto_post.to_json(),
            "inbox": None if self.inbox is None else {
                "accounts": list(self.inbox.accounts), "new": self.inbox.new,
                "others": self.inbox.others, "error": self.inbox.error},
        }

    def summary(self) -> str:
        """One line for `run --once`: what the cycle did for the game, or why it could not."""
        parts = []
        if self.poll is not None:
            parts.append(
                f"{len(self.poll.new)} new, {len(self.poll.changed)} changed, "
                f"{len(self.poll.vanished)} vanished post(s)"
            )
        else:
            parts.append(f"poll failed: {self.poll_error}")
        if self.error is not None:
            parts.append(f"not reviewed: {self.error}")
        else:
            parts.append(f"{len(self.new_alerts)} new alert(s)")
            parts += [f"{e.kind} {e.status}" + (f" -> {e.file}" if e.file else "")
                      for e in self.handled]
        if self.auto_post is not None and (self.auto_post.post_id or self.auto_post.error):
            parts.append(self.auto_post.line())
        if self.inbox is not None:
            parts.append(f"inbox failed: {self.inbox.error}" if self.inbox.error else
                         f"inbox: {self.inbox.new} new message(s) from players")
        return f"{self.game_id}: " + "; ".join(parts)


@dataclass
class PollStats:
    """What the polls did since the last summary line."""

    games: set[str] = field(default_factory=set)
    polls: int = 0
    new: int = 0
    changed: int = 0
    alerts: int = 0
    failed_polls: int = 0
    failed_reviews: int = 0
    busy: int = 0
    """Polls not started because the game's previous one was still running."""
    inbox_reads: int = 0
    """Reads of a GM's inbox (each game's, when due)."""
    inbox_new: int = 0
    inbox_failed: int = 0

    def add(self, report: CycleReport) -> None:
        self.games.add(report.game_id)
        self.polls += 1
        if report.poll is not None:
            self.new += len(report.poll.new)
            self.changed += len(report.poll.changed)
        self.alerts += len(report.new_alerts)
        self.failed_polls += report.poll_error is not None
        self.failed_reviews += report.failed
        if report.inbox is not None:
            self.add_inbox(report.inbox)

    def add_inbox(self, report: InboxReport | None) -> None:
        if report is None:
            return
        self.games.add(report.game_id)
        self.inbox_reads += 1
        self.inbox_new += report.new
        self.inbox_failed += report.error is not None

    def line(self) -> str:
        busy = f", {self.busy} not started (the previous still running)" if self.busy else ""
        inbox = (f"; {self.inbox_reads} inbox read(s): {self.inbox_new} new message(s), "
                 f"{self.inbox_failed} failed" if self.inbox_reads else "")
        return (f"{self.polls} poll(s) of {len(self.games)} game(s){busy}: {self.new} new "
                f"post(s), {self.changed} changed, {self.alerts} alert(s), "
                f"{self.failed_polls} failed poll(s), {self.failed_reviews} failed review(s)"
                f"{inbox}")
