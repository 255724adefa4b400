"""The shared forum-date reader: one word table for SMF and phpBB, so a language added once
is read on both forums, strictly (SMF: the whole text is a date) or leniently (phpBB: the
date somewhere in a line)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from conftest import REALFORUM

from assistant.models import Quote
from assistant.scrapers import dates, phpbb, smf
from assistant.scrapers.common import decode_html

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
BUDAPEST = ZoneInfo("Europe/Budapest")
ROME = ZoneInfo("Europe/Rome")


def test_a_hungarian_date_in_a_phpbb_line() -> None:
    # Hungarian came to the table for an SMF forum; phpBB reads it too, in its own lines
    assert phpbb.parse_forum_time("by Lady Grey » 2018. április 25, 10:11:12", BUDAPEST,
                                  NOW) == datetime(2018, 4, 25, 8, 11, 12, tzinfo=UTC)
    assert phpbb.parse_forum_time("» 2018. márc. 3. du. 3:15", BUDAPEST, NOW) == datetime(
        2018, 3, 3, 14, 15, tzinfo=UTC)
    assert phpbb.parse_forum_time("Tegnap, 23:50", BUDAPEST, NOW) == datetime(
        2026, 11, 21, 22, 50, tzinfo=UTC)


def test_an_italian_date_in_an_smf_header() -> None:
    # Italian came to the table for a phpBB forum; SMF reads it too, strictly
    assert smf.parse_forum_time("martedì 21 gennaio 2020, 14:24", ROME, NOW) == datetime(
        2020, 1, 21, 13, 24, tzinfo=UTC)
    assert smf.parse_forum_time("21 gen 2020, 14:24 »", ROME, NOW) == datetime(
        2020, 1, 21, 13, 24, tzinfo=UTC)
    assert smf.parse_forum_time("Ieri alle 23:50", ROME, NOW) == datetime(
        2026, 11, 21, 22, 50, tzinfo=UTC)
    with pytest.raises(ValueError):  # still strict: a name before the date is refused
        smf.parse_forum_time("Lady Grey il 21 gennaio 2020, 14:24", ROME, NOW)


def read(path: str) -> str:
    return decode_html((REALFORUM / path).read_bytes())


def test_an_smf_page_in_italian_reads_post_times_and_quote_authors() -> None:
    html = read("smf21/smf21_topic_p1.html").replace(
        'smalltext">Nov 21, 2026, 09:15 AM<', 'smalltext">sabato 21 novembre 2026, 09:15<')
    # A Rome board, as the GM says (`--forum-tz`): the page's header still shows UTC's time.
    post = smf.parse_page(html, "http://127.0.0.1:8021/index.php?topic=2.0",
                          tz=ROME, now=NOW, forum_tz=ROME).posts[1]
    assert post.posted_at == datetime(2026, 11, 21, 8, 15, tzinfo=UTC)

    html = read("smf21/smf21_b_topic_p1.html")
    html, count = re.subn(r"Quote from: xX_Slayer_Xx on <strong>Today</strong> at 11:03 AM",
                          "Citazione da: xX_Slayer_Xx - Oggi alle 11:03", html)
    assert count == 1
    page = smf.parse_page(html, "http://127.0.0.1:8021/index.php?topic=3.0", tz=ROME, now=NOW)
    assert Quote("xX_Slayer_Xx", 119) in [q for p in page.posts for q in p.quotes]


def test_a_phpbb_page_in_hungarian_reads_post_times() -> None:
    html = read("phpbb33/phpbb33_topic_p1.html").replace(
        '<time datetime="2026-11-21T12:01:12+00:00">Sat Nov 21, 2026 12:01 pm</time>',
        "2026. november 21., szombat, du. 1:01").replace(  # a Budapest board says so
        'All times are <span title="UTC">UTC</span>',
        'Minden időpont <span title="Europe/Budapest">UTC+01:00</span>')
    page = phpbb.parse_page(html, "http://127.0.0.1:8033/viewtopic.php?t=2", tz=BUDAPEST,
                            now=NOW)
    post = next(p for p in page.posts if p.post_id == 12)
    assert post.posted_at == datetime(2026, 11, 21, 12, 1, tzinfo=UTC)


@pytest.mark.parametrize("code", sorted(dates.LANGUAGES))
def test_every_language_is_read_by_both_readers(code: str) -> None:
    language = dates.LANGUAGES[code]
    months = language.months.split()
    assert len(months) == 12, code
    for number, name in enumerate(months, start=1):
        for text in (f"21 {name} 2026, 10:00", f"21 {name[:4]}. 2026, 10:00",
                     f"{name.capitalize()} 21, 2026 10:00"):
            expected = datetime(2026, number, 21, 10, 0, tzinfo=UTC)
            assert dates.parse_forum_time(text, UTC, NOW) == expected, text
            assert dates.find_forum_time(f"on {text}", UTC, NOW) == expected, text
    for words, back in ((language.today, 0), (language.yesterday, 1)):
        for word in words.split():
            expected = datetime(2026, 11, 22 - back, 10, 0, tzinfo=UTC)
            assert dates.parse_forum_time(f"{word.capitalize()}, 10:00", UTC, NOW) == expected
            assert dates.find_forum_time(f"» {word} 10:00", UTC, NOW) == expected
    for weekday in language.weekdays.split():  # weekdays are allowed, and say nothing
        assert dates.parse_forum_time(f"{weekday} 21 Nov 2026, 10:00", UTC, NOW) == datetime(
            2026, 11, 21, 10, 0, tzinfo=UTC), weekday


def test_each_forum_keeps_its_order_for_slashed_dates() -> None:
    assert smf.parse_forum_time("04/05/2026, 10:00", UTC, NOW) == datetime(
        2026, 4, 5, 10, 0, tzinfo=UTC)
    assert phpbb.parse_forum_time("04/05/2026 10:00", UTC, NOW) == datetime(
        2026, 5, 4, 10, 0, tzinfo=UTC)
    # either forum takes the other order when its own cannot be a date
    assert smf.parse_forum_time("24/04/2026, 10:00", UTC, NOW) == datetime(
        2026, 4, 24, 10, 0, tzinfo=UTC)
    assert phpbb.parse_forum_time("04/24/2026 10:00", UTC, NOW) == datetime(
        2026, 4, 24, 10, 0, tzinfo=UTC)


@pytest.mark.parametrize(("text", "strict", "lenient"), [
    ("on Sat Nov 21, 2026 12:01 pm", None, datetime(2026, 11, 21, 12, 1, tzinfo=UTC)),
    ("Sat Nov 21, 2026 12:01 pm", datetime(2026, 11, 21, 12, 1, tzinfo=UTC),
     datetime(2026, 11, 21, 12, 1, tzinfo=UTC)),
    ("13:00 pm Nov 21, 2026", None, datetime(2026, 11, 21, 13, 0, tzinfo=UTC)),
    ("Nov 21, 2026 10:00 and 11:00", None, datetime(2026, 11, 21, 10, 0, tzinfo=UTC)),
    ("vor 5 Minuten", datetime(2026, 11, 22, 11, 55, tzinfo=UTC),
     datetime(2026, 11, 22, 11, 55, tzinfo=UTC)),
    ("Posted: 2026-11-21T12:01:12+01:00", None, datetime(2026, 11, 21, 11, 1, 12, tzinfo=UTC)),
    ("Dec 25, 10:00", datetime(2025, 12, 25, 10, 0, tzinfo=UTC),  # no year: not ahead of now
     datetime(2025, 12, 25, 10, 0, tzinfo=UTC)),
    ("Nov 21, 2026", None, None),
])
def test_strict_and_lenient_reading(text: str, strict: datetime | None,
                                    lenient: datetime | None) -> None:
    if strict is None:
        with pytest.raises(ValueError):
            dates.parse_forum_time(text, UTC, NOW)
    else:
        assert dates.parse_forum_time(text, UTC, NOW) == strict
    assert dates.find_forum_time(text, UTC, NOW) == lenient


def _general(text: str, tz: ZoneInfo, now: datetime) -> datetime | str:
    try:
        return dates._Reader(text, tz, now, dates.Slashes.MONTH_FIRST, strict=True).read()
    except ValueError as e:
        return str(e)


def test_the_common_shape_shortcut_reads_as_the_general_reader() -> None:
    # SMF's every post time is "Today at 11:09 AM" or "Nov 22, 2026, 11:38 AM": read by one
    # match, it must give what the general reader gives, and leave it whatever is odd.
    texts = set()
    for path in sorted((REALFORUM / "smf21").glob("*topic*.html")):
        texts |= set(re.findall(r"(?:<strong>)?(Today|Yesterday)(?:</strong>)? at (\d+:\d+ [AP]M)",
                                read(f"smf21/{path.name}")))
    shaped = {f"{word} at {clock}" for word, clock in texts}
    shaped |= {"Nov 21, 2026, 12:01 PM", "November 21, 2026, 12:01:59 PM", "Mar 03, 2020, 12:00 AM",
               "May 1, 2024, 1:05 AM", "Sept 30, 2025, 11:59 PM"}
    odd = {"Today at 13:01 PM", "Today at 0:30 AM", "Yesterday at 12:60 PM",
           "Feb 30, 2024, 1:00 AM", "Foo 21, 2026, 12:01 PM", "Oggi 21, 2026, 12:01 PM",
           "Nov 21, 2026, 12:01:60 PM",
           "Nov 21, 0000, 12:01 PM", "Mon 21, 2026, 12:01 PM", "Nov 21, 2026, 12:01 pm"}
    zones = [ZoneInfo("UTC"), BUDAPEST, ZoneInfo("America/New_York"),
             ZoneInfo("Pacific/Kiritimati")]
    nows = [NOW, datetime(2026, 3, 8, 6, 59, tzinfo=UTC), datetime(2026, 1, 1, 0, 0, tzinfo=UTC)]
    assert len(shaped) > 20  # the real pages' texts are there
    for text in shaped | odd:
        for tz in zones:
            for now in nows:
                quick = dates._common_shape(text, tz, now)
                if text in shaped:
                    assert quick is not None, text
                if quick is not None:
                    assert quick == _general(text, tz, now), (text, tz, now)
                else:
                    assert text in odd, text
    # and through the public readers, with the text as a page gives it
    assert smf.parse_forum_time(" Today at 11:09 AM »", BUDAPEST, NOW) == datetime(
        2026, 11, 22, 10, 9, tzinfo=UTC)
    with pytest.raises(ValueError, match="hour 13"):
        smf.parse_forum_time("Today at 13:01 PM", BUDAPEST, NOW)


def _lenient(text: str, tz: ZoneInfo, now: datetime) -> datetime | None:
    try:
        return dates._Reader(text, tz, now, dates.Slashes.DAY_FIRST, strict=False).read()
    except ValueError:
        return None


def test_the_phpbb_shape_shortcut_reads_as_the_lenient_reader() -> None:
    # phpBB prints every post time (and the time of an edit notice, after "on") as
    # "Sun Nov 22, 2026 11:01 am"; the page's zone is told from each of them. Read by one
    # match, each must give what the lenient reader gives, and leave it whatever is odd.
    texts = set()
    for path in sorted((REALFORUM / "phpbb33").glob("*topic*.html")):
        texts |= set(re.findall(r"<time datetime=\"[^\"]+\">([^<]+)</time>",
                                read(f"phpbb33/{path.name}")))
    shaped = texts | {f"on {t}" for t in texts}
    shaped |= {f"{w} {m} {d}, 2026 {h}:{mi} {half}"
               for w in ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
               for m in ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
                         "Nov", "Dec")
               for d, h, mi, half in (("01", "1", "00", "am"), ("9", "12", "59", "pm"),
                                      ("28", "12", "00", "am"), ("28", "11", "30", "pm"))}
    odd = {"Sun Nov 31, 2026 11:01 am", "Sun Nov 22, 2026 13:01 pm", "Sun Nov 22, 2026 0:01 am",
           "Sun Nov 22, 2026 11:60 am", "Sun Foo 22, 2026 11:01 am", "Mar Nov 22, 2026 11:01 am",
           "Sun May 22, 0000 11:01 am", "Sun Nov 22, 2026 11:01 AM", "by Sun Nov 22, 2026 11:01 am",
           "Feb Nov 22, 2026 11:01 am", "Ieri Nov 22, 2026 11:01 am"}
    zones = [ZoneInfo("UTC"), BUDAPEST, ZoneInfo("America/New_York"),
             ZoneInfo("Pacific/Kiritimati")]
    assert len(texts) > 20  # the real pages' texts are there
    for text in shaped | odd:
        for tz in zones:
            quick = dates._phpbb_shape(text, tz, NOW)
            if text in shaped:
                assert quick is not None, text
            if quick is not None:
                assert quick == _lenient(text, tz, NOW), (text, tz)
            else:
                assert text in odd, text
    # and through the public reader, with the text as a page gives it
    assert phpbb.parse_forum_time(" on Sun Nov 22, 2026 11:01 am ", BUDAPEST, NOW) == datetime(
        2026, 11, 22, 10, 1, tzinfo=UTC)
