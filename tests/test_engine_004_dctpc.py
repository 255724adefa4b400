"""DCTP Live Mini Mafia (seed 004), the rules a GM used to keep by hand: past disguises in
arrests and special investigations, injuries and results, the Black Suitcase passed on, travel
in the Prep phase, a new disguise after a face pinch, Re-choose Disguise and Spy. Each test
quotes the sentence of ../shared/seeds/004_22384bb39b2a9dee.txt it checks.
"""

from __future__ import annotations

from assistant.engine.resolver import PhaseResult
from assistant.engine.setup import PlayerSetup, Setup, parse_setup
from assistant.engine.state import GameState, disguise_of
from tests.dctp_support import RULES, dead, phase, quote


def pms(r: PhaseResult, who: str) -> str:
    """The player's PM lines of the phase, joined as a GM reads them."""
    return " | ".join(r.pms.get(who, []))


def setup(*players: str, **extra: object) -> GameState:
    """Players as "Name=role", "Name=role/disguise" (a Prep disguise) or
    "Name=role+c1,c2,c3" (the costumes chosen in Prep)."""
    slots = []
    for spec in players:
        name, _, rest = spec.partition("=")
        rest, _, costumes = rest.partition("+")
        role, _, worn = rest.partition("/")
        slots.append(PlayerSetup(name, RULES.role(role).sides[0], role, (), worn or None,
                                 tuple(c for c in costumes.split(",") if c)))
    return GameState.from_setup(RULES, Setup(tuple(slots), 5, dict(extra)))


def arrested(r, who: str) -> bool:
    return "arrested" in r.state.players[who].statuses


SUSPENDED = "An unidentified police officer was suspended for the next 2 phases."


# ---- past disguises: arrests, special investigations, house searches ---------------------


def test_an_arrest_for_a_prep_disguise_lost_since_holds_when_the_phase_is_named():
    quote("Kid and Vermouth lose their disguise if injured, so it is to the policeman's "
          "advantage to provide a specific phase when arresting for disguise.")
    quote("Disguise - Roles with action: Vermouth, Kid - Prep action, crime, remains so long as "
          "it is not removed due to injury or an ability.")
    s = setup("Ver=vermouth/ran", "Kob=kobayashi", "G=gin", "Boss=anokata", "Meg=megure",
              "Sat=satou", "Cam=camel")
    n1 = phase(s, "night", 1, "Black Org: kill Ver by G", "Kob: first aid Ver")
    assert disguise_of(n1.state.players["Ver"]) is None  # injured: the disguise is gone
    # With the phase named, the disguise worn then is a crime still.
    d1 = phase(n1.state, "day", 1, "Meg: arrest Ver for disguising as Ran on Night 1")
    assert arrested(d1, "Ver") and d1.public == ("Ver has been arrested.",)
    # Worn from the Prep phase on: "during Prep" holds too.
    prep = phase(n1.state, "day", 1, "Meg: arrest Ver for disguising as Ran during Prep")
    assert arrested(prep, "Ver")
    # Without the phase, only the disguise worn now counts: she wears none, a false accusation.
    bare = phase(n1.state, "day", 1, "Meg: arrest Ver for disguising as Ran")
    assert not arrested(bare, "Ver") and bare.public == (SUSPENDED,)
    # The wrong disguise, or a phase after it was lost, is a false accusation too.
    wrong = phase(n1.state, "day", 1, "Meg: arrest Ver for disguising as Satou on Night 1")
    assert not arrested(wrong, "Ver") and wrong.public == (SUSPENDED,)
    n2 = phase(d1.state, "night", 2)
    late = phase(phase(n1.state, "day", 1).state, "night", 2,
                 "Sat: arrest Ver for disguising as Ran on Day 1")
    assert not arrested(late, "Ver") and late.public == (SUSPENDED,)
    assert n2.state.players["Ver"].alive


def test_a_prep_disguise_still_worn_may_be_arrested_without_a_phase():
    quote("Arrest Sebolains for disguising as Megure on Night 3.")
    s = setup("Ver=vermouth/ran", "G=gin", "Boss=anokata", "Meg=megure", "Cam=camel")
    d1 = phase(phase(s, "night", 1).state, "day", 1, "Meg: arrest Ver for disguising as Ran")
    assert arrested(d1, "Ver") and disguise_of(d1.state.players["Ver"]) is None
    quote("You can't arrest someone for the same crime twice.")
    s = setup("Ver=vermouth/ran", "Eri=eri", "G=gin", "Boss=anokata", "Meg=megure", "Cam=camel")
    s = phase(s, "night", 1).state
    d1 = phase(s, "day", 1, "Meg: arrest Ver for disguising as Ran on Night 1")
    freed = phase(d1.state, "night", 2, "Eri: lawsuit Ver")
    again = phase(freed.state, "day", 2, "Meg: arrest Ver for disguising as Ran on Night 1")
    assert not arrested(again, "Ver") and again.public == (SUSPENDED,)


COSTUMED = ("Yuk=yukiko+megure,araide,ran", "G=gin", "Boss=anokata", "Meg=megure",
            "Sat=satou", "Cam=camel", "Hei=heiji")  # fmt: skip


def _worn_megure_on_night_2() -> GameState:
    s = setup(*COSTUMED)
    s = phase(s, "night", 1).state
    s = phase(s, "day", 1, "Yuk: temporary disguise Megure").state
    s = phase(s, "night", 2).state
    s = phase(s, "day", 2).state
    return phase(s, "night", 3).state  # the costume is off since Night 2 ended


def test_a_costume_is_arrested_for_the_day_it_was_donned_or_the_night_it_was_worn():
    quote("Yukiko and Irish must be arrested for the right disguise during the right time frame.")
    quote("An arrest will only succeed if the officer arresting him/her adds the correct time of "
          "the disguise (the day phase he/she donned the disguise or the night phase she wore "
          "it).")
    s = _worn_megure_on_night_2()
    assert disguise_of(s.players["Yuk"]) is None
    for when in ("Night 2", "Day 1"):
        r = phase(s, "day", 3, f"Meg: arrest Yuk for disguising as Megure on {when}")
        assert arrested(r, "Yuk"), when
        assert r.public == ("Yuk has been arrested.",)
    for wrong in ("disguising as Megure on Night 3", "disguising as Ran on Night 2"):
        r = phase(s, "day", 3, f"Meg: arrest Yuk for {wrong}")
        assert not arrested(r, "Yuk") and r.public == (SUSPENDED,), wrong


def test_a_costume_arrest_without_a_time_fails_without_a_suspension():
    quote("If no time is given during the arrest attempt, the arrest attempt will \"fail\" even "
          "if the correct disguise is given, because the order wasn't given correctly. There "
          "will be no suspension for that.")
    s = setup(*COSTUMED)
    s = phase(phase(s, "night", 1).state, "day", 1, "Yuk: temporary disguise Megure").state
    # Worn tonight, and the officer names the right costume, but no time.
    r = phase(s, "night", 2, "Meg: arrest Yuk for disguising as Megure", "Meg: investigate "
              "G kills Cam")
    assert not arrested(r, "Yuk") and r.public == ()
    assert pms(r, "Meg").startswith("Your action failed.")
    assert not any(x.startswith("suspended") for x in r.state.players["Meg"].statuses)
    # Later the costume is off, and the same stands.
    r = phase(_worn_megure_on_night_2(), "day", 3, "Meg: arrest Yuk for disguising as Megure")
    assert not arrested(r, "Yuk") and r.public == ()


def test_an_action_done_in_a_costume_worn_earlier_may_be_arrested_for():
    quote("Consequences of actions will still affect the player, even when he lost his disguise.")
    quote("List of abilities that constitute crimes: Killing (whether it be of the normal, "
          "sniping, or APTX variety), Blaming, Disguising, Slandering, Bribing, "
          "Discombobulating, Abducting, Erasing, Frightening, Stealing.")
    s = setup("Ir=irish+eisuke,araide,ran", "Boss=anokata", "Con=conan", "Sat=satou",
              "Cam=camel", "G=gin")
    s = phase(phase(s, "night", 1).state, "day", 1, "Ir: temporary disguise Eisuke").state
    n2 = phase(s, "night", 2, "Ir: discombobulate Con", "Con: interrogate G")
    assert pms(n2, "Con") == "Your action failed."
    d2 = phase(n2.state, "day", 2)
    n3 = phase(d2.state, "night", 3)
    assert disguise_of(n3.state.players["Ir"]) is None
    r = phase(n3.state, "day", 3, "Sat: arrest Ir for discombobulating Con on Night 2")
    assert arrested(r, "Ir") and r.public == ("Ir has been arrested.",)


def test_special_investigate_names_a_disguise_and_its_phase():
    quote("Can also be special investigated for their exact disguise in a certain phase (such as "
          "\"SI Conia disguising as Ran during Prep\").")
    s = setup("Conia=vermouth/ran", "G=gin", "Boss=anokata", "Ok=okiya", "Cam=camel")
    r = phase(s, "night", 1, "Ok: si Conia disguising as Ran during Prep")
    assert pms(r, "Ok") == '"Conia disguising as Ran during Prep" - True'
    r = phase(s, "night", 1, "Ok: si Conia disguising as Satou during Prep")
    assert pms(r, "Ok") == '"Conia disguising as Satou during Prep" - False'
    r2 = phase(phase(r.state, "day", 1).state, "night", 2,
               "Ok: si Conia disguising as Ran on Night 1")
    assert pms(r2, "Ok") == '"Conia disguising as Ran on Night 1" - True'


def test_cross_examine_counts_a_prep_disguise_and_a_search_finds_a_past_costume():
    quote("The player can choose to cross-exame one player, to find out whether they have "
          "committed any crimes so far (includes prep phase).")
    s = setup("Conia=vermouth/ran", "G=gin", "Boss=anokata", "Eri=eri", "Cam=camel",
              "Kid=kid")
    r = phase(s, "night", 1, "Eri: cross-examine Conia")
    assert pms(r, "Eri") == "Cross-examination of Conia: true"
    r = phase(s, "night", 1, "Eri: cross-examine Kid")
    assert pms(r, "Eri") == "Cross-examination of Kid: false"
    quote("House-search will lead to Yukikos arrest, if she disguised already during the game.")
    r = phase(_worn_megure_on_night_2(), "night", 3, "Meg: house search Yuk")
    assert arrested(r, "Yuk")
    assert pms(r, "Meg") == ("House search of Yuk: crimes found (disguising as Megure). Yuk is "
                             "arrested.")


def test_a_setup_file_records_the_prep_disguise_for_later_arrests():
    text = ('players = [{ name = "Akonyl", role = "kid", disguise = "kir" }, '
            '{ name = "Meg", role = "megure" }, { name = "G", role = "gin" }, '
            '{ name = "Boss", role = "anokata" }]')
    s = GameState.from_setup(RULES, parse_setup(text, RULES, where="setup.toml",
                                                default_seed=2))
    r = phase(phase(s, "night", 1).state, "day", 1,
              "Meg: arrest Akonyl for disguising as Kir during Prep")
    assert arrested(r, "Akonyl")
    assert dead(r) == []


# ---- injuries: no results the phase of the injury, Revenge ----------------------------------


def test_an_injured_player_gets_no_results_that_phase_not_even_of_an_item():
    quote("Injured/suspended people do not recieve results on the phase they're "
          "injured/suspended.")
    quote("Players that are injured may still use items such as the bow-tie.")
    s = setup("Aga=agasa", "G=gin", "Boss=anokata", "Akai=akai", "Con=conan", "Cam=camel")
    d1 = phase(phase(s, "night", 1).state, "day", 1, "Aga: lend bow-tie to G")
    # Gin kills Akai, whose Vengeance injures him: his bow-tie interrogation is made, but he
    # hears nothing of it that night.
    n2 = phase(d1.state, "night", 2, "Black Org: kill Akai by G", "G: bow-tie interrogate Con")
    assert dead(n2) == ["Akai"] and "injured" in n2.state.players["G"].statuses
    assert "Interrogation" not in pms(n2, "G")
    assert any("not sent" in x and "Interrogation of Con" in x for x in n2.log_lines())
    # Not injured (he kills someone else), he is told.
    n2 = phase(d1.state, "night", 2, "Black Org: kill Cam by G", "G: bow-tie interrogate Con")
    assert pms(n2, "G") == "Interrogation of Con: Not BO"


def test_a_first_aided_player_loses_the_result_but_hears_of_the_first_aid():
    quote("The target and the attacker will know that someone healed/First aided the target, but "
          "not who.")
    s = setup("Eis=eisuke", "Kob=kobayashi", "Con=conan", "G=gin", "Boss=anokata")
    r = phase(s, "night", 1, "Eis: discombobulate Con", "Black Org: kill Eis by G",
              "Kob: first aid Eis")
    assert dead(r) == [] and "injured" in r.state.players["Eis"].statuses
    assert pms(r, "Eis") == "You were attacked tonight, but someone first-aided you."
    assert pms(r, "G") == "Your target was healed."
    # Unhurt, the trickster is told what he did.
    r = phase(s, "night", 1, "Eis: discombobulate Con")
    assert pms(r, "Eis") == "You used discombobulate on Con."


def test_ran_injured_by_her_saving_protection_still_learns_the_attacker():
    quote("The Protected individual and the Protector then learns the identity of the "
          "attacker(!)")
    s = setup("Ran=ran", "Cam=camel", "G=gin", "Boss=anokata")
    r = phase(s, "night", 1, "Black Org: kill Cam by G", "Ran: protect Cam")
    assert "injured" in r.state.players["Ran"].statuses
    assert pms(r, "Ran") == "You protected Cam from G's attack tonight."


def test_an_injury_in_a_costume_stays_when_the_costume_is_gone():
    quote("If he got injured while disguising as Ran he will stay injured.")
    s = setup("Yuk=yukiko+ran,araide,megure", "Cam=camel", "G=gin", "Boss=anokata", "Con=conan")
    s = phase(phase(s, "night", 1).state, "day", 1, "Yuk: temporary disguise Ran").state
    n2 = phase(s, "night", 2, "Black Org: kill Cam by G", "Yuk: protect Cam")
    assert dead(n2) == []
    yuk = n2.state.players["Yuk"]
    assert "injured" in yuk.statuses and disguise_of(yuk) is None
    d2 = phase(n2.state, "day", 2, "Yuk: temporary disguise Araide")
    assert "injured" in d2.state.players["Yuk"].statuses
    assert disguise_of(d2.state.players["Yuk"]) is None  # injured: no ability, no costume
    assert any("Yuk is injured" in x for x in d2.log_lines())


def _lynch(state: GameState, name: str, voted_for: str | None):
    from assistant.engine.history import apply_death

    data = {"player": name, "how": "lynch", "voted_for": voted_for}
    return apply_death(state, data, [])


def test_a_lynched_sniper_injures_the_player_she_voted_for():
    quote("When they get lynched, the target of their own lynching vote will become \"injured\"")
    s = setup("Chi=chianti", "Con=conan", "G=gin", "Boss=anokata", "Cam=camel")
    r = _lynch(phase(s, "night", 1).state, "Chi", "Con")
    assert not r.state.players["Chi"].alive
    assert "injured" in r.state.players["Con"].statuses
    assert "injured" not in r.state.players["Cam"].statuses
    n2 = phase(r.state, "night", 2, "Con: interrogate G")
    assert pms(n2, "Con") == ""  # injured for good
    # No vote, nobody.
    r = _lynch(phase(s, "night", 1).state, "Chi", None)
    assert not any("injured" in p.statuses for p in r.state.players.values())


def test_an_injured_sniper_has_no_revenge_but_one_injured_by_bone_breaking_has():
    quote("The exception is the nightly killing for Black Org members--they may still carry out "
          "a kill at night, but they will lose their role-specific abilities (including "
          "Revenge).")
    quote("If injured by Bone Breaking, the sniper can still use this action (only exception)")
    s = setup("Chi=chianti", "Akai=akai", "Con=conan", "G=gin", "Boss=anokata", "Cam=camel",
              "Meg=megure")
    # Akai's Vengeance injures the sniper who killed him: no Revenge after that.
    avenged = phase(s, "night", 1, "Black Org: kill Akai by Chi")
    assert "injured" in avenged.state.players["Chi"].statuses
    r = _lynch(avenged.state, "Chi", "Con")
    assert "injured" not in r.state.players["Con"].statuses
    arrest = phase(avenged.state, "day", 1, "Meg: arrest Chi for killing Akai on Night 1")
    assert arrest.public == ("Chi has been arrested.",)  # no resisting
    # Bone Breaking stops her snipe and injures her, and she keeps her Revenge.
    broken = phase(s, "night", 1, "Black Org: kill Cam by Chi", "Akai: bone breaking Cam")
    assert dead(broken) == [] and "injured" in broken.state.players["Chi"].statuses
    r = _lynch(broken.state, "Chi", "Con")
    assert "injured" in r.state.players["Con"].statuses
    n2 = phase(phase(broken.state, "day", 1).state, "night", 2, "Black Org: kill Con by Chi")
    arrest = phase(n2.state, "day", 2, "Meg: arrest Chi for killing Con on Night 2")
    assert arrest.public == ("Chi was arrested as Chianti, and a police officer was injured in "
                             "the process.",)


# ---- the Black Suitcase passed on -----------------------------------------------------------


def test_the_suitcase_passes_to_the_next_ranked_member_when_the_leader_is_killed():
    quote("During each day the Leader (also, next highest-ranked BO in case Leader dies or is "
          "arrested) can decide to give the \"Black Suitcase\" to any player (even himself).")
    s = setup("Boss=anokata", "V=vodka", "G=gin", "Con=conan", "Cam=camel", "Meg=megure")
    n1 = phase(s, "night", 1, "Black Org: kill Boss by G")
    assert dead(n1) == ["Boss"]
    assert "black-suitcase" in n1.state.players["G"].items  # Gin ranks above Vodka
    assert pms(n1, "G").startswith("You are the next highest-ranked member of the Black Org: "
                                   "the Black Suitcase is yours")
    d1 = phase(n1.state, "day", 1, "G: give black-suitcase to V")
    assert pms(d1, "V") == "You have received the Black Suitcase for the night."
    n2 = phase(d1.state, "night", 2, "V: suitcase interrogate Con",
               "Meg: investigate V interrogates Con")
    assert pms(n2, "V") == ""  # "the player will never get a result for that action"
    assert pms(n2, "Meg") == '"V interrogates Con" - True'
    assert "black-suitcase" in n2.state.players["G"].items  # back with its holder


def test_an_arrested_leaders_suitcase_passes_on_too():
    s = setup("Boss=anokata", "V=vodka", "Ver=vermouth", "Con=conan", "Meg=megure")
    d1 = phase(phase(s, "night", 1).state, "day", 1, "Meg: arrest Boss")
    assert "arrested" in d1.state.players["Boss"].statuses
    assert "black-suitcase" in d1.state.players["V"].items  # Vodka ranks above Vermouth
    d2 = phase(phase(d1.state, "night", 2).state, "day", 2, "V: give black-suitcase to V")
    n3 = phase(d2.state, "night", 3, "V: suitcase heal Con")
    assert any("V: suitcase heal Con" in x for x in n3.log_lines())


def test_the_suitcase_needs_a_loan_after_night_1():
    quote("Anokata can use the Black Suitcase during Night 1 for himself.")
    quote("Has to give it to someone, otherwise no one will recieve the Black Suitcase")
    import pytest

    from assistant.errors import OrderError

    s = setup("Boss=anokata", "G=gin", "Con=conan", "Meg=megure")
    n1 = phase(s, "night", 1, "Boss: suitcase interrogate Con")
    assert any("Boss: suitcase interrogate Con" in x and "fails" not in x
               for x in n1.log_lines())
    d1 = phase(n1.state, "day", 1)
    with pytest.raises(OrderError):
        phase(d1.state, "night", 2, "Boss: suitcase interrogate Con")
    d1 = phase(n1.state, "day", 1, "Boss: give black-suitcase to Boss")
    n2 = phase(d1.state, "night", 2, "Boss: suitcase interrogate Con",
               "Meg: investigate Boss interrogates Con")
    assert pms(n2, "Meg") == '"Boss interrogates Con" - True'


def test_a_substitute_has_the_suitcase_when_the_one_chosen_is_lynched():
    quote("He can also choose a substitute in case that player is killed/arrested.")
    s = setup("Boss=anokata", "Xpon=gin", "G=vodka", "Con=conan", "Meg=megure", "Cam=camel")
    d1 = phase(phase(s, "night", 1).state, "day", 1, "Boss: give black-suitcase to Xpon or G")
    assert pms(d1, "Xpon") == "You have received the Black Suitcase for the night."
    lynched = _lynch(d1.state, "Xpon", None)
    n2 = phase(lynched.state, "night", 2, "G: suitcase interrogate Con")
    assert "black-suitcase" in n2.state.players["Boss"].items  # returned after the night
    # Passed on at the lynch: the GM is told to tell G.
    assert "Tell G: You have received the Black Suitcase for the night." in lynched.notes
    assert any("goes to G" in x for x in lynched.log_lines())
    assert pms(n2, "G") == ""  # a fake action: no result
    # Both out of play: nobody has it.
    d1 = phase(phase(s, "night", 1).state, "day", 1, "Boss: give black-suitcase to Xpon or G",
               "Meg: arrest G")
    lynched = _lynch(d1.state, "Xpon", None)
    import pytest

    from assistant.errors import OrderError

    for who in ("G", "Boss"):
        with pytest.raises(OrderError):
            phase(lynched.state, "night", 2, f"{who}: suitcase interrogate Con")


def test_agasas_watch_goes_to_the_alternative_when_the_one_chosen_is_lynched():
    quote("While he has to decide whom he'll give it to during the day, he may include "
          "(ordered) alternatives in case the one he chose gets lynched/etc.")
    s = setup("Aga=agasa", "Con=conan", "Cam=camel", "G=gin", "Boss=anokata")
    d1 = phase(phase(s, "night", 1).state, "day", 1, "Aga: lend watch to Con or Cam")
    n2 = phase(_lynch(d1.state, "Con", None).state, "night", 2, "Black Org: kill Cam by G")
    assert dead(n2) == []
    assert "watch" in n2.state.players["Aga"].items
    # Not lynched: Con has it, and Cam has no watch.
    n2 = phase(d1.state, "night", 2, "Black Org: kill Cam by G")
    assert dead(n2) == ["Cam"]


# ---- travel in the Prep phase -----------------------------------------------------------------


def _travellers(*players: str) -> GameState:
    text = "players = [" + ", ".join(players) + "]"
    return GameState.from_setup(RULES, parse_setup(text, RULES, where="setup.toml",
                                                   default_seed=4))


def _vote_mods(state: GameState, day: int) -> dict:
    from assistant.engine.vote_effects import modifiers_for_day

    return {m["player"]: m for m in modifiers_for_day(state, day)}


def test_travel_in_prep_on_the_plane_on_night_1_and_in_japan_on_day_1():
    quote("They may choose whether they wish to travel during Prep by saying as much to the GM. If "
          "they do travel beginning in prep, they will be in the air on Night 1, thus making it "
          "so they cannot use their action during the night. If this path is chosen, they will "
          "arrive during Day 1 and be able to participate normally.")
    s = _travellers('{ name = "Hak", role = "hakuba", prep_travel = true }',
                    '{ name = "G", role = "gin" }', '{ name = "Boss", role = "anokata" }',
                    '{ name = "Con", role = "conan" }')
    n1 = phase(s, "night", 1, "Hak: interrogate G", "Black Org: kill Hak by G")
    assert dead(n1) == [] and pms(n1, "Hak") == ""
    assert any("Hak is on the plane" in x for x in n1.log_lines())
    assert "Hak" not in _vote_mods(n1.state, 1)  # Day 1: in Japan, he votes
    n2 = phase(phase(n1.state, "day", 1).state, "night", 2, "Hak: interrogate G")
    assert pms(n2, "Hak") == "Interrogation of G: BO"
    # Without it he is abroad on Day 1 and does not vote.
    stay = _travellers('{ name = "Hak", role = "hakuba" }', '{ name = "G", role = "gin" }')
    assert _vote_mods(phase(stay, "night", 1).state, 1)["Hak"]["source"] == "abroad"


def test_makoto_travelling_in_prep_protects_on_day_1():
    quote("They will arrive during Day 1 and can participate in Voting or use their Day ability "
          "(Makoto).")
    s = _travellers('{ name = "Mak", role = "makoto", prep_travel = true }',
                    '{ name = "G", role = "gin" }', '{ name = "Boss", role = "anokata" }',
                    '{ name = "Con", role = "conan" }')
    d1 = phase(phase(s, "night", 1).state, "day", 1, "Mak: protect Con")
    assert not any("fails" in x for x in d1.log_lines() if "Mak: protect" in x)
    quote("Things that can be investigated from prep phase: Disguise, Choose Costume, "
          "Friendship and Travel.")
    s = _travellers('{ name = "Mak", role = "makoto", prep_travel = true }',
                    '{ name = "Ok", role = "okiya" }', '{ name = "G", role = "gin" }')
    # On the plane on Night 1, nothing reaches him; back in Japan, the Prep travel is found.
    r = phase(s, "night", 1, "Ok: si Mak travels during Prep")
    assert pms(r, "Ok") == ""
    r = phase(phase(r.state, "day", 1).state, "night", 2, "Ok: si Mak travels during Prep")
    assert pms(r, "Ok") == '"Mak travels during Prep" - True'


def test_prep_travel_is_refused_for_a_player_who_does_not_travel():
    import pytest

    from assistant.errors import ConfigError

    with pytest.raises(ConfigError, match="does not travel in the Prep phase"):
        _travellers('{ name = "Con", role = "conan", prep_travel = true }')
    setup_ = parse_setup('players = [{ name = "Hak", role = "hakuba", prep_travel = true }]',
                         RULES, where="setup.toml", default_seed=1)
    assert Setup.from_dict(setup_.to_dict()).players[0].prep_travel is True


# ---- a new disguise after a face pinch ---------------------------------------------------------


def test_a_pinched_disguiser_freed_from_jail_gets_a_new_disguise_at_random():
    quote("Kid and Vermouth will then be assigned a new disguise at random if they are released "
          "from jail.")
    s = setup("Ver=vermouth/ran", "Nak=nakamori", "Eri=eri", "G=gin", "Boss=anokata",
              "Cam=camel", "Con=conan")
    n1 = phase(s, "night", 1, "Nak: pinch face Ver")
    assert "arrested" in n1.state.players["Ver"].statuses
    assert disguise_of(n1.state.players["Ver"]) is None
    freed = phase(phase(n1.state, "day", 1).state, "night", 2, "Eri: lawsuit Ver")
    ver = freed.state.players["Ver"]
    worn = disguise_of(ver)
    assert "arrested" not in ver.statuses and worn is not None
    title = RULES.role(worn).title
    assert pms(freed, "Ver") == ("A lawsuit has freed you: you are out of prison. | You have a "
                                 f"new disguise: {title}.")
    # A town role nobody plays or wears, and one a disguiser may wear.
    quote("Disguisers may not disguise as Black Org members, children, or Prep phase roles.")
    role = RULES.role(worn)
    assert role.sides == ("town",) and role.passives["age"] != "Child"
    assert worn not in {"ran", "nakamori", "eri", "camel", "conan", "yumi", "sonoko", "hakuba",
                        "makoto", "yukiko", "kid"}
    # Its interrogation answer is the new disguise's.
    n3 = phase(phase(freed.state, "day", 2).state, "night", 3, "Con: interrogate Ver")
    assert pms(n3, "Con") == "Interrogation of Ver: Not BO"


def test_a_disguiser_arrested_otherwise_or_yukiko_gets_no_new_disguise():
    quote("If Yukiko is pinched and arrested, she does not get a new role when freed.")
    s = setup("Yuk=yukiko+megure,araide,ran", "Nak=nakamori", "Eri=eri", "G=gin",
              "Boss=anokata", "Cam=camel")
    s = phase(phase(s, "night", 1).state, "day", 1, "Yuk: temporary disguise Megure").state
    n2 = phase(s, "night", 2, "Nak: pinch face Yuk")
    assert "arrested" in n2.state.players["Yuk"].statuses
    freed = phase(phase(n2.state, "day", 2).state, "night", 3, "Eri: lawsuit Yuk")
    assert disguise_of(freed.state.players["Yuk"]) is None
    assert pms(freed, "Yuk") == "A lawsuit has freed you: you are out of prison."
    # Arrested for a crime, not pinched: freed as she was (her disguise kept).
    s = setup("Ver=vermouth/ran", "Meg=megure", "Eri=eri", "G=gin", "Boss=anokata", "Cam=camel")
    n1 = phase(s, "night", 1, "Black Org: kill Cam by Ver")
    d1 = phase(n1.state, "day", 1, "Meg: arrest Ver for killing Cam on Night 1")
    freed = phase(d1.state, "night", 2, "Eri: lawsuit Ver")
    assert disguise_of(freed.state.players["Ver"]) == "ran"


def test_a_setup_disguise_as_a_child_or_a_prep_role_is_refused():
    import pytest

    from assistant.errors import ConfigError

    quote("Disguisers may not disguise as Black Org members, children, or Prep phase roles.")
    text = 'players = [{ name = "K", role = "kid", disguise = "%s" }]'
    for barred in ("conan", "yumi", "hakuba"):
        with pytest.raises(ConfigError, match="may not disguise as"):
            parse_setup(text % barred, RULES, where="setup.toml", default_seed=1)
    assert parse_setup(text % "araide", RULES, where="setup.toml",
                       default_seed=1).players[0].disguise == "araide"


# ---- Re-choose Disguise ----------------------------------------------------------------------


def _all_three_worn() -> GameState:
    s = setup("Yuk=yukiko+megure,araide,ran", "G=gin", "Boss=anokata", "Cam=camel",
              "Con=conan", "Meg=megure")
    s = phase(s, "night", 1).state
    for day, costume in ((1, "Megure"), (2, "Araide"), (3, "Ran")):
        s = phase(s, "day", day, f"Yuk: temporary disguise {costume}").state
        s = phase(s, "night", day + 1).state
    return s


def test_re_choose_disguise_the_day_after_the_last_costume():
    quote("The Day after Irish/Yukiko used his/her last disguise, he/she can re-use Choose "
          "Disguise. Not a crime.")
    s = _all_three_worn()
    d4 = phase(s, "day", 4, "Yuk: re-choose disguise Heiji, Eri and Kazuha",
               "Yuk: temporary disguise Heiji")
    assert pms(d4, "Yuk") == "Your costumes are now: Heiji, Eri, Kazuha."
    n5 = phase(d4.state, "night", 5, "Yuk: interrogate G")
    assert pms(n5, "Yuk") == "Interrogation of G: BO"  # Heiji's Interrogate, worn tonight
    # Not a crime: cross-examining her finds the costumes worn, nothing of the choice.
    acts = [x for x in d4.state.acts if x.actor == "Yuk" and x.keyword == "re-choose disguise"]
    assert acts and not any(x.crime for x in acts)


def test_re_choose_disguise_waits_for_the_last_costume_and_no_role_twice():
    quote("She can not disguise as the same role twice. (So she can only be disguised during a "
          "total of 3 nights.)")
    s = setup("Yuk=yukiko+megure,araide,ran", "G=gin", "Boss=anokata", "Cam=camel")
    d1 = phase(phase(s, "night", 1).state, "day", 1, "Yuk: re-choose disguise Heiji, Eri and "
               "Kazuha")
    assert any("has costumes not worn yet" in x for x in d1.log_lines())
    assert pms(d1, "Yuk") == ""
    d4 = phase(_all_three_worn(), "day", 4, "Yuk: re-choose disguise Heiji, Ran and Kazuha")
    assert any("has worn ran already" in x for x in d4.log_lines())
    import pytest

    from assistant.errors import OrderError

    with pytest.raises(OrderError, match="3 different roles"):
        phase(_all_three_worn(), "day", 4, "Yuk: re-choose disguise Heiji and Eri")


# ---- Spy (a variant: "Bourbon made the same as Okiya, eliminating the Spy ability") ------------

SPY_GAME = ("Bou=bourbon", "Boss=anokata", "Kid=kid/shinichi", "A=araide", "B=camel",
            "C=conan", "D=eri", "E=heiji")  # fmt: skip


def check(state: GameState, text: str, n: int = 1, kind: str = "night") -> None:
    """The order as the GM enters it: parsed and checked against the rules (raises)."""
    from assistant.engine.orders import check_order, parse_order

    check_order(parse_order(text, state, phase=kind, number=n), state)


def test_spy_is_a_variant_the_setup_turns_on():
    quote("Bourbon made the same as Okiya, eliminating the Spy ability. [8/22/11]")
    import pytest

    from assistant.errors import OrderError

    with pytest.raises(OrderError, match='variants = \\["spy"\\]'):
        check(setup(*SPY_GAME), "Bou: spy A, B, C and D")
    check(setup(*SPY_GAME, variants=["spy"]), "Bou: spy A, B, C and D")
    from assistant.errors import ConfigError

    with pytest.raises(ConfigError, match="variants the dctp-mini knows|variants dctp-mini "
                                          "knows"):
        parse_setup('variants = ["spie"]\nplayers = [{ name = "Bou", role = "bourbon" }]',
                    RULES, where="setup.toml", default_seed=1)


def test_spy_learns_one_role_of_the_list_not_whose():
    quote("Of these, the GM picks a random one and sends the name of the role to the player. He "
          "will not know from which of the players he just learned the role")
    quote("He will only know there is a \"Shinichi\" in the list of 5 players")
    quote("This does not reveal if someone is Kid, the player will just get the disguised role")
    s = setup(*SPY_GAME, variants=["spy"])
    r = phase(s, "night", 1, "Bou: spy A, B, C, D and Kid")
    picked = next(x for x in r.log_lines() if "Bou: spy" in x).split("draws ")[1].split(":")[0]
    seen = {"A": "Araide", "B": "Camel", "C": "Conan", "D": "Eri", "Kid": "Shinichi"}[picked]
    assert pms(r, "Bou") == f'There is a "{seen}" in the list of 5 players.'
    # Every one of the list can be drawn (the random draw differs night by night).
    drawn = set()
    for n in range(1, 40):
        r = phase(s, "night", n, "Bou: spy A, B, C, D and Kid")
        drawn.add(pms(r, "Bou"))
    assert 'There is a "Shinichi" in the list of 5 players.' in drawn and len(drawn) == 5


def test_spy_names_four_to_six_players_none_of_the_black_org():
    quote("The user chooses a list of players not in the BO (4 - 6, depending on the size of the "
          "game. GM ultimately decides how many).")
    import pytest

    from assistant.errors import OrderError

    s = setup(*SPY_GAME, variants=["spy"])
    with pytest.raises(OrderError, match="4 to 6"):
        check(s, "Bou: spy A, B and C")
    with pytest.raises(OrderError, match="may not target one of their own"):
        check(s, "Bou: spy A, B, C and Boss")
    check(s, "Bou: spy A, B, C, D, E and Kid")


def test_spy_waits_until_the_player_drawn_is_killed_or_arrested():
    quote("The player can't use Spy again as long as the player with that role/disguise isn't "
          "killed or arrested. The GM will notify the player that he can use the ability again.")
    import pytest

    from assistant.errors import OrderError

    s = setup(*SPY_GAME, "F=megure", variants=["spy"])
    n1 = phase(s, "night", 1, "Bou: spy A, B, C and D")
    picked = next(x for x in n1.log_lines() if "Bou: spy" in x).split("draws ")[1].split(":")[0]
    d1 = phase(n1.state, "day", 1)
    with pytest.raises(OrderError, match=f"once {picked} is killed or arrested"):
        check(d1.state, "Bou: spy A, B, C and E", 2)
    # The Black Org kills the one drawn: told at dawn, and Spy works the next night.
    n2 = phase(d1.state, "night", 2, f"Black Org: kill {picked} by Boss")
    assert "You can use Spy again." in pms(n2, "Bou")
    n3 = phase(phase(n2.state, "day", 2).state, "night", 3,
               "Bou: spy " + ", ".join(x for x in "ABCDE" if x != picked))
    assert pms(n3, "Bou").startswith("There is a")
    # Arrested counts too.
    d1 = phase(n1.state, "day", 1, f"F: arrest {picked}")
    assert "You can use Spy again." in pms(d1, "Bou")


def test_spy_needs_four_townspeople_and_more_than_the_black_org():
    quote("Can't be used when there are less than 4 townspeople alive or if there are less than "
          "BO+1 townsplayer alive.")
    import pytest

    from assistant.errors import OrderError

    s = setup("Bou=bourbon", "Boss=anokata", "G=gin", "A=araide", "B=camel", "C=conan",
              variants=["spy"])
    with pytest.raises(OrderError, match="needs 4 or more"):
        check(s, "Bou: spy A, B, C and Boss")
    s = setup("Bou=bourbon", "Boss=anokata", "G=gin", "V=vodka", "A=araide", "B=camel",
              "C=conan", "D=eri", variants=["spy"])
    with pytest.raises(OrderError, match="4 against 4"):
        check(s, "Bou: spy A, B, C and D")


def test_spy_cannot_be_investigated_or_staked_out_but_betrayal_learns_of_it():
    quote("Spy cannot be investigated or staked out in any form.")
    quote("Spy: Knows that Bourbon used Spy (doesn't get to know what and the results)")
    s = setup(*SPY_GAME, "Meg=megure", "Tak=takagi", "Kir=kir", variants=["spy"])
    r = phase(s, "night", 1, "Bou: spy A, B, C and D", "Meg: investigate Bou spies A",
              "Tak: stake-out A")
    assert pms(r, "Meg") == '"Bou spies A" - False'
    assert pms(r, "Tak") == "Stake-out: nothing was done."
    assert pms(r, "Kir") == "Bourbon used Spy tonight."


# ---- the GM's path: a game through the command line -------------------------------------------

CLI_SETUP = """seed = 7
variants = ["spy"]
players = [
  { name = "Boss", role = "anokata" }, { name = "Abs", role = "gin" },
  { name = "Bou", role = "bourbon" }, { name = "Hak", role = "hakuba", prep_travel = true },
  { name = "Kid", role = "kid", disguise = "shinichi" }, { name = "Pofa", role = "satou" },
  { name = "Jd-", role = "araide" }, { name = "Conia", role = "conan" },
  { name = "Parkur", role = "camel" }, { name = "Lynz", role = "eri" },
]
"""


def test_spy_prep_travel_and_the_suitcase_passed_on_through_the_cli(tmp_path, capsys,
                                                                      monkeypatch):
    import json
    from datetime import UTC, datetime, timedelta

    from cli_support import CliAt

    cli = CliAt(tmp_path / "data", capsys, monkeypatch)
    players = tmp_path / "players.txt"
    players.write_text("\n".join(n for n in ("Boss", "Abs", "Bou", "Hak", "Kid", "Pofa", "Jd-",
                                             "Conia", "Parkur", "Lynz")) + "\n")
    (tmp_path / "setup.toml").write_text(CLI_SETUP, encoding="utf-8")
    n1 = datetime(2026, 11, 24, 20, 0, tzinfo=UTC)
    at = (n1 - timedelta(hours=1)).isoformat()
    cli.at(at, "game", "new", "dc", "--thread", "http://127.0.0.1:8021/index.php?topic=4.0",
           "--ruleset", "dctp-mini", "--players", str(players), "--gm", "Jd")
    cli.at(at, "roles", "dc", "--file", str(tmp_path / "setup.toml"))
    cli.at(n1.isoformat(), "phase", "dc", "night", "1")
    for order in ("Bou: spy Kid, Pofa, Jd- and Conia", "Hak: interrogate Abs",
                  "Black Org: kill Parkur by Abs"):
        cli.at((n1 + timedelta(minutes=5)).isoformat(), "order", "dc", order)
    d1 = n1 + timedelta(hours=12)
    log = cli.at(d1.isoformat(), "resolve", "dc")
    assert "Hak is on the plane" in log
    drafts = json.loads(cli.at(d1.isoformat(), "--json", "draft", "pms", "dc"))
    assert "in the list of 4 players." in drafts["Bou"]
    assert any(f'There is a "{c}"' in drafts["Bou"] for c in ("Shinichi", "Satou", "Araide",
                                                              "Conan"))
    assert "Hak" not in drafts
    # Day 1: Hakuba has landed and votes; the leader lends the suitcase and is lynched.
    cli.at(d1.isoformat(), "phase", "dc", "day", "1", "--ends",
           (d1 + timedelta(hours=24)).isoformat())
    cli.at((d1 + timedelta(hours=1)).isoformat(), "order", "dc",
           "Boss: give black-suitcase to Abs or Bou", "--day", "1")
    for i, voter in enumerate(("Hak", "Pofa", "Jd-", "Conia", "Lynz", "Kid")):
        cli.at((d1 + timedelta(hours=2, minutes=i)).isoformat(), "vote", "dc", voter, "Boss")
    end1 = d1 + timedelta(hours=24, minutes=1)
    count = json.loads(cli.at(end1.isoformat(), "--json", "count", "dc"))
    assert {w["target"]: w["effective"] for w in count["wagons"]} == {"Boss": 6}
    cli.at(end1.isoformat(), "resolve", "dc", "--day", "1")
    dusk = cli.at(end1.isoformat(), "draft", "dusk", "dc", "--confirm")
    assert "Boss has been lynched." in dusk
    # Night 2: Gin fakes an action with the suitcase lent to him; after the night it is his.
    cli.at(end1.isoformat(), "phase", "dc", "night", "2")
    cli.at((end1 + timedelta(minutes=5)).isoformat(), "order", "dc",
           "Abs: suitcase interrogate Conia")
    d2 = end1 + timedelta(hours=12)
    cli.at(d2.isoformat(), "resolve", "dc")
    drafts = json.loads(cli.at(d2.isoformat(), "--json", "draft", "pms", "dc"))
    assert "You are the next highest-ranked member of the Black Org: the Black Suitcase is " \
           "yours" in drafts["Abs"]
    cli.at(d2.isoformat(), "phase", "dc", "day", "2", "--ends",
           (d2 + timedelta(hours=24)).isoformat())
    cli.at((d2 + timedelta(hours=1)).isoformat(), "order", "dc",
           "Abs: give black-suitcase to Bou", "--day", "2")


def test_a_substitute_has_the_suitcase_when_the_one_chosen_is_arrested_that_day():
    quote("He can also choose a substitute in case that player is killed/arrested.")
    s = setup("Boss=anokata", "Xpon=gin", "G=vodka", "Con=conan", "Meg=megure", "Cam=camel")
    d1 = phase(phase(s, "night", 1).state, "day", 1, "Boss: give black-suitcase to Xpon or G",
               "Meg: arrest Xpon")
    assert "black-suitcase" in d1.state.players["G"].items
    assert pms(d1, "G") == "You have received the Black Suitcase for the night."
    n2 = phase(d1.state, "night", 2, "G: suitcase interrogate Con")
    assert "black-suitcase" in n2.state.players["Boss"].items


def test_spy_is_not_a_crime_and_cannot_be_covered():
    quote("Night action, NOT a Crime, can't be covered")
    s = setup(*SPY_GAME, "Cal=calvados", "Eri=eri", variants=["spy"])
    n1 = phase(s, "night", 1, "Bou: spy A, B, C and D")
    d1 = phase(n1.state, "day", 1, "Cal: cover Bou")
    n2 = phase(d1.state, "night", 2, "Eri: cross-examine Bou")
    assert pms(n2, "Eri") == "Cross-examination of Bou: false"
    import pytest

    from assistant.errors import OrderError

    with pytest.raises(OrderError, match="no ability 'spy'"):
        check(d1.state, "Cal: spy A, B, C and E", 2)


def test_a_suspended_officer_gets_no_result_that_phase():
    quote("The police officer can't use any action (arrest, investigate, house search, stake-out "
          "etc.) for the next 2 phases if he accuses someone falsely and won't get results on the "
          "current phase, because he'll get suspended.")
    s = setup("Meg=megure", "G=gin", "Boss=anokata", "Con=conan", "Cam=camel")
    n1 = phase(s, "night", 1, "Black Org: kill Cam by G")
    n2 = phase(phase(n1.state, "day", 1).state, "night", 2, "Meg: arrest Con for killing Cam on "
               "Night 1", "Meg: investigate G kills Con", "Black Org: kill Con by G")
    assert n2.public[0] == SUSPENDED
    # No result of the investigation; the suspension itself is told ("All GMs should be
    # certain to send all notifications to all relevant parties").
    assert pms(n2, "Meg") == ("Your arrest of Con failed: the accusation was wrong. You are "
                              "suspended for the next 2 phases (no actions but voting).")
    n2 = phase(phase(n1.state, "day", 1).state, "night", 2, "Meg: investigate G kills Con",
               "Black Org: kill Con by G")
    assert pms(n2, "Meg") == '"G kills Con" - True'


def test_an_injured_leader_still_gives_the_suitcase():
    quote("Injured members may still kill each night, as well as utilize items such as the Black "
          "Suitcase, bow-tie, and tranquilizer watch.")
    s = setup("Boss=anokata", "G=gin", "Kob=kobayashi", "Con=conan", "Meg=megure")
    n1 = phase(s, "night", 1, "Black Org: kill Boss by G", "Kob: first aid Boss")
    assert dead(n1) == [] and "injured" in n1.state.players["Boss"].statuses
    d1 = phase(n1.state, "day", 1, "Boss: give black-suitcase to G")
    assert pms(d1, "G") == "You have received the Black Suitcase for the night."
    n2 = phase(d1.state, "night", 2, "G: suitcase interrogate Con",
               "Meg: investigate G interrogates Con")
    assert pms(n2, "Meg") == '"G interrogates Con" - True'


# ---- the FBI Leader and the NOC --------------------------------------------------------------


def test_james_is_told_how_many_subordinates_and_of_a_disguised_one():
    quote("At the onset of the round, the FBI Leader is given notice of how many of his "
          "subordinated (Jodie, Akai, Camel, Kir) are in the game. This count includes characters "
          "disguised as his subordinated.")
    quote("If someone is disguised as a subordinate, James will receive a small hint akin to, "
          "\"You believe something is strange with your suborinate(s)...\"")
    s = setup("James=james", "Jodie=jodie", "Kid=kid/camel", "G=gin", "Boss=anokata",
              "Con=conan")
    r = phase(s, "night", 1)
    assert r.notices["James"] == (
        "Your subordinates (Jodie, Akai, Camel, Kir) in this game: 2.",
        "You believe something is strange with your subordinate(s)...",
    )
    s = setup("James=james", "Jodie=jodie", "G=gin", "Boss=anokata", "Con=conan")
    assert phase(s, "night", 1).notices["James"] == (
        "Your subordinates (Jodie, Akai, Camel, Kir) in this game: 1.",)
    assert "James" not in phase(s, "night", 2).notices  # at the onset only


def test_kir_is_told_how_many_black_org_members_are_in_the_game():
    quote("Player gets to know how many Black Org members are present in the current game (not "
          "their identities).")
    s = setup("Kir=kir", "G=gin", "Boss=anokata", "Ver=vermouth/ran", "Con=conan")
    assert phase(s, "night", 1).notices["Kir"] == ("Black Org members in this game: 3.",)


def test_james_gets_two_results_of_his_subordinates_one_each():
    quote("After each night, James will receive two results from his subordinates chosen at "
          "random (the number of reports he gets relies on the number of subordinates in the "
          "game, but he may not receive more than two).")
    quote("With concern to Akai, James will receive only one of his investigations.")
    s = setup("James=james", "Jodie=jodie", "Akai=akai", "Cam=camel", "G=gin", "Boss=anokata",
              "Con=conan", "Doc=araide")
    orders = ("Jodie: observe age G", "Cam: stake-out Con", "Akai: investigate G kills Con",
              "Akai: investigate Doc heals Con", "Akai: investigate Con interrogates G",
              "Black Org: kill Con by G", "Doc: heal Con")
    r = phase(s, "night", 1, *orders)
    own = {n: r.pms.get(n, ()) for n in ("Jodie", "Akai", "Cam")}
    reports = list(r.pms["James"])
    assert len(reports) == 2
    senders = []
    for line in reports:
        who, _, result = line.removeprefix("A report from your subordinate ").partition(": ")
        senders.append(who)
        assert result in own[{"Jodie": "Jodie", "Akai": "Akai", "Camel": "Cam"}[who]]
    assert len(set(senders)) == 2  # one result of each
    # Akai alone, with three investigations: one of them.
    r = phase(s, "night", 1, "Akai: investigate G kills Con", "Akai: investigate Doc heals Con",
              "Black Org: kill Con by G", "Doc: heal Con")
    assert len(r.pms["James"]) == 1
    assert r.pms["James"][0].removeprefix("A report from your subordinate Akai: ") in \
        r.pms["Akai"]
    # Nobody with a result: no report.
    assert "James" not in phase(s, "night", 1).pms


# ---- Lovey-Dovey: one lover a phase, once a night and day, a rest after a save ---------------


def _lovers() -> GameState:
    from tests.test_engine_004_lovers import lovers_of

    seed = next(n for n in range(40) if set(lovers_of(n)[1].state.lovers[0]) == {"A", "B"})
    return lovers_of(seed)[1].state


def test_lovey_dovey_once_a_night_and_day_for_the_pair():
    quote("You can only protect once per Day/Night. So you have to choose if you protect your "
          "lover on night 1. Then neither of the lovers can use protect on day 1 anymore. But "
          "they can decide to use it either on Night 2 or Day 2 again etc.")
    import pytest

    from assistant.errors import OrderError

    s = _lovers()  # the lovers were made on Night 1
    d1 = phase(s, "day", 1)
    n2 = phase(d1.state, "night", 2, "B: lovey-dovey A")
    for who, whom in (("A", "B"), ("B", "A")):
        with pytest.raises(OrderError, match="once each night and day"):
            check(n2.state, f"{who}: lovey-dovey {whom}", 2, "day")
    check(n2.state, "A: lovey-dovey B", 3)
    quote("If they decide to protect during Day 1 instead of Night 1, they can use it again on "
          "Night2 or Day 2.")
    d1 = phase(s, "day", 1, "A: lovey-dovey B")
    check(d1.state, "B: lovey-dovey A", 2)


def test_only_one_lover_protects_in_a_phase():
    quote("Just one lover can use protect. They can't protect each other in the same phase.")
    s = phase(_lovers(), "day", 1).state
    r = phase(s, "night", 2, "A: lovey-dovey B", "B: lovey-dovey A",
              "Black Org: kill A by G")
    assert dead(r) == ["A", "B"]  # B's protection of A did not stand: A dies, B with him
    assert any("B: lovey-dovey A: fails" in x for x in r.log_lines())


def test_the_lovers_rest_two_phases_after_a_save():
    quote("If it successfully hinders a lynching, killing, sniping, or poisoning, the lovers lose "
          "this ability for 2 phases")
    import pytest

    from assistant.errors import OrderError

    s = phase(_lovers(), "day", 1).state
    n2 = phase(s, "night", 2, "B: lovey-dovey A", "Black Org: kill A by G")
    assert dead(n2) == []
    d2 = phase(n2.state, "day", 2)  # Day 2 and Night 3 without it
    with pytest.raises(OrderError, match="again before day 3"):
        check(d2.state, "A: lovey-dovey B", 3)
    n3 = phase(d2.state, "night", 3)
    check(n3.state, "B: lovey-dovey A", 3, "day")
    # Nothing stopped: no rest.
    n2 = phase(s, "night", 2, "B: lovey-dovey A")
    check(phase(n2.state, "day", 2).state, "A: lovey-dovey B", 3)
    # An APTX stopped by day rests them too.
    d1 = phase(_lovers(), "day", 1, "B: lovey-dovey A", "G: aptx A as Camel")
    assert dead(d1) == []
    with pytest.raises(OrderError, match="again before night 3"):
        check(phase(d1.state, "night", 2).state, "A: lovey-dovey B", 2)


# ---- the Black Org's kill cycle, detention's end of the game ----------------------------------


def test_a_second_kill_before_every_member_killed_is_noted_for_the_gm():
    quote("Every member of the Black Org must kill before a member is allowed a second kill. The "
          "exceptions to this is if a member is unable to kill due to being arrested or lynched, "
          "in which case they are no longer factored in to the kill cycle. Once the cycle has "
          "been completed once, a new order may be decided.")
    s = setup("Boss=anokata", "G=gin", "V=vodka", "A=araide", "B=camel", "C=conan", "D=eri",
              "E=heiji", "F=megure")
    n1 = phase(s, "night", 1, "Black Org: kill A by G")
    assert n1.notes == ()
    n2 = phase(phase(n1.state, "day", 1).state, "night", 2, "Black Org: kill B by G")
    assert any("G has had a kill this cycle, and Boss, V not yet" in x for x in n2.notes)
    # Each in turn: no note, and after the cycle anyone may begin the next.
    s2 = n1.state
    for n, (who, whom) in enumerate((("V", "B"), ("Boss", "C"), ("G", "D")), start=2):
        r = phase(phase(s2, "day", n - 1).state, "night", n, f"Black Org: kill {whom} by {who}")
        assert r.notes == (), who
        s2 = r.state
    # An arrested member is out of the cycle.
    d1 = phase(n1.state, "day", 1, "F: arrest V")
    n2 = phase(d1.state, "night", 2, "Black Org: kill B by Boss")
    n3 = phase(phase(n2.state, "day", 2).state, "night", 3, "Black Org: kill C by G")
    assert n2.notes == () and n3.notes == ()


def test_the_game_ends_when_the_only_black_org_left_is_in_detention():
    quote("If all BO players are either dead or arrested and the only remaining BO is in "
          "detention, the game ends")
    from assistant.engine.win import check_win

    s = setup("G=gin", "Sat=satou", "Con=conan", "Cam=camel", "Ran=ran")
    assert check_win(s) is None
    r = phase(s, "night", 1, "Sat: detain G")
    assert "G" in r.state.players and r.state.players["G"].alive
    win = check_win(r.state)
    assert win is not None and win.winner == "town"
    # Two Black Org left, one detained: the game goes on.
    s = setup("G=gin", "V=vodka", "Sat=satou", "Con=conan", "Cam=camel", "Ran=ran")
    assert check_win(phase(s, "night", 1, "Sat: detain G").state) is None


def test_james_count_is_drafted_while_night_1_is_open(tmp_path, capsys, monkeypatch):
    """The GM's path: `draft pms --pending` during Night 1 holds the FBI Leader's notice."""
    import json
    from datetime import UTC, datetime, timedelta

    from cli_support import CliAt

    cli = CliAt(tmp_path / "data", capsys, monkeypatch)
    (tmp_path / "players.txt").write_text("James\nJodie\nKid\nG\nBoss\nCon\n")
    (tmp_path / "setup.toml").write_text(
        'players = [{ name = "James", role = "james" }, { name = "Jodie", role = "jodie" }, '
        '{ name = "Kid", role = "kid", disguise = "camel" }, { name = "G", role = "gin" }, '
        '{ name = "Boss", role = "anokata" }, { name = "Con", role = "conan" }]\n')
    n1 = datetime(2026, 11, 24, 20, 0, tzinfo=UTC)
    at = (n1 - timedelta(hours=1)).isoformat()
    cli.at(at, "game", "new", "fbi", "--thread", "http://127.0.0.1:8021/index.php?topic=5.0",
           "--ruleset", "dctp-mini", "--players", str(tmp_path / "players.txt"))
    cli.at(at, "roles", "fbi", "--file", str(tmp_path / "setup.toml"))
    cli.at(n1.isoformat(), "phase", "fbi", "night", "1")
    drafts = json.loads(cli.at((n1 + timedelta(minutes=5)).isoformat(), "--json", "draft",
                               "pms", "fbi", "--pending"))
    assert "Your subordinates (Jodie, Akai, Camel, Kir) in this game: 2." in drafts["James"]
    assert "You believe something is strange with your subordinate(s)..." in drafts["James"]


# ---- Sonoko and a disguised friend ------------------------------------------------------------


def _friends_with(friend_spec: str) -> GameState:
    s = setup("Son=sonoko", friend_spec, "G=gin", "Boss=anokata", "X=camel", "Con=conan")
    friend = friend_spec.split("=")[0]
    r = phase(s, "night", 1, f"Son: friendship {friend}")
    assert f"friend:{friend}" in r.state.players["Son"].statuses
    return r.state


def test_sonoko_uses_the_abilities_of_yukikos_costume():
    quote("If Sonoko befriends Yukiko, she will be able to use the abilities of Yukiko's "
          "disguised role.")
    s = _friends_with("Yuk=yukiko+araide,heiji,ran")
    d1 = phase(s, "day", 1, "Yuk: temporary disguise Heiji")
    n2 = phase(d1.state, "night", 2, "Son: interrogate G")
    assert pms(n2, "Son") == "Interrogation of G: BO"  # Heiji's Interrogate, worn tonight
    # Without a costume on, Yukiko has no night ability to lend.
    import pytest

    from assistant.errors import OrderError

    with pytest.raises(OrderError, match="has no ability 'interrogate'"):
        phase(phase(s, "day", 1).state, "night", 2, "Son: interrogate G")


def test_sonoko_befriending_a_disguised_vermouth_uses_the_disguise():
    quote("If Sonoko befriend Vermouth, she will befriend the disguised role and not know that it "
          "is Vermouth.")
    s = _friends_with("V=vermouth/araide")
    n2 = phase(phase(s, "day", 1).state, "night", 2, "Black Org: kill X by G", "Son: heal X")
    assert dead(n2) == []
