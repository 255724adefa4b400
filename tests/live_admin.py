"""What a forum's administrator sets up for the real-forum tests, done through the forums'
own admin pages (SMF's Admin centre, phpBB's ACP) as an admin's browser would, and the
forums' access logs read to count what the assistant asked for.

The forms are sent whole, as a browser sends them: every field with its current value
(selects included, which forum.py's form reader leaves out), only the changes made.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urljoin

from live_support import forum
from selectolax.lexbor import LexborHTMLParser, LexborNode

_SKIPPED_INPUTS = {"submit", "button", "image", "reset", "file"}


def form_fields(form: LexborNode) -> dict[str, str]:
    """The fields a browser sends for `form` as shown (no submit button)."""
    fields: dict[str, str] = {}
    for node in form.css("input, textarea, select"):
        a = node.attributes
        name = a.get("name")
        if not name or "disabled" in a:
            continue
        if node.tag == "input":
            kind = (a.get("type") or "text").lower()
            if kind in _SKIPPED_INPUTS or (kind in ("checkbox", "radio") and "checked" not in a):
                continue
            fields[name] = a.get("value") or ("on" if kind in ("checkbox", "radio") else "")
        elif node.tag == "textarea":
            fields[name] = node.text(deep=True)
        else:
            options = node.css("option")
            chosen = [o for o in options if "selected" in o.attributes] or options[:1]
            if chosen:
                value = chosen[0].attributes.get("value")
                fields[name] = value if value is not None else chosen[0].text(strip=True)
    return fields


def find_form(page: str, url: str, action_has: str,
              field: str | None = None) -> tuple[str, dict[str, str]]:
    """(absolute action, fields) of the first form whose action contains `action_has`
    (and that has an input named `field`, when given)."""
    for form in LexborHTMLParser(page).css("form"):
        action = form.attributes.get("action") or ""
        if action_has in action and (field is None or form.css_first(f'[name="{field}"]')):
            return urljoin(url, action), form_fields(form)
    raise AssertionError(f"no form with {action_has!r} in its action on {url}: "
                         f"{forum.SMF.errors(page)}")


# ---- SMF --------------------------------------------------------------------------------

def _smf_admin_page(smf: forum.SMF, path: str) -> tuple[str, str]:
    """An admin page as the admin sees it, after SMF's password re-check when it asks."""
    admin = smf._session(smf.admin_user)
    url, page = smf.fetch(path, as_member=admin.name)
    if 'name="admin_pass"' in page:
        action, fields = find_form(page, url, "", "admin_pass")
        fields["admin_pass"] = admin.password
        url, page = smf.fetch(action, fields, as_member=admin.name)
    return url, page


def smf_members_only_board(smf: forum.SMF, name: str) -> int:
    """A new board that guests may not see: Admin > Boards > Add Board with "Guests"
    unticked under "Allowed groups". -> the board's id."""
    url, page = _smf_admin_page(smf, "index.php?action=admin;area=manageboards;sa=newboard;cat=1")
    action, fields = find_form(page, url, "sa=board2")
    fields.pop("groups[-1]")  # the Guests box
    fields.update(board_name=name, add="Add Board")
    smf.fetch(action, fields, as_member=smf.admin_user)
    rows = smf.sql(f"SELECT id_board, member_groups FROM smf_boards WHERE name={smf.q(name)}")
    assert len(rows) == 1 and "-1" not in rows[0][1].split(","), rows
    return int(rows[0][0])


def smf_default_zone(smf: forum.SMF, zone: str) -> None:
    """The forum's default time zone (what guests see), set in Admin > Features and
    Options > General > "Forum default time zone"."""
    url, page = _smf_admin_page(smf, "index.php?action=admin;area=featuresettings;sa=basic")
    action, fields = find_form(page, url, "sa=basic")
    assert "default_timezone" in fields, sorted(fields)
    fields.update(default_timezone=zone, save="Save")
    smf.fetch(action, fields, as_member=smf.admin_user)
    got = smf.sql("SELECT value FROM smf_settings WHERE variable='default_timezone'")
    assert got == [[zone]], got


def smf_member_zone(smf: forum.SMF, name: str, zone: str) -> None:
    """A member's own time zone, set in their Profile > Look and Layout: the forum then
    shows that member every time in it (guests keep the board's)."""
    member = smf.login(name).name
    user = smf.member_id(name)
    url, page = smf.fetch(f"index.php?action=profile;area=theme;u={user}", as_member=member)
    action, fields = find_form(page, url, "area=theme", "timezone")
    fields.update(timezone=zone, save="Change profile")
    smf.fetch(action, fields, as_member=member)
    got = smf.sql(f"SELECT timezone FROM smf_members WHERE id_member={user}")
    assert got == [[zone]], got


# ---- phpBB ------------------------------------------------------------------------------

def _phpbb_acp(phpbb: forum.PhpBB) -> str:
    """The admin's session id, after the ACP's own password re-check."""
    admin = phpbb._session(phpbb.admin_user)
    sid = next(c.value for c in admin.cookies if c.name.endswith("_sid"))
    url, page = phpbb.fetch(f"adm/index.php?sid={sid}", as_member=admin.name)
    if "credential" in page:
        action, fields = find_form(page, url, "", "credential")
        secret = next(k for k in fields if k.startswith("password_"))
        fields.update({secret: admin.password, "login": "Login"})
        phpbb._form_key_wait(fields)
        phpbb.fetch(action, fields, as_member=admin.name)
    return next(c.value for c in admin.cookies if c.name.endswith("_sid"))


def phpbb_members_only_forum(phpbb: forum.PhpBB, name: str) -> int:
    """A new forum that guests may not see: ACP > Forums > Create new forum (permissions
    copied from "Your first forum"), then ACP > Forum permissions with every permission
    of the Guests group set to No. -> the forum's id."""
    sid = _phpbb_acp(phpbb)
    admin = phpbb.admin_user
    url, page = phpbb.fetch(f"adm/index.php?sid={sid}&i=acp_forums&mode=manage&parent_id=1"
                            "&action=add", as_member=admin)
    action, fields = find_form(page, url, "action=add")
    fields.update(forum_name=name, forum_type="1", forum_parent_id="1",
                  forum_perm_from=str(phpbb.board), update="Submit")
    phpbb._form_key_wait(fields)
    phpbb.fetch(action, fields, as_member=admin)
    forum_id = int(phpbb._one(
        f"SELECT forum_id FROM phpbb_forums WHERE forum_name={phpbb.q(name)}"))
    guests = phpbb._one("SELECT group_id FROM phpbb_groups WHERE group_name='GUESTS'")
    url, page = phpbb.fetch(f"adm/index.php?sid={sid}&i=acp_permissions&mode=setting_forum_local"
                            f"&forum_id[]={forum_id}&group_id[]={guests}", as_member=admin)
    action, fields = find_form(page, url, "acp_permissions")
    # "All NO", no role: guests keep no permission in this forum.
    fields.update({k: "-1" for k in fields if k.startswith("setting[")})
    fields.update({f"role[{guests}][{forum_id}]": "0",
                   "action[apply_all_permissions]": "Apply all permissions"})
    phpbb._form_key_wait(fields)
    phpbb.fetch(action, fields, as_member=admin)
    left = phpbb.sql(f"SELECT COUNT(*) FROM phpbb_acl_groups WHERE group_id={guests} "
                     f"AND forum_id={forum_id}")
    assert left == [["0"]], left
    return forum_id


# ---- the access logs --------------------------------------------------------------------

_REQUEST = re.compile(r"\] (?P<client>[\d.]+):\d+ \[(?P<status>\d{3})\]: (?P<method>[A-Z]+) "
                      r"(?P<path>\S+)")


@dataclass(frozen=True)
class Request:
    client: str
    status: int
    method: str
    path: str


class AccessLog:
    """The requests a forum's PHP server logged (`php -S` writes one line a request to
    DIR/logs/php-<forum>.log before it closes the connection, so a request whose answer
    the client has read in full is already there)."""

    def __init__(self, forums_dir: Path, software: str) -> None:
        self.path = forums_dir / "logs" / f"php-{software}.log"
        self.offset = 0

    def mark(self) -> None:
        """From now on: `since_mark()` returns only later requests."""
        self.offset = self.path.stat().st_size

    def since_mark(self) -> list[Request]:
        with self.path.open("rb") as f:
            f.seek(self.offset)
            text = f.read().decode("utf-8", "replace")
        return [Request(m["client"], int(m["status"]), m["method"], m["path"])
                for m in _REQUEST.finditer(text)]


# ---- sessions ---------------------------------------------------------------------------

def end_sessions(board: forum.SMF | forum.PhpBB, name: str) -> None:
    """End every session of member `name` on the forum, so a reader logged in as them is
    shown the login form again. SMF: the member logs out (its Logout link gives the
    member a new salt, which voids every login cookie of theirs). phpBB: its sessions and
    "remember me" keys are deleted, as its garbage collection does once they expire."""
    if isinstance(board, forum.SMF):
        url, page = board.fetch("index.php", as_member=board.login(name).name)
        link = LexborHTMLParser(page).css_first('a[href*="action=logout"]')
        assert link is not None, "no Logout link for a logged-in member"
        board.fetch(urljoin(url, link.attributes["href"] or ""), as_member=name)
        return
    user = board.member_id(name)
    board.sql(f"DELETE FROM phpbb_sessions WHERE session_user_id={user}")
    board.sql(f"DELETE FROM phpbb_sessions_keys WHERE user_id={user}")


# ---- moderation -------------------------------------------------------------------------

def delete_topic(board: forum.SMF | forum.PhpBB, topic: int) -> None:
    """The admin deletes a topic with the forum's own moderation link: SMF's "Remove
    Topic" (gone for good, the recycle bin being off by default), phpBB's "Delete topic"
    confirmed with Yes (soft-deleted: hidden from everyone but moderators)."""
    admin = board._session(board.admin_user).name
    url, page = board.fetch(board.topic_url(topic), as_member=admin)
    marker = "action=removetopic2" if isinstance(board, forum.SMF) else "action=delete_topic"
    link = LexborHTMLParser(page).css_first(f'a[href*="{marker}"]')
    assert link is not None, f"no {marker} link for the admin on topic {topic}"
    url, page = board.fetch(urljoin(url, link.attributes["href"] or ""), as_member=admin)
    if isinstance(board, forum.PhpBB):
        action, fields = find_form(page, url, "action=delete_topic")
        board.fetch(action, fields | {"confirm": "Yes"}, as_member=admin)
        hidden = board._one(f"SELECT topic_visibility FROM phpbb_topics WHERE topic_id={topic}")
        assert hidden == "2", hidden  # ITEM_DELETED
    else:
        left = board._one(f"SELECT COUNT(*) FROM smf_topics WHERE id_topic={topic}")
        assert left == "0", left


# ---- posting limits and locks (tests of the GM's writes) ----------------------------------

def smf_setting(smf: forum.SMF, area: str, name: str, value: str,
                stored: str | None = None) -> str:
    """One setting of an SMF admin settings page (`area` such as "postsettings;sa=posts"
    for "Posts and Topics > Post Settings", "antispam" for "Security > Anti-Spam"), saved
    through its form as the admin would (`stored`: what SMF then keeps, when it is not the
    value typed: its anti-spam page keeps -1 for 0 while guests must answer a captcha).
    -> the form's value before."""
    url, page = _smf_admin_page(smf, f"index.php?action=admin;area={area}")
    action, fields = find_form(page, url, "save", name)
    before = fields[name]
    fields.update({name: value, "save": "Save"})
    smf.fetch(action, fields, as_member=smf.admin_user)
    got = smf.sql(f"SELECT value FROM smf_settings WHERE variable={smf.q(name)}")
    assert got == [[value if stored is None else stored]], got
    return before


def phpbb_config(phpbb: forum.PhpBB, name: str, value: str) -> None:
    """A phpBB board setting, set with its own console (`config:set`, as an admin on the
    server would; the ACP's "Flood interval" writes the same row)."""
    import subprocess

    subprocess.run(["php", "-d", "date.timezone=UTC", "bin/phpbbcli.php", "--no-ansi",
                    "config:set", name, value], cwd=phpbb.root, check=True,
                   capture_output=True, stdin=subprocess.DEVNULL, timeout=60)


def lock_topic(board: forum.SMF | forum.PhpBB, topic: int) -> None:
    """The admin locks a topic with the forum's own moderation tools: SMF's "Lock" link
    under the topic, phpBB's quick-moderation "Lock topic" confirmed with Yes."""
    admin = board._session(board.admin_user).name
    url, page = board.fetch(board.topic_url(topic), as_member=admin)
    if isinstance(board, forum.SMF):
        link = LexborHTMLParser(page).css_first('a[href*="action=lock;"]')
        assert link is not None, f"no Lock link for the admin on topic {topic}"
        board.fetch(urljoin(url, link.attributes["href"] or ""), as_member=admin)
        locked = board._one(f"SELECT locked FROM smf_topics WHERE id_topic={topic}")
        assert locked != "0", locked
        return
    link = LexborHTMLParser(page).css_first('a[href*="quickmod=1"][href*="action=lock"]')
    assert link is not None, f"no Lock topic link for the admin on topic {topic}"
    url, page = board.fetch(urljoin(url, link.attributes["href"] or ""), as_member=admin)
    action, fields = find_form(page, url, "action=lock")
    board._form_key_wait(fields)
    board.fetch(action, fields | {"confirm": "Yes"}, as_member=admin)
    locked = board._one(f"SELECT topic_status FROM phpbb_topics WHERE topic_id={topic}")
    assert locked == "1", locked  # ITEM_LOCKED
