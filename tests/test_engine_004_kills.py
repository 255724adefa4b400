"""DCTP (seed 004): sniping, APTX4869 and Sherry's Poison, the Health Charm; Scenario 3.

Each test quotes the sentence of ../shared/seeds/004_*.txt it checks.
"""

from __future__ import annotations

import pytest

from assistant.engine.orders import check_order, parse_order
from assistant.errors import IllegalOrderError
from tests.dctp_support import RULES, dead, game, phase, pms, quote

# ---- Snipe -----------------------------------------------------------------------------


def test_sniping_bypasses_heal_and_first_aid():
    quote("Sniping will bypass healing (Heal or First Aid) and kill the target, but not the "
          "healer.")
    quote("The BO Leader can therefore order Sniping if the killer is one of the roles with "
          "Snipe.")
    s = game("Ch=chianti", "Boss=anokata", "V=camel", "Doc=araide", "T=kobayashi")
    r = phase(s, "night", 1, "Black Org: kill V by Ch", "Doc: heal V", "T: first aid V")
    assert dead(r) == ["V"]
    assert pms(r, "Doc") == [] and pms(r, "T") == []
    # The same kill by the leader himself is a normal kill: the heal saves.
    r = phase(s, "night", 1, "Black Org: kill V by Boss", "Doc: heal V")
    assert dead(r) == [] and pms(r, "Doc") == ["You successfully healed V."]


def test_a_protector_dies_in_place_of_the_sniped_target():
    quote("In case the target is protected, the target doesn't die but the protector will be "
          "killed instead.")
    quote("If a protector protects a target from sniping, the target is made aware of the fact "
          "they were protected (despite the fact that the protector is dead).")
    s = game("Ch=chianti", "Boss=anokata", "V=camel", "Ran=ran", "X=jodie")
    r = phase(s, "night", 1, "Black Org: snipe V by Ch", "Ran: protect V")
    assert dead(r) == ["Ran"]
    assert pms(r, "V") == ["You were attacked tonight, but someone protected you."]


def test_bone_breaking_stops_the_snipe_and_injures_the_sniper():
    quote("This target will be protected completly in case he/she was about to get sniped. The "
          "sniper will fail his killing and will get injured as a result.")
    quote("If the sniper was injured, there will be a message that someone was injured")
    quote("The sniper can't use snipe anymore, but can still kill normally.")
    s = game("Ch=chianti", "Boss=anokata", "V=camel", "Akai=akai", "Doc=araide", "X=jodie")
    r = phase(s, "night", 1, "Black Org: kill V by Ch", "Akai: bone breaking V")
    assert dead(r) == []
    assert "injured" in r.state.players["Ch"].statuses
    assert r.public == ("Someone was injured.",)
    # Injured, Chianti's kill is a normal one: a heal now saves.
    r2 = phase(r.state, "night", 2, "Black Org: kill V by Ch", "Doc: heal V")
    assert dead(r2) == [] and pms(r2, "Doc") == ["You successfully healed V."]


def test_bone_breaking_does_not_stop_a_normal_kill():
    quote("If the target was killed in another way than sniping, then the target will die and "
          "Akai didn't injure anyone.")
    s = game("G=gin", "Boss=anokata", "V=camel", "Akai=akai", "X=jodie")
    r = phase(s, "night", 1, "Black Org: kill V by G", "Akai: bone breaking V")
    assert dead(r) == ["V"]
    assert "injured" not in r.state.players["G"].statuses


def test_a_discombobulated_sniper_does_nothing():
    quote("If the sniper gets discombobulated, nothing will happen. The target or the "
          "protectors won’t die and the watch won't get destroyed.")
    s = game("Ch=chianti", "Boss=anokata", "V=camel", "Ran=ran", "E=eisuke")
    r = phase(s, "night", 1, "Black Org: kill V by Ch", "Ran: protect V", "E: discombobulate Ch")
    assert dead(r) == []


# ---- APTX4869 --------------------------------------------------------------------------


def test_a_right_aptx_kills_and_the_black_org_keeps_it():
    quote("Succseful APTX: The target was that role (success).The BO will keep the ATPX. The "
          "actions and the votes of the victim doesn't count and the target dies.")
    s = game("G=gin", "V=vodka", "Pofa=satou", "Ctu=ran", "K=conan", "J=jodie")
    r = phase(s, "day", 1, "G: aptx Pofa as Satou")
    assert dead(r) == ["Pofa"]
    assert r.state.stock_left("G", RULES.side("black-org").abilities["aptx"]) == 2


def test_a_wrong_aptx_is_used_up_and_the_black_org_is_told():
    quote("Failed APTX: The APTX will be used up and the BO will lose it. The victim won't know "
          "that he was targeted. The BO will get a message that the APTX failed and how many "
          "APTX are left.")
    quote("1 APTX per BO with a max of 3.")
    s = game("G=gin", "V=vodka", "Pofa=satou", "Ctu=ran", "K=conan", "J=jodie")
    r = phase(s, "day", 1, "G: aptx Pofa as Shinichi")
    assert dead(r) == []
    assert pms(r, "G") == ["The APTX on Pofa failed. 1 APTX left."]
    assert pms(r, "Pofa") == []
    r = phase(r.state, "day", 2, "V: aptx Ctu as Megure")
    assert pms(r, "V") == ["The APTX on Ctu failed. 0 APTX left."]
    r = phase(r.state, "day", 3, "G: aptx Ctu as Ran")
    assert dead(r) == [] and "the black-org have no aptx left" in " ".join(r.log_lines())
    with pytest.raises(IllegalOrderError, match="no aptx left"):
        check_order(parse_order("G: aptx Ctu as Ran", r.state, phase="day", number=3), r.state)


def test_different_members_may_poison_the_same_day_one_each():
    quote("Gin can poison pofa as Shinichi and Vermouth can poison pofa as Ran.")
    quote("Gin can poison pofa as Shinichi. But Gin can't poison pofa as Shinichi AND Ctu as "
          "Ran.")
    s = game("Gin=gin", "Ver=vermouth", "pofa=ran", "Ctu=kobayashi", "K=conan", "J=jodie")
    r = phase(s, "day", 1, "Gin: aptx pofa as Shinichi", "Ver: aptx pofa as Ran")
    assert dead(r) == ["pofa"]
    assert pms(r, "Gin") == ["The APTX on pofa failed. 1 APTX left."]
    r = phase(s, "day", 1, "Gin: aptx pofa as Shinichi", "Gin: aptx Ctu as Kobayashi")
    assert dead(r) == ["Ctu"]  # the later order of Gin's replaces the first
    assert any("replaced" in line for line in r.log_lines())


def test_the_health_charm_stops_a_right_aptx_which_is_lost():
    quote("Can give out the Health Charm. The same phase and the phase afterwards, the target "
          "will be protected from APTX poisoning.")
    quote("If the use of an APTX is hindered due to the target possessing a charm, the APTX is "
          "considered lost.")
    quote("The Charm will only be used up, if the person with the charm would have been "
          "poisoned otherwise.")
    s = game("G=gin", "V=vodka", "Sh=sherry", "Pofa=satou", "Kaz=kazuha", "K=conan", "J=jodie")
    d1 = phase(s, "day", 1, "Kaz: charm Pofa", "G: aptx Pofa as Shinichi", "V: aptx Pofa as Satou")
    assert dead(d1) == [] and pms(d1, "Pofa") == ["Kazuha gave you a Health Charm."]
    # Both APTX are gone: the wrong one used up, the right one lost to the charm.
    assert d1.state.stock_left("V", RULES.side("black-org").abilities["aptx"]) == 1
    assert any("Pofa holds the charm" in line for line in d1.log_lines())
    # The wrong guess did not use the charm; the right one did: Sherry's poison that night
    # goes through.
    n2 = phase(d1.state, "night", 2, "Sh: poison Pofa as Satou")
    assert dead(n2) == ["Pofa"]
    # Unused, the charm still stops Night 2's poison, but not Night 3's (Day 1 and Night 2).
    d1 = phase(s, "day", 1, "Kaz: charm Pofa")
    assert dead(phase(d1.state, "night", 2, "Sh: poison Pofa as Satou")) == []
    d2 = phase(phase(d1.state, "night", 2).state, "day", 2)
    assert dead(phase(d2.state, "night", 3, "Sh: poison Pofa as Satou")) == ["Pofa"]


def test_sherrys_poison_by_night_two_aptx_kept_when_right():
    quote("Sherry has 2 APTX that can be used for the Poison ability, which follow the same "
          "rues as other APTX")
    s = game("Sh=sherry", "G=gin", "A=ran", "B=camel", "C=jodie", "D=conan")
    r = phase(s, "night", 1, "Sh: poison A as Ran")
    assert dead(r) == ["A"]
    r = phase(r.state, "night", 2, "Sh: poison B as Ran")
    assert pms(r, "Sh") == ["The APTX on B failed. 1 APTX left."]
    r = phase(r.state, "night", 3, "Sh: poison C as Ran")
    assert pms(r, "Sh") == ["The APTX on C failed. 0 APTX left."]
    r = phase(r.state, "night", 4, "Sh: poison D as Conan")
    assert dead(r) == [] and "Sh has no use of poison left" in " ".join(r.log_lines())


def test_scenario_3_arrest_confiscates_the_aptx():
    quote("Pofa (Satou) sends in: Arrest Miaka for killing Lynz on Night 3. Miaka (Pisco) sends "
          "in: APTX Pofa as Satou. RESULT: Pofa successfully arrests Miaka. Miaka's APTX on "
          "Pofa does not go through, and the APTX is confiscated.")
    quote("If APTX is confiscated in an arrest, the APTX will be randomly given to Haibara, "
          "Satou, or Okiya if they are in the game.")
    s = game("Miaka=pisco", "Pofa=satou", "Lynz=ran", "Jd-=araide", "Kleene=agasa")
    for n in (1, 2):
        s = phase(s, "night", n).state
        s = phase(s, "day", n).state
    n3 = phase(s, "night", 3, "Black Org: kill Lynz by Miaka")
    assert dead(n3) == ["Lynz"]
    d3 = phase(n3.state, "day", 3, "Pofa: arrest Miaka for killing Lynz on Night 3",
               "Miaka: APTX Pofa as Satou")
    assert dead(d3) == []
    assert "arrested" in d3.state.players["Miaka"].statuses
    assert any("confiscated" in line for line in d3.log_lines())
    # Given to Pofa, the only Satou, who may use it from the next day.
    assert "aptx" in d3.state.players["Pofa"].items
    s = phase(d3.state, "night", 4).state
    d4 = phase(s, "day", 4, "Pofa: aptx Jd- as Araide")
    assert dead(d4) == ["Jd-"]


def test_an_aptx_on_a_target_arrested_that_phase_is_unused():
    quote("If an APTX target is arrested in the phase they are to be poisoned, the APTX is "
          "considered unused.")
    s = game("G=gin", "V=vodka", "Pofa=satou", "Meg=megure", "K=conan", "J=jodie")
    s = phase(s, "night", 1, "Black Org: kill J by G").state
    r = phase(s, "day", 1, "Meg: arrest G for killing J on Night 1", "V: aptx G as Gin")
    assert dead(r) == []
    assert r.state.stock_left("V", RULES.side("black-org").abilities["aptx"]) == 2


# ---- what the attacker, the target and the protector are told -------------------------


def test_a_heal_is_told_to_target_and_attacker_but_not_by_whom():
    quote("If successfully healed, the healer will know that he successfully healed. The target "
          "and the attacker will be notified that the target was healed, but not by whom.")
    quote("If a member of the Black Org attacks a player and that player is saved from death as "
          "a result of healing, protection, first aid, or anything of the sort, the attacker is "
          "informed that healing or protecting was in effect")
    s = game("G=gin", "Boss=anokata", "V=camel", "Doc=araide", "X=jodie")
    r = phase(s, "night", 1, "Black Org: kill V by G", "Doc: heal V")
    assert pms(r, "Doc") == ["You successfully healed V."]
    assert pms(r, "V") == ["You were attacked tonight, but someone healed you."]
    assert pms(r, "G") == ["Your target was healed."]


def test_a_protection_names_the_attacker_unless_a_sniper():
    quote("If a protect is successful at night and saves a target, the attacker's name is "
          "revealed to both the protector and the target. The exception to this is if the "
          "attacker is a sniper, in which case their identity will not be revealed in this "
          "situation.")
    s = game("G=gin", "Boss=anokata", "V=camel", "Mak=makoto", "Ch=korn", "X=jodie")
    s.players["Mak"].statuses.discard("abroad")  # Makoto starts abroad; here he is home
    r = phase(s, "night", 1, "Black Org: kill V by G", "Mak: protect V")
    assert pms(r, "Mak")[0] == "You protected V from G's attack tonight."
    assert pms(r, "V") == ["You were attacked tonight by G, but someone protected you."]
    assert pms(r, "G") == ["Your target was protected."]
    r = phase(s, "night", 1, "Black Org: kill V by Ch", "Mak: protect V")
    assert dead(r) == ["Mak"]
    assert pms(r, "V") == ["You were attacked tonight, but someone protected you."]
