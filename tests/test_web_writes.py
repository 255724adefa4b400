"""The dashboard's Post / Send buttons where no forum is written to (thread B served on
127.0.0.1): a game without a forum login says what to run and has no button that cannot
work (and the write itself is refused with the same words); a login whose password is not
in the dashboard's environment says so; a confirmation whose draft changed since (a new
vote) writes nothing; a tally confirmed a few minutes ago with the same count is posted as
shown. The writes themselves are tested on the real forums (test_live_web_post_send.py)."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import httpx
from starlette.datastructures import FormData
from test_web_dashboard import Live, live  # noqa: F401 - the fixture

from assistant.store import GameStore
from assistant.web import writes


def hidden_fields(page: str) -> dict[str, str]:
    """The hidden inputs of the confirmation's form."""
    form = page.split('class="confirm-form"', 1)[1].split("</form>", 1)[0]
    return {html.unescape(k): html.unescape(v) for k, v in re.findall(
        r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form)}


def test_without_a_login_the_page_says_what_to_run_and_offers_no_button(
        live: Live, monkeypatch) -> None:  # noqa: F811
    live.grow_to(4)
    with httpx.Client(base_url=live.web.url) as client:
        page = client.get("/game/thread-b").text
        assert 'class="button write"' not in page
        why = re.search(r'data-write-why="post-tally">([^<]*)<', page).group(1)  # type: ignore[union-attr]
        assert ("run `assistant fetch --game thread-b --login USER --password-env VARIABLE`"
                in html.unescape(why))
        csrf = re.search(r'name="csrf" value="(\w+)"', page).group(1)  # type: ignore[union-attr]
        r = client.post("/game/thread-b/post", data={"csrf": csrf, "what": "tally"})
        assert r.status_code == 400 and "assistant fetch --game thread-b --login" in r.text
        r = client.get("/game/thread-b/confirm/post/tally")
        assert r.status_code == 400 and 'class="confirm-form"' not in r.text
        r = client.get("/game/thread-b/confirm/post/tally", params={"day": "two"})
        assert r.status_code == 404 and "the day: give a number, not &#39;two&#39;" in r.text

        with GameStore.open(live.data, "thread-b", create=False) as store:
            store.update_config(login={"user": "The Host", "password_env": "WEB_GM_PW_T"})
        monkeypatch.delenv("WEB_GM_PW_T", raising=False)
        page = client.get("/game/thread-b").text
        assert 'class="button write"' not in page
        assert "start `assistant run --web` with WEB_GM_PW_T exported" in html.unescape(page)


def test_a_confirmed_tally_that_changed_since_is_not_posted(live: Live, monkeypatch) -> None:  # noqa: F811
    """The GM looked at the tally; a vote came in before they pressed Post: nothing is
    written (no forum is reached: the refusal comes first), and the page says to look again.
    Two minutes later with no new vote, the tally shown (its time left moved) is the one
    posted."""
    live.grow_to(3)
    with GameStore.open(live.data, "thread-b", create=False) as store:
        store.update_config(login={"user": "The Host", "password_env": "WEB_GM_PW_T"})
    monkeypatch.setenv("WEB_GM_PW_T", "not used: nothing reaches a forum here")
    with httpx.Client(base_url=live.web.url) as client:
        page = client.get("/game/thread-b").text
        href = re.search(r'href="([^"]+)" data-write="post-tally"', page).group(1)  # type: ignore[union-attr]
        confirm = client.get(html.unescape(href)).text
        assert "as <strong class=\"account\">The Host</strong>" in confirm
        fields = hidden_fields(confirm)
        shown = confirm.split('id="to-write">', 1)[1].split("</pre>", 1)[0]

        with GameStore.open(live.data, "thread-b", create=False) as store:
            later = live.clock.now() + timedelta(minutes=2)
            draft = writes._confirmed_post(store, "tally", FormData(fields), later)
            assert draft.text == html.unescape(shown)
            assert writes.post_draft_of(store, "tally", later, day=None).key != fields["key"], \
                "the time left moved: the allowance is what lets it through"

        with GameStore.open(live.data, "thread-b", create=False) as store:
            store.update_config(login=None)  # the daemon's poll would log in with it
        live.grow_to(4)  # new votes
        with GameStore.open(live.data, "thread-b", create=False) as store:
            store.update_config(login={"user": "The Host", "password_env": "WEB_GM_PW_T"})
        r = client.post("/game/thread-b/post", data=fields)
        assert r.status_code == 400
        assert "changed since you looked at it" in r.text and "nothing was posted" in r.text
    with GameStore.open(live.data, "thread-b", create=False) as store:
        assert store.inputs("post_attempt") == [] and store.inputs("posted") == []
