"""`assistant post`, `send` and `inbox`: the GM's forum account writes the drafts and
reads the GM's private messages (issue 23).

Before each write the command shows exactly what will be written, where and as whom, and
asks (`--yes` for scripts); what was written is stored with the game; nothing is written
twice (see assistant/outbox.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from assistant.cli import AppContext, app, cli, common_options
from assistant.cli.numbers import DELAY, PHASE_NUMBER
from assistant.files import read_text
from assistant.gm_forum import (
    PM_BATCHES,
    POST_DRAFTS,
    account_checks,
    forum_account,
    pm_batch,
    pm_recipients,
    pms_to_send,
    post_checks,
    post_draft_of,
    post_to_thread,
    send_pm_batch,
)
from assistant.phases import parse_duration
from assistant.safe_text import for_terminal
from assistant.scrapers.http import FetchSettings

_yes = click.option("--yes", is_flag=True, help="Do it without asking (for scripts).")
_delay = click.option("--delay", type=DELAY, default=None,
                      help="Seconds between requests to the forum (default 1.5).")


WRITE_RETRIES = 1
"""A page the GM's command reads (a form, the sent box) is asked again once, 2 s later, if
the forum did not answer: a GM at the keyboard learns in seconds, not after the daemon's
half a minute of backoff, that the forum is down (a form itself is never sent twice)."""


def _settings(delay: float | None) -> FetchSettings:
    if delay is None:
        return FetchSettings(retries=WRITE_RETRIES)
    return FetchSettings(delay=max(0.0, delay), retries=WRITE_RETRIES)


def _ask(a: AppContext, preview: str, question: str, yes: bool) -> None:
    """Show what will be written and ask; a no ends the command, nothing written."""
    click.echo(for_terminal(preview), err=a.json_output)
    if yes:
        return
    if not click.confirm(question, default=False, err=True):
        raise click.ClickException("nothing was written (you said no)")


@cli.command("post")
@click.argument("game_id", metavar="GAME")
@click.argument("what", metavar="tally|dusk|dawn|FILE")
@click.option("--day", type=PHASE_NUMBER, help="The day of the tally or dusk (default: "
              "the current one).")
@click.option("--night", type=PHASE_NUMBER, help="The night of the dawn (default: the last "
              "resolved one).")
@click.option("--again", is_flag=True, help="Post it even if the same draft (or this "
              "phase's dusk / dawn) was posted already.")
@_yes
@_delay
@common_options
@click.pass_context
def post_cmd(ctx: click.Context, game_id: str, what: str, day: int | None,
             night: int | None, again: bool, yes: bool, delay: float | None) -> None:
    """Post a draft (tally, dusk, dawn) or a FILE's text into GAME's thread as the GM's
    forum account (the login of `fetch --login`), after showing it and asking."""
    a = app(ctx)
    text = None
    if what not in POST_DRAFTS:
        text = read_text(Path(what), "file to post")
    now = a.clock.now()
    with a.open_game(game_id) as store:
        draft = post_draft_of(store, what, now, day=day, night=night, text=text)
        notes = post_checks(store, draft, again=again)
        config = store.config()
        user = config["login"]["user"]
        preview = "\n".join([
            f"{game_id}: {draft.label}, to be posted in {config['thread_url']} as {user}:",
            "-" * 60, draft.text.rstrip("\n"), "-" * 60, *notes])
        _ask(a, preview, f"Post this as {user}?", yes)
        with forum_account(store, _settings(delay)) as account:
            result = post_to_thread(store, account, draft, a.clock)
    doc = {"game": game_id, "draft": draft.kind, "phase": draft.phase, "number": draft.number,
           "key": draft.key, "post_id": result.post_id, "url": result.url,
           "found_after_failure": result.found_after_failure,
           "waited_s": round(result.waited, 1), "notes": account.notes}
    how = ("found in the thread: an earlier attempt had posted it; not posted again"
           if result.found_after_failure else "posted")
    waited = f" (waited {result.waited:.0f} s for the forum's flood limit)" if result.waited else ""
    a.emit(doc, lambda: "\n".join([*account.notes,
                                   f"{draft.label}: {how} as post {result.post_id}{waited}: "
                                   f"{result.url}"]))


@cli.command("send")
@click.argument("game_id", metavar="GAME")
@click.argument("kind", metavar="|".join(sorted(PM_BATCHES)), type=click.Choice(
    sorted(PM_BATCHES)))
@click.option("--night", type=PHASE_NUMBER, help="result-pms: the night whose PMs to send "
              "(default: the last resolved one).")
@click.option("--since", metavar="DURATION", help="prods: prod who has not posted for this "
              "long (e.g. 48h) instead of the ruleset's window.")
@_yes
@_delay
@common_options
@click.pass_context
def send_cmd(ctx: click.Context, game_id: str, kind: str, night: int | None,
             since: str | None, yes: bool, delay: float | None) -> None:
    """Send GAME's drafted PMs (role PMs, a night's result PMs, prods; one per player)
    through the forum's private messages as the GM's forum account, after showing them
    and asking. A rerun sends only those not sent yet (a prod: once a phase)."""
    a = app(ctx)
    now = a.clock.now()
    window = parse_duration(since, where="--since") if since else None
    with a.open_game(game_id) as store:
        drafts = pm_batch(store, kind, now, night, since=now - window if window else None)
        todo, done = pms_to_send(store, drafts)
        if not todo:
            a.emit({"game": game_id, "kind": kind, "sent": [], "already": [
                d.player for d in done]},
                f"{game_id}: all {len(done)} {kind} were sent already; nothing to send")
            return
        notes = account_checks(store)
        to = pm_recipients(store)
        user = store.config()["login"]["user"]
        if done:
            notes.append(f"already sent (not sent again): "
                                    f"{', '.join(d.player for d in done)}")
        shown = []
        for d in todo:
            who = to.get(d.player)
            name = who.name if who is not None else d.player
            aka = f" (the player {d.player})" if name != d.player else ""
            shown += [f"To: {name}{aka}", f"Subject: {d.subject}", "", d.body.rstrip("\n"),
                      "-" * 60]
        preview = "\n".join([f"{game_id}: {len(todo)} {kind} to send as {user}:", "-" * 60,
                             *shown, *notes])
        _ask(a, preview, f"Send these {len(todo)} PMs as {user}?", yes)

        def progress(draft: Any, pm_id: int) -> None:
            click.echo(f"sent: {draft.player} (PM {pm_id})", err=True)

        with forum_account(store, _settings(delay)) as account:
            report = send_pm_batch(store, account, todo, a.clock, on_sent=progress)
    doc = {"game": game_id, "kind": kind,
           "sent": [{"player": d.player, "pm_id": i} for d, i in report.sent],
           "found_sent": [{"player": d.player, "pm_id": i} for d, i in report.recovered],
           "already": [d.player for d in done],
           "failed": None if report.failed is None else {
               "player": report.failed[0].player, "error": report.failed[1],
               "maybe_sent": report.uncertain},
           "not_sent": [d.player for d in report.not_sent], "notes": account.notes}
    lines = [*account.notes]
    if report.sent:
        lines.append(f"sent: {', '.join(d.player for d, _ in report.sent)}")
    if report.recovered:
        lines.append("found in the sent box (an earlier run had sent them; not sent again): "
                     + ", ".join(d.player for d, _ in report.recovered))
    if report.failed is not None:
        who, why = report.failed
        state = "may have been sent" if report.uncertain else "not sent"
        lines.append(f"stopped at {who.player} ({state}): {why}")
        if report.not_sent:
            lines.append(f"not sent: {', '.join(d.player for d in report.not_sent)}")
        lines.append(f"run `assistant send {game_id} {kind}"
                     + (f" --night {night}" if night is not None else "")
                     + (f" --since {since}" if since is not None else "")
                     + "` again to send the rest: nothing is sent twice")
    a.emit(doc, "\n".join(lines))
    if report.failed is not None:  # what was sent is recorded; the rest is for a rerun
        raise SystemExit(1)
