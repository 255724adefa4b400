"""The assistant: moderates long forum Mafia / Werewolf games alongside their GM."""

import sys
from pathlib import Path

__version__ = "0.1.0"


def _data_root() -> Path:
    """Where `rulesets/`, `templates/` and the demo live: beside the package in a checkout
    (and an editable install), or under `<prefix>/share/assistant` where a regular
    `pip install` puts them (pyproject's data-files)."""
    checkout = Path(__file__).resolve().parent.parent
    if (checkout / "rulesets").is_dir():
        return checkout
    installed = Path(sys.prefix) / "share" / "assistant"
    return installed if (installed / "rulesets").is_dir() else checkout


PROJECT_ROOT = _data_root()
RULESETS_DIR = PROJECT_ROOT / "rulesets"
TEMPLATES_DIR = PROJECT_ROOT / "templates"
