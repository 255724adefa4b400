"""The two paces of the real forums' login forms, through respx with the forms' own
markup (both were met on the real SMF 2.1.5 and phpBB 3.3.10: tests/test_live_login.py).

phpBB refuses a login form sent within the second it was shown ("The submitted form was
invalid"): the form goes at least a second after it came. SMF allows one login per
address every 2 s and answers a quicker one with HTTP 403 "You will have to wait about 2
seconds to login again, sorry.": that wait is kept once and the login tried again.
"""

from __future__ import annotations

import httpx
import pytest
import respx

from assistant.errors import LoginError
from assistant.scrapers import thread_url_info
from assistant.scrapers.http import Fetcher, FetchSettings
from assistant.scrapers.login import login

SMF = "https://forum.example.org/index.php?topic=7.0"
PHPBB = "https://forum.example.org/viewtopic.php?t=2"
SMF_FORM = """<html><body><form action="https://forum.example.org/index.php?action=login2"
 method="post" name="frmLogin" id="frmLogin"><input type="text" name="user">
<input type="password" name="passwrd"><input type="hidden" name="e1e3c8a1a4" value="ad47ae">
</form></body></html>"""
SMF_TOO_SOON = """<html><body><div id="fatal_error"><div class="cat_bar"><h3
 class="catbg">An error has occurred</h3></div><div class="windowbg">You will have to wait
 about 2 seconds to login again, sorry.</div></div></body></html>"""
SMF_MEMBER = '<html><body><a href="index.php?action=logout;sesc=1">Logout</a></body></html>'
PHPBB_FORM = """<html><body><form action="./ucp.php?mode=login&amp;sid=55e8" method="post"
 id="login"><input type="text" name="username"><input type="password" name="password">
<input type="hidden" name="creation_time" value="1795345200">
<input type="hidden" name="form_token" value="0123"></form></body></html>"""
PHPBB_MEMBER = '<html><body><a href="./ucp.php?mode=logout&amp;sid=55e8">Logout</a></body></html>'


class Clock:
    """A monotonic clock that only the recorded sleeps move."""

    def __init__(self) -> None:
        self.t = 100.0
        self.sleeps: list[float] = []

    def monotonic(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.t += seconds


def fetcher(clock: Clock) -> Fetcher:
    return Fetcher(httpx.Client(), FetchSettings(delay=0), sleep=clock.sleep,
                   monotonic=clock.monotonic)


@respx.mock
def test_phpbb_gets_its_form_a_second_after_it_came_and_smf_at_once():
    respx.get("https://forum.example.org/ucp.php?mode=login").mock(
        return_value=httpx.Response(200, text=PHPBB_FORM))
    respx.post(url__regex=r".*ucp\.php\?mode=login.*").mock(
        return_value=httpx.Response(200, text=PHPBB_MEMBER))
    clock = Clock()
    login(fetcher(clock), thread_url_info(PHPBB), "Conia", "s3cret")
    assert clock.sleeps == [1.0]

    respx.get("https://forum.example.org/index.php?action=login").mock(
        return_value=httpx.Response(200, text=SMF_FORM))
    respx.post("https://forum.example.org/index.php?action=login2").mock(
        return_value=httpx.Response(200, text=SMF_MEMBER))
    clock = Clock()
    login(fetcher(clock), thread_url_info(SMF), "Conia", "s3cret")
    assert clock.sleeps == []


@respx.mock
def test_smfs_wait_between_logins_is_kept_once_then_the_login_goes_through():
    respx.get("https://forum.example.org/index.php?action=login").mock(
        return_value=httpx.Response(200, text=SMF_FORM))
    post = respx.post("https://forum.example.org/index.php?action=login2").mock(
        side_effect=[httpx.Response(403, text=SMF_TOO_SOON),
                     httpx.Response(200, text=SMF_MEMBER)])
    clock = Clock()
    login(fetcher(clock), thread_url_info(SMF), "Conia", "s3cret")
    assert post.call_count == 2 and clock.sleeps == [3]


@respx.mock
def test_smf_asking_to_wait_again_is_one_line_saying_to_try_later():
    respx.get("https://forum.example.org/index.php?action=login").mock(
        return_value=httpx.Response(200, text=SMF_FORM))
    respx.post("https://forum.example.org/index.php?action=login2").mock(
        return_value=httpx.Response(403, text=SMF_TOO_SOON))
    clock = Clock()
    with pytest.raises(LoginError) as err:
        login(fetcher(clock), thread_url_info(SMF), "Conia", "s3cret")
    assert "still asks to wait 2 s between logins; try again" in str(err.value)
    assert "\n" not in str(err.value) and clock.sleeps == [3]


@respx.mock
def test_a_403_without_a_reason_is_a_failed_login_not_members_only():
    respx.get("https://forum.example.org/index.php?action=login").mock(
        return_value=httpx.Response(200, text=SMF_FORM))
    respx.post("https://forum.example.org/index.php?action=login2").mock(
        return_value=httpx.Response(403, text="<html><body>Forbidden</body></html>"))
    with pytest.raises(LoginError, match=r"as 'Conia' failed: the forum answered HTTP 403"):
        login(fetcher(Clock()), thread_url_info(SMF), "Conia", "s3cret")
