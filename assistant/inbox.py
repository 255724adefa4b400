"""The GM's forum inbox: the private messages the game's players sent since the game
began, kept as facts (`inbox_pm`), so they outlive the forum's inbox and a message read
twice is one. Orders and PM votes are derived from them (`messages`), like everything
else: this module reads and keeps, it does not interpret.

    inbox_pm {"pm_id", "player", "sender", "sender_id", "sent_at", "subject", "text",
              "body_html", "read_at", "to"}

The GM's inbox is the game's login's (`fetch --login`) and, for co-moderators, each login
kept with `inbox --co-gm USER --password-env VAR` (`INBOX_LOGINS`): a player who sends
their order to each GM sends two messages, kept both (`proposals.py` reads them as one).

Messages from members who are not players are counted, never stored; the inbox is read
down to the first message older than the game. Reading the inbox through the forum marks
its messages read there, as opening them in a browser would.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from assistant.checks.text import post_text
from assistant.game import Game, load_game
from assistant.models import from_iso, to_iso
from assistant.phases import phases_from_inputs
from assistant.scrapers.pm_pages import PrivateMessage
from assistant.store import GameStore

if TYPE_CHECKING:
    from assistant.outbox import Account

INBOX_PM = "inbox_pm"
INBOX_LOGINS = "inbox_logins"
"""Game config: the co-moderators' logins whose inboxes are read too, each {"user",
"password_env"} (the password only ever in that environment variable)."""
INBOX_INTERVAL = "inbox_interval"
"""Game config: seconds between two reads of the inbox by the daemon (0: never)."""


@dataclass(frozen=True)
class InboxMessage:
    """A PM a player sent the GM, as stored."""

    pm_id: int
    player: str
    """The player's slot (as the players file names it)."""
    sender: str
    """The member who sent it, as the forum names them."""
    sent_at: datetime | None
    subject: str
    text: str
    """The message's visible text, line breaks kept (what an order parser reads)."""
    body_html: str
    read_at: datetime
    """When the assistant first read it."""
    to: str = ""
    """The GM account whose inbox it was read in."""


@dataclass(frozen=True)
class InboxRead:
    """What one read of the inbox found."""

    new: tuple[InboxMessage, ...]
    """Players' messages stored by this read."""
    others: int
    """Messages left out: from members who are not players."""
    since: datetime | None
    """When the game began, as this read took it."""


def game_began(store: GameStore) -> datetime | None:
    """The start of the game's first phase (`assistant phase`), else the thread's opening
    post, else None (every message counts)."""
    phases = phases_from_inputs(store.inputs())
    if phases:
        return min(p.starts_at for p in phases)
    posts = store.posts()
    return min((sp.versions[0].post.posted_at for sp in posts), default=None)


def messages(store: GameStore) -> list[InboxMessage]:
    """The players' messages kept so far, oldest first: what proposals are derived from."""
    out = [_message(i["data"]) for i in store.inputs(INBOX_PM)]
    return sorted(out, key=lambda m: (m.sent_at or m.read_at, m.pm_id))


def _message(d: dict[str, Any]) -> InboxMessage:
    return InboxMessage(
        pm_id=int(d["pm_id"]), player=d["player"], sender=d["sender"],
        sent_at=from_iso(d.get("sent_at")), subject=d.get("subject", ""),
        text=d.get("text", ""), body_html=d.get("body_html", ""),
        read_at=from_iso(d["read_at"]),  # type: ignore[arg-type]
        to=str(d.get("to") or ""),
    )


def player_of(game: Game, pm: PrivateMessage, ids: dict[int, str]) -> str | None:
    """The slot of a message's sender: by the member id the thread showed for the slot,
    else by name (aliases and replacements included)."""
    if pm.sender_id is not None and pm.sender_id in ids:
        return ids[pm.sender_id]
    return game.slot_of_author(pm.sender) if pm.sender else None


def read_inbox(store: GameStore, account: Account, now: datetime) -> InboxRead:
    """Read the GM's inbox (newest first, down to what is known or older than the game)
    and keep the players' messages not kept yet."""
    game = load_game(store)
    ids = {}
    for sp in store.posts():
        slot = game.slot_of_author(sp.latest.author)
        if slot is not None and sp.latest.author_id is not None:
            ids[sp.latest.author_id] = slot
    known = {m.pm_id for m in messages(store)}
    since = game_began(store)
    found = account.writer.read_folder(
        "inbox", since=since, known=known,
        want=lambda pm: player_of(game, pm, ids) is not None)
    new, others = [], 0
    for pm in sorted(found, key=lambda p: p.pm_id):
        player = player_of(game, pm, ids)
        if player is None:
            others += 1
            continue
        if since is not None and pm.sent_at is not None and pm.sent_at < since:
            continue
        if pm.pm_id in known or pm.body_html is None:
            continue
        new.append({
            "pm_id": pm.pm_id, "player": player, "sender": pm.sender,
            "sender_id": pm.sender_id, "sent_at": to_iso(pm.sent_at),
            "subject": pm.subject, "text": post_text(pm.body_html),
            "body_html": pm.body_html, "read_at": to_iso(now), "to": account.user,
        })
    if new:
        with store.batch():
            for data in new:
                store.add_input(INBOX_PM, data, now)
    return InboxRead(tuple(_message(d) for d in new), others, since)


def inbox_logins(config: dict[str, Any]) -> list[dict[str, Any]]:
    """Every login whose inbox is read: the game's own (`fetch --login`), then the
    co-moderators' (`INBOX_LOGINS`); none without the game's own."""
    own = config.get("login") or {}
    if not own.get("user"):
        return []
    return [dict(own), *[dict(e) for e in config.get(INBOX_LOGINS) or ()
                         if e.get("user") and e.get("user") != own.get("user")]]
