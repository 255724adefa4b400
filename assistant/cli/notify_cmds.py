"""Commands of issue 24: `notify` (a game's notification targets) and `draft prods`."""

from __future__ import annotations

import os
from datetime import datetime, timedelta
from typing import Any

import click

from assistant.cli import app, common_options, draft
from assistant.cli import cli as root
from assistant.errors import ConfigError
from assistant.models import to_iso
from assistant.phases import format_duration, game_zone, local_text, parse_duration
from assistant.store import GameStore


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
    from assistant.notify.push import POLL_AFTER_KEY
    from assistant.notify.targets import targets_of

    a = app(ctx)
    now = a.clock.now()
    if add_url is None and (min_severity or events or quiet):
        raise click.UsageError("--min-severity, --events and --quiet go with --add URL")
    if sum(x is not None for x in (add_url, remove_key, test_key)) > 1:
        raise click.UsageError("give one of --add, --remove and --test at a time")
    notes: list[str] = []
    with a.open_game(game_id) as store:
        if poll_after is not None:
            seconds = parse_duration(poll_after, where="--poll-after").total_seconds()
            store.update_config(**{POLL_AFTER_KEY: seconds})
        if add_url is not None:
            notes += _add(store, add_url, now, min_severity, events, quiet)
        elif remove_key is not None:
            notes += _remove(store, remove_key, game_id)
        targets = targets_of(store.config())
        if test_key is not None:
            _test(a, store, targets, test_key, now)
            return
        config = store.config()
        rows = _rows(store, targets)
    zone = game_zone(config.get("tz"))
    after = timedelta(seconds=float(config.get(POLL_AFTER_KEY) or 1800))
    doc = {"targets": rows, "poll_after_s": after.total_seconds()}
    a.emit(doc, lambda: "\n".join([*notes, *_list_text(rows, game_id, zone, after)]))


def _add(store: GameStore, url: str, now: datetime, min_severity: str | None,
         events: str | None, quiet: str | None) -> list[str]:
    from assistant.notify.targets import CONFIG_KEY, new_target, targets_of, with_target

    chosen = [e.strip() for e in events.split(",") if e.strip()] if events is not None else None
    target = new_target(url, now, min_severity=min_severity or "warning", events=chosen,
                        quiet=quiet)
    targets, fresh = with_target(targets_of(store.config()), target)
    store.update_config(**{CONFIG_KEY: [t.to_json() for t in targets]})
    notes = [f"{'Added' if fresh else 'Updated'} target {target.id}: {target.url}"]
    unset = [n for n in target.variables if not os.environ.get(n)]
    if unset:
        notes.append(f"note: {', '.join(unset)} not set here: set it where the daemon runs "
                     f"(and here, to send a test with `assistant notify {store.game_id} --test`)")
    elif fresh:
        notes.append(f"Send a test: assistant notify {store.game_id} --test {target.id}")
    return notes


def _remove(store: GameStore, key: str, game_id: str) -> list[str]:
    from assistant.notify.outbox import Outbox
    from assistant.notify.targets import CONFIG_KEY, find_target, targets_of

    targets = targets_of(store.config())
    gone = find_target(targets, key, game_id)
    with store.batch():
        store.update_config(**{CONFIG_KEY: [t.to_json() for t in targets if t.id != gone.id]})
        dropped = Outbox(store).drop_target(gone.id)
    waiting = f" ({dropped} message(s) that waited for it dropped)" if dropped else ""
    return [f"Removed target {gone.id}: {gone.url}{waiting}"]


def _test(a: Any, store: GameStore, targets: list[Any], key: str, now: datetime) -> None:
    from assistant.notify.send import send
    from assistant.notify.targets import find_target

    game_id = store.game_id
    if not targets:
        raise ConfigError(f"game {game_id!r} has no notification target; add one with "
                          f"`assistant notify {game_id} --add URL`")
    chosen = targets if key == "*" else [find_target(targets, key, game_id)]
    zone = game_zone(store.config().get("tz"))
    results = []
    for t in chosen:
        sent = send(t, f"{game_id}: a test from the assistant",
                    f"Notifications of game {game_id} reach you here "
                    f"(sent {local_text(now, zone)}).", "info")
        results.append({"id": t.id, "url": t.url, "arrived": sent.ok, "reason": sent.reason})
    a.emit({"tests": results}, lambda: "\n".join(
        f"{r['id']} {r['url']}: " + ("arrived" if r["arrived"] else f"NOT delivered: {r['reason']}")
        for r in results))
    failed = [r for r in results if not r["arrived"]]
    if failed:
        raise ConfigError(f"{len(failed)} of {len(results)} target(s) did not take the test "
                          "message; fix the URL or the service and test again")


def _rows(store: GameStore, targets: list[Any]) -> list[dict[str, Any]]:
    from assistant.notify.outbox import Outbox

    records = Outbox(store).records()
    rows = []
    for t in targets:
        mine = [r for r in records if r.target == t.id]
        waiting = [r for r in mine if r.delivered_at is None]
        failing = [r for r in waiting if r.error]
        rows.append({
            **t.to_json(),
            "delivered": sum(r.delivered_at is not None for r in mine),
            "waiting": len(waiting),
            "next_try": to_iso(min((r.next_at for r in failing if r.next_at), default=None)),
            "last_error": failing[-1].error if failing else None,
        })
    return rows


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
