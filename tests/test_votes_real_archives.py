"""Votes as real players write them, read from real archived mafiascum games
(../shared/mafiascum-dev: every post as phpBB rendered it) and the real forum fixtures:
"Unvote, Vote: X" in one span or tag, [vote]unvote[/vote], initials and abbreviations, a
name fitting two players, a bare bold misspelling (001), No Lynch where the ruleset has
none, strict unvote (003), "one less for No Lynch", and `replay` of a real archive whose
times are the forum's own text.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from cli_support import run_cli
from conftest import SEEDS, SHARED
from realthreads import game_a, thread_posts

from assistant.archive import archive_time, read_posts_jsonl
from assistant.checks import posting_rules
from assistant.checks.invalid_votes import check_invalid_votes
from assistant.count.tally import Tally, count
from assistant.errors import ConfigError
from assistant.game import Game
from assistant.models import Post
from assistant.names import NameMatcher, Slot
from assistant.rulesets import find_ruleset
from assistant.vote_codes import VoteCode

ARCHIVE = SHARED / "mafiascum-dev"


def quote(seed: str, sentence: str) -> None:
    """The rule checked next is the seed's own sentence."""
    text = " ".join(next(SEEDS.glob(f"{seed}_*.txt")).read_text(encoding="utf-8").split())
    assert " ".join(sentence.split()) in text, sentence


@cache
def archive(game_id: str) -> tuple[dict[str, Any], tuple[Post, ...]]:
    doc = json.loads((ARCHIVE / game_id / "game.json").read_text(encoding="utf-8"))
    return doc, tuple(read_posts_jsonl(ARCHIVE / game_id / "posts.jsonl.gz", "UTC"))


def day_of(game_id: str, post: int) -> dict[str, Any]:
    doc, _ = archive(game_id)
    return next(d for d in doc["days"] if d["start_post"] <= post <= d["end_post"])


def day_game(game_id: str, day: dict[str, Any]) -> Game:
    doc, _ = archive(game_id)
    return Game.from_parts(
        f"ms-{game_id}", [list(s) for s in day["slots"]], gms=doc["moderators"],
        ruleset="mafiascum",
    )  # fmt: skip


def tally_to(game_id: str, post: int, ruleset: str = "mafiascum") -> Tally:
    """The count of the archived day holding `post`, as it stood right after it."""
    _, posts = archive(game_id)
    day = day_of(game_id, post)
    chosen = [p for p in posts if day["start_post"] <= p.post_id <= day["end_post"]]
    return count(chosen, day_game(game_id, day), find_ruleset(ruleset), at_post=post)


def marks_of(tally: Tally, post: int) -> list[tuple[str, str | None, VoteCode]]:
    return [(v.action, v.target, v.code) for v in tally.votes if v.post_id == post]


# ---- one unit of voting: "Unvote, Vote: X" -------------------------------------------------


def test_unvote_then_vote_in_one_bold_span() -> None:
    # Game 1091, post 148: <b>Unvote; Vote: Beefster</b> while the vote is on moose200x.
    t = tally_to("1091", 148)
    assert marks_of(t, 148) == [
        ("unvote", None, VoteCode.COUNTED),
        ("vote", "Beefster", VoteCode.COUNTED),
    ]
    unvote = next(v for v in t.votes if v.post_id == 148 and v.action == "unvote")
    assert unvote.reason == "counted: bold unvote: removes the vote on Empking"
    assert "brokenscraps" in t.wagon("Beefster").voters


def test_unvote_and_vote_inside_one_vote_tag() -> None:
    # Game 1359, post 329: [vote]Unvote, Vote: Empking[/vote], shown by phpBB as
    # <span class="bbvote">VOTE: Unvote, Vote: Empking</span>: a vote for Empking, not for
    # a player called "Unvote, Vote: Empking".
    t = tally_to("1359", 329)
    assert [m[:2] for m in marks_of(t, 329)] == [("unvote", None), ("vote", "Empking")]
    assert "Gallatin" in t.wagon("Empking").voters


def test_vote_tag_holding_unvote_is_an_unvote() -> None:
    # Game 1606, post 373: [vote]Unvote[/unvote] then [vote]Phijkchu_Magikarp[/unvote].
    t = tally_to("1606", 373)
    marks = marks_of(t, 373)
    assert marks[0][:2] == ("unvote", None)
    assert marks[1][:2] == ("vote", "Phijkchu_Magikarp")
    assert all(v.target != "Unvote" for v in t.votes)


# ---- names as players write them -------------------------------------------------------


def test_initials_of_a_camelcase_name_explained() -> None:
    # Game 1114, post 326: "vote: DP" with DavidParker playing.
    t = tally_to("1114", 326)
    vote = next(v for v in t.votes if v.post_id == 326)
    assert vote.target == "DavidParker" and vote.code == VoteCode.COUNTED
    assert vote.reason == "counted: bold vote ('DP' read as DavidParker (initials of DavidParker))"


def test_abbreviations_and_words_of_names() -> None:
    m = NameMatcher([Slot("SilentQuietBob"), Slot("Thirdkoopa"), Slot("Lady Grey")])
    sqb = m.match("SQB")
    assert (sqb.slot, sqb.how) == ("SilentQuietBob", "initials of SilentQuietBob")
    assert m.match("Quiet").slot == "SilentQuietBob"
    assert m.match("Bob").how == "a word of SilentQuietBob"
    assert (m.match("TK").slot, m.match("TK").how) == ("Thirdkoopa", "abbreviation of Thirdkoopa")
    assert m.match("Grey").slot == "Lady Grey"


def test_a_misspelt_word_of_a_name_and_initials_with_digits() -> None:
    # Game 1585, post 820: "VOTE: Misika" with Misaka Network playing.
    t = tally_to("1585", 820)
    vote = next(v for v in t.votes if v.post_id == 820)
    assert vote.target == "Misaka Network" and vote.code == VoteCode.COUNTED
    assert "'Misika' read as Misaka Network (close spelling (83%))" in vote.reason
    # Game 1733, post 666: "VOTE: mm4" with MarioManiac4 playing.
    t = tally_to("1733", 666)
    vote = next(v for v in t.votes if v.post_id == 666)
    assert vote.target == "MarioManiac4"
    assert "(initials of MarioManiac4)" in vote.reason


def test_a_name_fitting_two_players_is_ambiguous_and_alerted() -> None:
    # Game 1757, post 99: "VOTE: Cow" with RadiantCowbells (a word starts "Cow") and TheCow
    # (a whole word "Cow") both playing: never given to either.
    t = tally_to("1757", 99)
    vote = next(v for v in t.votes if v.post_id == 99)
    assert vote.code == VoteCode.AMBIGUOUS_TARGET and vote.target is None
    assert vote.reason == "ambiguous: 'Cow' could be RadiantCowbells or TheCow; not counted"
    alerts = check_invalid_votes([vote], posting_rules(find_ruleset("mafiascum")))
    assert [a.kind for a in alerts] == ["ambiguous_vote_target"]
    # The issue's own case: a prefix of one name and a whole word of another.
    m = NameMatcher([Slot("Annabel_Q"), Slot("Big Ann")])
    assert m.match("Ann").how == "ambiguous"
    assert set(m.match("Ann").candidates) == {"Annabel_Q", "Big Ann"}


# ---- 001: the name in bold ---------------------------------------------------------------


def test_bare_bold_misspelling_counts_under_001() -> None:
    quote("001", "Vote in bold. Whenever you cast a vote on someone, be sure to put the name "
          "in [ b ]bold[ /b ], so I can easily check who is being voted on.")
    # Game 1140, post 98: Regfan's bold names, "Volkan" among them (the player is vollkan).
    t = tally_to("1140", 98, "millers-hollow")
    volkan = next(v for v in t.votes if v.post_id == 98 and v.text == "Volkan")
    assert volkan.target == "vollkan" and volkan.accepted
    assert "'Volkan' read as vollkan (close spelling" in volkan.reason


def test_bold_emphasis_naming_no_player_raises_nothing_under_001() -> None:
    # Game 1091, post 256: "Fos:werewolf" (a finger of suspicion, not a name) and the rest
    # of that post's bold: no vote, no alert.
    t = tally_to("1091", 256, "millers-hollow")
    assert [v for v in t.votes if v.post_id == 256] == []


def test_no_lynch_under_001_is_its_own_alert() -> None:
    quote("001", "Voting is mandatory. You cannot abstain from voting.")
    rules = find_ruleset("millers-hollow")
    # Game 1323, post 905: bold "Vote: No Lynch"; 001 has no No Lynch.
    t = tally_to("1323", 905, "millers-hollow")
    vote = next(v for v in t.votes if v.post_id == 905)
    assert vote.code == VoteCode.NO_LYNCH_NOT_ALLOWED
    assert vote.reason == "not counted: No Lynch is not allowed under this ruleset"
    alerts = check_invalid_votes([vote], posting_rules(rules))
    assert [a.kind for a in alerts] == ["no_lynch_not_allowed"]
    # A bare bold "No Lynch" (the element as game 1701's post 1672 has it) from a player.
    _, posts = archive("1701")
    html = next(p.body_html for p in posts if p.post_id == 1672)
    body = re.search(r"<div style=\"display:inline;font-weight:bold\">No Lynch</div>", html)[0]
    day = day_of("1701", 1672)
    player = day["slots"][0][0]
    post = Post(1672, 1, player, None, posts[0].posted_at, body, 1)
    bare = count([post], day_game("1701", day), rules)
    assert [v.code for v in bare.votes] == [VoteCode.NO_LYNCH_NOT_ALLOWED]


# ---- 003: strict unvote ------------------------------------------------------------------


@pytest.mark.parametrize("forum", ["smf21", "phpbb33"])
def test_strict_unvote_under_003(forum: str) -> None:
    quote("003", "A vote for a player must be preceded by an unvote using the format above")
    quote("003", "no new vote will be counted without an unvote of any prior vote.")
    real = {p.post_id: p for p in thread_posts(forum, "a")}
    blue_conia = real[19].body_html  # blue "vote Conia"
    red_unvote_jd = next(p for p in real.values() if p.author == "Mr. Pickles" and
                         "unvote Jd-" in p.body_html).body_html  # red "unvote Jd-"
    at = real[19].posted_at
    posts = [
        Post(1, 1, "Mr. Pickles", None, at, blue_conia, 1),
        Post(2, 2, "Mr. Pickles", None, at, red_unvote_jd, 1),
        Post(3, 3, "Mr. Pickles", None, at, blue_conia.replace("vote Conia", "vote Jd-"), 1),
    ]
    t = count(posts, game_a(), find_ruleset("three-factions"))
    assert marks_of(t, 2) == [("unvote", None, VoteCode.UNVOTE_NOT_VOTING)]
    assert marks_of(t, 3) == [("vote", "Jd-", VoteCode.NO_UNVOTE_FIRST)]
    assert t.wagon("Conia").voters == ("Mr. Pickles",)
    alerts = check_invalid_votes(t.votes, posting_rules(find_ruleset("three-factions")))
    assert [a.kind for a in alerts] == ["unvote_not_voting", "vote_without_unvote"]
    # A lenient ruleset: any unvote removes the vote, and the new vote counts.
    lenient = count(posts, game_a(), find_ruleset("permissive"))
    assert lenient.wagon("Jd-").voters == ("Mr. Pickles",) and lenient.wagon("Conia") is None


# ---- replaying real archives -------------------------------------------------------------


def _players_file(tmp_path: Path, day: dict[str, Any]) -> Path:
    path = tmp_path / "players.txt"
    path.write_text("\n".join(" | ".join(s) for s in day["slots"]) + "\n", encoding="utf-8")
    return path


def _replay(capsys, game_id: str, day_no: int, tmp_path: Path, *more: str) -> dict[str, Any]:
    doc, _ = archive(game_id)
    day = next(d for d in doc["days"] if d["day"] == day_no)
    gms = [x for gm in doc["moderators"] for x in ("--gm", gm)]
    code, out, err = run_cli(
        capsys, "--data-dir", str(tmp_path / "data"), "replay",
        str(ARCHIVE / game_id / "posts.jsonl.gz"), "--ruleset", "mafiascum",
        "--players", str(_players_file(tmp_path, day)), *gms,
        "--from-post", str(day["start_post"]), "--to-post", str(day["end_post"]),
        "--json", *more,
    )  # fmt: skip
    assert code == 0, err
    return json.loads(out)


def test_replay_of_a_real_archive_with_forum_text_times(tmp_path: Path, capsys) -> None:
    # Game 1091 day 1: times like "Sat Dec 11, 2010 2:49 am"; the day ended at a majority
    # for Beefster (the archive's record).
    doc = _replay(capsys, "1091", 1, tmp_path, "--why", "--forum-tz", "UTC")
    assert doc["outcome"]["lynched"] == ["Beefster"] and doc["outcome"]["no_lynch"] is False
    assert doc["outcome"]["reason"].startswith("majority reached: 7 votes on Beefster")
    at148 = {v["at"] for v in doc["votes"] if v["post"] == 148}
    assert at148 == {"2010-12-11T02:49:00+00:00"}
    # The same text read in the forum's zone, when it is not UTC.
    doc = _replay(capsys, "1091", 1, tmp_path, "--why", "--forum-tz", "America/New_York")
    assert {v["at"] for v in doc["votes"] if v["post"] == 148} == {"2010-12-11T07:49:00+00:00"}


def test_archive_times_in_other_languages_and_relative_ones_refused() -> None:
    assert archive_time("martedì 21 gennaio 2020, 14:24", "UTC").isoformat() == (
        "2020-01-21T14:24:00+00:00"
    )
    assert archive_time("1290000000", "UTC").year == 2010
    with pytest.raises(ConfigError, match="is not a time"):
        archive_time("Today at 12:27 AM", "UTC")


def test_no_lynch_at_one_less_in_a_real_day(tmp_path: Path, capsys) -> None:
    # Game 1126 day 4 ("one less for No Lynch"): 4 alive, two vote No Lynch (posts 1209
    # and 1211). Half is enough for No Lynch there; under the plain majority (3) it is not.
    doc = _replay(capsys, "1126", 4, tmp_path, "--no-lynch-majority", "one_less")
    assert doc["outcome"] == {
        "lynched": [],
        "no_lynch": True,
        "decided_by": "majority",
        "reason": "2 votes (one less for No Lynch) for No Lynch: the day ends with no lynch",
        "at_post": 1211,
    }
    doc = _replay(capsys, "1126", 4, tmp_path)
    assert doc["outcome"]["no_lynch"] is True and doc["outcome"]["at_post"] != 1211
    assert "no one has a majority (3): no lynch" in doc["outcome"]["reason"]


def test_a_mistyped_unvote_before_a_vote_is_an_unvote() -> None:
    # Game 1091, post 634: <b>Unovte; Vote: Substrike</b> (Dekes, voting pappums rat since
    # post 621). With "Vote" after it, "Unovte" can only be "unvote" with two letters
    # swapped; the 74 archived games hold 3 such marks, each one an unvote.
    t = tally_to("1091", 634)
    assert marks_of(t, 634) == [
        ("unvote", None, VoteCode.COUNTED),
        ("vote", "Substrike22", VoteCode.COUNTED),
    ]
    assert "Dekes" in t.wagon("Substrike22").voters
    assert "Dekes" not in (t.wagon("pappums rat").voters if t.wagon("pappums rat") else ())


def test_a_vote_read_as_the_one_clearly_closest_player() -> None:
    # Game 1452, post 1159: "vote: raidiant" with RadiantCowbells playing; game 1514, post
    # 804: "VOTE: PassionDale" (a pun on Paschendale). In the 74 games, 31 votes are read
    # this way, each checked by hand against the thread.
    t = tally_to("1452", 1159)
    vote = next(v for v in t.votes if v.post_id == 1159 and v.text == "vote: raidiant")
    assert vote.target == "RadiantCowbells"
    assert "'raidiant' read as RadiantCowbells (the closest name (93% alike" in vote.reason
    t = tally_to("1514", 804)
    vote = next(v for v in t.votes if v.post_id == 804)
    assert vote.target == "Paschendale" and vote.code == VoteCode.COUNTED


def test_a_vote_read_by_the_sound_of_the_one_players_name() -> None:
    # Game 1452, post 775: "vote: nahmann" with nhammen playing: the vowels and the doubled
    # letters misremembered, the consonants n-h-m-n the same. It is nhammen's fifth vote:
    # the GM lynched nhammen on it.
    t = tally_to("1452", 775)
    vote = next(v for v in t.votes if v.post_id == 775)
    assert vote.target == "nhammen" and vote.code == VoteCode.COUNTED
    assert "'nahmann' read as nhammen (sounds like nhammen: n-h-m-n)" in vote.reason
    assert t.outcome.by_majority and t.outcome.lynched == ("nhammen",)
    # Game 1688, post 228: "vote lalalalalalalaladucks" for lalaladucks.
    t = tally_to("1688", 228)
    assert next(v for v in t.votes if v.post_id == 228).target == "lalaladucks"


def test_a_sound_two_players_share_or_a_short_name_is_not_guessed() -> None:
    m = NameMatcher([Slot("nhammen"), Slot("Nohemin"), Slot("Hoopla")])
    got = m.match_vote("nahmann")  # n-h-m-n is both players' sound
    assert not got.ok and got.how == "ambiguous"
    assert set(got.candidates) == {"nhammen", "Nohemin"}
    m = NameMatcher([Slot("Bobby"), Slot("Hoopla")])
    assert not m.match_vote("Baby").ok  # b-b: too few consonants to say whose
    m = NameMatcher([Slot("nhammen"), Slot("Hoopla")])
    assert m.match_vote("nmahen").slot == "nhammen"  # n-m-h-n: two neighbours swapped
    assert not m.match_vote("nahmannx").ok  # another consonant: no longer its sound


def test_a_name_near_two_players_or_near_none_is_not_guessed() -> None:
    m = NameMatcher([Slot("Paschendale"), Slot("PassionTea"), Slot("RadiantCowbells")])
    assert not m.match_vote("PassionDale").ok  # as close to two players: no clear closest
    m = NameMatcher([Slot("Paschendale"), Slot("RadiantCowbells")])
    assert m.match_vote("PassionDale").slot == "Paschendale"
    assert not m.match_vote("zipcode").ok  # near no one
    # Game 1805, post 1436: "VOTE: crabman" names a dead player no longer in the slots.
    t = tally_to("1805", 1436)
    vote = next(v for v in t.votes if v.post_id == 1436)
    assert vote.code == VoteCode.UNKNOWN_TARGET


def test_a_vote_written_a_colour_a_letter_is_one_vote() -> None:
    # Game 1688, post 1431: a bold "VOTE: Not_Maf" with each letter in its own
    # <div style="display:inline;color:...">; inline divs do not break the line.
    t = tally_to("1688", 1431)
    vote = next(v for v in t.votes if v.post_id == 1431)
    assert (vote.voter, vote.target, vote.code) == ("lalaladucks", "Not_Mafia", VoteCode.COUNTED)
    assert vote.text == "VOTE: Not_Maf"


def test_a_short_name_the_day_already_used_then_a_comment() -> None:
    # Game 1195, Day 4: Beck's "vote: Ice" (post 1444) was read as ICEninja (a prefix);
    # his "vote ice ice baby" (post 1494) starts with that name. The same day's earlier
    # votes are the only source: "ice" alone is not enough before anyone wrote it so.
    t = tally_to("1195", 1494)
    vote = next(v for v in t.votes if v.post_id == 1494)
    assert (vote.target, vote.code) == ("ICEninja", VoteCode.COUNTED)
    assert "as Beck's vote in post 1444 wrote them" in vote.reason
    assert t.outcome.lynched == ("ICEninja",)
