"""DCTP (seed 004): investigations worded as the seed gives them, and arrests for a crime.

Investigate # and Special Investigate answer a claim ("Conia kills CTU") with True or False,
Detect whether a character is in the game, Stake-out what was done to a player, Follow-Up
and Cross-examine look back; an arrest names a crime of a past phase, and a false one
suspends the officer. Each test quotes the sentence of ../shared/seeds/004_*.txt it checks;
the seed's "Examples" of these sections are tests here.
"""

from __future__ import annotations

import pytest

from assistant.engine.orders import parse_order
from assistant.engine.state import disguise_of, wear_disguise
from assistant.errors import MalformedOrderError
from tests.dctp_support import RULES, game, phase, pms, quote

# ---- Investigate # ----------------------------------------------------------------------


def test_investigate_example_conia_kills_ctu():
    quote('Actions: conia kills Ctu. Xpon investigates conia. "Conia kills CTU" - True '
          '"xpon investigates conia" - True "Xpon kills CTU" - False')
    players = ("conia=gin", "Ctu=ran", "xpon=heiji", "Gum=megure", "Ken=shinichi")
    r = phase(game(*players), "night", 1, "Black Org: kill Ctu by conia",
              "xpon: interrogate conia", "Gum: investigate conia kills Ctu",
              "Ken: investigate xpon investigates conia", "Ken: investigate xpon kills Ctu")
    assert pms(r, "Gum") == ['"conia kills Ctu" - True']
    # "investigates": Interrogate and Investigate are both looked at by the keyword they
    # share in the ruleset; here the card's Interrogate is the one Xpon used, so it is False
    # and only an investigation is "investigates".
    assert pms(r, "Ken") == ['"xpon investigates conia" - False', '"xpon kills Ctu" - False']
    r = phase(game(*players), "night", 1, "Black Org: kill Ctu by conia",
              "xpon: investigate conia kills Ctu", "Ken: investigate xpon investigates conia",
              "Ken: investigate xpon kills Ctu")
    assert pms(r, "Ken") == ['"xpon investigates conia" - True', '"xpon kills Ctu" - False']


def test_investigate_example_a_protected_kill_is_still_true():
    quote('Akonyl kills PhoenixTears. Yurikochan protects PhoenixTears. PhoenixTears '
          'interrogates Conia. "Akonyl kills PT" - True "Yurikochan protects PT" - True '
          '"PT interrogates Conia" - True')
    quote("If the killing was interrupted by protection, healing or first aid then the "
          "investigation will still be true and considered an attack.")
    s = game("Akonyl=gin", "PT=conan", "Yurikochan=ran", "Conia=vodka", "Inv=heiji")
    r = phase(s, "night", 1, "Black Org: kill PT by Akonyl", "Yurikochan: protect PT",
              "PT: interrogate Conia", "Inv: investigate Akonyl kills PT",
              "Inv: investigate Yurikochan protects PT", "Inv: investigate PT interrogates Conia")
    assert r.deaths == ()
    assert pms(r, "Inv") == ['"Akonyl kills PT" - True', '"Yurikochan protects PT" - True',
                             '"PT interrogates Conia" - True']


def test_investigate_example_a_discombobulated_kill_is_false():
    quote('Akonyl kills PhoenixTears. Yurikochan protects PhoenixTears. Conia discombobulates '
          'Akonyl. "Akonyl kills PT" - False "Yurikochan protects PT" - True "Conia '
          'discombobulates Akonyl" - True')
    quote('If a discombobulated action is investigated, then the action will be shown as '
          '"false", because the action wasn\'t done in the end.')
    s = game("Akonyl=gin", "PT=conan", "Yurikochan=ran", "Conia=eisuke", "Inv=heiji")
    r = phase(s, "night", 1, "Black Org: kill PT by Akonyl", "Yurikochan: protect PT",
              "Conia: discombobulate Akonyl", "Inv: investigate Akonyl kills PT",
              "Inv: investigate Yurikochan protects PT",
              "Inv: investigate Conia discombobulates Akonyl")
    assert pms(r, "Inv") == ['"Akonyl kills PT" - False', '"Yurikochan protects PT" - True',
                             '"Conia discombobulates Akonyl" - True']


def test_investigate_example_heal_and_first_aid_are_the_same_action():
    quote('Kleene(Araide) heals Akonyl, Akonyl (Kobayashi) uses First Aid on pofa')
    quote('"Akonyl heals/first aids pofa" - True "Kleene heals/first aids Akonyl" - True '
          '"Kleene protects Akonyl" - False')
    s = game("Kleene=araide", "Akonyl=kobayashi", "pofa=camel", "Inv=heiji", "G=gin")
    r = phase(s, "night", 1, "Kleene: heal Akonyl", "Akonyl: first aid pofa",
              "Inv: investigate Akonyl heals/first aids pofa",
              "Inv: investigate Kleene heals/first aids Akonyl",
              "Inv: investigate Kleene protects Akonyl")
    assert pms(r, "Inv") == ['"Akonyl heals pofa" - True', '"Kleene heals Akonyl" - True',
                             '"Kleene protects Akonyl" - False']


def test_investigating_a_heal_of_an_attack_the_heal_stopped():
    quote('If A attacks B, C saves B via healing, and D investigates "A kills B", D\'s '
          'investigation still comes back as true.')
    s = game("A=gin", "B=camel", "C=araide", "D=megure")
    r = phase(s, "night", 1, "Black Org: kill B by A", "C: heal B", "D: investigate A kills B")
    assert r.deaths == ()
    assert pms(r, "D") == ['"A kills B" - True']


def test_a_killed_player_did_not_do_the_action():
    quote('If the player was killed, the action wasn\'t done and it will come out as "False"')
    s = game("A=gin", "B=araide", "C=camel", "D=megure")
    r = phase(s, "night", 1, "Black Org: kill B by A", "B: heal C", "D: investigate B heals C")
    assert [d.player for d in r.deaths] == ["B"]
    assert pms(r, "D") == ['"B heals C" - False']


def test_investigate_hash_is_that_many_investigations_a_night():
    quote('The player can Investigate a certain number of actions "#".')
    quote("Megure, Police Inspector Night action: Investigate 2, House Search")
    s = game("A=gin", "B=araide", "C=camel", "D=megure")
    r = phase(s, "night", 1, "Black Org: kill C by A", "D: investigate A kills C",
              "D: investigate B heals C", "D: investigate A kills B")
    # Two a night: the third replaces the first, as a later order replaces an earlier one.
    assert pms(r, "D") == ['"B heals C" - False', '"A kills B" - False']
    assert any("used 2 times a night at most" in line for line in r.log_lines())


def test_an_investigation_must_name_an_action():
    s = game("A=gin", "D=megure")
    with pytest.raises(MalformedOrderError, match="say which action"):
        parse_order("D: investigate A", s, phase="night", number=1)


# ---- Special Investigate, Follow-Up, Cross-examine ---------------------------------------


def test_special_investigate_looks_at_a_past_night():
    quote('So if James investigates something on Night 3, he can investigate "Akonyl '
          'protected conia on Night 1" (needs to give the info on what night it happened.')
    quote("Cannot investigate actions that are happening the night of special investigate.")
    s = game("Akonyl=ran", "conia=camel", "James=james", "G=gin", "V=vodka")
    s = phase(s, "night", 1, "Akonyl: protect conia").state
    s = phase(s, "night", 2, "Black Org: kill V by G").state
    r = phase(s, "night", 3, "James: special investigate Akonyl protected conia on Night 1",
              "James: investigate G kills Akonyl")
    assert pms(r, "James") == ['"Akonyl protected conia on Night 1" - True',
                               '"G kills Akonyl" - False']
    r = phase(s, "night", 3, "James: si Akonyl protected conia on Night 2")
    assert pms(r, "James") == ['"Akonyl protected conia on Night 2" - False']
    r = phase(s, "night", 3, "Akonyl: protect conia", "James: si Akonyl protects conia on N3")
    assert pms(r, "James") == ['"Akonyl protects conia on Night 3" - False']


def test_follow_up_checks_what_happened_to_the_staked_out_player():
    quote("Can use Follow-Up during each day phase to SI actions that happened to someone "
          "they staked out the previous night.")
    s = game("Takagi=takagi", "Conia=camel", "Doc=araide", "G=gin", "X=heiji")
    n1 = phase(s, "night", 1, "Takagi: stake-out Conia", "Doc: heal Conia")
    assert pms(n1, "Takagi") == ["Stake-out: Conia was healed/First Aided."]
    r = phase(n1.state, "day", 1, "Takagi: follow-up Doc healed Conia on Night 1")
    assert pms(r, "Takagi") == ['"Doc healed Conia on Night 1" - True']
    # Not someone he staked out: no answer but False.
    r = phase(n1.state, "day", 1, "Takagi: follow-up Doc healed X on Night 1")
    assert pms(r, "Takagi") == ['"Doc healed X on Night 1" - False']


def test_stake_out_example_lists_what_was_done_not_how_often_or_by_whom():
    quote("The policeman learns of all actions performed to a player that night.")
    quote("You will not know how often someone was slandered or how often someone was "
          "interrogated. Just that he/she was interrogated etc.")
    quote('Anokata blames "Akonyl slanders Kleene", PhoenixTears and Nomemory interrogates '
          'Kleene, Conia investigates "Kleene protects Akonyl" and CTU uses Heal on Kleene')
    s = game("Kleene=ran", "PhoenixTears=conan", "Nomemory=heiji", "Conia=megure",
             "CTU=araide", "Akonyl=gin", "Jodie=jodie")
    r = phase(s, "night", 1, "PhoenixTears: interrogate Kleene", "Nomemory: interrogate Kleene",
              "Conia: investigate Kleene protects Akonyl", "CTU: heal Kleene",
              "Jodie: stake-out Kleene")
    assert pms(r, "Jodie") == [
        "Stake-out: Kleene was interrogated, investigated and healed/First Aided."
    ]


def test_cross_examine_answers_whether_crimes_were_committed_before():
    quote('She\'ll get the result "true" or "false".')
    quote("Crimes committed during the same phase don't count.")
    s = game("Eri=eri", "G=gin", "V=camel", "W=ran", "Y=jodie")
    r = phase(s, "night", 1, "Black Org: kill V by G", "Eri: cross-examine G")
    assert pms(r, "Eri") == ["Cross-examination of G: false"]
    r = phase(r.state, "night", 2, "Eri: cross-examine G")
    assert pms(r, "Eri") == ["Cross-examination of G: true"]
    r = phase(r.state, "night", 3, "Eri: cross-examine W")
    assert pms(r, "Eri") == ["Cross-examination of W: false"]


# ---- Detect and Identify -----------------------------------------------------------------


def test_detect_example_finds_the_disguiser_by_her_own_name():
    quote("Vermouth disguised as Ran. Shinichi is in the game, Conan isn't. Detect: Vermouth "
          "is in the game. Answer from GM: True Detect: Ran is in the game Answer from GM: False "
          "Detect: Conan is in the game Answer from GM: False Detect: Shinichi is in the game "
          "Answer from GM: True")
    s = game("V=vermouth", "S=shinichi", "B=bourbon", "K=kogorou")
    answers = []
    for n, who in enumerate(("Vermouth", "Ran", "Conan", "Shinichi"), start=1):
        r = phase(s, "night", n, f"B: detect {who}")
        answers += pms(r, "B")
    assert answers == [
        "Detect: Vermouth is in the game. Answer from GM: True",
        "Detect: Ran is in the game. Answer from GM: False",
        "Detect: Conan is in the game. Answer from GM: False",
        "Detect: Shinichi is in the game. Answer from GM: True",
    ]


def test_identify_names_the_true_character():
    quote("Decide together to Identify one person's role (Akonyl is Sonoko, Callid is Eisuke, "
          "mangaluva is Bourbon)")
    s = game("Ayumi=ayumi", "Akonyl=sonoko", "mangaluva=bourbon", "V=vermouth")
    r = phase(s, "day", 1, "Ayumi: identify Akonyl is Sonoko")
    assert pms(r, "Ayumi") == ['"Akonyl is Sonoko" - True']
    r = phase(s, "day", 1, "Ayumi: identify mangaluva as Eisuke")
    assert pms(r, "Ayumi") == ['"mangaluva is Eisuke" - False']


# ---- Arrest for a crime ----------------------------------------------------------------


def test_an_arrest_for_a_crime_committed_succeeds():
    quote('Needs to accuse a player for a specific crime during a specific past phase: "Arrest '
          'Akonyl for Killing Conia on Night 1"')
    s = game("Akonyl=gin", "Conia=camel", "Pofa=satou", "X=ran", "Y=jodie")
    s = phase(s, "night", 1, "Black Org: kill Conia by Akonyl").state
    r = phase(s, "day", 2, "Pofa: arrest Akonyl for Killing Conia on Night 1")
    assert "arrested" in r.state.players["Akonyl"].statuses
    assert r.public == ("Akonyl has been arrested.",)


def test_a_false_accusation_suspends_the_officer_for_two_phases():
    quote("Suspended: Police that attempt to arrest someone and are unsuccessful will be "
          "suspended for two phases following the arrest attempt.")
    quote("If there is a failed arrest attempt, then there will be info that an unidentified "
          "police officer was suspended for the next 2 phases.")
    quote("Injured/suspended people do not recieve results on the phase they're "
          "injured/suspended.")
    s = game("Akonyl=gin", "Conia=camel", "Pofa=satou", "X=ran", "Y=jodie")
    s = phase(s, "night", 1, "Black Org: kill Conia by Akonyl").state
    r = phase(s, "night", 2, "Pofa: arrest X for killing Conia on Night 1",
              "Pofa: investigate Akonyl kills Y", "Black Org: kill Y by Akonyl")
    assert "arrested" not in r.state.players["X"].statuses
    assert r.public == ("An unidentified police officer was suspended for the next 2 phases.",)
    # No result this phase, but the suspension is told ("All GMs should be certain to send
    # all notifications to all relevant parties").
    assert pms(r, "Pofa") == ["Your arrest of X failed: the accusation was wrong. You are "
                              "suspended for the next 2 phases (no actions but voting)."]
    # Day 2 and Night 3, the two phases after Night 2, suspended; Day 3 free again.
    d2 = phase(r.state, "day", 2, "Pofa: arrest Akonyl for killing Conia on Night 1")
    assert "arrested" not in d2.state.players["Akonyl"].statuses
    assert any("Pofa is suspended" in line for line in d2.log_lines())
    n3 = phase(d2.state, "night", 3, "Pofa: arrest Akonyl for killing Conia on Night 1")
    assert "arrested" not in n3.state.players["Akonyl"].statuses
    d3 = phase(n3.state, "day", 3, "Pofa: arrest Akonyl for killing Conia on Night 1")
    assert "arrested" in d3.state.players["Akonyl"].statuses


def test_no_arrest_for_a_crime_of_this_phase_or_a_hindered_one():
    quote("The crime can be done on any Night or Day, but it CANNOT be in the same phase that "
          "the arrest is happening")
    quote("If a crime is hindered by discombobulation or other ability, it is treated as having "
          "failed and thus not happening.")
    s = game("Akonyl=gin", "Conia=camel", "Pofa=satou", "Eis=eisuke", "Y=jodie")
    n1 = phase(s, "night", 1, "Black Org: kill Conia by Akonyl", "Eis: discombobulate Akonyl")
    assert n1.deaths == ()
    r = phase(n1.state, "day", 2, "Pofa: arrest Akonyl for killing Conia on Night 1")
    assert "arrested" not in r.state.players["Akonyl"].statuses
    assert "suspended" in r.log_lines()[-1]
    # The discombobulation itself was a crime ("Discombobulating") and went through.
    r = phase(n1.state, "day", 2, "Pofa: arrest Eis for discombobulating Akonyl on Night 1")
    assert "arrested" in r.state.players["Eis"].statuses
    r = phase(n1.state, "night", 2, "Pofa: arrest Eis for discombobulating Akonyl on Night 2")
    assert "arrested" not in r.state.players["Eis"].statuses


def test_no_arrest_for_the_same_crime_twice():
    quote("You can't arrest someone for the same crime twice.")
    s = game("Akonyl=gin", "Conia=camel", "Pofa=satou", "Meg=megure", "Y=jodie", "Z=ran")
    s = phase(s, "night", 1, "Black Org: kill Conia by Akonyl").state
    s = phase(s, "day", 2, "Pofa: arrest Akonyl for killing Conia on Night 1").state
    s.players["Akonyl"].statuses -= {"arrested", "out"}  # freed (Eri's Lawsuit, by hand here)
    r = phase(s, "day", 3, "Meg: arrest Akonyl for killing Conia on Night 1")
    assert "arrested" not in r.state.players["Akonyl"].statuses
    assert "already arrested for this crime once" in " ".join(r.log_lines())


def test_a_sniper_resists_arrest_example():
    quote("For example, if A is Chianti and B is Takagi and B arrests A for a Night 1 murder, it "
          "is announced that player A was arrested as Chianti and that a police officer was "
          "injured in the process. The identity of player B is not revealed, either in their "
          "name or their role.")
    quote("Temporary Injury: Police that successfully arrest an uninjured sniper will be "
          "injured for two phases following the arrest.")
    s = game("A=chianti", "B=takagi", "C=camel", "D=ran", "E=jodie")
    s = phase(s, "night", 1, "Black Org: kill C by A").state
    r = phase(s, "day", 2, "B: arrest A for killing C on Night 1")
    assert "arrested" in r.state.players["A"].statuses
    assert r.public == ("A was arrested as Chianti, and a police officer was injured in the "
                        "process.",)
    assert "B" not in " ".join(r.public)
    n2 = phase(r.state, "night", 2, "B: stake-out D")
    assert pms(n2, "B") == [] and "B is injured" in " ".join(n2.log_lines())


def test_an_arrest_without_a_crime_is_entered_but_not_checked():
    s = game("Akonyl=gin", "Pofa=satou", "X=ran")
    r = phase(s, "day", 1, "Pofa: arrest Akonyl")
    assert "arrested" in r.state.players["Akonyl"].statuses
    assert any("no crime named" in n for n in r.notes)


# ---- Observe ---------------------------------------------------------------------------


def test_observe_age_and_gender_from_the_card():
    quote("May choose a player to Age-Observe during the night. When the night is over the "
          "player will learn if that player is a child, teenager or adult.")
    quote("May choose a player to Gender-Observe during the night. When the night is over the "
          "player will learn if that player is male or female.")
    s = game("Jodie=jodie", "Camel=camel", "Con=conan", "Ran=ran", "G=gin")
    r = phase(s, "night", 1, "Jodie: observe age Con", "Camel: observe gender Ran")
    assert pms(r, "Jodie") == ["Observation of Con (age): Child"]
    assert pms(r, "Camel") == ["Observation of Ran (gender): Female"]


def test_observe_example_anokata_gives_both_observers_one_random_answer():
    quote('Jodie and Camel observe Anokata on Night 1 and on Night 2: Night 1: Both get "Child" '
          'as a result Night 2: Both get "Child" as a result again. Or Night 2: Both get '
          '"Teenager" as a result')
    s = game("Jodie=jodie", "Camel=camel", "Boss=anokata", "Ran=ran", "G=gin")
    answers = set()
    for n in range(1, 7):
        r = phase(s, "night", n, "Jodie: observe age Boss", "Camel: observe age Boss")
        jodie, camel = pms(r, "Jodie"), pms(r, "Camel")
        assert jodie == [line.replace("Camel", "Jodie") for line in camel]
        answers.add(jodie[0].rsplit(": ", 1)[1])
    assert answers <= {"Adult", "Teenager", "Child"} and len(answers) > 1


def test_investigate_example_disguises_are_named_by_the_disguise():
    quote('Disguise: conia(Vermouth) is disguised as Ran. Akonyl(KID) is disguised as Shinichi. '
          '"Akonyl disguised as Shinichi" - True "Conia disguised as Vermouth" - Invalid '
          'investigation, since you need to ask for the disguise -> false "Conia disguised as '
          'Ran" - True "Conia disguised as Schinichi" - False')
    s = game("conia=vermouth", "Akonyl=kid", "Inv=heiji", "Meg=megure", "G=gin", "X=camel")
    wear_disguise(RULES, s.players["conia"], "ran")
    wear_disguise(RULES, s.players["Akonyl"], "shinichi")
    r = phase(s, "night", 1, "Inv: investigate Akonyl disguised as Shinichi",
              "Inv: investigate conia disguised as Vermouth",
              "Inv: investigate conia disguised as Ran")
    assert pms(r, "Inv") == ['"Akonyl disguised as Shinichi" - True',
                             '"conia disguised as Vermouth" - False',
                             '"conia disguised as Ran" - True']
    r = phase(s, "night", 1, "Meg: investigate conia disguised as Schinichi")
    assert pms(r, "Meg") == ['"conia disguised as Schinichi" - False']


# ---- Experimental: Police Detect and Police Identify (Uehara) ------------------------------


def test_police_detect_sees_a_disguised_officer_too():
    quote('An example of its use would be to send the action: "Detect Megure". If Megure were '
          'in the game, Uehara would receive "true".')
    quote("If Uehara uses Police Detect for Megure and there is no Megure but there IS a "
          "disguised Megure (for example, Vermouth-Megure), Uehara will receive \"true\" as a "
          "result regardless.")
    s = game("Ue=uehara", "V=vermouth", "Sat=satou", "G=gin", "X=camel")
    answers = [pms(phase(s, "night", 1, f"Ue: police detect {who}"), "Ue")[0]
               for who in ("Megure", "Satou", "Chiba")]
    assert answers == ["Police Detect: Megure is in the game. Answer from GM: false",
                       "Police Detect: Satou is in the game. Answer from GM: true",
                       "Police Detect: Chiba is in the game. Answer from GM: false"]
    wear_disguise(RULES, s.players["V"], "megure")
    r = phase(s, "night", 1, "Ue: police detect Megure")
    assert pms(r, "Ue") == ["Police Detect: Megure is in the game. Answer from GM: true"]
    # Only police roles: Detect is not for any character.
    r = phase(s, "night", 1, "Ue: police detect Gin")
    assert pms(r, "Ue") == ["Police Detect: Gin is in the game. Answer from GM: false"]


def test_police_identify_until_a_positive_identification():
    quote('An example of its use would be to send the action: "Identify PhoenixTears as '
          'Megure". If PhoenixTears were Megure, the result would be "true".')
    quote("Uehara may use Police Identify every day phase until she makes a positive "
          "identification. Once she does, the ability is considered expired and may not be used "
          "again for the remainder of the game.")
    s = game("Ue=uehara", "PhoenixTears=vermouth", "Sat=satou", "G=gin", "X=camel")
    wear_disguise(RULES, s.players["PhoenixTears"], "megure")
    d1 = phase(s, "day", 1, "Ue: police identify Sat as Megure")
    assert pms(d1, "Ue") == ['"Sat is Megure" - false']
    d2 = phase(phase(d1.state, "night", 2).state, "day", 2,
               "Ue: police identify PhoenixTears as Megure")
    assert pms(d2, "Ue") == ['"PhoenixTears is Megure" - true']
    d3 = phase(phase(d2.state, "night", 3).state, "day", 3, "Ue: police identify Sat as Satou")
    assert pms(d3, "Ue") == [] and "no use of police identify left" in " ".join(d3.log_lines())


def test_special_investigate_may_name_the_dead():
    quote("Special Investigate may now be used to investigate past actions involving both dead "
          "and alive targets.")
    s = game("G=gin", "V=camel", "Okiya=okiya", "Boss=anokata", "X=jodie")
    s = phase(s, "night", 1, "Black Org: kill V by G").state
    r = phase(s, "night", 2, "Okiya: si G kills V on Night 1")
    assert pms(r, "Okiya") == ['"G kills V on Night 1" - True']


def test_an_arrest_for_a_disguise_worn_and_the_disguise_is_lost():
    quote("Arrest Sebolains for disguising as Megure on Night 3.")
    quote("Kid/Vermouth lose their disguise if pinched, injured, arrested for being disguised, "
          "house searched; keep their disguise otherwise.")
    s = game("Sebolains=vermouth", "Pofa=satou", "Meg=megure", "G=gin", "X=camel")
    wear_disguise(RULES, s.players["Sebolains"], "ran")
    s = phase(s, "night", 1).state
    wrong = phase(s, "day", 1, "Pofa: arrest Sebolains for disguising as Megure on Night 1")
    assert "arrested" not in wrong.state.players["Sebolains"].statuses
    assert wrong.public == ("An unidentified police officer was suspended for the next 2 "
                            "phases.",)
    right = phase(s, "day", 1, "Meg: arrest Sebolains for disguising as Ran on Night 1")
    assert "arrested" in right.state.players["Sebolains"].statuses
    assert disguise_of(right.state.players["Sebolains"]) is None


def test_the_black_org_cannot_arrest_for_a_blamed_action():
    quote("The BO can't arrest someone for a blamed action in any way. But a town player, that "
          "is a lover with a BO, can arrest someone for a blamed action.")
    quote("Vermouth may not arrest someone for a blamed action for any reason.")
    s = game("Boss=anokata", "Xpon=haibara", "CTU=camel", "Sat=satou", "V=vermouth")
    wear_disguise(RULES, s.players["V"], "takagi")  # Takagi's card: an Arrest
    n1 = phase(s, "night", 1, "Black Org: kill CTU by Boss", "Boss: blame Xpon for killing CTU")
    d = phase(n1.state, "day", 1, "V: arrest Xpon for killing CTU on Night 1")
    assert "arrested" not in d.state.players["Xpon"].statuses
    assert "may not arrest anyone for a blamed action" in " ".join(d.log_lines())
    d = phase(n1.state, "day", 1, "Sat: arrest Xpon for killing CTU on Night 1")
    assert "arrested" in d.state.players["Xpon"].statuses
