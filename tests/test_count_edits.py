"""Counts as of a moment read each post as it stood then: thread B (seed 002) as a poller
saw it grow on real SMF 2.1 and phpBB 3.3 (the live snapshots), with Conia's marked edit
of her vote (Jd- -> Slayer, "Last Edit: 11:17") and Mr. Pickles' silent edit ([Vote: Slayr]
-> [Vote: Slayer], seen only between two polls).

Each rule is checked as a GM would, with the seed's sentence beside it."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
import realthreads
import thread_b_support as tb
from cli_support import call
from daemon_support import serve, setup_store, snapshots, thread_url
from forum_server import running_forum
from test_daemon import drive, make_daemon

from assistant.alerts_file import alerts_path
from assistant.checks import posting_rules
from assistant.clock import FakeClock
from assistant.count.votes import VoteRules
from assistant.rulesets import find_ruleset
from assistant.store import GameStore

NOW = "2026-11-22T12:00:00+00:00"
BEFORE_CONIAS_EDIT = "2026-11-22T11:15:50+00:00"
"""A deadline after Conia's vote on Jd- (11:13) and before her edit to Slayer (11:17); the
poll before it (SMF 11:15:40, phpBB 11:15:31) saw every post made by then."""
INSIDE_THE_SILENT_EDIT = "2026-11-22T11:12:00+00:00"
"""A deadline between the poll that last showed [Vote: Slayr] (SMF 11:11:12, phpBB 11:11:03)
and the one that first showed [Vote: Slayer] (SMF 11:13:27, phpBB 11:13:18)."""


def conias_post(forum: str) -> int:
    return realthreads.post_id(forum, 25, "b")  # label conia_vote_jd: SMF 141, phpBB 140


def pickles_post(forum: str) -> int:
    return realthreads.post_id(forum, 19, "b")  # label pickles_quick_edit: SMF 135, phpBB 134


def grown_store(data: Path, forum: str, *, day_ends: str | None, ruleset: str = "chat-mafia"):
    """Thread B's game with every live snapshot recorded when it was saved, as a poller
    that read page 1, the last page and any page with an edit would have stored it."""
    store = tb.new_store(data, forum, day_ends=day_ends)
    store.update_config(ruleset=ruleset)
    for snap in snapshots(forum):
        for _, path in sorted(snap.files.items()):
            store.record_posts(tb.parse(path, forum), snap.saved_at)
    return store


def cli(capsys, monkeypatch, data: Path, *args: str) -> str:
    monkeypatch.setenv("ASSISTANT_NOW", NOW)
    code, out, err = call(capsys, data, *args)
    assert code == 0, err or out
    return out


def count_json(capsys, monkeypatch, data: Path, *args: str) -> dict:
    return json.loads(cli(capsys, monkeypatch, data, "count", "thread-b", "--json", *args))


def standing(doc: dict) -> dict[str, str]:
    return {v: w["target"] for w in doc["wagons"] for v in w["voters"]}


def alerts_json(capsys, monkeypatch, data: Path) -> list[dict]:
    doc = json.loads(cli(capsys, monkeypatch, data, "alerts", "thread-b", "--check", "--json"))
    return doc["alerts"] if isinstance(doc, dict) else doc


def _alert(found: list[dict], kind: str, post: int) -> dict:
    hits = [a for a in found if _field(a, "kind") == kind and _field(a, "post_id") == post]
    assert len(hits) == 1, [(_field(a, "kind"), _field(a, "post_id")) for a in found]
    return hits[0]


def _field(alert: dict, key: str):
    return alert.get(key, alert.get("alert", {}).get(key))


# ---- an edit after the day's end ----------------------------------------------------------


@pytest.mark.parametrize("forum", tb.FORUMS)
def test_an_edit_after_the_deadline_never_changes_the_days_count(
    tmp_path, capsys, monkeypatch, forum
) -> None:
    """Day 2 ends at 11:15:50; Conia edits her 11:13 vote from Jd- to Slayer at 11:17 (the
    forum's "Last Edit" notice). The day's count keeps her vote on Jd-, says why, and the
    alert carries the ruleset's severity for a late vote."""
    grown_store(tmp_path, forum, day_ends=BEFORE_CONIAS_EDIT).close()
    post = conias_post(forum)
    doc = count_json(capsys, monkeypatch, tmp_path, "--why", "Conia")
    assert standing(doc)["Conia"] == "Jd-"
    [late] = [v for v in doc["votes"] if v["code"] == "edited_after_end"]
    assert (late["post"], late["text"], late["accepted"]) == (post, "[Vote: Slayer]", False)
    assert "edited after the day ended" in late["reason"]
    assert f"the vote stays on Jd- (post {post})" in late["reason"]
    assert "11:17:00 UTC and 2026-11-22 11:17:59 UTC" in late["reason"]  # the notice's minute

    found = alerts_json(capsys, monkeypatch, tmp_path)
    alert = _alert(found, "edited_after_day_end", post)
    late_severity = posting_rules(find_ruleset("chat-mafia")).vote_late
    assert _field(alert, "severity") == late_severity == "warning"
    assert "edited after the day ended" in _field(alert, "message")
    assert "the vote stays on Jd-" in _field(alert, "message")

    # A house rule making late votes violations makes this one a violation too.
    cli(capsys, monkeypatch, tmp_path, "alerts", "thread-b", "--rule", "vote_late=violation")
    game_file = GameStore.game_path(tmp_path, "thread-b")  # the stored alerts forgotten
    alerts_path(game_file).unlink()
    document = json.loads(game_file.read_text("utf-8"))
    del document["alerts_file"]
    game_file.write_text(json.dumps(document), "utf-8")
    again = _alert(alerts_json(capsys, monkeypatch, tmp_path), "edited_after_day_end", post)
    assert _field(again, "severity") == "violation"


@pytest.mark.parametrize("forum", tb.FORUMS)
def test_the_same_edit_before_the_deadline_counts_from_its_time(
    tmp_path, capsys, monkeypatch, forum
) -> None:
    """With the day running to 11:23 (the host's announced end), the same edit counts:
    Conia's vote is on Slayer from the edit's time, after Lady Grey's 11:15 vote on Slayer
    (002, as thread B's host ruled: "I'll count it from the time of the edit")."""
    meta = tb.truth(forum)["meta"]
    grown_store(tmp_path, forum, day_ends=meta["day"]["announced_end_iso"]).close()
    doc = count_json(capsys, monkeypatch, tmp_path, "--why", "Conia")
    assert standing(doc)["Conia"] == "xX_Slayer_Xx"
    [edited] = [v for v in doc["votes"] if v["target"] == "xX_Slayer_Xx"]
    assert edited["code"] == "counted" and edited["at"] == "2026-11-22T11:17:59+00:00"
    assert "(edited in between 2026-11-22 11:17:00 UTC and 2026-11-22 11:17:59 UTC)" in (
        edited["reason"]
    )
    [jd] = [v for v in doc["votes"] if v["target"] == "Jd-"]
    assert jd["code"] == "replaced" and "changed by the edit of post" in jd["reason"]
    slayer = next(w for w in doc["wagons"] if w["target"] == "xX_Slayer_Xx")
    assert slayer["voters"].index("Lady Grey") < slayer["voters"].index("Conia")


# ---- --at-post N is the thread as it stood right after post N ----------------------------


@pytest.mark.parametrize("forum", tb.FORUMS)
def test_at_post_before_an_edit_reads_the_post_as_it_stood(
    tmp_path, capsys, monkeypatch, forum
) -> None:
    """Post 29 of thread B (Tom & Jerry's, 11:15) came after Conia's vote on Jd- and before
    her edit to Slayer: as of it, her vote is on Jd-, whatever her post says today, and
    `--at` the moment post 29 was made agrees."""
    meta = tb.truth(forum)["meta"]
    store = grown_store(tmp_path, forum, day_ends=meta["day"]["announced_end_iso"])
    n = realthreads.post_id(forum, 29, "b")
    made = store.post(n).versions[0].post.posted_at
    store.close()
    assert "Slayer" in store.post(conias_post(forum)).latest.body_html

    at_post = count_json(capsys, monkeypatch, tmp_path, "--at-post", str(n), "--why")
    at_time = count_json(capsys, monkeypatch, tmp_path, "--at", made.isoformat(), "--why")
    assert at_post == at_time
    assert standing(at_post)["Conia"] == "Jd-"
    assert not [v for v in at_post["votes"] if (v["post"] or 0) > n]
    assert standing(count_json(capsys, monkeypatch, tmp_path))["Conia"] == "xX_Slayer_Xx"
    # The draft tally as of the post is the same count.
    draft = json.loads(
        cli(capsys, monkeypatch, tmp_path, "draft", "tally", "thread-b", "--at-post", str(n),
            "--json")
    )  # fmt: skip
    assert draft["wagons"] == at_post["wagons"]


# ---- a silent edit whose window holds the deadline ----------------------------------------


@pytest.mark.parametrize("forum", tb.FORUMS)
def test_a_silent_edit_straddling_the_deadline_is_reported_not_guessed(
    tmp_path, capsys, monkeypatch, forum
) -> None:
    """Mr. Pickles' [Vote: Slayr] became [Vote: Slayer] with no edit notice: the assistant
    knows only that it happened between two polls. With the deadline in between, the alert
    says so; the count keeps what the day had at its end (his vote on Lady Grey, since
    'Slayr' names no player)."""
    grown_store(tmp_path, forum, day_ends=INSIDE_THE_SILENT_EDIT).close()
    post = pickles_post(forum)
    doc = count_json(capsys, monkeypatch, tmp_path, "--why", "Mr. Pickles")
    assert standing(doc)["Mr. Pickles"] == "Lady Grey"
    [unknown] = [v for v in doc["votes"] if v["code"] == "edited_around_end"]
    assert unknown["post"] == post and "cannot be known" in unknown["reason"]

    found = alerts_json(capsys, monkeypatch, tmp_path)
    alert = _alert(found, "edit_time_unknown_at_deadline", post)
    message = _field(alert, "message")
    assert "silently" in message and "2026-11-22 11:12:00 UTC in between" in message
    assert "whether before or after the deadline cannot be known" in message
    assert "the vote stays on Lady Grey" in message
    assert _field(alert, "severity") == posting_rules(find_ruleset("chat-mafia")).vote_late


# ---- the ruleset says whether an edit can change a vote -----------------------------------


def _with_tag_votes(tmp_path: Path, bundled: str) -> str:
    """The bundled ruleset file with thread B's [Vote: X] tags as its vote markup, so that
    Conia's real edit is a vote under it: only `forms` changes, the edit setting is the file's."""
    text = find_ruleset(bundled).path.read_text(encoding="utf-8")
    lines = text.splitlines()
    i = lines.index("[votes]")
    j = next(k for k in range(i + 1, len(lines)) if lines[k].startswith("forms ="))
    lines[j] = 'forms = ["tag"]'
    path = tmp_path / f"{bundled}-tags.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def test_every_bundled_ruleset_states_whether_an_edit_changes_a_vote() -> None:
    edits = {
        name: VoteRules.from_ruleset(find_ruleset(name)).edits
        for name in ("000", "001", "002", "003", "004", "mafiascum", "permissive")
    }
    assert edits == {
        "000": "count_from_edit",
        "001": "first_posted",
        "002": "count_from_edit",
        "003": "count_from_edit",
        "004": "count_from_edit",
        "mafiascum": "count_from_edit",
        "permissive": "count_from_edit",
    }
    for name in edits:
        text = find_ruleset(name).path.read_text(encoding="utf-8")
        assert "\nedits = " in text and "# " in text.split("\nedits = ")[0].splitlines()[-1]


@pytest.mark.parametrize("forum", tb.FORUMS)
def test_001_an_edited_vote_stands_as_first_posted(tmp_path, capsys, monkeypatch, forum) -> None:
    """Seed 001: "Do not edit your posts. If you change your opinion, make a new post with
    your new vote." Conia's vote stays on Jd- though she edited it to Slayer within the day,
    and the edit is a violation that says the vote stands as first posted."""
    meta = tb.truth(forum)["meta"]
    ruleset = _with_tag_votes(tmp_path, "millers-hollow")
    grown_store(tmp_path, forum, day_ends=meta["day"]["announced_end_iso"], ruleset=ruleset).close()
    post = conias_post(forum)
    doc = count_json(capsys, monkeypatch, tmp_path, "--why", "Conia")
    assert standing(doc)["Conia"] == "Jd-"
    [refused] = [v for v in doc["votes"] if v["code"] == "edit_not_allowed"]
    assert refused["post"] == post and "stands as first posted" in refused["reason"]

    alert = _alert(alerts_json(capsys, monkeypatch, tmp_path), "vote_changed_by_edit", post)
    assert _field(alert, "severity") == "violation"
    assert "the vote stands as first posted" in _field(alert, "message")


def test_003_counts_the_edited_vote_from_the_edits_time(tmp_path, capsys, monkeypatch) -> None:
    """Seed 003: "You are also permitted to edit your posts. ... the Moderators will not
    intervene in any case of post editing." Conia's edited vote on Slayer counts, from the
    edit's time; the vote the post had cast (Jd-) is changed by it, no unvote needed."""
    forum = "smf21"
    meta = tb.truth(forum)["meta"]
    ruleset = _with_tag_votes(tmp_path, "three-factions")
    grown_store(tmp_path, forum, day_ends=meta["day"]["announced_end_iso"], ruleset=ruleset).close()
    doc = count_json(capsys, monkeypatch, tmp_path, "--why", "Conia")
    [edited] = [v for v in doc["votes"] if v["target"] == "xX_Slayer_Xx"]
    assert edited["code"] == "counted" and edited["at"] == "2026-11-22T11:17:59+00:00"
    assert standing(doc)["Conia"] == "xX_Slayer_Xx"


def test_000_an_edit_after_the_day_ended_early_does_not_count(
    tmp_path, capsys, monkeypatch
) -> None:
    """Seed 000 says nothing of editing (edits count from their time), and its day ends
    when everyone has voted: in thread B that was 11:15, so Conia's 11:17 edit came after
    the day's end and changes nothing; her vote stays on Jd-."""
    forum = "smf21"
    meta = tb.truth(forum)["meta"]
    ruleset = _with_tag_votes(tmp_path, "paranormal")
    grown_store(tmp_path, forum, day_ends=meta["day"]["announced_end_iso"], ruleset=ruleset).close()
    doc = count_json(capsys, monkeypatch, tmp_path, "--why", "Conia")
    assert standing(doc)["Conia"] == "Jd-"
    [late] = [v for v in doc["votes"] if v["code"] == "edited_after_end"]
    assert "the day ended at the deadline (2026-11-22 11:15:00 UTC)" in late["reason"]
    assert "the vote stays on Jd-" in late["reason"]


# ---- the daemon's locked final count and every later count agree ------------------------


def _day2_ends_before_conias_edit(data: Path, forum: str) -> None:
    """The GM moves Day 2's end to 11:15:50, before Conia's 11:17 edit."""
    meta = tb.truth(forum)["meta"]
    day2 = {"kind": "day", "number": 2, "starts_at": meta["day"]["start_iso"],
            "ends_at": BEFORE_CONIAS_EDIT, "start_post": None}  # fmt: skip
    with GameStore.open(data, "thread-b", create=False) as store:
        store.add_input("phase", day2, datetime(2026, 11, 22, 11, 1, tzinfo=UTC))


def _later_counts_agree(capsys, monkeypatch, data: Path) -> dict:
    with GameStore.open(data, "thread-b", create=False) as store:
        [locked] = store.table("final_counts").all()
    assert locked["deadline"] == BEFORE_CONIAS_EDIT
    counted = count_json(capsys, monkeypatch, data)
    drafted = json.loads(cli(capsys, monkeypatch, data, "draft", "tally", "thread-b", "--json"))
    drafted.pop("bbcode")
    assert locked["tally"] == counted == drafted
    # After the GM starts the night, Day 2's count is still the locked one.
    cli(capsys, monkeypatch, data, "phase", "thread-b", "night", "2")
    assert count_json(capsys, monkeypatch, data, "--day", "2") == locked["tally"]
    return locked["tally"]


@pytest.mark.parametrize("forum", tb.FORUMS)
def test_the_daemons_locked_count_and_every_later_count_agree(
    tmp_path, capsys, monkeypatch, forum
) -> None:
    """The daemon locks Day 2 at 11:15:50 and then sees Conia's edit (made 11:17, polled 11:18):
    `count` and `draft tally` run afterwards show the locked count, not the edited vote;
    so does a daemon that was down over the deadline and locks it late, after the edit."""
    late = tmp_path / "late"
    clock = FakeClock(datetime(2026, 11, 22, 11, 0, tzinfo=UTC))
    with running_forum() as server:
        url = thread_url(server, forum)
        setup_store(tmp_path, forum, url)
        _day2_ends_before_conias_edit(tmp_path, forum)
        drive(make_daemon(tmp_path, clock), clock, server, forum)

        # The same game, its daemon stopped after the 11:15 poll and started at 11:40.
        late.mkdir()
        setup_store(late, forum, url)
        _day2_ends_before_conias_edit(late, forum)
        late_clock = FakeClock(datetime(2026, 11, 22, 11, 0, tzinfo=UTC))
        snaps = snapshots(forum)
        drive(make_daemon(late, late_clock), late_clock, server, forum, stop_after=6)
        serve(server, forum, snaps[-1], snaps)
        late_clock.set(datetime(2026, 11, 22, 11, 40, tzinfo=UTC))
        make_daemon(late, late_clock).tick("thread-b")

    tally = _later_counts_agree(capsys, monkeypatch, tmp_path)
    assert standing(tally)["Conia"] == "Jd-"
    assert _later_counts_agree(capsys, monkeypatch, late) == tally


@pytest.mark.parametrize("forum", tb.FORUMS)
def test_a_post_fetched_late_already_edited_after_the_deadline_is_unknown(
    tmp_path, capsys, monkeypatch, forum
) -> None:
    """The thread read only after the day (its final pages): Conia's post shows [Vote:
    Slayer] with a "Last edit" of 11:17, after the 11:15:50 deadline. Her first version
    was never seen, so the vote it stood with at the deadline is unknown: the alert says
    so rather than guessing; the count reads the one version there is."""
    store = tb.new_store(tmp_path, forum, day_ends=BEFORE_CONIAS_EDIT)
    store.record_posts(tb.final_posts(forum), tb.SAVED_AT)
    store.close()
    post = conias_post(forum)
    alert = _alert(alerts_json(capsys, monkeypatch, tmp_path), "edit", post)
    message = _field(alert, "message")
    assert "the first version was not seen" in message
    assert "the edit came after the day ended (Sun 22 Nov 2026 11:15 UTC)" in message
    assert "the vote the post stood with then is unknown" in message
    assert standing(count_json(capsys, monkeypatch, tmp_path))["Conia"] == "xX_Slayer_Xx"


@pytest.mark.parametrize("forum", tb.FORUMS)
def test_a_vote_the_forum_showed_only_after_the_lock_revises_the_locked_count(
    tmp_path, capsys, monkeypatch, forum, caplog
) -> None:
    """Conia's 11:13 vote on Jd- came before the 11:15:50 deadline, but the forum showed it
    only after the daemon had locked the day (a moderation queue, a slow mirror): a GM
    counts every vote made before the deadline, so the daemon locks a revised final count
    beside the first, drafts it and says so; the lock, `count` and `draft tally` agree."""
    caplog.set_level("WARNING", logger="assistant.daemon")
    snaps = snapshots(forum)
    post = conias_post(forum)
    shown = next(i for i, snap in enumerate(snaps)
                 if any(p.post_id == post for path in snap.files.values()
                        for p in tb.parse(path, forum)))  # fmt: skip
    deadline = datetime.fromisoformat(BEFORE_CONIAS_EDIT)
    assert snaps[shown].saved_at < deadline
    clock = FakeClock(datetime(2026, 11, 22, 11, 0, tzinfo=UTC))
    with running_forum() as server:
        setup_store(tmp_path, forum, thread_url(server, forum))
        _day2_ends_before_conias_edit(tmp_path, forum)
        daemon = make_daemon(tmp_path, clock)
        drive(daemon, clock, server, forum, stop_after=shown - 1)  # the page without her post
        clock.set(deadline)
        daemon.tick("thread-b")
        with GameStore.open(tmp_path, "thread-b", create=False) as store:
            [first] = store.table("final_counts").all()
        assert "Conia" not in standing(first["tally"])
        serve(server, forum, snaps[shown], snaps)  # her post, not yet edited, shows up
        clock.set(datetime(2026, 11, 22, 11, 16, 20, tzinfo=UTC))
        daemon.tick("thread-b")
        daemon.tick("thread-b")  # nothing new: no second revision

    with GameStore.open(tmp_path, "thread-b", create=False) as store:
        locked = store.table("final_counts").all()
    assert len(locked) == 2 and locked[1]["revises"] == first["locked_at"]
    assert standing(locked[1]["tally"])["Conia"] == "Jd-"
    drafts = tmp_path / "drafts" / "thread-b"
    assert {p.name for p in drafts.glob("day2-final*.txt")} == {"day2-final.txt",
                                                                "day2-final-2.txt"}
    [said] = [r.getMessage() for r in caplog.records if "changed since it was locked" in
              r.getMessage()]  # fmt: skip
    # What changed, and why: "Jd- 0 -> 1 votes, ...; posts 140, 142, 144 seen late; the
    # lynch is unchanged (xX_Slayer_Xx)": the snapshot that showed her post showed others.
    jd = {w["target"]: w["displayed"] for w in first["tally"]["wagons"]}.get("Jd-", 0)
    assert said.startswith("final count of thread-b Day 2 changed since it was locked at ")
    assert f": Jd- {jd} -> {jd + 1} votes" in said
    late = re.search(r"; posts? ([\d, ]+) seen late; ", said)
    assert late and str(post) in late.group(1).split(", "), said
    lynched = ", ".join(locked[1]["tally"]["outcome"]["lynched"]) or "no lynch"
    was = ", ".join(first["tally"]["outcome"]["lynched"]) or "no lynch"
    assert (f"; the lynch is unchanged ({lynched}); revised -> " if was == lynched
            else f"; the lynch: {was} -> {lynched}; revised -> ") in said  # fmt: skip
    counted = count_json(capsys, monkeypatch, tmp_path)
    drafted = json.loads(cli(capsys, monkeypatch, tmp_path, "draft", "tally", "thread-b", "--json"))
    drafted.pop("bbcode")
    assert locked[1]["tally"] == counted == drafted
