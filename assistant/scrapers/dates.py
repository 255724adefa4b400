"""Forum dates printed as text, read into aware UTC: one word table and one reader for
SMF and phpBB alike, so a language added to `LANGUAGES` is read on both forums.

Forums print times in the board's language and a format the admin (or member) chose:
"Nov 21, 2026, 12:01 PM", "Sat Nov 21, 2026 12:01 pm", "2018. április 25, 10:11:12",
"martedì 21 gennaio 2020, 14:24", "Today at 12:27 AM", "Ieri, 23:50", "5 minutes ago".
The reader finds the time of day, then reads the words and numbers around it.

Two uses, one reader:

- `parse_forum_time` is strict: the whole text must be a date (every word a date word),
  else ValueError. SMF splits quote headers ("Quote from: NAME on DATE") by trying it.
- `find_forum_time` is lenient: the date somewhere in a line such as "by NAME » DATE"
  or "on DATE", skipping words it does not know; None when there is none.

What stays with each forum's parser: which clock "Today" means (SMF's page header),
machine-readable `<time datetime>` attributes, and `slashes`, the order a forum's
default formats give "04/05/2026" (SMF: month first; phpBB: day first).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from enum import Enum
from functools import lru_cache

from assistant.scrapers.common import clean_text

__all__ = ["LANGUAGES", "Language", "Slashes", "clear_cache", "find_forum_time",
           "parse_forum_time", "parse_iso"]


@dataclass(frozen=True)
class Language:
    """The words one language prints in forum dates (space-separated lists)."""

    months: str
    """The twelve month names, January first; a prefix of 3+ letters that fits one month
    only ("Nov", "márc.", "févr") reads as that month."""
    weekdays: str = ""
    """Weekday names and abbreviations: allowed, and carry nothing."""
    today: str = ""
    yesterday: str = ""
    fillers: str = ""
    """Words between the parts that carry nothing ("Today at 12:27 AM"). Never the word
    between a name and a date ("on", "il", "am"): quote headers are split there."""
    am: str = ""
    pm: str = ""
    """Words next to a 12-hour clock; "a.m." and "a. m." read as "am"."""
    minutes_ago: str = ""
    """A regex whose group 1 is a number of minutes ("5 minutes ago")."""
    just_now: str = ""
    """A regex for "less than a minute ago"."""


LANGUAGES: dict[str, Language] = {
    "en": Language(
        months="january february march april may june july august september october "
               "november december",
        weekdays="monday tuesday wednesday thursday friday saturday sunday "
                 "mon tue tues wed thu thur thurs fri sat sun",
        today="today", yesterday="yesterday", fillers="at", am="am", pm="pm",
        minutes_ago=r"(\d+)\s*(?:minutes?|min)\b.*?\bago\b", just_now="less than a minute ago",
    ),
    "hu": Language(
        months="január február március április május június július augusztus szeptember "
               "október november december",
        weekdays="hétfő kedd szerda csütörtök péntek szombat vasárnap",
        today="ma", yesterday="tegnap", am="de", pm="du",
    ),
    "it": Language(
        months="gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre "
               "novembre dicembre",
        weekdays="lunedì martedì mercoledì giovedì venerdì sabato domenica "
                 "lun mar mer gio ven sab dom",
        today="oggi", yesterday="ieri", fillers="alle",
        minutes_ago=r"(\d+)\s*(?:minuti|minuto|min)\b.*?\bfa\b", just_now="meno di un minuto fa",
    ),
    "de": Language(
        months="januar februar märz april mai juni juli august september oktober november "
               "dezember",
        weekdays="montag dienstag mittwoch donnerstag freitag samstag sonntag "
                 "mo di mi do fr sa so",
        today="heute", yesterday="gestern", fillers="um",
        minutes_ago=r"\bvor\s+(\d+)\s+Minuten?", just_now="vor weniger als",
    ),
    "fr": Language(
        months="janvier février mars avril mai juin juillet août septembre octobre novembre "
               "décembre",
        weekdays="lundi mardi mercredi jeudi vendredi samedi dimanche "
                 "lun mar mer jeu ven sam dim",
        today="aujourd'hui", yesterday="hier", fillers="à",
    ),
    "es": Language(
        months="enero febrero marzo abril mayo junio julio agosto septiembre octubre "
               "noviembre diciembre",
        weekdays="lunes martes miércoles jueves viernes sábado domingo "
                 "lun mar mié jue vie sáb dom",
        today="hoy", yesterday="ayer",
    ),
    "nl": Language(
        months="januari februari maart april mei juni juli augustus september oktober "
               "november december",
        weekdays="maandag dinsdag woensdag donderdag vrijdag zaterdag zondag",
        today="vandaag", yesterday="gisteren", fillers="om",
    ),
}


class Slashes(Enum):
    """Which number comes first in "04/05/2026" (the other order when the first is > 12)."""

    MONTH_FIRST = "month first"
    DAY_FIRST = "day first"

    # Each member is its one instance: hashed by identity, in C, as `_read`'s cache key
    # (Enum's own hash, of the member's name, runs in Python: a tenth of a date's reading).
    __hash__ = object.__hash__


@lru_cache(maxsize=4096)
def _fold(word: str) -> str:
    """Lower case without accents, so "Févr", "fevr" and "márc" match their table words."""
    decomposed = unicodedata.normalize("NFKD", word.casefold().replace("’", "'"))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _words(attr: str) -> list[str]:
    return [_fold(w) for lang in LANGUAGES.values() for w in getattr(lang, attr).split()]


def _month_tables() -> tuple[dict[str, int], dict[str, int]]:
    """Full month names, and every 3+ letter prefix that names one month only ("márc")."""
    full: dict[str, int] = {}
    prefixes: dict[str, set[int]] = {}
    for lang in LANGUAGES.values():
        for number, name in enumerate(lang.months.split(), start=1):
            name = _fold(name)
            full[name] = number
            for end in range(3, len(name) + 1):
                prefixes.setdefault(name[:end], set()).add(number)
    return full, {p: next(iter(ns)) for p, ns in prefixes.items() if len(ns) == 1}


_FULL_MONTHS, _MONTH_PREFIXES = _month_tables()
_RELATIVE_DAYS = {**{w: 0 for w in _words("today")}, **{w: 1 for w in _words("yesterday")}}
_SKIPPED = frozenset(_words("weekdays") + _words("fillers"))
_HALF_DAY = {**{w: 0 for w in _words("am")}, **{w: 12 for w in _words("pm")}}


def _either(patterns: list[str]) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns if p), re.I)


_MINUTES_AGO = _either([lang.minutes_ago for lang in LANGUAGES.values()])
_JUST_NOW = _either([lang.just_now for lang in LANGUAGES.values()])
_HALF_DAY_WORD = "|".join(r"\.?\s?".join(map(re.escape, w)) + r"\.?" for w in _HALF_DAY)
_HALF_DAY_AFTER = re.compile(rf"\s*({_HALF_DAY_WORD})(?![^\W\d_])", re.I)
_HALF_DAY_BEFORE = re.compile(rf"(?<![^\W\d_])({_HALF_DAY_WORD})\s*$", re.I)
_CLOCK = re.compile(r"(?<!\d)(\d{1,2}):(\d{2})(?::(\d{2}))?(?!\d)")
_TOKEN = re.compile(
    r"'(?P<short_year>\d{2})(?!\d)"
    r"|(?P<number>\d+)(?:st|nd|rd|th|º)?"
    r"|(?P<word>[^\W\d_]+(?:['’][^\W\d_]+)*)"
    r"|(?P<other>\S)"
)
_SEPARATORS = frozenset(",.-/")
_ISO = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?")


def parse_iso(text: str, tz: tzinfo) -> datetime | None:
    """"2026-11-21T12:01:12+00:00" or "2020-04-30 11:16:53" (read in `tz`) as aware UTC,
    wherever it stands in `text`; None if there is none."""
    if _PLAIN_ISO.fullmatch(text):  # phpBB's every post time, read as `_iso` would build it
        return datetime.fromisoformat(text).astimezone(UTC)
    m = _ISO.search(text)
    return _iso(m, tz) if m else None


# An attribute that is nothing but the one text `_iso` builds from a match with an offset.
_PLAIN_ISO = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}", re.ASCII)


def _iso(m: re.Match[str], tz: tzinfo) -> datetime:
    year, month, day, hour, minute, second, offset = m.groups()
    if offset:  # (phpBB's every post time: the text fromisoformat reads, built without ints)
        stamp = datetime.fromisoformat(
            f"{year}-{month}-{day}T{hour.zfill(2)}:{minute}:{second or '00'}"
            + ("+00:00" if offset == "Z" else offset))
        return stamp.astimezone(UTC)
    return datetime(int(year), int(month), int(day), int(hour), int(minute), int(second or 0),
                    tzinfo=tz).astimezone(UTC)


def parse_forum_time(text: str, tz: tzinfo, now: datetime, *,
                     slashes: Slashes = Slashes.MONTH_FIRST) -> datetime:
    """The date that is the whole of `text`, read in the forum's zone `tz`, as aware UTC.

    Every word must be a date word, so "Jerry's on Nov 21, 2026, 10:42 AM" is refused;
    "Today" / "Yesterday" count back from `now`. Raises ValueError naming the problem.
    """
    read = _read(text, tz, now, slashes, True)
    if isinstance(read, str):
        raise ValueError(read)
    return read


def find_forum_time(text: str, tz: tzinfo, now: datetime, *,
                    slashes: Slashes = Slashes.DAY_FIRST) -> datetime | None:
    """The date somewhere in `text` ("on Sat Nov 21, 2026 12:01 pm"), words the table
    does not know skipped, as aware UTC; None when the text holds no date and time."""
    read = _read(text, tz, now, slashes, False)
    return None if isinstance(read, str) else read


@lru_cache(maxsize=1024)
def _read(text: str, tz: tzinfo, now: datetime, slashes: Slashes,
          strict: bool) -> datetime | str:
    """The date, or why there is none. Read once per distinct text: a page prints the same
    minute for many posts, and SMF tries every split of a quote header ("Quote from: NAME
    on DATE") for each quote of a popular post. The result depends on nothing else."""
    cleaned = clean_text(text).strip(" «»,")  # (as `_Reader` cleans it)
    common = _common_shape(cleaned, tz, now) if strict else _phpbb_shape(cleaned, tz, now)
    if common is not None:
        return common
    try:
        return _Reader(text, tz, now, slashes, strict=strict).read()
    except ValueError as e:
        return str(e)


# The two shapes SMF's default format prints every post time in, "Today at 11:09 AM" and
# "Nov 22, 2026, 11:38 AM", read by one match in a tenth of the general reader's time.
_COMMON_SHAPE = re.compile(
    r"(?:(?P<relative>Today|Yesterday) at|(?P<month>[A-Z][a-z]{2,8}) (?P<day>\d{1,2}), "
    r"(?P<year>\d{4}),) (?P<hour>\d{1,2}):(?P<minute>\d{2})(?::(?P<second>\d{2}))? "
    r"(?P<half>AM|PM)")


def _common_shape(text: str, tz: tzinfo, now: datetime) -> datetime | None:
    """The strict reading of `text` (cleaned as `_Reader` cleans it) when it has one of
    the common shapes, exactly as `_Reader` would read it; None for anything else or
    anything odd (a 13 PM, a February 30, a word that is not a month), which the
    general reader then reads or refuses with its own reason."""
    m = _COMMON_SHAPE.fullmatch(text)
    if m is None:
        return None
    relative, month_word, day_of_month, year, hour_text, minute_text, second_text, half = (
        m.groups())
    hour, minute = int(hour_text), int(minute_text)
    second = int(second_text) if second_text else 0
    if not 1 <= hour <= 12 or minute > 59 or second > 59:
        return None
    hour = hour % 12 + (12 if half == "PM" else 0)  # (the shape's words: "AM" or "PM")
    if relative is not None:  # counted back from `now`'s day in the forum's zone
        day = _today(now, tz)
        if relative == "Yesterday":
            day -= _ONE_DAY
    else:
        named = _named_day(month_word, year, day_of_month)
        if named is None:
            return None
        day = named
    return datetime.combine(day, time(hour, minute, second), tz).astimezone(UTC)


def _named_day(month_word: str, year: str, day_of_month: str) -> date | None:
    """The day a month's word (looked up as `_Reader._parts` does, in the same order),
    a year and a day of the month name; None for a word that is not a month's, or a day
    the month does not have."""
    word = _fold(month_word)
    if word in _RELATIVE_DAYS:
        return None
    month = _FULL_MONTHS.get(word) or _MONTH_PREFIXES.get(word)
    if month is None:
        return None
    try:
        return date(int(year), month, int(day_of_month))
    except ValueError:
        return None


_ONE_DAY = timedelta(days=1)


@lru_cache(maxsize=8)
def _today(now: datetime, tz: tzinfo) -> date:
    """`now`'s day in the zone `tz`: each "Today at ..." of a page (read at one `now`, in
    one zone) asks the same."""
    return now.astimezone(tz).date()


# phpBB's default format, "Sun Nov 22, 2026 11:01 am", as the `<time>` of every post and
# edit notice prints it ("on" before it in a notice): read by one match, the lenient
# reader's 150,000 instructions were a fifth of a phpBB page's parsing (the page's zone is
# told from the text of each of its times).
_PHPBB_SHAPE = re.compile(
    r"(?:on )?(?P<weekday>[A-Z][a-z]{2}) (?P<month>[A-Z][a-z]{2}) (?P<day>[0-9]{1,2}), "
    r"(?P<year>[0-9]{4}) (?P<hour>[0-9]{1,2}):(?P<minute>[0-9]{2}) (?P<half>am|pm)")


def _phpbb_shape(text: str, tz: tzinfo, now: datetime) -> datetime | None:
    """The lenient reading of `text` (cleaned as `_Reader` cleans it) when it has phpBB's
    default shape, exactly as `_Reader` would read it: the weekday and "on" skipped, the
    month word looked up in the same tables; None for anything else or anything odd (a
    13 pm, a November 31, a weekday that is also a month's prefix), which the general
    reader then reads. (`now` is not needed: the shape names its day.)"""
    m = _PHPBB_SHAPE.fullmatch(text)
    if m is None:
        return None
    weekday, month_word, day_of_month, year, hour_text, minute_text, half = m.groups()
    hour, minute = int(hour_text), int(minute_text)
    if not 1 <= hour <= 12 or minute > 59:
        return None
    skipped = _fold(weekday)
    if skipped in _RELATIVE_DAYS or skipped in _FULL_MONTHS or skipped in _MONTH_PREFIXES:
        return None  # (a word the reader would not skip)
    day = _named_day(month_word, year, day_of_month)
    if day is None:
        return None
    hour = hour % 12 + (12 if half == "pm" else 0)
    return datetime.combine(day, time(hour, minute), tz).astimezone(UTC)


def clear_cache() -> None:
    """Forget the dates read so far (benchmarks time a page as if read for the first time)."""
    _read.cache_clear()
    _today.cache_clear()


@dataclass
class _Parts:
    """What the words and numbers beside the time of day say, in the order found."""

    years: list[int] = field(default_factory=list)
    year_at: int | None = None
    """Token index of the first year."""
    numbers: list[tuple[int, int]] = field(default_factory=list)
    """(token index, value) of each 1-2 digit number."""
    months: list[tuple[int, bool]] = field(default_factory=list)
    """(month, True for a full name) of each month word."""
    relative: list[int] = field(default_factory=list)
    """Days back of each "Today" / "Yesterday" word."""
    slashes: bool = False


class _Reader:
    def __init__(self, text: str, tz: tzinfo, now: datetime, slashes: Slashes, *,
                 strict: bool) -> None:
        self.raw = text
        self.text = clean_text(text).strip(" «»,")
        self.tz = tz
        self.now = now
        self.slashes = slashes
        self.strict = strict

    def fail(self, why: str) -> ValueError:
        return ValueError(f"{why} in {self.raw!r}")

    def find(self, pattern: re.Pattern[str]) -> re.Match[str] | None:
        """Strict: the whole text is a match; lenient: a match anywhere in it."""
        return pattern.fullmatch(self.text) if self.strict else pattern.search(self.text)

    def read(self) -> datetime:
        if not self.text:
            raise self.fail("no date")
        if iso := self.find(_ISO):
            return _iso(iso, self.tz)
        if self.find(_JUST_NOW):
            return self._this_minute()
        if ago := self.find(_MINUTES_AGO):
            return self._this_minute() - timedelta(minutes=int(next(g for g in ago.groups() if g)))
        hour, minute, second, rest = self._time_of_day()
        day = self._day(self._parts(rest))
        try:
            local = datetime(day.year, day.month, day.day, hour, minute, second, tzinfo=self.tz)
        except ValueError as e:
            raise self.fail(str(e)) from None
        return local.astimezone(UTC)

    def _this_minute(self) -> datetime:
        return self.now.astimezone(UTC).replace(second=0, microsecond=0)

    def _time_of_day(self) -> tuple[int, int, int, str]:
        """Hour, minute, second and the text without the clock (and its AM/PM)."""
        clocks = list(_CLOCK.finditer(self.text))
        if not clocks or (self.strict and len(clocks) > 1):
            raise self.fail("no single time of day")
        clock = clocks[0]
        hour, minute, second = int(clock[1]), int(clock[2]), int(clock[3] or 0)
        before, after = self.text[: clock.start()], self.text[clock.end():]
        # "12:01 PM" in English, "du. 3:15" in Hungarian
        marker_after = _HALF_DAY_AFTER.match(after)
        marker = marker_after or _HALF_DAY_BEFORE.search(before[-8:])
        if marker is not None and not 1 <= hour <= 12:
            if self.strict:  # "13:00 pm"; the lenient reader keeps the 24-hour clock
                raise self.fail(f"hour {hour} with {marker[1]!r}")
        elif marker is not None:
            hour = hour % 12 + _HALF_DAY[_fold(re.sub(r"[.\s]", "", marker[1]))]
            if marker_after:
                after = after[marker.end():]
            else:
                before = before[: len(before) - len(marker[0])]
        rest = before + " " + after
        return hour, minute, second, _CLOCK.sub(" ", rest) if len(clocks) > 1 else rest

    def _parts(self, text: str) -> _Parts:
        parts = _Parts()
        for index, m in enumerate(_TOKEN.finditer(text)):
            kind, token = m.lastgroup, m[m.lastgroup or 0]
            if kind == "short_year" or (kind == "number" and len(token) == 4):
                if parts.years and self.strict:
                    raise self.fail("two years")
                parts.years.append(2000 + int(token) if kind == "short_year" else int(token))
                parts.year_at = index if parts.year_at is None else parts.year_at
            elif kind == "number" and len(token) <= 2:
                parts.numbers.append((index, int(token)))
            elif kind == "word":
                word = _fold(token)
                if word in _RELATIVE_DAYS:
                    parts.relative.append(_RELATIVE_DAYS[word])
                elif word in _FULL_MONTHS:
                    parts.months.append((_FULL_MONTHS[word], True))
                elif word in _MONTH_PREFIXES:
                    parts.months.append((_MONTH_PREFIXES[word], False))
                elif word not in _SKIPPED and self.strict:
                    raise self.fail(f"{token!r} is not part of a date")
            elif token in _SEPARATORS:
                parts.slashes = parts.slashes or token == "/"
            elif self.strict:
                raise self.fail(f"{token!r} is not part of a date")
        return parts

    def _day(self, parts: _Parts) -> date:
        today = self.now.astimezone(self.tz).date()
        if parts.relative and self.strict and (parts.years or parts.months or parts.numbers):
            raise self.fail("both a relative day and a date")
        try:
            return self._calendar_date(parts, today)
        except ValueError:
            if not parts.relative:
                raise
        return today - timedelta(days=parts.relative[0])

    def _calendar_date(self, parts: _Parts, today: date) -> date:
        numbers = [n for _, n in parts.numbers]
        if parts.months:  # a full name wins over an abbreviation ("mar 03 mar 2020")
            month = next((m for m, full in parts.months if full), parts.months[-1][0])
            if not numbers or (self.strict and len(numbers) != 1):
                raise self.fail("no single day of month")
            day = numbers[0]
            if not parts.years:  # a format without the year: the latest such day, not ahead
                year = today.year if (month, day) <= (today.month, today.day) else today.year - 1
                return self._date(year, month, day)
            return self._date(parts.years[0], month, day)
        if not parts.years:
            raise self.fail("no year")
        if self.strict and len(numbers) != 2:
            raise self.fail("no month")
        before = [n for i, n in parts.numbers if i < (parts.year_at or 0)]
        after = [n for i, n in parts.numbers if i > (parts.year_at or 0)]
        if len(before) >= 2:  # 24.04.2011, 04/24/2011
            first, second = before[-2:]
            day_first = not parts.slashes or self.slashes is Slashes.DAY_FIRST
            if (second if day_first else first) > 12:  # the other order when this cannot be
                day_first = not day_first
            day, month = (first, second) if day_first else (second, first)
        elif len(after) >= 2:  # 2011-04-24
            month, day = after[:2]
        else:
            raise self.fail("no month")
        return self._date(parts.years[0], month, day)

    def _date(self, year: int, month: int, day: int) -> date:
        try:
            return date(year, month, day)
        except ValueError as e:
            raise self.fail(str(e)) from None
