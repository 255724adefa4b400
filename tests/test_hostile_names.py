"""Hostile player names in what the GM pastes and reads (issue 14).

The real thread A (SMF 2.1 pages, every vote style) is counted for a game whose players
file shows three members under hostile names, with their forum names as aliases, so the
real votes and authors still reach them:

- `[/url][url=http://evil.example.com/]xX_Slayer_Xx`: a link the GM would paste;
- `Kat[/quote][img]http://evil.example.com/x.png[/img]`: a broken quote and an image;
- `Lady Grey` + RIGHT-TO-LEFT OVERRIDE + `lived`: reverses the rest of its line.

Each draft is checked whole, as a GM pastes it: the only BBCode tags left are the
template's own, the names read the same once the invisible characters are taken out, and
every bidi control sits inside an isolate closed on its own line. The same drafts posted to
the real SMF and phpBB (tests/live_support.py) render no link, image or quote of a player's.
"""

from __future__ import annotations

import json
import re
from datetime import timedelta
from pathlib import Path

import pytest
from cli_support import run_cli as run
from realthreads import HOST, NOW, PLAYERS_A, thread_posts

from assistant.safe_text import for_forum, for_terminal, isolate
from assistant.store import GameStore

SMF_A = "http://127.0.0.1:8021/index.php?topic=2.0"
RLO, PDF, FSI, PDI, WJ = "\u202e", "\u202c", "\u2068", "\u2069", "\u2060"
LINK = "[/url][url=http://evil.example.com/]xX_Slayer_Xx"
IMG = "Kat[/quote][img]http://evil.example.com/x.png[/img]"
FLIP = f"Lady Grey{RLO}devil"
HOSTILE = {"xX_Slayer_Xx": LINK, "Kat": IMG, "Lady Grey": FLIP}
# The tags the drafts' templates write themselves.
OWN_TAGS = {"b", "i", "url"}


def players_file(path: Path) -> Path:
    lines = [f"{HOSTILE[n]} | {n}" if n in HOSTILE else n for n in PLAYERS_A]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def game(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """Thread A stored for a game (ruleset `ruleset`) whose players carry hostile names."""

    def make(ruleset: str) -> Path:
        code, _, err = run(
            capsys, "--data-dir", str(tmp_path), "game", "new", "a", "--thread", SMF_A,
            "--ruleset", ruleset, "--players", str(players_file(tmp_path / "players.txt")),
            "--gm", HOST,
        )  # fmt: skip
        assert code == 0, err
        with GameStore.open(tmp_path, "a") as store:
            store.record_posts(thread_posts("smf21"), NOW)
        return tmp_path

    return make


def visible(text: str) -> str:
    """What a reader sees: the joiners and isolates are invisible and take no room."""
    return text.replace(WJ, "").replace(FSI, "").replace(PDI, "").replace(PDF, "")


def tags(text: str) -> list[str]:
    """The BBCode tags SMF or phpBB would read: `[name`, `[/name`, then `]` or `=`."""
    return [m.group(1).lower() for m in re.finditer(r"\[/?([A-Za-z*]+)(?==|\])", text)]


def bidi_contained(line: str) -> bool:
    """Every embedding or override on the line is inside an isolate that closes on it."""
    depth = 0
    for ch in line:
        if ch in "\u2066\u2067\u2068":
            depth += 1
        elif ch == PDI:
            depth -= 1
            if depth < 0:
                return False
        elif ch in "\u202a\u202b\u202c\u202d\u202e" and depth == 0:
            return False
    return depth == 0


def assert_pastes_safely(draft: str, shown: list[str]) -> None:
    assert set(tags(draft)) <= OWN_TAGS, tags(draft)
    for url in re.findall(r"\[url=([^\]]*)\]", draft):
        assert url.startswith("http://127.0.0.1:8021/index.php?msg="), url  # permalinks only
    assert tags(draft).count("url") == 2 * draft.count("[url="), draft  # each link closed
    assert "://evil" not in draft and "evil.example.com" not in draft  # no address to link
    for name in shown:
        assert name in visible(draft), name
    assert all(bidi_contained(line) for line in draft.splitlines()), draft


def test_safe_text_reads_as_the_forums_need() -> None:
    # BBCode: every "[" is followed by a word joiner; the name reads the same.
    assert for_forum(LINK) == (
        f"[{WJ}/url][{WJ}url=http:{WJ}//evil.{WJ}example.{WJ}com/]xX_Slayer_Xx"
    )
    # No address a forum links by itself: SMF links bare domains and mails, phpBB "www.".
    assert for_forum("www.evil.com bad@evil.com") == f"www.{WJ}evil.{WJ}com bad{WJ}@evil.{WJ}com"
    assert for_forum("Mr. Pickles") == "Mr. Pickles"
    assert tags(for_forum(IMG)) == [] and visible(for_forum(IMG)) == IMG
    # The empty-tag trick SMF undoes ("[[b][/b]url]" is a live [url] once SMF drops "[b][/b]").
    assert tags(for_forum("[[b][/b]url]x[/url]")) == []
    # Made inert once: a second pass changes nothing (a draft's text rendered again).
    assert for_forum(for_forum(LINK)) == for_forum(LINK)
    # Bidi: an override is closed inside an isolate; a stray closer in the name cannot end
    # the isolate early; an isolate the name opens is closed.
    assert isolate(FLIP) == f"{FSI}{FLIP}{PDF}{PDI}"
    assert isolate(f"x{PDI}{RLO}y") == f"{FSI}x{RLO}y{PDF}{PDI}"
    assert isolate("x\u2067y") == f"{FSI}x\u2067y{PDI}{PDI}"
    assert isolate("Mr. Pickles") == "Mr. Pickles" and isolate(isolate(FLIP)) == isolate(FLIP)
    assert isolate("שלום") == f"{FSI}שלום{PDI}"  # right-to-left letters stay in their place
    # Terminal: escape codes and unclosed bidi controls are shown, isolates kept.
    assert for_terminal(f"Kat\x1b[2J {FLIP} {isolate(FLIP)}") == (
        f"Kat\\x1b[2J Lady Grey\\u202edevil {isolate(FLIP)}"
    )


def test_the_tally_draft_pastes_no_link_image_or_reversed_line(game, capsys) -> None:
    data = game("mafiascum")  # the classic tally: every voter linked to their post
    code, draft, err = run(capsys, "--data-dir", str(data), "draft", "tally", "a")
    assert code == 0, err
    assert_pastes_safely(draft, [LINK, IMG, FLIP])
    # Votes for "xX_Slayer_Xx" and Kat's own vote reach their slots under the shown names;
    # the override stays inside its name: ", bob the builder" reads left to right.
    assert f"\n{for_forum(LINK)} (2): [url=http://127.0.0.1:8021/index.php?msg=17]" in draft
    assert f"msg=17]{for_forum(IMG)}[/url], " in draft
    assert f"Not voting (3): Conia, {FSI}{FLIP}{PDF}{PDI}, bob the builder\n" in draft
    # Before: the raw name closed the voter's link and opened one to evil.example.
    assert "[url=http://evil.example.com/]" not in draft


def test_the_chat_tally_and_the_terminal(game, capsys) -> None:
    data = game("chat-mafia")
    code, draft, err = run(capsys, "--data-dir", str(data), "draft", "tally", "a")
    assert code == 0, err
    assert_pastes_safely(draft, [LINK, IMG, FLIP])
    # The count on the terminal: the override is shown, not obeyed; JSON keeps the names.
    code, out, err = run(capsys, "--data-dir", str(data), "count", "a")
    assert code == 0 and RLO not in out and "Lady Grey\\u202edevil" in out
    code, out, err = run(capsys, "--data-dir", str(data), "--json", "count", "a")
    assert code == 0 and RLO not in out and "\\u202e" in out
    doc = json.loads(out)
    assert FLIP in [*doc["not_voting"], *doc["alive"]]


# ---- the dusk, the dawn and the result PMs of a 002 game --------------------------------

CARD = "[/url][url=http://evil.example.com/]Carol"  # the godfather, lynched on Day 1
DOC = "Doc[/quote][img]http://evil.example.com/x.png[/img]"  # investigated on Night 1
GUS = f"Gus{RLO}devil"  # killed on Night 1
PLAYERS_002 = [
    (f"{CARD} | Carol", "godfather", None), ("Moe", None, "mafia"),
    (f"{DOC} | Doc", "doctor", None), ("Ivy", "investigator", None),
    (f"{GUS} | Gus", None, "town"), ("Tom & Jerry's", None, "town"),
    ("ÆtherWolf", None, "town"),
]


@pytest.fixture
def drafts_002(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> dict[str, str]:
    """A 002 game through the CLI: Day 1 lynches CARD, Night 1 kills GUS and Ivy checks
    DOC. Returns the dusk, the dawn and the PM bodies as the GM pastes them."""
    from test_engine_e2e import D1, Thread, at, real_body

    def cli(*args: str) -> str:
        code, out, err = run(capsys, "--data-dir", str(tmp_path), *args)
        assert code == 0, err
        return out

    at(monkeypatch, D1 - timedelta(hours=1))
    (tmp_path / "players.txt").write_text(
        "\n".join(line for line, _, _ in PLAYERS_002) + "\n", encoding="utf-8"
    )
    setup = ["seed = 3", "players = ["]
    for line, role, side in PLAYERS_002:
        alias = line.split(" | ")[-1]  # the setup names players by alias, as a GM types
        role_text = f', role = "{role}"' if role else ""
        side_text = f', side = "{side}"' if side else ""
        setup.append(f'  {{ name = "{alias}"{role_text}{side_text} }},')
    (tmp_path / "setup.toml").write_text("\n".join([*setup, "]"]) + "\n", encoding="utf-8")
    cli("game", "new", "g", "--thread", "http://127.0.0.1:8021/index.php?topic=3.0",
        "--ruleset", "chat-mafia", "--players", str(tmp_path / "players.txt"), "--gm", HOST)
    cli("roles", "g", "--file", str(tmp_path / "setup.toml"))
    end1 = (D1 + timedelta(minutes=20)).isoformat()
    cli("phase", "g", "day", "1", "--starts", D1.isoformat(), "--ends", end1)
    # Real 002 posts of thread B (SMF), the voted name swapped for this game's.
    vote = lambda name: real_body("smf21", "b", 118, {"[Vote: Conia]": f"[Vote: {name}]"})  # noqa: E731
    thread = Thread(tmp_path, "g", "http://127.0.0.1:8021/index.php?msg={id}")
    thread.post(D1 + timedelta(minutes=1), ("Moe", vote("Gus")), ("Ivy", vote("Carol")),
                ("Gus", vote("Carol")), ("Doc", vote("Carol")), ("Tom & Jerry's", vote("Ivy")))
    at(monkeypatch, D1 + timedelta(minutes=21))
    dusk = cli("draft", "dusk", "g", "--confirm").split("\n---\n")[0]
    (tmp_path / "n1.txt").write_text("Mafia: kill Gus\nIvy: investigate Doc\n", encoding="utf-8")
    cli("order", "g", "--file", str(tmp_path / "n1.txt"))
    cli("resolve", "g", "--night", "1")
    dawn = cli("draft", "dawn", "g")
    pms = cli("draft", "pms", "g")
    # The PM bodies are pasted; "To:" and "Subject:" go into the form's own fields.
    bodies = "\n".join(ln for ln in pms.splitlines() if not ln.startswith(("To: ", "Subject: ")))
    return {"dusk": dusk, "dawn": dawn, "pms": bodies}


def test_dusk_dawn_and_pms_carry_hostile_names_inert(drafts_002: dict[str, str]) -> None:
    dusk, dawn, bodies = drafts_002["dusk"], drafts_002["dawn"], drafts_002["pms"]
    assert_pastes_safely(dusk, [CARD])
    assert f"{for_forum(CARD)} has been lynched. {for_forum(CARD)} was the Godfather" in dusk
    assert "The deciding vote: http://127.0.0.1:8021/index.php?msg=503\n" in dusk  # Doc's
    assert_pastes_safely(dawn, [GUS, DOC])
    assert dawn.startswith(f"Dawn breaks after Night 1.\n{isolate(GUS)} was found dead.")
    # The remaining players, each isolated: the override cannot reverse the list.
    assert f"remain: Moe, {for_forum(DOC)}, Ivy, Tom & Jerry's, ÆtherWolf." in dawn
    assert_pastes_safely(bodies, [GUS, DOC])
    assert f"{isolate(GUS)}, whom you killed, was Vanilla (Town)." in bodies
    assert f"Your investigation of {for_forum(DOC)} returns: Town." in bodies


# ---- pasted into the real forums ---------------------------------------------------------


def _rendered(live_forums, software: str, author: str, text: str) -> str:
    """The post `text` as the real forum renders it (the HTML of its body)."""
    from datetime import UTC, datetime

    from assistant.scrapers import parse_topic_page

    board = live_forums.forum(software)
    topic, post = board.new_topic(author, "Vote count", text)
    url = live_forums.topic_url(software, topic)
    page = parse_topic_page(board.page(topic, 1), url, tz=UTC, now=datetime.now(UTC))
    return next(p.body_html for p in page.posts if p.post_id == post)


def _players_markup(html: str) -> list[str]:
    """What of a player's the forum turned into markup: links, images or quotes to
    evil.example, or any quote box (the drafts quote nothing)."""
    found = re.findall(r'<(?:a|img)\b[^>]*evil\.example[^>]*>', html)
    return found + re.findall(r"<blockquote\b", html)


@pytest.mark.parametrize("software", ["smf", "phpbb"])
def test_the_tally_pasted_into_the_real_forum_shows_the_names_and_no_markup_of_theirs(
    live_forums, software, game, capsys
) -> None:
    from selectolax.lexbor import LexborHTMLParser as HTMLParser

    data = game("mafiascum")
    code, draft, err = run(capsys, "--data-dir", str(data), "draft", "tally", "a")
    assert code == 0, err
    (gm,) = live_forums.names("gm")
    live_forums.forum(software).create_members(gm)

    html = _rendered(live_forums, software, gm, draft)
    assert _players_markup(html) == []
    text = visible(HTMLParser(html).text())
    for name in (LINK, IMG, FLIP):
        assert name in text, (name, text)
    # The draft's own markup still works: the bold title and a link per voter's post.
    assert re.search(r"<(b|strong)\b[^>]*>Vote Count</(b|strong)>", html)
    assert html.count('href="http://127.0.0.1:8021/index.php?msg=') == 6
    # The same draft with the names as they are (before the fix) is acted on by the forum:
    # the check above can fail.
    raw = _rendered(live_forums, software, gm, visible(draft))
    assert _players_markup(raw)


@pytest.mark.parametrize("software", ["smf", "phpbb"])
def test_dusk_dawn_and_pms_pasted_into_the_real_forum(
    live_forums, software, drafts_002: dict[str, str]
) -> None:
    from selectolax.lexbor import LexborHTMLParser as HTMLParser

    (gm,) = live_forums.names("gm")
    live_forums.forum(software).create_members(gm)
    html = _rendered(live_forums, software, gm, "\n\n".join(drafts_002.values()))
    assert _players_markup(html) == []
    text = visible(HTMLParser(html).text())
    for name in (CARD, DOC, GUS):
        assert name in text, (name, text)
    assert 'href="http://127.0.0.1:8021/index.php?msg=503"' in html  # the deciding vote
