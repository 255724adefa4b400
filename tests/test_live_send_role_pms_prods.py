"""`assistant send GAME role-pms` and `send GAME prods` on the real SMF 2.1.5 and phpBB
3.3.10 (issue 23): each PM goes to its own player's member, who reads it in their own
inbox (forum.py, logged in as that member); a rerun sends nothing again; a player is
prodded once a phase, however the prod's wording changed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from live_pm_support import line_as_shown, member_reads, recipient_of
from test_live_post_pm_inbox import VARIABLE, new_game

from assistant.store import GameStore


def sent_pms(tmp_path, kind: str) -> dict[str, int]:  # noqa: ANN001
    """player -> PM id of the PMs of `kind` recorded as sent."""
    facts = GameStore.open(tmp_path / "data", "g").inputs("pm_sent")
    return {f["data"]["player"]: f["data"]["pm_id"] for f in facts if f["data"]["kind"] == kind}


@pytest.mark.parametrize("software", ["smf", "phpbb"])
def test_send_role_pms_and_prods_each_member_reads_their_own(
        live_forums, software, tmp_path, capsys, monkeypatch):
    board, topic, gm, names, g = new_game(
        live_forums, software, tmp_path, capsys, monkeypatch, f"rp{software[0]}",
        roles=("doctor", "investigator", "godfather", None))
    a, b, c, d = names
    roles = g.json("draft", "role-pms", "g")
    assert list(roles) == names
    g.run("fetch", "--game", "g", "--delay", "0", "--login", gm, "--password-env", VARIABLE)

    out, err = g.run("send", "g", "role-pms", "--yes", "--delay", "0")
    assert all(f"To: {n}" in out for n in names) and "4 role-pms to send" in out  # shown first
    sent = sent_pms(tmp_path, "role_pm")
    assert sorted(sent) == sorted(names) and len(set(sent.values())) == 4
    for player, pm_id in sent.items():
        assert recipient_of(board, software, pm_id) == board.member_id(player)
        line = line_as_shown(roles[player], "Your role:")
        assert line in member_reads(board, software, player, pm_id), (player, line)
    assert "Doctor" in line_as_shown(roles[a], "Your role:")
    out, _ = g.run("send", "g", "role-pms", "--yes", "--delay", "0")
    assert "all 4 role-pms were sent already" in out
    assert sent_pms(tmp_path, "role_pm") == sent

    # Two players post; the other two are prodded, each reading their own prod.
    board.reply(a, topic, "Morning all.")
    board.reply(b, topic, f"Suspicious of {c}.")
    g.now += timedelta(minutes=30)  # after both posts (Day 1 ends an hour after the start)
    g.run("fetch", "--game", "g", "--delay", "0")
    prods = g.json("draft", "prods", "g")
    assert sorted(prods) == sorted([c, d])
    g.run("send", "g", "prods", "--yes", "--delay", "0")
    prodded = sent_pms(tmp_path, "prod")
    assert sorted(prodded) == sorted([c, d])
    for player, pm_id in prodded.items():
        assert recipient_of(board, software, pm_id) == board.member_id(player)
        line = line_as_shown(prods[player], "You have not posted")
        assert line in member_reads(board, software, player, pm_id), (player, line)
    # Once a phase: a prod reworded (another window) is not sent again to the same player.
    out, _ = g.run("send", "g", "prods", "--since", "2h", "--yes", "--delay", "0")
    assert "all 2 prods were sent already" in out
    assert sent_pms(tmp_path, "prod") == prodded
