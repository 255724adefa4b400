"""Orders and PM votes read in a player's private message to the GM, in the order parser's
syntax and with its checks.

Players write "I'd like to protect Kat tonight", "kill: Jd-", "Night action: investigate
Conia", "I want to use my roleblock on X", "vote Y". A message is read sentence by
sentence: each word of an ability (its name, aliases and noun in the ruleset, in the forms
players write them: "protecting", "my protection") or of a vote starts a reading; the
words after it are the target, read the way `assistant order` reads a typed line (the
longest run of words that names players, through `engine.orders.parse_order`), then
checked against the rules and the game's state at the night it is for (`check_order`).

Each reading says how sure it is. A misspelt name read by the vote counter's loose
matcher, an ability word in the middle of a sentence ("I think Bob should kill Kat"), a
target named before the ability, an order with no ability named: each a doubt the GM sees,
and `--accept-all` leaves to the GM. A name two players fit, an ability the player lacks,
a dead target: refused, with the parser's reason. A message with no order at all is
read as that, never dropped. The general English is `order_phrases.py`; the words of the
abilities are the ruleset's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from assistant.count.votes import VoteRules
from assistant.engine.abilities.items import with_gifts
from assistant.engine.history import Replay
from assistant.engine.orders import (
    Order,
    check_order,
    choice_and_targets,
    order_slot,
    parse_order,
)
from assistant.engine.rules import AbilityDef, EngineRules
from assistant.engine.state import GameState
from assistant.errors import OrderError
from assistant.game import Game, Phase
from assistant.names import NameMatcher, Slot
from assistant.order_phrases import (
    CONNECTOR,
    FILLER_WORDS,
    LEAD_WORDS,
    SELF_WORDS,
    STOP,
    UNVOTE_WORDS,
    VOTE_WORDS,
    bare_word,
    inflections,
    is_lead,
    named_phases,
    negated,
)
from assistant.phases import phase_at

SURE_MATCHES = ("exact", "ignoring case and accents", "prefix", "substring")
"""How a name may be read and still be sure: as `assistant order` reads a typed name.
A close spelling, a name that sounds alike, initials: read, but as a doubt."""
MAX_TARGET_WORDS = 14
"""The most words after an ability's word tried as its target (and a claim)."""
TARGET_WORDS = ("target", "targets", "targeting")
"""A word that stands for the player's one ability when they name none ("target: Kat")."""
_NAMED = re.compile(r"\b(?:on\s+|for\s+)?(?:night|day|[nd])\s*\d{1,2}\b", re.IGNORECASE)
_REPLY = re.compile(r"^\s*(?:re|fwd?|aw|sv)\s*:", re.IGNORECASE)
_BOUNDARY = re.compile(r"[.!?;]+(?=\s|$)|\n")
_TRAILING = ".,!?;:)]}\"'"


@dataclass(frozen=True)
class Reading:
    """One order or vote read in a message, or that none was."""

    kind: str
    """"order", "vote", or "none" (nothing readable: the message is still listed)."""
    quote: str
    """The message's words it was read from."""
    line: str = ""
    """As the order parser writes it: "Conia: protect Kat"; a vote "Conia: vote Kat",
    "Conia: unvote"."""
    phase: str | None = None
    number: int | None = None
    order: Order | None = None
    target: str | None = None
    """A vote's target (a player, the ruleset's No Lynch or abstain word); None: an unvote."""
    doubts: tuple[str, ...] = ()
    """Why the GM should look before it is accepted (never by `--accept-all`)."""
    refusal: str | None = None
    """Why it cannot be accepted as read (the parser's or the rules' reason)."""
    slot: tuple[str, ...] | None = None
    """What it replaces: a later order of the same slot and phase (`order_slot`)."""
    per_phase: int = 1
    """How many orders of its ability a phase keeps (004's "Investigate 3")."""

    @property
    def usable(self) -> bool:
        return self.kind != "none" and self.refusal is None

    @property
    def sure(self) -> bool:
        return self.usable and not self.doubts

    @property
    def phase_label(self) -> str:
        return f"{self.phase} {self.number}" if self.phase else ""

    @property
    def names(self) -> tuple[str, ...]:
        """The players it names (the actor too)."""
        if self.order is not None:
            return (self.order.actor, *self.order.targets)
        return (self.line.split(":", 1)[0], *([self.target] if self.target else []))

    def same_as(self, other: Reading) -> bool:
        """The same order or vote (the same words to two GMs, or sent again)."""
        return (self.kind, self.line, self.phase, self.number) == (
            other.kind, other.line, other.phase, other.number) and self.kind != "none"

    def doubted(self, why: str) -> Reading:
        return replace(self, doubts=(*self.doubts, why)) if self.usable else self


@dataclass(frozen=True)
class Lexicon:
    """The words of a ruleset's abilities and of votes, found in a message by one regex."""

    pattern: re.Pattern[str]
    abilities: Mapping[str, tuple[AbilityDef, ...]]
    """A word (lowercased, spaces single) -> the abilities of the ruleset it names."""
    votes: frozenset[str]
    unvotes: frozenset[str]
    abstains: frozenset[str]
    targets: frozenset[str]


def words_of(ability: AbilityDef) -> set[str]:
    """The words that name an ability: its name, aliases and noun, in their usual forms."""
    out: set[str] = set()
    for w in (ability.name, *ability.aliases, str(ability.params.get("noun", ""))):
        out.update(inflections(" ".join(w.split())))
    out.discard("")
    return out


def lexicon(rules: EngineRules, vrules: VoteRules) -> Lexicon:
    abilities: dict[str, list[AbilityDef]] = {}
    pools = [r.abilities for r in rules.roles.values()]
    pools += [s.abilities for s in rules.sides.values()]
    pools += [i.abilities for i in rules.items.values()]
    for pool in pools:
        for ab in pool.values():
            for w in words_of(ab):
                if ab not in abilities.setdefault(w, []):
                    abilities[w].append(ab)
    votes = frozenset(VOTE_WORDS)
    unvotes = frozenset(UNVOTE_WORDS)
    abstains = frozenset(" ".join(w.lower().split()) for w in vrules.abstain_words
                         if vrules.abstain)
    targets = frozenset(TARGET_WORDS)
    phrases = sorted({*abilities, *votes, *unvotes, *abstains, *targets}, key=len, reverse=True)
    body = "|".join(r"\s+".join(re.escape(p) for p in phrase.split()) for phrase in phrases)
    pattern = re.compile(rf"(?<![\w-])(?:{body})(?![\w])", re.IGNORECASE)
    return Lexicon(pattern, {k: tuple(v) for k, v in abilities.items()}, votes, unvotes,
                   abstains, targets)


@dataclass
class ReadingContext:
    """What reading a game's messages needs, built once for all of them."""

    rules: EngineRules
    game: Game
    vrules: VoteRules
    replay: Replay | None
    """None when the game has no setup yet (`no_setup` says so): votes are still read."""
    no_setup: str | None
    phases: Sequence[Phase]
    aliases: Mapping[str, Sequence[str]]
    """Each engine player's other names (the players file's)."""
    pm_votes: bool
    """The ruleset takes votes by PM (004)."""
    ruleset_votes: str = ""
    """What the ruleset counts instead, for a vote by PM it does not take."""
    lex: Lexicon = field(init=False)
    side_words: frozenset[str] = field(init=False)
    """Sides' and roles' names, which may lead an order ("Mafia kill: Bob")."""
    _names: list[str] = field(init=False)
    _slot_matcher: NameMatcher = field(init=False)
    _loose: NameMatcher = field(init=False)
    _states: dict[tuple[str, int], GameState | str] = field(default_factory=dict)
    _actors: dict[str, str | None] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.lex = lexicon(self.rules, self.vrules)
        # "Mafia kill: Bob", "Doctor, protect Kat": a side's or a role's name may lead.
        self.side_words = frozenset(
            bare_word(w) for s in self.rules.sides.values()
            for w in (s.key, *s.title.split(), *s.key.split("-"))) | frozenset(
            bare_word(w) for r in self.rules.roles.values()
            for w in (*r.key.split("-"), *r.title.split()))
        self._names = list(self.replay.state.players) if self.replay else []
        self._slot_matcher = self.game.matcher(self.vrules.close_spelling)
        self._loose = NameMatcher(
            [Slot(n, tuple(self.aliases.get(n, ()))) for n in self._names], close_spelling=0.8)

    # ---- who and when ------------------------------------------------------------------

    def actor(self, slot: str) -> str | None:
        """The engine's player of a game slot (the setup may spell it as the file does)."""
        if slot not in self._actors:
            found = None
            if self.replay is not None:
                if slot in self.replay.state.players:
                    found = slot
                else:
                    m = self._loose.match(slot, strict=True)
                    found = m.slot if m.ok else None
                    for name, others in self.aliases.items():
                        if found is None and slot in others:
                            found = name
            self._actors[slot] = found
        return self._actors[slot]

    def phase_for(self, ability_phase: str, when: datetime,
                  named: set[tuple[str | None, int]]) -> tuple[str, int]:
        """The phase an order sent at `when` is for: a night or day the message names, else
        the phase the game's clock is in (a night order sent by day: the coming night)."""
        kind = "day" if ability_phase == "day" else "night"
        current = phase_at(self.phases, when)
        if ability_phase == "any" and current is not None:
            kind = current.kind
        said = sorted(n for k, n in named if k == kind)
        if len(said) == 1:
            return kind, said[0]
        first_day = self.rules.first_phase == "day"
        if current is None:
            done = self.replay.state.nights_resolved if self.replay else 0
            return kind, (done + 1 if kind == "night" else max(1, done + first_day))
        if current.kind == kind:
            return kind, current.number
        if kind == "night":  # sent by day: the night after it
            return kind, current.number + (0 if first_day else 1)
        return kind, current.number + (1 if first_day else 0)

    def state_for(self, phase: str, number: int) -> GameState | str:
        """The state orders of the phase are checked against, or why none are taken."""
        key = (phase, number)
        if key not in self._states:
            rep = self.replay
            if rep is None:
                self._states[key] = str(self.no_setup)
            elif rep.won is not None:
                self._states[key] = f"{rep.won.text()}: the game is over; orders are no " \
                    "longer taken"
            elif rep.result(phase, number) is not None:
                self._states[key] = (f"{phase} {number} is already resolved; orders for it "
                                     "can no longer change it")
            else:
                self._states[key] = with_gifts(rep.state, rep.orders_for(phase, number))
        return self._states[key]

    # ---- a message ---------------------------------------------------------------------

    def read(self, player: str, text: str, subject: str, when: datetime) -> list[Reading]:
        """Every order and vote in one message of `player` (a slot), in the order written;
        one "none" reading when there is none."""
        lines = [ln for ln in text.splitlines() if ln.strip()]
        named = set()
        has_subject = bool(subject.strip()) and not _REPLY.match(subject)
        if has_subject:
            lines.insert(0, subject.strip())
        elif subject.strip():
            named = named_phases(subject)
        out: list[Reading] = []
        for i, line in enumerate(lines):
            found = list(self._read_line(player, line, when, named))
            if i == 0 and has_subject:  # a title: what it reads is kept only when usable
                found = [r for r in found if r.usable]
            if not found and named_phases(line):
                named = named_phases(line)  # "Night 2 actions:" over the lines below it
            for r in found:
                if not any(r.same_as(o) for o in out):
                    out.append(r)
        if not out:
            quote = " ".join(text.split())[:200] or subject
            only = self._bare_name(text)
            if only is not None:
                found = self._order(player, "target", f" {only}", [], when, named, quote, True)
                if found is not None and found[0].usable:
                    return [found[0]]
            return [Reading("none", quote, refusal="no order or vote read in it")]
        return out

    def _bare_name(self, text: str) -> str | None:
        """The player a message names and nothing else ("Kat please"): the one target of
        a player with one ability, read as a doubt."""
        words = [w for w in text.split()
                 if bare_word(w) and bare_word(w) not in FILLER_WORDS | LEAD_WORDS]
        if not 1 <= len(words) <= 4:
            return None
        m = self._loose.match(" ".join(w.strip(_TRAILING + ",") for w in words), strict=True)
        return m.slot if m.ok else None

    def _names_in(self, text: str) -> set[str]:
        """The players named (as written, or ignoring case) in a piece of a sentence."""
        words = [w.strip(_TRAILING + ",") for w in text.split()]
        found = set()
        for i in range(len(words)):
            for j in range(i + 1, min(i + 4, len(words)) + 1):
                for matcher in (self._loose, self._slot_matcher):
                    m = matcher.match(" ".join(words[i:j]), strict=True)
                    if m.ok and bare_word(words[i]) not in SELF_WORDS | {"i", "my"}:
                        found.add(str(m.slot))
        return found

    def _read_line(self, player: str, line: str, when: datetime,
                   named: set[tuple[str | None, int]]) -> Iterable[Reading]:
        pos = 0
        while True:
            m = self.lex.pattern.search(line, pos)
            if m is None:
                return
            start = max(pos, _sentence_start(line, m.start()))
            before = line[start:m.start()].split()
            end = _sentence_end(line, m.end())
            if line[end:end + 1] == "?" or negated(before):
                pos = m.end()  # "Can I protect myself?", "I won't protect anyone"
                continue
            commanding = is_lead(before, self.side_words)
            phrase = " ".join(m.group(0).lower().split())
            rest = line[m.end():]
            quote = line[start:end + 1].strip()
            here = named | named_phases(" ".join(before))
            found = self._reading(player, phrase, rest, before, when, here, quote, commanding)
            if found is not None and found[0].kind == "order":
                tail = named_phases(line[m.end() + found[1]:end])
                if tail - here:  # "protect Kat on night 2": read again for that night
                    again = self._reading(player, phrase, rest, before, when, here | tail,
                                          quote, commanding)
                    found = again if again is not None else found
            if found is None:
                pos = m.end()
                continue
            reading, used = found
            following = self.lex.pattern.search(line, m.end() + used, end)
            tail = line[m.end() + used:following.start() if following else end]
            left = _leftover(tail)
            if left and reading.usable:
                reading = reading.doubted(f"words after it were not read: {left!r}")
            others = self._names_in(tail) - set(reading.names)
            if others and reading.usable:
                reading = reading.doubted(
                    f"the sentence names {', '.join(sorted(others))} too: {quote!r}")
            if not commanding:
                if not reading.usable:
                    pos = m.end()
                    continue
                reading = reading.doubted(f"read from the middle of a sentence: {quote!r}")
            yield reading
            pos = m.end() + used

    def _reading(self, player: str, phrase: str, rest: str, before: list[str], when: datetime,
                 named: set[tuple[str | None, int]], quote: str,
                 commanding: bool) -> tuple[Reading, int] | None:
        lex = self.lex
        if phrase in lex.votes or phrase in lex.unvotes or phrase in lex.abstains:
            return self._vote(player, phrase, rest, when, quote, commanding)
        return self._order(player, phrase, rest, before, when, named, quote, commanding)

    # ---- votes -------------------------------------------------------------------------

    def _vote(self, player: str, phrase: str, rest: str, when: datetime, quote: str,
              commanding: bool) -> tuple[Reading, int] | None:
        vr = self.vrules
        used, target, doubts = 0, None, []
        line = f"{player}: unvote"
        if phrase in self.lex.abstains:
            target = vr.abstain_words[0]
        elif phrase in self.lex.votes:
            found = self._vote_target(rest)
            if isinstance(found, str):
                if not commanding:
                    return None
                said = _region(CONNECTOR.sub("", rest, count=1))
                return Reading("vote", quote, f"{player}: vote {said}".strip(),
                               refusal=found), 0
            target, used, doubts = found
        if target is not None:
            line = f"{player}: vote {target}"
        refusal = None
        if not self.pm_votes:
            if not commanding:
                return None
            refusal = (f"the ruleset ({self.game.ruleset}) does not take votes by PM: it counts "
                       f"{self.ruleset_votes or 'votes in the thread'}; a vote sent by PM is not "
                       "counted")
        reading = Reading("vote", quote, line, "day", None, target=target, doubts=tuple(doubts),
                          refusal=refusal)
        current = phase_at(self.phases, when)
        if current is not None:
            reading = replace(reading, number=current.number if current.kind == "day" else None)
            if current.kind != "day":
                reading = reading.doubted(
                    f"sent during {current.kind.capitalize()} {current.number}: a vote by PM "
                    "counts from when it was sent")
        return reading, used

    def _vote_target(self, rest: str) -> tuple[str, int, list[str]] | str:
        """(target, characters used, doubts), or why no target could be read."""
        vr = self.vrules
        lead = CONNECTOR.match(rest)
        skip = lead.end() if lead else 0
        words = list(re.finditer(r"\S+", rest[skip:]))
        for n in range(min(len(words), MAX_TARGET_WORDS), 0, -1):
            cut = rest[skip:skip + words[n - 1].end()].rstrip(_TRAILING).rstrip()
            cand, used = cut.strip(), skip + len(cut)
            if vr.no_lynch and vr.is_no_lynch(cand):
                return vr.no_lynch_words[0], used, []
            if vr.abstain and vr.is_abstain(cand):
                return vr.abstain_words[0], used, []
            m = self._slot_matcher.match(cand)
            if m.ok and m.how in SURE_MATCHES:
                return str(m.slot), used, []
        region = _region(rest[skip:])
        if not region:
            return "no one named after the vote"
        m = self._slot_matcher.match_vote(region)
        if m.ok:
            return str(m.slot), _end_of(rest, skip, region), [f"{m.describe()}"]
        return f"the target {m.describe()}; players: {', '.join(self.game.players)}"

    # ---- orders ------------------------------------------------------------------------

    def _ability(self, phrase: str, state: GameState,
                 actor: str) -> tuple[AbilityDef | None, str, bool]:
        """The ability a word names for this actor (their own, then their side's), the
        word to give the parser, and whether it is theirs; another role's keeps the word as
        written, so the parser's refusal names it."""
        own = state.abilities_of(actor)
        side = self.rules.side(state.players[actor].side).abilities
        for pool in (own, side):
            for ab in pool.values():
                if phrase in words_of(ab):
                    return ab, ab.name, True
        found = self.lex.abilities.get(phrase, ())
        return (found[0] if found else None), phrase, False

    def _only_ability(self, state: GameState, actor: str, kind: str) -> AbilityDef | None:
        """The one ability the actor may order in this kind of phase, if one."""
        own = [a for a in state.abilities_of(actor).values()
               if a.phase in (kind, "any") and not a.params.get("every_night")
               and not a.params.get("automatic")]
        side = [a for a in self.rules.side(state.players[actor].side).abilities.values()
                if a.phase in (kind, "any")]
        both = own + side
        return both[0] if len(both) == 1 else None

    def _order(self, player: str, phrase: str, rest: str, before: list[str], when: datetime,
               named: set[tuple[str | None, int]], quote: str,
               commanding: bool) -> tuple[Reading, int] | None:
        actor = self.actor(player)
        if self.replay is None or actor is None:
            if not commanding or phrase in self.lex.targets:
                return None
            why = self.no_setup if self.replay is None else (
                f"{player} is not a player of the game's setup (`assistant roles`)")
            return Reading("order", quote, refusal=why), 0
        base = self.replay.state
        doubts: list[str] = []
        if phrase in self.lex.targets:
            current = phase_at(self.phases, when)
            only = self._only_ability(base, actor, current.kind if current else "night")
            if only is None:
                return None
            ability, word, own = only, only.name, True
            doubts.append(f"no ability named: {only.name}, the one {actor} has")
        else:
            ability, word, own = self._ability(phrase, base, actor)
        kind_phase = ability.phase if ability is not None else "night"
        phase, number = self.phase_for(kind_phase, when, named)
        state = self.state_for(phase, number)
        if isinstance(state, str):
            if not commanding:
                return None
            return Reading("order", quote, f"{actor}: {word}", phase, number, refusal=state), 0
        reading, used = self._parse(actor, word, rest, before, state, phase, number, quote)
        if reading is None:
            return None
        for d in doubts:
            reading = reading.doubted(d)
        if reading.refusal is not None and not commanding:
            return None
        if reading.refusal is not None and not own and not reading.order:
            # Another role's word whose target names nobody: chatter ("check back later").
            if not self._names_someone(rest):
                return None
        return reading, used

    def _names_someone(self, rest: str) -> bool:
        region = _region(CONNECTOR.sub("", rest, count=1))
        return bool(region) and self._loose.match(region).ok

    def _parse(self, actor: str, word: str, rest: str, before: list[str], state: GameState,
               phase: str, number: int, quote: str) -> tuple[Reading | None, int]:
        """The longest run of words after the ability's that the order parser takes (the
        target, and a claim or a choice where the ability asks for one); else a misspelt
        name read loosely (a doubt); else a target named before the ability (a doubt);
        else the parser's refusal."""
        lead = CONNECTOR.match(rest)
        skip = lead.end() if lead else 0
        words = list(re.finditer(r"\S+", rest[skip:]))
        first_error: str | None = None
        for n in range(min(len(words), MAX_TARGET_WORDS), 0, -1):
            cut = rest[skip:skip + words[n - 1].end()].rstrip(_TRAILING).rstrip()
            cand = cut.strip()
            if not cand:
                continue
            cand = " ".join(actor if bare_word(w) in SELF_WORDS else w for w in cand.split(" "))
            order, error = self._try(f"{actor}: {word} {cand}", state, phase, number)
            if order is not None:
                return self._checked(order, state, quote), skip + len(cut)
            first_error = first_error or error
        region = _region(rest[skip:])
        if region:
            loose = self._loose_targets(region)
            if loose is not None:
                names, why = loose
                order, _error = self._try(f"{actor}: {word} {' and '.join(names)}", state,
                                          phase, number)
                if order is not None:
                    r = self._checked(order, state, quote)
                    for w in why:
                        r = r.doubted(w)
                    return r, _end_of(rest, skip, region)
            _order, region_error = self._try(f"{actor}: {word} {region}", state, phase, number)
            first_error = region_error or first_error
        bare, error = self._try(f"{actor}: {word}", state, phase, number)
        if bare is not None and bare.self_only:
            return self._checked(bare, state, quote), 0
        named_before = self._named_in(before) if bare is not None else None
        if named_before is not None:
            order, _error = self._try(f"{actor}: {word} {named_before}", state, phase, number)
            if order is not None:
                r = self._checked(order, state, quote).doubted(
                    f"the target ({named_before}) is named before the ability")
                return r, 0
        if bare is not None and not region:
            return self._checked(bare, state, quote), 0
        return Reading("order", quote, f"{actor}: {word} {region}".strip(), phase, number,
                       refusal=first_error or error), _end_of(rest, skip, region)

    def _try(self, line: str, state: GameState, phase: str,
             number: int) -> tuple[Order | None, str | None]:
        try:
            return parse_order(line, state, phase=phase, number=number,
                               aliases=self.aliases), None
        except OrderError as e:
            return None, str(e)

    def _checked(self, order: Order, state: GameState, quote: str) -> Reading:
        """The parsed order checked against the rules; its line as the parser echoes it."""
        line = f"{order.actor}: {order.ability}{choice_and_targets(order, order.targets)}"
        order = replace(order, text=line)
        try:
            ability = check_order(order, state)
        except OrderError as e:
            return Reading("order", quote, line, order.phase, order.number, order,
                           refusal=str(e))
        return Reading("order", quote, line, order.phase, order.number, order,
                       slot=order_slot(order, ability),
                       per_phase=int(ability.params.get("per_phase", 1)))

    def _loose_targets(self, region: str) -> tuple[list[str], list[str]] | None:
        """The players a misspelt target names, read as the vote counter reads a vote's
        name (close spellings, sounds alike); with why each is a doubt."""
        pieces = [p.strip() for p in re.split(r"\s*(?:,|&|\+|\band\b)\s*", region,
                                              flags=re.IGNORECASE) if p.strip()]
        names, why = [], []
        for p in pieces:
            m = self._loose.match_vote(p)
            if not m.ok:
                return None
            names.append(str(m.slot))
            if m.how not in SURE_MATCHES:
                why.append(m.describe())
        return (names, why) if names else None

    def _named_in(self, words: list[str]) -> str | None:
        """The one player named (as written, or ignoring case) among the words before an
        ability ("Kat gets my protection")."""
        bare = " ".join(w.strip(_TRAILING + ",") for w in words)
        found = {n for n in self._names_in(bare) if n in self._names}
        return found.pop() if len(found) == 1 else None


def _sentence_start(line: str, at: int) -> int:
    start = 0
    for m in _BOUNDARY.finditer(line, 0, at):
        start = m.end()
    return start


def _sentence_end(line: str, at: int) -> int:
    m = _BOUNDARY.search(line, at)
    return m.start() if m else len(line)


def _end_of(rest: str, skip: int, region: str) -> int:
    """Where `region` (read from `rest[skip:]`) ends in `rest`."""
    at = rest.find(region, skip) if region else -1
    return skip if at < 0 else at + len(region)


def _region(text: str) -> str:
    """A target's words: up to the sentence's end or a comment (`STOP`)."""
    m = STOP.search(text)
    return (text[: m.start()] if m else text).strip().rstrip(_TRAILING).strip()


def _leftover(tail: str) -> str:
    """The words right after a reading's target, before a comma or a comment, that are no
    night named, connector or filler: a target read short ("lady" of "lady bug")."""
    text = tail.split(",", 1)[0]
    if STOP.match(text.lstrip()):
        return ""
    text = _region(_NAMED.sub(" ", text))
    words = [w for w in text.split() if bare_word(w) not in FILLER_WORDS
             and not CONNECTOR.fullmatch(w)]
    return " ".join(words)
