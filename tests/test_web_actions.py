"""The dashboard's forms for a tie under 001 (Miller's Hollow): the sheriff the village
elected and the sheriff's choice, posted as the page posts them, stored as `sheriff` and
`tiebreak` store them, and the count then reads as the command line's."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import httpx
import thread_b_support as tb
from cli_support import run_at
from cli_support import run_cli as run
from daemon_support import setup_store
from markupsafe import escape
from realthreads import NOW
from receivers import json_receiver
from test_cli_count import _game_001
from test_web_dashboard import browser, live  # noqa: F401 - the fixtures

from assistant import TEMPLATES_DIR
from assistant.clock import FakeClock
from assistant.web.app import Dashboard
from assistant.web.guard import Guard
from assistant.web.server import start


def _post(client: httpx.Client, path: str, **fields: str) -> httpx.Response:
    page = client.get("/".join(path.split("/")[:3])).text
    csrf = re.search(r'name="csrf" value="(\w+)"', page).group(1)  # type: ignore[union-attr]
    return client.post(path, data={"csrf": csrf, **fields})


def test_the_sheriff_and_the_tie_break_from_the_page(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    data = _game_001(tmp_path, capsys)
    web = start(Dashboard(data, FakeClock(NOW), Guard()), "127.0.0.1", 0)
    try:
        with httpx.Client(base_url=web.url) as client:
            page = client.get("/game/w").text
            assert 'id="sheriff"' in page and "A tie: the sheriff's choice" in page
            r = _post(client, "/game/w/sheriff", player="lady grey")
            assert r.status_code == 303
            assert "Recorded: Lady Grey is the sheriff" in client.get(r.headers["location"]).text
            r = _post(client, "/game/w/tiebreak", choice="nobody here")
            assert r.status_code == 400
            code, _out, err = run(capsys, "--data-dir", str(data), "tiebreak", "w",
                                  "nobody here")
            refusal = err.removeprefix("error: ").strip()
            assert code == 1 and str(escape(refusal)) in r.text
            r = _post(client, "/game/w/tiebreak", choice="mr. pickles")
            assert r.status_code == 303
    finally:
        web.stop()
    _, out, _ = run(capsys, "--data-dir", str(data), "count", "w", "--at-post", "57", "--json")
    assert json.loads(out)["outcome"]["lynched"] == ["Mr. Pickles"]


def test_notification_targets_and_prods_from_the_page(
    live, capsys, monkeypatch  # noqa: ANN001, F811
) -> None:
    """Thread B's Day 2: a target added on the page (a receiver on 127.0.0.1), tested, listed
    as `notify --list` lists it, removed; the prods draft is `draft prods`'s."""
    live.grow_to(0)  # early in the day: players who have not posted yet
    with json_receiver() as hook, httpx.Client(base_url=live.web.url) as client:
        r = _post(client, "/game/thread-b/notify-add", url=hook.url(), min_severity="violation")
        assert r.status_code == 303
        code, out, err = run_at(capsys, monkeypatch, live.data, live.now(), "notify",
                                "thread-b", "--list", "--json")
        [target] = json.loads(out)["targets"]
        assert target["url"] == hook.url() and target["min_severity"] == "violation"
        page = client.get("/game/thread-b").text
        assert f'data-target-id="{target["id"]}"' in page
        r = _post(client, "/game/thread-b/notify-test", target=target["id"])
        assert r.status_code == 303
        flash = client.get(r.headers["location"]).text
        assert f"{target['id']} {hook.url()}: arrived" in flash.replace("&amp;", "&")
        assert hook.inbox.titles() == ["Chat Mafia: a test from the assistant"]
        r = _post(client, "/game/thread-b/notify-remove", target=target["id"])
        assert r.status_code == 303
        code, out, err = run_at(capsys, monkeypatch, live.data, live.now(), "notify",
                                "thread-b", "--list", "--json")
        assert json.loads(out)["targets"] == []

        code, out, err = run_at(capsys, monkeypatch, live.data, live.now(), "draft", "prods",
                                "thread-b")
        assert code == 0 and not out.startswith("Nobody"), err
        page = client.get("/game/thread-b").text
        text = page.split('id="text-prods"', 1)[1].split(">", 1)[1].split("</textarea>")[0]
        assert html.unescape(text).rstrip("\n") == out.rstrip("\n")


RTL = "\u05dc\u05d9\u05dc\u05d4"  # Hebrew letters: text an isolate would wrap


def test_a_refused_notification_form_comes_back_as_typed(tmp_path: Path) -> None:
    """Before: the URL, events and quiet hours came back wrapped in bidi isolates (U+2068
    ... U+2069), so the GM's corrected form sent characters they never typed."""
    setup_store(tmp_path, "smf21", tb.THREAD_URL["smf21"])
    typed = {"url": f"json://127.0.0.1:9/{RTL}", "events": f"alerts {RTL}",
             "quiet": f"23:00-07:00 {RTL}"}
    web = start(Dashboard(tmp_path, FakeClock(tb.SAVED_AT), Guard()), "127.0.0.1", 0)
    try:
        with httpx.Client(base_url=web.url) as client:
            r = _post(client, "/game/thread-b/notify-add", min_severity="info", **typed)
    finally:
        web.stop()
    assert r.status_code == 400, r.text
    form = r.text.split('id="notify-add"', 1)[1].split("</form>", 1)[0]
    for name, value in typed.items():
        shown = re.search(rf'<input name="{name}"[^>]* value="([^"]*)"', form)
        assert shown and html.unescape(shown.group(1)) == value, (name, shown)


def test_every_value_a_form_sends_back_is_printed_verbatim() -> None:
    """A form field's value (`value="{{ form.get(...) }}"`) is printed through `verbatim`
    in every template of the dashboard, never bidi isolated."""
    unguarded = [
        f"{path.name}: {m.group(0)}"
        for path in sorted((TEMPLATES_DIR / "web").glob("*.html"))
        for m in re.finditer(r"value=\"\{\{[^}]*\bform\b[^}]*\}\}\"", path.read_text())
        if "verbatim" not in m.group(0)
    ]
    assert unguarded == []
