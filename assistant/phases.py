"""The phase clock: how long days and nights last, when they end early, and deadlines.

Everything here is a pure function of the ruleset's `[phases]` section, the phase the
GM started, and what happened since (extensions, everyone having voted, a majority,
all night orders in). Deadlines are aware UTC datetimes; a game's time zone is used
only to read the GM's "Sunday 15:00" and to print deadlines, through `zoneinfo`, so a
72 h day crossing a DST change is still 72 real hours and a fixed "3:00 PM Eastern"
deadline stays at 3:00 PM on the wall clock.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from assistant.errors import PhaseError, RulesetError
from assistant.game import Phase, phases_entered
from assistant.models import from_iso, to_iso
from assistant.settings import in_range, known_section, typed
from assistant.timezones import zone

UTC_ZONE = ZoneInfo("UTC")

PHASE_KINDS = ("day", "night")
ALL_VOTED_ACTIONS = ("none", "end", "drop")
SHORTEN_RULES = ("never", "majority", "gm")
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")

_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)\s*(d|h|m|s)", re.I)
_UNIT = {"d": 86400, "h": 3600, "m": 60, "s": 1}


#: The longest a phase, an extension or a warning can be, and the furthest ahead a time the
#: GM types can lie: no game phase lasts a year, and a bigger number is a typo (and past
#: what a datetime can hold, or enough interval tallies to stall the daemon).
LONGEST = timedelta(days=366)
#: The shortest interval between two interval tallies (a zero one would never end).
SHORTEST_TALLY_INTERVAL = timedelta(minutes=1)


def parse_duration(
    text: str, *, where: str = "duration", longest: timedelta = LONGEST, shown: str | None = None
) -> timedelta:
    """ "72h", "20m", "1h30m", "5d" -> timedelta; anything else, or anything longer than
    `longest`, is refused naming `where` (the option or ruleset key) and `shown` (what the
    GM typed, "+72h", if not `text` itself)."""
    cleaned = text.strip().lower().replace(" ", "")
    parts = _DURATION_PART.findall(cleaned)
    written = shown if shown is not None else text
    if not cleaned or "".join(n + u for n, u in parts) != cleaned:
        raise PhaseError(
            f"{where}: {written!r} is not a duration; write e.g. 72h, 20m, 1h30m or 5d"
        )
    seconds = sum(float(n) * _UNIT[u.lower()] for n, u in parts)
    if seconds > longest.total_seconds():
        raise PhaseError(
            f"{where}: {written!r} is longer than {format_duration(longest)}; write e.g. 72h, "
            "20m or 5d"
        )
    return timedelta(seconds=seconds)


def format_duration(delta: timedelta) -> str:
    """A short human text: "2 d 3 h", "4 min 30 s"."""
    seconds = int(round(delta.total_seconds()))
    sign, seconds = ("-" if seconds < 0 else ""), abs(seconds)
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    bits = [f"{v} {u}" for v, u in ((days, "d"), (hours, "h"), (minutes, "min")) if v]
    if secs and not days and not hours:
        bits.append(f"{secs} s")
    return sign + (" ".join(bits) or "0 s")


def game_zone(name: str | None) -> ZoneInfo:
    """The game's time zone (an IANA name such as "America/New_York"); UTC if unset."""
    return zone(name)


@dataclass(frozen=True)
class WeeklyTime:
    """A wall-clock moment in the week ("Sunday 15:00") in a time zone."""

    weekday: int
    """0 = Monday ... 6 = Sunday."""
    at: time

    @classmethod
    def parse(cls, text: str, *, where: str) -> WeeklyTime:
        m = re.fullmatch(r"\s*([A-Za-z]+)\s+(\d{1,2}):(\d{2})\s*", text)
        day = m and _weekday(m.group(1))
        if m is None or day is None:
            raise RulesetError(f'{where}: {text!r} is not a weekly time; write e.g. "Sunday 15:00"')
        return cls(day, _clock_time(int(m.group(2)), int(m.group(3)), text, where))

    def next_after(self, moment: datetime, zone: ZoneInfo) -> datetime:
        """The first occurrence strictly after `moment`, aware UTC (wall time kept across DST)."""
        local = moment.astimezone(zone)
        days_ahead = (self.weekday - local.weekday()) % 7
        for extra in (0, 7):
            day = local.date() + timedelta(days=days_ahead + extra)
            candidate = datetime.combine(day, self.at, tzinfo=zone).astimezone(UTC)
            if candidate > moment:
                return candidate
        raise AssertionError("unreachable: a week always holds the next occurrence")


def _weekday(text: str) -> int | None:
    t = text.lower()
    for i, name in enumerate(WEEKDAYS):
        if len(t) >= 3 and name.startswith(t):
            return i
    return None


@dataclass(frozen=True)
class WeeklySchedule:
    """Fixed deadlines (003: days from Tuesday 3:00 PM to Sunday 3:00 PM Eastern)."""

    zone: ZoneInfo
    day_starts: WeeklyTime
    day_ends: WeeklyTime

    def end_of(self, kind: str, starts_at: datetime) -> datetime:
        # A phase that starts exactly on its own boundary ends at the next other boundary.
        target = self.day_ends if kind == "day" else self.day_starts
        return target.next_after(starts_at, self.zone)


@dataclass(frozen=True)
class PhaseRules:
    """The `[phases]` section of a ruleset."""

    day_length: timedelta | None = None
    """Default day length; None when the GM sets each deadline (no default in the rules)."""
    night_length: timedelta | None = None
    schedule: WeeklySchedule | None = None
    """Fixed weekly deadlines; when set they give the default ends instead of the lengths."""
    extensions: tuple[timedelta, ...] = ()
    """Extensions the GM may grant a day (002: 5 or 10 minutes)."""
    max_extensions: int = 0
    all_voted: str = "none"
    """What happens when every living player has a vote: none, end (000), drop (002)."""
    all_voted_remaining: timedelta | None = None
    """With "drop": the time left after everyone has voted (002: 5 minutes, or less if less)."""
    all_voted_disables_extensions: bool = False
    majority_ends_day: bool = False
    """The hammer: the day ends the moment one player has a majority."""
    shorten: str = "gm"
    """Who may end a day early: never (003), majority of the living (000), or the GM."""
    night_ends_when_orders_in: bool = False
    """000: a night ends early once every night role has sent orders."""
    tally_interval: timedelta | None = None
    """002: a vote tally every 5 minutes, counted from the start of the day."""
    warnings: tuple[timedelta, ...] = (timedelta(hours=24), timedelta(hours=1))
    """How long before a deadline the GM is warned."""

    def length(self, kind: str) -> timedelta | None:
        return self.day_length if kind == "day" else self.night_length


#: The keys of `[phases]` and the type each holds in the file (durations are text, "72h").
_PHASE_KEYS: dict[str, Any] = {
    "day_length": str,
    "night_length": str,
    "schedule": Mapping[str, str],
    "extensions": tuple[str, ...],
    "max_extensions": int,
    "all_voted": str,
    "all_voted_remaining": str,
    "all_voted_disables_extensions": bool,
    "majority_ends_day": bool,
    "shorten": str,
    "night_ends_when_orders_in": bool,
    "tally_interval": str,
    "warnings": tuple[str, ...],
}
_SCHEDULE_KEYS = ("tz", "day_starts", "day_ends")


def phase_rules(ruleset: Any) -> PhaseRules:
    """A ruleset's `[phases]`: read once when the file was loaded (`Ruleset.phases`); raw
    tables with `section()` (the loader) are read here, naming the file and key of anything
    wrong."""
    if isinstance(built := getattr(ruleset, "phases", None), PhaseRules):
        return built
    raw, path = known_section(ruleset, "phases", _PHASE_KEYS)
    where = f"{path} [phases]"
    sec = {k: typed(v, _PHASE_KEYS[k], where=where, key=k) for k, v in raw.items()}

    def durations(key: str) -> tuple[timedelta, ...]:
        values = sec[key] if isinstance(sec.get(key), tuple) else (sec.get(key),)
        try:
            return tuple(parse_duration(v, where=f"{where} {key}") for v in values if v)
        except PhaseError as e:
            raise RulesetError(str(e)) from None

    def dur(key: str) -> timedelta | None:
        found = durations(key)
        return found[0] if found else None

    def choice(key: str, allowed: tuple[str, ...], default: str) -> str:
        value = sec.get(key, default)
        if value not in allowed:
            raise RulesetError(f"{where} {key} = {value!r}: use one of {', '.join(allowed)}")
        return value

    schedule = None
    if "schedule" in sec:
        s = sec["schedule"]
        unknown = sorted(set(s) - set(_SCHEDULE_KEYS))
        if unknown:
            raise RulesetError(
                f"{where} schedule has unknown keys {unknown}; known: {list(_SCHEDULE_KEYS)}"
            )
        schedule = WeeklySchedule(
            zone=_ruleset_zone(s.get("tz"), where),
            day_starts=WeeklyTime.parse(
                s.get("day_starts", ""), where=f"{where} schedule.day_starts"
            ),
            day_ends=WeeklyTime.parse(s.get("day_ends", ""), where=f"{where} schedule.day_ends"),
        )
    extensions = durations("extensions")
    max_extensions = in_range(
        sec.get("max_extensions", 1 if extensions else 0), where=where, key="max_extensions", min=0
    )
    return PhaseRules(
        day_length=dur("day_length"),
        night_length=dur("night_length"),
        schedule=schedule,
        extensions=extensions,
        max_extensions=max_extensions,
        all_voted=choice("all_voted", ALL_VOTED_ACTIONS, "none"),
        all_voted_remaining=dur("all_voted_remaining"),
        all_voted_disables_extensions=sec.get("all_voted_disables_extensions", False),
        majority_ends_day=sec.get("majority_ends_day", False),
        shorten=choice("shorten", SHORTEN_RULES, "gm"),
        night_ends_when_orders_in=sec.get("night_ends_when_orders_in", False),
        tally_interval=_at_least(
            dur("tally_interval"), SHORTEST_TALLY_INTERVAL, f"{where} tally_interval"
        ),
        warnings=PhaseRules.warnings if "warnings" not in sec else durations("warnings"),
    )


def _at_least(value: timedelta | None, shortest: timedelta, where: str) -> timedelta | None:
    if value is not None and value < shortest:
        raise RulesetError(
            f"{where} = {format_duration(value)}: write {format_duration(shortest)} or more"
        )
    return value


def _ruleset_zone(name: Any, where: str) -> ZoneInfo:
    try:
        return game_zone(name)
    except PhaseError as e:
        raise RulesetError(f"{where} schedule.tz: {e}") from None


# ---- phases and what happens during them ---------------------------------------------
# A phase is `assistant.game.Phase` (kind, number, starts_at, ends_at, start_post): the
# deadline set when the GM started it. `deadline()` gives the effective end.


def phase_label(phase: Phase) -> str:
    """ "Day 2", "Night 1"."""
    return f"{phase.kind.capitalize()} {phase.number}"


def phase_input(phase: Phase) -> dict[str, Any]:
    """The GM input (kind "phase") that records `phase`; `assistant.game` reads it back."""
    return {
        "kind": phase.kind,
        "number": phase.number,
        "starts_at": to_iso(phase.starts_at),
        "ends_at": to_iso(phase.ends_at),
        "start_post": phase.start_post,
    }


def start_phase(
    rules: PhaseRules,
    kind: str,
    number: int,
    starts_at: datetime,
    ends_at: datetime | None = None,
    start_post: int | None = None,
    *,
    zone: ZoneInfo | None = None,
) -> Phase:
    """A new phase; without an explicit end, the ruleset's schedule or length gives it."""
    if kind not in PHASE_KINDS:
        raise PhaseError(f"{kind!r} is not a phase; use day or night")
    if number < 0:
        raise PhaseError(f"{kind} {number}: the phase number cannot be negative")
    if ends_at is None:
        if rules.schedule is not None:
            ends_at = rules.schedule.end_of(kind, starts_at)
        elif rules.length(kind) is not None:
            ends_at = starts_at + rules.length(kind)  # type: ignore[operator]
    if ends_at is not None and ends_at <= starts_at:
        shown = zone or UTC_ZONE
        raise PhaseError(
            f"{kind} {number} would end at {local_text(ends_at, shown)}, not after its start "
            f"{local_text(starts_at, shown)}; give an end after the start (or --starts, or "
            "--start-post with the forum id of the post that opened it)"
        )
    return Phase(kind, number, starts_at, ends_at, start_post)


def phase_end(
    phases: Sequence[Phase], phase: Phase, effective: datetime | None = None
) -> datetime | None:
    """When `phase` really ended: the start of the next phase if the GM started one, else
    its effective deadline (`deadline(...).at`) or the deadline it was started with."""
    later = [p.starts_at for p in phases if p.starts_at > phase.starts_at]
    if later:
        return min(later)
    return effective if effective is not None else phase.ends_at


@dataclass(frozen=True)
class Adjustment:
    """A change the GM made to a running phase (GM input kind "phase_adjust")."""

    entered_at: datetime
    extend: timedelta | None = None
    """An extension (002: 5 or 10 minutes)."""
    ends_at: datetime | None = None
    """A new deadline the GM set (shortened or moved)."""
    supporters: int | None = None
    """For a shortening under "majority": how many living players asked for it."""
    living: int | None = None


@dataclass(frozen=True)
class Deadline:
    """When the running phase ends, and why."""

    at: datetime | None
    why: str
    extensions_used: int = 0
    extensions_open: bool = False
    """Whether the GM may still grant an extension."""
    ended_early: bool = False
    all_voted_at: datetime | None = None
    """When every living player first had a vote, where that moved the deadline (the
    dashboard marks it on the day's chart)."""


def deadline(
    phase: Phase,
    rules: PhaseRules,
    *,
    adjustments: Iterable[Adjustment] = (),
    all_voted_at: datetime | None = None,
    majority_at: datetime | None = None,
    orders_in_at: datetime | None = None,
) -> Deadline:
    """The effective end of `phase`, replaying GM adjustments and early-end events in time order.

    `all_voted_at`: when every living player first had a vote (from the tally);
    `majority_at`: when a player first reached a majority; `orders_in_at`: when the last
    night role sent its orders. Events after the deadline reached at that point are ignored.
    """
    base_why = _base_reason(phase, rules)
    state = Deadline(phase.ends_at, base_why, 0, bool(rules.extensions) and phase.kind == "day")
    events: list[tuple[datetime, int, Any]] = []
    for adj in adjustments:
        events.append((adj.entered_at, 1, adj))
    if phase.kind == "day":
        if all_voted_at is not None and rules.all_voted != "none":
            events.append((all_voted_at, 0, "all_voted"))
        if majority_at is not None and rules.majority_ends_day:
            events.append((majority_at, 0, "majority"))
    elif orders_in_at is not None and rules.night_ends_when_orders_in:
        events.append((orders_in_at, 0, "orders_in"))
    since = phase.starts_at if phase.reset_at is None else max(phase.starts_at, phase.reset_at)
    for at, _order, event in sorted(events, key=lambda e: (e[0], e[1])):
        automatic = isinstance(event, str)
        if automatic and (at < since or (state.at is not None and at >= state.at)):
            continue  # before the start, or before the GM set the deadline again: replaced
        state = _apply(state, event, at, rules)
    return state


def _base_reason(phase: Phase, rules: PhaseRules) -> str:
    if phase.ends_at is None:
        return "no deadline set: give one with `assistant phase GAME --move-to TIME`"
    length = phase.ends_at - phase.starts_at
    if phase.entered_again:
        return (
            f"deadline set by the GM on entering {phase_label(phase)} again "
            f"({format_duration(length)} {phase.kind})"
        )
    if rules.schedule is not None and phase.ends_at == rules.schedule.end_of(
        phase.kind, phase.starts_at
    ):
        which = rules.schedule.day_ends if phase.kind == "day" else rules.schedule.day_starts
        day = WEEKDAYS[which.weekday].capitalize()
        return f"fixed deadline: {day} {which.at:%H:%M} {rules.schedule.zone.key}"
    if length == rules.length(phase.kind):
        return f"{format_duration(length)} {phase.kind} (the ruleset's length)"
    return f"deadline set by the GM ({format_duration(length)} {phase.kind})"


def _apply(state: Deadline, event: Any, at: datetime, rules: PhaseRules) -> Deadline:
    """One event on the deadline. GM adjustments were checked when entered (`check_*`); a
    replay applies them as stored, so a later ruleset fix never makes a game unreadable."""
    if event == "all_voted":
        if rules.all_voted == "end":
            return replace(
                state,
                at=at,
                why="everyone has voted: the day ends",
                ended_early=True,
                extensions_open=False,
                all_voted_at=at,
            )
        remaining = rules.all_voted_remaining or timedelta(0)
        new_end = at + remaining if state.at is None else min(state.at, at + remaining)
        return replace(
            state,
            at=new_end,
            ended_early=True,
            why=f"everyone has voted: the clock dropped to {format_duration(remaining)}",
            extensions_open=state.extensions_open and not rules.all_voted_disables_extensions,
            all_voted_at=at,
        )
    if event == "majority":
        return replace(
            state,
            at=at,
            why="a player reached a majority: the day ends",
            ended_early=True,
            extensions_open=False,
        )
    if event == "orders_in":
        return replace(
            state, at=at, why="every night role has sent orders: the night ends", ended_early=True
        )
    adj: Adjustment = event
    if adj.extend is not None:
        new_end = (state.at or at) + adj.extend
        used = state.extensions_used + 1
        return replace(
            state,
            at=new_end,
            extensions_used=used,
            why=f"{state.why}; extended by {format_duration(adj.extend)}",
            extensions_open=used < rules.max_extensions,
        )
    if adj.ends_at is not None:
        shortening = state.at is not None and adj.ends_at < state.at
        return replace(
            state,
            at=adj.ends_at,
            ended_early=state.ended_early or shortening,
            why=f"deadline {'shortened' if shortening else 'moved'} by the GM",
        )
    return state


def check_extension(state: Deadline, rules: PhaseRules, by: timedelta, phase: Phase) -> None:
    """Raise PhaseError unless the ruleset allows this extension now."""
    if not rules.extensions:
        raise PhaseError(f"{phase_label(phase)}: this ruleset has no extensions")
    if phase.kind != "day":
        raise PhaseError(
            f"{phase_label(phase)}: only a day can be extended; move a night's deadline with "
            "--move-to TIME"
        )
    if not state.extensions_open:
        why = (
            "everyone has voted, which disables extensions"
            if state.ended_early
            else f"the {rules.max_extensions} allowed were used"
        )
        raise PhaseError(f"{phase_label(phase)}: no extension possible ({why})")
    if by not in rules.extensions:
        options = " or ".join(format_duration(e) for e in rules.extensions)
        raise PhaseError(
            f"{phase_label(phase)}: an extension is {options}, not {format_duration(by)}"
        )


def check_shortening(
    rules: PhaseRules,
    phase: Phase,
    supporters: int | None,
    living: int | None,
) -> None:
    """Raise PhaseError unless the ruleset lets this phase be shortened (000: a majority)."""
    if rules.shorten == "never":
        raise PhaseError(
            f"{phase_label(phase)}: this ruleset's phase lengths are fixed and cannot be shortened"
        )
    if rules.shorten == "majority" and phase.kind == "day":
        if supporters is None or living is None:
            raise PhaseError(
                f"{phase_label(phase)}: shortening needs a majority of the living players; give "
                "--supporters N --living M"
            )
        if supporters * 2 <= living:
            raise PhaseError(
                f"{phase_label(phase)}: {supporters} of {living} living players asked to shorten "
                "the day; "
                f"more than half ({living // 2 + 1}) are needed"
            )


# ---- the moments the daemon acts on ------------------------------------------------


def tally_times(phase: Phase, end: datetime | None, rules: PhaseRules) -> list[datetime]:
    """Interval tallies during a day (002: every 5 minutes from its start), before its end."""
    if phase.kind != "day" or rules.tally_interval is None or end is None:
        return []
    step = rules.tally_interval
    out, t = [], phase.starts_at + step
    while t < end:
        out.append(t)
        t += step
    return out


def warning_times(
    end: datetime | None, start: datetime, rules: PhaseRules
) -> list[tuple[timedelta, datetime]]:
    """(how long before, when) for each deadline warning that falls inside the phase."""
    if end is None:
        return []
    return [(w, end - w) for w in sorted(rules.warnings, reverse=True) if end - w > start]


def local_text(moment: datetime, zone: ZoneInfo) -> str:
    """A deadline as the game's players read it: "Sun 1 Nov 2026 15:00 EST"."""
    local = moment.astimezone(zone)
    return f"{local:%a} {local.day} {local:%b %Y %H:%M} {local.tzname()}"


def parse_when(text: str, *, now: datetime, zone: ZoneInfo, where: str = "--ends") -> datetime:
    """The GM's time: ISO ("2026-11-01T15:00", zone-less = game time), "+72h", "Sunday 15:00"
    (the next one after now, game time) or "15:00" (the next one). `where` names the option
    in the error a bad text gets."""
    try:
        moment = _parse_when(text.strip(), now=now, zone=zone, where=where)
    except (OverflowError, ValueError):  # a date a datetime cannot hold (year 1 or 9999)
        raise PhaseError(f"{where}: {text!r} is not a time this assistant can use") from None
    if moment - now > LONGEST:
        raise PhaseError(
            f"{where}: {text!r} is more than {format_duration(LONGEST)} ahead; give a time "
            "within the game"
        )
    return moment


def _parse_when(text: str, *, now: datetime, zone: ZoneInfo, where: str) -> datetime:
    if text.startswith("+"):
        return now + parse_duration(text[1:], where=where, shown=text)
    m = re.fullmatch(r"(\d{1,2}):(\d{2})", text)
    if m:
        at = _clock_time(int(m.group(1)), int(m.group(2)), text, where)
        local = now.astimezone(zone)
        candidate = datetime.combine(local.date(), at, tzinfo=zone).astimezone(UTC)
        return (
            candidate
            if candidate > now
            else datetime.combine(local.date() + timedelta(days=1), at, tzinfo=zone).astimezone(UTC)
        )
    if re.fullmatch(r"[A-Za-z]+\s+\d{1,2}:\d{2}", text):
        try:
            return WeeklyTime.parse(text, where=where).next_after(now, zone)
        except (RulesetError, ValueError) as e:
            raise PhaseError(f"{where}: {text!r} is not a time: {e}") from None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise PhaseError(
            f'{where}: {text!r} is not a time; write e.g. "Sunday 15:00", "15:00", "+72h" or '
            '"2026-11-01T15:00" (game time zone unless it has an offset)'
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=zone)
    return moment.astimezone(UTC)


def parse_past(text: str, *, now: datetime, zone: ZoneInfo, where: str = "--at") -> datetime:
    """A moment the GM looks back to (`count --at`, `kill --at`, `phase --starts`), read
    like `parse_when` with its errors, except that a clock time means the latest one at or
    before now, not the next: at noon, "11:12" is this morning."""
    moment = parse_when(text, now=now, zone=zone, where=where)
    if moment <= now or text.strip().startswith("+"):
        return moment
    for back in (timedelta(days=1), timedelta(days=7)):  # "11:12", then "Sunday 11:12"
        earlier = parse_when(text, now=now - back, zone=zone, where=where)
        if earlier <= now:
            return earlier
    return moment  # a date and time still to come: as written


def _clock_time(hour: int, minute: int, text: str, where: str) -> time:
    if hour > 23 or minute > 59:
        raise PhaseError(f"{where}: {text!r} is not a time of day; write 00:00 to 23:59")
    return time(hour, minute)


def phases_from_inputs(inputs: Iterable[Mapping[str, Any]]) -> list[Phase]:
    """Every phase the GM started (inputs of kind "phase"), in start order; a phase
    entered again is the one record (`game.phases_entered`)."""
    return sorted(phases_entered(list(inputs)), key=lambda p: p.starts_at)


def adjustments_from_inputs(inputs: Iterable[Mapping[str, Any]], phase: Phase) -> list[Adjustment]:
    """The GM's extensions and moved deadlines (inputs "phase_adjust") for one phase, since
    the GM last gave it a deadline by entering it again (that deadline replaced them)."""
    out: list[Adjustment] = []
    for d in inputs:
        data = d["data"]
        if d["kind"] not in ("phase", "phase_adjust") or (data["kind"], data["number"]) != (
            phase.kind,
            phase.number,
        ):
            continue
        if d["kind"] == "phase":
            if data.get("ends_given"):
                out = []
            continue
        out.append(
            Adjustment(
                entered_at=from_iso(d["entered_at"]),  # type: ignore[arg-type]
                extend=None
                if data.get("extend_s") is None
                else timedelta(seconds=data["extend_s"]),
                ends_at=from_iso(data.get("ends_at")),
                supporters=data.get("supporters"),
                living=data.get("living"),
            )
        )
    return out


def phase_at(phases: Iterable[Phase], moment: datetime) -> Phase | None:
    """The phase running at `moment`: the last one started at or before it."""
    current = None
    for p in sorted(phases, key=lambda p: p.starts_at):
        if p.starts_at <= moment:
            current = p
    return current
