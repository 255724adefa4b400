"""The GM's own thread posts that change the count (count/gm_facts.py), on the real
markup of archived mafiascum games (../shared/mafiascum-dev, read at test time): a death
during the day, a modkill, a replacement, a reset of the votes. Each is a proposal with the
exact command (checks/gm_facts.py); nothing is applied without the GM, and `replay
--gm-facts` accepts them all for an archive. Plus the GM's own commands: `game alias`,
`game reset`."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from cli_support import run_cli
from realthreads import HOST, NOW, PLAYERS_A, thread_posts
from test_accuracy_classes import _replay
from test_votes_real_archives import archive

from assistant.checks.gm_facts import check_gm_facts
from assistant.count.gm_facts import fact_proposals
from assistant.game import Game
from assistant.store import GameStore


def _day(game_id: str, day_no: int, to_post: int, drop: str | None = None):  # noqa: ANN202
    doc, posts = archive(game_id)
    day = next(d for d in doc["days"] if d["day"] == day_no)
    slots = [[n for n in s if n != drop] for s in day["slots"]]
    game = Game.from_parts(f"ms-{game_id}", slots, gms=doc["moderators"], ruleset="mafiascum")
    return game, [p for p in posts if day["start_post"] <= p.post_id <= to_post]


def test_a_death_and_a_reset_announced_mid_day_are_proposed_with_the_command() -> None:
    # Game 1579, post 1534: "T S O, Vanilla Townie, has been killed Day 3." and "Day 3
    # continues, Vote Count has been reset."
    game, posts = _day("1579", 3, 1597)
    facts = fact_proposals(posts, game)
    assert [(f.kind, f.player, f.post_id) for f in facts] == [
        ("death", "T S O", 1534), ("reset", None, 1534)]
    alerts = check_gm_facts(posts, game)
    assert [a.kind for a in alerts] == ["gm_fact", "gm_fact"]
    assert alerts[0].message.endswith("`assistant kill ms-1579 'T S O' --how other --at-post 1534`")
    assert alerts[1].message.endswith("`assistant game reset ms-1579 --at-post 1534`")
    assert "T S O, Vanilla Townie, has been killed Day 3." in alerts[0].message
    # Recorded, it is proposed no more.
    known = Game.from_parts("ms-1579", list(game.slots), gms=game.gms, inputs=[
        f.as_input() for f in facts])
    assert fact_proposals(posts, known) == []


def test_a_modkill_and_a_replacement() -> None:
    # Game 1873, post 1911: "Garmr, a Vanilla Townie, is being modkilled and converted ...".
    game, posts = _day("1873", 4, 1911)
    [death] = [f for f in fact_proposals(posts, game) if f.kind == "death"]
    assert (death.player, death.how, death.post_id) == ("Garmr", "modkill", 1911)
    # Game 1445, post 615: "Equinox replaces Jeremylu" (the players file not yet knowing it).
    game, posts = _day("1445", 2, 650, drop="Equinox")
    [rep] = [f for f in fact_proposals(posts, game) if f.kind == "replacement"]
    assert (rep.player, rep.replacement, rep.post_id) == ("jeremylu", "Equinox", 615)
    assert rep.command("g") == "assistant kill g jeremylu --how replaced --replacement Equinox " \
        "--at-post 615"
    # Known already (the archive's slot holds Equinox): nothing to propose.
    game, posts = _day("1445", 2, 650)
    assert not [f for f in fact_proposals(posts, game) if f.kind == "replacement"]


def test_a_lynch_or_a_nights_death_is_no_fact_of_the_day() -> None:
    # Game 1352, day 1's end: "DoomYoshi, Vanilla Townie, died a poetic death (lynched)".
    game, posts = _day("1352", 1, 10**6)
    assert not [f for f in fact_proposals(posts, game) if f.player == "DoomYoshi"]
    # Game 1102, post 0 (the opening post, edited as a roster): "2. Cyberbob, Town
    # Bodyguard, shot dead Night 1." is the night's, and the day's first post is not read.
    game, posts = _day("1102", 1, 217)
    assert fact_proposals(posts, game) == []


def test_replay_notes_the_facts_and_gm_facts_accepts_them(tmp_path: Path, capsys) -> None:
    # Game 1579, Day 3 to the last player's post (1597): with T S O dead at post 1534 it
    # takes 4 of 7, and Wake88's four voters lynch him, as the game went.
    code, out, _ = _replay(capsys, tmp_path, "1579", 3, "--to-post", "1597", "--why")
    assert code == 0 and "Note: the GM's post 1534 (T S O dead)" in out
    code, out, _ = _replay(capsys, tmp_path, "1579", 3, "--to-post", "1597", "--json")
    assert json.loads(out)["outcome"]["decided_by"] == "not_yet"
    code, out, _ = _replay(capsys, tmp_path, "1579", 3, "--to-post", "1597", "--json",
                           "--gm-facts")
    doc = json.loads(out)
    assert doc["outcome"]["decided_by"] == "majority" and doc["outcome"]["lynched"] == ["Wake88"]
    assert doc["majority"] == 4 and {f["kind"] for f in doc["gm_facts"]} == {"death", "reset"}


def test_a_vote_the_gm_rules_out_in_the_thread_is_a_proposed_ruling(tmp_path: Path,
                                                                    capsys) -> None:
    # Game 1505, post 1343: "Garmr's vote in 1304 did not count because it was not at the
    # start of a new line." Read as written, Garmr's self-vote at 1304 ends Day 5 on him;
    # the GM's ruling, once accepted, lets the day go on to Skelda's lynch, as it went.
    game, posts = _day("1505", 5, 1360)
    [rule] = [f for f in fact_proposals(posts, game) if f.kind == "ruling"]
    assert (rule.post_id, rule.ruled) == (1343, 1304)
    [alert] = [a for a in check_gm_facts(posts, game) if a.post_id == 1343]
    assert alert.message.endswith("`assistant rule ms-1505 --post 1304 --ignore`")
    code, out, _ = _replay(capsys, tmp_path, "1505", 5, "--to-post", "1360", "--json")
    assert json.loads(out)["outcome"]["lynched"] == ["Garmr"]
    code, out, _ = _replay(capsys, tmp_path, "1505", 5, "--to-post", "1360", "--json",
                           "--gm-facts")
    assert json.loads(out)["outcome"]["lynched"] == ["Skelda"]
    # Game 1606, post 453: "Votes in posts #425 and #442 will not be counted ...": two.
    game, posts = _day("1606", 1, 453)
    assert [f.ruled for f in fact_proposals(posts, game) if f.kind == "ruling"] == [425, 442]
    # Recorded (`assistant rule`), they are proposed no more.
    known = Game.from_parts("ms-1606", list(game.slots), gms=game.gms, inputs=[
        f.as_input() for f in fact_proposals(posts, game)])
    assert not [f for f in fact_proposals(posts, known) if f.kind == "ruling"]


def test_game_alias_and_game_reset_are_the_gms_answers(tmp_path: Path, capsys) -> None:
    """Thread A (SMF 2.1) with the players file naming bob the builder by an old name: his
    votes are no player's until `game alias`; `game reset` ends every vote standing then."""
    players = tmp_path / "players.txt"
    renamed = ["Bob Builder" if p == "bob the builder" else p for p in PLAYERS_A]
    players.write_text("\n".join(renamed) + "\n", encoding="utf-8")
    base = ["--data-dir", str(tmp_path)]
    assert run_cli(capsys, *base, "game", "new", "w", "--thread",
                   "http://127.0.0.1:8021/index.php?topic=2.0", "--ruleset", "permissive",
                   "--players", str(players), "--gm", HOST)[0] == 0
    with GameStore.open(tmp_path, "w") as store:
        store.record_posts(thread_posts("smf21"), NOW)
    _, out, _ = run_cli(capsys, *base, "count", "w", "--json", "--why")
    assert "bob the builder" not in [v for w in json.loads(out)["wagons"] for v in w["voters"]]
    code, out, _ = run_cli(capsys, *base, "game", "alias", "w", "Bob Builder", "bob the builder")
    assert code == 0 and "bob the builder posts and votes as Bob Builder" in out
    _, out, _ = run_cli(capsys, *base, "count", "w", "--json")
    assert "Bob Builder" in [v for w in json.loads(out)["wagons"] for v in w["voters"]]
    code, _, err = run_cli(capsys, *base, "game", "alias", "w", "Jd-", "Conia")
    assert code != 0 and "already posts as Conia" in err
    _, out, _ = run_cli(capsys, *base, "count", "w", "--at-post", "30", "--json")
    assert json.loads(out)["wagons"]
    assert run_cli(capsys, *base, "game", "reset", "w", "--at-post", "30")[0] == 0
    _, out, _ = run_cli(capsys, *base, "count", "w", "--at-post", "30", "--json", "--why")
    doc = json.loads(out)
    assert doc["wagons"] == [] or all(w["effective"] == 0 for w in doc["wagons"])
    assert any("the GM reset the votes in post 30" in v["reason"] for v in doc["votes"])


def test_only_the_gm_lines_holding_a_facts_word_are_read_for_facts(monkeypatch) -> None:
    """The daemon reads the day's GM posts at every poll: a line without a word of any fact
    (reset, replac..., killed, died, shot, removed from the game, "vote in") is passed over
    by one pattern, and the facts found are the same."""
    from assistant.count import gm_facts

    game, posts = _day("1579", 3, 1597)
    read: list[str] = []
    for name in ("_read_line", "_ruled_out"):
        real = getattr(gm_facts, name)

        def spy(line: str, *args: object, _real=real) -> object:  # noqa: ANN001
            read.append(line)
            return _real(line, *args)

        monkeypatch.setattr(gm_facts, name, spy)
    facts = fact_proposals(posts, game)
    assert [(f.kind, f.player, f.post_id) for f in facts] == [
        ("death", "T S O", 1534), ("reset", None, 1534)]
    gm_lines = [line for p in posts[1:] if game.is_gm(p.author)
                for line in gm_facts.text_lines(p.body_html)]
    assert read and len(read) < len(gm_lines) / 4
    assert all(gm_facts._ANY_FACT_ANY_CASE.search(line) for line in read)


def test_the_next_review_reads_no_gm_post_for_facts_again(monkeypatch) -> None:
    """A GM post's lines with a fact's word are kept by the post's fingerprint, for more
    GM posts than 200 games hold: the next poll's review parses none of the day's GM
    posts again, and finds the same facts; an edited GM post is read again."""
    from assistant.count import gm_facts

    game, posts = _day("1579", 3, 1597)
    first = fact_proposals(posts, game)
    parsed: list[str] = []
    real = gm_facts.text_lines
    monkeypatch.setattr(gm_facts, "text_lines", lambda body: parsed.append(body) or real(body))
    assert fact_proposals(posts, Game.from_parts(
        "ms-1579", list(game.slots), gms=game.gms, ruleset="mafiascum")) == first
    assert parsed == []
    at = next(i for i, p in enumerate(posts) if p.post_id == 1534)
    edited = dataclasses.replace(posts[at], body_html=posts[at].body_html + "<br>Day 3 goes on.")
    assert fact_proposals([*posts[:at], edited, *posts[at + 1:]], game) == first
    assert parsed == [edited.body_html]


def test_a_lines_facts_word_is_found_in_any_case_and_script() -> None:
    """The words are looked for in the line's lower case when it is plain ASCII, and as
    the facts' own patterns look (ignoring case) otherwise: the same lines either way."""
    from assistant.count.gm_facts import _may_state_a_fact

    for line in ("Votes are RESET; day continues", "Equinox REPLACES Jeremylu",
                 "T S O has been Killed Day 3.", "The vote in post 11 is not counted",
                 "Taly was removed From The game", "Zoë has DIED", "Ana was ſhot"):
        assert _may_state_a_fact(line), line
    for line in ("Vote count: Ana (2): Bob, Cy", "Day 3 begins; deadline Sunday",
                 "Zoë votes Bob", "shotgun wedding"):
        assert not _may_state_a_fact(line), line


def test_an_ascii_line_is_asked_in_lower_case(monkeypatch) -> None:
    """Ignoring case, the pattern took 90 ns a character of every GM line at every poll: a
    plain ASCII line is asked in lower case instead (the same answer there)."""
    from assistant.count import gm_facts

    class Refused:
        def search(self, line: str) -> None:
            raise AssertionError(f"asked ignoring case: {line!r}")

    monkeypatch.setattr(gm_facts, "_ANY_FACT_ANY_CASE", Refused())
    assert gm_facts._may_state_a_fact("T S O has been KILLED Day 3.")
    assert not gm_facts._may_state_a_fact("Vote count: Ana (2): Bob, Cy")
