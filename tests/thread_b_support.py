"""Thread B ("Chat Mafia — Day 2", seed 002) as the checks and the daemon tests use it:
the real pages parsed by the real scrapers, and the game set up as its GM would."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from zoneinfo import ZoneInfo

from conftest import REALFORUM  # noqa: F401  (tests use tb.REALFORUM)

from assistant.game import Game
from assistant.models import Post
from assistant.scrapers import parse_topic_page
from assistant.store import GameStore

FORUMS = ("smf21", "phpbb33")
THREAD_URL = {
    "smf21": "http://127.0.0.1:8021/index.php?topic=3.0",
    "phpbb33": "http://127.0.0.1:8033/viewtopic.php?t=3",
}
SAVED_AT = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
GM = "Host Mira"


@cache
def truth(forum: str) -> dict:
    return json.loads((REALFORUM / forum / "thread_b.json").read_text(encoding="utf-8"))


def expected(forum: str, *, live_only: bool | None = None) -> set[tuple[int, str]]:
    """(post id, kind) of `meta.expected_alerts`; live_only picks those only a poller sees."""
    out = set()
    for a in truth(forum)["meta"]["expected_alerts"]:
        is_live = a["detectable"].startswith("live only")
        if live_only is None or live_only == is_live:
            out.add((a["post_id"], a["kind"]))
    return out


def parse(path: Path, forum: str) -> list[Post]:
    page = parse_topic_page(path.read_bytes(), THREAD_URL[forum], tz=ZoneInfo("UTC"), now=SAVED_AT)
    return list(page.posts)


@cache
def final_posts(forum: str) -> tuple[Post, ...]:
    prefix = "smf21" if forum == "smf21" else "phpbb33"
    posts: list[Post] = []
    for n in range(1, 5):
        posts.extend(parse(REALFORUM / forum / f"{prefix}_b_topic_p{n}.html", forum))
    return tuple(posts)


def inputs(forum: str, *, day_ends: str | None = None) -> list[dict]:
    """The GM's inputs for thread B: players with their common names, the two deaths, Day 2."""
    meta = truth(forum)["meta"]
    players = [[name, *meta["common_names"].get(name, [])] for name in meta["players"]]
    docs = [{"kind": "players", "data": {"players": players}}]
    docs.append(
        {
            "kind": "death",
            "data": {
                "player": "ÆtherWolf",
                "at_post": None,
                "at": None,
                "how": "lynch",
                "replacement": None,
            },
        }
    )
    docs.append(
        {
            "kind": "death",
            "data": {
                "player": "Kat",
                "at_post": None,
                "at": None,
                "how": "nightkill",
                "replacement": None,
            },
        }
    )
    docs.append(
        {
            "kind": "phase",
            "data": {
                "kind": "day",
                "number": 2,
                "starts_at": meta["day"]["start_iso"],
                "ends_at": day_ends,
                "start_post": None,
            },
        }
    )
    for player, text in meta["role_pms"].items():
        docs.append({"kind": "role_pm", "data": {"player": player, "text": text}})
    return docs


def game(forum: str) -> Game:
    return Game.from_parts(
        "thread-b",
        [],
        gms=(GM,),
        ruleset="chat-mafia",
        inputs=inputs(forum),
        thread_url=THREAD_URL[forum],
    )


def new_store(
    data_dir: Path, forum: str, game_id: str = "thread-b", *, day_ends: str | None = None
) -> GameStore:
    """A game store set up for thread B, with no posts yet."""
    store = GameStore.open(data_dir, game_id)
    store.update_config(ruleset="chat-mafia", gms=[GM], tz="UTC", thread_url=THREAD_URL[forum])
    entered = datetime(2026, 11, 22, 11, 0, tzinfo=UTC)
    with store.batch():
        for doc in inputs(forum, day_ends=day_ends):
            store.add_input(doc["kind"], doc["data"], entered)
    return store


THREAD_A_URL = {
    "smf21": "http://127.0.0.1:8021/index.php?topic=2.0",
    "phpbb33": "http://127.0.0.1:8033/viewtopic.php?t=2",
}


@cache
def thread_a_posts(forum: str) -> tuple[Post, ...]:
    """Thread A (66 posts, 5 pages): the other real thread, with quoted role PMs."""
    posts: list[Post] = []
    for n in range(1, 6):
        page = parse_topic_page(
            (REALFORUM / forum / f"{forum}_topic_p{n}.html").read_bytes(),
            THREAD_A_URL[forum],
            tz=ZoneInfo("UTC"),
            now=SAVED_AT,
        )
        posts.extend(page.posts)
    return tuple(posts)


def thread_a_game(
    forum: str, ruleset: str, *, gms: tuple[str, ...] = (), extra: list[dict] = ()
) -> Game:
    meta = json.loads((REALFORUM / forum / "thread.json").read_text(encoding="utf-8"))["meta"]
    players = [[p] for p in meta["final_intended_votes"] if p != "bob the builder"]
    return Game.from_parts("thread-a", players, gms=gms, ruleset=ruleset, inputs=list(extra))
