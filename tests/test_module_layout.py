"""Structure the code review asked for, kept: one template environment for every draft,
no import cycle between the scrapers package and its leaf modules, and none among any
modules of `assistant/`, type-hint imports included."""

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


def _module_names(package: Path) -> dict[str, Path]:
    """Every module of `package` by its dotted name (a package by its own name)."""
    out = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _imported(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of `modules` that `name` imports anywhere: at the top, under `if
    TYPE_CHECKING:`, inside a function. `from P import X` counts P.X if it is a module, else
    P. (A package's own `__init__` running before its module is not counted, as
    import-linter does not count it.)"""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                for alias in node.names
            ]
        else:
            continue
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def import_cycles(package: Path) -> list[list[str]]:
    """Every import cycle among the modules of `package`, one per strongly connected group
    of modules, each as the modules of one loop through it (first module repeated last)."""
    modules = _module_names(package)
    graph = {name: sorted(_imported(name, path, modules)) for name, path in modules.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    cycles = []
    for group in sorted(groups):
        # One loop through the group: walk inside it from its first module until one repeats.
        path, seen = [group[0]], {group[0]: 0}
        while True:
            step = next(w for w in graph[path[-1]] if w in group)
            if step in seen:
                cycles.append([*path[seen[step]:], step])
                break
            seen[step] = len(path)
            path.append(step)
    return cycles


def test_no_import_cycle_among_the_modules_even_for_type_hints() -> None:
    """import-linter skips `if TYPE_CHECKING:` imports (pyproject.toml); this does not, nor
    imports inside functions: a circle held open only by them is still a circle to read."""
    cycles = import_cycles(ROOT / "assistant")
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_the_cycle_finder_sees_type_hint_and_function_imports(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    for path, text in {
        "__init__.py": "",
        "a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.b import B\n",
        "b.py": "from pkg import e, c\nB = 1\n",
        "c.py": "def f():\n    import pkg.a\n",
        "e.py": "E = 1\n",
        "sub/__init__.py": "from pkg.sub.x import X\n",
        "sub/x.py": "from . import y\nX = 1\n",
        "sub/y.py": "from .. import d\n",
        "d.py": "from pkg.sub import x\n",
    }.items():
        (pkg / path).write_text(text, encoding="utf-8")
    assert import_cycles(pkg) == [
        ["pkg.a", "pkg.b", "pkg.c", "pkg.a"],
        ["pkg.d", "pkg.sub.x", "pkg.sub.y", "pkg.d"],
    ]


def test_the_handler_table_has_every_ability_kind_once() -> None:
    """A kind the ruleset loader accepts (rules.KINDS) but no family handles would fail only
    when a night reaches it; one handled but not accepted is dead code."""
    from assistant.engine.abilities import HANDLERS
    from assistant.engine.rules import KINDS

    assert set(HANDLERS) == set(KINDS)
