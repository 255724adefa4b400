"""The layers of pyproject.toml's import-linter contract hold: a module imports only from
the layers below its own, the modules of one `|` layer not from each other, and no package
has an import cycle. A new module must be given a layer there (and in README's picture)."""

from __future__ import annotations

import subprocess
import sys
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
        "[tool.importlinter] and README's picture; an import must not climb a layer):\n"
        + run.stdout[-3000:]
        + run.stderr[-2000:]
    )
