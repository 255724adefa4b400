"""What the tests of the dashboard's forms share (test_web_setup_actions.py,
test_web_cli_options.py): the command line at the live game's moment, its log of GM inputs,
the line an action left on the page, and a refusal compared with the command's."""

from __future__ import annotations

import json
import re
from html import unescape

import httpx
from cli_support import run_at
from test_web_actions import _post
from test_web_dashboard import Live

GAME = "thread-b"


def cli_at(capsys, monkeypatch, at: Live, *args: str) -> tuple[int, str, str]:  # noqa: ANN001
    """`assistant ARGS` at the live game's moment, on its data directory."""
    return run_at(capsys, monkeypatch, at.data, at.now(), *args)


def log_of(capsys, monkeypatch, at: Live, game: str = GAME) -> list[dict]:  # noqa: ANN001
    """`log --json`'s inputs: every GM input of the game."""
    code, out, err = cli_at(capsys, monkeypatch, at, "--json", "log", game)
    assert code == 0, err
    return json.loads(out)["inputs"]


def flash_of(client: httpx.Client, r: httpx.Response) -> str:
    """The one line an action leaves on the page it sends the browser back to."""
    assert r.status_code == 303, re.findall(r'class="error" role="alert">(.*?)<', r.text)
    page = client.get(r.headers["location"]).text
    return unescape(re.search(r'<p class="flash" role="status">(.*?)</p>', page, re.S)[1])


def refused_alike(client: httpx.Client, capsys, monkeypatch, at: Live,  # noqa: ANN001
                  action: str, fields: dict[str, str], *cli_args: str,
                  where: tuple[str, str] = ("", ""), section: bool = False) -> str:
    """The page's refusal of `fields` is the command's error for the same input (`where`:
    the command's name for it, the page's), shown in the action's own section when
    `section`; neither stores anything."""
    before = log_of(capsys, monkeypatch, at)
    r = _post(client, f"/game/{GAME}/{action}", **fields)
    code, _out, err = cli_at(capsys, monkeypatch, at, *cli_args)
    refusal = err.removeprefix("error: ").strip().replace(*where)
    assert r.status_code == 400 and code == 1, err
    shown = r.text
    if section:
        shown = shown.split(f'<section id="{action}">', 1)[1].split("</section>", 1)[0]
    assert refusal in unescape(shown)
    assert log_of(capsys, monkeypatch, at) == before
    return refusal
