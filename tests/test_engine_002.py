"""Turtle's Chat Mafia (seed 002): every role and every interaction the rules spell out.

Each test quotes the sentence of ../shared/seeds/002_127b503cdbb8696c.txt it checks.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from assistant.count.tally import Tally, count
from assistant.engine.orders import check_order, parse_order
from assistant.engine.resolver import PhaseResult, resolve_phase
from assistant.engine.rules import load_engine_rules
from assistant.engine.setup import PlayerSetup, Setup
from assistant.engine.state import GameState
from assistant.engine.vote_effects import modifiers_for_day
from assistant.engine.win import check_win
from assistant.errors import AmbiguousOrderError, IllegalOrderError, MalformedOrderError
from assistant.game import Game
from assistant.models import Post
from assistant.rulesets import find_ruleset
from tests.conftest import SEEDS

RULES = load_engine_rules(find_ruleset("chat-mafia"))
SEED_TEXT = (SEEDS / "002_127b503cdbb8696c.txt").read_text(encoding="utf-8")


def game(*players: str, seed: int = 1) -> GameState:
    """Players as "Name=role/side" ("Gus=/town" is a vanilla townie)."""
    slots = []
    for spec in players:
        name, _, rest = spec.partition("=")
        role, _, side = rest.partition("/")
        role = role or None
        side = side or RULES.role(role).sides[0]  # type: ignore[arg-type]
        slots.append(PlayerSetup(name, side, role))
    return GameState.from_setup(RULES, Setup(tuple(slots), seed))


def night(state: GameState, n: int, *orders: str) -> PhaseResult:
    return resolve_phase(
        state, "night", n, [parse_order(o, state, phase="night", number=n) for o in orders]
    )


def day(state: GameState, n: int, *orders: str) -> PhaseResult:
    return resolve_phase(
        state, "day", n, [parse_order(o, state, phase="day", number=n) for o in orders]
    )


def dead(result: PhaseResult) -> list[str]:
    return [d.player for d in result.deaths]


def quote(sentence: str) -> str:
    """The cited sentence must really be in the seed (whitespace-normalised)."""
    assert " ".join(sentence.split()) in " ".join(SEED_TEXT.split()), sentence
    return sentence


BASE = ("Gus=/town", "Hal=/town", "Carol=godfather", "Moe=/mafia")
T0 = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)


def lynch_count(state: GameState, votes: dict[str, str], day: int) -> Tally:
    """The day's count through the real vote counter, with the role effects the engine
    derives from `state`: each vote a post in 002's markup as SMF and phpBB render it
    (`[Vote: X]` as literal text)."""
    posts = [
        Post(100 + i, i, voter, None, T0 + timedelta(minutes=i), f"Hmm.<br><br>[Vote: {t}]", 1)
        for i, (voter, t) in enumerate(votes.items())
    ]
    facts = [{"kind": "modifier", "data": m} for m in modifiers_for_day(state, day)]
    facts += [
        {"kind": "death", "data": {"player": n, "how": "other"}}
        for n, p in state.players.items()
        if not p.alive
    ]
    facts.append(
        {"kind": "phase", "data": {"kind": "day", "number": day, "starts_at": T0.isoformat()}}
    )
    g = Game.from_parts("t", [[n] for n in state.players], gms=["Host"], inputs=facts)
    return count(posts, g, find_ruleset("chat-mafia"), day=day)


def totals(tally: Tally) -> dict[str, tuple[int, int]]:
    """{target: (displayed, effective)}."""
    return {w.target: (w.displayed, w.effective) for w in tally.wagons}


def test_ruleset_has_every_role_of_the_seed():
    titles = {r.title.split(" (")[0] for r in RULES.roles.values()}
    for role in [
        "Doctor",
        "Investigator",
        "Vigilante",
        "Tiebreaker",
        "Child",
        "Traitor",
        "Jailkeeper",
        "Imaginary Friend",
        "Monk",
        "Bomb",
        "Doublevoter",
        "Witch",
        "Ghost",
        "Oracle",
        "Redirector",
        "Sorcerer",
        "Priest",
        "Time Mage",
        "Zombie",
        "Cupid",
        "Lover",
        "Godfather",
        "Roleblocker",
        "Strongman",
        "Ninja",
        "Thief",
        "Forger",
    ]:
        assert role in titles
    assert RULES.tiers == (
        "hastened",
        "redirection",
        "hamedo",
        "roleblocks",
        "jailkeeper",
        "hexes",
        "investigations",
        "protections",
        "theft",
        "day_effects",
        "exorcisms",
        "cupid",
        "nightkills",
    )
    quote(
        "Hastened nightkills > Redirection > Hamedo > Roleblocks > Jailkeeper > Hexes > "
        "Investigations > Protections > Theft > Day Effects > Exorcisms > Cupid's arrow > "
        "Nightkills"
    )


def test_mafia_nightkill_and_doctor():
    quote("Each night, the Doctor may choose one person to protect from all nightkills.")
    s = game("Doc=doctor", *BASE)
    r = night(s, 1, "Doc: protect Gus", "Mafia: kill Gus")
    assert dead(r) == []
    assert r.log_lines() == [
        "[protections] Doc: protect Gus: protects Gus (against all)",
        "[nightkills] Carol (mafia): kill Gus: fails (Gus is protected by Doc)",
    ]
    r = night(s, 1, "Mafia: kill Gus")
    assert dead(r) == ["Gus"]


def test_limited_doctor_not_same_target_two_nights():
    quote("whoever he protects cannot be chosen to be protected the following night.")
    s = game("Doc=limited-doctor", *BASE)
    s = night(s, 1, "Doc: protect Gus").state
    with pytest.raises(IllegalOrderError, match="two nights running"):
        check_order(parse_order("Doc: protect Gus", s, phase="night", number=2), s)
    check_order(parse_order("Doc: protect Hal", s, phase="night", number=2), s)


def test_old_doctor_rests_after_a_save_and_is_told():
    quote(
        "if his protection is used (that is, if a nightkill is stopped), the Doctor may not "
        "use his power the following night. He is informed if this occurs during dawn after "
        "his protection succeeds."
    )
    s = game("Doc=old-doctor", *BASE)
    r = night(s, 1, "Doc: protect Gus", "Mafia: kill Gus")
    assert r.pms["Doc"] == (
        "Your protection stopped a nightkill on Gus. You may not use your power tonight.",
    )
    with pytest.raises(IllegalOrderError, match="may not use their power"):
        check_order(parse_order("Doc: protect Hal", r.state, phase="night", number=2), r.state)
    s2 = night(s, 1, "Doc: protect Hal", "Mafia: kill Gus").state
    check_order(parse_order("Doc: protect Hal", s2, phase="night", number=2), s2)


def test_investigator_results_town_mafia_unknown():
    quote(
        "they will get the result of Town, Mafia, or Unknown. Unknown verdicts may happen for "
        "a variety of reasons, including being roleblocked, scanning the Secret Boss, and others."
    )
    quote("so many that the Investigator cannot link him to the Mafia.")
    s = game("Ivy=investigator", "Boss=/secret-boss", "Dan=roleblocker", *BASE)
    assert night(s, 1, "Ivy: investigate Moe").pms["Ivy"] == (
        "Your investigation of Moe returns: Mafia.",
    )
    assert night(s, 1, "Ivy: investigate Gus").pms["Ivy"] == (
        "Your investigation of Gus returns: Town.",
    )
    assert night(s, 1, "Ivy: investigate Carol").pms["Ivy"] == (
        "Your investigation of Carol returns: Town.",
    )
    assert night(s, 1, "Ivy: investigate Boss").pms["Ivy"] == (
        "Your investigation of Boss returns: Unknown.",
    )
    r = night(s, 1, "Ivy: investigate Moe", "Dan: block Ivy")
    assert r.pms["Ivy"] == (
        "You have been roleblocked.",
        "Your investigation of Moe returns: Unknown.",
    )


def test_vigilante_kills_and_then_no_longer_looks_town():
    quote("after his first kill, the Investigator will no longer see him as Town.")
    s = game("Vic=vigilante", "Ivy=investigator", *BASE)
    r = night(s, 1, "Vic: kill Moe")
    assert dead(r) == ["Moe"]
    r2 = night(r.state, 2, "Ivy: investigate Vic")
    assert r2.pms["Ivy"] == ("Your investigation of Vic returns: Unknown.",)


def test_tiebreaker_not_considered_and_his_vote_decides():
    quote(
        "If the Tiebreaker is tied for the most votes at the end of the day, he will not be "
        "considered for the lynch. As well, if there is a tie, and his vote is on one of the "
        "vote leaders, that person will be lynched."
    )
    s = game("Tim=tiebreaker", *BASE)
    out = lynch_count(
        s, {"Gus": "Tim", "Hal": "Carol", "Carol": "Tim", "Tim": "Carol", "Moe": "Gus"}, day=1
    ).outcome
    assert out.lynched == ("Carol",)
    assert out.reason.startswith("if the day ended now: Tim (Tiebreaker) is not considered")
    out = lynch_count(s, {"Gus": "Hal", "Hal": "Gus", "Tim": "Gus", "Carol": "Hal"}, day=1).outcome
    assert out.lynched == ("Gus",)
    assert "the Tiebreaker's vote is on Gus: it decides the tie" in out.reason


def test_child_rock_is_public_without_the_child():
    quote(
        "That person will then be struck by a rock during the next vote tally. This is "
        "announced publicly, though the Child's identity is not revealed."
    )
    s = game("Kid=child", *BASE)
    r = day(s, 1, "Kid: rock Moe")
    assert r.public == ("Moe is struck by a rock!",)


def test_traitor_may_join_the_mafia_instead_of_dying():
    quote(
        "if he is targeted by the mafia's nightkill, he may choose, instead of dying, to become "
        "a vanilla Mafia, immediately receiving all the powers and victory conditions"
    )
    s = game("Tra=traitor", *BASE)
    r = night(s, 1, "Mafia: kill Tra", "Tra: turn")
    assert dead(r) == [] and r.state.players["Tra"].side == "mafia"
    assert r.pms["Carol"] == ("Tra has joined the Mafia.",)
    r = night(s, 1, "Mafia: kill Tra")
    assert dead(r) == ["Tra"] and "could have chosen to join the mafia" in r.notes[0]


def test_jailkeeper_blocks_and_stops_everything_aimed_at_the_jailed():
    quote("Also, all actions targeted toward the jailed player this night fail.")
    quote(
        "This particular roleblock can stop alignment powers if the Godfather or Secret Boss is "
        "jailed."
    )
    s = game("Jay=jailkeeper", "Doc=doctor", *BASE)
    r = night(s, 1, "Jay: jail Gus", "Mafia: kill Gus by Moe", "Doc: protect Gus")
    assert dead(r) == []
    assert (
        "[nightkills] Moe (mafia): kill Gus: fails (Gus is jailed: every action aimed at them "
        "fails)"
        in r.log_lines()
    )
    r = night(s, 1, "Jay: jail Carol", "Mafia: kill Hal")
    assert dead(r) == [] and "Carol is jailed, which stops the mafia's power" in r.log_lines()[-1]
    # Only the Roleblocker's target is told ("The target is informed that they are
    # roleblocked"); the seed says nothing of the sort for the jailed player.
    assert "Carol" not in r.pms and "Gus" not in night(s, 1, "Jay: jail Gus").pms
    with pytest.raises(IllegalOrderError, match="themselves"):
        check_order(parse_order("Jay: jail Jay", s, phase="night", number=1), s)


def test_imaginary_friend_cannot_be_lynched_and_vote_has_no_power():
    quote(
        "If it would be lynched at the end of the day, the lynch will instead pass on to the "
        "person in second place. In addition, while its power is in effect, the Imaginary "
        "Friend's vote has no power."
    )
    s = game("Ima=imaginary-friend", *BASE)
    votes = {"Gus": "Ima", "Hal": "Ima", "Carol": "Moe", "Ima": "Carol"}
    tally = lynch_count(s, votes, day=1)
    quote("This is not reflected in the vote count.")
    assert totals(tally) == {"Ima": (2, 2), "Moe": (1, 1), "Carol": (1, 0)}
    assert tally.outcome.lynched == ("Moe",)
    assert "Ima cannot be lynched: the lynch passes on" in tally.outcome.reason
    quote("Once it happens, the Imaginary Friend is, for all intents and purposes, a Vanilla Town.")
    s2 = day(s, 1, "Ima: discard").state
    tally = lynch_count(s2, votes, day=2)
    assert tally.outcome.lynched == ("Ima",) and totals(tally)["Carol"] == (1, 1)


def test_monk_hamedo_kills_whoever_targets_him():
    quote(
        "While this ability is activated, any player who targets the Monk will be killed "
        "before their action can be performed."
    )
    s = game("Monk=monk", *BASE)
    r = night(s, 1, "Monk: hamedo", "Mafia: kill Monk by Moe")
    assert dead(r) == ["Moe"]
    with pytest.raises(IllegalOrderError, match="no use"):
        check_order(parse_order("Monk: hamedo", r.state, phase="night", number=2), r.state)


def test_monk_hamedo_redirected():
    quote(
        "The Monk's Hamedo can be redirected with no harm to the Redirector. However, if this "
        "occurs, everyone who targets the Monk will still die, because while the Hamedo was "
        "redirected to the other player, so was every other action."
    )
    s = game("Monk=monk", "Red=redirector/town", *BASE)
    r = night(s, 1, "Monk: hamedo", "Red: redirect Monk and Gus", "Mafia: kill Monk by Moe")
    assert dead(r) == ["Moe"] and r.state.players["Red"].alive
    assert r.log_lines() == [
        "[redirection] Red: redirect Monk and Gus: swaps every later action between Monk and Gus "
        "(2 redirected)",
        "[hamedo] Monk: hamedo Gus: whoever targets Gus dies before acting (redirected onto Gus)",
        "[nightkills] Moe: dies (targeted Gus under Monk's Hamedo)",
        "[nightkills] Moe (mafia): kill Gus: fails (killed by the Hamedo on Gus before acting)",
    ]
    assert r.pms["Red"] == (
        "A hamedo aimed at Monk was redirected to Gus.",
        "A kill aimed at Monk was redirected to Gus.",
    )


def test_roleblocked_redirector_and_redirected_roleblock():
    quote(
        "If the roleblock is aimed at the Redirector, then the Redirector cannot use his power "
        "that night. However, if the roleblock is targeted at another player, then it will be "
        "redirected by the Redirector's power, if applicable."
    )
    s = game("Red=redirector/town", "Dan=roleblocker", "Ivy=investigator", *BASE)
    r = night(s, 1, "Red: redirect Gus and Hal", "Dan: block Red", "Mafia: kill Gus")
    assert dead(r) == ["Gus"]
    assert r.log_lines()[0] == (
        "[redirection] Red: redirect Gus and Hal: fails (Red is roleblocked "
        "by Dan, which stops this before it acts)"
    )
    r = night(s, 1, "Red: redirect Gus and Ivy", "Dan: block Gus", "Ivy: investigate Moe")
    assert "[roleblocks] Dan: block Ivy: roleblocks Ivy" in r.log_lines()
    assert r.pms["Ivy"] == (
        "You have been roleblocked.",
        "Your investigation of Moe returns: Unknown.",
    )


def test_bomb_nightkilled_by_the_mafia_takes_a_random_non_godfather_member():
    quote(
        "If the Bomb is nightkilled, the killer dies as well. (If the Mafia targets him, one "
        "member of the Mafia is randomly chosen to die.)"
    )
    quote(
        "if the Godfather is alive, he will not be taken into account in determining which "
        "Mafia member the Bomb explodes unless he is the only remaining member."
    )
    s = game("Bo=bomb", "Ann=/mafia", *BASE)
    for seed in range(6):
        s.seed = seed
        r = night(s, 1, "Mafia: kill Bo")
        assert dead(r)[0] == "Bo" and dead(r)[1] in {"Ann", "Moe"}
    lone = game("Bo=bomb", "Carol=godfather", "Gus=/town")
    assert dead(night(lone, 1, "Mafia: kill Bo")) == ["Bo", "Carol"]


def test_bomb_lynched_last_voter_dies():
    quote("If the Bomb is lynched, the last person to vote for the Bomb dies.")
    from assistant.engine.history import apply_death

    s = game("Bo=bomb", *BASE)
    r = apply_death(s, {"player": "Bo", "how": "lynch", "last_voter": "Hal"}, [])
    assert dead(r) == ["Bo", "Hal"]


def test_ninja_hastening_the_kill_on_the_bomb():
    quote(
        "If the Ninja hastens the Mafia nightkill used to kill the Bomb, the explosion will not "
        "be randomized, but will kill the Ninja."
    )
    quote(
        "A hastened nightkill is resolved before any other night action, including protections "
        "and other powers."
    )
    s = game("Bo=bomb", "Nin=ninja", "Doc=doctor", *BASE)
    r = night(s, 1, "Nin: hasten", "Mafia: kill Bo", "Doc: protect Bo")
    assert dead(r) == ["Bo", "Nin"]
    assert r.log_lines()[:4] == [
        "[hastened] Nin: hasten: hastens Carol (mafia): kill Bo",
        "[hastened] Carol (mafia): kill Bo: kills Bo",
        "[hastened] Bo: dies (Carol (mafia): kill Bo)",
        "[hastened] Bo (Bomb): explodes on Nin (Nin hastened the kill)",
    ]


def test_two_nightkillers_targeting_each_other_random_victor():
    quote(
        "In the event that two players with nightkills target each other, and neither has any "
        "form of kill protection, the victor will be randomly determined."
    )
    s = game("Vic=vigilante", *BASE)
    outcomes = set()
    for seed in range(12):
        s.seed = seed
        r = night(s, 1, "Vic: kill Moe", "Mafia: kill Vic by Moe")
        assert len(r.deaths) == 1
        outcomes.add(dead(r)[0])
        assert night(s, 1, "Vic: kill Moe", "Mafia: kill Vic by Moe").log_lines() == r.log_lines()
    assert outcomes == {"Vic", "Moe"}


def test_secret_boss_kills_and_has_one_automatic_protection():
    quote(
        "the Secret Boss is afforded one automatic protection against a nightkill. This "
        "protection will protect the Secret Boss from all nightkills and wears off at Day."
    )
    s = game("Boss=/secret-boss", "Vic=vigilante", *BASE)
    r = night(s, 1, "Mafia: kill Boss", "Vic: kill Boss", "Secret Boss: kill Gus")
    assert dead(r) == ["Gus"]
    r2 = night(r.state, 2, "Mafia: kill Boss")
    assert dead(r2) == ["Boss"]


def test_doublevoter_and_lovers_votes():
    quote("Any vote the Doublevoter makes is counted twice in determining the lynch.")
    quote(
        "If both Lovers are voting for the same person, their votes will count as three "
        "instead of two."
    )
    s = game("Dub=doublevoter/town", "Cup=cupid/town", *BASE)
    s = night(s, 1, "Cup: arrow Gus and Hal").state
    assert s.players["Gus"].role == "lovers"
    quote("This extra vote is not displayed in official vote tallies.")
    tally = lynch_count(s, {"Dub": "Moe", "Gus": "Carol", "Hal": "Carol"}, day=2)
    assert totals(tally) == {"Carol": (2, 3), "Moe": (1, 2)}
    assert tally.outcome.lynched == ("Carol",)


def test_cupid_lovers_die_together():
    quote(
        "From that point onward, these two players are Lovers. This will overwrite those "
        "players' original roles."
    )
    quote("if one of the Lovers dies for any reason, the other Lover will die as well.")
    s = game("Cup=cupid/town", *BASE)
    r = night(s, 1, "Cup: arrow Gus and Moe")
    assert r.pms["Gus"] == ("Cupid's arrow has struck: you and Moe are now Lovers.",)
    r2 = night(r.state, 2, "Mafia: kill Gus by Carol")
    assert dead(r2) == ["Gus", "Moe"]


def test_witch_hexes_once_each_three_per_game():
    quote(
        "She may only cast one hex per night. She also may only cast each hex once per game. "
        "In addition, she may only cast three hexes per game."
    )
    s = game("Wi=witch/town", *BASE)
    r = night(s, 1, "Wi: silence Gus", "Wi: powerlessness Hal")
    assert r.log_lines()[0].startswith("[orders] Wi: silence Gus: replaced")
    assert "powerless" in r.state.players["Hal"].day_statuses
    s = r.state
    s = night(s, 2, "Wi: hex of silence Gus").state
    assert "silenced" in s.players["Gus"].day_statuses
    s = night(s, 3, "Wi: telepathy Moe").state
    with pytest.raises(IllegalOrderError, match="no use"):
        check_order(parse_order("Wi: charm Carol", s, phase="night", number=4), s)
    with pytest.raises(IllegalOrderError, match="no use"):
        check_order(parse_order("Wi: silence Carol", s, phase="night", number=4), s)


def test_hex_of_silence_informed_and_powerlessness_not():
    quote("The hexed player is informed of this at Dawn.")
    quote(
        "Their vote is still displayed in official vote tallies, but will not be used in "
        "determining who is lynched. The hexed player is not informed of this."
    )
    s = game("Wi=witch/town", *BASE)
    r = night(s, 1, "Wi: silence Gus")
    assert r.pms["Gus"][0].startswith("You have been hexed with the Hex of Silence")
    r = night(s, 1, "Wi: powerlessness Gus")
    assert "Gus" not in r.pms
    tally = lynch_count(r.state, {"Gus": "Moe", "Hal": "Moe"}, day=2)
    assert totals(tally) == {"Moe": (2, 1)}
    assert tally.votes[0].reason == (
        "counted: tag vote (powerless: shown, not counted; hex: powerless)"
    )


def test_hex_of_telepathy_tells_the_witch_the_alignment():
    quote(
        "The Witch is informed of the hexed player's alignment in much the same manner as the "
        "Investigator"
    )
    s = game("Wi=witch/town", *BASE)
    assert night(s, 1, "Wi: telepathy Moe").pms["Wi"] == (
        "Your Hex of Telepathy links you to Moe, who is Mafia.",
    )


def test_hex_of_charming():
    quote("If the hexed player votes for the Witch on the following day, that vote has no power.")
    quote(
        "In addition, if the Witch is put up to lynch on the following day, the hexed player is "
        "lynched instead."
    )
    s = night(game("Wi=witch/town", *BASE), 1, "Wi: charm Gus").state
    tally = lynch_count(s, {"Gus": "Wi", "Hal": "Wi"}, day=2)
    assert totals(tally) == {"Wi": (2, 1)}
    assert tally.outcome.lynched == ("Gus",)
    assert tally.outcome.reason.endswith("Gus is charmed by Wi and is lynched instead")
    assert lynch_count(s, {"Gus": "Hal", "Hal": "Moe"}, day=2).wagon("Hal").effective == 1


def test_hex_of_death_kills_two_nights_later_then_the_witch():
    quote(
        "Two nights after the Witch casts this hex, the hexed player dies. Once the target is "
        "hexed, this death may not be prevented by any means."
    )
    quote("The night after the hexed player dies, the Witch dies.")
    s = game("Wi=witch/town", "Doc=doctor", *BASE)
    s = night(s, 1, "Wi: death Moe").state
    r2 = night(s, 2)
    assert dead(r2) == []
    r3 = night(r2.state, 3, "Doc: protect Moe")
    assert dead(r3) == ["Moe"]
    r4 = night(r3.state, 4, "Doc: protect Wi")
    assert dead(r4) == ["Wi"]


def test_ghost_speaks_after_death_and_hides_affiliation():
    quote("The Ghost's affiliation is not revealed when it is lynched or killed.")
    from assistant.engine.drafts import reveal
    from assistant.engine.history import apply_death

    s = game("Gho=ghost/mafia", *BASE)
    r = apply_death(s, {"player": "Gho", "how": "lynch"}, [])
    shown = reveal(r.state, r.deaths[0], "role_alignment")
    assert (shown.role, shown.side) == ("Ghost", None)
    assert r.state.passive("Gho", "speaks_dead") is True


def test_oracle_sees_the_dead_truly_and_the_fate_of_the_living():
    quote("The Oracle may investigate a dead player to discover their role and alignment.")
    quote("all this will do is tell her if the player will become the Ghost or Zombie upon death.")
    s = game("Ora=oracle/town", "Zed=zombie/town", *BASE)
    r = night(s, 1, "Mafia: kill Gus")
    assert night(r.state, 2, "Ora: divine Gus").pms["Ora"] == (
        "Your vision of Gus: Vanilla, Town.",
    )
    assert night(r.state, 2, "Ora: divine Zed").pms["Ora"] == ("Your vision of Zed: Zombie.",)
    assert night(r.state, 2, "Ora: divine Hal").pms["Ora"] == (
        "Your vision of Hal: neither Ghost nor Zombie.",
    )


def test_sorcerer_day_kill_once():
    quote(
        "Once per game, at any time during the Day, but not any other time, the Sorcerer may "
        "kill one target of his choice."
    )
    s = game("Sor=sorcerer/town", "Doc=doctor", *BASE)
    with pytest.raises(IllegalOrderError, match="by day"):
        check_order(parse_order("Sor: kill Moe", s, phase="night", number=1), s)
    r = day(s, 1, "Sor: kill Moe")
    assert [(d.player, d.how) for d in r.deaths] == [("Moe", "other")]


def test_priest_revives_and_exorcises():
    quote(
        "Once per game, at any time during the Day, but not any other time, the Priest may "
        "revive one target of his choice."
    )
    quote(
        "The Priest may, if he so chooses, exorcise a Ghost or Zombie, removing their spirit "
        "or body from the game."
    )
    s = game("Pri=priest/town", "Zed=zombie/mafia", *BASE)
    s = night(s, 1, "Mafia: kill Gus").state
    r = day(s, 2, "Pri: revive Gus")
    assert r.state.players["Gus"].alive and r.public == ("Pri, the Priest, revives Gus!",)
    s = night(r.state, 2, "Mafia: kill Hal").state
    from assistant.engine.history import apply_death

    s = apply_death(s, {"player": "Zed", "how": "lynch"}, []).state
    r = day(s, 3, "Pri: exorcise Zed")
    assert "exorcised" in r.state.players["Zed"].statuses


def test_time_mage_note_for_the_gm_only():
    quote(
        "A hastened day ends ten minutes sooner, while a slowed day ends ten minutes later. "
        "This adjustment is not shown when the time is announced."
    )
    s = game("Tm=time-mage/town", *BASE)
    r = night(s, 1, "Tm: hasten")
    assert r.public == () and "ten minutes sooner" in r.notes[0]
    with pytest.raises(IllegalOrderError, match="no use"):
        check_order(parse_order("Tm: slow", r.state, phase="night", number=2), r.state)


def test_zombie_gets_a_nightkill_after_death_and_flips_vanilla_when_lynched():
    quote("Once it dies, it is given one nightkill to use whenever it likes.")
    quote("If it is lynched, its role will flip as Vanilla. Its alignment will flip truthfully.")
    from assistant.engine.drafts import reveal
    from assistant.engine.history import apply_death

    s = game("Zed=zombie/town", *BASE)
    with pytest.raises(IllegalOrderError, match="only after dying"):
        check_order(parse_order("Zed: bite Moe", s, phase="night", number=1), s)
    r = apply_death(s, {"player": "Zed", "how": "lynch"}, [])
    assert reveal(r.state, r.deaths[0], "role_alignment").role == "Vanilla"
    r2 = night(r.state, 1, "Zed: bite Moe")
    assert dead(r2) == ["Moe"]


def test_godfather_has_the_final_say():
    quote(
        "Nightkills he sends in do not need to be confirmed by the other mafia, and nightkills "
        "the other mafia send in only need to be confirmed by him."
    )
    s = game(*BASE)
    r = night(s, 1, "Carol: kill Gus", "Moe: kill Hal")
    assert dead(r) == ["Gus"]
    assert r.log_lines()[0] == (
        "[orders] Moe (mafia): kill Hal: ignored (Carol has the final say on the mafia's action)"
    )


def test_roleblocker_tells_the_target_and_leaves_alignment_powers():
    quote(
        "This does not affect powers afforded by alignment, such as the Mafia nightkill or the "
        "Secret Boss's automatic protection. The target is informed that they are roleblocked, "
        "even if it would have no effect."
    )
    s = game("Dan=roleblocker", "Boss=/secret-boss", *BASE)
    r = night(s, 1, "Dan: block Boss", "Secret Boss: kill Gus")
    assert dead(r) == ["Gus"] and r.pms["Boss"] == ("You have been roleblocked.",)
    # The Mafia nightkill too, whoever carries it out (the Godfather or another member):
    # unlike mafiascum's, 002's factional kill has no blockable performer.
    assert RULES.side("mafia").abilities["kill"].params["performer_blockable"] is False
    for killer in ("Carol", "Moe"):
        r = night(s, 1, f"Dan: block {killer}", f"Mafia: kill Gus by {killer}")
        assert dead(r) == ["Gus"] and r.pms[killer] == ("You have been roleblocked.",)
        assert r.log_lines()[-2:] == [
            f"[nightkills] {killer} (mafia): kill Gus: kills Gus",
            f"[nightkills] Gus: dies ({killer} (mafia): kill Gus)",
        ]


def test_strongman_ignores_protection_and_bomb():
    quote(
        "A strengthened nightkill ignores all role and alignment effects, such as a Doctor's "
        "protection or a Bomb's explosion."
    )
    s = game("Str=strongman", "Doc=doctor", "Bo=bomb", *BASE)
    assert dead(night(s, 1, "Str: strengthen", "Mafia: kill Bo", "Doc: protect Bo")) == ["Bo"]


def test_consumable_power_roleblocked_is_spent():
    quote(
        "If a role with a consumable power (Strongman, Ninja, Witch) is roleblocked on the "
        "night they use their power, that usage is consumed and will not be usable again for "
        "the remainder of the game."
    )
    s = game("Nin=ninja", "Jay=jailkeeper", "Dan=roleblocker", "Doc=doctor", *BASE)
    r = night(s, 1, "Nin: hasten", "Jay: jail Nin", "Mafia: kill Gus", "Doc: protect Gus")
    assert dead(r) == [] and r.state.uses_left("Nin", RULES.role("ninja").abilities["hasten"]) == 0


def test_thief_steals_the_role_of_the_mafia_victim():
    quote("Once per game, at Night, he may steal the role of the player that the mafia nightkills.")
    quote("If the Thief targets a vanilla player, the Thief will still consume his power.")
    s = game("Thi=thief", "Doc=doctor", *BASE)
    r = night(s, 1, "Thi: steal", "Mafia: kill Doc")
    assert r.state.players["Thi"].role == "doctor" and r.state.players["Thi"].side == "mafia"
    r = night(s, 1, "Thi: steal", "Mafia: kill Gus")
    assert r.state.players["Thi"].role == "thief"
    assert r.state.uses_left("Thi", RULES.role("thief").abilities["steal"]) == 0


def test_forger_finds_the_investigator_then_forges():
    quote('He is returned the result "Investigator" or "Not Investigator".')
    quote(
        "From this point on (including the night he finds the investigator), he may learn of "
        "the Investigator's target that night. In addition, the Forger may decide whether the "
        "Investigator will find that person Town or Mafia."
    )
    s = game("For=forger", "Ivy=investigator", *BASE)
    r = night(s, 1, "For: investigate Ivy", "Ivy: investigate Moe")
    # In the order things happened: he finds her, then learns her target.
    assert r.pms["For"] == ("Ivy: Investigator.", "The Investigator (Ivy) targeted Moe tonight.")
    r2 = night(r.state, 2, "For: forge Town", "Ivy: investigate Moe")
    assert r2.pms["Ivy"] == ("Your investigation of Moe returns: Town.",)


def test_order_errors_name_what_is_wrong():
    s = game("Doc=doctor", "Gina=/town", "Gino=/town", *BASE)
    with pytest.raises(MalformedOrderError, match="no player called 'Zed'"):
        parse_order("Zed: protect Gus", s, phase="night", number=1)
    with pytest.raises(MalformedOrderError, match="has no ability 'shoot'"):
        parse_order("Doc: shoot Gus", s, phase="night", number=1)
    with pytest.raises(AmbiguousOrderError, match="Gina, Gino"):
        parse_order("Doc: protect Gin", s, phase="night", number=1)
    with pytest.raises(MalformedOrderError, match="not an order"):
        parse_order("protect Gus", s, phase="night", number=1)
    s2 = night(s, 1, "Mafia: kill Doc").state
    with pytest.raises(IllegalOrderError, match="Doc is dead"):
        check_order(parse_order("Doc: protect Gus", s2, phase="night", number=2), s2)


def test_endgame_and_win_conditions():
    quote(
        "There may come a time when the day begins with but two survivors of differing "
        'factions. This is called "Endgame."'
    )
    quote("victory is given to the Secret Boss if he is alive, or the Mafia if he is not.")
    s = game("Boss=/secret-boss", *BASE)
    for name in ("Hal", "Carol", "Moe"):
        s.players[name].alive = False
    assert check_win(s, "dawn").winner == "secret-boss"
    assert check_win(s, "dusk") is None
    s = game(*BASE)
    s.players["Hal"].alive = s.players["Carol"].alive = False
    assert check_win(s, "dawn").winner == "mafia"
    quote("All Town players, dead or alive, win when all threats to the Town have been eliminated.")
    s = game(*BASE)
    s.players["Carol"].alive = s.players["Moe"].alive = False
    win = check_win(s, "dawn")
    assert (win.winner, win.players) == ("town", ("Gus", "Hal"))
    quote("The Secret Boss wins when he is the sole living player.")
    s = game("Boss=/secret-boss", "Gus=/town")
    s.players["Gus"].alive = False
    assert check_win(s, "dusk").winner == "secret-boss"


def test_replay_from_stored_inputs_with_a_replacement():
    """The state is rebuilt from facts: setup, orders, "night 1 resolved", a replacement."""
    from assistant.engine.history import replay

    setup = game("Doc=doctor", *BASE, seed=3)
    inputs = [
        {"seq": 1, "kind": "roles", "data": Setup(
            tuple(PlayerSetup(p.name, p.side, p.role) for p in setup.players.values()), 3
        ).to_dict()},
        {"seq": 2, "kind": "order", "data": parse_order(
            "Mafia: kill Gus", setup, phase="night", number=1).to_dict()},
        {"seq": 3, "kind": "resolution", "data": {"phase": "night", "number": 1}},
        {"seq": 4, "kind": "death", "data": {"player": "Doc", "how": "replaced",
                                              "replacement": "Dora"}},
    ]
    rep = replay(RULES, inputs)
    assert [d.player for d in rep.results[0].deaths] == ["Gus"]
    assert "Dora" in rep.state.players and rep.state.players["Dora"].role == "doctor"
    assert rep.next_night() == 2
    assert replay(RULES, inputs).results[0].log_lines() == rep.results[0].log_lines()


def test_wrong_number_of_targets_is_illegal():
    s = game("Red=redirector/town", *BASE)
    with pytest.raises(IllegalOrderError, match="names 2 player"):
        check_order(parse_order("Red: redirect Gus", s, phase="night", number=1), s)
