"""One vote-like mark judged and applied: counted, or refused with a reason a GM can read
and a stable code (vote_codes.py). A post's marks (`apply_mark`), an edit that changed them
(`apply_edit`), a vote sent to the GM by PM (`apply_pm`); a counted vote that brings a
wagon to the majority ends the day (the hammer)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from assistant.count.gm_counts import Taught
from assistant.count.outcome import NO_LYNCH, TallyRules
from assistant.count.records import ABSTAIN
from assistant.count.running import CurrentVote, RunningCount
from assistant.count.totals import wagon_weights
from assistant.count.votes import VoteMark, VoteRules, extract_votes, visible
from assistant.game import Game, Phase, Ruling
from assistant.models import Post, to_iso
from assistant.names import Match, fold
from assistant.timeline import Edit
from assistant.vote_codes import ACCEPTED, VoteCode

#: A vote whose name no rule resolved: a GM count may say whom it meant (gm_counts.py).
_UNRESOLVED = frozenset({VoteCode.UNKNOWN_TARGET, VoteCode.AMBIGUOUS_TARGET})


def _as_written_before(state: RunningCount, text: str) -> Match | None:
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


def _one_left(found: Match, voter: str, game: Game, post: Post) -> Match:
    """A name that fits two or more players means the one left when the voter and the dead
    are set aside: "VOTE: Cow" from RadiantCowbells is TheCow, and so is anyone's "Cow"
    once RadiantCowbells is dead, as a GM reads it (a self-vote names oneself plainly, a
    vote for the dead counts for nothing)."""
    if found.how != "ambiguous" or not found.candidates:
        return found
    left = [c for c in found.candidates if c != voter
            and game.is_alive(c, post_id=post.post_id, at=post.posted_at)]
    if len(left) != 1:
        return found
    aside = [c for c in found.candidates if c != left[0]]
    why = " and ".join(
        f"{c}, who cast it" if c == voter else f"{c}, dead" for c in aside)
    return Match(found.text, left[0], f"it could be {why}")


def _record(
    state: RunningCount,
    base: dict[str, Any],
    voter: str,
    code: VoteCode,
    reason: str,
    target: str | None = None,
) -> int:
    """Append what became of one vote-like mark (`base`: its post, text and markup); whether
    it counted follows from `code` (vote_codes.ACCEPTED)."""
    state.votes.append(dict(voter=voter, target=target, reason=reason, code=code, **base))
    index = len(state.votes) - 1
    if code in _UNRESOLVED and base.get("action") == "vote" and base.get("written"):
        state.unresolved[voter] = (index, base["written"])
    elif code in ACCEPTED:
        state.unresolved.pop(voter, None)
    return index


def apply_mark(
    state: RunningCount,
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
    number: int | None = None,
    ruling: str = "",
) -> None:
    """`number`: which vote-like mark of the post it is (`numbered_marks`); `ruling`: the
    GM's ruling it is read under ("ruled by the GM at ...: its votes as read")."""
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
        mark=number,
        ruling=ruling,
    )
    if game.is_gm(post.author):
        _record(state, base, post.author, mark.code, mark.reason)
        return
    note += state.author_notes.get(post.author, "")
    voter = game.slot_of_author(post.author)
    if voter is None and not mark.usable:
        _record(state, base, post.author, mark.code, mark.reason)
        return
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
        target_match = _one_left(target_match, voter, game, post)
        base["written"] = target_text
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


def apply_taught(
    state: RunningCount,
    game: Game,
    vrules: VoteRules,
    trules: TallyRules,
    phase: Phase | None,
    post: Post,
    taught: Mapping[str, Taught],
) -> None:
    """A GM count (`post`) just taught names: each voter whose standing word is a vote that
    named no player or two, and that the count reads as one player (or No Lynch), votes so
    from this post on: the GM counted it, and a count as of any later post shows it. Before
    the count it stays uncounted (the day could not have ended on it)."""
    for voter, (index, written) in list(state.unresolved.items()):
        learned = taught.get(fold(written))
        if learned is None:
            continue
        del state.unresolved[voter]
        old = state.votes[index]
        # The vote stands from the count's post: it is where a count as of a post finds it.
        base = dict(old, post_id=post.post_id, at=post.posted_at, url=post.url)
        for key in ("voter", "target", "reason", "code", "written"):
            base.pop(key, None)
        if learned.target == NO_LYNCH:
            target_text, match = NO_LYNCH, None
            note = f" ({written!r} read as {NO_LYNCH}, {learned.how})"
        else:
            target_text, match = written, Match(written, learned.target, learned.how)
            note = ""
        counted = f"counted from post {post.post_id}: the vote of {_where(old['post_id'])}" + note
        _apply(state, game, vrules, trules, phase, voter, "vote", target_text, match, counted,
               base, post.post_id, post.posted_at)


def reset_votes(state: RunningCount, post_id: int) -> None:
    """The GM reset the vote count in `post_id` (a "reset" fact): every vote standing then
    ends, and the day goes on from no votes."""
    for cur in state.current.values():
        _end(state, cur.index, VoteCode.UNVOTED, f"ended: the GM reset the votes in post {post_id}")
    state.current.clear()
    state.unresolved.clear()


def numbered_marks(post: Post, vrules: VoteRules, game: Game) -> list[tuple[int, VoteMark]]:
    """The post's vote-like marks, mentions left out, numbered from 1 in the order written:
    the numbers `count --why` shows and `assistant rule --which` takes."""
    marks = [m for m in extract_votes(post, vrules, gms=game.gms) if m.action != "mention"]
    return list(enumerate(marks, 1))


def apply_ruled_post(
    state: RunningCount,
    game: Game,
    vrules: VoteRules,
    trules: TallyRules,
    phase: Phase | None,
    post: Post,
    rulings: Sequence[Ruling],
    matcher: Any,
    election: str | None,
    taught: Mapping[str, Taught] | None = None,
) -> None:
    """A post the GM ruled on (`assistant rule`), as the GM saw it (`post`: that version,
    `posted_at` the moment it counts from). A ruling on the whole post stands in for every
    mark of it; a ruling on one mark (`which`) for that mark, the others read as usual."""
    whole = next((r for r in rulings if r.which is None), None)
    marks = numbered_marks(post, vrules, game)
    if whole is not None and whole.action != "as_read":
        _apply_ruling(state, game, vrules, trules, phase, post, whole, marks, matcher, election)
        return
    by_mark = {r.which: r for r in rulings if r.which is not None}
    ruled = whole.by_gm() if whole is not None else ""
    for n, mark in marks:
        r = by_mark.get(n)
        if r is not None and r.action != "as_read":
            _apply_ruling(state, game, vrules, trules, phase, post, r, [(n, mark)], matcher,
                          election)
            continue
        why = r.by_gm() if r is not None else ruled
        apply_mark(
            state, game, vrules, trules, phase, post, mark, matcher, election,
            f" ({why})" if why else "", taught=taught, number=n, ruling=why,
        )


def _apply_ruling(
    state: RunningCount,
    game: Game,
    vrules: VoteRules,
    trules: TallyRules,
    phase: Phase | None,
    post: Post,
    ruling: Ruling,
    marks: Sequence[tuple[int, VoteMark]],
    matcher: Any,
    election: str | None,
) -> None:
    """One ruling that says what the marks (or the post) are: not a vote, a vote, an unvote."""
    said = ruling.by_gm()
    base = dict(
        post_id=post.post_id,
        text=" ".join(m.text for _, m in marks) or f"(post {post.post_id})",
        markup="GM's ruling",
        at=post.posted_at,
        url=post.url,
        action="unvote" if ruling.action == "unvote" else "vote",
        mark=ruling.which,
        ruling=said,
    )
    voter = game.slot_of_author(post.author)
    if ruling.action == "ignore":
        why = f"not counted: {said}"
        _record(state, base, voter or post.author, VoteCode.RULED_NOT_A_VOTE, why)
        return
    if voter is None:
        why = f"not counted: {post.author} is not a player in this game ({said})"
        _record(state, base, post.author, VoteCode.NOT_A_PLAYER, why)
        return
    if election is not None:
        why = f"not counted for the lynch: {election} ({said})"
        _record(state, base, voter, VoteCode.SHERIFF_ELECTION, why)
        return
    target, match = ruling.target, None
    if ruling.action == "vote" and not _special(target, vrules):
        match = Match(target or "", target, "exact")
    _apply(state, game, vrules, trules, phase, voter, base["action"], target, match,
           f"counted: {said}", base, post.post_id, post.posted_at)


def _vote_marks(post: Post, vrules: VoteRules, game: Game) -> list[VoteMark]:
    return [
        m for m in extract_votes(post, vrules, gms=game.gms) if m.usable and m.action != "mention"
    ]


def _marks_key(marks: Sequence[VoteMark]) -> list[tuple[str, str]]:
    return [(m.action, fold(visible(m.target_text) or "")) for m in marks]


def apply_edit(
    state: RunningCount,
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
        state.unsure.append(edit)
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
    for n, mark in numbered_marks(edit.after, vrules, game):
        if mark.usable:
            apply_mark(
                state, game, vrules, trules, phase, post, mark, matcher, election, note,
                taught=taught, number=n,
            )
    if withdrawn and not new:
        assert cur is not None
        why = f"counted: the edit {when} removed the vote on {cur.target} from post {post_id}"
        _record(state, base, voter, VoteCode.COUNTED, why)


def _moment(at: datetime) -> str:
    return f"{at:%Y-%m-%d %H:%M:%S} UTC"


def apply_pm(
    state: RunningCount,
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


def dead_note(game: Game, slot: str) -> str:
    death = game.death_of(slot)
    how = f" ({death.how})" if death and death.how != "other" else ""
    return f"{slot} is dead{how}"


def _apply(
    state: RunningCount,
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
        return refuse(VoteCode.DEAD_VOTER, f"not counted: {dead_note(game, voter)}")
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
                why = f"not counted: {dead_note(game, target)}"
                return refuse(VoteCode.DEAD_TARGET, why, target)
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
    state.current[voter] = CurrentVote(target, index, state.order)
    if trules.decision == "majority" and target != ABSTAIN:
        alive = [s for s in state.players if game.is_alive(s, post_id=post_id, at=at)]
        majority = len(alive) // 2 + 1
        if state.stated is not None and state.stated.alive == len(alive):
            majority = state.stated.need  # the GM's own number for today (gm_threshold.py)
        if target == NO_LYNCH and trules.no_lynch_majority == "one_less":
            majority -= 1  # "one less for No Lynch": half the living end the day
        total = sum(wagon_weights(state, game, trules, phase, alive, target).values())
        if total >= majority:
            state.hammer = (target, post_id)


def _where(post_id: int | None) -> str:
    return f"post {post_id}" if post_id is not None else "a PM vote"


def _end(state: RunningCount, index: int, code: VoteCode, why: str) -> None:
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
