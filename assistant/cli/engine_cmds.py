"""Issue 5 commands: `roles`, `order`, `resolve`, `draft dawn`, `draft pms`, `draft role-pms`,
`draft dusk`.

The commands only store the GM's facts (setup, orders, "night N is confirmed") and
print what the engine derives from them; see assistant/engine/history.py.
"""

from __future__ import annotations

from pathlib import Path

import click

from assistant.cli import app, cli, common_options, draft
from assistant.cli.numbers import PHASE_NUMBER
from assistant.engine.history import Replay
from assistant.engine.resolver import PhaseResult
from assistant.errors import (
    ConfigError,
)
from assistant.files import read_text
from assistant.game_inputs import enter_setup, setup_text
from assistant.gm import (
    dawn_draft,
    dusk,
    dusk_text,
    enter_order_lines,
    pm_drafts,
    resolve,
    result_text,
    role_pm_drafts,
)
from assistant.gm import replay_of as _replay
from assistant.phases import game_zone


def _phase(
    night: int | None, day: int | None, rep: Replay, running: int | None = None
) -> tuple[str, int]:
    """The phase an order or a resolution is for: as given, else the night the GM's clock
    is in (or the one after the running day), else the engine's next night."""
    if night is not None and day is not None:
        raise click.UsageError("give --night N or --day N, not both")
    if day is not None:
        return "day", day
    if night is not None:
        return "night", night
    return "night", running if running is not None else rep.next_night()


def _read_lines(path: Path, what: str) -> list[str]:
    text = read_text(path, what)
    return [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]


@cli.command("roles")
@click.argument("game")
@click.option(
    "--file",
    "file_",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="The GM's setup.toml: [[players]] with name, side, role.",
)
@click.option("--ruleset", help="The game's ruleset, if the game has none yet.")
@common_options
def roles_cmd(game: str, file_: Path, ruleset: str | None) -> None:
    """Enter the setup: who has which role and side (stored with a seed for replays)."""
    ctx = app(click.get_current_context())
    # Without --ruleset the game must exist (`game new`): a typo must not start a new game.
    with ctx.open_game(game, create=ruleset is not None) as store:
        entered = enter_setup(store, read_text(file_, "setup file"), str(file_),
                              ctx.clock.now(), ruleset)
    ctx.emit({**entered.setup.to_dict(), "warnings": entered.warnings},
             lambda: setup_text(game, entered))


@cli.command("order")
@click.argument("game")
@click.argument("text", required=False)
@click.option(
    "--file",
    "file_",
    type=click.Path(dir_okay=False, path_type=Path),
    help="A file of orders, one a line ('#' starts a comment).",
)
@click.option("--night", type=PHASE_NUMBER, help="The night (default: the next unresolved one).")
@click.option("--day", type=PHASE_NUMBER,
              help="A day action instead (sorcerer, priest, executioner).")
@click.option("--force", is_flag=True, help="Take it after a confirmed win (a GM's ruling).")
@common_options
def order_cmd(
    game: str, text: str | None, file_: Path | None, night: int | None, day: int | None,
    force: bool,
) -> None:
    """Enter one order ("Conia: protect Jd-") or a night's orders from a file. A later order
    of the same player replaces the earlier; "Conia: none" withdraws Conia's orders (she
    takes no action)."""
    ctx = app(click.get_current_context())
    if (text is None) == (file_ is None):
        raise click.UsageError("give one order as TEXT or a file with --file, not both")
    if night is not None and day is not None:
        raise click.UsageError("give --night N or --day N, not both")
    lines = [text] if text is not None else _read_lines(file_, "orders file")  # type: ignore[arg-type]
    if not lines:
        raise ConfigError(f'{file_}: no orders in it; write one a line, e.g. "Conia: protect Jd-"')
    with ctx.open_game(game) as store:
        done = enter_order_lines(store, lines, ctx.clock.now(), night=night, day=day, source=file_,
                                 force=force)
    ctx.emit(
        [o.to_dict() for o in done.orders],
        lambda: "\n".join(
            [*done.no_action,
             *(f"stored for {done.phase} {done.number}: {o.label()}" for o in done.orders)]
        ),
    )


@cli.command("resolve")
@click.argument("game")
@click.option("--night", type=PHASE_NUMBER, help="The night to resolve (default: the next one).")
@click.option("--day", type=PHASE_NUMBER, help="Resolve a day's actions instead.")
@click.option("--dry-run", is_flag=True, help="Show the resolution step by step; store nothing.")
@click.option(
    "--log",
    "show_log",
    is_flag=True,
    help="Show a resolved phase's step-by-step log again (default: the last resolved night).",
)
@click.option("--force", is_flag=True, help="Resolve after a confirmed win (a GM's ruling).")
@common_options
def resolve_cmd(
    game: str, night: int | None, day: int | None, dry_run: bool, show_log: bool, force: bool
) -> None:
    """Resolve a night's orders in the ruleset's order of operations."""
    ctx = app(click.get_current_context())
    if show_log and dry_run:
        raise click.UsageError("give --log or --dry-run, not both")
    with ctx.open_game(game) as store:
        rules, rep = _replay(store)
        if show_log:
            shown = _resolved(rep, game, night, day)
            ctx.emit(_result_data(shown, True, []), lambda: result_text(shown, True, again=True))
            return
        if night is not None and day is not None:
            raise click.UsageError("give --night N or --day N, not both")
        result, back = resolve(store, ctx.clock.now(), night=night, day=day, dry_run=dry_run,
                               force=force)
    ctx.emit(_result_data(result, not dry_run, back), lambda: result_text(result, not dry_run))


def _result_data(result: PhaseResult, stored: bool, back: list[str]) -> dict[str, object]:
    return {
        "phase": result.phase,
        "number": result.number,
        "stored": stored,
        "events": [e.__dict__ for e in result.events],
        "deaths": [d.__dict__ for d in result.deaths],
        "revived": back,
        "notes": list(result.notes),
    }


def _resolved(rep: Replay, game: str, night: int | None, day: int | None) -> PhaseResult:
    """The stored result `--log` shows: the phase named, else the last resolved night."""
    if night is not None and day is not None:
        raise click.UsageError("give --night N or --day N, not both")
    if night is None and day is None:
        nights = [r for r in rep.results if r.phase == "night"]
        if not nights:
            raise ConfigError(f"no night of {game} is resolved yet; nothing to show")
        return nights[-1]
    phase, number = ("day", day) if day is not None else ("night", night)
    found = rep.result(phase, int(number))  # type: ignore[arg-type]
    if found is None:
        raise ConfigError(
            f"{phase} {number} of {game} is not resolved; see what it would do with "
            f"`assistant resolve {game} --{phase} {number} --dry-run`"
        )
    return found


@draft.command("dawn")
@click.argument("game")
@click.option("--night", type=PHASE_NUMBER, help="Which night (default: the last resolved one).")
@common_options
def draft_dawn(game: str, night: int | None) -> None:
    """The dawn post: who died and what the ruleset reveals (and a win, if any)."""
    ctx = app(click.get_current_context())
    with ctx.open_game(game) as store:
        doc = dawn_draft(store, night)
    ctx.emit(doc, doc["post"].rstrip("\n"))


@draft.command("pms")
@click.argument("game")
@click.option("--night", type=PHASE_NUMBER, help="Which night (default: the last resolved one).")
@click.option("--day", type=PHASE_NUMBER,
              help="A resolved day's actions instead (the Sorcerer's kill).")
@click.option(
    "--pending",
    is_flag=True,
    help="The PMs due during the coming night, before it is resolved (001's healer).",
)
@common_options
def draft_pms(game: str, night: int | None, day: int | None, pending: bool) -> None:
    """One result PM per player who gets one, in the ruleset's words."""
    ctx = app(click.get_current_context())
    if day is not None and (night is not None or pending):
        raise click.UsageError("give --day N alone: --night and --pending are for nights")
    with ctx.open_game(game) as store:
        pms = pm_drafts(store, ctx.clock.now(), night=night, day=day, pending=pending)
    ctx.emit(pms, lambda: "\n---\n".join(v.rstrip("\n") for v in pms.values()) or "no PMs to send")


@draft.command("role-pms")
@click.argument("game")
@common_options
def draft_role_pms(game: str) -> None:
    """One role PM per player: role, side, orders, win condition, in the ruleset's words."""
    ctx = app(click.get_current_context())
    with ctx.open_game(game) as store:
        pms = role_pm_drafts(store)
    ctx.emit(pms, lambda: "\n---\n".join(v.rstrip("\n") for v in pms.values()))


@draft.command("dusk")
@click.argument("game")
@click.option("--day", type=PHASE_NUMBER, help="Which day (default: the current one).")
@click.option(
    "--confirm",
    is_flag=True,
    help="Record the lynches (and the deaths they set off) as death facts; the day must be over.",
)
@common_options
def draft_dusk_cmd(game: str, day: int | None, confirm: bool) -> None:
    """The dusk post: who is lynched (from the count), the reveal, on-death effects, a win."""
    ctx = app(click.get_current_context())
    now = ctx.clock.now()
    with ctx.open_game(game) as store:
        result, stored = dusk(store, now, day=day, confirm=confirm)
        zone = game_zone(store.config().get("tz"))
    doc = {**result.to_json(), "stored": stored}
    ctx.emit(doc, lambda: dusk_text(result, stored, zone))
