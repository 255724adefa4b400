"""The vote count of a day: every vote-like mark judged, applied in order, and totalled.

`count(posts, game, ruleset)` is a pure function of the posts (latest versions, or the
versions as of a moment), the game's facts and the ruleset. Each mark becomes a `Vote`
with `accepted` and a reason a GM can read ("counted: red vote", "replaced by post 66",
"not counted: voter is dead", "ambiguous: 'J' could be Jd- or Tom & Jerry's"), so a
count can be explained post by post and replayed as of any post.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from assistant.game import Game, Phase
from assistant.models import Post, to_iso
from assistant.outcome import NO_LYNCH, Outcome, Standing, TallyRules, decide
from assistant.votes import VoteMark, VoteRules, extract_votes

ABSTAIN = "Abstain"


@dataclass(frozen=True)
class Vote:
    """One vote-like mark and what became of it."""

    post_id: int | None
    """The forum post that carried it; None for a vote entered by the GM (PM)."""
    voter: str
    """The voter's slot, or the author's name when the author is not a player."""
    target: str | None
    """A player's shown name, "No Lynch", "Abstain", or None for an unvote / an unresolved name."""
    action: str
    """"vote" or "unvote"."""
    text: str
    """The mark as written ("[Vote: Slayer]")."""
    markup: str
    """How it was written: "red", "bold", "tag", "plain text", "PM"."""
    weight: int
    """The vote's effective weight when it counts (doublevoter 2, powerless 0); 0 if not counted."""
    accepted: bool
    """It counted when it was cast (a later vote may have replaced it: see `reason`)."""
    reason: str
    at: datetime
    url: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "post": self.post_id,
            "url": self.url,
            "voter": self.voter,
            "action": self.action,
            "target": self.target,
            "text": self.text,
            "markup": self.markup,
            "weight": self.weight,
            "accepted": self.accepted,
            "reason": self.reason,
            "at": to_iso(self.at),
        }


@dataclass(frozen=True)
class Wagon:
    target: str
    voters: tuple[str, ...]
    """In the order they voted (a re-vote for the same target keeps the first place)."""
    posts: tuple[int | None, ...]
    """The post of each voter's standing vote, for links."""
    displayed: int
    """The count official tallies show (powerless votes shown, hidden extra weight not)."""
    effective: int
    """The count that decides the lynch."""

    def to_json(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "voters": list(self.voters),
            "displayed": self.displayed,
            "effective": self.effective,
        }


@dataclass(frozen=True)
class Tally:
    day: int | None
    wagons: tuple[Wagon, ...]
    not_voting: tuple[str, ...]
    abstaining: tuple[str, ...]
    alive: tuple[str, ...]
    majority: int
    outcome: Outcome
    votes: tuple[Vote, ...]
    deadline: datetime | None = None
    last_post: int | None = None
    last_post_at: datetime | None = None
    ruleset: str = ""

    def to_json(self, *, why: bool | str = False) -> dict[str, Any]:
        """The document `count --json` prints; `why` adds the votes (of one player if a name)."""
        doc: dict[str, Any] = {
            "wagons": [w.to_json() for w in self.wagons],
            "not_voting": list(self.not_voting),
            "alive": list(self.alive),
            "majority": self.majority,
            "outcome": self.outcome.to_json(),
        }
        if why:
            votes = self.votes if why is True else self.votes_of(str(why))
            doc["votes"] = [v.to_json() for v in votes]
        return doc

    def votes_of(self, voter: str) -> tuple[Vote, ...]:
        return tuple(v for v in self.votes if v.voter == voter)

    def wagon(self, target: str) -> Wagon | None:
        return next((w for w in self.wagons if w.target == target), None)


@dataclass
class _Standing:
    target: str
    index: int
    """Index into the votes list of the vote that put the voter on this target."""
    order: int


@dataclass
class _State:
    """The running count while posts are applied."""

    current: dict[str, _Standing] = field(default_factory=dict)
    votes: list[dict[str, Any]] = field(default_factory=list)
    order: int = 0
    hammer: tuple[str, int] | None = None


def count(
    posts: Iterable[Post],
    game: Game,
    rules: Any,
    *,
    at_post: int | None = None,
    at: datetime | None = None,
    day: int | None = None,
    now: datetime | None = None,
) -> Tally:
    """The count of the current day (or `day`) as of the end, `at_post` or `at`.

    `posts` are the thread's posts (the latest versions, or each post as it was at `at`);
    GM posts are read only to report their vote examples. `now` tells whether the deadline
    has passed (defaults to `at`); past it, the outcome is final.
    """
    vrules = VoteRules.from_ruleset(rules)
    trules = TallyRules.from_ruleset(rules)
    phase = game.day(day)
    selected = _select(posts, game, phase, at_post, at)
    state = _State()
    matcher = game.matcher(vrules.close_spelling)
    events = _events(selected, game, phase, at_post, at)
    for kind, item in events:
        if kind == "post":
            post: Post = item
            for mark in extract_votes(post, vrules, gms=game.gms):
                _apply_mark(state, game, vrules, trules, phase, post, mark, matcher)
        else:
            _apply_pm(state, game, vrules, trules, phase, item, matcher)

    last = selected[-1] if selected else None
    moment = at or (last.posted_at if last else None)
    alive = tuple(
        s
        for s in game.players
        if game.is_alive(s, post_id=last.post_id if last else None, at=moment)
    )
    votes = _freeze_votes(state, game, trules, phase)
    wagons = _wagons(state, game, trules, phase, alive)
    voting = {w_voter for w in wagons for w_voter in w.voters}
    abstaining = tuple(v for v, st in state.current.items() if st.target == ABSTAIN and v in alive)
    not_voting = tuple(s for s in alive if s not in voting and s not in abstaining)
    majority = len(alive) // 2 + 1
    deadline = phase.ends_at if phase else None
    now = now or at
    final = deadline is not None and now is not None and now >= deadline
    outcome = decide(
        [Standing(w.target, w.effective, w.displayed) for w in wagons],
        alive=alive,
        majority=majority,
        rules=trules,
        seed=f"{game.game_id}/day {phase.number if phase else 1}",
        day=phase.number if phase else None,
        lynches_available=game.lynches_available(phase.number if phase else None),
        hammer=state.hammer,
        last_post=last.post_id if last else None,
        final=final,
    )
    return Tally(
        day=phase.number if phase else None,
        wagons=tuple(wagons),
        not_voting=not_voting,
        abstaining=abstaining,
        alive=alive,
        majority=majority,
        outcome=outcome,
        votes=tuple(votes),
        deadline=deadline,
        last_post=last.post_id if last else None,
        last_post_at=last.posted_at if last else None,
        ruleset=getattr(rules, "name", ""),
    )


# ---- choosing what to count -----------------------------------------------------------------


def _select(
    posts: Iterable[Post], game: Game, phase: Phase | None, at_post: int | None, at: datetime | None
) -> list[Post]:
    out = []
    for p in posts:
        if not game.in_day(p, phase):
            continue
        if at_post is not None and p.post_id > at_post:
            continue
        if at is not None and p.posted_at > at:
            continue
        out.append(p)
    out.sort(key=lambda p: (p.position, p.post_id))
    return out


def _events(
    posts: Sequence[Post], game: Game, phase: Phase | None, at_post: int | None, at: datetime | None
) -> list[tuple[str, Any]]:
    """Posts in thread order with the GM's PM votes placed by time among them."""
    pms = [
        v
        for v in game.pm_votes
        if (phase is None or v.at >= phase.starts_at) and (at is None or v.at <= at)
    ]
    if at_post is not None and posts:
        pms = [v for v in pms if v.at <= posts[-1].posted_at]
    pms.sort(key=lambda v: v.at)
    events: list[tuple[str, Any]] = []
    i = 0
    for p in posts:
        while i < len(pms) and pms[i].at < p.posted_at:
            events.append(("pm", pms[i]))
            i += 1
        events.append(("post", p))
    events.extend(("pm", v) for v in pms[i:])
    return events


# ---- applying one mark ------------------------------------------------------------------------


def _record(state: _State, **fields: Any) -> int:
    state.votes.append(fields)
    return len(state.votes) - 1


def _apply_mark(
    state: _State,
    game: Game,
    vrules: VoteRules,
    trules: TallyRules,
    phase: Phase | None,
    post: Post,
    mark: VoteMark,
    matcher: Any,
) -> None:
    if mark.action == "mention":
        return
    target_match = None
    if mark.action == "name" or "plain" in mark.forms:
        # A bold name without "vote", or a plain line, is only a vote if it names a player.
        if mark.action == "name":
            target_match = matcher.match(mark.target_text or "", strict=True)
        elif mark.action == "vote" and not (
            vrules.is_no_lynch(mark.target_text) or vrules.is_abstain(mark.target_text)
        ):
            target_match = matcher.match_leading(mark.target_text or "")
        if target_match is not None and target_match.how == "unknown":
            return
    base = dict(
        post_id=post.post_id,
        text=mark.text,
        markup=mark.markup,
        at=post.posted_at,
        url=post.url,
        action="unvote" if mark.action == "unvote" else "vote",
    )
    if game.is_gm(post.author):
        _record(state, voter=post.author, target=None, accepted=False, reason=mark.reason, **base)
        return
    voter = game.slot_of_author(post.author)
    if voter is None:
        _record(
            state,
            voter=post.author,
            target=None,
            accepted=False,
            reason=f"not counted: {post.author} is not a player in this game",
            **base,
        )
        return
    if not mark.usable:
        _record(state, voter=voter, target=None, accepted=False, reason=mark.reason, **base)
        return
    if target_match is None and mark.action == "vote":
        target_match = (
            None if _special(mark.target_text, vrules) else matcher.match(mark.target_text or "")
        )
    _apply(
        state,
        game,
        vrules,
        trules,
        phase,
        voter,
        base["action"],
        mark.target_text,
        target_match,
        mark.reason,
        base,
        post.post_id,
        post.posted_at,
    )


def _apply_pm(
    state: _State,
    game: Game,
    vrules: VoteRules,
    trules: TallyRules,
    phase: Phase | None,
    pm: Any,
    matcher: Any,
) -> None:
    base = dict(
        post_id=None,
        text=f"PM: {pm.target or 'unvote'}",
        markup="PM",
        at=pm.at,
        url=None,
        action="vote" if pm.target else "unvote",
    )
    if "pm" not in vrules.forms:
        _record(
            state,
            voter=pm.voter,
            target=None,
            accepted=False,
            reason="not counted: this ruleset does not take votes by PM",
            **base,
        )
        return
    action = "vote" if pm.target else "unvote"
    target_match = None
    if action == "vote" and not _special(pm.target, vrules):
        target_match = matcher.match(pm.target)
    _apply(
        state,
        game,
        vrules,
        trules,
        phase,
        pm.voter,
        action,
        pm.target,
        target_match,
        "counted: vote sent to the GM by PM",
        base,
        None,
        pm.at,
    )


def _special(text: str | None, vrules: VoteRules) -> bool:
    return vrules.is_no_lynch(text) or vrules.is_abstain(text)


def _apply(
    state: _State,
    game: Game,
    vrules: VoteRules,
    trules: TallyRules,
    phase: Phase | None,
    voter: str,
    action: str,
    target_text: str | None,
    target_match: Any,
    counted: str,
    base: dict[str, Any],
    post_id: int | None,
    at: datetime,
) -> None:
    def refuse(reason: str, target: str | None = None) -> None:
        _record(state, voter=voter, target=target, accepted=False, reason=reason, **base)

    if state.hammer is not None:
        return refuse(
            f"not counted: the day ended at post {state.hammer[1]} (majority on {state.hammer[0]})"
        )
    if (
        phase is not None
        and phase.ends_at is not None
        and at > phase.ends_at
        and not vrules.after_deadline
    ):
        return refuse(f"not counted: cast after the deadline ({to_iso(phase.ends_at)})")
    if not game.is_alive(voter, post_id=post_id, at=at):
        death = game.death_of(voter)
        how = f" ({death.how})" if death and death.how != "other" else ""
        return refuse(f"not counted: {voter} is dead{how}")

    target: str | None = None
    note = ""
    if action == "vote":
        if vrules.is_no_lynch(target_text):
            if not vrules.no_lynch:
                return refuse("not counted: No Lynch is not allowed under this ruleset")
            target = NO_LYNCH
        elif vrules.is_abstain(target_text):
            if not vrules.abstain:
                return refuse("not counted: abstaining is not allowed under this ruleset")
            target = ABSTAIN
        else:
            if target_match is None or not target_match.ok:
                what = target_match.describe() if target_match else f"{target_text!r} names no one"
                if target_match is not None and target_match.how == "ambiguous":
                    return refuse(f"ambiguous: {what}; not counted")
                return refuse(f"not counted: {what}")
            target = target_match.slot
            note = target_match.describe()
            if not game.is_alive(target, post_id=post_id, at=at):
                death = game.death_of(target)
                how = f" ({death.how})" if death and death.how != "other" else ""
                return refuse(f"not counted: {target} is dead{how}", target)
            if target == voter and not vrules.self_vote:
                return refuse("not counted: self-votes are not allowed under this ruleset", target)

    cur = state.current.get(voter)
    where = f"post {post_id}" if post_id is not None else "a PM vote"
    reason = counted + (f" ({note})" if note else "")
    if action == "unvote":
        if cur is None:
            _record(
                state,
                voter=voter,
                target=None,
                accepted=True,
                reason=reason + " (no vote to remove)",
                **base,
            )
            return
        named = matcher_note(target_text, cur.target, game, vrules)
        state.votes[cur.index]["ended"] = f"removed by the unvote in {where}"
        del state.current[voter]
        _record(
            state,
            voter=voter,
            target=None,
            accepted=True,
            reason=f"{reason}: removes the vote on {cur.target}{named}",
            **base,
        )
        return
    assert target is not None
    if cur is not None and cur.target == target:
        since = state.votes[cur.index]["post_id"]
        _record(
            state,
            voter=voter,
            target=target,
            accepted=True,
            reason=f"{reason}; already voting {target} since post {since}: no change",
            **base,
        )
        return
    if cur is not None and not vrules.replace:
        return refuse(
            f"not counted: still voting {cur.target}; this ruleset counts a new vote "
            "only after an unvote",
            target,
        )
    index = _record(state, voter=voter, target=target, accepted=True, reason=reason, **base)
    if cur is not None:
        same_post = post_id is not None and state.votes[cur.index]["post_id"] == post_id
        state.votes[cur.index]["ended"] = (
            "replaced by the later vote in the same post" if same_post else f"replaced by {where}"
        )
    state.order += 1
    state.current[voter] = _Standing(target, index, state.order)
    if trules.decision == "majority" and target != ABSTAIN:
        alive = [s for s in game.players if game.is_alive(s, post_id=post_id, at=at)]
        majority = len(alive) // 2 + 1
        total = sum(_weights(state, game, trules, phase, alive, target).values())
        if total >= majority:
            state.hammer = (target, post_id) if post_id is not None else (target, -1)


def matcher_note(target_text: str | None, current: str, game: Game, vrules: VoteRules) -> str:
    """For "unvote NAME" naming someone other than the current vote, say so."""
    if not target_text:
        return ""
    m = game.matcher(vrules.close_spelling).match(target_text)
    if m.ok and m.slot != current:
        return f" (it names {m.slot}, but the vote was on {current})"
    return ""


# ---- totals -----------------------------------------------------------------------------------


def _weights(
    state: _State,
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
        mods = game.modifiers_for(v, day)
        weight = max((m.vote_weight for m in mods), default=1)
        if any(m.powerless for m in mods):
            weight = 0
        weights[v] = weight
    if trules.lovers_bonus:
        for v in voters:
            for m in game.modifiers_for(v, day):
                if m.lover_of and m.lover_of in voters and v < m.lover_of and weights[v] > 0:
                    weights[v] += trules.lovers_bonus
    return weights


def _wagons(
    state: _State, game: Game, trules: TallyRules, phase: Phase | None, alive: Sequence[str]
) -> list[Wagon]:
    targets: dict[str, list[tuple[int, str]]] = {}
    for voter, st in state.current.items():
        # Votes by and for the dead drop out (002: "all votes by and for him are removed").
        if (
            voter in alive
            and st.target != ABSTAIN
            and (st.target == NO_LYNCH or st.target in alive)
        ):
            targets.setdefault(st.target, []).append((st.order, voter))
    day = phase.number if phase else None
    wagons = []
    for target, entries in targets.items():
        entries.sort()
        voters = tuple(v for _, v in entries)
        weights = _weights(state, game, trules, phase, alive, target)
        if trules.show_weights:
            displayed = sum(
                max((m.vote_weight for m in game.modifiers_for(v, day)), default=1) for v in voters
            )
        else:
            displayed = len(voters)
        posts = tuple(state.votes[state.current[v].index]["post_id"] for v in voters)
        wagons.append(Wagon(target, voters, posts, displayed, sum(weights.values())))
    first_vote = {w.target: min(state.current[v].order for v in w.voters) for w in wagons}
    wagons.sort(key=lambda w: (-w.effective, -w.displayed, first_vote[w.target]))
    return wagons


def _freeze_votes(state: _State, game: Game, trules: TallyRules, phase: Phase | None) -> list[Vote]:
    day = phase.number if phase else None
    out = []
    for fields in state.votes:
        fields = dict(fields)
        ended = fields.pop("ended", None)
        if ended:
            fields["reason"] = f"{ended} ({fields['reason']})"
        weight = 0
        if (
            fields["accepted"]
            and fields["action"] == "vote"
            and fields["target"] not in (None, ABSTAIN)
        ):
            mods = game.modifiers_for(fields["voter"], day)
            weight = (
                0
                if any(m.powerless for m in mods)
                else max((m.vote_weight for m in mods), default=1)
            )
            if weight == 0:
                fields["reason"] += " (powerless: shown, not counted)"
            elif weight > 1:
                fields["reason"] += f" (counts {weight})"
        out.append(Vote(weight=weight, **fields))
    return out
