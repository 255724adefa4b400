"""The forums' own forms, read as a browser reads them, and what a page says after one.

A form is never assumed: SMF adds its session token (a hidden field whose name changes
per session), `seqnum` and `last_msg`; phpBB adds `creation_time` and `form_token`. All
are read from the page and sent back as they are. Their values are session secrets: they
go into the request and nowhere else (no log line, no error, no stored fact holds them).

After a form is sent, the page the forum answers with is read by `refusal`: the forum's
own error text, sorted into what the writer can do about it (wait and send again, open
the form again, or stop and say why in one line).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from selectolax.lexbor import LexborHTMLParser, LexborNode

from assistant.scrapers.common import absolute, clean_text

_SKIPPED = frozenset({"submit", "button", "image", "reset", "file"})


@dataclass
class Form:
    """One <form> of a page: where it goes and the fields a browser would send."""

    action: str
    """Absolute URL, session ids stripped (the session travels in the cookies)."""
    fields: dict[str, str] = field(default_factory=dict)
    captcha: bool = False
    """The form asks for a visual confirmation / question a script cannot answer."""

    def __repr__(self) -> str:  # the fields hold the session token: never shown
        return f"Form({self.action!r}, {len(self.fields)} fields)"


# A captcha or verification question inside a posting form: SMF's `post_vv[...]`
# (its verification control), phpBB's `confirm_code` / `qa_answer`, reCAPTCHA anywhere.
_CAPTCHA_FIELDS = ("post_vv[", "pm_vv[", "confirm_code", "qa_answer", "g-recaptcha-response",
                   "h-captcha-response")


def find_form(html: str, url: str, *, form_id: str | None = None,
              action_has: str | None = None) -> Form | None:
    """The first form with that id (or whose action contains `action_has`)."""
    tree = LexborHTMLParser(html)
    for node in tree.css("form"):
        attrs = node.attributes
        if form_id is not None and form_id not in (attrs.get("id"), attrs.get("name")):
            continue
        action = attrs.get("action") or url
        if action_has is not None and action_has not in action:
            continue
        return Form(absolute(url, action), _fields(node), _has_captcha(node))
    return None


def _fields(form: LexborNode) -> dict[str, str]:
    out: dict[str, str] = {}
    for node in form.css("input, textarea, select"):
        a = node.attributes
        name = a.get("name")
        if not name or "disabled" in a:
            continue
        if node.tag == "input":
            kind = (a.get("type") or "text").lower()
            if kind in _SKIPPED or (kind in ("checkbox", "radio") and "checked" not in a):
                continue
            out[name] = a.get("value") or ("on" if kind in ("checkbox", "radio") else "")
        elif node.tag == "textarea":
            out[name] = node.text(deep=True)
        else:
            options = node.css("option")
            chosen = [o for o in options if "selected" in o.attributes] or options[:1]
            if chosen:
                value = chosen[0].attributes.get("value")
                out[name] = value if value is not None else chosen[0].text(strip=True)
    return out


def _has_captcha(form: LexborNode) -> bool:
    names = [n.attributes.get("name") or "" for n in form.css("input, textarea, select")]
    if any(n.startswith(c) for n in names for c in _CAPTCHA_FIELDS):
        return True
    return form.css_first(".g-recaptcha, .h-captcha, #verification_control_post, "
                          "#verification_control_pm") is not None


# ---- what a page says after a form was sent ---------------------------------------------

_MESSAGE_SELECTORS = (
    "#errors .errorbox, div.errorbox, #error_list, #fatal_error .windowbg, "  # SMF
    "p.error, div.error, #message p, .panel#message p, "  # phpBB
    "#postform h3 + p"  # phpBB's "Post review": new posts came in
)


def page_messages(html: str) -> list[str]:
    """The forum's own error and notice texts on a page, as a reader sees them."""
    tree = LexborHTMLParser(html)
    seen: list[str] = []
    for node in tree.css(_MESSAGE_SELECTORS):
        text = clean_text(node.text(deep=True, separator=" "))
        if text and text not in seen and not any(text in s for s in seen):
            seen.append(text)
    return seen


@dataclass(frozen=True)
class Refusal:
    """Why the forum did not take a post or PM, sorted by what can be done about it."""

    kind: str
    """"flood" (wait `wait` s and send again), "retype" (new posts came in, or the form's
    token was stale: open the form again and send again), "captcha", "locked",
    "permission", "recipient" (a PM recipient the forum does not know), "login" (the
    session ended), or "other"."""
    message: str
    """The forum's own words (one line)."""
    wait: float | None = None
    """Seconds the forum asked for, when it said ("less than 5 seconds ago")."""


_LESS_THAN = re.compile(r"less than (\d{1,4}) seconds?", re.I)
_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("flood", re.compile(r"less than \d+ seconds? ago|so soon after your last|flood", re.I)),
    ("retype", re.compile(
        r"while you were (?:typing|reading)|at least one new post has been made|"
        r"form was invalid|session timed out|session verification failed|"
        r"token verification failed", re.I)),
    ("captcha", re.compile(
        r"verification|confirmation code|captcha|letters you typed|did not answer the", re.I)),
    ("locked", re.compile(r"topic is locked|topic has been locked|locked, you", re.I)),
    ("recipient", re.compile(
        r"recipients? could not be found|recipients? failed|no recipients|"
        r"could not be (?:found|added)|the following (?:recipients|users)|"
        r"users to be added do not exist|couldn.t be added|"
        r"not receiving private messages|blocked private messages|ignoring you", re.I)),
    ("permission", re.compile(
        r"not (?:allowed|permitted|authori[sz]ed)|cannot (?:reply|post|send)|"
        r"can't (?:reply|post|send)|you are banned|no permission|exceeded the limit", re.I)),
)


def refusal(html: str, *, login_form: bool = False) -> Refusal:
    """What the forum's answer page says went wrong (its own words, sorted)."""
    texts = page_messages(html)
    if login_form and not texts:
        return Refusal("login", "the forum showed its login form: the session ended")
    message = " | ".join(texts)[:300] or "(the forum gave no reason)"
    for kind, pattern in _KINDS:
        if pattern.search(message):
            wait = _LESS_THAN.search(message)
            return Refusal(kind, message, float(wait.group(1)) if wait else None)
    if login_form:
        return Refusal("login", message)
    return Refusal("other", message)
