"""`assistant fetch` (read a thread into a game) and `assistant posts` (show what was read)."""

from __future__ import annotations

import html
import os
import re
from typing import Any
from zoneinfo import ZoneInfo

import click

from assistant.cli import app, cli, common_options
from assistant.cli.numbers import DELAY
from assistant.errors import AssistantError, ConfigError
from assistant.gm import alerts_line, check_now
from assistant.models import to_iso
from assistant.phases import game_zone, local_text
from assistant.poller import Poller, PollResult, PollSettings, forum_zone_name
from assistant.scrapers import thread_url_info
from assistant.scrapers.http import Fetcher, FetchSettings, guarded_client
from assistant.scrapers.login import login
from assistant.store import GameStore, StoredPost


@cli.command("fetch")
@click.argument("url", required=False)
@click.option("--game", "game_id", required=True, help="The game to store the thread in.")
@click.option("--tz", "tz_name",
              help="The game's time zone (IANA name), as `game new --tz`; stored with the game.")
@click.option("--forum-tz", "forum_tz_name", metavar="ZONE",
              help="The zone the forum shows its times in to guests, when it is not the game's "
                   "(SMF writes text dates); stored with the game.")
@click.option("--login", "user", help="Log in as this member first (members-only boards).")
@click.option("--password-env", metavar="VARIABLE",
              help="The environment variable holding the password for --login.")
@click.option("--recheck", is_flag=True, help="Also re-read the earlier pages of the last day.")
@click.option("--delay", type=DELAY, default=None,
              help="Seconds between requests (default 1.5).")
@common_options
@click.pass_context
def fetch(ctx: click.Context, url: str | None, game_id: str, tz_name: str | None,
          forum_tz_name: str | None, user: str | None, password_env: str | None,
          recheck: bool, delay: float | None) -> None:
    """Read the thread at URL into game GAME (the whole thread the first time, then what is new).

    A new game is created and remembers URL and --tz; later fetches may leave URL out.
    """
    a = app(ctx)
    if user and not password_env:
        raise ConfigError("--login needs --password-env VARIABLE naming where the password is")
    with a.open_game(game_id, create=True) as store:
        config = store.config()
        given = bool(user)
        if not user and config.get("login"):  # the login kept with the game by a first fetch
            user, password_env = config["login"].get("user"), config["login"].get("password_env")
        password = None
        if user and password_env:
            password = os.environ.get(password_env)
            if not password:
                raise ConfigError(
                    f"--password-env {password_env}: that environment variable is not set or "
                    f"empty; set it to the password of {user!r} (e.g. `read -s {password_env}; "
                    f"export {password_env}`)"
                )
        # A game whose thread was never read may still change its mind about the URL.
        thread_url = _thread_url(url, config, game_id, locked=bool(store.crawl_state()))
        game_tz = game_zone(tz_name or config.get("tz") or "UTC")
        forum_tz = game_zone(forum_tz_name) if forum_tz_name else None
        # The login stays with the game so the daemon can log in too: the member's name and
        # the variable's name, never the password.
        account = {"login": {"user": user, "password_env": password_env}} if given else {}
        store.update_config(thread_url=thread_url, tz=game_tz.key,
                            **({"forum_tz": forum_tz.key} if forum_tz else {}), **account)
        zone = game_zone(forum_zone_name(store.config()) or "UTC")
        settings = FetchSettings() if delay is None else FetchSettings(delay=max(0.0, delay))
        with Fetcher(guarded_client(), settings, clock=a.clock) as fetcher:
            if user and password:
                login(fetcher, thread_url_info(thread_url), user, password)
            poller = Poller(store, fetcher, a.clock, zone, PollSettings(), thread_url=thread_url)
            result = poller.poll(recheck=True if recheck else None)
        canonical = store.crawl_state().get("thread_url")
        if canonical and canonical != thread_url:
            store.update_config(thread_url=canonical)
        stored = store.posts()
        total = len(stored)
        _read_marks(store, stored)
        fresh = check_now(store, a.clock.now())  # `alerts` right after a fetch is complete
    a.emit(
        {
            "game": game_id, **result.to_dict(), "posts_stored": total,
            "new_alerts": None if fresh is None else [s.to_json() for s in fresh],
        },
        lambda: _summary(game_id, result, total)
        + ("" if fresh is None else f"; {alerts_line(fresh)}"
           + (f": `assistant alerts {game_id}`" if fresh else "")),
    )  # fmt: skip


def _read_marks(store: GameStore, stored: list[StoredPost]) -> None:
    """The vote-like marks of what was stored, kept beside the game (marks_cache.py) so that
    the first count after a fetch parses no post's HTML. A game whose ruleset cannot be read
    is left to `count` to say so."""
    from assistant.count.marks_cache import read_marks_of
    from assistant.count.votes import VoteRules
    from assistant.monitor import game_ruleset

    try:
        rules = VoteRules.from_ruleset(game_ruleset(store))
    except AssistantError:
        return
    read_marks_of(store.path, stored, rules)


def _thread_url(url: str | None, config: dict[str, Any], game_id: str, *, locked: bool) -> str:
    """The URL to read: the one given, else the game's. Once a thread was read, another
    topic is refused; before that (only `game new` set it) a new URL replaces it."""
    known = config.get("thread_url")
    if url is None:
        if not known:
            raise ConfigError(
                f"game {game_id!r} has no thread yet: give its URL, e.g. `assistant fetch "
                f"https://forum.example.org/index.php?topic=1234.0 --game {game_id}`"
            )
        return known
    if known and locked:
        given, stored = thread_url_info(url), thread_url_info(known)
        same = (given.base, given.topic_id) == (stored.base, stored.topic_id)
        if not same and given.topic_id is not None:
            raise ConfigError(
                f"game {game_id!r} follows {known}, not {url}; use a new --game name for "
                "another thread"
            )
    thread_url_info(url)  # an actionable error before any request
    return url


def _summary(game_id: str, r: PollResult, total: int) -> str:
    what = "read the thread" if r.backfill else "polled"
    extra = " (re-read earlier pages)" if r.rechecked else ""
    return (
        f"{game_id}: {what}{extra}: {len(r.new)} new, {len(r.changed)} edited, "
        f"{len(r.vanished)} vanished post(s); {len(r.pages_read)} page(s) with {r.requests} "
        f"request(s); the thread has {r.page_count} page(s), {total} post(s) stored"
    )


# ---- posts ---------------------------------------------------------------------------

_POST_ID = re.compile(r"^(?:#|id:|msg|p)(\d+)$", re.I)


@cli.command("posts")
@click.argument("game_id", metavar="GAME")
@click.option("--since", metavar="POSITION_OR_POST_ID",
              help="From this position in the thread on (0 is the opening post), or from a "
                   "post id written #123 (also msg123 / p123).")
@click.option("--author", help="Only posts by this name (case does not matter).")
@click.option("--edited", is_flag=True, help="Only posts that were edited.")
@click.option("--vanished/--no-vanished", default=True,
              help="Include posts a moderator deleted (default: yes).")
@common_options
@click.pass_context
def posts(ctx: click.Context, game_id: str, since: str | None, author: str | None,
          edited: bool, vanished: bool) -> None:
    """Show the posts stored for GAME, every version of each."""
    a = app(ctx)
    with a.open_game(game_id) as store:
        stored = store.posts(include_vanished=vanished)
        zone = game_zone(store.config().get("tz") or "UTC")
    chosen = _select(stored, since, author, edited)
    a.emit([post_json(sp) for sp in chosen], lambda: _posts_text(chosen, stored, author, zone))


def _select(stored: list[StoredPost], since: str | None, author: str | None,
            edited: bool) -> list[StoredPost]:
    out = stored
    if since is not None:
        text = since.strip()
        m = _POST_ID.match(text)
        if m:
            pid = int(m.group(1))
            anchor = next((sp for sp in stored if sp.post_id == pid), None)
            if anchor is None:
                raise ConfigError(f"--since {since}: no post with id {pid} is stored")
            out = [sp for sp in out if (sp.latest.position, sp.post_id)
                   >= (anchor.latest.position, anchor.post_id)]
        elif text.isdigit():
            out = [sp for sp in out if sp.latest.position >= int(text)]
        else:
            raise ConfigError(
                f"--since {since!r}: give a position in the thread (120) or a post id (#4567)"
            )
    if author is not None:
        wanted = " ".join(author.split()).casefold()
        out = [sp for sp in out if " ".join(sp.latest.author.split()).casefold() == wanted]
    if edited:
        out = [sp for sp in out if sp.edited]
    return out


def post_json(sp: StoredPost) -> dict[str, Any]:
    """The stable JSON shape of a stored post (scripts rely on it)."""
    p = sp.latest
    return {
        "id": sp.post_id,
        "position": p.position,
        "page": p.page,
        "author": p.author,
        "author_id": p.author_id,
        "posted_at": to_iso(p.posted_at),
        "edited": sp.edited,
        "vanished_at": to_iso(sp.vanished_at),
        "url": p.url,
        "body_html": p.body_html,
        "quotes": [{"author": q.author, "post_id": q.post_id} for q in p.quotes],
        "versions": [
            {
                "seen_at": to_iso(v.seen_at),
                "hash": v.hash,
                "body_html": v.post.body_html,
                "edit": None if v.post.edit is None else {
                    "at": to_iso(v.post.edit.at), "by": v.post.edit.by,
                    "reason": v.post.edit.reason, "count": v.post.edit.count,
                },
            }
            for v in sp.versions
        ],
    }


_TAG = re.compile(r"<[^>]+>")


def _posts_text(chosen: list[StoredPost], stored: list[StoredPost], author: str | None,
                zone: ZoneInfo) -> str:
    """One line a post: `#id` (as `--since #id`, alerts and counts write it), its position,
    when it was posted in the game's time zone, the author, and the start of the text."""
    if not chosen:
        if author and stored:
            names = sorted({sp.latest.author for sp in stored}, key=str.casefold)
            return f"no posts by {author!r}; authors in this thread: {', '.join(names)}"
        return "no posts match" if stored else "no posts stored yet: run `assistant fetch` first"
    lines = []
    for sp in chosen:
        p = sp.latest
        flags = "".join([
            f" [edited, {len(sp.versions)} versions]" if sp.edited and len(sp.versions) > 1
            else " [edited]" if sp.edited else "",
            " [vanished]" if sp.vanished_at else "",
        ])
        text = " ".join(html.unescape(_TAG.sub(" ", p.body_html)).split())
        snippet = text if len(text) <= 70 else text[:69] + "…"
        lines.append(f"{'#' + str(sp.post_id):<8} pos {p.position:<5} "
                     f"{local_text(p.posted_at, zone)}  {p.author}{flags}: {snippet}")
    return "\n".join(lines)
