"""The GM's corrections: a ruling on one post's votes (`assistant rule`), every GM input
as a log (`assistant log`), and undo (`assistant undo`).

A ruling is a GM input like any other ("ruling", game.py): every count applies it.
Every fact the GM entered is listed with its id (its `seq`), when it was entered and what
it changed, withdrawn ones too. An undo never erases: it stores a withdrawal
(`store.WITHDRAW`), after which the store's `inputs()` leaves the withdrawn input out of
every count, check and replay, and the log shows both. Undoing a withdrawal puts the
input back. A few inputs cannot be withdrawn alone; the refusal says why and what to do
instead, in one line. The CLI and the dashboard both call here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from assistant.alerts import AlertLog
from assistant.count.judge import numbered_marks
from assistant.count.outcome import NO_LYNCH
from assistant.count.records import ABSTAIN, Tally
from assistant.count.votes import VoteRules
from assistant.errors import AssistantError, ConfigError, StoreError, VoteError
from assistant.models import from_iso, to_iso
from assistant.monitor import day_tally, game_ruleset, game_title, load_game, load_view
from assistant.phases import game_zone, parse_past
from assistant.store import WITHDRAW, GameStore


@dataclass(frozen=True)
class LogEntry:
    """One GM input as `assistant log` lists it."""

    id: int
    kind: str
    entered_at: datetime | None
    what: str
    """What it changed, in words ("Jd- died (lynch, Day 2)")."""
    withdrawn_by: int | None = None
    """The id of the withdrawal (`undo`) that stands against it."""

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "entered_at": to_iso(self.entered_at),
            "what": self.what,
            "withdrawn_by": self.withdrawn_by,
        }

    def line(self, zone: ZoneInfo) -> str:
        when = f"{self.entered_at.astimezone(zone):%Y-%m-%d %H:%M}" if self.entered_at else "?"
        gone = f"  [withdrawn by {self.withdrawn_by}]" if self.withdrawn_by else ""
        return f"{self.id:>4}  {when}  {self.kind:<12} {self.what}{gone}"


def game_log(store: GameStore) -> list[LogEntry]:
    """Every GM input of the game, in the order entered, withdrawals too."""
    docs = store.history()
    by_seq = {d["seq"]: d for d in docs}
    return [
        LogEntry(d["seq"], d["kind"], from_iso(d.get("entered_at")), describe(d, by_seq),
                 d.get("withdrawn_by"))
        for d in docs
    ]


def log_text(store: GameStore) -> str:
    zone = game_zone(store.config().get("tz"))
    entries = game_log(store)
    if not entries:
        return f"Nothing entered in {store.game_id} yet."
    head = (f"GM inputs of {store.game_id} (times in {zone.key}); "
            f"`assistant undo {store.game_id} ID` withdraws one:")
    return "\n".join([head, *(e.line(zone) for e in entries)])


def undo(store: GameStore, seq: int, now: datetime) -> tuple[list[LogEntry], str]:
    """Withdraw input `seq` (and what was stored with it and stands or falls with it) as
    withdrawal facts of their own; returns their log entries and one line for the GM.
    Refusals are one line (StoreError) saying why and what to do instead."""
    game = store.game_id
    with store.batch():
        docs = store.history()
        by_seq = {d["seq"]: d for d in docs}
        doc = by_seq.get(seq)
        if doc is None:
            last = docs[-1]["seq"] if docs else 0
            raise StoreError(
                f"game {game!r} has no input {seq}"
                + (f" (its inputs are 1 to {last})" if last else " (nothing entered yet)")
                + f": `assistant log {game}` lists them"
            )
        if doc["withdrawn_by"] is not None:
            raise StoreError(
                f"input {seq} ({describe(doc, by_seq)}) was already withdrawn by input "
                f"{doc['withdrawn_by']}; `assistant undo {game} {doc['withdrawn_by']}` puts it back"
            )
        _refuse(doc, docs, game)
        targets = [doc, *_stored_with(doc, docs)]
        last = docs[-1]["seq"]
        for d in targets:
            store.add_input(WITHDRAW, {"input": d["seq"], "kind": d["kind"]}, now)
        back = by_seq.get(int(doc["data"]["input"])) if doc["kind"] == WITHDRAW else None
        if doc["kind"] == "ack":
            AlertLog(store).unack(doc["data"]["alert"])
        elif doc["kind"] == "setting":
            _restore_setting(store, doc["data"], doc["data"].get("before") or {})
        elif back is not None and back["kind"] == "ack":  # an undone ack, acked again
            AlertLog(store).ack(back["data"]["alert"], now, back["data"].get("note"))
        elif back is not None and back["kind"] == "setting":
            _restore_setting(store, back["data"], back["data"]["values"])
    made = [e for e in game_log(store) if e.id > last]
    line = f"Withdrawn: input {seq} ({describe(doc, by_seq)})"
    if len(targets) > 1:
        line += "; with it " + ", ".join(
            f"input {d['seq']} ({describe(d, by_seq)})" for d in targets[1:]
        )
    line += f". The log keeps it: `assistant undo {game} {made[0].id}` puts it back."
    return made, line


def _stored_with(doc: dict[str, Any], docs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What was stored with `doc` and falls with it: a resolution's deaths and revivals."""
    if doc["kind"] != "resolution":
        return []
    phase, number = doc["data"]["phase"], doc["data"]["number"]
    return [
        d for d in docs
        if d["kind"] in ("death", "revive") and d["withdrawn_by"] is None
        and d["data"].get("source") == "engine"
        and (d["data"].get("phase"), d["data"].get("number")) == (phase, number)
    ]


def _refuse(doc: dict[str, Any], docs: list[dict[str, Any]], game: str) -> None:
    """Inputs that cannot be withdrawn alone: say why, and what to do instead."""
    kind, data, seq = doc["kind"], doc["data"], doc["seq"]
    standing = [d for d in docs if d["withdrawn_by"] is None and d["kind"] != WITHDRAW]
    if kind == "players" and not any(d["kind"] == "players" and d["seq"] != seq for d in standing):
        raise StoreError(
            f"input {seq} is the players list of {game}, its only one: a game cannot be "
            f"without players (a replacement is `assistant kill {game} OLD --how replaced "
            "--by NEW`; a wrong list, a new game)"
        )
    if kind in ("death", "revive") and data.get("source") == "engine":
        found = next(
            (d for d in standing if d["kind"] == "resolution"
             and d["data"]["phase"] == data.get("phase")
             and d["data"]["number"] == data.get("number")),
            None,
        )
        which = f" (input {found['seq']})" if found else ""
        raise StoreError(
            f"input {seq} is a {kind} the resolution of {data.get('phase')} "
            f"{data.get('number')}{which} recorded: undo that resolution instead, which "
            f"withdraws its deaths with it"
        )
    if kind == "resolution":
        later = [d for d in standing if d["kind"] == "resolution" and d["seq"] > seq]
        if later:
            d = later[-1]
            raise StoreError(
                f"input {seq} ({data['phase']} {data['number']} resolved) was followed by "
                f"the resolution of {d['data']['phase']} {d['data']['number']} (input "
                f"{d['seq']}), which was worked out on it: undo that one first"
            )
    if kind == "setting":
        later = [d for d in standing if d["kind"] == "setting" and d["seq"] > seq
                 and d["data"]["section"] == data["section"]
                 and set(d["data"]["values"]) & set(data["values"])]
        if later:
            raise StoreError(
                f"input {seq} (a setting) was changed again by input {later[-1]['seq']}: "
                f"undo that one first, or set the value again"
            )


GAME_SECTION = "game"
"""A setting's section for the game's own keys at the top of its config (its title)."""


def _restore_setting(store: GameStore, data: dict[str, Any], values: dict[str, Any]) -> None:
    """The game's config with a setting's keys set to `values` (None: the ruleset's
    default): its values before it when it is withdrawn, its own when it is put back."""
    section = data["section"]
    if section == GAME_SECTION:
        store.update_config(**{k: values.get(k) for k in data["values"]})
        return
    current = dict(store.config().get(section) or {})
    for key in data["values"]:
        value = values.get(key)
        if value is None:
            current.pop(key, None)
        else:
            current[key] = value
    store.update_config(**{section: current})


def record_setting(
    store: GameStore, section: str, values: dict[str, Any], now: datetime
) -> None:
    """Store a change of the game's settings (`game rules`, `alerts --rule`, `game title`
    in the section `GAME_SECTION`) in its config and as a GM input, so the log lists it and
    `undo` can put the old values back."""
    config = store.config()
    own = config if section == GAME_SECTION else dict(config.get(section) or {})
    before = {k: own.get(k) for k in values}
    with store.batch():
        if section == GAME_SECTION:
            store.update_config(**values)
        else:
            store.update_config(**{section: {**own, **values}})
        store.add_input("setting", {"section": section, "values": values, "before": before}, now)


@dataclass(frozen=True)
class TitleShown:
    """The game's name as drafts and subjects give it, and where it comes from."""

    title: str
    own: bool
    """The GM gave it (`game new --title`, `game title`), rather than the thread's title."""
    source: str
    """Where a name the GM did not give comes from, in words ("" when `own`)."""


def title_shown(store: GameStore) -> TitleShown:
    own = bool(store.config().get("title"))
    source = "" if own else (
        "the thread's title without its day" if store.crawl_state().get("title")
        else "the ruleset's title until the thread is read"
    )
    return TitleShown(game_title(store), own, source)


def set_title(store: GameStore, text: str, now: datetime) -> tuple[TitleShown, bool]:
    """Name the game (`game title GAME NAME`, the dashboard's form) as a GM input, so `log`
    lists it and `undo` gives the game its earlier name back; whether it changed."""
    title = " ".join(text.split())
    if not title:
        raise ConfigError(f"give {store.game_id}'s name, e.g. `assistant game title "
                          f"{store.game_id} \"Chat Mafia\"`")
    changed = store.config().get("title") != title
    if changed:
        record_setting(store, GAME_SECTION, {"title": title}, now)
    return title_shown(store), changed


# ---- rulings ---------------------------------------------------------------------------


def enter_ruling(
    store: GameStore,
    post_id: int,
    *,
    action: str,
    target: str | None = None,
    which: int | None = None,
    from_text: str | None = None,
    from_post: int | None = None,
    now: datetime,
) -> tuple[dict[str, Any], str]:
    """Store the GM's ruling on one post's votes (`rule`, and the dashboard's form): the fact
    and one line saying what it changed in the day's count. `action` is "ignore", "vote"
    (for `target`), "unvote" or "as_read" (the post as read, counted from `from_*`)."""
    game_id = store.game_id
    g = load_game(store)
    ruleset = game_ruleset(store, g.ruleset)
    vrules = VoteRules.from_ruleset(ruleset)
    stored = store.post(post_id)
    if stored is None:
        raise VoteError(
            f"post {post_id} is not stored in game {game_id!r}: give the forum's post id as "
            f"`count {game_id} --why` shows it (`assistant posts {game_id}` lists them; "
            f"`assistant fetch --game {game_id}` reads new ones)"
        )
    post = stored.latest
    if g.is_gm(post.author):
        raise VoteError(f"post {post_id} is by the GM ({post.author}): a GM's posts are never "
                        "votes, so there is nothing to rule on")
    voter = g.slot_of_author(post.author)
    if voter is None and action in ("vote", "unvote"):
        raise VoteError(f"post {post_id} is by {post.author}, who is not a player of "
                        f"{game_id!r}: a vote of theirs cannot count; players: "
                        f"{', '.join(g.players)}")
    if from_text is not None and from_post is not None:
        raise VoteError("give --from TIME or --from-post N, not both")
    at = parse_past(from_text, now=now, zone=game_zone(g.tz), where="--from") if from_text else None
    if from_post is not None:
        at = _post_time(store, from_post)
        if at is None:
            raise VoteError(f"--from-post {from_post}: no post up to {from_post} is stored")
    if which is not None and at is not None:
        raise VoteError("--which picks one vote of the post; --from moves the whole post: "
                        "give one of them")
    if action == "as_read" and at is None:
        raise VoteError(
            "say what the post is: --ignore (not a vote), --vote NAME, --unvote, or "
            "--from TIME / --from-post N (counted from another moment)"
        )
    marks = numbered_marks(post, vrules, g)
    if which is not None and not 1 <= which <= len(marks):
        raise VoteError(
            f"--which {which}: post {post_id} holds {len(marks)} vote-like mark(s)"
            + (": " + ", ".join(f"#{n} {m.text!r}" for n, m in marks) if marks else "")
        )
    resolved = None
    if action == "vote":
        if vrules.is_no_lynch(target):
            resolved = NO_LYNCH
        elif vrules.is_abstain(target):
            resolved = ABSTAIN
        else:
            m = g.matcher(vrules.close_spelling).match(target or "")
            if not m.ok:
                raise VoteError(f"--vote: {m.describe()}; players: {', '.join(g.players)}")
            resolved = m.slot
    before = _day_count(store, now)
    data = {
        "post": post_id,
        "action": action,
        "target": resolved,
        "which": which,
        "at": to_iso(at),
        "version": len(stored.versions),
        "author": post.author,
        "text": " ".join(m.text for n, m in marks if which in (None, n)),
    }
    store.add_input("ruling", data, now)
    ruling = load_game(store).rulings[-1]
    after = _day_count(store, now)
    line = f"Ruled on post {post_id} ({post.author}): {ruling.what()}."
    if before is not None and after is not None:
        line += f" {_count_change(before, after)}"
    return data, line


def _day_count(store: GameStore, now: datetime) -> Tally | None:
    """The day's count as `count` shows it, or None when there is no day to count."""
    try:
        view = load_view(store, now)
        return day_tally(view, store.inputs()) if view.game.day() is not None else None
    except AssistantError:
        return None


def _count_change(before: Tally, after: Tally) -> str:
    """What a GM input changed in the day's count, in one sentence."""
    def said(t: Tally) -> str:
        wagons = ", ".join(f"{w.target} {w.effective}" for w in t.wagons) or "no votes"
        lynched = f"{t.outcome.said()} lynched" if t.outcome.lynched else t.outcome.said()
        return f"{wagons} ({lynched})"

    day = f"Day {after.day}" if after.day is not None else "The day"
    if said(before) == said(after):
        return f"{day}'s count is unchanged: {said(after)}."
    return f"{day}'s count was {said(before)}; now {said(after)}."


def _post_time(store: GameStore, at_post: int) -> datetime | None:
    """When post `at_post` (or the last post before it) was made."""
    made = [sp.versions[0].post.posted_at for sp in store.posts() if sp.post_id <= at_post]
    return max(made) if made else None


# ---- what each input changed, in words ---------------------------------------------------


def describe(doc: dict[str, Any], by_seq: dict[int, dict[str, Any]] | None = None) -> str:
    """What one GM input changed, in one line."""
    kind, d = doc["kind"], doc["data"]
    say = _SAY.get(kind)
    if say is not None:
        try:
            return say(d, by_seq or {})
        except (KeyError, TypeError, ValueError):
            pass  # an older shape of the input: shown as stored
    shown = ", ".join(f"{k}={v}" for k, v in d.items() if v not in (None, "", [], {}))
    return f"{kind}: {shown}"[:200]


def _at(d: dict[str, Any]) -> str:
    if d.get("at_post") is not None:
        return f" at post {d['at_post']}"
    at = from_iso(d.get("at"))
    return f" at {at:%Y-%m-%d %H:%M} UTC" if at else ""


def _death(d: dict[str, Any], _: Any) -> str:
    if d.get("how") == "replaced":
        return f"{d['replacement']} replaces {d['player']}{_at(d)}"
    how = d.get("how") or "other"
    day = f", Day {d['dusk']}" if d.get("dusk") is not None else ""
    source = ""
    if d.get("source") == "engine":
        source = f" (resolution of {d.get('phase')} {d.get('number')})"
    return f"{d['player']} died ({how}{day}){_at(d)}{source}"


def _phase(d: dict[str, Any], _: Any) -> str:
    starts = from_iso(d.get("starts_at"))
    ends = from_iso(d.get("ends_at"))
    text = f"{d['kind'].capitalize()} {d['number']} started"
    if starts:
        text += f" {starts:%Y-%m-%d %H:%M} UTC"
    if d.get("start_post") is not None:
        text += f" (post {d['start_post']})"
    if ends:
        text += f", ends {ends:%Y-%m-%d %H:%M} UTC"
    return text


def _adjust(d: dict[str, Any], _: Any) -> str:
    what = f"{d['kind'].capitalize()} {d['number']}: "
    if d.get("extend_s") is not None:
        return what + f"extended by {int(d['extend_s']) // 60} min"
    ends = from_iso(d.get("ends_at"))
    return what + (f"deadline moved to {ends:%Y-%m-%d %H:%M} UTC" if ends else "deadline changed")


def _vote(d: dict[str, Any], _: Any) -> str:
    did = f"votes {d['target']}" if d.get("target") else "unvotes"
    return f"PM vote: {d['voter']} {did}{_at(d)}{_from_inbox(d)}"


def _order(d: dict[str, Any], _: Any) -> str:
    said = d.get("text") or f"{d['actor']}: {d['ability']}"
    return f"order for {d['phase']} {d['number']}: {said}{_from_inbox(d)}"


def _from_inbox(d: dict[str, Any]) -> str:
    """" (inbox proposal 12, PM 12)" for a fact accepted from the inbox."""
    if d.get("source") != "inbox":
        return ""
    return f" (inbox proposal {d.get('proposal')}, PM {d.get('pm_id')})"


def _no_order(d: dict[str, Any], _: Any) -> str:
    who = f"the {d['side']}" if d.get("side") else d["actor"]
    return f"{who}: no action on {d['phase']} {d['number']}{_from_inbox(d)}"


def _ruling(d: dict[str, Any], _: Any) -> str:
    what = {"ignore": "not a vote", "vote": f"a vote for {d.get('target')}",
            "unvote": "an unvote", "as_read": "its votes as read"}[d["action"]]
    if d.get("which") is not None:
        what = f"vote #{d['which']} is {what}"
    at = from_iso(d.get("at"))
    if at:
        what += f", counted from {at:%Y-%m-%d %H:%M:%S} UTC"
    by = f" ({d['author']})" if d.get("author") else ""
    return f"ruling on post {d['post']}{by}: {what}"


def _withdraw(d: dict[str, Any], by_seq: dict[int, dict[str, Any]]) -> str:
    target = by_seq.get(int(d["input"]))
    said = f": {describe(target, by_seq)}" if target else ""
    return f"withdrew input {d['input']} ({d.get('kind', '?')}){said}"


def _setting(d: dict[str, Any], _: Any) -> str:
    before = d.get("before") or {}
    if d["section"] == GAME_SECTION and set(d["values"]) == {"title"}:
        was = f'"{before["title"]}"' if before.get("title") else "the thread's title"
        return f'the game\'s title set to "{d["values"]["title"]}" (was {was})'
    values = ", ".join(f"{d['section']}.{k} = {v}" for k, v in d["values"].items())
    was = ", ".join(f"{v if v is not None else 'the ruleset default'}" for v in before.values())
    return f"setting {values}" + (f" (was {was})" if was else "")


def _pm(label: str) -> Any:
    return lambda d, _: f"{label} sent to {d['player']} ({len(str(d['text']).split())} words)"


def _posted(d: dict[str, Any], _: Any) -> str:
    """ "tally of Day 2 posted as post 812 by the daemon (the interval tally of 12:05)"."""
    what = d.get("draft") or "post"
    of = f" of {str(d['phase']).title()} {d['number']}" if d.get("phase") and d.get("number") \
        else ""
    again = ", found in the thread after a lost answer" if d.get("found_after_failure") else ""
    by = f" by the daemon ({d['why']})" if d.get("by") == "daemon" else ""
    return f"{what}{of} posted as post {d['post_id']}{by}{again}"


def _modifier(d: dict[str, Any], _: Any) -> str:
    extra = (", powerless" if d.get("powerless") else "") + (
        f", Day {d['day']}" if d.get("day") else ""
    )
    return f"vote modifier for {d['player']}: weight {d.get('vote_weight', 1)}{extra}"


def _simple(template: str) -> Any:
    return lambda d, _: template.format(**d)


_SAY = {
    "players": lambda d, _: (
        f"players: {len(d['players'])} ({', '.join(p[0] for p in d['players'])})"
    ),
    "death": _death,
    "revive": lambda d, _: f"{d['player']} brought back{_at(d)}",
    "phase": _phase,
    "phase_adjust": _adjust,
    "vote": _vote,
    "order": _order,
    "no_order": _no_order,
    "resolution": _simple("{phase} {number} resolved and confirmed"),
    "roles": lambda d, _: f"setup: {len(d.get('players', []))} players (seed {d.get('seed')})",
    "ruling": _ruling,
    "withdraw": _withdraw,
    "inbox_reject": lambda d, _: f"inbox proposal {d['proposal']} rejected (PM {d.get('pm_id')})",
    "inbox_pm": lambda d, _: f"PM {d['pm_id']} from {d['player']} kept"
    + (f": {d['subject']}" if d.get("subject") else ""),
    "ack": lambda d, _: f"alert {d['alert']} acknowledged"
    + (f": {d['note']}" if d.get("note") else ""),
    "setting": _setting,
    "modifier": _modifier,
    "lynches": _simple("Day {day} has {available} lynch(es)"),
    "sheriff": lambda d, _: f"{d['player']} is the sheriff"
    + (f" from Day {d['day']}" if d.get("day") else ""),
    "tie_break": _simple("tie of Day {day}: {choice} chosen"),
    "role_pm": _pm("role PM"),
    "result_pm": _pm("result PM"),
    "posted": _posted,
    "rest": lambda d, _: "rests the stopped lynch set off: "
    + ", ".join(f"{r[0]} from {r[1]}" for r in d["rests"]),
}
