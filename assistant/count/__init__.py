"""The count: vote marks in a post, the one-pass count of a day, its outcome, the tally post.

The modules only the count uses, in layers (pyproject.toml's import contract): `votes`
(marks in a post body, `VoteRules`) and `outcome` (who is lynched, `TallyRules`) at the
bottom, the names the thread and the GM's own counts teach above them, `tally` (the count)
over all of them, `tally_draft` (the BBCode post) on top. Player names (`names`) and vote
codes (`vote_codes`) stay below this package: the game's setup and the orders read them
too. Nothing here imports the engine: what roles do to votes comes in as the game's facts.
This module imports nothing, so `import assistant.count.votes` loads only what it needs.
"""
