"""Drafts a GM would not have to fix before posting them (issue 23, "What is posted must be
right as is"): each kind of wrong post or PM read in the engine tests' games, as a class,
on nights and setups other than the ones that showed it. Each test quotes its seed."""

from __future__ import annotations

from assistant.engine.abilities.wording import the_role
from assistant.engine.drafts import dawn_post, notice_pms, result_pms
from assistant.engine.orders import parse_order
from assistant.engine.resolver import PhaseResult, resolve_phase
from assistant.engine.rules import load_engine_rules
from assistant.engine.setup import PlayerSetup, Setup
from assistant.engine.state import GameState
from assistant.engine.vote_effects import lynches_after
from assistant.rulesets import find_ruleset
from tests.conftest import SEEDS


def quote(prefix: str, sentence: str) -> None:
    text = " ".join(next(SEEDS.glob(f"{prefix}_*.txt")).read_text(encoding="utf-8").split())
    assert " ".join(sentence.split()) in text, sentence


def game(ruleset: str, *players: str) -> GameState:
    """Players as "Name=role" or "Name=/side" (a vanilla of that side)."""
    rules = load_engine_rules(find_ruleset(ruleset))
    slots = []
    for spec in players:
        name, _, rest = spec.partition("=")
        role, _, side = rest.partition("/")
        slots.append(PlayerSetup(name, side or rules.role(role).sides[0], role or None))
    return GameState.from_setup(rules, Setup(tuple(slots), 3, {}))


def phase(state: GameState, n: int, *orders: str, kind: str = "night") -> PhaseResult:
    return resolve_phase(state, kind, n,
                         [parse_order(o, state, phase=kind, number=n) for o in orders])


def test_a_character_name_is_never_given_an_article():
    # 004's roles are characters ("Ran, Protector"); every other ruleset's are role nouns.
    s = game("dctp-mini", "Ranp=ran", "Gino=gin", "Boss=anokata", "Kaz=kazuha", "Civ=/town")
    dawn = dawn_post(phase(s, 1, "Black Org: kill Ranp by Gino"))
    assert "Ranp has died. Ranp was Ran, Protector (Town)." in dawn, dawn
    rules = s.rules
    assert the_role(rules, "Kazuha, Charm Maker") == "Kazuha, Charm Maker"
    assert the_role(rules, "Civilian") == "Civilian"
    assert the_role(load_engine_rules(find_ruleset("chat-mafia")), "Doctor") == "the Doctor"
    # 001: a vanilla is "a Peasant" in every PM as in the dawn ("Dee was a Peasant").
    s1 = game("millers-hollow", "See=seer", "Pea=peasant", "Thi=thief", "Wolf=werewolf",
              "Wulf=werewolf")
    assert phase(s1, 1, "See: see Pea").pms["See"] == ("Your vision: Pea is a Peasant.",)
    stolen = phase(s1, 1, "Thi: steal Pea")
    assert stolen.pms == {"Pea": ("The thief stole your role; you are now a Peasant.",),
                          "Thi": ("You are now a Peasant.",)}


def test_004_the_officer_whose_house_search_found_nothing_is_told_so_and_of_the_suspension():
    quote("004", "All GMs should be certain to send all notifications to all relevant parties")
    quote("004", "If the target did not commit a crime (blamed actions count as a crime), then "
                 "the player will be suspended for 2 phases and can't use any actions during "
                 "that time")
    s = game("dctp-mini", "Shi=shiratori", "Vod=vodka", "Boss=anokata", "Jod=jodie", "Ayu=ayumi")
    r = phase(s, 1, "Shi: house search Ayu", "Shi: investigate Vod kills Jod")
    assert r.pms["Shi"] == (
        "House search of Ayu: no crime found. You are suspended for the next 2 phases (no "
        "actions but voting), and you can no longer house search.",)  # and no result
    pm = result_pms(r, "DCTP")["Shi"]
    assert pm.startswith("To: Shi\nSubject: DCTP: results of Night 1\n")
    # The same for an arrest on a wrong accusation, by day.
    quote("004", "Police that attempt to arrest someone and are unsuccessful will be suspended "
                 "for two phases following the arrest attempt.")
    s2 = game("dctp-mini", "Sat=satou", "Vod=vodka", "Boss=anokata", "Jod=jodie", "Ayu=ayumi")
    n1 = phase(s2, 1, "Black Org: kill Jod by Vod")
    d1 = phase(n1.state, 1, "Sat: arrest Ayu for killing Jod on Night 1", kind="day")
    assert d1.pms["Sat"] == ("Your arrest of Ayu failed: the accusation was wrong. You are "
                             "suspended for the next 2 phases (no actions but voting).",)


def test_003_the_dawn_says_how_many_lynches_the_next_day_has():
    quote("003", "So if two Town players are killed on Night One, then two lynches are available "
                 "on Day Two.")
    s = game("three-factions", "Ada=/town", "Bea=/town", "Cal=/town", "Dot=/town",
             "Mo=/mafia", "Wes=/wolves")
    both = phase(s, 1, "Mafia: kill Ada", "Wolves: kill Bea")
    assert lynches_after(s.rules, both) == 2
    assert dawn_post(both, lynches=2).rstrip().endswith(
        "Day 2 begins. 2 lynches are available today.")
    # A scum death is no town death: one lynch, still said.
    one = phase(s, 1, "Mafia: kill Wes", "Wolves: kill Mo")
    assert lynches_after(s.rules, one) == 1
    assert dawn_post(one, lynches=1).rstrip().endswith("1 lynch is available today.")
    # A ruleset without the rule says nothing of it.
    mh = game("millers-hollow", "Ann=peasant", "Wolf=werewolf", "Wulf=werewolf")
    eaten = phase(mh, 1, "Werewolves: eat Ann")
    assert lynches_after(mh.rules, eaten) is None
    assert "lynch" not in dawn_post(eaten)


def test_a_pm_about_its_own_reader_says_you():
    quote("001", "The healer may heal himself if the werewolves decide to attack the healer.")
    s = game("millers-hollow", "Cat=healer", "Dan=peasant", "Wolf=werewolf", "Alf=alpha",
             "Eve=peasant")
    r = phase(s, 1, "Werewolves: eat Cat")
    assert notice_pms(r, "MH")["Cat"].splitlines()[-1] == (
        'Tonight the werewolves attacked you. Reply with "heal" to save yourself.')
    # Attacked with another player (the alpha's curse is no attack): the reader is "you".
    s2 = game("millers-hollow", "Cat=healer", "Dan=peasant", "Wolf=werewolf", "Hun=hunter",
              "Eve=peasant")
    r2 = phase(s2, 1, "Werewolves: eat Dan")
    assert "attacked Dan." in notice_pms(r2, "MH")["Cat"]
    for pms in (notice_pms(r, "MH"), result_pms(r, "MH")):
        for reader, text in pms.items():
            assert reader not in text.split("\n", 3)[-1], text
    # 000's Mind Stealer told of its own win.
    s3 = game("paranormal", "Mi=mind-stealer", "Ag=agent", "Gus=/town", "Dop=doppelganger")
    s3.extra.update(role_points={"agent": 2}, points_to_win=2)
    won = phase(s3, 1, "Mi: abduct Ag")
    assert won.pms["Mi"][-1] == "You have stolen 2 points worth of roles (2 needed) and win."


def test_a_player_out_of_the_game_is_not_among_a_factions_fellows():
    quote("000", "In game terms, the player who was the doppelganger is now out of the game "
                 "(although he still wins with the dopps), and the player targeted by the "
                 "advanced dopp becomes a doppelganger.")
    s = game("paranormal", "Dirk=doppelganger", "Ava=advanced-doppelganger", "Ag=agent",
             "Gus=/town", "Hal=/town", "Rog=rogue-doppelganger")
    r = phase(s, 1, "Ava: consume Ag")
    assert r.pms["Ag"] == ("You are now one of the Doppelgangers. Your fellows: Dirk.",)
    assert r.pms["Dirk"] == ("Ag has joined the Doppelgangers.",)
    assert r.pms["Ava"] == ("Consume and Replace on Ag: done; your old self is out of the game.",)
    assert "Rog" not in r.pms  # lone: "does not know who the dopp team are"
    # An abducted player is out too (000: "that player is removed from play for that
    # night"): a doppelganger abducted tonight is neither named nor told.
    s2 = game("paranormal", "Dirk=doppelganger", "Ava=advanced-doppelganger", "Ag=agent",
              "Xen=xenozoologist", "Hal=/town")
    r2 = phase(s2, 1, "Ava: consume Ag", "Xen: abduct Dirk")
    assert r2.pms["Ag"] == ("You are now one of the Doppelgangers. Your fellows: none.",)
    assert "Ag has joined the Doppelgangers." not in r2.pms.get("Dirk", ())
