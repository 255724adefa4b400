"""DCTP (seed 004): the seed's worked examples no other test played, each quoting its sentence.

Every worked example of ../shared/seeds/004_*.txt ("example", "scenario"; no "e.g." or "for
instance" there) and the test that plays it (file: test_engine_004_*; "here": this file).
Before this file 33 of these 42 were played by a test quoting them, 5 of them in part; now 42.
  L61   A tricks B and B tricks A / B tricks C  dctpb: test_two_players_who_trick_each_other_*,
                                                test_a_tricks_b_and_b_tricks_c_*
  L62   Vermouth as Satou interrogated          dctpb: test_a_disguised_player_answers_the_*
  L65   Chianti arrested by Takagi              investigations: test_a_sniper_resists_arrest_*
  L73   frighten does not stop an arrest        dctpb: test_frighten_does_not_stop_an_arrest_*
  L146  no auto-arrest by an investigation      here: test_a_crime_found_by_an_investigation_*
  L174  Scenario 1                              004: test_scenario_1_* (two tests)
  L182  Scenario 2                              004: test_scenario_2_*
  L192  Scenario 3                              kills: test_scenario_3_*
  L207  Ran with the watch protects a sniped    here: test_the_watch_saves_only_its_named_*
  L300  Anokata observed: random, one a night   here: test_anokata_observed_gives_one_random_*
  L765  investigate Conia (Vermouth-Ran)        here: test_an_exact_disguise_is_true_only_*
  L823  "Akonyl blames Kleene ..." is false     dctpb: test_blame_itself_cannot_be_*
  L891  Detect example                          investigations: test_detect_example_*
  L935  2x gun stolen twice                     here: test_a_disguised_players_two_guns_*
                                                (dctpb: test_a_disguise_gives_its_* in part)
  L975  Observe example                         investigations: test_observe_example_*
  L996  Investigate: disguises                  investigations: test_investigate_example_disguises_*
  L1003 Investigate: conia kills Ctu            investigations: test_investigate_example_conia_*
  L1009 Investigate: a protected kill           investigations: test_investigate_example_a_protect*
  L1015 Investigate: a discombobulated kill     investigations: test_investigate_example_a_discomb*
  L1022 Investigate: actions considered same    investigations: test_investigate_example_heal_and_*
  L1030 Investigate: fake and blamed actions    dctpb: test_fake_actions_and_blamed_actions_*
  L1074 "Kleene was healed, and discombob..."  here: test_a_stake_out_lists_every_kind_*
  L1080 Stake-out example                       here: test_stake_out_example_a_blamed_slander_*
                                                (investigations: test_stake_out_example_* in part)
  L1144 Irish abducts Eisuke on Night 1         dctpb: test_abduct_waits_three_phases_*
  L1178 "APTX: Kleene = Shinichi"               here: test_an_aptx_written_as_the_seed_writes_it
  L1184 Gin can poison pofa as Shinichi ...     kills: test_different_members_may_poison_*
  L1201 real Slander and a fake Heal            here: test_the_suitcase_holder_uses_his_real_*
  L1204 Black Suitcase example                  dctpb: test_black_suitcase_the_seeds_example_*
  L1224 Calvados covers Gin                     dctpb: test_cover_the_seeds_example_*
  L1225 Akemi covered: another target           here: test_cover_example_calvados_steals_*
  L1297 a hindered Detective Boy: 1/3, 1/2      dctpd: test_a_hindered_boy_makes_the_*,
                                                test_the_last_detective_boy_hindered_*
  L1306 Kogorou sober on Day 3 analyzes         dctpb: test_analyze_the_seeds_example_*
  L1323 Follow-Up example                       here: test_follow_up_example_takagi_*
  L1405 Hakuba travels to Japan on Night 1      dctpb: test_travel_the_seeds_example_hakuba_*
  L1407 Makoto leaves Japan, APTXed on Day 2    here: test_travel_example_makoto_abroad_*
                                                (dctpb: test_travel_the_seeds_example_makoto_*
                                                in part: no APTX played)
  L1408 Hakuba travels on Day 2                 here: test_travel_example_hakuba_leaving_*
                                                (dctpd: test_a_traveller_who_leaves_by_* in part)
  L1484 Police Detect "Detect Megure"           investigations: test_police_detect_sees_a_*
  L1485 Police Detect, Vermouth-Megure          investigations: test_police_detect_sees_a_*
  L1490 "Identify PhoenixTears as Megure"       investigations: test_police_identify_until_*
  L1512 "Kleene was seen disarming your bomb."  vest: test_a_police_officer_defuses_it_*
  L1514 Yuriko (Vermouth-Takagi) defuses        vest: test_a_black_org_defuser_in_disguise_*
  L1519 Shinichi interrogates Gin, strapped     here: test_the_bomb_is_strapped_after_the_*
                                                (vest: test_the_vest_is_announced_* in part)
Two failed before their engine fix: L1225 (Calvados and Akemi stole from one target as two
thieves; cover's `apart_from_ally`) and L1080 (the stake-out listed "interrogated,
investigated, slandered"; `[night.done_order]`).
"""

from __future__ import annotations

from assistant.engine.state import disguise_of, wear_disguise
from assistant.engine.vote_effects import modifiers_for_day
from tests.dctp_support import RULES, dead, game, phase, pms, quote


def test_a_crime_found_by_an_investigation_is_no_auto_arrest() -> None:
    quote("Auto-arresting is a feature of these abilities and does not otherwise apply to other "
          "actions. For example, a crime uncovered via an investigation action does not yield "
          "an auto-arrest (even if it is being carried out by a police officer).")
    s = game("Meg=megure", "G=gin", "Boss=anokata", "Cam=camel", "R=ran")
    r = phase(s, "night", 1, "Black Org: kill Cam by G", "Meg: investigate G kills Cam")
    assert pms(r, "Meg") == ['"G kills Cam" - True']
    assert "arrested" not in r.state.players["G"].statuses
    assert r.public == ()
    # A house search of the same crime does arrest (the ability that auto-arrests).
    n2 = phase(r.state, "night", 2, "Meg: house search G")
    assert "arrested" in n2.state.players["G"].statuses


def test_the_watch_saves_only_its_named_holder_not_the_one_she_protects() -> None:
    quote("Abilities that protect and heal only prevent the death of those that are named and "
          "targeted directly. This prevents the stacking of certain abilities, for example: If "
          "Ran possesses the watch and protects someone that is sniped, the watch will not save "
          "her because she was not the named, direct target. Ran will die, the watch will not "
          "come into play, and the targeted she protected will survive as usual.")
    s = game("Aga=agasa", "Ran=ran", "V=camel", "Chi=chianti", "Boss=anokata", "X=jodie")
    d1 = phase(s, "day", 1, "Aga: lend watch to Ran")
    assert "watch" in d1.state.players["Ran"].items
    n2 = phase(d1.state, "night", 2, "Ran: protect V", "Black Org: snipe V by Chi")
    assert dead(n2) == ["Ran"]
    assert pms(n2, "V") == ["You were attacked tonight, but someone protected you."]
    # The watch did not come into play: not broken, back with Agasa, nobody told of it.
    assert "watch" in n2.state.players["Aga"].items
    assert pms(n2, "Aga") == []
    assert not any("broken" in line for line in n2.log_lines())


def test_anokata_observed_gives_one_random_age_to_every_observer_each_night() -> None:
    quote('If observed, the result will always be random: either adult, teenager, or child. For '
          'example: On Night 1, an observation may yield the result "adult" while on Night 2 it '
          'may come back as "child". If more than one person observes him in the same night, '
          'they both receive the same random result.')
    changed = False
    for seed in range(1, 6):
        s = game("Jodie=jodie", "Camel=camel", "Boss=anokata", "Ran=ran", "G=gin", seed=seed)
        n1 = phase(s, "night", 1, "Jodie: observe age Boss", "Camel: observe age Boss")
        n2 = phase(phase(n1.state, "day", 1).state, "night", 2,
                   "Jodie: observe age Boss", "Camel: observe age Boss")
        ages = []
        for r in (n1, n2):
            jodie, camel = pms(r, "Jodie"), pms(r, "Camel")
            assert len(jodie) == 1 and jodie == [x.replace("Camel", "Jodie") for x in camel]
            ages.append(jodie[0].rsplit(": ", 1)[1])
        assert set(ages) <= {"Adult", "Teenager", "Child"}
        changed = changed or ages[0] != ages[1]
    assert changed  # random each night, not drawn once for the game


def test_an_exact_disguise_is_true_only_while_it_is_worn() -> None:
    quote("Can be investigated for their exact disguise. For example, one may investigate Conia "
          "(Vermouth-Ran) for being disguised as Ran. The result would be true so long as Conia "
          "is still disguised as Ran.")
    s = game("Conia=vermouth", "Inv=heiji", "G=gin", "Boss=anokata", "Kob=kobayashi", "X=camel")
    wear_disguise(RULES, s.players["Conia"], "ran")
    n1 = phase(s, "night", 1, "Inv: investigate Conia disguised as Ran")
    assert pms(n1, "Inv") == ['"Conia disguised as Ran" - True']
    d1 = phase(n1.state, "day", 1).state
    n2 = phase(d1, "night", 2, "Inv: investigate Conia disguised as Ran")
    assert pms(n2, "Inv") == ['"Conia disguised as Ran" - True']
    # First aid injures her, and "If a player is injured and in disguise, they lose their
    # disguise": from then on the same question is False.
    n2 = phase(d1, "night", 2, "Black Org: kill Conia by G", "Kob: first aid Conia")
    assert disguise_of(n2.state.players["Conia"]) is None
    n3 = phase(phase(n2.state, "day", 2).state, "night", 3,
               "Inv: investigate Conia disguised as Ran")
    assert pms(n3, "Inv") == ['"Conia disguised as Ran" - False']


def test_an_aptx_written_as_the_seed_writes_it() -> None:
    quote("During each day any BO member may attempt to poison another player (BO or Townie) by "
          "sending a PM with that players name and identity to the GM. APTX: Kleene = Shinichi "
          "for example")
    s = game("G=gin", "Kleene=shinichi", "Boss=anokata", "X=ran", "Y=camel")
    r = phase(s, "day", 1, "G: APTX Kleene = Shinichi")
    assert dead(r) == ["Kleene"]
    r = phase(s, "day", 1, "G: APTX Kleene = Ran")
    assert dead(r) == [] and pms(r, "G") == ["The APTX on Kleene failed. 1 APTX left."]


def test_cover_example_calvados_steals_from_another_target_than_akemi() -> None:
    quote("In case Akemi is covered, Calvados has to use steal on a different target than Akemi. "
          "They can't steal both from the same target on the same night.")
    s = game("Calv=calvados", "Ake=akemi", "Boss=anokata", "X=kobayashi", "Y=ran", "Z=camel")
    d1 = phase(s, "day", 1, "Calv: cover Ake")
    same = phase(d1.state, "night", 2, "Calv: steal X", "Ake: steal X")
    assert pms(same, "Calv") == [] and pms(same, "Ake") == ["You stole from X: School book."]
    assert any("Calv covers Ake: they may not both use steal on X" in line
               for line in same.log_lines())
    apart = phase(d1.state, "night", 2, "Calv: steal X", "Ake: steal Y")
    assert pms(apart, "Calv") == ["You stole from X: School book."]
    assert pms(apart, "Ake") == ["You stole from Y: School book."]


def test_follow_up_example_takagi_checks_what_his_stake_out_found() -> None:
    quote('Example: Takagi stakes out Conia N1 and finds out he was slandered. During the '
          'following day, he may use Follow-Up to check "Conia slandered Conia N1" and get a '
          'true or false result.')
    s = game("Takagi=takagi", "Conia=camel", "G=gin", "Boss=anokata", "X=heiji")
    n1 = phase(s, "night", 1, "Takagi: stake-out Conia", "G: slander Conia")
    assert pms(n1, "Takagi") == ["Stake-out: Conia was slandered."]
    d1 = phase(n1.state, "day", 1, "Takagi: follow-up G slandered Conia on Night 1")
    assert pms(d1, "Takagi") == ['"G slandered Conia on Night 1" - True']
    d1 = phase(n1.state, "day", 1, "Takagi: follow-up X slandered Conia on Night 1")
    assert pms(d1, "Takagi") == ['"X slandered Conia on Night 1" - False']


def test_stake_out_example_a_blamed_slander_and_a_suitcase_heal_are_seen() -> None:
    quote('Anokata blames "Akonyl slanders Kleene", PhoenixTears and Nomemory interrogates '
          'Kleene, Conia investigates "Kleene protects Akonyl" and CTU uses Heal on Kleene with '
          'the Black Suitcase. Stake-out result will be: "Kleene was slandered, interrogated, '
          'investigated and healed/First Aided" although it was a fake action through blaming.')
    s = game("Kleene=ran", "PhoenixTears=conan", "Nomemory=heiji", "Conia=megure",
             "CTU=araide", "Akonyl=camel", "G=gin", "Boss=anokata", "Jodie=jodie")
    d1 = phase(s, "day", 1, "Boss: give black-suitcase to CTU")
    n2 = phase(d1.state, "night", 2, "Boss: blame Akonyl for slandering Kleene",
               "PhoenixTears: interrogate Kleene", "Nomemory: interrogate Kleene",
               "Conia: investigate Kleene protects Akonyl", "CTU: suitcase heal Kleene",
               "Jodie: stake-out Kleene")
    assert pms(n2, "Jodie") == [
        "Stake-out: Kleene was slandered, interrogated, investigated and healed/First Aided."
    ]


def test_travel_example_makoto_abroad_is_not_aptxed_and_the_capsule_is_kept() -> None:
    quote("Makoto decides to leave Japan on Night 2. Vodka uses APTX on him on the following "
          "Day, Day 2. The APTX will be not take effect, and will not be used up.")
    s = game("Mak=makoto", "G=gin", "Boss=anokata", "V=vodka", "X=ran")
    s = phase(s, "night", 1, "Mak: travel").state
    s = phase(s, "day", 1).state
    n2 = phase(s, "night", 2, "Mak: travel").state
    d2 = phase(n2, "day", 2, "V: aptx Mak as Makoto")
    assert dead(d2) == [] and pms(d2, "V") == []
    # Not used up: the three capsules of the three members are all there the next day.
    d3 = phase(phase(d2.state, "night", 3).state, "day", 3, "V: aptx X as Shinichi")
    assert pms(d3, "V") == ["The APTX on X failed. 2 APTX left."]


def test_travel_example_hakuba_leaving_on_day_2_escapes_the_lynch_not_the_aptx() -> None:
    quote("Hakuba decides to travel on Day 2. In case he was lynched, Hakuba will survive. In "
          "case the BO wanted to APTX him, he'll die.")
    s = game("Hak=hakuba", "G=gin", "Boss=anokata", "Con=conan", "V=vodka")
    s = phase(phase(s, "night", 1, "Hak: travel").state, "day", 1).state
    s = phase(s, "night", 2).state
    d2 = phase(s, "day", 2, "Hak: travel")
    assert {m["player"]: m for m in modifiers_for_day(d2.state, 2)}["Hak"]["lynch_immune"]
    d2 = phase(s, "day", 2, "Hak: travel", "V: aptx Hak as Hakuba")
    assert dead(d2) == ["Hak"]


def test_the_bomb_is_strapped_after_the_targets_own_interrogation() -> None:
    quote("For example: If Shinichi interrogates Gin and Gin successfully straps Shinichi with "
          "the bomb in the same night, Shinichi will still receive his interrogation result "
          "before finding himself strapped with the bomb at the onset of the day phase.")
    s = game("Shin=shinichi", "G=gin", "Boss=anokata", "Parkur=satou", "X=ran")
    n1 = phase(s, "night", 1, "Shin: interrogate G", "Black Org: vest Shin by G")
    assert dead(n1) == []
    assert pms(n1, "Shin") == ["Interrogation of G: BO"]
    assert n1.public == ("Shin has been strapped with a bomb! It explodes at the end of the day "
                         "unless it is disarmed.",)


def test_the_suitcase_holder_uses_his_real_ability_and_a_fake_one_the_same_night() -> None:
    quote("The player can use his real ability (for example Slander) and a fake ability (for "
          "example Investigate 5 or Heal etc.) in the same night.")
    s = game("Boss=anokata", "G=gin", "X=camel", "Y=ran", "Sat=satou", "Shi=shiratori")
    d1 = phase(s, "day", 1, "Boss: give black-suitcase to G")
    n2 = phase(d1.state, "night", 2, "G: slander X", "G: suitcase heal Y",
               "Sat: investigate G heals Y", "Shi: investigate G slanders X")
    assert pms(n2, "G") == ["You slandered X."]  # no result of the fake heal
    assert pms(n2, "Sat") == ['"G heals Y" - True']
    assert pms(n2, "Shi") == ['"G slanders X" - True']


def test_a_stake_out_lists_every_kind_of_action_done_to_the_target() -> None:
    quote('The policeman learns of all actions performed to a player that night. So, "Akonyl '
          'stakes out Kleene" may result in a PM of "Kleene was healed, and discombobulated", '
          'for example.')
    s = game("Akonyl=takagi", "Kleene=ran", "Doc=araide", "Eis=eisuke", "G=gin", "Boss=anokata")
    n1 = phase(s, "night", 1, "Doc: heal Kleene", "Eis: discombobulate Kleene",
               "Akonyl: stake-out Kleene")
    assert pms(n1, "Akonyl") == [
        "Stake-out: Kleene was healed/First Aided and discombobulated."
    ]


def test_a_disguised_players_two_guns_can_both_be_stolen() -> None:
    quote("If the player steals from a disguised player, he can steal from the disguise or from "
          "the original role (Kid, Vermouth). The player won't know it it's from the disguise or "
          "not. If the disguised player has 2x gun for example, he can steal a gun 2x.")
    both = None
    for seed in range(1, 60):
        s = game("Kid=kid", "Ver=vermouth", "Boss=anokata", "Cam=camel", "G=gin", seed=seed)
        wear_disguise(RULES, s.players["Ver"], "satou")
        assert s.players["Ver"].items.count("gun") == 2
        n1 = phase(s, "night", 1, "Kid: steal Ver")
        n2 = phase(phase(n1.state, "day", 1).state, "night", 2, "Kid: steal Ver")
        if pms(n1, "Kid") == pms(n2, "Kid") == ["You stole from Ver: Gun."]:
            both = n2
            break
    assert both is not None, "no draw took the gun twice"
    assert "gun" not in both.state.players["Ver"].items
