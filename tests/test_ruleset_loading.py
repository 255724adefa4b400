"""A ruleset file read once into typed sections: a GM's mistakes in it are all reported at
once, naming the file, the section and what is known; a ruleset given by a relative path
is kept by its absolute path, so other directories and the daemon find it."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import pytest
from cli_support import run_cli

from assistant import RULESETS_DIR
from assistant.checks import PostingRules
from assistant.count.outcome import TallyRules
from assistant.count.votes import VoteRules
from assistant.engine.rules import EngineRules
from assistant.errors import RulesetError
from assistant.phases import PhaseRules
from assistant.rulesets import SECTIONS, find_ruleset, load_ruleset

THREAD = "http://127.0.0.1:8033/viewtopic.php?t=3"
NOW = "2026-11-22T11:00:00+00:00"


@pytest.fixture
def cli(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("ASSISTANT_NOW", NOW)
    monkeypatch.setenv("ASSISTANT_DATA_DIR", str(tmp_path / "data"))
    return partial(run_cli, capsys)


def house(tmp_path: Path, *changes: tuple[str, str], name: str = "chat-mafia") -> Path:
    """A copy of a bundled ruleset with lines changed, as a GM edits one."""
    text = (RULESETS_DIR / f"{name}.toml").read_text(encoding="utf-8")
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8")
    return path


def players(tmp_path: Path) -> Path:
    path = tmp_path / "players.txt"
    path.write_text("Ann\nBob\nCat\nDan\n", encoding="utf-8")
    return path


def test_a_loaded_ruleset_holds_each_section_typed_once() -> None:
    rs = find_ruleset("chat-mafia")
    assert isinstance(rs.votes, VoteRules) and rs.votes.forms == ("tag",)
    assert isinstance(rs.tally, TallyRules) and rs.tally.tie == "random"
    assert isinstance(rs.phases, PhaseRules) and rs.phases.day_length is not None
    assert isinstance(rs.posting, PostingRules) and rs.posting.min_posts_per_day == 1
    assert isinstance(rs.engine, EngineRules) and "monk" in rs.engine.roles
    # The section readers hand back the section read at load, not a new reading.
    assert VoteRules.from_ruleset(rs) is rs.votes and TallyRules.from_ruleset(rs) is rs.tally


def test_a_misspelt_section_is_an_error_naming_the_file_and_the_known_sections(tmp_path) -> None:
    """Issue 14: "A misspelt ruleset section (`[votez]`) is silently ignored and the count
    then uses defaults: unknown sections and keys are errors naming the file, the section
    and the known ones." """
    path = house(tmp_path, ("\n[votes]\n", "\n[votez]\n"))
    with pytest.raises(RulesetError) as e:
        load_ruleset(path)
    message = str(e.value)
    assert message.startswith(f"{path}: [votez] is not a section the assistant reads")
    assert all(f"[{s}]" in message for s in SECTIONS)


def test_every_problem_of_a_ruleset_is_reported_at_once(cli, tmp_path) -> None:
    path = house(
        tmp_path,
        ("\n[votes]\n", "\n[votez]\n"),
        ('tie = "random"', 'tie = "random"\nmajorty = 3'),
        ('day_length = "20m"', "day_length = 20"),
        ("min_posts_per_day = 1 ", "min_posts_per_day = -1 "),
        ('dead_post = "violation"', "dead_post = 5"),
        ("title = \"Ghost\"\n", "title = \"Ghost\"\nhiden = true\n"),
        ('schema_version = 1', 'schema_version = 1\nnmae = "x"'),
    )
    code, out, err = cli("game", "new", "g", "--thread", THREAD, "--ruleset", str(path),
                         "--players", str(players(tmp_path)))
    assert code == 1 and err.count("\n") == 1 and "Traceback" not in err, (out, err)
    assert err.startswith(f"error: {path}: 7 problems: "), err
    for says in (
        "[votez] is not a section the assistant reads",
        "unknown key 'nmae' at the top of the file",
        "[tally] has unknown keys ['majorty']",
        "[phases] day_length = 20: expected text",
        "[posting] min_posts_per_day = -1: each value must be 0 or more",
        "[posting] dead_post = 5: expected text",
        "[roles.ghost] has unknown keys ['hiden']",
    ):
        assert says in err, (says, err)
    assert err.count(str(path)) == 1  # the file named once, then each problem
    assert not (tmp_path / "data" / "games" / "g.json").exists()


def test_a_ruleset_given_by_a_relative_path_works_from_any_directory(
    cli, tmp_path, monkeypatch
) -> None:
    """Issue 14: "A ruleset given by a relative path is stored as given, so every command
    run from another directory, and the daemon, fail on it: store the resolved path." """
    here, elsewhere = tmp_path / "here", tmp_path / "elsewhere"
    here.mkdir()
    elsewhere.mkdir()
    path = house(here, ('day_length = "20m"', 'day_length = "30m"'))
    monkeypatch.chdir(here)
    code, out, err = cli("game", "new", "g", "--thread", THREAD, "--ruleset", "house.toml",
                         "--players", str(players(tmp_path)))
    assert code == 0, err
    config = json.loads((tmp_path / "data" / "games" / "g.json").read_text(encoding="utf-8"))
    assert str(path.resolve()) in json.dumps(config)
    monkeypatch.chdir(elsewhere)
    code, out, err = cli("phase", "g", "day", "1", "--json")
    assert code == 0, err
    phase = json.loads(out)
    assert phase["deadline"] == "2026-11-22T11:30:00+00:00", phase  # the house's 30 minutes
