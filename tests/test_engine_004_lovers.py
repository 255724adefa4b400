"""DCTP (seed 004): lovers (Yumi's Amor, Lovey-Dovey, dying together, the mixed pair's win)
and friends (Sonoko's Friendship: her friend's abilities, her friend's murderer). Each test
quotes the sentence of ../shared/seeds/004_*.txt it checks.
"""

from __future__ import annotations

import pytest

from assistant.engine.orders import check_order, parse_order
from assistant.engine.resolver import PhaseResult
from assistant.engine.state import GameState
from assistant.engine.vote_effects import modifiers_for_day
from assistant.engine.win import check_win
from assistant.errors import IllegalOrderError
from tests.dctp_support import dead, game, phase, pms, quote

PLAYERS = ("Yumi=yumi", "A=camel", "B=jodie", "G=gin", "Boss=anokata", "DB=ayumi", "R=ran",
           "Doc=araide")  # fmt: skip


def lovers_of(seed: int) -> tuple[GameState, PhaseResult]:
    s = game(*PLAYERS, seed=seed)
    r = phase(s, "night", 1, "Yumi: amor A, B, G, DB")
    return s, r


def test_amor_draws_two_of_four_never_a_detective_boy():
    quote("Chooses four players, two of which will become lovers.")
    quote("Best Friends and Detective Boys may not be lovers.")
    quote("Lovers know one another's actual identities.")
    pairs = set()
    for seed in range(12):
        _s, r = lovers_of(seed)
        assert len(r.state.lovers) == 1
        pair = tuple(sorted(r.state.lovers[0]))
        assert "DB" not in pair and "Yumi" not in pair
        pairs.add(pair)
        x, y = pair
        assert pms(r, x) == [f"You and {y} ({r.state.role_title(y)}) are lovers."]
    assert len(pairs) > 1  # drawn, not the first two named


def test_when_one_lover_dies_the_other_dies_too_healed_or_not():
    quote("When one lover dies, the other commits suicide that same phase. No amount of healing "
          "or protecting may prevent the death of a suicidal lover.")
    seed = next(n for n in range(40) if set(lovers_of(n)[1].state.lovers[0]) == {"A", "B"})
    _s, r = lovers_of(seed)
    r2 = phase(r.state, "night", 2, "Black Org: kill A by G", "Doc: heal B")
    assert sorted(dead(r2)) == ["A", "B"]


def test_lovey_dovey_protects_the_lover_from_kill_and_aptx_and_only_the_lover():
    quote("This protect will hinder lynching, killing, sniping and even APTX")
    quote("The lover can protect the other lover during day or night. Can't use it on anyone "
          "else besides his/her lover")
    seed = next(n for n in range(40) if set(lovers_of(n)[1].state.lovers[0]) == {"A", "B"})
    _s, r = lovers_of(seed)
    s = r.state
    assert dead(phase(s, "night", 2, "Black Org: kill A by G", "B: lovey-dovey A")) == []
    assert dead(phase(s, "night", 2, "Black Org: kill A by G")) == ["A", "B"]
    d = phase(s, "day", 1, "B: lovey-dovey A", "G: aptx A as Camel")
    assert dead(d) == []
    # By day it stops the lynch: the count's modifiers make A unlynchable that day.
    mods = {m["player"]: m for m in modifiers_for_day(d.state, 1)}
    assert mods["A"]["lynch_immune"] is True
    with pytest.raises(IllegalOrderError, match="only for B's lover"):
        check_order(parse_order("B: lovey-dovey Doc", s, phase="night", number=2), s)


def test_a_town_and_black_org_pair_wins_alone_by_killing_all_others():
    quote("A town/Black Org pair does not win with either the town or the Black Org. To win as "
          "such a tandem, they must kill all others.")
    seed = next(n for n in range(40) if set(lovers_of(n)[1].state.lovers[0]) == {"A", "G"})
    _s, r = lovers_of(seed)
    s = r.state
    for name in ("Yumi", "B", "Boss", "DB", "R", "Doc"):
        s.players[name].alive = False
    w = check_win(s)
    assert w is not None and w.winner == "lovers" and set(w.players) == {"A", "G"}


def test_the_leaders_order_to_kill_a_lover_kills_the_murderer_too():
    quote("If the leader orders a lover to kill their lover, it will happen unless the lover "
          "doing the attack is discombobulated")
    quote("If the kill does go through, the murderer doing the kill suicide.")
    seed = next(n for n in range(40) if set(lovers_of(n)[1].state.lovers[0]) == {"A", "G"})
    _s, r = lovers_of(seed)
    assert sorted(dead(phase(r.state, "night", 2, "Black Org: kill A by G"))) == ["A", "G"]


# ---- Friendship -------------------------------------------------------------------------

FRIENDS = ("Son=sonoko", "R=ran", "Meg=megure", "G=gin", "V=vermouth", "DB=genta", "Boss=anokata",
           "Ch=chianti", "X=camel")  # fmt: skip


def befriended(seed: int, *listed: str) -> PhaseResult:
    s = game(*FRIENDS, seed=seed)
    return phase(s, "night", 1, f"Son: friendship {', '.join(listed)}")


def test_friendship_befriends_one_of_the_list_never_black_org_but_vermouth():
    quote("Sonoko names a list of players he would like to befriend (GM determines the exact "
          "amount of players to list).")
    quote("Detective Boys, Lovers, and Black Org members apart from Vermouth cannot be "
          "befriended.")
    friends = set()
    for seed in range(12):
        r = befriended(seed, "R", "G", "V", "DB", "Meg")
        friend = next(s[len("friend:"):] for s in r.state.players["Son"].statuses
                      if s.startswith("friend:"))
        friends.add(friend)
        assert pms(r, "Son") == [f"You and {friend} ({r.state.role_title(friend)}) are friends."]
        assert pms(r, friend) == ["You and Son (Sonoko, Best Friend) are friends."]
    assert friends == {"R", "V", "Meg"}


def test_sonoko_uses_her_friends_abilities_but_not_a_polices_arrest():
    quote("Sonoko can use the same abilities as her friend, so long as her friend is still "
          "alive.")
    quote("If she befriends a police officer, she will not be able to detain, arrest, or house "
          "search.")
    r = befriended(0, "Meg")
    s = r.state
    n2 = phase(s, "night", 2, "Black Org: kill X by G", "Son: investigate G kills X")
    assert pms(n2, "Son") == ['"G kills X" - True']
    with pytest.raises(Exception, match="has no ability 'arrest'"):
        parse_order("Son: arrest G", s, phase="day", number=1)
    s.players["Meg"].alive = False
    with pytest.raises(Exception, match="has no ability 'investigate'"):
        parse_order("Son: investigate G kills X", s, phase="night", number=2)


def test_sonoko_learns_who_killed_her_friend_unless_sniped():
    quote("When Sonoko's friend dies as a result of being killed by the Black Org, she will "
          "learn the identity of the attacker. She will not learn the identity if her friend "
          "happens to be sniped or poisoned.")
    s = befriended(0, "R").state
    r = phase(s, "night", 2, "Black Org: kill R by G")
    assert pms(r, "Son") == ["Your friend R was killed by G."]
    r = phase(s, "night", 2, "Black Org: kill R by Ch")
    assert dead(r) == ["R"] and pms(r, "Son") == []
