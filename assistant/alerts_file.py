"""A game's alerts as a file that grows by appending (`games/G.json.alerts`).

An alert is stored once, when the checks first find it, and is then only acknowledged by
the GM or opened again (`assistant undo`). Until schema 3 the alerts were a table of the
game file, so every write of the game (each poll's crawl state) wrote all of them again
and every opening parsed them: a long game's thousands of alerts were most of its file.
Here a batch of the store appends one line of what it changed, under the crash safety of
append_log.py (the game file names the stored length), and only what asks about alerts
reads them. A game file of schema 1 or 2 moves its "alerts" table here on its first write
(store.py).

The records are the old table's documents: {"schema_version", "id", "alert": {...},
"first_seen", "acked_at", "ack_note"} by id, in the order they were stored (alerts.py
reads them). Operations of a line:
  ["new", record]          an alert stored (its whole record)
  ["ack", id, at, note]    the GM acknowledged it at `at` (note: text or null)
  ["open", id]             the acknowledgement withdrawn
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from assistant.append_log import AppendLog, Doc, Op


def alerts_path(game_file: Path) -> Path:
    return game_file.with_name(f"{game_file.name}.alerts")


class AlertsFile(AppendLog):
    """The alerts of one game as read from its file (a store's own: not shared)."""

    what = "alerts file"
    lazy = True

    def apply(self, ops: Iterable[Op]) -> None:
        docs = self.docs
        for op in ops:
            kind = op[0]
            if kind == "new":
                doc = op[1]
                if not isinstance(doc, dict):
                    raise ValueError("an alert that is not a record")
                # (one without an id keeps a place of its own: refused when it is read)
                docs[doc["id"] if isinstance(doc.get("id"), str) else f"#{len(docs)}"] = doc
                continue
            doc = docs.get(op[1])
            if doc is None:
                raise ValueError(f"alert {op[1]!r} changed before it was stored")
            if kind == "ack":
                doc["acked_at"], doc["ack_note"] = op[2], op[3]
            elif kind == "open":
                doc["acked_at"] = doc["ack_note"] = None
            else:
                raise ValueError(f"unknown change {kind!r}")

    def snapshot_ops(self, docs: dict[Any, Doc]) -> list[Op]:
        return [["new", doc] for doc in docs.values()]


def docs_of_table(table: dict[str, Any]) -> dict[str, Doc]:
    """The records of a schema-1 or 2 game file's "alerts" table, by alert id (a record
    without one keeps its place under its table key, and is refused when it is read)."""
    return {doc["id"] if isinstance(doc.get("id"), str) else f"#{key}": doc
            for key, doc in table.items()}
