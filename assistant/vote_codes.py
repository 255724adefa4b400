"""Why a vote counted or not, as a stable code a program can test (the prose is for people).

Every `VoteMark` (votes.py) and every `Vote` (tally.py) carries one `VoteCode` beside its
human `reason`. Checks and other programs read the code, never the prose, so a reworded
reason cannot silently change what is reported. The values are part of the JSON that
`count --why --json` prints: add new codes freely, never rename one.

Counted (``accepted`` is true):

- ``counted``        the vote (or unvote) counts, and a vote still stands
- ``replaced``       it counted, then a later vote by the same player replaced it
- ``unvoted``        it counted, then the player's unvote removed it
- ``same_target``    a repeated vote for the player already voted: no change
- ``nothing_to_unvote`` an unvote with no standing vote to remove
- ``powerless``      it stands and is shown, but has no weight (a hexed vote, 002)
- ``hidden``         it stands, but is neither counted nor shown (004: an arrested, poisoned
                     or frightened voter)

Not counted because of where or how it was written (votes.py):

- ``mention``        text that talks about voting ("my vote comes later")
- ``in_quote``, ``in_code``, ``in_spoiler``, ``struck``   hidden by the markup around it
- ``host_example``   a vote-like mark in a GM's post
- ``wrong_markup``   written in a form the ruleset does not count (bold under 000)
- ``wrong_color``    coloured, but not in the ruleset's colour (blue under 000)
- ``name_without_vote`` a bold or coloured name where the ruleset wants the word "vote"

Not counted because of the game's rules (tally.py):

- ``not_a_player``, ``dead_voter``, ``dead_target``, ``self_vote``
- ``ambiguous_target``, ``unknown_target``   the name matches several players / none
- ``no_unvote_first``   003: a new vote counts only after an unvote
- ``unvote_not_voting`` 003 (`strict_unvote`): "unvote X" while the vote is on someone else
- ``no_lynch_not_allowed``, ``abstain_not_allowed``, ``pm_not_allowed``
- ``after_deadline``    cast after the day's deadline
- ``after_hammer``      cast after majority ended the day
- ``sheriff_election``  001: cast in the sheriff election, before the sheriff was appointed
- ``vote_controlled``   000: cast in the thread on a day a Mind Control Ray controls the vote

Edits that changed a post's votes (tally.py, timeline.py):

- ``edited_after_end``  the edit was made after the day ended: the vote stays as it stood
- ``edited_around_end`` a silent edit whose window holds the deadline: its time is unknown
- ``edit_not_allowed``  the ruleset forbids changing a vote by editing (001): it stands as posted

The GM's ruling (`assistant rule`):

- ``ruled_not_a_vote``  the GM ruled the mark (or the whole post) is not a vote
"""

from __future__ import annotations

from enum import StrEnum


class VoteCode(StrEnum):
    COUNTED = "counted"
    REPLACED = "replaced"
    UNVOTED = "unvoted"
    SAME_TARGET = "same_target"
    NOTHING_TO_UNVOTE = "nothing_to_unvote"
    POWERLESS = "powerless"
    HIDDEN = "hidden"

    MENTION = "mention"
    IN_QUOTE = "in_quote"
    IN_CODE = "in_code"
    IN_SPOILER = "in_spoiler"
    STRUCK = "struck"
    HOST_EXAMPLE = "host_example"
    WRONG_MARKUP = "wrong_markup"
    WRONG_COLOR = "wrong_color"
    NAME_WITHOUT_VOTE = "name_without_vote"

    NOT_A_PLAYER = "not_a_player"
    DEAD_VOTER = "dead_voter"
    DEAD_TARGET = "dead_target"
    SELF_VOTE = "self_vote"
    AMBIGUOUS_TARGET = "ambiguous_target"
    UNKNOWN_TARGET = "unknown_target"
    NO_UNVOTE_FIRST = "no_unvote_first"
    UNVOTE_NOT_VOTING = "unvote_not_voting"
    NO_LYNCH_NOT_ALLOWED = "no_lynch_not_allowed"
    ABSTAIN_NOT_ALLOWED = "abstain_not_allowed"
    PM_NOT_ALLOWED = "pm_not_allowed"
    AFTER_DEADLINE = "after_deadline"
    AFTER_HAMMER = "after_hammer"
    SHERIFF_ELECTION = "sheriff_election"
    VOTE_CONTROLLED = "vote_controlled"
    EDITED_AFTER_END = "edited_after_end"
    EDITED_AROUND_END = "edited_around_end"
    EDIT_NOT_ALLOWED = "edit_not_allowed"
    RULED_NOT_A_VOTE = "ruled_not_a_vote"


#: Codes of votes that counted when cast: `Vote.accepted` is derived from this set.
ACCEPTED = frozenset(
    {
        VoteCode.COUNTED,
        VoteCode.REPLACED,
        VoteCode.UNVOTED,
        VoteCode.SAME_TARGET,
        VoteCode.NOTHING_TO_UNVOTE,
        VoteCode.POWERLESS,
        VoteCode.HIDDEN,
    }
)
