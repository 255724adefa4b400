"""Hand-edited rulesets, setups and options a GM gets wrong: every one is refused up front
with one line naming the file (or option), the key and what is expected, exit status 1,
never "internal error"."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest
from cli_support import run_cli

from assistant import RULESETS_DIR
from assistant.errors import RulesetError
from assistant.rulesets import find_ruleset

THREAD = "http://127.0.0.1:8033/viewtopic.php?t=3"
NOW = "2026-11-22T11:00:00+00:00"


@pytest.fixture
def cli(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("ASSISTANT_NOW", NOW)
    monkeypatch.setenv("ASSISTANT_DATA_DIR", str(tmp_path / "data"))
    return partial(run_cli, capsys)


def players(tmp_path: Path) -> Path:
    path = tmp_path / "players.txt"
    path.write_text("Ann\nBob\nCat\nDan\n", encoding="utf-8")
    return path


def edited(tmp_path: Path, name: str, old: str, new: str) -> Path:
    """A copy of a bundled ruleset with one line changed, as a GM would change it."""
    text = (RULESETS_DIR / f"{name}.toml").read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path = tmp_path / f"house-{name}.toml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def one_line_error(code: int, out: str, err: str) -> str:
    assert code == 1, (out, err)
    assert err.count("\n") == 1 and err.startswith("error: "), err
    assert "internal error" not in err and "Traceback" not in err
    return err.strip()


BROKEN = [
    # (ruleset, the line as shipped, the line as the GM wrote it, what the error must say)
    ("three-factions", "thresholds = [0.34, 0.10]", "thresholds = 0.34",
     "[tally] thresholds = 0.34: expected a list of numbers"),
    ("three-factions", "thresholds = [0.34, 0.10]", 'thresholds = [0.34, "a"]',
     '[tally] thresholds[1] = "a": expected a number'),
    ("three-factions", "thresholds = [0.34, 0.10]", "thresholds = [0.34, 34]",
     "[tally] thresholds = [0.34, 34.0]: each value must be from 0 to 1"),
    ("paranormal", 'forms = ["color"]\nvote_colors = ["red"]',
     'forms = ["color"]\nvote_colors = [5]',
     "[votes] vote_colors[0] = 5: expected text"),
    ("chat-mafia", "replace = true", 'replace = "yes"',
     '[votes] replace = "yes": expected true or false'),
    ("chat-mafia", 'forms = ["tag"]', 'forms = "color"',
     '[votes] forms = "color": expected a list of texts'),
    ("chat-mafia", 'forms = ["tag"]', 'forms = ["tags"]',
     "[votes] forms = [\"tags\"]: ['tags'] unknown"),
    ("chat-mafia", 'tie = "random"', 'tie = "coin"',
     '[tally] tie = "coin": use one of'),
    ("chat-mafia", 'warnings = ["5m", "1m"]', 'warnings = "24h"',
     '[phases] warnings = "24h": expected a list of texts'),
    ("chat-mafia", 'tally_interval = "5m"', 'tally_interval = "0m"',
     "[phases] tally_interval = 0 s: write 1 min or more"),
    ("chat-mafia", 'day_length = "20m"', 'day_length = "99999999999h"',
     "[phases] day_length: '99999999999h' is longer than 366 d"),
    ("chat-mafia", 'day_length = "20m"', "day_length = 20",
     "[phases] day_length = 20: expected text"),
    ("chat-mafia", "min_posts_per_day = 1", "min_posts_per_day = -1",
     "[posting] min_posts_per_day = -1: each value must be 0 or more"),
    ("chat-mafia", 'tiers = ["hastened", ', 'tiers = [5, ',
     "[night] tiers[0] = 5: expected text"),
    ("chat-mafia", 'title = "Monk"', "title = 5", "[roles.monk] title = 5: expected text"),
    ("chat-mafia", "title = \"Ghost\"\n", "title = \"Ghost\"\nhiden = true\n",
     "[roles.ghost] has unknown keys ['hiden']"),
    ("chat-mafia", 'abilities.hamedo = { kind = "hamedo", tier = "hamedo", targets = 0, uses = 1 }',
     'abilities.hamedo = { kind = "hamedo", tier = "hamedo", targets = 0, uses = "once" }',
     '[roles.monk].abilities.hamedo uses = "once": expected a whole number'),
    ("chat-mafia", 'winner = "secret-boss"', 'winner = "nobody"',
     "[win] checks #2 names the side 'nobody', not in [night.sides]"),
    ("chat-mafia", 'aliases = ["002", "turtle"]', 'aliases = "002"',
     'aliases = "002": expected a list of texts'),
]


@pytest.mark.parametrize(("name", "old", "new", "says"), BROKEN, ids=[b[3] for b in BROKEN])
def test_game_new_refuses_a_broken_ruleset_in_one_line(
    cli, tmp_path, name, old, new, says
) -> None:
    path = edited(tmp_path, name, old, new)
    code, out, err = cli("game", "new", "g", "--thread", THREAD, "--ruleset", str(path),
                         "--players", str(players(tmp_path)))
    line = one_line_error(code, out, err)
    assert line.startswith(f"error: {path}"), line
    assert says in line, line
    assert not (tmp_path / "data" / "games" / "g.json").exists()
    with pytest.raises(RulesetError, match=r"^" + str(path)):
        find_ruleset(str(path))


def test_the_bundled_rulesets_all_load() -> None:
    for path in sorted(RULESETS_DIR.glob("*.toml")):
        assert find_ruleset(str(path)).path == path


def test_a_ruleset_that_is_not_utf8_is_one_line(cli, tmp_path) -> None:
    path = tmp_path / "latin.toml"
    path.write_bytes('schema_version = 1\nname = "x"\ntitle = "Caf\u00e9"\n'.encode("latin-1"))
    code, out, err = cli("game", "new", "g", "--thread", THREAD, "--ruleset", str(path),
                         "--players", str(players(tmp_path)))
    assert "the ruleset file is not UTF-8 text" in one_line_error(code, out, err)


@pytest.fixture
def game(cli, tmp_path):
    """A game under the PM-vote ruleset (004), so `vote` takes votes."""
    code, _, err = cli("game", "new", "g", "--thread", THREAD, "--ruleset", "dctp-mini",
                       "--players", str(players(tmp_path)))
    assert code == 0, err
    code, _, err = cli("vote", "g", "Ann", "Bob")  # a count needs something to count
    assert code == 0, err
    return "g"


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("phase", "g", "day", "1", "--ends", "+999999999h"),
         "--ends: '+999999999h' is longer than 366 d"),
        (("phase", "g", "day", "1", "--ends", "9999-12-31T23:59+05:00"),
         "--ends: '9999-12-31T23:59+05:00' is more than 366 d ahead"),
        (("phase", "g", "day", "1", "--starts", "0001-01-01T00:00+05:00"),
         "--starts: '0001-01-01T00:00+05:00' is not a time this assistant can use"),
        (("vote", "g", "Ann", "Bob", "--at", "+99999999999h"),
         "--at: '+99999999999h' is longer than 366 d"),
        (("count", "g", "--at", "+99999999999999999999999h"), "is longer than 366 d"),
        (("kill", "g", "Ann", "--at", "9999-12-31T23:59-05:00"),
         "is not a time this assistant can use"),
        (("game", "modifier", "g", "Ann", "--weight", "-2"),
         "--weight -2: a vote is worth 0 or more"),
    ],
)
def test_out_of_range_times_and_weights_are_one_line(cli, game, args, says) -> None:
    line = one_line_error(*cli(*args))
    assert says in line, line


def test_a_setup_with_a_list_for_a_side_is_one_line(cli, tmp_path) -> None:
    setup = tmp_path / "setup.toml"
    for players_toml, says in (
        ('{ name = "Ann", side = ["x"] }', 'player #1 side = ["x"]: expected text'),
        ('{ name = "Ann", role = 3 }', "player #1 role = 3: expected text"),
        ('{ name = 7, side = "town" }', "player #1 name = 7: expected text"),
        ('{ name = "Ann", side = "town", items = "gun" }',
         'player #1 items = "gun": expected a list of texts'),
    ):
        setup.write_text(f"seed = 1\nplayers = [{players_toml}]\n", encoding="utf-8")
        line = one_line_error(
            *cli("roles", "h", "--file", str(setup), "--ruleset", "chat-mafia")
        )
        assert line.startswith(f"error: {setup}: ") and says in line, line
    setup.write_text('seed = "lucky"\nplayers = [{ name = "Ann", side = "town" }]\n',
                     encoding="utf-8")
    line = one_line_error(*cli("roles", "h", "--file", str(setup), "--ruleset", "chat-mafia"))
    assert 'seed = "lucky": expected a whole number' in line


def test_a_house_rule_of_the_wrong_type_is_one_line(cli, game) -> None:
    line = one_line_error(*cli("alerts", "g", "--rule", "min_posts_per_day=often"))
    assert 'min_posts_per_day = "often": expected a whole number' in line
    code, _, err = cli("alerts", "g", "--rule", "voting_mandatory=true")
    assert code == 0, err
