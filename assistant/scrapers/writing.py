"""Writing as the GM's forum account through the forums' own forms: a reply in the game
thread, a private message to one member, and the reads that make a write safe to retry.

Every write is sent once (`Fetcher.post(once=True)`): a post whose answer never came is
an `UncertainWriteError`, and the caller looks for it (`find_reply`, `find_sent_pm`)
before anything is sent again. The forums' own manners are kept, from their source:
- a form is opened, its hidden fields (SMF's session token and `seqnum`, phpBB's
  `creation_time` / `form_token`) sent back as they are, and phpBB's form is sent no
  sooner than a second after it arrived (`check_form_key` refuses one sent within the
  second it was shown);
- a flood limit (SMF "The last posting from your IP was less than N seconds ago", phpBB
  "You cannot make another post so soon after your last.") is waited out, then the form
  is opened again and sent; SMF restarts its clock at a refused attempt, so its wait is
  counted from the refusal; phpBB never says how long, so its waits grow. The gap the
  forum wanted is kept for the next write, so a run of PMs does not hit the limit each time;
- "while you were typing N new replies have been posted" (SMF) and "At least one new
  post has been made to this topic" (phpBB) show the form again instead of posting: it
  is opened again and sent again;
- a captcha, a locked topic, a permission refusal or a recipient the forum does not know
  is a `WriteRefusedError` of one line naming it, with the forum's own words.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Any

from selectolax.lexbor import LexborHTMLParser

from assistant.errors import (
    AssistantError,
    FetchError,
    UncertainWriteError,
    WriteRefusedError,
)
from assistant.models import Post
from assistant.scrapers import ThreadRef, parse_topic_page
from assistant.scrapers.common import clean_text, decode_html, member_id
from assistant.scrapers.forms import Form, Refusal, find_form, refusal
from assistant.scrapers.http import Fetcher, Response
from assistant.scrapers.pm_pages import (
    FOLDERS,
    PrivateMessage,
    phpbb_folder,
    phpbb_message,
    smf_folder,
)
from assistant.scrapers.same_text import bbcode_words, html_words

MAX_FLOOD_WAIT = 180.0
"""Seconds one write may spend waiting out the forum's flood limit before giving up."""
PHPBB_FLOOD_STEPS = (2.0, 3.0, 5.0, 8.0, 13.0, 20.0, 30.0)
"""phpBB's refusal does not say how long to wait: these waits, the last one repeated."""
MIN_FORM_AGE = 1.0
"""phpBB: seconds between receiving a form and sending it."""
MAX_RESENDS = 6
MAX_FOLDER_PAGES = 20
"""Pages of a PM folder read at most in one look (newest first)."""
"""Times a form is opened again after "new replies" / a stale token before giving up."""


@dataclass(frozen=True)
class Written:
    """A post or PM the forum took."""

    id: int
    """The post id (SMF `msg`, phpBB `p`) or PM id."""
    url: str
    at: datetime | None
    """When the forum says it was made (aware UTC), when the page shows it."""
    waited: float = 0.0
    """Seconds spent waiting out the forum's flood limit for it."""


@dataclass(frozen=True)
class Recipient:
    """A member a PM goes to: the name the forum knows, and the member id when the
    thread showed it (the surer way to address a PM: no two members share one)."""

    name: str
    member_id: int | None = None


@dataclass(frozen=True)
class Identity:
    """Who the fetcher's session is logged in as, as the forum's header shows it."""

    member_id: int | None
    name: str | None


class ForumWriter:
    """Posts and PMs as the member the fetcher is logged in as (scrapers.login)."""

    def __init__(
        self,
        fetcher: Fetcher,
        ref: ThreadRef,
        *,
        tz: tzinfo,
        now: Callable[[], datetime],
        max_flood_wait: float = MAX_FLOOD_WAIT,
    ) -> None:
        self.fetcher = fetcher
        self.ref = ref
        self.software = ref.software
        self.tz = tz
        self.now = now
        self.max_flood_wait = max_flood_wait
        self.identity: Identity | None = None
        self.last_pm_id: int | None = None
        """The newest PM id this account is known to have sent (a look in the sent box for
        a newer one stops there)."""
        self._last_write: float | None = None
        self._gap = 0.0
        """The least gap between two writes the forum's flood limit has asked for."""

    # ---- the reply -----------------------------------------------------------------------

    def reply(self, body: str, *, before_send: Callable[[int | None], None] | None = None,
              ) -> Written:
        """Post `body` (BBCode) as a reply in the thread. `before_send(after)` is called
        just before the form goes out, with the id of the thread's last post as the form
        showed it (the caller records the attempt: a retry looks for the post after it)."""
        url = self._reply_form_url()
        return self._write(
            url,
            "postmodify" if self.software == "smf" else "postform",
            {"message": body},
            lambda answer, after: self._posted(answer, body, after),
            before_send=before_send,
            what=f"the reply in {self.ref.url}",
        )

    def find_reply(self, body: str, after: int | None) -> Written | None:
        """The post of this account that carries `body`, made after post `after` (None:
        looked for on the thread's last page), if the thread shows one."""
        words = bbcode_words(body)
        for post in self._posts_after(after):
            if self._mine(post) and html_words(post.body_html) == words:
                return Written(post.post_id, post.url, post.posted_at)
        return None

    def _reply_form_url(self) -> str:
        if self.ref.topic_id is None:
            raise WriteRefusedError(f"{self.ref.url}: not a topic address; give the thread's")
        if self.software == "smf":
            return f"{self.ref.base}index.php?action=post;topic={self.ref.topic_id}.0"
        forum = f"f={self.ref.forum_id}&" if self.ref.forum_id is not None else ""
        return f"{self.ref.base}posting.php?mode=reply&{forum}t={self.ref.topic_id}"

    def _posted(self, answer: Response, body: str, after: int | None) -> Written | None:
        """The post the answer shows was made, or None (the answer is a refusal)."""
        html = decode_html(answer.content, answer.charset)
        if self.software == "phpbb":
            m = re.search(r"viewtopic\.php\?(?:[^#\"']*&)?p=(\d+)", answer.url)
            if m is None and "posting.php" not in answer.url:  # the "posted" notice page
                m = re.search(r"viewtopic\.php\?[^\"'#]*?p=(\d+)", html)
            if m is None:
                return None
            post_id = int(m.group(1))
            shown = self._post_on(html, answer.url, post_id)
            return Written(post_id, shown.url if shown else answer.url,
                           shown.posted_at if shown else None)
        if "action=post2" in answer.url:  # SMF redirects away from post2 once it posted
            return None
        try:
            page = self._parse(html, answer.url)
        except AssistantError:
            page = None
        words = bbcode_words(body)
        if page is not None:
            for post in page.posts:
                newer = after is None or post.post_id > after
                if newer and self._mine(post) and html_words(post.body_html) == words:
                    return Written(post.post_id, post.url, post.posted_at)
        found = self.find_reply(body, after)
        if found is None:
            raise UncertainWriteError(
                f"{self.ref.url}: the forum took the reply but the thread does not show it "
                "(held for a moderator's approval?); look at the thread before posting again",
                self.ref.url,
            )
        return found

    def _post_on(self, html: str, url: str, post_id: int) -> Post | None:
        try:
            page = self._parse(html, url)
        except AssistantError:
            return None
        return next((p for p in page.posts if p.post_id == post_id), None)

    def _posts_after(self, after: int | None) -> list[Post]:
        """The thread's posts from the page holding post `after` to the end."""
        if self.ref.topic_id is None:
            return []
        if self.software == "smf":
            anchor = after if after is not None else 2**31 - 1
            url = f"{self.ref.base}index.php?topic={self.ref.topic_id}.msg{anchor}"
        elif after is not None:
            url = f"{self.ref.base}viewtopic.php?p={after}"
        else:
            url = f"{self.ref.base}viewtopic.php?t={self.ref.topic_id}&start=999999"
        out: list[Post] = []
        for _ in range(50):  # a bound: the posts of the minutes a write can take
            answer = self.fetcher.get(url)
            page = self._parse(decode_html(answer.content, answer.charset), answer.url)
            self._learn_identity(decode_html(answer.content, answer.charset))
            out += [p for p in page.posts if after is None or p.post_id > after]
            if page.page >= page.page_count or page.page >= len(page.page_urls):
                break
            url = page.page_urls[page.page]
        return out

    def _parse(self, html: str, url: str) -> Any:
        return parse_topic_page(html, url, tz=self.tz, now=self.now(), software=self.software)

    def _mine(self, post: Post) -> bool:
        me = self.identity
        if me is None:
            return False
        if me.member_id is not None and post.author_id is not None:
            return post.author_id == me.member_id
        return me.name is not None and post.author.casefold() == me.name.casefold()

    # ---- private messages ------------------------------------------------------------------

    def send_pm(self, to: Recipient, subject: str, body: str, *,
                before_send: Callable[[int | None], None] | None = None) -> Written:
        """Send one PM. `before_send` as for `reply` (its argument is None)."""
        if self.software == "smf":
            who = f";u={to.member_id}" if to.member_id is not None else ""
            url = f"{self.ref.base}index.php?action=pm;sa=send{who}"
            fields = {"subject": subject, "message": body}
            if to.member_id is None:
                fields["to"] = '"' + to.name.replace('"', "") + '"'
        else:
            who = f"&u={to.member_id}" if to.member_id is not None else ""
            url = f"{self.ref.base}ucp.php?i=pm&mode=compose{who}"
            fields = {"subject": subject, "message": body}
        written = self._write(
            url,
            "postmodify" if self.software == "smf" else "postform",
            fields,
            lambda answer, _after: self._pm_sent(answer, to, subject, body),
            before_send=before_send,
            what=f"the PM to {to.name}",
            recipient=to,
        )
        self.last_pm_id = max(self.last_pm_id or 0, written.id)
        return written

    def _pm_sent(self, answer: Response, to: Recipient, subject: str,
                 body: str) -> Written | None:
        html = decode_html(answer.content, answer.charset)
        if self.software == "phpbb":
            m = re.search(r"ucp\.php\?i=pm&(?:amp;)?mode=view&(?:amp;)?p=(\d+)", html)
            if m is None or find_form(html, answer.url, form_id="postform"):
                return None
            return Written(int(m.group(1)), f"{self.ref.base}ucp.php?i=pm&mode=view&p="
                           f"{m.group(1)}", self.now())
        if "done=sent" not in answer.url:
            return None
        found = self.find_sent_pm(to, subject, body, after_id=self.last_pm_id)
        if found is None:
            raise UncertainWriteError(
                f"{self.ref.base}: the forum said the PM to {to.name} was sent, but the sent "
                "box does not show it; look at the sent box before sending it again",
                self.ref.base,
            )
        return found

    def find_sent_pm(self, to: Recipient, subject: str, body: str, *,
                     after_id: int | None = None) -> Written | None:
        """The PM of this account to `to` with this subject and text, if its sent box (or
        phpBB's outbox, where a PM waits until it is read) shows one newer than PM
        `after_id` (the last PM known sent before it; PM ids only grow)."""
        words = bbcode_words(body)
        found = self.read_folder("sent", stop_below=after_id,
                                 want=lambda m: _to(m, to, subject))
        for pm in found:  # (`want` only spares opening the others: they are listed too)
            if (_to(pm, to, subject) and pm.body_html is not None
                    and html_words(pm.body_html) == words):
                return Written(pm.pm_id, pm.url, pm.sent_at)
        return None

    def read_folder(self, folder: str, *, since: datetime | None = None,
                    known: set[int] | frozenset[int] = frozenset(),
                    stop_below: int | None = None,
                    want: Callable[[PrivateMessage], bool] | None = None,
                    max_pages: int = MAX_FOLDER_PAGES) -> list[PrivateMessage]:
        """The messages of a PM folder ("inbox" or "sent"), newest first. Reading stops at
        a page whose messages are all `known`, older than `since` or of an id below
        `stop_below`, or after `max_pages`. Known messages are left out; one listed
        without its text is opened (phpBB: one page each) unless `want` turns it down."""
        folders = ["outbox", "sent"] if folder == "sent" and self.software == "phpbb" else [
            folder]
        out: list[PrivateMessage] = []
        for name in folders:
            url: str | None = self.ref.base + FOLDERS[self.software][name]
            for _ in range(max_pages):
                if url is None:
                    break
                answer = self.fetcher.request("GET", url, error_pages=True)
                html = decode_html(answer.content, answer.charset)
                self._learn_identity(html)
                self._check_pm_page(html, answer.url)
                parse = smf_folder if self.software == "smf" else phpbb_folder
                page = parse(html, answer.url, tz=self.tz, now=self.now(),
                             outgoing=name != "inbox")
                current = [m for m in page.messages if not _past(m, since, stop_below)]
                for m in current:
                    if m.pm_id in known:
                        continue
                    out.append(self._opened(m, name) if want is None or want(m) else m)
                if not current or all(m.pm_id in known for m in current) or len(
                        current) < len(page.messages):
                    break
                url = page.next_url
        return out

    def _opened(self, m: PrivateMessage, folder: str) -> PrivateMessage:
        if m.body_html is not None:
            return m
        answer = self.fetcher.get(m.url)
        html = decode_html(answer.content, answer.charset)
        if self.software == "phpbb":
            return phpbb_message(html, answer.url, m, tz=self.tz, now=self.now())
        page = smf_folder(html, answer.url, tz=self.tz, now=self.now(),
                          outgoing=folder != "inbox")
        return next((p for p in page.messages if p.pm_id == m.pm_id
                     and p.body_html is not None), m)

    def _check_pm_page(self, html: str, url: str) -> None:
        tree = LexborHTMLParser(html)
        if tree.css_first("input[type=password]") is not None and tree.css_first(
                "#username_logged_in, #profile_menu_top") is None:
            raise WriteRefusedError(
                f"{url}: the forum shows its login form instead of the private messages: "
                "the session ended; run the command again (it logs in again)", url, "login")
        if self.software == "smf" and tree.css_first("#fatal_error") is not None:
            said = refusal(html)
            raise WriteRefusedError(
                f"{url}: the forum refused to show the private messages: {said.message}",
                url, said.kind)

    # ---- one write, with the forum's manners --------------------------------------------------

    def _write(
        self,
        form_url: str,
        form_id: str,
        fields: dict[str, str],
        done: Callable[[Response, int | None], Written | None],
        *,
        before_send: Callable[[int | None], None] | None,
        what: str,
        recipient: Recipient | None = None,
    ) -> Written:
        waited = 0.0
        steps = iter(PHPBB_FLOOD_STEPS)
        resends = 0
        while True:
            waited += self._pace()
            form = self._open(form_url, form_id, what)
            if recipient is not None and self.software == "phpbb":
                form = self._phpbb_recipient(form, recipient, fields, what)
            after = _last_post_id(form)
            send = dict(form.fields)
            send.update(fields)
            send.pop("preview", None)
            send["post"] = "Post" if self.software == "smf" else "Submit"
            if self.software == "phpbb":
                self._form_age()
            if before_send is not None:
                before_send(after)
            answer = self._send(form.action, send, what)
            written = done(answer, after)
            if written is not None:
                self._last_write = self.fetcher.monotonic()
                return Written(written.id, written.url, written.at, waited)
            said = refusal(decode_html(answer.content, answer.charset))
            if said.kind == "flood":
                wait = (said.wait + 1.0) if said.wait is not None else next(
                    steps, PHPBB_FLOOD_STEPS[-1])
                if waited + wait > self.max_flood_wait:
                    raise WriteRefusedError(
                        f"{what}: the forum's flood limit still refused it after waiting "
                        f"{waited:.0f} s (it said: {said.message}); nothing was written: try "
                        "again in a few minutes", form_url, "flood")
                self._gap = max(self._gap, self._since_last() + wait)
                self.fetcher.sleep(wait)
                waited += wait
                continue
            if said.kind == "retype" and resends < MAX_RESENDS:
                resends += 1
                continue
            raise _refused(what, said, form_url)

    def _open(self, url: str, form_id: str, what: str) -> Form:
        answer = self.fetcher.request("GET", url, error_pages=True)  # a refusal is a 403 page
        html = decode_html(answer.content, answer.charset)
        self._learn_identity(html)
        form = find_form(html, answer.url, form_id=form_id)
        if form is None:
            login = LexborHTMLParser(html).css_first("input[type=password]") is not None
            raise _refused(what, refusal(html, login_form=login), answer.url)
        if form.captcha:
            raise WriteRefusedError(
                f"{what}: the forum asks this account to solve a captcha (visual "
                "confirmation) before it writes; write it by hand in a browser, or ask the "
                "forum's admin to spare the GM's account the captcha", answer.url, "captcha")
        return form

    def _phpbb_recipient(self, form: Form, to: Recipient, fields: dict[str, str],
                         what: str) -> Form:
        """phpBB takes a PM's recipients with the form's "Add" button first (unless the
        compose link named the member: `u=ID` fills them in)."""
        if any(k.startswith("address_list[u]") for k in form.fields):
            return form
        send = dict(form.fields)
        send.update(fields, username_list=to.name, add_to="Add")
        self._form_age()
        answer = self.fetcher.post(form.action, send, error_pages=True)
        html = decode_html(answer.content, answer.charset)
        added = find_form(html, answer.url, form_id="postform")
        if added is None or not any(k.startswith("address_list[u]") for k in added.fields):
            said = refusal(html)
            raise WriteRefusedError(
                f"{what}: the forum did not accept {to.name!r} as a recipient: {said.message}",
                answer.url, "recipient")
        return added

    def _send(self, action: str, fields: dict[str, str], what: str) -> Response:
        try:
            return self.fetcher.post(action, fields, error_pages=True, once=True)
        except FetchError as e:
            if not e.reached:
                raise FetchError(f"{what} was not sent: {e}", e.url, e.status,
                                 reached=False) from None
            raise UncertainWriteError(
                f"{what} was sent but the forum's answer never came ({e}); whether it "
                "arrived is looked up before anything is sent again", e.url) from None

    def _form_age(self) -> None:
        """phpBB: no form goes out within the second it was shown."""
        self.fetcher.sleep(MIN_FORM_AGE)

    def _pace(self) -> float:
        """Keep the gap the forum's flood limit asked for since the last write."""
        if self._last_write is None or self._gap <= 0:
            return 0.0
        wait = self._gap - self._since_last()
        if wait > 0:
            self.fetcher.sleep(wait)
            return wait
        return 0.0

    def _since_last(self) -> float:
        if self._last_write is None:
            return 0.0
        return self.fetcher.monotonic() - self._last_write

    def _learn_identity(self, html: str) -> None:
        if self.identity is not None and self.identity.member_id is not None:
            return
        tree = LexborHTMLParser(html)
        if self.software == "smf":
            m = re.search(r"smf_member_id\s*=\s*(\d+)", html)
            name = tree.css_first("#profile_menu_top .textmenu")
            mid = int(m.group(1)) if m and m.group(1) != "0" else None
        else:
            name = tree.css_first("#username_logged_in .username, "
                                  "#username_logged_in .username-coloured")
            link = tree.css_first('#username_logged_in a[href*="mode=viewprofile"]')
            mid = member_id(link.attributes.get("href") or "") if link is not None else None
        if mid is not None or name is not None:
            self.identity = Identity(mid, clean_text(name.text()) if name is not None else None)

    def whoami(self) -> Identity | None:
        """The logged-in member, read from the forum's header (one page if not yet known)."""
        if self.identity is None:
            answer = self.fetcher.get(self.ref.base + "index.php")
            self._learn_identity(decode_html(answer.content, answer.charset))
        return self.identity


def _past(pm: PrivateMessage, since: datetime | None, stop_below: int | None) -> bool:
    """Older than what is looked for: sent before `since`, or of an id below `stop_below`."""
    if stop_below is not None and pm.pm_id <= stop_below:
        return True
    return since is not None and pm.sent_at is not None and pm.sent_at < since


def _to(pm: PrivateMessage, to: Recipient, subject: str) -> bool:
    """A sent-box row that may be the PM to `to` with `subject` (its text decides)."""
    named = {r.casefold() for r in pm.recipients}
    return clean_text(pm.subject) == clean_text(subject) and (
        not named or to.name.casefold() in named)


def _last_post_id(form: Form) -> int | None:
    """The thread's last post as the reply form showed it (SMF `last_msg`, phpBB
    `topic_cur_post_id`): a post made now comes after it."""
    for key in ("last_msg", "topic_cur_post_id"):
        value = form.fields.get(key, "")
        if value.isdigit():
            return int(value)
    return None


_NAMES = {
    "captcha": "the forum asks for a captcha (visual confirmation) the assistant cannot solve",
    "locked": "the topic is locked",
    "permission": "the forum does not allow this account to do it",
    "recipient": "the forum does not know the recipient",
    "login": "the forum's session ended (run the command again: it logs in again)",
    "retype": "the forum kept showing the form again",
    "other": "the forum refused it",
}


def _refused(what: str, said: Refusal, url: str) -> WriteRefusedError:
    return WriteRefusedError(
        f"{what} was not written: {_NAMES.get(said.kind, 'the forum refused it')}; the forum "
        f"says: {said.message}", url, said.kind)
