"""docs/notifications.md is the GM's manual for `notify` and `draft prods`: every command
it shows exists with the options it gives, and it says why Apprise."""

from __future__ import annotations

import re
import shlex

import click
from conftest import ROOT

from assistant.cli import cli

PAGE = (ROOT / "docs" / "notifications.md").read_text(encoding="utf-8")


def _commands() -> list[list[str]]:
    out = []
    for block in re.findall(r"```sh\n(.*?)```", PAGE, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            line = line.split("  #")[0].strip()
            if line.startswith("assistant "):
                out.append(shlex.split(line)[1:])
    return out


def test_every_command_of_the_page_exists_with_its_options() -> None:
    commands = _commands()
    assert {" ".join(w[:2]) for w in commands} >= {"notify g1", "draft prods"}
    assert "notify g1 --test" in PAGE and "draft prods g1`" in PAGE
    for words in commands:
        command: click.Command = cli
        for word in words:
            if word.startswith("-") or not isinstance(command, click.Group):
                break
            command = command.commands.get(word) or command
        assert command is not cli, words
        known = {o for p in command.params for o in getattr(p, "opts", [])} | {"--json"}
        assert [w for w in words if w.startswith("--") and w not in known] == [], words


def test_the_page_says_why_apprise_and_how_secrets_are_kept() -> None:
    assert "## Why Apprise" in PAGE and "{env:NAME}" in PAGE
    assert "discord://1234567890/{env:DISCORD_TOKEN}" in PAGE
