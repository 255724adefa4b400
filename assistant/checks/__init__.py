"""Checks: pure functions from facts (posts, the game's setup, phases, votes) to alerts.

Each module checks one kind of rule and returns a list of `Alert` (never raises at the
first problem): `edits`, `pm_copy`, `posting` (dead players, non-players, night posts),
`inactivity`, `invalid_votes`. How serious each finding is comes from the ruleset's
`[posting]` section, which a game may override with house rules (config key `posting`,
e.g. a GM's opening post forbidding role-PM copies under a ruleset that allows them).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from assistant.alerts import SEVERITIES
from assistant.errors import ConfigError, RulesetError
from assistant.settings import typed_fields

_SEVERITY_KEYS = (
    "edit",
    "vote_edit",
    "moderator_edit",
    "dead_post",
    "non_player_post",
    "quote_gm_pm",
    "pm_copy",
    "night_post",
    "inactive_day",
    "inactive_cycle",
    "not_voted",
    "vote_late",
    "invalid_vote",
)
_ACTIONS = ("modkill", "replace", "warn")


@dataclass(frozen=True)
class PostingRules:
    """The `[posting]` section: a severity per finding ("none" = no alert) and a few numbers."""

    edit: str = "info"
    """An author's edit that changed no vote."""
    vote_edit: str = "warning"
    """An edit that changed a vote."""
    moderator_edit: str = "info"
    dead_post: str = "violation"
    dead_posts_allowed: int = field(default=0, metadata={"min": 0})
    """000: the dead may post once after death; 001: not at all."""
    non_player_post: str = "warning"
    quote_gm_pm: str = "violation"
    """A quote box citing a GM whose source is not a post of the thread."""
    pm_copy: str = "warning"
    """Text copied from a PM the GM sent (role or result PM), with or without quote tags."""
    night_post: str = "none"
    """002: players may speak only during the day."""
    min_posts_per_day: int = field(default=0, metadata={"min": 0})
    inactive_day: str = "none"
    inactive_day_action: str = "modkill"
    inactive_cycle: str = "none"
    """003: a full day-night cycle without a post."""
    inactive_cycle_action: str = "replace"
    modkill_from_day: int | None = None
    """003: from this day on, the inactive are modkilled instead of replaced."""
    inactivity_window: str | None = None
    """The shortest phase the inactivity rules judge ("15m"; for `inactive_cycle` the day
    and night together): a shorter one (a day the GM entered late, or ended after minutes)
    is not a day in the rule's sense, and nobody is judged for it. None: every phase."""
    voting_mandatory: bool = False
    activity_rule: str = ""
    """The ruleset's sentence on taking part (posting, voting), quoted in the prods."""
    not_voted: str = "warning"
    vote_late: str = "warning"
    invalid_vote: str = "warning"


def posting_rules(ruleset: Any, overrides: Mapping[str, Any] | None = None) -> PostingRules:
    """The ruleset's `[posting]` (read once when the file was loaded: `Ruleset.posting`;
    raw tables with `section()` are read here) with a game's house rules on top, every
    value checked."""
    if isinstance(built := getattr(ruleset, "posting", None), PostingRules):
        rules = built
        values = {f.name: getattr(built, f.name) for f in fields(PostingRules)}
    else:
        values = dict(ruleset.section("posting"))
        rules = _build(values, f"{ruleset.path} [posting]")
    if overrides:
        rules = _build({**values, **dict(overrides)}, "the game's posting house rules")
    return rules


def _build(values: Mapping[str, Any], where: str) -> PostingRules:
    known = {f.name for f in fields(PostingRules)}
    unknown = sorted(set(values) - known)
    err = RulesetError if "[posting]" in where else ConfigError
    if unknown:
        raise err(
            f"{where}: unknown key(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}"
        )
    try:
        rules = replace(PostingRules(), **typed_fields(PostingRules, values, where))
    except RulesetError as e:
        raise err(str(e)) from None
    for key in _SEVERITY_KEYS:
        value = getattr(rules, key)
        if value != "none" and value not in SEVERITIES:
            raise err(f"{where} {key} = {value!r}: use none, {', '.join(SEVERITIES)}")
    if rules.inactivity_window is not None:
        from assistant.errors import PhaseError
        from assistant.phases import parse_duration

        try:
            parse_duration(rules.inactivity_window, where=f"{where} inactivity_window")
        except PhaseError as e:
            raise err(str(e)) from None
    for key in ("inactive_day_action", "inactive_cycle_action"):
        if getattr(rules, key) not in _ACTIONS:
            raise err(f"{where} {key} = {getattr(rules, key)!r}: use one of {', '.join(_ACTIONS)}")
    return rules
