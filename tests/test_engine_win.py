"""Win conditions of all five rulesets; 003's ordered checks and multi-lynch.

Also 000's investigations (visible race, reporter)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from assistant.count.outcome import seeded_order
from assistant.count.tally import count
from assistant.engine.orders import parse_order
from assistant.engine.resolver import resolve_phase
from assistant.engine.rules import load_engine_rules
from assistant.engine.setup import PlayerSetup, Setup
from assistant.engine.state import Death, GameState
from assistant.engine.win import check_win
from assistant.models import Post
from assistant.monitor import game_from_parts
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


T0 = datetime(2026, 11, 24, 20, 0, tzinfo=UTC)


def day_two_003(votes: dict[str, str], *night_one: str, extra: tuple = ()):
    """Day 2 of a 003 game counted by the real vote counter: the setup (seed 9) and the
    confirmed Night 1 are stored facts, lynches available are derived from that night's
    town deaths, and each vote is a post in 003's blue `vote NAME` (purple for No Lynch)
    as SMF renders it."""
    rules = load_engine_rules(find_ruleset("three-factions"))
    sides = {"town": 8, "mafia": 2, "wolves": 2}
    players = [PlayerSetup(f"{side}{i}", side) for side, n in sides.items() for i in range(n)]
    setup = Setup(tuple(players), 9)
    state = GameState.from_setup(rules, setup)
    docs = [("roles", setup.to_dict())]
    docs += [
        ("order", parse_order(o, state, phase="night", number=1).to_dict()) for o in night_one
    ]
    docs += [("resolution", {"phase": "night", "number": 1})]
    docs += [
        ("death", {"player": p, "how": "nightkill", "source": "engine"})
        for p in ("town6", "town7")
    ]
    docs += [("phase", {"kind": "day", "number": 2, "starts_at": T0.isoformat()}), *extra]
    inputs = [{"seq": i, "kind": k, "data": d} for i, (k, d) in enumerate(docs, 1)]
    color = {"No Lynch": "purple"}
    posts = [
        Post(
            500 + i, i, voter, None, T0 + timedelta(minutes=i + 1),
            f'<span style="color: {color.get(t, "blue")};" class="bbc_color">vote {t}</span>', 1,
        )
        for i, (voter, t) in enumerate(votes.items())
    ]
    g = game_from_parts("tf", [[p.name] for p in players], ruleset="three-factions", inputs=inputs)
    return g, count(posts, g, find_ruleset("three-factions"), day=2)


def test_003_multi_lynch_thresholds_from_the_night_and_the_stored_seed():
    quote(
        "003",
        "The available number of lynches is equal to the number of Town players who died "
        "during the preceding Night, not to exceed 3.",
    )
    quote(
        "003",
        "If at least 2 lynches are available on a given Day, the second-leading vote "
        "getter will also be lynched if (s)he has received more than 34% of the available votes.",
    )
    quote("003", "In the event of a tie, the moderators will consult Random.org.")
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
    both = ("Mafia: kill town6", "Wolves: kill town7")
    g, tally = day_two_003(votes, *both)
    assert g.lynches_available(2) == 2 and g.seed == 9
    first, second = seeded_order(["mafia0", "wolves0"], "9/day 2")
    assert tally.outcome.lynched == (first, second)
    assert tally.outcome.reason == (
        "if the day ended now: tie between mafia0 and wolves0 (4 each): drawn at random: "
        f"{first} (seed '9/day 2'); {second} is second with 4 of 10 (40% > 34%): also "
        "lynched; 2 lynches available today"
    )
    assert day_two_003(votes, *both)[1].outcome == tally.outcome  # the same draw every time
    # One town death: one lynch, the same seeded draw.
    _, one = day_two_003(votes, "Mafia: kill town6", "Wolves: kill mafia1")
    assert one.outcome.lynched == (first,)
    # The GM's own "lynches" fact wins over the derived one.
    _, three = day_two_003(votes, *both, extra=(("lynches", {"day": 2, "available": 3}),))
    assert three.outcome.lynched == (first, second, "town5")
    # A tie below the top is drawn with the same seed, and the draw is written down.
    below = {**votes, "town4": "town3", "town5": "town3", "mafia0": "town3", "mafia1": "town5"}
    _, tie2 = day_two_003(below, *both)
    a, _b = seeded_order(["town3", "town5"], "9/day 2/3")
    assert tie2.outcome.lynched == ("mafia0",)
    assert (
        f"town3 and town5 are tied at 3: drawn at random for second place: {a} "
        f"(seed '9/day 2/3')" in tie2.outcome.reason
    )
    quote(
        "003",
        "If “No Lynch” is the leading vote-getter for any given Day, then no player will "
        "be lynched",
    )
    no = dict.fromkeys(["town0", "town1", "town2", "town3", "town4", "town5"], "No Lynch")
    assert day_two_003({**votes, **no}, *both)[1].outcome.lynched == ()


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
