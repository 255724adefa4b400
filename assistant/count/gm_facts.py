"""The GM's own thread posts that change the count, read as proposals for the GM.

A GM announces in the thread what the count must know: a replacement ("Equinox replaces
Jeremylu"), a death during the day ("T S O, Vanilla Townie, has been killed Day 3.",
"Taly has been modkilled"), a reset of the votes ("Votes are reset; day continues"), a vote
ruled out ("Garmr's vote in 1304 did not count because it was not at the start of a new
line"). The
count never applies these by itself (a GM's post can quote, joke or announce a plan): each
is a proposal with the exact command that records it, raised as an alert in a live game
(`checks/gm_facts.py`); `replay --gm-facts` accepts them all for an archive.

Only a GM's own text is read (quotes, spoilers and code left out), a line at a time, and
only about a player of the file: a death of a player alive at that post, a replacement
of a listed player by a name not yet theirs, a reset not yet recorded. A death "Night 2"
is the night's, announced with the day, and not read here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from assistant.count.gm_counts import text_lines
from assistant.game import Game
from assistant.lru import Lru, fingerprint
from assistant.models import Post
from assistant.names import fold

_NAME = r"[^\W_][\w .'\-]{0,40}?"
#: "NEW replaces OLD", "NEW has replaced OLD", "NEW replaces in for OLD", "NEW is replacing OLD".
_REPLACES = re.compile(
    rf"(?:^|[\s>:,!])(?P<new>{_NAME})\s+(?:now\s+|has\s+now\s+)?(?:replaces|is\s+replacing|has\s+"
    rf"replaced|replaced)(?:\s+in)?(?:\s+for)?\s+(?P<old>{_NAME})(?=$|[\s.!,;(])",
    re.I,
)
#: "OLD has been replaced by NEW", "OLD is replaced by NEW".
_REPLACED_BY = re.compile(
    rf"(?:^|[\s>:,!])(?P<old>{_NAME})\s+(?:has\s+been|is|was)\s+replaced\s+by\s+"
    r"(?P<by>[^.!,;(]+)",
    re.I,
)
#: After a player's name (and an aside: ", Vanilla Townie,", " (Town Mason)"): killed,
#: modkilled, removed from the game, shot.
_DIES = re.compile(
    r"^\s*(?:,[^,.!]{1,60},|\([^()]{1,60}\)|-[^-.!]{1,60}-)?\s*(?:has\s+been\s+|was\s+|is\s+"
    r"being\s+|is\s+)?(?P<how>mod-?killed|killed|removed\s+from\s+the\s+game|shot\b|has\s+died"
    r"|died)(?P<rest>.{0,30})",
    re.I,
)
#: A word every one of `_DIES` holds: a line without any names no death (most lines; asked
#: before each player's name is looked for in it).
_DEATH_WORD = re.compile(r"killed|removed\s+from\s+the\s+game|shot\b|died", re.I)
#: The word `_REPLACES` and `_REPLACED_BY` hold.
_REPLACE_WORD = re.compile(r"replac", re.I)
_NIGHT = re.compile(
    r"^\W*(?:dead\s+)?(?:on\s+|during\s+(?:the\s+)?|at\s+)?(?:night|n\d|overnight|endgame)",
    re.I,
)
_RESET = re.compile(
    r"\b(?:votes?|vote\s*count|votecount|vc)\s+(?:has|have|are|is|were|was|will\s+be)\s+"
    r"(?:been\s+)?reset\b|\breset(?:ting)?\s+(?:the\s+|all\s+)?(?:votes?|vote\s*count)\b",
    re.I,
)
#: The GM rules a vote out: "The vote in post 11 is not counted as per Rule 5c", "Garmr's
#: vote in 1304 did not count", "Votes in posts #425 and #442 will not be counted".
_RULED_OUT = re.compile(
    r"\bvotes?\s+(?:in|on|from|of)\s+(?:(?:this|that|the)\s+)?(?:posts?\s*)?#?\s*"
    r"(?P<posts>\d+(?:\s*(?:,|and|&)\s*#?\s*\d+)*)[^.!?]{0,60}?(?:\b(?:is|are|was|were|will|"
    r"does|do|did|has|have|shall)\s*(?:not|n't)|\bwon'?t|\bcan(?:'|no)t)\s+(?:be\s+|been\s+)?"
    r"(?:count(?:ed)?|valid|accepted)\b",
    re.I,
)
#: A word one of the facts above holds (a reset, a replacement, a death, a vote ruled out):
#: a line without any (most of a GM's lines: a vote count, the day's news) is read by this
#: one pattern, not by each of theirs (the daemon reads the day's GM posts at every poll).
#: Asked of the line in lower case (`_may_state_a_fact`): ignoring case, it took 90 ns a
#: character.
_ANY_FACT = re.compile(
    r"reset|replac|killed|removed\s+from\s+the\s+game|shot\b|died|\bvotes?\s+(?:in|on|from|of)\s"
)
_ANY_FACT_ANY_CASE = re.compile(_ANY_FACT.pattern, re.I)
#: A line about the day's lynch: its death is the day's result, not a fact within it.
_LYNCH = re.compile(r"lynch|popular\s+vote|weight\s+of\s+the\s+votes", re.I)
#: Words before a new player's name that are not part of it ("Please welcome Ana who").
_NOT_NAME = frozenset(
    """welcome please and also yes edit new player your our companion original slotholder
    mod note notes update effective effectively immediately graciously now that who he she
    they it the a an has have is was will game to in for of""".split()
)


@dataclass(frozen=True)
class FactProposal:
    """A fact a GM's post states, for the GM to record."""

    kind: str
    """"death", "replacement", "reset" or "ruling"."""
    post_id: int
    said: str
    """The GM's line, as written."""
    player: str | None = None
    """The player who died or was replaced (the slot's shown name)."""
    replacement: str | None = None
    how: str = "other"
    """A death's kind: "modkill" or "other"."""
    ruled: int | None = None
    """For a "ruling": the post whose vote the GM said does not count."""

    def command(self, game_id: str) -> str:
        """The command that records it."""
        if self.kind == "reset":
            return f"assistant game reset {game_id} --at-post {self.post_id}"
        if self.kind == "ruling":
            return f"assistant rule {game_id} --post {self.ruled} --ignore"
        who = _arg(self.player or "")
        if self.kind == "replacement":
            return (f"assistant kill {game_id} {who} --how replaced --replacement "
                    f"{_arg(self.replacement or '')} --at-post {self.post_id}")
        return f"assistant kill {game_id} {who} --how {self.how} --at-post {self.post_id}"

    def describe(self) -> str:
        what = {"reset": "a reset of the votes",
                "replacement": f"{self.replacement} replaces {self.player}",
                "death": f"{self.player} {'modkilled' if self.how == 'modkill' else 'dead'}",
                "ruling": f"the vote of post {self.ruled} not counted"}
        return f"post {self.post_id} ({what[self.kind]}): {self.said!r}"

    def as_input(self) -> dict[str, Any]:
        """The GM fact it proposes, as `Game.from_parts` reads inputs."""
        if self.kind == "reset":
            return {"kind": "reset", "data": {"at_post": self.post_id}}
        if self.kind == "ruling":
            return {"kind": "ruling", "data": {"post": self.ruled, "action": "ignore"}}
        if self.kind == "replacement":
            return {"kind": "death", "data": {"player": self.player, "how": "replaced",
                                              "replacement": self.replacement,
                                              "at_post": self.post_id}}
        return {"kind": "death", "data": {"player": self.player, "how": self.how,
                                          "at_post": self.post_id}}


def _arg(name: str) -> str:
    return name if re.fullmatch(r"[\w.\-]+", name) else f"'{name}'"


def fact_proposals(posts: Iterable[Post], game: Game) -> list[FactProposal]:
    """What the GM's posts among `posts` (a day's, in thread order) state that the game's
    facts do not hold yet. The day's first post is not read: it opens the day with the
    night's news (and a game's opening post, edited as it goes, keeps a roster of the dead)."""
    out: list[FactProposal] = []
    first = True
    before: dict[int, int] = {}  # a thread position -> the post id, of the posts before
    ruled = {r.post for r in game.rulings}
    for post in posts:
        if first:
            first = False
            before[post.position] = post.post_id
            continue
        if game.is_gm(post.author):
            for line in fact_lines(post.body_html):
                out += _read_line(line, post.post_id, game)
                out += _ruled_out(line, post.post_id, before, ruled)
        before[post.position] = post.post_id
    seen: set[tuple[str, str | None, int | None]] = set()
    unique = []
    for p in out:
        key = (p.kind, p.player, p.ruled if p.kind == "ruling"
               else None if p.kind != "reset" else p.post_id)
        if key not in seen:
            seen.add(key)
            unique.append(p)
    return unique


FACT_LINES_KEPT = 1 << 15
"""GM posts whose lines with a fact's word are kept, by a fingerprint of the body (most
posts have none): every review of every game reads its day's GM posts again."""
_FACT_LINES: Lru[tuple[int, int], tuple[str, ...]] = Lru(FACT_LINES_KEPT)


def fact_lines(body_html: str) -> tuple[str, ...]:
    """The lines of a GM post that may state a fact (`_may_state_a_fact`)."""
    return _FACT_LINES.get_or_make(
        fingerprint(body_html),
        lambda: tuple(line for line in text_lines(body_html) if _may_state_a_fact(line)),
    )


def _may_state_a_fact(line: str) -> bool:
    """Whether `line` holds a word of a fact (`_ANY_FACT`, any case). An ASCII line is asked
    in lower case, the same as ignoring case there; another as the facts' patterns ask it
    (ignoring case, "ſ" is an "s" too)."""
    if line.isascii():
        return _ANY_FACT.search(line.lower()) is not None
    return _ANY_FACT_ANY_CASE.search(line) is not None


def _ruled_out(line: str, post_id: int, before: dict[int, int], ruled: set[int]
               ) -> list[FactProposal]:
    """The GM's "the vote in post N is not counted": a ruling on each such post of the day
    before this one (N is the post's number in the thread, as the forum shows it)."""
    said = " ".join(line.split())[:200]
    found = []
    for m in _RULED_OUT.finditer(line):
        for number in re.findall(r"\d+", m.group("posts")):
            target = before.get(int(number))
            if target is not None and target not in ruled:
                found.append(FactProposal("ruling", post_id, said, ruled=target))
    return found


def _slot(name: str, game: Game) -> str | None:
    m = game.matcher().match(name.strip(" .!,;:'\""), strict=True)
    return m.slot


def _read_line(line: str, post_id: int, game: Game) -> list[FactProposal]:
    found: list[FactProposal] = []
    said = " ".join(line.split())[:200]
    if _RESET.search(line) and post_id not in game.resets:
        found.append(FactProposal("reset", post_id, said))
    replaced = []
    if _REPLACE_WORD.search(line):
        replaced = [(m.group("old"), _last_words(m.group("new"), game))
                    for m in _REPLACES.finditer(line)]
        replaced += [(_last_words(m.group("old"), game), _first_words(m.group("by"), game))
                     for m in _REPLACED_BY.finditer(line)]
    for said_old, new in replaced:
        old = _tail_name(said_old, game) or _slot(said_old, game)
        if old is None or not new or _slot(new, game) is not None:
            continue
        found.append(FactProposal("replacement", post_id, said, old, new))
    if _LYNCH.search(line) or not _DEATH_WORD.search(line):
        return found
    for slot in game.slots:
        for name in (slot.name,):  # a replaced-out player's fate is not the slot's
            for at in _occurrences(line, name):
                d = _DIES.match(line[at + len(name):])
                if d is None or _NIGHT.match(d.group("rest")):
                    continue
                if not game.is_alive(slot.name, post_id=post_id + 1) or any(
                        f.player == slot.name for f in found):
                    continue
                how = "modkill" if "mod" in d.group("how").lower() else "other"
                found.append(FactProposal("death", post_id, said, slot.name, how=how))
    return found


def _occurrences(line: str, name: str) -> list[int]:
    """Where `name` stands in `line` as a whole name (any case)."""
    return [m.start() for m in re.finditer(rf"(?<![\w]){re.escape(name)}(?![\w])", line, re.I)]


def _tail_name(text: str, game: Game) -> str | None:
    """The player named by the first words of `text` ("Jeremylu effective immediately")."""
    words = text.split()
    for n in range(min(len(words), 4), 0, -1):
        slot = _slot(" ".join(words[:n]), game)
        if slot is not None:
            return slot
    return None


def _first_words(text: str, game: Game) -> str:
    """The new player's name after "replaced by": the words up to the first that is no
    part of a name ("Aj the Epic effective immediately" -> the longest that is a name)."""
    words = [w.strip(".,;:!>\"'") for w in text.split()]
    words = [w for w in words if w]
    for n in range(min(len(words), 4), 1, -1):
        if _slot(" ".join(words[:n]), game) is not None:
            return " ".join(words[:n])
    name: list[str] = []
    for w in words:
        if fold(w) in _NOT_NAME or len(name) == 4:
            break
        name.append(w)
    return " ".join(name)


def _last_words(text: str, game: Game) -> str:
    """The new player's name: the words before "replaces", back to the first word that is
    no part of a name ("Please welcome Empking who" -> Empking), or the longest run of
    them that is a name the players file has ("Ant to the Max")."""
    words = [w.strip(".,;:!>\"'") for w in text.split()]
    words = [w for w in words if w]
    while words and fold(words[-1]) in _NOT_NAME:
        words.pop()
    for n in range(min(len(words), 4), 1, -1):
        if _slot(" ".join(words[-n:]), game) is not None:
            return " ".join(words[-n:])
    name: list[str] = []
    for w in reversed(words):
        if fold(w) in _NOT_NAME or not any(c.isalpha() for c in w) or len(name) == 4:
            break
        name.insert(0, w)
    return " ".join(name)
