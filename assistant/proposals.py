"""The inbox's proposals: the orders and PM votes read in the players' messages to the GM
(`order_reading.py`), each with the message it came from, what it replaces, and what the
GM decided.

Proposals are derived, never stored: from the kept messages (`inbox_pm`), the game's
facts and the ruleset. What the GM decides is a fact: an accepted proposal is the same
`order` or `vote` fact a typed one is, with where it came from (`"source": "inbox"`, the
message's id, the proposal's id); a rejected one an `inbox_reject` fact. So a proposal
is open, accepted, rejected, entered already (the same order typed), or replaced (a later
message of the same player orders the same slot of the same night).

A proposal's id is its message's id ("12"), and "12.2" for the second order read in it.
The same order sent to two co-moderators (two messages, one to each GM's inbox) is one
proposal naming both messages; so is the same order sent again.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from assistant.checks.text import post_text
from assistant.count.votes import VoteRules
from assistant.engine.history import ORDER
from assistant.engine.orders import Order, ability_of, parse_order
from assistant.errors import ConfigError, OrderError, ProposalError
from assistant.game import Game
from assistant.inbox import InboxMessage, messages
from assistant.models import to_iso
from assistant.monitor import game_ruleset, load_game
from assistant.night_orders import NO_ORDER
from assistant.order_reading import Reading, ReadingContext
from assistant.phases import phases_from_inputs
from assistant.store import GameStore

VOTE = "vote"


def reading_context(store: GameStore, game: Game | None = None) -> ReadingContext:
    """What reading the game's messages needs: its players, ruleset, setup and clock."""
    from assistant.engine.history import replay
    from assistant.engine.rules import load_engine_rules

    ruleset = game_ruleset(store)
    game = game or load_game(store, ruleset=ruleset)
    rules = load_engine_rules(ruleset)
    vrules = VoteRules.from_ruleset(ruleset)
    inputs = store.inputs()
    rep, no_setup = None, None
    try:
        rep = replay(rules, inputs)
    except ConfigError as e:
        no_setup = str(e)
    names = list(rep.state.players) if rep else []
    aliases: dict[str, list[str]] = {}
    for slot in game.slots:
        for name in names:
            if name in slot.names:
                aliases[name] = [n for n in slot.names if n != name]
    return ReadingContext(
        rules, game, vrules, rep, no_setup, phases_from_inputs(inputs), aliases,
        pm_votes="pm" in vrules.forms, ruleset_votes=vrules.describe())


INBOX_REJECT = "inbox_reject"
"""The GM's no to a proposal: {"proposal": ID, "pm_id": N}."""
SOURCE = "inbox"
"""`source` of an order or vote fact accepted from the inbox."""
STATUSES = ("open", "accepted", "rejected", "entered", "replaced", "withdrawn")


@dataclass(frozen=True)
class Proposal:
    """One order or PM vote read in a player's message, or the message with none."""

    id: str
    """Its message's id, with ".2", ".3" for the second and third order read in it."""
    player: str
    """The sender's slot."""
    reading: Reading
    pm_ids: tuple[int, ...]
    """The message it was read in, then any other that said the same (the same order sent
    to a second GM, or again)."""
    sent_at: datetime | None
    subject: str
    text: str
    """The message as the player wrote it (quotes of the GM's PMs left out)."""
    read_at: datetime | None = None
    """When the assistant first read the message."""
    status: str = "open"
    """open; accepted; rejected; entered (the same order was typed); replaced (a later
    message orders the same slot of the same phase); withdrawn (accepted, then undone)."""
    fact: int | None = None
    """The input that decided it (accepted, rejected, entered, withdrawn: the withdrawal)."""
    replaces: str | None = None
    replaced_by: str | None = None
    stored_as: str | None = None
    """What accepting it stored, where the GM wrote it otherwise (`--as`)."""

    @property
    def sure(self) -> bool:
        """Read without doubt and still open: what `--accept-all` takes."""
        return self.status == "open" and self.reading.sure

    def to_json(self) -> dict[str, Any]:
        r = self.reading
        return {
            "id": self.id, "player": self.player, "kind": r.kind, "line": r.line or None,
            "phase": r.phase, "number": r.number, "target": r.target, "status": self.status,
            "sure": self.sure, "doubts": list(r.doubts), "refusal": r.refusal,
            "quote": r.quote, "pm_ids": list(self.pm_ids), "sent_at": to_iso(self.sent_at),
            "subject": self.subject, "text": self.text, "read_at": to_iso(self.read_at),
            "fact": self.fact,
            "replaces": self.replaces, "replaced_by": self.replaced_by,
            "stored_as": self.stored_as,
        }


def message_text(m: InboxMessage) -> str:
    """What a message says, without the quotes of the GM's own PMs a reply carries."""
    return post_text(m.body_html, quotes=False) if m.body_html else m.text


def proposals(store: GameStore, ctx: ReadingContext | None = None) -> list[Proposal]:
    """Every proposal of the kept messages, oldest message first, with its status."""
    kept = messages(store)
    if not kept:
        return []
    ctx = ctx or reading_context(store)
    out: list[Proposal] = []
    standing: dict[tuple[Any, ...], list[int]] = {}
    """(slot, phase, number) -> the proposals standing in it (replacement)."""
    for m in kept:
        text = message_text(m)
        when = m.sent_at or m.read_at
        for k, r in enumerate(ctx.read(m.player, text, m.subject, when), 1):
            pid = str(m.pm_id) if k == 1 else f"{m.pm_id}.{k}"
            same = _said_before(out, standing, m.player, r, text)
            if same is not None:
                out[same] = replace(out[same], pm_ids=(*out[same].pm_ids, m.pm_id))
                continue
            p = Proposal(pid, m.player, r, (m.pm_id,), m.sent_at, m.subject, text, m.read_at)
            if r.usable and r.slot is not None:
                key = (r.slot, r.phase, r.number)
                held = standing.get(key, [])
                if held and (len(held) >= r.per_phase
                             or out[held[-1]].reading.order.ability != r.order.ability):
                    for i in held:
                        out[i] = replace(out[i], replaced_by=pid)
                    p = replace(p, replaces=out[held[-1]].id)
                    held = []
                standing[key] = [*held, len(out)]
            out.append(p)
    return _with_status(store, out)


def _said_before(out: list[Proposal], standing: dict[tuple[Any, ...], list[int]], player: str,
                 r: Reading, text: str) -> int | None:
    """The proposal a reading repeats: the same order standing in its slot, the player's
    last vote if the same, the same message with no order."""
    if r.kind == "none":
        return next((i for i, p in enumerate(out) if p.player == player
                     and p.reading.kind == "none" and p.text == text), None)
    if r.kind == "vote":
        votes = [i for i, p in enumerate(out) if p.player == player and p.reading.kind == "vote"]
        return votes[-1] if votes and out[votes[-1]].reading.same_as(r) else None
    if r.usable and r.slot is not None:
        held = standing.get((r.slot, r.phase, r.number), [])
        return next((i for i in held if out[i].reading.same_as(r)), None)
    return next((i for i, p in enumerate(out) if p.player == player and p.reading.same_as(r)
                 and p.replaced_by is None), None)


def _with_status(store: GameStore, out: list[Proposal]) -> list[Proposal]:
    """Each proposal's status from the GM's facts: accepted (an order or vote fact naming
    it), rejected, withdrawn (its accepting fact undone), entered (the same order typed)."""
    decided: dict[str, tuple[str, int]] = {}
    stored: dict[str, str] = {}
    for d in store.history():
        pid = d["data"].get("proposal") if isinstance(d.get("data"), dict) else None
        if pid is None or d["kind"] not in (ORDER, VOTE, NO_ORDER, INBOX_REJECT):
            continue
        if d["withdrawn_by"] is not None:
            decided[str(pid)] = ("withdrawn", int(d["withdrawn_by"]))
        else:
            decided[str(pid)] = ("rejected" if d["kind"] == INBOX_REJECT else "accepted",
                                 int(d["seq"]))
            stored[str(pid)] = _said(d)
    standing = store.inputs(ORDER)
    votes = [d for d in store.inputs(VOTE) if d["data"].get("source") == SOURCE]
    result = []
    for p in out:
        status, fact = decided.get(p.id, ("open", None))
        r = p.reading
        if status == "open" and r.order is not None and r.usable:
            # The same order in already: typed, or accepted under another id (a message
            # read again by a better parser numbers its orders anew).
            same = _entered(standing, r)
            if same is not None:
                status, fact = "entered", int(same["seq"])
        if status == "open" and r.kind == "vote" and r.usable:
            same = next((d for d in votes if d["data"].get("pm_id") in p.pm_ids
                         and d["data"].get("target") == r.target), None)
            if same is not None:
                status, fact = "entered", int(same["seq"])
        if status == "open" and p.replaced_by is not None:
            status = "replaced"
        said = stored.get(p.id) if status == "accepted" else None
        result.append(replace(p, status=status, fact=fact,
                              stored_as=said if said and said != p.reading.line else None))
    return result


def _said(d: dict[str, Any]) -> str:
    """An accepting fact in the order syntax: the order's line, "X: vote Y", "X: none"."""
    data = d["data"]
    if d["kind"] == VOTE:
        return f"{data['voter']}: " + (f"vote {data['target']}" if data.get("target")
                                       else "unvote")
    if d["kind"] == NO_ORDER:
        return f"{data.get('actor') or data.get('side')}: none"
    return str(data.get("text") or "")


def _entered(standing: list[dict[str, Any]], r: Reading) -> dict[str, Any] | None:
    """The standing order fact that is this reading's order, where it is the one that
    counts: the last of its actor's (or side's) orders of the phase, or any of them for an
    ability used several times a phase (004's "Investigate 3"). An earlier order replaced
    by another since is not: the player switching back is a new order."""
    o = r.order
    assert o is not None
    who = ("side", o.side) if o.side else ("actor", o.actor)
    mine = [d for d in standing if (d["data"].get("phase"), d["data"].get("number")) == (
        o.phase, o.number) and (("side", d["data"].get("side")) if d["data"].get("side")
                                else ("actor", d["data"].get("actor"))) == who]
    if r.per_phase > 1:
        return next((d for d in mine if _same_order(d["data"], o)), None)
    return mine[-1] if mine and _same_order(mine[-1]["data"], o) else None


def _same_order(data: dict[str, Any], o: Order) -> bool:
    return (data.get("actor"), data.get("ability"), tuple(data.get("targets", ())),
            data.get("phase"), data.get("number"), data.get("side"), data.get("choice")) == (
        o.actor, o.ability, o.targets, o.phase, o.number, o.side, o.choice)


def find(found: list[Proposal], pid: str, game: str) -> Proposal:
    """The proposal `pid` names; a one-line error listing what there is otherwise."""
    for p in found:
        if p.id == pid.strip():
            return p
    have = ", ".join(p.id for p in found[-12:]) or "none yet"
    raise ProposalError(f"game {game!r} has no inbox proposal {pid!r} (its latest: {have}); "
                        f"`assistant inbox {game} --stored` lists them")


def phase_for_line(ctx: ReadingContext, line: str, when: datetime) -> tuple[str, int]:
    """The phase an order the GM wrote for a message (`--as`) is for: its ability's kind of
    phase at the message's time, as a read order's would be."""
    kind = "night"
    if ctx.replay is not None:
        state = ctx.replay.state
        try:
            order = parse_order(line, state, phase="night", number=max(1, ctx.replay.next_night()),
                                aliases=ctx.aliases)
            kind = ability_of(state, order).phase
        except (OrderError, KeyError):
            pass
    return ctx.phase_for(kind, when, set())
