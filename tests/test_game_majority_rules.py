"""A live game's own majority variants (issue 9: "what happens at the deadline without a
majority (no lynch, or plurality) and 'one less for No Lynch' are per-game settings with
the mafiascum default stated"): set at `game new` or later with `game rules`, kept in the
game's config, and read by every count of the game. Thread B as it grew on the real SMF
2.1 (the live snapshots), counted under `mafiascum` after a deadline no wagon reached."""

from __future__ import annotations

import json

from cli_support import call
from test_count_edits import BEFORE_CONIAS_EDIT, NOW, grown_store

from assistant.store import GameStore

DEADLINE = BEFORE_CONIAS_EDIT  # no wagon has a majority yet (the leader has 3 of 4)


def _cli(capsys, monkeypatch, data, *args: str) -> tuple[int, str, str]:
    monkeypatch.setenv("ASSISTANT_NOW", NOW)
    return call(capsys, data, *args)


def _outcome(capsys, monkeypatch, data) -> dict:
    code, out, err = _cli(capsys, monkeypatch, data, "count", "thread-b", "--json")
    assert code == 0, err or out
    return json.loads(out)


def test_the_deadline_without_a_majority_is_the_games_own_setting(
    tmp_path, capsys, monkeypatch
) -> None:
    grown_store(tmp_path, "smf21", day_ends=DEADLINE, ruleset="mafiascum").close()
    doc = _outcome(capsys, monkeypatch, tmp_path)
    leader = doc["wagons"][0]
    assert leader["effective"] < doc["majority"]  # no wagon reached a majority by the deadline
    # mafiascum's default: "If the required number of votes is not reached by deadline,
    # there will be NO LYNCH".
    assert doc["outcome"]["lynched"] == [] and doc["outcome"]["no_lynch"] is True

    code, out, err = _cli(capsys, monkeypatch, tmp_path, "game", "rules", "thread-b")
    assert code == 0, err
    assert "at_deadline = no_lynch  (mafiascum's default)" in out

    code, out, err = _cli(
        capsys, monkeypatch, tmp_path, "game", "rules", "thread-b", "--at-deadline", "plurality"
    )
    assert code == 0, err
    assert "at_deadline = plurality  (this game's)" in out
    assert GameStore.open(tmp_path, "thread-b").config()["tally"] == {"at_deadline": "plurality"}
    doc = _outcome(capsys, monkeypatch, tmp_path)
    assert doc["outcome"]["lynched"] == [leader["target"]]
    # The draft tally is the same count.
    code, out, err = _cli(capsys, monkeypatch, tmp_path, "draft", "tally", "thread-b", "--json")
    assert code == 0, err
    assert json.loads(out)["outcome"]["lynched"] == [leader["target"]]


def test_no_lynch_at_half_is_set_and_refused_where_it_means_nothing(
    tmp_path, capsys, monkeypatch
) -> None:
    grown_store(tmp_path, "smf21", day_ends=DEADLINE, ruleset="mafiascum").close()
    code, out, err = _cli(
        capsys, monkeypatch, tmp_path, "game", "rules", "thread-b",
        "--no-lynch-majority", "one_less", "--json",
    )  # fmt: skip
    assert code == 0, err
    shown = json.loads(out)
    assert shown["no_lynch_majority"] == "one_less" and shown["at_deadline"] == "no_lynch"
    assert shown["own"] == ["no_lynch_majority"]
    # Under a ruleset that lynches the plurality (002), a majority variant is refused in
    # one line, and nothing is stored.
    store = GameStore.open(tmp_path, "thread-b")
    store.update_config(ruleset="chat-mafia", tally={})
    store.close()
    code, out, err = _cli(
        capsys, monkeypatch, tmp_path, "game", "rules", "thread-b", "--at-deadline", "plurality"
    )
    assert code != 0
    assert "for majority rulesets" in (err or out) and "Traceback" not in (err or out)
    assert GameStore.open(tmp_path, "thread-b").config()["tally"] == {}
