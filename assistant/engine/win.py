"""Win conditions as data: `[[win.checks]]` tried in order, the first that holds wins.

Each check names one of a few shapes (none_alive, sole_side, sole_player, share,
outnumber, endgame, lovers_last); 003 says its checks run "in the following order every
Dawn and every Dusk", and the order in the file is that order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from assistant.engine.state import GameState
from assistant.errors import RulesetError


@dataclass(frozen=True)
class Win:
    """A side (or the lovers) has won."""

    winner: str
    """A side key, or "lovers" for a pair of lovers of opposite sides."""
    title: str
    reason: str
    """The rule that decided it, in the ruleset's words."""
    players: tuple[str, ...]
    """Everyone who wins, dead or alive."""
    announces: bool = False
    """The check's text already names the winner ("Town Wins! ..."): the post says it once."""


def _in_game(state: GameState) -> list[str]:
    """Players who count as alive for victory (not dead, not arrested / out)."""
    return [p.name for p in state.players.values() if p.alive and "out" not in p.statuses]


def _mixed_lovers(state: GameState) -> set[str]:
    mixed: set[str] = set()
    for a, b in state.lovers:
        if state.players[a].side != state.players[b].side:
            mixed |= {a, b}
    return mixed


def _holds(check: Mapping[str, Any], state: GameState, living: list[str]) -> str | None:
    """The winner if the check holds, else None."""
    when = check.get("when")
    sides = Counter(state.players[n].side for n in living)
    winner = check.get("winner")
    if when == "none_alive":
        held = check.get("held_status")
        if held:
            # 004 Detention: "If all BO players are either dead or arrested and the only
            # remaining BO is in detention, the game ends" (`held_status`: a status prefix).
            free = [n for n in living if state.players[n].side in check["sides"]
                    and not any(s.startswith(str(held)) for s in state.players[n].statuses)]
            mine = [n for n in living if state.players[n].side in check["sides"]]
            if not free and len(mine) == 1:
                return winner
        return winner if living and not any(sides[s] for s in check["sides"]) else None
    if when == "sole_side":
        return winner if living and set(sides) == {winner} else None
    if when == "sole_player":
        return winner if len(living) == 1 and sides[winner] == 1 else None
    if when == "share":
        mine = sides[winner]
        return (
            winner
            if mine
            and mine >= float(check["at_least"]) * len(living)
            and all(mine > sides[o] for o in check.get("more_than", ()))
            else None
        )
    if when == "outnumber":
        mine, rest = sides[winner], len(living) - sides[winner]
        strict = check.get("strict", True)
        return winner if mine and (mine > rest if strict else mine >= rest) else None
    if when == "endgame":
        if len(living) == 2 and len(sides) == 2:
            for s in check["prefer"]:
                if sides[s]:
                    return s
            return check["prefer"][-1]
        return None
    if when == "lovers_last":
        return "lovers" if len(living) == 2 and set(living) <= _mixed_lovers(state) else None
    raise RulesetError(
        f"[[win.checks]] when = {when!r} is not one of none_alive, sole_side, "
        "sole_player, share, outnumber, endgame, lovers_last"
    )


def joiners(state: GameState, living: list[str] | None = None) -> list[str]:
    """`[[win.joins]]`: third parties who win beside whoever ends the game (000's
    Xenozoologist with one of each, the Mind Stealer with enough points, the Infester when
    every survivor is infected). Shapes: `when = "status"` (whoever holds `status`, dead,
    alive or out), `when = "all_living_have"` (every player in the game outside `side`
    holds `status`: the side's players of `roles`, dead or alive, win)."""
    living = _in_game(state) if living is None else living
    out: list[str] = []
    for j in state.rules.win.get("joins", ()):
        when = j.get("when")
        if when == "status":
            out += [n for n, p in state.players.items() if j["status"] in p.statuses]
        elif when == "all_living_have":
            side, roles = j["side"], set(j.get("roles", ()))
            rest = [n for n in living if state.players[n].side != side]
            members = [
                n for n, p in state.players.items()
                if p.side == side and (not roles or p.role in roles)
            ]
            if members and all(j["status"] in state.players[n].statuses for n in rest):
                out += members
        else:
            raise RulesetError(
                f"[[win.joins]] when = {when!r} is not one of status, all_living_have"
            )
    return list(dict.fromkeys(out))


def check_win(state: GameState, at: str = "dawn") -> Win | None:
    """The first win check of the ruleset that holds now (at "dawn" or "dusk")."""
    win_rules = state.rules.win
    living = _in_game(state)
    excluded = _mixed_lovers(state) if win_rules.get("mixed_lovers_win_alone") else set()
    for check in win_rules.get("checks", ()):
        if at not in check.get("at", ("dawn", "dusk")):
            continue
        winner = _holds(check, state, living)
        if winner is None:
            continue
        if winner == "lovers":
            players = tuple(sorted(_mixed_lovers(state)))
            title = str(win_rules.get("lovers_title", "The Lovers"))
        else:
            players = tuple(
                p.name
                for p in state.players.values()
                if p.side == winner
                and p.name not in excluded
                and not (win_rules.get("modkilled_lose") and p.death and p.death.how == "modkill")
            )
            title = state.rules.side(winner).title
        # 000's Survivor "wins as long as they are alive, regardless of which side wins":
        # a side passive `wins_if_alive` joins the winners of any win.
        players += tuple(
            n
            for n in living
            if state.rules.side(state.players[n].side).passives.get("wins_if_alive")
            and n not in players
        )
        players += tuple(n for n in joiners(state, living) if n not in players)
        return Win(
            winner, title, str(check.get("text", "")), players, bool(check.get("announces"))
        )
    return None
