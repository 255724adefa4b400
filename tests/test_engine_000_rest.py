"""Paranormal (seed 000), the rest of issue 11: the Mind Stealer's stockpile and points, the
Replicator's and a Mad Scientist's building, the Advanced Holoform's moving hologram, the
vote a Mind Control Ray takes, and the end-of-game wins of the Xenozoologist, the Spore
Spreaders and the Mind Stealer. Each test quotes the sentence of
../shared/seeds/000_307a730cc0c91942.txt it checks (and `quote` checks it is there).
"""

from __future__ import annotations

from assistant.engine.history import apply_death
from assistant.engine.win import check_win
from tests.test_engine_000 import game, night, quote

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
