"""Drafts from Jinja2 templates: the role PMs, the dawn post, result PMs, the win announcement.

What a death reveals is the ruleset's `[reveal]` policy ("none", "killer", "role",
"role_alignment"), with the disguises roles carry on death (001's halfbreed shows as a
peasant; 002's Ghost hides its affiliation; a lynched Zombie flips as Vanilla).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assistant.engine.resolver import PhaseResult
from assistant.engine.rules import AbilityDef
from assistant.engine.state import Death, GameState
from assistant.engine.win import Win, check_win
from assistant.safe_text import BBCode
from assistant.templating import render, template


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
    character: bool = False
    """The role is a character's name (004's "Ran, Protector"), said without an article."""

    @property
    def the_role(self) -> str | None:
        """The role as the posts name it: "the Bomb", "the Hunter", "a Peasant", "Vanilla",
        "Ran, Protector"."""
        if self.role is None:
            return None
        if self.vanilla:
            return f"{self.article} {self.role}" if self.article else self.role
        return self.role if self.character else f"the {self.role}"


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
    return Reveal(death.player, role_title, side, vanilla, article, _is_character(rules,
                                                                                 role_title))


def _is_character(rules: Any, title: str) -> bool:
    """Whether a role title shown is a character's name: the role of that title says so
    (`character`, or the ruleset's `[reveal] character_names`)."""
    return any(r.character for r in rules.roles.values() if r.title == title)


def _policy(state: GameState, death: Death) -> str:
    key = "lynch" if death.how == "lynch" else "night_death"
    return str(state.rules.reveal.get(key, "role_alignment"))


def dawn_post(result: PhaseResult, entered: tuple[Death, ...] = (), *,
              templates: Sequence[Path] = (), lynches: int | None = None) -> str:
    """The dawn post for a resolved night; `entered`: deaths the GM entered during the night
    (a quiet modkill), announced with the night's own; `templates`: the GM's own template
    folders, looked in first; `lynches`: how many the next day has, where the number
    changes with the night (003)."""
    state = result.state
    win = check_win(state, "dawn")
    name = str(state.rules.reveal.get("dawn_template", "dawn_default.j2"))
    first_day = state.rules.first_phase == "day"
    return (
        render(
            template(name, setting=f"the {state.rules.ruleset} ruleset's [reveal] dawn_template",
                     overrides=templates),
            phase_title="Night",
            number=result.number,
            deaths=[reveal(state, d, _policy(state, d)) for d in (*entered, *result.deaths)],
            public=list(result.public),
            win=win,
            win_text=BBCode(win_post(win)) if win else "",
            next_day=result.number + 1 if first_day else result.number,
            living=[p.name for p in state.living()],
            lynches=lynches,
        )
        .strip()
        + "\n"
    )


def notice_pms(result: PhaseResult, title: str, *, templates: Sequence[Path] = ()
               ) -> dict[str, str]:
    """The PMs due while the phase is still open (001's healer: who was attacked tonight)."""
    return _pms(result, title, {k: list(v) for k, v in result.notices.items()}, "during",
                templates)


def result_pms(result: PhaseResult, title: str, *, templates: Sequence[Path] = ()
               ) -> dict[str, str]:
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
    return _pms(result, title, lines, "results of", templates)


def _pms(result: PhaseResult, title: str, lines: dict[str, list[str]], what: str,
         templates: Sequence[Path]) -> dict[str, str]:
    state = result.state
    pm = template("pm_result.j2", overrides=templates)
    return {
        player: render(
            pm,
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


# ---- role PMs ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Held:
    """An item a role PM lists: its title and the seed's words for it."""

    title: str
    text: str


@dataclass(frozen=True)
class RolePM:
    """What one player's role PM says, before a template words it."""

    player: str
    role: str
    """The role's title, or the ruleset's vanilla title (a hidden role shows as vanilla)."""
    side: str
    role_text: str
    """The role's own text in the seed's words ("" for a vanilla player)."""
    side_text: str
    win: str
    """The win condition: the role's own (`victory`), else its side's `goal`."""
    orders: tuple[str, ...]
    """Each ability as an order the GM reads ("protect PLAYER: every night")."""
    items: tuple[Held, ...]
    fellows: tuple[str, ...]
    """The side's other members, where the side knows its team."""
    known: tuple[tuple[str, tuple[str, ...]], ...]
    """Players the role is told of (`knows_role`): (role title, players)."""


def role_pm(state: GameState, name: str, variants: Sequence[str] = ()) -> RolePM:
    """The role PM of one player at the start of the game (`state`: the setup's). A role
    the player does not know yet (`hidden`: 002's Traitor, Ghost, Zombie: "does not know
    of his role until it comes into play") is told as its side's vanilla."""
    rules = state.rules
    player = state.players[name]
    role = rules.roles.get(player.role) if player.role else None
    if role is not None and role.hidden:
        role = None
    side = rules.side(player.side)
    vanilla = rules.messages.get("vanilla_title", "Vanilla")
    lone = bool(role and role.passives.get("lone"))
    fellows = () if lone or not side.knows_team else tuple(state.team(player.side, but=name))
    known = []
    if role is not None and role.passives.get("knows_role"):
        key = str(role.passives["knows_role"])
        holders = tuple(p.name for p in state.players.values()
                        if p.role == key and p.name != name)
        if holders:
            known.append((rules.role(key).title, holders))
    abilities = dict(role.abilities) if role is not None else {}
    if not lone:
        abilities.update({k: v for k, v in side.abilities.items() if k not in abilities})
    orders = tuple(_order_line(ab) for ab in abilities.values()
                   if not ab.params.get("variant") or ab.params["variant"] in variants)
    carried = set(role.passives.get("carries", ())) if role is not None else set()
    items = tuple(Held(rules.items[i].title, rules.items[i].text.strip())
                  for i in player.items if i in rules.items and i not in carried)
    return RolePM(
        player=name,
        role=role.title if role is not None else vanilla,
        side=side.title,
        role_text=role.text if role is not None else "",
        side_text=side.text.strip(),
        win=(role.victory if role is not None and role.victory else side.goal),
        orders=orders,
        items=items,
        fellows=fellows,
        known=tuple(known),
    )


def _order_line(ab: AbilityDef) -> str:
    """An ability as the order a player sends: its word, its targets and its limits (when
    it may be used is the role's text, in the seed's words)."""
    limits = []
    if ab.uses is not None:
        limits.append("once per game" if ab.uses == 1 else f"{ab.uses} times per game")
    if ab.first_night > 1:
        limits.append(f"from night {ab.first_night}")
    if ab.last_night is not None:
        limits.append(f"night {ab.last_night} only" if ab.last_night == ab.first_night
                      else f"until night {ab.last_night}")
    line = " ".join([ab.name, " and ".join(["PLAYER"] * ab.targets)]).strip()
    return f"{line} ({', '.join(limits)})" if limits else line


def role_pms(state: GameState, title: str, *, variants: Sequence[str] = (),
             templates: Sequence[Path] = ()) -> dict[str, str]:
    """Every player's role PM at the start of the game, in the setup's order, from the
    ruleset's `[reveal] role_pm_template` (default pm_role.j2; a game's or the data
    directory's own `templates/` first)."""
    name = str(state.rules.reveal.get("role_pm_template", "pm_role.j2"))
    pm = template(name, setting=f"the {state.rules.ruleset} ruleset's [reveal] role_pm_template",
                  overrides=templates)
    return {
        player: render(pm, title=title, pm=role_pm(state, player, variants)).strip() + "\n"
        for player in state.players
    }
