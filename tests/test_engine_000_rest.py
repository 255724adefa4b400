"""Paranormal (seed 000), the rest of issue 11: the Mind Stealer's stockpile and points, the
Replicator's and a Mad Scientist's building, the Advanced Holoform's moving hologram, the
vote a Mind Control Ray takes, and the end-of-game wins of the Xenozoologist, the Spore
Spreaders and the Mind Stealer. Each test quotes the sentence of
../shared/seeds/000_307a730cc0c91942.txt it checks (and `quote` checks it is there).
"""

from __future__ import annotations

import pytest

from assistant.engine.history import apply_death
from assistant.engine.orders import check_order, parse_order
from assistant.engine.setup import parse_setup, setup_warnings
from assistant.engine.state import GameState
from assistant.engine.win import check_win
from assistant.errors import ConfigError, IllegalOrderError, MalformedOrderError
from tests.test_engine_000 import RULES, dead, night, quote
from tests.test_engine_000 import game as plain_game
from tests.test_engine_000_roles import day


def game(*players: str, **extra: object) -> GameState:
    """`tests.test_engine_000.game`, with setup extras (`stockpile`, `role_points`)."""
    if not extra:
        return plain_game(*players)
    from assistant.engine.setup import PlayerSetup, Setup

    slots = []
    for spec in players:
        name, _, rest = spec.partition("=")
        rest, *items = rest.split("+")
        role, _, side = rest.partition("/")
        side = side or RULES.role(role).sides[0]
        slots.append(PlayerSetup(name, side, role or None, tuple(items)))
    return GameState.from_setup(RULES, Setup(tuple(slots), 7, dict(extra)))

# ---- end-of-game wins ---------------------------------------------------------------------


def test_the_bloom_lynched_the_day_after_seeding_wins_the_game() -> None:
    quote("If the SS is lynched that day, it will send forth a cloud of chemicals that will "
          "activate the plants. The plants then release spores that convert all other players "
          "into Spore Spreaders, and winning the game for the SS.")
    s = game("Bl=bloom", "Gus=/town", "Hal=/town", "Dop=doppelganger")
    seeded = night(s, 1, "Bl: seed")
    lynched = apply_death(seeded.state, {"player": "Bl", "how": "lynch"}, [])
    assert lynched.notes == ("Bl was lynched the day after seeding: the plants bloom and every "
                             "other player is now a Spore Spreader.",)
    assert {p.side for p in lynched.state.players.values()} == {"spores"}
    won = check_win(lynched.state, "dusk")
    assert won is not None and won.winner == "spores" and "Bl" in won.players
    # Lynched on another day (no seeding the night before): nothing blooms.
    plain = apply_death(s, {"player": "Bl", "how": "lynch"}, [])
    assert plain.notes == () and plain.state.players["Gus"].side == "town"
    assert check_win(plain.state, "dusk") is None


def test_the_xenozoologist_with_one_of_each_wins_beside_whoever_ends_the_game() -> None:
    quote("Once he has 1 of each, he wins and he and all abducted players are removed from the "
          "game.")
    quote("If the game ends and he does not have one of each, he loses.")
    s = game("Xe=xenozoologist", "Gus=/town", "Pw=psychic-warden/town", "Dop=doppelganger",
             "Al=survivor", "Vig=vigilante/town", "Hal=/town")
    st = s
    for n, t in enumerate(("Gus", "Pw", "Dop", "Al"), 1):
        st = night(st, n, f"Xe: abduct {t}").state
    assert "won" in st.players["Xe"].statuses
    won = check_win(st, "dawn")
    # Every doppelganger left the game with him: the town wins, and so does Xe.
    assert won is not None and won.winner == "town" and "Xe" in won.players
    short = night(night(s, 1, "Xe: abduct Gus").state, 2, "Vig: kill Dop").state
    won = check_win(short, "dawn")
    assert won is not None and won.winner == "town" and "Xe" not in won.players


def test_the_infester_wins_when_every_survivor_is_infected() -> None:
    quote("The goal of the Infester is to have ALL surviving players at the end of the game "
          "infected with spores. The Infester need not be alive to win")
    s = game("In=infester", "Gus=/town", "Hal=/town", "Vig=vigilante/town", "Dop=doppelganger")
    st = night(s, 1, "In: infest Gus").state
    st = night(st, 2, "In: infest Hal").state
    town = night(st, 3, "Vig: kill Dop").state
    won = check_win(town, "dawn")
    assert won is not None and won.winner == "town" and "In" not in won.players  # Vig is clean
    alive = check_win(night(st, 3, "In: infest Vig", "Vig: kill Dop").state, "dawn")
    assert alive is not None and alive.winner == "town" and "In" in alive.players
    st = night(st, 3, "In: infest Vig", "Vig: kill In").state
    won = check_win(night(st, 4, "Vig: kill Dop").state, "dawn")
    # Dead, and the town ended the game: every survivor is infected, so In wins too.
    assert won is not None and won.winner == "town" and "In" in won.players


def test_the_mind_stealer_wins_with_enough_points() -> None:
    quote("The Mind Stealer needs to steal X 'points' worth of Roles to win. Points per role "
          "will be revealed to the MS during the role PM.")
    quote("Victory: Organ Harvester wins when all other players are dead. The OH must be alive "
          "at the end of the game. The Mind Stealer wins if it has stolen enough points worth "
          "of Roles.")
    s = game("Mi=mind-stealer", "Ag=agent/town", "Gus=/town", "Vig=vigilante/town",
             "Dop=doppelganger")
    s.extra.update(role_points={"agent": 2, "vigilante": 3}, points_to_win=5)
    n1 = night(s, 1, "Mi: abduct Ag")
    assert "[abductions] Mi: abduct Ag: 2 point(s), 2 stolen (5 to win)" in n1.log_lines()
    n2 = night(n1.state, 2, "Mi: abduct Gus")  # a vanilla player: nothing to steal
    assert n2.state.players["Mi"].used["points"] == 2
    n3 = night(n2.state, 3, "Mi: abduct Vig")
    assert "won" in n3.state.players["Mi"].statuses
    assert "Mi has stolen 5 points worth of roles (5 needed) and wins." in n3.notes
    assert n3.pms["Mi"][-1] == "You have stolen 5 points worth of roles (5 needed) and win."
    assert check_win(n3.state, "dawn") is None  # a third party: the game goes on
    end = apply_death(n3.state, {"player": "Dop", "how": "lynch"}, []).state
    won = check_win(end, "dusk")
    assert won is not None and won.winner == "town" and "Mi" in won.players
    short = apply_death(n2.state, {"player": "Dop", "how": "lynch"}, []).state
    assert "Mi" not in check_win(short, "dusk").players  # 2 points of 5


# ---- the Mind Stealer's stockpile and Robot -------------------------------------------------


def test_the_mind_stealer_uses_a_stockpiled_role_instead_of_abducting() -> None:
    quote("The Mind Stealer begins the game with 2 Roles available (1 Investigative, 1 Random). "
          "The Mind Stealer may choose to take on any Role in its stockpile for the next "
          "Day/Night phase and use that role instead of Abducting.")
    s = game("Mi=mind-stealer", "Ag=agent/town", "Gus=/town", "Dop=doppelganger", "Hal=/town",
             stockpile={"Mi": ["detective", "vigilante"]})
    r = night(s, 1, "Mi: check Dop")
    assert r.pms["Mi"] == ("Dop's role: No Role.",)
    assert dead(night(s, 1, "Mi: kill Gus")) == ["Gus"]
    # One action a night: the later of an abduction and a stockpiled role's stands.
    both = night(s, 1, "Mi: kill Gus", "Mi: abduct Ag")
    assert dead(both) == [] and both.state.players["Ag"].role is None
    # A role stolen joins the stockpile.
    stolen = night(s, 1, "Mi: abduct Ag").state
    assert night(stolen, 2, "Mi: investigate Gus").pms["Mi"] == ("Gus's race: Human.",)


def test_the_robot_uses_a_role_from_the_stockpile_beside_the_mind_stealer() -> None:
    quote("If the MS chooses a Robot instead of Tech slots they may give the Robot a Role each "
          "day from their stockpile. The Robot can use that role in addition to any actions "
          "the MS takes, and the MS also begins with a Bodyguard Role of their choice in "
          "addition to the other two.")
    quote("Tech: OH - 0 Slots MS - 1 Robot or 2 Small Tech slots")
    s = game("Mi=mind-stealer+robot", "Ag=agent/town", "Gus=/town", "Dop=doppelganger",
             "Hal=/town", stockpile={"Mi": ["detective", "vigilante", "guardian"]})
    d1 = day(s, 1, "Mi: program vigilante")
    assert d1.pms["Mi"] == ("Your robot now has the role: Vigilante.",)
    r = night(d1.state, 1, "Mi: robot kill Gus", "Mi: abduct Ag")
    assert dead(r) == ["Gus"] and r.state.players["Ag"].role is None
    d2 = day(r.state, 2, "Mi: program guardian")
    r2 = night(d2.state, 2, "Mi: robot guard Hal", "Doppelgangers: kill Hal")
    assert dead(r2) == []
    with pytest.raises(MalformedOrderError):
        parse_order("Mi: robot kill Hal", d2.state, phase="night", number=2)
    bad = day(s, 1, "Mi: program agent")
    assert "[day_actions] Mi: program Agent: fails (Agent is not in Mi's stockpile)" in \
        bad.log_lines()
    text = """stockpile = { Mi = ["detective", "vigilante", "guardian"] }
players = [{ name = "Mi", role = "mind-stealer", items = ["robot"] }]"""
    assert setup_warnings(parse_setup(text, RULES, where="s", default_seed=1), RULES) == []
    two = """stockpile = { Mi = ["detective", "vigilante"] }
players = [{ name = "Mi", role = "mind-stealer", items = ["robot"] }]"""
    assert setup_warnings(parse_setup(two, RULES, where="s", default_seed=1), RULES) == [
        "Mi starts with 2 stockpiled role(s), not 3 (stockpile = { Mi = [...] })",
        "Mi has a Robot: the stockpile also holds a Bodyguard role",
    ]
    both = """stockpile = { Mi = ["detective", "vigilante", "guardian"] }
players = [{ name = "Mi", role = "mind-stealer", items = ["robot", "stun-orb"] }]"""
    assert setup_warnings(parse_setup(both, RULES, where="s", default_seed=1), RULES) == [
        "Mi holds 1 robot tech, but has 2 small"]


def test_a_setup_s_stockpile_and_points_are_checked() -> None:
    quote("Points per role will be revealed to the MS during the role PM.")
    ok = """stockpile = { Mi = ["detective", "vigilante"] }
role_points = { agent = 2, exterminator = 4 }
points_to_win = 6
players = [{ name = "Mi", role = "mind-stealer" },
           { name = "Ag", role = "agent", side = "town" }]"""
    setup = parse_setup(ok, RULES, where="s.toml", default_seed=1)
    assert setup_warnings(setup, RULES) == []
    assert GameState.from_setup(RULES, setup).stockpile("Mi") == ["vigilante", "detective"]
    for bad, msg in (
        (ok.replace('"detective"', '"detectiv"'), "Mi's stockpile = .*a list of roles"),
        (ok.replace("stockpile = { Mi", "stockpile = { Mo"), "stockpile names 'Mo'"),
        (ok.replace("agent = 2", "agnet = 2"), "role_points = "),
        (ok.replace("points_to_win = 6", "points_to_win = 0"), "points_to_win = 0"),
    ):
        with pytest.raises(ConfigError, match=msg):
            parse_setup(bad, RULES, where="s.toml", default_seed=1)
    one = ok.replace('["detective", "vigilante"]', '["detective"]')
    assert setup_warnings(parse_setup(one, RULES, where="s", default_seed=1), RULES) == [
        "Mi starts with 1 stockpiled role(s), not 2 (stockpile = { Mi = [...] })"]


# ---- building ---------------------------------------------------------------------------------


def test_a_mad_scientist_builds_a_mind_shield_over_two_nights() -> None:
    quote("All types of Mad Scientist can build the following")
    quote("Mind Shield: The Mind Shield gives the user a Mind Shield.")
    s = game("Ms=military-scientist/town+emp-bomb", "Te=telepath/town", "Dop=doppelganger",
             "Gus=/town")
    n1 = night(s, 1, "Ms: build mind-shield-tech")
    assert n1.pms["Ms"] == ("You worked on the Mind Shield (tech): 1 of 2 nights done.",)
    assert "mind-shield-tech" not in n1.state.players["Ms"].items
    n2 = night(n1.state, 2, "Ms: build Mind Shield (tech)")
    assert n2.pms["Ms"] == ("You have built the Mind Shield (tech).",)
    assert "mind-shield-tech" in n2.state.players["Ms"].items
    assert night(n2.state, 3, "Te: read Ms").pms["Te"] == (
        "Your power on Ms was blocked by a Mind Shield.",)
    with pytest.raises(MalformedOrderError, match="cannot build 'plasma-bomb'"):
        parse_order("Ms: build plasma-bomb", s, phase="night", number=1)


def test_a_scientist_builds_a_tracking_device_in_two_nights() -> None:
    quote("The Scientist starts with 2 devices and can create more devices by spending two "
          "nights working to build one.")
    s = game("Ms=intelligence-scientist/town+tracking-devices", "Ag=agent/town",
             "Dop=doppelganger", "Gus=/town", "Hal=/town")
    st = day(s, 1, "Ms: plant Ag").state
    st = day(st, 2, "Ms: plant Gus").state
    with pytest.raises(IllegalOrderError, match="no use of plant left"):
        check_order(parse_order("Ms: plant Hal", st, phase="day", number=3), st)
    st = night(night(st, 2, "Ms: build tracking-devices").state, 3,
               "Ms: build tracking-devices").state
    check_order(parse_order("Ms: plant Hal", st, phase="day", number=4), st)
    other = game("Ms=intelligence-scientist/town+snooper-bot", "Gus=/town")
    with pytest.raises(MalformedOrderError, match="cannot build"):
        parse_order("Ms: build tracking-devices", other, phase="night", number=1)


def test_the_replicator_makes_one_medium_or_two_small_items() -> None:
    quote("The Replicator Can create a single Medium Tech item or two Small tech items before "
          "it runs out of energy and materials.")
    s = game("Ex=exterminator+mind-shield+replicator", "Gus=/town", "Hal=/town",
             "Dop=doppelganger")
    n1 = night(s, 1, "Ex: replicate stun-orb", "Ex: kill Gus")
    assert dead(n1) == ["Gus"]  # not the alien's action
    assert n1.pms["Ex"] == ("You have built the Stun Orb.",)
    assert "stun-orb" in n1.state.players["Ex"].items
    with pytest.raises(MalformedOrderError, match="cannot build 'stun-bomb'"):
        parse_order("Ex: replicate stun-bomb", n1.state, phase="night", number=2)
    n2 = night(n1.state, 2, "Ex: replicate personal-shield", "Ex: stun Hal")
    assert "personal-shield" in n2.state.players["Ex"].items
    assert "roleblocked" in n2.state.players["Hal"].day_statuses
    with pytest.raises(MalformedOrderError, match="now it makes: nothing more"):
        parse_order("Ex: replicate scanner", n2.state, phase="night", number=3)
    medium = night(s, 1, "Ex: replicate stun-bomb")
    assert "stun-bomb" in medium.state.players["Ex"].items
    with pytest.raises(MalformedOrderError):
        parse_order("Ex: replicate scanner", medium.state, phase="night", number=2)


# ---- the Advanced Holoform's hologram ----------------------------------------------------------


def test_the_advanced_holoform_hologram_fools_followers_not_the_war_vet() -> None:
    quote("This hologram can be shown to go to any location (or stay at home). Anyone "
          "following the Alien will watch the Hologram instead of the Alien.")
    quote("It will not, however, protect the alien from a War Vet or Sentry Guns at the "
          "location they actually visit. Once activated it lasts the entire night but is used "
          "up after that.")
    s = game("Ex=exterminator+mind-shield+advanced-holoform", "Rep=reporter/town",
             "Ms=intelligence-scientist/town+snooper-bot", "Gus=/town", "Hal=/town",
             "Vet=war-vet/town", "Dop=doppelganger")
    r = night(s, 1, "Ex: hologram Hal", "Ex: kill Gus", "Rep: follow Ex", "Ms: snoop Ex")
    assert dead(r) == ["Gus"]
    assert r.pms["Rep"] == ("You followed Ex, who visited: Hal.",)
    assert r.pms["Ms"] == ("Your snooper bot trailed Ex, who visited: Hal.",)
    home = night(s, 1, "Ex: hologram Ex", "Ex: kill Gus", "Rep: follow Ex")
    assert home.pms["Rep"] == ("You followed Ex, who visited: nowhere.",)
    assert dead(night(s, 1, "Ex: hologram Hal", "Ex: kill Vet")) == ["Ex", "Vet"]
    with pytest.raises(IllegalOrderError, match="no use of holoform left"):
        check_order(parse_order("Ex: holoform Human", r.state, phase="night", number=2), r.state)
    with pytest.raises(IllegalOrderError, match="no use of hologram left"):
        check_order(parse_order("Ex: hologram Hal", r.state, phase="night", number=2), r.state)
