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

The pass is split by stage: `events.py` chooses what is read, `judge.py` applies one mark,
`totals.py` sums the wagons and freezes the votes; this module runs the pass, reads the
GM's counts and stated threshold, and decides the outcome (`outcome.decide`).

What roles do to votes arrives as "modifier" facts (game.py), whether the GM entered them
or the engine derived them from the setup: weights, powerless and charmed votes, lovers,
and, for the outcome, the Tiebreaker and players who cannot be lynched.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from assistant.count import resume
from assistant.count.all_voted import AllVotedWatch
from assistant.count.events import (
    day_events,
    event_time,
    select_posts,
    with_rulings,
    with_unlisted_authors,
)
from assistant.count.gm_counts import Taught, taught_by_counts
from assistant.count.gm_threshold import stated_threshold, threshold_note
from assistant.count.judge import (
    apply_edit,
    apply_mark,
    apply_pm,
    apply_ruled_post,
    apply_taught,
    dead_note,
    numbered_marks,
    reset_votes,
)
from assistant.count.outcome import (
    Outcome,
    Reading,
    Standing,
    TallyRules,
    decide,
    lynches_today,
)
from assistant.count.records import ABSTAIN, Tally, Vote, Wagon
from assistant.count.running import RunningCount
from assistant.count.totals import alive_at_end, build_wagons, role_effects
from assistant.count.votes import VoteRules, hold_day
from assistant.count.weights import hidden_by, votes_hidden
from assistant.errors import PhaseError
from assistant.game import Game, Ruling
from assistant.models import Post
from assistant.timeline import Edit

__all__ = ["ABSTAIN", "Tally", "Vote", "Wagon", "count"]


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
    readings: bool = True,
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

    A day over whose end the assistant could not see some posts as they stood (`unseen`)
    is counted again under each other reading of them (`readings`); where one gives another
    lynch, the outcome is uncertain and says so, until the GM rules on those posts.
    """
    given = game
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
    selected = select_posts(posts, game, phase, at_post, at)
    hold_day(len(selected) + len(edits))
    game, author_notes = with_unlisted_authors(game, posts)
    matcher = game.matcher(vrules.close_spelling)
    sheriff = game.sheriff(number)
    # 001: the day the sheriff was elected, the lynch vote starts after the announcement.
    election_until = sheriff.at_post if sheriff is not None and sheriff.day == number else None
    events = day_events(selected, game, phase, at_post, at, edits)
    until = selected[-1].posted_at if at_post is not None and selected else at
    events, ruled = with_rulings(events, game, selected, edits, until)
    ruled_ids = {r.post for r in game.rulings}

    def election(post: Post) -> str | None:
        if sheriff is None or election_until is None or post.post_id > election_until:
            return None
        return (
            f"a sheriff-election vote (the election of {sheriff.player} was announced "
            f"in post {election_until})"
        )

    def run(taught_by: Sequence[tuple[int, Mapping[str, Taught]]], watch: Any = None,
            carry_on: resume.Kept | None = None) -> resume.Kept:
        """One pass over the events; an event after a GM count reads the names taught by
        the counts made before it (`taught_by`: the count's event index, the names by
        then), never a later count's: a count as of any post is the count a GM reading
        the thread then would have. With `carry_on`, the pass carries on from that kept
        count of the events it applied (resume.py)."""
        if carry_on is not None:
            state, taught, k, first = (carry_on.state, carry_on.taught, carry_on.k,
                                       len(carry_on.events))
            if watch is not None:
                watch.resume(carry_on.watch, events, game, first)
        else:
            state = RunningCount(players=game.players, author_notes=author_notes)
            if watch is not None:  # the watch learns the events here, once per pass
                watch.begin(events, game)
            taught, k, first = {}, 0, 0
        for i in range(first, len(events)):
            kind, item = events[i]
            start = len(state.votes)
            if kind == "post":
                post: Post = item
                if trules.gm_threshold and game.is_gm(post.author):
                    _read_threshold(state, game, post)
                if vrules.thread_nicknames:
                    state.nicknames.learn_from_post(post.body_html, post.post_id, matcher, vrules)
                if post.post_id in ruled:
                    apply_ruled_post(
                        state, game, vrules, trules, phase, ruled[post.post_id],
                        game.rulings_on(post.post_id), matcher, election(post), taught,
                    )
                elif post.post_id not in ruled_ids:  # else: moved to when it counts
                    for n, mark in numbered_marks(post, vrules, game):
                        apply_mark(
                            state, game, vrules, trules, phase, post, mark, matcher,
                            election(post), taught=taught, number=n,
                        )
                if post.post_id in game.resets and state.hammer is None:
                    reset_votes(state, post.post_id)
            elif kind == "ruled":
                apply_ruled_post(
                    state, game, vrules, trules, phase, item.post,
                    game.rulings_on(item.post.post_id), matcher, election(item.post), taught,
                )
            elif kind == "edit":
                if vrules.thread_nicknames:
                    state.nicknames.learn_from_post(
                        item.after.body_html, item.after.post_id, matcher, vrules
                    )
                apply_edit(
                    state, game, vrules, trules, phase, item, matcher, election(item.after),
                    taught,
                )
            else:
                apply_pm(state, game, vrules, trules, phase, item, matcher)
            if k < len(taught_by) and taught_by[k][0] == i:  # a GM count: read from here on
                taught = taught_by[k][1]
                k += 1
                if state.unresolved:
                    apply_taught(state, game, vrules, trules, phase, item, taught)
            if watch is not None:
                watch.after(i, state.current, state.votes, start)
        kept = carry_on or resume.Kept(context, events, state)
        kept.events, kept.watch, kept.taught, kept.k = events, watch, taught, k
        kept.taught_by = list(taught_by)
        return kept

    # The pass reads the names the GM's counts taught, when they taught any; a count of the
    # day to its end is kept in the process, and the next one carries on from it when its
    # events begin with the kept count's, on the same facts (resume.py).
    slot = None
    if at_post is None and at is None:
        slot = (game.game_id, number, getattr(rules, "name", ""), watch is not None,
                phase.ends_at if phase is not None else None, len(game.rulings))
    context = (game, vrules, trules, phase, tuple(sorted(author_notes.items())), sheriff,
               election_until)
    found = resume.find(slot, context, events,
                        times=(lambda e: event_time(*e)) if watch is not None else None)
    before, n = found if found is not None else (None, 0)
    new = events[n:]
    has_gm = (before is not None and before.has_gm) or any(
        k == "post" and game.is_gm(item.author) for k, item in new)
    taught_by: Sequence[tuple[int, Mapping[str, Taught]]] = ()
    if vrules.gm_counts and has_gm and before is not None and not any(
            game.is_gm((item if k == "post" else item.after).author)
            for k, item in new if k in ("post", "edit")):
        taught_by = before.taught_all  # no GM post since: the same counts teach the same
    elif vrules.gm_counts and has_gm:
        # Names the GM's counts made during the day explain (a count at or after the day's
        # end is the GM's verdict, not a reading of it); each post as it stood then. Each
        # count teaches the votes read after it, never the ones before, whether or not a
        # vote before this moment needed it: so a count as of any post reads what this
        # pass reads up to it (all_voted.py stands in for those counts).
        day_ends = phase.ends_at if phase is not None else None
        read = [
            (i, item if kind == "post" else item.after)
            for i, (kind, item) in enumerate(events)
            if kind in ("post", "edit") and (day_ends is None or event_time(kind, item) < day_ends)
        ]
        taught = taught_by_counts([p for _, p in read], game, vrules, matcher, edits=edits)
        taught_by = [(read[j][0], names) for j, names in taught]  # by the count's event
        if not any(names for _, names in taught_by):
            taught_by = ()
    carry_on = None
    if before is not None and [t for t in taught_by if t[0] < n] == before.taught_by:
        carry_on = before  # (the same names read by the events kept)
    try:
        kept = run(taught_by, watch, carry_on)
    except BaseException:
        resume.drop(slot)
        raise
    kept.has_gm, kept.taught_all = has_gm, taught_by
    state = kept.state

    # The last post of the day: one made after its deadline is read (its votes are refused)
    # but is not where the day stood, whenever the count is run.
    ends_at = phase.ends_at if phase is not None and not vrules.after_deadline else None
    in_time = [p for p in selected if ends_at is None or p.posted_at <= ends_at]
    last = in_time[-1] if in_time else None
    alive = alive_at_end(game, phase, selected[-1] if selected else None, at_post, at, now)
    votes = resume.freeze(kept, state, game, number)
    resume.keep(slot, kept)  # (once frozen: a short day's count is kept packed as it is now)
    wagons = build_wagons(state, game, trules, phase, alive)
    voting = {w_voter for w in wagons for w_voter in w.voters}
    abstaining = tuple(v for v, st in state.current.items() if st.target == ABSTAIN and v in alive
                       and hidden_by(game, v, number) is None)
    # 004: a player out of the day (arrested, or killed by its actions: hidden and not to be
    # lynched) is not listed as not voting; a frightened one "as if he didn't Vote" is.
    out_today = {s for s in alive if hidden_by(game, s, number) is not None
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
            no_decider = f"there is no sheriff: {dead_note(game, sheriff.player)}"
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
        roles=role_effects(state, game, number, alive),
    )
    if readings and final and not outcome.by_majority and phase is not None:
        unseen = _unseen(state.unsure, selected, game, vrules, phase)
        if unseen:
            again = dict(at_post=at_post, at=at, day=day, now=now, deadline=deadline, edits=edits)
            outcome = _uncertain(outcome, unseen, posts, given, rules, again)
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
        votes_hidden=votes_hidden(game, number, alive),
    )


def _read_threshold(state: RunningCount, game: Game, post: Post) -> None:
    """A GM post that states what it takes to lynch with today's living count sets the
    threshold from then on (gm_threshold.py); one about another living count is ignored."""
    stated = stated_threshold(post.body_html, post.post_id)
    if stated is None:
        return
    alive = [s for s in state.players if game.is_alive(s, post_id=post.post_id, at=post.posted_at)]
    if stated.alive == len(alive):
        state.stated = stated


def _unseen(
    unsure: Sequence[Edit], selected: Sequence[Post], game: Game, vrules: VoteRules, phase: Any
) -> list[tuple[int, str, Ruling]]:
    """The posts whose vote at the day's end the assistant could not see, each with the
    other reading to count: a silent edit whose window holds the end (it may have come
    before it), and a post first read already edited after the end (a thread fetched late:
    it may have held no vote then). A post the GM ruled on is the GM's."""
    out: list[tuple[int, str, Ruling]] = []
    for e in unsure:
        if not game.rulings_on(e.post_id):
            ruling = Ruling(e.post_id, "as_read", at=e.earliest)  # its latest version, then
            out.append((e.post_id, "if its edit was made before the deadline", ruling))
    ends = phase.ends_at
    for p in selected:
        edited = p.edit.at if p.edit is not None else None
        if (edited is None or ends is None or edited <= ends or p.posted_at > ends
                or game.rulings_on(p.post_id) or game.slot_of_author(p.author) is None):
            continue
        if any(m.usable for _, m in numbered_marks(p, vrules, game)):
            out.append((p.post_id, "if it held no vote at the deadline (first read already "
                        "edited after it)", Ruling(p.post_id, "ignore")))
    return out


def _uncertain(
    outcome: Outcome,
    unseen: list[tuple[int, str, Ruling]],
    posts: Sequence[Post],
    game: Game,
    rules: Any,
    again: dict[str, Any],
) -> Outcome:
    """The outcome with the readings of the unseen posts, when one gives another lynch."""
    found = [Reading(p, "as read", outcome.said()) for p, _, _ in unseen[:1]]
    differ = False
    for post_id, how, ruling in unseen:
        other = dataclasses.replace(game, rulings=(*game.rulings, ruling))
        alt = count(posts, other, rules, readings=False, **again).outcome
        found.append(Reading(post_id, how, alt.said()))
        differ = differ or alt.lynched != outcome.lynched or alt.waiting != outcome.waiting
    if not differ:
        return outcome
    posts_said = " and ".join(f"post {p}" for p in dict.fromkeys(p for p, _, _ in unseen))
    readings = "; ".join(f"post {r.post} {r.reading}: {r.lynched}" for r in found)
    return dataclasses.replace(
        outcome,
        uncertain=tuple(found),
        reason=f"uncertain: {posts_said} could not be seen as it stood at the deadline: "
        f"{readings}; rule on it with `assistant rule` (as read: {outcome.reason})",
    )
