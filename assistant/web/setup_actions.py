"""The dashboard's actions on the game itself (the "Setup" tab): its name, its own majority
rules and house rules, a player's vote modifier or other account, a reset of the votes, a
day's lynches, the setup; and the result PMs of any phase (`draft pms`'s options). Each is
the command's function (`game_inputs`, `corrections`, `gm`) on the game's store, so the
page stores what the command stores and refuses what it refuses, in the same words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.datastructures import FormData

from assistant.corrections import set_title
from assistant.errors import AssistantError
from assistant.game_inputs import (
    enter_setup,
    game_rules,
    house_rules,
    record_alias,
    record_lynches,
    record_modifier,
    record_reset,
    setup_text,
)
from assistant.gm import pm_drafts
from assistant.monitor import game_title
from assistant.notify.manage import set_poll_after
from assistant.store import GameStore
from assistant.web.forms import FormError, Site, number, text


def _title(d: Site, game_id: str, form: FormData) -> str:
    """`game title GAME NAME`."""
    with GameStore.open(d.data_dir, game_id, create=False) as store:
        shown, changed = set_title(store, str(form.get("title") or ""), d.now())
    return f"{'Set' if changed else 'Unchanged'}: {game_id} is called {shown.title!r}."


def _rules(d: Site, game_id: str, form: FormData) -> str:
    """`game rules GAME [--at-deadline] [--no-lynch-majority] [--auto-post]
    [--auto-post-gap]`."""
    at_deadline, no_lynch = text(form, "at_deadline"), text(form, "no_lynch_majority")
    auto_post, gap = text(form, "auto_post"), text(form, "auto_post_gap")
    if not (at_deadline or no_lynch or auto_post or gap):
        raise FormError("choose what the deadline does without a majority, the votes No "
                        "Lynch needs, or what the daemon may post")
    with GameStore.open(d.data_dir, game_id, create=False) as store:
        _data, said = game_rules(store, d.now(), at_deadline, no_lynch, auto_post=auto_post,
                                 auto_post_gap=gap)
    return said


def _house_rules(d: Site, game_id: str, form: FormData) -> str:
    """`alerts GAME --rule KEY=VALUE ...` (one a line)."""
    items = [ln.strip() for ln in str(form.get("rules") or "").splitlines() if ln.strip()]
    with GameStore.open(d.data_dir, game_id, create=False) as store:
        given = house_rules(store, items, d.now())
    return "House rules set: " + ", ".join(f"{k} = {v}" for k, v in given.items()) + "."


def _modifier(d: Site, game_id: str, form: FormData) -> str:
    """`game modifier GAME PLAYER [--weight N] [--powerless] [--lover-of] [--day]`."""
    weight = number(form, "weight", "the vote's weight")
    with GameStore.open(d.data_dir, game_id, create=False) as store:
        _data, said = record_modifier(
            store, text(form, "player") or "", d.now(),
            vote_weight=1 if weight is None else weight, powerless=form.get("powerless") == "1",
            lover_of=text(form, "lover_of"), day=number(form, "day", "the day"))
    return said


def _alias(d: Site, game_id: str, form: FormData) -> str:
    """`game alias GAME PLAYER ACCOUNT`."""
    with GameStore.open(d.data_dir, game_id, create=False) as store:
        _data, said = record_alias(store, text(form, "player") or "", text(form, "account") or "",
                                   d.now())
    return said


def _reset(d: Site, game_id: str, form: FormData) -> str:
    """`game reset GAME --at-post N`."""
    at_post = number(form, "at_post", "your post")
    if at_post is None:
        raise FormError("give the post in which you reset the votes")
    with GameStore.open(d.data_dir, game_id, create=False) as store:
        _data, said = record_reset(store, at_post, d.now())
    return said


def _lynches(d: Site, game_id: str, form: FormData) -> str:
    """`game lynches GAME --day N --available K`."""
    day, available = number(form, "day", "the day"), number(form, "available", "the lynches")
    if day is None or available is None:
        raise FormError("give the day and how many lynches it has")
    with GameStore.open(d.data_dir, game_id, create=False) as store:
        _data, said = record_lynches(store, day, available, d.now())
    return said


def _roles(d: Site, game_id: str, form: FormData) -> str:
    """`roles GAME --file setup.toml`, the file's text pasted in the box."""
    setup = str(form.get("setup") or "")
    if not setup.strip():
        raise FormError('paste the setup: one [[players]] table a player, e.g. name = "Conia", '
                        'side = "town", role = "doctor"')
    with GameStore.open(d.data_dir, game_id, create=False) as store:
        entered = enter_setup(store, setup, "the setup", d.now())
    return setup_text(game_id, entered)


def _poll_after(d: Site, game_id: str, form: FormData) -> str:
    """`notify GAME --poll-after DURATION` (the Notify tab)."""
    after = text(form, "poll_after")
    if after is None:
        raise FormError("give how long the polls may fail before you are told, e.g. 30m")
    with GameStore.open(d.data_dir, game_id, create=False) as store:
        return set_poll_after(store, after)


SETUP_ACTIONS = {"game-title": _title, "game-rules": _rules, "house-rules": _house_rules,
                 "modifier": _modifier, "alias": _alias, "reset": _reset,
                 "lynches": _lynches, "roles": _roles, "poll-after": _poll_after}
"""The Setup tab's actions (templates/web/tab_setup.html), each the section of that id, and
the Notify tab's threshold for failing polls."""


def pms_page(d: Site, game_id: str, query: Mapping[str, str]) -> dict[str, Any]:
    """The values of the PMs page (templates/web/pms.html): `draft pms` with the query's
    night, day and pending, or its refusal in the command's words."""
    values: dict[str, Any] = {"game_id": game_id, "title": game_id, "pms": {}, "error": None}
    night = day = None
    pending = False
    try:
        form = FormData(list(query.items()))
        night, day = number(form, "night", "the night"), number(form, "day", "the day")
        pending = query.get("pending") == "1"
        if day is not None and (night is not None or pending):
            raise FormError("give a day alone: a night and the coming night's notices are "
                            "for nights")
        with GameStore.open(d.data_dir, game_id, create=False) as store:
            values["title"] = game_title(store)
            values["pms"] = pm_drafts(store, d.now(), night=night, day=day, pending=pending)
    except AssistantError as e:
        values["error"] = str(e)
    values["options"] = "".join([f" --night {night}" if night is not None else "",
                                 f" --day {day}" if day is not None else "",
                                 " --pending" if pending else ""])
    values["heading"] = ("The PMs due in the coming night" if pending else
                         f"Result PMs of Day {day}" if day is not None else
                         f"Result PMs of Night {night}" if night is not None else
                         "Result PMs of the last resolved night")
    return values
