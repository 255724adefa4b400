"""Night and day orders: parse the GM's text, check it against the rules and the state.

`"Conia: protect Jd-"` names an actor, an ability word and targets. The actor may be a
side ("Mafia: kill Bob by Carol" — Carol carries the kill), or a player whose name holds a
colon ("Re: Zero: protect Kat", or quoted: `"Re: Zero": protect Kat`). Three errors, as in
python-chess: malformed (not an order / unknown name or ability), illegal (the rules
forbid it), ambiguous (a name that fits several players).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from assistant.engine.claims import find_verb, parse_claim, split_claim
from assistant.engine.rules import AbilityDef, EngineRules, phase_index
from assistant.engine.state import GameState
from assistant.errors import AmbiguousOrderError, IllegalOrderError, MalformedOrderError
from assistant.names import NameMatcher, Slot

# Between targets ("Bob, Carol", "Bob & Carol", "Bob and Carol"); the group keeps each
# separator so a name that contains one ("Tom & Jerry's") can be put back together.
_SPLIT_TARGETS = re.compile(r"(\s*(?:,|\+|&|\band\b|\bwith\b)\s*)", re.IGNORECASE)
# How sure a match is: a name as written (or ignoring case and accents) beats a prefix or a
# substring, so "Tom & Jerry's" is one player, not "Tom" and "Jerry's" matched loosely twice.
_SURE = {"exact", "ignoring case and accents"}
_ORDER_RE = re.compile(r"^\s*(?P<actor>[^:]+?)\s*:\s*(?P<rest>.+?)\s*$")
# A quoted actor: "Re: Zero": protect Kat (straight or curly quotes, double or single).
_QUOTED_ACTOR = re.compile(
    r"""^\s*(?P<q>["'\u201c\u2018])(?P<actor>.+?)["'\u201d\u2019]\s*:\s*(?P<rest>.+?)\s*$""")


class Cut(NamedTuple):
    """An order line cut at its actor's colon; `quoted` when the actor was in quotes."""

    actor: str
    rest: str
    quoted: bool = False


def split_actor(
    text: str,
    names: Sequence[str],
    sides: Mapping[str, str] = {},  # noqa: B006 - read only
    *,
    aliases: Mapping[str, Sequence[str]] | None = None,
) -> Cut | None:
    """(who acts, the rest) of an order line "Actor: ability targets"; None when it has no
    colon. The actor is written before a colon, but any name a players file accepts may
    hold colons itself ("Re: Zero: protect Kat"): it is written quoted, or as it is, and
    then of the colons the one after the longest text that names a player (or a side,
    `sides`: key -> title) as written, ignoring case and accents, ends it; with none such,
    the first colon does (the name is then refused as unknown, with the players)."""
    quoted = _QUOTED_ACTOR.match(text)
    if quoted:
        return Cut(quoted.group("actor").strip(), quoted.group("rest"), quoted=True)
    cuts = [(text[:i].strip(), text[i + 1:].strip()) for i, ch in enumerate(text) if ch == ":"]
    cuts = [(actor, rest) for actor, rest in cuts if actor and rest]
    if len(cuts) <= 1:
        m = _ORDER_RE.match(text)
        return Cut(m.group("actor"), m.group("rest")) if m else None
    side_words = {w.lower() for k, title in sides.items() for w in (k, title)}
    others = aliases or {}
    matcher = NameMatcher([Slot(n, tuple(others.get(n, ()))) for n in names], close_spelling=0)

    def named(actor: str) -> bool:
        if actor.lower() in side_words:
            return True
        m = matcher.match(actor)
        return m.ok and m.how in _SURE

    sure = [cut for cut in cuts if named(cut[0])]
    return Cut(*max(sure, key=lambda cut: len(cut[0])) if sure else cuts[0])


_BY = re.compile(r"(?<=\s)by(?=\s)", re.IGNORECASE)


def split_performer(
    rest: str, names: Sequence[str], *, aliases: Mapping[str, Sequence[str]] | None = None
) -> tuple[str, str | None]:
    """(the order, who carries it out) of "kill Bob by Carol"; None without "by". A name
    may hold " by " itself ("Stand by Me"): the "by" taken is the first whose rest names a
    player as written; with none such, a target's name ending the line keeps its "by";
    else the first "by" is, as before (its name then read loosely, or refused)."""
    cuts = [(rest[:m.start()].rstrip(), rest[m.end():].strip()) for m in _BY.finditer(rest)]
    cuts = [(order, who) for order, who in cuts if order and who]
    if not cuts:
        return rest, None
    others = aliases or {}
    matcher = NameMatcher([Slot(n, tuple(others.get(n, ()))) for n in names], close_spelling=0)
    for order, who in cuts:
        m = matcher.match(who)
        if m.ok and m.how in _SURE:
            return order, who
    low = rest.casefold()
    if any(_BY.search(n) and low.endswith(n.casefold()) for n in names):
        return rest, None
    return cuts[0]


def side_of_actor(actor: str, rules: EngineRules, names: Sequence[str], *, quoted: bool = False,
                  ability: str | None = None) -> str | None:
    """The side an order's actor names ("Mafia: kill Bob"), None for a player. A member
    may be called like a side (a players file accepts "Mafia"): quoted ('"Mafia": check
    Bob'), or with an ability only that player has, the actor is the player."""
    side = next((k for k, s in rules.sides.items()
                 if actor.lower() in {k.lower(), s.title.lower()}), None)
    if side is None or not any(n.casefold() == actor.casefold() for n in names):
        return side
    if quoted:
        return None
    if ability is not None and _find_ability(ability, dict(rules.side(side).abilities)) is None:
        return None
    return side


@dataclass(frozen=True)
class Order:
    """One order as entered: who does what to whom, in which phase."""

    actor: str
    """The player who acts (for a side order: the member who carries it out)."""
    ability: str
    """The ability's name in the ruleset."""
    targets: tuple[str, ...]
    phase: str
    """"night" or "day"."""
    number: int
    """Night or day number."""
    side: str | None = None
    """The side whose ability this is (the mafia kill), None for a role ability."""
    text: str = ""
    """What the GM typed."""
    choice: str | None = None
    """A word the ability asks for besides players (the Forger's "Town" / "Mafia")."""
    self_only: bool = False
    """The ability names nobody (targets = 0): the actor stands in as its place."""
    after: str = ""
    """How the choice follows the targets ("" when it comes first): " " for a claim
    ("investigate Jd- heals Parkur"), " as " for a guessed role ("APTX Pofa as satou")."""

    def label(self) -> str:
        """"Actor: ability targets" ("Ex: give stun-orb Op"); a self action with no target
        named ("Vet: hold fire") is echoed as typed, not as a target of oneself."""
        who = f"{self.actor} ({self.side})" if self.side else self.actor
        return f"{who}: {self.ability}{choice_and_targets(self, self.targets)}"

    def to_dict(self) -> dict[str, object]:
        return {
            "actor": self.actor,
            "ability": self.ability,
            "targets": list(self.targets),
            "phase": self.phase,
            "number": self.number,
            "side": self.side,
            "text": self.text,
            "choice": self.choice,
            "self_only": self.self_only,
            "after": self.after,
        }

    @classmethod
    def from_dict(cls, d: dict[str, object]) -> Order:
        return cls(
            str(d["actor"]),
            str(d["ability"]),
            tuple(d["targets"]),  # type: ignore[arg-type]
            str(d["phase"]),
            int(d["number"]),
            d.get("side"),
            str(d.get("text", "")),  # type: ignore[arg-type]
            d.get("choice"),  # type: ignore[arg-type]
            bool(d.get("self_only", False)),
            str(d.get("after", "")),
        )


def choice_and_targets(order: Order, targets: Sequence[str]) -> str:
    """" stun-orb Op", " Jd- heals Parkur", " Pofa as satou": what follows the ability word."""
    shown = () if tuple(targets) == (order.actor,) and order.self_only else tuple(targets)
    tail = f" {' and '.join(shown)}" if shown else ""
    if order.choice and order.after:
        return f"{tail}{order.after}{order.choice}"
    pick = f" {order.choice}" if order.choice else ""
    return f"{pick}{tail}"


def match_player(
    text: str,
    names: list[str],
    *,
    order: str,
    aliases: Mapping[str, Sequence[str]] | None = None,
) -> str:
    """The one player `text` names, the way the vote counter reads names (assistant/names.py):
    exact, ignoring case and accents, the game's aliases, a unique prefix, a unique substring.
    A name that fits several players is refused with them all (never the first one found);
    a close spelling is not guessed: a night action on the wrong player is worse than asking."""
    if not text.strip():
        raise MalformedOrderError(f"{order!r}: a player name is missing")
    others = aliases or {}
    matcher = NameMatcher([Slot(n, tuple(others.get(n, ()))) for n in names], close_spelling=0)
    m = matcher.match(text)
    if m.ok:
        return m.slot  # type: ignore[return-value]
    if m.how == "ambiguous":
        raise AmbiguousOrderError(
            f"{order!r}: {text!r} could be {', '.join(m.candidates)}; write more of the name"
        )
    near = f" (closest: {', '.join(m.candidates)})" if m.candidates else ""
    raise MalformedOrderError(
        f"{order!r}: no player called {text!r}{near}; players are: {', '.join(names)}"
    )


def split_targets(
    text: str,
    names: list[str],
    *,
    order: str,
    aliases: Mapping[str, Sequence[str]] | None = None,
) -> tuple[str, ...]:
    """The players a target list names ("Bob and Carol", "Tom & Jerry's, Kat").

    `,` `+` `&` "and" "with" separate targets, but a player's name may hold one (the real
    "Tom & Jerry's"): of the ways to cut the text at separators, the one whose pieces all
    name players is taken, preferring names matched as written over prefixes and
    substrings, then fewer pieces. When no cut works, the first piece that names nobody is
    reported as `match_player` reports it."""
    if not text.strip():
        return ()
    parts = _SPLIT_TARGETS.split(text)
    pieces, seps = parts[0::2], parts[1::2]
    others = aliases or {}
    matcher = NameMatcher([Slot(n, tuple(others.get(n, ()))) for n in names], close_spelling=0)
    # best[i]: (loose matches, pieces, players) for pieces[i:]; None: they cannot be cut
    best: list[tuple[int, int, tuple[str, ...]] | None] = [None] * len(pieces) + [(0, 0, ())]
    for i in range(len(pieces) - 1, -1, -1):
        for j in range(i, len(pieces)):
            rest = best[j + 1]
            if rest is None:
                continue
            chunk = "".join(p + s for p, s in zip(pieces[i:j], seps[i:j], strict=True))
            chunk = (chunk + pieces[j]).strip()
            if not chunk:  # "Bob, , Carol" or a trailing "and": nothing to name
                if i == j:
                    best[i] = rest if best[i] is None else min(best[i], rest)  # type: ignore[type-var]
                continue
            m = matcher.match(chunk)
            if m.ok and m.slot is not None:
                found = (rest[0] + (m.how not in _SURE), rest[1] + 1, (m.slot, *rest[2]))
                best[i] = found if best[i] is None else min(best[i], found)  # type: ignore[type-var]
    if best[0] is not None:
        return best[0][2]
    return tuple(match_player(p, names, order=order, aliases=aliases) for p in pieces if p.strip())


def _find_ability(words: str, abilities: dict[str, AbilityDef]) -> tuple[AbilityDef, str] | None:
    """The ability whose name or alias the text starts with (longest match), and the rest."""
    low = words.lower()
    best: tuple[AbilityDef, str] | None = None
    best_len = -1
    for ab in abilities.values():
        for w in (ab.name, *ab.aliases):
            w = w.lower()
            if (low == w or low.startswith(w + " ")) and len(w) > best_len:
                best, best_len = (ab, words[len(w) :].strip()), len(w)
    return best


def parse_order(
    text: str,
    state: GameState,
    *,
    phase: str,
    number: int,
    aliases: Mapping[str, Sequence[str]] | None = None,
) -> Order:
    """Turn the GM's line into an Order naming real players and a real ability. `aliases`:
    each player's other names (the game's players file), so "Slayer" names xX_Slayer_Xx."""
    rules = state.rules
    names = list(state.players)
    cut = split_actor(text, names, {k: s.title for k, s in rules.sides.items()},
                      aliases=aliases)
    if cut is None:
        raise MalformedOrderError(
            f'{text!r} is not an order; write "Actor: ability target", e.g. "Conia: protect Jd-"'
        )
    actor_text, rest, quoted = cut
    rest, performer_text = split_performer(rest, names, aliases=aliases)
    side_key = side_of_actor(actor_text, rules, names, quoted=quoted, ability=rest)
    if side_key is not None:
        actor = None
        side_abilities = dict(rules.side(side_key).abilities)
        found = _find_ability(rest, side_abilities)
        if found is None:
            raise MalformedOrderError(
                f"{text!r}: the {rules.side(side_key).title} have no ability "
                f"{rest.split()[0]!r}; they have: {', '.join(side_abilities) or 'none'}"
            )
    else:
        actor = match_player(actor_text, names, order=text, aliases=aliases)
        own = state.abilities_of(actor)
        side_abilities = dict(rules.side(state.players[actor].side).abilities)
        found = _find_ability(rest, own)
        if found is None and (found := _find_ability(rest, side_abilities)) is not None:
            side_key = state.players[actor].side
        if found is None:
            have = sorted({*own, *side_abilities})
            raise MalformedOrderError(
                f"{text!r}: {actor} ({state.role_title(actor)}) has no ability "
                f"{rest.split()[0]!r}; they have: {', '.join(have) or 'none'}"
            )
    ability, target_text = found
    if side_key is not None:
        if performer_text:
            actor = match_player(performer_text, names, order=text, aliases=aliases)
        if actor is None:
            actor = default_performer(state, side_key)
            if actor is None:
                raise IllegalOrderError(f"{text!r}: no living member of the {side_key} is left")
    assert actor is not None
    choice = None
    choices = ability.params.get("choices")
    if choices == "free":
        # 000 Holoform: "choose a role and race to show as": the words are the choice.
        choice, target_text = target_text.strip() or None, ""
        if choice is None:
            raise MalformedOrderError(f"{text!r}: {ability.name} needs what to show, e.g. "
                                      f'"{actor}: {ability.name} Human, Townie"')
    elif choices == "held_items":
        # 000: "Alien Tech can be passed between players": "Al: give stun-orb to Bob".
        held = state.players[actor].items
        found_item = _held_item(target_text, held, state)
        if found_item is None:
            raise MalformedOrderError(
                f"{text!r}: {actor} holds no such item; they hold: {', '.join(held) or 'none'}"
            )
        choice, target_text = found_item
        if ability.params.get("alternates"):
            # 004: "He can also choose a substitute in case that player is killed/arrested"
            # ("Boss: give black-suitcase to Xpon or Gin"): the others named, in order.
            target_text = re.sub(r"\s+or\s+", ", ", target_text, flags=re.IGNORECASE)
    elif choices == "buildable":
        # 000 building: "Ms: build mind-shield-tech", "Al: replicate Stun Orb".
        can = buildable(state, actor, ability)
        found_item = _held_item(target_text, can, state)
        if found_item is None:
            raise MalformedOrderError(
                f"{text!r}: {actor} cannot build {target_text.strip() or 'nothing'!r} with "
                f"{ability.name}; now it makes: {', '.join(can) or 'nothing more'}"
            )
        choice, target_text = found_item
    elif choices == "claim" and ability.params.get("claim_optional") and not find_verb(
        target_text, rules
    ):
        pass  # 004 Arrest with no crime named: entered as the GM says, not checked
    elif choices == "claim":
        # 004: "Investigate Jd- heals Parkur", "Arrest Abs for killing Kleene on Night 1":
        # the first player is the target, the rest what they are said to have done.
        subject_text, claim_text = split_claim(target_text, rules, order=text)
        subject = match_player(subject_text, names, order=text, aliases=aliases)
        claim = parse_claim(
            claim_text, rules,
            lambda t: split_targets(t, names, order=text, aliases=aliases), order=text,
        )
        choice, target_text = claim.rest(), ""
        targets_found: tuple[str, ...] | None = (subject,)
    elif choices == "roles":
        # 004 Re-choose Disguise: "Yuk: re-choose disguise Megure, Araide and Ran".
        parts = [x for x in re.split(r"\s*(?:,|&|\+|\band\b)\s*", target_text,
                                     flags=re.IGNORECASE) if x.strip()]
        keys = [role_key(x, rules, order=text) for x in parts]
        want = ability.params.get("count")
        if not keys or (want is not None and len(set(keys)) != int(want)):
            raise MalformedOrderError(
                f"{text!r}: {ability.name} names {want or 'some'} different roles, e.g. "
                f'"{actor}: {ability.name} Megure, Araide and Ran"'
            )
        choice, target_text = ", ".join(keys), ""
    elif choices in ("role", "role_guess"):
        # 004 Detect ("Detect Shinichi"); APTX and Identify ("APTX Pofa as Satou").
        role_text = target_text
        if choices == "role_guess":
            parts = re.split(r"\s+(?:as|is|=)\s+", target_text, maxsplit=1, flags=re.IGNORECASE)
            if len(parts) != 2:
                raise MalformedOrderError(
                    f'{text!r}: {ability.name} names a player and a role, e.g. "Pofa as Satou"'
                )
            target_text, role_text = parts
        choice = rules.role(role_key(role_text, rules, order=text)).title.split(",")[0]
        if choices == "role":
            target_text = ""
    elif choices:
        word, _, target_text = target_text.partition(" ")
        choice = next((c for c in choices if c.lower() == word.lower()), None)
        if choice is None:
            raise MalformedOrderError(
                f"{text!r}: {ability.name} needs one of {', '.join(choices)} first"
            )
    if choices == "claim" and choice is not None:
        targets = targets_found or ()
    else:
        targets = split_targets(target_text, names, order=text, aliases=aliases)
    if ability.targets == 0 and not targets:
        targets = (actor,)  # a self action (the Monk's Hamedo): its place can still be redirected
    return Order(
        actor,
        ability.name,
        targets,
        phase,
        number,
        side_key,
        text.strip(),
        choice,
        self_only=ability.targets == 0,
        after=(
            {"claim": str(ability.params.get("claim_joiner", " ")), "role_guess": " as "}.get(
                str(choices), ""
            )
            if choice
            else ""
        ),
    )


def buildable(state: GameState, actor: str, ability: AbilityDef) -> list[str]:
    """The items `ability` (kind "build") can make now: those of `makes` (the Mad Scientist's
    shields, more tracking devices of one who has them) and, with `sizes`, every item of
    those sizes whose `cost` fits what is left of the `budget` (the Replicator)."""
    params = ability.params
    held = state.players[actor].items
    out = [
        k for k in params.get("makes", {})
        if k in state.rules.items and (k not in params.get("adds_use", {}) or k in held)
    ]
    sizes = params.get("sizes")
    if sizes:
        left = int(params.get("budget", 0)) - state.players[actor].used.get(f"{ability.name}$", 0)
        cost = params.get("cost", {})
        out += [
            k for k, item in state.rules.items.items()
            if item.size in sizes and int(cost.get(item.size, 1)) <= left and k not in out
        ]
    return out


def role_key(text: str, rules: EngineRules, *, order: str) -> str:
    """The role `text` names: its key, its title, or the title's name before the comma
    ("Satou" for "Satou, Assistant Police Inspector")."""
    want = " ".join(text.split()).lower()
    for key, role in rules.roles.items():
        if want in {key.lower(), role.title.lower(), role.title.split(",")[0].strip().lower()}:
            return key
    raise MalformedOrderError(f"{order!r}: no role called {text.strip()!r} in {rules.ruleset}")


def _held_item(text: str, held: list[str], state: GameState) -> tuple[str, str] | None:
    """The held item `text` starts with (its key or title, longest first), and the rest
    without a leading "to"."""
    low = text.lower()
    best: tuple[str, str] | None = None
    best_len = -1
    for key in held:
        item = state.rules.items.get(key)
        for word in (key, item.title if item else key):
            w = word.lower()
            if (low == w or low.startswith(w + " ")) and len(w) > best_len:
                rest = text[len(w):].strip()
                rest = rest[3:].strip() if rest.lower().startswith("to ") else rest
                best, best_len = (key, rest), len(w)
    return best


def _phase_name(state: GameState, index: int) -> str:
    """"on night 3" for a phase index (rules.phase_index)."""
    first = state.rules.first_phase
    other = "day" if first == "night" else "night"
    return f"on {first} {(index + 1) // 2}" if index % 2 else f"on {other} {index // 2}"


def default_performer(state: GameState, side: str) -> str | None:
    """Who carries out a side's action when the GM names nobody: its leader, else the first."""
    members = [m for m in state.side_members(side) if not state.passive(m, "lone")]
    leaders = [m for m in members if state.passive(m, "leader")]
    return (leaders or members or [None])[0]


def ability_of(state: GameState, order: Order) -> AbilityDef:
    if order.side is not None:
        return state.rules.side(order.side).abilities[order.ability]
    return state.abilities_of(order.actor)[order.ability]


def order_slot(order: Order, ability: AbilityDef) -> tuple[str, ...]:
    """Which of a night's orders a later one replaces: the actor's role slot (an ability's
    `slot`, "role" by default), a side's one action a phase (the leader's), unless each
    member has their own (`each_member`, 004's APTX), or a group's (`group`, 004's
    Detective Boys). The resolver keeps the last order of each slot."""
    group = ability.params.get("group")
    if group:
        return ("group", str(group))
    if order.side and not ability.params.get("each_member"):
        return ("side", str(order.side))
    return (order.actor, str(ability.params.get("slot", "role")))


def check_order(order: Order, state: GameState) -> AbilityDef:
    """Raise IllegalOrderError when the rules forbid the order in this state; else its ability."""
    try:
        ability = ability_of(state, order)
    except KeyError:
        raise IllegalOrderError(
            f"{order.text or order.label()!r}: {order.actor} no longer has the ability "
            f"{order.ability!r} ({state.role_title(order.actor)})"
        ) from None
    who = state.players[order.actor]
    say = order.text or order.label()
    if ability.params.get("every_night"):
        raise IllegalOrderError(
            f"{say!r}: {ability.name} works by itself every night for whoever holds it"
        )
    if ability.params.get("automatic"):
        raise IllegalOrderError(
            f"{say!r}: {ability.name} happens by itself on the night the setup names "
            f"({ability.params['automatic']} = N)"
        )
    if ability.phase not in {order.phase, "any"}:
        raise IllegalOrderError(
            f"{say!r}: {ability.name} is used by {ability.phase}, not by {order.phase}"
        )
    after_death = ability.params.get("after_death", False)
    if not who.alive and not (after_death or ability.kind == "shoot"):
        raise IllegalOrderError(f"{say!r}: {order.actor} is dead; the dead give no orders")
    if who.alive and after_death:
        raise IllegalOrderError(f"{say!r}: {order.actor} gets {ability.name} only after dying")
    if order.side is not None and who.side != order.side:
        raise IllegalOrderError(f"{say!r}: {order.actor} is not one of the {order.side}")
    if order.side is not None and state.passive(order.actor, "lone"):
        # 000 Rogue Doppelganger: "does not know who the dopp team are".
        raise IllegalOrderError(
            f"{say!r}: {order.actor} ({state.role_title(order.actor)}) acts alone, not "
            f"with the {order.side}"
        )
    if order.phase == "night" and order.number < ability.first_night:
        raise IllegalOrderError(
            f"{say!r}: {ability.name} may not be used before night {ability.first_night}"
        )
    if (
        order.phase == "night"
        and ability.last_night is not None
        and order.number > ability.last_night
    ):
        raise IllegalOrderError(
            f"{say!r}: {ability.name} may only be used up to night {ability.last_night}"
        )
    left = state.uses_left(order.actor, ability)
    if left is not None and left <= 0:
        raise IllegalOrderError(f"{say!r}: {order.actor} has no use of {ability.name} left")
    if state.stock_left(order.actor, ability) == 0:
        raise IllegalOrderError(
            f"{say!r}: the {state.players[order.actor].side} have no {ability.name} left"
        )
    wait = ability.params.get("cooldown_phases")
    last = who.used.get(f"{ability.name}@phase")
    if wait is not None and last is not None:
        now = phase_index(state.rules, order.phase, order.number)
        if now - last <= int(wait):
            # 004 Abduct: "After 3 phases, he can use it again."
            raise IllegalOrderError(
                f"{say!r}: {ability.name} waits {wait} phases after each use; "
                f"{order.actor} may use it again {_phase_name(state, last + int(wait) + 1)}"
            )
    variant = ability.params.get("variant")
    if variant and variant not in (state.extra.get("variants") or ()):
        # 004 Spy, eliminated from the cards ("Bourbon made the same as Okiya, eliminating the
        # Spy ability"): played only where the setup says so.
        raise IllegalOrderError(
            f"{say!r}: {ability.name} is a variant of {state.rules.ruleset}; a game that plays "
            f'it says so in its setup: variants = ["{variant}"]'
        )
    waiting = [s.split("|", 1)[1] for s in who.statuses if s.startswith(f"waits:{ability.name}|")]
    if waiting:
        # 004 Spy: "The player can't use Spy again as long as the player with that
        # role/disguise isn't killed or arrested."
        raise IllegalOrderError(
            f"{say!r}: {order.actor} may use {ability.name} again once {waiting[0]} is killed "
            "or arrested"
        )
    few = ability.params.get("needs_others_alive")
    if few is not None:
        # 004 Spy: "Can't be used when there are less than 4 townspeople alive or if there
        # are less than BO+1 townsplayer alive."
        in_play = [p for p in state.living() if "arrested" not in p.statuses]
        others = sum(1 for p in in_play if p.side != who.side)
        own = sum(1 for p in in_play if p.side == who.side)
        over = int(ability.params.get("needs_others_over_own", 0))
        if others < int(few) or others < own + over:
            raise IllegalOrderError(
                f"{say!r}: {ability.name} needs {few} or more players of other sides in play "
                f"and {over} more than the {who.side} ({others} against {own})"
            )
    need = ability.params.get("needs_status")
    if need and need not in who.statuses:
        # 004 Analyze: "just available when Kogorou is sober".
        raise IllegalOrderError(f"{say!r}: {order.actor} may use {ability.name} only when {need}")
    if f"lost:{ability.name}" in who.statuses:
        # 004 House Search: "He won't be able to use House search for the rest of the game."
        raise IllegalOrderError(f"{say!r}: {order.actor} has lost {ability.name} for good")
    if ability.params.get("one_choice_per_target") and order.choice:
        # 004 Observe: "Cannot use both types of observe on the same person."
        for t in order.targets:
            before = sorted({k.rsplit(">", 1)[1] for k in who.used
                             if k.startswith(f"{ability.name}>{t}>")} - {order.choice})
            if before:
                raise IllegalOrderError(
                    f"{say!r}: {order.actor} used {ability.name} {before[0]} on {t} already, "
                    f"and may not use another kind of {ability.name} on the same person"
                )
    if ability.params.get("once_per_number") and who.used.get(f"{ability.name}#") == order.number:
        # 004 Pinch Face: "Once within every two phases ... (Night 1 or Day 1, then Night 2
        # or Day 2...)".
        raise IllegalOrderError(
            f"{say!r}: {order.actor} used {ability.name} on night or day {order.number} "
            "already; once each night and day of the same number"
        )
    rest = [int(s.rsplit(":", 1)[1]) for s in who.statuses
            if s.startswith(f"rests-until:{ability.name}:")]
    if rest and phase_index(state.rules, order.phase, order.number) <= max(rest):
        # 004 Lovey-Dovey: "the lovers lose this ability for 2 phases".
        raise IllegalOrderError(
            f"{say!r}: {order.actor} may not use {ability.name} again before "
            f"{_phase_name(state, max(rest) + 1)[3:]} (it saved the lover)"
        )
    if f"rests:{order.phase}{order.number}" in who.statuses:
        raise IllegalOrderError(
            f"{say!r}: {order.actor} may not use their power this {order.phase} "
            "(their protection stopped a kill last night)"
        )
    if ability.params.get("until_lovers") and state.lovers:
        raise IllegalOrderError(f"{say!r}: there are already lovers; {ability.name} is spent")
    most = int(ability.params.get("max_targets", ability.targets))
    if ability.params.get("alternates"):
        most = max(most, len(order.targets))  # the first, then its substitutes
    if ability.targets and not ability.targets <= len(order.targets) <= most:
        many = f"{ability.targets} to {most}" if most > ability.targets else ability.targets
        raise IllegalOrderError(
            f"{say!r}: {ability.name} names {many} player(s), not {len(order.targets)}"
        )
    sides = [state.players[t].side for t in order.targets]
    if ability.params.get("one_per_side") and len(set(sides)) != len(sides):
        # 004 Slander: "one Black Org, and one town. He may not slander two Black Org or
        # two town."
        raise IllegalOrderError(
            f"{say!r}: {ability.name} names at most one player of each side"
        )
    for t in order.targets:
        target = state.players[t]
        if ability.targets == 0:
            break
        if ability.target_state == "alive" and not target.alive:
            raise IllegalOrderError(f"{say!r}: {t} is dead; {ability.name} targets the living")
        if ability.target_state == "dead" and target.alive:
            raise IllegalOrderError(f"{say!r}: {t} is alive; {ability.name} targets the dead")
        if ability.not_self and t == order.actor:
            raise IllegalOrderError(
                f"{say!r}: {order.actor} may not target themselves with {ability.name}"
            )
        if ability.params.get("lover_only") and state.lover_of(order.actor) != t:
            # 004 Lovey-Dovey: "Can't use it on anyone else besides his/her lover".
            raise IllegalOrderError(
                f"{say!r}: {ability.name} is only for {order.actor}'s lover, not {t}"
            )
        if ability.not_own_side and target.side == who.side:
            raise IllegalOrderError(
                f"{say!r}: the {who.side} may not target one of their own ({t})"
            )
    if ability.no_repeat_target and order.phase == "night":
        last = who.last_targets.get(ability.name)
        if last is not None and last[0] == order.number - 1 and set(last[1]) & set(order.targets):
            raise IllegalOrderError(
                f"{say!r}: {order.actor} used {ability.name} on {', '.join(last[1])} last night "
                "and may not choose the same player two nights running"
            )
    return ability
