"""The orders and votes players write in a PM to the GM, read as the GM would read them
(issue 23: "I'd like to protect Kat tonight", "kill: Jd-", a misspelt target, a message with
no order at all).

A table of messages, each a sentence players write, and what the inbox proposes from it:
the order in the parser's syntax ("Conia: protect Kat"), whether it is sure (what
`--accept-all` takes), doubtful (the GM looks first: "?") or refused with the parser's
reason ("!"), or that the message holds no order ("-"). Two games: Turtle's Chat Mafia
(002: a doctor, an investigator, the Godfather, a roleblocker, a vigilante; votes are
thread tags, never PMs) and DCTP (004: "To use an ability or vote, you must PM the order
directly to the GM"; its worked orders "Arrest Abs for killing Kleene on Night 1.
Investigate Jd- heals Parkur.", "APTX Pofa as Satou").
"""

from __future__ import annotations

import pytest
from inbox_support import DCTP_DAY_1, DCTP_NIGHT_2, NIGHT_1, make_games

from assistant.order_reading import Reading
from assistant.proposals import reading_context
from assistant.store import GameStore


@pytest.fixture(scope="module")
def games(tmp_path_factory):  # noqa: ANN201
    data = make_games(tmp_path_factory.mktemp("inbox") / "data")
    out = {}
    for game in ("chat", "dctp"):
        with GameStore.open(data, game, create=False) as store:
            out[game] = reading_context(store)
    return out



def shown(r: Reading) -> str:
    """A reading as the table writes it: "Conia: protect Kat @night 1", "?..." doubtful,
    "!..." refused (with the reason after " | "), "-" no order."""
    if r.kind == "none":
        return "-"
    if r.refusal is not None:
        return f"!{r.line} | {r.refusal}"
    when = f" @{r.phase} {r.number}" if r.kind == "order" else ""
    return ("?" if r.doubts else "") + r.line + when


def expected(game: str, line: str) -> str:
    """The table's line with the night an order is for when it does not say (chat: the
    running Night 1)."""
    if line[:1] in "-!" or "@" in line or ": vote " in line or line.endswith(": unvote"):
        return line
    return f"{line} @night 1" if game == "chat" else line


# (game, player, message, when, what is read: one entry per reading; "!X | why" checks
# that the refusal's reason holds `why`)
CHAT = [
    ("Conia", "I'd like to protect Kat tonight", ["Conia: protect Kat"]),
    ("Conia", "protect kat", ["Conia: protect Kat"]),
    ("Conia", "Protect: Kat", ["Conia: protect Kat"]),
    ("Conia", "Heal Lady Grey please", ["Conia: protect Lady Grey"]),
    ("Conia", "I'll heal lady grey tonight thanks!", ["Conia: protect Lady Grey"]),
    ("Conia", "Night action: protect Jd-", ["Conia: protect Jd-"]),
    ("Conia", "N1 action - protect Bob", ["Conia: protect Bob"]),
    ("Conia", "Protecting Mr. Pickles tonight.", ["Conia: protect Mr. Pickles"]),
    ("Conia", "I want to protect Tom & Jerry's", ["Conia: protect Tom & Jerry's"]),
    ("Conia", "pls protect kat tonite", ["Conia: protect Kat"]),
    ("Conia", "Protect Kat, she's confirmed town", ["Conia: protect Kat"]),
    ("Conia", "I'm protecting Kat", ["Conia: protect Kat"]),
    ("Conia", "My night action is to protect Kat", ["Conia: protect Kat"]),
    ("Conia", "Hi GM!\nI'll use my protection on Jerry tonight.\nThanks",
     ["Conia: protect Jerry"]),
    ("Conia", "N2: protect Kat", ["Conia: protect Kat @night 2"]),
    ("Conia", "protect Kat on night 2", ["Conia: protect Kat @night 2"]),
    # a misspelt target: read as the vote counter reads it, never without the GM
    ("Conia", "protect Kaat please", ["?Conia: protect Kat"]),
    ("Conia", "heal lady gray", ["?Conia: protect Lady Grey"]),
    # a name two players fit: refused with both
    ("Conia", "protect J", ["!Conia: protect J | 'J' could be Jd-, Jerry"]),
    ("Conia", "protect Zed", ["!Conia: protect Zed | no player called 'Zed'"]),
    # no order at all: listed, never dropped
    ("Conia", "Hi GM! Quick question: can I protect myself?", ["-"]),
    ("Conia", "I won't protect anyone tonight.", ["-"]),
    ("Conia", "Sorry, I'll be away this weekend.", ["-"]),
    ("Conia", "Hello! Just checking in, nothing to do tonight.", ["-"]),
    # the target or the ability said another way: doubts
    ("Conia", "Kat gets my protection tonight", ["?Conia: protect Kat"]),
    ("Conia", "target: Abs", ["?Conia: protect Abs"]),
    ("Conia", "Kat please", ["?Conia: protect Kat"]),
    ("Conia", "protect Jd- or Bob, whichever you think", ["?Conia: protect Jd-"]),
    ("Conia", "I think Bob should protect Kat", ["?Conia: protect Kat"]),
    # a player without that ability: refused with the reason
    ("Conia", "I want to use my roleblock on Bob",
     ["!Conia: roleblock Bob | Conia (Doctor) has no ability 'roleblock'; they have: protect"]),
    ("Lady Grey", "I'd like to protect Kat tonight",
     ["!Lady Grey: protect Kat | has no ability 'protect'"]),
    # two orders, or an order replaced in the same message
    ("Conia", "Protect Kat. Actually no, protect Bob instead.",
     ["Conia: protect Kat", "Conia: protect Bob"]),
    ("Kat", "Night action: investigate Conia", ["Kat: investigate Conia"]),
    ("Kat", "Check Jd- please", ["Kat: investigate Jd-"]),
    ("Kat", "I want to investigate Tom & Jerry's tonight", ["Kat: investigate Tom & Jerry's"]),
    ("Kat", "Scan: Abs", ["Kat: investigate Abs"]),
    ("Kat", "investigating bob", ["Kat: investigate Bob"]),
    ("Kat", "I'll check Jd- and I think Bob should kill Kat",
     ["?Kat: investigate Jd-"]),
    ("Jd-", "kill: Kat", ["Jd-: kill Kat"]),
    ("Jd-", "We kill Bob tonight", ["Jd-: kill Bob"]),
    ("Jd-", "Mafia kill: Lady Grey", ["Jd-: kill Lady Grey"]),
    ("Jd-", "NK Bob", ["Jd-: kill Bob"]),
    ("Jd-", "Let's kill Jerry", ["Jd-: kill Jerry"]),
    ("Abs", "I want to use my roleblock on Bob", ["Abs: block Bob"]),
    ("Abs", "Roleblocking Kat tonight", ["Abs: block Kat"]),
    ("Abs", "block jd", ["Abs: block Jd-"]),
    ("Bob", "Shoot Abs.", ["Bob: kill Abs"]),
    ("Bob", "I'm going to shoot Jerry tonight", ["Bob: kill Jerry"]),
    ("Bob", "Vig shot on Kat", ["?Bob: kill Kat"]),  # "vig" is no word of the ruleset
    ("Bob", "Vigilante shot on Kat", ["Bob: kill Kat"]),
    ("Jd-", "Godfather kill: Bob", ["Jd-: kill Bob"]),
    ("Kat", "Investigate: @Conia", ["Kat: investigate Conia"]),
    ("Kat", "Sending my check on Jerry", ["Kat: investigate Jerry"]),
    ("Conia", "I choose Kat to protect.", ["?Conia: protect Kat"]),
    ("Conia", "Heal target: Kat", ["Conia: protect Kat"]),
    ("Conia", "My action: Heal -> Kat", ["Conia: protect Kat"]),
    ("Conia", "protect Conia (me)", ["Conia: protect Conia"]),
    ("Conia", "I'd like to protect myself tonight", ["Conia: protect Conia"]),
    ("Conia", "protect Lady Bug", ["?Conia: protect Lady Grey"]),  # read short: "Lady"
    # a vote by PM where the ruleset counts only the thread's tags: refused, with why
    ("Bob", "Shoot Abs. Also vote Kat",
     ["Bob: kill Abs", "!Bob: vote Kat | does not take votes by PM"]),
]
DCTP = [
    ("Akonyl", "Arrest Abs for killing Kleene on Night 1. Investigate Jd- heals Parkur.",
     DCTP_NIGHT_2, ["Akonyl: arrest Abs for killing Kleene on Night 1 @night 2",
                    "Akonyl: investigate Jd- heals Parkur @night 2"]),
    ("Abs", "Kill Akonyl.", DCTP_NIGHT_2, ["Abs: kill Akonyl @night 2"]),
    ("PhoenixTears", "Discombobulate Akonyl", DCTP_NIGHT_2,
     ["PhoenixTears: discombobulate Akonyl @night 2"]),
    ("Jd-", "Night action: Heal Parkur", DCTP_NIGHT_2, ["Jd-: heal Parkur @night 2"]),
    ("Jd-", "Heal Kleene", DCTP_NIGHT_2,  # Kleene was killed on Night 1
     ["!Jd-: heal Kleene | Kleene is dead; heal targets the living"]),
    ("Abs", "Slander Pofa and Jd-", DCTP_NIGHT_2,
     ["!Abs: slander Pofa and Jd- | at most one player of each side"]),
    ("Miaka", "APTX Pofa as Satou", DCTP_DAY_1, ["Miaka: aptx Pofa as Satou @day 1"]),
    ("Parkur", "vote Abs", DCTP_DAY_1, ["Parkur: vote Abs"]),
    ("Parkur", "I vote for Pofa, sorry", DCTP_DAY_1, ["Parkur: vote Pofa"]),
    ("Parkur", "My vote goes to Jd-", DCTP_DAY_1, ["Parkur: vote Jd-"]),
    ("Pofa", "I abstain", DCTP_DAY_1, ["Pofa: vote Abstain"]),
    ("Pofa", "unvote", DCTP_DAY_1, ["Pofa: unvote"]),
    ("Pofa", "vote Po", DCTP_DAY_1, ["Pofa: vote Pofa"]),
    ("Pofa", "vote P", DCTP_DAY_1, ["!Pofa: vote P | could be"]),
    ("Jd-", "Vote: Miakka", DCTP_DAY_1, ["?Jd-: vote Miaka"]),
    ("Jd-", "heal parkur tonight, and my vote is on Abs", DCTP_DAY_1,
     ["Jd-: heal Parkur @night 2", "Jd-: vote Abs"]),
    ("Jd-", "vote Abs", DCTP_NIGHT_2, ["?Jd-: vote Abs"]),  # sent at night: the GM looks
]
TABLE = [("chat", p, m, NIGHT_1, want) for p, m, want in CHAT] + [
    ("dctp", p, m, when, want) for p, m, when, want in DCTP]


@pytest.mark.parametrize(("game", "player", "message", "when", "want"), TABLE,
                         ids=[f"{t[0]}-{t[2][:40]}" for t in TABLE])
def test_a_players_message_is_read_as_the_gm_reads_it(games, game, player, message, when,
                                                      want) -> None:
    got = [shown(r) for r in games[game].read(player, message, "", when)]
    assert len(got) == len(want), got
    for line, wanted in zip(got, want, strict=True):
        if wanted.startswith("!"):
            head, _, why = wanted.partition(" | ")
            assert line.startswith(head + " | ") and why in line, (line, wanted)
        else:
            assert line == expected(game, wanted), (line, wanted)


def test_a_sure_reading_is_a_line_the_order_command_takes_back_as_it_is(games) -> None:
    """Every order read without doubt is written in the parser's syntax: typed as it is
    (`assistant order`), it is the same order."""
    from assistant.engine.orders import parse_order

    for game, player, message, when, _want in TABLE:
        ctx = games[game]
        for r in ctx.read(player, message, "", when):
            if r.kind != "order" or r.refusal is not None:
                continue
            state = ctx.state_for(str(r.phase), int(r.number or 0))
            again = parse_order(r.line, state, phase=str(r.phase), number=int(r.number or 0))
            assert (again.actor, again.ability, again.targets, again.choice, again.side) == (
                r.order.actor, r.order.ability, r.order.targets, r.order.choice,
                r.order.side), r.line
