"""Nicknames the thread gives a player before the vote (nicknames.py, [votes]
thread_nicknames), on real archived mafiascum games (../shared/mafiascum-dev). No seed
speaks of nicknames; a GM reads "CO=cloudocean" in the thread and counts "VOTE: CO" for
Cloudocean from then on, and so does the count."""

from __future__ import annotations

import dataclasses

from conftest import ROOT
from test_votes_real_archives import archive, day_game, day_of, tally_to

from assistant.count.nicknames import Nicknames
from assistant.count.tally import count
from assistant.count.votes import VoteRules
from assistant.rulesets import find_ruleset
from assistant.vote_codes import VoteCode


def _vote(game_id: str, post: int, text: str | None = None):  # type: ignore[no-untyped-def]
    t = tally_to(game_id, post)
    return t, next(v for v in t.votes if v.post_id == post and v.action == "vote"
                   and (text is None or v.text == text))


def test_a_nickname_a_player_defines_is_read_in_later_votes() -> None:
    # Game 1170, post 831 (SleepyKrew): "CO=cloudocean", answering "what is a CO case?".
    # Post 898 (Espeonage): "Unvote, Vote: CO" - Cloudocean, though "CO" starts CooLskins'
    # name; the GM lynched Cloudocean on it at the day's end.
    t, vote = _vote("1170", 898)
    assert vote.target == "Cloudocean" and vote.code == VoteCode.COUNTED
    assert ("'CO' read as Cloudocean (a nickname the thread gave Cloudocean: "
            "'CO=cloudocean' in post 831)") in vote.reason
    day = day_of("1170", 898)
    t = tally_to("1170", day["end_post"])
    assert t.outcome.by_majority and t.outcome.lynched == ("Cloudocean",)


def test_without_the_definition_the_prefix_reads_it() -> None:
    # The same day without post 831: "CO" is only a prefix of CooLskins.
    _, posts = archive("1170")
    day = day_of("1170", 898)
    chosen = [p for p in posts
              if day["start_post"] <= p.post_id <= day["end_post"] and p.post_id != 831]
    t = count(chosen, day_game("1170", day), find_ruleset("mafiascum"), at_post=898)
    vote = next(v for v in t.votes if v.post_id == 898 and v.action == "vote")
    assert vote.target == "CooLskins"


def test_a_nickname_in_brackets_after_the_name_voted() -> None:
    # Game 1655, post 2017 (House): "VOTE: tn(Zipcode)"; post 2168, House again: "VOTE:
    # zipcode" - tn5421. With it tn5421 reaches the majority the GM lynched on (6 of 11).
    _, vote = _vote("1655", 2168)
    assert vote.target == "tn5421"
    assert ("a nickname the thread gave tn5421: 'VOTE: tn(Zipcode)' in post 2017"
            in vote.reason)
    t = tally_to("1655", 2487)
    assert t.outcome.by_majority and t.outcome.lynched == ("tn5421",)


def test_the_ruleset_can_turn_nicknames_off() -> None:
    rules = find_ruleset("mafiascum")
    off = dataclasses.replace(
        rules, votes=dataclasses.replace(rules.votes, thread_nicknames=False)
    )
    _, posts = archive("1655")
    day = day_of("1655", 2168)
    chosen = [p for p in posts if day["start_post"] <= p.post_id <= day["end_post"]]
    t = count(chosen, day_game("1655", day), off, at_post=2168)
    vote = next(v for v in t.votes if v.post_id == 2168 and v.action == "vote")
    assert vote.target is None and vote.code == VoteCode.UNKNOWN_TARGET


def _learned(game_id: str, post: int) -> dict[str, str]:
    """What one real post teaches, with its day's players."""
    _, posts = archive(game_id)
    body = next(p for p in posts if p.post_id == post).body_html
    game = day_game(game_id, day_of(game_id, post))
    rules = VoteRules.from_ruleset(find_ruleset("mafiascum"))
    nicks = Nicknames()
    nicks.learn_from_post(body, post, game.matcher(rules.close_spelling), rules)
    return {k: n.slot for k, n in nicks.known.items()}


def test_reads_and_corrections_are_no_nicknames() -> None:
    assert _learned("1170", 831) == {"co": "Cloudocean"}
    # Game 1337, post 107: "Scum = Sensfan" - a read, not a name.
    assert _learned("1337", 107) == {}
    # Game 1674, post 879: "she = Sakura Hana." - a pronoun.
    assert _learned("1674", 879) == {}
    # Game 1701, post 746: a list of reads, "KS = town", "Banakai = scum", ...
    assert _learned("1701", 746) == {}
    # Game 1591, post 1146: "Sorry, Reinoe = Skrew" - a correction, not a line that is only
    # a definition; and "Reinoe = Skrew" alone teaches nothing either: Skrew abbreviates
    # SleepyKrew, another player of that day.
    assert _learned("1591", 1146) == {}
    game = day_game("1591", day_of("1591", 1146))
    rules = VoteRules.from_ruleset(find_ruleset("mafiascum"))
    nicks = Nicknames()
    nicks.learn_from_post("<p>Reinoe = Skrew</p>", 1146, game.matcher(rules.close_spelling), rules)
    assert nicks.known == {}
    # Game 1805, post 1004: "VOTE: Smithereens (again)" - a comment in brackets.
    _, vote = _vote("1805", 1004)
    assert "nickname" not in vote.reason
    day = day_of("1805", 1004)
    t = tally_to("1805", day["end_post"])
    assert not any("a nickname the thread gave" in v.reason for v in t.votes)


def test_a_nickname_given_two_players_is_read_for_neither() -> None:
    # Game 1170's real post 831 gives "CO" to Cloudocean; a second definition giving it to
    # Kalofer makes it no one's.
    _, posts = archive("1170")
    body = next(p for p in posts if p.post_id == 831).body_html
    game = day_game("1170", day_of("1170", 831))
    rules = VoteRules.from_ruleset(find_ruleset("mafiascum"))
    m = game.matcher(rules.close_spelling)
    nicks = Nicknames()
    nicks.learn_from_post(body, 831, m, rules)
    assert nicks.read("CO", m) is not None
    nicks.learn_from_post("<p>CO = Kalofer</p>", 840, m, rules)
    assert nicks.read("CO", m) is None
    nicks.learn_from_post(body, 850, m, rules)
    assert nicks.read("CO", m) is None  # refused for good


def test_every_bundled_ruleset_states_whether_thread_nicknames_are_read() -> None:
    for path in sorted((ROOT / "rulesets").glob("*.toml")):
        text = path.read_text(encoding="utf-8")
        assert "\nthread_nicknames = " in text, f"{path.name} does not state it"
        assert find_ruleset(str(path)).votes.thread_nicknames is True, path.name


def test_replay_why_says_which_post_gave_the_nickname(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    # `assistant replay ... --why` of game 1170, day 2, as a GM would run it.
    from test_votes_real_archives import _replay

    doc = _replay(capsys, "1170", 2, tmp_path, "--why", "--forum-tz", "UTC")
    vote = next(v for v in doc["votes"] if v["post"] == 898 and v["action"] == "vote")
    assert vote["target"] == "Cloudocean"
    assert "a nickname the thread gave Cloudocean: 'CO=cloudocean' in post 831" in vote["reason"]
    assert doc["outcome"]["lynched"] == ["Cloudocean"]
