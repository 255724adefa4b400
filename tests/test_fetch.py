"""The fetcher (retries, Retry-After, pace, cookies, session ids, login) through respx,
and the thread-URL and forum-software checks on real pages."""

from __future__ import annotations

from datetime import UTC, datetime
from email.utils import format_datetime
from urllib.parse import parse_qsl
from zoneinfo import ZoneInfo

import httpx
import pytest
import respx
from conftest import REALFORUM, WILD
from selectolax.lexbor import LexborHTMLParser

from assistant.clock import FakeClock
from assistant.errors import FetchError, LoginError, NotAThreadError, UnsupportedForumError
from assistant.scrapers import detect_software, parse_topic_page, thread_url_info
from assistant.scrapers.http import Fetcher, FetchSettings
from assistant.scrapers.login import login

URL = "https://forum.example.org/index.php?topic=7.0"


class Sleeps(list):
    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def fetcher(clock: FakeClock | None = None, **settings: object) -> tuple[Fetcher, Sleeps]:
    sleeps = Sleeps()
    settings.setdefault("delay", 0)
    return Fetcher(httpx.Client(), FetchSettings(**settings), sleep=sleeps, clock=clock), sleeps


@respx.mock
def test_a_503_then_200_is_retried_with_backoff():
    route = respx.get(URL).mock(side_effect=[httpx.Response(503), httpx.Response(200, text="ok")])
    f, sleeps = fetcher(backoff=2.0)

    answer = f.get(URL)

    assert answer.text == "ok" and route.call_count == 2 and f.requests == 2
    assert sleeps == [2.0]


@respx.mock
def test_backoff_doubles_and_gives_up_with_an_actionable_error():
    respx.get(URL).mock(return_value=httpx.Response(502))
    f, sleeps = fetcher(backoff=1.0, retries=3)

    with pytest.raises(FetchError) as err:
        f.get(URL)

    assert sleeps == [1.0, 2.0, 4.0] and f.requests == 4
    message = str(err.value)
    assert URL in message and "HTTP 502" in message and "try again later" in message
    assert err.value.status == 502


@respx.mock
def test_a_429_waits_as_long_as_retry_after_says():
    respx.get(URL).mock(side_effect=[
        httpx.Response(429, headers={"Retry-After": "7"}), httpx.Response(200, text="ok"),
    ])
    f, sleeps = fetcher(backoff=1.0)

    assert f.get(URL).text == "ok"
    assert sleeps == [7.0]


@respx.mock
def test_retry_after_as_an_http_date_and_its_cap(clock):
    later = datetime(2026, 11, 22, 12, 0, 42, tzinfo=UTC)
    respx.get(URL).mock(side_effect=[
        httpx.Response(429, headers={"Retry-After": format_datetime(later, usegmt=True)}),
        httpx.Response(503, headers={"Retry-After": "86400"}),
        httpx.Response(200, text="ok"),
    ])
    f, sleeps = fetcher(clock, max_retry_after=300.0)

    assert f.get(URL).text == "ok"
    assert sleeps == [42.0, 300.0]


@respx.mock
def test_connection_errors_are_retried_then_named():
    respx.get(URL).mock(side_effect=httpx.ConnectError("refused"))
    f, sleeps = fetcher(retries=2, backoff=0.5)

    with pytest.raises(FetchError) as err:
        f.get(URL)

    assert f.requests == 3 and sleeps == [0.5, 1.0]
    assert "could not be reached" in str(err.value) and URL in str(err.value)


@respx.mock
def test_a_404_is_not_retried_and_says_what_to_do():
    respx.get(URL).mock(return_value=httpx.Response(404))
    f, sleeps = fetcher()

    with pytest.raises(FetchError) as err:
        f.get(URL)

    assert f.requests == 1 and sleeps == []
    assert "deleted or moved" in str(err.value) and err.value.status == 404


@respx.mock
def test_requests_are_paced_and_name_the_assistant():
    route = respx.get(URL).mock(return_value=httpx.Response(200))
    ticks = iter([100.0, 100.4, 200.0])
    sleeps = Sleeps()
    f = Fetcher(httpx.Client(), FetchSettings(delay=1.5), sleep=sleeps,
                monotonic=lambda: next(ticks))

    f.get(URL)
    f.get(URL)  # 0.4 s after the first: waits the rest of the 1.5 s
    f.get(URL)  # long after: no wait

    assert sleeps == [pytest.approx(1.1)]
    assert "forum-game-assistant/" in route.calls[0].request.headers["User-Agent"]


@respx.mock
def test_cookies_are_kept_and_session_ids_stripped_from_urls():
    sid = "adafbd019f63542ed3f869d03fc81ad2"
    respx.get(URL).mock(return_value=httpx.Response(
        302, headers={"Location": f"https://forum.example.org/index.php?PHPSESSID={sid}&topic=7.0",
                      "Set-Cookie": "PHPSESSID=abc123; Path=/"},
    ))
    second = respx.get(url__regex=r".*PHPSESSID=.*").mock(
        return_value=httpx.Response(200, text="x"))
    f, _ = fetcher()

    answer = f.get(URL)

    assert answer.url == "https://forum.example.org/index.php?topic=7.0"
    assert second.calls[0].request.headers["Cookie"] == "PHPSESSID=abc123"


# ---- thread URLs and forum software --------------------------------------------------

@pytest.mark.parametrize(("url", "software", "topic", "post", "start"), [
    ("https://f.org/index.php?topic=1234.0", "smf", 1234, None, 0),
    ("https://f.org/forum/index.php?topic=1234.30", "smf", 1234, None, 30),
    ("https://f.org/index.php?topic=1234.msg5678#msg5678", "smf", 1234, 5678, 0),
    ("https://f.org/index.php?PHPSESSID=adafbd019f63542ed3f869d03fc81ad2&topic=9.0",
     "smf", 9, None, 0),
    ("https://f.org/index.php/topic,1234.15.html", "smf", 1234, None, 15),
    ("https://f.org/viewtopic.php?t=1234", "phpbb", 1234, None, 0),
    ("https://f.org/phpBB3/viewtopic.php?f=3&t=1234&start=45", "phpbb", 1234, None, 45),
    ("https://f.org/viewtopic.php?p=40#p40", "phpbb", None, 40, 0),
])
def test_thread_urls_are_understood(url, software, topic, post, start):
    ref = thread_url_info(url)
    assert (ref.software, ref.topic_id, ref.post_id, ref.start) == (software, topic, post, start)
    assert "PHPSESSID" not in ref.url


def test_page_urls_are_built_from_the_thread_url():
    smf = thread_url_info("https://f.org/forum/index.php?topic=12.45")
    assert smf.page_url(1, 15) == "https://f.org/forum/index.php?topic=12.0"
    assert smf.page_url(4, 15) == "https://f.org/forum/index.php?topic=12.45"
    phpbb = thread_url_info("https://f.org/viewtopic.php?f=3&t=12&sid=55e8c3ab1d4c858b9880dd5cf114e78a")
    assert phpbb.page_url(1, 25) == "https://f.org/viewtopic.php?f=3&t=12"
    assert phpbb.page_url(3, 25) == "https://f.org/viewtopic.php?f=3&t=12&start=50"


@pytest.mark.parametrize(("url", "hint"), [
    ("https://f.org/index.php?board=4.0", "board's list of topics"),
    ("https://f.org/viewforum.php?f=4", "board's list of topics"),
    ("https://f.org/about.html", "is not a topic URL"),
    ("forum.example.org/index.php?topic=1", "http:// or https://"),
])
def test_other_urls_get_an_actionable_error(url, hint):
    with pytest.raises(NotAThreadError) as err:
        thread_url_info(url)
    assert hint in str(err.value)
    assert "index.php?topic=1234.0" in str(err.value) and "viewtopic.php?t=1234" in str(err.value)


@pytest.mark.parametrize(("path", "software"), [
    (REALFORUM / "smf21" / "smf21_topic_p1.html", "smf"),
    (REALFORUM / "phpbb33" / "phpbb33_topic_p1.html", "phpbb"),
    (WILD / "smf20rc3_contribs_t38573.html", "smf"),
    (WILD / "phpbb30_subsilver2_dildano_artwork_p1.html", "phpbb"),
])
def test_the_software_is_read_from_the_page(path, software):
    assert detect_software(path.read_bytes().decode("utf-8", "replace")) == software


def test_a_page_that_is_no_forum_is_refused_by_name(clock):
    with pytest.raises(UnsupportedForumError) as err:
        parse_topic_page(b"<html><body><h1>My blog</h1></body></html>", URL,
                         tz=ZoneInfo("UTC"), now=clock.now())
    assert URL in str(err.value) and "neither SMF nor phpBB" in str(err.value)


# ---- login ---------------------------------------------------------------------------

SMF_LOGIN = """<html><head><script>var smf_member_id = 0;</script></head><body>
<form action="https://forum.example.org/index.php?action=login2" name="frmLogin" id="frmLogin"
 method="post" accept-charset="UTF-8">
 {error}
 <input type="text" id="loginuser" name="user" size="20">
 <input type="password" id="loginpass" name="passwrd" size="20">
 <input type="checkbox" name="cookieneverexp" id="cookieneverexp">
 <input type="hidden" name="hash_passwrd" value="">
 <input type="hidden" name="e1e3c8a1a4" value="ad47ae7edb9aee25d4ea12261d50e6d8">
 <input type="submit" value="Log in">
</form></body></html>"""
SMF_MEMBER = ("<html><head><script>var smf_member_id = 6;</script></head>"
              "<body>Hi Conia</body></html>")
PHPBB_LOGIN = """<html><body><div id="wrap">
<form action="./ucp.php?mode=login" method="post" id="login" data-focus="username">
 {error}
 <input type="text" tabindex="1" name="username" id="username" size="25" value="">
 <input type="password" tabindex="2" id="password" name="password" size="25">
 <input type="hidden" name="redirect" value="./ucp.php?mode=login">
 <input type="hidden" name="creation_time" value="1795345200">
 <input type="hidden" name="form_token" value="0123456789abcdef0123456789abcdef01234567">
 <input type="hidden" name="sid" value="55e8c3ab1d4c858b9880dd5cf114e78a">
 <input type="submit" name="login" tabindex="6" value="Login">
</form></div></body></html>"""
PHPBB_MEMBER = """<html><body><ul><li id="username_logged_in">Conia</li>
<li><a href="./ucp.php?mode=logout&amp;sid=55e8c3ab1d4c858b9880dd5cf114e78a">Logout</a></li></ul>
</body></html>"""


def _form(request: httpx.Request) -> dict[str, str]:
    return dict(parse_qsl(request.content.decode()))


@respx.mock
def test_smf_login_posts_the_form_with_its_hidden_token():
    respx.get("https://forum.example.org/index.php?action=login").mock(
        return_value=httpx.Response(200, text=SMF_LOGIN.format(error="")))
    post = respx.post("https://forum.example.org/index.php?action=login2").mock(
        return_value=httpx.Response(200, text=SMF_MEMBER))
    f, _ = fetcher()

    login(f, thread_url_info(URL), "Conia", "s3cret")

    sent = _form(post.calls[0].request)
    assert sent["user"] == "Conia" and sent["passwrd"] == "s3cret"
    assert sent["e1e3c8a1a4"] == "ad47ae7edb9aee25d4ea12261d50e6d8"


@respx.mock
def test_phpbb_login_sends_creation_time_form_token_and_sid():
    respx.get("https://forum.example.org/ucp.php?mode=login").mock(
        return_value=httpx.Response(200, text=PHPBB_LOGIN.format(error="")))
    post = respx.post("https://forum.example.org/ucp.php?mode=login").mock(
        return_value=httpx.Response(200, text=PHPBB_MEMBER))
    f, _ = fetcher()

    login(f, thread_url_info("https://forum.example.org/viewtopic.php?t=2"), "Conia", "s3cret")

    sent = _form(post.calls[0].request)
    assert (sent["username"], sent["password"], sent["login"]) == ("Conia", "s3cret", "Login")
    assert sent["creation_time"] == "1795345200"
    assert sent["sid"] == "55e8c3ab1d4c858b9880dd5cf114e78a"
    assert sent["form_token"] == "0123456789abcdef0123456789abcdef01234567"


@respx.mock
@pytest.mark.parametrize(("software", "thread", "page", "error"), [
    ("smf", URL, SMF_LOGIN, '<div class="errorbox">Password incorrect</div>'),
    ("phpbb", "https://forum.example.org/viewtopic.php?t=2", PHPBB_LOGIN,
     '<div class="error">You have specified an incorrect password.</div>'),
])
def test_a_refused_login_says_what_the_forum_said(software, thread, page, error):
    respx.get(url__regex=r".*(action=login|mode=login)$").mock(
        return_value=httpx.Response(200, text=page.format(error="")))
    respx.post(url__regex=r".*").mock(
        return_value=httpx.Response(200, text=page.format(error=error)))
    f, _ = fetcher()

    with pytest.raises(LoginError) as err:
        login(f, thread_url_info(thread), "Conia", "wrong")

    assert "'Conia' failed" in str(err.value) and ("incorrect" in str(err.value))


@respx.mock
def test_a_login_form_shown_again_without_a_message_is_a_failure():
    respx.get("https://forum.example.org/index.php?action=login").mock(
        return_value=httpx.Response(200, text=SMF_LOGIN.format(error="")))
    respx.post("https://forum.example.org/index.php?action=login2").mock(
        return_value=httpx.Response(200, text=SMF_LOGIN.format(error="")))
    f, _ = fetcher()

    with pytest.raises(LoginError, match="showed the login form again"):
        login(f, thread_url_info(URL), "Conia", "wrong")


@pytest.mark.parametrize(("file", "form", "post_selector"), [
    ("smf21/smf21_topic_p1.html", SMF_LOGIN, "div.windowbg"),
    ("phpbb33/phpbb33_topic_p1.html", PHPBB_LOGIN, "div.post"),
])
def test_a_members_only_board_asks_for_a_login(clock, file, form, post_selector):
    # The forum's own page, its posts replaced by the login form a guest gets instead.
    tree = LexborHTMLParser((REALFORUM / file).read_text("utf-8"))
    posts = tree.css(post_selector)
    posts[0].insert_before(LexborHTMLParser(form.format(error="")).css_first("form"))
    for node in posts:
        node.decompose()

    with pytest.raises(LoginError, match="members only.*--login USER --password-env"):
        parse_topic_page(tree.html, URL, tz=ZoneInfo("UTC"), now=clock.now())


def test_every_client_shares_one_tls_context() -> None:
    """Issue 13: each client loaded its own copy of the CA list (0.8 MB); a daemon with a
    client per game held 200 copies (160 MB of its 259 MB RSS in benchmarks/daemon.py)."""
    from assistant.scrapers.http import guarded_client, ssl_context

    first, second = guarded_client(), guarded_client()
    try:
        contexts = {id(c._transport._pool._ssl_context) for c in (first, second)}
        assert contexts == {id(ssl_context())}
    finally:
        first.close()
        second.close()


def test_an_async_request_looks_for_no_module(tmp_path) -> None:
    """The daemon's requests: httpcore asks sniffio which event loop runs each one; with
    sniffio not installed it tried to import it at every request, a failed search of the
    whole import path (28 finders' looks, about 0.5 ms of a poll's CPU)."""
    import asyncio
    import sys
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from assistant.scrapers.http import AsyncFetcher

    class Page(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args: object) -> None:
            pass

    class Spy:
        def __init__(self) -> None:
            self.names: list[str] = []

        def find_spec(self, name: str, path: object = None, target: object = None) -> None:
            self.names.append(name)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/index.php?topic=1.0"
    spy = Spy()

    async def requests() -> list[str]:
        async with httpx.AsyncClient() as client:
            fetcher = AsyncFetcher(client, FetchSettings(delay=0))
            first = await fetcher.get(url)  # (what a first request imports, once)
            sys.meta_path.insert(0, spy)
            try:
                answers = [await fetcher.get(url) for _ in range(3)]
            finally:
                sys.meta_path.remove(spy)
            return [first.text, *(a.text for a in answers)]

    try:
        assert asyncio.run(requests()) == ["ok"] * 4
    finally:
        server.shutdown()
        server.server_close()
    assert spy.names == []
