"""An author the players file does not name, whose name is a close spelling of one slot's
that never posts, plays that slot (the file's typo, or a renamed account); on real
archived mafiascum games (../shared/mafiascum-dev). A spectator or an author named like a
slot that does post stays no player."""

from __future__ import annotations

from test_votes_real_archives import tally_to

from assistant.names import NameMatcher, Slot
from assistant.vote_codes import VoteCode


def test_a_misspelt_name_in_the_players_file_still_votes() -> None:
    # Game 1841, Day 3: the archive's slot is "Dongempire"; the account posting is
    # "Donempire" (post 1653: [vote]infinity[/vote]). Dongempire itself never posts.
    t = tally_to("1841", 1653)
    vote = next(v for v in t.votes if v.post_id == 1653)
    assert (vote.voter, vote.target, vote.code) == ("Dongempire", "Infinity 324", VoteCode.COUNTED)
    assert (
        "(posted by Donempire, not in the players file: read as Dongempire, a close spelling "
        "(95%) of Dongempire, a slot that posts under none of its names)"
    ) in vote.reason
    assert "Dongempire" in t.wagon("Infinity 324").voters


def test_a_renamed_account_is_read_without_its_digits() -> None:
    # Game 1636, Day 2: Titus's slot replaced "Wake88"; the account posts as "Wake1"
    # (post 1005: [vote]MonkeyMan[/vote]).
    t = tally_to("1636", 1005)
    vote = next(v for v in t.votes if v.post_id == 1005)
    assert (vote.voter, vote.target) == ("Titus", "MonkeyMan576")
    assert "read as Titus, Wake88 without its digits" in vote.reason


def test_an_author_like_a_slot_that_posts_is_no_player() -> None:
    # Game 1493, Day 1: "Wake1" posts, but the slot that replaced Wake88 posts as Viera
    # Assassin later that day: Wake1's votes are not that slot's, even counted as of post
    # 10 ([vote]Smoker[/vote]), before Viera Assassin first posts.
    t = tally_to("1493", 10)
    vote = next(v for v in t.votes if v.post_id == 10)
    assert (vote.voter, vote.code) == ("Wake1", VoteCode.NOT_A_PLAYER)


def test_only_one_close_slot_and_a_close_spelling_only() -> None:
    m = NameMatcher([Slot("Dongempire"), Slot("Jerry1"), Slot("Jerry22")])
    assert m.unlisted_author("Donempire", {"Donempire"}).slot == "Dongempire"
    assert m.unlisted_author("Jerry", {"Jerry"}) is None  # two slots without their digits
    assert m.unlisted_author("Spectator", {"Spectator"}) is None
    assert m.unlisted_author("Donempire", {"Donempire", "Dongempire"}) is None


def test_an_account_abbreviating_a_silent_slots_name() -> None:
    # Game 1170, Day 1: the slot is "Panzerjager"; the account posting is "PJ." (post 326:
    # <b>Vote:Quinnster</b>), and no one posts as Panzerjager.
    t = tally_to("1170", 326)
    vote = next(v for v in t.votes if v.post_id == 326)
    assert (vote.voter, vote.target) == ("Panzerjager", "earworm")
    assert "read as Panzerjager, abbreviation of Panzerjager" in vote.reason
