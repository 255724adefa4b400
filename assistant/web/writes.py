"""The dashboard's Post and Send buttons (issues 23 and 25): each draft the GM's forum
account can write gets a button that opens a confirmation (exactly the text, the thread or
the recipients, and the account), and only the confirmation's own button writes, through
the command line's functions (`gm_forum.py`, hence `outbox.py`: once only, a failure named
in one line, PMs sent part-way listed as sent and not sent).

What the GM confirmed is what is written: the confirmation carries the hash of the text it
showed and the moment it was drafted, and the write refuses to go out if the draft has
changed since (a vote came in, an input was undone). One allowance: a tally's "time
remaining" moves every minute, so a tally whose count is unchanged is posted as shown for
`FRESH` after it was drafted.

The PM kinds are `gm_forum.PM_BATCHES`: a kind added there gets its Send button here
without a line of this file (beside its draft's card, or on a card of its own).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Protocol
from zoneinfo import ZoneInfo

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response

from assistant.clock import Clock
from assistant.errors import AssistantError, ConfigError
from assistant.gm_forum import (
    PM_BATCHES,
    POST_DRAFTS,
    forum_account,
    pm_batch,
    pm_recipients,
    pms_to_send,
    post_checks,
    post_draft_of,
    post_to_thread,
    send_pm_batch,
)
from assistant.models import from_iso, to_iso
from assistant.monitor import game_title
from assistant.outbox import (
    PmDraft,
    PostDraft,
    earlier_post,
    gm_account_check,
    pms_sent,
    posts_made,
)
from assistant.phases import game_zone, local_text
from assistant.scrapers.http import FetchSettings
from assistant.store import GameStore
from assistant.web.forms import number


class Dashboard(Protocol):
    """What the writes use of app.Dashboard (a protocol: app imports this module)."""

    data_dir: Path
    clock: Clock

    def now(self) -> datetime: ...

    def render(self, name: str, status: int = 200, **values: Any) -> Response: ...

WRITE_SETTINGS = FetchSettings(retries=1)
"""The forum's pages for a write: the polite delay between requests, a page asked again
once (as `post` and `send` do: the GM learns in seconds that the forum is down)."""
FRESH = timedelta(minutes=10)
"""How long a confirmed tally whose count has not changed is posted as it was shown."""
SEND_CARDS = {"result-pms": "pms"}
"""A PM kind shown on a draft card of another name (`Result PMs` is the card "pms");
any other kind goes on the card of its own name, or a card of its own."""
SHOWN_WRITES = 3


class WriteError(AssistantError):
    """A Post or Send the page refuses before anything is written, or one that stopped."""


@dataclass(frozen=True)
class Made:
    """A write recorded with the game: a post or a PM."""

    what: str
    """"post 123", "PM 45 to Kat"."""
    when: str
    url: str | None = None


@dataclass(frozen=True)
class DraftWrite:
    """The Post or Send beside one draft card: the button (or why there is none) and what
    was written of it already."""

    verb: str
    """"post" or "send"."""
    what: str
    """The draft (tally, dusk, dawn) or the PM kind (a key of PM_BATCHES)."""
    href: str | None
    """The confirmation page; None when nothing can be written (see `why_not`)."""
    label: str = ""
    why_not: str | None = None
    """Why there is no button: no forum login, the draft not ready, everything sent."""
    made: tuple[Made, ...] = ()
    repeat: bool = False
    """This very draft was posted already: its button posts it again, if the GM says so."""
    pending: int = 0
    title: str = ""
    text: str | None = None
    """A kind without a draft card of its own: the card's title and the PMs."""


# ---- the login ----------------------------------------------------------------------------

def login_problem(store: GameStore) -> str | None:
    """Why this dashboard cannot write as the game's forum account, in the GM's words, or
    None: no login kept with the game, its password's variable not set in this process, a
    player's account."""
    import os

    game = store.game_id
    config = store.config()
    login = config.get("login") or {}
    user, variable = login.get("user"), login.get("password_env")
    if not user or not variable:
        return (f"No forum login to post or send with: run `assistant fetch --game {game} "
                "--login USER --password-env VARIABLE` once as the GM's forum account (the "
                "password stays in that environment variable), then start the dashboard "
                "with the variable set.")
    if not config.get("thread_url"):
        return f"No thread yet: run `assistant fetch --game {game}` first."
    if not os.environ.get(variable):
        return (f"The game writes as {user} with the password in {variable}, which is not "
                "set where the dashboard runs: start `assistant run --web` with "
                f"{variable} exported.")
    try:  # a player's account is refused, as `post` refuses it
        gm_account_check(store, user, add=False)
    except ConfigError as e:
        return str(e)
    return None


def _require_login(store: GameStore) -> str:
    problem = login_problem(store)
    if problem is not None:
        raise WriteError(problem)
    return str(store.config()["login"]["user"])


# ---- the page's buttons -------------------------------------------------------------------

def _when(text: str | None, zone: ZoneInfo) -> str:
    at = from_iso(text) if text else None
    return local_text(at, zone) if at else "?"


def _post_write(store: GameStore, card: Any, problem: str | None, zone: ZoneInfo
                ) -> DraftWrite:
    draft: PostDraft | None = card.post
    what = card.key
    made = [m for m in posts_made(store) if m["draft"] == what and (
        draft is None or (m.get("phase"), m.get("number")) == (draft.phase, draft.number))]
    shown = tuple(Made(f"post {m['post_id']}", _when(m.get("posted_at"), zone), m.get("url"))
                  for m in reversed(made[-SHOWN_WRITES:]))
    if draft is None:
        return DraftWrite("post", what, None, why_not=card.post_not_yet, made=shown)
    repeat = earlier_post(store, draft) is not None
    if problem is not None:
        return DraftWrite("post", what, None, why_not=problem, made=shown, repeat=repeat)
    query = "&".join(f"{k}={v}" for k, v in (("day", draft.number if draft.phase == "day"
                                                else None),
                                               ("night", draft.number if draft.phase ==
                                                "night" else None)) if v is not None)
    href = f"/game/{store.game_id}/confirm/post/{what}" + (f"?{query}" if query else "")
    return DraftWrite("post", what, href, "Post again…" if repeat else "Post…", made=shown,
                      repeat=repeat)


def _send_write(store: GameStore, kind: str, now: datetime, problem: str | None,
                zone: ZoneInfo) -> DraftWrite:
    title = kind.removesuffix("-pms").replace("-", " ").capitalize()
    title = f"{title} PMs" if kind.endswith("-pms") else title
    try:
        drafts = PM_BATCHES[kind](store, now, None)
    except AssistantError as e:
        return DraftWrite("send", kind, None, why_not=str(e), title=title)
    if not drafts:
        return DraftWrite("send", kind, None, why_not=f"No {title.lower()} to send.",
                          title=title)
    todo, done = pms_to_send(store, drafts)
    sent = {s["key"]: s for s in pms_sent(store)}
    made = tuple(Made(f"PM {sent[d.key].get('pm_id')} to {sent[d.key].get('to') or d.player}",
                      _when(sent[d.key].get("sent_at"), zone)) for d in done)
    text = "\n---\n".join(f"Subject: {d.subject}\nTo: {d.player}\n\n{d.body.rstrip()}"
                          for d in drafts)
    base = DraftWrite("send", kind, None, made=made, pending=len(todo), title=title,
                      text=text)
    if not todo:
        return _replace(base, why_not=f"All {len(done)} sent.")
    if problem is not None:
        return _replace(base, why_not=problem)
    night = drafts[0].number if drafts[0].phase == "night" else None
    href = f"/game/{store.game_id}/confirm/send/{kind}" + (f"?night={night}" if night else "")
    return _replace(base, href=href, label=f"Send {len(todo)} PM{'s' if len(todo) != 1 else ''}…")


def _replace(write: DraftWrite, **changes: Any) -> DraftWrite:
    from dataclasses import replace

    return replace(write, **changes)


def draft_writes(store: GameStore, cards: list[Any], now: datetime, zone_name: str
                 ) -> tuple[dict[str, DraftWrite], list[DraftWrite]]:
    """The Post / Send of each draft card (card key -> its write), and the PM kinds with no
    card of their own (shown on cards of their own)."""
    zone = game_zone(zone_name)
    problem = login_problem(store)
    keys = {c.key for c in cards}
    out: dict[str, DraftWrite] = {}
    for card in cards:
        if card.key in POST_DRAFTS:
            out[card.key] = _post_write(store, card, problem, zone)
    extra = []
    for kind in PM_BATCHES:
        card = SEND_CARDS.get(kind, kind)
        write = _send_write(store, kind, now, problem, zone)
        if card in keys:
            out[card] = write
        elif write.text is not None:
            extra.append(write)
    return out, extra


# ---- the confirmation page ------------------------------------------------------------------

@dataclass
class Confirmation:
    """What the confirmation shows before a write, and the form that makes it."""

    game_id: str
    title: str
    verb: str
    what: str
    account: str = ""
    thread_url: str | None = None
    label: str = ""
    text: str | None = None
    pms: list[dict[str, str]] = field(default_factory=list)
    """Each PM to send: to (the forum member), player, subject, body."""
    already: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    earlier: Made | None = None
    """The post that makes this one a repeat."""
    fields: list[tuple[str, str]] = field(default_factory=list)
    error: str | None = None


def batch_key(drafts: list[PmDraft]) -> str:
    """The hash of the PMs a confirmation showed."""
    return hashlib.sha256("\x1f".join(d.key for d in drafts).encode()).hexdigest()[:16]


def confirmation(store: GameStore, verb: str, what: str, now: datetime, *,
                 day: int | None, night: int | None) -> Confirmation:
    game = store.game_id
    config = store.config()
    zone = game_zone(config.get("tz"))
    page = Confirmation(game, game_title(store), verb, what,
                        thread_url=config.get("thread_url"))
    try:
        page.account = _require_login(store)
        fields = [("what", what), ("at", to_iso(now) or "")]
        if verb == "post":
            if what not in POST_DRAFTS:
                raise WriteError(f"{what!r}: post one of {', '.join(POST_DRAFTS)}")
            draft = post_draft_of(store, what, now, day=day, night=night)
            page.label, page.text = draft.label, draft.text
            page.notes = post_checks(store, draft, again=True)
            made = earlier_post(store, draft)
            if made is not None:
                page.earlier = Made(f"post {made['post_id']}",
                                    _when(made.get("posted_at"), zone), made.get("url"))
            fields += [("key", draft.key)]
        else:
            drafts = pm_batch(store, what, now, night)
            todo, done = pms_to_send(store, drafts)
            to = pm_recipients(store)
            page.label = f"{len(todo)} of {len(drafts)} {what}"
            page.already = [d.player for d in done]
            page.pms = [{"to": to[d.player].name if d.player in to else d.player,
                         "player": d.player, "subject": d.subject, "body": d.body}
                        for d in todo]
            if not todo:
                raise WriteError(f"all {len(done)} {what} of {game} were sent already; "
                                 "nothing to send")
            fields += [("key", batch_key(todo))]
        fields += [(k, str(v)) for k, v in (("day", day), ("night", night)) if v is not None]
        page.fields = fields
    except AssistantError as e:
        page.error = str(e)
    return page


def confirm_page(d: Dashboard, request: Request) -> Response:
    """GET /game/GAME/confirm/post/WHAT or /confirm/send/KIND: nothing is written."""
    verb, what = request.path_params["verb"], request.path_params["what"]
    if verb not in ("post", "send"):
        return d.render("missing.html", status=404, message=f"no such write {verb!r}")
    try:
        day = number(request.query_params, "day", "the day")
        night = number(request.query_params, "night", "the night")
        with GameStore.open(d.data_dir, request.path_params["game"], create=False) as store:
            page = confirmation(store, verb, what, d.now(), day=day, night=night)
    except AssistantError as e:
        return d.render("missing.html", status=404, message=str(e))
    return d.render("confirm_write.html", status=400 if page.error else 200, c=page)


# ---- the writes ------------------------------------------------------------------------------

def _confirmed_post(store: GameStore, what: str, form: FormData, now: datetime) -> PostDraft:
    """The draft the GM confirmed, if it is still what the confirmation showed."""
    day, night = number(form, "day", "the day"), number(form, "night", "the night")
    key = form.get("key") or ""
    draft = post_draft_of(store, what, now, day=day, night=night)
    if draft.key == key:
        return draft
    at = from_iso(form.get("at")) if form.get("at") else None
    if what == "tally" and at is not None and timedelta(0) <= now - at <= FRESH:
        shown = post_draft_of(store, what, at, day=day, night=night)
        if shown.key == key and _count(store, at, day) == _count(store, now, day):
            return shown
    raise WriteError(
        f"{draft.label} of {store.game_id} changed since you looked at it (a new post, an "
        "input, the clock): nothing was posted; press Post again to see it as it is now")


def _count(store: GameStore, at: datetime, day: int | None) -> dict[str, Any]:
    from assistant.gm import game_tally

    return game_tally(store, at, day=day)[2].to_json()


def post_action(d: Dashboard, game_id: str, form: FormData) -> str:
    """`post GAME tally|dusk|dawn [--day N] [--night N] [--again] --yes`, once the GM
    confirmed what the confirmation page showed."""
    what = form.get("what") or ""
    if what not in POST_DRAFTS:
        raise WriteError(f"{what!r}: post one of {', '.join(POST_DRAFTS)}")
    now = d.now()
    with GameStore.open(d.data_dir, game_id, create=False) as store:
        user = _require_login(store)
        draft = _confirmed_post(store, what, form, now)
        made = earlier_post(store, draft)
        if made is not None and form.get("again") != "1":
            raise WriteError(
                f"{draft.label} of {game_id} was posted already (post {made['post_id']}, "
                f"{_when(made.get('posted_at'), game_zone(store.config().get('tz')))}): not "
                "posted twice; to post it once more, press Post again and tick “post it "
                "again”")
        post_checks(store, draft, again=True)
        with forum_account(store, WRITE_SETTINGS) as account:
            result = post_to_thread(store, account, draft, d.clock)
    how = ("found in the thread (an earlier attempt had posted it): not posted again"
           if result.found_after_failure else f"posted as {user}")
    waited = (f" after waiting {result.waited:.0f} s for the forum's flood limit"
              if result.waited else "")
    label = draft.label[:1].upper() + draft.label[1:]
    return "; ".join([*account.notes,
                      f"{label}: {how}{waited}, post {result.post_id}: {result.url}"])


def send_action(d: Dashboard, game_id: str, form: FormData) -> str:
    """`send GAME KIND [--night N] --yes`, once the GM confirmed the PMs shown; a run that
    stops part-way says which were sent and which were not."""
    kind = form.get("what") or ""
    if kind not in PM_BATCHES:
        raise WriteError(f"{kind!r}: send one of {', '.join(PM_BATCHES)}")
    now = d.now()
    with GameStore.open(d.data_dir, game_id, create=False) as store:
        _require_login(store)
        drafts = pm_batch(store, kind, now, number(form, "night", "the night"))
        todo, done = pms_to_send(store, drafts)
        if not todo:
            raise WriteError(f"all {len(done)} {kind} of {game_id} were sent already; "
                             "nothing sent twice")
        if batch_key(todo) != form.get("key"):
            raise WriteError(f"the {kind} of {game_id} changed since you looked at them (an "
                             "input, a PM sent from elsewhere): nothing was sent; press Send "
                             "again to see them as they are now")
        with forum_account(store, WRITE_SETTINGS) as account:
            report = send_pm_batch(store, account, todo, d.clock)
    lines = [*account.notes]
    if report.sent:
        lines.append("sent: " + ", ".join(f"{p.player} (PM {i})" for p, i in report.sent))
    if report.recovered:
        lines.append("found in the sent box (an earlier attempt had sent them; not sent "
                     "again): " + ", ".join(p.player for p, _ in report.recovered))
    if report.failed is None:
        return "; ".join(lines) + "."
    who, why = report.failed
    state = "may have been sent" if report.uncertain else "not sent"
    lines.append(f"stopped at {who.player} ({state}): {why.rstrip('.')}")
    if report.not_sent:
        lines.append("not sent: " + ", ".join(p.player for p in report.not_sent))
    lines.append("press Send again to send the rest: nothing is sent twice")
    raise WriteError("; ".join(" ".join(line.split()) for line in lines) + ".")


WRITE_ACTIONS = {"post": post_action, "send": send_action}
"""The page's writes, for app.ACTIONS: POST /game/GAME/post and /game/GAME/send."""
