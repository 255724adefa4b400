"""DCTP Live Mini Mafia (seed 004), what the README left to the GM (second group): the
killer's gender a stake-out learns, which APTX goes first, Kujou's Voice of Accusation, the
Detective Boys' one Identify, and which votes are counted and shown. Each test quotes the
sentence of ../shared/seeds/004_22384bb39b2a9dee.txt it checks.
"""

from __future__ import annotations

from assistant.engine.setup import PlayerSetup, Setup
from assistant.engine.state import GameState
from tests.test_engine_004 import RULES, dead, game, phase, pms, quote


def disguised(*players: str) -> GameState:
    """Like `game`, with "Conia=vermouth/ran" for a player wearing a Prep disguise."""
    slots = []
    for spec in players:
        name, _, role = spec.partition("=")
        role, _, worn = role.partition("/")
        slots.append(PlayerSetup(name, RULES.role(role).sides[0], role, disguise=worn or None))
    return GameState.from_setup(RULES, Setup(tuple(slots), 5, {}))


# ---- Stake-out: the killer's gender ------------------------------------------------------


def test_a_stake_out_on_the_victim_learns_the_killers_gender_and_nothing_else():
    quote("If the target was killed, then you won't get any results back. If the target is "
          "killed the night you stake them out, you learn from the GM the gender of the killer.")
    quote("Stakeout has been made more useful. If a role stakes out the victim of a night "
          "killing, the role doing the staking out learns the gender of the killer.")
    s = game("Gin=gin", "Boss=anokata", "Kleene=agasa", "Takagi=takagi", "Doc=araide",
             "Chi=chianti")
    r = phase(s, "night", 1, "Black Org: kill Kleene by Gin", "Takagi: stake-out Kleene")
    assert dead(r) == ["Kleene"]
    assert pms(r, "Takagi") == (
        "Stake-out: Kleene was killed tonight. Gender of the killer: Male."
    )
    # A woman kills: the answer follows the killer's card (Chianti: "Panties: All females").
    r = phase(s, "night", 1, "Black Org: kill Kleene by Chi", "Takagi: stake-out Kleene")
    assert pms(r, "Takagi") == (
        "Stake-out: Kleene was killed tonight. Gender of the killer: Female."
    )
    # A target who lives gets the usual list, no gender.
    r = phase(s, "night", 1, "Black Org: kill Kleene by Gin", "Doc: heal Kleene",
              "Takagi: stake-out Kleene")
    assert dead(r) == []
    assert pms(r, "Takagi") == "Stake-out: Kleene was attacked and healed/First Aided."


def test_a_disguised_killer_comes_back_with_the_gender_of_the_disguise():
    quote("This does not circumvent disguises (Vermouth's gender will come back as that of her "
          "disguise, etc).")
    quote("This does not circumvent disguises, however (so Vermouth/Irish will come back with "
          "the gender of their disguises and not necessarily their actual ones).")
    s = disguised("Conia=vermouth/shinichi", "Boss=anokata", "Kleene=agasa", "Jodie=jodie")
    r = phase(s, "night", 1, "Black Org: kill Kleene by Conia", "Jodie: stake-out Kleene")
    assert pms(r, "Jodie") == "Stake-out: Kleene was killed tonight. Gender of the killer: Male."
    # Undisguised, Vermouth is a woman.
    s = disguised("Conia=vermouth", "Boss=anokata", "Kleene=agasa", "Jodie=jodie")
    r = phase(s, "night", 1, "Black Org: kill Kleene by Conia", "Jodie: stake-out Kleene")
    assert pms(r, "Jodie") == (
        "Stake-out: Kleene was killed tonight. Gender of the killer: Female."
    )


def test_anokata_killing_gives_a_random_gender_the_same_to_every_stake_out_that_night():
    quote("Anokata is unobservable. If Anokata is observed, the action will give out a random "
          "result each time. If Anokata get's observed by more than one observer, then all "
          "observers will get the same result on the same phase.")
    s = game("Boss=anokata", "Gin=gin", "Kleene=agasa", "Jodie=jodie", "Camel=camel")
    seen = set()
    for n in range(1, 7):
        r = phase(s, "night", n, "Black Org: kill Kleene by Boss", "Jodie: stake-out Kleene",
                  "Camel: stake-out Kleene")
        assert pms(r, "Jodie") == pms(r, "Camel")
        seen.add(pms(r, "Jodie").rsplit(": ", 1)[1])
    assert seen == {"Male.", "Female."}


def test_a_stake_out_on_a_player_who_died_of_no_kill_gets_nothing():
    quote("If the target was killed, then you won't get any results back.")
    s = game("Gin=gin", "Boss=anokata", "Lover=ran", "Other=agasa", "Takagi=takagi")
    s.lovers.append(("Lover", "Other"))  # as Yumi's Amor leaves them
    r = phase(s, "night", 2, "Black Org: kill Other by Gin", "Takagi: stake-out Lover")
    assert sorted(dead(r)) == ["Lover", "Other"]  # the lover's suicide is no killing
    assert pms(r, "Takagi") == ""
