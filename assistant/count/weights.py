"""What the game's modifiers do to one vote on one day: hidden and not shown (004), worth 0
(powerless, charmed), worth more (a doublevoter; 004 Voice of Accusation on some players
only). Pure functions of the game's facts, asked per voter and target."""

from __future__ import annotations

from collections.abc import Sequence

from assistant.game import Game


def hidden_by(game: Game, voter: str, day: int | None) -> str | None:
    """Why the voter's vote that day is neither counted nor shown (004), or None."""
    found = [m.source for m in game.modifiers_for(voter, day) if m.hidden]
    return ", ".join(dict.fromkeys(found)) if found else None


def votes_hidden(game: Game, day: int | None, alive: Sequence[str]) -> str:
    """Why no vote of the day is shown (004 Voice of Reason), or ""."""
    found = [m.source for m in game.modifiers if m.hides_votes
             and (m.day is None or day is None or m.day == day) and m.player in alive]
    return ", ".join(dict.fromkeys(found))


def vote_weight(game: Game, voter: str, target: str | None, day: int | None) -> tuple[int, str]:
    """A vote's effective weight on `target` and the roles that made it so ("" for none)."""
    hidden = hidden_by(game, voter, day)
    if hidden is not None:
        return 0, hidden
    mods = game.modifiers_for(voter, day)
    zero = [m for m in mods if m.powerless or (m.charmed_by is not None and m.charmed_by == target)]
    if zero:
        return 0, ", ".join(dict.fromkeys(m.source for m in zero))
    # A weight for votes on some players only (004 Voice of Accusation) is 1 on the others.
    mods = [m for m in mods if m.weight_on is None or target in m.weight_on]
    weight = max((m.vote_weight for m in mods), default=1)
    heavy = [m.source for m in mods if m.vote_weight == weight and weight > 1]
    return weight, ", ".join(dict.fromkeys(heavy))
