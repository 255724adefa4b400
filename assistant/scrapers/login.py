"""Logging in to members-only boards through the forum's own login form.

The form is read, not assumed: both forums add hidden fields that change per visit
(SMF's session token, phpBB's sid / creation_time / form_token), and a login that
posts without them is refused. The session cookie then lives in the fetcher's client.

Two limits of the real forums are kept: phpBB refuses a form sent within the second it
was shown (`check_form_key`), so its form is sent at least a second after it arrived;
SMF allows one login per address every 2 s and answers a quicker one with HTTP 403 "You
will have to wait about N seconds to login again", so that wait is kept, once, and the
login tried again (two `fetch`es in a row, a daemon restarted at once).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from selectolax.lexbor import LexborHTMLParser as HTMLParser
from selectolax.lexbor import LexborNode as Node

from assistant.errors import LoginError
from assistant.scrapers import ThreadRef
from assistant.scrapers.common import absolute, clean_text, decode_html
from assistant.scrapers.http import Fetcher, Response


@dataclass(frozen=True)
class LoginForm:
    """Where each forum's login form is and what its fields are called."""

    page: str
    """The login page, relative to the forum's base URL."""
    action_marker: str
    """Text in the form's action that identifies the login form."""
    user_field: str
    password_field: str
    extra: tuple[tuple[str, str], ...]
    """Fields a browser would add (remember me, the submit button)."""
    logged_in: re.Pattern[str]
    """Matches a page seen by a logged-in member."""
    min_form_age: float = 0.0
    """Seconds between receiving the form and sending it: phpBB refuses a form sent within
    the second it was shown (`check_form_key` counts whole seconds), SMF does not."""


FORMS = {
    "smf": LoginForm(
        page="index.php?action=login",
        action_marker="action=login2",
        user_field="user",
        password_field="passwrd",
        extra=(("cookieneverexp", "on"), ("cookielength", "-1")),
        logged_in=re.compile(r"smf_member_id\s*=\s*[1-9]|action=logout|id=\"profile_menu_top\""),
    ),
    "phpbb": LoginForm(
        page="ucp.php?mode=login",
        action_marker="mode=login",
        user_field="username",
        password_field="password",
        extra=(("autologin", "on"), ("login", "Login")),
        logged_in=re.compile(r"mode=logout|id=\"username_logged_in\""),
        min_form_age=1.0,
    ),
}
_ERROR_SELECTORS = (
    ".errorbox, #error_message, div.error, p.error, .alert-danger, .error, #fatal_error .windowbg"
)
_WAIT = re.compile(r"\bwait\b\D{0,40}?(\d{1,3})\s*(?:seconds?|secs?|s)\b", re.I)
MAX_FLOOD_WAIT = 30
"""The longest "wait N seconds" of the forum's that is waited out before trying again."""


class _TooSoon(Exception):
    def __init__(self, seconds: int) -> None:
        self.seconds = seconds


def login(fetcher: Fetcher, ref: ThreadRef, user: str, password: str) -> None:
    """Log in to the forum of `ref`; LoginError says why it failed and what to do."""
    try:
        _login(fetcher, ref, user, password)
    except _TooSoon as e:  # the forum's own pace between logins: keep it, then once more
        fetcher.sleep(e.seconds + 1)
        try:
            _login(fetcher, ref, user, password)
        except _TooSoon as again:
            raise LoginError(
                f"login to {ref.base} as {user!r}: the forum still asks to wait "
                f"{again.seconds} s between logins; try again in a minute",
                ref.base,
            ) from None


def _login(fetcher: Fetcher, ref: ThreadRef, user: str, password: str) -> None:
    spec = FORMS[ref.software]
    page_url = ref.base + spec.page
    page = fetcher.get(page_url)
    shown = fetcher.monotonic()
    html = decode_html(page.content, page.charset)
    if spec.logged_in.search(html):
        return  # the client's cookies already carry a session
    form = _find_form(HTMLParser(html), spec)
    if form is None:
        raise LoginError(
            f"{page_url}: no login form found on the forum's login page; check that the thread "
            "URL points at the right forum, or log in with a browser to see what it asks for",
            page_url,
        )
    fields = _hidden_fields(form)
    fields.update(spec.extra)
    fields[spec.user_field] = user
    fields[spec.password_field] = password
    action = absolute(page.url, form.attributes.get("action") or page.url)
    wait = spec.min_form_age - (fetcher.monotonic() - shown)
    if wait > 0:
        fetcher.sleep(wait)
    _check(fetcher.post(action, fields, error_pages=True), spec, user)


def _check(answer: Response, spec: LoginForm, user: str) -> None:
    html = decode_html(answer.content, answer.charset)
    tree = HTMLParser(html)
    if spec.logged_in.search(html):
        return
    message = next(
        (clean_text(n.text()) for n in tree.css(_ERROR_SELECTORS) if clean_text(n.text())), None
    )
    too_soon = _WAIT.search(message or "")
    if too_soon and int(too_soon.group(1)) <= MAX_FLOOD_WAIT:
        raise _TooSoon(int(too_soon.group(1)))
    if message:
        raise LoginError(
            f"login to {answer.url} as {user!r} failed: the forum says {message!r}; check the "
            "user name and the password in the environment variable",
            answer.url,
        )
    if _find_form(tree, spec) is not None:
        raise LoginError(
            f"login to {answer.url} as {user!r} failed: the forum showed the login form again; "
            "check the user name and password, and that the account is activated",
            answer.url,
        )
    if answer.status >= 400:
        raise LoginError(
            f"login to {answer.url} as {user!r} failed: the forum answered HTTP "
            f"{answer.status} without saying why; try logging in with a browser",
            answer.url,
        )
    raise LoginError(
        f"login to {answer.url} as {user!r} could not be confirmed: the page after logging in "
        "does not show a logged-in member; try logging in with a browser",
        answer.url,
    )


def _find_form(tree: HTMLParser, spec: LoginForm) -> Node | None:
    for form in tree.css("form"):
        action = form.attributes.get("action") or ""
        has_password = form.css_first(f'input[name="{spec.password_field}"]') is not None
        if spec.action_marker in action and has_password:
            return form
    return None


def _hidden_fields(form: Node) -> dict[str, str]:
    return {
        name: inp.attributes.get("value") or ""
        for inp in form.css('input[type="hidden"]')
        if (name := inp.attributes.get("name"))
    }
