"""The layers of pyproject.toml's import-linter contract hold: a module imports only from
the layers below its own, the modules of one `|` layer not from each other, and no package
has an import cycle. A new module must be given a layer there (and a line in the picture and
the module table of docs/architecture.md)."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

from conftest import ROOT

LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def test_the_import_contract_is_kept() -> None:
    run = subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, (
        "the import layers are broken (a new module goes in a layer of pyproject.toml's "
        "[tool.importlinter] and docs/architecture.md's picture; an import must not climb a "
        "layer):\n"
        + run.stdout[-3000:]
        + run.stderr[-2000:]
    )


def _contract_layers(container: str = "assistant") -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    [layers] = [c["layers"] for c in config["tool"]["importlinter"]["contracts"]
                if c["type"] == "layers" and c["containers"] == [container]]
    return [layer for layer in layers if layer != "__main__"]


def _architecture() -> str:
    """docs/architecture.md up to its next section (the libraries): the picture and the tables."""
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    return page.split("\n## ", 1)[0]


def test_the_architecture_picture_is_the_contract() -> None:
    [picture] = re.findall(r"```text\n(.*?)```", _architecture(), re.S)
    drawn = [re.split(r"\s{2,}", line.strip())[0] for line in picture.splitlines()]
    assert drawn == _contract_layers()


def test_every_module_is_in_a_layer_and_in_the_architecture_table() -> None:
    package = ROOT / "assistant"
    modules = {p.stem for p in package.glob("*.py") if p.stem != "__init__"}
    modules |= {p.name for p in package.iterdir() if (p / "__init__.py").exists()}
    in_layers = {m.strip() for layer in _contract_layers() for m in layer.split("|")}
    assert modules - {"__main__"} == in_layers
    table = "".join(re.findall(r"^\| ([^|]*) \|", _architecture(), re.M))
    missing = [m for m in sorted(modules - {"__main__"})
               if f"`{m}.py`" not in table and f"/{m}.py`" not in table
               and f"`assistant/{m}/`" not in table and f"`{m}/`" not in table]
    assert not missing, f"docs/architecture.md's module table lacks {missing}"


def test_every_module_of_the_count_is_in_its_layers_and_the_architecture() -> None:
    """`assistant/count/` has a layers contract of its own; docs/architecture.md's table of
    the count names each of its modules (the picture draws the package as one layer)."""
    package = ROOT / "assistant" / "count"
    modules = {p.stem for p in package.glob("*.py") if p.stem != "__init__"}
    in_layers = {m.strip() for layer in _contract_layers("assistant.count")
                 for m in layer.split("|")}
    assert modules == in_layers
    missing = [m for m in sorted(modules) if f"`{m}.py`" not in _architecture()]
    assert not missing, f"docs/architecture.md lacks the count's {missing}"
