"""Shared test fixtures: where the real forum pages are, and a fake clock."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from assistant.clock import FakeClock

# The helper modules' asserts get pytest's detailed failure reports too.
pytest.register_assert_rewrite(
    "cli_support",
    "realthreads",
    "forum_server",
    "daemon_support",
    "thread_b_support",
    "thread_b_cli",
    "live_support",
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


# The real SMF and phpBB, once per run: see tests/live_support.py (imported here, after SHARED
# is set, because it reads it).
from live_support import LiveForums, start_live_forums, stop_live_forums  # noqa: E402


@pytest.fixture(scope="session")
def live_forums(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveForums]:
    """Both real forums running on 127.0.0.1 for the whole run; see tests/live_support.py."""
    live = start_live_forums(tmp_path_factory.mktemp("forums"))
    try:
        yield live
    finally:
        stop_live_forums(live)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test that uses the real forums is marked `live_forum`, so `-m "not live_forum"`
    keeps them down."""
    for item in items:
        if "live_forums" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.live_forum)


@pytest.fixture(autouse=True)
def _no_log_handler_left_behind():
    """A command run in-process (`run`) sends the log to that test's captured stderr; the
    handler goes with the test, so a later test's log line neither lands in its output
    nor writes to a closed stream."""
    yield
    import logging

    logger = logging.getLogger("assistant")
    for handler in [h for h in logger.handlers if getattr(h, "assistant_clock_log", False)]:
        logger.removeHandler(handler)
