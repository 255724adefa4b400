"""Every action the command line has for a game is on the dashboard (issue 25): this walks
the CLI's commands and each of their arguments and options, and fails when one is neither
on the page (a form field of a dashboard action, or a page that shows it) nor in the
explicit list of what stays on the command line, with the reason. A new command or option
must be given a place here, and a form field named here must exist in templates/web/."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import click

from assistant import TEMPLATES_DIR, web
from assistant.cli import cli
from assistant.web.app import ACTIONS

COMMON = {"--json", "--data-dir", "--help"}
"""The options every command has: the page is the page, and its data directory the
daemon's."""

ON_THE_PAGE: dict[tuple[str, str], tuple[str, str]] = {
    # command, parameter -> dashboard action (POST /game/GAME/ACTION), its form field
    ("alerts", "--ack"): ("ack", "alert"),
    ("alerts", "--note"): ("ack", "note"),
    ("alerts", "--rule"): ("house-rules", "rules"),
    ("draft dusk", "--confirm"): ("dusk-confirm", "day"),
    ("draft dusk", "--day"): ("dusk-confirm", "day"),
    ("game alias", "player"): ("alias", "player"),
    ("game alias", "account"): ("alias", "account"),
    ("game lynches", "--day"): ("lynches", "day"),
    ("game lynches", "--available"): ("lynches", "available"),
    ("game modifier", "player"): ("modifier", "player"),
    ("game modifier", "--weight"): ("modifier", "weight"),
    ("game modifier", "--powerless"): ("modifier", "powerless"),
    ("game modifier", "--lover-of"): ("modifier", "lover_of"),
    ("game modifier", "--day"): ("modifier", "day"),
    ("game reset", "--at-post"): ("reset", "at_post"),
    ("game rules", "--at-deadline"): ("game-rules", "at_deadline"),
    ("game rules", "--no-lynch-majority"): ("game-rules", "no_lynch_majority"),
    ("game rules", "--auto-post"): ("game-rules", "auto_post"),
    ("game rules", "--auto-post-gap"): ("game-rules", "auto_post_gap"),
    ("game title", "title"): ("game-title", "title"),
    ("kill", "player"): ("kill", "player"),
    ("kill", "--at-post"): ("kill", "at_post"),
    ("kill", "--at"): ("kill", "at"),
    ("kill", "--how"): ("kill", "how"),
    ("kill", "--replacement"): ("kill", "replacement"),
    ("kill", "--day"): ("kill", "day"),
    ("notify", "--add"): ("notify-add", "url"),
    ("notify", "--min-severity"): ("notify-add", "min_severity"),
    ("notify", "--events"): ("notify-add", "events"),
    ("notify", "--quiet"): ("notify-add", "quiet"),
    ("notify", "--remove"): ("notify-remove", "target"),
    ("notify", "--test"): ("notify-test", "target"),
    ("notify", "--poll-after"): ("poll-after", "poll_after"),
    ("order", "text"): ("order", "orders"),
    ("order", "--file"): ("order", "orders"),  # the file's lines, pasted in the box
    ("order", "--night"): ("order", "night"),
    ("order", "--day"): ("order", "day"),
    ("phase", "kind"): ("phase", "kind"),
    ("phase", "number"): ("phase", "number"),
    ("phase", "--starts"): ("phase", "starts"),
    ("phase", "--ends"): ("phase", "ends"),
    ("phase", "--start-post"): ("phase", "start_post"),
    ("phase", "--extend"): ("deadline", "extend"),
    ("phase", "--shorten-to"): ("deadline", "shorten_to"),
    ("phase", "--move-to"): ("deadline", "move_to"),
    ("pm", "player"): ("pm", "player"),
    ("pm", "text"): ("pm", "text"),
    ("pm", "--file"): ("pm", "text"),  # the file's text, pasted in the box
    ("pm", "--result"): ("pm", "result"),
    ("resolve", "--night"): ("resolve", "night"),
    ("resolve", "--day"): ("resolve", "day"),
    ("resolve", "--dry-run"): ("resolve", "dry_run"),
    ("roles", "--file"): ("roles", "setup"),  # the setup.toml, pasted in the box
    ("rule", "--post"): ("rule", "post"),
    ("rule", "--ignore"): ("rule", "ruling"),
    ("rule", "--vote"): ("rule", "target"),
    ("rule", "--unvote"): ("rule", "ruling"),
    ("rule", "--which"): ("rule", "which"),
    ("rule", "--from"): ("rule", "from"),
    ("rule", "--from-post"): ("rule", "from_post"),
    ("sheriff", "player"): ("sheriff", "player"),
    ("sheriff", "--at-post"): ("sheriff", "at_post"),
    ("sheriff", "--day"): ("sheriff", "day"),
    ("tiebreak", "choice"): ("tiebreak", "choice"),
    ("tiebreak", "--day"): ("tiebreak", "day"),
    ("undo", "input_id"): ("undo", "input"),
    ("vote", "voter"): ("vote", "voter"),
    ("vote", "target"): ("vote", "target"),
    ("vote", "--unvote"): ("vote", "unvote"),
    ("vote", "--at"): ("vote", "at"),
}

SHOWN: dict[tuple[str, str], tuple[str, str]] = {
    # command, parameter -> a page that shows it (a GET route of the dashboard), its field
    ("alerts", "(the command)"): ("/game/{game}", ""),
    ("alerts", "--all"): ("/game/{game}", "alerts"),
    ("alerts", "--check"): ("/game/{game}", ""),  # the daemon checks at every poll
    ("count", "(the command)"): ("/game/{game}", ""),
    ("count", "--why"): ("/game/{game}", "why"),
    ("count", "--day"): ("/game/{game}/votes", "day"),
    ("draft dawn", "(the command)"): ("/game/{game}", ""),
    ("draft dusk", "(the command)"): ("/game/{game}", ""),
    ("draft pms", "(the command)"): ("/game/{game}/pms", ""),
    ("draft pms", "--night"): ("/game/{game}/pms", "night"),
    ("draft pms", "--day"): ("/game/{game}/pms", "day"),
    ("draft pms", "--pending"): ("/game/{game}/pms", "pending"),
    ("draft prods", "(the command)"): ("/game/{game}", ""),
    ("draft role-pms", "(the command)"): ("/game/{game}", ""),
    ("draft tally", "(the command)"): ("/game/{game}", ""),
    ("draft tally", "--day"): ("/game/{game}/votes", "day"),
    ("game title", "(the command)"): ("/game/{game}", ""),
    ("game rules", "(the command)"): ("/game/{game}", ""),
    ("log", "(the command)"): ("/game/{game}", ""),
    ("notify", "(the command)"): ("/game/{game}", ""),
    ("notify", "--list"): ("/game/{game}", ""),
    ("posts", "(the command)"): ("/game/{game}", ""),
}

CLI_ONLY: dict[tuple[str, str], str] = {
    # command, parameter ("*": the whole command) -> why it stays on the command line
    ("demo", "*"): "plays a sample game in a data directory of its own; nothing to moderate",
    ("replay", "*"): "counts an archive file of posts; it is no game of the data directory",
    ("run", "*"): "starts the daemon, and the dashboard with it (`run --web`)",
    ("fetch", "*"): "reads a thread (with a login, at a chosen pace) from a terminal; the "
                    "daemon beside the page polls every game",
    ("post", "*"): "on the page as the Post button beside each draft (web/writes.py), whose "
                   "confirmation page is built per draft: its own tests (test_web_writes) "
                   "cover it; --delay and --yes are the terminal's",
    ("send", "*"): "on the page as the Send button beside each kind of PM; as post",
    ("inbox", "*"): "reads the GM's forum inbox; the page's inbox tab comes with its own "
                    "branch (move this entry then)",
    ("game new", "*"): "creates a game from a players file, a thread URL and a ruleset once, "
                       "at the terminal; the page moderates games that exist",
    ("count", "--at-post"): "a count as of an earlier post: the page shows the running count, "
                            "and the chart and the votes page every step of the day",
    ("count", "--at"): "a count as of an earlier moment: as --at-post",
    ("draft tally", "--at-post"): "the tally as of an earlier post: as count --at-post",
    ("draft tally", "--at"): "the tally as of an earlier moment: as count --at",
    ("draft dawn", "--night"): "an earlier night's dawn, long posted; the page drafts the "
                               "dawn of the night resolved last",
    ("draft prods", "--since"): "a window other than the ruleset's; the page drafts the "
                                "ruleset's prods",
    ("posts", "--since"): "a search of the stored posts; the page shows the latest, linked to "
                          "the forum, where the GM reads them",
    ("posts", "--author"): "as posts --since",
    ("posts", "--edited"): "as posts --since (edits raise alerts on the page)",
    ("posts", "--vanished"): "as posts --since (vanished posts raise alerts on the page)",
    ("roles", "--ruleset"): "gives an engine-only game (no `game new`) its ruleset; the page "
                            "shows only games with players, which have one",
    ("order", "--force"): "a GM's ruling to go on after a confirmed win: deliberate, typed",
    ("phase", "--force"): "as order --force",
    ("resolve", "--force"): "as order --force",
    ("resolve", "--log"): "the engine's full resolution log for debugging a ruleset; the page "
                          "shows the result the command prints",
    ("phase", "--supporters"): "an extension vote's count of supporters (003), entered with "
                               "--extend by GMs who run them; the page extends by a span",
    ("phase", "--living"): "as phase --supporters",
}


def _commands() -> Iterator[tuple[str, click.Command]]:
    ctx = click.Context(cli)

    def walk(group: click.Group, path: list[str]) -> Iterator[tuple[str, click.Command]]:
        for name in group.list_commands(ctx):
            cmd = group.get_command(ctx, name)
            assert cmd is not None
            if isinstance(cmd, click.Group):
                yield from walk(cmd, [*path, name])
            else:
                yield " ".join([*path, name]), cmd

    yield from walk(cli, [])


def _parameters(cmd: click.Command) -> list[str]:
    out = []
    for p in cmd.params:
        if isinstance(p, click.Argument):
            if p.name not in ("game", "game_id"):  # the page's own game
                out.append(str(p.name))
        elif isinstance(p, click.Option) and p.opts[0] not in COMMON:
            out.append(p.opts[0])
    return out


def _form_fields() -> dict[str, set[str]]:
    """Each dashboard action's form fields, read from the templates (the fields of every
    form that posts to /game/GAME/ACTION, and of links to a page with `?FIELD=`) and from
    the buttons beside the drafts (pages.py's `DraftAction`s and their fields)."""
    fields: dict[str, set[str]] = {}
    for path in (TEMPLATES_DIR / "web").glob("*.html"):
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r'<form[^>]*\baction="/game/\{\{ page\.game_id \}\}/([\w-]+)"'
                             r'[^>]*>(.*?)</form>', text, re.S):
            fields.setdefault(m[1], set()).update(re.findall(r'name="(\w+)"', m[2]))
        page = path.stem  # a page's own links: votes.html's "?day=N"
        fields.setdefault(page, set()).update(re.findall(r'href="\?(\w+)=', text))
    pages = (Path(web.__file__).parent / "pages.py").read_text(encoding="utf-8")
    for m in re.finditer(r'DraftAction\(\s*"([\w-]+)",\s*"[^"]*",\s*\((.*?)\),\s*\n', pages,
                         re.S):
        fields.setdefault(m[1], set()).update(re.findall(r'\("(\w+)",', m[2]))
    return fields


def test_every_game_command_and_option_is_on_the_page_or_says_why_not() -> None:
    fields = _form_fields()
    routes = {"/game/{game}", "/game/{game}/votes", "/game/{game}/pms"}
    missing, wrong = [], []
    commands = dict(_commands())
    for name, cmd in commands.items():
        if (name, "*") in CLI_ONLY:
            continue
        placed = [k for k in (*ON_THE_PAGE, *SHOWN) if k[0] == name]
        if not placed:
            missing.append(f"{name}: no dashboard action or page")
        for param in _parameters(cmd):
            key = (name, param)
            if key in CLI_ONLY:
                continue
            if key in ON_THE_PAGE:
                action, field = ON_THE_PAGE[key]
                if action not in ACTIONS:
                    wrong.append(f"{name} {param}: no dashboard action {action!r}")
                elif field not in fields.get(action, set()):
                    wrong.append(f"{name} {param}: no field {field!r} in a form of {action!r}")
            elif key in SHOWN:
                route, field = SHOWN[key]
                get_action = route.rsplit("/", 1)[-1]
                if route not in routes:
                    wrong.append(f"{name} {param}: no page {route}")
                elif field and route != "/game/{game}" and field not in fields.get(
                        get_action, set()):
                    wrong.append(f"{name} {param}: no field {field!r} on {route}")
            else:
                missing.append(f"{name} {param}")
    assert not missing, ("on neither the page nor the CLI_ONLY list (add a form field and a "
                         "test, or a reason): " + "; ".join(missing))
    assert not wrong, "; ".join(wrong)
    stale = [k for k in (*ON_THE_PAGE, *SHOWN, *CLI_ONLY) if k[0] not in commands
             or (k[1] not in ("*", "(the command)") and k[1] not in _parameters(commands[k[0]]))]
    assert not stale, f"entries for commands or options the CLI no longer has: {stale}"
