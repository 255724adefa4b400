"""The time zone a forum page writes its text times in, when the page itself tells.

phpBB writes every post time twice, `<time datetime="...+00:00">` (UTC) around the same
moment as text in the board's (or viewer's) zone, and its footer says "All times are
<span title="Europe/Berlin">UTC+01:00</span>". Its "Last edited by NAME on DATE" notice
is text only, in that same zone. Reading the notice in the game's zone instead puts
edits off by the difference between the two, so the page's own word wins; the GM's
`--forum-tz` still wins over both (a theme that misleads).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from selectolax.lexbor import LexborHTMLParser, LexborNode

from assistant.scrapers.common import clean_text
from assistant.scrapers.page_tree import stamped_times, text_of

# The footer's offset label: "UTC", "UTC+01:00", "GMT-5", "UTC+5:30" (phpBB's UTC_OFFSET).
_OFFSET_LABEL = re.compile(r"^(?:UTC|GMT)\s*(?:([+\-−])\s*(\d{1,2})(?::?(\d{2}))?)?$")
_QUARTER_SECONDS = 15 * 60
_MOST_SECONDS = 14 * 3600
"""The farthest any zone is from UTC."""


def _whole_quarters(offset: timedelta) -> bool:
    """Whether `offset` is a zone's: whole quarter hours, 14 hours at most either way.
    (In seconds: the same tests on timedeltas cost a third of a time's reading.)"""
    seconds = offset.days * 86400 + offset.seconds
    return (not offset.microseconds and not seconds % _QUARTER_SECONDS
            and -_MOST_SECONDS <= seconds <= _MOST_SECONDS)


def stated_zone(tree: LexborHTMLParser) -> tzinfo | None:
    """The zone the page's footer states: its `title` when that is an IANA name (right
    across daylight-saving changes), else the fixed offset of its label."""
    for span in tree.css("span[title]"):
        m = _OFFSET_LABEL.match(clean_text(text_of(span)))
        if not m:
            continue
        name = (span.attrs.get("title") or "").strip()
        if "/" in name or name == "UTC":
            try:
                return ZoneInfo(name)
            except (ZoneInfoNotFoundError, ValueError):
                pass
        if m.group(2) is None:
            return UTC
        sign = -1 if m.group(1) in "-−" else 1
        return timezone(sign * timedelta(hours=int(m.group(2)), minutes=int(m.group(3) or 0)))
    return None


def offset_from_times(
    tree: LexborHTMLParser, read_text: Callable[[str, tzinfo], datetime | None],
    times: list[LexborNode] | None = None,
) -> tzinfo | None:
    """The offset between each `<time datetime>` and its own text (read as if in UTC by
    `read_text`), when every such pair on the page agrees on one in whole quarter hours;
    None when the page has none or they disagree (relative texts, "5 minutes ago").
    `times`: the page's `time[datetime]` elements when the caller has found them already
    (each search walks the whole page)."""
    offsets: set[timedelta] = set()
    for node in stamped_times(tree) if times is None else times:
        try:
            stamp = datetime.fromisoformat(node.attrs.get("datetime") or "")
        except ValueError:
            continue
        text = clean_text(text_of(node))
        shown = read_text(text, UTC) if text and stamp.tzinfo else None
        if shown is None:
            continue
        stamp = stamp.astimezone(UTC)
        if stamp.microsecond or (stamp.second and not shown.second):
            stamp = stamp.replace(microsecond=0, second=stamp.second if shown.second else 0)
        offset = shown - stamp
        if not _whole_quarters(offset):
            return None
        offsets.add(offset)
    if len(offsets) != 1:
        return None
    (offset,) = offsets
    return UTC if not offset else timezone(offset)
