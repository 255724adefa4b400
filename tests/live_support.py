"""The real SMF 2.1.5 and phpBB 3.3.10 of ../shared/forums, stood up once per test run.

Use it from a test by asking for the session fixture `live_forums` (tests/conftest.py
exposes it); any test that asks for it is marked `live_forum` automatically, so
`pytest -m "not live_forum"` leaves the forums down:

    def test_something(live_forums):
        smf = live_forums.smf                       # forum.SMF: acts as members via real forms
        a, b = live_forums.names("alice", "bob")    # names unique in this run ("alice7", ...)
        smf.create_members(a, b)                    # or .register(...) through the sign-up form
        topic, first = smf.new_topic(a, "Day 1", "[b]vote bob[/b]")
        url = live_forums.topic_url("smf", topic)   # what `assistant fetch URL` is given
        live_forums.phpbb ...                       # forum.PhpBB, same methods

Shape (stable; other tests rely on it): `LiveForums` with `.smf` (forum.SMF), `.phpbb`
(forum.PhpBB), `.forum(software)` for parametrised tests ("smf" / "phpbb"), `.env` (the
forums.env dict: SMF_URL, PHPBB_URL, ...), `.dir` (the forums' directory), `.names(...)`
and `.topic_url(software, topic, page=1)`. The `forum` module itself is `live_support.forum`.

Why one pair per session: `up` takes ~5-15 s and `down` ~1.5 s, so every test shares the
two boards and keeps to its own topics and member names. `up` runs in a pytest temporary
directory; the finaliser runs `down` (which stops exactly the processes `up` recorded) and
deletes the ~200 MB directory. If the forums cannot start the run fails with up's own
message: they are part of the suite, not optional. Only off CI (`CI` unset) and not as root,
where `up` cannot install PHP/MariaDB, is the failure a visible skip.
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import SHARED

FORUMS = SHARED / "forums"
sys.path.insert(0, str(FORUMS))
import forum  # noqa: E402  (stdlib-only client shipped with the forums, not a package)

# apt installs (first run on a clean CI box) can take up to up's APT_TIMEOUT (900 s) on top
# of its UP_TIMEOUT (600 s); a hung `up` must still end the run.
UP_TIMEOUT_S = 1600
DOWN_TIMEOUT_S = 120


@dataclass
class LiveForums:
    """Both running forums and what a test needs to use them; see the module docstring."""

    dir: Path
    env: dict[str, str]
    smf: forum.SMF
    phpbb: forum.PhpBB
    _serial: Iterator[int] = field(default_factory=lambda: itertools.count(1), repr=False)

    def forum(self, software: str) -> forum.SMF | forum.PhpBB:
        """The client for "smf" or "phpbb" (as parametrised tests name them)."""
        return {"smf": self.smf, "phpbb": self.phpbb}[software]

    def names(self, *bases: str) -> list[str]:
        """Member names unique in this run: each base gets one run-wide number, so two
        tests asking for "alice" get different members (both forums refuse a taken name)."""
        n = next(self._serial)
        return [f"{base}{n}" for base in bases]

    def topic_url(self, software: str, topic: int, page: int = 1) -> str:
        """The topic's URL as a GM would paste it into `game new --thread`."""
        return self.forum(software).topic_url(topic, page)


def _up(directory: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(FORUMS / "up"), str(directory)],
        capture_output=True,
        text=True,
        timeout=UP_TIMEOUT_S,
    )


def _down(directory: Path) -> None:
    if (directory / "forums.env").exists() or (directory / "pids").exists():
        subprocess.run(
            [str(FORUMS / "down"), str(directory)],
            check=True,
            capture_output=True,
            timeout=DOWN_TIMEOUT_S,
        )


def start_live_forums(directory: Path) -> LiveForums:
    """Run `up DIRECTORY`; a failure fails the run (or skips, off CI and not root)."""
    try:
        done = _up(directory)
    except subprocess.TimeoutExpired:
        _down(directory)
        pytest.fail(f"{FORUMS / 'up'} {directory} did not finish in {UP_TIMEOUT_S} s")
    if done.returncode != 0:
        _down(directory)
        why = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
        message = f"the real forums did not start (`up {directory}` said: {why})"
        if os.environ.get("CI") is None and os.geteuid() != 0:
            pytest.skip(message + "; as root, up installs what is missing")
        pytest.fail(message)
    return LiveForums(
        dir=directory,
        env=forum.load_env(directory),
        smf=forum.SMF(directory),
        phpbb=forum.PhpBB(directory),
    )


def stop_live_forums(live: LiveForums) -> None:
    """`down`, then remove the directory (a forum pair is ~200 MB)."""
    _down(live.dir)
    shutil.rmtree(live.dir, ignore_errors=True)
