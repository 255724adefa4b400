"""Commands of issue 4: `run` (the daemon), `phase`, `kill`, `alerts`."""

from __future__ import annotations

import os
import re
import sys
from datetime import timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import click

from assistant.alerts import AlertLog, StoredAlert, most_severe_first
from assistant.cli import AppContext, app, cli, common_options
from assistant.cli.numbers import (
    COUNT,
    DELAY,
    INTERVAL,
    JITTER,
    PHASE_NUMBER,
    POST_ID,
    SUMMARY_EVERY,
)
from assistant.daemon import Daemon, DaemonSettings, only_daemon, run_forever, setup_logging
from assistant.errors import ConfigError, PhaseError
from assistant.files import read_text
from assistant.game_inputs import house_rules
from assistant.gm import acknowledge, check_now, record_death, record_pm, refresh_feed
from assistant.monitor import describe, load_game, load_view
from assistant.phase_entry import PhaseChange, adjust_phase, enter_phase, game_over
from assistant.phases import (
    PHASE_KINDS,
    game_zone,
    local_text,
    phase_label,
)
from assistant.scrapers.http import Fetcher, FetchSettings, guarded_client


@cli.command("run")
@click.option(
    "--interval",
    type=INTERVAL,
    default=300.0,
    show_default=True,
    help="Seconds between polls of each game (a game's poll_interval setting wins).",
)
@click.option(
    "--jitter",
    type=JITTER,
    default=None,
    help="Up to this many seconds added at random to each poll, at most the interval "
    "(default: 30, or a tenth of --interval if that is less).",
)
@click.option(
    "--delay",
    type=DELAY,
    default=None,
    help="Seconds between two requests to a forum (default: the polite 1.5).",
)
@click.option("--once", is_flag=True, help="One cycle for every game, then exit (for cron).")
@click.option(
    "--summary-every",
    type=SUMMARY_EVERY,
    default=600.0,
    show_default=True,
    help="Seconds between two one-line summaries of the polls in the log.",
)
@click.option(
    "--inbox-every",
    type=INTERVAL,
    default=600.0,
    show_default=True,
    help="Seconds between reads of the GM's inbox, for games with a forum login (a game's "
    "`inbox --every` wins).",
)
@click.option("--verbose", is_flag=True, help="Log every poll, also those that found nothing.")
@click.option(
    "--web",
    is_flag=False,
    flag_value="127.0.0.1:8765",
    default=None,
    metavar="[HOST:PORT]",
    help="Also serve the live dashboard (default 127.0.0.1:8765); another host needs "
    "ASSISTANT_WEB_TOKEN.",
)
@common_options
@click.pass_context
def run(
    ctx: click.Context,
    interval: float,
    jitter: float | None,
    delay: float | None,
    once: bool,
    summary_every: float,
    inbox_every: float,
    verbose: bool,
    web: str | None,
) -> None:
    """The daemon: poll every game, raise alerts, draft tallies, until Ctrl-C or SIGTERM.

    With --once, one cycle for every game and a line (or with --json, an entry) for each;
    a game that cannot be handled is reported and the others still run. The exit status
    is 1 only when no game could be handled at all (cron then mails the output).

    With --web, the dashboard is served while the daemon runs: http://127.0.0.1:8765/."""
    a = app(ctx)
    if web is not None and once:
        raise ConfigError("--web serves the dashboard while the daemon runs; drop --once")
    address, token = None, None
    if web is not None:
        from assistant.web.server import parse_address

        token = os.environ.get("ASSISTANT_WEB_TOKEN") or None
        address = parse_address(web, token=token)  # a bad --web is refused before polling
    if jitter is None:
        jitter = min(30.0, interval / 10)
    daemon_settings = DaemonSettings(
        poll_interval=interval, jitter=jitter, summary_every=summary_every,
        inbox_interval=inbox_every,
    )  # a jitter past the interval is refused before anything runs
    setup_logging(a.clock, sys.stderr, verbose=verbose)
    settings = FetchSettings() if delay is None else FetchSettings(delay=delay)
    daemon = Daemon(
        a.data_dir,
        a.clock,
        lambda: Fetcher(guarded_client(), settings, clock=a.clock),
        daemon_settings,
        settings,
    )
    if not daemon.games():
        raise ConfigError(
            f"no game in {a.data_dir} has a thread to watch; add one with "
            "`assistant fetch URL --game NAME`"
        )
    with only_daemon(a.data_dir):
        _run(a, daemon, once, address, token)


def _run(
    a: AppContext, daemon: Daemon, once: bool, address: tuple[str, int] | None, token: str | None
) -> None:
    """`run` once the data dir is this daemon's alone (`only_daemon`)."""
    if once:
        reports = daemon.run_once()
        # The log lines went to stderr: stdout is the one document, or one line a game.
        a.emit(
            {"games": [r.to_json() for r in reports]},
            lambda: "\n".join(r.summary() for r in reports),
        )
        if all(r.failed for r in reports):
            raise ConfigError(
                f"none of the {len(reports)} game(s) could be handled; see each game's error"
            )
        return
    if address is None:
        run_forever(daemon)
        return
    from assistant.web.app import Dashboard
    from assistant.web.guard import Guard
    from assistant.web.server import start

    server = start(Dashboard(a.data_dir, a.clock, Guard(token)), *address)
    click.echo(f"dashboard: {server.url}/", err=True)
    try:
        run_forever(daemon)
    finally:
        server.stop()


@cli.command("phase")
@click.argument("game_id", metavar="GAME")
@click.argument("kind", required=False, type=click.Choice(PHASE_KINDS))
@click.argument("number", required=False, type=PHASE_NUMBER)
@click.option("--starts", help="When it started (default: now; entered again: as before). "
              "Same forms as --ends.")
@click.option(
    "--ends",
    help='The deadline: "Sunday 15:00", "15:00", "+72h" or ISO; game time zone. '
    "Default: the ruleset's length or fixed schedule. Entering a phase again with --ends "
    "replaces its deadline and every move and extension since.",
)
@click.option("--start-post", type=POST_ID, help="The forum id of the post that opened the phase.")
@click.option("--extend", help="Extend the running day by this much (002: 5m or 10m).")
@click.option("--shorten-to", help="End the running phase earlier, at this time.")
@click.option("--move-to", help="Move the running phase's deadline (the GM's call).")
@click.option("--supporters", type=COUNT, help="With --shorten-to under 000: players who asked.")
@click.option("--living", type=COUNT, help="With --shorten-to under 000: living players.")
@click.option("--force", is_flag=True, help="Start or change a phase after a confirmed win.")
@common_options
@click.pass_context
def phase(
    ctx: click.Context,
    game_id: str,
    kind: str | None,
    number: int | None,
    starts: str | None,
    ends: str | None,
    start_post: int | None,
    extend: str | None,
    shorten_to: str | None,
    move_to: str | None,
    supporters: int | None,
    living: int | None,
    force: bool,
) -> None:
    """Start a phase (`phase GAME day 2 --ends "Sunday 15:00"`), enter it again to correct
    its start or deadline, change the running one (--extend, --shorten-to, --move-to), or
    show it (`phase GAME`). Each prints the deadline that results, and why."""
    a = app(ctx)
    now = a.clock.now()
    if kind is None and (starts or ends or start_post is not None):
        raise PhaseError(
            f"--starts, --ends and --start-post are for a phase: `assistant phase {game_id} day 2 "
            '--ends "Sunday 15:00"`; move the running one\'s deadline with --move-to TIME'
        )
    with a.open_game(game_id) as store:
        if kind is not None:
            if number is None:
                raise PhaseError(f"give the {kind}'s number: `assistant phase {game_id} {kind} 2`")
            if extend or shorten_to or move_to:
                raise PhaseError(
                    f"--extend, --shorten-to and --move-to change the running phase; give them "
                    f"without {kind} {number}, or --ends to enter {kind} {number} with a deadline"
                )
            change = enter_phase(store, now, kind, number, starts=starts, ends=ends,
                                 start_post=start_post, force=force)  # fmt: skip
        elif extend or shorten_to or move_to:
            change = adjust_phase(store, now, extend=extend, shorten_to=shorten_to,
                                  move_to=move_to, supporters=supporters, living=living,
                                  force=force)  # fmt: skip
        else:
            change = PhaseChange()
        view = load_view(store, now)
    for note in change.notes:
        click.echo(f"note: {note}", err=True)
    over = game_over(view)
    info = {**describe(view), "did": list(change.did), "notes": list(change.notes),
            "game_over": over}  # fmt: skip
    zone = game_zone(view.game.tz)
    a.emit(info, lambda: "\n".join([*change.did, _phase_text(view, zone, game_id, over)]))


def _phase_text(view, zone, game_id: str, over: str | None = None) -> str:  # noqa: ANN001
    """The running phase, its deadline and why, and the night orders still owed; after a
    confirmed win, "Game over: Town won (Day 2)" and nothing owed."""
    if view.phase is None:
        return f"No phase yet: start one with `assistant phase {game_id} day 1`."
    dl = view.deadline
    lines = [f"{phase_label(view.phase)} started {local_text(view.phase.starts_at, zone)}"]
    if over is not None:  # its clock stopped with the game: no deadline to give, nothing owed
        return "\n".join([*lines, f"{over}."])
    if dl is None or dl.at is None:
        lines.append(dl.why.replace("GAME", game_id) if dl else "no deadline")
    else:
        left = dl.at - view.now
        when = f"in {_short(left)}" if left > timedelta(0) else "ended"
        lines.append(f"Deadline: {local_text(dl.at, zone)} ({when}); {dl.why}")
        if dl.extensions_open and left > timedelta(0):
            lines.append("An extension is still possible.")
    orders = view.orders
    waits_for_orders = view.phase.kind == "night" and view.phase_rules.night_ends_when_orders_in
    if waits_for_orders and orders is None:
        lines.append(
            "Night orders: no setup entered, so the night runs to its deadline; enter it with "
            f"`assistant roles {game_id} --file setup.toml` to end the night when all orders "
            "are in."
        )
    elif orders is not None and orders.owed:
        if orders.missing:
            waiting = ", ".join(_need(n) for n in orders.missing)
            lines.append(
                f"Night orders: {len(orders.owed) - len(orders.missing)} of {len(orders.owed)} "
                f"in; waiting for {waiting} (enter them with `assistant order`)"
            )
        else:
            lines.append(f"Night orders: all {len(orders.owed)} in.")
    return "\n".join(lines)


def _need(need: str) -> str:
    """ "Conia", or "side:doppelgangers" -> "the doppelgangers side's order"."""
    return f"the {need[5:]} side's order" if need.startswith("side:") else need


def _short(delta: timedelta) -> str:
    from assistant.phases import format_duration

    return format_duration(timedelta(seconds=int(delta.total_seconds())))


@cli.command("kill")
@click.argument("game_id", metavar="GAME")
@click.argument("player")
@click.option(
    "--at-post", type=POST_ID, help="The forum id of the post after which the player is dead."
)
@click.option(
    "--at", "at_text", help="When (default: now unless --at-post is given). Game time zone."
)
@click.option(
    "--how",
    type=click.Choice(["lynch", "nightkill", "modkill", "replaced", "other"]),
    default="other",
    show_default=True,
)
@click.option("--replacement", help="With --how replaced: who takes the slot.")
@click.option(
    "--day",
    "lynch_day",
    type=PHASE_NUMBER,
    help="With --how lynch: the day that ended in it (default: the running day once its "
    "deadline has passed, else the day before).",
)
@common_options
@click.pass_context
def kill(  # noqa: PLR0913 - the options of a death
    ctx: click.Context,
    game_id: str,
    player: str,
    at_post: int | None,
    at_text: str | None,
    how: str,
    replacement: str | None,
    lynch_day: int | None,
) -> None:
    """Record a death, modkill or replacement."""
    a = app(ctx)
    with a.open_game(game_id) as store:
        data, text = record_death(store, a.clock.now(), player, how=how, at_post=at_post,
                                  at_text=at_text, replacement=replacement,
                                  lynch_day=lynch_day)
    a.emit(data, text)


@cli.command("pm")
@click.argument("game_id", metavar="GAME")
@click.argument("player")
@click.argument("text", required=False)
@click.option(
    "--file",
    "file_",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The PM's text from a file (UTF-8) instead of TEXT.",
)
@click.option("--result", is_flag=True, help="A result PM (default: the player's role PM).")
@common_options
@click.pass_context
def pm_cmd(
    ctx: click.Context,
    game_id: str,
    player: str,
    text: str | None,
    file_: Path | None,
    result: bool,
) -> None:
    """Store a PM you sent PLAYER, so the checks find it copied into the thread (with or
    without quote tags). Result PMs the engine drafted are known already."""
    a = app(ctx)
    if (text is None) == (file_ is None):
        raise click.UsageError("give the PM's text as TEXT or with --file, not both")
    body = text if text is not None else read_text(file_, "PM file")  # type: ignore[arg-type]
    with a.open_game(game_id) as store:
        data, said = record_pm(store, a.clock.now(), player, body, result=result)
    a.emit(data, said)


@cli.command("alerts")
@click.argument("game_id", metavar="GAME")
@click.option("--all", "show_all", is_flag=True, help="Include acknowledged alerts.")
@click.option(
    "--ack", "ack_ids", multiple=True, metavar="ID", help="Acknowledge an alert (repeatable)."
)
@click.option("--note", help="With --ack: what was done.")
@click.option("--check", is_flag=True, help="Run the checks now on what is stored (no polling).")
@click.option(
    "--rule",
    "rules",
    multiple=True,
    metavar="KEY=VALUE",
    help="A house rule for this game over the ruleset's [posting], e.g. pm_copy=violation.",
)
@common_options
@click.pass_context
def alerts(
    ctx: click.Context,
    game_id: str,
    show_all: bool,
    ack_ids: tuple[str, ...],
    note: str | None,
    check: bool,
    rules: tuple[str, ...],
) -> None:
    """The alert feed: list, acknowledge, and write the Atom file beside the game."""
    a = app(ctx)
    now = a.clock.now()
    with a.open_game(game_id) as store:
        if rules:  # a setting: `log` lists it; `undo` reverts it
            house_rules(store, list(rules), now)
        log = AlertLog(store)
        if (check or rules) and check_now(store, now) is None:
            load_game(store)  # no players yet: says what to run
        acked = acknowledge(store, list(ack_ids), now, note)
        shown = most_severe_first(log.all(include_acked=show_all))
        zone = game_zone(store.config().get("tz"))
        path = refresh_feed(store, now)
    a.emit(
        {
            "feed": str(path),
            "acknowledged": [s.id for s in acked],
            "alerts": [s.to_json() for s in shown],
        },
        lambda: _alerts_text(shown, path, show_all, acked, zone, game_id, ran_checks=check),
        colour=_coloured_severities,
    )


#: An alert's first line: its id, then its severity (player text is on the lines below).
_SEVERITY_AT_START = re.compile(r"^([0-9a-f]{10}  )(violation|warning|info)\b", re.M)
_SEVERITY_STYLE = {
    "violation": {"fg": "red", "bold": True},
    "warning": {"fg": "yellow"},
    "info": {"fg": "cyan"},
}


def _coloured_severities(text: str) -> str:
    """Each alert's severity in its colour: violations bold red, warnings yellow, info cyan."""
    return _SEVERITY_AT_START.sub(
        lambda m: m.group(1) + click.style(m.group(2), **_SEVERITY_STYLE[m.group(2)]), text
    )


def _alerts_text(  # noqa: PLR0913 - what the text shows
    shown: list[StoredAlert],
    path: Path,
    show_all: bool,
    acked: list[StoredAlert],
    zone: ZoneInfo,
    game_id: str,
    *,
    ran_checks: bool,
) -> str:
    lines = [f"Acknowledged {s.id} ({s.alert.kind})." for s in acked]
    if not shown:
        lines.append(f"No {'' if show_all else 'open '}alerts. Feed: {path}")
        if not ran_checks and not acked:
            lines.append(
                "The checks run with each poll of `assistant run`; run them now on what is "
                f"stored with `assistant alerts {game_id} --check`."
            )
        return "\n".join(lines)
    for s in shown:  # the most severe first, the latest first within a severity
        a = s.alert
        ack = " [acked]" if s.acked_at else ""
        when = a.occurred_at or s.first_seen
        lines.append(f"{s.id}  {a.severity:<9} {a.kind}{ack}  {local_text(when, zone)}")
        lines.append(f"    {a.message}")
        if a.post_url:
            lines.append(f"    {a.post_url}")
    lines.append(f"Feed: {path}")
    return "\n".join(lines)
