"""Commands of issue 24: `notify` (a game's notification targets) and `draft prods`."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import click

from assistant.cli import app, common_options, draft
from assistant.cli import cli as root
from assistant.errors import ConfigError
from assistant.phases import format_duration, game_zone, local_text, parse_duration


@root.command("notify")
@click.argument("game_id", metavar="GAME")
@click.option("--add", "add_url", metavar="URL",
              help="Add (or update) a target: an Apprise URL, each secret as {env:NAME}.")
@click.option("--min-severity", type=click.Choice(["violation", "warning", "info"]),
              default=None, help="With --add: the lowest alert severity sent (default warning).")
@click.option("--events", metavar="LIST",
              help="With --add: what is sent, of alerts,hammer,deadline,orders,polls "
                   "(default all).")
@click.option("--quiet", metavar="HH:MM-HH:MM",
              help="With --add: quiet hours in the game's zone; all but violations wait for "
                   "their end and go out as one digest.")
@click.option("--remove", "remove_key", metavar="ID|URL", help="Remove a target.")
@click.option("--test", "test_key", is_flag=False, flag_value="*", default=None,
              metavar="[ID]", help="Send a test message to every target (or one) and say "
                                   "whether it arrived.")
@click.option("--list", "list_", is_flag=True, help="List the targets (the default).")
@click.option("--poll-after", metavar="DURATION",
              help="Tell the GM when polls have failed this long (default 30m).")
@common_options
@click.pass_context
def notify_cmd(  # noqa: PLR0913 - the options of a target
    ctx: click.Context,
    game_id: str,
    add_url: str | None,
    min_severity: str | None,
    events: str | None,
    quiet: str | None,
    remove_key: str | None,
    test_key: str | None,
    list_: bool,
    poll_after: str | None,
) -> None:
    """Where the daemon tells the GM of alerts, hammers, deadlines, missing orders and
    failing polls: Discord, Slack, Telegram, e-mail... any Apprise URL.

    \b
    assistant notify g1 --add "discord://WEBHOOK_ID/{env:DISCORD_TOKEN}"
    assistant notify g1 --min-severity violation --quiet 23:00-07:00 \\
        --add "mailtos://me:{env:SMTP_PASSWORD}@smtp.example.org?to=me@example.org"
    assistant notify g1 --test
    """
    from assistant.notify.manage import (
        add_target,
        remove_target,
        send_test,
        send_test_text,
        set_poll_after,
        target_rows,
    )
    from assistant.notify.push import POLL_AFTER_KEY

    a = app(ctx)
    now = a.clock.now()
    if add_url is None and (min_severity or events or quiet):
        raise click.UsageError("--min-severity, --events and --quiet go with --add URL")
    if sum(x is not None for x in (add_url, remove_key, test_key)) > 1:
        raise click.UsageError("give one of --add, --remove and --test at a time")
    notes: list[str] = []
    with a.open_game(game_id) as store:
        if poll_after is not None:
            set_poll_after(store, poll_after)
        if add_url is not None:
            notes += add_target(store, add_url, now, min_severity=min_severity,
                                events=events, quiet=quiet)
        elif remove_key is not None:
            notes.append(remove_target(store, remove_key))
        if test_key is not None:
            results = send_test(store, test_key, now)
            a.emit({"tests": results}, lambda: send_test_text(results))
            failed = [r for r in results if not r["arrived"]]
            if failed:
                raise ConfigError(f"{len(failed)} of {len(results)} target(s) did not take "
                                  "the test message; fix the URL or the service and test again")
            return
        config = store.config()
        rows = target_rows(store)
    zone = game_zone(config.get("tz"))
    after = timedelta(seconds=float(config.get(POLL_AFTER_KEY) or 1800))
    doc = {"targets": rows, "poll_after_s": after.total_seconds()}
    a.emit(doc, lambda: "\n".join([*notes, *_list_text(rows, game_id, zone, after)]))


def _list_text(rows: list[dict[str, Any]], game_id: str, zone: Any,
               after: timedelta) -> list[str]:
    from assistant.models import from_iso

    if not rows:
        return [f"No notification targets for {game_id}: add one with "
                f"`assistant notify {game_id} --add URL` (Apprise URLs; secrets as {{env:NAME}})."]
    lines = []
    for r in rows:
        quiet = f", quiet {r['quiet']}" if r["quiet"] else ""
        lines.append(f"{r['id']}  {r['url']}")
        lines.append(f"    {','.join(r['events'])}; alerts from {r['min_severity']}{quiet}; "
                     f"{r['delivered']} delivered, {r['waiting']} waiting")
        if r["last_error"]:
            at = from_iso(r["next_try"])
            when = f" (next try {local_text(at, zone)})" if at else ""
            lines.append(f"    last try failed{when}: {r['last_error']}")
    lines.append(f"Polls failing for {format_duration(after)} are told "
                 f"(--poll-after to change).")
    return lines


@draft.command("prods")
@click.argument("game_id", metavar="GAME")
@click.option("--since", metavar="DURATION",
              help="Prod who has not posted for this long (e.g. 48h) instead of the "
                   "ruleset's window.")
@common_options
def draft_prods(game_id: str, since: str | None) -> None:
    """A prod PM for each living player who has not posted (or voted) as the ruleset asks,
    in its words."""
    from assistant.gm import prod_drafts

    a = app(click.get_current_context())
    now = a.clock.now()
    window = parse_duration(since, where="--since") if since else None
    with a.open_game(game_id) as store:
        pms = prod_drafts(store, now, since=now - window if window else None)
    a.emit(pms, lambda: "\n---\n".join(v.rstrip("\n") for v in pms.values())
           or "Nobody to prod: everyone has posted (and voted) as the ruleset asks.")
