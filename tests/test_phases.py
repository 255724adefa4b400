"""The phase clock: every deadline rule of the rulesets, with a fake clock, across DST."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from assistant.errors import ConfigError, PhaseError, RulesetError
from assistant.phases import (
    Adjustment,
    check_extension,
    check_shortening,
    deadline,
    game_zone,
    local_text,
    parse_duration,
    parse_when,
    phase_rules,
    start_phase,
    tally_times,
    warning_times,
)
from assistant.rulesets import find_ruleset, load_ruleset

NY = ZoneInfo("America/New_York")


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def rules(name: str):
    return phase_rules(find_ruleset(name))


def test_durations() -> None:
    assert parse_duration("72h") == timedelta(hours=72)
    assert parse_duration("1h30m") == timedelta(minutes=90)
    assert parse_duration("5d") == timedelta(days=5)
    with pytest.raises(PhaseError, match="not a duration"):
        parse_duration("72 hours")


H, M = timedelta(hours=1), timedelta(minutes=1)
DEFAULT_WARNINGS = (24 * H, H)

# What each bundled ruleset's [phases] says, field by field, read off the seeds:
# (day, night, extensions, max_extensions, all_voted, all_voted_remaining, majority_ends_day,
#  shorten, night_ends_when_orders_in, tally_interval, warnings)
PHASES = {
    # 000: "Days will last for 72 hours or until everyone has voted"; "Nights will last for
    # 24 hours or until I've heard from each player with a night role".
    "000": (72 * H, 24 * H, (), 0, "end", None, False, "majority", True, None, DEFAULT_WARNINGS),
    # 001, 004, mafiascum, permissive: the GM sets each deadline.
    "001": (None, None, (), 0, "none", None, False, "gm", False, None, DEFAULT_WARNINGS),
    # 002: "15-20 minutes, with the option for a five- or ten-minute extension"; "all players
    # have cast a vote ... drop to 5 minutes ... extensions will be disabled"; "Vote tallies
    # are given at five minute intervals".
    "002": (20 * M, None, (5 * M, 10 * M), 1, "drop", 5 * M, False, "gm", False, 5 * M,
            (5 * M, M)),
    # 003: fixed weekly deadlines that "cannot be shortened by any in-game mechanism".
    "003": (None, None, (), 0, "none", None, False, "never", False, None, DEFAULT_WARNINGS),
    "004": (None, None, (), 0, "none", None, False, "gm", False, None, DEFAULT_WARNINGS),
    "mafiascum": (None, None, (), 0, "none", None, True, "gm", False, None, DEFAULT_WARNINGS),
    "permissive": (None, None, (), 0, "none", None, False, "gm", False, None, DEFAULT_WARNINGS),
}


@pytest.mark.parametrize("name", list(PHASES))
def test_every_bundled_ruleset_reads_its_phases(name: str) -> None:
    r = rules(name)
    got = (
        r.day_length, r.night_length, r.extensions, r.max_extensions, r.all_voted,
        r.all_voted_remaining, r.majority_ends_day, r.shorten, r.night_ends_when_orders_in,
        r.tally_interval, r.warnings,
    )
    assert got == PHASES[name]
    # Only 003 has a weekly schedule: Tuesday 15:00 to Sunday 15:00, New York time.
    if name == "003":
        assert r.schedule is not None and r.schedule.zone == NY
        assert (r.schedule.day_starts.weekday, r.schedule.day_starts.at.hour) == (1, 15)
        assert (r.schedule.day_ends.weekday, r.schedule.day_ends.at.hour) == (6, 15)
    else:
        assert r.schedule is None
    # A day started now ends after the ruleset's length, or has no deadline until the GM
    # sets one (003: at its weekly deadline).
    start = utc(2026, 11, 3, 20)  # Tuesday 15:00 EST
    day = start_phase(r, "day", 1, start)
    if name == "003":
        assert day.ends_at == utc(2026, 11, 8, 20)  # Sunday 15:00 EST
    elif r.day_length is not None:
        assert day.ends_at == start + r.day_length
    else:
        assert day.ends_at is None


# ---- 000: 72 h days, 24 h nights, early ends ------------------------------------------


def test_000_day_is_72_real_hours_across_the_dst_change() -> None:
    r = rules("000")
    # Friday 30 Oct 2026 18:00 EDT; US clocks go back on Sunday 1 Nov 2026.
    start = datetime(2026, 10, 30, 18, 0, tzinfo=NY).astimezone(UTC)
    day = start_phase(r, "day", 3, start)
    assert day.ends_at - day.starts_at == timedelta(hours=72)
    # 72 real hours later the wall clock reads 17:00 EST, not 18:00.
    assert local_text(day.ends_at, NY) == "Mon 2 Nov 2026 17:00 EST"
    night = start_phase(r, "night", 3, day.ends_at)
    assert night.ends_at - night.starts_at == timedelta(hours=24)


def test_000_day_ends_when_everyone_has_voted() -> None:
    r = rules("000")
    day = start_phase(r, "day", 1, utc(2026, 11, 2, 12))
    d = deadline(day, r, all_voted_at=utc(2026, 11, 3, 9, 30))
    assert d.at == utc(2026, 11, 3, 9, 30) and d.ended_early
    assert "everyone has voted" in d.why
    # Everyone voting after the deadline changes nothing.
    late = deadline(day, r, all_voted_at=utc(2026, 11, 6, 9, 30))
    assert late.at == day.ends_at and not late.ended_early


def test_000_shortening_needs_over_half_of_the_living() -> None:
    r = rules("000")
    day = start_phase(r, "day", 1, utc(2026, 11, 2, 12))
    with pytest.raises(PhaseError, match="more than half"):
        check_shortening(r, day, supporters=5, living=10)
    check_shortening(r, day, supporters=6, living=10)
    with pytest.raises(PhaseError, match="--supporters"):
        check_shortening(r, day, supporters=None, living=None)
    new_end = utc(2026, 11, 3, 12)
    d = deadline(
        day, r, adjustments=[Adjustment(utc(2026, 11, 3), ends_at=new_end, supporters=6, living=10)]
    )
    assert d.at == new_end and d.ended_early and "shortened" in d.why


def test_000_night_ends_when_every_night_role_has_sent_orders() -> None:
    r = rules("000")
    night = start_phase(r, "night", 1, utc(2026, 11, 5, 12))
    assert night.ends_at == utc(2026, 11, 6, 12)
    d = deadline(night, r, orders_in_at=utc(2026, 11, 5, 20))
    assert d.at == utc(2026, 11, 5, 20) and "every night role has sent orders" in d.why
    # 003 has no such rule: the orders being in does not end the night.
    r3 = rules("003")
    n3 = start_phase(r3, "night", 1, datetime(2026, 11, 8, 15, tzinfo=NY).astimezone(UTC))
    assert deadline(n3, r3, orders_in_at=n3.starts_at + timedelta(hours=1)).at == n3.ends_at


# ---- 002: 20-minute chat days, extensions, drop to 5 minutes, tallies every 5 ---------


def test_002_thread_b_day_clock() -> None:
    """Thread B (seed 002): day 2 started 11:02:07, everyone had voted at Tom's post 11:15:40."""
    r = rules("002")
    day = start_phase(r, "day", 2, utc(2026, 11, 22, 11, 2, 7))
    assert day.ends_at == utc(2026, 11, 22, 11, 22, 7)
    assert tally_times(day, day.ends_at, r) == [
        utc(2026, 11, 22, 11, 7, 7),
        utc(2026, 11, 22, 11, 12, 7),
        utc(2026, 11, 22, 11, 17, 7),
    ]
    d = deadline(day, r, all_voted_at=utc(2026, 11, 22, 11, 15, 40))
    assert d.at == utc(2026, 11, 22, 11, 20, 40)
    assert not d.extensions_open and "5 min" in d.why
    # The host posted the drop at 11:16:07 and set 11:21:07; the GM's word is recorded as a move.
    gm = Adjustment(utc(2026, 11, 22, 11, 16, 7), ends_at=utc(2026, 11, 22, 11, 21, 7))
    assert (
        deadline(day, r, all_voted_at=utc(2026, 11, 22, 11, 15, 40), adjustments=[gm]).at
        == gm.ends_at
    )


def test_002_drop_keeps_a_shorter_remaining_time() -> None:
    r = rules("002")
    day = start_phase(r, "day", 1, utc(2026, 11, 22, 11, 0))
    d = deadline(day, r, all_voted_at=utc(2026, 11, 22, 11, 18))  # 2 minutes left: unchanged
    assert d.at == utc(2026, 11, 22, 11, 20)


def test_002_extensions() -> None:
    r = rules("002")
    day = start_phase(r, "day", 1, utc(2026, 11, 22, 11, 0))
    state = deadline(day, r)
    check_extension(state, r, timedelta(minutes=5), day)
    with pytest.raises(PhaseError, match="5 min or 10 min"):
        check_extension(state, r, timedelta(minutes=7), day)
    ext = Adjustment(utc(2026, 11, 22, 11, 10), extend=timedelta(minutes=10))
    state = deadline(day, r, adjustments=[ext])
    assert state.at == utc(2026, 11, 22, 11, 30) and state.extensions_used == 1
    with pytest.raises(PhaseError, match="allowed were used"):
        check_extension(state, r, timedelta(minutes=5), day)
    after_vote = deadline(day, r, all_voted_at=utc(2026, 11, 22, 11, 5))
    with pytest.raises(PhaseError, match="disables extensions"):
        check_extension(after_vote, r, timedelta(minutes=5), day)
    # A 72 h ruleset has no extensions at all.
    r0 = rules("000")
    d0 = start_phase(r0, "day", 1, utc(2026, 11, 22))
    with pytest.raises(PhaseError, match="no extensions"):
        check_extension(deadline(d0, r0), r0, timedelta(minutes=5), d0)


# ---- 003: fixed Tuesday-to-Sunday 3:00 PM Eastern -------------------------------------


def test_003_fixed_deadlines_keep_3pm_eastern_across_dst() -> None:
    r = rules("003")
    # Day starts Tuesday 27 Oct 2026 15:00 EDT (19:00 UTC); ends Sunday 1 Nov 15:00 EST (20:00 UTC),
    # the day the clocks go back: 5 days and one hour of real time.
    start = utc(2026, 10, 27, 19)
    day = start_phase(r, "day", 1, start)
    assert day.ends_at == utc(2026, 11, 1, 20)
    assert day.ends_at - day.starts_at == timedelta(days=5, hours=1)
    assert local_text(day.ends_at, NY) == "Sun 1 Nov 2026 15:00 EST"
    night = start_phase(r, "night", 1, day.ends_at)
    assert night.ends_at == utc(2026, 11, 3, 20)  # Tuesday 15:00 EST
    assert "fixed deadline" in deadline(day, r).why
    # Spring forward: Sunday 8 Mar 2026 15:00 EDT is 19:00 UTC.
    spring = start_phase(r, "day", 5, utc(2026, 3, 3, 20))
    assert spring.ends_at == utc(2026, 3, 8, 19)


def test_003_a_day_started_late_still_ends_on_sunday() -> None:
    r = rules("003")
    day = start_phase(r, "day", 2, datetime(2026, 11, 4, 9, 30, tzinfo=NY).astimezone(UTC))
    assert day.ends_at == datetime(2026, 11, 8, 15, 0, tzinfo=NY).astimezone(UTC)


def test_003_cannot_be_shortened() -> None:
    r = rules("003")
    day = start_phase(r, "day", 1, utc(2026, 10, 27, 19))
    with pytest.raises(PhaseError, match="cannot be shortened"):
        check_shortening(r, day, supporters=20, living=21)


# ---- rules without lengths, the hammer, warnings, GM times ----------------------------


def test_001_has_no_default_length() -> None:
    r = rules("001")
    day = start_phase(r, "day", 1, utc(2026, 11, 22))
    assert day.ends_at is None
    assert "no deadline" in deadline(day, r).why
    assert warning_times(None, day.starts_at, r) == []


def test_mafiascum_hammer_ends_the_day() -> None:
    r = rules("mafiascum")
    day = start_phase(r, "day", 1, utc(2026, 11, 22), ends_at=utc(2026, 11, 29))
    assert deadline(day, r, majority_at=utc(2026, 11, 24, 3)).at == utc(2026, 11, 24, 3)
    r2 = rules("002")  # 002: "the hammer is not being enforced"
    d2 = start_phase(r2, "day", 1, utc(2026, 11, 22))
    assert deadline(d2, r2, majority_at=utc(2026, 11, 22, 0, 3)).at == d2.ends_at


def test_warning_times_inside_the_phase() -> None:
    r = rules("000")
    day = start_phase(r, "day", 1, utc(2026, 11, 22))
    assert warning_times(day.ends_at, day.starts_at, r) == [
        (timedelta(hours=24), utc(2026, 11, 24)),
        (timedelta(hours=1), utc(2026, 11, 24, 23)),
    ]
    r2 = rules("002")
    d2 = start_phase(r2, "day", 1, utc(2026, 11, 22))
    assert [w for w, _ in warning_times(d2.ends_at, d2.starts_at, r2)] == [
        timedelta(minutes=5),
        timedelta(minutes=1),
    ]


def test_parse_when_in_the_game_zone() -> None:
    now = utc(2026, 10, 28, 12)  # Wednesday
    assert parse_when("Sunday 15:00", now=now, zone=NY) == utc(2026, 11, 1, 20)
    assert parse_when("+72h", now=now, zone=NY) == utc(2026, 10, 31, 12)
    assert parse_when("2026-11-01T15:00", now=now, zone=NY) == utc(2026, 11, 1, 20)
    assert parse_when("2026-11-01T15:00+00:00", now=now, zone=NY) == utc(2026, 11, 1, 15)
    # now is 08:00 EDT: 09:00 is later today, 07:00 is tomorrow.
    assert parse_when("09:00", now=now, zone=NY) == utc(2026, 10, 28, 13)
    assert parse_when("07:00", now=now, zone=NY) == utc(2026, 10, 29, 11)
    with pytest.raises(PhaseError, match="not a time"):
        parse_when("next week", now=now, zone=NY)
    with pytest.raises(ConfigError, match="IANA"):
        game_zone("Eastern")


def test_bad_phases_section_names_the_file(tmp_path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(
        'schema_version = 1\nname = "bad"\ntitle = "Bad"\n[phases]\nday_length = "3 days"\n'
    )
    with pytest.raises(RulesetError, match=r"bad.toml \[phases\] day_length"):
        phase_rules(load_ruleset(path))
    path.write_text(
        'schema_version = 1\nname = "bad"\ntitle = "Bad"\n[phases]\nall_voted = "explode"\n'
    )
    with pytest.raises(RulesetError, match="use one of none, end, drop"):
        phase_rules(load_ruleset(path))


def test_start_phase_refuses_an_end_before_the_start() -> None:
    with pytest.raises(PhaseError, match="not after its start"):
        start_phase(rules("000"), "day", 1, utc(2026, 11, 22), ends_at=utc(2026, 11, 21))
    with pytest.raises(PhaseError, match="use day or night"):
        start_phase(rules("000"), "dusk", 1, utc(2026, 11, 22))


def test_a_past_clock_time_is_the_latest_one_at_or_before_now() -> None:
    """`kill --at 11:12`, `count --at 11:12`, `phase --starts 11:12` at noon: this morning."""
    from assistant.phases import parse_past

    now = datetime(2026, 11, 22, 17, 0, tzinfo=UTC)  # noon in New York
    assert parse_past("11:12", now=now, zone=NY) == datetime(2026, 11, 22, 16, 12, tzinfo=UTC)
    assert parse_past("13:00", now=now, zone=NY) == datetime(2026, 11, 21, 18, 0, tzinfo=UTC)
    assert parse_when("13:00", now=now, zone=NY) == datetime(2026, 11, 22, 18, 0, tzinfo=UTC)
