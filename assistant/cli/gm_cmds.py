"""The GM over the assistant: `rule` (a ruling on one post's votes), `log` (every GM input)
and `undo` (withdraw one, as a fact of its own)."""

from __future__ import annotations

import click

from assistant.cli import app, cli, common_options
from assistant.cli.numbers import INPUT_ID, MARK, POST_ID
from assistant.corrections import enter_ruling, game_log, log_text, undo


@cli.command("rule")
@click.argument("game_id", metavar="GAME")
@click.option("--post", "post_id", type=POST_ID, required=True,
              help="The post ruled on (its forum id, as `count --why` shows it).")
@click.option("--ignore", is_flag=True, help="It is not a vote.")
@click.option("--vote", "target", metavar="NAME",
              help="It is a vote for NAME (a player or No Lynch).")
@click.option("--unvote", is_flag=True, help="It is an unvote.")
@click.option("--which", type=MARK, metavar="N",
              help="Only the post's N-th vote (`count --why` shows #N when a post has several); "
                   "the other votes of the post are read as usual.")
@click.option("--from", "from_text", metavar="TIME",
              help="It counts from TIME instead of when it was posted (game time zone).")
@click.option("--from-post", type=POST_ID, metavar="N",
              help="It counts from when post N was made.")
@common_options
@click.pass_context
def rule_cmd(
    ctx: click.Context,
    game_id: str,
    post_id: int,
    ignore: bool,
    target: str | None,
    unvote: bool,
    which: int | None,
    from_text: str | None,
    from_post: int | None,
) -> None:
    """Rule on how one post's votes count, over the assistant's reading.

    \b
    assistant rule g1 --post 412 --ignore          not a vote (a joke, a quote it misread)
    assistant rule g1 --post 412 --vote "Jd-"      a vote for Jd- (or --vote "No Lynch")
    assistant rule g1 --post 412 --unvote          an unvote
    assistant rule g1 --post 412 --which 2 --ignore    only its second vote is not one
    assistant rule g1 --post 412 --from "11:20"    its votes as read, counted from 11:20

    A ruling on the whole post stands in for every vote in it: the post is then exactly one
    vote (or none). With --which N only the N-th vote-like mark of the post is ruled on, the
    others read as usual. The ruling is on the post as you see it now: an edit made later
    does not change it, it raises an alert (`rule` again to change the ruling, or `undo` it).
    Every count applies it (`count`, `--why`: "ruled by the GM at ...", the drafts, the
    daemon's locked count, the dashboard). A later ruling on the same post replaces it.
    """
    a = app(ctx)
    given = [name for name, on in (("--ignore", ignore), ("--vote", target is not None),
                                   ("--unvote", unvote)) if on]
    if len(given) > 1:
        raise click.UsageError(f"give one of {', '.join(given)}: a post is ruled one way")
    action = {"--ignore": "ignore", "--vote": "vote", "--unvote": "unvote"}.get(
        given[0] if given else "", "as_read"
    )
    with a.open_game(game_id) as store:
        data, line = enter_ruling(
            store, post_id, action=action, target=target, which=which, from_text=from_text,
            from_post=from_post, now=a.clock.now(),
        )
    a.emit(data, line)


@cli.command("log")
@click.argument("game_id", metavar="GAME")
@common_options
@click.pass_context
def log_cmd(ctx: click.Context, game_id: str) -> None:
    """Every input you entered in GAME (players, deaths, phases, orders, PM votes, rulings,
    acknowledgements, settings), with its id, when, and what it changed; withdrawn ones too."""
    a = app(ctx)
    with a.open_game(game_id) as store:
        entries = game_log(store)
        text = log_text(store)
    a.emit({"game": game_id, "inputs": [e.to_json() for e in entries]}, text)


@cli.command("undo")
@click.argument("game_id", metavar="GAME")
@click.argument("input_id", metavar="ID", type=INPUT_ID)
@common_options
@click.pass_context
def undo_cmd(ctx: click.Context, game_id: str, input_id: int) -> None:
    """Withdraw input ID of GAME (`assistant log GAME` lists them): a death, an order, a phase
    start, a ruling, a PM vote, an acknowledgement... The withdrawal is stored as an input of
    its own, so the log keeps both; undoing the withdrawal puts the input back."""
    a = app(ctx)
    with a.open_game(game_id) as store:
        made, line = undo(store, input_id, a.clock.now())
    a.emit({"game": game_id, "withdrawn": input_id, "inputs": [e.to_json() for e in made]}, line)
