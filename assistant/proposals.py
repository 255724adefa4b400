"""The inbox's proposals: the orders and PM votes read in the players' messages to the GM
(`order_reading.py`). Here: what reading a game's messages needs, built once from its
store (its players, ruleset, setup and clock)."""

from __future__ import annotations

from assistant.count.votes import VoteRules
from assistant.errors import ConfigError
from assistant.game import Game
from assistant.monitor import game_ruleset, load_game
from assistant.order_reading import ReadingContext
from assistant.phases import phases_from_inputs
from assistant.store import GameStore


def reading_context(store: GameStore, game: Game | None = None) -> ReadingContext:
    """What reading the game's messages needs: its players, ruleset, setup and clock."""
    from assistant.engine.history import replay
    from assistant.engine.rules import load_engine_rules

    ruleset = game_ruleset(store)
    game = game or load_game(store, ruleset=ruleset)
    rules = load_engine_rules(ruleset)
    vrules = VoteRules.from_ruleset(ruleset)
    inputs = store.inputs()
    rep, no_setup = None, None
    try:
        rep = replay(rules, inputs)
    except ConfigError as e:
        no_setup = str(e)
    names = list(rep.state.players) if rep else []
    aliases: dict[str, list[str]] = {}
    for slot in game.slots:
        for name in names:
            if name in slot.names:
                aliases[name] = [n for n in slot.names if n != name]
    return ReadingContext(
        rules, game, vrules, rep, no_setup, phases_from_inputs(inputs), aliases,
        pm_votes="pm" in vrules.forms, ruleset_votes=vrules.describe())

