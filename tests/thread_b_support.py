"""Thread B ("Chat Mafia — Day 2", seed 002) as the checks and the daemon tests use it: the
game stored as its GM would set it up. The pages, the ground truth and the GM's facts come
from `realthreads.py`, the one place that reads them."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import realthreads
from conftest import REALFORUM  # noqa: F401  (tests use tb.REALFORUM)
from realthreads import FORUMS, HOST, thread_b_facts, thread_b_players  # noqa: F401

from assistant.game import Game
from assistant.models import Post
from assistant.scrapers import parse_topic_page
from assistant.store import GameStore

THREAD_URL = {
    "smf21": "http://127.0.0.1:8021/index.php?topic=3.0",
    "phpbb33": "http://127.0.0.1:8033/viewtopic.php?t=3",
}
THREAD_A_URL = {
    "smf21": "http://127.0.0.1:8021/index.php?topic=2.0",
    "phpbb33": "http://127.0.0.1:8033/viewtopic.php?t=2",
}
SAVED_AT = realthreads.NOW
GM = HOST


def truth(forum: str) -> dict[str, Any]:
    return realthreads.truth(forum, "b")


def expected(forum: str, *, live_only: bool | None = None) -> set[tuple[int, str]]:
    """(post id, kind) of `meta.expected_alerts`; live_only picks those only a poller sees."""
    out = set()
    for a in truth(forum)["meta"]["expected_alerts"]:
        is_live = a["detectable"].startswith("live only")
        if live_only is None or live_only == is_live:
            out.add((a["post_id"], a["kind"]))
    if not live_only:
        # Issue 21: votes by an account the players file does not name are alerted once per
        # account (`non_player_vote`, at its first such vote), beside the post's own alert;
        # the fixture marks those votes "non_player".
        seen: set[str] = set()
        for p in truth(forum)["posts"]:
            if p["author"] not in seen and any(
                    v.get("status") == "non_player" for v in p.get("votes") or ()):
                seen.add(p["author"])
                out.add((p.get("msg_id", p.get("post_id")), "non_player_vote"))
    return out


def parse(path: Path, forum: str) -> list[Post]:
    """One saved page (a live snapshot, say) read as the poller reads thread B."""
    page = parse_topic_page(path.read_bytes(), THREAD_URL[forum], tz=ZoneInfo("UTC"), now=SAVED_AT)
    return list(page.posts)


def final_posts(forum: str) -> tuple[Post, ...]:
    """Thread B's 46 posts as its saved pages show them."""
    return realthreads.thread_posts(forum, "b")


def thread_a_posts(forum: str) -> tuple[Post, ...]:
    """Thread A (66 posts, 5 pages): the other real thread, with quoted role PMs."""
    return realthreads.thread_posts(forum, "a")


def inputs(forum: str, *, day_ends: str | None = None) -> list[dict[str, Any]]:
    """The GM's inputs for thread B: the players, the two deaths, Day 2, the role PMs."""
    docs: list[dict[str, Any]] = [{"kind": "players", "data": {"players": thread_b_players(forum)}}]
    docs.extend(thread_b_facts(forum, ends_at=day_ends))
    for player, text in truth(forum)["meta"]["role_pms"].items():
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


def thread_a_game(
    forum: str, ruleset: str, *, gms: tuple[str, ...] = (), extra: list[dict] = ()
) -> Game:
    meta = realthreads.truth(forum, "a")["meta"]
    players = [[p] for p in meta["final_intended_votes"] if p != "bob the builder"]
    return Game.from_parts("thread-a", players, gms=gms, ruleset=ruleset, inputs=list(extra))
