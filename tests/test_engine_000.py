"""Paranormal (seed 000): the War Vet's kill-on-visit passive and what the rules say of it.

Each test quotes the sentence of ../shared/seeds/000_307a730cc0c91942.txt it checks.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.engine.orders import parse_order
from assistant.engine.resolver import PhaseResult, resolve_phase
from assistant.engine.rules import EngineRules, load_engine_rules
from assistant.engine.setup import PlayerSetup, Setup
from assistant.engine.state import GameState
from assistant.errors import RulesetError
from assistant.rulesets import find_ruleset, load_ruleset
from tests.conftest import SEEDS

RULES = load_engine_rules(find_ruleset("paranormal"))
SEED_TEXT = (SEEDS / "000_307a730cc0c91942.txt").read_text(encoding="utf-8")

def game(*players: str, rules: EngineRules = RULES) -> GameState:
    """Players as "Name=role/side+item+item" ("Gus=/town" is a vanilla townie,
    "Al=survivor+stun-orb" a Survivor holding a Stun Orb)."""
    slots = []
    for spec in players:
        name, _, rest = spec.partition("=")
        rest, *items = rest.split("+")
        role, _, side = rest.partition("/")
        side = side or rules.role(role).sides[0]
        slots.append(PlayerSetup(name, side, role or None, tuple(items)))
    return GameState.from_setup(rules, Setup(tuple(slots), 7))


def night(state: GameState, n: int, *orders: str) -> PhaseResult:
    return resolve_phase(
        state, "night", n, [parse_order(o, state, phase="night", number=n) for o in orders]
    )


def dead(result: PhaseResult) -> list[str]:
    return sorted(d.player for d in result.deaths)


def quote(sentence: str) -> str:
    """The cited sentence must really be in the seed (whitespace-normalised)."""
    assert " ".join(sentence.split()) in " ".join(SEED_TEXT.split()), sentence
    return sentence


BASE = ("Vet=war-vet", "Dop=doppelganger", "Lea=doppelganger-leader", "Gus=/town")


def test_a_deadly_visitor_and_the_vet_both_die() -> None:
    quote(
        "Is trigger happy and will kill anyone visiting them at night, although they still "
        "die if the night target was deadly."
    )
    r = night(game(*BASE), 1, "Doppelgangers: kill Vet by Dop")
    assert dead(r) == ["Dop", "Vet"]
    vet_death = next(d for d in r.deaths if d.player == "Dop")
    assert vet_death.killers == ("Vet",) and vet_death.how == "nightkill"
    assert (
        "[kills] Vet (War Vet): kills Dop (Dop (doppelgangers): kill Vet visited "
        "them)" in r.log_lines()
    )


def test_a_protector_visiting_the_vet_dies_and_still_protects() -> None:
    quote("The War vet uses guns, explosives, or booby traps to kill anyone that visits them.")
    quote("he'll kill anyone who targets them on THEIR turn, rather than his")
    state = game(*BASE, "Bo=guardian")
    r = night(state, 1, "Bo: protect Vet", "Doppelgangers: kill Vet by Dop")
    # The guard dies in the protections tier, his protection holds, the killer dies too.
    assert dead(r) == ["Bo", "Dop"]
    lines = r.log_lines()
    bo = lines.index(
        "[protections] Bo: dies (visited Vet (War Vet), who kills anyone visiting them)"
    )
    assert bo < lines.index("[kills] Dop (doppelgangers): kill Vet: fails (Vet is protected by Bo)")


def test_a_vet_holding_fire_dies_to_the_kill_and_kills_no_one() -> None:
    quote("Can choose to turn off this ability for a night (leaving themselves vulnerable).")
    state = game(*BASE)
    r = night(state, 1, "Vet: stay home", "Doppelgangers: kill Vet by Dop")
    assert dead(r) == ["Vet"]
    assert "[passive] Vet: hold fire: Vet's kill_on_visit is off tonight" in r.log_lines()
    # Only for that night: the next night the passive is armed again.
    r2 = night(r.state, 2, "Doppelgangers: kill Gus by Lea")
    assert dead(r2) == ["Gus"]
    r3 = night(state, 2, "Vet: hold fire", "Dop: kill Vet")
    assert dead(r3) == ["Vet"]
    r4 = night(state, 2, "Dop: kill Vet")
    assert dead(r4) == ["Dop", "Vet"]


def test_the_hold_fire_order_is_not_a_visit() -> None:
    quote(
        "Each night the Reporter can choose to either follow someone to see where they go or "
        "watch to see if anyone visits them that night."
    )
    r = night(game(*BASE, "Rep=reporter"), 1, "Vet: stay home", "Rep: follow Vet")
    assert r.pms["Rep"] == ("You followed Vet, who visited: nowhere.",)
    assert dead(r) == []


def test_a_roleblocked_vet_kills_no_one() -> None:
    quote("A Role-Blocked War Vet loses their kill ability for the night.")
    state = game(*BASE, "Pw=psychic-warden")
    # The Warden blocks Gus, not the Vet: the Vet is armed and the killer dies.
    armed = night(state, 1, "Pw: foil Gus", "Doppelgangers: kill Vet by Dop")
    assert dead(armed) == ["Dop", "Vet"]
    # Blocking the Vet: the Warden visits (and dies on her own turn), the Vet is then
    # blocked for the rest of the night, so the killer survives.
    blocked = night(state, 1, "Pw: foil Vet", "Doppelgangers: kill Vet by Dop")
    assert dead(blocked) == ["Vet"]
    assert "[roleblocks] Pw: foil Vet: roleblocks Vet" in blocked.log_lines()


def test_a_reporter_following_the_vet_dies() -> None:
    quote("Attempting to follow a War Vet is still fatal, of course.")
    r = night(game(*BASE, "Rep=reporter"), 1, "Rep: follow Vet")
    assert dead(r) == ["Rep"]


def test_a_reporter_following_a_visitor_to_the_vet_dies() -> None:
    quote(
        "Years of following celebrities around has given this person the ability to track "
        "anyone anywhere"
    )
    quote("Attempting to follow a War Vet is still fatal, of course.")
    state = game(*BASE, "Rep=reporter", "Ag=agent")
    r = night(state, 1, "Ag: investigate Vet", "Rep: follow Ag")
    assert dead(r) == ["Ag", "Rep"]
    # Following someone who goes elsewhere is harmless.
    r2 = night(state, 1, "Ag: investigate Gus", "Rep: follow Ag")
    assert dead(r2) == []
    assert r2.pms["Rep"] == ("You followed Ag, who visited: Gus.",)


def test_a_stun_orb_does_not_trigger_the_vet() -> None:
    quote("Does not trigger War Vet/Turret response.")
    state = game(*BASE, "Al=survivor+stun-orb")
    r = night(state, 1, "Al: stun orb Vet", "Doppelgangers: kill Vet by Dop")
    # The stunner survives, and the stunned Vet cannot shoot the killer either.
    assert dead(r) == ["Vet"]


def test_an_abductor_does_not_block_the_vet_and_dies() -> None:
    quote(
        "Exceptions: The Paranoid War Vet and Sentry Gun are not role-blocked by an "
        "abduction, and will kill the player attempting the abduction."
    )
    state = game(*BASE, "Sci=xenozoologist")
    r = night(state, 1, "Sci: abduct Vet", "Doppelgangers: kill Vet by Dop")
    assert dead(r) == ["Dop", "Sci", "Vet"]
    assert (
        "[abductions] Sci: abduct Vet: does not abduct Vet (Vet kills anyone visiting them)"
    ) in r.log_lines()
    # The same abduction on anyone else is a roleblock.
    r2 = night(state, 1, "Sci: abduct Gus")
    assert dead(r2) == [] and "roleblocked" in r2.state.players["Gus"].day_statuses


def test_a_suspend_ability_must_name_its_passive(tmp_path: Path) -> None:
    shipped = Path(find_ruleset("paranormal").path).read_text(encoding="utf-8")
    path = tmp_path / "broken.toml"
    path.write_text(shipped.replace('passive = "kill_on_visit", ', ""), encoding="utf-8")
    with pytest.raises(RulesetError, match='needs passive = "NAME"'):
        load_engine_rules(load_ruleset(path))
