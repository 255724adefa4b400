"""The bounds of the numbers a GM gives the assistant, shared by the command line that
reads them and the daemon and fetcher that use them: a number past these is refused in
one line, never stored or scheduled (a poll interval of 1e12 seconds was a date past the
year 9999; a post id past 64 bits a game file no JSON reader reads back)."""

from __future__ import annotations

LONGEST_INTERVAL = 86_400.0
"""The longest wait between two polls of a game, or two summary lines of the log: a day."""
LONGEST_JITTER = 3_600.0
"""The most seconds added at random to a poll: an hour."""
LONGEST_DELAY = 60.0
"""The longest pause between two requests to a forum: a minute."""
LARGEST_ID = 4_294_967_295
"""SMF and phpBB keep post ids in unsigned 32-bit columns; the GM's inputs are fewer."""
LAST_PHASE = 999
"""The highest day or night number."""
MOST_PLAYERS = 10_000
"""How many of anything a game counts (players, lynches, votes) at most."""
HEAVIEST_VOTE = 100
"""What one player's vote may be worth at most."""
