"""How players word an order or a vote in a PM to the GM, in general English: the words
that may come before an ability's word ("I'd like to", "Night action:", "please use my"),
the words between it and its target ("on", "at", "my target is"), the words that end a
target ("tonight", "please", "because ..."), a night or day named ("N2", "night 2"), and
what says no order at all ("not", "don't").

Only words every ruleset shares live here. The words of the abilities themselves (their
names, aliases and nouns: "protect", "heal", "protection") are the ruleset's, in
rulesets/*.toml; `proposals.py` joins the two.
"""

from __future__ import annotations

import re

LEAD_WORDS = frozenset("""
    i i'd id i'll ill i'm im i've ive me my we we'd we'll we're our us
    would will shall should wanna want wants wish like to gonna going am are be is
    please pls plz kindly can could may might let lets let's
    use using used uses utilise utilize employ
    night nights action actions ability abilities power order orders role
    tonight tonite today this the a an
    then so ok okay also and alright right well yes yeah yep sure
    hey hi hello heya hiya dear gm mod host moderator
    choose chose choosing decide decided decision go goes going
    wanted gotta
    n1 n2 n3 n4 n5 n6 n7 n8 n9 d1 d2 d3 d4 d5 d6 d7 d8 d9
    1 2 3 4 5 6 7 8 9 one two three first second third
    for my mine new final of plan plans
    actually instead rather change changed changing switch switching wait oops sorry
    no nvm nevermind scratch make that it
    send sending sent submit submitting submitted
""".split())
"""Words that may stand before an ability's word in an order ("I'd like to protect",
"Night action: kill", "please use my roleblock"): an ability word after only these (and
punctuation) in its sentence is an order; after other words it is read from the middle of
a sentence ("I think Bob should kill Kat") and never accepted without the GM."""

NEGATIONS = frozenset("""
    not no don't dont won't wont wouldn't wouldnt can't cant cannot never nor without
    shouldn't shouldnt didn't didnt isn't isnt
""".split())
"""A sentence holding one of these before an ability's word does not order it ("I won't
protect anyone tonight", "don't kill Bob")."""

CONNECTOR = re.compile(
    r"^(?:\s*(?:[:=\-–—>]+|->|=>|\bon\b|\bonto\b|\bupon\b|\bat\b|\bto\b|\bfor\b|\bagainst\b"
    r"|\binto\b|\bis\b|\bare\b|\bwill\s+be\b|\bgoes\b|\bgo\b|\bgoing\b|\bmy\b"
    r"|\btargets?\b|\btargeting\b|\bthe\s+player\b|\bplayer\b|\btonight\b|\btonite\b"
    r"|\bplease\b|\bpls\b))+\s*",
    re.IGNORECASE,
)
"""What may stand between an ability's word and its target ("protect: Kat", "roleblock on
Kat", "my vote goes to Kat", "investigation target is Kat"): left out before the target
is read."""

STOP = re.compile(
    r"(?:[.!?;\n]|\s[-–—]\s|\(|\b(?:tonight|tonite|today|please|pls|plz|thanks|thank|thx|ty"
    r"|cheers|because|since|cause|cuz|coz|bc|as\s+i|if|instead|again|for\s+now|n\d+"
    r"|night\s+\d+|day\s+\d+|and\s+then|then|but|lol|xd)\b)",
    re.IGNORECASE,
)
"""Where a target's words end, for reading a misspelt name: the sentence's end, a comment
("because ...", "please", "thanks"), a night named."""

_NIGHT = re.compile(
    r"\b(?:(?P<kind>night|day)\s*(?:#|no\.?\s*)?(?P<n1>\d{1,2})|(?P<k2>[nd])(?P<n2>\d{1,2}))\b",
    re.IGNORECASE,
)

VOTE_WORDS = ("vote", "votes", "voting", "lynch", "lynching")
"""Words of a vote by PM ("vote Kat", "my vote is on Kat", "lynch Kat")."""
UNVOTE_WORDS = ("unvote", "unvoting", "remove my vote", "withdraw my vote", "retract my vote",
                "take back my vote", "take my vote off")
"""Words of an unvote by PM."""


IRREGULAR = {"shoot": ("shot",), "choose": ("chose", "chosen"), "give": ("gave", "given"),
             "steal": ("stole", "stolen"), "eat": ("ate", "eaten"), "hide": ("hid",),
             "throw": ("threw", "thrown"), "bite": ("bit", "bitten"), "seek": ("sought",),
             "swap": ("swapped", "swapping")}
"""English verbs whose past forms players write ("vig shot on Bob")."""


def inflections(word: str) -> tuple[str, ...]:
    """The forms players write a one-word ability in: "protect", "protects", "protecting",
    "protected"; "investigate", "investigating"; "kill", "killing". A word of two or more
    words (an alias "hex of silence") only as it is."""
    w = word.lower().strip()
    if not w or " " in w or "-" in w or not w.isalpha():
        return (w,) if w else ()
    stem = w[:-1] if w.endswith("e") and len(w) > 3 else w
    out = [w, w + "s", stem + "ing", stem + "ed" if stem != w else w + "ed"]
    if w.endswith("e"):
        out[-1] = w + "d"
    return tuple(dict.fromkeys([*out, *IRREGULAR.get(w, ())]))


def named_phase(text: str) -> tuple[str | None, int] | None:
    """A night or day the text names ("N2", "night 2", "Day 3"): (kind, number); None when
    it names none. `kind` "night" or "day"."""
    m = _NIGHT.search(text)
    if m is None:
        return None
    kind = (m.group("kind") or m.group("k2") or "").lower()
    number = int(m.group("n1") or m.group("n2"))
    return ("night" if kind.startswith("n") else "day"), number


def named_phases(text: str) -> set[tuple[str | None, int]]:
    """Every night or day the text names."""
    out: set[tuple[str | None, int]] = set()
    for m in _NIGHT.finditer(text):
        kind = (m.group("kind") or m.group("k2") or "").lower()
        out.add((("night" if kind.startswith("n") else "day"), int(m.group("n1") or m.group("n2"))))
    return out


_WORD_EDGE = re.compile(r"^[\W_]+|[\W_]+$")


def bare_word(word: str) -> str:
    """A word without the punctuation around it, lowercased ("Hi," -> "hi", "(N1)" -> "n1")."""
    return _WORD_EDGE.sub("", word.lower().replace("’", "'"))


def is_lead(words: list[str], extra: frozenset[str] = frozenset()) -> bool:
    """Whether the words before an ability's word in its sentence are only lead words
    (`extra`: a ruleset's side names, "Mafia kill: Bob")."""
    return all(not bare_word(w) or bare_word(w) in LEAD_WORDS or bare_word(w) in extra
               for w in words)


def negated(words: list[str]) -> bool:
    """Whether the words just before an ability's word (its clause: after the last comma)
    say not to use it ("I won't protect", not "Actually no, protect Bob")."""
    clause: list[str] = []
    for w in words:
        clause = [] if w.endswith(",") else [*clause, w]
    return any(bare_word(w) in NEGATIONS for w in clause[-3:])


SELF_WORDS = frozenset({"myself", "me", "self"})
"""A target that is the writer ("protect myself")."""
FILLER_WORDS = frozenset("thanks thank thx ty cheers you tonight tonite please pls plz".split())
"""Words around a bare name that say nothing ("Kat please", "Kat, thanks")."""
