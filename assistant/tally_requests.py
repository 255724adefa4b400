"""What the daemon may post on its own (the `[auto_post]` section), and a player's request
for the count in the thread ("vote count please", "can we get a count?", "##votecount").

Seed 002: "Vote tallies are given at five minute intervals. The remaining time is also
announced at this time. The vote tally or the remaining time can be given on request."
The interval is `[phases] tally_interval`; the words a request is read by are the
ruleset's (`requests`), so a GM whose players ask differently copies the ruleset and adds
theirs. The reading: a sentence of a player's own words (quote boxes left out, a quoted
request is someone else's) holding one of the phrases as whole words, letter case,
punctuation and spacing aside ("Vote count, please!", "VOTECOUNT PLEASE", "##VoteCount").
Nothing is posted unless the GM turned it on for the game (`game rules --auto-post`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from assistant.checks.text import post_text
from assistant.errors import PhaseError, RulesetError
from assistant.models import Post
from assistant.phases import parse_duration
from assistant.settings import known_section, typed

DEFAULT_GAP = timedelta(minutes=2)
AUTO_POSTS = "auto_posts"
"""The game store's table of what the daemon posted on its own, or tried to
(daemon/autopost.py writes it; the GM's notifications read its failures)."""
_KEYS: dict[str, Any] = {"requests": tuple[str, ...], "min_gap": str}
_WORD = re.compile(r"[^\w#]+")
_SENTENCE = re.compile(r"[\n.!?;]+")
"""A phrase is read within one sentence: "... do not count. Please don't edit" asks nothing."""


@dataclass(frozen=True)
class AutoPostRules:
    """The `[auto_post]` section of a ruleset."""

    requests: tuple[str, ...] = ()
    """Phrases a player asks for the count with; none: requests are not answered."""
    min_gap: timedelta = field(default=DEFAULT_GAP)
    """At most one post of the daemon's own in this long (a game's `--auto-post-gap`
    overrides it): two players asking at once, or a request just before an interval
    tally, get one tally, not two."""

    def phrases(self) -> tuple[str, ...]:
        """The phrases as they are matched: lower case, words separated by one space."""
        return tuple(p for p in (normal(r) for r in self.requests) if p)


def auto_post_rules(ruleset: Any) -> AutoPostRules:
    """A ruleset's `[auto_post]`: read once when the file was loaded (`Ruleset.auto_post`);
    raw tables with `section()` are read here, naming the file and key of anything wrong."""
    if isinstance(built := getattr(ruleset, "auto_post", None), AutoPostRules):
        return built
    raw, path = known_section(ruleset, "auto_post", _KEYS)
    where = f"{path} [auto_post]"
    sec = {k: typed(v, _KEYS[k], where=where, key=k) for k, v in raw.items()}
    gap = DEFAULT_GAP
    if "min_gap" in sec:
        try:
            gap = parse_duration(sec["min_gap"], where=f"{where} min_gap")
        except PhaseError as e:
            raise RulesetError(str(e)) from None
    rules = AutoPostRules(tuple(sec.get("requests", ())), gap)
    if len(rules.phrases()) != len(rules.requests):
        raise RulesetError(f"{where} requests: a phrase without a letter or digit matches "
                           "every post; write the words a player asks with")
    return rules


def normal(text: str) -> str:
    """Text as phrases are compared: lower case, punctuation (but '#') as spaces."""
    return " ".join(_WORD.sub(" ", text.lower()).split())


def asks_for_count(post: Post, rules: AutoPostRules) -> bool:
    """Whether the post's own words (not its quotes) ask for the count."""
    phrases = rules.phrases()
    if not phrases:
        return False
    for sentence in _SENTENCE.split(post_text(post.body_html, quotes=False)):
        words = f" {normal(sentence)} "
        if any(f" {p} " in words for p in phrases):
            return True
    return False


def count_requests(posts: Iterable[Post], rules: AutoPostRules) -> list[Post]:
    """The posts among `posts` that ask for the count, in thread order (the caller says
    whose posts and which day)."""
    return sorted((p for p in posts if asks_for_count(p, rules)), key=lambda p: p.post_id)


def gap_of(value: str | None, rules: AutoPostRules, *, where: str) -> timedelta:
    """A game's own gap (`--auto-post-gap 90s`) over the ruleset's."""
    return rules.min_gap if not value else parse_duration(value, where=where)


def settings_of(config: Mapping[str, Any]) -> Mapping[str, Any]:
    """A game's `auto_post` config: {"mode": "tallies", "gap": "2m", "after_post": N}."""
    value = config.get("auto_post")
    return value if isinstance(value, Mapping) else {}
