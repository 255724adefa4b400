"""Role PMs (issue 23): one per player from the setup, with the role's text in the seed's
own words, the side, the orders it may send, its fellows and its win condition; the
template a GM can change per data directory or per game. Each ruleset's test quotes the
sentence of its seed that the role PM must carry."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import call
from conftest import SEEDS

from assistant.engine.drafts import role_pm, role_pms
from assistant.engine.rules import load_engine_rules
from assistant.engine.setup import PlayerSetup, Setup
from assistant.engine.state import GameState
from assistant.rulesets import find_ruleset


def seed_text(prefix: str) -> str:
    return " ".join(next(SEEDS.glob(f"{prefix}_*.txt")).read_text(encoding="utf-8").split())


def quote(prefix: str, sentence: str) -> str:
    """The seed's own sentence (checked to be in it), as the PM must carry it."""
    assert " ".join(sentence.split()) in seed_text(prefix), sentence
    return sentence


def state(ruleset: str, *players: tuple[str, str, str | None], extra: dict | None = None
          ) -> GameState:
    rules = load_engine_rules(find_ruleset(ruleset))
    slots = tuple(PlayerSetup(n, s, r) for n, s, r in players)
    return GameState.from_setup(rules, Setup(slots, 7, extra or {}))


def one_each(pms: dict[str, str], st: GameState) -> None:
    """Each player of the setup gets exactly one PM, addressed to them."""
    assert list(pms) == list(st.players)
    for name, text in pms.items():
        assert text.startswith(f"To: {name}\nSubject: "), text
        assert text.count("To: ") == 1


def role_line(pm: str) -> str:
    return next(ln for ln in pm.splitlines() if ln.startswith("Your role: "))


def test_000_paranormal_role_list():
    st = state("paranormal", ("Ag", "town", "agent"), ("Dirk", "doppelgangers", "doppelganger"),
               ("Ava", "doppelgangers", "advanced-doppelganger"),
               ("Rog", "doppelgangers", "rogue-doppelganger"), ("Xen", "xenozoologist",
                                                                 "xenozoologist"))
    pms = role_pms(st, "Paranormal")
    one_each(pms, st)
    assert role_line(pms["Ag"]) == "Your role: [b]Agent[/b]"
    assert quote("000", "Can investigate one person per night to determine their Race.") \
        in pms["Ag"]
    assert "- investigate PLAYER" in pms["Ag"]
    # "The Doppelgangers each get 1 Night Kill as a group": the team knows itself, but the
    # Rogue "does not know who the dopp team are in either case" and is not among them.
    quote("000", "does not know who the dopp team are in either case")
    assert "Your fellow Doppelgangers: Ava." in pms["Dirk"]
    assert "Your fellow Doppelgangers: Dirk." in pms["Ava"]
    assert "fellow" not in pms["Rog"]
    assert "- kill PLAYER (once per game)" in pms["Rog"]
    # An alien's own "Victory:" line, not its side's.
    assert pms["Xen"].rstrip().endswith("You win when: " + quote(
        "000", "Captures 1 normal human, 1 psychic human, 1 doppelganger, and 1 alien"))


def test_001_millers_hollow_roles():
    st = state("millers-hollow", ("Ann", "village", "seer"), ("Sol", "village", "soulmate"),
               ("Sue", "village", "soulmate"), ("Wolf", "werewolves", "werewolf"),
               ("Wulf", "werewolves", "alpha"), ("Pea", "village", "peasant"))
    pms = role_pms(st, "Miller's Hollow")
    one_each(pms, st)
    assert role_line(pms["Ann"]) == "Your role: [b]Seer[/b]"
    assert quote("001", "Every night, the seer chooses one player other than himself (sent in "
                        "by PM), and in the morning, the seer will learn what role the chosen "
                        "player has (unless the seer dies).") in pms["Ann"]
    # "Werewolves know who their fellow werewolves are at the start of the game."
    quote("001", "Werewolves know who their fellow werewolves are at the start of the game.")
    assert "Your fellow Werewolves: Wulf." in pms["Wolf"]
    assert "Your fellow Werewolves: Wolf." in pms["Wulf"]
    assert "fellow Villagers" not in pms["Ann"]
    # "they are also informed about which player is the other soulmate"
    quote("001", "they are also informed about which player is the other soulmate")
    assert "Soulmate: Sue." in pms["Sol"] and "Soulmate: Sol." in pms["Sue"]
    assert "You win when: all the werewolves have been killed" in pms["Pea"]


def test_002_chat_mafia_roles_and_hidden_roles():
    st = state("chat-mafia", ("Kid", "town", "child"), ("Imi", "town", "imaginary-friend"),
               ("Tra", "town", "traitor"), ("God", "mafia", "godfather"), ("Mo", "mafia", None),
               ("Sb", "secret-boss", None))
    pms = role_pms(st, "Turtle's Chat Mafia")
    one_each(pms, st)
    assert quote("002", "The Child knows the identity of the Imaginary Friend, if it exists.") \
        in pms["Kid"]
    assert "Imaginary Friend: Imi." in pms["Kid"]
    # "The Traitor does not know of his role until it comes into play."
    quote("002", "The Traitor does not know of his role until it comes into play.")
    assert role_line(pms["Tra"]) == "Your role: [b]Vanilla[/b]"
    assert "Traitor" not in pms["Tra"]
    # "all Mafia players know and may whisper all other Mafia players"; the alignment's text.
    assert "Your fellow Mafia: Mo." in pms["God"] and "Your fellow Mafia: God." in pms["Mo"]
    assert quote("002", "The Mafia wins when nothing can stop them from being the sole living "
                        "faction.") in pms["Mo"]
    assert "- kill PLAYER" in pms["Mo"]
    assert quote("002", "The Secret Boss wins when he is the sole living player.") in pms["Sb"]


def test_003_three_factions_sides():
    # Roles are closed in 003; the PM gives the side, its team and its win condition.
    st = state("three-factions", ("Ada", "town", None), ("Mo", "mafia", None),
               ("Max", "mafia", None), ("Wes", "wolves", None))
    pms = role_pms(st, "Three Factions")
    one_each(pms, st)
    quote("003", "Town Wins! if all 14 Scum players are dead.")
    assert "You win when: all 14 Scum players are dead" in pms["Ada"]
    assert "Your fellow Mafia: Max." in pms["Mo"]
    assert "fellow" not in pms["Wes"]  # the only wolf
    assert quote("003", "the total number of living Wolves is greater than or equal to 50% of "
                        "the total population AND greater than the number of living Mafia") \
        in pms["Wes"]


def test_004_dctp_cards():
    st = state("dctp-mini", ("Ranp", "town", "ran"), ("Gino", "black-org", "gin"),
               ("Vod", "black-org", "vodka"), ("Civ", "town", None))
    pms = role_pms(st, "DCTP")
    one_each(pms, st)
    # The card as the seed prints it, line for line; a character's name, no article.
    assert role_line(pms["Ranp"]) == "Your role: [b]Ran, Protector[/b]"
    card = ["Night/Day action: Protect", "Interrogation: Not BO", "Scent: No",
            "Disguise: Yes", "Items: School book, Panties", "Observe: Teenager"]
    for line in card:
        quote("004", line)
    assert "\n".join(card) in pms["Ranp"]
    assert quote("004", "Note: If Ran successfully protects, she will become injured.") \
        in pms["Ranp"]
    assert "Your fellow Black Org: Vod." in pms["Gino"]
    assert role_line(pms["Civ"]) == "Your role: [b]Civilian[/b]"


def test_items_the_setup_gives_are_listed_with_their_text():
    st = state("paranormal", ("Sur", "survivor", "survivor"))
    st.players["Sur"].items.append("personal-shield")
    pm = role_pm(st, "Sur")
    assert [i.title for i in pm.items] == ["Personal Shield"]
    assert pm.items[0].text


SETUP = """
[[players]]
name = "Ann"
role = "seer"
[[players]]
name = "Wolf"
role = "werewolf"
"""


def test_draft_role_pms_and_the_gms_own_template(tmp_path: Path, capsys: pytest.CaptureFixture):
    (tmp_path / "setup.toml").write_text(SETUP, encoding="utf-8")
    code, _out, err = call(capsys, tmp_path, "roles", "mh", "--file",
                           str(tmp_path / "setup.toml"), "--ruleset", "millers-hollow")
    assert code == 0, err
    code, out, err = call(capsys, tmp_path, "draft", "role-pms", "mh")
    assert code == 0, err
    assert out.count("To: ") == 2 and "Your role: [b]Seer[/b]" in out
    # The data directory's copy is used for every game, the game's own before it.
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "pm_role.j2").write_text(
        "To: {{ pm.player|verbatim }}\nSubject: {{ title }}: role\n\nYou are the {{ pm.role }}.\n",
        encoding="utf-8")
    code, out, err = call(capsys, tmp_path, "draft", "role-pms", "mh")
    assert "You are the Seer." in out and "Your side" not in out
    (tmp_path / "templates" / "mh").mkdir()
    (tmp_path / "templates" / "mh" / "pm_role.j2").write_text(
        "To: {{ pm.player|verbatim }}\n\n{{ pm.side }} {{ pm.nonesuch }}\n", encoding="utf-8")
    code, out, err = call(capsys, tmp_path, "draft", "role-pms", "mh")
    assert code != 0 and "Traceback" not in err
    assert "pm_role.j2" in err and "nonesuch" in err, err
