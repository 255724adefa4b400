"""Edited posts in real SMF and phpBB markup: forum-marked, moderator, and silent edits
seen only by comparing live snapshots (thread B, seed 002), and each ruleset's severity."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import thread_b_support as tb
from conftest import REALFORUM

from assistant.checks import posting_rules
from assistant.checks.edits import check_edits, usable_votes
from assistant.count.votes import VoteRules
from assistant.rulesets import find_ruleset
from assistant.store import GameStore

LIVE = REALFORUM / "live"


def _check(store: GameStore, ruleset: str = "002"):
    rs = find_ruleset(ruleset)
    game = tb.game("smf21")
    votes_of = usable_votes(VoteRules.from_ruleset(rs), game.gms)
    return check_edits(store.posts(), game, posting_rules(rs), votes_of)


def _record(store: GameStore, forum: str, snapshot: str, seen: str) -> None:
    posts = tb.parse(LIVE / f"{forum}_b_live_{snapshot}.html", forum)
    store.record_posts(posts, datetime.fromisoformat(seen).astimezone(UTC))


@pytest.mark.parametrize("forum,post_id", [("smf21", 135), ("phpbb33", 134)])
def test_silent_edit_found_between_two_snapshots(tmp_path, forum, post_id) -> None:
    store = tb.new_store(tmp_path, forum)
    _record(store, forum, "20_p2", "2026-11-22T11:11:12+00:00")
    assert not [a for a in _check(store) if a.post_id == post_id]
    _record(store, forum, "25_p2", "2026-11-22T11:13:27+00:00")
    [alert] = [a for a in _check(store) if a.post_id == post_id]
    assert alert.kind == "silent_edit" and alert.player == "Mr. Pickles"
    assert "[vote Slayr] -> [vote Slayer]" in alert.message
    assert "-[Vote: Slayr]" in alert.evidence and "+[Vote: Slayer]" in alert.evidence
    assert alert.severity == "warning"  # 002: an edit that changed a vote


@pytest.mark.parametrize("forum,post_id", [("smf21", 130), ("phpbb33", 129)])
def test_moderator_edit_with_reason(tmp_path, forum, post_id) -> None:
    store = tb.new_store(tmp_path, forum)
    _record(store, forum, "15_p1", "2026-11-22T11:08:56+00:00")
    _record(store, forum, "20_p1", "2026-11-22T11:11:12+00:00")
    [alert] = [a for a in _check(store) if a.post_id == post_id]
    assert alert.kind == "moderator_edit"
    assert "admin (not the author)" in alert.message
    assert "Removed personal attack (be civil)" in alert.message
    assert "votes in it are unchanged" in alert.message
    assert "you absolute muppet" in alert.evidence and "[removed by moderator]" in alert.evidence


@pytest.mark.parametrize("forum,post_id", [("smf21", 141), ("phpbb33", 140)])
def test_marked_edit_that_changed_a_vote(tmp_path, forum, post_id) -> None:
    store = tb.new_store(tmp_path, forum)
    _record(store, forum, "30_p2", "2026-11-22T11:15:40+00:00")
    _record(store, forum, "40_p2", "2026-11-22T11:18:58+00:00")
    [alert] = [a for a in _check(store) if a.post_id == post_id]
    assert alert.kind == "vote_changed_by_edit" and alert.player == "Conia"
    assert "[vote Jd-] -> [vote Slayer]" in alert.message
    # The ruleset decides: 001 forbids every edit (and [Vote: X] is no vote in its bold
    # markup, so this edit changed no vote there); 003 allows edits that change no vote.
    [strict] = [a for a in _check(store, "001") if a.post_id == post_id]
    assert (strict.kind, strict.severity) == ("edit", "violation")
    assert [a for a in _check(store, "003") if a.post_id == post_id] == []


@pytest.mark.parametrize("forum", tb.FORUMS)
def test_final_pages_show_only_the_forum_marked_edits(tmp_path, forum) -> None:
    store = tb.new_store(tmp_path, forum)
    store.record_posts(tb.final_posts(forum), tb.SAVED_AT)
    found = {(a.post_id, a.kind) for a in _check(store)}
    moderator = {(p, k) for p, k in tb.expected(forum, live_only=False) if k == "moderator_edit"}
    assert moderator <= found
    # Conia's vote edit: on the final pages only the notice is left; the alert says the
    # post carries a vote and that the first version was not seen.
    conia = [a for a in _check(store) if a.player == "Conia"]
    assert len(conia) == 1 and conia[0].kind == "edit"
    assert "whether the edit changed a vote is unknown" in conia[0].message
    # The silent edit cannot be seen without the first version.
    assert not any(k == "silent_edit" for _, k in found)
    # 003 allows edits: only the moderator's edit is reported there (as info).
    assert {(a.kind, a.severity) for a in _check(store, "003")} == {("moderator_edit", "info")}


def test_same_facts_same_alert_ids(tmp_path) -> None:
    store = tb.new_store(tmp_path, "smf21")
    _record(store, "smf21", "20_p2", "2026-11-22T11:11:12+00:00")
    _record(store, "smf21", "25_p2", "2026-11-22T11:13:27+00:00")
    assert [a.id for a in _check(store)] == [a.id for a in _check(store)]


def test_edit_times_are_in_the_games_time_zone_and_names_read_well(tmp_path) -> None:
    """A GM in New York reads "06:11 EST", not raw UTC ISO; "Tom & Jerry's post", not
    "Tom & Jerry's's post"."""
    import dataclasses

    from assistant.checks.text import possessive

    store = tb.new_store(tmp_path, "smf21")
    _record(store, "smf21", "20_p2", "2026-11-22T11:11:12+00:00")
    _record(store, "smf21", "25_p2", "2026-11-22T11:13:27+00:00")
    rs = find_ruleset("002")
    game = dataclasses.replace(tb.game("smf21"), tz="America/New_York")
    votes_of = usable_votes(VoteRules.from_ruleset(rs), game.gms)
    [alert] = [a for a in check_edits(store.posts(), game, posting_rules(rs), votes_of)
               if a.post_id == 135]
    assert ("Mr. Pickles' post #135 was silently edited (no edit notice) between "
            "Sun 22 Nov 2026 06:11 EST and Sun 22 Nov 2026 06:13 EST") in alert.message
    assert "+00:00" not in alert.message
    assert [possessive(n) for n in ("Kat", "Tom & Jerry's", "Chris")] == [
        "Kat's", "Tom & Jerry's", "Chris'"]


@pytest.mark.parametrize("forum", tb.FORUMS)
def test_each_versions_text_is_read_once_across_reviews(tmp_path, forum, monkeypatch) -> None:
    """The daemon checks the same edited posts at every poll: each version's visible text
    (the alerts' evidence) is worked out once, kept by the version's fingerprint, and the
    alerts stay the same. The posts are read anew from the store for each check, as the
    daemon's reviews read them."""
    from assistant.checks import edits

    monkeypatch.setattr(edits, "_texts", {})
    parsed: list[str] = []
    real = edits.post_text

    def spy(body_html: str, **kw: object) -> str:
        parsed.append(body_html)
        return real(body_html, **kw)

    monkeypatch.setattr(edits, "post_text", spy)
    store = tb.new_store(tmp_path, forum)
    store.record_posts(tb.final_posts(forum), tb.SAVED_AT)  # posts seen only after an edit
    _record(store, forum, "20_p2", "2026-11-22T11:11:12+00:00")
    _record(store, forum, "25_p2", "2026-11-22T11:13:27+00:00")  # a silent edit: a diff
    first = _check(store)
    assert {"silent_edit", "moderator_edit"} <= {a.kind for a in first}
    assert parsed and len(parsed) == len(set(parsed))
    once = len(parsed)
    assert _check(store) == first
    assert len(parsed) == once  # the second review parsed no body again
    assert all(isinstance(k, int) for k in edits._texts)  # kept by fingerprint, not body


def test_only_edited_posts_are_looked_at_and_only_ruled_ones_for_rulings(
    tmp_path, monkeypatch
) -> None:
    """The checks of edits run at every poll over every post: a post never edited (most)
    is passed over before its author is asked about, and only the posts the GM ruled on
    are asked for their rulings. The alerts stay the same."""
    import dataclasses

    from assistant.checks.edits import check_edits_after_rulings
    from assistant.game import Game, Ruling

    store = tb.new_store(tmp_path, "smf21")
    _record(store, "smf21", "20_p2", "2026-11-22T11:11:12+00:00")
    _record(store, "smf21", "25_p2", "2026-11-22T11:13:27+00:00")
    posts = store.posts()
    edited = [sp for sp in posts if sp.edited]
    assert edited and len(edited) < len(posts) / 2
    asked: list[str] = []
    for name in ("is_gm", "rulings_on"):
        real = getattr(Game, name)

        def spy(self, arg, _real=real, _name=name):  # noqa: ANN001, ANN202
            asked.append(_name)
            return _real(self, arg)

        monkeypatch.setattr(Game, name, spy)
    [alert] = [a for a in _check(store) if a.post_id == 135]
    assert alert.kind == "silent_edit"
    assert asked.count("is_gm") == len(edited)
    game = tb.game("smf21")
    assert check_edits_after_rulings(posts, game) == []
    assert "rulings_on" not in asked
    ruled = dataclasses.replace(game, rulings=(Ruling(post=135, action="ignore", version=1),))
    [after] = check_edits_after_rulings(posts, ruled)
    assert (after.kind, after.post_id) == ("edited_after_ruling", 135)
    assert asked.count("rulings_on") == 1
