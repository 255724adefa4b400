"""The GM's own vote counts in the thread, read back to learn what players' names mean.

Players vote by nicknames the players file cannot know ("VOTE: Pods McQuill" for pod
person, "VOTE: zipcode" for tn5421, "VOTE: pass" for No Lynch). The GM reads them and
posts a count that lists each voter under the player they meant. This module finds those counts
(`read_counts`: lines such as "Hiraki (L-2): RobCapone, bvoigt", "(2) Kalofer- hiplop,
LordChronos", "NJAC [5]: Eggman / Titus") and pairs each voter with the last vote they cast
before it (`taught_names`): where that vote named no player, or could be two, and the GM
counted it for one, the written name means that player in this thread from then on.

Only a GM's post is read, only lines whose head and voters are the game's players, and a
written name the GM's counts give to two different players teaches nothing. A count as of
a post knows only the GM counts made up to it, as a live GM would.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from selectolax.lexbor import LexborHTMLParser

from assistant.count.outcome import NO_LYNCH
from assistant.count.votes import VoteRules, extract_votes, visible
from assistant.game import Game
from assistant.lru import Lru, fingerprint
from assistant.models import Post
from assistant.names import NameMatcher, fold
from assistant.timeline import Edit


@dataclass(frozen=True)
class GmCount:
    """One vote count the GM posted: who votes whom, as the GM wrote it."""

    post_id: int
    votes: tuple[tuple[str, str], ...]
    """(voter's slot, target's slot or "No Lynch"), in the order the GM listed them."""


@dataclass(frozen=True)
class Taught:
    """A written name the GM's count gave to one player."""

    target: str
    """The player's slot, or "No Lynch"."""
    post_id: int
    """The GM's count that said so."""

    @property
    def how(self) -> str:
        return f"as the GM's vote count in post {self.post_id} reads it"


#: Bracketed asides in a count line: "(L-2)", "[5]", "(7/7)", "(LYNCH)".
_ASIDE = re.compile(r"\([^()]*\)|\[[^\[\]]*\]|<-+\s*\w*|\bL-\d+\b")
#: Where a count line's head (the player voted) ends and its voters begin.
_SEP = re.compile(r"(?:\s*(?::|—|–|-+)\s*)+")
_ITEM_SPLIT = re.compile(r"\s*[,/;]\s*|\s+&\s+|\s+and\s+")
_LEAD = re.compile(r"^[\s\d.#*>~:]+")
_COUNT_WORDS = re.compile(r"vote\s*count|\bVC\b|votecount", re.I)
#: A double voter's weight the GM writes after the name: "TwoFace x2", "TwoFace (x2)".
_WEIGHT = re.compile(r"(?:\s+\(?|\s*\()\s*(?:[x×]\s*\d|\d\s*[x×])\s*\)?$", re.I)
#: The least share of a line's listed voters that must be players for it to be a count line.
VOTERS_KNOWN = 2 / 3


GM_POSTS_KEPT = 1024
"""GM posts whose lines (`text_lines`) are kept, by a fingerprint of the body: the bodies
themselves (a GM's count is long) were most of what the cache held. Enough for a review
(a day's GM posts): the counts and facts read from the lines are what is kept from one
poll to the next."""
GM_COUNTS_KEPT = 1 << 15
"""GM posts whose count (`_count_of`) is kept: a daemon's 200 games of 300 posts have some
5,400 GM posts, which at 4,096 pushed each other out before a game's next poll read them
(2 ms of each poll, a tenth of its count). Most are no count, and kept as None."""
_LINES: Lru[tuple[int, int], tuple[str, ...]] = Lru(GM_POSTS_KEPT)
_COUNTS: Lru[tuple[object, ...], tuple[tuple[str, str], ...] | None] = Lru(GM_COUNTS_KEPT)


def text_lines(body_html: str) -> tuple[str, ...]:
    """A post's own text (quotes, spoilers and code left out), a line at a time: lines
    end at line breaks and paragraphs, not at the inline blocks forums wrap bold text in.
    Kept: every count of the day reads the GM's posts again."""
    return _LINES.get_or_make(fingerprint(body_html), lambda: _text_lines(body_html))


def _text_lines(body_html: str) -> tuple[str, ...]:
    tree = LexborHTMLParser(body_html)
    for node in tree.css("blockquote, code, pre, .spoiler, details, .quotecontent"):
        node.decompose()
    for node in tree.css("br, p, li, tr"):
        node.insert_before("\n")
    root = tree.body
    text = root.text(separator="") if root is not None else ""
    return tuple(line.strip() for line in text.splitlines() if line.strip())


def _player(text: str, matcher: NameMatcher, rules: VoteRules) -> str | None:
    """A name as a GM writes it in a count: exact, any case, or a close spelling
    ("XnarojX", "Boonskies"); No Lynch in the ruleset's words."""
    text = _WEIGHT.sub("", text.strip(" \t*.!:")).strip(" \t*.!:")
    if not text:
        return None
    if rules.is_no_lynch(text) or fold(text) == fold(NO_LYNCH):
        return NO_LYNCH
    found = matcher.match(text, bare=True)
    if found.ok and (found.how in ("exact", "ignoring case and accents")
                     or found.how.startswith("close spelling")):
        return found.slot
    return None


def _count_line(line: str, matcher: NameMatcher, rules: VoteRules) -> list[tuple[str, str]]:
    """The (voter, target) pairs of one line of a count, or [] when it is no count line."""
    cleaned = _ASIDE.sub(" : ", line)  # "Toffee (L-6) All Alone": the aside separates
    for sep in _SEP.finditer(cleaned):
        head = _LEAD.sub("", cleaned[: sep.start()]).strip()
        target = _player(head, matcher, rules) if head else None
        if target is None:
            continue
        items = [i for i in _ITEM_SPLIT.split(cleaned[sep.end():]) if i.strip(" .!*:")]
        if not items:
            return []
        voters = [v for v in (_player(i, matcher, rules) for i in items) if v and v != NO_LYNCH]
        if len(voters) < VOTERS_KNOWN * len(items):
            return []
        return [(v, target) for v in voters]
    return []


def read_counts(posts: Iterable[Post], game: Game, rules: VoteRules) -> list[GmCount]:
    """Every vote count a GM posted among `posts`: a post with two count lines or more, or
    one under the words "vote count" / "VC"."""
    matcher = game.matcher(rules.close_spelling)
    found = []
    for post in posts:
        if game.is_gm(post.author):
            pairs = _count_of(post.body_html, matcher, rules)
            if pairs is not None:
                found.append(GmCount(post.post_id, pairs))
    return found


def _count_of(
    body_html: str, matcher: NameMatcher, rules: VoteRules
) -> tuple[tuple[str, str], ...] | None:
    """The (voter, target) pairs of a GM post that is a vote count, else None."""
    return _COUNTS.get_or_make((*fingerprint(body_html), matcher.key, rules),
                               lambda: _read_count(body_html, matcher, rules))


def _read_count(
    body_html: str, matcher: NameMatcher, rules: VoteRules
) -> tuple[tuple[str, str], ...] | None:
    lines = text_lines(body_html)
    pairs: list[tuple[str, str]] = []
    entries = 0
    for line in lines:
        got = _count_line(line, matcher, rules)
        if got:
            entries += 1
            pairs.extend(got)
    if not pairs or (entries < 2 and not any(_COUNT_WORDS.search(x) for x in lines)):
        return None
    # A voter the GM listed under two players is the GM's slip: it teaches nothing.
    listed = dict.fromkeys(pairs)
    seen = Counter(voter for voter, _ in listed)
    return tuple(p for p in listed if seen[p[0]] == 1)


def taught_names(
    posts: Sequence[Post],
    game: Game,
    rules: VoteRules,
    matcher: NameMatcher,
    *,
    edits: Sequence[Edit] = (),
) -> dict[str, Taught]:
    """Written names (folded) that only the GM's counts resolve. `posts` are the posts in
    the order they were made, an edited post's new version again where its edit was made.
    Each voter's last vote before a count, where it named no player or two and the count
    lists the voter under one player (of the two), means that player. A count that lists
    the voter where their vote before was is not yet updated, and teaches nothing. A name
    taught two players is dropped, and a vote whose post was edited at a moment unknown around the
    count (`edits`) teaches nothing: which version the GM read cannot be known."""
    learned: dict[str, Taught] = {}
    for _, taught in taught_by_count(posts, game, rules, matcher, edits=edits):
        learned = taught
    return learned


TAUGHT_KEPT = 512
"""Days whose GM counts' teachings are kept (`taught_by_counts`): a daemon's 200 games."""
_TAUGHT: Lru[tuple[object, ...], list[tuple[int, dict[str, Taught]]]] = Lru(TAUGHT_KEPT)


def taught_by_counts(
    posts: Sequence[Post],
    game: Game,
    rules: VoteRules,
    matcher: NameMatcher,
    *,
    edits: Sequence[Edit] = (),
) -> list[tuple[int, dict[str, Taught]]]:
    """`taught_by_count` as a list, kept by a fingerprint of all it reads: the posts up to
    the day's last GM count (id, author, time and body), the edits, the players and GMs,
    the rules. The daemon counts each game's day again at every poll, and the posts the
    counts teach from do not change while the day grows after them (some 1.6 of a 300-post
    day's 8 ms count, in cProfile). The fingerprint is a 64-bit hash, as `lru.fingerprint`'s; no
    post or body is kept."""
    counts = {c.post_id for c in read_counts(posts, game, rules)}
    if not counts:
        return []
    last = max(i for i, post in enumerate(posts) if post.post_id in counts)
    read = hash(tuple((p.post_id, p.author, p.posted_at, p.body_html) for p in posts[:last + 1]))
    key = (rules, matcher.key, game.gms, game.slots, last, read,
           tuple((e.post_id, e.earliest, e.at) for e in edits))
    return _TAUGHT.get_or_make(
        key, lambda: list(taught_by_count(posts, game, rules, matcher, edits=edits)))


def taught_by_count(
    posts: Sequence[Post],
    game: Game,
    rules: VoteRules,
    matcher: NameMatcher,
    *,
    edits: Sequence[Edit] = (),
) -> Iterator[tuple[int, dict[str, Taught]]]:
    """`taught_names` of each first part of `posts` that ends at a GM count: (the count's
    index in `posts`, the names taught by then). A count as of a moment knows these."""
    last: dict[str, tuple[str | None, int]] = {}
    earlier: dict[str, str | None] = {}  # what each voter's vote before the last one was on
    learned: dict[str, Taught] = {}
    refused: set[str] = set()
    counts = {c.post_id: c for c in read_counts(posts, game, rules)}
    for i, post in enumerate(posts):
        if not counts:
            break  # no count after this post: nothing more to learn
        count = counts.pop(post.post_id, None)
        if count is not None:
            for voter, target in count.votes:
                written, where = last.get(voter, (None, 0))
                if not written or any(
                    e.post_id == where and e.straddles(post.posted_at) for e in edits
                ):
                    continue
                key = fold(written)
                if not key or key in refused:
                    continue
                if target == earlier.get(voter):
                    continue  # the count shows the vote before: not yet updated, no reading
                found = matcher.match_vote(written)
                if rules.is_no_lynch(written) or rules.is_abstain(written):
                    continue
                if found.ok:
                    continue
                if found.how == "ambiguous" and target not in found.candidates:
                    continue
                had = learned.get(key)
                if had is not None and had.target != target:
                    refused.add(key)
                    del learned[key]
                elif had is None:
                    learned[key] = Taught(target, count.post_id)
            yield i, dict(learned)
            continue
        if game.is_gm(post.author):
            continue
        voter = game.slot_of_author(post.author)
        if voter is None:
            continue
        for mark in extract_votes(post, rules, gms=game.gms):
            if not mark.usable or mark.action not in ("vote", "unvote"):
                continue
            text = visible(mark.target_text) if mark.action == "vote" else None
            if voter in last:
                earlier[voter] = _reading(last[voter][0], matcher, rules, learned)
            last[voter] = (text, post.post_id)


def _reading(
    written: str | None, matcher: NameMatcher, rules: VoteRules, learned: dict[str, Taught]
) -> str | None:
    """The player (or No Lynch) a vote as written is on, as far as the names tell."""
    if not written:
        return None
    if rules.is_no_lynch(written):
        return NO_LYNCH
    if fold(written) in learned:
        return learned[fold(written)].target
    return matcher.match_vote(written).slot
