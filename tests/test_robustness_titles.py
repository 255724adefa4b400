"""Log lines and notes name a role the way the ruleset does: a GM who renames the Bomb or
the Monk's Hamedo in a copied ruleset reads their own words, never the bundled ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant import RULESETS_DIR
from assistant.engine.history import apply_death
from assistant.engine.orders import parse_order
from assistant.engine.resolver import PhaseResult, resolve_phase
from assistant.engine.rules import EngineRules, load_engine_rules
from assistant.engine.setup import PlayerSetup, Setup
from assistant.engine.state import GameState
from assistant.rulesets import find_ruleset

RENAMES = [
    ('[roles.bomb]\ntitle = "Bomb"', '[roles.bomb]\ntitle = "Powder Keg"'),
    ('[roles.monk]\ntitle = "Monk"', '[roles.monk]\ntitle = "Abbot"'),
    ('abilities.hamedo = { kind = "hamedo"', 'abilities.zen = { kind = "hamedo"'),
]


@pytest.fixture(scope="module")
def rules(tmp_path_factory) -> EngineRules:
    text = (RULESETS_DIR / "chat-mafia.toml").read_text(encoding="utf-8")
    for old, new in RENAMES:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path: Path = tmp_path_factory.mktemp("house") / "house.toml"
    path.write_text(text, encoding="utf-8")
    return load_engine_rules(find_ruleset(str(path)))


def game(rules: EngineRules, *players: tuple[str, str | None, str | None]) -> GameState:
    slots = [PlayerSetup(n, side or rules.role(role).sides[0], role)  # type: ignore[arg-type]
             for n, role, side in players]
    return GameState.from_setup(rules, Setup(tuple(slots), 1))


def night(state: GameState, *orders: str) -> PhaseResult:
    return resolve_phase(
        state, "night", 1, [parse_order(o, state, phase="night", number=1) for o in orders]
    )


BASE = (("Gus", None, "town"), ("Hal", None, "town"), ("Moe", None, "mafia"))


def text_of(result: PhaseResult) -> str:
    return "\n".join([*result.log_lines(), *result.notes, *(str(d) for d in result.deaths)])


def test_a_renamed_bomb_explodes_under_its_own_name(rules) -> None:
    result = night(game(rules, ("Bo", "bomb", None), *BASE), "Mafia: kill Bo")
    lines = result.log_lines()
    assert "[nightkills] Bo (Powder Keg): explodes on Moe (the only one of the mafia it can take)" \
        in lines
    assert "Bomb" not in text_of(result)


def test_a_renamed_bomb_lynched_takes_the_last_voter_under_its_own_name(rules) -> None:
    state = game(rules, ("Bo", "bomb", None), *BASE)
    result = apply_death(state, {"player": "Bo", "how": "lynch", "last_voter": "Hal"}, [])
    assert [d.player for d in result.deaths] == ["Bo", "Hal"]
    assert "last to vote for Bo, the Powder Keg" in text_of(result)
    result = apply_death(state, {"player": "Bo", "how": "lynch"}, [])
    assert result.notes[0].startswith("Bo was the Powder Keg: the last person to vote for them")
    assert "Bomb" not in text_of(result)


def test_a_renamed_hamedo_kills_under_its_own_name(rules) -> None:
    result = night(game(rules, ("Abe", "monk", None), *BASE), "Abe: zen", "Mafia: kill Abe by Moe")
    assert [d.player for d in result.deaths] == ["Moe"]
    lines = result.log_lines()
    assert "[nightkills] Moe: dies (targeted Abe under Abe's Zen)" in lines
    assert "[nightkills] Moe (mafia): kill Abe: fails (killed by the Zen on Abe before acting)" \
        in lines
    assert "Hamedo" not in text_of(result)
