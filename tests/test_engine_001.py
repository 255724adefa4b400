"""Miller's Hollow (seed 001): every role, the sheriff, lovers, and the interactions the rules
spell out. Each test quotes the sentence of ../shared/seeds/001_c8fe4abb5e740ea0.txt it checks.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from assistant.count.tally import count
from assistant.engine.drafts import reveal
from assistant.engine.history import apply_death
from assistant.engine.orders import Order, check_order, parse_order
from assistant.engine.resolver import PhaseResult, resolve_phase
from assistant.engine.rules import load_engine_rules
from assistant.engine.setup import PlayerSetup, Setup
from assistant.engine.state import GameState
from assistant.engine.win import check_win
from assistant.errors import IllegalOrderError
from assistant.game import Game
from assistant.models import Post
from assistant.rulesets import find_ruleset
from tests.conftest import SEEDS

RULES = load_engine_rules(find_ruleset("millers-hollow"))
SEED_TEXT = " ".join((SEEDS / "001_c8fe4abb5e740ea0.txt").read_text(encoding="utf-8").split())


def quote(sentence: str) -> None:
    assert " ".join(sentence.split()) in SEED_TEXT, sentence


def game(*players: str, extra: dict | None = None) -> GameState:
    slots = []
    for spec in players:
        name, _, role = spec.partition("=")
        slots.append(PlayerSetup(name, RULES.role(role).sides[0], role))
    return GameState.from_setup(RULES, Setup(tuple(slots), 5, extra or {}))


def night(state: GameState, n: int, *orders: str) -> PhaseResult:
    return resolve_phase(
        state, "night", n, [parse_order(o, state, phase="night", number=n) for o in orders]
    )


def dead(r: PhaseResult) -> list[str]:
    return [d.player for d in r.deaths]


BASE = ("Ann=peasant", "Ben=peasant", "Wolf=werewolf", "Wulf=werewolf")


def test_every_role_of_the_seed_is_defined():
    assert set(RULES.roles) == {
        "peasant",
        "soulmate",
        "seer",
        "guardian",
        "healer",
        "priest",
        "alchemist",
        "hunter",
        "executioner",
        "cupid",
        "werewolf",
        "halfbreed",
        "alpha",
        "thief",
    }


def test_werewolves_eat_and_cannot_eat_werewolves():
    quote("Werewolves cannot decide to eat other werewolves.")
    s = game(*BASE)
    assert dead(night(s, 1, "Werewolves: eat Ann")) == ["Ann"]
    with pytest.raises(IllegalOrderError, match="one of their own"):
        check_order(parse_order("Werewolves: eat Wulf", s, phase="night", number=1), s)


def test_peasant_and_soulmates_have_no_powers():
    quote("Soulmates are just like peasants, lacking any special powers.")
    s = game("Sol=soulmate", *BASE)
    assert s.abilities_of("Sol") == {} and s.abilities_of("Ann") == {}


def test_seer_learns_the_role_unless_he_dies():
    quote(
        "in the morning, the seer will learn what role the chosen player has (unless the seer "
        "dies)."
    )
    s = game("See=seer", *BASE)
    assert night(s, 1, "See: see Wolf").pms["See"] == ("Your vision: Wolf is the Werewolf.",)
    r = night(s, 1, "See: see Wolf", "Werewolves: eat See")
    assert "See" not in r.pms
    with pytest.raises(IllegalOrderError, match="themselves"):
        check_order(parse_order("See: see See", s, phase="night", number=1), s)


def test_halfbreed_appears_as_peasant_to_seer_on_death_and_to_priest():
    quote("The halfbreed appears as a peasant, when scryed upon by the seer or when killed.")
    quote("The halfbreed appears as innocent, when tested by the priest.")
    s = game("See=seer", "Hal=halfbreed", "Pri=priest", *BASE)
    assert night(s, 1, "See: see Hal").pms["See"] == ("Your vision: Hal is a Peasant.",)
    r = apply_death(s, {"player": "Hal", "how": "lynch"}, [])
    assert reveal(r.state, r.deaths[0], "role").role == "Peasant"
    d = resolve_phase(s, "day", 1, [parse_order("Pri: water Hal", s, phase="day", number=1)])
    assert d.public == ("Pri, the priest, pours holy water over Hal: Hal is proven innocent.",)
    d = resolve_phase(s, "day", 1, [parse_order("Pri: water Wolf", s, phase="day", number=1)])
    assert d.public[-1].endswith("Wolf is proven guilty.")


def test_guardian_stops_the_werewolves_not_the_same_player_twice():
    quote("If the werewolves attack the guarded villager, their attack fails.")
    quote("The guardian cannot defend one person during two consecutive nights.")
    quote("The guardian can choose to defend himself.")
    s = game("Gua=guardian", *BASE)
    r = night(s, 1, "Gua: guard Ann", "Werewolves: eat Ann")
    assert dead(r) == []
    with pytest.raises(IllegalOrderError, match="two nights running"):
        check_order(parse_order("Gua: guard Ann", r.state, phase="night", number=2), r.state)
    s2 = night(r.state, 2, "Gua: guard Gua", "Werewolves: eat Gua").state
    check_order(parse_order("Gua: guard Ann", s2, phase="night", number=3), s2)


def test_guardian_vs_alpha_conversion():
    quote(
        "If the alpha decides to convert the guarded villager, the conversion fails, wasting "
        "the alpha's ability."
    )
    s = game("Gua=guardian", "Alf=alpha", *BASE)
    r = night(s, 1, "Gua: guard Ann", "Alf: convert Ann", "Werewolves: eat Ben")
    assert r.state.players["Ann"].side == "village"
    assert "[conversion] Alf: convert Ann: wasted (Ann is protected by Gua)" in r.log_lines()
    with pytest.raises(IllegalOrderError, match="no use"):
        check_order(parse_order("Alf: convert Ann", r.state, phase="night", number=2), r.state)


def test_alpha_converts_and_the_seer_loses_his_vision():
    quote(
        "When the chosen player is turned into a werewolf, he will lose his old role. If he "
        "was the seer, he does not learn the role of the target for this night."
    )
    quote(
        "The chosen player will learn who the other werewolves are. The other werewolves will "
        "learn who the new werewolf is."
    )
    s = game("See=seer", "Alf=alpha", *BASE)
    r = night(s, 1, "See: see Wolf", "Alf: convert See", "Werewolves: eat Ann")
    see = r.state.players["See"]
    assert (see.side, see.role) == ("werewolves", None)
    assert r.pms["See"] == (
        "The alpha has cursed you: you are now a werewolf. Your pack: Alf, Wolf, Wulf.",
    )
    assert r.pms["Wolf"] == ("See has joined the Werewolves.",)
    quote(
        "If the alpha chooses the player defended by the guardian or killed during the night, "
        "the ability is wasted."
    )
    r = night(s, 1, "Alf: convert Ann", "Werewolves: eat Ann")
    assert dead(r) == ["Ann"] and "Ann was killed during the night" in r.log_lines()[-1]


def test_last_werewolf_alpha_cannot_convert_and_eat():
    quote(
        "If the alpha is the last remaining werewolf, he cannot convert one player and eat "
        "another player during the same night."
    )
    s = game("Alf=alpha", "Ann=peasant", "Ben=peasant")
    r = night(s, 1, "Alf: convert Ann", "Werewolves: eat Ben")
    assert dead(r) == ["Ben"] and r.state.players["Ann"].side == "village"
    assert r.log_lines()[0].startswith("[orders] Alf: convert Ann: ignored (Alf is the last")


def test_healer_learns_the_attack_and_saves_once():
    quote(
        "As long as the healer has not used his special power, he will receive a PM every "
        "night, with information about who was attacked during that night."
    )
    quote("The healer may heal himself if the werewolves decide to attack the healer.")
    s = game("Hea=healer", *BASE)
    r = night(s, 1, "Werewolves: eat Ann")
    assert dead(r) == ["Ann"]
    # "so he can choose to save the person": a notice during the night, not a result PM.
    assert r.notices["Hea"] == (
        'Tonight the werewolves attacked Ann. Reply with "heal" to save them.',
    )
    assert "Hea" not in r.pms
    r = night(s, 1, "Werewolves: eat Hea", "Hea: heal Hea")
    assert dead(r) == []
    r2 = night(r.state, 2, "Werewolves: eat Ben")
    assert "Hea" not in r2.pms and "Hea" not in r2.notices
    with pytest.raises(IllegalOrderError, match="no use"):
        check_order(parse_order("Hea: heal Ben", r.state, phase="night", number=2), r.state)


def test_healer_finds_no_victim_when_the_guardian_saved():
    quote(
        "If the healer still has his special ability, he will learn that he cannot find any "
        "victims, which should inform him that the guardian did a good job."
    )
    s = game("Hea=healer", "Gua=guardian", *BASE)
    r = night(s, 1, "Gua: guard Ann", "Werewolves: eat Ann")
    assert r.notices["Hea"] == ("You cannot find any victims tonight.",) and "Hea" not in r.pms


def test_healer_cannot_save_from_the_alchemist():
    quote("The healer cannot save someone from being lynched, being poisoned by the alchemist")
    s = game("Hea=healer", "Alc=alchemist", *BASE)
    assert dead(night(s, 2, "Alc: poison Ann", "Hea: heal Ann")) == ["Ann"]


def test_alchemist_not_night_one_guarded_or_already_attacked():
    quote(
        "During a single night, except for the first night, the alchemist can choose one other "
        "player."
    )
    quote(
        "If the alchemist chooses the player defended by the guardian or attacked by the "
        "werewolves, the ability is wasted."
    )
    s = game("Alc=alchemist", "Gua=guardian", *BASE)
    with pytest.raises(IllegalOrderError, match="before night 2"):
        check_order(parse_order("Alc: poison Wolf", s, phase="night", number=1), s)
    assert dead(night(s, 2, "Alc: poison Wolf")) == ["Wolf"]
    assert dead(night(s, 2, "Alc: poison Wolf", "Gua: guard Wolf")) == []
    r = night(s, 2, "Alc: poison Ann", "Werewolves: eat Ann")
    assert (
        "[attacks] Alc: poison Ann: wasted (Ann is attacked by the werewolves too: the alchemist "
        "is wasted)"
        in r.log_lines()
    )


def test_hunter_takes_someone_with_him():
    quote(
        "When the hunter dies (due to whatever reason), the hunter chooses another player, who "
        "dies as well (regardless of their role)."
    )
    s = game("Hun=hunter", *BASE)
    r = night(s, 1, "Werewolves: eat Hun", "Hun: shoot Wolf")
    assert dead(r) == ["Hun", "Wolf"]
    r = night(s, 1, "Werewolves: eat Hun")
    assert "ask for the choice" in r.notes[0]
    later = Order("Hun", "shoot", ("Wulf",), "night", 2, None, "Hun: shoot Wulf")
    assert dead(resolve_phase(r.state, "night", 2, [later])) == ["Wulf"]
    quote("The guardian cannot save someone from being lynched, being shot by the hunter")
    g = game("Hun=hunter", "Gua=guardian", *BASE)
    r = night(g, 1, "Werewolves: eat Hun", "Hun: shoot Ben", "Gua: guard Ben")
    assert dead(r) == ["Hun", "Ben"]


def test_executioner_kills_during_the_lynch_and_is_revealed():
    quote(
        "During a single lynch, the executioner can reveal himself and choose another player, "
        "who dies (regardless of their role)."
    )
    s = game("Exe=executioner", *BASE)
    r = resolve_phase(s, "day", 1, [parse_order("Exe: execute Wolf", s, phase="day", number=1)])
    assert dead(r) == ["Wolf"]
    with pytest.raises(IllegalOrderError, match="no use"):
        check_order(parse_order("Exe: execute Wulf", r.state, phase="day", number=2), r.state)


def test_cupid_lovers_form_only_if_both_survive():
    quote(
        "During the first night, the cupid chooses two players. If both players survive the "
        "night, they will fall in love, even if cupid dies himself."
    )
    quote(
        "If one of the players dies, the cupid can choose two players during the next night, "
        "until two players have fallen in love."
    )
    quote(
        "When two players fall in love with each other, they will be informed so over PM, and "
        "learn each other's role. They keep their old roles."
    )
    s = game("Cup=cupid", *BASE)
    r = night(s, 1, "Cup: arrow Ann and Ben", "Werewolves: eat Ann")
    assert r.state.lovers == []
    r2 = night(r.state, 2, "Cup: arrow Cup and Ben", "Werewolves: eat Cup")
    assert r2.state.lovers == [] and dead(r2) == ["Cup"]
    r = night(s, 1, "Cup: arrow Ben and Wolf", "Werewolves: eat Cup")
    assert r.state.lovers == [("Ben", "Wolf")] and r.state.players["Ben"].role == "peasant"
    assert r.pms["Ben"] == ("You have fallen in love with Wolf, who is the Werewolf.",)
    with pytest.raises(IllegalOrderError, match="already lovers"):
        s2 = game("Cup=cupid", *BASE)
        s2.lovers.append(("Ann", "Ben"))
        check_order(parse_order("Cup: arrow Ann and Wolf", s2, phase="night", number=2), s2)


def test_lovers_of_opposite_sides_die_together_and_win_alone():
    quote("When one lover dies, the other lover dies with him.")
    quote(
        "When one of the lovers is on the side of the peasants, while the other lover is on "
        "the side of the werewolves, they must kill all other players and be the last two "
        "players standing."
    )
    s = game("Cup=cupid", *BASE)
    s = night(s, 1, "Cup: arrow Ann and Wolf").state
    r = apply_death(s, {"player": "Wolf", "how": "lynch"}, [])
    assert dead(r) == ["Wolf", "Ann"]
    s = night(game("Cup=cupid", *BASE), 1, "Cup: arrow Ann and Wolf").state
    for n in ("Cup", "Ben", "Wulf"):
        s.players[n].alive = False
    win = check_win(s)
    assert (win.winner, win.players) == ("lovers", ("Ann", "Wolf"))
    s.players["Ben"].alive = True
    s.players["Ann"].alive = False
    s.players["Wolf"].alive = False
    win = check_win(s)  # every werewolf is dead: the village wins, but not Ann, a mixed lover
    assert win.winner == "village" and "Ann" not in win.players


def test_thief_steals_a_role_on_the_first_night_or_takes_the_extra_card():
    quote(
        "If they should steal a players role, the player will become whatever the extra role "
        "card is."
    )
    s = game("Thi=thief", "See=seer", *BASE, extra={"extra_card": "peasant"})
    r = night(s, 1, "Thi: steal See")
    assert (r.state.players["Thi"].role, r.state.players["See"].role) == ("seer", "peasant")
    r = night(s, 1, "Thi: card")
    assert r.state.players["Thi"].role == "peasant"
    with pytest.raises(IllegalOrderError, match="up to night 1"):
        check_order(parse_order("Thi: steal See", s, phase="night", number=2), s)
    r = night(s, 1, "Thi: steal Wolf")
    assert r.state.players["Thi"].side == "werewolves" and r.state.players["Wolf"].side == "village"


def test_sheriff_breaks_a_tie_with_the_counters_facts():
    """One source for the sheriff: the GM's "sheriff" and "tie_break" facts the vote counter
    reads (`assistant sheriff`, `assistant tiebreak`); the engine has no election of its own."""
    t0 = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)
    votes = [("Ann", "Wolf"), ("Ben", "Wulf")]  # bold names, as SMF renders them
    posts = [
        Post(10 + i, i, v, None, t0 + timedelta(minutes=i), f"<b>{t}</b>", 1)
        for i, (v, t) in enumerate(votes)
    ]
    day1 = {"kind": "phase", "data": {"kind": "day", "number": 1, "starts_at": t0.isoformat()}}

    def lynched(*facts: dict) -> tuple[str, ...]:
        g = Game.from_parts(
            "mh", [["See"], ["Ann"], ["Ben"], ["Wolf"], ["Wulf"]], inputs=[day1, *facts]
        )
        return count(posts, g, find_ruleset("millers-hollow")).outcome.lynched

    quote(
        "When at the end of a lynch vote, two or more people have the same amount of votes, the "
        "sheriff must decide among those with the most votes who will actually be lynched."
    )
    quote(
        "If there's no sheriff and nobody is willing to change their vote, nobody will be lynched."
    )
    sheriff = {"kind": "sheriff", "data": {"player": "See", "day": 1, "at_post": None}}
    choice = {"kind": "tie_break", "data": {"day": 1, "choice": "Wulf"}}
    assert lynched(sheriff, choice) == ("Wulf",)
    assert lynched(choice) == ()
    assert lynched(sheriff) == ()  # the sheriff has not chosen yet


def test_village_and_werewolf_wins():
    quote("until all the werewolves have been killed, or the werewolves outnumber the villagers.")
    s = game(*BASE)
    assert check_win(s) is None  # two werewolves, two villagers: nobody yet
    s.players["Wolf"].alive = s.players["Wulf"].alive = False
    assert check_win(s).winner == "village"
    s = game(*BASE)
    s.players["Ann"].alive = False
    assert check_win(s).winner == "werewolves"
