"""Private-message folders of both forums as the logged-in member sees them: the inbox
(what players sent the GM) and the sent box (what the GM sent: the check that a PM went
out before it is ever sent again).

SMF shows a folder's messages with their bodies on one page (its default "all at once";
a member who chose "one at a time" sees a list, and each message is opened by its
`pmsg=` link). phpBB lists a folder (subject, other party, time) and shows each message
on a page of its own. Times are text in the viewer's zone: SMF's in the zone given,
phpBB's in the zone its footer states. Both are asked for newest first, so a reader that
already knows the older messages stops at the first page holding only known ones.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime, tzinfo

from selectolax.lexbor import LexborHTMLParser, LexborNode

from assistant.scrapers import phpbb, smf
from assistant.scrapers.common import absolute, clean_text, member_id
from assistant.scrapers.page_zone import stated_zone


@dataclass(frozen=True)
class PrivateMessage:
    """One private message as a folder of the GM's account shows it."""

    pm_id: int
    """The forum's id of the message (SMF `id_pm`, phpBB `msg_id`)."""
    subject: str
    sender: str | None
    """Who sent it (in the sent box: the GM's account)."""
    sender_id: int | None
    recipients: tuple[str, ...]
    """Who it went to, where the page says (the sent box always does)."""
    sent_at: datetime | None
    """When it was sent (aware UTC; to the minute, as both forums print it)."""
    body_html: str | None
    """The message as the forum renders it; None while only listed (phpBB's list, SMF's
    "one at a time" list)."""
    url: str
    """Where the message is shown."""


@dataclass(frozen=True)
class FolderPage:
    messages: tuple[PrivateMessage, ...]
    next_url: str | None
    """The folder's next (older) page, None on the last."""


FOLDERS = {
    # SMF lists oldest first from its last page unless asked (a member's "newest first"
    # option aside): the order is always asked for.
    "smf": {"inbox": "index.php?action=pm;f=inbox;sort=date;desc;start=0",
            "sent": "index.php?action=pm;f=sent;sort=date;desc;start=0"},
    # phpBB keeps a PM in the outbox until its recipient has read it, then in the sent box.
    "phpbb": {"inbox": "ucp.php?i=pm&folder=inbox", "sent": "ucp.php?i=pm&folder=sentbox",
              "outbox": "ucp.php?i=pm&folder=outbox"},
}


# ---- SMF ----------------------------------------------------------------------------------

_SMF_MSG = re.compile(r"^msg(\d+)$")


def smf_folder(html: str, url: str, *, tz: tzinfo, now: datetime,
               outgoing: bool = False) -> FolderPage:
    """An SMF PM folder page: every message shown on it, and the ids only listed.
    `outgoing`: the sent box, whose list names the recipient where the inbox's names the
    sender."""
    tree = LexborHTMLParser(html)
    shown: dict[int, PrivateMessage] = {}
    for block in tree.css("div.windowbg[id^=msg]"):
        m = _SMF_MSG.match(block.attributes.get("id") or "")
        if m:
            shown[int(m.group(1))] = _smf_message(block, int(m.group(1)), url, tz, now)
    listed = _smf_rows(tree, url, tz, now, outgoing)
    messages = [shown.get(pm.pm_id, pm) for pm in listed]
    messages += [pm for pid, pm in shown.items() if pid not in {p.pm_id for p in listed}]
    return FolderPage(tuple(messages), _next_page(tree, url))


def _smf_rows(tree: LexborHTMLParser, url: str, tz: tzinfo, now: datetime,
              outgoing: bool) -> list[PrivateMessage]:
    """The folder's list: id (its checkbox), subject, the other party, time."""
    out = []
    for box in tree.css('input[name="pms[]"]'):
        value = box.attributes.get("value") or ""
        row = _ancestor(box, "tr")
        if not value.isdigit() or row is None:
            continue
        subject_node = row.css_first("td.pm_subject a")
        party = row.css_first("td.pm_from_to a")
        time_node = row.css_first("td.pm_time")
        name = clean_text(party.text()) if party is not None else None
        party_id = member_id(party.attributes.get("href") or "") if party is not None else None
        out.append(PrivateMessage(
            pm_id=int(value),
            subject=_subject(subject_node),
            sender=None if outgoing else name,
            sender_id=None if outgoing else party_id,
            recipients=(name,) if outgoing and name else (),
            sent_at=_smf_time(clean_text(time_node.text()) if time_node else "", tz, now),
            body_html=None,
            url=f"{url};pmsg={value}" if ";pmsg=" not in url else url,
        ))
    return out


def _subject(node: LexborNode | None) -> str:
    if node is None:
        return ""
    for new in node.css("span.new_posts"):
        new.decompose()
    return clean_text(node.text())


def _smf_message(block: LexborNode, pm_id: int, url: str, tz: tzinfo,
                 now: datetime) -> PrivateMessage:
    author = block.css_first(".poster h4 a") or block.css_first(".poster h4")
    subject = block.css_first(f"#subject_{pm_id}") or block.css_first(".keyinfo h5")
    info = block.css_first(".postinfo")
    body = block.css_first(f"#msg_{pm_id}") or block.css_first("div.inner")
    info_text = clean_text(info.text()) if info is not None else ""
    sent_at = None
    if " on: " in f" {info_text}":
        sent_at = _smf_time(info_text.rsplit("on:", 1)[1], tz, now)
    recipients = tuple(clean_text(a.text()) for a in info.css("a")) if info is not None else ()
    return PrivateMessage(
        pm_id=pm_id,
        subject=clean_text(subject.text()) if subject is not None else "",
        sender=clean_text(author.text()) if author is not None else None,
        sender_id=member_id(author.attributes.get("href") or "") if author is not None
        and author.tag == "a" else None,
        recipients=recipients,
        sent_at=sent_at,
        body_html=(body.inner_html or "").strip() if body is not None else None,
        url=f"{url};pmsg={pm_id}" if ";pmsg=" not in url else url,
    )


def _smf_time(text: str, tz: tzinfo, now: datetime) -> datetime | None:
    try:
        return smf.parse_forum_time(clean_text(text), tz, now)
    except ValueError:
        return None


# ---- phpBB --------------------------------------------------------------------------------

_PHPBB_VIEW = re.compile(r"mode=view&(?:amp;)?f=(-?\d+)&(?:amp;)?p=(\d+)")


def phpbb_folder(html: str, url: str, *, tz: tzinfo, now: datetime,
                 outgoing: bool = False) -> FolderPage:
    """A phpBB PM folder's list: id, subject, the other party and time of each row
    (`outgoing`: the outbox or sent box, whose rows name the recipient)."""
    tree = LexborHTMLParser(html)
    zone = stated_zone(tree) or tz
    out = []
    for title in tree.css("ul.pmlist a.topictitle"):
        href = title.attributes.get("href") or ""
        m = _PHPBB_VIEW.search(href)
        inner = _ancestor_class(title, "list-inner")
        if m is None or inner is None:
            continue
        party = inner.css_first("a.username, a.username-coloured")
        row = _ancestor(title, "li")
        when = row.css_first("dd.info") if row is not None else None
        # The time follows "»" in an inbox row (after the subject, which may hold numbers:
        # "Night 1"), and stands in the row's info cell in the outbox and sent box.
        text = clean_text(when.text()) if when is not None else clean_text(
            inner.text()).rsplit("»", 1)[-1]
        sender = clean_text(party.text()) if party is not None else None
        to = outgoing
        out.append(PrivateMessage(
            pm_id=int(m.group(2)),
            subject=clean_text(title.text()),
            sender=None if to else sender,
            sender_id=None if to or party is None else member_id(
                party.attributes.get("href") or ""),
            recipients=(sender,) if to and sender else (),
            sent_at=phpbb.parse_forum_time(text, zone, now),
            body_html=None,
            url=absolute(url, href),
        ))
    return FolderPage(tuple(out), _next_page(tree, url))


def phpbb_message(html: str, url: str, listed: PrivateMessage, *, tz: tzinfo,
                  now: datetime) -> PrivateMessage:
    """The message `listed` with its body and its own page's sender, recipients and time."""
    tree = LexborHTMLParser(html)
    zone = stated_zone(tree) or tz
    post = tree.css_first(f"#post-{listed.pm_id}") or tree.css_first("div.post.pm")
    if post is None:
        return listed
    body = post.css_first("div.content")
    author = post.css_first("p.author")
    sender, sender_id, recipients, sent_at = listed.sender, listed.sender_id, (), listed.sent_at
    if author is not None:
        text = author.html or ""
        parts = re.split(r"<strong>\s*([^<:]+):\s*</strong>", text)
        fields = {parts[i].strip().lower(): parts[i + 1] for i in range(1, len(parts) - 1, 2)}
        if "from" in fields:
            node = LexborHTMLParser(fields["from"]).css_first("a")
            if node is not None:
                sender = clean_text(node.text())
                sender_id = member_id(node.attributes.get("href") or "")
        if "recipient" in fields or "recipients" in fields:
            chunk = fields.get("recipient") or fields.get("recipients") or ""
            recipients = tuple(clean_text(a.text()) for a in LexborHTMLParser(chunk).css("a"))
        if "sent" in fields:
            sent_at = phpbb.parse_forum_time(
                clean_text(LexborHTMLParser(fields["sent"]).text()), zone, now) or sent_at
    return replace(
        listed,
        sender=sender,
        sender_id=sender_id,
        recipients=recipients or listed.recipients,
        sent_at=sent_at,
        body_html=(body.inner_html or "").strip() if body is not None else "",
    )


# ---- shared -------------------------------------------------------------------------------

def _next_page(tree: LexborHTMLParser, url: str) -> str | None:
    """The link to the next (older) page of the folder, if any."""
    for a in tree.css(".pagination a[rel=next], .pagelinks a.nav_page, a.button[rel=next]"):
        href = a.attributes.get("href") or ""
        text = clean_text(a.text()).lower()
        if a.attributes.get("rel") == "next" or text in ("»", ">", "next", "next page"):
            return absolute(url, href)
    current = tree.css_first(".pagelinks .current_page")
    if current is not None:  # SMF: the number after the current page
        nxt = current.next
        while nxt is not None and nxt.tag != "a":
            nxt = nxt.next
        if nxt is not None and clean_text(nxt.text()).isdigit():
            return absolute(url, nxt.attributes.get("href") or "")
    return None


def _ancestor(node: LexborNode, tag: str) -> LexborNode | None:
    up = node.parent
    while up is not None and up.tag != tag:
        up = up.parent
    return up


def _ancestor_class(node: LexborNode, cls: str) -> LexborNode | None:
    up = node.parent
    while up is not None and cls not in (up.attributes.get("class") or "").split():
        up = up.parent
    return up
