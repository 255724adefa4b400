"""The dashboard's forms for a tie under 001 (Miller's Hollow): the sheriff the village
elected and the sheriff's choice, posted as the page posts them, stored as `sheriff` and
`tiebreak` store them, and the count then reads as the command line's."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
from cli_support import run_cli as run
from markupsafe import escape
from realthreads import NOW
from test_cli_count import _game_001

from assistant.clock import FakeClock
from assistant.web.app import Dashboard
from assistant.web.guard import Guard
from assistant.web.server import start


def _post(client: httpx.Client, path: str, **fields: str) -> httpx.Response:
    page = client.get("/game/w").text
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
