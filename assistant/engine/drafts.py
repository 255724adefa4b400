"""Drafts from Jinja2 templates: the dawn post, result PMs, the win announcement.

What a death reveals is the ruleset's `[reveal]` policy ("none", "killer", "role",
"role_alignment"), with the disguises roles carry on death (001's halfbreed shows as a
peasant; 002's Ghost hides its affiliation; a lynched Zombie flips as Vanilla).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from assistant.engine.resolver import PhaseResult
from assistant.engine.state import Death, GameState
from assistant.engine.win import Win, check_win
from assistant.safe_text import BBCode
from assistant.templating import template


@dataclass(frozen=True)
class Reveal:
    """What the public (or the killer) learns of one death."""

    player: str
    role: str | None
    side: str | None
    vanilla: bool = False
    """The role is the ruleset's vanilla title: "was Vanilla", not "was the Vanilla"."""
    article: str = ""
    """The vanilla title's article (`[reveal.messages] vanilla_article`): 001's "a Peasant"
    next to "the Hunter"; none for 002's "Vanilla", an adjective."""

    @property
    def the_role(self) -> str | None:
        """The role as the posts name it: "the Bomb", "the Hunter", "a Peasant", "Vanilla"."""
        if self.role is None:
            return None
        if self.vanilla:
            return f"{self.article} {self.role}" if self.article else self.role
        return f"the {self.role}"


def reveal(state: GameState, death: Death, policy: str) -> Reveal:
    """Apply a reveal policy and the dead role's disguises to one death."""
    hidden = set(state.rules.reveal.get("hidden_by", ()))
    if policy in {"none", "killer"} or hidden & state.players[death.player].statuses:
        # `[reveal] hidden_by`: statuses that keep a body unshown (004: "The identity of the
        # erased player will not be shown").
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
    vanilla = role_title == rules.messages.get("vanilla_title", "Vanilla")
    article = rules.messages.get("vanilla_article", "")
    return Reveal(death.player, role_title, side, vanilla, article)


def _policy(state: GameState, death: Death) -> str:
    key = "lynch" if death.how == "lynch" else "night_death"
    return str(state.rules.reveal.get(key, "role_alignment"))


def game_title(config: dict[str, Any], crawl: dict[str, Any], game_id: str) -> str:
    """What a PM's subject calls the game: the GM's `title`, else the thread's, else its id."""
    return str(config.get("title") or crawl.get("title") or game_id)


def dawn_post(result: PhaseResult, entered: tuple[Death, ...] = ()) -> str:
    """The dawn post for a resolved night; `entered`: deaths the GM entered during the night
    (a quiet modkill), announced with the night's own."""
    state = result.state
    win = check_win(state, "dawn")
    name = str(state.rules.reveal.get("dawn_template", "dawn_default.j2"))
    first_day = state.rules.first_phase == "day"
    return (
        template(name, setting=f"the {state.rules.ruleset} ruleset's [reveal] dawn_template")
        .render(
            phase_title="Night",
            number=result.number,
            deaths=[reveal(state, d, _policy(state, d)) for d in (*entered, *result.deaths)],
            public=list(result.public),
            win=win,
            win_text=BBCode(win_post(win)) if win else "",
            next_day=result.number + 1 if first_day else result.number,
            living=[p.name for p in state.living()],
        )
        .strip()
        + "\n"
    )


def notice_pms(result: PhaseResult, title: str) -> dict[str, str]:
    """The PMs due while the phase is still open (001's healer: who was attacked tonight)."""
    return _pms(result, title, {k: list(v) for k, v in result.notices.items()}, "during")


def result_pms(result: PhaseResult, title: str) -> dict[str, str]:
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
                        role=shown.the_role,
                        side=shown.side or "unknown",
                    )
                )
    return _pms(result, title, lines, "results of")


def _pms(result: PhaseResult, title: str, lines: dict[str, list[str]], what: str) -> dict[str, str]:
    state = result.state
    pm = template("pm_result.j2")
    return {
        player: pm.render(
            player=player,
            title=title,
            what=what,
            phase=result.phase.title(),
            number=result.number,
            lines=text,
        ).strip()
        + "\n"
        for player, text in sorted(lines.items(), key=lambda kv: list(state.players).index(kv[0]))
    }


def win_post(win: Win) -> str:
    """The win announcement; a check whose text names the winner is not echoed twice."""
    return template("win_default.j2").render(win=win).strip()
