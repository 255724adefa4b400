"""game.py: deaths and revivals in the order entered, and the role effects it derives."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from assistant.engine.orders import parse_order
from assistant.engine.rules import load_engine_rules
from assistant.engine.setup import PlayerSetup, Setup
from assistant.engine.state import GameState
from assistant.game import Game
from assistant.monitor import game_from_parts
from assistant.rulesets import find_ruleset


def at(hour: int) -> str:
    return datetime(2026, 11, 22, hour, tzinfo=UTC).isoformat()


def test_a_revived_player_is_alive_from_the_revival_and_may_die_again() -> None:
    inputs = [
        {"kind": "death", "data": {"player": "Kat", "how": "nightkill", "at": at(8)}},
        {"kind": "revive", "data": {"player": "kat", "at": at(11), "source": "engine"}},
        {"kind": "death", "data": {"player": "Kat", "how": "lynch", "at_post": 150}},
    ]
    g = Game.from_parts("g", [["Kat"], ["Jd-"]], inputs=inputs)
    moments = [(7, 100), (9, 100), (11, 120), (12, 150), (12, 151)]
    assert [g.is_alive("Kat", post_id=p, at=datetime.fromisoformat(at(h))) for h, p in moments] == [
        True,
        False,
        True,
        True,
        False,
    ]
    assert g.death_of("Kat").how == "lynch"  # the latest death


def stored(*docs: tuple[str, dict]) -> list[dict]:
    return [{"seq": i, "kind": k, "data": d} for i, (k, d) in enumerate(docs, 1)]


def test_role_effects_follow_the_days_and_never_linger() -> None:
    """A hex cast on Night 1 (002: the day after is Day 2) lasts that day only; without any
    day entered, only the coming day's effects apply."""
    rules = load_engine_rules(find_ruleset("chat-mafia"))
    setup = Setup(
        (
            PlayerSetup("Wi", "town", "witch"),
            PlayerSetup("Gus", "town", None),
            PlayerSetup("Moe", "mafia", None),
        ),
        5,
    )
    state = GameState.from_setup(rules, setup)
    hex1 = parse_order("Wi: powerlessness Gus", state, phase="night", number=1).to_dict()
    docs = [
        ("roles", setup.to_dict()),
        ("order", hex1),
        ("resolution", {"phase": "night", "number": 1}),
    ]
    players = [["Wi"], ["Gus"], ["Moe"]]
    g = game_from_parts("g", players, ruleset="chat-mafia", inputs=stored(*docs))
    assert [(m.player, m.day, m.powerless) for m in g.modifiers] == [("Gus", None, True)]
    days = [("phase", {"kind": "day", "number": n, "starts_at": at(n)}) for n in (1, 2, 3)]
    docs2 = [*docs, ("resolution", {"phase": "night", "number": 2}), *days]
    g = game_from_parts("g", players, ruleset="chat-mafia", inputs=stored(*docs2))
    assert [(m.player, m.day) for m in g.modifiers if m.powerless] == [("Gus", 2)]
    assert g.seed == 5


@pytest.mark.parametrize("forum", ["smf21", "phpbb33"])
def test_the_days_own_lynch_does_not_empty_its_wagon(forum: str) -> None:
    """After the GM records Day 2's lynch (dusk --confirm, or kill --how lynch), Day 2's
    count on real thread B still equals the ground truth; Day 3 sees the player dead."""
    from realthreads import game_b, post_id, thread_posts, truth, votes_by_voter

    from assistant.count.tally import count
    from assistant.rulesets import find_ruleset

    posts = thread_posts(forum, "b")
    last = post_id(forum, len(truth(forum, "b")["posts"]) - 1, "b")
    # Recorded after the post that made the day's result certain, with posts after it.
    decided = post_id(forum, 40, "b")
    lynch = {"kind": "death", "data": {"player": "xX_Slayer_Xx", "how": "lynch",
                                       "at_post": decided, "at": None, "replacement": None}}
    game = game_b(forum, inputs=[lynch])
    tally = count(posts, game, find_ruleset("chat-mafia"))
    assert votes_by_voter(tally) == truth(forum, "b")["meta"]["final_votes_002"]
    assert "xX_Slayer_Xx" in tally.alive
    assert not game.is_alive("xX_Slayer_Xx", post_id=last + 1)


def test_an_authors_slot_is_looked_up_once_per_game(monkeypatch) -> None:
    """A count and every check ask each post's author's slot: the name matcher is asked
    once per author of the game's facts (the answers the same, an alias's and a stranger's
    too)."""
    from assistant.names import NameMatcher

    asked: list[str] = []
    real = NameMatcher.match

    def spy(self, text: str, *args: object, **kw: object):  # noqa: ANN001, ANN202
        asked.append(text)
        return real(self, text, *args, **kw)

    monkeypatch.setattr(NameMatcher, "match", spy)
    game = Game.from_parts("g", [["Kat", "Kitty"], ["Bob"]], gms=["Host"])
    authors = ["Kat", "kitty", "Bob", "Stranger", "Kat", "Bob"] * 50
    slots = {"Kat": "Kat", "kitty": "Kat", "Bob": "Bob", "Stranger": None}
    assert [game.slot_of_author(a) for a in authors] == [slots[a] for a in authors]
    assert sorted(asked) == sorted({"Kat", "kitty", "Bob", "Stranger"})
