"""The deadline reminder lists who still has to act: thread B (002) read as it stood two
minutes into Day 2, its 5-minute warning handled by the daemon: who has no vote (as the
count has it) and who has not posted yet (from the thread's ground truth), with the
command that drafts their prods."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import thread_b_support as tb
from cli_support import call

from assistant.monitor import load_view
from assistant.notify.push import gather
from assistant.notify.targets import CONFIG_KEY, new_target
from assistant.store import GameStore

FORUM = "smf21"
DAY_START = datetime.fromisoformat(tb.truth(FORUM)["meta"]["day"]["start_iso"])


def test_the_warning_names_who_has_not_voted_or_posted(tmp_path, capsys, monkeypatch) -> None:
    now = DAY_START + timedelta(minutes=2)
    shown = {p["msg_id"] for p in tb.truth(FORUM)["posts"]
             if datetime.fromisoformat(p["posted_at_iso"]) <= now}
    posted = {p["author"] for p in tb.truth(FORUM)["posts"]
              if DAY_START <= datetime.fromisoformat(p["posted_at_iso"]) <= now}
    silent = [p[0] for p in tb.thread_b_players(FORUM)
              if p[0] not in posted and p[0] not in ("ÆtherWolf", "Kat")]
    store = tb.new_store(tmp_path, FORUM)
    store.record_posts([p for p in tb.final_posts(FORUM) if p.post_id in shown], now)
    target = new_target("json://127.0.0.1:9/hook", DAY_START)
    store.update_config(**{CONFIG_KEY: [target.to_json()]})
    store.close()
    monkeypatch.setenv("ASSISTANT_NOW", now.isoformat())
    code, out, err = call(capsys, tmp_path, "--json", "count", "thread-b")
    not_voting = json.loads(out)["not_voting"]
    assert silent and not_voting
    marker = {"key": "day2:warn:300", "kind": "warning", "status": "drafted",
              "handled_at": now.isoformat(), "at": now.isoformat(), "file": None}
    with GameStore.open(tmp_path, "thread-b", create=False) as store:
        [warning] = [n for n in gather(store, load_view(store, now), now, handled=[marker])
                     if n.key == "day2:warn:300"]
    assert warning.title == "Turtle's Chat Mafia: Day 2 ends in 5 min"  # the ruleset's title
    assert [ln for ln in warning.body.splitlines() if not ln.startswith("Deadline:")] == [
        f"Not voted: {', '.join(not_voting)}.",
        f"No post since Day 2 began: {', '.join(silent)} "
        "(prods: assistant draft prods thread-b).",
        "The count: assistant count thread-b",
    ]
