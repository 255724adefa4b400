"""The GM's inputs about the game itself, shared by the command line and the dashboard: its
own majority variants (`game rules`), house rules over the ruleset's [posting] (`alerts
--rule`), what the daemon may post on its own (`game rules --auto-post`), how a player's
vote counts (`game modifier`), another account of a player (`game alias`), a reset of the
votes (`game reset`), a day's lynches (`game lynches`) and the setup (`roles`).

Each checks what it is given as the command did, stores one GM input (so `log` lists it and
`undo` withdraws it), and returns what was stored and the one line the GM reads. Settings go
through `corrections.record_setting`, so an undo puts the old value back.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from assistant.corrections import record_setting
from assistant.count.outcome import TallyRules, with_tally
from assistant.errors import ConfigError, VoteError
from assistant.game import Game
from assistant.gm import game_or_none, rules_of
from assistant.gm_forum import auto_post_line, set_auto_post
from assistant.limits import HEAVIEST_VOTE
from assistant.monitor import GAME_TALLY_KEYS, ROLES, game_ruleset, load_game
from assistant.rulesets import find_ruleset, stored_name
from assistant.store import GameStore

if TYPE_CHECKING:  # the engine is read only for a setup: a count starts without it
    from assistant.engine.setup import Setup

AT_DEADLINE = ("no_lynch", "plurality")
NO_LYNCH_MAJORITY = ("majority", "one_less")


def tally_variants(ruleset: Any, at_deadline: str | None, no_lynch: str | None) -> dict[str, str]:
    """The [tally] variants given for one game, checked against its ruleset now."""
    own = {k: v for k, v in (("at_deadline", at_deadline), ("no_lynch_majority", no_lynch)) if v}
    decision = TallyRules.from_ruleset(ruleset).decision
    if own and decision != "majority":
        raise ConfigError(
            f"--at-deadline and --no-lynch-majority are for majority rulesets; "
            f"{ruleset.name} decides by {decision}; leave them out, or give the game a "
            "majority ruleset"
        )
    with_tally(ruleset, **own)  # a value the ruleset file could not hold is refused the same
    return own


def game_rules(store: GameStore, now: datetime, at_deadline: str | None = None,
               no_lynch_majority: str | None = None, *, auto_post: str | None = None,
               auto_post_gap: str | None = None) -> tuple[dict[str, Any], str]:
    """Show, or set and show, the game's own majority variants over its ruleset's [tally]
    and what the daemon may post on its own (`gm_forum.set_auto_post`)."""
    base = find_ruleset(store.config().get("ruleset", "permissive"))
    given = tally_variants(base, at_deadline, no_lynch_majority)
    if given:
        record_setting(store, "tally", given, now)
    posting_changed = auto_post is not None or auto_post_gap is not None
    if posting_changed:
        posting = set_auto_post(store, auto_post, auto_post_gap, now)
    else:
        posting = [auto_post_line(store)]
    rules = TallyRules.from_ruleset(game_ruleset(store))
    own = store.config().get("tally") or {}
    auto = dict(store.config().get("auto_post") or {})
    shown = {k: getattr(rules, k) for k in GAME_TALLY_KEYS}
    lines = [
        f"  {k} = {v}" + ("  (this game's)" if k in own else f"  ({base.name}'s default)")
        for k, v in shown.items()
    ]
    data = {"game": store.game_id, "ruleset": base.name, **shown, "own": sorted(own),
            "auto_post": auto.get("mode", "off"), "auto_post_gap": auto.get("gap")}
    return data, (("Set. " if given or posting_changed else "")
                  + f"{store.game_id} counts under {base.name} with:\n"
                  + "\n".join(lines + [f"  {line}" for line in posting]))


def house_rules(store: GameStore, items: list[str], now: datetime) -> dict[str, Any]:
    """House rules over the ruleset's [posting] (`alerts --rule KEY=VALUE`), all checked
    before any is stored; returns them as stored."""
    from assistant.checks import posting_rules

    given: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--rule {item!r}: write KEY=VALUE, e.g. pm_copy=violation")
        given[key.strip()] = rule_value(value.strip())
    if not given:
        raise ConfigError("give a house rule as KEY=VALUE, e.g. pm_copy=violation")
    house = {**(store.config().get("posting") or {}), **given}
    posting_rules(find_ruleset(load_game(store).ruleset), house)  # validate first
    record_setting(store, "posting", given, now)
    return given


def rule_value(text: str) -> int | bool | str:
    """A house rule's value as the ruleset file would write it: 2, true, "violation"."""
    if text.isdigit():
        return int(text)
    return {"true": True, "false": False}.get(text.lower(), text)


def _player(g: Game, name: str) -> str:
    m = g.matcher().match(name, strict=True)
    if not m.ok:
        raise VoteError(f"{m.describe()}; players: {', '.join(g.players)}")
    return m.slot  # type: ignore[return-value]


def record_modifier(store: GameStore, player: str, now: datetime, *, vote_weight: int = 1,
                    powerless: bool = False, lover_of: str | None = None,
                    day: int | None = None) -> tuple[dict[str, Any], str]:
    """How PLAYER's vote counts (from their role): weight, powerless, lover."""
    if not 0 <= vote_weight <= HEAVIEST_VOTE:
        raise VoteError(
            f"--weight {vote_weight}: a vote is worth 0 or more, at most {HEAVIEST_VOTE} (0: it "
            "never counts; --powerless: shown but not counted)"
        )
    g = load_game(store)
    data = {
        "player": _player(g, player),
        "vote_weight": vote_weight,
        "powerless": powerless,
        "lover_of": _player(g, lover_of) if lover_of else None,
        "day": day,
    }
    store.add_input("modifier", data, now)
    return data, (
        f"Recorded for {data['player']}: weight {vote_weight}"
        f"{', powerless' if powerless else ''}"
        f"{', lover of ' + str(data['lover_of']) if lover_of else ''}"
        f"{' on day ' + str(day) if day else ''}."
    )


def record_alias(store: GameStore, player: str, account: str, now: datetime
                 ) -> tuple[dict[str, Any], str]:
    """ACCOUNT is another forum name of PLAYER, from the start of the game."""
    g = load_game(store)
    slot = _player(g, player)
    if not account.strip():
        raise VoteError("give the forum account that posts as the player")
    taken = g.slot_of_author(account)
    if taken is not None:
        raise VoteError(f"{account!r} already posts as {taken}; nothing to record")
    data = {"player": slot, "alias": account.strip()}
    store.add_input("alias", data, now)
    return data, f"Recorded: {data['alias']} posts and votes as {data['player']}."


def record_reset(store: GameStore, at_post: int, now: datetime) -> tuple[dict[str, Any], str]:
    """The GM reset the votes in post AT_POST: the votes standing then end."""
    data = {"at_post": at_post}
    store.add_input("reset", data, now)
    return data, f"Recorded: the votes were reset in post {at_post}."


def record_lynches(store: GameStore, day: int, available: int, now: datetime
                   ) -> tuple[dict[str, Any], str]:
    """How many lynches DAY has, when the engine does not know; the GM's number wins."""
    game_id = store.game_id
    rules = TallyRules.from_ruleset(find_ruleset(load_game(store).ruleset))
    if rules.max_lynches <= 1:
        raise ConfigError(
            f"the ruleset of {game_id!r} has one lynch a day ([tally] max_lynches = "
            f"{rules.max_lynches}); there is nothing to record"
        )
    if day < 1 or not 1 <= available <= rules.max_lynches:
        raise ConfigError(
            f"--day {day} --available {available}: give a day of 1 or more and between 1 "
            f"and {rules.max_lynches} lynches (the ruleset's most)"
        )
    data = {"day": day, "available": available}
    store.add_input("lynches", data, now)
    return data, f"Recorded: Day {day} has {available} lynch{'es' if available > 1 else ''}."


@dataclass(frozen=True)
class SetupEntered:
    setup: Setup
    warnings: list[str]
    lines: list[str]
    """Each player's role and side, as the GM reads them back."""


def enter_setup(store: GameStore, text: str, where: str, now: datetime,
                ruleset: str | None = None) -> SetupEntered:
    """The setup (`roles --file`, the dashboard's box): who has which role and side, stored
    with a seed for replays. `where` names the text in refusals (the file, "the setup")."""
    from assistant.engine.setup import parse_setup, setup_warnings

    rules = rules_of(store, ruleset)
    seed = random.SystemRandom().randrange(2**31)
    setup = parse_setup(text, rules, where=where, default_seed=seed)
    setup = _setup_for_game(setup, game_or_none(store), where)
    with store.batch():
        if ruleset and not store.config().get("ruleset"):
            store.update_config(ruleset=stored_name(ruleset, find_ruleset(ruleset)))
        store.add_input(ROLES, setup.to_dict(), now)
    lines = [
        f"{p.name}: {rules.role(p.role).title if p.role else 'vanilla'} "
        f"({rules.side(p.side).title})"
        for p in setup.players
    ]
    return SetupEntered(setup, setup_warnings(setup, rules), lines)


def setup_text(game_id: str, entered: SetupEntered) -> str:
    s = entered.setup
    return "\n".join([f"setup of {game_id} stored ({len(s.players)} players, seed {s.seed}):",
                      *entered.lines, *(f"warning: {w}" for w in entered.warnings)])


def _setup_for_game(setup: Setup, game: Game | None, where: str) -> Setup:
    """The setup with every name as the game's players file shows it; a name that is no
    player of the game, a player named twice, or a player left out is refused, because the
    engine and the vote counter must agree on who is who."""
    if game is None:
        return setup
    matcher = game.matcher()
    players = []
    seen: dict[str, str] = {}
    for p in setup.players:
        m = matcher.match(p.name, strict=True)
        if not m.ok:
            raise ConfigError(
                f"{where}: {m.describe()} of the game {game.game_id!r}; players: "
                f"{', '.join(game.players)}"
            )
        slot: str = m.slot  # type: ignore[assignment]
        if slot in seen:
            raise ConfigError(
                f"{where}: {seen[slot]!r} and {p.name!r} are the same player ({slot}); list "
                "each player once"
            )
        seen[slot] = p.name
        players.append(replace(p, name=slot))
    missing = [n for n in game.players if n not in seen]
    if missing:
        raise ConfigError(
            f"{where}: the setup lists {len(seen)} of the {len(game.players)} players; missing: "
            f'{", ".join(missing)} (give each a side, e.g. {{ name = "{missing[0]}", '
            'side = "town" })'
        )
    return replace(setup, players=tuple(players))
