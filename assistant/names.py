"""Which player a name written in a post means.

Players write names the way they type: "jd", "ætherwolf", "pickles", "Lady Gray", "DP",
"Quiet". The matcher tries, in order, and stops at the first step that finds anything:

1. exact (a slot's shown name, alias or replaced name, as written);
2. the same ignoring case, accents and punctuation ("ætherwolf" = "ÆtherWolf", "jd" = "Jd-");
3. a prefix of a name, or of one of its words ("Æther", "Lady G"; "Quiet" and "Bob" in
   SilentQuietBob: words split at spaces, `_`, `-`, CamelCase and digits), all in one step;
   failing those, a substring of 3 letters or more ("ickle" in "Mr. Pickles");
4. initials ("SQB" for SilentQuietBob, "DP" for David Parker), or a short abbreviation
   whose letters run through the name in order from its first ("TK" for Thirdkoopa,
   "bbstar" for basketballstar24);
5. a close spelling of a slot's shown name or a long alias, or of a word of 5 letters or
   more of a name written in words ("Lady Gray" for "Lady Grey"; "Slayer99" read without
   its digits; "Misika" for Misaka Network), scored with rapidfuzz.

A vote ("vote: X") whose name fits none of these is read as the one player it is clearly
closest to, and failing that as the one player whose name it *sounds* like: the same
consonants in the same order once vowels and doubled letters are left out, or one letter
swapped with its neighbour there ("nahmann" for nhammen: both n-h-m-n).

A step that finds two slots is *ambiguous* and stops there, never attributed: a vote for
"J" when "Jd-" and "Jerry" both start with J, or "Ann" with players "Annabel_Q" (a prefix)
and "Big Ann" (a whole word), is reported with both candidates. Each match says which step
made it (`Match.how`), so `count --why` explains it.

A bare bold name (`bare=True`: 001's votes are "the name in bold"; elsewhere bold text is
often emphasis) is read more carefully: exact, case-blind, a whole word of a name, or a
close spelling; bold text that fits no player that way is no vote at all.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz import fuzz
from rapidfuzz.distance import OSA

# Letters that Unicode does not decompose into a base letter plus an accent.
_FOLD = str.maketrans(
    {
        "æ": "ae",
        "Æ": "ae",
        "ø": "o",
        "Ø": "o",
        "œ": "oe",
        "Œ": "oe",
        "ß": "ss",
        "đ": "d",
        "Đ": "d",
        "ł": "l",
        "Ł": "l",
        "þ": "th",
        "Þ": "th",
        "ð": "d",
        "Ð": "d",
        "ı": "i",
    }
)
_NOT_WORD = re.compile(r"[\W_]+", re.UNICODE)


@lru_cache(maxsize=4096)
def fold(text: str) -> str:
    """A name reduced to lowercase ASCII letters and digits: the form names are compared in."""
    text = unicodedata.normalize("NFKD", text.translate(_FOLD))
    text = "".join(c for c in text if not unicodedata.combining(c))
    return _NOT_WORD.sub("", text.casefold())


@dataclass(frozen=True)
class Slot:
    """One seat in the game: shown by its first name; aliases and replaced players vote as it."""

    name: str
    """The name shown in tallies (the first name on the players-file line)."""
    aliases: tuple[str, ...] = ()
    """Other names: nicknames, common names, the players this slot replaced."""

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)


@dataclass(frozen=True)
class Match:
    """What a written name resolved to."""

    text: str
    """The name as written."""
    slot: str | None
    """The slot's shown name when exactly one slot matched."""
    how: str
    """"exact", "ignoring case and accents", "alias 'Jd'", "prefix", "substring",
    "close spelling (88%)", or "ambiguous" / "unknown"."""
    candidates: tuple[str, ...] = ()
    """For an ambiguous name, the slots it could mean; for an unknown one, the closest slots."""

    @property
    def ok(self) -> bool:
        return self.slot is not None

    def describe(self) -> str:
        """A short phrase for a vote's reason."""
        if self.slot is not None:
            return "" if self.how == "exact" else f"{self.text!r} read as {self.slot} ({self.how})"
        if self.how == "ambiguous":
            return f"{self.text!r} could be {_or_list(self.candidates)}"
        near = f" (closest: {_or_list(self.candidates)})" if self.candidates else ""
        return f"{self.text!r} matches no player{near}"


def _or_list(names: Sequence[str]) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


#: Where the name in a vote ends and a comment begins (a broken BBCode tag's remains,
#: "rest/b]" for "rest[/b]", too).
_COMMENT = re.compile(r"\s*(?:[;,(!?\[]|\s-\s|:\s|/\w{1,6}\]|\b/?(?:b|i|u|s|color|size)\])")
#: What a bare bold name may hold: letters, digits, spaces and the punctuation of names.
_NAME_SHAPED = re.compile(r"[^\W\d_][\w .'&\-]*")
#: The fewest letters of a whole word of a name that a bare bold word may be ("Rat" for
#: "pappums rat"; not "B" or "I", which are words of nothing).
BARE_WORD = 3
#: The fewest letters of a word compared for a close spelling of one word of a name.
CLOSE_WORD = 5
#: The least similarity for a bare bold name's close spelling ("Lady Gray": 88%).
BARE_CLOSE = 0.85
#: A vote's name that fits no player by the rules above is read as the player whose name
#: (or a word of it) is at least this alike (rapidfuzz ratio, 0-100) ...
CLEAR_CLOSE = 70
#: ... and this many points more alike than any other player's: a clear closest, not a guess.
CLEAR_MARGIN = 20
#: The fewest letters of a written name compared with the words of players' names: a short
#: typo ("Slayr") is too near a word of a handle ("xX_Slayer_Xx") to be read as it.
CLEAR_WORD = 6
#: The fewest letters of a vote's name read by its sound (`_sounds_alike`), and the fewest
#: consonants its skeleton must keep: "Bob" and "Rob" sound like too many names.
SOUND_LEAST = 5
SOUND_CONSONANTS = 4
#: The fewest letters of a vote's name read as a player's with two neighbours swapped.
SWAP_LEAST = 4
#: The fewest letters of a vote's first word read as the player it is a whole word of.
LEADING_WORD = 4
#: The fewest letters of a name read backwards ("jordan" for XnadrojX).
REVERSED_LEAST = 5
#: The fewest letters of initials spelled as they sound ("teebs").
SPELLED_LEAST = 4
#: "Garmr's replacement", "the Gamma replacement", "tip's slot": the slot a name was in.
_SLOT_OF = re.compile(
    r"(?:the\s+)?(?P<name>[^\s'’][^'’]*?)(?:['’]s|s['’])?\s+(?:replacement|replacer|sub|slot)\b.*",
    re.I | re.S,
)
_TRAILING_DIGITS = re.compile(r"([a-z]{2,6})(\d+)")
#: How each letter is said ("tee" for T, "bee" for B), to read initials spelled out.
_LETTER_SOUNDS: dict[str, tuple[str, ...]] = {
    "a": ("ay",), "b": ("bee",), "c": ("cee", "see"), "d": ("dee",), "e": ("ee",),
    "f": ("ef", "eff"), "g": ("gee",), "h": ("aitch",), "i": ("eye",), "j": ("jay",),
    "k": ("kay",), "l": ("el", "elle"), "m": ("em",), "n": ("en",), "o": ("oh",),
    "p": ("pee",), "q": ("cue",), "r": ("ar",), "s": ("ess",), "t": ("tee",),
    "u": ("you",), "v": ("vee",), "w": ("dubya",), "x": ("ex",), "y": ("why", "wye"),
    "z": ("zee", "zed"),
}
#: Pet endings put on spelled initials ("teebs", "deejz", "emjie").
_PET_ENDINGS = ("", "s", "z", "y", "ie", "sy")
_VOWELS = re.compile(r"[aeiouy]")
_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+|[^\W\d_]+")
_ABBREVIATION = re.compile(r"[A-Za-z]{2,6}")


def comment_head(text: str) -> str:
    """A vote's name without the comment after it ("ICEninja; he is at L-1" -> ICEninja)."""
    return _COMMENT.split(text, maxsplit=1)[0].strip()


def name_words(name: str) -> tuple[str, ...]:
    """A name's words, folded: at spaces, `_`, `-`, CamelCase and digits ("SilentQuietBob"
    -> silent, quiet, bob; "xX_Slayer_Xx" -> x, x, slayer, xx; "Fro99er" -> fro, 99, er)."""
    words: list[str] = []
    for part in re.split(r"[\s_\-.]+", name):
        for w in _CAMEL.findall(part):
            folded = fold(w)
            if folded:
                words.append(folded)
    return tuple(words)


@lru_cache(maxsize=4096)
def skeleton(folded: str) -> str:
    """A folded name's consonants in order, its first letter kept and doubled letters
    once ("nahmann" and "nhammen" -> "nhmn"): what a name sounds like to someone who
    misremembers its vowels and doubled letters."""
    if not folded:
        return ""
    rest = _VOWELS.sub("", folded[1:])
    out = folded[0]
    for c in rest:
        if c != out[-1]:
            out += c
    return out


def _one_swap(a: str, b: str) -> bool:
    """Whether `b` is `a` with two neighbouring letters swapped (same length given)."""
    diff = [i for i in range(len(a)) if a[i] != b[i]]
    return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] \
        and a[diff[1]] == b[diff[0]]


def _letters_spoken(key: str) -> frozenset[str]:
    """The letters `key` spells as they sound, two or more, one said in full at least
    ("teebs" -> "tb": tee, b, and a pet ending; "jaydee" -> "jd"), else nothing. The last
    letter may be left bare ("teeb")."""
    found: set[str] = set()
    for end in _PET_ENDINGS:
        if end and not key.endswith(end):
            continue
        stem = key[: len(key) - len(end)] if end else key

        def spell(rest: str, letters: str, said: bool) -> None:
            if not rest:
                if len(letters) >= 2 and said:
                    found.add(letters)
                return
            if len(rest) == 1 and rest.isalpha() and letters:
                spell("", letters + rest, said)  # the last letter bare: "teeb"
            for letter, sounds in _LETTER_SOUNDS.items():
                for sound in sounds:
                    if rest.startswith(sound):
                        spell(rest[len(sound):], letters + letter, True)

        spell(stem, "", False)
    return frozenset(found)


def _initials(words: Sequence[str], *, digits: bool = False) -> str:
    """ "mm" for MarioManiac4 (with `digits`: "mm4")."""
    return "".join(w if w.isdigit() else w[0] for w in words if digits or not w.isdigit())


def _one_of(text: str, how: dict[str, str]) -> Match | None:
    """The one slot `how` found (with how it was found), ambiguous for two, None for none."""
    if not how:
        return None
    if len(how) > 1:
        return Match(text, None, "ambiguous", tuple(sorted(how)))
    slot, why = next(iter(how.items()))
    return Match(text, slot, why)


def _subsequence(short: str, long: str) -> bool:
    it = iter(long)
    return all(c in it for c in short)


@dataclass(frozen=True)
class _Name:
    folded: str
    slot: str
    full: str
    """The name as written in the players file (for explanations)."""
    words: tuple[str, ...]
    bare: str
    """Folded without digits ("slayer" for "Slayer99"): decorations people leave out."""
    shown: bool
    """The slot's shown name, or an alias of 7 letters or more (a replaced player's user
    name): close spellings are compared with these only, because nicknames are short and
    a typo in one ("Slayr") lands on another player too easily."""


class MatcherKey:
    """Slots and a spelling tolerance: equal keys belong to matchers that match every text
    alike. A cache keyed by one holds no matcher, nor the matches it learned."""

    __slots__ = ("slots", "close_spelling", "_hash")

    def __init__(self, slots: tuple[Slot, ...], close_spelling: float, hashed: int) -> None:
        self.slots, self.close_spelling, self._hash = slots, close_spelling, hashed

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, MatcherKey) and self._hash == other._hash
                and self.slots == other.slots and self.close_spelling == other.close_spelling)

    def __hash__(self) -> int:
        return self._hash


class NameMatcher:
    """Resolves written names to slots. Build once per count; matching is cached."""

    def __init__(self, slots: Iterable[Slot], *, close_spelling: float = 0.8) -> None:
        self.slots = tuple(slots)
        self.close_spelling = close_spelling
        self._exact: dict[str, set[str]] = {}
        self._names: list[_Name] = []
        for slot in self.slots:
            for i, name in enumerate(slot.names):
                self._exact.setdefault(name.strip(), set()).add(slot.name)
                folded = fold(name)
                if folded:
                    words = name_words(name)
                    bare = "".join(c for c in folded if not c.isdigit())
                    self._names.append(
                        _Name(folded, slot.name, name, words, bare, i == 0 or len(folded) >= 7)
                    )
        self._cache: dict[tuple[str, str], Match] = {}
        self._hash = hash((self.slots, close_spelling))
        self.key = MatcherKey(self.slots, close_spelling, self._hash)
        """What the matcher matches by, without what it learned: for caches' keys."""

    # Two matchers of the same slots and spelling tolerance match every text alike, so they
    # are equal: a cache keyed by a matcher (gm_counts._count_of) hits across counts. By
    # identity, each review's new matcher was a new key, and the cache kept up to 4,096
    # matchers alive (11 MB of a daemon's 200 games after three polls each).
    def __eq__(self, other: object) -> bool:
        return (isinstance(other, NameMatcher) and self.slots == other.slots
                and self.close_spelling == other.close_spelling)

    def __hash__(self) -> int:
        return self._hash

    def match(self, text: str, *, strict: bool = False, bare: bool = False) -> Match:
        """The slot `text` names. `strict` stops after exact and case/accent-blind matches
        (author names); `bare` is for a bold name written without "vote" (see the module)."""
        mode = "strict" if strict else "bare" if bare else "loose"
        key = (text, mode)
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self._match(text.strip(), mode)
        return found

    def match_leading(self, text: str) -> Match:
        """The name at the start of `text` ("Jd- because he..."): the longest run of words
        that is a name, else the whole text matched loosely."""
        words = text.split()
        for n in range(min(len(words), 5), 0, -1):
            m = self.match(" ".join(words[:n]), strict=True)
            if m.ok or m.how == "ambiguous":
                return m
        return self.match(" ".join(words[:3]) if len(words) > 3 else text)

    def match_vote(self, text: str) -> Match:
        """The player a vote names, as players write votes: the whole text first; else the
        part before a comment ("ICEninja; he is at L-1", "CS, and @Mod: a count please");
        else the longest run of leading words that is a name ("Shadoweh who is not a
        dude"); else the one player whose whole name stands in it ("scum hiraki")."""
        found = self.match(text)
        if found.ok or found.how == "ambiguous":
            return found
        head = comment_head(text)
        if head and head != text.strip():
            m = self.match(head)
            if m.ok or m.how == "ambiguous":
                return Match(text, m.slot, f"{m.how}, the name before the comment", m.candidates)
        slot_of = _SLOT_OF.match(text.strip())
        if slot_of:
            m = self.match(slot_of.group("name"))
            if m.ok or m.how == "ambiguous":
                how = f"{m.how}, the slot {slot_of.group('name')!r} was in"
                return Match(text, m.slot, how, m.candidates)
        words = text.split()
        for n in range(min(len(words) - 1, 5), 0, -1):
            m = self.match(" ".join(words[:n]), strict=True)
            if m.ok or m.how == "ambiguous":
                return Match(text, m.slot, f"{m.how}, the leading words", m.candidates)
        folded_words = [fold(w) for w in re.split(r"[\s/+]+", text) if fold(w)]
        runs = {"".join(folded_words[i:j]) for i in range(len(folded_words))
                for j in range(i + 1, min(i + 4, len(folded_words)) + 1)}
        inside = {n.slot for n in self._names if n.folded in runs and len(n.folded) >= 3}
        if inside:
            m = self._one(text, inside, "a name written in the vote")
            return m if m.ok or m.how == "ambiguous" else found
        return (
            self._clearly_closest(text, head)
            or self._sounds_alike(text, head)
            or self._swapped(text, head)
            or self._reordered(text)
            or self._leading_word(text)
            or self._digits_kept(text, head)
            or self._reversed(text, head)
            or self._spelled_initials(text, head)
            or found
        )

    def _digits_kept(self, text: str, head: str) -> Match | None:
        """The one player whose name's digits a short form keeps: the start of the name
        or its abbreviation, then the same digits ("Arc9" for ArcAngel9, "EPM18" for
        evilpacman18)."""
        m = _TRAILING_DIGITS.fullmatch(fold(head or text))
        if m is None:
            return None
        letters, digits = m.group(1), m.group(2)
        how: dict[str, str] = {}
        for n in self._names:
            if "".join(c for c in n.folded if c.isdigit()) != digits or n.bare == letters:
                continue
            if n.bare.startswith(letters) or (
                2 * len(letters) <= len(n.bare) and n.bare.startswith(letters[0])
                and _subsequence(letters[1:], n.bare[1:])
            ):
                how.setdefault(n.slot, f"a short form of {n.full} with its digits")
        return _one_of(text, how)

    def _reversed(self, text: str, head: str) -> Match | None:
        """The one player whose name, or a word of it, the vote writes backwards ("jordan"
        and "XJordanX" for XnadrojX): `REVERSED_LEAST` letters or more."""
        key = fold(head or text)
        if len(key) < REVERSED_LEAST or not key.isalpha():
            return None
        how: dict[str, str] = {}
        for n in self._names:
            backs = [n.folded[::-1], *(w[::-1] for w in n.words if len(w) >= REVERSED_LEAST)]
            if any(key == b or (len(key) > REVERSED_LEAST and b.startswith(key)) for b in backs):
                how.setdefault(n.slot, f"{n.full} written backwards")
        return _one_of(text, how)

    def _spelled_initials(self, text: str, head: str) -> Match | None:
        """The one player whose initials the vote spells as the letters sound ("teebs",
        "teebee" for ThinkBig: T-B; "jaydee" for John Doe), maybe with a pet ending."""
        key = fold(head or text)
        if not (SPELLED_LEAST <= len(key) <= 12) or not key.isalpha():
            return None
        spelled = _letters_spoken(key)
        if not spelled:
            return None
        how: dict[str, str] = {}
        for n in self._names:
            if len(n.words) > 1 and _initials(n.words) in spelled:
                how.setdefault(n.slot, f"the initials of {n.full} as they sound")
        return _one_of(text, how)

    def _swapped(self, text: str, head: str) -> Match | None:
        """The one player whose name, a word of it or its start of the same length has the
        written name's letters with two neighbours swapped ("rolf" for roflcopter, "Quietbbo"
        for QuietBob): a slip of the fingers, not another name. `SWAP_LEAST` letters or
        more; a second player that fits is an ambiguity. Only where "vote" says it is a vote."""
        key = fold(head or text)
        if self.close_spelling <= 0 or len(key) < SWAP_LEAST or not key.isalpha():
            return None
        how: dict[str, str] = {}
        for n in self._names:
            for other in (n.folded, n.bare, n.folded[: len(key)], *n.words):
                if len(other) == len(key) and other != key and _one_swap(key, other):
                    how.setdefault(n.slot, f"{n.full} with two letters swapped")
        return _one_of(text, how)

    def _reordered(self, text: str) -> Match | None:
        """The one player whose name's words are the written words in another order
        ("Lamora Locke" for Locke Lamora)."""
        words = sorted(fold(w) for w in text.split() if fold(w))
        if len(words) < 2:
            return None
        how = {n.slot: f"the words of {n.full} in another order" for n in self._names
               if len(n.words) == len(words) and sorted(n.words) == words}
        return _one_of(text, how)

    def _leading_word(self, text: str) -> Match | None:
        """The one player a vote's first word is a whole word of, `LEADING_WORD` letters or
        more, when the rest is a comment on them ("PAPA SCUMZEE" for Papa Zito)."""
        words = text.split()
        if len(words) < 2:
            return None
        key = fold(words[0])
        if len(key) < LEADING_WORD or not key.isalpha():
            return None
        how = {n.slot: f"a word of {n.full}, the leading word" for n in self._names
               if len(n.words) > 1 and key in n.words}
        return _one_of(text, how)

    def _sounds_alike(self, text: str, head: str) -> Match | None:
        """The one player whose name a vote's name sounds like (`skeleton`): the same
        consonants in order, or two neighbours swapped (rapidfuzz's OSA distance of 1
        between the skeletons), from the same first letter. Written names of `SOUND_LEAST`
        letters or more against names and long aliases; a second player that fits is an
        ambiguity, never a guess. Only where "vote" says it is a vote."""
        key = fold(head or text)
        if self.close_spelling <= 0 or len(key) < SOUND_LEAST or not key.isalpha():
            return None
        sk = skeleton(key)
        if len(sk) < SOUND_CONSONANTS:
            return None
        how: dict[str, str] = {}
        for n in self._names:
            if not n.shown or len(n.bare) < SOUND_LEAST:
                continue
            other = skeleton(n.bare)
            if other[:1] != sk[:1] or abs(len(other) - len(sk)) > 1:
                continue
            if other == sk:
                how.setdefault(n.slot, f"sounds like {n.full}: {'-'.join(sk)}")
            elif OSA.distance(sk, other) == 1 and len(other) == len(sk):
                how.setdefault(
                    n.slot, f"sounds like {n.full}: {'-'.join(sk)} for {'-'.join(other)}"
                )
        return _one_of(text, how)

    def _clearly_closest(self, text: str, head: str) -> Match | None:
        """The one player a vote's name is much closer to than to any other ("raidiant"
        for RadiantCowbells, "PassionDale" for Paschendale, "Squirrul gurrurl" for Squirrel
        Girl): at least `CLEAR_CLOSE` alike, to a whole name or (for a name written with
        `CLEAR_WORD` letters or more) a word of 4 letters or more of one, and `CLEAR_MARGIN`
        ahead of the next player. Only where "vote" says it is a vote."""
        key = fold(head or text)
        if self.close_spelling <= 0 or len(key) < 4:
            return None
        best: dict[str, float] = {}
        for n in self._names:
            # Short nicknames as `_close` leaves them out: "Slayr" is no reading of "Slayer".
            score = fuzz.ratio(key, n.folded) if n.shown else 0.0
            if len(key) >= CLEAR_WORD:
                for w in n.words:
                    if len(w) >= 4:
                        score = max(score, fuzz.ratio(key, w))
            best[n.slot] = max(best.get(n.slot, 0.0), score)
        ranked = sorted(best.values(), reverse=True) + [0.0]
        if ranked[0] < CLEAR_CLOSE or ranked[0] - ranked[1] < CLEAR_MARGIN:
            return None
        slot = next(s for s, score in best.items() if score == ranked[0])
        return Match(
            text, slot, f"the closest name ({ranked[0]:.0f}% alike, no other player near)"
        )

    def unlisted_author(self, author: str, posting: Collection[str]) -> Match | None:
        """The slot an author the players file does not name plays: the one slot whose
        name or alias is a close spelling of theirs ("Donempire" for a file's
        "Dongempire"), the same without digits ("Wake1" for "Wake88") or, failing those,
        whose name they abbreviate ("PJ." for Panzerjager), when none of
        that slot's names posts in the thread (`posting`: the authors seen). Else None: a
        spectator or a host is no player, and neither is someone named like a player who
        posts."""
        key = fold(author)
        bare = "".join(c for c in key if not c.isdigit())
        how: dict[str, str] = {}
        for n in self._names:
            score = fuzz.ratio(key, n.folded) / 100
            if score >= BARE_CLOSE:
                how.setdefault(n.slot, f"a close spelling ({score:.0%}) of {n.full}")
            elif len(bare) >= 4 and bare == n.bare:
                how.setdefault(n.slot, f"{n.full} without its digits")
        if not how:  # "PJ." for Panzerjager: initials or a short form of one slot's name
            short = self._abbreviation(key, key)
            if short is not None and short.slot is not None:
                how[short.slot] = short.how
        if len(how) != 1:
            return None
        slot, why = next(iter(how.items()))
        posted = {fold(a) for a in posting}
        if any(fold(name) in posted for name in self._slot_names(slot)):
            return None
        return Match(author, slot, why)

    def _slot_names(self, slot: str) -> tuple[str, ...]:
        return next((s.names for s in self.slots if s.name == slot), ())

    def _match(self, text: str, mode: str) -> Match:
        if not text:
            return Match(text, None, "unknown")
        exact = self._exact.get(text)
        if exact:
            return self._one(text, exact, "exact")
        key = fold(text)
        if not key:
            return Match(text, None, "unknown")
        hits = {n.slot for n in self._names if n.folded == key}
        if hits:
            return self._one(text, hits, "ignoring case and accents")
        if mode == "strict":
            return Match(text, None, "unknown")
        if mode == "bare":
            if not _NAME_SHAPED.fullmatch(text):
                return Match(text, None, "unknown")  # "FoS: Jd", "#229 (Conia)": not a name
            found = self._words(text, key, prefix=False)
            return found if found is not None else self._close(text, key, bare=True)
        found = self._words(text, key, prefix=True)
        if found is not None:
            if found.ok and 2 <= len(key) <= 4 and key.isalpha():
                # "ll" starts LlamaGod and is Locke Lamora's initials: never given to one;
                # but "LL" in capitals is written as initials, and LlamaGod's are LG.
                initials = {n.slot: n.full for n in self._names if len(n.words) > 1
                            and key == _initials(n.words)}
                other = set(initials) - {found.slot}
                if len(other) == 1 and text.strip().isupper() and found.how == "prefix" and \
                        found.slot not in initials and not any(
                            key in n.words for n in self._names if n.slot == found.slot):
                    slot = next(iter(other))
                    return Match(text, slot, f"initials of {initials[slot]}, in capitals")
                if other:
                    return Match(text, None, "ambiguous", tuple(sorted({found.slot, *other})))
            return found
        found = self._abbreviation(text, key)
        if found is not None:
            return found
        return self._close(text, key)

    def _words(self, text: str, key: str, *, prefix: bool) -> Match | None:
        """A prefix of a whole name or of one of its words, a substring (`prefix`), or a
        whole word of a name: every slot any of these fits is a candidate, so "Ann" with
        "Annabel_Q" and "Big Ann" is ambiguous. Letters found only inside a word count when
        no name or word starts with them: "the" is "bob the builder", not "ÆtherWolf"."""
        how: dict[str, str] = {}
        inside: dict[str, str] = {}
        for n in self._names:
            if prefix and n.folded.startswith(key):
                how.setdefault(n.slot, "prefix")
            elif (key in n.words and not key.isdigit() and (prefix or len(key) >= BARE_WORD)) or (
                len(n.words) > 1 and key == n.bare
            ):
                how.setdefault(n.slot, f"a word of {n.full}")
            elif prefix and len(key) >= 3 and any(w.startswith(key) for w in n.words):
                how.setdefault(n.slot, f"the start of a word of {n.full}")
            elif prefix and len(key) >= 3 and key in n.folded:
                inside.setdefault(n.slot, "substring")
        # Letters inside a word ("gin" in MooginSoosy, "key" in MonkeyMan576) are a weaker
        # reading than a name's or a word's start: a GM reads "Gin" as TheRealGin-N-Tonic.
        return _one_of(text, how or inside)

    def _abbreviation(self, text: str, key: str) -> Match | None:
        """Initials, or a short abbreviation ("TK", "bbstar") whose letters run through a
        name in order from its first letter."""
        if not (2 <= len(key) <= 6) or not key[0].isalpha():
            return None
        how: dict[str, str] = {}
        for n in self._names:
            if len(n.words) > 1 and key in (_initials(n.words), _initials(n.words, digits=True)):
                how.setdefault(n.slot, f"initials of {n.full}")
        if not key.isalpha():
            return _one_of(text, how)  # "MM4" for MarioManiac4: initials only
        if not how and _ABBREVIATION.fullmatch(text):
            for n in self._names:
                # At most half the name: a longer one is a typo ("Slayr"), not a short form.
                if (
                    2 * len(key) <= len(n.bare)
                    and n.bare.startswith(key[0])
                    and _subsequence(key[1:], n.bare[1:])
                ):
                    how.setdefault(n.slot, f"abbreviation of {n.full}")
        return _one_of(text, how)

    def _close(self, text: str, key: str, *, bare: bool = False) -> Match:
        """A close spelling. For a bare bold name the whole text must be close to a name,
        digits included, and closer than for a vote (`BARE_CLOSE`): bold is often emphasis."""
        scores: dict[str, float] = {}
        bare_key = "".join(c for c in key if not c.isdigit()) or key
        for n in self._names:
            if not n.shown:
                continue
            score = fuzz.ratio(key, n.folded)
            if not bare:
                score = max(score, fuzz.ratio(bare_key, n.bare))
                if len(key) >= CLOSE_WORD and " " in n.full.strip():
                    # A misspelt word of a name written in words ("Misika" for Misaka
                    # Network); a handle's parts ("xX_Slayer_Xx") are not names of their own.
                    score = max(
                        [score] + [fuzz.ratio(key, w) for w in n.words if len(w) >= CLOSE_WORD]
                    )
            scores[n.slot] = max(scores.get(n.slot, 0.0), score / 100)
        ranked = sorted(scores.items(), key=lambda kv: -kv[1])
        near = tuple(s for s, score in ranked[:2] if score >= 0.6)
        least = max(self.close_spelling, BARE_CLOSE) if bare else self.close_spelling
        if self.close_spelling <= 0 or not ranked or ranked[0][1] < least:
            return Match(text, None, "unknown", () if bare else near)
        best = [s for s, score in ranked if ranked[0][1] - score < 0.05]
        if len(best) > 1:
            return Match(text, None, "ambiguous", tuple(best))
        return Match(text, best[0], f"close spelling ({ranked[0][1]:.0%})")

    @staticmethod
    def _one(text: str, slots: set[str], how: str) -> Match:
        if len(slots) > 1:
            return Match(text, None, "ambiguous", tuple(sorted(slots)))
        return Match(text, next(iter(slots)), how)


def parse_players_file(text: str, *, source: str = "players file") -> list[Slot]:
    """Slots from a players file: one player a line, `name | alias | replaced player`.
    After the first `|`, commas separate names too (`Mr. Pickles | Pickles, Mr Pickles`), as
    GMs write lists; the shown name before it may hold a comma.

    Blank lines and lines starting with `#` are skipped. Only a real contradiction is
    refused: two lines shown under the same name (which slot is it?). A person may stand
    in two slots (a player who replaced out of one and later came back in another: the
    slot showing the name is theirs) and two slots may share an alias; a vote naming such
    a name is reported as ambiguous when it is cast, never given to either.
    """
    from assistant.errors import ConfigError

    slots: list[Slot] = []
    shown: dict[str, int] = {}
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        shown_name, bar, rest = line.partition("|")
        others = [n.strip() for n in re.split(r"[|,]", rest)] if bar else []
        names = [shown_name.strip(), *others]
        if any(not n for n in names):
            raise ConfigError(
                f"{source}, line {lineno}: an empty name in {raw.strip()!r}; "
                "write `name | alias, alias | ...` with a name between every `|` and `,`"
            )
        key = fold(names[0]) or names[0]
        if key in shown:
            raise ConfigError(
                f"{source}, line {lineno}: {names[0]!r} is already on line {shown[key]} as "
                "that slot's player; two slots cannot be shown under one name (a player "
                "back in a second slot goes after the `|` of the slot they left)"
            )
        shown[key] = lineno
        aliases = tuple(dict.fromkeys(n for n in names[1:] if n != names[0]))
        slots.append(Slot(names[0], aliases))
    if not slots:
        raise ConfigError(f"{source} lists no players: write one player a line")
    return slots
