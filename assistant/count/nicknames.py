"""Nicknames the thread itself gives a player, before anyone votes by them.

Players rename each other as a game goes: "CO=cloudocean" answers "what is a CO case?",
and "VOTE: tn(Zipcode)" teaches the thread that Zipcode is tn5421. A later "VOTE: CO"
then means Cloudocean, though "CO" also starts CooLskins' name, and "VOTE: zipcode" means
tn5421, though no rule of names.py reads it. A live GM reads the thread the same way; the
count knows a nickname only from the post that gave it on, and only from the day counted
(an earlier day's posts are not read again: docs/limits.md).

Two statements are read, each strict about its shape:

- a definition, a whole line of the post's own text that is only `NICK = NAME` (or `NAME =
  NICK`), one side a player's whole name or alias (any case), the other no player's name
  and no other player's abbreviation or close spelling (only a short prefix of another's
  name is overridden: "CO" starts CooLskins; "Sorry, Reinoe = Skrew" is a correction, and
  Skrew abbreviates SleepyKrew);
- a nickname in brackets after the name a vote names, `VOTE: NAME(NICK)`: the vote is
  read as NAME, and NICK, one capitalised word that fits no player by any rule, is NAME's
  too ("(again)" is a comment).

A nickname is one word and no word of the game's own ("Scum = Sensfan", "Maestro=town.",
"she = Sakura Hana." are reads and pronouns, `NOT_NICKNAMES`).

A nickname given to two different players (a competitor) is never read again, and one that
fits a player's own name by any rule is not a nickname. `[votes] thread_nicknames = false`
turns this off.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from assistant.count.gm_counts import text_lines
from assistant.count.votes import VoteRules
from assistant.names import Match, NameMatcher, comment_head, fold

#: A post whose HTML may hold a definition: an "=" in its text, not in a tag (an
#: attribute's "=" runs into a quote or ">" before any "<"). Starting at the literal "=",
#: it costs a tenth of what a word-class pattern does on every post of a long day.
_MAY_DEFINE = re.compile(r'=[^<>"]*(?:<|$)')
_NAMEISH = r"[^\W_][\w .'&\-]{0,24}?"
#: A line that is only "NICK = NAME" ("CO=cloudocean").
_DEFINITION = re.compile(
    rf"^\s*@?(?P<a>{_NAMEISH})\s*(?:==|=|:=)\s*@?(?P<b>{_NAMEISH})\s*[.!]?\s*$"
)
#: "tn(Zipcode)", "Bob (Bobbert)": the name a vote names, then one word in brackets.
_BRACKETED = re.compile(r"^(?P<head>.*?\S)\s*\(\s*(?P<nick>[^\W\d_][^\W_]{2,19})\s*\)\s*$")
#: The fewest and most letters of a nickname: "CO" yes, "C" no.
NICK_LEAST, NICK_MOST = 2, 20
#: Words players set equal to a player that are a read or a pronoun, not a name ("Scum =
#: Sensfan", "Maestro=town.", "she = Sakura Hana."): the game's words for sides and roles.
NOT_NICKNAMES = frozenset(
    """scum scummy town townie towny mafia maf mafioso goon wolf wolves werewolf village
    villager vanilla vt cop doc doctor vig vigilante null lurker lurking lynch hammer
    protown pro anti confirmed green red innocent guilty claim role me you he she him
    her they them it we us i this that who what yes no again""".split()
)


@dataclass(frozen=True)
class Nickname:
    """A name the thread gave one player, and where."""

    slot: str
    post_id: int
    said: str
    """The statement as written ("CO=cloudocean", "VOTE: tn(Zipcode)")."""

    @property
    def how(self) -> str:
        return f"a nickname the thread gave {self.slot}: {self.said!r} in post {self.post_id}"


@dataclass
class Nicknames:
    """The nicknames learned so far in a count, post by post."""

    known: dict[str, Nickname] = field(default_factory=dict)
    """Folded nickname -> where it was given."""
    refused: set[str] = field(default_factory=set)
    """Nicknames given to two players: read for neither, ever."""

    def learn_from_post(self, body_html: str, post_id: int, matcher: NameMatcher,
                        rules: VoteRules) -> None:
        """The definitions in a post's own text (quotes left out)."""
        if not _MAY_DEFINE.search(body_html):
            return
        for line in text_lines(body_html):
            if "=" not in line:
                continue
            m = _DEFINITION.match(line)
            if m is not None:
                self._define(m.group("a"), m.group("b"), line, post_id, matcher, rules)

    def learn_from_vote(self, written: str, slot: str, post_id: int, matcher: NameMatcher,
                        rules: VoteRules) -> None:
        """`VOTE: NAME(NICK)` counted for `slot`: NICK is that player's too."""
        if "(" not in written:
            return
        m = _BRACKETED.match(written)
        if m is None or not m.group("nick")[0].isupper():
            return  # "(again)", "(lol)": a comment, not a name
        head = matcher.match_vote(m.group("head"))
        if head.slot != slot:
            return
        self._give(m.group("nick"), slot, post_id, f"VOTE: {written}", matcher, rules)

    def read(self, written: str, matcher: NameMatcher) -> Match | None:
        """The player a vote's name means by a nickname the thread gave (the whole name
        or the part before a comment), unless it is a player's own name or alias."""
        for text in dict.fromkeys((written.strip(), comment_head(written))):
            nick = self.known.get(fold(text))
            if nick is None:
                continue
            own = matcher.match(text, strict=True)
            if own.ok or own.how == "ambiguous":
                return None
            return Match(written, nick.slot, nick.how)
        return None

    def _define(self, a: str, b: str, said: str, post_id: int, matcher: NameMatcher,
                rules: VoteRules) -> None:
        left, right = matcher.match(a, strict=True), matcher.match(b, strict=True)
        if left.ok and not right.ok and right.how != "ambiguous":
            self._give(b, left.slot or "", post_id, said, matcher, rules, bracketed=False)
        elif right.ok and not left.ok and left.how != "ambiguous":
            self._give(a, right.slot or "", post_id, said, matcher, rules, bracketed=False)

    def _give(self, nick: str, slot: str, post_id: int, said: str, matcher: NameMatcher,
              rules: VoteRules, *, bracketed: bool = True) -> None:
        """Learn `nick` for `slot`. A bracketed nickname must fit no player by any
        rule; a definition overrides a loose fit ("CO" starts CooLskins: the thread said
        it is Cloudocean) but never a player's own name."""
        key = fold(nick)
        if " " in nick.strip() or key in NOT_NICKNAMES:
            return  # one word, a name's shape: "Scum team" and "town" are reads
        if not (NICK_LEAST <= len(key) <= NICK_MOST) or key.isdigit() or key in self.refused:
            return
        if rules.is_no_lynch(nick) or rules.is_abstain(nick):
            return
        found = matcher.match(nick)
        if bracketed and (found.ok or found.how == "ambiguous"):
            return
        if not bracketed:
            own = matcher.match(nick, strict=True)
            if own.ok or own.how == "ambiguous":
                return  # a player's own name is no one's nickname
            if found.how == "ambiguous" or (found.ok and found.slot != slot
                                            and found.how != "prefix"):
                return  # another player's abbreviation or close spelling: a competitor
        had = self.known.get(key)
        if had is None:
            self.known[key] = Nickname(slot, post_id, " ".join(said.split()))
        elif had.slot != slot:
            del self.known[key]
            self.refused.add(key)  # two players' nickname: a competitor, read for neither
