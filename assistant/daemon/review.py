"""One game's review at a moment: new alerts stored and the Atom feed rewritten, then every
clock event that is due and not handled yet (interval tallies, deadline warnings, the final
count locked at the deadline and revised if it changes, the dusk post, a night's end),
each drafted to a file and marked handled in the store's "daemon" table, so a restart
neither repeats nor loses one. No network: the poll is the cycle's (core.py)."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from assistant.alerts import AlertLog, StoredAlert, feed_path, write_feed
from assistant.count.outcome import TallyRules
from assistant.count.tally import count
from assistant.count.tally_draft import render_tally
from assistant.engine.history import ROLES
from assistant.errors import AssistantError
from assistant.models import Post, from_iso, to_iso
from assistant.monitor import GameView, day_tally, draft_dusk, game_title, load_view, run_checks
from assistant.notify.push import push
from assistant.phases import (
    format_duration,
    game_zone,
    local_text,
    phase_label,
    tally_times,
    warning_times,
)
from assistant.store import GameStore

log = logging.getLogger("assistant.daemon")


MARKERS = "daemon"


@dataclass(frozen=True)
class ClockEvent:
    """Something due at a moment of a phase."""

    key: str
    """Stable: "day2:tally:2026-11-22T11:07:07+00:00", "day2:warn:3600", "day2:deadline",
    "day2:dusk"."""
    kind: str
    """"tally", "warning", "deadline" or "dusk" (a day's, right after its deadline)."""
    at: datetime
    before: timedelta | None = None
    """For a warning: how long before the deadline."""


def clock_events(view: GameView, *, tallies_after: datetime | None = None) -> list[ClockEvent]:
    """Every clock event of the running phase, in time order (due or not); with
    `tallies_after`, the interval tallies after it only, up to the first not due yet (a
    review looks at no more: a 3-day day of 5-minute tallies is 864 of them)."""
    phase, dl = view.phase, view.deadline
    if phase is None or dl is None or dl.at is None:
        return []
    tag = f"{phase.kind}{phase.number}"
    times = tally_times(phase, dl.at, view.phase_rules)
    if tallies_after is not None:
        times = [t for t in times if t > tallies_after]
        later = next((i for i, t in enumerate(times) if t > view.now), None)
        times = times if later is None else times[: later + 1]
    events = [ClockEvent(f"{tag}:tally:{to_iso(t)}", "tally", t) for t in times]
    events += [
        ClockEvent(f"{tag}:warn:{int(w.total_seconds())}", "warning", t, w)
        for w, t in warning_times(dl.at, phase.starts_at, view.phase_rules)
    ]
    events.append(ClockEvent(f"{tag}:deadline", "deadline", dl.at))
    if phase.kind == "day":
        events.append(ClockEvent(f"{tag}:dusk", "dusk", dl.at))
    rank = {"deadline": 0, "dusk": 1}
    return sorted(events, key=lambda e: (e.at, rank.get(e.kind, 2)))


@dataclass(frozen=True)
class HandledEvent:
    """A clock event the daemon handled in a cycle, as stored in the "daemon" table."""

    key: str
    kind: str
    at: datetime
    status: str
    """"drafted", "skipped", "locked" (a day's final count), "revised" (that count changed
    after the lock) or "ended" (a night's end)."""
    file: Path | None = None

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "kind": self.kind, "at": to_iso(self.at),
                "status": self.status, "file": str(self.file) if self.file else None}


@dataclass(frozen=True)
class Review:
    new_alerts: tuple[StoredAlert, ...]
    handled: tuple[HandledEvent, ...]
    next_event: datetime | None
    config_seen: tuple[Any, dict[str, Any]] | None = None
    """The game's settings as the review left its file (`GameStore.config_seen`)."""


_FEEDS: dict[Path, tuple[Any, Any]] = {}
"""Per alert feed this process wrote: what it shows (the alerts as stored, the title, link
and zone) and the file it left. A review whose alerts did not change leaves the feed as it
is (a long game's thousands of alerts were the most of an idle review's time)."""


def _file_signature(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def drafts_dir(data_dir: Path, game_id: str) -> Path:
    """Where the daemon writes a game's drafts."""
    return data_dir / "drafts" / game_id


def review_game(data_dir: Path, game_id: str, now: datetime) -> Review:
    """Store new alerts, rewrite the feed, handle every due clock event not handled yet."""
    drafts = drafts_dir(data_dir, game_id)
    with GameStore.open(data_dir, game_id, create=False) as store:
        view = load_view(store, now)
        alerts = AlertLog(store)
        fresh = alerts.record(run_checks(view, store), now)
        for s in fresh:
            a = s.alert
            log.info(
                "alert %s %s: %s %s post %s (%s)",
                game_id,
                s.id,
                a.severity,
                a.kind,
                a.post_id,
                a.player,
            )
        config = store.config()
        feed, zone = feed_path(store), game_zone(view.game.tz)
        title = game_title(store, view.ruleset)
        shown = (store.alerts_seen(), title, config.get("thread_url"), zone.key)
        if _FEEDS.get(feed) != (shown, _file_signature(feed)):
            write_feed(
                alerts.latest(),
                feed,
                game_id=game_id,
                title=title,
                link=config.get("thread_url"),
                now=now,
                zone=zone,
                total=alerts.count(),
            )
            _FEEDS[feed] = (shown, _file_signature(feed))
        markers = store.table(MARKERS).all()
        done = {d["key"] for d in markers}
        counted_through = _tallies_through(markers)
        tag = f"{view.phase.kind}{view.phase.number}" if view.phase is not None else ""
        events = clock_events(view, tallies_after=counted_through.get(
            tag, datetime.min.replace(tzinfo=now.tzinfo)))
        due = [e for e in events if e.at <= now]
        last_count = _last_count(due)
        handled = []
        missed: list[ClockEvent] = []
        for event in due:
            if event.key in done or _tally_done(event, counted_through):
                continue
            if event.kind == "tally" and last_count is not None and event.at < last_count:
                missed.append(event)  # a later count is due: this slot is one of a run
                continue
            status, path = _handle(store, view, event, due, drafts)
            if status is None:  # not for now (a dusk before the setup): not marked
                continue
            store.table(MARKERS).insert(
                {
                    "key": event.key,
                    "kind": event.kind,
                    "at": to_iso(event.at),
                    "handled_at": to_iso(now),
                    "status": status,
                    "file": str(path) if path else None,
                }
            )
            handled.append(HandledEvent(event.key, event.kind, event.at, status, path))
        if missed:
            handled.append(_skip_tallies(store, view, missed))
        revised = _revise_final(store, view, drafts)
        if revised is not None:
            handled.append(revised)
        upcoming = [e.at for e in events if e.at > now]
        # What happened, pushed to the GM's notification targets (issue 24): queued in
        # the outbox before anything is sent, so a kill now still sends it after a restart.
        pushed = push(store, view, now, handled=store.table(MARKERS).all(),
                      finals=store.table("final_counts").all())
        if pushed.wake_at is not None:
            upcoming.append(pushed.wake_at)
        seen = store.config_seen()
    return Review(tuple(fresh), tuple(handled), min(upcoming) if upcoming else None, seen)


def _handle(
    store: GameStore, view: GameView, event: ClockEvent, due: list[ClockEvent], drafts: Path
) -> tuple[str | None, Path | None]:
    """Handle one due event: its status and draft file; status None leaves it unmarked,
    to be handled by a later cycle."""
    game_id, phase, now = store.game_id, view.phase, view.now
    assert phase is not None and view.deadline is not None
    label = phase_label(phase)
    if event.kind == "dusk":
        return _dusk(store, view, event, drafts)
    if event.kind == "tally":
        thread = view.thread
        tally = count(
            thread.posts, view.game, view.ruleset, at=event.at, now=event.at,
            edits=thread.edits,
        )  # fmt: skip
        text = render_tally(
            tally,
            TallyRules.from_ruleset(view.ruleset),
            tz=view.game.tz,
            now=event.at,
            post_urls=_urls(view.posts),
        )
        path = _write(
            drafts, f"{phase.kind}{phase.number}-tally-{event.at:%Y%m%dT%H%M%S}.txt", text
        )
        log.info("tally %s %s as of %s -> %s", game_id, label,
                 local_text(event.at, game_zone(view.game.tz)), path)
        return "drafted", path
    if event.kind == "warning":
        if view.deadline.at is not None and now >= view.deadline.at:
            return "skipped", None
        zone = game_zone(view.game.tz)
        text = (
            f"{label} ends in {format_duration(event.before or timedelta(0))}: at "
            f"{local_text(view.deadline.at, zone)} ({view.deadline.why}).\n"
        )  # type: ignore[arg-type]
        path = _write(
            drafts,
            f"{phase.kind}{phase.number}-warning-{int(event.before.total_seconds())}s.txt",
            text,
        )  # type: ignore[union-attr]
        log.info(
            "warning %s %s ends in %s -> %s",
            game_id,
            label,
            format_duration(event.before or timedelta(0)),
            path,
        )
        return "drafted", path
    if phase.kind == "night":
        return _night_ends(store, view, event, drafts)
    # The deadline: the count as of the effective deadline, locked in the store: the
    # same count `count` and `draft tally` show of this day, whenever they are run.
    tally = day_tally(view, store.inputs())
    text = render_tally(
        tally,
        TallyRules.from_ruleset(view.ruleset),
        tz=view.game.tz,
        now=event.at,
        post_urls=_urls(view.posts),
    )
    path = _write(drafts, f"{phase.kind}{phase.number}-final.txt", text)
    store.table("final_counts").insert(
        {
            "phase": label,
            "deadline": to_iso(event.at),
            "locked_at": to_iso(now),
            "tally": tally.to_json(),
        }
    )
    lynched = tally.outcome.said()
    log.info(
        "deadline %s %s at %s: final count locked, %s -> %s",
        game_id,
        label,
        local_text(event.at, game_zone(view.game.tz)),
        lynched,
        path,
    )
    return "locked", path

def _tally_key_tag(key: str) -> str:
    """The phase a tally marker's key belongs to ("day2" of "day2:tally:...")."""
    return key.split(":", 1)[0]


def _tallies_through(markers: list[dict[str, Any]]) -> dict[str, datetime]:
    """Per phase, the latest interval-tally slot handled (drafted, or the last of a run of
    skipped slots): every slot up to it is done."""
    out: dict[str, datetime] = {}
    for m in markers:
        if m.get("kind") != "tally":
            continue
        at = from_iso(m.get("through") or m.get("at"))
        tag = _tally_key_tag(m["key"])
        if at is not None and (tag not in out or at > out[tag]):
            out[tag] = at
    return out


def _tally_done(event: ClockEvent, through: dict[str, datetime]) -> bool:
    last = through.get(_tally_key_tag(event.key))
    return event.kind == "tally" and last is not None and event.at <= last


def _last_count(due: list[ClockEvent]) -> datetime | None:
    """The latest due count (an interval tally's or the deadline's): a tally slot before it
    would be stale at once, so it is skipped, not drafted late."""
    return max((e.at for e in due if e.kind in ("tally", "deadline")), default=None)


def _skip_tallies(store: GameStore, view: GameView, missed: list[ClockEvent]) -> HandledEvent:
    """Interval-tally slots missed (the daemon was stopped, the machine asleep): none is
    drafted late, and the whole run is one marker and one log line, whatever its length
    (days of 5-minute slots were one marker, one log line and one rewrite of the game
    file each)."""
    first, last = missed[0], missed[-1]
    zone = game_zone(view.game.tz)
    key = f"{_tally_key_tag(last.key)}:tally-skipped:{to_iso(first.at)}/{to_iso(last.at)}"
    store.table(MARKERS).insert({
        "key": key, "kind": "tally", "at": to_iso(first.at), "through": to_iso(last.at),
        "slots": len(missed), "handled_at": to_iso(view.now), "status": "skipped",
        "file": None,
    })
    label = phase_label(view.phase) if view.phase is not None else "?"
    when = (local_text(first.at, zone) if len(missed) == 1
            else f"{len(missed)} slots from {local_text(first.at, zone)} to "
                 f"{local_text(last.at, zone)}")
    log.info("tally %s %s at %s: skipped (a later count is due)", store.game_id, label, when)
    return HandledEvent(key, "tally", last.at, "skipped", None)


def _revise_final(store: GameStore, view: GameView, drafts: Path) -> HandledEvent | None:
    """The running day's count once its final count was locked: when it differs (a
    post made before the deadline that the forum showed only later, as a moderation
    queue or a slow mirror does; a GM's input since), a revised final count is locked
    and drafted beside the first and the log says what changed, so the lock, `count`
    and `draft tally` agree again. A night begun ends the revisions of its day."""
    phase = view.phase
    if phase is None or phase.kind != "day":
        return None
    label = phase_label(phase)
    locked = [r for r in store.table("final_counts").all() if r["phase"] == label]
    if not locked:
        return None
    tally = day_tally(view, store.inputs())
    if _votes_of(tally.to_json()) == _votes_of(locked[-1]["tally"]):
        return None
    game_id = store.game_id
    deadline = from_iso(locked[-1]["deadline"])
    text = render_tally(
        tally,
        TallyRules.from_ruleset(view.ruleset),
        tz=view.game.tz,
        now=deadline,
        post_urls=_urls(view.posts),
    )
    revision = len(locked) + 1
    path = _write(drafts, f"{phase.kind}{phase.number}-final-{revision}.txt", text)
    store.table("final_counts").insert(
        {
            "phase": label,
            "deadline": locked[-1]["deadline"],
            "locked_at": to_iso(view.now),
            "revises": locked[-1]["locked_at"],
            "tally": tally.to_json(),
        }
    )
    log.warning(
        "final count of %s %s changed since it was locked at %s: %s; revised -> %s",
        game_id,
        label,
        local_text(from_iso(locked[-1]["locked_at"]), game_zone(view.game.tz)),
        what_changed(locked[-1], tally, view, store.inputs()),
        path,
    )
    return HandledEvent(f"{label}-final-{revision}", "deadline", deadline, "revised", path)

def _dusk(
    store: GameStore, view: GameView, event: ClockEvent, drafts: Path
) -> tuple[str | None, Path | None]:
    """The day's dusk post, once the game has a setup; without one, nothing (the GM's
    `draft dusk` still shows the lynch) and the event waits for a setup."""
    game_id, phase = store.game_id, view.phase
    assert phase is not None
    if not store.inputs(ROLES):
        return None, None
    try:
        result = draft_dusk(store, max(view.now, event.at), day=phase.number)
    except AssistantError as e:
        log.warning("dusk %s %s: not drafted: %s", game_id, phase_label(phase), e)
        return None, None
    path = _write(drafts, f"day{phase.number}-dusk.txt", result.post)
    won = f", {result.win.title} win" if result.win else ""
    log.info(
        "dusk %s %s: %s (%s)%s -> %s",
        game_id,
        phase_label(phase),
        ", ".join(result.lynched) or result.tally.outcome.said(),
        result.tally.outcome.reason,
        won,
        path,
    )
    for note in result.notes:
        log.info("dusk %s note: %s", game_id, note)
    return "drafted", path

def _night_ends(
    store: GameStore, view: GameView, event: ClockEvent, drafts: Path
) -> tuple[str, Path | None]:
    """A night's end: nothing to count; the GM resolves the orders. Say so, once."""
    game_id, phase = store.game_id, view.phase
    assert phase is not None and view.deadline is not None
    zone = game_zone(view.game.tz)
    why = view.deadline.why
    n = phase.number
    text = (
        f"{phase_label(phase)} ended {local_text(event.at, zone)} ({why}).\n"
        f"Resolve it: `assistant resolve {game_id} --night {n} --dry-run`, then "
        f"`assistant resolve {game_id} --night {n}` and `assistant draft dawn {game_id}`.\n"
    )
    path = _write(drafts, f"night{n}-end.txt", text)
    log.info("night end %s %s at %s: %s -> %s", game_id, phase_label(phase),
             local_text(event.at, zone), why, path)
    return "ended", path

def _write(folder: Path, name: str, text: str) -> Path:
    """The draft `name` in `folder`, written whole (an atomic replace)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    tmp = folder / f".{name}.tmp"
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
    return path


def what_changed(
    lock: dict[str, Any], tally: Any, view: GameView, inputs: list[dict[str, Any]]
) -> str:
    """What a revised final count changed and why, for the GM: "xX_Slayer_Xx 3 -> 4 votes,
    Conia 2 -> 1 votes; post 161 seen late; the lynch is unchanged (xX_Slayer_Xx)". The
    causes: votes in posts the poller first saw after the lock (a moderation queue, a slow
    mirror), and the GM's inputs since (a death, a vote by PM, a ruling)."""
    locked_at = from_iso(lock["locked_at"])
    before = {w["target"]: w["displayed"] for w in lock["tally"].get("wagons", [])}
    after = {w.target: w.displayed for w in tally.wagons}
    moves = [
        f"{target} {before.get(target, 0)} -> {after.get(target, 0)} votes"
        for target in [*after, *(t for t in before if t not in after)]
        if before.get(target, 0) != after.get(target, 0)
    ]
    if set(lock["tally"].get("not_voting", [])) != set(tally.not_voting):
        moves.append(
            f"not voting {len(lock['tally'].get('not_voting', []))} -> {len(tally.not_voting)}"
        )
    first_seen = {sp.post_id: sp.versions[0].seen_at for sp in view.stored}
    late = sorted({
        v.post_id for v in tally.votes
        if v.post_id is not None and locked_at is not None
        and first_seen.get(v.post_id, locked_at) > locked_at
    })  # fmt: skip
    causes = [f"post{'s' if len(late) > 1 else ''} {', '.join(map(str, late))} seen late"] \
        if late else []
    entered = [i["kind"] for i in inputs if locked_at and from_iso(i["entered_at"]) > locked_at]
    if entered:
        causes.append("the GM's " + ", ".join(dict.fromkeys(k.replace("_", " ") for k in entered))
                      + " entered since")  # fmt: skip
    was = ", ".join(lock["tally"].get("outcome", {}).get("lynched", [])) or "no lynch"
    now = tally.outcome.said()  # a tie waiting for its decider is not "no lynch"
    lynch = f"the lynch is unchanged ({now})" if was == now else f"the lynch: {was} -> {now}"
    return "; ".join([", ".join(moves) or "the votes behind it", *causes, lynch])


def _votes_of(tally: dict[str, Any]) -> dict[str, Any]:
    """What a revised final count is for: the votes and the outcome, not the post the
    outcome is told at (a host's closing post in the deadline's minute moves it)."""
    outcome = {k: v for k, v in tally.get("outcome", {}).items() if k != "at_post"}
    return {**tally, "outcome": outcome}


def _urls(posts: tuple[Post, ...]) -> dict[int, str]:
    return {p.post_id: p.url for p in posts if p.url}
