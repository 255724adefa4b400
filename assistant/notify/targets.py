"""Where a game's notifications go: Apprise URLs kept in the game's config.

A target's URL is a template: every secret in it (a webhook token, an SMTP password) is
written as `{env:NAME}` and read from the environment variable NAME only when a message
is sent (`resolve`), so the game file, the log and `notify --list` hold the template,
never the secret. `check_url` refuses a URL whose secret Apprise knows of (a password, a
token) written in clear. Each target says which events it wants, the lowest alert
severity it is told of, and its quiet hours in the game's zone.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, time, timedelta
from typing import Any
from urllib.parse import quote
from zoneinfo import ZoneInfo

from assistant.errors import ConfigError
from assistant.models import from_iso, to_iso

CONFIG_KEY = "notify"
"""The game config key holding the targets (a list of `Target.to_json`)."""
EVENTS = ("alerts", "hammer", "deadline", "orders", "polls")
"""What a target may be told of: new alerts; a majority reached (the hammer); the
deadline's warnings, its final count and the dusk drafted; night orders still missing an
hour before the night ends, and each order or vote read in a player's PM (the inbox's
proposals); polls failing longer than the game's threshold."""
SEVERITIES = ("info", "warning", "violation")
ENV_REF = re.compile(r"\{env:([A-Za-z_][A-Za-z0-9_]*)\}")


@dataclass(frozen=True)
class QuietHours:
    """A daily window in the game's zone ("23:00-07:00") when only violations are sent;
    the rest waits for its end and goes out as one digest."""

    start: time
    end: time

    @classmethod
    def parse(cls, text: str) -> QuietHours:
        m = re.fullmatch(r"\s*(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})\s*", text or "")
        if m is None or int(m[1]) > 23 or int(m[3]) > 23 or int(m[2]) > 59 or int(m[4]) > 59:
            raise ConfigError(f"--quiet {text!r}: write the hours as HH:MM-HH:MM, e.g. 23:00-07:00")
        start, end = time(int(m[1]), int(m[2])), time(int(m[3]), int(m[4]))
        if start == end:
            raise ConfigError(f"--quiet {text!r}: the quiet hours start and end at the same time")
        return cls(start, end)

    def __str__(self) -> str:
        return f"{self.start:%H:%M}-{self.end:%H:%M}"

    def holds(self, moment: datetime, zone: ZoneInfo) -> bool:
        """Whether `moment` falls in the quiet hours, read on the game's wall clock."""
        now = moment.astimezone(zone).time().replace(tzinfo=None)
        if self.start < self.end:
            return self.start <= now < self.end
        return now >= self.start or now < self.end

    def next_end(self, moment: datetime, zone: ZoneInfo) -> datetime:
        """The first end of the quiet hours after `moment` (aware UTC)."""
        local = moment.astimezone(zone)
        for days in (0, 1, 2):
            day = (local + timedelta(days=days)).date()
            end = datetime.combine(day, self.end, tzinfo=zone)
            if end > moment:
                return end.astimezone(moment.tzinfo)
        raise AssertionError("a daily end falls within two days")  # pragma: no cover


@dataclass(frozen=True)
class Target:
    """One place the GM is told: an Apprise URL template and what goes there."""

    url: str
    """The URL as the GM wrote it, secrets as `{env:NAME}`: safe to store and show."""
    added_at: datetime
    """Notices from before this moment are not sent here (a new target gets no backlog)."""
    min_severity: str = "warning"
    """The lowest severity of alert sent here."""
    events: tuple[str, ...] = EVENTS
    quiet: QuietHours | None = None

    @property
    def id(self) -> str:
        """Short and stable: the same URL is the same target (`--add` again updates it)."""
        return hashlib.sha1(self.url.encode("utf-8")).hexdigest()[:6]

    @property
    def variables(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(ENV_REF.findall(self.url)))

    def wants(self, event: str, severity: str | None = None) -> bool:
        """Whether an event of this kind (an alert: of this severity) is sent here."""
        if event not in self.events:
            return False
        if event == "alerts" and severity is not None:
            return SEVERITIES.index(severity) >= SEVERITIES.index(self.min_severity)
        return True

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "url": self.url,
            "added_at": to_iso(self.added_at),
            "min_severity": self.min_severity,
            "events": list(self.events),
            "quiet": str(self.quiet) if self.quiet else None,
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Target:
        return cls(
            url=d["url"],
            added_at=from_iso(d["added_at"]),  # type: ignore[arg-type]
            min_severity=d.get("min_severity") or "warning",
            events=tuple(d.get("events") or EVENTS),
            quiet=QuietHours.parse(d["quiet"]) if d.get("quiet") else None,
        )


@dataclass(frozen=True)
class Resolved:
    """A target's URL with its secrets in: lives only for one send, never stored."""

    url: str
    secrets: dict[str, str] = field(default_factory=dict)
    """NAME -> the value read from the environment, for `redact`."""

    def redact(self, text: str) -> str:
        """`text` (an error, a library's log line) with every secret put back as `{env:NAME}`."""
        for name, value in sorted(self.secrets.items(), key=lambda kv: -len(kv[1])):
            if value:
                for form in {value, quote(value, safe=""), quote(value)}:
                    text = text.replace(form, f"{{env:{name}}}")
        return text


def resolve(target: Target, env: Mapping[str, str] | None = None) -> Resolved:
    """The URL to send to: each `{env:NAME}` replaced by the variable's value, escaped for a
    URL (a password holding `@` or `/` stays one field). ConfigError naming the variable
    when it is not set where the assistant runs."""
    env = os.environ if env is None else env
    missing = [n for n in target.variables if not env.get(n)]
    if missing:
        raise ConfigError(
            f"notification target {target.id} needs the environment variable(s) "
            f"{', '.join(missing)}, not set for this process: set them where the daemon "
            "(or cron) starts the assistant"
        )
    secrets = {n: env[n] for n in target.variables}
    url = ENV_REF.sub(lambda m: quote(secrets[m[1]], safe=""), target.url)
    return Resolved(url, secrets)


def new_target(
    url: str,
    now: datetime,
    *,
    min_severity: str = "warning",
    events: Iterable[str] | None = None,
    quiet: str | None = None,
) -> Target:
    """A target from what the GM typed, every part checked; the URL by `check_url`."""
    if min_severity not in SEVERITIES:
        raise ConfigError(f"--min-severity {min_severity!r}: use {', '.join(SEVERITIES)}")
    chosen = tuple(EVENTS if events is None else events)
    unknown = [e for e in chosen if e not in EVENTS]
    if unknown or not chosen:
        raise ConfigError(
            f"--events {','.join(chosen)!r}: give one or more of {','.join(EVENTS)}"
        )
    target = Target(url.strip(), now, min_severity, tuple(e for e in EVENTS if e in chosen),
                    QuietHours.parse(quiet) if quiet else None)
    check_url(target)
    return target


#: Stands in for a variable's value while a URL is checked: letters and digits, long
#: enough for the token patterns of Apprise's services.
_SENTINEL = "Envref{n}Q7x9Kp2Lm4Nz8Rt6Vw3Yb5Hc1Jd0Fg"


def check_url(target: Target) -> None:
    """Refuse a URL Apprise cannot use, or one holding a secret in clear.

    The secrets are what Apprise itself marks private in the service's URL (a password,
    a webhook or bot token, an API key); each must come from a `{env:NAME}`. A numeric id
    (a Discord webhook's, a chat's) is no secret. Checked with stand-ins for the
    variables (so they need not be set yet), else with their values where they are set.
    """
    url = target.url
    if not url or any(c.isspace() for c in url):
        raise ConfigError(f"{url!r} is not a notification URL (no spaces): e.g. "
                          "discord://WEBHOOK_ID/{env:DISCORD_TOKEN}")
    names = target.variables
    stand_ins = {name: _SENTINEL.format(n=i) for i, name in enumerate(names)}
    plugin = instantiate(ENV_REF.sub(lambda m: stand_ins[m[1]], url))
    allowed = list(stand_ins.values())
    if plugin is None and all(os.environ.get(n) for n in names) and names:
        resolved = resolve(target)
        plugin = instantiate(resolved.url)
        allowed = list(resolved.secrets.values())
    if plugin is None:
        scheme = url.split("://", 1)[0] if "://" in url else url
        raise ConfigError(
            f"Apprise cannot use the URL {url} (scheme {scheme!r}): check it against the "
            "service's page in Apprise's documentation (e.g. discord://WEBHOOK_ID/"
            "{env:DISCORD_TOKEN}, mailtos://USER:{env:SMTP_PASSWORD}@smtp.example.org"
            "?to=you@example.org)"
        )
    for key, value in _private_values(plugin):
        if value.isdigit() or any(a in value or value in a for a in allowed):
            continue
        raise ConfigError(
            f"the URL {url} holds its {key.replace('_', ' ')} in clear; write it as "
            f"{{env:NAME}} (e.g. {{env:{key.upper()}}}) and set that environment variable "
            "where the assistant runs: secrets are never stored"
        )


def _private_values(plugin: Any) -> list[tuple[str, str]]:
    """The values of the URL's fields Apprise marks private, as the plugin read them."""
    out = []
    for key, spec in getattr(plugin, "template_tokens", {}).items():
        if not spec.get("private"):
            continue
        value = getattr(plugin, spec.get("map_to", key), None)
        if isinstance(value, str) and value:
            out.append((key, value))
    return out


def quiet_apprise() -> None:
    """Apprise's log lines go nowhere but to our capture: they may quote a URL."""
    logger = logging.getLogger("apprise")
    logger.propagate = False
    if not logger.handlers:
        logger.addHandler(logging.NullHandler())


def instantiate(url: str) -> Any:
    """Apprise's service object for `url`, or None when Apprise cannot use it. Apprise
    is imported here, when a URL is checked or a message sent: a count never pays for it."""
    import apprise

    quiet_apprise()
    with apprise.LogCapture(level=logging.WARNING):
        return apprise.Apprise.instantiate(url)


def targets_of(config: Mapping[str, Any]) -> list[Target]:
    """A game's targets, as its config keeps them."""
    return [Target.from_json(d) for d in config.get(CONFIG_KEY) or []]


def with_target(targets: list[Target], target: Target) -> tuple[list[Target], bool]:
    """The list with `target` added, or put in place of the one with its URL (its new
    settings, its first `added_at` kept); True when it was new."""
    for i, old in enumerate(targets):
        if old.id == target.id:
            return [*targets[:i], replace(target, added_at=old.added_at), *targets[i + 1:]], False
    return [*targets, target], True


def find_target(targets: list[Target], key: str, game_id: str) -> Target:
    """The target an id (or the start of one) or its URL names."""
    found = [t for t in targets if t.url == key or t.id.startswith(key.lower())]
    if len(found) != 1:
        known = ", ".join(f"{t.id} {t.url}" for t in targets) or "none yet"
        what = "matches several targets" if found else "is no target"
        raise ConfigError(
            f"{key!r} {what} of game {game_id!r} (targets: {known}); "
            f"list them with `assistant notify {game_id} --list`"
        )
    return found[0]
