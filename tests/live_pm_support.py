"""Reading a PM the assistant sent on the real forums as its recipient would: who the forum
delivered it to (its own tables), and the message's page as that member sees it (forum.py,
logged in as the member)."""

from __future__ import annotations

import html
import re


def recipient_of(board, software: str, pm_id: int) -> int:  # noqa: ANN001
    """The one member the forum delivered PM `pm_id` to (phpBB keeps the author's own copy
    in the same table: left out)."""
    if software == "smf":
        rows = board.sql(f"SELECT id_member FROM smf_pm_recipients WHERE id_pm={int(pm_id)}")
    else:
        rows = board.sql(f"SELECT user_id FROM phpbb_privmsgs_to WHERE msg_id={int(pm_id)} "
                         "AND user_id <> author_id")
    assert len(rows) == 1, (pm_id, rows)
    return int(rows[0][0])


def member_reads(board, software: str, member: str, pm_id: int) -> str:  # noqa: ANN001
    """The text of PM `pm_id`'s page as `member` sees it (tags dropped, spaces joined)."""
    url = (f"index.php?action=pm;f=inbox;pmsg={int(pm_id)}" if software == "smf"
           else f"ucp.php?i=pm&mode=view&p={int(pm_id)}")
    _url, page = board.fetch(url, as_member=board._session(member).name)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def line_as_shown(draft: str, starts: str) -> str:
    """The line of a draft (a post or a PM) that starts with `starts`, as the forum shows it
    (BBCode dropped, spaces joined)."""
    line = next(ln for ln in draft.splitlines() if ln.startswith(starts))
    return " ".join(re.sub(r"\[/?\w+(=[^\]]*)?\]", " ", line).split())
