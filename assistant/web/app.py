"""The dashboard's routes: pages, the GM's actions, and the live-update stream.

Pages are Jinja2 templates (templates/web/) with autoescaping on, so everything a player
wrote reaches the browser as text. Actions call the command line's functions on the
game's store (`acknowledge`, `enter_orders`, `enter_pm_vote`), so they take the same
write path and refuse the same input with the same one-line errors. After a change the
browser is sent back to the game's page (a reload never repeats an order).

Live updates: `/events` is a server-sent event stream that says "change" whenever a game
file is replaced (a poll of the daemon, a command in a terminal, an action here); the
page then fetches its live part again. Nothing is pushed that the page did not ask for.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from jinja2 import Environment
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Route

from assistant import TEMPLATES_DIR
from assistant.clock import Clock
from assistant.corrections import enter_ruling, undo
from assistant.errors import AssistantError
from assistant.gm import (
    DEATH_KINDS,
    acknowledge,
    dusk,
    enter_order_lines,
    enter_pm_vote,
    record_death,
    record_pm,
    record_sheriff,
    record_tiebreak,
    resolve,
    result_text,
    stored_fact,
)
from assistant.monitor import describe, load_view
from assistant.notify.manage import add_target, remove_target, send_test, send_test_text
from assistant.phase_entry import adjust_phase, enter_phase
from assistant.phases import game_zone
from assistant.store import GameStore, list_games
from assistant.templating import web_environment
from assistant.web.forms import FormError as _FormError
from assistant.web.forms import number as _number
from assistant.web.forms import text as _text
from assistant.web.guard import CSRF_FIELD, Guard, GuardMiddleware
from assistant.web.pages import TABS, game_page, history_page, overview
from assistant.web.setup_actions import SETUP_ACTIONS, pms_page
from assistant.web.writes import WRITE_ACTIONS, confirm_page

WEB_TEMPLATES = TEMPLATES_DIR / "web"
STATIC = {"dashboard.js": "text/javascript", "dashboard.css": "text/css"}


@dataclass
class Dashboard:
    """What the routes share: the data directory, the clock, the guard."""

    data_dir: Path
    clock: Clock
    guard: Guard = field(default_factory=Guard)
    watch_interval: float = 1.0
    """Seconds between two looks at the game files for the live-update stream."""
    flashes: dict[str, str] = field(default_factory=dict)
    """One-line results of actions, shown once on the page the browser is sent back to."""
    closing: threading.Event = field(default_factory=threading.Event)
    """Set when the server stops: open live-update streams end instead of being cut."""

    @property
    def env(self) -> Environment:
        return web_environment()

    def render(self, name: str, status: int = 200, **values: Any) -> HTMLResponse:
        values.setdefault("csrf", self.guard.csrf)
        values.setdefault("csrf_field", CSRF_FIELD)
        return HTMLResponse(self.env.get_template(name).render(**values), status_code=status)

    def now(self) -> datetime:
        return self.clock.now()

    def flash(self, text: str) -> str:
        key = secrets.token_urlsafe(8)
        if len(self.flashes) > 200:  # a GM who never looks at the results: keep the last
            self.flashes.pop(next(iter(self.flashes)))
        self.flashes[key] = text
        return key

    def signature(self, game_id: str | None) -> tuple[Any, ...]:
        """What changes when a game file is replaced (ids, times and sizes of the files)."""
        folder = self.data_dir / "games"
        names = [f"{game_id}.json"] if game_id else [f"{g}.json" for g in list_games(
            self.data_dir)]
        out = []
        for name in names:
            try:
                st = (folder / name).stat()
            except FileNotFoundError:
                continue
            out.append((name, st.st_ino, st.st_mtime_ns, st.st_size))
        return tuple(out)


def create_app(dashboard: Dashboard) -> Starlette:
    d = dashboard

    def home(request: Request) -> Response:
        return d.render("overview.html", games=overview(d.data_dir, d.now()), now=d.now())

    def home_live(request: Request) -> Response:
        html = d.env.get_template("overview_live.html").render(
            games=overview(d.data_dir, d.now()), now=d.now())
        return JSONResponse({"html": html})

    def _values(request: Request, **extra: Any) -> dict[str, Any] | Response:
        game_id = request.path_params["game"]
        try:
            with GameStore.open(d.data_dir, game_id, create=False) as store:
                page = game_page(store, d.now(), why=_why(request),
                                 all_alerts=request.query_params.get("alerts") == "all")
        except AssistantError as e:
            return d.render("missing.html", status=404, message=str(e))
        values = {"order_text": "", "vote": {}, "form": {}, "error": None, "action": None,
                  "death_kinds": DEATH_KINDS,
                  "page": page, "now": d.now(), "csrf": d.guard.csrf,
                  "csrf_field": CSRF_FIELD, "zone_info": game_zone(page.zone), "tabs": TABS,
                  "setup_actions": SETUP_ACTIONS}
        values.update(extra)
        return values

    def _page(request: Request, status: int = 200, **extra: Any) -> Response:
        values = _values(request, **extra)
        if isinstance(values, Response):
            return values
        flash = d.flashes.pop(request.query_params.get("flash", ""), None)
        values["parts"] = render_parts(d.env, values)
        return d.render("game.html", status=status, flash=flash, **values)

    def game(request: Request) -> Response:
        return _page(request)

    def game_live(request: Request) -> Response:
        """The parts of the game's page that changed since the browser's copy: the
        browser sends the digest of each part it shows (`have`), gets back only the parts
        whose digest differs (a poll that brought one post sends the posts, the count and
        the chart, not the drafts and the players)."""
        values = _values(request)
        if isinstance(values, Response):
            return JSONResponse({"error": "no such game"}, status_code=404)
        have = dict(item.split(":", 1) for item in
                    request.query_params.get("have", "").split(",") if ":" in item)
        parts = render_parts(d.env, values)
        changed = {name: {"html": str(p.html), "digest": p.digest}
                   for name, p in parts.items() if have.get(name) != p.digest}
        return JSONResponse({"parts": changed})

    def votes(request: Request) -> Response:
        day_text = request.query_params.get("day", "")
        try:
            with GameStore.open(d.data_dir, request.path_params["game"], create=False) as store:
                page = history_page(store, d.now(), int(day_text) if day_text.isdigit()
                                    else None)
        except AssistantError as e:
            return d.render("missing.html", status=404, message=str(e))
        return d.render("votes.html", page=page)

    def pms(request: Request) -> Response:
        """`draft pms GAME [--night N | --day N] [--pending]`: the result PMs of any
        phase, one box each (the drafts tab shows the last resolved night's)."""
        return d.render("pms.html", **pms_page(d, request.path_params["game"],
                                                request.query_params))

    def count_json(request: Request) -> Response:
        from assistant.gm import game_tally

        try:
            with GameStore.open(d.data_dir, request.path_params["game"], create=False) as store:
                _g, _r, tally, _at = game_tally(store, d.now())
        except AssistantError as e:
            return JSONResponse({"error": str(e)}, status_code=404)
        return JSONResponse(tally.to_json())

    async def act(request: Request) -> Response:
        """One of the GM's actions: check the form, run it, send the browser back."""
        game_id, action = request.path_params["game"], request.path_params["action"]
        if action not in ACTIONS:
            return PlainTextResponse(f"no action {action!r}", status_code=404)
        form = await request.form()
        if not d.guard.csrf_ok(form.get(CSRF_FIELD)):
            return PlainTextResponse(
                "refused: the form did not come from this dashboard's page; reload it and "
                "try again", status_code=403)
        fields = FormData([(k, v) for k, v in form.multi_items() if isinstance(v, str)])
        try:
            message = await asyncio.to_thread(ACTIONS[action], d, game_id, fields)
        except AssistantError as e:
            kept = {"order_text": fields.get("orders", ""),
                    "vote": {k: fields.get(k, "") for k in ("voter", "target", "at")},
                    "form": {k: v for k, v in fields.items() if k != CSRF_FIELD}}
            return _page(request, status=400, error=str(e), action=action, **kept)
        url = f"/game/{game_id}?flash={d.flash(message)}#{ANCHORS.get(action, action)}"
        return RedirectResponse(url, status_code=303)

    async def events(request: Request) -> Response:
        game_id = request.query_params.get("game") or None

        async def stream() -> AsyncIterator[str]:
            last = d.signature(game_id)
            yield "retry: 2000\n\n"
            quiet = 0.0
            while not d.closing.is_set():
                await asyncio.sleep(d.watch_interval)
                if d.closing.is_set() or await request.is_disconnected():
                    return
                now = d.signature(game_id)
                quiet += d.watch_interval
                if now != last:
                    last, quiet = now, 0.0
                    yield f"event: change\ndata: {game_id or '*'}\n\n"
                elif quiet >= 15:
                    quiet = 0.0
                    yield ": still here\n\n"

        return StreamingResponse(stream(), media_type="text/event-stream")

    def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return PlainTextResponse("not found", status_code=404)
        return FileResponse(WEB_TEMPLATES / name, media_type=STATIC[name])

    routes = [
        Route("/", home),
        Route("/live", home_live),
        Route("/events", events),
        Route("/static/{name}", static),
        Route("/game/{game}", game),
        Route("/game/{game}/live", game_live),
        Route("/game/{game}/count.json", count_json),
        Route("/game/{game}/votes", votes),
        Route("/game/{game}/confirm/{verb}/{what}", lambda r: confirm_page(d, r)),
        Route("/game/{game}/pms", pms),
        Route("/game/{game}/{action}", act, methods=["POST"]),
    ]
    app = Starlette(routes=routes)
    app.add_middleware(GuardMiddleware, guard=d.guard)
    return app


def _why(request: Request) -> str | None:
    """`?why=NAME` explains one player's votes; `?why=` (left empty) every vote."""
    why = request.query_params.get("why")
    if why is None:
        return None
    return why.strip() or "*"


# ---- actions: each a command line function on the game's store ------------------------------


def _ack(d: Dashboard, game_id: str, form: FormData) -> str:
    """One alert (its row's button) or every one ticked, with the note: all checked
    before any is acknowledged, as `alerts --ack ID --ack ID` does."""
    one = form.getlist("one")
    ids = one[:1] if one else form.getlist("alert")
    if not ids:
        raise _FormError("tick the alerts to acknowledge, or use a row's Ack button")
    with GameStore.open(d.data_dir, game_id, create=False) as store:
        acked = acknowledge(store, ids, d.now(), form.get("note") or None)
    return "; ".join(f"Acknowledged {s.id} ({s.alert.kind})." for s in acked)


def _dusk_confirm(d: Dashboard, game_id: str, form: FormData) -> str:
    """`draft dusk --confirm`: the lynch and the deaths it sets off stored as deaths."""
    day_text = form.get("day") or ""
    day = int(day_text) if day_text.isdigit() else None
    with GameStore.open(d.data_dir, game_id, create=False) as store:
        result, stored = dusk(store, d.now(), day=day, confirm=True)
    facts = ", ".join(stored_fact(f) for f in stored or []) or "no deaths"
    return f"Recorded the dusk of Day {result.day}: {facts}."


def _order(d: Dashboard, game_id: str, form: FormData) -> str:
    lines = [ln.strip() for ln in form.get("orders", "").splitlines()
             if ln.strip() and not ln.lstrip().startswith("#")]
    if not lines:
        raise _FormError('write an order, e.g. "Conia: protect Jd-"')
    night, day = _number(form, "night", "the night"), _number(form, "day", "the day")
    if night is not None and day is not None:
        raise _FormError("give the night or the day the orders are for, not both")
    with GameStore.open(d.data_dir, game_id, create=False) as store:
        done = enter_order_lines(store, lines, d.now(), night=night, day=day)
    return "; ".join([*done.no_action,
                      *(f"stored for {done.phase} {done.number}: {o.label()}"
                        for o in done.orders)])


def _rule(d: Dashboard, game_id: str, form: FormData) -> str:
    """`rule GAME --post N [--which K] --ignore | --vote NAME | --unvote` (a vote's row),
    or `--from TIME | --from-post M` (the post as read, counted from another moment)."""
    post = _number(form, "post", "the post")
    if post is None:
        raise _FormError("say which post the ruling is on")
    action = form.get("ruling") or ""
    if action not in ("ignore", "vote", "unvote", "as_read"):
        raise _FormError("rule the vote as not a vote, a vote for someone, or an unvote")
    target = _text(form, "target")
    if action == "vote" and target is None:
        raise _FormError("a ruling that it is a vote names whom it is for")
    with GameStore.open(d.data_dir, game_id, create=False) as store:
        _data, text = enter_ruling(store, post, action=action, target=target,
                                   which=_number(form, "which", "the vote's number"),
                                   from_text=_text(form, "from"),
                                   from_post=_number(form, "from_post", "the post to count from"),
                                   now=d.now())
    return text


def _undo(d: Dashboard, game_id: str, form: FormData) -> str:
    """`undo GAME ID`: one input withdrawn, as a fact of its own."""
    number = _number(form, "input", "the input")
    if number is None:
        raise _FormError("say which input to undo")
    with GameStore.open(d.data_dir, game_id, create=False) as store:
        _made, text = undo(store, number, d.now())
    return text


def _vote(d: Dashboard, game_id: str, form: FormData) -> str:
    unvote = form.get("unvote") == "1"
    target = _text(form, "target")
    with GameStore.open(d.data_dir, game_id, create=False) as store:
        _data, text = enter_pm_vote(
            store, (form.get("voter") or "").strip(), None if unvote else target,
            unvote=unvote, at_text=_text(form, "at"), now=d.now())
    return text


def _phase(d: Dashboard, game_id: str, form: FormData) -> str:
    """`phase GAME KIND N [--starts] [--ends] [--start-post]`."""
    kind = form.get("kind") or ""
    if kind not in ("day", "night"):
        raise _FormError("start a day or a night")
    number = _number(form, "number", "the phase's number")
    if number is None:
        raise _FormError(f"give the {kind}'s number, e.g. {kind} 2")
    with GameStore.open(d.data_dir, game_id, create=False) as store:
        change = enter_phase(store, d.now(), kind, number, ends=form.get("ends") or None,
                             starts=_text(form, "starts"),
                             start_post=_number(form, "start_post", "the opening post"))
        described = describe(load_view(store, d.now()))
    deadline = f"{described['deadline_local'] or 'none'} ({described['why']})."
    said = (f"{' '.join(change.did)} Deadline {deadline}" if change.did  # entered again
            else f"{kind.capitalize()} {number} started; deadline {deadline}")
    return " ".join([said, *(f"Note: {n}" for n in change.notes)])


def _deadline(d: Dashboard, game_id: str, form: FormData) -> str:
    """`phase GAME --move-to TIME`, `--shorten-to TIME` or `--extend SPAN`."""
    given = {k: (form.get(k) or "").strip() or None for k in ("extend", "move_to", "shorten_to")}
    if sum(v is not None for v in given.values()) != 1:
        raise _FormError("give one of: a new deadline, an earlier one, or an extension")
    with GameStore.open(d.data_dir, game_id, create=False) as store:
        change = adjust_phase(store, d.now(), **given)
        described = describe(load_view(store, d.now()))
    return f"{' '.join(change.did)} {described['phase']} now ends " \
        f"{described['deadline_local']} ({described['why']})."


def _kill(d: Dashboard, game_id: str, form: FormData) -> str:
    """`kill GAME PLAYER --how HOW [--at-post N | --at TIME] [--replacement NAME]
    [--day N]`."""
    replacement = _text(form, "replacement")
    how = "replaced" if replacement else (form.get("how") or "other")
    with GameStore.open(d.data_dir, game_id, create=False) as store:
        _data, text = record_death(store, d.now(), (form.get("player") or "").strip(),
                                   how=how, at_post=_number(form, "at_post", "the post"),
                                   at_text=_text(form, "at"),
                                   replacement=replacement,
                                   lynch_day=_number(form, "day", "the day of the lynch"))
    return text


def _pm(d: Dashboard, game_id: str, form: FormData) -> str:
    """`pm GAME PLAYER TEXT [--result]`."""
    with GameStore.open(d.data_dir, game_id, create=False) as store:
        _data, text = record_pm(store, d.now(), (form.get("player") or "").strip(),
                                form.get("text") or "", result=form.get("result") == "1")
    return text


def _tiebreak(d: Dashboard, game_id: str, form: FormData) -> str:
    """`tiebreak GAME CHOICE [--day N]`."""
    with GameStore.open(d.data_dir, game_id, create=False) as store:
        _data, text = record_tiebreak(store, d.now(), (form.get("choice") or "").strip(),
                                      day=_number(form, "day", "the day"))
    return text


def _sheriff(d: Dashboard, game_id: str, form: FormData) -> str:
    """`sheriff GAME PLAYER [--at-post N] [--day N]`."""
    with GameStore.open(d.data_dir, game_id, create=False) as store:
        _data, text = record_sheriff(store, d.now(), (form.get("player") or "").strip(),
                                     at_post=_number(form, "at_post", "your post"),
                                     day=_number(form, "day", "the day"))
    return text


def _resolve(d: Dashboard, game_id: str, form: FormData) -> str:
    """`resolve GAME [--night N | --day N] [--dry-run]`: by default the night the orders
    go to; its log as the command prints it."""
    dry_run = form.get("dry_run") == "1"
    night, day = _number(form, "night", "the night"), _number(form, "day", "the day")
    if night is not None and day is not None:
        raise _FormError("resolve a night or a day, not both")
    with GameStore.open(d.data_dir, game_id, create=False) as store:
        result, _back = resolve(store, d.now(), night=night, day=day, dry_run=dry_run)
    return result_text(result, not dry_run)


def _notify_add(d: Dashboard, game_id: str, form: FormData) -> str:
    """`notify GAME --add URL [--min-severity] [--events] [--quiet]`."""
    url = (form.get("url") or "").strip()
    if not url:
        raise _FormError("give the target's Apprise URL, e.g. discord://ID/{env:DISCORD_TOKEN}")
    with GameStore.open(d.data_dir, game_id, create=False) as store:
        notes = add_target(store, url, d.now(), min_severity=form.get("min_severity") or None,
                           events=_text(form, "events"),
                           quiet=_text(form, "quiet"))
    return "\n".join(notes)


def _notify_remove(d: Dashboard, game_id: str, form: FormData) -> str:
    """`notify GAME --remove ID`."""
    with GameStore.open(d.data_dir, game_id, create=False) as store:
        return remove_target(store, form.get("target") or "")


def _notify_test(d: Dashboard, game_id: str, form: FormData) -> str:
    """`notify GAME --test ID`: a target that did not take it is refused as the command
    refuses it."""
    with GameStore.open(d.data_dir, game_id, create=False) as store:
        results = send_test(store, form.get("target") or "*", d.now())
    if not all(r["arrived"] for r in results):
        raise _FormError(send_test_text(results))
    return send_test_text(results)


def _inbox_accept(d: Dashboard, game_id: str, form: FormData) -> str:
    """`inbox GAME --accept ID [--as LINE]`."""
    from assistant.gm_inbox import accept

    pid = (form.get("proposal") or "").strip()
    if not pid:
        raise _FormError("choose a proposal to accept")
    as_line = _text(form, "as")
    with GameStore.open(d.data_dir, game_id, create=False) as store:
        return accept(store, pid, d.now(), as_line=as_line).text


def _inbox_reject(d: Dashboard, game_id: str, form: FormData) -> str:
    """`inbox GAME --reject ID`."""
    from assistant.gm_inbox import reject

    pid = (form.get("proposal") or "").strip()
    if not pid:
        raise _FormError("choose a proposal to reject")
    with GameStore.open(d.data_dir, game_id, create=False) as store:
        return reject(store, pid, d.now()).text


def _inbox_accept_all(d: Dashboard, game_id: str, form: FormData) -> str:
    """`inbox GAME --accept-all`: those read without doubt."""
    from assistant.gm_inbox import accept_all

    with GameStore.open(d.data_dir, game_id, create=False) as store:
        done, refused = accept_all(store, d.now())
    lines = [x.text for x in done] + [f"Not accepted: {r}" for r in refused]
    return " ".join(lines) or "No proposal read without doubt is open."


ACTIONS = {"ack": _ack, "order": _order, "vote": _vote, "dusk-confirm": _dusk_confirm,
           "phase": _phase, "deadline": _deadline, "kill": _kill, "pm": _pm,
           "tiebreak": _tiebreak, "sheriff": _sheriff, "resolve": _resolve, "rule": _rule,
           "undo": _undo, "notify-add": _notify_add, "notify-remove": _notify_remove,
           "notify-test": _notify_test, "inbox-accept": _inbox_accept,
           "inbox-reject": _inbox_reject, "inbox-accept-all": _inbox_accept_all,
           **WRITE_ACTIONS, **SETUP_ACTIONS}
"""Every action of the page: POST /game/GAME/NAME runs ACTIONS[NAME](dashboard, game, form)
and returns the one line the page shows. A new one (posting a draft, sending PMs) is one
more entry here, a function calling gm.py, and a button (a `DraftAction` or a form)."""
ANCHORS = {"ack": "alerts", "dusk-confirm": "live", "phase": "live", "deadline": "live",
           "kill": "death", "resolve": "order", "rule": "why", "undo": "log",
           "notify-add": "notify", "notify-remove": "notify", "notify-test": "notify",
           "post": "drafts", "send": "drafts",
           "inbox-accept": "inbox", "inbox-reject": "inbox", "inbox-accept-all": "inbox"}
"""Where the page scrolls back to after an action (default: the action's own id)."""


@dataclass(frozen=True)
class Part:
    html: Markup
    digest: str


def render_parts(env: Environment, values: dict[str, Any]) -> dict[str, Part]:
    """Each live part of the game's page (templates/web/part_NAME.html) and its digest."""
    out = {}
    for name in PARTS:
        html = env.get_template(f"part_{name}.html").render(**values)
        out[name] = Part(Markup(html), hashlib.blake2b(html.encode(), digest_size=8).hexdigest())
    return out


PARTS = ("state", "count", "chart", "alerts", "drafts", "players", "orders", "posts", "why",
         "inbox")
