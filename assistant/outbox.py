"""What the GM's forum account writes: drafts posted into the game thread and PMs sent to
players, each write a fact of the game, and none ever made twice.

The idempotency key of a write is its draft's hash. Before the form goes out an attempt
is stored (`post_attempt` / `pm_attempt`, with the thread's last post or the account's
last PM known then); once the forum took it, what was written (`posted` / `pm_sent`, with
the post or PM id). An attempt left without its write (the connection dropped after
sending, the process was killed) is looked for in the thread or the sent box before
anything is sent again: found, it is recorded as written; not found, it is written.

    post_attempt {"key", "attempt", "draft", "phase", "number", "after"}
    posted       {"key", "attempt", "draft", "phase", "number", "post_id", "url",
                  "posted_at", "account", "found_after_failure"}
    pm_attempt   {"key", "attempt", "kind", "player", "phase", "number", "after_pm"}
    pm_sent      {"key", "attempt", "kind", "player", "to", "phase", "number", "subject",
                  "text", "pm_id", "sent_at", "found_after_failure"}

The account is the login kept with the game by `fetch --login USER --password-env VAR`
(the password only ever in that environment variable). The posts it makes are the host's:
its forum name is among the game's GMs, so a poll reads them back as host posts, never
as votes.
"""

from __future__ import annotations

import hashlib
import os
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from assistant.clock import Clock, SystemClock
from assistant.errors import (
    ConfigError,
    ForumError,
    UncertainWriteError,
    WriteRefusedError,
)
from assistant.game import Game, load_game
from assistant.models import to_iso
from assistant.phases import game_zone
from assistant.poller import forum_zone_name
from assistant.scrapers import thread_url_info
from assistant.scrapers.http import Fetcher, FetchSettings, guarded_client
from assistant.scrapers.login import login
from assistant.scrapers.writing import ForumWriter, Recipient, Written
from assistant.store import GameStore

POST_ATTEMPT, POSTED = "post_attempt", "posted"
PM_ATTEMPT, PM_SENT = "pm_attempt", "pm_sent"
ONE_A_PHASE = frozenset({"dusk", "dawn"})
"""Drafts a phase has one of: a second one for the same day or night is refused even if
its text changed (`--again` to post it anyway)."""


def text_key(*parts: str) -> str:
    """The idempotency key of a write: the hash of its draft."""
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class PostDraft:
    """A post to make in the game thread."""

    kind: str
    """"tally", "dusk", "dawn" or "file"."""
    text: str
    """BBCode, exactly as it will be posted."""
    phase: str | None = None
    number: int | None = None
    source: str | None = None
    """The file a "file" draft was read from."""
    by: str | None = None
    """Who wrote it when not the GM's command: "daemon" (an auto-posted tally)."""
    why: str | None = None
    """Why the daemon posted it ("the interval tally of 12:05", "asked for in post 7")."""

    @property
    def key(self) -> str:
        return text_key(self.text)

    @property
    def label(self) -> str:
        if self.kind == "file":
            return f"the file {self.source}"
        where = f" of {self.phase.title()} {self.number}" if self.phase and self.number else ""
        return f"the {self.kind}{where}"


@dataclass(frozen=True)
class PmDraft:
    """One PM to send to one player."""

    kind: str
    """The fact kind it is known as: "result_pm", "role_pm", "prod"."""
    player: str
    """The player's slot (as the players file names it)."""
    subject: str
    body: str
    phase: str | None = None
    number: int | None = None
    once: str | None = None
    """What makes a second PM to the player a repeat when it is not the same text: a prod
    is sent once a phase ("day 2"), however its wording changed since."""

    @property
    def key(self) -> str:
        if self.once is not None:
            return text_key(self.kind, self.player, self.once)
        return text_key(self.kind, self.player, self.subject, self.body)


def pm_draft(kind: str, player: str, text: str, *, title: str, phase: str | None = None,
             number: int | None = None, once: str | None = None) -> PmDraft:
    """A drafted PM (`To: ... / Subject: ...` header, a blank line, the body) as one to send;
    a draft without the header gets the game's title for a subject."""
    lines = text.strip("\n").split("\n")
    subject = f"{title}: {kind.replace('_', ' ')}"
    while lines and lines[0].split(":", 1)[0].strip().lower() in ("to", "subject"):
        head, _, value = lines.pop(0).partition(":")
        if head.strip().lower() == "subject" and value.strip():
            subject = value.strip()
    while lines and not lines[0].strip():
        lines.pop(0)
    return PmDraft(kind, player, subject, "\n".join(lines).rstrip() + "\n", phase, number,
                   once)


# ---- the account ------------------------------------------------------------------------

@dataclass
class Account:
    """The GM's forum account, logged in: what posts and sends."""

    user: str
    writer: ForumWriter
    fetcher: Fetcher
    notes: list[str] = field(default_factory=list)
    """What was set up on the way (the account added to the game's GMs)."""


def login_of(store: GameStore, entry: Mapping[str, Any] | None = None) -> tuple[str, str]:
    """(user, password) of the game's kept login (or of `entry`, a co-moderator's kept for
    the inbox: {"user", "password_env"}); ConfigError says how to give one."""
    game = store.game_id
    account = entry if entry is not None else (store.config().get("login") or {})
    user, variable = account.get("user"), account.get("password_env")
    if not user or not variable:
        raise ConfigError(
            f"game {game!r} has no forum login to write with: run `assistant fetch --game "
            f"{game} --login USER --password-env VARIABLE` once as the GM's forum account "
            "(the password stays in that environment variable)"
        )
    password = os.environ.get(variable)
    if not password:
        raise ConfigError(
            f"game {game!r} writes as {user!r} with the password in the environment variable "
            f"{variable}, which is not set or empty; set it (e.g. `read -s {variable}; export "
            f"{variable}`) and run the command again"
        )
    return user, password


@contextmanager
def open_account(store: GameStore, *, settings: FetchSettings | None = None,
                 fetcher: Fetcher | None = None,
                 entry: Mapping[str, Any] | None = None) -> Iterator[Account]:
    """Log in as the game's kept login (or `entry`'s, see `login_of`) on the game's forum
    (`fetcher`: for tests)."""
    user, password = login_of(store, entry)
    config = store.config()
    if not config.get("thread_url"):
        raise ConfigError(f"game {store.game_id!r} has no thread yet: run `assistant fetch`")
    ref = thread_url_info(config["thread_url"])
    own = fetcher is None
    fetcher = fetcher or Fetcher(guarded_client(), settings or FetchSettings())
    try:
        login(fetcher, ref, user, password)
        yield account_on(config, user, fetcher, SystemClock().now)
    finally:
        if own:
            fetcher.close()


def account_on(config: Mapping[str, Any], user: str, fetcher: Fetcher,
               now: Callable[[], datetime]) -> Account:
    """The account `fetcher` is logged in as (the daemon's own fetcher, logged in once)."""
    ref = thread_url_info(config["thread_url"])
    zone = game_zone(forum_zone_name(dict(config)) or "UTC")
    return Account(user, ForumWriter(fetcher, ref, tz=zone, now=now), fetcher)


def gm_account_check(store: GameStore, user: str, *, add: bool) -> str | None:
    """The login must post as a GM of the game (so a poll reads its posts as the host's,
    never as votes): a player's account is refused; any other is added to the GMs when
    `add` (after the GM confirmed), and the line returned says so."""
    game = load_game(store)
    if game.is_gm(user):
        return None
    slot = game.slot_of_author(user)
    if slot is not None:
        raise ConfigError(
            f"the game's forum login {user!r} is the player {slot} of {store.game_id!r}: a "
            "player's account cannot write the GM's drafts; log in as the GM's account with "
            f"`assistant fetch --game {store.game_id} --login USER --password-env VARIABLE`"
        )
    if not add:
        return f"{user} is not among the GMs of {store.game_id}: it will be added"
    store.update_config(gms=[*store.config().get("gms", []), user])
    return (f"{user} was not among the GMs of {store.game_id}: added (its posts are the "
            "host's, never votes)")


def _also_gm(store: GameStore, account: Account) -> None:
    """The forum may show the account under another name than its login (SMF's display
    name): that name is a GM's too."""
    me = account.writer.whoami()
    if me is None or not me.name:
        return
    if not load_game(store).is_gm(me.name) and load_game(store).slot_of_author(me.name) is None:
        store.update_config(gms=[*store.config().get("gms", []), me.name])
        account.notes.append(f"{me.name} (the forum's name of {account.user}) added to the GMs")


# ---- posting ----------------------------------------------------------------------------

@dataclass(frozen=True)
class PostResult:
    post_id: int
    url: str
    found_after_failure: bool
    """An earlier attempt had posted it: found in the thread, not posted again."""
    waited: float = 0.0


def posts_made(store: GameStore) -> list[dict[str, Any]]:
    return [i["data"] | {"entered_at": i["entered_at"]} for i in store.inputs(POSTED)]


def earlier_post(store: GameStore, draft: PostDraft) -> dict[str, Any] | None:
    """The post that makes `draft` a repeat: the same text, or (dusk, dawn) the same phase's."""
    for made in reversed(posts_made(store)):
        if made["key"] == draft.key:
            return made
        if (draft.kind in ONE_A_PHASE and made["draft"] == draft.kind
                and (made.get("phase"), made.get("number")) == (draft.phase, draft.number)):
            return made
    return None


def refuse_repeat(store: GameStore, draft: PostDraft) -> None:
    made = earlier_post(store, draft)
    if made is None:
        return
    same = "this text" if made["key"] == draft.key else f"the {draft.kind}"
    raise ConfigError(
        f"{same} of {store.game_id} was posted already (post {made['post_id']}, "
        f"{made['posted_at'] or made['entered_at']}): not posted twice; give --again to post "
        "it once more"
    )


def _open_attempt(store: GameStore, kind: str, done_kind: str, key: str) -> dict | None:
    """The latest attempt at `key` that no write answers, if any."""
    done = {i["data"].get("attempt") for i in store.inputs(done_kind)}
    for item in reversed(store.inputs(kind)):
        if item["data"]["key"] == key:
            return None if item["data"]["attempt"] in done else item["data"]
    return None


def post(store: GameStore, account: Account, draft: PostDraft, clock: Clock) -> PostResult:
    """Post `draft` into the thread (the caller refused repeats and asked the GM)."""
    writer = account.writer
    added = gm_account_check(store, account.user, add=True)
    if added:
        account.notes.append(added)
    _also_gm(store, account)
    base = _post_base(draft)
    settled = find_attempt(store, account, draft, clock)
    if settled is not None:
        return settled
    attempt = uuid.uuid4().hex[:12]

    def before(after: int | None) -> None:
        store.add_input(POST_ATTEMPT, base | {"attempt": attempt, "after": after}, clock.now())

    try:
        written = writer.reply(draft.text, before_send=before)
    except UncertainWriteError as e:
        tried = _open_attempt(store, POST_ATTEMPT, POSTED, draft.key) or {}
        try:
            found = writer.find_reply(draft.text, tried.get("after"))
        except ForumError:
            found = None
        if found is None:
            raise UncertainWriteError(
                f"{e}; not known yet whether it reached the thread: run the same `assistant "
                "post` again, it looks for the post in the thread first and never posts it "
                "twice", e.url) from None
        return _posted(store, account, base, attempt, found, clock, True)
    return _posted(store, account, base, attempt, written, clock, False)


def _post_base(draft: PostDraft) -> dict[str, Any]:
    base = {"key": draft.key, "draft": draft.kind, "phase": draft.phase,
            "number": draft.number}
    return base | ({"by": draft.by, "why": draft.why} if draft.by else {})


def find_attempt(store: GameStore, account: Account, draft: PostDraft,
                 clock: Clock) -> PostResult | None:
    """An attempt at `draft` left without its write (the process stopped after the form went
    out), looked for in the thread: found, it is recorded as posted and returned; None when
    no attempt is open or the thread does not show it (the caller decides what to post)."""
    pending = _open_attempt(store, POST_ATTEMPT, POSTED, draft.key)
    if pending is None:
        return None
    found = account.writer.find_reply(draft.text, pending.get("after"))
    if found is None:
        return None
    return _posted(store, account, _post_base(draft), pending["attempt"], found, clock, True)


def open_attempt(store: GameStore, key: str) -> bool:
    """Whether an attempt at the post `key` is stored without its write."""
    return _open_attempt(store, POST_ATTEMPT, POSTED, key) is not None


def _posted(store: GameStore, account: Account, base: dict[str, Any], attempt: str,
            written: Written, clock: Clock, found: bool) -> PostResult:
    store.add_input(POSTED, base | {
        "attempt": attempt, "post_id": written.id, "url": written.url,
        "posted_at": to_iso(written.at), "account": account.user,
        "found_after_failure": found,
    }, clock.now())
    return PostResult(written.id, written.url, found, written.waited)


# ---- private messages -------------------------------------------------------------------

@dataclass
class SendReport:
    """What a run of `send` did, PM by PM."""

    already: list[PmDraft] = field(default_factory=list)
    """Recorded as sent by an earlier run: not sent again."""
    sent: list[tuple[PmDraft, int]] = field(default_factory=list)
    recovered: list[tuple[PmDraft, int]] = field(default_factory=list)
    """An earlier run's PM whose answer was lost, found in the sent box: recorded, not resent."""
    failed: tuple[PmDraft, str] | None = None
    """The PM the run stopped at, and why (the forum's words)."""
    uncertain: bool = False
    """Whether `failed` may have been sent (its answer never came)."""
    not_sent: list[PmDraft] = field(default_factory=list)
    """Not sent because the run stopped before them."""


def pms_sent(store: GameStore) -> list[dict[str, Any]]:
    return [i["data"] | {"entered_at": i["entered_at"]} for i in store.inputs(PM_SENT)]


def recipients(store: GameStore, game: Game) -> dict[str, Recipient]:
    """Each player's forum member: the last member who posted in the slot (name and member
    id, the surer address), else the slot's own name."""
    out: dict[str, Recipient] = {s.name: Recipient(s.name) for s in game.slots}
    for sp in store.posts():
        post = sp.latest
        slot = game.slot_of_author(post.author)
        if slot is not None:
            out[slot] = Recipient(post.author, post.author_id)
    return out


def send_pms(
    store: GameStore,
    account: Account,
    drafts: list[PmDraft],
    clock: Clock,
    *,
    on_sent: Callable[[PmDraft, int], None] | None = None,
) -> SendReport:
    """Send every draft not recorded as sent, in order; stop at the first failure."""
    game = load_game(store)
    to = recipients(store, game)
    writer = account.writer
    report = SendReport()
    known = [d["pm_id"] for d in pms_sent(store) if d.get("pm_id")]
    writer.last_pm_id = max(known) if known else None
    done = {d["key"] for d in pms_sent(store)}
    todo = [d for d in drafts if d.key not in done]
    report.already = [d for d in drafts if d.key in done]
    for i, draft in enumerate(todo):
        who = to.get(draft.player, Recipient(draft.player))
        try:
            written, found = _send_one(store, account, draft, who, clock)
        except UncertainWriteError as e:
            report.failed, report.uncertain = (draft, str(e)), True
            report.not_sent = todo[i + 1:]
            return report
        except (ForumError, WriteRefusedError) as e:
            report.failed = (draft, str(e))
            report.not_sent = todo[i + 1:]
            return report
        (report.recovered if found else report.sent).append((draft, written.id))
        if on_sent is not None:
            on_sent(draft, written.id)
    return report


def _send_one(store: GameStore, account: Account, draft: PmDraft, who: Recipient,
              clock: Clock) -> tuple[Written, bool]:
    writer = account.writer
    base = {"key": draft.key, "kind": draft.kind, "player": draft.player,
            "phase": draft.phase, "number": draft.number}
    pending = _open_attempt(store, PM_ATTEMPT, PM_SENT, draft.key)
    if pending is not None:
        found = writer.find_sent_pm(who, draft.subject, draft.body,
                                    after_id=pending.get("after_pm"))
        if found is not None:
            _sent(store, base, pending["attempt"], who, draft, found, clock, True)
            return found, True
    attempt = uuid.uuid4().hex[:12]
    after_pm = writer.last_pm_id

    def before(_after: int | None) -> None:
        store.add_input(PM_ATTEMPT, base | {"attempt": attempt, "after_pm": after_pm},
                        clock.now())

    try:
        written = writer.send_pm(who, draft.subject, draft.body, before_send=before)
    except UncertainWriteError as e:
        try:
            found = writer.find_sent_pm(who, draft.subject, draft.body, after_id=after_pm)
        except ForumError:
            found = None
        if found is None:
            raise UncertainWriteError(
                f"{e}; not known yet whether it was sent: run the same `assistant send` "
                "again, it looks in the sent box first and never sends it twice",
                e.url) from None
        _sent(store, base, attempt, who, draft, found, clock, True)
        return found, True
    _sent(store, base, attempt, who, draft, written, clock, False)
    return written, False


def _sent(store: GameStore, base: dict[str, Any], attempt: str, who: Recipient,
          draft: PmDraft, written: Written, clock: Clock, found: bool) -> None:
    store.add_input(PM_SENT, base | {
        "attempt": attempt, "to": who.name, "subject": draft.subject, "text": draft.body,
        "pm_id": written.id, "sent_at": to_iso(written.at or clock.now()),
        "found_after_failure": found,
    }, clock.now())


def when_text(made: dict[str, Any]) -> str:
    """When a write was made, for a line of output."""
    at = made.get("posted_at") or made.get("sent_at") or made.get("entered_at")
    return str(at)[:16].replace("T", " ") if at else "?"
