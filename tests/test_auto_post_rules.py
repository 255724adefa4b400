"""Who asks for the count, and the GM's switch for the daemon's own tallies (issue 23), without
a forum (tests/test_live_autopost.py posts on the real SMF and phpBB).

Seed 002: "The vote tally or the remaining time can be given on request." The reading
(rulesets/chat-mafia.toml [auto_post]): a sentence of a player's own words holding one
of the ruleset's phrases, case and punctuation aside; a quote is someone else's."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime

import pytest
from cli_support import call
from test_count_edits import NOW, grown_store

from assistant.errors import RulesetError
from assistant.models import Post
from assistant.rulesets import find_ruleset
from assistant.store import GameStore
from assistant.tally_requests import asks_for_count, auto_post_rules

RULES = find_ruleset("002").auto_post


def _post(body_html: str) -> Post:
    return Post(1, 1, "Conia", 7, datetime(2026, 11, 22, 11, 5, tzinfo=UTC), body_html, 1)


@pytest.mark.parametrize("body", [
    "Vote count, please!",
    "VOTECOUNT PLEASE",
    "<b>##VoteCount</b>",
    "I'm lost with all these changes.<br>Can we get a count? Thanks Mira",
    "How much time is left?",
])
def test_a_player_asking_for_the_count(body: str) -> None:
    assert asks_for_count(_post(body), RULES)


@pytest.mark.parametrize("body", [
    # Someone else's request, quoted: the quoting player asks nothing.
    '<blockquote><cite>Jd- wrote:</cite>vote count please</blockquote>Lol no.',
    # A phrase across two sentences is not one ("... do not count. Please don't edit").
    "Votes inside quote boxes do not count. Please don't edit votes.",
    "I can't count on Slayer. Tally ho!",
    "The recount pleased nobody; a vc pleases me.",  # inside other words: not the phrase
])
def test_no_request(body: str) -> None:
    assert not asks_for_count(_post(body), RULES)


@pytest.mark.parametrize("forum", ["smf21", "phpbb33"])
def test_thread_b_on_both_forums_has_no_request(tmp_path, forum: str) -> None:
    """The real 002 thread: nobody asked (the host's opening post, with "... do not
    count. Please don't edit ...", neither)."""
    with grown_store(tmp_path, forum, day_ends=None) as store:
        asked = [sp.post_id for sp in store.posts() if asks_for_count(sp.latest, RULES)]
    assert asked == []


def test_a_ruleset_with_a_wrong_auto_post_section_is_refused_naming_the_key(tmp_path) -> None:
    base = find_ruleset("002")
    path = tmp_path / "mine.toml"
    text = base.path.read_text(encoding="utf-8").replace('min_gap = "2m"', 'min_gap = "soon"')
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesetError, match=r"mine\.toml \[auto_post\] min_gap: 'soon'"):
        find_ruleset(str(path))

    class Tables:
        path = "mine.toml"

        def section(self, name: str):  # noqa: ANN202
            return {"requests": ["?!"]}

    with pytest.raises(RulesetError, match="matches every post"):
        auto_post_rules(Tables())
    assert replace(RULES, requests=()).phrases() == ()


def test_the_gm_turns_auto_post_on_and_off(tmp_path, capsys, monkeypatch) -> None:
    grown_store(tmp_path, "smf21", day_ends=None).close()
    monkeypatch.setenv("ASSISTANT_NOW", NOW)

    def run(*args: str, ok: bool = True) -> str:
        code, out, err = call(capsys, tmp_path, *args)
        assert (code == 0) == ok and "Traceback" not in out + err, (out, err)
        return out if ok else err

    assert "auto_post = off" in run("game", "rules", "thread-b")
    err = run("game", "rules", "thread-b", "--auto-post", "tallies", ok=False)
    assert "no forum login to post with" in err and "\n" not in err.strip()
    with GameStore.open(tmp_path, "thread-b", create=False) as store:
        store.update_config(login={"user": "Host Mira", "password_env": "MIRA_PW"})
    out = run("game", "rules", "thread-b", "--auto-post", "tallies", "--auto-post-gap", "3m")
    assert "auto_post = tallies" in out and "every 5 min" in out and "3 min" in out
    doc = json.loads(run("--json", "game", "rules", "thread-b"))
    assert (doc["auto_post"], doc["auto_post_gap"]) == ("tallies", "3m")
    assert "auto_post" in run("log", "thread-b")
    assert "auto_post = off" in run("game", "rules", "thread-b", "--auto-post", "off")
    err = run("game", "rules", "thread-b", "--auto-post-gap", "soon", ok=False)
    assert "--auto-post-gap" in err and "\n" not in err.strip()

    # A ruleset with no interval tallies and no phrases: the daemon would post nothing.
    with GameStore.open(tmp_path, "thread-b", create=False) as store:
        store.update_config(ruleset="mafiascum")
    err = run("game", "rules", "thread-b", "--auto-post", "tallies", ok=False)
    assert "would post nothing" in err and "\n" not in err.strip()
