"""Win conditions of all five rulesets; 003's ordered checks and multi-lynch.

Also 000's investigations (visible race, reporter)."""

from __future__ import annotations

from assistant.engine.day import multi_lynch
from assistant.engine.orders import parse_order
from assistant.engine.resolver import resolve_phase
from assistant.engine.rules import load_engine_rules
from assistant.engine.setup import PlayerSetup, Setup
from assistant.engine.state import Death, GameState
from assistant.engine.win import check_win
from assistant.rulesets import find_ruleset
from tests.conftest import SEEDS


def quote(seed: str, sentence: str) -> None:
    path = next(SEEDS.glob(f"{seed}_*.txt"))
    text = " ".join(path.read_text(encoding="utf-8").split())
    assert " ".join(sentence.split()) in text, sentence


def game(ruleset: str, **sides: int) -> GameState:
    rules = load_engine_rules(find_ruleset(ruleset))
    players = [PlayerSetup(f"{side}{i}", side) for side, n in sides.items() for i in range(n)]
    return GameState.from_setup(rules, Setup(tuple(players), 9))


def kill(state: GameState, *names: str, how: str = "nightkill") -> GameState:
    for n in names:
        state.players[n].alive = False
        state.players[n].death = Death(n, how, "test")
    return state


def test_003_checks_in_order_town_first():
    quote("003", "Win conditions will be checked in the following order every Dawn and every Dusk:")
    quote("003", "Town Wins! if all 14 Scum players are dead.")
    s = game("003", town=3, mafia=1, wolves=1)
    assert check_win(s) is None
    assert check_win(kill(s, "mafia0", "wolves0")).winner == "town"


def test_003_mafia_and_wolves_need_half_and_more_than_the_other():
    quote(
        "003",
        "Mafia Wins! if the total number of living Mafia is greater than or equal to 50% "
        "of the total population AND greater than the number of living Wolves.",
    )
    s = game("003", town=2, mafia=2, wolves=1)
    assert check_win(s) is None
    assert check_win(kill(s, "town0")).winner == "mafia"  # 2 of 4, more than 1 wolf
    s = game("003", town=1, mafia=2, wolves=2)
    assert check_win(kill(s, "town0")) is None  # 50 % but not more than the wolves
    s = game("003", town=2, mafia=1, wolves=2)
    assert check_win(kill(s, "town0")).winner == "wolves"


def test_003_modkilled_players_lose():
    quote(
        "003",
        "Players who are Mod-killed are considered to have lost the game no matter what else "
        "happens.",
    )
    s = game("003", town=3, mafia=1, wolves=1)
    kill(s, "town2", how="modkill")
    win = check_win(kill(s, "mafia0", "wolves0"))
    assert win.players == ("town0", "town1")


def test_003_multi_lynch_thresholds():
    quote(
        "003",
        "If at least 2 lynches are available on a given Day, the second-leading vote "
        "getter will also be lynched if (s)he has received more than 34% of the available votes.",
    )
    quote(
        "003",
        "If “No Lynch” is the leading vote-getter for any given Day, then no player will "
        "be lynched",
    )
    s = game("003", town=6, mafia=2, wolves=2)
    votes = {
        "town0": "mafia0",
        "town1": "mafia0",
        "town2": "mafia0",
        "town3": "mafia0",
        "town4": "wolves0",
        "town5": "wolves0",
        "mafia0": "wolves0",
        "mafia1": "wolves0",
        "wolves0": "town5",
        "wolves1": "town5",
    }
    assert multi_lynch(s, votes, day=2, town_deaths_last_night=3).chosen == (
        "mafia0",
        "wolves0",
        "town5",
    )
    assert multi_lynch(s, votes, day=2, town_deaths_last_night=1).chosen == ("mafia0",)
    assert multi_lynch(s, votes, day=1, town_deaths_last_night=3).chosen == ("mafia0",)
    no = dict.fromkeys(["town0", "town1", "town2", "town3", "town4", "town5"], "No Lynch")
    assert multi_lynch(s, {**votes, **no}, day=2, town_deaths_last_night=3).chosen == ()


def test_000_town_and_doppelgangers():
    quote("000", "Victory: Doppelgangers Win")
    s = game("000", town=3, doppelgangers=2)
    assert check_win(s) is None
    assert check_win(kill(s, "town0")).winner == "doppelgangers"
    s = game("000", town=3, doppelgangers=2)
    assert check_win(kill(s, "doppelgangers0", "doppelgangers1")).winner == "town"


def test_000_investigation_honours_visible_race():
    quote("000", "the leader is immune to detection by Agent or Detective short of death.")
    rules = load_engine_rules(find_ruleset("000"))
    s = GameState.from_setup(
        rules,
        Setup(
            (
                PlayerSetup("Ag", "town", "agent"),
                PlayerSetup("Lead", "doppelgangers", "doppelganger-leader"),
                PlayerSetup("Dop", "doppelgangers", "doppelganger"),
            ),
            1,
        ),
    )
    for target, race in (("Lead", "Human"), ("Dop", "Doppelganger")):
        r = resolve_phase(
            s, "night", 1, [parse_order(f"Ag: investigate {target}", s, phase="night", number=1)]
        )
        assert r.pms["Ag"] == (f"{target}'s race: {race}.",)


def test_000_reporter_follows_and_watches():
    quote(
        "000",
        "Each night the Reporter can choose to either follow someone to see where they "
        "go or watch to see if anyone visits them that night.",
    )
    rules = load_engine_rules(find_ruleset("000"))
    s = GameState.from_setup(
        rules,
        Setup(
            (
                PlayerSetup("Rep", "town", "reporter"),
                PlayerSetup("Dop", "doppelgangers", "doppelganger"),
                PlayerSetup("Tom", "town", "townie"),
            ),
            1,
        ),
    )
    r = resolve_phase(
        s,
        "night",
        1,
        [
            parse_order(o, s, phase="night", number=1)
            for o in ("Rep: follow Dop", "Doppelgangers: kill Tom by Dop")
        ],
    )
    assert r.pms["Rep"] == ("You followed Dop, who visited: Tom.",)
    r = resolve_phase(
        s,
        "night",
        1,
        [
            parse_order(o, s, phase="night", number=1)
            for o in ("Rep: watch Tom", "Doppelgangers: kill Tom by Dop")
        ],
    )
    assert r.pms["Rep"] == ("You watched Tom's house; visitors: Dop.",)


def test_004_arrested_are_out_and_mixed_lovers_win_alone():
    quote(
        "004",
        'Arrested players are considered "out" of the game when determining which side has won.',
    )
    quote("004", "A town/Black Org pair does not win with either the town or the Black Org.")
    s = game("004", town=3, **{"black-org": 1})
    s.players["black-org0"].statuses.add("out")
    assert check_win(s).winner == "town"
    s = game("004", town=3, **{"black-org": 1})
    s.lovers.append(("town0", "black-org0"))
    kill(s, "town1", "town2")
    assert check_win(s).winner == "lovers"
    s = game("004", town=3, **{"black-org": 2})
    assert check_win(kill(s, "town0")).winner == "black-org"
