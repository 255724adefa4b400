"""Logging in to members-only boards through the forum's own login form.

The form is read, not assumed: both forums add hidden fields that change per visit
(SMF's session token, phpBB's sid / creation_time / form_token), and a login that
posts without them is refused. The session cookie then lives in the fetcher's client.
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
    ),
}
_ERROR_SELECTORS = ".errorbox, #error_message, div.error, p.error, .alert-danger, .error"


def login(fetcher: Fetcher, ref: ThreadRef, user: str, password: str) -> None:
    """Log in to the forum of `ref`; LoginError says why it failed and what to do."""
    spec = FORMS[ref.software]
    page_url = ref.base + spec.page
    page = fetcher.get(page_url)
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
    _check(fetcher.post(action, fields), spec, user)


def _check(answer: Response, spec: LoginForm, user: str) -> None:
    html = decode_html(answer.content, answer.charset)
    tree = HTMLParser(html)
    if spec.logged_in.search(html):
        return
    message = next(
        (clean_text(n.text()) for n in tree.css(_ERROR_SELECTORS) if clean_text(n.text())), None
    )
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
