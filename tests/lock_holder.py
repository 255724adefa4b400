"""Holds one game's write open for the lock test: opens a batch, stores a fact in it,
prints "holding", and finishes the write only when a line arrives on stdin.

Run: python tests/lock_holder.py DATA_DIR GAME
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime

from assistant.store import GameStore


def main(data_dir: str, game: str) -> None:
    with GameStore.open(data_dir, game, create=False) as store:
        with store.batch():
            store.add_input("note", {"text": "held write"}, datetime(2026, 11, 22, tzinfo=UTC))
            print("holding", flush=True)
            sys.stdin.readline()
    print("done", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
