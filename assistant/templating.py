"""The one Jinja2 environment every draft renders with (templates/).

Tally posts, dawn and dusk posts, result PMs and the win announcement share one set of
settings, so a template behaves the same whichever module renders it: block tags eat
their own line end (`trim_blocks`, `lstrip_blocks`), text is BBCode (no HTML escaping),
and a value a template names but is not given is an error, not an empty string. The
environment is built once; Jinja2 caches the compiled templates in it.

The dashboard's pages (templates/web/) are HTML, not BBCode: they get their own
environment, `web_environment`, with autoescaping on, so a name or a post shows as text.
"""

from __future__ import annotations

from functools import cache

from jinja2 import (
    Environment,
    FileSystemLoader,
    StrictUndefined,
    Template,
    TemplateNotFound,
    select_autoescape,
)

from assistant import TEMPLATES_DIR
from assistant.errors import ConfigError


@cache
def environment() -> Environment:
    return Environment(
        loader=FileSystemLoader(TEMPLATES_DIR),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
    )


@cache
def web_environment() -> Environment:
    """The dashboard's HTML templates: everything autoescaped, `zip` for parallel lists."""
    env = Environment(
        loader=FileSystemLoader(TEMPLATES_DIR / "web"),
        undefined=StrictUndefined,
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals["zip"] = zip
    return env


def template(name: str, *, setting: str | None = None) -> Template:
    """A template of templates/; ConfigError names the missing file (and the ruleset
    setting that chose it, when one did)."""
    try:
        return environment().get_template(name)
    except TemplateNotFound:
        chosen = f" (chosen by {setting})" if setting else ""
        raise ConfigError(
            f"the template {TEMPLATES_DIR / name} does not exist{chosen}: restore it from the "
            "assistant's templates/ folder or fix the setting"
        ) from None
