"""Faults found on nights written from the seeds (issue 11), each with the seed's sentence.

Every test here failed before its fix: a blocked War Vet's Warden dying at his door, a
roleblock that ended at dawn, a healer not told of an attack on himself, PMs drafted for
the dead, wording a GM would correct, a confirmed night's log gone, duplicated roles.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import call

from assistant.engine.orders import parse_order
from assistant.engine.resolver import PhaseResult, resolve_phase
from assistant.engine.rules import EngineRules, load_engine_rules
from assistant.engine.setup import PlayerSetup, Setup, parse_setup, setup_warnings
from assistant.engine.state import GameState
from assistant.engine.vote_effects import modifiers_for_day
from assistant.rulesets import find_ruleset
from tests.conftest import SEEDS

R000 = load_engine_rules(find_ruleset("paranormal"))
R001 = load_engine_rules(find_ruleset("millers-hollow"))
R002 = load_engine_rules(find_ruleset("chat-mafia"))
SEED = {
    "000": (SEEDS / "000_307a730cc0c91942.txt").read_text(encoding="utf-8"),
    "001": (SEEDS / "001_c8fe4abb5e740ea0.txt").read_text(encoding="utf-8"),
    "002": (SEEDS / "002_127b503cdbb8696c.txt").read_text(encoding="utf-8"),
}


def quote(seed: str, sentence: str) -> str:
    """The cited sentence must really be in the seed (whitespace-normalised)."""
    assert " ".join(sentence.split()) in " ".join(SEED[seed].split()), sentence
    return sentence


def game(rules: EngineRules, *players: str) -> GameState:
    """Players as "Name=role/side" ("Gus=/town" has no role)."""
    slots = []
    for spec in players:
        name, _, rest = spec.partition("=")
        role, _, side = rest.partition("/")
        slots.append(PlayerSetup(name, side or rules.role(role).sides[0], role or None))
    return GameState.from_setup(rules, Setup(tuple(slots), 3))


def run(state: GameState, phase: str, n: int, *orders: str) -> PhaseResult:
    parsed = [parse_order(o, state, phase=phase, number=n) for o in orders]
    return resolve_phase(state, phase, n, parsed)


def dead(result: PhaseResult) -> list[str]:
    return sorted(d.player for d in result.deaths)


# ---- a role-blocker who does not leave his house ---------------------------------------


def test_the_warden_is_no_visitor_of_the_war_vet() -> None:
    quote("000", "The Psychic Warden does not need to leave his house to use this power.")
    quote("000", "A Role-Blocked War Vet loses their kill ability for the night.")
    state = game(R000, "Vet=war-vet", "Pw=psychic-warden", "Dop=doppelganger", "Rep=reporter")
    r = run(state, "night", 1, "Pw: foil Vet", "Doppelgangers: kill Vet by Dop", "Rep: watch Vet")
    # Before: the Warden died at the Vet's door. Now only the Vet dies (blocked, he
    # shoots no one), and the Reporter watching the Vet's house sees the killer only.
    assert dead(r) == ["Vet"]
    assert r.pms["Rep"] == ("You watched Vet's house; visitors: Dop.",)


# ---- 002's roleblock lasts the following day -----------------------------------------


def test_a_roleblocked_sorcerer_cannot_kill_the_next_day() -> None:
    quote("002", "For the night and the following day, that person cannot use their role.")
    state = game(R002, "Rb=roleblocker", "Sor=sorcerer/town", "Gus=/town", "Moe=/mafia")
    n = run(state, "night", 1, "Rb: block Sor")
    d = run(n.state, "day", 2, "Sor: zap Moe")
    assert dead(d) == []
    assert "[day_kills] Sor: kill Moe: fails (Sor is roleblocked)" in d.log_lines()
    # The block ends with that day: the next night clears it.
    assert "roleblocked-day" not in run(d.state, "night", 2).state.players["Sor"].day_statuses


def test_a_roleblocked_doublevoter_votes_once_that_day() -> None:
    quote("002", "Any vote the Doublevoter makes is counted twice in determining the lynch.")
    quote("002", "For the night and the following day, that person cannot use their role.")
    state = game(R002, "Rb=roleblocker", "Dv=doublevoter/town", "Gus=/town", "Moe=/mafia")
    assert [(m["player"], m["vote_weight"]) for m in modifiers_for_day(state, 1)] == [("Dv", 2)]
    blocked = run(state, "night", 1, "Rb: block Dv").state
    assert all(m["vote_weight"] == 1 for m in modifiers_for_day(blocked, 2))
    # A Psychic Warden's foil (000) lasts "that night and following day" too: the Enchanter.
    quote(
        "000",
        "That character cannot take any role-related actions for that night and following day.",
    )
    s0 = game(R000, "Pw=psychic-warden", "En=enchanter", "Dop=doppelganger")
    assert [m["vote_weight"] for m in modifiers_for_day(s0, 1)] == [2]
    foiled = run(s0, "night", 1, "Pw: foil En").state
    assert all(m["vote_weight"] == 1 for m in modifiers_for_day(foiled, 2))


# ---- 001's healer is told of an attack on himself ---------------------------------------


def test_the_healer_is_told_when_the_werewolves_attack_him() -> None:
    quote(
        "001",
        "As long as the healer has not used his special power, he will receive a PM every "
        "night, with information about who was attacked during that night.",
    )
    quote("001", "The healer may heal himself if the werewolves decide to attack the healer.")
    state = game(R001, "Hea=healer", "Wolf=werewolf", "Ann=peasant", "Ben=peasant")
    r = run(state, "night", 1, "Werewolves: eat Hea")
    assert r.notices["Hea"] == (
        'Tonight the werewolves attacked you. Reply with "heal" to save yourself.',
    )


# ---- no PM for the dead -----------------------------------------------------------------


def test_no_result_pm_for_a_player_dead_by_the_end_of_the_night() -> None:
    quote("000", "Attempting to follow a War Vet is still fatal, of course.")
    state = game(R000, "Vet=war-vet", "Rep=reporter", "Pw=psychic-warden", "Gus=/town")
    r = run(state, "night", 1, "Rep: follow Vet")
    assert dead(r) == ["Rep"] and "Rep" not in r.pms
    assert (
        "[results] PM to Rep: not sent (Rep died: You followed Vet, who visited: nowhere.)"
        in r.log_lines()
    )
    # The "tampered with" PM of a foiled player killed the same night is not sent either.
    r2 = run(state, "night", 1, "Pw: foil Gus", "Doppelgangers: kill Gus by Vet")
    assert "Gus" not in r2.pms if "Gus" in dead(r2) else True


def test_no_pm_for_a_foiled_player_who_dies() -> None:
    state = game(R000, "Pw=psychic-warden", "Dop=doppelganger", "Gus=/town")
    r = run(state, "night", 1, "Pw: foil Gus", "Doppelgangers: kill Gus by Dop")
    assert dead(r) == ["Gus"] and "Gus" not in r.pms
    assert any(line.startswith("[results] PM to Gus: not sent") for line in r.log_lines())


# ---- wording ------------------------------------------------------------------------------


def test_a_self_action_is_echoed_as_typed() -> None:
    quote("000", "Can choose to turn off this ability for a night (leaving themselves vulnerable).")
    state = game(R000, "Vet=war-vet", "Dop=doppelganger")
    order = parse_order("Vet: hold fire", state, phase="night", number=1)
    assert order.label() == "Vet: hold fire"
    assert order.targets == ("Vet",)  # its place still exists (a redirect can move it)


def test_hexes_are_named_as_the_rules_name_them() -> None:
    quote("002", "Two nights after the Witch casts this hex, the hexed player dies.")
    state = game(R002, "Wi=witch/mafia", "Gus=/town", "Hal=/town")
    r = run(state, "night", 1, "Wi: death Gus")
    assert "[hexes] Wi: death Gus: Gus is under the Hex of Death" in r.log_lines()
    r3 = run(run(r.state, "night", 2).state, "night", 3)
    assert [d.cause for d in r3.deaths] == ["Hex of Death cast by Wi"]


def test_result_lines_follow_the_order_of_events() -> None:
    quote(
        "002",
        "he may learn of the Investigator's target that night. In addition, the Forger "
        "may decide whether the Investigator will find that person Town or Mafia.",
    )
    state = game(R002, "For=forger", "Ivy=investigator", "Gus=/town", "Moe=/mafia")
    r = run(state, "night", 1, "For: investigate Ivy", "Ivy: investigate Moe")
    assert r.pms["For"] == ("Ivy: Investigator.", "The Investigator (Ivy) targeted Moe tonight.")


# ---- a confirmed night's log, again ---------------------------------------------------------


SETUP = """seed = 2
players = [
  { name = "Alice", role = "doctor" }, { name = "Bob", role = "investigator" },
  { name = "Carol", role = "godfather" }, { name = "Dan", role = "roleblocker" },
  { name = "Eve", side = "town" }, { name = "Finn", role = "doublevoter", side = "town" },
]
"""


def test_a_confirmed_nights_log_is_shown_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "setup.toml").write_text(SETUP, encoding="utf-8")
    setup = str(tmp_path / "setup.toml")
    assert call(capsys, tmp_path, "roles", "g", "--file", setup, "--ruleset", "chat-mafia")[0] == 0
    for line in ("Mafia: kill Eve", "Dan: block Alice", "Alice: protect Eve"):
        assert call(capsys, tmp_path, "order", "g", line)[0] == 0
    code, first, _ = call(capsys, tmp_path, "resolve", "g", "--night", "1")
    assert code == 0
    code, again, _ = call(capsys, tmp_path, "resolve", "g", "--night", "1", "--log")
    assert code == 0
    assert again.splitlines()[0] == (
        "night 1: resolved earlier (its log, replayed from the stored facts)"
    )
    assert again.splitlines()[1:] == first.splitlines()[1:]
    assert "[nightkills] Carol (mafia): kill Eve: kills Eve" in again.splitlines()
    code, default, _ = call(capsys, tmp_path, "resolve", "g", "--log")
    assert code == 0 and default == again
    code, out, _ = call(capsys, tmp_path, "resolve", "g", "--log", "--json")
    assert code == 0 and json.loads(out)["deaths"][0]["player"] == "Eve"
    code, _, err = call(capsys, tmp_path, "resolve", "g", "--night", "2", "--log")
    assert code == 1 and err == (
        "error: night 2 of g is not resolved; see what it would do with "
        "`assistant resolve g --night 2 --dry-run`\n"
    )


# ---- a setup against the seed's rule -------------------------------------------------------


def test_a_duplicated_role_is_warned_about(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    quote("002", "No role will be duplicated. (Multiple players can have no role, however.)")
    text = """seed = 1
players = [
  { name = "Ann", role = "doctor", side = "town" },
  { name = "Ben", role = "doctor", side = "town" },
  { name = "Cy", side = "town" }, { name = "Di", side = "town" }, { name = "Moe", side = "mafia" },
]
"""
    setup = parse_setup(text, R002, where="setup.toml", default_seed=1)
    assert setup_warnings(setup, R002) == [
        "Ann, Ben all have the role Doctor, but chat-mafia duplicates no role "
        "([night] unique_roles): check the setup"
    ]
    # Several players without a role are fine.
    fine = parse_setup(text.replace(', role = "doctor"', ""), R002, where="s", default_seed=1)
    assert setup_warnings(fine, R002) == []
    # 000's script "NO LONGER restricts most roles": duplicates are not warned about there.
    quote("000", "Note that the script NO LONGER restricts most roles to only one or two per side.")
    assert not R000.night.get("unique_roles")
    (tmp_path / "setup.toml").write_text(text, encoding="utf-8")
    code, out, _ = call(
        capsys, tmp_path, "roles", "g", "--file", str(tmp_path / "setup.toml"),
        "--ruleset", "chat-mafia",
    )
    assert code == 0 and out.splitlines()[-1] == (
        "warning: Ann, Ben all have the role Doctor, but chat-mafia duplicates no role "
        "([night] unique_roles): check the setup"
    )
