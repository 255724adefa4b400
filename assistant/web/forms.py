"""What every action of the dashboard reads from its form: a refusal of a form sent without
what the action needs, a number field, a text field; and what it needs of the dashboard."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from starlette.datastructures import FormData

from assistant.errors import AssistantError


class Site(Protocol):
    """What an action needs of the dashboard (`app.Dashboard`): its data directory, its
    clock."""

    data_dir: Path

    def now(self) -> datetime: ...


class FormError(AssistantError):
    """A form sent without what the action needs."""


def number(form: Mapping[str, Any], name: str, what: str) -> int | None:
    """Field `name` of a form or a query string as a whole number ("#57" too), None when
    left empty; anything else is refused in one line naming `what` the number is."""
    text = str(form.get(name) or "").strip().lstrip("#")
    if not text:
        return None
    try:
        if text.isdecimal():  # not isdigit: "²" is a digit that int() cannot read
            return int(text)
    except ValueError:  # more digits than int() reads
        pass
    raise FormError(f"{what}: give a number, not {text!r}")


def text(form: FormData, name: str) -> str | None:
    """Field `name` without the spaces around it, None when left empty."""
    return (str(form.get(name) or "")).strip() or None
