"""DCTP (seed 004): the Explosive Vest, the seed's experimental replacement of the night's kill.
Strapped by night, announced at dawn, exploding at the day's end before anything else unless a
police officer defuses it. Each test quotes the sentence of ../shared/seeds/004_*.txt it checks.
"""

from __future__ import annotations

from assistant.engine.resolver import PhaseResult
from assistant.engine.state import wear_disguise
from tests.dctp_support import RULES, dead, game, phase, pms, quote

PLAYERS = ("G=gin", "Boss=anokata", "Shin=shinichi", "Kleene=megure", "Parkur=satou",
           "Doc=araide", "X=camel")  # fmt: skip


def strapped() -> PhaseResult:
    return phase(game(*PLAYERS), "night", 1, "Black Org: vest Shin by G", "Shin: interrogate G")


def test_the_vest_is_announced_and_explodes_at_the_end_of_the_day():
    quote("At the onset of the following day, the GM announces that this player has been "
          "strapped with a bomb and will die at the end of the phase if it isn't disarmed.")
    quote("The strapping of the bomb comes after all other actions in a phase, meaning even the "
          "target's usual actions will go through without failing.")
    n1 = strapped()
    assert dead(n1) == []
    assert n1.public == ("Shin has been strapped with a bomb! It explodes at the end of the day "
                         "unless it is disarmed.",)
    assert pms(n1, "Shin") == ["Interrogation of G: BO"]
    quote("The bomb explosion takes place before all other day actions, including any arrests, "
          "the lynching itself, and poisonings.")
    d1 = phase(n1.state, "day", 1, "Parkur: arrest X")
    assert dead(d1) == ["Shin"]
    assert d1.public[0] == "The bomb strapped to Shin exploded."


def test_a_police_officer_defuses_it_and_the_planter_learns_his_name():
    quote('When a police officer successfully defuses the bomb, they are given the generic '
          'notice of: "The bomb was successfully defused."')
    quote('if Kleene was the defuser to be reported, the notice is given in the form of: '
          '"Kleene was seen disarming your bomb."')
    quote("That name is decided by the following order: Megure, Shiratori, Satou, Takagi, Chiba, "
          "Nakamori, Yumi, Yamato, Uehara.")
    d1 = phase(strapped().state, "day", 1, "Parkur: disarm Shin", "Kleene: defuse Shin")
    assert dead(d1) == []
    assert pms(d1, "Kleene") == pms(d1, "Parkur") == ["The bomb was successfully defused."]
    assert pms(d1, "G") == ["Kleene was seen disarming your bomb."]


def test_a_black_org_defuser_in_disguise_is_the_name_given():
    quote('For example, if Yuriko (Vermouth-Takagi) and Parkur (Satou) both send in the disarm '
          'action, the planter (even if it was Yuriko) is told: "Yuriko was seen disarming your '
          'bomb."')
    s = game("Yuriko=vermouth", "Parkur=satou", "Shin=shinichi", "Boss=anokata", "X=camel")
    wear_disguise(RULES, s.players["Yuriko"], "takagi")
    n1 = phase(s, "night", 1, "Black Org: vest Shin by Yuriko")
    d1 = phase(n1.state, "day", 1, "Parkur: disarm Shin", "Yuriko: disarm Shin")
    assert dead(d1) == []
    assert pms(d1, "Yuriko") == ["The bomb was successfully defused.",
                                 "Yuriko was seen disarming your bomb."]


def test_the_vest_once_a_game_only_if_planted():
    quote("The vest may only be used once per game. The vest is only considered used if the "
          "plant is successful.")
    quote("If the planting doesn't take place (be it by tricking or the like), the vest is "
          "considered unused and may be planted next night.")
    s = game(*PLAYERS)
    n1 = phase(s, "night", 1, "Black Org: vest X by G", "Doc: heal X")
    assert n1.public == () and "vest is not used" in " ".join(n1.log_lines())
    n2 = phase(phase(n1.state, "day", 1).state, "night", 2, "Black Org: vest X by G")
    assert n2.public[0].startswith("X has been strapped")
    n3 = phase(phase(n2.state, "day", 2).state, "night", 3, "Black Org: vest Shin by G")
    assert n3.public == () and "have no vest left" in " ".join(n3.log_lines())


def test_an_arrest_of_a_strapped_player_never_takes_place():
    quote("If someone with the vest on is also set to be arrested for a crime, they would only "
          "end up arrested if the bomb was defused in time. Otherwise, the arrest would never "
          "take place and they would die as a result of the explosion instead. The police "
          "officer would not be suspended either way")
    s = game(*PLAYERS)
    n1 = phase(s, "night", 1, "Black Org: kill X by G")
    d1 = phase(n1.state, "day", 1, "Parkur: arrest G for killing X on Night 1")
    assert "arrested" in d1.state.players["G"].statuses  # the arrest is valid
    n2 = phase(n1.state, "night", 2, "Black Org: vest G by Boss")
    d2 = phase(n2.state, "day", 2, "Parkur: arrest G for killing X on Night 1")
    assert dead(d2) == ["G"]
    assert d2.public == ("The bomb strapped to G exploded.",)  # no suspension either
    assert not any(s.startswith("suspended") for s in d2.state.players["Parkur"].statuses)


def test_an_officer_cannot_defuse_his_own_bomb():
    quote("Police officers cannot defuse a bomb attached to themselves.")
    s = phase(game(*PLAYERS), "night", 1, "Black Org: vest Kleene by G").state
    d1 = phase(s, "day", 1, "Kleene: disarm Kleene")
    assert dead(d1) == ["Kleene"]
