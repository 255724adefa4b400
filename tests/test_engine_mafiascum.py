"""The "mafiascum normal" role set of rulesets/mafiascum.toml, role by role, through the engine.

There is no seed text for this convention (the common phpBB majority-lynch game): each
test states the rule it checks. Whole resolution logs are compared where the order of
operations matters (roleblock > protect > kill > investigate / track / watch).
"""

from __future__ import annotations

import pytest

from assistant.engine.drafts import dawn_post, result_pms
from assistant.engine.history import apply_death
from assistant.engine.orders import check_order, parse_order
from assistant.engine.resolver import PhaseResult, resolve_phase
from assistant.engine.rules import load_engine_rules
from assistant.engine.setup import PlayerSetup, Setup, parse_setup
from assistant.engine.state import GameState
from assistant.engine.win import check_win
from assistant.errors import ConfigError, IllegalOrderError, MalformedOrderError
from assistant.rulesets import find_ruleset

RULES = load_engine_rules(find_ruleset("mafiascum"))


def game(*specs: str) -> GameState:
    """ "Ann=cop", "Dan=roleblocker/town": name = role key [/ side]."""
    slots = []
    for spec in specs:
        name, _, role = spec.partition("=")
        role, _, side = role.partition("/")
        slots.append(PlayerSetup(name, side or RULES.role(role).sides[0], role))
    return GameState.from_setup(RULES, Setup(tuple(slots), 7))


def night(state: GameState, n: int, *orders: str) -> PhaseResult:
    return resolve_phase(
        state, "night", n, [parse_order(o, state, phase="night", number=n) for o in orders]
    )


def dead(r: PhaseResult) -> list[str]:
    return [d.player for d in r.deaths]


def order(state: GameState, text: str, n: int = 1) -> None:
    check_order(parse_order(text, state, phase="night", number=n), state)


# A small normal game: 7 town (one of each night role that matters here), 2 mafia.
TOWN = ("Ann=cop", "Ben=doctor", "Cat=vigilante", "Eve=tracker", "Fay=watcher", "Jon=townie")
SCUM = ("Kim=godfather", "Lou=goon")


def test_the_role_set_and_the_order_of_operations():
    assert set(RULES.roles) == {
        "townie", "cop", "doctor", "vigilante", "serial-vigilante", "roleblocker",
        "tracker", "watcher", "jailkeeper", "bulletproof", "miller", "goon", "godfather",
    }  # fmt: skip
    assert RULES.tiers == ("roleblock", "protect", "kill", "investigate")
    assert RULES.role("roleblocker").sides == ("town", "mafia")
    assert set(RULES.side("mafia").abilities) == {"kill"}
    assert RULES.first_phase == "day"


def test_vanilla_townie_and_goon_have_no_action():
    s = game(*TOWN, *SCUM)
    with pytest.raises(MalformedOrderError, match="has no ability 'shoot'; they have: none"):
        parse_order("Jon: shoot Kim", s, phase="night", number=1)
    # The Goon has only the mafia's factional kill.
    with pytest.raises(MalformedOrderError, match="they have: kill"):
        parse_order("Lou: check Ann", s, phase="night", number=1)
    assert s.role_title("Jon") == "Vanilla Townie" and s.role_title("Lou") == "Mafia Goon"


def test_mafia_factional_kill_carried_by_a_member():
    s = game(*TOWN, *SCUM)
    r = night(s, 1, "Mafia: kill Jon by Lou")
    assert r.log_lines() == [
        "[kill] Lou (mafia): kill Jon: kills Jon",
        "[kill] Jon: dies (Lou (mafia): kill Jon)",
    ]
    assert r.deaths[0].how == "nightkill" and r.deaths[0].killers == ("Kim", "Lou")
    # The last order for the side wins ("Mafia: ..." without "by" picks a member).
    r = night(s, 1, "Mafia: kill Jon by Lou", "Mafia: kill Ann by Kim")
    assert dead(r) == ["Ann"]
    with pytest.raises(IllegalOrderError, match="not one of the mafia"):
        order(s, "Mafia: kill Jon by Ann")


def test_cop_sees_alignment_godfather_as_town_miller_as_mafia():
    s = game(*TOWN, *SCUM, "Ivy=miller")
    results = {
        target: night(s, 1, f"Ann: check {target}").pms["Ann"]
        for target in ("Jon", "Lou", "Kim", "Ivy")
    }
    assert results == {
        "Jon": ("Your investigation of Jon: Town.",),
        "Lou": ("Your investigation of Lou: Mafia.",),
        "Kim": ("Your investigation of Kim: Town.",),  # the Godfather
        "Ivy": ("Your investigation of Ivy: Mafia.",),  # the Miller
    }


def test_doctor_saves_the_target_but_not_himself():
    s = game(*TOWN, *SCUM)
    r = night(s, 1, "Ben: protect Jon", "Mafia: kill Jon by Lou")
    assert r.log_lines() == [
        "[protect] Ben: protect Jon: protects Jon (against all)",
        "[kill] Lou (mafia): kill Jon: fails (Jon is protected by Ben)",
    ]
    assert dead(r) == [] and dawn_post(r).splitlines()[1] == "Nobody died."
    with pytest.raises(IllegalOrderError, match="may not target themselves"):
        order(s, "Ben: protect Ben")
    # The doctor stops the vigilante's shot too.
    assert dead(night(s, 1, "Ben: protect Lou", "Cat: shoot Lou")) == []


def test_vigilante_has_one_shot_unless_configured():
    s = game(*TOWN, *SCUM, "Vic=serial-vigilante")
    r = night(s, 1, "Cat: shoot Lou")
    assert dead(r) == ["Lou"]
    with pytest.raises(IllegalOrderError, match="Cat has no use of kill left"):
        order(r.state, "Cat: shoot Kim", 2)
    # The unlimited Vigilante shoots every night.
    r1 = night(s, 1, "Vic: shoot Lou")
    r2 = night(r1.state, 2, "Vic: shoot Kim")
    assert dead(r1) + dead(r2) == ["Lou", "Kim"]
    # Two kills the same night land together.
    assert sorted(dead(night(s, 1, "Cat: shoot Lou", "Mafia: kill Cat by Kim"))) == ["Cat", "Lou"]


def test_roleblocker_town_and_mafia_block_before_anything_else():
    s = game(*TOWN, *SCUM, "Dan=roleblocker/town", "Max=roleblocker/mafia")
    assert (s.players["Dan"].side, s.players["Max"].side) == ("town", "mafia")
    # The mafia roleblocker stops the doctor, so the kill lands; the cop gets "No result".
    r = night(s, 1, "Max: block Ben", "Ben: protect Jon", "Mafia: kill Jon by Lou")
    assert r.log_lines() == [
        "[roleblock] Max: block Ben: roleblocks Ben",
        "[protect] Ben: protect Jon: fails (Ben is roleblocked)",
        "[kill] Lou (mafia): kill Jon: kills Jon",
        "[kill] Jon: dies (Lou (mafia): kill Jon)",
    ]
    r = night(s, 1, "Dan: block Ann", "Ann: check Lou")
    assert r.pms["Ann"] == ("Your investigation of Lou: No result.",)
    # Two roleblockers on each other: simultaneous, both are blocked.
    r = night(s, 1, "Dan: roleblock Max", "Max: roleblock Dan")
    assert [e.effect for e in r.events] == ["roleblocks Max", "roleblocks Dan"]
    # A roleblocked vigilante does not shoot.
    assert dead(night(s, 1, "Max: block Cat", "Cat: shoot Lou")) == []
    with pytest.raises(ConfigError, match="side None is not a side"):
        parse_setup(
            'players = [{ name = "X", role = "roleblocker" }]', RULES, where="s", default_seed=1
        )


def test_roleblocking_the_killer_stops_the_factional_kill():
    """The kill is carried out by one member ("Mafia: kill X by Y"); a roleblock on that
    member stops it (the ruleset's `performer_blockable`), a roleblock on another does not."""
    s = game(*TOWN, *SCUM, "Dan=roleblocker/town")
    assert RULES.side("mafia").abilities["kill"].params["performer_blockable"] is True
    r = night(s, 1, "Dan: block Lou", "Mafia: kill Jon by Lou")
    assert dead(r) == []
    assert r.log_lines() == [
        "[roleblock] Dan: block Lou: roleblocks Lou",
        "[kill] Lou (mafia): kill Jon: fails (Lou is roleblocked, which stops the mafia's kill)",
    ]
    assert dead(night(s, 1, "Dan: block Kim", "Mafia: kill Jon by Lou")) == ["Jon"]
    # Without "by", the kill is carried out by the first living member: Kim.
    assert dead(night(s, 1, "Dan: block Kim", "Mafia: kill Jon")) == []
    # A roleblocked killer did not go anywhere: the tracker sees no visit, the watcher none.
    r = night(s, 1, "Dan: block Lou", "Mafia: kill Jon by Lou", "Eve: track Lou", "Fay: watch Jon")
    assert (r.pms["Eve"], r.pms["Fay"]) == (
        ("Lou targeted: no one.",),
        ("Jon was targeted by: no one.",),
    )


def test_tracker_sees_whom_the_target_visited():
    s = game(*TOWN, *SCUM)
    r = night(s, 1, "Eve: track Lou", "Mafia: kill Jon by Lou")
    assert r.pms["Eve"] == ("Lou targeted: Jon.",)
    assert night(s, 1, "Eve: follow Jon").pms["Eve"] == ("Jon targeted: no one.",)
    # The tracker resolves after the kills: a tracker killed that night learns nothing.
    r = night(s, 1, "Eve: track Lou", "Mafia: kill Eve by Lou")
    assert "Eve" not in r.pms
    assert r.log_lines()[-1] == "[investigate] Eve: track Lou: fails (the actor died before acting)"


def test_tracker_sees_a_visit_that_was_stopped_by_a_doctor():
    """A visit is a visit: an action that failed where it arrived (a kill the doctor
    stopped, an action on a jailed player) still shows, to the tracker as to the watcher."""
    s = game(*TOWN, *SCUM, "Gus=jailkeeper")
    r = night(s, 1, "Eve: track Lou", "Ben: protect Jon", "Mafia: kill Jon by Lou")
    assert dead(r) == [] and r.pms["Eve"] == ("Lou targeted: Jon.",)
    # The jail stops the kill at Jon's door (and a watcher on Jon, jailed, gets no result).
    r = night(s, 1, "Eve: track Lou", "Fay: watch Jon", "Gus: jail Jon", "Mafia: kill Jon by Lou")
    assert dead(r) == []
    assert (r.pms["Eve"], r.pms["Fay"]) == (
        ("Lou targeted: Jon.",),
        ("Jon was targeted by: No result.",),
    )
    # The doctor's own visit shows too, protecting someone nobody attacked.
    assert night(s, 1, "Eve: track Ben", "Ben: protect Ann").pms["Eve"] == ("Ben targeted: Ann.",)


def test_watcher_sees_who_visited_the_target():
    s = game(*TOWN, *SCUM)
    r = night(s, 1, "Fay: watch Jon", "Ben: protect Jon", "Mafia: kill Jon by Lou")
    assert r.pms["Fay"] == ("Jon was targeted by: Ben, Lou.",)
    assert night(s, 1, "Fay: watch Ann").pms["Fay"] == ("Ann was targeted by: no one.",)


def test_jailkeeper_roleblocks_and_protects_and_stops_the_kill_of_a_jailed_member():
    s = game(*TOWN, *SCUM, "Gus=jailkeeper")
    r = night(s, 1, "Gus: jail Jon", "Mafia: kill Jon by Lou")
    assert r.log_lines() == [
        "[roleblock] Gus: jail Jon: jails Jon",
        "[kill] Lou (mafia): kill Jon: fails (Jon is jailed: every action aimed at them fails)",
    ]
    r = night(s, 1, "Gus: jail Lou", "Mafia: kill Jon by Lou")
    assert dead(r) == []
    assert r.log_lines()[-1] == (
        "[kill] Lou (mafia): kill Jon: fails (Lou is jailed, which stops the mafia's power)"
    )
    r = night(s, 1, "Gus: jail Ann", "Ann: check Lou")
    assert r.pms["Ann"] == ("Your investigation of Lou: No result.",)
    with pytest.raises(IllegalOrderError, match="may not target themselves"):
        order(s, "Gus: jail Gus")


def test_bulletproof_survives_every_night_kill_but_not_the_lynch():
    s = game(*TOWN, *SCUM, "Hal=bulletproof")
    r = night(s, 1, "Mafia: kill Hal by Lou", "Cat: shoot Hal")
    assert dead(r) == []
    assert [e.reason for e in r.events] == ["Hal cannot be nightkilled"] * 2
    lynch = apply_death(s, {"player": "Hal", "how": "lynch"}, [])
    assert [d.player for d in lynch.deaths] == ["Hal"]


def test_reveal_of_role_and_alignment_on_death():
    s = game(*TOWN, *SCUM, "Ivy=miller")
    r = night(s, 1, "Mafia: kill Ivy by Lou", "Cat: shoot Kim")
    assert dawn_post(r) == (
        "Night 1 is over.\n"
        "Kim has died. Kim was the Godfather (Mafia).\n"
        "Ivy has died. Ivy was the Miller (Town).\n"
        "Day 2 begins.\n"
    )
    # Everyone learns the role from the dawn post: no "killer learns" PM.
    assert result_pms(r, "g") == {}


def test_town_wins_when_no_mafia_is_left_and_mafia_at_parity():
    s = game(*TOWN, *SCUM)
    assert check_win(s) is None
    r = night(s, 1, "Cat: shoot Lou", "Mafia: kill Ann by Kim")
    assert check_win(r.state) is None
    town = apply_death(r.state, {"player": "Kim", "how": "lynch"}, [])
    win = check_win(town.state, "dusk")
    assert (win.winner, win.reason) == ("town", "Every member of the Mafia is dead.")
    assert win.players == ("Ann", "Ben", "Cat", "Eve", "Fay", "Jon")
    # Parity: 1 mafia, 1 town.
    small = game("Jon=townie", "Ann=cop", "Kim=godfather")
    r = night(small, 1, "Mafia: kill Ann by Kim")
    win = check_win(r.state)
    assert (win.winner, win.reason) == ("mafia", "The Mafia have reached parity with the Town.")
    assert "The game is over. Victory: Mafia!" in dawn_post(r)
