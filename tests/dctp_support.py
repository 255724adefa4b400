"""What every 004 (DCTP) engine test needs: the ruleset, the seed to quote, a game of named
cards, a phase resolved from orders written as the GM enters them."""

from __future__ import annotations

from assistant.engine.orders import parse_order
from assistant.engine.resolver import PhaseResult, resolve_phase
from assistant.engine.rules import load_engine_rules
from assistant.engine.setup import PlayerSetup, Setup
from assistant.engine.state import GameState
from assistant.rulesets import find_ruleset
from tests.conftest import SEEDS

RULES = load_engine_rules(find_ruleset("dctp-mini"))
RAW = (SEEDS / "004_22384bb39b2a9dee.txt").read_text(encoding="utf-8")
SEED_TEXT = " ".join(RAW.split())


def quote(sentence: str) -> None:
    """The test's sentence is the seed's, whatever its line breaks."""
    assert " ".join(sentence.split()) in SEED_TEXT, sentence


def game(*players: str, seed: int = 5) -> GameState:
    """`game("Gin=gin", "Ran=ran")`: each player on the first side of the card named."""
    slots = []
    for spec in players:
        name, _, role = spec.partition("=")
        slots.append(PlayerSetup(name, RULES.role(role).sides[0], role))
    return GameState.from_setup(RULES, Setup(tuple(slots), seed, {}))


def phase(state: GameState, kind: str, n: int, *orders: str) -> PhaseResult:
    return resolve_phase(
        state, kind, n, [parse_order(o, state, phase=kind, number=n) for o in orders]
    )


def dead(r: PhaseResult) -> list[str]:
    return [d.player for d in r.deaths]


def pms(r: PhaseResult, who: str) -> list[str]:
    return list(r.pms.get(who, []))
