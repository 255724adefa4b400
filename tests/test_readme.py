"""The README is the user's manual: its commands must exist and its set-up must be CI's."""

from __future__ import annotations

import re
import shlex

import click
from conftest import ROOT

from assistant.cli import cli

README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```sh\n(.*?)```", README, re.S)


def _commands() -> list[list[str]]:
    """Every `assistant ...` line in the README's shell blocks, as words (comments dropped)."""
    out = []
    for block in BLOCKS:
        text = block.replace("\\\n", " ")
        for line in text.splitlines():
            line = line.split("  #")[0].strip()
            m = re.search(r"(?:^|/)assistant (.*)$", line)
            if m and not line.startswith("#"):
                out.append(shlex.split(m.group(1)))
    return out


def _resolve(words: list[str]) -> click.Command:
    command: click.Command = cli
    for word in words:
        if word.startswith("-") or not isinstance(command, click.Group):
            break
        sub = command.commands.get(word)
        if sub is None:
            break
        command = sub
    return command


def test_ci_runs_the_readme_test_command() -> None:
    setup = [b.strip() for b in BLOCKS if "pytest" in b]
    assert len(setup) == 1
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert setup[0] in ci


def test_every_readme_command_exists_with_its_options() -> None:
    commands = _commands()
    assert len(commands) > 20
    for words in commands:
        command = _resolve(words)
        assert command is not cli, f"`assistant {' '.join(words)}` is not a command"
        known = {opt for p in command.params for opt in getattr(p, "opts", [])}
        known |= {"--data-dir", "--json", "--help"}
        for word in words:
            if word.startswith("--"):
                assert word in known, f"`assistant {' '.join(words)}`: no option {word}"


def test_every_command_is_in_the_readme() -> None:
    documented = {" ".join(w[:2]) for w in _commands()} | {w[0] for w in _commands()}

    def walk(group: click.Group, prefix: str = "") -> list[str]:
        names = []
        for name, sub in group.commands.items():
            full = f"{prefix}{name}"
            names += walk(sub, full + " ") if isinstance(sub, click.Group) else [full]
        return names

    missing = [name for name in walk(cli) if name not in documented]
    assert not missing, f"commands missing from the README: {missing}"
