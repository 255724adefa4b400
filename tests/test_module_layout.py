"""Structure the code review asked for, kept: one template environment for every draft,
and no import cycle between the scrapers package and its leaf modules."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from assistant.engine import drafts
from assistant.errors import ConfigError
from assistant.templating import environment, template

ROOT = Path(__file__).resolve().parent.parent


def test_every_draft_renders_from_one_cached_environment() -> None:
    env = environment()
    assert environment() is env  # built once, not per call
    assert (env.trim_blocks, env.lstrip_blocks, env.autoescape) == (True, True, False)
    # Compiled templates are cached in it: the same object each time.
    assert template("tally_classic.j2") is template("tally_classic.j2")
    assert template("dawn_default.j2") is template("dawn_default.j2")
    # No module builds an Environment of its own (the demo forum's HTML page aside).
    builders = sorted(
        str(path.relative_to(ROOT))
        for path in (ROOT / "assistant").rglob("*.py")
        if "Environment(" in path.read_text(encoding="utf-8")
    )
    assert builders == ["assistant/demo_forum.py", "assistant/templating.py"]
    assert not hasattr(drafts, "env")


def test_a_missing_template_names_the_file_and_the_setting() -> None:
    with pytest.raises(ConfigError) as e:
        template("dusk_nope.j2", setting="the chat-mafia ruleset's [reveal] dusk_template")
    assert "templates/dusk_nope.j2 does not exist (chosen by the chat-mafia ruleset's [reveal] " \
        "dusk_template)" in str(e.value)


@pytest.mark.parametrize("leaf", ["other_pages.py", "urls.py", "common.py"])
def test_scraper_leaves_do_not_import_the_package(leaf: str) -> None:
    """`assistant/scrapers/__init__.py` imports these; they must not import it back."""
    tree = ast.parse((ROOT / "assistant" / "scrapers" / leaf).read_text(encoding="utf-8"))
    imported = {
        node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    }
    assert "assistant.scrapers" not in imported
