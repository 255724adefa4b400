"""DCTP Live Mini Mafia (seed 004), the second half: tricks, frighten, slander, items and
stealing, Kogorou, follow and the rest of the actions. Each test quotes the sentence of
../shared/seeds/004_22384bb39b2a9dee.txt it checks; the seed's worked examples are tests.
"""

from __future__ import annotations

import pytest

from assistant.engine.vote_effects import modifiers_for_day
from tests.dctp_support import RULES, dead, game, phase, quote
from tests.test_engine_004 import pms
from tests.test_engine_004_lynch import END, Day

# ---- discombobulation (tricking) ---------------------------------------------------------


def test_a_tricks_b_and_b_tricks_c_a_succeeds_b_does_not_c_acts():
    quote("If A tricks B and B tricks C, A is successful, B isn't, and C's actions go through "
          "as normal.")
    s = game("A=eisuke", "B=asami", "C=conan", "G=gin", "Boss=anokata")
    r = phase(s, "night", 1, "A: trick B", "B: trick C", "C: interrogate G")
    assert pms(r, "C") == "Interrogation of G: BO"
    assert pms(r, "B") == "Your action failed."
    assert pms(r, "A") == "You used discombobulate on B."


def test_two_players_who_trick_each_other_both_fail_with_all_their_actions():
    quote("If two users trick each other, all actions fail. Neither are successful. For "
          "example: If A tricks B and B tricks A, all actions fail.")
    s = game("A=eisuke", "B=vodka", "C=conan", "G=gin", "Boss=anokata")
    r = phase(s, "night", 1, "A: trick B", "B: trick A", "C: interrogate G")
    assert pms(r, "A") == "Your action failed."
    assert pms(r, "B") == "Your action failed."
    assert pms(r, "C") == "Interrogation of G: BO"  # nobody tricked C


def test_a_discombobulated_player_is_told_the_action_failed_the_trickster_what_he_did():
    quote("The people discombobulated will get a PM from the GM that their night action failed.")
    quote("The one who used Discombobulate will get a PM: \"You used discombobulate on your "
          "target\", but he won't know if that target actually used a night action")
    s = game("T=eisuke", "C=conan", "R=ran", "G=gin", "Boss=anokata")
    r = phase(s, "night", 1, "T: discombobulate C", "C: interrogate G")
    assert pms(r, "C") == "Your action failed."
    assert pms(r, "T") == "You used discombobulate on C."
    # A tricked player with no night action sent is not told.
    quote("They will only get a notice in case they used a night action.")
    r = phase(s, "night", 1, "T: discombobulate R")
    assert pms(r, "R") == ""
    assert pms(r, "T") == "You used discombobulate on R."


# ---- frighten ---------------------------------------------------------------------------


def test_a_frightened_player_cannot_vote_the_next_day_and_is_not_told():
    quote("The Frightened player can't use his ability the next day. He also can't vote the "
          "next day.")
    quote("The Frightened player won't know that he got Frightened.")
    s = game("Teq=tequila", "Hai=haibara", "Con=conan", "Boss=anokata")
    r = phase(s, "night", 1, "Teq: frighten Hai")
    assert pms(r, "Hai") == ""
    mods = {m["player"]: m for m in modifiers_for_day(r.state, 1)}
    assert mods["Hai"]["powerless"] is True
    assert "Con" not in mods
    # The next night the fright is over.
    r2 = phase(r.state, "night", 2)
    assert "Hai" not in {m["player"] for m in modifiers_for_day(r2.state, 2)}


def test_a_frightened_players_day_action_fails_and_he_is_told():
    quote("If he used a Day action, then the GM will PM him that his actions failed.")
    s = game("Teq=tequila", "Hai=haibara", "G=gin", "Boss=anokata")
    s = phase(s, "night", 1, "Teq: frighten Hai").state
    r = phase(s, "day", 1, "Hai: follow G")
    assert pms(r, "Hai") == "Your action failed."
    assert "Someone accompanied" not in pms(r, "G")
    # Unfrightened, the same day action works: the test can fail.
    s2 = game("Teq=tequila", "Hai=haibara", "G=gin", "Boss=anokata")
    r2 = phase(s2, "day", 1, "Hai: follow G")
    assert pms(r2, "Hai") == "G: Has a scent."


def test_frighten_does_not_stop_an_arrest_the_next_day():
    quote("Frighten is not capable of stopping an arrest. For example: if Tequila uses frighten "
          "on Satou on Night 2, Satou may still arrest on Day 2.")
    s = game("Teq=tequila", "Sat=satou", "G=gin", "Boss=anokata", "R=ran")
    s = phase(s, "night", 2, "Teq: frighten Sat").state
    r = phase(s, "day", 2, "Sat: arrest G")
    assert "arrested" in r.state.players["G"].statuses
    assert "G has been arrested." in r.public


def test_frighten_is_stopped_by_discombobulating_tequila():
    quote("People that were discombobulated will fail with their night action on the same night.")
    s = game("Teq=tequila", "Hai=haibara", "T=eisuke", "Boss=anokata")
    r = phase(s, "night", 1, "Teq: frighten Hai", "T: trick Teq")
    assert "Hai" not in {m["player"] for m in modifiers_for_day(r.state, 1)}
    assert pms(r, "Teq") == "Your action failed."


# ---- slander ----------------------------------------------------------------------------


def test_slander_reverses_the_interrogation_of_that_night_both_ways():
    quote("If the slandered target is interrogated that night, the interrogation result will be "
          "inverted. A townie that would normally come up as \"Not Black Org\" on an "
          "interrogation would instead become \"Black Org\" if slandered successfully. Likewise, "
          "if a slandered Black Org member is interrogated, any interrogations on them that "
          "night would return \"Not Black Org\" instead of the usual \"Black Org\".")
    s = game("Gin=gin", "V=vodka", "R=ran", "Con=conan", "Hei=heiji", "Boss=anokata")
    r = phase(s, "night", 1, "Gin: slander R and V", "Con: interrogate R", "Hei: interrogate V")
    assert pms(r, "Con") == "Interrogation of R: BO"
    assert pms(r, "Hei") == "Interrogation of V: Not BO"
    # Only that night: the next night the answers are true again.
    r2 = phase(r.state, "night", 2, "Con: interrogate R", "Hei: interrogate V")
    assert pms(r2, "Con") == "Interrogation of R: Not BO"
    assert pms(r2, "Hei") == "Interrogation of V: BO"


def test_slander_names_at_most_one_black_org_and_one_town():
    quote("Gin may slander up to two targets: one Black Org, and one town. He may not slander "
          "two Black Org or two town.")
    s = game("Gin=gin", "V=vodka", "R=ran", "Con=conan", "Boss=anokata")
    r = phase(s, "night", 1, "Gin: slander R and Con")
    assert any("at most one player of each side" in line for line in r.log_lines())
    assert pms(r, "Gin") == ""
    r = phase(s, "night", 1, "Gin: slander R")
    assert pms(r, "Gin") == "You slandered R."


def test_slander_is_not_noticed_and_a_tricked_slander_does_nothing():
    quote("The slandered player does not receive a notification that they were slandered that "
          "night.")
    s = game("Gin=gin", "R=ran", "Con=conan", "T=eisuke", "Boss=anokata")
    r = phase(s, "night", 1, "Gin: slander R", "Con: interrogate R", "T: trick Gin")
    assert pms(r, "R") == ""
    assert pms(r, "Con") == "Interrogation of R: Not BO"
    assert pms(r, "Gin") == "Your action failed."


# ---- items and stealing -----------------------------------------------------------------


def test_every_card_carries_the_items_it_lists():
    quote("Gin, Mafia Slanderer Night action: Slander, Investigate 3 Interrogation: BO Scent: "
          "Yes Disguise: No Items: Gun, Car-keys, Headgear, Alcohol")
    s = game("Gin=gin", "Ara=araide", "Kog=kogorou", "Boss=anokata")
    assert s.players["Gin"].items == ["gun", "car-keys", "headgear", "alcohol"]
    assert s.players["Ara"].items == ["car-keys", "glasses"]
    assert s.players["Kog"].items == ["alcohol"]
    # The list of stealable items and the cards disagree on three: the cards are read (the
    # ruleset says so): Kujou's card lists Panties, Haibara's and Ayumi's do not.
    quote("Panties: All females: Vermouth, Chianti, Akemi, Sherry, Satou, Yumi, Jodie, Kir, "
          "Haibara, Kazuha, Ran, Kobayashi, Eri, Sonoko, Asami, Ayumi, Yukiko")
    quote("Kujou, Prosecutor Night action: Cross-examine Day action: Voice of Accusation "
          "Interrogation: Not BO Scent: No Disguise: Yes Items: Car-keys, Panties")
    females = {"vermouth", "chianti", "akemi", "sherry", "satou", "yumi", "jodie", "kir",
               "haibara", "kazuha", "ran", "kobayashi", "eri", "sonoko", "asami", "ayumi",
               "yukiko"}
    have = {k for k, role in RULES.roles.items() if "panties" in role.passives["carries"]}
    # (and the experimental Uehara's card: "Items: Car-keys, Gun, Panties")
    quote("Uehara, Visiting Police Detective")
    assert have == (females - {"haibara", "ayumi"}) | {"kujou", "uehara"}


def test_a_stolen_item_is_gone_not_added_to_the_thief_and_the_victim_is_told():
    quote("An already stolen item will be gone from a player’s inventory and can't be stolen "
          "again.")
    quote("Items stolen will NOT be added to the thief’s inventory.")
    quote("The player who was stolen from will get a notification on the item that he lost. But "
          "he won't know who the thief was")
    s = game("Kid=kid", "Ara=araide", "G=gin", "Boss=anokata")
    r = phase(s, "night", 1, "Kid: steal Ara")
    left = r.state.players["Ara"].items
    assert len(left) == 1 and set(left) < {"car-keys", "glasses"}
    taken = ({"car-keys", "glasses"} - set(left)).pop()
    title = RULES.items[taken].title
    assert pms(r, "Ara") == f"An item was stolen from you: {title}."
    assert pms(r, "Kid") == f"You stole from Ara: {title}."
    assert r.state.players["Kid"].items == ["gun", "school-book", "glasses", "headgear"]
    # "Can steal from that person again on the next night": the other item goes.
    quote("Can steal one item from one person per night. Can steal from that person again on "
          "the next night.")
    r2 = phase(r.state, "night", 2, "Kid: steal Ara")
    assert r2.state.players["Ara"].items == []
    r3 = phase(r2.state, "night", 3, "Kid: steal Ara")
    assert pms(r3, "Kid") == "Ara had nothing you could steal."


def test_two_thieves_at_one_target_get_the_same_item_and_everyone_hears_of_both():
    quote("If a player gets stolen from by 2 or more different thieves, all thieves will \"get "
          "the same item.\" It doesn't mean that the item is there 2x+.")
    quote("The target is also presented with a notice stating just how many thieves targeted "
          "them that night.")
    s = game("Kid=kid", "Ake=akemi", "Con=conan", "Boss=anokata")
    r = phase(s, "night", 1, "Kid: steal Con", "Ake: steal Con")
    assert len(r.state.players["Con"].items) == 1  # one item gone, not two
    gone = ({"school-book", "glasses"} - set(r.state.players["Con"].items)).pop()
    title = RULES.items[gone].title
    for thief in ("Kid", "Ake"):
        assert pms(r, thief) == (
            f"You went to steal from Con: the {title} was stolen, and 2 thieves wanted it tonight."
        )
    assert pms(r, "Con") == f"An item was stolen from you: {title}. 2 thieves wanted it tonight."


def test_a_tricked_thief_steals_nothing():
    quote("Steal - Roles with action: Kid, Akemi - Night action, Crime, can be covered")
    s = game("Ake=akemi", "Con=conan", "T=eisuke", "Boss=anokata")
    r = phase(s, "night", 1, "Ake: steal Con", "T: trick Ake")
    assert r.state.players["Con"].items == ["school-book", "glasses"]
    assert pms(r, "Con") == ""


# ---- Kogorou ----------------------------------------------------------------------------


def _kogorou_answers(s, nights: range) -> set[str]:
    out = set()
    for n in nights:
        out.add(pms(phase(s, "night", n, "Kog: interrogate G"), "Kog"))
    return out


def test_drunk_kogorou_gets_random_results_sober_ones_are_true():
    quote("If Kogorou is drunk, he'll get a random result.")
    quote("Always begins the game drunk.")
    s = game("Kog=kogorou", "G=gin", "Ake=akemi", "Ran=ran", "Boss=anokata")
    drunk = _kogorou_answers(s, range(1, 13))
    assert drunk == {"Interrogation of G: BO", "Interrogation of G: Not BO"}
    quote("Becomes sober when his alcohol has been stolen.")
    s = phase(s, "night", 1, "Ake: steal Kog").state
    assert "sober" in s.players["Kog"].statuses
    assert _kogorou_answers(s, range(2, 14)) == {"Interrogation of G: BO"}


def test_kogorou_is_sober_the_phase_after_ran_dies():
    quote("The player becomes sober the phase after Eri, Ran, Conan, or Shinichi dies. Those "
          "disguised do not count.")
    s = game("Kog=kogorou", "G=gin", "Ran=ran", "Con=camel", "Boss=anokata",
             "J=jodie", "M=megure", "T=takagi")
    r = phase(s, "night", 1, "Black Org: kill Ran by G")
    assert dead(r) == ["Ran"]
    assert "sober" not in r.state.players["Kog"].statuses
    assert _kogorou_answers(r.state, range(2, 14)) == {"Interrogation of G: BO"}
    # Another death does not sober him.
    s = game("Kog=kogorou", "G=gin", "Ran=ran", "Cam=camel", "Boss=anokata",
             "J=jodie", "M=megure", "T=takagi")
    s = phase(s, "night", 1, "Black Org: kill Cam by G").state
    assert len(_kogorou_answers(s, range(2, 14))) == 2


# ---- follow -----------------------------------------------------------------------------


def test_haibara_follows_by_day_learns_the_scent_and_the_followed_is_told():
    quote("She may accompany anyone during the day and the accompanied will learn that someone "
          "accompanied/followed them.")
    quote("As a result she will get either: \"Has a scent\" or \"Has no scent\"")
    s = game("Hai=haibara", "G=gin", "Ake=akemi", "Boss=anokata")
    r = phase(s, "day", 1, "Hai: follow G")
    assert pms(r, "Hai") == "G: Has a scent."
    assert pms(r, "G") == "Someone accompanied/followed you today."
    r = phase(s, "day", 1, "Hai: follow Ake")
    assert pms(r, "Hai") == "Ake: Has no scent."


def test_night_1_comes_before_day_1():
    quote("Frighten is not capable of stopping an arrest. For example: if Tequila uses frighten "
          "on Satou on Night 2, Satou may still arrest on Day 2.")
    from assistant.engine.rules import phase_index
    from assistant.engine.vote_effects import preceding_night

    assert RULES.first_phase == "night"
    assert preceding_night(RULES, 2) == 2  # a fright of Night 2 is felt on Day 2
    assert [phase_index(RULES, p, n) for p, n in (("night", 1), ("day", 1), ("night", 2))] == [
        1, 2, 3]


# ---- abduct -----------------------------------------------------------------------------


def test_abduct_waits_three_phases_the_seeds_example():
    quote("After 3 phases, he can use it again. (Example: Irish abducts Eisuke on Night 1. He "
          "waits Day 1, Night 2 and Day 2. On Night 3, he can use abducting again)")
    quote("Irish will Abduct one character that is not played in the game by any player. The GM "
          "will send him the name of one random town-sided character not in the game.")
    s = game("Ir=irish", "Con=conan", "R=ran", "Boss=anokata")
    r = phase(s, "night", 1, "Ir: abduct")
    title = pms(r, "Ir").removeprefix("You abducted ").removesuffix(".")
    drawn = next(k for k, role in RULES.roles.items() if role.title == title)
    assert RULES.role(drawn).sides == ("town",) and drawn not in {"conan", "ran"}
    s = r.state
    for kind, n in (("night", 2),):
        r = phase(s, kind, n, "Ir: abduct")
        assert pms(r, "Ir") == ""
        assert any("may use it again on night 3" in line for line in r.log_lines()), r.log_lines()
    r = phase(s, "night", 3, "Ir: abduct")
    again = pms(r, "Ir")
    assert again.startswith("You abducted ") and title not in again  # never drawn twice


def test_the_abducted_characters_are_discovered_when_irish_is_killed():
    quote("When Irish is killed his abducted character(s) will be discovered and the name "
          "becomes known to the town.")
    s = game("Ir=irish", "Con=conan", "R=ran", "Boss=anokata", "Ak=akemi")
    r = phase(s, "night", 1, "Ir: abduct")
    title = pms(r, "Ir").removeprefix("You abducted ").removesuffix(".")
    r2 = phase(r.state, "night", 2, "Black Org: kill Ir by Ak")
    assert dead(r2) == ["Ir"]
    assert f"Ir had abducted: {title}." in r2.public


# ---- lawsuit ----------------------------------------------------------------------------


def test_a_lawsuit_frees_an_arrested_player_once_per_game():
    quote("Usable once per game. Can bring back anyone who has been arrested with a lawsuit. "
          "There will be a message that the imprisoned player is out of prison. The identity of "
          "the one who was in prison won't get revealed to anyone.")
    quote("Any and all actions on arrested players will fail with the exception of Lawsuit to "
          "free them.")
    s = game("Eri=eri", "Sat=satou", "G=gin", "Boss=anokata", "R=ran")
    s = phase(s, "night", 1, "Sat: arrest R").state
    r = phase(s, "night", 2, "Eri: lawsuit R")
    assert "arrested" not in r.state.players["R"].statuses
    assert r.public == ("An imprisoned player is out of prison.",)
    assert pms(r, "R") == "A lawsuit has freed you: you are out of prison."
    s = phase(r.state, "night", 3, "Sat: arrest R").state
    r = phase(s, "night", 4, "Eri: lawsuit R")
    assert "arrested" in r.state.players["R"].statuses
    assert any("no use of lawsuit left" in line for line in r.log_lines())


# ---- injuries ---------------------------------------------------------------------------


def test_first_aid_saves_but_injures_and_the_targets_action_fails():
    quote("The player who received First Aid will not die if attacked, but will instead become "
          "injured.")
    quote("Any action performed by someone who was successfully healed via first aid will fail, "
          "because that player became injured as the action was being carried out.")
    s = game("Kob=kobayashi", "Con=conan", "G=gin", "Boss=anokata")
    r = phase(s, "night", 1, "Black Org: kill Con by G", "Kob: first aid Con",
              "Con: interrogate G")
    assert dead(r) == []
    assert "injured" in r.state.players["Con"].statuses
    assert "Interrogation of G" not in pms(r, "Con")
    # Injured for good: no interrogation the next night either.
    quote("All injuries incurred by players are permanent except for those sustained by police "
          "officers in the course of an arrest")
    r2 = phase(r.state, "night", 2, "Con: interrogate G")
    assert pms(r2, "Con") == ""
    assert any("Con is injured" in line for line in r2.log_lines())


def test_ran_is_injured_by_a_successful_protection_and_kogorou_sobers():
    quote("If Ran successfully protects, she will become injured.")
    quote("If Ran is injured due to successfully protecting someone at night, Kogorou becomes "
          "sober.")
    s = game("Ran=ran", "Cam=camel", "G=gin", "Boss=anokata", "Kog=kogorou")
    r = phase(s, "night", 1, "Black Org: kill Cam by G", "Ran: protect Cam")
    assert dead(r) == [] and "injured" in r.state.players["Ran"].statuses
    assert _kogorou_answers(r.state, range(2, 14)) == {"Interrogation of G: BO"}
    quote("Ran: If Ran successfully protects someone, she'll get Injured and can't protect "
          "anybody anymore.")
    r2 = phase(r.state, "night", 2, "Black Org: kill Cam by G", "Ran: protect Cam")
    assert dead(r2) == ["Cam"]
    # A protection that saved nobody does not injure her.
    s = game("Ran=ran", "Cam=camel", "G=gin", "Boss=anokata", "Kog=kogorou")
    r = phase(s, "night", 1, "Ran: protect Cam")
    assert "injured" not in r.state.players["Ran"].statuses


def test_akais_vengeance_injures_his_killer_who_still_kills_but_loses_his_role():
    quote("If killed successfully, he will injure his attacker before he dies. If healed or if "
          "the kill get's prevented in any way, he won't injure the attacker.")
    quote("An injured BO will lose all of his abilities, and abilities to kill (like sniping). "
          "However, he can still regularly kill at night")
    s = game("Akai=akai", "G=gin", "Boss=anokata", "Con=conan", "Cam=camel", "Doc=araide")
    r = phase(s, "night", 1, "Black Org: kill Akai by G")
    assert dead(r) == ["Akai"]
    assert "injured" in r.state.players["G"].statuses
    r2 = phase(r.state, "night", 2, "G: investigate Con interrogates Cam",
               "Black Org: kill Cam by G")
    assert dead(r2) == ["Cam"]
    assert '"Con interrogates Cam"' not in pms(r2, "G")
    # Healed: no vengeance.
    s = game("Akai=akai", "G=gin", "Boss=anokata", "Con=conan", "Cam=camel", "Doc=araide")
    r = phase(s, "night", 1, "Black Org: kill Akai by G", "Doc: heal Akai")
    assert dead(r) == [] and "injured" not in r.state.players["G"].statuses


# ---- disguises and face pinch -----------------------------------------------------------


def disguised(*players: str):
    """`game()` where "Name=role/disguise" wears a Prep disguise."""
    from assistant.engine.setup import PlayerSetup, Setup
    from assistant.engine.state import GameState

    slots = []
    for spec in players:
        name, _, rest = spec.partition("=")
        role, _, worn = rest.partition("/")
        slots.append(PlayerSetup(name, RULES.role(role).sides[0], role, (), worn or None))
    return GameState.from_setup(RULES, Setup(tuple(slots), 5, {}))


def test_a_disguised_player_answers_the_interrogation_of_the_disguise_but_keeps_the_scent():
    quote("If Vermouth or Irish are disguised, they assume the default interrogation result of "
          "the disguise they are wearing. For example, if Vermouth is disguised as Satou and is "
          "interrogated without slander coming into play, the result will be \"Not Black Org\". "
          "They still retain their scent no matter the disguise.")
    s = disguised("Ver=vermouth/satou", "Kid=kid/kir", "Con=conan", "Hai=haibara",
                  "Boss=anokata")
    r = phase(s, "night", 1, "Con: interrogate Ver")
    assert pms(r, "Con") == "Interrogation of Ver: Not BO"
    r = phase(s, "night", 1, "Con: interrogate Kid")
    assert pms(r, "Con") == "Interrogation of Kid: BO"  # Kir's card: "Interrogation: BO"
    r = phase(s, "day", 1, "Hai: follow Ver")
    assert pms(r, "Hai") == "Ver: Has a scent."


def test_a_disguise_gives_its_abilities_and_items_besides_ones_own():
    quote("When disguised as a role, the disguised player retains any abilities from their "
          "actual role and gains all those of their disguise.")
    quote("The disguiser will have items from their original role in addition to those from "
          "their disguised role. This could result in two guns if Kid or Vermouth were to "
          "disguise as a police officer.")
    s = disguised("Kid=kid/ran", "Ver=vermouth/satou", "G=gin", "Boss=anokata", "Cam=camel")
    r = phase(s, "night", 1, "Black Org: kill Cam by G", "Kid: protect Cam")
    assert dead(r) == []
    assert s.players["Ver"].items.count("gun") == 2
    quote("If the disguised player has 2x gun for example, he can steal a gun 2x.")
    r = phase(s, "night", 1, "Kid: steal Ver")
    assert len(r.state.players["Ver"].items) == len(s.players["Ver"].items) - 1


def test_a_disguise_may_not_be_a_black_org_role_and_only_disguisers_wear_one():
    import pytest

    from assistant.engine.setup import parse_setup
    from assistant.errors import ConfigError

    quote("Disguisers may not disguise as Black Org members, children, or Prep phase roles.")
    text = 'players = [{ name = "V", role = "vermouth", disguise = "%s" }]'
    with pytest.raises(ConfigError, match="may not disguise as Gin"):
        parse_setup(text % "gin", RULES, where="setup.toml", default_seed=1)
    ok = parse_setup(text % "satou", RULES, where="setup.toml", default_seed=1)
    assert ok.players[0].disguise == "satou"
    with pytest.raises(ConfigError, match="does not disguise"):
        parse_setup('players = [{ name = "C", role = "conan", disguise = "ran" }]', RULES,
                    where="setup.toml", default_seed=1)


def test_face_pinch_arrests_a_disguised_player_whose_action_fails():
    quote("If they are, they will be automatically arrested, then stripped of their disguise and "
          "their action for that phase will fail")
    quote("Nakamori will learn that the player was in disguise and also which disguise it was.")
    quote("The target will be notified that they were pinched.")
    s = disguised("Nak=nakamori", "Ver=vermouth/ran", "G=gin", "Boss=anokata", "Cam=camel")
    r = phase(s, "night", 1, "Nak: pinch face Ver", "Ver: protect Cam",
              "Black Org: kill Cam by G")
    assert dead(r) == ["Cam"]  # her protection failed
    v = r.state.players["Ver"]
    assert "arrested" in v.statuses and not any(x.startswith("disguise:") for x in v.statuses)
    assert pms(r, "Nak") == "Face pinch of Ver: True, in disguise as Ran, Protector."
    assert "Someone pinched your face." in pms(r, "Ver")
    assert "Ver has been arrested." in r.public


def test_face_pinch_on_an_undisguised_player_is_false_and_once_per_night_and_day():
    quote("If the player is not in disguise, the action will return a false")
    quote("Once within every two phases Nakamori can check a player for a disguise (Night 1 or "
          "Day 1, then Night 2 or Day 2... So, he can do it Night 1, then Night 2. Or he can do "
          "it Day 1, then Night 2.)")
    s = disguised("Nak=nakamori", "Ver=vermouth", "G=gin", "Boss=anokata", "Cam=camel")
    r = phase(s, "night", 1, "Nak: pinch Ver")
    assert pms(r, "Nak") == "Face pinch of Ver: False."
    assert "arrested" not in r.state.players["Ver"].statuses
    r2 = phase(r.state, "day", 1, "Nak: pinch G")
    assert pms(r2, "Nak") == ""
    assert any("once each night and day" in line for line in r2.log_lines())
    r3 = phase(r2.state, "night", 2, "Nak: pinch G")
    assert pms(r3, "Nak") == "Face pinch of G: False."
    # Day 1 then Night 2 is allowed too.
    r4 = phase(phase(s, "day", 1, "Nak: pinch G").state, "night", 2, "Nak: pinch Ver")
    assert pms(r4, "Nak") == "Face pinch of Ver: False."


def test_an_injured_disguiser_loses_the_disguise():
    quote("If a player is injured and in disguise, they lose their disguise.")
    s = disguised("Kid=kid/kir", "Kob=kobayashi", "G=gin", "Boss=anokata", "Con=conan")
    r = phase(s, "night", 1, "Black Org: kill Kid by G", "Kob: first aid Kid")
    assert dead(r) == [] and "injured" in r.state.players["Kid"].statuses
    r2 = phase(r.state, "night", 2, "Con: interrogate Kid")
    assert pms(r2, "Con") == "Interrogation of Kid: Not BO"
    assert "headgear" in r.state.players["Kid"].items  # his own items stay
    assert r.state.players["Kid"].items.count("gun") == 1


# ---- travel -----------------------------------------------------------------------------


def _vote(state, day: int, who: str) -> dict:
    return {m["player"]: m for m in modifiers_for_day(state, day)}.get(who, {})


def test_travel_the_seeds_example_hakuba_flies_to_japan_on_night_1():
    quote("Hakuba decides to travel to Japan on Night 1. Then he's in the plane on Day 1 (can't "
          "Vote and can't be killed either (by lynching or APTX)) Will arrive in Japan at Night 2 "
          "and can use his Night actions.")
    s = game("Hak=hakuba", "G=gin", "Boss=anokata", "Con=conan")
    # Abroad from the start: no interrogation, no vote.
    quote("Note: Begins game outside Japan.")
    r0 = phase(s, "night", 1, "Hak: interrogate G")
    assert pms(r0, "Hak") == "" and any("Hak is abroad" in x for x in r0.log_lines())
    r1 = phase(s, "night", 1, "Hak: travel")
    assert pms(r1, "Hak") == "You board the plane to Japan."
    day1 = _vote(r1.state, 1, "Hak")
    assert day1["powerless"] and day1["lynch_immune"] and day1["source"] == "on the plane"
    r_day = phase(r1.state, "day", 1)
    r2 = phase(r_day.state, "night", 2, "Hak: interrogate G")
    assert pms(r2, "Hak") == "Interrogation of G: BO"
    assert "Hak" not in {m["player"] for m in modifiers_for_day(r2.state, 2)}


def test_travel_the_seeds_example_makoto_leaves_japan_on_night_2():
    quote("Makoto decides to leave Japan on Night 2. Vodka uses APTX on him on the following "
          "Day, Day 2. The APTX will be not take effect, and will not be used up.")
    s = game("Mak=makoto", "G=gin", "Boss=anokata", "Hai=haibara")
    s = phase(s, "night", 1, "Mak: travel").state
    s = phase(s, "day", 1).state
    r = phase(s, "night", 2, "Mak: travel")
    assert pms(r, "Mak") == "You board the plane out of Japan."
    assert _vote(r.state, 2, "Mak")["source"] == "on the plane"
    # Nothing reaches him on the plane on Day 2.
    d2 = phase(r.state, "day", 2, "Hai: follow Mak")
    assert pms(d2, "Hai") == "" and any("on the plane" in x for x in d2.log_lines())
    # Night 3: abroad.
    r3 = phase(d2.state, "night", 3, "Black Org: kill Mak by G")
    assert dead(r3) == [] and any("out of Japan" in x for x in r3.log_lines())
    assert _vote(r3.state, 3, "Mak")["source"] == "abroad"


def test_a_traveller_killed_the_phase_he_leaves_survives():
    quote("If the traveler is killed or lynched in the same phase they use Travel, the traveler "
          "will survive and travel as intended. Only if they are discombobulated or frightened "
          "will the traveler still be killed in such a situation.")
    s = game("Hak=hakuba", "G=gin", "Boss=anokata", "T=eisuke")
    s = phase(phase(s, "night", 1, "Hak: travel").state, "day", 1).state  # in Japan on Night 2
    r = phase(s, "night", 2, "Hak: travel", "Black Org: kill Hak by G")
    assert dead(r) == []
    r = phase(s, "night", 2, "Hak: travel", "Black Org: kill Hak by G", "T: trick Hak")
    assert dead(r) == ["Hak"]


def test_abroad_every_action_on_the_traveller_fails_but_discombobulation_stops_his_travel():
    quote("If a traveler is targeted with an action while abroad, that action will fail.")
    quote("Discombobulate & Frighten DO still work while a player is out of the country if the "
          "player attempts to use Travel in a phase where it would be affected.")
    s = game("Hak=hakuba", "G=gin", "Boss=anokata", "T=eisuke", "Con=conan")
    r = phase(s, "night", 1, "Black Org: kill Hak by G", "Con: interrogate Hak")
    assert dead(r) == [] and pms(r, "Con") == ""
    r = phase(s, "night", 1, "Hak: travel", "T: trick Hak")
    assert pms(r, "Hak") == "Your action failed."
    assert _vote(r.state, 1, "Hak")["source"] == "abroad"  # still abroad on Day 1


def test_makoto_flies_out_after_a_successful_protection():
    quote("Makoto: If Makoto successfully protects someone, he'll automatically fly out of Japan "
          "the next phase")
    s = game("Mak=makoto", "G=gin", "Boss=anokata", "Cam=camel")
    s = phase(phase(s, "night", 1, "Mak: travel").state, "day", 1).state
    r = phase(s, "night", 2, "Black Org: kill Cam by G", "Mak: protect Cam")
    assert dead(r) == []
    assert _vote(r.state, 2, "Mak")["source"] == "on the plane"
    r3 = phase(phase(r.state, "day", 2).state, "night", 3, "Mak: protect Cam")
    assert any("Mak is abroad" in x for x in r3.log_lines())


# ---- blame and house search -------------------------------------------------------------


def test_blamed_actions_appear_as_legitimate_ones_the_seeds_example():
    quote("Xpon is blamed for killing CTU. \"Akonyl interrogates xpon\" - True \"Xpon kills "
          "CTU\" - True")
    quote("Any investigations for the blamed action will come back as \"true\", and the townie "
          "may be arrested for the blamed action as well.")
    s = game("Akonyl=anokata", "Xpon=haibara", "CTU=camel", "Sat=satou", "Con=conan")
    r = phase(s, "night", 1, "Black Org: kill CTU by Akonyl",
              "Akonyl: blame Xpon for killing CTU", "Sat: investigate Xpon kills CTU",
              "Con: investigate Akonyl kills CTU")
    assert dead(r) == ["CTU"]
    assert pms(r, "Sat") == '"Xpon kills CTU" - True'
    assert pms(r, "Con") == '"Akonyl kills CTU" - True'
    # Arrested for it the next day, though Xpon did not do it.
    quote("Players can be arrested for blamed actions, even tho the player didn't do it.")
    d = phase(r.state, "day", 1, "Sat: arrest Xpon for killing CTU on Night 1")
    assert "arrested" in d.state.players["Xpon"].statuses


def test_blame_itself_cannot_be_investigated_and_can_be_tricked():
    quote("\"Blame\" itself may not be investigated and will come back as a false.")
    s = game("Akonyl=anokata", "Kleene=haibara", "PT=camel", "Sat=satou", "T=eisuke")
    r = phase(s, "night", 1, "Akonyl: blame Kleene for killing PT",
              "Sat: investigate Akonyl blames Kleene")
    assert pms(r, "Sat") == '"Akonyl blames Kleene" - False'
    quote("Blame can be discombobulated too.")
    r = phase(s, "night", 1, "Akonyl: blame Kleene for killing PT", "T: trick Akonyl",
              "Sat: investigate Kleene kills PT")
    assert pms(r, "Sat") == '"Kleene kills PT" - False'


def test_a_house_search_finding_a_crime_arrests_the_target():
    quote("If the target DID commit a crime, even if it was a blamed action, the target is "
          "Auto-Arrested on the same phase.")
    s = game("Meg=megure", "G=gin", "Boss=anokata", "Cam=camel", "R=ran")
    s = phase(s, "night", 1, "Black Org: kill Cam by G").state
    r = phase(s, "night", 2, "Meg: house search G", "G: investigate R protects Meg")
    assert "arrested" in r.state.players["G"].statuses
    assert pms(r, "Meg") == (
        "House search of G: crimes found (kill Cam on Night 1). G is arrested.")
    assert "G has been arrested." in r.public
    # G's action later that night fails: he is arrested.
    assert "R protects Meg" not in pms(r, "G")


def test_a_house_search_without_a_crime_suspends_the_officer_and_is_lost_for_good():
    quote("If the target did not commit a crime (blamed actions count as a crime), then the "
          "player will be suspended for 2 phases and can't use any actions during that time")
    quote("After the suspension is over, the police officer can use all abilities he had "
          "before, besides house search. He won't be able to use House search for the rest of "
          "the game.")
    s = game("Meg=megure", "G=gin", "Boss=anokata", "Cam=camel", "R=ran")
    r = phase(s, "night", 1, "Meg: house search Cam")
    assert "arrested" not in r.state.players["Cam"].statuses
    assert r.public == ("An unidentified police officer was suspended for the next 2 phases.",)
    r2 = phase(phase(r.state, "day", 1).state, "night", 2, "Meg: investigate G kills Cam")
    assert pms(r2, "Meg") == ""  # suspended Day 1 and Night 2
    s3 = phase(r2.state, "day", 2).state
    r3 = phase(s3, "night", 3, "Meg: house search G", "Meg: investigate G kills Cam")
    assert any("lost house search for good" in x for x in r3.log_lines())
    assert pms(r3, "Meg") == '"G kills Cam" - False'


def test_a_crime_the_target_commits_the_night_of_the_search_is_hindered():
    quote("If the target has not committed a crime yet, but commits a crime in the same phase "
          "as the House Search order is given, the House Search will still be considered a "
          "failure, and the officer will suffer the consequences. The crime, however, will be "
          "hindered and Auto-arrest won't happen.")
    s = game("Meg=megure", "Ake=akemi", "Boss=anokata", "Con=conan")
    r = phase(s, "night", 1, "Meg: house search Ake", "Ake: steal Con")
    assert r.state.players["Con"].items == ["school-book", "glasses"]
    assert "arrested" not in r.state.players["Ake"].statuses
    assert r.public == ("An unidentified police officer was suspended for the next 2 phases.",)


def test_killing_comes_before_the_house_search_of_the_killer():
    quote("Killing always comes before House Search, even if the killer is attacking the HSer "
          "on the night the HSer is HSing the killer.")
    s = game("Meg=megure", "G=gin", "Boss=anokata", "Cam=camel", "R=ran")
    s = phase(s, "night", 1, "Black Org: kill Cam by G").state
    r = phase(s, "night", 2, "Meg: house search G", "Black Org: kill Meg by G")
    assert dead(r) == ["Meg"]
    assert "arrested" not in r.state.players["G"].statuses


def test_a_house_search_of_a_disguised_player_arrests_and_unmasks():
    quote("Kid/Vermouth lose their disguise if pinched, injured, arrested for being disguised, "
          "house searched; keep their disguise otherwise.")
    s = disguised("Meg=megure", "Ver=vermouth/ran", "Boss=anokata", "Cam=camel")
    r = phase(s, "night", 1, "Meg: house search Ver")
    v = r.state.players["Ver"]
    assert "arrested" in v.statuses and not any(x.startswith("disguise:") for x in v.statuses)
    assert pms(r, "Meg") == (
        "House search of Ver: crimes found (disguising as Ran). Ver is arrested.")


# ---- Agasa's bow-tie and watch ----------------------------------------------------------


def test_the_watch_protects_its_borrower_for_one_night_then_goes_back():
    quote("Watch: Can also lend the watch to anyone for one night except for himself (and it is "
          "returned at the end of the night). Someone in possession of the Watch is protected "
          "from the BO as if he were protected by Ran or Makoto")
    quote("Neither the recipient of Watch or bow-tie nor Agasa learn each other’s identity")
    s = game("Aga=agasa", "Con=conan", "G=gin", "Boss=anokata", "Cam=camel")
    d = phase(s, "day", 1, "Aga: lend watch to Con")
    assert pms(d, "Con") == "You have received the Watch from Agasa for the night."
    assert "watch" in d.state.players["Con"].items
    r = phase(d.state, "night", 2, "Black Org: kill Con by G")
    assert dead(r) == []
    assert "You were attacked tonight, but the watch protected you." in pms(r, "Con")
    assert "watch" in r.state.players["Aga"].items and "watch" not in r.state.players["Con"].items
    r3 = phase(phase(r.state, "day", 2).state, "night", 3, "Black Org: kill Con by G")
    assert dead(r3) == ["Con"]
    # Agasa holding his own watch is not protected by it.
    r = phase(s, "night", 1, "Black Org: kill Aga by G")
    assert dead(r) == ["Aga"]


def test_the_watch_can_be_discombobulated_and_outranks_a_protection():
    quote("Protection from the tranquilizer watch can be discombobulated too.")
    s = game("Aga=agasa", "Con=conan", "G=gin", "Boss=anokata", "T=eisuke", "Ran=ran")
    d = phase(s, "day", 1, "Aga: lend watch to Con")
    r = phase(d.state, "night", 2, "Black Org: kill Con by G", "T: trick Con")
    assert dead(r) == ["Con"]
    quote("Bone Breaker > Watch protection > Protect > Heal > First Aid")
    r = phase(d.state, "night", 2, "Black Org: kill Con by G", "Ran: protect Con")
    assert dead(r) == []
    assert "injured" not in r.state.players["Ran"].statuses  # the watch saved him, not Ran


def test_the_bow_tie_interrogates_or_investigates_as_conan_besides_ones_own():
    quote("Someone in possession of the bow-tie can act if he were Conan and can choose to "
          "Interrogate OR Investigate 3. (Not both)")
    quote("If the recipient of the Bow-tie has a normal Interrogate or Investigate due to "
          "his/her role, he can use both that interrogate/investigate and the normal one.")
    s = game("Aga=agasa", "Ran=ran", "Hei=heiji", "G=gin", "Boss=anokata")
    d = phase(s, "day", 1, "Aga: lend bow-tie to Ran", "Aga: lend watch to Ran")
    assert {"bow-tie", "watch"} <= set(d.state.players["Ran"].items)  # both to one person
    r = phase(d.state, "night", 2, "Ran: bow-tie investigate G kills Ran",
              "Ran: bow-tie interrogate G")
    assert pms(r, "Ran") == "Interrogation of G: BO"  # one or the other: the later stands
    d = phase(s, "day", 1, "Aga: lend bow-tie to Hei")
    r = phase(d.state, "night", 2, "Hei: interrogate G", "Hei: bow-tie interrogate Boss")
    assert pms(r, "Hei") == "Interrogation of G: BO | Interrogation of Boss: Not BO"


def test_agasa_lends_to_no_one_but_others_and_not_when_frightened():
    quote("Can lend it to anyone for a night except for himself")
    s = game("Aga=agasa", "Con=conan", "G=gin", "Boss=anokata", "Teq=tequila")
    d = phase(s, "day", 1, "Aga: lend watch to Aga")
    assert "watch" in d.state.players["Aga"].items
    assert any("may not lend it to themselves" in x for x in d.log_lines())
    quote("The Frightened player can't use his ability the next day.")
    n = phase(s, "night", 2, "Teq: frighten Aga")
    d = phase(n.state, "day", 2, "Aga: lend watch to Con")
    assert "watch" not in d.state.players["Con"].items
    assert pms(d, "Aga") == "Your action failed."


# ---- erase and bribe --------------------------------------------------------------------


def _dawn(r) -> list[str]:
    from assistant.engine.drafts import dawn_post

    return [line for line in dawn_post(r).splitlines() if line.strip()]


def test_an_erased_body_is_not_shown_and_only_the_eraser_learns_it():
    quote("The identity of the erased player will not be shown. The eraser is the only one who "
          "becomes privy to the identity of the erased body.")
    s = game("Pis=pisco", "G=gin", "Boss=anokata", "Cam=camel", "Con=conan")
    r = phase(s, "night", 1, "Black Org: kill Cam by Pis", "Pis: erase")
    assert dead(r) == ["Cam"]
    assert _dawn(r)[1] == "Cam has died."
    assert pms(r, "Pis") == "You erased the body of Cam: Camel, FBI Agent."
    r = phase(s, "night", 1, "Black Org: kill Cam by Pis")
    assert _dawn(r)[1] == "Cam has died. Cam was Camel, FBI Agent (Town)."


def test_pisco_erases_another_members_victim_once_per_game():
    quote("The action is not limited to a one-time-use and may be repeated so long as the "
          "eraser is the one doing the killing. Once per game, Pisco may opt to erase a "
          "victim killed by another Black Org member.")
    s = game("Pis=pisco", "G=gin", "Boss=anokata", "Cam=camel", "Con=conan", "Jo=jodie",
             "Hei=heiji")
    r1 = phase(s, "night", 1, "Black Org: kill Cam by G", "Pis: erase")
    assert _dawn(r1)[1] == "Cam has died."
    r2 = phase(r1.state, "night", 2, "Black Org: kill Con by G", "Pis: erase")
    assert _dawn(r2)[1].startswith("Con has died. Con was")
    r3 = phase(r2.state, "night", 3, "Black Org: kill Jo by Pis", "Pis: erase")
    assert _dawn(r3)[1] == "Jo has died."


def test_an_erased_ran_does_not_sober_kogorou():
    quote("If Eri, Ran, Conan, or Shinichi get erased, Kogorou will not get sober and will stay "
          "drunk.")
    s = game("Pis=pisco", "Ran=ran", "Boss=anokata", "Kog=kogorou", "G=gin", "J=jodie",
             "M=megure", "T=takagi")
    r = phase(s, "night", 1, "Black Org: kill Ran by Pis", "Pis: erase")
    assert len(_kogorou_answers(r.state, range(2, 14))) == 2


def test_a_bribed_kill_cannot_be_hindered_even_by_an_arrest_of_the_killer():
    quote("The Black Org's kill that night cannot be hindered by any means whatsoever, including "
          "an arrest on the killing player.")
    quote("Should the killer be arrested, the arrest will be successful, but only after the "
          "kill. The kill itself cannot be stopped.")
    s = game("Pis=pisco", "G=gin", "Boss=anokata", "Cam=camel", "Sat=satou", "Ran=ran",
             "T=eisuke")
    s = phase(s, "night", 1, "Black Org: kill Cam by G").state
    r = phase(s, "day", 1).state
    r = phase(r, "night", 2, "Pis: bribe", "Black Org: kill Ran by G",
              "Sat: arrest G for killing Cam on Night 1")
    assert dead(r) == ["Ran"]
    assert "arrested" in r.state.players["G"].statuses
    quote("The body of a bribe victim will be erased and only the killing player will learn "
          "their identity.")
    assert _dawn(r)[1] == "Ran has died."
    assert "You erased the body of Ran: Ran, Protector." in pms(r, "G")


def test_protecting_the_bribed_victim_or_tricking_the_killer_fails_as_if_discombobulated():
    quote("If a player attempts to protect the victim or discombobulate the killer, their "
          "action will fail as if discombobulated.")
    quote("He will also get that message in case he wanted to discombobulate someone that isn't "
          "in Japan, or if he discombobulated the killer if Bribe is in effect.")
    s = game("Pis=pisco", "G=gin", "Boss=anokata", "Cam=camel", "Ran=ran", "T=eisuke")
    r = phase(s, "night", 1, "Pis: bribe", "Black Org: kill Cam by G", "Ran: protect Cam",
              "T: trick G")
    assert dead(r) == ["Cam"]
    assert pms(r, "Ran") == "Your action failed."
    assert pms(r, "T") == "Your action failed."
    assert "injured" not in r.state.players["Ran"].statuses
    # Once per game.
    quote("One per game, Pisco may \"Bribe\" the GM with a suitcase full of cash.")
    r2 = phase(r.state, "night", 2, "Pis: bribe")
    assert any("no use of bribe left" in x for x in r2.log_lines())


def test_bribe_kills_a_traveller_abroad():
    quote("Even if the victim is a traveler and out of the country, the kill will still be a "
          "success.")
    s = game("Pis=pisco", "G=gin", "Boss=anokata", "Hak=hakuba")
    r = phase(s, "night", 1, "Pis: bribe", "Black Org: kill Hak by G")
    assert dead(r) == ["Hak"]
    assert dead(phase(s, "night", 1, "Black Org: kill Hak by G")) == []


# ---- the Black Suitcase, Cover, Betrayal ------------------------------------------------


def test_black_suitcase_the_seeds_example_a_fake_interrogation():
    quote("Anokata (Kleene) can give the Suitcase to himself during Day 1. During Night 2, he "
          "can (for example) interrogate another player (Akonyl). Anyone Investigating \"Kleene "
          "interrogates Akonyl\" will receive a \"True\" result. However, Anokata (Kleene) will "
          "not gain a result on his fake Interrogation.")
    s = game("Kleene=anokata", "Akonyl=conan", "Sat=satou", "G=gin")
    d = phase(s, "day", 1, "Kleene: give black-suitcase to Kleene")
    r = phase(d.state, "night", 2, "Kleene: suitcase interrogate Akonyl",
              "Sat: investigate Kleene interrogates Akonyl")
    assert pms(r, "Sat") == '"Kleene interrogates Akonyl" - True'
    assert pms(r, "Kleene") == ""
    assert "black-suitcase" in r.state.players["Kleene"].items


def test_fake_actions_and_blamed_actions_the_seeds_example():
    quote("Akonyl(Anokata) uses Black Suitcase and interrogates xpon(Haibara). Akonyl kills CTU. "
          "Xpon is blamed for killing CTU. \"Akonyl interrogates xpon\" - True \"Xpon kills CTU\" "
          "- True")
    quote("Anokata can use the Black Suitcase during Night 1 for himself.")
    s = game("Akonyl=anokata", "Xpon=haibara", "CTU=camel", "Meg=megure", "Shi=shiratori")
    r = phase(s, "night", 1, "Akonyl: suitcase interrogate Xpon", "Black Org: kill CTU by Akonyl",
              "Akonyl: blame Xpon for killing CTU", "Meg: investigate Akonyl interrogates Xpon",
              "Shi: investigate Xpon kills CTU")
    assert dead(r) == ["CTU"]
    assert pms(r, "Meg") == '"Akonyl interrogates Xpon" - True'
    assert pms(r, "Shi") == '"Xpon kills CTU" - True'


def test_a_discombobulated_suitcase_holder_fails_and_is_told():
    quote("If the player is discombobulated, the Black Suitcase action will fail as well as any "
          "other Night actions. Meaning the investigation of that fake action will come out as "
          "\"False\".")
    quote("The player will be notified, that he was discombobulated, even if he doesn't have a "
          "real night ability.")
    s = game("Boss=anokata", "Xpon=haibara", "Ran=ran", "Meg=megure", "T=eisuke")
    d = phase(s, "day", 1, "Boss: give black-suitcase to Xpon")
    assert pms(d, "Xpon") == "You have received the Black Suitcase for the night."
    r = phase(d.state, "night", 2, "Xpon: suitcase heal Ran", "T: trick Xpon",
              "Meg: investigate Xpon heals Ran")
    assert pms(r, "Meg") == '"Xpon heals Ran" - False'
    assert pms(r, "Xpon") == "Your action failed."
    assert "black-suitcase" in r.state.players["Boss"].items  # back with the leader


def test_cover_the_seeds_example_one_of_gins_abilities_not_both():
    quote("Calvados covers Gin. Gin can use slander and Investigate. But Calvados can just use "
          "either slander or investigate. Not both like Gin.")
    quote("The covered abilities can be normally investigated or seen with stake-out. Meaning "
          "\"Calvados slanders Akonyl\" will get a true.")
    s = game("Calv=calvados", "Gin=gin", "Boss=anokata", "Akonyl=conan", "Meg=megure")
    d = phase(s, "day", 1, "Calv: cover Gin")
    r = phase(d.state, "night", 2, "Calv: investigate Akonyl interrogates Gin",
              "Calv: slander Akonyl", "Meg: investigate Calv slanders Akonyl",
              "Akonyl: interrogate Gin")
    assert pms(r, "Calv") == "You slandered Akonyl."  # the later order: one of the two
    assert pms(r, "Meg") == '"Calv slanders Akonyl" - True'
    # Only the night after the day of the cover.
    d3 = phase(r.state, "day", 2)
    import pytest

    from assistant.errors import OrderError
    with pytest.raises(OrderError):
        phase(d3.state, "night", 3, "Calv: slander Akonyl")


def test_cover_works_on_allies_only_and_not_on_frighten():
    quote("Can't cover: Frighten, Revenge, Arrest, House Search, Travel")
    import pytest

    from assistant.errors import OrderError
    s = game("Calv=calvados", "Teq=tequila", "Boss=anokata", "Con=conan")
    d = phase(s, "day", 1, "Calv: cover Teq")
    with pytest.raises(OrderError, match="no ability 'frighten'"):
        phase(d.state, "night", 2, "Calv: frighten Con")
    quote("Allies are all BOs (even if that BO happens to be a BO/Town lover) and Calvados's "
          "own lover.")
    d = phase(s, "day", 1, "Calv: cover Con")
    assert any("not an ally" in x for x in d.log_lines())
    with pytest.raises(OrderError):
        phase(d.state, "night", 2, "Calv: interrogate Boss")


def test_betrayal_kir_learns_one_black_org_activity_without_an_order():
    quote("She randomly gets to know one activity of the BO that was done on that night.")
    quote("Slander: Gin used slander on that night (doesn't know on who)")
    s = game("Kir=kir", "Gin=gin", "Boss=anokata", "Con=conan", "T=eisuke")
    r = phase(s, "night", 1, "Gin: slander Con")
    assert pms(r, "Kir") == "Gin used slander tonight."
    r = phase(s, "night", 1, "Black Org: kill Con by Gin")
    assert pms(r, "Kir") == "Gin killed someone tonight."
    quote("Kir doesn't need to PM the GM to use this action, but it can be discombobulated.")
    quote("If Kir gets discombobulated but doesn't actually send anything in, she would still "
          "know her action failed because of Betrayal.")
    r = phase(s, "night", 1, "Gin: slander Con", "T: trick Kir")
    assert pms(r, "Kir") == "Your action failed."


def test_betrayal_does_not_see_the_suitcase_a_disguise_or_a_blame():
    quote("Disguised abilities: DOESN'T get to know what Irish or Vermouth did with their "
          "disguise.")
    quote("Black Suitcase: DOESN'T get to know who used or who got the Black Suitcase.")
    quote("Blame: DOESN'T get to know if someone was blamed")
    s = disguised("Kir=kir", "Ver=vermouth/araide", "Boss=anokata", "Con=conan", "Cam=camel")
    r = phase(s, "night", 1, "Ver: heal Con", "Boss: suitcase heal Con",
              "Boss: blame Con for killing Cam")
    assert pms(r, "Kir") == "Betrayal: you learned of no Black Org activity tonight."


# ---- Analyze, costumes, detention -------------------------------------------------------


def test_analyze_the_seeds_example_sober_kogorou_gets_the_true_answer():
    quote("Example: Ran was killed during Night 2, so Kogorou got sober on Day 3: Needs to PM: "
          "\"I want to Analyze my Interrogation from Night 1\"")
    quote("He gets the correct answer with the Analysis, whether the result was wrong because "
          "of being Drunk or because it was Slandered.")
    s = game("Kog=kogorou", "Gin=gin", "Ran=ran", "Boss=anokata", "Cam=camel", "Jo=jodie")
    s = phase(s, "night", 1, "Kog: interrogate Cam", "Gin: slander Cam").state
    drunk = phase(s, "day", 1, "Kog: analyze Night 1")
    assert pms(drunk, "Kog") == ""
    assert any("only when sober" in x for x in drunk.log_lines())
    s = phase(phase(s, "day", 1).state, "night", 2, "Black Org: kill Ran by Gin").state
    s = phase(phase(s, "day", 2).state, "night", 3).state
    r = phase(s, "day", 3, "Kog: analyze Night 1")
    assert pms(r, "Kog") == "Analysis of your interrogation of Cam on Night 1: Not BO"
    r = phase(s, "day", 3, "Kog: analyze Night 3")
    assert pms(r, "Kog") == "You did not interrogate anyone on Night 3."


def test_a_costume_is_worn_the_night_after_the_day_it_is_chosen_and_once():
    quote("During the day, Yukiko can choose one of the costumes to disguise as that role during "
          "the next night. During the next night she can use any of her disguises abilities.")
    quote("After the night Yukiko will no longer be disguised.")
    quote("She can not disguise as the same role twice.")
    from assistant.engine.setup import parse_setup
    from assistant.engine.state import GameState

    text = ('players = [{ name = "Yuki", role = "yukiko", costumes = ["araide", "conan", '
            '"ran"] }, { name = "G", role = "gin" }, { name = "Boss", role = "anokata" }, '
            '{ name = "Cam", role = "camel" }, { name = "Hei", role = "heiji" }]')
    s = GameState.from_setup(RULES, parse_setup(text, RULES, where="setup.toml", default_seed=3))
    d = phase(s, "day", 1, "Yuki: temporary disguise Araide")
    r = phase(d.state, "night", 2, "Black Org: kill Cam by G", "Yuki: heal Cam")
    assert dead(r) == []
    assert "glasses" in r.state.players["Yuki"].items  # the costume's items, that night
    d2 = phase(r.state, "day", 2, "Yuki: temporary disguise Araide")
    assert any("has worn araide already" in x for x in d2.log_lines())
    r2 = phase(d2.state, "night", 3, "Black Org: kill Cam by G")
    assert dead(r2) == ["Cam"]
    assert "glasses" not in r2.state.players["Yuki"].items
    import pytest

    from assistant.errors import OrderError
    with pytest.raises(OrderError):
        phase(d2.state, "night", 3, "Yuki: heal Cam")
    quote("All disguises will be town roles.")
    from assistant.errors import ConfigError
    with pytest.raises(ConfigError, match="may not disguise as Gin"):
        parse_setup('players = [{ name = "I", role = "irish", costumes = ["gin"] }]', RULES,
                    where="setup.toml", default_seed=1)


def test_detention_holds_a_player_three_phases_one_at_a_time():
    quote("The player will be released automatically after 3 phases or if Satou dies")
    quote("Only one player at a time can be in detention")
    quote("Can not be used on the same person twice in a row")
    s = game("Sat=satou", "G=gin", "Boss=anokata", "Con=conan", "Cam=camel")
    r = phase(s, "night", 1, "Sat: detention G")
    assert pms(r, "G") == "You have been put in detention."
    s = r.state
    for kind, n in (("day", 1), ("night", 2), ("day", 2)):
        r = phase(s, kind, n, "Con: interrogate G" if kind == "night" else "Sat: detain Cam")
        assert pms(r, "Con") == ""
        s = r.state
    assert any("G is in detention already" in x for x in r.log_lines())
    r = phase(s, "night", 3, "Con: interrogate G", "Sat: detain G")
    assert pms(r, "Con") == "Interrogation of G: BO"  # released: three phases are over
    assert any("G was the last one detained" in x for x in r.log_lines())


def test_detention_comes_after_the_killing_at_night_and_cannot_be_tricked():
    quote("Arrest > Face Pinch > Charm > APTX > Lynching > Discombobulation/Frighten > Killing > "
          "House Search/Detain > All other actions")
    quote("Detention - Role with action: Satou - Day/Night action, can't be covered, can't be "
          "frightened or discombobulated.")
    s = game("Sat=satou", "G=gin", "Boss=anokata", "Con=conan", "T=eisuke")
    r = phase(s, "night", 1, "Sat: detain G", "Black Org: kill Con by G", "T: trick Sat",
              "G: investigate Sat detains G")
    assert dead(r) == ["Con"]
    assert any(x.startswith("detained-by:Sat") for x in r.state.players["G"].statuses)
    assert pms(r, "G") == "You have been put in detention."  # his investigation fails


def test_a_sniped_watch_holder_survives_and_the_watch_breaks():
    quote("If a player is sniped while in possession of the watch, they will survive but the "
          "watch will not--the watch breaks and is no longer in play. The player that "
          "distributed the watch the day before and the player that used the watch to protect "
          "themselves from the sniping are given a notice that the watch was used successfully "
          "and is now broken.")
    s = game("Aga=agasa", "Con=conan", "Chi=chianti", "Boss=anokata", "Cam=camel")
    d = phase(s, "day", 1, "Aga: lend watch to Con")
    r = phase(d.state, "night", 2, "Black Org: kill Con by Chi")
    assert dead(r) == []
    assert pms(r, "Con") == "The watch was used successfully and is now broken."
    assert pms(r, "Aga") == "The watch was used successfully and is now broken."
    assert "watch" not in r.state.players["Aga"].items + r.state.players["Con"].items
    # A plain kill: the watch goes back whole.
    r = phase(d.state, "night", 2, "Black Org: kill Con by Boss")
    assert dead(r) == [] and "watch" in r.state.players["Aga"].items


# ---- Vengeance by lynch (through the GM's commands) -------------------------------------


@pytest.fixture
def day(tmp_path, capsys, monkeypatch) -> Day:
    return Day(tmp_path / "data", capsys, monkeypatch)


def test_a_lynched_akai_kills_the_player_he_voted_for(day: Day, tmp_path) -> None:
    quote("If Akai gets lynched, he'll kill the person he voted for too.")
    day.start(tmp_path, {"Akai": "akai", "Abs": "gin", "Miaka": "pisco", "Pofa": "satou",
                         "Lynz": "ran", "Eri": "eri"})
    day.votes(("Abs", "Akai"), ("Miaka", "Akai"), ("Lynz", "Akai"), ("Akai", "Abs"))
    post = day.at(END.isoformat(), "draft", "dusk", "g", "--day", "1")
    assert "Akai has been lynched." in post
    assert "Abs has died as well. Abs was Gin, Mafia Slanderer (Black Org)." in post, post


def test_a_lynched_akai_who_did_not_vote_takes_nobody(day: Day, tmp_path) -> None:
    quote("If Frightened, he can't vote and can't use this action.")
    day.start(tmp_path, {"Akai": "akai", "Abs": "gin", "Miaka": "pisco", "Pofa": "satou",
                         "Lynz": "ran", "Eri": "eri"})
    day.votes(("Abs", "Akai"), ("Miaka", "Akai"), ("Lynz", "Akai"))
    post = day.at(END.isoformat(), "draft", "dusk", "g", "--day", "1")
    assert "Akai has been lynched." in post and "Abs has died" not in post, post


def test_kogorou_sobers_on_the_night_a_quarter_of_the_townies_have_died():
    quote("Becomes sober after 1/4th the total townies have died, meaning his interrogation the "
          "night of the dividing death will be an accurate one.")
    # Eight townies (Kogorou among them): the second death is the dividing one.
    town = ["Kog=kogorou", "A=camel", "B=jodie", "C=megure", "D=takagi", "E=chiba",
            "F=araide", "H=heiji"]
    s = game(*town, "G=gin", "Boss=anokata")
    s = phase(s, "night", 1, "Black Org: kill A by G").state
    assert len(_kogorou_answers(s, range(2, 14))) == 2  # one of eight: still drunk
    answers = set()
    for n in range(2, 14):
        r = phase(s, "night", n, "Black Org: kill B by G", "Kog: interrogate G")
        answers.add(pms(r, "Kog"))
    assert answers == {"Interrogation of G: BO"}


def test_a_costume_picked_in_prep_is_worn_on_night_1_only():
    quote("Once Irish/Yukiko have their selected disguises, they can already pick a costume, "
          "meaning they would be disguised N1.")
    from assistant.engine.setup import parse_setup
    from assistant.engine.state import GameState

    text = ('players = [{ name = "Ir", role = "irish", costumes = ["kir", "conan", "ran"], '
            'disguise = "kir" }, { name = "Boss", role = "anokata" }, '
            '{ name = "Con", role = "conan" }, { name = "Cam", role = "camel" }]')
    s = GameState.from_setup(RULES, parse_setup(text, RULES, where="setup.toml", default_seed=3))
    r = phase(s, "night", 1, "Con: interrogate Ir")
    assert pms(r, "Con") == "Interrogation of Ir: BO"  # Kir's card
    d = phase(r.state, "day", 1)
    r2 = phase(d.state, "night", 2, "Con: interrogate Ir")
    assert pms(r2, "Con") == "Interrogation of Ir: Not BO"  # Irish undisguised


DISGUISED_SETUP = """seed = 4
players = [
  { name = "Akonyl", role = "kid", disguise = "kir" }, { name = "Abs", role = "gin" },
  { name = "Yuri", role = "yukiko", costumes = ["araide", "conan", "ran"] },
  { name = "Con", role = "conan" }, { name = "Jd-", role = "araide" },
  { name = "Boss", role = "anokata" },
]
"""


def test_a_setup_with_a_disguise_and_costumes_is_stored_and_read_back_by_the_cli(
    tmp_path, capsys
):
    """The GM's path: `roles` keeps the disguise and the costumes; a night resolves with them."""
    from cli_support import call

    quote("The GM then randomly chooses one of the names and awards the disguiser the player's "
          "role as a disguise.")
    (tmp_path / "setup.toml").write_text(DISGUISED_SETUP, encoding="utf-8")
    code, out, err = call(capsys, tmp_path, "roles", "g", "--file", str(tmp_path / "setup.toml"),
                          "--ruleset", "dctp-mini")
    assert code == 0, err
    for line in ("Con: interrogate Akonyl", "Akonyl: steal Jd-"):
        code, _, err = call(capsys, tmp_path, "order", "g", line, "--night", "1")
        assert code == 0, err
    code, out, err = call(capsys, tmp_path, "resolve", "g", "--night", "1")
    assert code == 0, err
    code, out, err = call(capsys, tmp_path, "draft", "pms", "g")
    assert code == 0, err
    assert "Interrogation of Akonyl: BO" in out
    assert "An item was stolen from you:" in out
    code, out, err = call(capsys, tmp_path, "order", "g", "Yuri: temporary disguise Ran",
                          "--day", "1")
    assert code == 0, err
