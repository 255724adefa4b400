"""`assistant inbox`: the PMs players send the GM, and the orders and votes read in them
(issue 23). Reading the inbox writes nothing to the forum, so nothing is asked; each
proposal is accepted, edited or rejected by the GM (`--accept`, `--as`, `--reject`), or
accepted with every other one read without doubt (`--accept-all`)."""

from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo

import click

from assistant.cli import app, cli, common_options
from assistant.cli.numbers import DELAY, SECONDS
from assistant.gm_inbox import (
    accept,
    add_co_gm,
    read_inboxes,
    reject,
    set_inbox_interval,
)
from assistant.gm_inbox import accept_all as accept_every
from assistant.inbox import messages
from assistant.models import to_iso
from assistant.phases import game_zone, local_text
from assistant.proposals import Proposal, proposals
from assistant.safe_text import for_terminal
from assistant.scrapers.http import FetchSettings

READ_RETRIES = 1
"""A page of the inbox is asked again once if the forum did not answer (as `post` does)."""


@cli.command("inbox")
@click.argument("game_id", metavar="GAME")
@click.option("--stored", is_flag=True, help="List what is kept without reading the forum.")
@click.option("--accept", "accepts", metavar="ID", multiple=True,
              help="Accept proposal ID as read (repeatable), or as --as writes it.")
@click.option("--as", "as_line", metavar="LINE",
              help='With one --accept: enter it as this line instead, in the order syntax '
                   '("Conia: protect Kat", "Conia: vote Kat", "Conia: unvote", "Conia: none").')
@click.option("--reject", "rejects", metavar="ID", multiple=True,
              help="Reject proposal ID (repeatable): kept as your decision, the message stays.")
@click.option("--accept-all", is_flag=True,
              help="Accept every open proposal read without doubt.")
@click.option("--co-gm", metavar="USER", help="Also read this co-moderator's inbox (with "
              "--password-env): the same order sent to both GMs is one.")
@click.option("--password-env", metavar="VARIABLE",
              help="With --co-gm: the environment variable holding that account's password.")
@click.option("--every", type=SECONDS, default=None, metavar="SECONDS",
              help="How often the daemon reads this game's inbox (0: never).")
@click.option("--delay", type=DELAY, default=None,
              help="Seconds between requests to the forum (default 1.5).")
@common_options
@click.pass_context
def inbox_cmd(ctx: click.Context, game_id: str, stored: bool, accepts: tuple[str, ...],
              as_line: str | None, rejects: tuple[str, ...], accept_all: bool,
              co_gm: str | None, password_env: str | None, every: float | None,
              delay: float | None) -> None:
    """Read the GM's forum inbox (and each co-moderator's), keep the messages GAME's players
    sent since the game began, and list the orders and votes read in them, each with its
    message; accept, edit or reject them. (Reading marks the messages read on the forum.)"""
    a = app(ctx)
    if as_line is not None and len(accepts) != 1:
        raise click.UsageError("--as goes with exactly one --accept ID")
    if bool(co_gm) != bool(password_env):
        raise click.UsageError("--co-gm USER goes with --password-env VARIABLE")
    deciding = bool(accepts or rejects or accept_all)
    now = a.clock.now()
    doc: dict[str, Any] = {"game": game_id}
    lines: list[str] = []
    with a.open_game(game_id) as store:
        if co_gm and password_env:
            lines.append(add_co_gm(store, co_gm, password_env))
        if every is not None:
            lines.append(set_inbox_interval(store, every))
        reads: list[tuple[str, Any]] = []
        if not (stored or deciding or co_gm or every is not None):
            settings = FetchSettings(retries=READ_RETRIES) if delay is None else FetchSettings(
                delay=max(0.0, delay), retries=READ_RETRIES)
            reads = read_inboxes(store, now, settings)
            doc["read"] = [{"account": user, "new": len(r.new), "others": r.others,
                            "since": to_iso(r.since)} for user, r in reads]
            for user, r in reads:
                left = f" ({r.others} from members who are not players left out)" if r.others \
                    else ""
                since = f" since {local_text(r.since, game_zone(store.config().get('tz')))}" \
                    if r.since else ""
                lines.append(f"{game_id}: {len(r.new)} new message(s) from players in the "
                             f"inbox of {user}{since}{left}")
        decided = []
        for pid in accepts:
            decided.append(accept(store, pid, now, as_line=as_line))
        for pid in rejects:
            decided.append(reject(store, pid, now))
        refused: list[str] = []
        if accept_all:
            done, refused = accept_every(store, now)
            decided += done
            if not done and not refused:
                lines.append(f"{game_id}: no open proposal read without doubt")
        lines += [d.text for d in decided] + [f"Not accepted: {r}" for r in refused]
        doc["decisions"] = [{"id": d.proposal.id, "text": d.text, "stored": d.stored}
                            for d in decided]
        doc["refused"] = refused
        found = proposals(store)
        kept = messages(store)
        zone = game_zone(store.config().get("tz"))
    new = {m.pm_id for _user, r in reads for m in r.new}
    doc["others"] = sum(r.others for _user, r in reads)
    doc["messages"] = [
        {"pm_id": m.pm_id, "player": m.player, "sender": m.sender, "to": m.to,
         "sent_at": to_iso(m.sent_at), "subject": m.subject, "text": m.text,
         "new": m.pm_id in new} for m in kept]
    doc["proposals"] = [p.to_json() for p in found]
    if not deciding:
        lines += listing(game_id, found, zone)
    a.emit(doc, "\n".join(for_terminal(line) for line in lines))


def listing(game_id: str, found: list[Proposal], zone: ZoneInfo) -> list[str]:
    """The proposals as the GM reads them: the open ones in full (the message, what was
    read, why it is doubted or refused, the command that decides it), the others a line."""
    if not found:
        return ["no messages from players kept yet"]
    lines = []
    for p in found:
        when = local_text(p.sent_at, zone) if p.sent_at else "?"
        pms = ", ".join(map(str, p.pm_ids))
        r = p.reading
        what = r.line if r.kind != "none" else "(no order read)"
        head = f"[{p.id}] {p.status:<9} {p.player}  {when}  PM {pms}: {what}"
        if p.status != "open":
            more = f" (input {p.fact})" if p.fact else ""
            more += f", entered as {p.stored_as}" if p.stored_as else ""
            more += f", replaced by {p.replaced_by}" if p.replaced_by else ""
            lines.append(head + more)
            continue
        lines.append(head)
        said = f"{p.subject}: " if p.subject else ""
        lines += [f"      > {line}" for line in (said + p.text).splitlines() if line.strip()]
        if r.refusal is not None and r.kind != "none":
            lines.append(f"      cannot be accepted as read: {r.refusal}")
        lines += [f"      check: {d}" for d in r.doubts]
        if p.replaces:
            lines.append(f"      replaces {p.replaces}")
        if r.sure:
            lines.append(f"      read without doubt: `assistant inbox {game_id} --accept {p.id}` "
                         "(or --accept-all)")
        elif r.kind == "none" or r.refusal is not None:
            lines.append(f"      `assistant inbox {game_id} --accept {p.id} --as \"{p.player}: "
                         f"ABILITY TARGET\"` or `--reject {p.id}`")
        else:
            lines.append(f"      `assistant inbox {game_id} --accept {p.id}` (as read), --as "
                         f"\"...\" or --reject {p.id}")
    return lines
