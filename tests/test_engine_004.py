"""DCTP Live Mini Mafia (seed 004): the characters as data, the order of actions as tiers,
arrest, discombobulation, interrogation and the order of healing. Each test quotes the
sentence of ../shared/seeds/004_22384bb39b2a9dee.txt it checks (Scenario 1 and 2 of the
seed's "Order of Actions" are tests here).
"""

from __future__ import annotations

import re

from assistant.engine.resolver import PhaseResult
from assistant.engine.state import GameState
from assistant.engine.win import check_win
from tests.dctp_support import RAW, RULES, dead, game, phase, quote


def pms(r: PhaseResult, who: str) -> str:
    return " | ".join(r.pms.get(who, []))


def test_every_character_card_of_the_seed_is_a_role_with_its_side():
    # The role cards: "Gin, Mafia Slanderer" on a line of its own, its actions beneath.
    cards = set(re.findall(r"^(?:\[spoiler\])?([A-Z][A-Za-z ]+), ([A-Z][A-Za-z. -]+)$", RAW, re.M))
    cards = {(a, b) for a, b in cards if "Mafia" in b or a in _TOWN_NAMES}
    titles = {r.title for r in RULES.roles.values()}
    assert {f"{a}, {b}" for a, b in cards} <= titles
    # 49 standard cards and the two experimental ones (Yamato, Uehara).
    quote("Below are roles that have not yet been implemented into the standard ruleset, but "
          "are available for use at the GM's discretion.")
    assert len(RULES.roles) == 51
    assert {"yamato", "uehara"} <= set(RULES.roles)
    quote("Gin, Mafia Slanderer Night action: Slander, Investigate 3 Interrogation: BO")
    for key in ("anokata", "gin", "vodka", "vermouth", "pisco", "sherry"):
        assert RULES.role(key).sides == ("black-org",)
    for key in ("megure", "james", "kir", "conan", "ran", "araide"):
        assert RULES.role(key).sides == ("town",)


_TOWN_NAMES = {
    "Megure", "Shiratori", "Satou", "Takagi", "Chiba", "Nakamori", "Yumi", "James", "Akai",
    "Jodie", "Camel", "Kir", "Shinichi", "Conan", "Heiji", "Kogorou", "Ran", "Agasa",
    "Haibara", "Sonoko", "Okiya", "Kazuha", "Eri", "Kujou", "Kobayashi", "Kaitou Kid",
    "Eisuke", "Asami", "Araide", "Hakuba", "Makoto", "Mitsuhiko", "Ayumi", "Genta",
    "Yuusaku", "Yukiko",
}


def test_the_order_of_actions_is_the_rulesets_tiers():
    quote(
        "Arrest > Face Pinch > Charm > APTX > Lynching > Discombobulation/Frighten > Killing > "
        "House Search/Detain > All other actions"
    )
    assert RULES.tiers == (
        "arrest", "face_pinch", "charm", "aptx", "lynching", "discombobulation", "killing",
        "house_search", "other",
    )


SCENE = ("Akonyl=shiratori", "Abs=gin", "Kleene=agasa", "PhoenixTears=eisuke",
         "Jd-=araide", "Parkur=camel", "Pofa=satou", "Miaka=pisco")


def after_night_1() -> GameState:
    """ "On Night 1, Abs (Gin) killed Kleene (Agasa)." (the background of Scenario 1 and 2)"""
    quote("BACKGROUND: On Night 1, Abs (Gin) killed Kleene (Agasa).")
    s = phase(game(*SCENE), "night", 1, "Black Org: kill Kleene by Abs").state
    assert not s.players["Kleene"].alive
    return s


ARREST = "Akonyl: arrest Abs for killing Kleene on Night 1"


def test_scenario_1_arrest_takes_precedent_over_killing():
    quote("Akonyl (Shiratori) sends in: Arrest Abs for killing Kleene on Night 1.")
    quote("Akonyl successfully arrests Abs. Akonyl is not killed. Because the order of actions "
          "dictates that arrest takes precedent over killing, Abs's kill fails completely.")
    s = after_night_1()
    r = phase(s, "night", 3, ARREST, "Black Org: kill Akonyl by Abs")
    assert dead(r) == []
    assert "arrested" in r.state.players["Abs"].statuses
    assert "Abs has been arrested." in r.public


def test_scenario_1_the_kill_fails_even_on_someone_else():
    quote("Even if Abs had targeted someone else instead of Akonyl, the kill still would have "
          "failed because it is prevented by arrest.")
    s = after_night_1()
    r = phase(s, "night", 3, ARREST, "Black Org: kill Parkur by Abs")
    assert dead(r) == []
    # Without the arrest the same kill lands: the test can fail.
    s2 = after_night_1()
    assert dead(phase(s2, "night", 3, "Black Org: kill Parkur by Abs")) == ["Parkur"]


def test_scenario_2_discombobulation_stops_the_investigation_not_the_arrest_or_heal():
    quote("Jd- successfully heals Parkur without issue, but Akonyl is told that his "
          "investigation has failed. This is due to the discombobulation by PhoenixTears.")
    quote("Because arrest takes precedent over all other actions, the discombobulate does not "
          "affect it.")
    quote("Akonyl (Shiratori) sends in: Arrest Abs for killing Kleene on Night 1. Investigate "
          "Jd- heals Parkur.")
    s = after_night_1()
    r = phase(
        s, "night", 3,
        ARREST, "Akonyl: investigate Jd- heals Parkur", "Black Org: kill Akonyl by Abs",
        "PhoenixTears: discombobulate Akonyl", "Jd-: heal Parkur",
    )
    assert dead(r) == []
    assert "arrested" in r.state.players["Abs"].statuses
    # "The people discombobulated will get a PM from the GM that their night action failed."
    assert pms(r, "Akonyl") == "You arrested Abs. | Your action failed.", pms(r, "Akonyl")
    assert any("Akonyl is roleblocked" in line for line in r.log_lines()), r.log_lines()
    # Undisturbed, the investigation sees the heal ("as long as the player did the order
    # and wasn't discombobulated or killed, it will come out as "True"").
    quote("Even if a protection or heal wasn't necessary, as long as the player did the order "
          "and wasn't discombobulated or killed, it will come out as \"True\"")
    s2 = game(*SCENE)
    r2 = phase(s2, "night", 3, "Akonyl: investigate Jd- heals Parkur", "Jd-: heal Parkur")
    assert pms(r2, "Akonyl") == '"Jd- heals Parkur" - True'


def test_interrogation_answers_bo_or_not_bo_as_the_cards_say():
    quote("He'll get the result \"BO\" or \"Not BO\".")
    quote("Anokata, Mafia Boss Status: BO Leader Night action: Blame Day action: Black Suitcase "
          "Interrogation: Not BO")
    s = game("Con=conan", "G=gin", "Boss=anokata", "K=kir", "R=ran")
    answers = {}
    for n, who in enumerate(("G", "Boss", "K", "R"), start=1):
        r = phase(s, "night", n, f"Con: interrogate {who}")
        s = r.state
        answers[who] = pms(r, "Con")
    assert answers == {
        "G": "Interrogation of G: BO",
        "Boss": "Interrogation of Boss: Not BO",
        "K": "Interrogation of K: BO",
        "R": "Interrogation of R: Not BO",
    }


def test_heal_saves_from_the_kill_and_the_healer_learns_it():
    quote("If successfully healed, the healer will know that he successfully healed. The target "
          "and the attacker will be notified that the target was healed, but not by whom.")
    s = game(*SCENE)
    r = phase(s, "night", 1, "Black Org: kill Parkur by Abs", "Jd-: heal Parkur")
    assert dead(r) == []
    assert "You successfully healed Parkur." in pms(r, "Jd-")
    assert "someone healed you" in pms(r, "Parkur")


def test_order_of_healing_the_highest_priority_succeeds():
    quote("Voice of Reason > Bone Breaking > Watch Protection > Protection > Healing > First Aid")
    quote("if more than one protection or healing is performed on a target that is attacked, "
          "the one with the highest priority will succeed as all others fail.")
    s = game("Doc=araide", "Teach=kobayashi", "Ran=ran", "V=camel", "G=gin", "Boss=anokata")
    r = phase(s, "night", 1, "Black Org: kill V by G", "Teach: first aid V", "Doc: heal V")
    assert dead(r) == []
    assert "You successfully healed V." in pms(r, "Doc")
    assert "first-aided" not in pms(r, "Teach")
    s = game("Doc=araide", "Teach=kobayashi", "Ran=ran", "V=camel", "G=gin", "Boss=anokata")
    r = phase(s, "night", 1, "Black Org: kill V by G", "Doc: heal V", "Ran: protect V")
    assert "You protected V from G's attack tonight." in pms(r, "Ran")
    assert "healed" not in pms(r, "Doc")


def test_discombobulating_the_killer_stops_the_black_org_kill():
    quote("Discombobulation can prevent the BO from killing or sniping someone.")
    s = game(*SCENE)
    r = phase(s, "night", 1, "Black Org: kill Parkur by Abs", "PhoenixTears: discombobulate Abs")
    assert dead(r) == []


def test_arrested_players_act_no_more_and_actions_on_them_fail():
    quote("Arrested: Player may not use any abilities, though they are also impervious to being "
          "poisoned or killed (unless Bribe is in effect). Any and all actions on arrested "
          "players will fail")
    s = game(*SCENE)
    s = phase(s, "night", 1, "Akonyl: arrest Miaka").state
    r = phase(s, "night", 2, "Black Org: kill Parkur by Miaka")
    assert dead(r) == []
    r = phase(s, "night", 2, "Black Org: kill Miaka by Abs")
    assert dead(r) == []
    assert dead(phase(s, "night", 2, "Black Org: kill Parkur by Abs")) == ["Parkur"]


def test_arrested_players_are_out_when_the_winner_is_decided():
    quote("Arrested players are considered \"out\" of the game when determining which side "
          "has won.")
    s = game("Akonyl=shiratori", "Pofa=satou", "Ann=ran", "Abs=gin", "Miaka=pisco")
    s = phase(s, "night", 1, "Akonyl: arrest Abs").state
    assert check_win(s) is None
    s = phase(s, "day", 2, "Pofa: arrest Miaka").state
    w = check_win(s)
    assert w is not None and w.winner == "town"


def test_the_leader_has_the_final_say_on_the_kill():
    quote("The leader has the final say on who to designate as the night kill target and may "
          "give the order as such. No one can override this order.")
    s = game("Boss=anokata", "G=gin", "A=camel", "B=jodie", "C=ran")
    r = phase(s, "night", 1, "Black Org: kill A by Boss", "Black Org: kill B by G")
    assert dead(r) == ["A"]


def test_an_investigate_or_interrogate_card_does_one_of_them():
    quote("Night action: Investigate 3 OR Interrogate")
    s = game("Con=conan", "G=gin", "Boss=anokata", "R=ran")
    r = phase(s, "night", 1, "Con: investigate G kills R", "Con: interrogate G")
    assert pms(r, "Con") == "Interrogation of G: BO"


DCTP_SETUP = """seed = 4
players = [
  { name = "Akonyl", role = "shiratori" }, { name = "Abs", role = "gin" },
  { name = "Miaka", role = "pisco" }, { name = "Jd-", role = "araide" },
  { name = "Parkur", role = "camel" }, { name = "Lynz", role = "ran" },
]
"""


def test_a_setup_of_dctp_characters_is_accepted_and_a_night_resolves_by_the_cli(
    tmp_path, capsys
):
    """The GM's path: `roles` with DCTP characters, orders, `resolve`, the dawn and PM drafts."""
    from cli_support import call

    quote("Megure, Police Inspector Night action: Investigate 2, House Search "
          "Night/Day action: Arrest")
    (tmp_path / "setup.toml").write_text(DCTP_SETUP, encoding="utf-8")
    code, out, err = call(capsys, tmp_path, "roles", "g", "--file", str(tmp_path / "setup.toml"),
                          "--ruleset", "dctp-mini")
    assert code == 0, err
    assert out.splitlines()[0] == "setup of g stored (6 players, seed 4):"
    for line in ("Akonyl: arrest Abs", "Black Org: kill Parkur by Miaka", "Jd-: heal Lynz"):
        code, _, err = call(capsys, tmp_path, "order", "g", line, "--night", "1")
        assert code == 0, err
    code, out, err = call(capsys, tmp_path, "resolve", "g", "--night", "1")
    assert code == 0, err
    code, dawn, err = call(capsys, tmp_path, "draft", "dawn", "g", "--night", "1")
    assert code == 0, err
    # The arrested player's role is not revealed; the dead player's is.
    quote("The role of the arrested player will not be revealed at the time of arrest")
    assert dawn.splitlines()[:3] == [
        "Night 1 is over.",
        "Parkur has died. Parkur was Camel, FBI Agent (Town).",
        "Abs has been arrested.",
    ]
    code, out, err = call(capsys, tmp_path, "draft", "pms", "g")
    assert code == 0 and "You arrested Abs." in out, out
