"""Votes from an account the players file does not name, never dropped in silence.

A player who renamed their forum account, or a replacement the GM has not entered yet,
votes under a name no slot has: the count refuses those votes (`not_a_player`). What the
GM needs is the question to answer: which account, which votes, and which players it may
be — the slots that have not posted in the day counted, and among them (or among all
players) the one its name reads as ("Wake1" for Wake88, "LimMePls" for LynchMePls), or the
one its own posts say it is (a hydra's second head: "One half of the Taylor hydra"). The
answer is the GM's (`game alias GAME PLAYER ACCOUNT`); an archive's replay may take every
proposal that names one player (`replay --gm-facts`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz

from assistant.count.gm_counts import text_lines
from assistant.count.records import Vote
from assistant.game import Game
from assistant.models import Post
from assistant.names import fold
from assistant.vote_codes import VoteCode

#: How alike (rapidfuzz ratio, 0-100) an account's name must be to a silent slot's name to
#: be proposed as it when several slots are silent, and how far ahead of the next.
ALIKE, AHEAD = 60, 20


@dataclass(frozen=True)
class AliasProposal:
    """An account voting without being a player, and whom it may be."""

    account: str
    votes: tuple[tuple[int | None, str], ...]
    """(post, the vote as written) of each vote it cast."""
    silent: tuple[str, ...]
    """The slots that have not posted in the posts counted."""
    player: str | None
    """The one player it reads as (its name, or the only silent slot); None: the GM's call."""
    how: str = ""

    def question(self, game_id: str | None = "GAME") -> str:
        """The alert's words: the account, its votes, whom it may be, the command (for a
        replay, `game_id` None: the players file's line to add it to)."""
        votes = "; ".join(f"{t!r} (post {p})" for p, t in self.votes)
        silent = ", ".join(self.silent) or "none"
        player = _arg(self.player) if self.player is not None else "PLAYER"
        answer = (f"`assistant game alias {game_id} {player} {_arg(self.account)}`"
                  if game_id is not None else
                  f"add `| {self.account}` to {player}'s line of the players file, or "
                  "replay with --gm-facts")
        if self.player is not None:
            ask = f"Is {self.account} the player listed as {self.player} ({self.how})? {answer}"
        else:
            ask = f"If it is a player's account: {answer}"
        return (f"{self.account} is not in the players file and voted: {votes}; not "
                f"counted. Players who have not posted today: {silent}. {ask}")


def _arg(name: str) -> str:
    return name if name.replace("-", "").replace("_", "").isalnum() else f"'{name}'"


def alias_proposals(votes: Iterable[Vote], posts: Sequence[Post], game: Game
                    ) -> list[AliasProposal]:
    """One proposal per account whose votes were refused as no player's, in the order they
    first voted. `posts` are the posts counted (the day so far)."""
    by_account: dict[str, list[tuple[int | None, str]]] = {}
    for v in votes:
        if v.code == VoteCode.NOT_A_PLAYER and not game.is_gm(v.voter):
            by_account.setdefault(v.voter, []).append((v.post_id, v.text))
    if not by_account:
        return []
    posted = {fold(p.author) for p in posts}
    silent = tuple(s.name for s in game.slots
                   if not any(fold(n) in posted for n in s.names))
    matcher = game.matcher()
    out = []
    for account, cast in by_account.items():
        player, how = None, ""
        # A close spelling of a name or alias, or the same without digits ("Wake1" for a
        # slot's Wake88); else a name as a vote would read it.
        named = matcher.unlisted_author(account, ()) or matcher.match(account)
        if named.ok and named.slot is not None:
            player, how = named.slot, f"its name: {named.how}"
        elif (said := _says_who(account, posts, game)) is not None:
            player, how = said
        elif len(silent) == 1:
            player, how = silent[0], "the only player who has not posted today"
        elif silent:
            scored = sorted(((max(fuzz.ratio(fold(account), fold(n))
                                  for n in next(s for s in game.slots if s.name == slot).names),
                              slot) for slot in silent), reverse=True) + [(0.0, "")]
            if scored[0][0] >= ALIKE and scored[0][0] - scored[1][0] >= AHEAD:
                player = scored[0][1]
                how = (f"the player who has not posted today whose name is closest "
                       f"({scored[0][0]:.0f}% alike)")
        out.append(AliasProposal(account, tuple(dict.fromkeys(cast)), silent, player, how))
    return out


#: An account saying whom it plays: "I AM TAYLOR", "(One half of the Taylor hydra here)",
#: "I'M PART OF IVAN THE PLEASANT" (a hydra's second head, a player not logged in as
#: themselves).
_SAYS_WHO = re.compile(
    r"\b(?:i\s+am|i'?m)\s+(?:(?:one\s+)?(?:half|head|part)\s+of\s+(?:the\s+)?)?"
    r"(?P<a>[^\W_][\w .'\-]{0,40})"
    r"|\b(?:half|head|part)\s+of\s+(?:the\s+)?(?P<b>[^\W_][\w .'\-]{0,40}?)(?:'s)?\s+hydra\b",
    re.I,
)


def _says_who(account: str, posts: Sequence[Post], game: Game) -> tuple[str, str] | None:
    """The one player an account's own words (quotes left out) say it is, and the words."""
    matcher = game.matcher()
    named: dict[str, str] = {}
    for post in posts:
        if post.author != account:
            continue
        for line in text_lines(post.body_html):
            for m in _SAYS_WHO.finditer(line):
                words = (m.group("a") or m.group("b") or "").split()
                for n in range(min(len(words), 4), 0, -1):
                    found = matcher.match(" ".join(words[:n]).strip(" .'"), strict=True)
                    if found.ok and found.slot is not None:
                        named.setdefault(found.slot, f"it wrote {' '.join(line.split())[:80]!r}"
                                         f" in post {post.post_id}")
                        break
    return next(iter(named.items())) if len(named) == 1 else None


def accepted_aliases(proposals: Sequence[AliasProposal]) -> dict[str, str]:
    """account -> player for each proposal that names one player no other account is
    proposed as (what `replay --gm-facts` accepts)."""
    named = [p for p in proposals if p.player is not None]
    taken = [p.player for p in named]
    return {p.account: p.player for p in named if p.player is not None
            and taken.count(p.player) == 1}
