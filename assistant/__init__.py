"""The assistant: moderates long forum Mafia / Werewolf games alongside their GM."""

from pathlib import Path

__version__ = "0.1.0"

#: The project root: `rulesets/` and `templates/` live beside the package.
PROJECT_ROOT = Path(__file__).resolve().parent.parent
RULESETS_DIR = PROJECT_ROOT / "rulesets"
TEMPLATES_DIR = PROJECT_ROOT / "templates"
