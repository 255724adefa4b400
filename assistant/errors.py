"""The assistant's errors: one hierarchy, each error carrying what a user needs to act.

    AssistantError
    ├── ConfigError            a game, ruleset, players file or setting is wrong
    │   └── RulesetError       a rulesets/*.toml file is malformed
    ├── StoreError             the game store cannot be read or written
    ├── ForumError             talking to or reading a forum failed
    │   ├── FetchError         the forum could not be reached / answered with an error
    │   ├── LoginError         the login to a members-only board failed
    │   ├── WriteRefusedError  the forum did not take a post or PM, and said why
    │   ├── UncertainWriteError  a post or PM sent whose answer never came
    │   ├── NotAThreadError    the URL or page is not a topic of an SMF / phpBB forum
    │   │   ├── PrintViewError     a topic's print view (no post ids: cannot follow edits)
    │   │   ├── BoardPageError     a board's / forum's list of topics
    │   │   └── FeedError          an RSS / Atom / SMF XML feed
    │   ├── UnsupportedForumError  the page is neither SMF nor phpBB
    │   ├── LayoutError        a topic page whose layout was not understood
    │   └── TruncatedPageError a topic page cut short (no closing markup, posts missing)
    ├── VoteError              a vote the GM entered cannot be used
    ├── PhaseError             a phase, deadline or extension the GM entered cannot be used
    ├── ProposalError          an inbox proposal cannot be accepted or rejected as asked
    └── OrderError             a night order the GM entered cannot be used
        ├── MalformedOrderError   the text is not an order
        ├── IllegalOrderError     the ruleset forbids it
        └── AmbiguousOrderError   a name matches several players

Foreign errors (httpx, selectolax, TinyDB, tomllib) become these in the module that
calls the library; the CLI turns these into one-line messages, never a stack trace.
"""

from __future__ import annotations


class AssistantError(Exception):
    """Base of every error the assistant raises on purpose; `str(e)` is the user message."""


class ConfigError(AssistantError):
    pass


class RulesetError(ConfigError):
    pass


class StoreError(AssistantError):
    pass


class ForumError(AssistantError):
    """An error about a forum; `url` names the page involved."""

    def __init__(self, message: str, url: str | None = None) -> None:
        super().__init__(message)
        self.url = url


class FetchError(ForumError):
    """`status` is the HTTP status the forum answered with, None for a network failure.
    `reached`: whether the request may have reached the forum (False when no connection
    was made: a form that was never sent cannot have been posted)."""

    def __init__(self, message: str, url: str | None = None, status: int | None = None,
                 *, reached: bool = True) -> None:
        super().__init__(message, url)
        self.status = status
        self.reached = reached


class WriteRefusedError(ForumError):
    """The forum did not take a post or PM, and said why (a captcha, a locked topic, a
    permission, its flood limit still in force after waiting): nothing was written.
    `kind` is `forms.Refusal.kind`."""

    def __init__(self, message: str, url: str | None = None, kind: str = "other") -> None:
        super().__init__(message, url)
        self.kind = kind


class UncertainWriteError(ForumError):
    """A post or PM was sent but its answer never came (the connection dropped): whether
    the forum took it is unknown until its thread or sent box is read."""


class LoginError(ForumError):
    pass


class NotAThreadError(ForumError):
    """`topic_url`, when known, is the topic address to give instead."""

    def __init__(self, message: str, url: str | None = None,
                 topic_url: str | None = None) -> None:
        super().__init__(message, url)
        self.topic_url = topic_url


class PrintViewError(NotAThreadError):
    pass


class BoardPageError(NotAThreadError):
    pass


class FeedError(NotAThreadError):
    pass


class UnsupportedForumError(ForumError):
    pass


class LayoutError(ForumError):
    """A page was recognised but something expected in it is missing.

    `what` says what was missing (e.g. "the author of post #msg12").
    """

    def __init__(self, message: str, url: str | None = None, what: str | None = None) -> None:
        super().__init__(message, url)
        self.what = what


class TruncatedPageError(ForumError):
    """A topic page that arrived cut short: an error for that poll, never stored."""


class VoteError(AssistantError):
    pass


class OrderError(AssistantError):
    pass


class MalformedOrderError(OrderError):
    pass


class IllegalOrderError(OrderError):
    pass


class AmbiguousOrderError(OrderError):
    pass


class ProposalError(AssistantError):
    """An inbox proposal that does not exist, was decided already, or cannot be accepted as
    read (the reason, and what to give instead)."""


class PhaseError(AssistantError):
    """A phase, deadline, extension or shortening the GM entered cannot be used."""


def damaged_record(source: object, record: str, e: Exception) -> StoreError:
    """The one line for a record of a well-formed file that the assistant cannot read (a
    post without an author, a date that is not a date): which file, which record, what.
    `e` is the KeyError, ValueError or TypeError reading it raised; a ValueError whose
    text starts "it" says what is wrong in words (models.stored_date, stored_text)."""
    if isinstance(e, KeyError):
        what = f"it has no {e.args[0]!r}"
    elif isinstance(e, ValueError) and str(e).startswith("it"):
        what = str(e)
    else:
        what = f"it is not what the assistant wrote ({e})"
    where = f"{source}: " if source else ""
    return StoreError(
        f"{where}{record} is damaged: {what}; it was changed by something other than the "
        "assistant: restore the file from a backup, or mend that record"
    )
