"""The kinds of miss issue 21 names, each on the real markup of an archived mafiascum game
(../shared/mafiascum-dev, read at test time): a vote's name with two letters swapped, a
name's words in another order, a first word that is a word of one name, a broken BBCode
tag after the name, "Vote to No Lynch"; votes from an account the players file does not
name (alerted with the question and the command, accepted only by the GM); the GM's
knowledge given to `replay` (`--weight`, `--gm-facts`) and how the day was decided."""

from __future__ import annotations

import json
from pathlib import Path

from cli_support import run_cli
from test_votes_real_archives import ARCHIVE, _players_file, archive, day_of, tally_to

from assistant.checks import posting_rules
from assistant.checks.non_player_votes import check_non_player_votes
from assistant.count.tally import count
from assistant.count.unlisted import accepted_aliases, alias_proposals
from assistant.game import Game
from assistant.names import NameMatcher, Slot
from assistant.rulesets import find_ruleset
from assistant.vote_codes import VoteCode


def _vote(game_id: str, post: int, voter: str):  # noqa: ANN202
    t = tally_to(game_id, post)
    return next(v for v in t.votes if v.post_id == post and v.voter == voter
                and v.action == "vote")


def test_two_neighbouring_letters_swapped_after_the_word_vote() -> None:
    # Game 1410, post 826: CooLDoG writes "vote: rolf" with roflcopter playing.
    vote = _vote("1410", 826, "CooLDoG")
    assert (vote.target, vote.code) == ("roflcopter", VoteCode.COUNTED)
    assert "'rolf' read as roflcopter (roflcopter with two letters swapped)" in vote.reason
    # The same slip that fits two players is refused as ambiguous, never given to one.
    both = NameMatcher([Slot("Abnrom"), Slot("Banrmo")]).match_vote("Banrom")
    assert (both.how, both.candidates) == ("ambiguous", ("Abnrom", "Banrmo"))
    # A bare bold name is never read this way: only a vote says it is a vote.
    assert not NameMatcher([Slot("roflcopter")]).match("rolf", bare=True).ok


def test_a_names_words_in_another_order() -> None:
    # Game 1105, post 597: Rain writes "Vote: Lamora Locke" with Locke Lamora playing.
    vote = _vote("1105", 597, "Rain")
    assert vote.target == "Locke Lamora"
    assert "the words of Locke Lamora in another order" in vote.reason


def test_a_first_word_that_is_a_word_of_one_name() -> None:
    # Game 1689, post 1833: lalaladucks writes "VOTE: PAPA SCUMZEE" (Papa Zito playing).
    vote = _vote("1689", 1833, "lalaladucks")
    assert vote.target == "Papa Zito"
    assert "a word of Papa Zito, the leading word" in vote.reason


def test_a_broken_bbcode_tag_after_the_name() -> None:
    # Game 1410, post 646: CooLDoG's bold "vote: rest/b]" ([/b] mistyped) for RestFermata.
    vote = _vote("1410", 646, "CooLDoG")
    assert vote.target == "RestFermata" and vote.code == VoteCode.COUNTED


def test_vote_to_no_lynch() -> None:
    # Game 1494, post 606: Lord Mhork writes "Vote to No Lynch".
    vote = _vote("1494", 606, "Lord Mhork")
    assert (vote.target, vote.code) == ("No Lynch", VoteCode.COUNTED)


def _day(game_id: str, post: int) -> tuple[dict, Game, list]:  # type: ignore[type-arg]
    doc, posts = archive(game_id)
    day = day_of(game_id, post)
    game = Game.from_parts(f"ms-{game_id}", [list(s) for s in day["slots"]],
                           gms=doc["moderators"], ruleset="mafiascum")
    return day, game, [p for p in posts if day["start_post"] <= p.post_id <= post]


def test_votes_from_an_account_not_in_the_players_file_are_alerted_with_the_question() -> None:
    # Game 1117, Day 4: LynchMePls posts as "LimMePls" (post 634: Unvote, Vote: Fugitive);
    # sapovirus and LynchMePls have not posted. The vote is refused, never in silence.
    day, game, posts = _day("1117", 653)
    t = tally_to("1117", 653)
    refused = [v for v in t.votes if v.voter == "LimMePls"]
    assert refused and all(v.code == VoteCode.NOT_A_PLAYER for v in refused)
    [prop] = alias_proposals(t.votes, posts, game)
    assert (prop.account, prop.player) == ("LimMePls", "LynchMePls")
    assert set(prop.silent) == {"sapovirus", "LynchMePls"}
    assert (634, "Vote: Fugitive") in prop.votes
    [alert] = check_non_player_votes(t, posts, game, posting_rules(find_ruleset("mafiascum")))
    assert alert.kind == "non_player_vote" and alert.player == "LimMePls"
    assert alert.message.endswith("`assistant game alias ms-1117 LynchMePls LimMePls`")
    assert "Players who have not posted today: sapovirus, LynchMePls." in alert.message
    # Two accounts proposed as one player: the GM's call, none is accepted for them.
    assert accepted_aliases([prop, prop.__class__("Other", (), prop.silent, "LynchMePls")]) == {}


def _replay(capsys, tmp_path: Path, game_id: str, day_no: int, *more: str):  # noqa: ANN202
    doc, _ = archive(game_id)
    day = next(d for d in doc["days"] if d["day"] == day_no)
    gms = [x for gm in doc["moderators"] for x in ("--gm", gm)]
    return run_cli(
        capsys, "--data-dir", str(tmp_path / "data"), "replay",
        str(ARCHIVE / game_id / "posts.jsonl.gz"), "--ruleset", "mafiascum",
        "--players", str(_players_file(tmp_path, day)), *gms,
        "--from-post", str(day["start_post"]), *more,
    )  # fmt: skip


def test_replay_shows_the_question_and_gm_facts_accepts_it(tmp_path: Path, capsys) -> None:
    # Game 1117, Day 5 to the last player's post (680): LimMePls's "Vote: Sapo" (post 657)
    # is the fourth vote on sapovirus, the day's lynch, once the GM says who LimMePls is.
    code, out, err = _replay(capsys, tmp_path, "1117", 5, "--to-post", "680", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["outcome"]["decided_by"] == "not_yet"
    [q] = doc["non_player_votes"]
    assert (q["account"], q["player"], q["accepted"]) == ("LimMePls", "LynchMePls", False)
    code, out, _ = _replay(capsys, tmp_path, "1117", 5, "--to-post", "680", "--why")
    assert "Note: LimMePls is not in the players file and voted" in out
    assert "add `| LimMePls` to LynchMePls's line of the players file" in out
    code, out, _ = _replay(capsys, tmp_path, "1117", 5, "--to-post", "680", "--gm-facts",
                           "--json")
    doc = json.loads(out)
    assert doc["outcome"]["decided_by"] == "majority"
    assert doc["outcome"]["lynched"] == ["sapovirus"]
    assert doc["non_player_votes"][0]["accepted"] is True


def test_an_account_that_says_whom_it_plays_is_proposed_as_that_player(tmp_path: Path,
                                                                       capsys) -> None:
    # Game 1530, Day 1: EspeciallyTheLies, one head of the Taylor hydra, posts "(One half
    # of the Taylor hydra here)" (post 244), then unvotes (363) and votes cooldog (396): the
    # GM's count lists Taylor on CooLDoG, the seventh vote of Day 1's lynch.
    day, game, posts = _day("1530", 402)
    t = tally_to("1530", 402)
    [prop] = alias_proposals(t.votes, posts, game)
    assert (prop.account, prop.player) == ("EspeciallyTheLies", "Taylor")
    assert prop.how == "it wrote '(One half of the Taylor hydra here)' in post 244"
    assert "Is EspeciallyTheLies the player listed as Taylor" in prop.question("g")
    code, out, _ = _replay(capsys, tmp_path, "1530", 1, "--to-post", "402", "--json",
                           "--gm-facts")
    doc = json.loads(out)
    assert doc["outcome"]["lynched"] == ["CooLDoG"]
    [q] = doc["non_player_votes"]
    assert (q["account"], q["player"], q["accepted"]) == ("EspeciallyTheLies", "Taylor", True)
    # Words about someone else are no answer: "I believe it's Titus" names no one it is.
    game2 = Game.from_parts("g", [["Titus"], ["Bob"]], gms=["Mod"])
    post = posts[0].__class__(**{**posts[0].to_dict(), "author": "Wake1",
                                 "body_html": "I don't think it's Bob. I believe it's Titus."})
    assert alias_proposals([], [post], game2) == []


def test_replay_weight_of_a_doublevoter_dead_before_the_day_is_a_warning(tmp_path: Path,
                                                                         capsys) -> None:
    # Game 1908, Day 3: the doublevoter TwoFace died on an earlier day, so the day's
    # players file does not list him: the weight is said not to apply, and the day counts.
    code, out, err = _replay(capsys, tmp_path, "1908", 3, "--to-post", "2558",
                             "--weight", "TwoFace=2", "--json")
    assert code == 0
    assert "warning: --weight TwoFace=2: 'TwoFace' matches no player" in err
    doc = json.loads(out)
    assert doc["outcome"]["decided_by"] == "majority"
    assert doc["outcome"]["lynched"] == ["BigYoshiFan"]
    # A living doublevoter's vote counts 2 (Day 1: TwoFace alive).
    code, out, _ = _replay(capsys, tmp_path, "1908", 1, "--to-post", "1961",
                           "--weight", "TwoFace=2", "--json", "--why")
    weights = {v["weight"] for v in json.loads(out)["votes"]
               if v["voter"] == "TwoFace" and v["accepted"] and v["target"]}
    assert weights == {2}
    code, _, err = _replay(capsys, tmp_path, "1908", 1, "--weight", "TwoFace")
    assert code != 0 and "write NAME=N" in err


def test_initials_in_capitals_over_the_start_of_another_name() -> None:
    # Game 1105, post 620: Empking writes "Vote: LL": Locke Lamora's initials in capitals,
    # and the start of LlamaGod (whose initials are LG): the GM's count lists Empking on
    # Locke Lamora, and so does the count (this vote brings Day 2 to its lynch).
    vote = _vote("1105", 620, "Empking")
    assert (vote.target, vote.code) == ("Locke Lamora", VoteCode.COUNTED)
    assert "'LL' read as Locke Lamora (initials of Locke Lamora, in capitals)" in vote.reason
    m = NameMatcher([Slot("Locke Lamora"), Slot("LlamaGod")])
    # Not in capitals, it is either: ambiguous, both named.
    assert m.match_vote("ll").how == "ambiguous"
    assert set(m.match_vote("ll").candidates) == {"Locke Lamora", "LlamaGod"}
    # A prefix that is no one's initials stays a prefix.
    assert m.match_vote("Llama").ok
    # Game 1782, post 54: "VOTE: FA" with FA_Q2 (a whole word FA) and Frozen Angel (FA's
    # initials, JohnnyFarrar's slot): still ambiguous (the GM read FA_Q2).
    fa = _vote("1782", 54, "Titus")
    assert fa.code == VoteCode.AMBIGUOUS_TARGET and fa.target is None


def _marks(game_id: str, post: int) -> list:  # type: ignore[type-arg]
    t = tally_to(game_id, post)
    return [v for v in t.votes if v.post_id == post]


def test_a_vote_tag_after_a_word_in_one_bold_line() -> None:
    # Game 1337, post 57: <b>Confirming [vote]VOTE: Milk[/vote]</b>, shown as one bold line
    # "Confirming VOTE: Milk" (before: no mark at all, the line not starting with "vote").
    [vote] = [v for v in _marks("1337", 57) if v.action == "vote"]
    # MormonCoffee posts it (IceGuy's slot); Milk is Junpei's slot. It confirms the vote
    # MormonCoffee cast before: read, and the same target.
    assert (vote.voter, vote.target, vote.code) == ("IceGuy", "Junpei", VoteCode.SAME_TARGET)


def test_a_vote_after_a_short_lead_in_one_bold_line() -> None:
    # Game 1805, post 1426: Eggman's bold "FoS: Dragon, Vote: MM4" (MM4: MarioManiac4,
    # whose slot NJAC now plays): the vote after "FoS: Dragon," counts.
    [vote] = [v for v in _marks("1805", 1426) if v.voter == "Eggman" and v.action == "vote"]
    assert vote.target == "NJAC" and vote.code == VoteCode.COUNTED
    assert "(initials of MarioManiac4)" in vote.reason


def test_running_bold_text_that_only_mentions_voting_is_no_vote() -> None:
    # Game 1221, post 343: bold 'then consider my catch-up post as being "blah blah blah,
    # vote: timeeater."' (a quote, a long lead); game 1782, post 19: bold "pre-vote smith";
    # game 1433, post 563: bold "FOS buddy (Marangal/Yoshi), vote: townie." (no player):
    # neither a vote nor an alert.
    for game_id, post, said in (("1221", 343, "timeeater"), ("1782", 19, "pre-vote"),
                                ("1433", 563, "townie")):
        assert not [v for v in _marks(game_id, post) if said in v.text.lower() and (
            v.accepted or v.code in (VoteCode.UNKNOWN_TARGET, VoteCode.AMBIGUOUS_TARGET))]


def test_a_double_voters_weight_after_the_name_in_the_gms_count() -> None:
    # No dev game's GM writes it; the shape GMs of doublevoter games use, on game 1908's real
    # count line (post 61: "Gamma Emerald (4) [TwoFace, Ircher, MortFeld, Transcend]") with
    # its doublevoter TwoFace marked: "x2" or "(x2)" after the name is the vote's weight.
    from assistant.count.gm_counts import _count_line
    from assistant.count.votes import VoteRules

    m = NameMatcher([Slot(n) for n in ("Gamma Emerald", "TwoFace", "Ircher", "MortFeld",
                                       "Transcend", "Max2")])
    for line in ("Gamma Emerald (5) - TwoFace x2, Ircher, MortFeld, Transcend",
                 "Gamma Emerald (5): TwoFace (x2), Ircher, MortFeld, Transcend"):
        assert ("TwoFace", "Gamma Emerald") in _count_line(line, m, VoteRules())
    # A name ending in a digit keeps it.
    assert ("Max2", "Gamma Emerald") in _count_line("Gamma Emerald: Max2, Ircher", m, VoteRules())


# ---- names as the GMs of the dev games read them (each checked against the GM's next count)


def test_letters_inside_a_word_give_way_to_a_name_that_starts_with_them() -> None:
    # Game 1883, post 1059: "VOTE: Gin" with TheRealGin-N-Tonic (a word "Gin", Srceenplay's
    # slot) and MooginSoosy (PenguinPower's slot: "gin" inside a word); the GM counted
    # Srceenplay's slot. Game 1666, post 39: "VOTE: key" with Keybladewielder (Shinobi's
    # slot) and MonkeyMan576: the GM's count lists dragonspawn under Keybladewielder.
    gin = _vote("1883", 1059, "Realeo")
    assert (gin.target, gin.code) == ("Srceenplay", VoteCode.COUNTED)
    assert "'Gin' read as Srceenplay (a word of TheRealGin-N-Tonic)" in gin.reason
    assert _vote("1666", 39, "dragonspawn").target == "Shinobi"
    # Two names that both start with it stay ambiguous, and so do two inside words.
    assert NameMatcher([Slot("Ginny"), Slot("TheRealGin")]).match_vote("gin").how == "ambiguous"
    assert NameMatcher([Slot("Moogin"), Slot("Begins")]).match_vote("gin").how == "ambiguous"


def test_a_name_that_fits_the_voter_and_one_other_player_means_the_other() -> None:
    # Game 1735, post 351: RadiantCowbells writes "VOTE: Cow" with TheCow playing.
    vote = _vote("1735", 351, "RadiantCowbells")
    assert (vote.target, vote.code) == ("TheCow", VoteCode.COUNTED)
    assert "'Cow' read as TheCow (it could be RadiantCowbells, who cast it)" in vote.reason
    # Post 355: the same "VOTE: Cow" from Frozen Angel is still ambiguous (issue 9) ...
    other = _vote("1735", 355, "Frozen Angel")
    assert other.code == VoteCode.AMBIGUOUS_TARGET and other.target is None
    # ... unless RadiantCowbells were dead by then: a vote for the dead counts for nothing,
    # so a GM reads the living one.
    doc, posts = archive("1735")
    day = day_of("1735", 355)
    dead = Game.from_parts("ms-1735", [list(s) for s in day["slots"]], gms=doc["moderators"],
                           ruleset="mafiascum", inputs=[{"kind": "death", "data": {
                               "player": "RadiantCowbells", "how": "other", "at_post": 300}}])
    chosen = [p for p in posts if day["start_post"] <= p.post_id <= day["end_post"]]
    t = count(chosen, dead, find_ruleset("mafiascum"), at_post=355)
    vote = next(v for v in t.votes if v.post_id == 355)
    assert (vote.target, vote.code) == ("TheCow", VoteCode.COUNTED)
    assert "'Cow' read as TheCow (it could be RadiantCowbells, dead)" in vote.reason


def test_a_slot_named_by_a_player_who_was_or_is_in_it() -> None:
    # Game 1873, post 1080: "VOTE: Garmr's replacement"; game 1809, post 1847: "VOTE:
    # Wingback's replacement" (Wingback replaced in Nachomamma8's slot); game 1917, post
    # 1340: "VOTE: the Gamma replacement" (Gamma Emerald's slot, kraska77's now).
    assert _vote("1873", 1080, "ThinkBig").target == "Garmr"
    wing = _vote("1809", 1847, "MathBlade")
    assert (wing.target, wing.code) == ("Nachomamma8", VoteCode.COUNTED)
    assert "the slot 'Wingback' was in" in wing.reason
    assert _vote("1917", 1340, "SlingshotWaffles").target == "kraska77"


def test_a_short_form_that_keeps_the_names_digits() -> None:
    # Game 1444, post 790: "VOTE: Arc9" (ArcAngel9); game 1474, post 554: "VOTE: EPM18"
    # (evilpacman18). The GMs' counts list both so.
    arc = _vote("1444", 790, "Telo")
    assert (arc.target, arc.code) == ("ArcAngel9", VoteCode.COUNTED)
    assert "a short form of ArcAngel9 with its digits" in arc.reason
    assert _vote("1474", 554, "Titus").target == "evilpacman18"
    # Digits no player's name has read nothing.
    assert not NameMatcher([Slot("ArcAngel9")]).match_vote("Arc7").ok


def test_a_name_written_backwards() -> None:
    # Game 1850, post 763: "VOTE: jordan"; post 539: bold "vote xjordanx" (XnadrojX).
    vote = _vote("1850", 763, "MTD")
    assert (vote.target, vote.code) == ("XnadrojX", VoteCode.COUNTED)
    assert "'jordan' read as XnadrojX (XnadrojX written backwards)" in vote.reason
    assert _vote("1850", 539, "mykonian").target == "XnadrojX"


def test_initials_spelled_as_they_sound() -> None:
    # Game 1923, post 2940: Fykus writes "VOTE: teebs" for ThinkBig (T. B.), the vote that
    # brings Day 3 to its lynch.
    vote = _vote("1923", 2940, "Fykus")
    assert (vote.target, vote.code) == ("ThinkBig", VoteCode.COUNTED)
    assert "'teebs' read as ThinkBig (the initials of ThinkBig as they sound)" in vote.reason
    m = NameMatcher([Slot("John Doe"), Slot("Jim Dark"), Slot("EmJay")])
    assert m.match_vote("teebee").how == "unknown"  # nobody's initials are T-B
    assert m.match_vote("jaydee").how == "ambiguous"  # J-D: two players
    assert m.match_vote("emjay").slot == "EmJay"  # its own name first
