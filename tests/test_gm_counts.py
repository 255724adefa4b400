"""Names only the thread explains, learned from the GM's own vote counts (gm_counts.py), on
real archived mafiascum games (../shared/mafiascum-dev): "VOTE: Pods McQuill" for pod
person, "VOTE: pass" for No Lynch, "FF" for Formerfish where Flavor Leaf fits too. A count as of a
post knows only the GM counts made by then; a ruleset can turn the reading off."""

from __future__ import annotations

import dataclasses

from test_votes_real_archives import archive, day_game, day_of, tally_to

from assistant.count.gm_counts import read_counts, taught_names
from assistant.count.tally import count
from assistant.rulesets import find_ruleset
from assistant.vote_codes import VoteCode


def _vote(game_id: str, at: int, post: int, voter: str):  # noqa: ANN202
    t = tally_to(game_id, at)
    return next(v for v in t.votes if v.post_id == post and v.voter == voter)


def _taught(game_id: str, at: int, post: int, voter: str):  # noqa: ANN202
    """The vote `voter` cast in `post` as a GM count read it: counted from that count's post."""
    t = tally_to(game_id, at)
    return next(v for v in t.votes if v.voter == voter and f"the vote of post {post}" in v.reason)


def test_a_nickname_is_read_as_the_gms_count_reads_it_from_that_count_on() -> None:
    # Game 1126, post 1077: Barry Allen writes [vote]Pods McQuill[/vote] (pod person, who
    # replaced Bill McQuill); the GM's vote count in post 1098 lists Barry Allen under pod
    # person.
    before = _vote("1126", 1097, 1077, "Barry Allen")
    assert (before.target, before.code) == (None, VoteCode.UNKNOWN_TARGET)
    # From the count's post on the vote stands on pod person; before it, it never did.
    assert _vote("1126", 1098, 1077, "Barry Allen").code == VoteCode.UNKNOWN_TARGET
    after = _taught("1126", 1098, 1077, "Barry Allen")
    assert (after.target, after.code, after.post_id) == ("pod person", VoteCode.COUNTED, 1098)
    assert after.reason == (
        "counted from post 1098: the vote of post 1077 ('Pods McQuill' read as pod person (as "
        "the GM's vote count in post 1098 reads it))"
    )
    assert not [w for w in tally_to("1126", 1097).wagons if "Barry Allen" in w.voters]


def test_the_gms_count_lines_are_read_in_the_shapes_gms_write_them() -> None:
    doc, posts = archive("1883")
    day = day_of("1883", 1497)
    game = day_game("1883", day)
    rules = find_ruleset("mafiascum").votes
    final = next(c for c in read_counts(posts, game, rules) if c.post_id == 1497)
    # "XnarojX (7/7) - massive, FormerFish, ..." (the GM's own misspelling of XnadrojX)
    assert ("massive", "XnadrojX") in final.votes and ("Formerfish", "XnadrojX") in final.votes
    # "Boonskiies (1/7)  - XnadrojX"
    assert ("XnadrojX", "Boonskiies") in final.votes
    # Game 1170, post 598: "(2) Kalofer- hiplop, LordChronos" (count first, dash after).
    doc, posts = archive("1170")
    game = day_game("1170", day_of("1170", 598))
    [c] = [c for c in read_counts(posts, game, rules) if c.post_id == 598]
    assert ("hiplop", "Kalofer") in c.votes and ("LordChronos", "Kalofer") in c.votes
    # Game 1805, post 1829: "NJAC [5]: Eggman / Titus / Infinity 324 / Shiro / ..."
    doc, posts = archive("1805")
    game = day_game("1805", day_of("1805", 1829))
    [c] = [c for c in read_counts(posts, game, rules) if c.post_id == 1829]
    assert ("Eggman", "NJAC") in c.votes and ("Infinity 324", "NJAC") in c.votes


def test_a_vote_for_two_players_is_given_to_the_one_the_gm_counted() -> None:
    # Game 1933, post 2716: "VOTE: FF" fits Flavor Leaf and Formerfish; the GM's count in
    # post 2755 lists iDanyboy under Formerfish.
    assert _vote("1933", 2754, 2716, "iDanyboy").code == VoteCode.AMBIGUOUS_TARGET
    assert _taught("1933", 2755, 2716, "iDanyboy").target == "Formerfish"


def test_no_lynch_in_the_threads_own_word() -> None:
    # Game 1701, post 1663: "VOTE: pass"; the GM's count in post 1672 lists Doctor Who
    # under No Lynch.
    vote = _taught("1701", 1672, 1663, "Doctor Who")
    assert (vote.target, vote.code) == ("No Lynch", VoteCode.COUNTED)
    assert "'pass' read as No Lynch, as the GM's vote count in post 1672 reads it" in vote.reason


def test_a_voter_the_gm_listed_twice_teaches_nothing() -> None:
    # Game 1720: lalaladucks votes "bubbleteeeeeeeeeeea" (post 692) for BlueBloodedToffee;
    # the GM's count in post 700 says so. The count in post 802 lists lalaladucks under
    # Wanderer-nl and again under "BlueBloodedToffee (L-6) All Alone, lalaladucks": a slip
    # of the GM's, which must not teach that the name means Wanderer-nl.
    doc, posts = archive("1720")
    day = day_of("1720", 802)
    game = day_game("1720", day)
    rules = find_ruleset("mafiascum").votes
    [c802] = [c for c in read_counts(posts, game, rules) if c.post_id == 802]
    assert ("All Alone", "BlueBloodedToffee") in c802.votes
    assert not [v for v in c802.votes if v[0] == "lalaladucks"]
    chosen = [p for p in posts if day["start_post"] <= p.post_id <= 802]
    taught = taught_names(chosen, game, rules, game.matcher(rules.close_spelling))
    assert taught["bubbleteeeeeeeeeeea"].target == "BlueBloodedToffee"
    assert taught["bubbleteeeeeeeeeeea"].post_id == 700


def test_a_ruleset_can_read_only_the_players_files_names() -> None:
    doc, posts = archive("1126")
    day = day_of("1126", 1098)
    rules = find_ruleset("mafiascum")
    off = dataclasses.replace(rules, votes=dataclasses.replace(rules.votes, gm_counts=False))
    chosen = [p for p in posts if day["start_post"] <= p.post_id <= day["end_post"]]
    t = count(chosen, day_game("1126", day), off, at_post=1098)
    vote = next(v for v in t.votes if v.post_id == 1077)
    assert vote.code == VoteCode.UNKNOWN_TARGET


def test_a_count_showing_the_vote_before_teaches_nothing() -> None:
    # Game 1733, Day 2: pistachi0n votes All Alone (post 565), then writes [vote]vote for
    # Davsto's lynch[/vote] (post 614, naming no player alone). The GM's count in post 625
    # still lists pistachi0n under All Alone: it shows the vote before, not a reading of
    # "vote for Davsto's lynch".
    doc, posts = archive("1733")
    day = day_of("1733", 625)
    game = day_game("1733", day)
    rules = find_ruleset("mafiascum").votes
    [c625] = [c for c in read_counts(posts, game, rules) if c.post_id == 625]
    assert ("pistachi0n", "All Alone") in c625.votes
    chosen = [p for p in posts if day["start_post"] <= p.post_id <= 630]
    taught = taught_names(chosen, game, rules, game.matcher(rules.close_spelling))
    assert "forDavstoslynch".lower() not in taught
    assert _vote("1733", 630, 614, "pistachi0n").code == VoteCode.UNKNOWN_TARGET


def test_every_bundled_ruleset_states_whether_the_gms_counts_are_read() -> None:
    from conftest import ROOT

    for path in sorted((ROOT / "rulesets").glob("*.toml")):
        text = path.read_text(encoding="utf-8")
        assert "\ngm_counts = " in text, f"{path.name} does not state [votes] gm_counts"
        assert find_ruleset(str(path)).votes.gm_counts is True


def test_the_counts_teachings_are_read_once_while_the_posts_before_them_stay(monkeypatch) -> None:
    """The daemon counts a game's day again at every poll: the GM counts' teachings are
    kept by a fingerprint of the posts up to the day's last count (gm_counts.TAUGHT_KEPT),
    so a day grown by posts after it is not read again; a post before it changed is."""
    from assistant.count import gm_counts

    walks: list[int] = []
    walk = gm_counts.taught_by_count

    def spy(posts, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        walks.append(len(posts))
        return walk(posts, *args, **kwargs)

    monkeypatch.setattr(gm_counts, "taught_by_count", spy)
    monkeypatch.setattr(gm_counts, "_TAUGHT", gm_counts.Lru(gm_counts.TAUGHT_KEPT))
    _, posts = archive("1126")
    day = day_of("1126", 1098)
    game, rules = day_game("1126", day), find_ruleset("mafiascum")
    chosen = [p for p in posts if day["start_post"] <= p.post_id <= 1098]
    later = [p for p in posts if 1098 < p.post_id <= day["end_post"]][:5]

    def barry(tally):  # noqa: ANN001, ANN202
        return [(v.target, v.code) for v in tally.votes
                if v.voter == "Barry Allen" and "the vote of post 1077" in v.reason]

    first = count(chosen, game, rules)
    assert barry(first) == [("pod person", VoteCode.COUNTED)] and len(walks) == 1
    grown = count(chosen + later, game, rules)  # five posts after the GM's count
    assert barry(grown) == barry(first) and len(walks) == 1
    # Post 1077 read otherwise (a vote on Hiraki): the counts are read again, and teach
    # nothing of it.
    changed = [dataclasses.replace(p, body_html=p.body_html.replace("Pods McQuill", "Hiraki"))
               if p.post_id == 1077 else p for p in chosen]
    assert barry(count(changed, game, rules)) == [] and len(walks) == 2
