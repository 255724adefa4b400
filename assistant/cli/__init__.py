"""The `assistant` command line: one click group; each area registers its commands.

Errors the assistant raises on purpose (`AssistantError`) become one line on stderr
and exit status 1 here, and only here; anything else is a bug and is reported as one,
with the stored data untouched.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click

from assistant.clock import Clock, default_clock
from assistant.errors import AssistantError
from assistant.safe_text import for_json, for_terminal
from assistant.store import GameStore, default_data_dir, write_errnos, write_error

F = TypeVar("F", bound=Callable[..., Any])


@dataclass
class AppContext:
    """What every command gets: where the data is, how to print, and the clock."""

    data_dir: Path
    json_output: bool = False
    clock: Clock = field(default_factory=default_clock)

    def open_game(self, game_id: str, *, create: bool = False) -> GameStore:
        return GameStore.open(self.data_dir, game_id, create=create)

    def emit(self, data: Any, text: str | Callable[[], str]) -> None:
        """Print one JSON document with --json, else the human text."""
        if self.json_output:
            click.echo(for_json(json.dumps(data, ensure_ascii=False, indent=2, default=str)))
        else:
            click.echo(for_terminal(text() if callable(text) else text))


def _set_data_dir(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    if value is not None:
        ctx.ensure_object(dict)["data_dir"] = Path(value)


def _set_json(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value:
        ctx.ensure_object(dict)["json"] = True


def common_options(func: F) -> F:
    """`--data-dir` and `--json` on every command (also accepted before the command name)."""
    func = click.option(
        "--json", "json_output", is_flag=True, expose_value=False, callback=_set_json,
        help="Print one JSON document instead of text.",
    )(func)
    func = click.option(
        "--data-dir", type=click.Path(file_okay=False), expose_value=False,
        callback=_set_data_dir, envvar="ASSISTANT_DATA_DIR",
        help="Where games are stored (default: ASSISTANT_DATA_DIR or the user data directory).",
    )(func)
    return func


def app(ctx: click.Context) -> AppContext:
    """The AppContext for this invocation, built from the options given anywhere on the line."""
    opts = ctx.ensure_object(dict)
    root = ctx.find_root()
    root_opts = root.ensure_object(dict)
    data_dir = opts.get("data_dir") or root_opts.get("data_dir") or default_data_dir()
    json_output = bool(opts.get("json") or root_opts.get("json"))
    return AppContext(data_dir=Path(data_dir), json_output=json_output)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@common_options
@click.version_option(package_name="assistant")
def cli() -> None:
    """Moderate a forum Mafia / Werewolf game alongside its GM."""


@cli.group()
def draft() -> None:
    """Drafts ready to paste: the vote tally, the dawn post, the result PMs."""


# Each area adds its commands to `cli` (or to `draft`) when imported:
# fetch/posts (issue 2), game/count/draft tally/replay/vote (issue 3),
# run/phase/kill/alerts (issue 4), roles/order/resolve/draft dawn+pms (issue 5), demo.
from assistant.cli import (  # noqa: E402, F401 - imported for their commands
    count_cmds,
    daemon_cmds,
    demo_cmds,
    engine_cmds,
    fetch_cmds,
)


def main(argv: list[str] | None = None) -> None:
    try:
        cli.main(args=argv, prog_name="assistant", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(130)
    except click.ClickException as e:
        e.show()
        sys.exit(e.exit_code)
    except AssistantError as e:
        click.echo(for_terminal(f"error: {e}"), err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        click.echo("Interrupted; what was stored is kept.", err=True)
        sys.exit(130)
    except OSError as e:
        if e.errno not in write_errnos():
            if os.environ.get("ASSISTANT_DEBUG"):
                raise
            _internal(e)
        # A draft, a feed or a folder outside the store: the store says this itself.
        click.echo(f"error: {write_error(Path(e.filename or '.'), e, game_file=False)}", err=True)
        sys.exit(1)
    except Exception as e:  # a bug: say so in one line; the store is written atomically
        if os.environ.get("ASSISTANT_DEBUG"):
            raise
        _internal(e)


def _internal(e: Exception) -> NoReturn:
    """A bug: say so in one line and exit 70 (the store is written atomically)."""
    click.echo(
        f"internal error (a bug in the assistant, please report it): {type(e).__name__}: {e}\n"
        "Nothing stored was lost. Run again with ASSISTANT_DEBUG=1 to see the traceback.",
        err=True,
    )
    sys.exit(70)
