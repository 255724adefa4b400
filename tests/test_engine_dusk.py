"""`assistant.engine.dusk.draft_dusk`: the lynch from the count, the reveal each ruleset
gives, what a lynch sets off, and the dusk win check, for 001, 002 and 003.

Votes are posts in the markup the real forums produce for each ruleset (001 bold names as
SMF's `<b>`, 002 `[Vote: X]` as literal text, 003 blue / purple `bbc_color` spans); the
setup, orders and confirmed nights are stored facts, as the CLI stores them.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from conftest import SEEDS

from assistant.count.outcome import draw
from assistant.engine.dusk import confirm_dusk
from assistant.engine.orders import parse_order
from assistant.engine.rules import load_engine_rules
from assistant.engine.setup import PlayerSetup, Setup
from assistant.engine.state import GameState
from assistant.models import Post
from assistant.monitor import draft_dusk
from assistant.rulesets import find_ruleset
from assistant.store import GameStore

T0 = datetime(2026, 11, 24, 18, 0, tzinfo=UTC)
AFTER = T0 + timedelta(days=2)


def quote(seed: str, sentence: str) -> None:
    text = " ".join(next(SEEDS.glob(f"{seed}_*.txt")).read_text(encoding="utf-8").split())
    assert " ".join(sentence.split()) in text, sentence


def store_game(
    tmp: Path,
    ruleset: str,
    players: list[tuple[str, str, str | None]],
    *,
    day: int,
    nights: dict[int, list[str]] | None = None,
    seed: int = 3,
) -> GameStore:
    """A game whose setup, orders and confirmed nights are stored, with `day` running."""
    rules = load_engine_rules(find_ruleset(ruleset))
    setup = Setup(tuple(PlayerSetup(n, side, role) for n, side, role in players), seed)
    store = GameStore.open(tmp, ruleset)
    store.update_config(ruleset=ruleset, gms=["Host"], tz="UTC")
    store.add_input("players", {"players": [[n] for n, _, _ in players]}, T0)
    store.add_input("roles", setup.to_dict(), T0)
    state = GameState.from_setup(rules, setup)
    from assistant.engine.resolver import resolve_phase

    for number, texts in (nights or {}).items():
        orders = [parse_order(t, state, phase="night", number=number) for t in texts]
        for o in orders:
            store.add_input("order", o.to_dict(), T0)
        result = resolve_phase(state, "night", number, orders)
        store.add_input("resolution", {"phase": "night", "number": number}, T0)
        for d in result.deaths:
            store.add_input(
                "death",
                {"player": d.player, "how": d.how, "at": T0.isoformat(), "source": "engine"},
                T0,
            )
        state = result.state
    store.add_input(
        "phase",
        {
            "kind": "day",
            "number": day,
            "starts_at": T0.isoformat(),
            "ends_at": (T0 + timedelta(days=1)).isoformat(),
            "start_post": None,
        },
        T0,
    )
    return store


def vote_posts(store: GameStore, votes: list[tuple[str, str]], markup) -> None:  # noqa: ANN001
    store.record_posts(
        [
            Post(200 + i, i, v, None, T0 + timedelta(minutes=5 * (i + 1)), markup(t), 1)
            for i, (v, t) in enumerate(votes)
        ],
        AFTER,
    )


def bold(name: str) -> str:
    return f"I have decided.<br><b>{name}</b>"


def tag(name: str) -> str:
    return f"Let's go.<br><br>[Vote: {name}]"


def blue(name: str) -> str:
    color = "purple" if name == "No Lynch" else "blue"
    return f'<span style="color: {color};" class="bbc_color">vote {name}</span>'


MH = [
    ("Ann", "village", "seer"),
    ("Ben", "village", "guardian"),
    ("Cid", "village", "hunter"),
    ("Dee", "village", "peasant"),
    ("Cup", "village", "cupid"),
    ("Wolf", "werewolves", "werewolf"),
    ("Alf", "werewolves", "alpha"),
]


def test_001_reveals_the_role_and_the_lover_follows(tmp_path: Path) -> None:
    quote("001", "Whenever someone dies, his or her role will be revealed to the public.")
    store = store_game(
        tmp_path,
        "millers-hollow",
        MH,
        day=1,
        nights={1: ["Cup: arrow Dee and Wolf", "Werewolves: eat Ann by Wolf"]},
    )
    vote_posts(
        store,
        [
            ("Ben", "Wolf"),
            ("Cid", "Wolf"),
            ("Dee", "Alf"),
            ("Cup", "Wolf"),
            ("Wolf", "Cid"),
            ("Alf", "Cid"),
        ],
        bold,
    )
    result = draft_dusk(store, AFTER)
    assert result.lynched == ("Wolf",) and result.final
    assert result.post == (
        "Day 1 is over.\n"
        "Wolf has been lynched. Wolf was the Werewolf.\n"
        "The deciding vote: post 203\n"  # Cup's, the third on Wolf: not Alf's last post
        "Dee has died as well. Dee was a Peasant.\n"
        "Night 2 begins. Send your night actions to the GM.\n"
    )
    assert [(d.player, d.how) for d in result.deaths] == [("Wolf", "lynch"), ("Dee", "lynch")]
    assert result.win is None
    stored = confirm_dusk(store, result, AFTER)
    assert [(f["player"], f["how"], f.get("source"), f["at_post"]) for f in stored] == [
        ("Wolf", "lynch", None, 205),
        ("Dee", "other", "engine", 205),
    ]
    # The count sees both deaths from the deciding post on.
    from assistant.monitor import load_game

    game = load_game(store)
    assert not game.is_alive("Dee", post_id=206) and game.is_alive("Dee", post_id=205)


def test_001_a_lynched_hunter_must_name_a_target(tmp_path: Path) -> None:
    quote("001", "When the hunter dies (due to whatever reason), the hunter chooses another player")
    store = store_game(
        tmp_path, "millers-hollow", MH, day=1, nights={1: ["Werewolves: eat Ann by Wolf"]}
    )
    vote_posts(store, [("Wolf", "Cid"), ("Alf", "Cid"), ("Ben", "Cid"), ("Cid", "Wolf")], bold)
    result = draft_dusk(store, AFTER)
    assert result.lynched == ("Cid",)
    assert result.post.startswith("Day 1 is over.\nCid has been lynched. Cid was the Hunter.\n")
    assert result.notes == (
        "Cid (Hunter) died and may take someone with them: ask for the choice and enter it "
        'as an order ("Cid: shoot NAME")',
    )
    # Werewolves 2, villagers 3 (Ben, Dee, Cup): nobody has won at dusk.
    assert result.win is None


CM = [
    ("Gus", "town", None),
    ("Hal", "town", None),
    ("Ivy", "town", "investigator"),
    ("Carol", "mafia", "godfather"),
    ("Moe", "mafia", None),
]


def test_002_a_day_without_votes_lynches_at_random_without_a_reveal(tmp_path: Path) -> None:
    quote("002", "In addition, the lynched player's role and alignment will not be revealed.")
    store = store_game(tmp_path, "chat-mafia", CM, day=1, seed=41)
    vote_posts(store, [], tag)
    result = draft_dusk(store, AFTER)
    # The draw is written out: a stored game replays it, so a change to the draw must fail here.
    assert result.lynched == ("Gus",)
    assert result.tally.outcome.reason == (
        "no votes: all 5 living players are tied at 0; drawn at random: Gus (seed '41/day 1'); "
        "the role is not revealed"
    )
    assert draw(["Moe", "Carol", "Ivy", "Hal", "Gus"], "41/day 1") == "Gus"
    assert result.post.startswith(
        "Day 1 is over.\nGus has been lynched. Their role and alignment are not revealed.\n"
    )
    assert all(r.role is None and r.side is None for r in result.reveals)


def test_002_lynch_reveals_role_and_alignment_and_the_dusk_win(tmp_path: Path) -> None:
    quote(
        "002", "If a player is lynched, their alignment and role will be revealed to all players."
    )
    store = store_game(tmp_path, "chat-mafia", CM, day=2, nights={1: ["Mafia: kill Ivy"]})
    vote_posts(store, [("Gus", "Carol"), ("Hal", "Carol"), ("Moe", "Gus")], tag)
    result = draft_dusk(store, AFTER)
    assert result.post == (
        "Day 2 is over.\n"
        "Carol has been lynched. Carol was the Godfather (Mafia).\n"
        "The deciding vote: post 201\n"  # Hal's, the second on Carol: not Moe's on Gus
        "Night 2 begins. Send your night actions to the GM.\n"
    )


TF = [(f"town{i}", "town", None) for i in range(6)] + [
    ("mafia0", "mafia", None),
    ("mafia1", "mafia", None),
    ("wolves0", "wolves", None),
    ("wolves1", "wolves", None),
]


def test_003_up_to_three_lynches_with_role_and_alignment(tmp_path: Path) -> None:
    quote("003", "It is possible for there to be as many as three (3) lynches in any given Day")
    quote(
        "003",
        "Death reveals (including for lynch and Night/Day kill victims) will include the "
        "role name and alignment of the player.",
    )
    store = store_game(
        tmp_path,
        "three-factions",
        TF,
        day=2,
        nights={1: ["Mafia: kill town4", "Wolves: kill town5"]},
    )
    store.add_input("lynches", {"day": 2, "available": 3}, T0)  # the GM's word wins
    votes = [
        ("town0", "mafia0"),
        ("town1", "mafia0"),
        ("town2", "mafia0"),
        ("town3", "mafia0"),
        ("mafia0", "wolves0"),
        ("mafia1", "wolves0"),
        ("wolves1", "wolves0"),
        ("wolves0", "town3"),
    ]
    vote_posts(store, votes, blue)
    result = draft_dusk(store, AFTER)
    assert result.lynched == ("mafia0", "wolves0", "town3")
    assert result.post == (
        "Day 2 is over.\n"
        "mafia0 has been lynched. mafia0 was Vanilla (Mafia).\n"
        "wolves0 has been lynched. wolves0 was Vanilla (Wolves).\n"
        "town3 has been lynched. town3 was Vanilla (Town).\n"
        "The deciding vote for mafia0: post 203\n"
        "The deciding vote for wolves0: post 206\n"
        "The deciding vote for town3: post 207\n"
        # "Orders for actions must be submitted to all three moderators" (003).
        "Night 2 begins. Send your night actions to all three moderators.\n"
    )
    quote("003", "Win conditions will be checked in the following order every Dawn and every Dusk:")
    # Left: town0-2, mafia1, wolves1: no side has won yet.
    assert result.win is None
