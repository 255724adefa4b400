"""What the GM is told, as short messages: pure functions of the game as the daemon sees it.

Each notice has a stable key (the same fact always gives the same key), so the daemon
derives the notices on every review and the outbox keeps one record per key and target:
nothing is told twice, and nothing is lost to a restart. A message says the game, what
happened, and the one command (or page) to act on it. A message calls the game by its
title (`monitor.game_title`); the game's id appears only in the command to type.

    alerts    a new alert (its severity, its post link)             alert:ID
    hammer    a majority reached before the deadline                day2:hammer
    deadline  a warning before the deadline (with who still has to act),
              the final count locked (and revised), the dusk drafted,
              a night's end                                         day2:warn:3600, day2:final...
    orders    night orders still missing an hour before the night ends   night2:orders
              an order or vote read in a player's PM (a proposal)    inbox:ID
    polls     the thread could not be read for longer than the game's threshold,
              and, once, that it is read again after that was told    poll:SINCE[:back]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from assistant.alerts import StoredAlert
from assistant.models import from_iso, to_iso
from assistant.phases import format_duration, game_zone, local_text, phase_label

if TYPE_CHECKING:
    from assistant.monitor import GameView
    from assistant.proposals import Proposal

_TAG = re.compile(r"(day|night)(\d+)")
"""A clock event's phase, as its key starts: "day2", "night1"."""
ORDERS_LEAD = timedelta(hours=1)
"""How long before a night's end the GM hears of orders still missing."""
POLL_FAILING_AFTER = timedelta(minutes=30)
"""A poll failing this long is pushed (a game's `notify_poll_after` seconds wins)."""


@dataclass(frozen=True)
class Notice:
    """One thing to tell the GM."""

    key: str
    event: str
    """alerts, hammer, deadline, orders or polls (`targets.EVENTS`)."""
    severity: str
    """info, warning or violation: quiet hours hold all but violations."""
    title: str
    """One line: the game and what happened."""
    body: str
    """A line or three: the details, a link, the command to act on it."""
    happened_at: datetime
    link: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "happened_at": to_iso(self.happened_at)}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Notice:
        return cls(**{**d, "happened_at": from_iso(d["happened_at"])})  # type: ignore[arg-type]


@dataclass(frozen=True)
class GameName:
    """A game as a notice names it: its title where the GM reads ("Chat Mafia: Day 2 ends
    in 5 min"), its id only in the command the GM types ("assistant count thread-b")."""

    id: str
    title: str


@dataclass(frozen=True)
class PollFailure:
    """The thread has not been read since `since`: the latest poll's error."""

    since: datetime
    error: str


@dataclass(frozen=True)
class PollRecovery:
    """The thread read again at `at`, after the polls had failed since `since`."""

    since: datetime
    at: datetime


def alert_notice(game: GameName, s: StoredAlert) -> Notice:
    a = s.alert
    who = f" — {a.player}" if a.player else ""
    body = [a.message]
    if a.post_url:
        body.append(a.post_url)
    body.append(f"Acknowledge: assistant alerts {game.id} --ack {s.id}")
    return Notice(f"alert:{s.id}", "alerts", a.severity,
                  f"{game.title}: {a.severity} — {a.kind.replace('_', ' ')}{who}",
                  "\n".join(body), s.first_seen, a.post_url)


def hammer_notice(game: GameName, view: GameView) -> Notice | None:
    """The day ended at a majority (the hammer), while it is the game's phase."""
    phase, tally = view.phase, view.tally
    if phase is None or phase.kind != "day" or tally is None:
        return None
    outcome = tally.outcome
    if not (outcome.final and outcome.by_majority):
        return None
    cast = [v for v in tally.votes if v.accepted and v.post_id == outcome.at_post]
    vote = cast[-1] if cast else None
    at = vote.at if vote else (tally.deadline or view.now)
    zone = game_zone(view.game.tz)
    who = ", ".join(outcome.lynched) or "No Lynch"
    by = f"{vote.voter}'s vote in post {outcome.at_post}" if vote else f"post {outcome.at_post}"
    body = [f"{by} ({local_text(at, zone)}) reached the majority of {tally.majority}: "
            f"{outcome.reason}."]
    link = vote.url if vote else None
    if link:
        body.append(link)
    body.append(f"The dusk: assistant draft dusk {game.id} --day {phase.number}")
    return Notice(f"day{phase.number}:hammer", "hammer", "warning",
                  f"{game.title}: {phase_label(phase)} hammered — {who}", "\n".join(body), at, link)


def event_notices(
    game: GameName,
    view: GameView,
    handled: Iterable[Mapping[str, Any]],
    finals: Sequence[Mapping[str, Any]],
    to_act: Sequence[str] = (),
) -> list[Notice]:
    """The daemon's handled clock events worth telling: each warning (with `to_act`, who
    still has to act, when it is the running phase's), each final count locked or revised,
    each dusk drafted, each night's end. `handled`: the daemon's table of handled events;
    `finals`: its locked final counts."""
    zone = game_zone(view.game.tz)
    tag = f"{view.phase.kind}{view.phase.number}" if view.phase else None
    out = []
    for m in handled:
        kind, status, key = m.get("kind"), m.get("status"), m["key"]
        when = from_iso(m.get("handled_at")) or view.now
        phase = key.split(":", 1)[0]
        m_tag = _TAG.fullmatch(phase)
        if m_tag is None:
            continue
        label, number = f"{m_tag[1].capitalize()} {m_tag[2]}", m_tag[2]
        if kind == "warning" and status == "drafted":
            out.append(_warning(game, view, key, label, when, to_act if phase == tag else ()))
        elif kind == "deadline" and status == "locked":
            final = next((f for f in reversed(finals) if f.get("phase") == label), None)
            out.append(_final(game, label, number, final, m.get("file"), when, zone))
        elif kind == "deadline" and status == "ended":
            out.append(Notice(
                f"{phase}:ended", "deadline", "info", f"{game.title}: {label} ended",
                f"Resolve it: assistant resolve {game.id} --night {number} --dry-run", when))
        elif kind == "dusk" and status == "drafted":
            final = next((f for f in reversed(finals) if f.get("phase") == label), None)
            who = _lynched(final)
            out.append(Notice(
                f"{phase}:dusk", "deadline", "info", f"{game.title}: {label} dusk drafted — {who}",
                f"Draft: {m.get('file')}\n"
                f"Check it and store the lynch: assistant draft dusk {game.id} --day {number} "
                "--confirm", when))
    for i, f in enumerate(finals):
        if f.get("revises"):
            label = str(f.get("phase"))
            number = label.split()[-1]
            was = _lynched(finals[i - 1]) if i else "?"
            out.append(Notice(
                f"{label.lower().replace(' ', '')}:final:{f['locked_at']}", "deadline", "warning",
                f"{game.title}: {label}'s final count changed — {was} -> {_lynched(f)}",
                "A post made before the deadline was seen only after it, or a GM input "
                f"changed the count.\nThe count: assistant count {game.id} --day {number}",
                from_iso(f["locked_at"]) or view.now))  # type: ignore[arg-type]
    return out


def _lynched(final: Mapping[str, Any] | None) -> str:
    if final is None:
        return "see the count"
    return ", ".join(final.get("tally", {}).get("outcome", {}).get("lynched") or []) or "no lynch"


def _warning(game: GameName, view: GameView, key: str, label: str, when: datetime,
             to_act: Sequence[str]) -> Notice:
    before = timedelta(seconds=int(key.rsplit(":", 1)[-1]))
    zone = game_zone(view.game.tz)
    body = []
    if view.deadline is not None and view.deadline.at is not None:
        body.append(f"Deadline: {local_text(view.deadline.at, zone)}.")
    body.extend(to_act)
    body.append(f"The count: assistant count {game.id}" if label.startswith("Day")
                else f"The orders: assistant phase {game.id}")
    return Notice(key, "deadline", "info",
                  f"{game.title}: {label} ends in {format_duration(before)}", "\n".join(body), when)


def _final(game: GameName, label: str, number: str, final: Mapping[str, Any] | None,
           file: str | None, when: datetime, zone: Any) -> Notice:
    outcome = (final or {}).get("tally", {}).get("outcome", {})
    deadline = from_iso((final or {}).get("deadline"))
    body = []
    if outcome.get("reason"):
        at = f" at {local_text(deadline, zone)}" if deadline else ""
        body.append(f"Final count locked{at}: {outcome['reason']}.")
    if file:
        body.append(f"Count: {file}")
    body.append(f"The dusk: assistant draft dusk {game.id} --day {number}")
    return Notice(f"{label.lower().replace(' ', '')}:final", "deadline", "info",
                  f"{game.title}: {label} is over — {_lynched(final)}", "\n".join(body), when)


def orders_notice(game: GameName, view: GameView, missing: Sequence[str]) -> Notice | None:
    """Night orders still missing within `ORDERS_LEAD` of the night's end."""
    phase, dl = view.phase, view.deadline
    if phase is None or phase.kind != "night" or dl is None or dl.at is None or not missing:
        return None
    at = dl.at - ORDERS_LEAD
    if at <= phase.starts_at or not at <= view.now < dl.at:
        return None
    zone = game_zone(view.game.tz)
    names = ", ".join(_need(n) for n in missing)
    return Notice(
        f"night{phase.number}:orders", "orders", "warning",
        f"{game.title}: {phase_label(phase)} ends in {format_duration(dl.at - view.now)}; "
        f"orders missing: {names}",
        f"Deadline: {local_text(dl.at, zone)}.\n"
        f"Enter one: assistant order {game.id} \"NAME: ABILITY TARGET\"", at)


def proposal_notice(game: GameName, p: Proposal, now: datetime) -> Notice:
    """An order or vote read in a player's PM, waiting for the GM (`assistant inbox`)."""
    r = p.reading
    said = " ".join(p.text.split())
    said = said if len(said) <= 200 else said[:199] + "…"
    body = [f"{p.player} wrote: {said}"]
    if r.kind == "none":
        what = "no order read"
        body.append(f"Reject it: assistant inbox {game.id} --reject {p.id} (or --accept "
                    f"{p.id} --as \"{p.player}: ABILITY TARGET\")")
    elif r.refusal is not None:
        what = f"{r.line} (cannot be accepted as read)"
        body.append(f"Why: {r.refusal}")
        body.append(f"Enter it as you read it: assistant inbox {game.id} --accept {p.id} "
                    f"--as \"{p.player}: ABILITY TARGET\"")
    else:
        what = r.line + ("" if r.sure else " (check it)")
        body += [f"Check: {d}" for d in r.doubts]
        body.append(f"Accept: assistant inbox {game.id} --accept {p.id}")
    return Notice(f"inbox:{p.id}", "orders", "info", f"{game.title}: PM from {p.player} — {what}",
                  "\n".join(body), p.read_at or now)


def orders_due(view: GameView) -> datetime | None:
    """When the orders reminder of the running night falls due, if it is still ahead."""
    phase, dl = view.phase, view.deadline
    if phase is None or phase.kind != "night" or dl is None or dl.at is None:
        return None
    at = dl.at - ORDERS_LEAD
    return at if phase.starts_at < at and at > view.now else None


def _need(need: str) -> str:
    return f"the {need[5:]} side" if need.startswith("side:") else need


def poll_notice(game: GameName, failure: PollFailure | None, now: datetime,
                after: timedelta = POLL_FAILING_AFTER) -> Notice | None:
    """The thread unread for longer than `after`."""
    if failure is None or now - failure.since < after:
        return None
    return Notice(
        poll_key(failure.since), "polls", "warning",
        f"{game.title}: the thread cannot be read (for {format_duration(now - failure.since)})",
        f"{failure.error}\nTry it: assistant fetch --game {game.id}", failure.since + after)


def auto_post_notice(game: GameName, rows: Sequence[Mapping[str, Any]]) -> Notice | None:
    """The daemon could not post a tally the GM let it post (`--auto-post`): the password
    not set for it, the forum refusing. Told once per run of failures (the daemon tries
    again after each gap), with the last failure's words."""
    posts = [r for r in rows if r.get("kind") == "post" and r.get("status") != "abandoned"]
    failed: list[Mapping[str, Any]] = []
    for row in posts:
        failed = [*failed, row] if row.get("status") == "failed" else []
    if not failed:
        return None
    first, last = failed[0], failed[-1]
    return Notice(
        f"autopost:{first.get('at')}", "polls", "warning",
        f"{game.title}: the daemon cannot post its tallies",
        f"{last.get('why')}: {last.get('error')}\nIt tries again after each gap; "
        f"stop it: assistant game rules {game.id} --auto-post off",
        from_iso(first.get("at")) or datetime.min)  # type: ignore[arg-type]


def poll_key(since: datetime) -> str:
    """The key of the notice of polls failing since `since`."""
    return f"poll:{to_iso(since)}"


def poll_back_notice(game: GameName, back: PollRecovery, zone: ZoneInfo) -> Notice:
    """The thread read again, after the GM was told it could not be (`poll_notice`)."""
    return Notice(
        f"{poll_key(back.since)}:back", "polls", "info",
        f"{game.title}: the thread is read again since {back.at.astimezone(zone):%H:%M}",
        f"It could not be read for {format_duration(back.at - back.since)}, from "
        f"{local_text(back.since, zone)}; the posts made meanwhile are read now.\n"
        f"The count: assistant count {game.id}", back.at)


def to_act_lines(prods: Sequence[Any], not_voting: Sequence[str], game_id: str) -> list[str]:
    """The deadline reminder's lines of who still has to act: no vote yet, and the posts
    the ruleset asks for (`prods.at_risk`), with the command that drafts their prods."""
    lines = []
    if not_voting:
        lines.append(f"Not voted: {', '.join(not_voting)}.")
    short = [p.player for p in prods if p.no_post]
    if short:
        lines.append(f"No post {prods[0].window}: {', '.join(short)} "
                     f"(prods: assistant draft prods {game_id}).")
    return lines
