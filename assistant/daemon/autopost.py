"""What the daemon posts on its own (issue 23), only in a game whose GM turned it on
(`assistant game rules GAME --auto-post tallies`; `--auto-post off` stops it): the
interval tallies the ruleset asks for (002: every 5 minutes) and a tally for a living
player who asks for the count in the thread (`tally_requests.py` reads the asking).
Never a dusk or a dawn, never after the day's effective end (a majority, everyone voted,
the deadline): those are the GM's.

The rate limit, and how a request is answered (the reading chosen):
- at most one tally of the assistant's (the daemon's, or the GM's `assistant post`) in
  `min_gap` (the ruleset's `[auto_post]`, 2 minutes for 002; `--auto-post-gap`);
- an interval slot is posted once, at its moment; a slot falling within the gap of a
  tally just posted is skipped (that tally is the count), and a slot the daemon was not
  running for is never posted late (the next one is due);
- a request is answered once, by the next tally in the thread after it (an interval
  tally, one asked for by another player, one the GM posted, by hand or with `post`);
  while a tally is fresh (less than the gap old) a request is answered by that tally and
  nothing is posted when no vote has changed since it; if votes changed, the request
  waits for the gap's end and is then answered with a new tally.

Every post goes through the GM's outbox (`outbox.post`, the login of `fetch --login`),
so it is a `posted` fact like `assistant post`'s (the GM's `log` lists it, the next poll
reads it back as a host post) and never made twice: the text is kept in the table
`auto_posts` before the form goes out, and an attempt a crash left without its write is
looked for in the thread before anything else is posted; found, it is recorded as
posted, not posted again. Requests, slots and posts are rows of that table.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from assistant.clock import Clock
from assistant.count.gm_counts import read_counts
from assistant.count.outcome import TallyRules
from assistant.count.tally_draft import render_tally
from assistant.count.votes import VoteRules
from assistant.errors import AssistantError
from assistant.models import Post, from_iso, to_iso
from assistant.monitor import GameView, day_tally
from assistant.outbox import (
    Account,
    PostDraft,
    find_attempt,
    open_attempt,
    post,
    posts_made,
)
from assistant.phases import game_zone, local_text, phase_label, tally_times
from assistant.store import GameStore
from assistant.tally_requests import (
    AUTO_POSTS,
    auto_post_rules,
    count_requests,
    gap_of,
    settings_of,
)

log = logging.getLogger("assistant.daemon")

TABLE = AUTO_POSTS
"""Rows: {"kind": "post", "status": "attempt|posted|abandoned|failed", "key", "text",
"reason", "slot", "requests", "at", "post_id", "error"}, {"kind": "slot", "slot",
"status": "posted|skipped", "by_post"}, {"kind": "request", "post_id", "by_post",
"how": "posted|fresh|thread"}."""

AccountOpener = Callable[[GameStore], AbstractContextManager[Account]]


def auto_post_on(config: Mapping[str, Any]) -> bool:
    return settings_of(config).get("mode") == "tallies"


@dataclass(frozen=True)
class Plan:
    """A tally to post now, and why."""

    reason: str
    """"interval" or "request"."""
    slot: datetime | None
    requests: tuple[int, ...]
    """The requests it answers (post ids)."""


@dataclass
class Decision:
    plan: Plan | None = None
    marks: list[dict[str, Any]] = field(default_factory=list)
    """Rows to store without posting: slots skipped, requests answered by a fresh tally."""
    wake_at: datetime | None = None
    """When a request waiting for the gap's end may be answered."""


@dataclass(frozen=True)
class AutoPosted:
    """What one look did."""

    post_id: int | None = None
    why: str | None = None
    wake_at: datetime | None = None
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"post_id": self.post_id, "why": self.why, "wake_at": to_iso(self.wake_at),
                "error": self.error}

    def line(self) -> str:
        if self.error is not None:
            return f"auto post failed: {self.error}"
        return f"{self.why} posted as post {self.post_id}"


def decide(view: GameView, inputs: list[dict[str, Any]], made: list[dict[str, Any]],
           rows: list[dict[str, Any]], config: Mapping[str, Any], now: datetime) -> Decision:
    """What to post now (or mark, or wait for), from the game as the review saw it, the
    `posted` facts, the table's rows and the game's `auto_post` setting."""
    out = Decision()
    settings = settings_of(config)
    phase, tally, dl = view.phase, view.tally, view.deadline
    if (settings.get("mode") != "tallies" or phase is None or phase.kind != "day"
            or tally is None):
        return out
    end = dl.at if dl is not None else None
    if end is not None and now >= end:
        return out  # the day is over: its final count and dusk are the GM's to post
    rules = auto_post_rules(view.ruleset)
    gap = gap_of(settings.get("gap"), rules, where="auto_post gap")
    tallies = [m for m in made if m.get("draft") == "tally"]
    tried = [from_iso(r.get("at")) for r in rows
             if r.get("kind") == "post" and r.get("status") == "failed"]
    last = max([t for t in (*(from_iso(m["entered_at"]) for m in tallies), *tried) if t],
               default=None)
    free_at = last + gap if last is not None else None
    busy = free_at is not None and now < free_at
    since = from_iso(settings.get("since"))

    slot = _due_slot(view, end, since, now)
    slots_done = {r.get("slot") for r in rows if r.get("kind") == "slot"}
    if slot is not None and to_iso(slot) in slots_done:
        slot = None
    if slot is not None and busy:
        out.marks.append({"kind": "slot", "slot": to_iso(slot), "status": "skipped",
                          "by_post": tallies[-1]["post_id"] if tallies else None,
                          "last": to_iso(last), "at": to_iso(now)})
        slot = None

    waiting = _pending_requests(view, tallies, rows, settings)
    if slot is not None:
        out.plan = Plan("interval", slot, tuple(p.post_id for p in waiting))
        return out
    if not waiting:
        return out
    if not busy:
        out.plan = Plan("request", None, tuple(p.post_id for p in waiting))
        return out
    fresh = tallies[-1] if tallies else None
    if fresh is not None and fresh.get("post_id") and _unchanged(view, inputs, fresh["post_id"]):
        out.marks += [{"kind": "request", "post_id": p.post_id, "by_post": fresh["post_id"],
                       "how": "fresh", "at": to_iso(now)} for p in waiting]
        return out
    out.wake_at = free_at
    return out


def _due_slot(view: GameView, end: datetime | None, since: datetime | None,
              now: datetime) -> datetime | None:
    """The interval-tally slot due now: the latest at or before now, within one interval
    of it (an older one is stale: never posted late), not before auto-posting began."""
    phase, step = view.phase, view.phase_rules.tally_interval
    if phase is None or step is None:
        return None
    due = [t for t in tally_times(phase, end, view.phase_rules) if t <= now]
    if not due or now - due[-1] >= step or (since is not None and due[-1] < since):
        return None
    return due[-1]


def _pending_requests(view: GameView, tallies: list[dict[str, Any]],
                      rows: list[dict[str, Any]], settings: Mapping[str, Any]) -> list[Post]:
    """Requests of the running day by living players, made after auto-posting began, that
    no tally after them answers yet and no row marks as answered."""
    game, phase, tally = view.game, view.phase, view.tally
    assert tally is not None
    after = int(settings.get("after_post") or 0)
    alive = set(tally.alive)
    posts = [p for p in view.posts
             if p.post_id > after and game.in_day(p, phase) and not game.is_gm(p.author)
             and game.slot_of_author(p.author) in alive]
    rules = auto_post_rules(view.ruleset)
    if not rules.phrases() or not posts:
        return []
    asked = count_requests(posts, rules)
    if not asked:
        return []
    answered = {r.get("post_id") for r in rows if r.get("kind") == "request"}
    answers = [m["post_id"] for m in tallies if m.get("post_id")]
    answers += [c.post_id for c in read_counts(view.posts, game,
                                               VoteRules.from_ruleset(view.ruleset))]
    last_answer = max(answers, default=0)
    return [p for p in asked if p.post_id not in answered and p.post_id > last_answer]


def _unchanged(view: GameView, inputs: list[dict[str, Any]], post_id: int) -> bool:
    """Whether the count now is the count the tally `post_id` showed (its votes as of it)."""
    then = day_tally(view, inputs, at_post=post_id)
    now = view.tally
    assert now is not None
    return _votes(then) == _votes(now)


def _votes(tally: Any) -> tuple[Any, ...]:
    return (tuple((w.target, w.voters, w.displayed) for w in tally.wagons), tally.not_voting)


def _local(view: GameView, moment: datetime | None) -> str:
    return local_text(moment, game_zone(view.game.tz)) if moment is not None else "?"


# ---- posting ----------------------------------------------------------------------------

def tally_text(view: GameView) -> str:
    """The tally post of the running day as of the view's moment: what `assistant post
    GAME tally` posts then (the same count and template)."""
    tally = view.tally
    assert tally is not None
    urls = {v.post_id: v.url for v in tally.votes if v.post_id is not None and v.url}
    return render_tally(tally, TallyRules.from_ruleset(view.ruleset), tz=view.game.tz,
                        now=view.now, post_urls=urls)


def auto_post(store: GameStore, view: GameView, clock: Clock,
              open_account: AccountOpener) -> AutoPosted:
    """Settle an attempt a crash left, then post what `decide` says, recording each step."""
    now = view.now
    table = store.table(TABLE)
    game_id = store.game_id
    try:
        _settle(store, table, clock, open_account)
    except AssistantError as e:
        log.error("auto post %s: an earlier attempt could not be checked: %s", game_id, e)
        return AutoPosted(error=str(e))
    rows = table.all()
    decision = decide(view, store.inputs(), posts_made(store), rows, store.config(), now)
    for mark in decision.marks:
        table.insert(mark)
        if mark["kind"] == "request":
            log.info("auto post %s: post %s asked for the count; answered by the tally just "
                     "posted (post %s), no vote changed since", game_id, mark["post_id"],
                     mark["by_post"])
        else:
            log.info("auto post %s: the interval tally of %s skipped: a tally went up at %s",
                     game_id, _local(view, from_iso(mark["slot"])),
                     _local(view, from_iso(mark["last"])))
    plan = decision.plan
    if plan is None:
        return AutoPosted(wake_at=decision.wake_at)
    phase = view.phase
    assert phase is not None
    why = (f"the interval tally of {_local(view, plan.slot)}" if plan.reason == "interval"
           else "asked for in post " + ", ".join(map(str, plan.requests)))
    draft = PostDraft("tally", tally_text(view).strip() + "\n", "day", phase.number,
                      by="daemon", why=why)
    row_id = table.insert({
        "kind": "post", "status": "attempt", "key": draft.key, "text": draft.text,
        "why": why, "reason": plan.reason, "slot": to_iso(plan.slot) if plan.slot else None,
        "requests": list(plan.requests), "phase": "day", "number": phase.number,
        "at": to_iso(now),
    })
    try:
        with open_account(store) as account:
            result = post(store, account, draft, clock)
    except AssistantError as e:
        status = "attempt" if open_attempt(store, draft.key) else "failed"
        table.update({"status": status, "error": str(e)}, doc_ids=[row_id])
        log.error("auto post %s %s: %s not posted: %s", game_id, phase_label(phase), why, e)
        return AutoPosted(why=why, error=str(e))
    _done(table, table.get(doc_id=row_id), result.post_id, now)
    log.info("auto post %s %s: %s posted as post %s", game_id, phase_label(phase), why,
             result.post_id)
    return AutoPosted(result.post_id, why)


def _done(table: Any, row: Mapping[str, Any], post_id: int, now: datetime) -> None:
    """The post made: its row, its slot and the requests it answers marked."""
    table.update({"status": "posted", "post_id": post_id}, doc_ids=[row.doc_id])
    if row.get("slot"):
        table.insert({"kind": "slot", "slot": row["slot"], "status": "posted",
                      "by_post": post_id, "at": to_iso(now)})
    for asked in row.get("requests") or ():
        table.insert({"kind": "request", "post_id": asked, "by_post": post_id,
                      "how": "posted", "at": to_iso(now)})


def _settle(store: GameStore, table: Any, clock: Clock, open_account: AccountOpener) -> None:
    """An attempt a stopped daemon left: posted (the `posted` fact, or found in the thread)
    is recorded so; never sent (no attempt stored by the outbox, or not in the thread) is
    abandoned, and what is due now is decided afresh."""
    for row in [r for r in table.all() if r.get("kind") == "post" and r["status"] == "attempt"]:
        made = next((m for m in posts_made(store) if m["key"] == row["key"]), None)
        now = clock.now()
        if made is not None:
            _done(table, row, made["post_id"], now)
            continue
        if open_attempt(store, row["key"]):
            draft = PostDraft("tally", row["text"], row.get("phase"), row.get("number"),
                              by="daemon", why=row.get("why"))
            with open_account(store) as account:
                found = find_attempt(store, account, draft, clock)
            if found is not None:
                _done(table, row, found.post_id, now)
                log.info("auto post %s: %s was posted before the daemon stopped (post %s): "
                         "recorded, not posted again", store.game_id, row.get("why"),
                         found.post_id)
                continue
        table.update({"status": "abandoned"}, doc_ids=[row.doc_id])
        log.info("auto post %s: %s never reached the thread; what is due is decided afresh",
                 store.game_id, row.get("why"))
