"""SMF 2.1 pages show their zone: the header prints the server's "now" as
`<time datetime="...Z">` around the same moment as text in the board's zone, so text
dates are read in that zone even when the GM did not give `--forum-tz` (the real SMF in
another zone is tests/test_live_zones.py). Read from the real SMF 2.1 page."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from conftest import REALFORUM

from assistant.scrapers import smf
from assistant.scrapers.common import decode_html

URL = "http://127.0.0.1:8021/index.php?topic=2.0"
NOW = datetime(2026, 11, 22, 9, 54, 30, tzinfo=UTC)
HEADER = '<time datetime="2026-11-22T09:54:05Z">Nov 22, 2026, 09:54 AM</time>'


def page(header_text: str = "Nov 22, 2026, 09:54 AM", first_post: str | None = None) -> str:
    html = decode_html((REALFORUM / "smf21" / "smf21_topic_p1.html").read_bytes())
    assert HEADER in html  # this forum's zone is UTC, as its header shows
    html = html.replace(HEADER, HEADER.replace("Nov 22, 2026, 09:54 AM", header_text))
    if first_post is not None:
        html = html.replace('smalltext">Nov 21, 2026, 09:00 AM<', f'smalltext">{first_post}<')
    return html


def first_time(html: str, tz: str, forum_tz: str | None = None) -> datetime:
    zone = ZoneInfo(forum_tz) if forum_tz else None
    return smf.parse_page(html, URL, tz=ZoneInfo(tz), now=NOW, forum_tz=zone).posts[0].posted_at


def test_a_page_of_a_utc_board_is_read_in_utc_whatever_the_games_zone():
    assert first_time(page(), "America/New_York") == datetime(2026, 11, 21, 9, 0, tzinfo=UTC)


def test_a_page_of_an_auckland_board_is_read_at_its_offset():
    # 09:54 UTC is 22:54 in Auckland (UTC+13 in November)
    html = page("Nov 22, 2026, 10:54 PM", first_post="Nov 21, 2026, 10:00 PM")
    assert first_time(html, "America/New_York") == datetime(2026, 11, 21, 9, 0, tzinfo=UTC)


def test_the_games_zone_is_kept_when_it_agrees_with_the_page_so_summer_posts_stay_right():
    # A London board and a London game: the page shows UTC+0 now (November); a July post
    # is in British Summer Time, which the zone knows and a fixed +00:00 would not.
    html = page(first_post="Jul 01, 2026, 10:00 AM")
    assert first_time(html, "Europe/London") == datetime(2026, 7, 1, 9, 0, tzinfo=UTC)


def test_the_gms_forum_zone_wins_over_the_page():
    html = page(first_post="Nov 21, 2026, 10:00 AM")
    assert first_time(html, "UTC", forum_tz="Europe/Rome") == datetime(
        2026, 11, 21, 9, 0, tzinfo=UTC)
