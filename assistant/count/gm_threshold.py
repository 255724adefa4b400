"""The lynch threshold a GM states in the thread ("With 6 alive, it takes 3 to lynch").

The GM runs the game: where their own counts say how many votes lynch today, the players
vote to that number, and a count that keeps the ruleset's arithmetic would call a lynch the
GM announced "no majority" (or hammer where the GM does not). A statement is read only when
it names how many are alive and that number is the living count at that post: "With 9
alive, it takes 5" quoted from yesterday's final count is about another day, and a rules
example ("if there's 5 people left, 3 votes") names no one's day. Past tense ("it took 7 to
lynch") reports a day that is over and is never read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.count.gm_counts import text_lines

#: "With 6 alive, it takes 3 to lynch", "13 Alive == 7 to Lynch", "With 5 players living,
#: 3/5 votes are required to lynch", "With 6 people alive, it requires 4 votes to lynch",
#: "With 8 alive its 5 to lynch", "With 9 alive it will take 5 to lynch".
_STATED = re.compile(
    r"(?:\bwith\s+)?(?P<alive>\d+)\s+(?:players?\s+|people\s+)?(?:alive|living|left|remaining)"
    r"\s*(?:,|==|=|:)?\s*"
    r"(?:(?:it\s+)?(?:takes|will\s+take|requires|is|'s|’s)|it'?s|it’s|its)?\s*"
    r"(?P<need>\d+)(?:\s*/\s*\d+)?\s+(?:votes?\s+)?(?:(?:are|is)\s+(?:required|needed)\s+)?"
    r"to\s+lynch\b",
    re.I,
)


@dataclass(frozen=True)
class StatedThreshold:
    """What a GM post says it takes to lynch, and with how many alive."""

    alive: int
    need: int
    post_id: int


def stated_threshold(body_html: str, post_id: int) -> StatedThreshold | None:
    """The last lynch threshold a GM post states in its own text (quotes left out), or None."""
    found = None
    for line in text_lines(body_html):
        for m in _STATED.finditer(line):
            alive, need = int(m.group("alive")), int(m.group("need"))
            if 0 < need <= alive:
                found = StatedThreshold(alive, need, post_id)
    return found


def threshold_note(stated: StatedThreshold, computed: int) -> str:
    """The GM-facing line when the GM's number is not the ruleset's."""
    return (
        f"the GM's post {stated.post_id} says it takes {stated.need} to lynch with "
        f"{stated.alive} alive; the ruleset's majority is {computed}: counted to the GM's "
        f"{stated.need} ([tally] gm_threshold)"
    )
