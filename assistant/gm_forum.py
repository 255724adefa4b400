"""What the GM's forum account writes and reads, as plain functions of a game's store,
shared by the command line (`post`, `send`) and the dashboard as `gm.py` is: which draft
is posted and when it is refused, which PMs a `send` kind sends, the account. The writing
and its facts are `outbox.py`; the drafts are `gm.py`'s; the inbox is `gm_inbox.py`'s.
Nothing here prints.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

from assistant.errors import ConfigError
from assistant.gm import (
    dawn_draft,
    draft_result,
    game_tally,
    pm_drafts,
    prod_drafts,
    replay_of,
    require_posts,
    role_pm_drafts,
    tally_bbcode,
    title_of,
)
from assistant.models import to_iso
from assistant.monitor import game_ruleset, load_game
from assistant.phases import format_duration
from assistant.store import GameStore

if TYPE_CHECKING:
    from assistant.clock import Clock
    from assistant.outbox import Account, PmDraft, PostDraft, PostResult, SendReport
    from assistant.scrapers.http import Fetcher, FetchSettings
    from assistant.scrapers.writing import Recipient

POST_DRAFTS = ("tally", "dusk", "dawn")
"""The drafts `post` takes by name; anything else is a file to post as it is."""


def post_draft_of(store: GameStore, what: str, now: datetime, *, day: int | None = None,
                  night: int | None = None, text: str | None = None) -> PostDraft:
    """The post `post GAME WHAT` would make: the tally, the dusk or dawn draft, or a file's
    text (`text`, WHAT its name). A dusk before its day is over or confirmed, and a dawn
    of a night not resolved, are refused: posted, they would announce a lynch or deaths
    the game has not recorded."""
    from assistant.outbox import PostDraft

    game = store.game_id
    if what == "tally":
        g, ruleset, tally, at = game_tally(store, now, day=day)
        return PostDraft("tally", tally_bbcode(g, ruleset, tally, at).strip() + "\n", "day",
                         tally.day)
    if what == "dusk":
        from assistant.monitor import draft_dusk

        require_posts(store, load_game(store))
        result = draft_dusk(store, now, day=day)
        flag = f" --day {result.day}" if result.day is not None else ""
        if not result.final:
            raise ConfigError(
                f"Day {result.day} of {game} is not over yet: its dusk would announce a lynch "
                f"the count may still change; post it after the day ends (`assistant draft "
                f"dusk {game}{flag}` shows it now)")
        if not result.confirmed:
            raise ConfigError(
                f"the dusk of Day {result.day} of {game} is not confirmed: record its lynch "
                f"first with `assistant draft dusk {game}{flag} --confirm`, then post it")
        return PostDraft("dusk", result.post.strip() + "\n", "day", result.day)
    if what == "dawn":
        doc = dawn_draft(store, night)
        if not doc["confirmed"]:
            raise ConfigError(
                f"night {doc['night']} of {game} is not resolved: confirm it with `assistant "
                f"resolve {game} --night {doc['night']}`, then post its dawn")
        return PostDraft("dawn", doc["post"].strip() + "\n", "night", doc["night"])
    if text is None or not text.strip():
        raise ConfigError(f"{what}: the file is empty; nothing to post")
    return PostDraft("file", text.strip() + "\n", source=what)


def post_checks(store: GameStore, draft: PostDraft, *, again: bool) -> list[str]:
    """What must be said before the GM confirms a post: a repeat is refused (unless
    `again`), a player's login refused; the lines returned are shown with the draft."""
    from assistant.outbox import refuse_repeat

    if not again:
        refuse_repeat(store, draft)
    return account_checks(store)


def account_checks(store: GameStore) -> list[str]:
    """Before the GM is asked to confirm a write: the game has a login and its password is
    set, and the login is no player's (refused); the line returned says the account will
    be added to the GMs."""
    from assistant.outbox import gm_account_check, login_of

    user, _password = login_of(store)
    note = gm_account_check(store, user, add=False)
    return [note] if note else []


def post_to_thread(store: GameStore, account: Account, draft: PostDraft,
                   clock: Clock) -> PostResult:
    """Post the confirmed draft as the GM's account (the fact is stored)."""
    from assistant.outbox import post

    return post(store, account, draft, clock)


class PmBatch(Protocol):
    """What `send GAME KIND` sends for one KIND: its drafts, given the game, the moment,
    `--night` (result PMs) and `--since` (prods)."""

    def __call__(self, store: GameStore, now: datetime, night: int | None, *,
                 since: datetime | None = None) -> list[PmDraft]: ...


def result_pm_batch(store: GameStore, now: datetime, night: int | None, *,
                    since: datetime | None = None) -> list[PmDraft]:
    """The result PMs of a resolved night, one per player who gets one."""
    from assistant.outbox import pm_draft

    rep = replay_of(store)[1]
    result, confirmed = draft_result(store, night, rep)
    if not confirmed:
        raise ConfigError(
            f"night {result.number} of {store.game_id} is not resolved: confirm it with "
            f"`assistant resolve {store.game_id} --night {result.number}`, then send its PMs")
    texts = pm_drafts(store, now, night=result.number)
    title = title_of(store)
    return [pm_draft("result_pm", player, text, title=title, phase="night",
                     number=result.number) for player, text in texts.items()]


def role_pm_batch(store: GameStore, now: datetime, night: int | None, *,
                  since: datetime | None = None) -> list[PmDraft]:
    """The role PMs of the setup (`draft role-pms`), one per player."""
    from assistant.outbox import pm_draft

    title = title_of(store)
    return [pm_draft("role_pm", player, text, title=title)
            for player, text in role_pm_drafts(store).items()]


def prod_batch(store: GameStore, now: datetime, night: int | None, *,
               since: datetime | None = None) -> list[PmDraft]:
    """The prods (`draft prods`): one PM per living player who has not posted (or voted) as
    the ruleset asks. A player is prodded once a phase: a later run sends only to those
    who have fallen behind since, even though the wording (the posts made) changed."""
    from assistant.monitor import load_view
    from assistant.outbox import pm_draft

    view = load_view(store, now)
    texts = prod_drafts(store, now, since=since, view=view)
    if not texts:
        raise ConfigError(
            f"nobody to prod in {store.game_id}: every living player has posted (and voted) "
            "as the ruleset asks")
    phase = view.phase
    kind, number = (phase.kind, phase.number) if phase is not None else (None, None)
    title = title_of(store)
    return [pm_draft("prod", player, text, title=title, phase=kind, number=number,
                     once=f"{kind} {number}") for player, text in texts.items()]


PM_BATCHES: dict[str, PmBatch] = {
    "result-pms": result_pm_batch,
    "role-pms": role_pm_batch,
    "prods": prod_batch,
}
"""What `send GAME KIND` sends: KIND -> its drafts. A new kind of PM draft is one line
here (the dashboard's Send buttons follow it)."""

OPTION_OF = {"night": "result-pms", "since": "prods"}
"""The one kind each of `--night` and `--since` is for (given with another, refused)."""


def pm_batch(store: GameStore, kind: str, now: datetime, night: int | None = None, *,
             since: datetime | None = None) -> list[PmDraft]:
    """The PMs `send GAME KIND` would send (sent or not yet)."""
    if kind not in PM_BATCHES:
        raise ConfigError(f"{kind!r}: send one of {', '.join(PM_BATCHES)}")
    given = {"night": night, "since": since}
    for name, only in OPTION_OF.items():
        if given[name] is not None and kind != only:
            raise ConfigError(f"--{name} is for `send {store.game_id} {only}`, not {kind}")
    drafts = PM_BATCHES[kind](store, now, night, since=since)
    if not drafts:
        raise ConfigError(f"no {kind} to send for {store.game_id}")
    return drafts


def pms_to_send(store: GameStore, drafts: list[PmDraft]) -> tuple[list[PmDraft], list[PmDraft]]:
    """(not sent yet, recorded as sent) of `drafts`."""
    from assistant.outbox import pms_sent

    done = {d["key"] for d in pms_sent(store)}
    return [d for d in drafts if d.key not in done], [d for d in drafts if d.key in done]


def pm_recipients(store: GameStore) -> dict[str, Recipient]:
    from assistant.outbox import recipients

    return recipients(store, load_game(store))


def send_pm_batch(store: GameStore, account: Account, drafts: list[PmDraft], clock: Clock,
                  on_sent: Callable[[PmDraft, int], None] | None = None) -> SendReport:
    """Send the confirmed PMs as the GM's account (each recorded as it goes)."""
    from assistant.outbox import gm_account_check, send_pms

    added = gm_account_check(store, account.user, add=True)
    if added:
        account.notes.append(added)
    return send_pms(store, account, drafts, clock, on_sent=on_sent)


def forum_account(store: GameStore, settings: FetchSettings | None = None,
                  fetcher: Fetcher | None = None) -> AbstractContextManager[Account]:
    """The GM's forum account of the game, logged in (`with forum_account(store) as a:`)."""
    from assistant.outbox import open_account

    return open_account(store, settings=settings, fetcher=fetcher)


AUTO_POST_MODES = ("tallies", "off")
"""`game rules GAME --auto-post`: what the daemon may post on its own."""


def set_auto_post(store: GameStore, mode: str | None, gap: str | None,
                  now: datetime) -> list[str]:
    """Turn the daemon's own tallies on or off for the game, or set their least gap (a
    setting: `log` lists it, `undo` takes it back); the lines returned say what it means.
    On needs the GM's forum login (`fetch --login`), not a player's, and a ruleset with
    interval tallies or request phrases. Turned on, only requests made from now on are
    answered (`after_post`: the last post stored)."""
    from assistant.corrections import record_setting
    from assistant.outbox import gm_account_check
    from assistant.phases import parse_duration

    game = store.game_id
    if mode is not None and mode not in AUTO_POST_MODES:
        raise ConfigError(f"--auto-post {mode!r}: give one of {', '.join(AUTO_POST_MODES)}")
    values: dict[str, object] = {}
    notes: list[str] = []
    if gap is not None:
        parse_duration(gap, where="--auto-post-gap")
        values["gap"] = gap
    if mode == "tallies":
        ruleset = game_ruleset(store)
        if ruleset.phases.tally_interval is None and not ruleset.auto_post.phrases():
            raise ConfigError(
                f"{ruleset.name} asks for no interval tallies and has no phrases a player asks "
                f"for the count with ([auto_post] requests): the daemon would post nothing in "
                f"{game}; give the game a ruleset that has them (e.g. a copy of chat-mafia)")
        user = (store.config().get("login") or {}).get("user")
        if not user:
            raise ConfigError(
                f"game {game!r} has no forum login to post with: run `assistant fetch --game "
                f"{game} --login USER --password-env VARIABLE` once as the GM's forum account")
        note = gm_account_check(store, user, add=False)
        if note:
            notes.append(note + " at the first post")
        posts = store.posts()
        values |= {"mode": "tallies", "since": to_iso(now),
                   "after_post": max((sp.post_id for sp in posts), default=0)}
    elif mode == "off":
        values["mode"] = "off"
    if values:
        record_setting(store, "auto_post", values, now)
    return notes + [auto_post_line(store)]


def auto_post_line(store: GameStore) -> str:
    """What the daemon posts on its own in the game, in one line."""
    from assistant.tally_requests import gap_of, settings_of

    settings = settings_of(store.config())
    ruleset = game_ruleset(store)
    gap = gap_of(settings.get("gap"), ruleset.auto_post, where="auto_post gap")
    if settings.get("mode") != "tallies":
        return (f"auto_post = off  (the daemon posts nothing in {store.game_id}; "
                "--auto-post tallies to let it)")
    interval = ruleset.phases.tally_interval
    what = [f"the interval tallies (every {format_duration(interval)})"] if interval else []
    if ruleset.auto_post.phrases():
        what.append(f"a tally for a player who asks ({len(ruleset.auto_post.phrases())} "
                    f"phrases of {ruleset.name})")
    return (f"auto_post = tallies  (the daemon posts {' and '.join(what)}, at most one post "
            f"in {format_duration(gap)}, never a dusk or dawn; the daemon needs the password "
            "variable of the game's login)")
