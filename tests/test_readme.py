"""The README and the guide are the user's manual: their commands must exist with the
options they show, every command must be shown at work, and the README's set-up must be
CI's."""

from __future__ import annotations

import click
from conftest import ROOT
from docs_support import all_examples, blocks

from assistant.cli import cli


def _resolve(words: tuple[str, ...]) -> click.Command:
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
    setup = [b.text.strip() for b in blocks(ROOT / "README.md")
             if b.lang == "sh" and "pytest" in b.text]
    assert len(setup) == 1
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert setup[0] in ci


def test_every_documented_command_exists_with_its_options() -> None:
    examples = all_examples()
    assert len(examples) > 20
    for example in examples:
        command = _resolve(example.words)
        assert command is not cli, f"{example.where}: `assistant {example.text}` is not a command"
        known = {opt for p in command.params for opt in getattr(p, "opts", [])}
        known |= {"--data-dir", "--json", "--help"}
        for word in example.words:
            if word.startswith("--"):
                assert word in known, (
                    f"{example.where}: `assistant {example.text}`: no option {word}"
                )


def test_every_command_is_shown_at_work() -> None:
    """In an `sh` example of the README or the guide; the generated reference alone (its
    `text` blocks) does not count."""
    shown = {" ".join(e.words[:2]) for e in all_examples()} | {
        e.words[0] for e in all_examples() if e.words
    }

    def walk(group: click.Group, prefix: str = "") -> list[str]:
        names = []
        for name, sub in group.commands.items():
            full = f"{prefix}{name}"
            names += walk(sub, full + " ") if isinstance(sub, click.Group) else [full]
        return names

    missing = [name for name in walk(cli) if name not in shown]
    assert not missing, f"commands with no example in the README or docs/: {missing}"
