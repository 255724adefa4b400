"""What the GM does with the inbox's proposals (`assistant inbox GAME --accept / --reject /
--accept-all`, and the dashboard's Accept / Reject): each accepted proposal is stored the
way a typed order or PM vote is (`gm.enter_order_lines`, `gm.enter_pm_vote`: the same
checks, the same facts), with where it came from; a rejected one is a fact of its own.

Nothing is accepted that the GM did not choose: `--accept-all` takes only the proposals
read without doubt, and a proposal the parser refused, or that holds no order, is entered
only as the GM writes it (`--as "Conia: protect Kat"`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from assistant.errors import AssistantError, ProposalError
from assistant.gm import enter_order_lines, enter_pm_vote
from assistant.proposals import (
    INBOX_REJECT,
    SOURCE,
    Proposal,
    find,
    phase_for_line,
    proposals,
    reading_context,
)
from assistant.store import GameStore

if TYPE_CHECKING:
    from assistant.inbox import InboxRead
    from assistant.scrapers.http import Fetcher, FetchSettings

_VOTE_LINE = re.compile(r"^\s*(?P<voter>[^:]+?)\s*:\s*(?P<un>un)?vote\b[\s:]*(?P<target>.*?)\s*$",
                        re.IGNORECASE)


@dataclass(frozen=True)
class Decision:
    """What one accept or reject did, in one line for the GM."""

    proposal: Proposal
    text: str
    stored: dict[str, Any] | None = None
    """The order or vote stored (None for a rejection)."""


def accept(store: GameStore, pid: str, now: datetime, *, as_line: str | None = None) -> Decision:
    """Accept proposal `pid` as read, or as the GM wrote it (`as_line`, in the parser's
    syntax: "Conia: protect Kat", "Conia: vote Kat", "Conia: unvote", "Conia: none")."""
    found = proposals(store)
    return _accept(store, find(found, pid, store.game_id), now, as_line)


def accept_all(store: GameStore, now: datetime) -> tuple[list[Decision], list[str]]:
    """Accept every open proposal read without doubt, oldest first; each refused one (the
    game changed since it was read) is said, the others still accepted."""
    done, refused = [], []
    for p in [p for p in proposals(store) if p.sure]:
        current = find(proposals(store), p.id, store.game_id)
        if not current.sure:
            continue
        try:
            done.append(_accept(store, current, now, None))
        except AssistantError as e:
            refused.append(f"{p.id}: {e}")
    return done, refused


def reject(store: GameStore, pid: str, now: datetime) -> Decision:
    """Reject proposal `pid`: kept as the GM's decision, the message stays listed."""
    p = find(proposals(store), pid, store.game_id)
    game = store.game_id
    if p.status in ("accepted", "entered"):
        raise ProposalError(
            f"proposal {p.id} was {p.status} already (input {p.fact}): `assistant undo {game} "
            f"{p.fact}` withdraws it")
    if p.status == "rejected":
        raise ProposalError(f"proposal {p.id} was rejected already (input {p.fact})")
    store.add_input(INBOX_REJECT, {"proposal": p.id, "pm_id": p.pm_ids[0]}, now)
    return Decision(p, f"Rejected {p.id} ({p.player}, PM {p.pm_ids[0]}): {_what(p)}.")


def _what(p: Proposal) -> str:
    r = p.reading
    return r.line or (f"no order: {r.quote!r}" if r.quote else "no order")


def _accept(store: GameStore, p: Proposal, now: datetime, as_line: str | None) -> Decision:
    game = store.game_id
    r = p.reading
    if p.status in ("accepted", "rejected", "entered"):
        how = "typed as the same order" if p.status == "entered" else p.status
        raise ProposalError(
            f"proposal {p.id} was {how} already (input {p.fact}): `assistant undo {game} "
            f"{p.fact}` withdraws that first")
    if as_line is None:
        if p.status == "replaced":
            raise ProposalError(
                f"proposal {p.id} ({r.line}) was replaced by {p.replaced_by}, a later message "
                f"of {p.player} for the same {r.phase}: accept {p.replaced_by}, or give --as "
                f"to enter {p.id} anyway")
        if r.kind == "none":
            raise ProposalError(
                f"proposal {p.id} holds no order ({r.quote!r}): give --as \"NAME: ABILITY "
                f"TARGET\" to enter what it says, or --reject {p.id}")
        if r.refusal is not None:
            raise ProposalError(
                f"proposal {p.id} cannot be accepted as read: {r.refusal}; give --as "
                f"\"NAME: ABILITY TARGET\" to enter it as you read it, or --reject {p.id}")
    line = (as_line or r.line).strip()
    origin: dict[str, Any] = {"source": SOURCE, "pm_id": p.pm_ids[0], "proposal": p.id}
    if len(p.pm_ids) > 1:
        origin["pm_ids"] = list(p.pm_ids)
    head = f"Accepted {p.id} ({p.player}, PM {', '.join(map(str, p.pm_ids))})"
    vote = _VOTE_LINE.match(line)
    if vote is not None:
        target = vote.group("target") or None
        data, said = enter_pm_vote(
            store, vote.group("voter"), None if vote.group("un") else target,
            unvote=bool(vote.group("un")), at_text=None, now=now, at=p.sent_at, origin=origin)
        return Decision(p, f"{head}: {said}", data)
    if r.kind == "order" and r.phase is not None and as_line is None:
        phase, number = r.phase, int(r.number or 0)
    else:
        phase, number = phase_for_line(reading_context(store), line, p.sent_at or now)
    done = enter_order_lines(store, [line], now, night=number if phase == "night" else None,
                             day=number if phase == "day" else None, origin=origin)
    stored = ", ".join(o.label() for o in done.orders) or "; ".join(done.said)
    note = ""
    if p.replaces is not None:
        note = f" (replaces {p.replaces}: the later order stands)"
    return Decision(p, f"{head}: stored for {done.phase} {done.number}: {stored}{note}.",
                    {"phase": done.phase, "number": done.number,
                     "orders": [o.to_dict() for o in done.orders]})


# ---- reading the GM's inboxes ------------------------------------------------------------


def read_inboxes(store: GameStore, now: datetime, settings: FetchSettings | None = None,
                 fetcher: Fetcher | None = None) -> list[tuple[str, InboxRead]]:
    """Read the inbox of the game's login and of each co-moderator's (`add_co_gm`), each
    logged in on its own; the players' messages kept, each once."""
    from assistant.inbox import inbox_logins, read_inbox
    from assistant.outbox import login_of, open_account

    entries = inbox_logins(store.config())
    if not entries:
        login_of(store)  # the one line that says how to log in
    out = []
    for entry in entries:
        with open_account(store, settings=settings, fetcher=fetcher, entry=entry) as account:
            out.append((account.user, read_inbox(store, account, now)))
    return out


def add_co_gm(store: GameStore, user: str, password_env: str) -> str:
    """Keep a co-moderator's login whose inbox is read too (the password stays in the
    environment variable); the account is one of the game's GMs (its posts are the host's),
    never a player's."""
    from assistant.inbox import INBOX_LOGINS
    from assistant.outbox import gm_account_check

    game = store.game_id
    if not store.config().get("login", {}).get("user"):
        raise ProposalError(
            f"game {game!r} has no forum login yet: log in as your own account first "
            f"(`assistant fetch --game {game} --login USER --password-env VARIABLE`), then "
            "add the co-moderator's")
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", password_env):
        raise ProposalError(f"--password-env {password_env!r}: give the NAME of an environment "
                            "variable holding the password, never the password")
    added = gm_account_check(store, user, add=True)
    kept = [e for e in store.config().get(INBOX_LOGINS) or () if e.get("user") != user]
    store.update_config(**{INBOX_LOGINS: [*kept, {"user": user, "password_env": password_env}]})
    line = f"{game}: the inbox of {user} is read too (password from ${password_env})"
    return f"{line}; {added}" if added else line


def set_inbox_interval(store: GameStore, seconds: float) -> str:
    """How often the daemon reads the game's inbox (0: never)."""
    from assistant.inbox import INBOX_INTERVAL

    store.update_config(**{INBOX_INTERVAL: float(seconds)})
    if not seconds:
        return f"{store.game_id}: the daemon does not read the inbox (`inbox` still does)"
    return f"{store.game_id}: the daemon reads the inbox every {seconds:g} s"
