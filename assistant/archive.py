"""Archived threads as they really come: JSON lines of posts, plain or gzipped, whose times
are ISO-8601, Unix timestamps, or the forum's own text ("Mon Dec 06, 2010 4:04 pm", in any
language `scrapers/dates.py` reads).

`replay` and `benchmarks/accuracy.py` read archives through `read_posts_jsonl`, so a real
archive replays the same way from the command line and in the benchmark.
"""

from __future__ import annotations

import gzip
import json
from datetime import UTC, datetime
from pathlib import Path

from assistant.errors import ConfigError
from assistant.files import read_text
from assistant.models import Post
from assistant.scrapers.dates import Slashes, parse_forum_time
from assistant.timezones import zone

_SHAPE = 'each line must be a JSON object {"number", "user", "content", "time"}'


def archive_time(text: str, tz: str, forum_tz: str | None = None) -> datetime:
    """A post's time in an archive: ISO-8601 (read in `tz` without an offset), a Unix
    timestamp, or the forum's text date read in `forum_tz` (default `tz`); never relative
    ("Today", "5 minutes ago" mean nothing in an archive)."""
    text = text.strip()
    if text.isdigit():
        return datetime.fromtimestamp(int(text), UTC)
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        moment = None
    if moment is not None:
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=zone(tz))
        return moment.astimezone(UTC)
    if not _relative(text):
        try:
            # phpBB's default formats put the day first in numeric dates; an archive of an
            # SMF board writes month names, which read the same either way.
            return parse_forum_time(
                text, zone(forum_tz or tz), datetime.now(UTC), slashes=Slashes.DAY_FIRST
            )
        except ValueError:
            pass
    raise ConfigError(
        f"{text!r} is not a time: write it as 2026-11-22T11:05 (ISO-8601, in {tz} unless it "
        f"ends with +HH:MM or Z), a Unix timestamp, or the forum's own date text "
        f"(\"Mon Dec 06, 2010 4:04 pm\", read in --forum-tz)"
    )


def _relative(text: str) -> bool:
    """ "Today, 10:42" or "5 minutes ago": relative to a page's moment an archive lost."""
    lowered = text.lower()
    return any(w in lowered for w in ("today", "yesterday", "ago", "oggi", "ieri", "tegnap"))


def _lines(path: Path) -> list[str]:
    if path.suffix == ".gz":
        try:
            with gzip.open(path, "rt", encoding="utf-8") as f:
                return f.read().splitlines()
        except (OSError, EOFError, UnicodeDecodeError) as e:
            raise ConfigError(
                f"{path}: cannot read the gzipped posts file ({e}); gunzip it to check it"
            ) from None
    return read_text(path, "posts file").splitlines()


def read_posts_jsonl(path: Path, tz: str, forum_tz: str | None = None) -> list[Post]:
    """Posts from JSON lines of {number, user, content (body HTML), time}.

    Every problem names the file and the line. A number given twice keeps the later
    line (an archive that repeats an edited post): the count reads each post once.
    """
    posts: list[Post] = []
    for lineno, line in enumerate(_lines(Path(path)), 1):
        if not line.strip():
            continue
        where = f"{path}, line {lineno}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as e:
            raise ConfigError(
                f"{where}: not JSON ({e.msg} at column {e.colno}); {_SHAPE}"
            ) from None
        if not isinstance(row, dict):
            raise ConfigError(f"{where}: a JSON {type(row).__name__}, not an object; {_SHAPE}")
        missing = [k for k in ("number", "user", "content", "time") if k not in row]
        if missing:
            raise ConfigError(f"{where}: no {', '.join(missing)}; {_SHAPE}")
        number, user, content, time = row["number"], row["user"], row["content"], row["time"]
        if isinstance(number, bool) or not isinstance(number, (int, str)):
            raise ConfigError(f"{where}: number {number!r} is not a post number")
        try:
            number = int(number)
        except ValueError:
            raise ConfigError(f"{where}: number {number!r} is not a post number") from None
        if not isinstance(user, str) or not user.strip():
            raise ConfigError(f"{where}: user {user!r} is not a name")
        if not isinstance(content, str):
            raise ConfigError(f"{where}: content must be the post's HTML as a string")
        if isinstance(time, bool) or not isinstance(time, (str, int, float)):
            raise ConfigError(f"{where}: time {time!r} is not a time")
        try:
            posted_at = (
                datetime.fromtimestamp(time, UTC)
                if isinstance(time, (int, float))
                else archive_time(time, tz, forum_tz)
            )
        except (ConfigError, OverflowError, OSError, ValueError) as e:
            raise ConfigError(f"{where}: {e}") from None
        posts.append(Post(number, len(posts), user.strip(), None, posted_at, content, 1))
    if not posts:
        raise ConfigError(f"{path} holds no posts: {_SHAPE}")
    return posts
