"""One message to one target, through Apprise.

Apprise knows the services (Discord and Slack webhooks, Telegram, Matrix, e-mail over
SMTP, ntfy, Pushover and about a hundred more), their URL forms, their limits and their
errors; we hand it a URL and a message and read whether the service took it. The
target's secrets are put into the URL here, for this one call (`targets.resolve`), and
whatever Apprise logs or answers is redacted before it reaches our log or the store:
Apprise's own log lines are captured, never printed.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from assistant.errors import ConfigError
from assistant.notify.targets import Target, quiet_apprise, resolve

_TYPES = {"info": "info", "warning": "warning", "violation": "failure"}
"""Our severity -> Apprise's notification type (the colour or icon a service shows)."""


@dataclass(frozen=True)
class Sent:
    """What became of one message."""

    ok: bool
    """The service took it (for e-mail: the SMTP server accepted it)."""
    reason: str = ""
    """Why not, in Apprise's words, secrets redacted."""


def send(target: Target, title: str, body: str, severity: str = "info",
         env: dict[str, str] | None = None) -> Sent:
    """Send one message to `target`; never raises for a service that refuses or is down
    (that is a `Sent` with its reason: the outbox tries again later)."""
    import apprise

    try:
        resolved = resolve(target, env)
    except ConfigError as e:
        return Sent(False, str(e))
    quiet_apprise()
    notifier = apprise.Apprise()
    with apprise.LogCapture(level=logging.WARNING, fmt="%(message)s") as captured:
        if not notifier.add(resolved.url):
            return Sent(False, f"Apprise cannot use the URL {target.url}")
        try:
            ok = bool(notifier.notify(body=body, title=title,
                                      notify_type=_TYPES.get(severity, "info"),
                                      body_format="text"))
        except Exception as e:  # noqa: BLE001 - a service plugin's bug must not stop the daemon
            ok, captured_error = False, f"{type(e).__name__}: {e}"
        else:
            captured_error = ""
        lines = [line.strip() for line in captured.getvalue().splitlines() if line.strip()]
    if ok:
        return Sent(True)
    reason = "; ".join(dict.fromkeys([*lines[-3:], captured_error] if captured_error
                                     else lines[-3:])) or "the service did not accept it"
    return Sent(False, resolved.redact(reason))
