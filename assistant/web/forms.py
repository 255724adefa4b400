"""What every action of the dashboard reads from its form: a refusal of a form sent without
what the action needs, a number field, a text field; and what it needs of the dashboard."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Protocol

from starlette.datastructures import FormData

from assistant.errors import AssistantError


class Site(Protocol):
    """What an action needs of the dashboard (`app.Dashboard`): its data directory, its
    clock."""

    data_dir: Path

    def now(self) -> datetime: ...


class FormError(AssistantError):
    """A form sent without what the action needs."""


def number(form: FormData, name: str, what: str) -> int | None:
    """Field `name` as a whole number ("#57" too), None when left empty."""
    text = (form.get(name) or "").strip().lstrip("#")  # type: ignore[union-attr]
    if not text:
        return None
    if not text.isdigit():
        raise FormError(f"{what}: give a number, not {text!r}")
    return int(text)


def text(form: FormData, name: str) -> str | None:
    """Field `name` without the spaces around it, None when left empty."""
    return (str(form.get(name) or "")).strip() or None
