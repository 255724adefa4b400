"""Commands of issue 3: `game new`, `game modifier`, `count`, `draft tally`, `replay`, `vote`,
and the tie facts `sheriff` (001) and `tiebreak`."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

import click

from assistant.cli import app, cli, common_options, draft
from assistant.cli.numbers import (
    ARCHIVE_POST,
    COUNT,
    DAY_NUMBER,
    PHASE_NUMBER,
    POST_ID,
)
from assistant.count.gm_facts import fact_proposals
from assistant.count.outcome import with_tally
from assistant.count.tally import Tally, count
from assistant.count.unlisted import accepted_aliases, alias_proposals
from assistant.errors import ConfigError, StoreError
from assistant.files import read_text
from assistant.game import Game
from assistant.game_inputs import (
    game_rules,
    record_alias,
    record_lynches,
    record_modifier,
    record_reset,
    tally_variants,
)
from assistant.gm import (
    count_and_state,
    enter_pm_vote,
    over_line,
    record_sheriff,
    record_tiebreak,
    tally_bbcode,
    why_name,
)
from assistant.limits import HEAVIEST_VOTE
from assistant.names import parse_players_file
from assistant.rulesets import find_ruleset, stored_name
from assistant.timezones import zone

# ---- shared helpers ---------------------------------------------------------------------




def _text(tally: Tally, why: str | None, tz: str = "UTC", over: str | None = None) -> str:
    lines = [f"{over}."] if over else []
    lines += [f"Day {tally.day}" if tally.day is not None else "Count", ""]
    for w in tally.wagons:
        shown = (
            f"{w.displayed}"
            if w.displayed == w.effective
            else f"{w.displayed}, counts {w.effective}"
        )
        lines.append(f"{w.target} ({shown}): {', '.join(w.voters)}")
    lines.append(f"Not voting ({len(tally.not_voting)}): {', '.join(tally.not_voting) or 'none'}")
    if tally.abstaining:
        lines.append(f"Abstaining ({len(tally.abstaining)}): {', '.join(tally.abstaining)}")
    lines.append(tally.lynch_rule())
    if tally.majority_note:
        lines.append(f"Note: {tally.majority_note}.")
    if tally.votes_hidden:
        # 004 Voice of Reason: "No votes are shown"; the GM still sees them here.
        lines.append(f"Note: no vote is shown in the tally post ({tally.votes_hidden}).")
    over = over_line(tally, tz)
    if over:
        lines.append(over)
    else:
        lynched = tally.outcome.said()
        at = f" (post {tally.outcome.at_post})" if tally.outcome.at_post is not None else ""
        lines.append(f"Outcome: {lynched}{at}: {tally.outcome.reason}")
    if why:
        votes = tally.votes if why == "*" else tally.votes_of(why)
        lines.append("")
        lines.append(f"Votes{'' if why == '*' else ' of ' + why} ({len(votes)}):")
        several = {v.post_id for v in tally.votes if v.mark is not None and v.mark > 1}
        for v in votes:
            where = f"post {v.post_id}" if v.post_id is not None else "PM"
            if v.post_id in several and v.mark is not None:
                where += f" #{v.mark}"  # the vote `rule --which N` names
            link = f" {v.url}" if v.url else ""
            lines.append(f"  {where}{link} [{v.markup}] {v.voter}: {v.text!r} -> {v.reason}")
    return "\n".join(lines)


def _game_tally(
    ctx: click.Context, game_id: str, at_post: int | None, at_text: str | None, day: int | None
) -> tuple[Game, Any, Tally, datetime, str | None]:
    """The count as `count` and `draft tally` show it, and "Game over: ..." once it is."""
    a = app(ctx)
    with a.open_game(game_id) as store:
        return count_and_state(store, a.clock.now(), at_post=at_post, at_text=at_text, day=day)


_why_option = click.option(
    "--why",
    is_flag=False,
    flag_value="*",
    default=None,
    metavar="[PLAYER]",
    help="Explain every vote (or one player's): post, markup, counted or not, and why.",
)
_at_options = [
    click.option(
        "--at-post", type=POST_ID, help="The count as it stood after this post (forum post id)."
    ),
    click.option(
        "--at",
        "at_text",
        metavar="TIME",
        help='The count as it stood at TIME: "2026-11-22 11:12", "11:12" (the last one), '
        '"Sunday 15:00"; game time zone.',
    ),
    click.option("--day", type=PHASE_NUMBER, help="Count this day instead of the current one."),
]


def at_options(func: Any) -> Any:
    for option in reversed(_at_options):
        func = option(func)
    return func


# ---- game ---------------------------------------------------------------------------------


@cli.group()
def game() -> None:
    """Create a game and record its setup."""


def _majority_options(func: Any) -> Any:
    """--at-deadline and --no-lynch-majority: a game's own [tally] variants (majority)."""
    func = click.option(
        "--no-lynch-majority",
        type=click.Choice(["majority", "one_less"]),
        help="The votes No Lynch needs: a majority, or one less (half the living).",
    )(func)
    return click.option(
        "--at-deadline",
        type=click.Choice(["no_lynch", "plurality"]),
        help="This game's rule when the deadline comes without a majority (majority rulesets).",
    )(func)


@game.command("new")
@click.argument("game_id")
@click.option("--thread", "thread_url", required=True, help="The game thread's URL.")
@click.option("--ruleset", "ruleset_name", required=True, help="A bundled ruleset or a .toml path.")
@click.option(
    "--players",
    "players_file",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="One player a line; aliases and replaced players after `|`.",
)
@click.option("--gm", "gms", multiple=True, help="A GM's forum name (repeat for co-GMs).")
@click.option("--title", help="The game's name in drafts and PM subjects (default: the thread's "
              "title without its day: \"Chat Mafia\" for \"Chat Mafia — Day 2\").")
@click.option("--tz", default=None,
              help="The game's time zone (IANA name); default: the zone `fetch --tz` gave the "
              "game, else UTC.")
@click.option("--forum-tz", "forum_tz", default=None,
              help="The zone the forum shows its dates in, when not the game's (SMF).")
@_majority_options
@common_options
@click.pass_context
def game_new(
    ctx: click.Context,
    game_id: str,
    thread_url: str,
    ruleset_name: str,
    players_file: Path,
    gms: tuple[str, ...],
    title: str | None,
    tz: str | None,
    forum_tz: str | None,
    at_deadline: str | None,
    no_lynch_majority: str | None,
) -> None:
    """Create GAME: its thread, ruleset, players, GMs, name and time zone. A game `fetch`
    made first is completed, keeping its zone unless --tz gives another (which is said)."""
    from assistant.scrapers import thread_url_info  # the forum pages' code, only here

    a = app(ctx)
    thread_url_info(thread_url)  # a URL that is not a topic is refused now, not at the first poll
    ruleset = find_ruleset(ruleset_name)  # every section checked: a broken file is refused now
    own = tally_variants(ruleset, at_deadline, no_lynch_majority)
    if tz is not None:
        zone(tz)
    if forum_tz:
        zone(forum_tz)
    slots = parse_players_file(read_text(players_file, "players file"), source=str(players_file))
    title = _title(title)
    with a.open_game(game_id, create=True) as store:
        known = store.config()
        if store.inputs("players"):
            raise StoreError(
                f"game {game_id!r} already exists in {a.data_dir} with its players; pick "
                "another name for a new game"
            )
        if known.get("thread_url") and store.crawl_state():
            # `fetch URL --game G` made the game first: complete it, on the same thread only.
            given, read = thread_url_info(thread_url), thread_url_info(known["thread_url"])
            if (given.base, given.topic_id) != (read.base, read.topic_id):
                raise StoreError(
                    f"game {game_id!r} already follows {known['thread_url']}, not "
                    f"{thread_url}; give that thread, or pick another name for a new game"
                )
            thread_url = known["thread_url"]
        kept = known.get("tz")
        if tz is not None and kept and kept != tz:
            click.echo(f"note: {game_id}'s time zone changes from {kept} (given to fetch) to "
                       f"{tz}", err=True)
        tz = tz or kept or "UTC"
        with store.batch():
            store.update_config(
                thread_url=thread_url,
                ruleset=stored_name(ruleset_name, ruleset),
                tz=tz,
                gms=list(gms),
                **({"forum_tz": forum_tz} if forum_tz else {}),
                **({"tally": own} if own else {}),
                **({"title": title} if title else {}),
            )
            store.add_input("players", {"players": [list(s.names) for s in slots]}, a.clock.now())
    a.emit(
        {
            "game": game_id,
            "thread_url": thread_url,
            "ruleset": ruleset.name,
            "tz": tz,
            "gms": list(gms),
            "title": title,
            "players": [list(s.names) for s in slots],
        },
        f"Created {game_id}: {len(slots)} players, ruleset {ruleset.name}"
        + "".join(f", {k} = {v}" for k, v in own.items())
        + f", GMs: {', '.join(gms) or 'none'}, time zone {tz}.",
    )


def _title(text: str | None) -> str | None:
    """A game's name as given, on one line; an empty one is refused (it would fall back)."""
    if text is None:
        return None
    title = " ".join(text.split())
    if not title:
        raise ConfigError("--title: give the game's name, e.g. --title \"Chat Mafia\"")
    return title


@game.command("title")
@click.argument("game_id", metavar="GAME")
@click.argument("title", required=False)
@common_options
@click.pass_context
def game_title_cmd(ctx: click.Context, game_id: str, title: str | None) -> None:
    """Show or set GAME's name in drafts, PM subjects and notifications (`game new
    --title`); without one, the thread's title without its day. Setting it is a GM input:
    `assistant log` lists it, `assistant undo` gives the game its earlier name back."""
    from assistant.corrections import set_title, title_shown

    a = app(ctx)
    with a.open_game(game_id) as store:
        if title is not None:
            shown, changed = set_title(store, title, a.clock.now())
        else:
            shown, changed = title_shown(store), False
    said = "Set. " if changed else ("Unchanged. " if title is not None else "")
    a.emit(
        {"game": game_id, "title": shown.title, "own": shown.own},
        said + f"{game_id} is called {shown.title!r} in drafts and subjects"
        + (f" ({shown.source}; give it a name with `assistant game title {game_id} NAME`)."
           if shown.source else "."),
    )


@game.command("rules")
@click.argument("game_id", metavar="GAME")
@_majority_options
@click.option("--auto-post", "auto_post", type=click.Choice(["tallies", "off"]),
              help="Let the daemon post the ruleset's interval tallies and answer a player "
              "who asks for the count, as the game's forum login (off by default).")
@click.option("--auto-post-gap", metavar="DURATION",
              help="At most one post of the daemon's own in this long (e.g. 2m; default: "
              "the ruleset's [auto_post] min_gap).")
@common_options
@click.pass_context
def game_rules_cmd(
    ctx: click.Context, game_id: str, at_deadline: str | None, no_lynch_majority: str | None,
    auto_post: str | None, auto_post_gap: str | None,
) -> None:
    """Show or set GAME's own majority variants over its ruleset's [tally]: what the
    deadline does without a majority, and the votes No Lynch needs; and what the daemon
    may post on its own (--auto-post)."""
    a = app(ctx)
    with a.open_game(game_id) as store:  # settings: `log` lists them; `undo` too
        data, text = game_rules(store, a.clock.now(), at_deadline, no_lynch_majority,
                                auto_post=auto_post, auto_post_gap=auto_post_gap)
    a.emit(data, text)


@game.command("modifier")
@click.argument("game_id")
@click.argument("player")
@click.option(
    "--weight",
    "vote_weight",
    type=int,  # checked with the modifier: one line, "a vote is worth 0 to 100"
    default=1,
    show_default=True,
    help="How many votes the player's vote is worth, 0 to 100 (doublevoter, Enchanter: 2).",
)
@click.option("--powerless", is_flag=True, help="The vote is shown but does not count (a hex).")
@click.option("--lover-of", help="The player's lover (lovers voting together get a bonus).")
@click.option("--day", type=PHASE_NUMBER, help="Only on this day (default: the whole game).")
@common_options
@click.pass_context
def game_modifier(
    ctx: click.Context,
    game_id: str,
    player: str,
    vote_weight: int,
    powerless: bool,
    lover_of: str | None,
    day: int | None,
) -> None:
    """Record how PLAYER's vote counts (from their role): weight, powerless, lover."""
    a = app(ctx)
    with a.open_game(game_id) as store:
        data, text = record_modifier(store, player, a.clock.now(), vote_weight=vote_weight,
                                     powerless=powerless, lover_of=lover_of, day=day)
    a.emit(data, text)


@game.command("alias")
@click.argument("game_id")
@click.argument("player")
@click.argument("account")
@common_options
@click.pass_context
def game_alias(ctx: click.Context, game_id: str, player: str, account: str) -> None:
    """Record ACCOUNT as another forum name of PLAYER (a renamed account, the answer to a
    non_player_vote alert): its posts and votes are PLAYER's from the start of the game."""
    a = app(ctx)
    with a.open_game(game_id) as store:
        data, text = record_alias(store, player, account, a.clock.now())
    a.emit(data, text)


@game.command("reset")
@click.argument("game_id")
@click.option("--at-post", type=POST_ID, required=True,
              help="Your post that reset the votes: every vote standing then ends.")
@common_options
@click.pass_context
def game_reset(ctx: click.Context, game_id: str, at_post: int) -> None:
    """Record that you reset the vote count in a post ("Votes are reset; day continues"):
    the votes standing then end, and the day counts on from none."""
    a = app(ctx)
    with a.open_game(game_id) as store:
        data, text = record_reset(store, at_post, a.clock.now())
    a.emit(data, text)


@game.command("lynches")
@click.argument("game_id")
@click.option("--day", type=PHASE_NUMBER, required=True, help="The day these lynches are for.")
@click.option("--available", type=COUNT, required=True,
              help="How many lynches that day has (003: the Town players who died the night "
                   "before, at most 3).")
@common_options
@click.pass_context
def game_lynches(ctx: click.Context, game_id: str, day: int, available: int) -> None:
    """Record how many lynches DAY has, when the engine does not know (no setup entered, or
    deaths the GM resolved by hand); the GM's number wins over the engine's."""
    a = app(ctx)
    with a.open_game(game_id) as store:
        data, text = record_lynches(store, day, available, a.clock.now())
    a.emit(data, text)


# ---- count / draft / vote -------------------------------------------------------------------


@cli.command("count")
@click.argument("game_id")
@at_options
@_why_option
@common_options
@click.pass_context
def count_cmd(
    ctx: click.Context,
    game_id: str,
    at_post: int | None,
    at_text: str | None,
    day: int | None,
    why: str | None,
) -> None:
    """The current vote count of GAME, as its ruleset counts it."""
    g, ruleset, tally, _now, over = _game_tally(ctx, game_id, at_post, at_text, day)
    who = why_name(tally, g, why, ruleset)
    app(ctx).emit(
        {
            **tally.to_json(why=True if who == "*" else (who or False)),
            **({"game_over": over} if over else {}),  # the shape while the game runs
        },
        lambda: _text(tally, who, g.tz, over),
    )


@draft.command("tally")
@click.argument("game_id")
@at_options
@common_options
@click.pass_context
def draft_tally(
    ctx: click.Context, game_id: str, at_post: int | None, at_text: str | None, day: int | None
) -> None:
    """The BBCode vote-count post for GAME, ready to paste."""
    g, ruleset, tally, now, _over = _game_tally(ctx, game_id, at_post, at_text, day)
    text = tally_bbcode(g, ruleset, tally, now)
    app(ctx).emit({**tally.to_json(), "bbcode": text}, text)


@cli.command("vote")
@click.argument("game_id")
@click.argument("voter")
@click.argument("target", required=False)
@click.option("--unvote", is_flag=True, help="Remove VOTER's vote instead.")
@click.option(
    "--at", "at_text", metavar="TIME", help="When the PM was sent (default: now); as count --at."
)
@common_options
@click.pass_context
def vote_cmd(
    ctx: click.Context,
    game_id: str,
    voter: str,
    target: str | None,
    unvote: bool,
    at_text: str | None,
) -> None:
    """Enter a vote VOTER sent to the GM by PM (004); counted like any other."""
    a = app(ctx)
    with a.open_game(game_id) as store:
        data, text = enter_pm_vote(
            store, voter, target, unvote=unvote, at_text=at_text, now=a.clock.now()
        )
    a.emit(data, text)


# ---- replay -----------------------------------------------------------------------------------


@cli.command("replay")
@click.argument("posts_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--ruleset", "ruleset_name", required=True)
@click.option(
    "--players",
    "players_file",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
)
@click.option("--gm", "gms", multiple=True, help="A GM's name: their posts are not votes.")
@click.option(
    "--from-post", type=ARCHIVE_POST, help="Count from this post number on (the day's start)."
)
@click.option("--to-post", type=ARCHIVE_POST, help="Count up to this post number.")
@click.option("--tz", default="UTC", show_default=True, help="Time zone of times without one.")
@click.option(
    "--forum-tz",
    help="Time zone of the forum's own date text (\"Mon Dec 06, 2010 4:04 pm\"); default --tz.",
)
@click.option(
    "--at-deadline",
    type=click.Choice(["no_lynch", "plurality"]),
    help="This game's rule when the deadline comes without a majority (majority rulesets).",
)
@click.option(
    "--no-lynch-majority",
    type=click.Choice(["majority", "one_less"]),
    help="The votes No Lynch needs: a majority, or one less (half the living).",
)
@click.option(
    "--gm-facts",
    is_flag=True,
    help="Accept every fact the count proposes, as the GM would for an archive: a death, "
    "replacement or vote reset the GM's posts announce, an account not in the players file "
    "read as the one player it can be (each shown as a note without it).",
)
@click.option(
    "--weight",
    "weights",
    multiple=True,
    metavar="NAME=N",
    help="NAME's vote is worth N (a doublevoter: NAME=2); repeat for each such player.",
)
@_why_option
@common_options
@click.pass_context
def replay(
    ctx: click.Context,
    posts_file: Path,
    ruleset_name: str,
    players_file: Path,
    gms: tuple[str, ...],
    from_post: int | None,
    to_post: int | None,
    tz: str,
    forum_tz: str | None,
    at_deadline: str | None,
    no_lynch_majority: str | None,
    weights: tuple[str, ...],
    gm_facts: bool,
    why: str | None,
) -> None:
    """Count an archived thread from a file of posts (JSON lines, or .jsonl.gz)."""
    from assistant.archive import read_posts_jsonl  # the forums' date formats, only here

    ruleset = find_ruleset(ruleset_name)  # every section checked: a broken file is refused now
    game_rules = {"at_deadline": at_deadline, "no_lynch_majority": no_lynch_majority}
    ruleset = with_tally(ruleset, **{k: v for k, v in game_rules.items() if v})
    zone(tz)
    if forum_tz is not None:
        zone(forum_tz)
    slots = parse_players_file(read_text(players_file, "players file"), source=str(players_file))
    posts = [
        p
        for p in read_posts_jsonl(posts_file, tz, forum_tz)
        if from_post is None or p.post_id >= from_post
    ]
    g = Game.from_parts(f"replay-{posts_file.stem}", slots, gms=gms, ruleset=ruleset.name, tz=tz)
    inputs = []
    for given in weights:
        player, weight = _weight(given)
        m = g.matcher().match(player, strict=True)
        if not m.ok:
            # A doublevoter dead before the day counted is no player of its file: said, not fatal.
            click.echo(
                f"warning: --weight {given}: {m.describe()} in {players_file}; not applied "
                f"(players: {', '.join(g.players)})",
                err=True,
            )
            continue
        inputs.append({"kind": "modifier", "data": {
            "player": m.slot, "vote_weight": weight, "source": "replay --weight"}})
    counted = [p for p in posts if to_post is None or p.post_id <= to_post]
    facts = fact_proposals(counted, g)
    if gm_facts:
        inputs += [f.as_input() for f in facts]
    if inputs:
        g = Game.from_parts(g.game_id, list(g.slots), gms=gms, ruleset=ruleset.name, tz=tz,
                            inputs=inputs)
    tally = count(posts, g, ruleset, at_post=to_post)
    proposals = alias_proposals(tally.votes, counted, g)
    accepted = accepted_aliases(proposals) if gm_facts else {}
    if accepted:
        inputs += [{"kind": "alias", "data": {"player": slot, "alias": account}}
                   for account, slot in accepted.items()]
        g = Game.from_parts(g.game_id, list(g.slots), gms=gms, ruleset=ruleset.name, tz=tz,
                            inputs=inputs)
        tally = count(posts, g, ruleset, at_post=to_post)
    who = why_name(tally, g, why, ruleset)
    doc = tally.to_json(why=True if who == "*" else (who or False))
    if proposals:
        doc["non_player_votes"] = [
            {"account": p.account, "votes": [{"post": post, "text": t} for post, t in p.votes],
             "silent": list(p.silent), "player": p.player,
             "accepted": p.account in accepted, "question": p.question(None)}
            for p in proposals
        ]

    if facts:
        doc["gm_facts"] = [
            {"kind": f.kind, "post": f.post_id, "said": f.said, "player": f.player,
             "replacement": f.replacement, "how": f.how, "accepted": gm_facts}
            for f in facts
        ]

    def text() -> str:
        notes = [
            f"Accepted (--gm-facts): {f.describe()}." if gm_facts
            else f"Note: the GM's {f.describe()}: not applied; --gm-facts accepts it"
            for f in facts
        ] + [
            f"Accepted (--gm-facts): {p.account} votes as {accepted[p.account]}."
            if p.account in accepted else f"Note: {p.question(None)}"
            for p in proposals
        ]
        return "\n".join([_text(tally, who, g.tz), *notes])

    app(ctx).emit(doc, text)


def _weight(given: str) -> tuple[str, int]:
    """ "TwoFace=2" -> ("TwoFace", 2); anything else is refused with what to write."""
    name, sep, value = given.rpartition("=")
    if not sep or not name.strip() or not value.strip().isdigit() \
            or int(value) > HEAVIEST_VOTE:
        raise ConfigError(
            f"--weight {given!r}: write NAME=N, the player's name and what the vote is "
            f"worth, 0 to {HEAVIEST_VOTE} (a doublevoter: --weight 'Jd-=2')"
        )
    return name.strip(), int(value)


# ---- who breaks a tie: the sheriff (001) and the decision ------------------------------------


@cli.command("sheriff")
@click.argument("game_id")
@click.argument("player")
@click.option(
    "--day",
    type=DAY_NUMBER,
    help="The day of the election (default: the current day); serves from it on.",
)
@click.option(
    "--at-post",
    type=POST_ID,
    help="Your post announcing the election: that day's lynch vote starts after it, and the "
    "votes before it are shown as election votes.",
)
@common_options
@click.pass_context
def sheriff_cmd(
    ctx: click.Context, game_id: str, player: str, day: int | None, at_post: int | None
) -> None:
    """Record PLAYER as the sheriff the village elected (001): the sheriff breaks lynch ties."""
    a = app(ctx)
    with a.open_game(game_id) as store:
        data, text = record_sheriff(store, a.clock.now(), player, day=day, at_post=at_post)
    a.emit(data, text)


@cli.command("tiebreak")
@click.argument("game_id")
@click.argument("choice")
@click.option(
    "--day",
    type=DAY_NUMBER,
    help="The day whose tie this decides (default: the current day).",
)
@common_options
@click.pass_context
def tiebreak_cmd(ctx: click.Context, game_id: str, choice: str, day: int | None) -> None:
    """Record whom the tie's decider chose (001: the sheriff; 004: the GM): CHOICE is lynched
    if it is one of the tied players."""
    a = app(ctx)
    with a.open_game(game_id) as store:
        data, text = record_tiebreak(store, a.clock.now(), choice, day=day)
    a.emit(data, text)
