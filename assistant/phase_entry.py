"""What the GM enters into the phase clock, and the end of the game: a phase started or
entered again (`phase GAME day 2 --ends ...`: the start kept unless given, a deadline given
replacing the one before with its moves and extensions, said), a deadline extended, moved or
shortened (never before the phase's start), and once a win is confirmed "Game over: Town won
(Day 2)" with every later phase, order and resolution refused unless the GM forces it.

Plain functions of a game's store and the moment, as `gm.py`'s are: the command line
prints what they return, the dashboard shows it. Each refusal is one line saying what to
give instead; each change says what it did (`PhaseChange`).
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from assistant.errors import AssistantError, IllegalOrderError, PhaseError
from assistant.game import Phase
from assistant.models import from_iso, to_iso
from assistant.monitor import GameView, day_tally, load_view
from assistant.phases import (
    Deadline,
    adjustments_from_inputs,
    format_duration,
    game_zone,
    local_text,
    parse_past,
    parse_when,
    phase_input,
    phase_label,
    start_phase,
)
from assistant.store import GameStore

if TYPE_CHECKING:  # the engine's replay, read from the view (monitor.load_view makes it)
    from assistant.engine.history import Replay


def stored_post_time(store: GameStore, post_id: int | None) -> datetime | None:
    """When a stored post was posted (a phase or a death "at post N" happened then); None
    when no such post is stored yet (the GM enters it before the next poll)."""
    found = store.post(post_id) if post_id is not None else None
    return found.latest.posted_at if found is not None else None


@dataclass(frozen=True)
class PhaseChange:
    """What a `phase` command did (one line each, for the GM) and what the GM should know."""

    did: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


def game_over(view: GameView) -> str | None:
    """ "Game over: Town won (Day 2)" once a win is confirmed (a dusk, a resolved phase or a
    death that ended the game); None while it goes on. A win from a death the GM entered is
    placed in the phase the GM's clock was in."""
    won = view.replay.won if view.replay is not None else None
    if won is None:
        return None
    where = won.phase or (phase_label(view.phase) if view.phase is not None else None)
    return f"Game over: {won.win.title} won" + (f" ({where})" if where else "")


def refuse_after_win(rep: Replay | None, game: str, what: str, *, force: bool = False) -> None:
    """After a side has won the game is over: an order, a resolution or a new phase then is
    a mistake, unless the GM says it is not (`--force`: a ruling that the game goes on)."""
    if rep is not None and rep.won is not None and not force:
        raise IllegalOrderError(
            f"{rep.won.text()}: the game {game} is over; {what} (--force to go on, for a GM's "
            "ruling)"
        )


def enter_phase(
    store: GameStore,
    now: datetime,
    kind: str,
    number: int,
    *,
    starts: str | None = None,
    ends: str | None = None,
    start_post: int | None = None,
    force: bool = False,
) -> PhaseChange:
    """Start a phase (`phase GAME day 2 --ends "Sunday 15:00"`), or enter a phase again: its
    start is kept unless --starts or --start-post is given, a deadline given replaces the
    one it had with everything that moved it since (the GM's moves and extensions, an early
    end), and the change says so. Nothing given is ignored, nothing is changed silently."""
    view = load_view(store, now)
    game, zone = view.game, game_zone(view.game.tz)
    refuse_after_win(view.replay, store.game_id, "no phase follows it", force=force)
    label = f"{kind.capitalize()} {number}"
    earlier = next(
        (p for p in game.phases if (p.kind, p.number) == (kind, number)), None
    )
    posted = stored_post_time(store, start_post)
    notes: list[str] = []
    if start_post is not None and posted is None and not starts:
        notes.append(
            f"post #{start_post} is not stored yet, so {kind} {number} starts "
            f"{'as before' if earlier else 'now'} "
            f"({local_text(earlier.starts_at if earlier else now, zone)}); give --starts, or "
            "fetch first and enter the phase again, if it began earlier"
        )
    if starts:
        begin = parse_past(starts, now=now, zone=zone, where="--starts")
    else:
        begin = posted or (earlier.starts_at if earlier else now)
    end = parse_when(ends, now=begin, zone=zone, where="--ends") if ends else None
    entries = _entries(store, kind, number)
    if end is None and any(_gave_end(e) for e in entries):
        end = from_iso(entries[-1].get("ends_at"))  # the GM's deadline stays; a default follows
    post = start_post if start_post is not None else (
        earlier.start_post if earlier is not None and not starts else None
    )
    new = start_phase(view.phase_rules, kind, number, begin, end, post, zone=zone)
    if earlier is None:
        store.add_input("phase", {**phase_input(new), "ends_given": ends is not None}, now)
        if kind == "night":
            notes += _unconfirmed_lynch(store, now, number)
        return PhaseChange((), tuple(notes))  # `phase` shows it: "Day 2 started ..."
    if not (starts or ends or start_post is not None):
        return PhaseChange(
            (f"{label} was entered already (started {local_text(earlier.starts_at, zone)}); "
             "nothing changed: give --ends, --starts or --start-post to change it.",),
            tuple(notes),
        )  # fmt: skip
    later = [p for p in game.phases if p.starts_at > earlier.starts_at]
    if later and begin >= min(p.starts_at for p in later):
        nxt = min(later, key=lambda p: p.starts_at)
        raise PhaseError(
            f"{label} would start at {local_text(begin, zone)}, not before "
            f"{phase_label(nxt)} ({local_text(nxt.starts_at, zone)}); give an earlier --starts"
        )
    before = _deadline_of(view, store, earlier)
    moves = adjustments_from_inputs(store.inputs(), earlier)
    store.add_input(
        "phase",
        {**phase_input(new), "ends_given": ends is not None,
         "replaces": None if before is None else {
             "starts_at": to_iso(earlier.starts_at), "deadline": to_iso(before.at),
             "why": before.why, "ended_early": before.ended_early}},
        now,
    )  # fmt: skip
    did = [f"{label} entered again: " + (
        f"its start moved from {local_text(earlier.starts_at, zone)} to "
        f"{local_text(begin, zone)}" if begin != earlier.starts_at
        else f"its start is kept ({local_text(begin, zone)})"
    ) + "."]  # fmt: skip
    after = _deadline_of(load_view(store, now), store, new)
    if ends is not None and before is not None:
        was = local_text(before.at, zone) if before.at else "no deadline"
        gone = [
            f"the extension of {format_duration(m.extend)}" if m.extend is not None
            else f"the move to {local_text(m.ends_at, zone)}"  # type: ignore[arg-type]
            for m in moves
        ]  # fmt: skip
        did.append(
            f"The deadline you gave replaces {was} ({before.why})"
            + (f", and with it {_and(gone)}." if gone else ".")
        )
    elif after is not None and before is not None and after.at != before.at:
        was = local_text(before.at, zone) if before.at else "no deadline"
        did.append(f"Its deadline follows the new start; it was {was} ({before.why}).")
    return PhaseChange(tuple(did), tuple(notes))


def adjust_phase(
    store: GameStore,
    now: datetime,
    *,
    extend: str | None = None,
    shorten_to: str | None = None,
    move_to: str | None = None,
    supporters: int | None = None,
    living: int | None = None,
    force: bool = False,
) -> PhaseChange:
    """Extend the running phase, move its deadline or end it earlier (`phase GAME --extend
    5m`, `--move-to TIME`, `--shorten-to TIME`), each checked against the ruleset; a time
    before the phase's start is refused as `--ends` is."""
    from assistant.phases import check_extension, check_shortening, parse_duration

    game_id = store.game_id
    view = load_view(store, now)
    refuse_after_win(view.replay, game_id, "its clock is stopped", force=force)
    if view.phase is None or view.deadline is None:
        raise PhaseError(
            f"game {game_id!r} has no running phase; start one with "
            f"`assistant phase {game_id} day 1`"
        )
    zone, phase, prules = game_zone(view.game.tz), view.phase, view.phase_rules
    label = phase_label(phase)
    data: dict[str, Any] = {"kind": phase.kind, "number": phase.number}
    if extend:
        by = parse_duration(extend, where="--extend")
        check_extension(view.deadline, prules, by, phase)
        data["extend_s"] = by.total_seconds()
        did = f"{label} extended by {format_duration(by)}."
    else:
        text = shorten_to or move_to
        if not text:
            raise PhaseError("give --extend, --shorten-to or --move-to")
        where = "--shorten-to" if shorten_to else "--move-to"
        moment = parse_when(text, now=now, zone=zone, where=where)
        if moment <= phase.starts_at:
            raise PhaseError(
                f"{where}: {label} would end at {local_text(moment, zone)}, not after its "
                f"start {local_text(phase.starts_at, zone)}; give a time after the start"
            )
        if shorten_to:
            if view.deadline.at is not None and moment >= view.deadline.at:
                raise PhaseError(
                    f"{local_text(moment, zone)} is not before the deadline "
                    f"{local_text(view.deadline.at, zone)}; use --move-to"
                )
            check_shortening(prules, phase, supporters, living)
        data.update(ends_at=to_iso(moment), supporters=supporters, living=living)
        did = f"{label}'s deadline {'shortened' if shorten_to else 'moved'} to " \
              f"{local_text(moment, zone)}."
    store.add_input("phase_adjust", data, now)
    return PhaseChange((did,))


def _entries(store: GameStore, kind: str, number: int) -> list[dict[str, Any]]:
    """The GM's entries of one phase (`phase GAME day 2 ...`), first to last."""
    return [
        i["data"] for i in store.inputs("phase")
        if (i["data"]["kind"], i["data"]["number"]) == (kind, number)
    ]  # fmt: skip


def _gave_end(entry: dict[str, Any]) -> bool:
    """Whether the GM gave the phase's deadline in this entry (else the ruleset did); an
    entry stored before entries said so holds the GM's deadline if it holds one."""
    return bool(entry.get("ends_given", entry.get("ends_at") is not None))


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _deadline_of(view: GameView, store: GameStore, phase: Phase) -> Deadline | None:
    """`phase`'s effective deadline in `view` (the running one's, or an earlier one's)."""
    from assistant.monitor import effective_end

    found = next(
        (p for p in view.game.phases if (p.kind, p.number) == (phase.kind, phase.number)), None
    )
    if found is None:
        return None
    if found is view.game.phases[-1]:
        return view.deadline
    ends, _ = effective_end(
        view.game, found, view.thread, view.ruleset, view.phase_rules, store.inputs(), view.now
    )
    return ends


def _unconfirmed_lynch(store: GameStore, now: datetime, night: int) -> list[str]:
    """A night started over a day whose count lynched someone the game's facts still have
    alive: the GM never confirmed the dusk. Said, not refused (the GM may lynch by hand)."""
    view = load_view(store, now)
    game = view.game
    day = next(
        (p for p in reversed(game.phases) if p.kind == "day" and p.number <= night), None
    )
    if day is None or not (view.posts or game.pm_votes):
        return []
    try:
        tally = day_tally(view, store.inputs(), day=day.number)
    except AssistantError:
        return []
    unconfirmed = [s for s in tally.outcome.lynched if game.death_of(s) is None]
    if not tally.outcome.final or not unconfirmed:
        return []
    names = " and ".join(unconfirmed)
    return [
        f"{phase_label(day)}'s lynch was never confirmed: {names} "
        f"{'is' if len(unconfirmed) == 1 else 'are'} still alive in the game's facts; record "
        f"it with `assistant draft dusk {store.game_id} --day {day.number} --confirm` (or "
        f"`assistant kill {store.game_id} {shlex.quote(unconfirmed[0])} --how lynch --day "
        f"{day.number}`)"
    ]
