"""The one Jinja2 environment every draft renders with (templates/).

Tally posts, dawn and dusk posts, result PMs and the win announcement share one set of
settings, so a template behaves the same whichever module renders it: block tags eat
their own line end (`trim_blocks`, `lstrip_blocks`), text is BBCode (no HTML escaping),
and a value a template names but is not given is an error, not an empty string. The
environment is built once; Jinja2 caches the compiled templates in it.

Every value a template prints is player text until shown otherwise, the way HTML
templates escape by default: it is printed inert (`safe_text.for_forum`: no BBCode tag
or link forms, bidi isolated). The markup is the template's own; values the assistant
wrote as BBCode (a permalink, a rendered template) are passed as `safe_text.BBCode`.
Lists of names are joined with the `names` filter, which isolates each name.

The dashboard's pages (templates/web/) are HTML, not BBCode: they get their own
environment, `web_environment`, with autoescaping on, so a name or a post shows as text,
and every value bidi isolated as in the drafts (`safe_text.isolate`), so a right-to-left
override in a name reverses neither the table row nor the sentence around it. A value
that must reach the browser character for character (a form field's value, a draft the
GM copies) is printed through `verbatim`; markup the assistant built (`Markup`: the
chart, a rendered part) is printed as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant import TEMPLATES_DIR
from assistant.errors import ConfigError
from assistant.safe_text import BBCode, for_forum, isolate, names

# Jinja2 is imported when a first draft or page is rendered, not with the modules that
# render them: the daemon imports those at its start, and may render nothing for hours
# (a game without interval tallies: its first draft at the deadline); 3 MB until then.
if TYPE_CHECKING:
    from jinja2 import Environment, Template
    from markupsafe import Markup


def _finalize(value: Any) -> Any:
    """What `{{ value }}` prints: player text inert, the assistant's own BBCode as is."""
    if isinstance(value, BBCode) or not isinstance(value, str):
        return value
    return for_forum(value)


def _verbatim(value: Any) -> BBCode:
    """A value printed exactly as it is: a PM's recipient, copied into the forum's "To"
    field, which reads no BBCode and must get the name character for character (it is
    alone on its line, so nothing else can be reordered by it)."""
    return BBCode(str(value))


@cache
def environment(overrides: tuple[Path, ...] = ()) -> Environment:
    """The drafts' environment; `overrides`: folders searched before templates/, so a GM's
    own copy of a template (DATA_DIR/templates/GAME/, DATA_DIR/templates/) wins."""
    from jinja2 import BaseLoader, ChoiceLoader, Environment, FileSystemLoader, StrictUndefined

    loader: BaseLoader = FileSystemLoader(TEMPLATES_DIR)
    if overrides:
        loader = ChoiceLoader([FileSystemLoader([str(d) for d in overrides]), loader])
    env = Environment(
        loader=loader,
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=_finalize,
    )
    env.filters["names"] = names
    env.filters["verbatim"] = _verbatim
    return env


def _web_finalize(value: Any) -> Any:
    """What `{{ value }}` prints on a page: text bidi isolated (then escaped), the
    assistant's own markup as it is."""
    from markupsafe import Markup

    if isinstance(value, Markup) or not isinstance(value, str):
        return value
    return isolate(value)


def _web_verbatim(value: Any) -> Markup:
    """A value printed exactly as it is, escaped but not isolated: a form field's value
    sent back as typed, a name the GM picks from a list, a draft copied into the forum."""
    from markupsafe import escape

    return escape(str(value))


@cache
def web_environment() -> Environment:
    """The dashboard's HTML templates: everything autoescaped and bidi isolated, `zip`
    for parallel lists, `names` to join names each isolated on its own."""
    from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

    env = Environment(
        loader=FileSystemLoader(TEMPLATES_DIR / "web"),
        undefined=StrictUndefined,
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=_web_finalize,
    )
    env.globals["zip"] = zip
    env.filters["names"] = names
    env.filters["verbatim"] = _web_verbatim
    return env


def template(name: str, *, setting: str | None = None,
             overrides: Sequence[Path] = ()) -> Template:
    """A template of templates/ (or of an `overrides` folder first); ConfigError names the
    missing file (and the ruleset setting that chose it, when one did), or the GM's copy
    that Jinja2 cannot read."""
    from jinja2 import TemplateNotFound, TemplateSyntaxError

    try:
        return environment(tuple(Path(d) for d in overrides if Path(d).is_dir())).get_template(
            name)
    except TemplateSyntaxError as e:
        raise ConfigError(
            f"{e.filename or name}, line {e.lineno}: {e.message}; fix the template or delete "
            "it to use the assistant's own"
        ) from None
    except TemplateNotFound:
        chosen = f" (chosen by {setting})" if setting else ""
        raise ConfigError(
            f"the template {TEMPLATES_DIR / name} does not exist{chosen}: restore it from the "
            "assistant's templates/ folder or fix the setting"
        ) from None


def render(tpl: Template, **values: Any) -> str:
    """`tpl` rendered; a value the template names but is not given (a GM's own copy asking
    for one the assistant does not have) is a ConfigError naming the file."""
    from jinja2 import UndefinedError

    try:
        return tpl.render(**values)
    except UndefinedError as e:
        raise ConfigError(
            f"{tpl.filename}: {e.message}; the template may use: {', '.join(sorted(values))}"
        ) from None
