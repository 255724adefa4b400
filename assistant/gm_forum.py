"""What the GM's forum account writes and reads, as plain functions of a game's store,
shared by the command line (`post`, `send`, `inbox`) and the dashboard as `gm.py` is: which
draft is posted and when it is refused, which PMs a `send` kind sends, the account, the
inbox. The writing and its facts are `outbox.py` and `inbox.py`; the drafts are `gm.py`'s.
Nothing here prints.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import datetime
from typing import TYPE_CHECKING

from assistant.errors import ConfigError
from assistant.gm import (
    dawn_draft,
    draft_result,
    game_tally,
    pm_drafts,
    replay_of,
    require_posts,
    tally_bbcode,
    title_of,
)
from assistant.monitor import load_game
from assistant.store import GameStore

if TYPE_CHECKING:
    from assistant.clock import Clock
    from assistant.inbox import InboxMessage, InboxRead
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
    from assistant.outbox import gm_account_check, login_of, refuse_repeat

    if not again:
        refuse_repeat(store, draft)
    user, _password = login_of(store)
    note = gm_account_check(store, user, add=False)
    return [note] if note else []


def post_to_thread(store: GameStore, account: Account, draft: PostDraft,
                   clock: Clock) -> PostResult:
    """Post the confirmed draft as the GM's account (the fact is stored)."""
    from assistant.outbox import post

    return post(store, account, draft, clock)


def result_pm_batch(store: GameStore, now: datetime, night: int | None) -> list[PmDraft]:
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


PM_BATCHES: dict[str, Callable[[GameStore, datetime, int | None], list[PmDraft]]] = {
    "result-pms": result_pm_batch,
}
"""What `send GAME KIND` sends: KIND -> the drafts (given the game, the moment and
`--night`). A new kind of PM draft is one line here."""


def pm_batch(store: GameStore, kind: str, now: datetime, night: int | None) -> list[PmDraft]:
    if kind not in PM_BATCHES:
        raise ConfigError(f"{kind!r}: send one of {', '.join(PM_BATCHES)}")
    drafts = PM_BATCHES[kind](store, now, night)
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


def read_gm_inbox(store: GameStore, account: Account, now: datetime) -> InboxRead:
    """Read the GM's forum inbox and keep the players' messages since the game began."""
    from assistant.inbox import read_inbox

    return read_inbox(store, account, now)


def inbox_list(store: GameStore) -> list[InboxMessage]:
    """The players' messages kept so far (what order proposals are derived from)."""
    from assistant.inbox import messages

    return messages(store)
