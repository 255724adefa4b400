"""Drafts from Jinja2 templates: the dawn post, result PMs, the win announcement.

What a death reveals is the ruleset's `[reveal]` policy ("none", "killer", "role",
"role_alignment"), with the disguises roles carry on death (001's halfbreed shows as a
peasant; 002's Ghost hides its affiliation; a lynched Zombie flips as Vanilla).
"""

from __future__ import annotations

from dataclasses import dataclass

from assistant.engine.resolver import PhaseResult
from assistant.engine.state import Death, GameState
from assistant.engine.win import Win, check_win
from assistant.templating import template


@dataclass(frozen=True)
class Reveal:
    """What the public (or the killer) learns of one death."""

    player: str
    role: str | None
    side: str | None


def reveal(state: GameState, death: Death, policy: str) -> Reveal:
    """Apply a reveal policy and the dead role's disguises to one death."""
    if policy in {"none", "killer"}:
        return Reveal(death.player, None, None)
    rules = state.rules
    role_title = state.role_title(death.player)
    shown_as = state.passive(death.player, "reveal_role")
    if shown_as:
        role_title = rules.roles[str(shown_as)].title if shown_as in rules.roles else str(shown_as)
    if death.how == "lynch" and state.passive(death.player, "lynch_reveal_role"):
        role_title = str(state.passive(death.player, "lynch_reveal_role"))
    side = rules.side(state.players[death.player].side).title
    if policy == "role" or state.passive(death.player, "hide_on_death"):
        side = None
    return Reveal(death.player, role_title, side)


def _policy(state: GameState, death: Death) -> str:
    key = "lynch" if death.how == "lynch" else "night_death"
    return str(state.rules.reveal.get(key, "role_alignment"))


def dawn_post(result: PhaseResult) -> str:
    """The dawn post for a resolved night."""
    state = result.state
    win = check_win(state, "dawn")
    name = str(state.rules.reveal.get("dawn_template", "dawn_default.j2"))
    first_day = state.rules.first_phase == "day"
    return (
        template(name, setting=f"the {state.rules.ruleset} ruleset's [reveal] dawn_template")
        .render(
            phase_title="Night",
            number=result.number,
            deaths=[reveal(state, d, _policy(state, d)) for d in result.deaths],
            public=list(result.public),
            win=win,
            win_text=win_post(win) if win else "",
            next_day=result.number + 1 if first_day else result.number,
            living=[p.name for p in state.living()],
        )
        .strip()
        + "\n"
    )


def result_pms(result: PhaseResult) -> dict[str, str]:
    """One PM per player who gets one: results in the ruleset's words, and what killers learn."""
    state = result.state
    lines: dict[str, list[str]] = {k: list(v) for k, v in result.pms.items()}
    for d in result.deaths:
        if _policy(state, d) != "killer":
            continue
        shown = reveal(state, d, "role_alignment")
        for killer in d.killers:
            if killer != d.player and state.players[killer].alive:
                lines.setdefault(killer, []).append(
                    state.rules.message(
                        "killer_learns",
                        player=d.player,
                        role=shown.role,
                        side=shown.side or "unknown",
                    )
                )
    pm = template("pm_result.j2")
    return {
        player: pm.render(
            player=player,
            title=state.rules.title,
            phase=result.phase.title(),
            number=result.number,
            lines=text,
        ).strip()
        + "\n"
        for player, text in sorted(lines.items(), key=lambda kv: list(state.players).index(kv[0]))
    }


def win_post(win: Win) -> str:
    return template("win_default.j2").render(win=win).strip()
