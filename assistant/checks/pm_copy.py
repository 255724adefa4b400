"""GM PMs made public: quote boxes citing the GM from outside the thread, and PM text
copied into a post with or without quote tags.

Copies are found by overlap of word shingles (runs of `SHINGLE` words), not by exact
match, so a paste with changed line breaks, a dropped sentence or a typo fixed is still
found. Shingles the GM has said in the thread (a public role list, the rules) are not
evidence of a copy and are left out of each PM before comparing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from assistant.alerts import Alert
from assistant.checks import PostingRules
from assistant.checks.text import possessive, post_text, quoted_text
from assistant.game import Game
from assistant.models import Post
from assistant.names import fold

SHINGLE = 5
"""Words per shingle: long enough that common phrases rarely match, short enough for edits."""
MIN_SHARED = 8
"""A copy shares at least this many distinct shingles with the PM (about 12 words in a row)..."""
MIN_FRACTION = 0.5
"""...or at least this fraction of the PM's shingles (for short PMs)."""

_WORD = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True)
class KnownPM:
    """A PM the GM sent (GM input "role_pm" / "result_pm", or drafted by the engine)."""

    recipient: str
    text: str
    label: str = "role PM"


def pms_from_inputs(inputs: Iterable[dict]) -> list[KnownPM]:
    """Role and result PMs the GM stored (inputs "role_pm" / "result_pm": {"player", "text"})
    and those the assistant sent through the forum ("pm_sent": {"kind", "player", "text"})."""
    out = []
    for d in inputs:
        kind = d["data"].get("kind") if d["kind"] == "pm_sent" else d["kind"]
        if kind in ("role_pm", "result_pm") and d["data"].get("text"):
            label = "role PM" if kind == "role_pm" else "result PM"
            out.append(KnownPM(d["data"]["player"], d["data"]["text"], label))
    return out


def _words(text: str) -> list[str]:
    return [fold(w) or w.casefold() for w in _WORD.findall(text)]


def _raw_words(text: str) -> list[str]:
    """The same words as `_words`, as written (for showing the copied text)."""
    return _WORD.findall(text)


def _shingles(words: Sequence[str]) -> dict[tuple[str, ...], list[int]]:
    out: dict[tuple[str, ...], list[int]] = {}
    for i in range(len(words) - SHINGLE + 1):
        out.setdefault(tuple(words[i : i + SHINGLE]), []).append(i)
    return out


def check_pm_copies(
    posts: Iterable[Post],
    game: Game,
    rules: PostingRules,
    pms: Sequence[KnownPM],
) -> list[Alert]:
    """One alert per post that carries text of a known PM (the best-matching PM)."""
    if rules.pm_copy == "none" or not pms:
        return []
    posts = list(posts)
    public: set[tuple[str, ...]] = set()
    for post in posts:
        if game.is_gm(post.author):
            public.update(_shingles(_words(post_text(post.body_html))))
    pm_shingles = [(pm, set(_shingles(_words(pm.text))) - public) for pm in pms]
    alerts = []
    for post in posts:
        if game.is_gm(post.author):
            continue
        text = post_text(post.body_html)
        words = _words(text)
        grams = _shingles(words)
        best: tuple | None = None
        for pm, wanted in pm_shingles:
            if not wanted:
                continue
            shared = wanted & grams.keys()
            fraction = len(shared) / len(wanted)
            if len(shared) >= MIN_SHARED or (fraction >= MIN_FRACTION and len(shared) >= 2):
                own = game.slot_of_author(post.author) == pm.recipient
                score = (len(shared), own)
                if best is None or score > best[0]:
                    best = (score, pm, shared, fraction)
        if best is None:
            continue
        _score, pm, shared, fraction = best
        copied = _longest_run(_raw_words(text), grams, shared)
        in_quote = _inside_quote(post, shared)
        whose = (
            "their own"
            if game.slot_of_author(post.author) == pm.recipient
            else possessive(pm.recipient)
        )
        how = "inside a quote box" if in_quote else "without quote tags"
        alerts.append(
            Alert(
                kind="role_pm_copy" if pm.label == "role PM" else "pm_copy",
                severity=rules.pm_copy,
                player=post.author,
                post_id=post.post_id,
                post_url=post.url,
                message=(
                    f"{possessive(post.author)} post #{post.post_id} copies {whose} "
                    f"{pm.label} {how} "
                    f"({fraction:.0%} of the PM's text)"
                ),
                evidence="copied: \u201c" + copied + "\u201d",
                occurred_at=post.posted_at,
                detail_key=f"{pm.label}:{pm.recipient}",
            )
        )
    return alerts


def _longest_run(words: list[str], grams: dict, shared: set) -> str:
    """The longest stretch of the post covered by shared shingles, as the post's words."""
    covered = [False] * len(words)
    for g in shared:
        for i in grams[g]:
            for j in range(i, i + SHINGLE):
                covered[j] = True
    best, start = (0, 0), None
    for i, c in enumerate([*covered, False]):
        if c and start is None:
            start = i
        elif not c and start is not None:
            best = max(best, (i - start, start))
            start = None
    length, at = best
    return " ".join(words[at : at + length])


def _inside_quote(post: Post, shared: set) -> bool:
    quoted = set(_shingles(_words(quoted_text(post.body_html))))
    return len(shared & quoted) * 2 > len(shared)


def check_quoted_gm_pms(
    posts: Iterable[Post],
    game: Game,
    rules: PostingRules,
    thread_post_ids: set[int],
) -> list[Alert]:
    """Quote boxes citing a GM whose source is not a post of this thread (a PM, elsewhere)."""
    if rules.quote_gm_pm == "none":
        return []
    alerts = []
    for post in posts:
        if game.is_gm(post.author):
            continue
        for i, quote in enumerate(post.quotes):
            if not quote.author or not game.is_gm(quote.author):
                continue
            if quote.post_id is not None and quote.post_id in thread_post_ids:
                continue
            source = (
                "no post"
                if quote.post_id is None
                else f"post #{quote.post_id}, which is not in this thread"
            )
            alerts.append(
                Alert(
                    kind="quoted_gm_pm",
                    severity=rules.quote_gm_pm,
                    player=post.author,
                    post_id=post.post_id,
                    post_url=post.url,
                    message=(
                        f"{possessive(post.author)} post #{post.post_id} quotes the GM "
                        f"{quote.author} citing {source}: probably a PM"
                    ),
                    evidence=quoted_text(post.body_html),
                    occurred_at=post.posted_at,
                    detail_key=f"quote:{i}",
                )
            )
    return alerts
