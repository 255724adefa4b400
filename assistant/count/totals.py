"""The day's totals once its events are applied: who is alive when the count is read, the
wagons with their shown and effective weights (the lovers' bonus, 004 Accompany), the votes
frozen with their final codes, and what the roles do to the outcome."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from assistant.count.outcome import NO_LYNCH, RoleEffects, TallyRules
from assistant.count.records import ABSTAIN, Vote, Wagon
from assistant.count.running import RunningCount
from assistant.count.weights import hidden_by
from assistant.game import Game, Phase
from assistant.models import Post
from assistant.vote_codes import ACCEPTED, VoteCode


def alive_at_end(
    game: Game,
    phase: Phase | None,
    last: Post | None,
    at_post: int | None,
    at: datetime | None,
    now: datetime | None,
) -> tuple[str, ...]:
    """Who is alive when the count is read. Asked as of a post or a moment, that post /
    moment; otherwise now, or the day's end when it is over: a player killed during the
    day after the last post read (an engine day action stored when the GM confirmed
    `resolve --day N`, a GM `kill` at the last post) is dead in the tally, so his vote and
    the votes for him drop out (001: "the vote of the executed player no longer counts",
    002: "all votes by and for him are removed")."""
    last_id = last.post_id if last else None
    if at_post is not None or at is not None:
        moment = at or (last.posted_at if last else None)
        return tuple(s for s in game.players if game.is_alive(s, post_id=last_id, at=moment))
    moment = now or (last.posted_at if last else None)
    if last is not None and moment is not None and moment < last.posted_at:
        moment = last.posted_at  # a clock behind the posts read: they have happened
    end = game.end_of(phase) if phase is not None else None
    if moment is not None and end is not None:
        moment = min(moment, end)
    return tuple(s for s in game.players if game.alive_after(s, post_id=last_id, at=moment))


def role_effects(
    state: RunningCount, game: Game, day: int | None, alive: Sequence[str]
) -> RoleEffects:
    """The outcome side of the day's modifiers: who cannot be lynched, Tiebreakers, charms."""
    immune, tiebreakers, charmed = set(), {}, {}
    for m in game.modifiers:
        if m.player not in alive or not (m.day is None or day is None or m.day == day):
            continue
        if m.lynch_immune:
            immune.add(m.player)
        if m.tiebreaker:
            standing = state.current.get(m.player)
            tiebreakers[m.player] = standing.target if standing else None
        if m.charmed_by:
            charmed.setdefault(m.charmed_by, m.player)
    return RoleEffects(frozenset(immune), tiebreakers, charmed)


def wagon_weights(
    state: RunningCount,
    game: Game,
    trules: TallyRules,
    phase: Phase | None,
    alive: Sequence[str],
    target: str,
) -> dict[str, int]:
    """Effective weight of each living voter on `target`, lovers' bonus included."""
    day = phase.number if phase else None
    voters = [v for v, st in state.current.items() if st.target == target and v in alive]
    weights: dict[str, int] = {}
    for v in voters:
        weights[v] = state.weight(game, v, target, day)[0]
    if trules.lovers_bonus:
        for v in voters:
            for m in game.modifiers_for(v, day):
                if m.lover_of and m.lover_of in voters and v < m.lover_of and weights[v] > 0:
                    weights[v] += trules.lovers_bonus
    return weights


def build_wagons(
    state: RunningCount, game: Game, trules: TallyRules, phase: Phase | None, alive: Sequence[str]
) -> list[Wagon]:
    targets: dict[str, list[tuple[int, str]]] = {}
    day = phase.number if phase else None
    for voter, st in state.current.items():
        # Votes by and for the dead drop out (002: "all votes by and for him are removed");
        # a hidden vote (004: "will not count or be shown") is as if not cast.
        if (
            voter in alive
            and st.target != ABSTAIN
            and (st.target == NO_LYNCH or st.target in alive)
            and hidden_by(game, voter, day) is None
        ):
            targets.setdefault(st.target, []).append((st.order, voter))
    wagons = []
    for target, entries in targets.items():
        entries.sort()
        voters = tuple(v for _, v in entries)
        weights = wagon_weights(state, game, trules, phase, alive, target)
        if trules.show_weights:
            displayed = sum(
                max((m.vote_weight for m in game.modifiers_for(v, day)), default=1) for v in voters
            )
        else:
            displayed = len(voters)
        posts = tuple(state.votes[state.current[v].index]["post_id"] for v in voters)
        # 004 Accompany: "The target will have his/her lynching votes reduced by 1".
        delta = sum(m.votes_against for m in game.modifiers_for(target, day))
        effective = max(0, sum(weights.values()) + delta)
        wagons.append(Wagon(target, voters, posts, displayed, effective))
    first_vote = {w.target: min(state.current[v].order for v in w.voters) for w in wagons}
    wagons.sort(key=lambda w: (-w.effective, -w.displayed, first_vote[w.target]))
    return wagons


def freeze_votes(
    state: RunningCount, game: Game, trules: TallyRules, phase: Phase | None
) -> list[Vote]:
    day = phase.number if phase else None
    return [freeze_vote(fields, state, game, day) for fields in state.votes]


def freeze_vote(fields: dict[str, Any], state: RunningCount, game: Game, day: int | None
                ) -> Vote:
    """One mark's record of the running count as the `Vote` it became."""
    fields = dict(fields)
    fields.pop("written", None)  # the name as written, for the running count only
    ended = fields.pop("ended", None)
    if ended:
        fields["code"], why = ended
        fields["reason"] = f"{why} ({fields['reason']})"
    weight = 0
    if (
        fields["code"] in ACCEPTED
        and fields["action"] == "vote"
        and fields["target"] not in (None, ABSTAIN)
    ):
        weight, why = state.weight(game, fields["voter"], fields["target"], day)
        by = "" if why in ("", "gm") else f"; {why}"
        if hidden_by(game, fields["voter"], day) is not None:
            fields["reason"] += f" (not counted and not shown: {why})"
            if fields["code"] == VoteCode.COUNTED:
                fields["code"] = VoteCode.HIDDEN
        elif weight == 0:
            fields["reason"] += f" (powerless: shown, not counted{by})"
            if fields["code"] == VoteCode.COUNTED:
                fields["code"] = VoteCode.POWERLESS
        elif weight > 1:
            fields["reason"] += f" (counts {weight}{by})"
    return Vote(weight=weight, **fields)
