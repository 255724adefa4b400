"""The rules engine: game state, roles as data, night orders resolved tier by tier, drafts."""
