"""The alerts file (alerts_file.py): a game's alerts beside its game file, each stored once
and then acknowledged or opened again by appending; the game file no longer carries them
(each poll wrote a long game's thousands again, each opening parsed them). A game stored
before (schema 1 or 2, the alerts in the game file's "alerts" table) opens as it is and
moves them on its first write; a damaged or missing alerts file is refused with advice."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from assistant.alerts import Alert, AlertLog
from assistant.alerts_file import AlertsFile, alerts_path
from assistant.errors import StoreError
from assistant.models import to_iso
from assistant.store import SCHEMA_VERSION, GameStore

T0 = datetime(2026, 11, 22, 12, tzinfo=UTC)


def alert(n: int) -> Alert:
    return Alert("silent_edit", "warning", f"Kat edited post {n}", player="Kat", post_id=n,
                 post_url=f"http://127.0.0.1:8021/index.php?msg={n}",
                 occurred_at=T0 + timedelta(minutes=n), detail_key=f"v{n}")


def old_game(data_dir: Path, schema: int, n: int = 5) -> Path:
    """A game file as the assistant wrote it before the alerts file: its alerts in its
    "alerts" table (the second one acknowledged), and for schema 1 its posts in "posts"."""
    path = GameStore.game_path(data_dir, "old")
    path.parent.mkdir(parents=True, exist_ok=True)
    alerts = {str(i + 1): {"schema_version": 1, "id": alert(i).id, "alert": alert(i).to_dict(),
                           "first_seen": to_iso(T0), "acked_at": None, "ack_note": None}
              for i in range(n)}
    alerts["2"].update(acked_at=to_iso(T0 + timedelta(hours=1)), ack_note="warned")
    doc = {"meta": {"1": {"schema_version": schema, "game_id": "old",
                          "config": {"ruleset": "chat-mafia", "tz": "UTC"}}},
           "inputs": {"1": {"seq": 1, "kind": "players", "data": {"players": [["Kat"]]},
                            "entered_at": to_iso(T0)}},
           "alerts": alerts}
    if schema == 1:
        doc["posts"] = {}
    path.write_text(json.dumps(doc, ensure_ascii=False, separators=(",", ":")), "utf-8")
    return path


def listed(store: GameStore) -> list[tuple[str, datetime | None, str | None]]:
    return [(s.id, s.acked_at, s.ack_note) for s in AlertLog(store).all()]


@pytest.mark.parametrize("schema", [1, 2])
@pytest.mark.parametrize("first_write", ["batch", "table"])
def test_an_old_game_opens_as_it_is_and_moves_its_alerts_on_its_first_write(
        tmp_path, schema: int, first_write: str) -> None:
    """Read as it is (nothing written); the first write, a batch of the store or a single
    TinyDB write (the daemon's marker), moves the alerts, acknowledgements and all, and
    the file says this schema; later acks and alerts are appended."""
    path = old_game(tmp_path, schema)
    before = path.read_bytes()
    with GameStore.open(tmp_path, "old", create=False) as store:
        old = listed(store)
        assert len(old) == 5 and old[1][1:] == (T0 + timedelta(hours=1), "warned")
        assert AlertLog(store).get(alert(3).id[:6]).alert == alert(3)
    assert path.read_bytes() == before and not alerts_path(path).exists()

    with GameStore.open(tmp_path, "old", create=False) as store:
        if first_write == "batch":
            store.add_input("phase", {"kind": "day", "number": 1}, T0)
        else:
            store.table("daemon").insert({"key": "day1:tally", "status": "drafted"})
    document = json.loads(path.read_text("utf-8"))
    assert "alerts" not in document and "posts" not in document
    assert document["meta"]["1"]["schema_version"] == SCHEMA_VERSION == 3
    assert alerts_path(path).stat().st_size == document["alerts_file"]["1"]["bytes"]
    with GameStore.open(tmp_path, "old", create=False) as store:
        assert listed(store) == old
        assert [i["kind"] for i in store.inputs()][0] == "players"
        log = AlertLog(store)
        log.ack(alert(0).id, T0 + timedelta(hours=2), "seen")
        assert log.record([alert(i) for i in range(7)], T0 + timedelta(hours=3)) == [
            s for s in log.all() if s.id in {alert(5).id, alert(6).id}]
    lines = alerts_path(path).read_bytes().splitlines()
    assert len(lines) == 3 and json.loads(lines[1]) == [
        ["ack", alert(0).id, to_iso(T0 + timedelta(hours=2)), "seen"]]
    with GameStore.open(tmp_path, "old", create=False) as store:
        now = listed(store)
    assert len(now) == 7 and now[0][1:] == (T0 + timedelta(hours=2), "seen") and now[1] == old[1]


def test_a_move_that_fails_leaves_the_old_file_whole(tmp_path, monkeypatch) -> None:
    """Failing (as a kill would) after the alerts file was written, before the game file
    was replaced: the game file is still schema 2 with its alerts, read as before; the
    next write moves them again."""
    path = old_game(tmp_path, 2)
    before = path.read_bytes()
    real = os.replace

    def failing(src, dst, *a, **k):  # noqa: ANN001, ANN202
        if Path(dst) == path:
            raise OSError(28, "No space left on device")
        return real(src, dst, *a, **k)

    monkeypatch.setattr(os, "replace", failing)
    with GameStore.open(tmp_path, "old", create=False) as store, pytest.raises(StoreError):
        AlertLog(store).ack(alert(0).id, T0, "seen")
    assert path.read_bytes() == before and alerts_path(path).exists()
    monkeypatch.setattr(os, "replace", real)
    with GameStore.open(tmp_path, "old", create=False) as store:
        assert [a[1] for a in listed(store)] == [None, T0 + timedelta(hours=1), None, None, None]
        AlertLog(store).ack(alert(0).id, T0, "seen")
    with GameStore.open(tmp_path, "old", create=False) as store:
        assert [a[2] for a in listed(store)] == ["seen", "warned", None, None, None]
    assert "alerts" not in json.loads(path.read_text("utf-8"))


def test_the_game_file_no_longer_carries_the_alerts(tmp_path) -> None:
    """A poll's write of the game file is as long with 500 alerts stored as with none, an
    alert costs one appended line, and a store that is not asked about alerts never reads
    them (a poll: the game file and the posts)."""
    reads: list[int] = []
    real_refresh = AlertsFile.refresh

    def counting(self, committed: int) -> None:  # noqa: ANN001
        reads.append(committed)
        real_refresh(self, committed)

    with GameStore.open(tmp_path, "g") as store:
        store.set_crawl_state(polls=1)
        empty = store.path.stat().st_size
        for n in range(5):
            AlertLog(store).record([alert(100 * n + i) for i in range(100)], T0)
        store.set_crawl_state(polls=2)
        assert store.path.stat().st_size <= empty + 40  # (the alerts file's length)
        assert len(alerts_path(store.path).read_bytes().splitlines()) == 5
    AlertsFile.refresh = counting
    try:
        with GameStore.open(tmp_path, "g", create=False) as store:
            store.set_crawl_state(polls=3)
            assert store.posts() == [] and store.config() == {}
            assert reads == []
            assert AlertLog(store).count() == 500 and len(reads) == 1
    finally:
        AlertsFile.refresh = real_refresh


def test_what_the_feed_is_written_for_changes_only_with_the_alerts(tmp_path) -> None:
    """`alerts_seen`: the daemon writes the feed again only when it changes (a record, an
    ack, its withdrawal), never for a poll's other writes."""
    with GameStore.open(tmp_path, "g") as store:
        log = AlertLog(store)
        log.record([alert(1)], T0)
        seen = [store.alerts_seen()]
        store.set_crawl_state(polls=5)
        assert store.alerts_seen() == seen[-1]
        assert log.record([alert(1)], T0) == [] and store.alerts_seen() == seen[-1]
        for change in (lambda: log.record([alert(2)], T0), lambda: log.ack(alert(1).id, T0),
                       lambda: log.unack(alert(1).id)):
            change()
            seen.append(store.alerts_seen())
        assert len(set(seen)) == 4
    with GameStore.open(tmp_path, "g", create=False) as store:  # another process: the same
        assert store.alerts_seen() == seen[-1]


def test_an_alerts_file_cut_damaged_or_removed_is_refused_with_advice(tmp_path) -> None:
    with GameStore.open(tmp_path, "g") as store:
        AlertLog(store).record([alert(i) for i in range(3)], T0)
        AlertLog(store).ack(alert(1).id, T0)
        path = alerts_path(store.path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(StoreError, match=r"alerts file .* bytes long, but its game file says "
                                         r".* restore it from a backup \(with its game file\)"):
        AlertLog(GameStore.open(tmp_path, "g", create=False)).all()
    path.write_bytes(data.replace(b'"ack"', b'"ask"'))
    with pytest.raises(StoreError, match="alerts file .* damaged at byte .*unknown change"):
        AlertLog(GameStore.open(tmp_path, "g", create=False)).all()
    path.unlink()
    with pytest.raises(StoreError, match="alerts file .* is missing"):
        AlertLog(GameStore.open(tmp_path, "g", create=False)).count()


def test_a_schema_2_game_without_alerts_says_schema_3_once_it_stores_one(tmp_path) -> None:
    """An older assistant would keep its alerts in the game file's table, where this one
    reads them only until its first write: the file says the schema that has the alerts
    file, which such an assistant refuses."""
    path = old_game(tmp_path, 2, n=5)
    document = json.loads(path.read_text("utf-8"))
    del document["alerts"]
    path.write_text(json.dumps(document), "utf-8")
    with GameStore.open(tmp_path, "old", create=False) as store:
        store.set_crawl_state(polls=1)
        assert json.loads(path.read_text("utf-8"))["meta"]["1"]["schema_version"] == 2
        AlertLog(store).record([alert(1)], T0)
    assert json.loads(path.read_text("utf-8"))["meta"]["1"]["schema_version"] == 3
