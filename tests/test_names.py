"""Name matching: exact, case/accent-blind, aliases, replaced players, prefix, substring,
close spelling; ambiguous and unknown names are reported with candidates."""

from __future__ import annotations

import pytest
from realthreads import PLAYERS_A, truth

from assistant.errors import ConfigError
from assistant.game import Game
from assistant.names import NameMatcher, Slot, fold, parse_players_file

THREAD_A = NameMatcher([Slot(p) for p in PLAYERS_A])


def test_fold_ignores_case_accents_and_punctuation() -> None:
    assert fold("ÆtherWolf") == fold("ætherwolf") == fold("AetherWolf") == "aetherwolf"
    assert fold("Jd-") == fold("jd") == fold("JD") == "jd"
    assert fold("Tom & Jerry's") == "tomjerrys"
    assert fold("Mr. Pickles") == fold("mr pickles")


@pytest.mark.parametrize(
    ("written", "slot", "how"),
    [
        ("Tom & Jerry's", "Tom & Jerry's", "exact"),
        ("ætherwolf", "ÆtherWolf", "ignoring case and accents"),
        ("AetherWolf", "ÆtherWolf", "ignoring case and accents"),
        ("jd", "Jd-", "ignoring case and accents"),
        ("Æther", "ÆtherWolf", "prefix"),
        ("pickles", "Mr. Pickles", "a word of Mr. Pickles"),
        ("slayer", "xX_Slayer_Xx", "a word of xX_Slayer_Xx"),
        ("Lady Gray", "Lady Grey", "close spelling (88%)"),
    ],
)
def test_thread_a_names(written: str, slot: str, how: str) -> None:
    m = THREAD_A.match(written)
    assert (m.slot, m.how) == (slot, how)


def test_unknown_and_ambiguous_are_never_attributed() -> None:
    unknown = THREAD_A.match("Mafia Goon")
    assert not unknown.ok and unknown.how == "unknown"
    assert "matches no player" in unknown.describe()
    two = NameMatcher([Slot("Kat"), Slot("Katalina")])
    assert two.match("Kat").slot == "Kat"  # an exact name wins over a prefix of another
    amb = two.match("Ka")
    assert not amb.ok and amb.candidates == ("Kat", "Katalina")
    assert amb.describe() == "'Ka' could be Kat or Katalina"


def test_common_names_from_thread_b() -> None:
    meta = truth("smf21", "b")["meta"]
    m = NameMatcher([Slot(p, tuple(meta["common_names"][p])) for p in meta["players"]])
    assert m.match("Lady G").slot == "Lady Grey"
    assert m.match("T&J").slot == "Tom & Jerry's"
    j = m.match("J")
    assert not j.ok and set(j.candidates) == {"Jd-", "Tom & Jerry's"}
    # a typo of a short common name is not guessed: "Slayr" stays unknown
    assert m.match("Slayr").how == "unknown"


def test_strict_matching_for_authors_and_bold_names() -> None:
    assert THREAD_A.match("Mr. Pickles", strict=True).slot == "Mr. Pickles"
    assert not THREAD_A.match("Pickles", strict=True).ok
    assert THREAD_A.match_leading("Jd- because he defended Conia").slot == "Jd-"
    assert THREAD_A.match_leading("pickles").slot == "Mr. Pickles"


def test_players_file_format() -> None:
    slots = parse_players_file(
        "# players\nwerewolf555 | Hiraki\n\nConia\nTom & Jerry's | Tom | T&J\n"
    )
    assert slots == [
        Slot("werewolf555", ("Hiraki",)),
        Slot("Conia"),
        Slot("Tom & Jerry's", ("Tom", "T&J")),
    ]
    m = NameMatcher(slots)
    assert m.match("hiraki").slot == "werewolf555"
    with pytest.raises(ConfigError, match="line 2: 'Conia' is already on line 1"):
        parse_players_file("Conia\nConia | C\n", source="players.txt")
    with pytest.raises(ConfigError, match="an empty name"):
        parse_players_file("Conia | \n")
    with pytest.raises(ConfigError, match="lists no players"):
        parse_players_file("# nobody\n")


def test_players_file_with_one_person_in_two_slots_and_a_shared_alias() -> None:
    # Real mafiascum slots: werewolf555 replaced Hiraki; a player who replaced out of one
    # slot and came back in another is on both lines; two slots share the nickname "Wolf".
    slots = parse_players_file(
        "werewolf555 | Hiraki | Wolf\nHiraki | Hiraki\nAntihero | Lateralus22 | Wolf\n"
    )
    assert slots[1] == Slot("Hiraki")  # the same name twice on a line is one name
    game = Game.from_parts("g", slots)
    # Hiraki's posts are the slot shown under the name; a vote naming a name that two
    # slots carry is ambiguous when cast, never given to either.
    assert game.slot_of_author("Hiraki") == "Hiraki"
    assert game.slot_of_author("werewolf555") == "werewolf555"
    m = NameMatcher(slots)
    assert m.match("Wolf").how == "ambiguous"
    assert set(m.match("Wolf").candidates) == {"werewolf555", "Antihero"}
    assert m.match("hiraki").how == "ambiguous"
    # A real contradiction, two lines shown under one name, is refused with the line.
    with pytest.raises(ConfigError, match="line 3: 'hiraki' is already on line 2"):
        parse_players_file("werewolf555 | Hiraki\nHiraki\nhiraki | x\n")
