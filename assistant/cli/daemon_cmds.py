"""Commands of issue 4: `run` (the daemon), `phase`, `kill`, `alerts`."""

from __future__ import annotations

import os
import sys
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import click

from assistant.alerts import AlertLog, StoredAlert
from assistant.checks.text import possessive
from assistant.cli import app, cli, common_options
from assistant.cli.numbers import COUNT, PHASE_NUMBER, POSITIVE_SECONDS, POST_ID, SECONDS
from assistant.daemon import Daemon, DaemonSettings, run_forever, setup_logging
from assistant.errors import ConfigError, PhaseError
from assistant.files import read_text
from assistant.game import Game
from assistant.gm import acknowledge, refresh_feed
from assistant.models import to_iso
from assistant.monitor import describe, load_game, load_view
from assistant.phases import (
    PHASE_KINDS,
    check_extension,
    check_shortening,
    game_zone,
    local_text,
    parse_duration,
    parse_past,
    parse_when,
    phase_input,
    phase_label,
    phase_rules,
    start_phase,
)
from assistant.rulesets import find_ruleset
from assistant.scrapers.http import Fetcher, FetchSettings, guarded_client
from assistant.store import GameStore


@cli.command("run")
@click.option(
    "--interval",
    type=POSITIVE_SECONDS,
    default=300.0,
    show_default=True,
    help="Seconds between polls of each game (a game's poll_interval setting wins).",
)
@click.option(
    "--jitter",
    type=SECONDS,
    default=30.0,
    show_default=True,
    help="Up to this many seconds added at random to each poll.",
)
@click.option(
    "--delay",
    type=SECONDS,
    default=None,
    help="Seconds between two requests to a forum (default: the polite 1.5).",
)
@click.option("--once", is_flag=True, help="One cycle for every game, then exit (for cron).")
@click.option(
    "--summary-every",
    type=POSITIVE_SECONDS,
    default=600.0,
    show_default=True,
    help="Seconds between two one-line summaries of the polls in the log.",
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
    jitter: float,
    delay: float | None,
    once: bool,
    summary_every: float,
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
    setup_logging(a.clock, sys.stderr, verbose=verbose)
    settings = FetchSettings() if delay is None else FetchSettings(delay=delay)
    daemon = Daemon(
        a.data_dir,
        a.clock,
        lambda: Fetcher(guarded_client(), settings, clock=a.clock),
        DaemonSettings(poll_interval=interval, jitter=jitter, summary_every=summary_every),
        settings,
    )
    if not daemon.games():
        raise ConfigError(
            f"no game in {a.data_dir} has a thread to watch; add one with "
            "`assistant fetch URL --game NAME`"
        )
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
@click.option("--starts", help="When it started (default: now). Same forms as --ends.")
@click.option(
    "--ends",
    help='The deadline: "Sunday 15:00", "15:00", "+72h" or ISO; game time zone. '
    "Default: the ruleset's length or fixed schedule.",
)
@click.option("--start-post", type=POST_ID, help="The forum id of the post that opened the phase.")
@click.option("--extend", help="Extend the running day by this much (002: 5m or 10m).")
@click.option("--shorten-to", help="End the running phase earlier, at this time.")
@click.option("--move-to", help="Move the running phase's deadline (the GM's call).")
@click.option("--supporters", type=COUNT, help="With --shorten-to under 000: players who asked.")
@click.option("--living", type=COUNT, help="With --shorten-to under 000: living players.")
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
) -> None:
    """Start a phase (`phase GAME day 2 --ends "Sunday 15:00"`), change the running one
    (--extend, --shorten-to, --move-to), or show it (`phase GAME`)."""
    a = app(ctx)
    now = a.clock.now()
    with a.open_game(game_id) as store:
        game = load_game(store)
        zone = game_zone(game.tz)
        prules = phase_rules(find_ruleset(game.ruleset))
        if kind is not None:
            if number is None:
                raise PhaseError(f"give the {kind}'s number: `assistant phase {game_id} {kind} 2`")
            posted = _post_time(store, start_post)
            begin = (
                parse_past(starts, now=now, zone=zone, where="--starts")
                if starts
                else posted or now
            )
            if start_post is not None and posted is None and not starts:
                click.echo(
                    f"note: post #{start_post} is not stored yet, so {kind} {number} starts now "
                    f"({local_text(now, zone)}); give --starts, or fetch first and enter the "
                    "phase again, if it began earlier",
                    err=True,
                )
            end = parse_when(ends, now=begin, zone=zone, where="--ends") if ends else None
            new = start_phase(prules, kind, number, begin, end, start_post, zone=zone)
            store.add_input("phase", phase_input(new), now)
        elif extend or shorten_to or move_to:
            view = load_view(store, now)
            if view.phase is None or view.deadline is None:
                raise PhaseError(
                    f"game {game_id!r} has no running phase; start one with "
                    f"`assistant phase {game_id} day 1`"
                )
            data = {"kind": view.phase.kind, "number": view.phase.number}
            if extend:
                by = parse_duration(extend, where="--extend")
                check_extension(view.deadline, prules, by, view.phase)
                data["extend_s"] = by.total_seconds()
            else:
                moment = parse_when(
                    shorten_to or move_to,  # type: ignore[arg-type]
                    now=now,
                    zone=zone,
                    where="--shorten-to" if shorten_to else "--move-to",
                )
                if shorten_to:
                    if view.deadline.at is not None and moment >= view.deadline.at:
                        raise PhaseError(
                            f"{local_text(moment, zone)} is not before the deadline "
                            f"{local_text(view.deadline.at, zone)}; use --move-to"
                        )
                    check_shortening(prules, view.phase, supporters, living)
                data.update(ends_at=to_iso(moment), supporters=supporters, living=living)
            store.add_input("phase_adjust", data, now)
        view = load_view(store, now)
    info = describe(view)
    a.emit(info, lambda: _phase_text(view, zone, game_id))


def _post_time(store: GameStore, post_id: int | None) -> datetime | None:
    """When a stored post was posted (a phase or a death "at post N" happened then); None
    when no such post is stored yet (the GM enters it before the next poll)."""
    found = store.post(post_id) if post_id is not None else None
    return found.latest.posted_at if found is not None else None


def _phase_text(view, zone, game_id: str) -> str:  # noqa: ANN001 - a GameView and a ZoneInfo
    if view.phase is None:
        return f"No phase yet: start one with `assistant phase {game_id} day 1`."
    dl = view.deadline
    lines = [f"{phase_label(view.phase)} started {local_text(view.phase.starts_at, zone)}"]
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
    now = a.clock.now()
    if (how == "replaced") != bool(replacement):
        raise ConfigError("a replacement needs --how replaced and --replacement NAME together")
    if lynch_day is not None and how != "lynch":
        raise ConfigError("--day names the day a lynch ended; give it with --how lynch")
    with a.open_game(game_id) as store:
        game = load_game(store)
        match = game.matcher().match(player, strict=True)
        if not match.ok:
            raise ConfigError(f"{match.describe()}; players: {', '.join(game.players)}")
        at = (
            parse_past(at_text, now=now, zone=game_zone(game.tz), where="--at")
            if at_text
            else (None if at_post is not None else now)
        )
        # Alive at the moment of this death, not "never died": a player the engine revived
        # (002 Priest, a "revive" fact) can be killed again. A death "after post N" is checked
        # at that post's time too, against deaths the GM entered by time.
        slot: str = match.slot  # type: ignore[assignment]
        moment = at or _post_time(store, at_post)
        if how != "replaced" and not game.is_alive(slot, post_id=at_post, at=moment):
            death = game.death_of(slot)
            raise ConfigError(
                f"{slot} is already recorded as dead ({death.how if death else 'other'}) at "
                "that moment; only a living (or revived) player can be killed"
            )
        data = {
            "player": match.slot,
            "at_post": at_post,
            "at": to_iso(at),
            "how": how,
            "replacement": replacement,
        }
        if how == "lynch":
            dusk = lynch_day if lynch_day is not None else _lynch_day(game, at_post, at_text, now)
            if dusk is not None:
                data["dusk"] = dusk  # whose lynch: that day's count keeps its wagon
        with store.batch():  # stored only if the game still loads (a bad replacement raises)
            store.add_input("death", data, now)
            load_game(store)
    lynch = f"lynch, Day {data['dusk']}" if "dusk" in data else how
    what = (
        f"{match.slot} replaced by {replacement}" if replacement else f"{match.slot} dead ({lynch})"
    )
    zone = game_zone(game.tz)
    where = (
        f" after post #{at_post}" if at_post is not None else f" at {local_text(at, zone)}"
    )  # type: ignore[arg-type]
    a.emit(data, f"Recorded: {what}{where}.")


def _lynch_day(
    game: Game, at_post: int | None, at_text: str | None, now: datetime
) -> int | None:
    """The day a lynch entered "now" ended: the running day once its deadline has passed;
    before that, the day before (a GM records yesterday's lynch after starting today).
    A lynch at a post or time is placed by the count itself (`Game.counting`)."""
    day = game.day()
    if at_post is not None or at_text is not None or day is None:
        return None
    if day.ends_at is not None and now >= day.ends_at:
        return day.number
    return day.number - 1


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
    body = (text if text is not None else read_text(file_, "PM file")).strip()  # type: ignore[arg-type]
    if len(body.split()) < 5:
        raise ConfigError(
            f"the PM for {player} has {len(body.split())} word(s); give its whole text (a copy "
            "is found by runs of 5 words)"
        )
    kind = "result_pm" if result else "role_pm"
    with a.open_game(game_id) as store:
        game = load_game(store)
        match = game.matcher().match(player, strict=True)
        if not match.ok:
            raise ConfigError(f"{match.describe()}; players: {', '.join(game.players)}")
        data = {"player": match.slot, "text": body}
        store.add_input(kind, data, a.clock.now())
    label = "result PM" if result else "role PM"
    a.emit(
        {"kind": kind, **data},
        f"Stored {possessive(match.slot)} {label} ({len(body.split())} words); "  # type: ignore[arg-type]
        f"`assistant alerts {game_id} --check` looks for copies of it.",
    )


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
    from assistant.monitor import run_checks

    a = app(ctx)
    now = a.clock.now()
    with a.open_game(game_id) as store:
        if rules:
            house = dict(store.config().get("posting") or {})
            for item in rules:
                key, sep, value = item.partition("=")
                if not sep:
                    raise ConfigError(f"--rule {item!r}: write KEY=VALUE, e.g. pm_copy=violation")
                house[key.strip()] = _rule_value(value.strip())
            from assistant.checks import posting_rules

            posting_rules(find_ruleset(load_game(store).ruleset), house)  # validate first
            store.update_config(posting=house)
        log = AlertLog(store)
        if check or rules:
            log.record(run_checks(load_view(store, now), store), now)
        acked = acknowledge(store, list(ack_ids), now, note)
        shown = log.all(include_acked=show_all)
        zone = game_zone(store.config().get("tz"))
        path = refresh_feed(store, now)
    a.emit(
        {
            "feed": str(path),
            "acknowledged": [s.id for s in acked],
            "alerts": [s.to_json() for s in reversed(shown)],
        },
        lambda: _alerts_text(shown, path, show_all, acked, zone, game_id, ran_checks=check),
    )


def _rule_value(text: str) -> int | bool | str:
    """A house rule's value as the ruleset file would write it: 2, true, "violation"."""
    if text.isdigit():
        return int(text)
    return {"true": True, "false": False}.get(text.lower(), text)


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
    for s in reversed(shown):  # newest first, as in the feed
        a = s.alert
        ack = " [acked]" if s.acked_at else ""
        when = a.occurred_at or s.first_seen
        lines.append(f"{s.id}  {a.severity:<9} {a.kind}{ack}  {local_text(when, zone)}")
        lines.append(f"    {a.message}")
        if a.post_url:
            lines.append(f"    {a.post_url}")
    lines.append(f"Feed: {path}")
    return "\n".join(lines)
