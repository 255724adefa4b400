"""What roles do to the lynch vote, derived from the setup and the confirmed phases.

The vote counter (assistant/tally.py) counts with "modifier" facts: a vote's weight,
powerless votes, lovers, the Hex of Charming, the Tiebreaker, a player who cannot be
lynched. When a game has a setup, those facts follow from it and from the confirmed
nights (a hex cast on night 1 makes a vote powerless on the next day; Cupid's Lovers
vote together from then on), so the engine derives them here, day by day, in the shape
of the GM's "modifier" input. They are recomputed from the stored facts on every load and
never stored (facts in, everything else derived): a setup entered again or a role stolen
at night cannot leave a stale modifier behind.

Which passives and statuses mean what is ruleset data (`controlled`: the day status a
Mind Control Ray leaves, 000): a role's `vote_weight`,
`lovers_vote`, `tiebreaker`, `lynch_immune` and `lost_with_status` passives, and the
`[night.vote_statuses]` table naming the day statuses (set by hexes) that make a vote
powerless or charm it. 003's lynches a day follow the deaths of the night before
(`[night] lynches_per_death_of`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from assistant.engine.abilities.blocking import DAY_BLOCK
from assistant.engine.history import ROLES, Replay, replay
from assistant.engine.resolver import PhaseResult
from assistant.engine.rules import EngineRules, load_engine_rules, phase_index
from assistant.engine.state import ABROAD, GameState, flights, whereabouts

_DEFAULT_STATUSES = {"powerless": "powerless", "charmed": "charmed-by"}


def preceding_night(rules: EngineRules, day: int) -> int:
    """The night just before `day` (0 when the game starts with day 1)."""
    return day if rules.first_phase == "night" else day - 1


def state_for_day(rules: EngineRules, rep: Replay, day: int) -> GameState:
    """The engine's state during `day`: after the phases confirmed before the next night.

    A day status (a hex) lasts only for the day after the night that set it: when that
    night is not confirmed, older day statuses are dropped.
    """
    before = preceding_night(rules, day)
    state = rep.initial if rep.initial is not None else rep.state
    seen_night = before == 0
    for result in rep.results:
        if result.phase == "night" and result.number > before:
            break
        if result.phase == "night" and result.number == before:
            seen_night = True
        state = result.state
    if not seen_night:
        state = state.copy()
        for p in state.players.values():
            p.day_statuses.clear()
    return state


def modifiers_for_day(state: GameState, day: int) -> list[dict[str, Any]]:
    """The "modifier" inputs the roles and statuses give on `day`, one per player at most."""
    names = {**_DEFAULT_STATUSES, **dict(state.rules.night.get("vote_statuses", {}))}
    # 004 Voice of Reason: "if successful no one will be killed by lynching during that day".
    stopped = bool(names.get("stops_lynch")) and any(
        names["stops_lynch"] in p.day_statuses for p in state.players.values()
    )
    # `[night] hidden_votes`: statuses whose holder's vote that day is neither counted nor
    # shown (004: "If a player was poisoned by APTX or arrested, their vote for that phase
    # will not count or be shown"; a frightened player's "Vote will show as if he didn't
    # Vote").
    hiding = tuple(state.rules.night.get("hidden_votes", ()))
    out = []
    for name, p in state.players.items():
        sources: list[str] = []
        weight = int(state.passive(name, "vote_weight", 1))  # type: ignore[arg-type]
        lost_with = state.passive(name, "lost_with_status")
        lost = bool(lost_with) and lost_with in p.statuses
        if lost:
            weight = 1
        if weight > 1 and state.passive(name, "lost_when_shields_outnumber"):
            # 000 Enchanter: "If at any point there are more Mind Shields then regular
            # players, this power will not work."
            living = [n for n, q in state.players.items() if q.alive]
            shields = sum(1 for n in living if state.level(n, "mind_shield"))
            if shields > len(living) - shields:
                weight = 1
        if weight > 1 and DAY_BLOCK in p.day_statuses:
            # 002: "For the night and the following day, that person cannot use their role":
            # a roleblocked Doublevoter's vote counts once that day.
            weight = 1
        if weight != 1:
            sources.append(state.role_title(name))
        powerless = weight == 0
        if names["powerless"] in p.day_statuses:
            powerless = True
            sources.append(f"hex: {names['powerless']}")
        prefix = f"{names['charmed']}:"
        charmed_by = next((s[len(prefix) :] for s in p.day_statuses if s.startswith(prefix)), None)
        if charmed_by:
            sources.append(f"charmed by {charmed_by}")
        vote_by = None
        if names.get("controlled"):
            # 000 Mind Control Ray: "The Ray also allows the Scientist to control that
            # player's vote during the next day and may change it as often as he wishes."
            mark = f"{names['controlled']}:"
            vote_by = next((s[len(mark):] for s in p.day_statuses if s.startswith(mark)), None)
        if vote_by:
            sources.append(str(state.rules.messages.get("vote_controlled_source", "controlled")))
        lover = state.lover_of(name) if state.passive(name, "lovers_vote") else None
        if lover:
            sources.append(f"lover of {lover}")
        weight_on = None
        if names.get("extra_vote") and names["extra_vote"] in p.day_statuses:
            # 004 Voice of Accusation: "makes Kujou's vote count as an extra vote".
            weight += 1
            sources.append(f"status: {names['extra_vote']}")
            weight_on = _acted_on_before(state, name, names["extra_vote"])
        votes_against = 0
        if names.get("less_votes") and names["less_votes"] in p.day_statuses:
            # 004 Accompany: "lynching votes reduced by 1 for that day".
            votes_against = -1
            sources.append(f"status: {names['less_votes']}")
        tiebreaker = bool(state.passive(name, "tiebreaker"))
        immune = bool(state.passive(name, "lynch_immune")) and not lost
        if names.get("lynch_immune") and names["lynch_immune"] in p.day_statuses:
            immune = True  # 004 Lovey-Dovey by day
            sources.append(f"status: {names['lynch_immune']}")
        if stopped:
            immune = True
            sources.append(f"status: {names['stops_lynch']}")
        hides_votes = bool(names.get("hides_votes")) and names["hides_votes"] in p.day_statuses
        if hides_votes:
            # 004 Voice of Reason: "No votes are shown if Voice of Reason is used."
            sources.append(f"status: {names['hides_votes']}")
        # (Where a traveller is comes from their flights below, not the status "abroad".)
        hidden_by = [s for s in hiding if s != ABROAD and (s in p.day_statuses or s in p.statuses)]
        if hidden_by:
            sources.append(f"status: {hidden_by[0]}")
        if "abducted" in p.day_statuses or "out" in p.statuses:
            # 000 Abduction: "cannot vote or be lynched during the day".
            powerless = immune = True
            sources.append("abducted" if "abducted" in p.day_statuses else "out of the game")
        if tiebreaker or immune:
            sources.append(state.role_title(name))
        index = phase_index(state.rules, "day", day)
        where = whereabouts(p, index)
        if where == "home" and any(i == index + 1 for i, _dest in flights(p)):
            # 004: "The player may not use an ability or vote and travel in the same phase";
            # "Hakuba decides to travel on Day 2. In case he was lynched, Hakuba will survive."
            where = "travelling"
        if where != "home":
            # 004 travel: abroad "they are not capable of voting"; on the plane "the player
            # may not use their abilities, vote, or be killed or lynched".
            powerless = immune = True
            sources.append({"in-flight": "on the plane"}.get(where, where))
            if where in hiding and not hidden_by:
                hidden_by = [where]
        if not sources:
            continue
        out.append(
            {
                "player": name,
                "vote_weight": max(weight, 1),
                "powerless": powerless,
                "lover_of": lover,
                "day": day,
                "charmed_by": charmed_by,
                "tiebreaker": tiebreaker,
                "lynch_immune": immune,
                "votes_against": votes_against,
                "source": ", ".join(dict.fromkeys(sources)),
                **({"vote_by": vote_by} if vote_by else {}),
                **({"hidden": True} if hidden_by else {}),
                **({"hides_votes": True} if hides_votes else {}),
                **({"weight_on": weight_on} if weight_on is not None else {}),
            }
        )
    return out


def _acted_on_before(state: GameState, name: str, status: str) -> list[str] | None:
    """Whom the player's status (a hex they cast on themselves) adds weight to: the
    ability's `only_on_acted` keyword class, done to a player in an earlier phase (004 Voice
    of Accusation: "may only be used when Kujou is voting to lynch somebody she has
    Cross-Examined previously"); None when the ability names none (any vote)."""
    wanted = [
        str(ab.params["only_on_acted"]) for ab in state.abilities_of(name).values()
        if ab.params.get("hex") == status and ab.params.get("only_on_acted")
    ]
    if not wanted:
        return None
    return sorted({t for act in state.acts if act.actor == name and act.keyword in wanted
                   and act.happened for t in act.targets})


def _killed_by_day(rules: EngineRules, rep: Replay, day: int) -> list[dict[str, Any]]:
    """`[night] day_deaths_before_lynch`: a player the day's actions killed (the GM resolves
    them at the day's end) neither votes (their vote not shown either) nor is lynched that
    day, though their wagon stands (004: "If a player was poisoned by APTX or arrested, their
    vote for that phase will not count or be shown"; "If the person who got the most lynch
    votes is also arrested that same phase, there will be no lynch. Same for APTX.")."""
    result = rep.result("day", day)
    if not rules.night.get("day_deaths_before_lynch") or result is None:
        return []
    return [
        {"player": d.player, "vote_weight": 1, "powerless": True, "lynch_immune": True,
         "hidden": True, "day": day, "source": f"killed by the day's actions ({d.cause})"}
        for d in result.deaths
    ]


def lynches_for_day(rules: EngineRules, rep: Replay, day: int) -> int | None:
    """003: lynches available on `day` = deaths of `[night] lynches_per_death_of` the night
    before (at least one); None when the ruleset does not say or that night is unconfirmed."""
    night = rep.result("night", preceding_night(rules, day))
    return None if night is None else lynches_after(rules, night)


def lynches_after(rules: EngineRules, night: PhaseResult,
                  inputs: Iterable[dict[str, Any]] = ()) -> int | None:
    """003: the lynches the day after `night` has before the ruleset's cap ("The available
    number of lynches is equal to the number of Town players who died during the preceding
    Night"), at least one, unless the GM entered that day's (`game lynches`, in `inputs`);
    None when the ruleset has no such rule."""
    side = rules.night.get("lynches_per_death_of")
    if not side:
        return None
    day = night.number + 1 if rules.first_phase == "day" else night.number
    entered = [int(i["data"]["available"]) for i in inputs
               if i["kind"] == "lynches" and i["data"].get("day") == day]
    if entered:
        return entered[-1]
    return max(1, sum(night.state.players[d.player].side == side for d in night.deaths))


def days_of(rules: EngineRules, rep: Replay, inputs: Iterable[dict[str, Any]]) -> list[int]:
    """Every day entered as a phase, and every day up to the one after the last night."""
    entered = {
        int(i["data"]["number"])
        for i in inputs
        if i["kind"] == "phase" and i["data"].get("kind") == "day"
    }
    last_night = max((r.number for r in rep.results if r.phase == "night"), default=0)
    upto = last_night + (1 if rules.first_phase == "day" else 0)
    return sorted(entered | set(range(1, max(upto, 1) + 1)))


def with_seq(inputs: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Inputs as the store numbers them (tests and replays build some without `seq`)."""
    return [{**i, "seq": i.get("seq", n)} for n, i in enumerate(inputs, 1)]


def derived_inputs(
    ruleset: Any, inputs: list[dict[str, Any]], rep: Replay | None = None
) -> list[dict[str, Any]]:
    """The inputs a count gets from the engine: per day, role modifiers and (003) lynches.

    `ruleset` is the game's ruleset (or its `EngineRules`); `rep` the engine's replay of
    `with_seq(inputs)` when the caller has it already (`monitor.load_view` replays once
    per view), else it is replayed here. Shaped like stored GM inputs ({"kind", "data"})
    with data["source"] naming the role, so `Game.from_parts(derived=...)` reads them
    exactly as it reads the GM's own.
    """
    if not any(i["kind"] == ROLES for i in inputs):
        return []
    inputs = with_seq(inputs)
    rules = load_engine_rules(ruleset)
    if rep is None:
        rep = replay(rules, inputs)
    out: list[dict[str, Any]] = []
    if not any(i["kind"] == "phase" and i["data"].get("kind") == "day" for i in inputs):
        # No day entered: a count has no day number, so only the coming day's effects,
        # for "every day" (a hex of an older night must not linger).
        current = days_of(rules, rep, inputs)[-1]
        state = state_for_day(rules, rep, current)
        return [
            {"kind": "modifier", "data": {**m, "day": None}}
            for m in modifiers_for_day(state, current)
        ]
    for day in days_of(rules, rep, inputs):
        state = state_for_day(rules, rep, day)
        out += [{"kind": "modifier", "data": m} for m in modifiers_for_day(state, day)]
        out += [{"kind": "modifier", "data": m} for m in _killed_by_day(rules, rep, day)]
        lynches = lynches_for_day(rules, rep, day)
        if lynches is not None:
            out.append({"kind": "lynches", "data": {"day": day, "available": lynches}})
    return out
