"""Orders name players the way the thread's real members are called (issue 14).

The realforum fixtures' member "Tom & Jerry's" holds `&`, which also separates two
targets ("Bob & Carol"): the GM types the name as the forum shows it and the order names
that one player."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import call
from realthreads import HOST, truth

from assistant.engine.orders import parse_order
from assistant.engine.rules import load_engine_rules
from assistant.engine.setup import parse_setup
from assistant.engine.state import GameState
from assistant.errors import MalformedOrderError
from assistant.rulesets import find_ruleset
from assistant.store import GameStore

TOM = "Tom & Jerry's"


def _members() -> list[str]:
    """The members who posted in the real thread, as the forum spells them (not the host)."""
    seen: list[str] = []
    for p in truth("smf21")["posts"]:
        if p["author"] != HOST and p["author"] not in seen:
            seen.append(p["author"])
    return seen


ROLES = {"Lady Grey": ("doctor", "town"), "Conia": ("redirector", "town"),
         "Kat": ("godfather", "mafia")}


def _setup_text() -> str:
    members = _members()
    assert TOM in members  # the fixture's own spelling
    lines = []
    for n in members:
        role, side = ROLES.get(n, (None, "town"))
        with_role = f', role = "{role}"' if role else ""
        lines.append(f'{{ name = "{n}", side = "{side}"{with_role} }}')
    return "seed = 1\nplayers = [\n" + ",\n".join(lines) + "\n]\n"


def _state() -> GameState:
    rules = load_engine_rules(find_ruleset("chat-mafia"))
    setup = parse_setup(_setup_text(), rules, where="test", default_seed=1)
    return GameState.from_setup(rules, setup)


@pytest.mark.parametrize(
    ("line", "targets"),
    [
        (f"Lady Grey: protect {TOM}", (TOM,)),
        (f"Mafia: kill {TOM}", (TOM,)),
        ("Lady Grey: protect tom & jerry's", (TOM,)),  # as a vote reads it: case-blind
        (f"Conia: redirect {TOM} & Kat", (TOM, "Kat")),
        (f"Conia: redirect Kat and {TOM}", ("Kat", TOM)),
        ("Conia: redirect Kat & Jd-", ("Kat", "Jd-")),  # `&` still separates two players
    ],
)
def test_an_order_names_the_player_whose_name_holds_an_ampersand(line, targets) -> None:
    order = parse_order(line, _state(), phase="night", number=1)
    assert order.targets == targets


def test_an_order_that_fits_nobody_still_says_which_name() -> None:
    with pytest.raises(MalformedOrderError, match="no player called 'Zed'"):
        parse_order("Conia: redirect Zed & Kat", _state(), phase="night", number=1)
    # "the" is a whole word of bob the builder and only letters inside ÆtherWolf's first
    # word: read as a vote reads it, bob the builder (names.py), never an ambiguity.
    order = parse_order("Conia: redirect Kat & the", _state(), phase="night", number=1)
    assert order.targets == ("Kat", "bob the builder")


def test_the_order_command_stores_it(tmp_path: Path, capsys) -> None:
    (tmp_path / "setup.toml").write_text(_setup_text(), encoding="utf-8")
    code, _, err = call(capsys, tmp_path, "roles", "g", "--file", str(tmp_path / "setup.toml"),
                        "--ruleset", "chat-mafia")
    assert code == 0, err
    code, out, err = call(capsys, tmp_path, "order", "g", f"Lady Grey: protect {TOM}")
    assert (code, err) == (0, ""), err
    with GameStore.open(tmp_path, "g") as store:
        orders = [i for i in store.inputs() if i["kind"] == "order"]
    assert [o["data"]["targets"] for o in orders] == [[TOM]]


COLON = "Re: Zero"
"""A member name with a colon, which a players file and a setup accept like any other."""
COLON_SETUP = f"""seed = 2
players = [
  {{ name = "{COLON}", role = "doctor" }}, {{ name = "Bob", role = "investigator" }},
  {{ name = "Carol", role = "godfather" }}, {{ name = "x:y", side = "town" }},
  {{ name = "Eve", side = "town" }},
]
"""


def _colon_state() -> GameState:
    rules = load_engine_rules(find_ruleset("chat-mafia"))
    return GameState.from_setup(rules, parse_setup(COLON_SETUP, rules, where="test",
                                                    default_seed=2))


@pytest.mark.parametrize(
    ("line", "actor", "targets"),
    [
        (f"{COLON}: protect Eve", COLON, ("Eve",)),  # as written
        (f'"{COLON}": protect Eve', COLON, ("Eve",)),  # quoted
        (f"\u201c{COLON}\u201d: protect Eve", COLON, ("Eve",)),  # curly quotes
        (f"'{COLON}' : protect Eve", COLON, ("Eve",)),
        ("re: zero: protect Eve", COLON, ("Eve",)),  # case-blind, as a vote reads it
        (f"{COLON}: protect x:y", COLON, ("x:y",)),  # a target with one too
        ("x:y: check Carol", None, None),  # a vanilla: no ability, said by name
        (f"Bob: check {COLON}", "Bob", (COLON,)),
        (f"Mafia: kill {COLON} by Carol", "Carol", (COLON,)),
    ],
)
def test_an_order_names_an_actor_whose_name_holds_a_colon(line, actor, targets) -> None:
    """Before: the actor ended at the first colon ("Re"), so "Re: Zero: protect Eve" was
    "no player called 'Re'" and the doctor could not act."""
    if actor is None:
        with pytest.raises(MalformedOrderError, match="x:y .*has no ability 'check'"):
            parse_order(line, _colon_state(), phase="night", number=1)
        return
    order = parse_order(line, _colon_state(), phase="night", number=1)
    assert (order.actor, order.targets) == (actor, targets)


def test_the_actor_whose_name_holds_a_colon_acts(tmp_path: Path, capsys) -> None:
    """Through the command line, as the GM enters a night: the doctor "Re: Zero" protects
    Eve from the mafia's kill (nobody dies), and "Re: Zero: none" takes the order back."""
    (tmp_path / "names.txt").write_text(f"{COLON} | Rem\nBob\nCarol\nx:y\nEve\n",
                                        encoding="utf-8")
    from assistant.names import parse_players_file

    assert [s.name for s in parse_players_file((tmp_path / "names.txt").read_text())] == [
        COLON, "Bob", "Carol", "x:y", "Eve"]
    (tmp_path / "setup.toml").write_text(COLON_SETUP, encoding="utf-8")
    code, _, err = call(capsys, tmp_path, "roles", "g", "--file", str(tmp_path / "setup.toml"),
                        "--ruleset", "chat-mafia")
    assert code == 0, err
    for line in (f"{COLON}: protect Eve", "Mafia: kill Eve"):
        code, out, err = call(capsys, tmp_path, "order", "g", line)
        assert (code, err) == (0, ""), err
    code, out, err = call(capsys, tmp_path, "resolve", "g", "--night", "1", "--dry-run")
    assert code == 0, err
    assert out.splitlines()[1:] == [
        f"[protections] {COLON}: protect Eve: protects Eve (against all)",
        f"[nightkills] Carol (mafia): kill Eve: fails (Eve is protected by {COLON})",
        "deaths: none",
    ]
    code, out, err = call(capsys, tmp_path, "order", "g", f"{COLON}: none")
    assert code == 0, err
    code, out, err = call(capsys, tmp_path, "resolve", "g", "--night", "1", "--dry-run")
    assert "deaths: Eve (nightkill)" in out.splitlines(), out


SIDE_NAMED = """seed = 2
players = [
  { name = "Mafia", role = "vigilante" }, { name = "Bob", role = "investigator" },
  { name = "Carol", role = "godfather" }, { name = "Town", role = "investigator" },
  { name = "Eve", side = "town" },
]
"""
"""Members called like a side: a players file accepts "Mafia" and "Town" like any name."""


@pytest.mark.parametrize(
    ("line", "actor", "side"),
    [
        ('"Mafia": kill Eve', "Mafia", None),  # quoted: the member, the vigilante's kill
        ("\u201cMafia\u201d: shoot Eve", "Mafia", None),
        ("Mafia: kill Eve", "Carol", "mafia"),  # as written: the side, as it always read
        ("Mafia: kill Eve by Carol", "Carol", "mafia"),
        ("Mafia: shoot Eve", "Mafia", None),  # the side has no 'shoot': the member
        ("Town: check Eve", "Town", None),  # the town side has no ability: the member
        ('"Town": check Eve', "Town", None),
    ],
)
def test_an_order_names_a_member_called_like_a_side(line, actor, side) -> None:
    """Before: "Mafia" and "Town" always named the side, so '"Mafia": kill Eve' was the
    mafia's kill and 'Town: check Eve' was "the Town have no ability 'check'"."""
    rules = load_engine_rules(find_ruleset("chat-mafia"))
    state = GameState.from_setup(rules, parse_setup(SIDE_NAMED, rules, where="test",
                                                    default_seed=2))
    order = parse_order(line, state, phase="night", number=1)
    assert (order.actor, order.side) == (actor, side)


def test_a_member_called_like_a_side_takes_back_their_own_order(tmp_path: Path, capsys) -> None:
    """'"Mafia": none' withdraws the member's shot and leaves the mafia's kill standing;
    'Mafia: none' (as written) is the side's, as before."""
    (tmp_path / "setup.toml").write_text(SIDE_NAMED, encoding="utf-8")
    code, _, err = call(capsys, tmp_path, "roles", "g", "--file", str(tmp_path / "setup.toml"),
                        "--ruleset", "chat-mafia")
    assert code == 0, err
    for line in ('"Mafia": shoot Bob', "Mafia: kill Eve", '"Mafia": none'):
        code, _, err = call(capsys, tmp_path, "order", "g", line)
        assert (code, err) == (0, ""), (line, err)
    code, out, err = call(capsys, tmp_path, "resolve", "g", "--night", "1", "--dry-run")
    assert code == 0, err
    assert "deaths: Eve (nightkill)" in out.splitlines(), out
    code, _, err = call(capsys, tmp_path, "order", "g", "Mafia: none")
    assert code == 0, err
    code, out, err = call(capsys, tmp_path, "resolve", "g", "--night", "1", "--dry-run")
    assert "deaths: none" in out.splitlines(), out


BY_SETUP = """seed = 2
players = [
  { name = "Stand by Me", role = "doctor" }, { name = "Pass Me By", role = "godfather" },
  { name = "Carol", side = "mafia" }, { name = "Eve", side = "town" },
]
"""
"""Names holding "by", which also introduces who carries out a side's kill."""


@pytest.mark.parametrize(
    ("line", "actor", "targets"),
    [
        ("Mafia: kill Stand by Me by Carol", "Carol", ("Stand by Me",)),
        ("Mafia: kill Stand by Me", "Pass Me By", ("Stand by Me",)),  # the default performer
        ("Mafia: kill Eve by Pass Me By", "Pass Me By", ("Eve",)),
        ("Mafia: kill Eve by Carol", "Carol", ("Eve",)),
        ("Mafia: kill Eve by car", "Carol", ("Eve",)),  # a performer read loosely, as before
        ("Stand by Me: protect Eve", "Stand by Me", ("Eve",)),
    ],
)
def test_a_name_holding_by_is_a_target_or_the_performer_as_written(line, actor, targets) -> None:
    """Before: the first "by" began the performer: 'kill Stand by Me by Carol' looked for a
    player called 'Me by Carol', and 'kill Stand by Me' gave the mafia's kill to the town
    doctor (read loosely from 'Me')."""
    rules = load_engine_rules(find_ruleset("chat-mafia"))
    state = GameState.from_setup(rules, parse_setup(BY_SETUP, rules, where="test",
                                                    default_seed=2))
    order = parse_order(line, state, phase="night", number=1)
    assert (order.actor, order.targets) == (actor, targets)
