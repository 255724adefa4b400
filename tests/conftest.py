"""Shared test fixtures: where the real forum pages are, and a fake clock."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

from assistant.clock import FakeClock

# The helper modules' asserts get pytest's detailed failure reports too.
pytest.register_assert_rewrite(
    "cli_support", "realthreads", "forum_server", "daemon_support", "thread_b_support"
)

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("ASSISTANT_SHARED", ROOT.parent / "shared")).resolve()
REALFORUM = SHARED / "fixtures" / "realforum"
WILD = SHARED / "fixtures" / "wild"
SEEDS = SHARED / "seeds"

if not REALFORUM.is_dir():  # fail loudly: a suite that skips the real pages proves nothing
    raise RuntimeError(
        f"the real forum pages are not at {REALFORUM}; put the project's shared/ folder beside "
        "the repository or set ASSISTANT_SHARED to its path"
    )


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(datetime(2026, 11, 22, 12, 0, tzinfo=UTC))
