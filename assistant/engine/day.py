"""Day-end decisions that depend on roles: who is lynched, who becomes sheriff.

The vote counter (issue 3) says who voted for whom; this module applies what roles do
to that: hidden vote weights (002 Doublevoter, Lovers, Hex of Powerlessness, Imaginary
Friend, Hex of Charming), who may not be lynched (Imaginary Friend, a tied Tiebreaker),
the tie rule of the ruleset ([night.lynch] tie = "random" | "sheriff" | "none"), and
003's multi-lynch thresholds.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from assistant.engine.state import GameState


@dataclass(frozen=True)
class DayOutcome:
    """Who is lynched (or elected) and why; `weights` are the effective totals used."""

    chosen: tuple[str, ...]
    weights: Mapping[str, float]
    reason: str


def effective_votes(state: GameState, votes: Mapping[str, str | None]) -> dict[str, float]:
    """Totals per target after the hidden weights roles give (never shown in tallies)."""
    totals: dict[str, float] = {}
    lover_bonus_paid: set[frozenset[str]] = set()
    for voter, target in votes.items():
        if target is None or voter not in state.players or not state.players[voter].alive:
            continue
        p = state.players[voter]
        weight = float(state.passive(voter, "vote_weight", 1))  # type: ignore[arg-type]
        lost_with = state.passive(voter, "lost_with_status")
        if lost_with and lost_with in p.statuses:
            weight = 1.0
        if "powerless" in p.day_statuses or f"charmed-by:{target}" in p.day_statuses:
            weight = 0.0
        lover = state.lover_of(voter)
        bonus = state.passive(voter, "lovers_vote")
        pair = frozenset({voter, lover or ""})
        if (
            lover
            and bonus
            and votes.get(lover) == target
            and pair not in lover_bonus_paid
            and weight
            and state.players[lover].alive
        ):
            weight += float(bonus) - 2  # type: ignore[arg-type]  # "count as three instead of two"
            lover_bonus_paid.add(pair)
        totals[target] = totals.get(target, 0.0) + weight
    return totals


def _ranked(totals: Mapping[str, float]) -> list[tuple[str, float]]:
    return sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))


def decide_lynch(
    state: GameState, votes: Mapping[str, str | None], *, day: int, sheriff_pick: str | None = None
) -> DayOutcome:
    """The lynch at the end of `day`, with the roles' effects and the ruleset's tie rule."""
    rules = state.rules.night.get("lynch", {})
    totals = effective_votes(state, votes)
    no_lynch = rules.get("no_lynch_target", "No Lynch")
    if not totals:
        if rules.get("no_votes") == "all_tied":  # 002: everyone is tied at zero
            totals = {p.name: 0.0 for p in state.living()}
        else:
            return DayOutcome((), totals, "no votes: no lynch")
    ranked = _ranked(totals)
    top = ranked[0][1]
    leaders = [n for n, v in ranked if v == top]
    immune = [n for n in leaders if n in state.players and _lynch_immune(state, n)]
    reason = []
    if len(leaders) > 1:
        tied_out = [n for n in leaders if n in state.players and state.passive(n, "tiebreaker")]
        if tied_out:
            reason.append(f"{', '.join(tied_out)} (Tiebreaker) is not considered")
            leaders = [n for n in leaders if n not in tied_out]
    if immune:
        reason.append(f"{', '.join(immune)} cannot be lynched; the lynch passes on")
        rest = [(n, v) for n, v in ranked if n not in immune]
        if not rest:
            return DayOutcome((), totals, "; ".join(reason))
        top = rest[0][1]
        leaders = [n for n, v in rest if v == top]
    if len(leaders) > 1:
        breaker = next(
            (
                v
                for k, v in votes.items()
                if k in state.players and state.players[k].alive and state.passive(k, "tiebreaker")
            ),
            None,
        )
        if breaker in leaders:
            reason.append(f"the Tiebreaker's vote decides: {breaker}")
            leaders = [breaker]
    if len(leaders) > 1:
        tie = rules.get("tie", "none")
        if tie == "random":
            pick = random.Random(f"{state.seed}:lynch:{day}").choice(sorted(leaders))
            reason.append(f"tie between {', '.join(leaders)} drawn at random: {pick}")
            leaders = [pick]
        elif tie == "sheriff" and sheriff_pick in leaders:
            reason.append(f"tie broken by the sheriff: {sheriff_pick}")
            leaders = [sheriff_pick]
        else:
            reason.append(f"tie between {', '.join(leaders)}: no lynch")
            return DayOutcome((), totals, "; ".join(reason))
    chosen = leaders[0]
    if chosen == no_lynch:
        return DayOutcome((), totals, "No Lynch leads")
    for other in state.players.values():
        if f"charmed-by:{chosen}" in other.day_statuses and other.alive:
            reason.append(f"{other.name} is charmed by {chosen} and is lynched instead")
            chosen = other.name
            break
    reason.append(f"{chosen} has the most votes" if not reason else "")
    return DayOutcome((chosen,), totals, "; ".join(r for r in reason if r))


def _lynch_immune(state: GameState, name: str) -> bool:
    lost_with = state.passive(name, "lost_with_status")
    if lost_with and lost_with in state.players[name].statuses:
        return False
    return bool(state.passive(name, "lynch_immune"))


def elect_sheriff(state: GameState, votes: Mapping[str, str | None]) -> DayOutcome:
    """001: the most votes becomes sheriff; self-votes do not count; a tie elects nobody."""
    counted = {v: t for v, t in votes.items() if t is not None and t != v}
    totals: dict[str, float] = {}
    for target in counted.values():
        totals[target] = totals.get(target, 0.0) + 1
    if not totals:
        return DayOutcome((), totals, "no votes: no sheriff today")
    ranked = _ranked(totals)
    leaders = [n for n, v in ranked if v == ranked[0][1]]
    if len(leaders) > 1:
        return DayOutcome(
            (),
            totals,
            f"tie between {', '.join(leaders)}: no sheriff today; the village votes again tomorrow",
        )
    return DayOutcome((leaders[0],), totals, f"{leaders[0]} is elected sheriff")


def multi_lynch(
    state: GameState, votes: Mapping[str, str | None], *, day: int, town_deaths_last_night: int
) -> DayOutcome:
    """003: up to three lynches; the 2nd above 34 %, the 3rd above 10 % of the votes cast."""
    rules = state.rules.night.get("lynch", {})
    available = (
        1 if day == 1 else max(1, min(int(rules.get("max_lynches", 3)), town_deaths_last_night))
    )
    totals = effective_votes(state, votes)
    cast = sum(totals.values())
    ranked = _ranked(totals)
    if not ranked or ranked[0][0] == rules.get("no_lynch_target", "No Lynch"):
        return DayOutcome((), totals, "No Lynch leads: nobody is lynched")
    chosen = [ranked[0][0]]
    thresholds = list(rules.get("thresholds", [0.34, 0.10]))
    for i, share in enumerate(thresholds, start=1):
        if available <= i or len(ranked) <= i or len(chosen) < i:
            break
        name, v = ranked[i]
        if name != rules.get("no_lynch_target", "No Lynch") and v > share * cast:
            chosen.append(name)
    return DayOutcome(
        tuple(chosen), totals, f"{available} lynch(es) available; {len(chosen)} lynched"
    )
