"""Time zones by IANA name: the one place that turns a name a GM typed into a ZoneInfo."""

from __future__ import annotations

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from assistant.errors import ConfigError


def zone(name: str | None) -> ZoneInfo:
    """The zone called `name` ("America/New_York"); UTC when unset; ConfigError with examples."""
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(
            f"unknown time zone {name!r}: use an IANA name such as UTC, Europe/Berlin or "
            "America/New_York"
        ) from None
