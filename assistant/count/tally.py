"""The vote count of a day: every vote-like mark judged, applied in order, and totalled.

`count(posts, game, ruleset)` is a pure function of the posts (latest versions, or the
versions as of a moment), the game's facts and the ruleset. Each mark becomes a `Vote`
with `accepted` and a reason a GM can read ("counted: red vote", "replaced by post 66",
"not counted: voter is dead", "ambiguous: 'J' could be Jd- or Tom & Jerry's"), so a
count can be explained post by post and replayed as of any post. Beside the reason each
`Vote` carries a stable `code` (assistant/vote_codes.py): checks classify votes by it,
never by the wording.

Ties the ruleset leaves to someone (`[tally] tie = "decided"`) are decided by the GM's
facts: who the sheriff is (001, input "sheriff") and whom they chose (input "tie_break").
Random ties are drawn with the game's stored seed when it has an engine setup.

What roles do to votes arrives as "modifier" facts (game.py), whether the GM entered them
or the engine derived them from the setup: weights, powerless and charmed votes, lovers,
and, for the outcome, the Tiebreaker and players who cannot be lynched.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from assistant.count.all_voted import AllVotedWatch
from assistant.count.gm_counts import Taught, taught_by_count
from assistant.count.gm_threshold import StatedThreshold, stated_threshold, threshold_note
from assistant.count.nicknames import Nicknames
from assistant.count.outcome import (
    NO_LYNCH,
    Outcome,
    RoleEffects,
    Standing,
    TallyRules,
    decide,
    lynches_today,
)
from assistant.count.votes import VoteMark, VoteRules, extract_votes, visible
from assistant.errors import PhaseError
from assistant.game import Game, Phase
from assistant.models import Post, to_iso
from assistant.names import Match, NameMatcher, Slot, fold
from assistant.timeline import Edit
from assistant.vote_codes import ACCEPTED, VoteCode

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
    reason: str
    """Why, for people: "counted: red vote", "replaced by post 66 (counted: tag vote)"."""
    code: VoteCode
    """Why, for programs: a stable code (see assistant/vote_codes.py)."""
    at: datetime
    url: str | None = None

    @property
    def accepted(self) -> bool:
        """It counted when it was cast (a later vote may have replaced it: see `code`).
        Derived from `code`, so the two can never disagree."""
        return self.code in ACCEPTED

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
            "code": str(self.code),
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
    decision: str = "majority"
    """The ruleset's [tally] decision: "majority" ends the day at `majority` votes;
    "plurality" lynches the most votes at the deadline, so `majority` decides nothing."""
    lynches: int = 1
    """Lynches available this day (003 multi-lynch: up to three)."""
    thresholds: tuple[float, ...] = ()
    """The ruleset's share of the living players' votes the 2nd, 3rd... lynch must exceed."""
    majority_note: str = ""
    """For the GM: `majority` is the GM's stated threshold, not the ruleset's (gm_threshold.py)."""
    votes_hidden: str = ""
    """Why no vote of the day is shown in its tally post (004 Voice of Reason: "No votes are
    shown if Voice of Reason is used"); "" when they are shown."""

    def lynch_rule(self) -> str:
        """The line under a count that says what lynches (plurality rulesets never hammer),
        and on a multi-lynch day how many lynches there are and what the later ones take
        (003: "the second-leading vote getter will also be lynched if (s)he has received
        more than 34% of the available votes")."""
        n = len(self.alive)
        if self.decision == "majority":
            line = f"With {n} alive, it takes {self.majority} to lynch."
        else:
            line = f"With {n} alive, the most votes at the deadline lynch."
        extra = self.thresholds[: self.lynches - 1]
        if not extra:
            return line
        places = ("second", "third", "fourth", "fifth")
        parts = []
        for i, share in enumerate(extra):
            need = int(share * n + 1e-9) + 1  # the fewest votes that are more than the share
            after = f"if the {places[i - 1]} is lynched and " if i else "if "
            parts.append(
                f"the {places[i]} {after}over {share:.0%} of the {n} votes ({need} or more)"
            )
        return f"{line} {self.lynches} lynches today: the leader, " + ", ".join(parts) + "."

    def to_json(self, *, why: bool | str = False) -> dict[str, Any]:
        """The document `count --json` prints; `why` adds the votes (of one player if a name)."""
        doc: dict[str, Any] = {
            "wagons": [w.to_json() for w in self.wagons],
            "not_voting": list(self.not_voting),
            "alive": list(self.alive),
            "majority": self.majority,
            **({"majority_note": self.majority_note} if self.majority_note else {}),
            **({"votes_hidden": self.votes_hidden} if self.votes_hidden else {}),
            "outcome": self.outcome.to_json(),
        }
        if why:
            votes = self.votes if why is True else self.votes_of(str(why))
            doc["votes"] = [v.to_json() for v in votes]
        return doc

    def votes_of(self, voter: str) -> tuple[Vote, ...]:
        return tuple(v for v in self.votes if v.voter == voter)

    def voter_named(self, game: Game, text: str, *, close_spelling: float = 0.8) -> Match:
        """Whose votes `--why TEXT` asks about, read as votes read names: a player (name,
        alias, then prefix, substring, close spelling), else someone else who cast a
        vote-like mark this day ("bob" for the non-player "bob the builder"). Exact and
        accent-blind names are tried for both before the looser steps, so a non-player's
        full name is never read as a player's close spelling."""
        players = game.matcher(close_spelling)
        others = NameMatcher(
            [Slot(v) for v in self.other_voters(game)], close_spelling=close_spelling
        )
        for strict in (True, False):
            for matcher in (players, others):
                m = matcher.match(text, strict=strict)
                if m.ok or m.how == "ambiguous":
                    return m
        near = players.match(text).candidates + others.match(text).candidates
        return Match(text, None, "unknown", near)

    def other_voters(self, game: Game) -> tuple[str, ...]:
        """Who cast a vote-like mark this day without being a player (GMs, spectators)."""
        return tuple(dict.fromkeys(v.voter for v in self.votes if v.voter not in game.players))

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
    hammer: tuple[str, int | None] | None = None
    """(target, post) of the vote that reached majority; post None for a PM vote."""
    players: tuple[str, ...] = ()
    written: dict[str, tuple[str, str, int | None]] = field(default_factory=dict)
    """Names (folded) as counted votes wrote them: (player, voter, post); see
    `_as_written_before`."""
    author_notes: Mapping[str, str] = field(default_factory=dict)
    """Authors the players file does not name, read as a slot: why (`_with_unlisted_authors`)."""
    weights: dict[tuple[str, str | None], tuple[int, str]] = field(default_factory=dict)
    """`_vote_weight` of (voter, target) on the day counted: the game's facts do not change
    during a count, and the weights are asked for again at every vote on a wagon."""
    stated: StatedThreshold | None = None
    nicknames: Nicknames = field(default_factory=Nicknames)
    """Nicknames the thread gave players so far ([votes] thread_nicknames)."""
    """The lynch threshold the GM last stated for today's living count ([tally] gm_threshold)."""

    def weight(
        self, game: Game, voter: str, target: str | None, day: int | None
    ) -> tuple[int, str]:
        found = self.weights.get((voter, target))
        if found is None:
            found = self.weights[(voter, target)] = _vote_weight(game, voter, target, day)
        return found


def count(
    posts: Iterable[Post],
    game: Game,
    rules: Any,
    *,
    at_post: int | None = None,
    at: datetime | None = None,
    day: int | None = None,
    now: datetime | None = None,
    deadline: datetime | None = None,
    edits: Sequence[Edit] = (),
    watch: AllVotedWatch | None = None,
) -> Tally:
    """The count of the current day (or `day`) as of the end, `at_post` or `at`.

    `posts` are the thread's posts, each once; `edits` the changes made to them since
    (`timeline.thread_of`): then `posts` are the posts as first posted, and an edit that
    changes a post's votes is applied at the edit's time, as the ruleset's `[votes] edits`
    says (`count_from_edit`: the edited vote counts from then; `first_posted`: the vote
    stands as first posted). An edit after the day's end never changes the day's count.
    Without `edits`, each post counts as given (an archive, or the latest versions).
    GM posts are read only to report their vote examples. `now` tells whether the deadline
    has passed (defaults to `at`); past it, the outcome is final.

    `deadline` is the day's effective end when the caller knows it (`monitor.day_end`:
    everyone voted, a majority, the GM shortening or extending the day); without it the
    day ends when the GM set it to. Votes after it do not count, and it is the deadline the
    tally shows. (The early ends need a count of their own, so they are found outside.)

    `watch` (all_voted.py) is shown the count after each event, to notice in this one
    pass the moment everyone first had a vote.
    """
    vrules = VoteRules.from_ruleset(rules)
    trules = TallyRules.from_ruleset(rules)
    phase = game.day(day)
    if day is not None and phase is None:
        days = sorted({p.number for p in game.phases if p.kind == "day"})
        raise PhaseError(
            f"game {game.game_id!r} has no day {day}: "
            + (
                f"the days entered are {', '.join(map(str, days))}"
                if days
                else "no day has been entered yet (`assistant phase GAME day N`)"
            )
        )
    if phase is not None and deadline is not None and deadline != phase.ends_at:
        phase = dataclasses.replace(phase, ends_at=deadline)
    number = phase.number if phase else None
    posts = posts if isinstance(posts, Sequence) else list(posts)
    game = game.counting(phase)  # the day's own lynch is its result, not a death in it
    selected = _select(posts, game, phase, at_post, at)
    game, author_notes = _with_unlisted_authors(game, posts)
    matcher = game.matcher(vrules.close_spelling)
    sheriff = game.sheriff(number)
    # 001: the day the sheriff was elected, the lynch vote starts after the announcement.
    election_until = sheriff.at_post if sheriff is not None and sheriff.day == number else None
    events = _events(selected, game, phase, at_post, at, edits)

    def election(post: Post) -> str | None:
        if sheriff is None or election_until is None or post.post_id > election_until:
            return None
        return (
            f"a sheriff-election vote (the election of {sheriff.player} was announced "
            f"in post {election_until})"
        )

    def run(taught: Mapping[str, Taught], watch: Any = None, upto: int | None = None) -> _State:
        state = _State(players=game.players, author_notes=author_notes)
        if watch is not None:  # the watch learns the events here, once per pass
            watch.begin(events, game)
        for i, (kind, item) in enumerate(events):
            if upto is not None and i > upto:
                break
            start = len(state.votes)
            if kind == "post":
                post: Post = item
                if trules.gm_threshold and game.is_gm(post.author):
                    _read_threshold(state, game, post)
                if vrules.thread_nicknames:
                    state.nicknames.learn_from_post(post.body_html, post.post_id, matcher, vrules)
                for mark in extract_votes(post, vrules, gms=game.gms):
                    _apply_mark(
                        state, game, vrules, trules, phase, post, mark, matcher, election(post),
                        taught=taught,
                    )
            elif kind == "edit":
                if vrules.thread_nicknames:
                    state.nicknames.learn_from_post(
                        item.after.body_html, item.after.post_id, matcher, vrules
                    )
                _apply_edit(
                    state, game, vrules, trules, phase, item, matcher, election(item.after),
                    taught,
                )
            else:
                _apply_pm(state, game, vrules, trules, phase, item, matcher)
            if watch is not None:
                if vrules.gm_counts and any(
                    v["code"] in _UNRESOLVED for v in state.votes[start:]
                ):
                    watch.unresolved()
                watch.after(i, state.current, state.votes, start)
        return state

    state = run({}, watch)
    if vrules.gm_counts and any(v["code"] in _UNRESOLVED for v in state.votes):
        # Names the GM's counts made during the day explain (a count at or after the day's
        # end is the GM's verdict, not a reading of it); each post as it stood then.
        day_ends = phase.ends_at if phase is not None else None
        read = [
            (i, item if kind == "post" else item.after)
            for i, (kind, item) in enumerate(events)
            if kind != "pm" and (day_ends is None or _when(kind, item) < day_ends)
        ]
        taught = taught_by_count([p for _, p in read], game, vrules, matcher, edits=edits)
        taught_by = [(read[j][0], names) for j, names in taught]  # by the count's event
        if watch is not None and watch.needs_taught():
            # A count as of a vote reads the names taught by the GM's counts made by then.
            for names, recheck in watch.by_taught(taught_by):
                run(names, recheck, recheck.last)
                if recheck.found:
                    break
        if taught_by and taught_by[-1][1]:
            state = run(taught_by[-1][1])

    # The last post of the day: one made after its deadline is read (its votes are refused)
    # but is not where the day stood, whenever the count is run.
    ends_at = phase.ends_at if phase is not None and not vrules.after_deadline else None
    in_time = [p for p in selected if ends_at is None or p.posted_at <= ends_at]
    last = in_time[-1] if in_time else None
    alive = _alive_at_end(game, phase, selected[-1] if selected else None, at_post, at, now)
    votes = _freeze_votes(state, game, trules, phase)
    wagons = _wagons(state, game, trules, phase, alive)
    voting = {w_voter for w in wagons for w_voter in w.voters}
    abstaining = tuple(v for v, st in state.current.items() if st.target == ABSTAIN and v in alive
                       and _hidden(game, v, number) is None)
    # 004: a player out of the day (arrested, or killed by its actions: hidden and not to be
    # lynched) is not listed as not voting; a frightened one "as if he didn't Vote" is.
    out_today = {s for s in alive if _hidden(game, s, number) is not None
                 and any(m.lynch_immune for m in game.modifiers_for(s, number))}
    not_voting = tuple(s for s in alive
                       if s not in voting and s not in abstaining and s not in out_today)
    majority = len(alive) // 2 + 1
    majority_note = ""
    if state.stated is not None and state.stated.alive == len(alive):
        if state.stated.need != majority:
            majority_note = threshold_note(state.stated, majority)
        majority = state.stated.need
    deadline = phase.ends_at if phase else None
    now = now or at
    final = deadline is not None and now is not None and now >= deadline
    decider, no_decider = None, ""
    if trules.tie_decided_by == "sheriff":
        if sheriff is None:
            no_decider = "there is no sheriff"
        elif sheriff.player not in alive:
            no_decider = f"there is no sheriff: {_dead(game, sheriff.player)}"
        else:
            decider = sheriff.player
    seed_base = game.game_id if game.seed is None else str(game.seed)
    outcome = decide(
        [Standing(w.target, w.effective, w.displayed) for w in wagons],
        alive=alive,
        majority=majority,
        rules=trules,
        seed=f"{seed_base}/day {phase.number if phase else 1}",
        day=phase.number if phase else None,
        lynches_available=game.lynches_available(phase.number if phase else None),
        hammer=state.hammer,
        last_post=last.post_id if last else None,
        final=final,
        decider=decider,
        no_decider=no_decider,
        decision=game.tie_break(number),
        roles=_role_effects(state, game, number, alive),
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
        decision=trules.decision,
        lynches=lynches_today(trules, game.lynches_available(number), number),
        thresholds=tuple(trules.thresholds),
        majority_note=majority_note,
        votes_hidden=_votes_hidden(game, number, alive),
    )


def _read_threshold(state: _State, game: Game, post: Post) -> None:
    """A GM post that states what it takes to lynch with today's living count sets the
    threshold from then on (gm_threshold.py); one about another living count is ignored."""
    stated = stated_threshold(post.body_html, post.post_id)
    if stated is None:
        return
    alive = [s for s in state.players if game.is_alive(s, post_id=post.post_id, at=post.posted_at)]
    if stated.alive == len(alive):
        state.stated = stated


def _alive_at_end(
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


def _role_effects(state: _State, game: Game, day: int | None, alive: Sequence[str]) -> RoleEffects:
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


def _hidden(game: Game, voter: str, day: int | None) -> str | None:
    """Why the voter's vote that day is neither counted nor shown (004), or None."""
    found = [m.source for m in game.modifiers_for(voter, day) if m.hidden]
    return ", ".join(dict.fromkeys(found)) if found else None


def _votes_hidden(game: Game, day: int | None, alive: Sequence[str]) -> str:
    """Why no vote of the day is shown (004 Voice of Reason), or ""."""
    found = [m.source for m in game.modifiers if m.hides_votes
             and (m.day is None or day is None or m.day == day) and m.player in alive]
    return ", ".join(dict.fromkeys(found))


def _vote_weight(game: Game, voter: str, target: str | None, day: int | None) -> tuple[int, str]:
    """A vote's effective weight on `target` and the roles that made it so ("" for none)."""
    hidden = _hidden(game, voter, day)
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


# ---- choosing what to count -----------------------------------------------------------------


def _select(
    posts: Iterable[Post], game: Game, phase: Phase | None, at_post: int | None, at: datetime | None
) -> list[Post]:
    """The day's posts up to the moment, in thread order, each post once.

    A post given twice (two versions of an edited post, or an archive that repeats a
    line) is counted once, as the last version given: counting both would cast its
    votes twice. Thread order is the order of post ids (as SMF and phpBB number them,
    and as `at_post`, deaths and day starts are compared), not the stored positions: a
    position goes stale when a moderator deletes an earlier post and only later pages
    are fetched again, and ordering by it would apply two votes of a player the wrong
    way round.
    """
    by_id: dict[int, Post] = {}
    for p in posts:
        if not game.in_day(p, phase):
            continue
        if at_post is not None and p.post_id > at_post:
            continue
        if at is not None and p.posted_at > at:
            continue
        by_id.pop(p.post_id, None)
        by_id[p.post_id] = p
    return sorted(by_id.values(), key=lambda p: p.post_id)


def _with_unlisted_authors(game: Game, posts: Sequence[Post]) -> tuple[Game, dict[str, str]]:
    """The game with each author the players file does not name, but whose name is a close
    spelling of one slot's that never posts in `posts` (the whole thread given, so the
    reading does not change with the moment counted: "Donempire" posting, the file's
    "Dongempire" silent), added to that slot's names; and a note for their votes' reasons."""
    authors = {p.author for p in posts}
    matcher = game.matcher()
    found: dict[str, list[str]] = {}
    notes: dict[str, str] = {}
    for author in sorted(authors):
        if game.is_gm(author) or game.slot_of_author(author) is not None:
            continue
        m = matcher.unlisted_author(author, authors)
        if m is not None and m.slot is not None:
            found.setdefault(m.slot, []).append(author)
            notes[author] = (
                f" (posted by {author}, not in the players file: read as {m.slot}, "
                f"{m.how}, a slot that posts under none of its names)"
            )
    found = {slot: names for slot, names in found.items() if len(names) == 1}
    if not found:
        return game, {}
    slots = tuple(
        Slot(s.name, (*s.aliases, *found[s.name])) if s.name in found else s for s in game.slots
    )
    return dataclasses.replace(game, slots=slots), {
        a: n for a, n in notes.items() if any(a in names for names in found.values())
    }


def _as_written_before(state: _State, text: str) -> Match | None:
    """A vote whose leading words are a name an earlier counted vote of the day wrote for
    one player ("vote ice ice baby" after "vote: Ice" was read as ICEninja): the thread's
    own short name, followed by a comment."""
    words = text.split()
    for n in range(min(len(words) - 1, 3), 0, -1):
        key = fold(" ".join(words[:n]))
        said = state.written.get(key) if len(key) >= 3 else None
        if said is not None:
            target, voter, post_id = said
            how = f"the leading words, as {voter}'s vote in {_where(post_id)} wrote them"
            return Match(text, target, how)
    return None


#: A vote whose name no rule resolved: the GM's counts may explain it (gm_counts.py).
_UNRESOLVED = frozenset({VoteCode.UNKNOWN_TARGET, VoteCode.AMBIGUOUS_TARGET})


def _when(kind: str, item: Any) -> datetime:
    """When an event of `_events` happened: a post when made, an edit when edited."""
    return item.posted_at if kind == "post" else item.at


def _events(
    posts: Sequence[Post],
    game: Game,
    phase: Phase | None,
    at_post: int | None,
    at: datetime | None,
    edits: Sequence[Edit] = (),
) -> list[tuple[str, Any]]:
    """Posts in thread order with the GM's PM votes and the edits of those posts placed by
    time among them ("as of post N" is the moment post N was made: later edits wait)."""
    timed: list[tuple[datetime, str, Any]] = [
        (v.at, "pm", v)
        for v in game.pm_votes
        if (phase is None or v.at >= phase.starts_at) and (at is None or v.at <= at)
    ]
    chosen = {p.post_id for p in posts}
    timed += [
        (e.at, "edit", e)
        for e in edits
        if e.post_id in chosen and (at is None or e.at <= at) and e.at >= e.before.posted_at
    ]
    if at_post is not None and posts:
        timed = [t for t in timed if t[0] <= posts[-1].posted_at]
    timed.sort(key=lambda t: t[0])
    events: list[tuple[str, Any]] = []
    i = 0
    for p in posts:
        while i < len(timed) and timed[i][0] < p.posted_at:
            events.append(timed[i][1:])
            i += 1
        events.append(("post", p))
    events.extend(t[1:] for t in timed[i:])
    return events


# ---- applying one mark ------------------------------------------------------------------------


def _record(
    state: _State,
    base: dict[str, Any],
    voter: str,
    code: VoteCode,
    reason: str,
    target: str | None = None,
) -> int:
    """Append what became of one vote-like mark (`base`: its post, text and markup); whether
    it counted follows from `code` (vote_codes.ACCEPTED)."""
    state.votes.append(dict(voter=voter, target=target, reason=reason, code=code, **base))
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
    election: str | None = None,
    note: str = "",
    *,
    taught: Mapping[str, Taught] | None = None,
) -> None:
    if mark.action == "mention":
        return
    target_text = visible(mark.target_text)
    target_match = None
    if mark.action == "name" or "plain" in mark.forms:
        # A bold name without "vote", or a plain line, is only a vote if it names a player
        # (or No Lynch): bold text naming no one is emphasis, and raises nothing. Where a
        # bare name counts (001) it is read like any vote, misspellings and ambiguity too.
        if mark.action == "name":
            if mark.usable and _special(target_text, vrules):
                target_match = None
            else:
                target_match = matcher.match(
                    target_text or "", strict=not mark.usable, bare=mark.usable
                )
        elif mark.action == "vote" and not (
            vrules.is_no_lynch(target_text) or vrules.is_abstain(target_text)
        ):
            target_match = matcher.match_leading(target_text or "")
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
        _record(state, base, post.author, mark.code, mark.reason)
        return
    note += state.author_notes.get(post.author, "")
    voter = game.slot_of_author(post.author)
    if voter is None:
        why = f"not counted: {post.author} is not a player in this game"
        _record(state, base, post.author, VoteCode.NOT_A_PLAYER, why)
        return
    if not mark.usable:
        _record(state, base, voter, mark.code, mark.reason)
        return
    if election is not None:
        why = f"not counted for the lynch: {election}"
        _record(state, base, voter, VoteCode.SHERIFF_ELECTION, why)
        return
    if target_match is None and mark.action == "vote" and not _special(target_text, vrules):
        nick = state.nicknames.read(target_text or "", matcher) if vrules.thread_nicknames else None
        target_match = nick or matcher.match_vote(target_text or "")
        if vrules.thread_nicknames and target_match.ok and nick is None:
            state.nicknames.learn_from_vote(
                target_text or "", target_match.slot or "", post.post_id, matcher, vrules
            )
        learned = taught.get(fold(target_text or "")) if taught and not target_match.ok else None
        if learned is not None and learned.target == NO_LYNCH:
            read = f"{target_text!r} read as {NO_LYNCH}, {learned.how}"
            target_text, target_match, note = NO_LYNCH, None, f"{note} ({read})"
        elif learned is not None:
            target_match = Match(target_text or "", learned.target, learned.how)
        elif not target_match.ok and target_match.how != "ambiguous":
            target_match = _as_written_before(state, target_text or "") or target_match
    _apply(
        state,
        game,
        vrules,
        trules,
        phase,
        voter,
        base["action"],
        target_text,
        target_match,
        mark.reason + note,
        base,
        post.post_id,
        post.posted_at,
    )


def _vote_marks(post: Post, vrules: VoteRules, game: Game) -> list[VoteMark]:
    return [
        m for m in extract_votes(post, vrules, gms=game.gms) if m.usable and m.action != "mention"
    ]


def _marks_key(marks: Sequence[VoteMark]) -> list[tuple[str, str]]:
    return [(m.action, fold(visible(m.target_text) or "")) for m in marks]


def _apply_edit(
    state: _State,
    game: Game,
    vrules: VoteRules,
    trules: TallyRules,
    phase: Phase | None,
    edit: Edit,
    matcher: Any,
    election: str | None,
    taught: Mapping[str, Taught] | None = None,
) -> None:
    """An edit that changed the votes of a post, at the edit's time (timeline.py).

    After the day's end it changes nothing ("the vote stays"); a silent edit whose window
    holds the deadline is said to be unknown, not guessed. Where the ruleset forbids changing
    a vote by editing (001) the vote stands as first posted. Otherwise (000, 002, 003) the
    edited vote counts from the edit's time: the vote the post had cast, if it still stands,
    is withdrawn, and the post's new marks are applied then."""
    old, new = _vote_marks(edit.before, vrules, game), _vote_marks(edit.after, vrules, game)
    if _marks_key(old) == _marks_key(new) or game.is_gm(edit.after.author):
        return
    voter = game.slot_of_author(edit.after.author)
    if voter is None:
        return
    post_id = edit.post_id
    ends_at = phase.ends_at if phase is not None else None
    if state.hammer is not None and state.hammer[1] is not None and post_id > state.hammer[1]:
        return  # the post itself came after the day's end: its votes never counted
    if ends_at is not None and edit.before.posted_at > ends_at and not vrules.after_deadline:
        return
    when = (
        f"at {_moment(edit.at)}"
        if edit.known
        else f"between {_moment(edit.earliest)} and {_moment(edit.at)}"
    )
    base = dict(
        post_id=post_id,
        text=" ".join(m.text for m in new) or "(its votes removed)",
        markup="edit",
        at=edit.at,
        url=edit.after.url,
        action="vote" if any(m.action != "unvote" for m in new) else "unvote",
    )
    cur = state.current.get(voter)
    stays = (
        f"the vote stays on {cur.target} ({_where(state.votes[cur.index]['post_id'])})"
        if cur is not None
        else "the vote stays: none"
    )
    if ends_at is not None and not vrules.after_deadline and edit.straddles(ends_at):
        how = (
            "silently (no edit notice), at some moment between the polls of"
            if edit.silent
            else "at some moment (its edit notice gives the minute) between"
        )
        why = (
            f"not counted: post {post_id} was edited {how} {_moment(edit.earliest)} and "
            f"{_moment(edit.at)}, and the day ended at {_moment(ends_at)} in between: "
            f"whether before or after the deadline cannot be known; {stays} (check the edit "
            "with the player or the forum's edit history)"
        )
        _record(state, base, voter, VoteCode.EDITED_AROUND_END, why)
        return
    ended = None
    if state.hammer is not None:
        ended = f"at {_where(state.hammer[1])} (majority on {state.hammer[0]})"
    elif ends_at is not None and edit.at > ends_at and not vrules.after_deadline:
        ended = f"at the deadline ({_moment(ends_at)})"
    if ended is not None:
        why = (
            f"not counted: edited after the day ended (edited {when}; the day ended "
            f"{ended}); {stays}"
        )
        _record(state, base, voter, VoteCode.EDITED_AFTER_END, why)
        return
    if vrules.edits == "first_posted":
        why = (
            f"not counted: post {post_id} was edited {when}, and this ruleset does not let "
            "an edit change a vote: the vote stands as first posted"
        )
        _record(state, base, voter, VoteCode.EDIT_NOT_ALLOWED, why)
        return
    withdrawn = cur is not None and state.votes[cur.index]["post_id"] == post_id
    if withdrawn:
        assert cur is not None
        changed = f"changed by the edit of post {post_id} {when}"
        _end(state, cur.index, VoteCode.REPLACED, changed)
        del state.current[voter]
    post = dataclasses.replace(edit.after, posted_at=edit.at)
    note = f" (edited in {when})"
    for mark in new:
        _apply_mark(
            state, game, vrules, trules, phase, post, mark, matcher, election, note, taught=taught
        )
    if withdrawn and not new:
        assert cur is not None
        why = f"counted: the edit {when} removed the vote on {cur.target} from post {post_id}"
        _record(state, base, voter, VoteCode.COUNTED, why)


def _moment(at: datetime) -> str:
    return f"{at:%Y-%m-%d %H:%M:%S} UTC"


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
    counted = "counted: vote sent to the GM by PM"
    controller = _controller(game, pm.voter, phase)
    if controller is not None:
        by, how = controller
        counted = f"counted: {pm.voter}'s vote as {by} chose it ({how}), sent to the GM by PM"
    elif "pm" not in vrules.forms:
        why = "not counted: this ruleset does not take votes by PM"
        _record(state, base, pm.voter, VoteCode.PM_NOT_ALLOWED, why)
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
        counted,
        base,
        None,
        pm.at,
    )


def _controller(game: Game, voter: str, phase: Phase | None) -> tuple[str, str] | None:
    """Who chooses `voter`'s vote during `phase` (000's Mind Control Ray) and by what
    ("Ms", "Mind Control Ray"); None when the vote is the voter's own."""
    day = phase.number if phase else None
    by = next((m for m in game.modifiers_for(voter, day) if m.vote_by), None)
    return None if by is None or by.vote_by is None else (by.vote_by, by.source)


def _special(text: str | None, vrules: VoteRules) -> bool:
    return _special_vote(text, vrules) is not None


def _special_vote(
    text: str | None, vrules: VoteRules
) -> tuple[str, bool, VoteCode, str] | None:
    """A No Lynch or Abstain vote: its target, whether the ruleset allows it, its refusal."""
    if vrules.is_no_lynch(text):
        return NO_LYNCH, vrules.no_lynch, VoteCode.NO_LYNCH_NOT_ALLOWED, "No Lynch"
    if vrules.is_abstain(text):
        return ABSTAIN, vrules.abstain, VoteCode.ABSTAIN_NOT_ALLOWED, "abstaining"
    return None


def _dead(game: Game, slot: str) -> str:
    death = game.death_of(slot)
    how = f" ({death.how})" if death and death.how != "other" else ""
    return f"{slot} is dead{how}"


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
    def refuse(code: VoteCode, reason: str, target: str | None = None) -> None:
        _record(state, base, voter, code, reason, target)

    if state.hammer is not None:
        on, hammer_post = state.hammer
        return refuse(
            VoteCode.AFTER_HAMMER,
            f"not counted: the day ended at {_where(hammer_post)} (majority on {on})",
        )
    if (
        phase is not None
        and phase.ends_at is not None
        and at > phase.ends_at
        and not vrules.after_deadline
    ):
        return refuse(
            VoteCode.AFTER_DEADLINE,
            f"not counted: cast after the deadline ({to_iso(phase.ends_at)})",
        )
    if not game.is_alive(voter, post_id=post_id, at=at):
        return refuse(VoteCode.DEAD_VOTER, f"not counted: {_dead(game, voter)}")
    controller = _controller(game, voter, phase) if base.get("markup") != "PM" else None
    if controller is not None:
        return refuse(
            VoteCode.VOTE_CONTROLLED,
            f"not counted: {voter}'s vote today is {controller[0]}'s to choose ({controller[1]}); "
            f"the GM enters it with `assistant vote GAME {voter} NAME`",
        )

    target: str | None = None
    note = ""
    if action == "vote":
        special = _special_vote(target_text, vrules)
        if special is not None:
            target, allowed, code, refusal = special
            if not allowed:
                return refuse(code, f"not counted: {refusal} is not allowed under this ruleset")
        else:
            if not (target_text or "").strip():
                return refuse(VoteCode.UNKNOWN_TARGET, "not counted: the vote names no one")
            if target_match is None or not target_match.ok:
                what = target_match.describe() if target_match else f"{target_text!r} names no one"
                if target_match is not None and target_match.how == "ambiguous":
                    return refuse(VoteCode.AMBIGUOUS_TARGET, f"ambiguous: {what}; not counted")
                return refuse(VoteCode.UNKNOWN_TARGET, f"not counted: {what}")
            target = target_match.slot
            note = target_match.describe()
            if not game.is_alive(target, post_id=post_id, at=at):
                return refuse(VoteCode.DEAD_TARGET, f"not counted: {_dead(game, target)}", target)
            if target == voter and not vrules.self_vote:
                return refuse(
                    VoteCode.SELF_VOTE,
                    "not counted: self-votes are not allowed under this ruleset",
                    target,
                )

    cur = state.current.get(voter)
    where = _where(post_id)
    reason = counted + (f" ({note})" if note else "")
    if action == "unvote":
        if cur is None:
            why = reason + " (no vote to remove)"
            _record(state, base, voter, VoteCode.NOTHING_TO_UNVOTE, why)
            return
        if vrules.strict_unvote and target_text:
            m = game.matcher(vrules.close_spelling).match(target_text)
            if m.ok and m.slot != cur.target:
                why = (
                    f"not counted: it unvotes {m.slot}, but the vote is on {cur.target}, "
                    f"which stands; a new vote still needs an unvote of {cur.target}"
                )
                _record(state, base, voter, VoteCode.UNVOTE_NOT_VOTING, why)
                return
        named = matcher_note(target_text, cur.target, game, vrules)
        _end(state, cur.index, VoteCode.UNVOTED, f"removed by the unvote in {where}")
        del state.current[voter]
        why = f"{reason}: removes the vote on {cur.target}{named}"
        _record(state, base, voter, VoteCode.COUNTED, why)
        return
    if target is None:  # every vote branch above sets a target or refuses
        raise RuntimeError(f"a vote by {voter} in {where} was judged without a target")
    if cur is not None and cur.target == target:
        since = _where(state.votes[cur.index]["post_id"])
        why = f"{reason}; already voting {target} since {since}: no change"
        _record(state, base, voter, VoteCode.SAME_TARGET, why, target)
        return
    if cur is not None and not vrules.replace:
        return refuse(
            VoteCode.NO_UNVOTE_FIRST,
            f"not counted: still voting {cur.target}; this ruleset counts a new vote "
            "only after an unvote",
            target,
        )
    index = _record(state, base, voter, VoteCode.COUNTED, reason, target)
    if target_text and target not in (NO_LYNCH, ABSTAIN):
        state.written.setdefault(fold(target_text), (target, voter, post_id))
    if cur is not None:
        same_post = post_id is not None and state.votes[cur.index]["post_id"] == post_id
        _end(
            state,
            cur.index,
            VoteCode.REPLACED,
            "replaced by the later vote in the same post" if same_post else f"replaced by {where}",
        )
    state.order += 1
    state.current[voter] = _Standing(target, index, state.order)
    if trules.decision == "majority" and target != ABSTAIN:
        alive = [s for s in state.players if game.is_alive(s, post_id=post_id, at=at)]
        majority = len(alive) // 2 + 1
        if state.stated is not None and state.stated.alive == len(alive):
            majority = state.stated.need  # the GM's own number for today (gm_threshold.py)
        if target == NO_LYNCH and trules.no_lynch_majority == "one_less":
            majority -= 1  # "one less for No Lynch": half the living end the day
        total = sum(_weights(state, game, trules, phase, alive, target).values())
        if total >= majority:
            state.hammer = (target, post_id)


def _where(post_id: int | None) -> str:
    return f"post {post_id}" if post_id is not None else "a PM vote"


def _end(state: _State, index: int, code: VoteCode, why: str) -> None:
    """A standing vote stops standing: replaced by a later vote or removed by an unvote."""
    state.votes[index]["ended"] = (code, why)


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
        weights[v] = state.weight(game, v, target, day)[0]
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
    day = phase.number if phase else None
    for voter, st in state.current.items():
        # Votes by and for the dead drop out (002: "all votes by and for him are removed");
        # a hidden vote (004: "will not count or be shown") is as if not cast.
        if (
            voter in alive
            and st.target != ABSTAIN
            and (st.target == NO_LYNCH or st.target in alive)
            and _hidden(game, voter, day) is None
        ):
            targets.setdefault(st.target, []).append((st.order, voter))
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
        # 004 Accompany: "The target will have his/her lynching votes reduced by 1".
        delta = sum(m.votes_against for m in game.modifiers_for(target, day))
        effective = max(0, sum(weights.values()) + delta)
        wagons.append(Wagon(target, voters, posts, displayed, effective))
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
            if _hidden(game, fields["voter"], day) is not None:
                fields["reason"] += f" (not counted and not shown: {why})"
                if fields["code"] == VoteCode.COUNTED:
                    fields["code"] = VoteCode.HIDDEN
            elif weight == 0:
                fields["reason"] += f" (powerless: shown, not counted{by})"
                if fields["code"] == VoteCode.COUNTED:
                    fields["code"] = VoteCode.POWERLESS
            elif weight > 1:
                fields["reason"] += f" (counts {weight}{by})"
        out.append(Vote(weight=weight, **fields))
    return out
