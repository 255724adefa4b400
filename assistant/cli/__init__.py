"""The `assistant` command line: one click group; each area registers its commands.

Errors the assistant raises on purpose (`AssistantError`) become one line on stderr
and exit status 1 here, and only here; anything else is a bug and is reported as one,
with the stored data untouched.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click
from click.core import ParameterSource

from assistant import __version__
from assistant.clock import Clock, default_clock
from assistant.errors import AssistantError
from assistant.safe_text import for_json, for_terminal

if TYPE_CHECKING:
    from assistant.store import GameStore

F = TypeVar("F", bound=Callable[..., Any])


class LazyGroup(click.Group):
    """A group whose commands are defined in modules imported only when one of them is
    asked for: `assistant --version` imports none, `assistant count` only count_cmds, so
    neither pays for the daemon's, the engine's or the dashboard's imports (httpx,
    APScheduler, Jinja2, Starlette). Listing the commands (`--help`, a misspelt command)
    imports them all."""

    def __init__(self, *args: Any, lazy: Mapping[str, str] = {}, **kwargs: Any) -> None:  # noqa: B006
        self.lazy = dict(lazy)
        """Command name -> the module (under assistant.cli) that defines it."""
        super().__init__(*args, **kwargs)

    @property
    def commands(self) -> dict[str, click.Command]:  # type: ignore[override]
        """Every command, each module imported: what click's listings read."""
        for module in dict.fromkeys(self.lazy.values()):
            import_module(f"assistant.cli.{module}")
        return self._commands

    @commands.setter
    def commands(self, value: dict[str, click.Command]) -> None:
        self._commands = value

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        """What click's `add_command` does, without importing every module (a module
        being imported registers its commands here)."""
        name = name or cmd.name
        if name is None:
            raise TypeError("Command has no name.")
        self._commands[name] = cmd

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self._commands:
            if cmd_name not in self.lazy:
                return self.commands.get(cmd_name)  # not listed: look in every module
            import_module(f"assistant.cli.{self.lazy[cmd_name]}")
        return self._commands.get(cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(self.commands)


@dataclass
class AppContext:
    """What every command gets: where the data is, how to print, and the clock."""

    data_dir: Path
    json_output: bool = False
    clock: Clock = field(default_factory=default_clock)

    def open_game(self, game_id: str, *, create: bool = False) -> GameStore:
        from assistant.store import GameStore

        return GameStore.open(self.data_dir, game_id, create=create)

    def emit(
        self,
        data: Any,
        text: str | Callable[[], str],
        *,
        colour: Callable[[str], str] | None = None,
    ) -> None:
        """Print one JSON document with --json, else the human text; `colour` styles the
        text (made safe first) when stdout is a terminal that wants colour (`colour_wanted`)."""
        if self.json_output:
            click.echo(for_json(json.dumps(data, ensure_ascii=False, indent=2, default=str)))
            return
        shown = for_terminal(text() if callable(text) else text)
        if colour is not None and colour_wanted(sys.stdout):
            shown = colour(shown)
        click.echo(shown)


def colour_wanted(stream: Any) -> bool:
    """Colour on a terminal only: not when piped or redirected, not with NO_COLOR set to
    anything (no-color.org), not on TERM=dumb."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def _set_data_dir(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    """`--data-dir` given on the command line wins over ASSISTANT_DATA_DIR, wherever on the
    line it was given: the command's own option reads the variable too, and must not undo
    an `assistant --data-dir DIR COMMAND` (the demo's steps are written so)."""
    if value is None:
        return
    obj = ctx.ensure_object(dict)
    from_env = ctx.get_parameter_source(param.name or "") is ParameterSource.ENVIRONMENT
    if from_env and "data_dir" in obj:
        return
    obj["data_dir"] = Path(value)


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
    from assistant.store import default_data_dir

    opts = ctx.ensure_object(dict)
    root = ctx.find_root()
    root_opts = root.ensure_object(dict)
    data_dir = opts.get("data_dir") or root_opts.get("data_dir") or default_data_dir()
    json_output = bool(opts.get("json") or root_opts.get("json"))
    return AppContext(data_dir=Path(data_dir), json_output=json_output)


#: Where each command is defined: its module is imported when the command is asked for.
#: (tests/test_startup.py checks that this says where every command really is.)
COMMANDS = {
    "fetch": "fetch_cmds", "posts": "fetch_cmds",
    "game": "count_cmds", "count": "count_cmds", "vote": "count_cmds",
    "replay": "count_cmds", "sheriff": "count_cmds", "tiebreak": "count_cmds",
    "run": "daemon_cmds", "phase": "daemon_cmds", "kill": "daemon_cmds",
    "pm": "daemon_cmds", "alerts": "daemon_cmds",
    "roles": "engine_cmds", "order": "engine_cmds", "resolve": "engine_cmds",
    "demo": "demo_cmds",
    "notify": "notify_cmds",
    "rule": "gm_cmds", "log": "gm_cmds", "undo": "gm_cmds",
    "post": "forum_cmds", "send": "forum_cmds", "inbox": "inbox_cmds",
}  # fmt: skip
DRAFTS = {"tally": "count_cmds", "dawn": "engine_cmds", "pms": "engine_cmds",
          "role-pms": "engine_cmds", "dusk": "engine_cmds", "prods": "notify_cmds"}  # fmt: skip


@click.group(
    cls=LazyGroup, lazy=COMMANDS,
    context_settings={"help_option_names": ["-h", "--help"]},
)  # fmt: skip
@common_options
@click.version_option(__version__, package_name="assistant")
def cli() -> None:
    """Moderate a forum Mafia / Werewolf game alongside its GM."""


@cli.group(cls=LazyGroup, lazy=DRAFTS)
def draft() -> None:
    """Drafts ready to paste: the vote tally, the dawn post, the result PMs."""


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
        from assistant.game_file import write_errnos, write_error

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
