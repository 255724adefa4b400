"""`assistant demo`: run the assistant on the bundled demo game."""

from __future__ import annotations

from pathlib import Path

import click
from click.core import ParameterSource

from assistant.cli import cli


def _run_cli(args: list[str]) -> int:
    """One command as if typed: the same error handling, and its exit status back."""
    try:
        cli.main(args=args, prog_name="assistant", standalone_mode=False)
    except click.ClickException as e:
        e.show()
        return e.exit_code
    except SystemExit as e:  # click's --help and friends
        return int(e.code or 0)
    return 0


@cli.command("demo")
@click.option("--data-dir", "demo_dir", type=click.Path(file_okay=False),
              help="Keep the demo game here (default: a new temporary directory; never "
                   "ASSISTANT_DATA_DIR, whose games the demo's daemon would poll).")
@click.pass_context
def demo(ctx: click.Context, demo_dir: str | None) -> None:
    """Run the assistant on a bundled demo thread served on 127.0.0.1: poll it as it
    grows, count the votes, raise alerts, draft the tally and the dusk post, then run
    the night: orders, resolution, dawn post and result PMs."""
    from assistant.demo import run_demo

    root = ctx.find_root()
    if demo_dir is None and root.get_parameter_source("data_dir") is ParameterSource.COMMANDLINE:
        demo_dir = str(root.ensure_object(dict)["data_dir"])  # `assistant --data-dir DIR demo`
    run_demo(Path(demo_dir) if demo_dir else None, _run_cli)
