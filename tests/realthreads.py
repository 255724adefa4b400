"""The real fixture threads read through the real scrapers, and the games they belong to.

Thread A (topic 2, 66 posts, 5 pages): Day 1 of "Mafia Game 1", host Host Mira, nine
players, every vote style. Thread B (topic 3, 46 posts, 4 pages): Day 2 of a 002 game,
six alive, ÆtherWolf and Kat dead, bob the builder a spectator.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from functools import cache
from typing import Any

from conftest import REALFORUM

from assistant.game import Game
from assistant.models import Post
from assistant.scrapers import parse_topic_page

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
FORUMS = ("smf21", "phpbb33")
PLAYERS_A = [
    "Mr. Pickles",
    "xX_Slayer_Xx",
    "Jd-",
    "Conia",
    "Lady Grey",
    "Tom & Jerry's",
    "ÆtherWolf",
    "bob the builder",
    "Kat",
]
HOST = "Host Mira"


def _page_url(forum: str, topic: int, page: int) -> str:
    if forum == "smf21":
        return f"http://127.0.0.1:8021/index.php?topic={topic}.{15 * (page - 1)}"
    start = f"&start={15 * (page - 1)}" if page > 1 else ""
    return f"http://127.0.0.1:8033/viewtopic.php?t={topic}{start}"


@cache
def thread_posts(forum: str, thread: str = "a") -> tuple[Post, ...]:
    """Every post of thread "a" or "b" on one forum, parsed from the saved pages."""
    pages, topic, prefix = (5, 2, "topic") if thread == "a" else (4, 3, "b_topic")
    posts: list[Post] = []
    for page in range(1, pages + 1):
        path = REALFORUM / forum / f"{forum}_{prefix}_p{page}.html"
        parsed = parse_topic_page(path.read_bytes(), _page_url(forum, topic, page), tz=UTC, now=NOW)
        posts.extend(parsed.posts)
    return tuple(posts)


@cache
def truth(forum: str, thread: str = "a") -> dict[str, Any]:
    name = "thread.json" if thread == "a" else "thread_b.json"
    return json.loads((REALFORUM / forum / name).read_text(encoding="utf-8"))


def post_id(forum: str, position: int, thread: str = "a") -> int:
    """A post's forum id from its position (SMF and phpBB ids differ in thread B)."""
    entry = truth(forum, thread)["posts"][position]
    return entry.get("post_id") or entry["msg_id"]


def game_a(inputs: list[dict[str, Any]] = ()) -> Game:  # type: ignore[assignment]
    return Game.from_parts("thread-a", [[p] for p in PLAYERS_A], gms=[HOST], inputs=list(inputs))


def thread_b_facts(
    forum: str, *, ends_at: str | None = None, start_post: int | None = None
) -> list[dict[str, Any]]:
    """What thread B's GM entered before Day 2 (the one place it is written down): ÆtherWolf
    lynched and Kat killed on Day 1 / Night 1, and Day 2 from the fixture's start, ending at
    `ends_at` (ISO text) if given, its first post `start_post` if given."""
    meta = truth(forum, "b")["meta"]

    def death(player: str, how: str) -> dict[str, Any]:
        data = {"player": player, "how": how, "at_post": None, "at": None, "replacement": None}
        return {"kind": "death", "data": data}

    day2 = {
        "kind": "day",
        "number": 2,
        "starts_at": meta["day"]["start_iso"],
        "ends_at": ends_at,
        "start_post": start_post,
    }
    return [death("ÆtherWolf", "lynch"), death("Kat", "nightkill"), {"kind": "phase", "data": day2}]


def thread_b_players(forum: str, *, common_names: bool = True) -> list[list[str]]:
    """Thread B's players, each with the common names players use for them as aliases."""
    meta = truth(forum, "b")["meta"]
    names = meta["common_names"] if common_names else {}
    return [[p, *names.get(p, [])] for p in meta["players"]]


def game_b(forum: str, *, inputs: list[dict[str, Any]] = (), common_names: bool = True) -> Game:  # type: ignore[assignment]
    """Thread B's game as the counting tests use it: the day ends when everyone has voted
    (the fixture's time) and starts at the thread's first post."""
    facts = thread_b_facts(
        forum,
        ends_at=truth(forum, "b")["meta"]["day"]["end_after_all_voted_iso"],
        start_post=post_id(forum, 0, "b"),
    )
    players = thread_b_players(forum, common_names=common_names)
    return Game.from_parts("thread-b", players, gms=[HOST], inputs=[*facts, *inputs])


def votes_by_voter(tally: Any) -> dict[str, str]:
    """{voter: target} of the standing votes, as the fixtures' final_* dicts write them."""
    return {v: w.target for w in tally.wagons for v in w.voters}


def wagons(tally: Any) -> list[tuple[str, list[str]]]:
    return [(w.target, list(w.voters)) for w in tally.wagons]
