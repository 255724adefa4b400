"""DCTP Live Mini Mafia (seed 004), the rules a GM used to keep by hand: past disguises in
arrests and special investigations, injuries and results, the Black Suitcase passed on, travel
in the Prep phase, a new disguise after a face pinch, Re-choose Disguise and Spy. Each test
quotes the sentence of ../shared/seeds/004_22384bb39b2a9dee.txt it checks.
"""

from __future__ import annotations

from assistant.engine.setup import PlayerSetup, Setup, parse_setup
from assistant.engine.state import GameState, disguise_of
from tests.test_engine_004 import RULES, dead, phase, pms, quote


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
