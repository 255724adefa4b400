"""Paranormal (seed 000): every role, variant, attribute and item, and the interactions the
rules spell out. Each test quotes the sentence of ../shared/seeds/000_307a730cc0c91942.txt it
checks (and `quote` checks it is there).
"""

from __future__ import annotations

import pytest

from assistant.engine.abilities.items import with_gifts
from assistant.engine.history import apply_death
from assistant.engine.orders import check_order, parse_order
from assistant.engine.resolver import PhaseResult, resolve_phase
from assistant.engine.setup import parse_setup, setup_warnings
from assistant.engine.state import GameState
from assistant.engine.vote_effects import modifiers_for_day
from assistant.engine.win import check_win
from assistant.errors import ConfigError, IllegalOrderError
from tests.test_engine_000 import RULES, dead, game, night, quote


def day(state: GameState, n: int, *orders: str) -> PhaseResult:
    return resolve_phase(
        state, "day", n, [parse_order(o, state, phase="day", number=n) for o in orders]
    )


def legal(state: GameState, text: str, n: int = 1) -> None:
    check_order(parse_order(text, state, phase="night", number=n), state)


# ---- the ruleset as a whole -------------------------------------------------------------


def test_every_role_and_item_of_the_seed_is_in_the_ruleset() -> None:
    titles = {r.title for r in RULES.roles.values()}
    for role in (
        "Townie", "Doppelganger", "Doppelganger leader", "Advanced Doppelganger",
        "Tough Doppelganger", "War Vet", "Vigilante", "Agent", "Detective", "Telepath",
        "Medium", "Reporter", "Sneak", "Heroic Guard", "Observant Guard", "Vengeful Guard",
        "Guardian", "Psychic Warden", "Mad Scientist", "Enchanter", "Rogue Doppelganger",
        "Xenozoologist", "Survivor", "Exterminator", "Exterminator Operative",
        "Agent Operative", "Spore Spreader", "Hivemind", "Harvester",
    ):
        quote(f"- {role}" if role not in {"Heroic Guard", "Observant Guard", "Vengeful Guard",
                                          "Guardian", "Spore Spreader", "Hivemind"} else role)
        assert role in titles, role
    items = {i.title for i in RULES.items.values()}
    for item in (
        "Personal Shield", "Mind Shield", "Anti-Tech Field", "Holoform Modulator", "Scanner",
        "Hold-out Blaster", "Stun Orb", "Advanced Holoform Modulator",
        "Permanent Holoform Modulator", "Assassin bot", "Mind Control Ray", "Stun Bomb",
        "Combat Camouflage", "EMP Pulse Emitter", "Psychic Pulse Emitter", "Intel",
        "Plasma Bomb", "Replicator", "Advanced Targeting System", "Advanced Assassin bot",
        "Sentry Guns", "EMP Pulse Bomb", "Body Double", "Psychic Pulser",
        "Surveillance System", "Snooper bot", "Advanced Tracking Devices", "Kook",
        "Spirit-bond",
    ):
        quote(item)
        assert item in items, item


def test_the_event_order_is_the_seeds() -> None:
    quote(
        "Event Order: The order of events is as follows: Mind Control Pure Role-blockers "
        "Abductors Protectors Investigators Night Kills/Conversions"
    )
    assert RULES.tiers == (
        "mind_control", "roleblocks", "abductions", "protections", "investigations", "kills",
        "morning",
    )
    quote("A Morning Kill will always look like it recently happened.")


def test_mind_control_comes_before_the_roleblock() -> None:
    quote(
        "Once per game the MS can use the Mind Control Ray to choose another player's target "
        "for the night."
    )
    s = game("Ms=cutting-edge-scientist/town+ms-mind-control-ray", "Pw=psychic-warden/town",
             "Vig=vigilante/town", "Dop=doppelganger", "Gus=/town")
    r = night(s, 1, "Ms: control Pw and Vig", "Pw: foil Dop", "Vig: kill Gus")
    # The Warden's foil now lands on the Vigilante, whose shot is stopped.
    assert dead(r) == []
    assert "[roleblocks] Pw: foil Vig: roleblocks Vig" in r.log_lines()
    assert r.pms["Pw"] == ("Your mind was not your own tonight.",)
    quote("The Ray also allows the Scientist to control that player's vote during the next day")
    assert any("chooses Pw's vote on Day 2" in n for n in r.notes)
    quote(
        "If the player does not have a night action (and is not the dopp chosen for the night "
        "kill), or if the player has a limited-use night ability and chose not to use it, then "
        "no action occurs."
    )
    r2 = night(s, 1, "Ms: control Gus and Dop")
    assert dead(r2) == [] and "[mind_control] Ms: control Gus and Dop: no effect " \
        "(Gus took no action tonight)" in r2.log_lines()
    # The dopp chosen for the night kill is controlled too.
    r3 = night(s, 1, "Ms: control Dop and Pw", "Doppelgangers: kill Gus by Dop")
    assert dead(r3) == ["Pw"]


def test_all_kills_are_simultaneous() -> None:
    quote("All kills will be effectively simultaneous.")
    s = game("Vig=vigilante/town", "Dop=doppelganger", "Lea=doppelganger-leader", "Gus=/town")
    # Two killers aiming at each other both die (no draw, unlike 002).
    assert dead(night(s, 1, "Vig: kill Dop", "Doppelgangers: kill Vig by Dop")) == ["Dop", "Vig"]


# ---- races, visible races and tags ---------------------------------------------------------


def test_psychic_is_a_tag_not_a_race() -> None:
    quote("Race: Human/Doppelganger")
    quote("Can investigate one person per night to determine their Race.")
    s = game("Ag=agent/town", "Pw=psychic-warden/town", "Te=telepath/doppelgangers",
             "Dop=doppelganger")
    r = night(s, 1, "Ag: investigate Pw")
    assert r.pms["Ag"] == ("Pw's race: Human.",)  # never "Psychic Human"
    assert night(s, 1, "Ag: investigate Te").pms["Ag"] == ("Te's race: Doppelganger.",)


def test_human_or_doppelganger_roles_may_be_on_either_side() -> None:
    quote("Victory: Town/Doppelgangers win")
    s = game("Ag=agent/doppelgangers", "Vig=vigilante/doppelgangers", "Gus=/town", "Hal=/town")
    assert s.players["Ag"].side == "doppelgangers"
    # The setup must say which: a role of two sides without one is refused.
    with pytest.raises(ConfigError, match="side None is not a side"):
        parse_setup('players = [{ name = "A", role = "agent" }]', RULES, where="s.toml",
                    default_seed=1)
    quote("If he is a dopp, he may either perform the group night-kill or his own kill.")
    r = night(s, 1, "Vig: kill Gus", "Doppelgangers: kill Hal by Vig")
    assert dead(r) == ["Hal"]
    assert r.log_lines()[0].startswith("[orders] Vig: kill Gus: ignored (Vig may do one")


# ---- doppelgangers -------------------------------------------------------------------------


def test_the_leader_is_hidden_from_agent_and_detective_not_the_telepath() -> None:
    quote(
        "More powerful and adept then the others, the leader is immune to detection by Agent "
        "or Detective short of death. The Telepath will still receive a 'kill' goal from the "
        "Dopp Leader, however."
    )
    s = game("Lea=doppelganger-leader", "Ag=agent/town", "De=detective/town",
             "Te=telepath/town", "Gus=/town")
    r = night(s, 1, "Ag: check Lea", "De: check Lea", "Te: read Lea")
    assert r.pms == {
        "Ag": ("Lea's race: Human.",),
        "De": ("Lea's role: No Role.",),
        "Te": ("Lea's goal tonight: Kill.",),
    }


def test_the_advanced_doppelganger_consumes_and_replaces() -> None:
    quote(
        "In game terms, the player who was the doppelganger is now out of the game (although "
        "he still wins with the dopps), and the player targeted by the advanced dopp becomes a "
        "doppelganger."
    )
    quote("Any abilities possessed by the Consumed character are lost, including Mind Shield.")
    s = game("Adv=advanced-doppelganger", "Ag=agent/town+mind-shield", "Gus=/town",
             "Hal=/town", "Al=survivor")
    r = night(s, 1, "Adv: consume Ag")
    ag = r.state.players["Ag"]
    assert (ag.side, ag.role, ag.items) == ("doppelgangers", "doppelganger", [])
    assert "out" in r.state.players["Adv"].statuses
    win = check_win(r.state)
    assert win is None
    quote("The advanced doppelganger shows up as a normal doppelganger would to all investigative "
          "roles.")
    assert RULES.role("advanced-doppelganger").passives["visible_role"] == "No Role"
    quote(
        "Aliens cannot be Consumed, but the once-per-game limit on the ability is not used up "
        "if the Adv. Dopp tries to consume them."
    )
    r2 = night(s, 1, "Adv: consume Al")
    assert r2.state.players["Al"].side == "survivor"
    legal(r2.state, "Adv: consume Gus", 2)  # still has the use
    with pytest.raises(IllegalOrderError, match="no use"):
        legal(r.state, "Adv: consume Gus", 2)


def test_the_tough_doppelganger_survives_a_night_kill_but_not_a_plasma_bomb() -> None:
    quote(
        "The Tough doppelganger is immune to a regular Night Kill. Certain tech kills, like "
        "the Plasma Bomb, are still effective."
    )
    s = game("Tou=tough-doppelganger", "Vig=vigilante/town", "Ex=exterminator+mind-shield"
             "+plasma-bomb", "Gus=/town")
    assert dead(night(s, 1, "Vig: kill Tou")) == []
    assert dead(night(s, 1, "Ex: plasma bomb Tou")) == ["Tou"]


def test_the_rogue_doppelganger_kills_once_and_alone() -> None:
    quote("Once during the game the Rogue Doppelganger may Night Kill another player.")
    quote("but does not know who the dopp team are in either case")
    s = game("Rog=rogue-doppelganger/doppelgangers", "Dop=doppelganger", "Gus=/town",
             "Hal=/town", "Ida=/town")
    r = night(s, 1, "Rog: kill Gus")
    assert dead(r) == ["Gus"]
    with pytest.raises(IllegalOrderError, match="no use"):
        legal(r.state, "Rog: kill Hal", 2)
    with pytest.raises(IllegalOrderError, match="acts alone"):
        legal(s, "Doppelgangers: kill Hal by Rog")
    # A town-allied rogue is a doppelganger by race, and the town wins with it alive.
    t = game("Rog=rogue-doppelganger/town", "Ag=agent/town", "Gus=/town")
    assert night(t, 1, "Ag: check Rog").pms["Ag"] == ("Rog's race: Doppelganger.",)
    assert check_win(t) is not None and check_win(t).winner == "town"


def test_the_doppelgangers_skip_their_kill_at_most_twice_in_a_row() -> None:
    quote(
        "The Doppelgangers may choose to skip their night kill. They may only do this twice in "
        "a row before their bloodlust forces them to kill."
    )
    s = game("Dop=doppelganger", "Lea=doppelganger-leader", "Gus=/town", "Hal=/town",
             "Ida=/town", "Jo=/town")
    n1 = night(s, 1)
    assert n1.notes == ()
    n2 = night(n1.state, 2)
    assert n2.notes == (
        "The Doppelgangers have skipped their kill 2 nights in a row: the next night they "
        "must kill.",
    )
    n3 = night(n2.state, 3)
    forced = ("The Doppelgangers have skipped their kill 2 nights in a row: their bloodlust "
              "forces them to kill tonight.")
    assert n3.notices == {"Dop": (forced,), "Lea": (forced,)}
    assert n3.notes[0] == forced + " No kill order is entered: ask Dop, Lea for it."
    # A kill resets the count.
    n3k = night(n2.state, 3, "Doppelgangers: kill Gus")
    n4 = night(n3k.state, 4)
    assert n4.notes == () and n4.notices == {}


# ---- town roles ------------------------------------------------------------------------------


def test_the_vigilante_kills_each_night_regardless_of_race() -> None:
    quote("The Vigilante uses guns to kill his target, regardless of Race")
    quote("He gets one kill each night.")
    s = game("Vig=vigilante/town", "Al=survivor", "Gus=/town", "Dop=doppelganger")
    assert dead(night(s, 1, "Vig: shoot Al")) == ["Al"]
    assert dead(night(night(s, 1, "Vig: kill Gus").state, 2, "Vig: kill Dop")) == ["Dop"]


def test_the_detective_sees_the_visible_role() -> None:
    quote(
        "Roles with the 'Visible Role' tag will show that role instead of thier actual Role.."
    )
    s = game("De=detective/town", "Vet=war-vet/town", "Op=exterminator-operative",
             "Gua=guardian/town", "Sur=survivor", "Gus=townie")
    r = {
        t: night(s, 1, f"De: check {t}", "Vet: hold fire").pms["De"][0]
        for t in ("Vet", "Op", "Gua", "Sur", "Gus")
    }
    assert r == {
        "Vet": "Vet's role: War Vet.",
        "Op": "Op's role: Operative.",
        "Gua": "Gua's role: Bodyguard.",
        "Sur": "Sur's role: No Role.",
        "Gus": "Gus's role: No Role.",
    }


def test_the_telepath_reads_goals_from_home() -> None:
    quote(
        "Players who performed 'No Action' return their racial default (Kill for Dopps, "
        "Survive for Human) unless their role dictates otherwise."
    )
    quote("The Telepath need not leave his house to use his powers.")
    s = game("Te=telepath/town", "Ag=agent/town", "Gua=guardian/town", "Dop=doppelganger",
             "Gus=/town", "Vet=war-vet/town", "Me=medium/town", "Vig=vigilante/town")
    r = night(s, 1, "Te: read Ag", "Ag: check Gus")
    assert r.pms["Te"] == ("Ag's goal tonight: Find.",)
    goals = {}
    for t, orders in {
        "Gua": ("Gua: guard Gus",), "Dop": (), "Gus": (), "Vig": ("Vig: kill Gus",),
        "Me": ("Vig: kill Me",), "Ag": (),
    }.items():
        goals[t] = night(s, 1, f"Te: read {t}", *orders).pms["Te"][0].split(": ")[1]
    assert goals == {"Gua": "Protect.", "Dop": "Kill.", "Gus": "Survive.", "Vig": "Kill.",
                     "Me": "Find.", "Ag": "Survive."}
    quote("Goal: Kill (If active)")
    assert night(s, 1, "Te: read Vet").pms["Te"] == ("Vet's goal tonight: Kill.",)
    assert night(s, 1, "Te: read Vet", "Vet: hold fire").pms["Te"] == (
        "Vet's goal tonight: Survive.",
    )
    assert dead(night(s, 1, "Te: read Vet")) == []  # not a visit: the Vet does not shoot


def test_the_medium_always_finds() -> None:
    quote("Goal: Find (Always)")
    quote("The medium can freely communicate with Dead characters via PM/Ghost Chat.")
    s = game("Me=medium/town", "Te=telepath/town", "Dop=doppelganger")
    assert night(s, 1, "Te: read Me").pms["Te"] == ("Me's goal tonight: Find.",)
    assert RULES.role("medium").abilities == {}  # no night action: nothing to order


def test_the_sneak_learns_and_hides_at_the_target() -> None:
    quote(
        "If they do so, they learn whether or not that player leaves their house at night. "
        "They also remain at that location through the night, and are untargetable themselves "
        "except by psychic powers. However, anyone who targets their target will get them as "
        "well."
    )
    s = game("Sn=sneak/town", "Ag=agent/town", "Gus=/town", "Dop=doppelganger",
             "Lea=doppelganger-leader", "Pw=psychic-warden/town")
    r = night(s, 1, "Sn: sneak Ag", "Ag: check Gus")
    assert r.pms["Sn"] == ("Ag left their house tonight.",)
    assert night(s, 1, "Sn: sneak Gus").pms["Sn"] == ("Gus stayed home tonight.",)
    # Untargetable at home: the kill aimed at the Sneak fails.
    r = night(s, 1, "Sn: sneak Gus", "Doppelgangers: kill Sn")
    assert dead(r) == []
    assert "is sneaking, away from home" in r.log_lines()[-1]
    # ... except by psychic powers: the Warden's foil still lands.
    r = night(s, 1, "Sn: sneak Gus", "Pw: foil Sn")
    assert "[roleblocks] Pw: foil Sn: roleblocks Sn" in r.log_lines()
    # Whoever kills the Sneak's target gets the Sneak too.
    assert dead(night(s, 1, "Sn: sneak Gus", "Doppelgangers: kill Gus")) == ["Gus", "Sn"]


# ---- bodyguards --------------------------------------------------------------------------------


GUARDED = ("Gus=/town", "Dop=doppelganger", "Lea=doppelganger-leader", "Vig=vigilante/town",
           "Hal=/town")


def test_the_heroic_guard_stops_every_kill_and_dies() -> None:
    quote(
        "This variant will sacrifice themself to prevent all night-kills targeting the other "
        "player from effecting them. The Bodyguard dies at the end of the night."
    )
    s = game("Bg=heroic-guard/town", *GUARDED)
    r = night(s, 1, "Bg: guard Gus", "Doppelgangers: kill Gus", "Vig: kill Gus")
    assert dead(r) == ["Bg"]


def test_the_observant_guard_stops_the_first_and_names_the_attacker() -> None:
    quote(
        "This variant protects against the first night-kill against their target, and will "
        "determine the identity of the attacker and pass on this information to their guarded "
        "target. The Bodyguard dies at the end of the night."
    )
    s = game("Bg=observant-guard/town", *GUARDED)
    r = night(s, 1, "Bg: guard Gus", "Doppelgangers: kill Gus by Dop")
    assert dead(r) == ["Bg"]
    assert r.pms["Gus"] == ("Your bodyguard stopped an attack on you by Dop.",)
    # Only the first: a second kill on the target goes through.
    assert dead(night(s, 1, "Bg: guard Gus", "Doppelgangers: kill Gus", "Vig: kill Gus")) == [
        "Bg", "Gus"
    ]


def test_the_vengeful_guard_kills_the_attacker() -> None:
    quote(
        "This variant protects against the first night-kill against their target and kills "
        "the attacker in the process. The Bodyguard dies at the end of the night."
    )
    s = game("Bg=vengeful-guard/town", *GUARDED)
    r = night(s, 1, "Bg: guard Gus", "Doppelgangers: kill Gus by Dop")
    assert dead(r) == ["Bg", "Dop"]


def test_the_guardian_stops_one_kill_and_lives() -> None:
    quote(
        "This powerful bodyguard will prevent one kill attempt on the target that night. The "
        "Guardian is not killed by doing so."
    )
    s = game("Bg=guardian/town", *GUARDED)
    assert dead(night(s, 1, "Bg: guard Gus", "Doppelgangers: kill Gus")) == []
    assert dead(night(s, 1, "Bg: guard Gus", "Doppelgangers: kill Gus", "Vig: kill Gus")) == [
        "Gus"
    ]
    quote("When killed while performing a Protection the Bodyguard's remains will be found "
          "somewhere outside of their room/house.")


# ---- psychic warden, mind shield, anti-tech field ----------------------------------------------


def test_the_warden_foils_and_the_target_knows() -> None:
    quote("All targets, regardless of role, will be aware that they have been tampered with.")
    s = game("Pw=psychic-warden/town", "Ag=agent/town", "Gus=/town", "Dop=doppelganger")
    r = night(s, 1, "Pw: foil Ag", "Ag: check Gus")
    assert r.pms == {"Ag": ("Someone has tampered with you tonight.",)}
    assert night(s, 1, "Pw: foil Gus").pms == {"Gus": ("Someone has tampered with you tonight.",)}


def test_a_mind_shield_stops_psychic_powers_and_both_know() -> None:
    quote(
        "This character is completely immune to all Psychic effects and abilities (Telepath "
        "and Psychic Warden)."
    )
    quote(
        "Psychic characters will be aware of a Mind Shield blocking their abilities. The "
        "character with a Mind Shield will know that they were targeted but not the specific "
        "effect."
    )
    s = game("Pw=psychic-warden/town", "Te=telepath/town", "Ag=agent/town+mind-shield",
             "Gus=/town", "Dop=doppelganger")
    r = night(s, 1, "Pw: foil Ag", "Te: read Ag", "Ag: check Gus")
    assert r.pms["Ag"] == (
        "Something targeted you tonight, but it had no effect on you.",
        "Something targeted you tonight, but it had no effect on you.",
        "Gus's race: Human.",
    )
    assert r.pms["Pw"] == ("Your power on Ag was blocked by a Mind Shield.",)
    assert r.pms["Te"] == ("Your power on Ag was blocked by a Mind Shield.",)


def test_an_advanced_mind_shield_always_appears_to_work() -> None:
    quote(
        "An advanced mind shield provides the same protection as a normal mind shield, but has "
        "the added benefit of always appearing to work to the one using psychic powers against "
        "the user. Telepaths will always receive a 'Survive' result, Psychic Wardens will not "
        "know their power is blocked, and so on."
    )
    quote("Should the user already possess a Natural Mind Shield, it will be upgraded to an "
          "Advanced Mind Shield.")
    s = game("Pw=psychic-warden/town", "Te=telepath/town",
             "Vig=vigilante/town+mind-shield+mind-shield-tech", "Gus=/town", "Dop=doppelganger")
    r = night(s, 1, "Pw: foil Vig", "Te: read Vig", "Vig: kill Gus")
    assert dead(r) == ["Gus"]
    assert r.pms["Te"] == ("Vig's goal tonight: Survive.",)
    assert "Pw" not in r.pms


def test_an_anti_tech_field_stops_tech_and_keeps_a_one_shot() -> None:
    quote(
        "This character is completely immune to all Tech effects and abilities (Mad Scientist "
        "and Alien tech)."
    )
    quote("Single Target one-shot items are not used up, but the action is wasted.")
    s = game("Al=survivor+stun-orb", "Ag=agent/town+anti-tech-field", "Gus=/town",
             "Dop=doppelganger")
    r = night(s, 1, "Al: stun orb Ag", "Ag: check Gus")
    assert r.pms["Ag"][-1] == "Gus's race: Human."
    assert r.pms["Al"] == ("Your power on Ag was blocked by an Anti-Tech Field.",)
    legal(r.state, "Al: stun orb Gus", 2)


def test_an_advanced_anti_tech_field_fools_the_scanner_and_uses_up_the_item() -> None:
    quote(
        "Tracking devices will show the player at home, Scanners will show Vanilla Townie, "
        "etc. Single-target One Shot items ARE used up when used against an Advanced "
        "Anti-Tech field."
    )
    s = game("Al=survivor+scanner", "Dop=doppelganger+anti-tech-field+anti-tech-tech",
             "Gus=/town")
    r = night(s, 1, "Al: scan Dop")
    assert r.pms["Al"] == ("Scanner on Dop: Human, Townie, no tech.",)
    with pytest.raises(IllegalOrderError, match="no use"):
        legal(r.state, "Al: scan Gus", 2)


def test_the_enchanter_votes_double_unless_shields_outnumber() -> None:
    quote("His votes count double.")
    quote("If at any point there are more Mind Shields then regular players, this power will "
          "not work.")
    s = game("En=enchanter/town", "Dop=doppelganger", "Gus=/town")
    assert [m["vote_weight"] for m in modifiers_for_day(s, 1)] == [2]
    shielded = game("En=enchanter/town", "Dop=doppelganger+mind-shield", "Gus=/town+mind-shield")
    assert modifiers_for_day(shielded, 1) == []


def test_the_kook_looks_like_a_doppelganger_to_the_agent_only() -> None:
    quote("it makes the Agent confuse him for a Doppelganger.")
    quote("The scanner bypasses all role effects on investigation (such as the Kook or Dopp "
          "Leader).")
    s = game("Ag=agent/town", "Ko=/town+kook", "Al=survivor+scanner", "Lea=doppelganger-leader")
    assert night(s, 1, "Ag: check Ko").pms["Ag"] == ("Ko's race: Doppelganger.",)
    assert night(s, 1, "Al: scan Ko").pms["Al"] == ("Scanner on Ko: Human, Townie, no tech.",)
    assert night(s, 1, "Al: scan Lea").pms["Al"] == (
        "Scanner on Lea: Doppelganger, Doppelganger leader, no tech.",
    )


def test_spirit_bond_passes_the_power_to_the_living() -> None:
    quote(
        "When this player dies they may choose another living player to bond with. That night "
        "they visit that player as a ghost and offers them their power. If that player accepts, "
        "they lose any abilities they may have had and gain the ghost's abilities instead."
    )
    s = game("Ag=agent/town+spirit-bond", "Dop=doppelganger", "Gus=/town", "Hal=/town")
    with pytest.raises(IllegalOrderError, match="only after dying"):
        legal(s, "Ag: bond Gus")
    r = night(s, 1, "Doppelgangers: kill Ag")
    r2 = night(r.state, 2, "Ag: bond Gus")
    assert r2.state.players["Gus"].role == "agent"
    assert r2.pms["Gus"] == ("You now have the role: Agent.",)


# ---- mad scientists -------------------------------------------------------------------------


def test_the_assassin_bot_morning_kill_beats_a_guardian() -> None:
    quote("Once per game the MS can use the assassin bot to perform a Morning Kill on another "
          "player.")
    quote("A morning kill happens between the night and day phase, and cannot be prevented by "
          "abilities that prevent night kills (Such as the Guardian).")
    s = game("Ms=military-scientist/town+ms-assassin-bot", "Bg=guardian/town", "Dop=doppelganger",
             "Gus=/town")
    r = night(s, 1, "Ms: assassin bot Dop", "Bg: guard Dop")
    assert dead(r) == ["Dop"]
    assert r.log_lines()[-1].startswith("[morning] Dop: dies")
    quote("Due to their mechanical nature, the Inventions cannot be stopped by a Psychic Warden")
    p = game("Ms=military-scientist/town+ms-assassin-bot", "Pw=psychic-warden/doppelgangers",
             "Dop=doppelganger", "Gus=/town")
    assert dead(night(p, 1, "Pw: foil Ms", "Ms: bot Gus")) == ["Gus"]


def test_sentry_guns_shoot_once_and_take_one_attack() -> None:
    quote(
        "Functions like the War Vet, attacking and killing anyone who comes snooping around the "
        "Mad Scientist's house. However, it has limited ammo (it is just a prototype version), "
        "and only works for one night once triggered. Should the Mad Scientist be attacked, it "
        "is the Sentry Gun that is destroyed not the Scientist."
    )
    s = game("Ms=military-scientist/town+sentry-guns", "Ag=agent/town", "Dop=doppelganger",
             "Vig=vigilante/town", "Gus=/town")
    r = night(s, 1, "Doppelgangers: kill Ms by Dop")
    assert dead(r) == ["Dop"]
    quote("Once destroyed, the Sentry gun cannot protect against any further attacks that night.")
    assert dead(night(s, 1, "Doppelgangers: kill Ms by Dop", "Vig: kill Ms")) == ["Dop", "Ms",
                                                                                  "Vig"]
    # Spent: the next night the guns neither shoot nor protect.
    assert dead(night(r.state, 2, "Ag: check Ms")) == []
    quote("The Sentry Guns can be programmed with face recognition to allow safe passage to "
          "people that the Mad Scientist deems trustworthy. This can be changed on a "
          "night-per-night basis.")
    assert dead(night(s, 1, "Ms: trust Ag", "Ag: check Ms")) == []
    assert dead(night(s, 1, "Ag: check Ms")) == ["Ag"]


def test_the_emp_bomb_shorts_all_tech_until_repaired() -> None:
    quote(
        "This device is a one-shot item used at night. All Tech devices are shorted out that "
        "night. Any actions relying on a tech device are blocked. Tech devices can be fixed the "
        "following night, but this uses up any Night Actions of that player."
    )
    s = game("Ms=military-scientist/town+emp-bomb", "Al=survivor+scanner-2+stun-orb",
             "Ag=agent/town", "Dop=doppelganger", "Gus=/town")
    r = night(s, 1, "Ms: emp", "Al: scan Ag")
    assert "Al" not in r.pms and "shorted" in r.state.players["Al"].statuses
    assert (
        '[investigations] Al: scan Ag: fails (Al\'s tech is shorted out until repaired ("Al: '
        'repair"))'
    ) in r.log_lines()
    quote("Since all role-blocks happen at the same time, a Role-blocker is effectively "
          "unblockable.")
    same_tier = night(s, 1, "Ms: emp", "Al: stun orb Ag")
    assert "[roleblocks] Al: stun orb Ag: roleblocks Ag" in same_tier.log_lines()
    r2 = night(r.state, 2, "Al: stun orb Ag")
    assert "shorted out until repaired" in r2.log_lines()[0]
    r3 = night(night(r.state, 2, "Al: repair").state, 3, "Al: stun orb Ag")
    assert "[roleblocks] Al: stun orb Ag: roleblocks Ag" in r3.log_lines()


def test_the_body_double_takes_one_death() -> None:
    quote(
        "It's a one-use item, though, so he's vulnerable after it's been destroyed.(No longer "
        "prevents lynches, but stops all other forms of death/capture)"
    )
    s = game("Ms=cutting-edge-scientist/town+body-double", "Dop=doppelganger", "Gus=/town",
             "Hal=/town")
    r = night(s, 1, "Doppelgangers: kill Ms")
    assert dead(r) == []
    assert dead(night(r.state, 2, "Doppelgangers: kill Ms")) == ["Ms"]


def test_the_psychic_pulser_blocks_every_psychic_but_shields() -> None:
    quote(
        "All Psychic players (excluding Mind Shields) are blocked for that night and cannot use "
        "any Psychic Abilities until the following Night."
    )
    s = game("Ms=cutting-edge-scientist/town+psychic-pulser", "Te=telepath/town",
             "Pw=psychic-warden/doppelgangers+mind-shield", "Dop=doppelganger", "Gus=/town")
    r = night(s, 1, "Ms: pulse", "Te: read Dop", "Pw: foil Gus")
    assert "Te" not in r.pms
    assert "[roleblocks] Pw: foil Gus: roleblocks Gus" in r.log_lines()


def test_the_surveillance_system_names_visitors_and_purpose() -> None:
    quote(
        "He knows the identity of anyone who visits his house during the night a well as thier "
        "general purpose (Find, Protect, Kill)."
    )
    s = game("Ms=intelligence-scientist/town+surveillance", "Ag=agent/town", "Bg=guardian/town",
             "Dop=doppelganger", "Gus=/town")
    r = night(s, 1, "Ag: check Ms", "Bg: guard Ms", "Doppelgangers: kill Ms by Dop")
    assert r.pms["Ms"] == (
        "Your surveillance system saw these visitors tonight: Ag (Find), Bg (Protect), "
        "Dop (Kill).",
    )


def test_the_snooper_bot_trails_without_visiting() -> None:
    quote("This little bug-bot can trail another player at night and see where they go (if "
          "anywhere).")
    s = game("Ms=intelligence-scientist/town+snooper-bot", "Vet=war-vet/town", "Ag=agent/town",
             "Gus=/town")
    r = night(s, 1, "Ms: snoop Ag", "Ag: check Gus")
    assert r.pms["Ms"] == ("Your snooper bot trailed Ag, who visited: Gus.",)
    assert dead(night(s, 1, "Ms: snoop Vet")) == []


def test_tracking_devices_report_each_night_until_their_holder_dies() -> None:
    quote("These devices are planted on players during the day. Once planted they show where "
          "the tracked individual is. If the player being tracked is killed, the device is lost.")
    quote("The Scientist starts with 2 devices")
    s = game("Ms=intelligence-scientist/town+tracking-devices", "Ag=agent/town",
             "Dop=doppelganger", "Gus=/town", "Hal=/town")
    d1 = day(s, 1, "Ms: plant Ag")
    n1 = night(d1.state, 1, "Ag: check Gus")
    assert n1.pms["Ms"] == ("Your tracking device on Ag: Gus.",)
    n2 = night(n1.state, 2)
    assert n2.pms["Ms"] == ("Your tracking device on Ag: home.",)
    n3 = night(n2.state, 3, "Doppelgangers: kill Ag")
    assert "Ms" not in n3.pms
    assert "[morning] Ms's tracking device: lost with Ag" in n3.log_lines()


# ---- aliens ---------------------------------------------------------------------------------


def test_the_xenozoologist_keeps_one_of_each_and_wins() -> None:
    quote(
        "Each night he may choose to Abduct a player. If that player is of a race he does not "
        "have, they are removed from the game and kept for study. If he already has one, they "
        "are returned to play the following morning."
    )
    s = game("Xe=xenozoologist", "Gus=/town", "Hal=/town", "Pw=psychic-warden/town",
             "Dop=doppelganger", "Al=survivor", "Vig=vigilante/town")
    n1 = night(s, 1, "Xe: abduct Gus")
    assert "out" in n1.state.players["Gus"].statuses
    assert n1.public == ("Gus has vanished without a trace.",)
    quote("While removed, they cannot be the target of any other night action and cannot vote "
          "or be lynched during the day.")
    mods = {m["player"]: m for m in modifiers_for_day(n1.state, 2)}
    assert mods["Gus"]["powerless"] and mods["Gus"]["lynch_immune"]
    n2 = night(n1.state, 2, "Xe: abduct Hal")
    assert "out" not in n2.state.players["Hal"].statuses
    assert n2.pms["Xe"] == ("You abducted Hal, a Human; you already have one: returned in the "
                            "morning.",)
    n3 = night(n2.state, 3, "Xe: abduct Pw")
    n4 = night(n3.state, 4, "Xe: abduct Dop")
    n5 = night(n4.state, 5, "Xe: abduct Al")
    quote("Once he has 1 of each, he wins and he and all abducted players are removed from the "
          "game.")
    assert ("Xe has one of each species and wins: they and their captives (Gus, Pw, Dop, Al) "
            "leave the game.") in n5.notes
    quote("If he is killed, all abducted players are returned to the game.")
    back = night(n1.state, 2, "Vig: kill Xe")
    assert "out" not in back.state.players["Gus"].statuses
    assert back.public == ("Gus has returned to the town.",)


def test_an_abduction_roleblocks_and_removes_from_play() -> None:
    quote("First, the abducted player is role-blocked for the night. Second, that player is "
          "removed from play for that night (and possibly the game).")
    s = game("Xe=xenozoologist", "Ag=agent/town", "Dop=doppelganger", "Gus=/town")
    r = night(s, 1, "Xe: abduct Ag", "Ag: check Gus", "Doppelgangers: kill Ag")
    assert dead(r) == []
    assert "[investigations] Ag: investigate Gus: fails (Ag is abducted)" in r.log_lines()
    assert any("Ag is abducted: out of play tonight" in line for line in r.log_lines())


def test_the_survivor_hides_as_a_human() -> None:
    quote("The Alien is there for some other purpose, and is simply hiding as a human.")
    quote("Victory: Is alive and unabducted at the end of the game")
    s = game("Sur=survivor", "De=detective/town", "Te=telepath/town", "Gus=/town")
    assert night(s, 1, "De: check Sur").pms["De"] == ("Sur's role: No Role.",)
    assert night(s, 1, "Te: read Sur").pms["Te"] == ("Sur's goal tonight: Survive.",)


def test_the_exterminator_kills_nightly_and_always_has_a_shield() -> None:
    quote("The Alien kills one person a night.")
    quote("The Exterminator always has a natural Mind Shield or Anti-Tech Field (Player's "
          "choice).")
    s = game("Ex=exterminator+anti-tech-field", "Op=exterminator-operative", "Gus=/town")
    assert dead(night(s, 1, "Ex: kill Gus")) == ["Gus"]
    text = """players = [
  { name = "Ex", role = "exterminator" },
  { name = "Op", role = "exterminator-operative", items = ["stun-orb", "scanner", "holoform"] },
  { name = "Sur", role = "survivor", items = ["intel"] },
  { name = "Ms", role = "military-scientist", side = "town", items = ["snooper-bot"] },
]"""
    setup = parse_setup(text, RULES, where="s.toml", default_seed=1)
    assert setup_warnings(setup, RULES) == [
        "Ex needs one of mind-shield, anti-tech-field (items = [...])",
        "Op holds 3 small tech, but has 1 medium, 2 small",
        "Sur holds 1 large tech, but has 1 small",
        "Ms: snooper-bot is not tech a Mad Scientist starts with",
    ]
    quote("The Alien wins when all non-ext aligned players are dead. The Exterminator does not "
          "need to be alive to win.")
    won = night(game("Ex=exterminator+mind-shield", "Op=exterminator-operative", "Gus=/town"),
                1, "Ex: kill Gus")
    assert check_win(won.state).winner == "exterminator"


def test_the_advanced_targeting_system_cannot_be_prevented() -> None:
    quote("A Night Kill from an alien with this system cannot be prevented.")
    s = game("Ex=exterminator+mind-shield+targeting-system", "Bg=guardian/town", "Gus=/town",
             "Tou=tough-doppelganger")
    assert dead(night(s, 1, "Ex: kill Gus", "Bg: guard Gus")) == ["Gus"]
    assert dead(night(s, 1, "Ex: kill Tou")) == ["Tou"]


def test_operatives_show_as_operatives_and_the_agent_operative_is_town() -> None:
    quote("Visible Role: Operative")
    quote("Victory: Town wins")
    s = game("Ao=agent-operative", "Ag=agent/town", "De=detective/town", "Dop=doppelganger")
    assert s.players["Ao"].side == "town"
    assert night(s, 1, "Ag: check Ao").pms["Ag"] == ("Ao's race: Alien.",)
    assert night(s, 1, "De: check Ao").pms["De"] == ("Ao's role: Operative.",)


def test_the_infester_spreads_spores_that_a_tech_shield_blocks() -> None:
    quote("The Infester must manually go to targets as a Night Action, infesting the target "
          "with Spores.")
    quote("The spores of this Alien are biological/nanomachine hybrids, and are therefore "
          "blocked by a Tech Shield. Guards may protect the target, and will be effected as "
          "normal for the guard type by the infection.")
    s = game("In=infester", "Gus=/town", "Hal=/town+anti-tech-field", "Bg=heroic-guard/town",
             "Ga=guardian/town")
    assert "infected" in night(s, 1, "In: infest Gus").state.players["Gus"].statuses
    assert "infected" not in night(s, 1, "In: infest Hal").state.players["Hal"].statuses
    r = night(s, 1, "In: infest Gus", "Bg: guard Gus")
    assert "infected" in r.state.players["Bg"].statuses
    assert "infected" not in r.state.players["Gus"].statuses
    r = night(s, 1, "In: infest Gus", "Ga: guard Gus")
    assert not any("infected" in p.statuses for p in r.state.players.values())


def test_the_bloom_seeds_once_and_dies_unless_lynched() -> None:
    quote("All players will be made aware of the plants the following morning. That day, the "
          "players MUST perform a lynch.")
    quote("If the SS is not lynched, then it will die the following night and lose.")
    s = game("Bl=bloom", "Gus=/town", "Hal=/town", "Dop=doppelganger")
    r = night(s, 1, "Bl: seed")
    assert r.public == ("Strange alien plants have sprouted all over town overnight. Today the "
                        "town MUST lynch someone.",)
    assert dead(night(r.state, 2)) == ["Bl"]


def test_the_psychic_hivemind_converts_humans_a_mind_shield_stops() -> None:
    quote("If the player is human, and does not have the appropriate blocking ability, they join "
          "the Hivemind's faction. Converted players keep their current role, but switch teams "
          "and win condition.")
    quote("Psychic Hivemind: Mentally dominates a human using Psychic powers. Blocked by Mind "
          "Shield. Advanced Mind Shield shows as 'Non Human' regardless of race. Can by "
          "role-blocked by Psychic Wardens.")
    s = game("Hi=psychic-hivemind", "Ag=agent/town", "Ms=/town+mind-shield",
             "Adv=/town+mind-shield+mind-shield-tech", "Dop=doppelganger", "Pw=psychic-warden/town",
             "Vig=vigilante/town")
    r = night(s, 1, "Hi: convert Ag")
    assert (r.state.players["Ag"].side, r.state.players["Ag"].role) == ("hivemind", "agent")
    assert r.pms["Hi"] == ("Ag: Human: dominated, now one of yours.", "Ag has joined the Hivemind.")
    assert night(s, 1, "Hi: convert Dop").pms["Hi"] == ("Dop: Non Human",)
    assert night(s, 1, "Hi: convert Ms").pms["Hi"] == (
        "Your power on Ms was blocked by a Mind Shield.",)
    assert night(s, 1, "Hi: convert Adv").pms["Hi"] == ("Adv: Non Human",)
    assert night(s, 1, "Pw: foil Hi", "Hi: convert Ag").state.players["Ag"].side == "town"
    quote("If the Hivemind dies, all converted players die with them.")
    assert dead(night(r.state, 2, "Vig: kill Hi")) == ["Ag", "Hi"]
    quote("As a Psychic Being, the Hivemind cannot take a Mind Shield as tech.")
    bad = parse_setup('players = [{ name = "H", role = "psychic-hivemind", '
                      'items = ["mind-shield-tech"] }]', RULES, where="s", default_seed=1)
    assert "H may not hold mind-shield-tech" in setup_warnings(bad, RULES)


def test_the_tech_hivemind_cannot_be_blocked_and_converts_a_sacrificial_guard() -> None:
    quote("Tech Hivemind: Uses advanced technology to dominate a human. Blocked by Anti-Tech "
          "Field. Advanced Anti-Tech Field shows as 'Non Human' regardless of race. Cannot be "
          "role-blocked, but the target can be Guarded. A sacrificial Guard will be converted "
          "instead of the intended target. A Guardian will be able to protect the target and "
          "not get converted themselves.")
    s = game("Hi=tech-hivemind", "Gus=/town", "Pw=psychic-warden/town", "Bg=heroic-guard/town",
             "Ga=guardian/town", "At=/town+anti-tech-field", "Dop=doppelganger")
    assert night(s, 1, "Pw: foil Hi", "Hi: convert Gus").state.players["Gus"].side == "hivemind"
    r = night(s, 1, "Hi: convert Gus", "Bg: guard Gus")
    assert (r.state.players["Gus"].side, r.state.players["Bg"].side) == ("town", "hivemind")
    r = night(s, 1, "Hi: convert Gus", "Ga: guard Gus")
    assert (r.state.players["Gus"].side, r.state.players["Ga"].side) == ("town", "town")
    assert night(s, 1, "Hi: convert At").state.players["At"].side == "town"


def test_the_organ_harvester_kills_the_abducted() -> None:
    quote("Organ Harvester - The Abducted player is killed.")
    s = game("Oh=organ-harvester", "Gus=/town", "Bg=guardian/town", "Dop=doppelganger")
    assert dead(night(s, 1, "Oh: abduct Gus", "Bg: guard Gus")) == ["Gus"]
    quote("Victory: Organ Harvester wins when all other players are dead.")
    alone = game("Oh=organ-harvester", "Gus=/town")
    assert check_win(night(alone, 1, "Oh: abduct Gus").state).winner == "harvester"


def test_the_mind_stealer_takes_roles() -> None:
    quote("Mind Stealer - Takes the Role from the Abducted player and adds it to their "
          "stockpile. The abducted player reverts to a vanilla role for the rest of the game "
          "(Aliens will all become survivors).")
    s = game("Mi=mind-stealer", "Ag=agent/town", "Ex=exterminator+mind-shield", "Dop=doppelganger")
    r = night(s, 1, "Mi: abduct Ag")
    assert r.state.players["Ag"].role is None
    assert "stock:agent" in r.state.players["Mi"].statuses
    assert r.pms["Mi"] == ("You took Ag's role: Agent.",)
    assert r.pms["Ag"][0] == "Your role was taken from you. You are now: Townie."
    assert night(s, 1, "Mi: abduct Ex").state.players["Ex"].role == "survivor"


# ---- alien tech ---------------------------------------------------------------------------


def test_the_personal_shield_works_once_also_against_morning_kills() -> None:
    quote("Works once as though guarded by the Guardian. Will also protect against Morningkills.")
    s = game("Al=survivor+personal-shield", "Ms=military-scientist/town+ms-assassin-bot",
             "Dop=doppelganger", "Gus=/town")
    r = night(s, 1, "Ms: bot Al")
    assert dead(r) == []
    assert dead(night(r.state, 2, "Doppelgangers: kill Al")) == ["Al"]


def test_the_holoform_fools_one_investigation_and_is_used_up() -> None:
    quote("Works once when investigated, allowing the alien to choose a role and race to show "
          "as. Once activated it lasts the entire night but is used up after that.")
    s = game("Al=survivor+holoform", "Ag=agent/town", "De=detective/town", "Gus=/town")
    r = night(s, 1, "Al: holoform Human, Townie", "Ag: check Al", "De: check Al")
    assert r.pms == {"Ag": ("Al's race: Human.",), "De": ("Al's role: Townie.",)}
    with pytest.raises(IllegalOrderError, match="no use"):
        legal(r.state, "Al: holoform Human", 2)
    # Not investigated: not used up.
    legal(night(s, 1, "Al: holoform Human").state, "Al: holoform Human", 2)
    quote("Permanent Holoform Modulator: Works as the Holoform Modulator, but is not used up "
          "when inspected.")
    p = game("Al=survivor+permanent-holoform", "Ag=agent/town", "Gus=/town")
    legal(night(p, 1, "Al: holoform Human", "Ag: check Al").state, "Al: holoform Human", 2)
    quote("In addition, the Advanced Holoform Modulator will screen against Psychic and Tech "
          "detection as well.")
    a = game("Al=survivor+advanced-holoform", "Sc=exterminator+mind-shield+scanner-2", "Gus=/town")
    assert night(a, 1, "Al: holoform Human, Townie", "Sc: scan Al").pms["Sc"] == (
        "Scanner on Al: Human, Townie, no tech.",)


def test_the_scanner_sees_everything_without_a_visit() -> None:
    quote("Works once as a combination of the Agent and Detective, showing both Race and Role "
          "as well as any gadgets or tech possessed by the player.")
    quote("The scanner does not use up the Alien's action, nor does it trigger any responses by "
          "the target (such as PWV or Reporter watching a location).")
    s = game("Ex=exterminator+mind-shield+scanner-2", "Vet=war-vet/town", "Gus=/town",
             "Rep=reporter/town", "Op=exterminator-operative+stun-orb")
    r = night(s, 1, "Ex: scan Vet", "Ex: kill Gus")
    assert dead(r) == ["Gus"]
    assert r.pms["Ex"] == ("Scanner on Vet: Human, War Vet, no tech.",)
    watched = night(s, 1, "Ex: scan Gus", "Rep: watch Gus")
    assert watched.pms["Rep"] == ("You watched Gus's house; visitors: nobody.",)
    assert night(s, 1, "Ex: scan Op").pms["Ex"] == ("Scanner on Op: Alien, Exterminator "
                                                    "Operative, Stun Orb.",)


def test_the_holdout_blaster_shoots_back() -> None:
    quote("If he is night-killed, he gets a shot off on his attacker (although he still suffers "
          "the effect of the attack). This is a one-shot item.")
    s = game("Al=survivor+holdout-blaster", "Dop=doppelganger", "Lea=doppelganger-leader",
             "Gus=/town")
    assert dead(night(s, 1, "Doppelgangers: kill Al by Dop")) == ["Al", "Dop"]
    quote("If the Alien is lynched, he pulls out the blaster and gets to shoot a single target "
          "before dying.")
    assert RULES.items["holdout-blaster"].passives["on_death"] == "shoot"


def test_the_stun_orb_blocks_the_night_and_the_next_day() -> None:
    quote("Allows the Alien to stun another player, preventing them from taking any actions "
          "that night or using any active abilities the following day (Role-block another "
          "player). 1 Use, does use up the alien's action.")
    s = game("Al=survivor+stun-orb", "Ms=intelligence-scientist/town+tracking-devices",
             "Gus=/town", "Dop=doppelganger")
    r = night(s, 1, "Al: stun Ms")
    d = day(r.state, 2, "Ms: plant Gus")
    assert "[day_actions] Ms: plant Gus: fails (Ms is roleblocked)" in d.log_lines()


def test_the_assassin_bot_works_while_abducted() -> None:
    quote("In addition, it is triggered remotely and can be used even while abducted.")
    s = game("Al=survivor+assassin-bot", "Xe=xenozoologist", "Gus=/town", "Dop=doppelganger")
    assert dead(night(s, 1, "Xe: abduct Al", "Al: bot Gus")) == ["Gus"]


def test_the_stun_bomb_stuns_everyone_but_its_user() -> None:
    quote("Allows the Alien to stun the entire town, preventing any player from using an Action "
          "for that night or using any active abilities the following day. The Alien who uses "
          "it is unaffected. Does not use up the Alien's action for that night.")
    s = game("Ex=exterminator+mind-shield+stun-bomb", "Ag=agent/town", "Dop=doppelganger",
             "Gus=/town")
    r = night(s, 1, "Ex: stun bomb", "Ex: kill Gus", "Ag: check Dop", "Doppelgangers: kill Ag")
    assert dead(r) == ["Gus"]


def test_the_pulse_emitters_take_one_players_tech_or_psychic_powers() -> None:
    quote("Any Tech devices used by that player that night are shorted out and must be fixed the "
          "following night. If the player's action relied on the Tech item, they are "
          "roleblocked. Does not use up the Alien's action for that night.")
    s = game("Op=exterminator-operative+emp-emitter+psychic-emitter", "Al=survivor+stun-orb",
             "Te=telepath/town", "Gus=/town", "Dop=doppelganger")
    r = night(s, 1, "Op: emp Al", "Al: stun Gus")
    assert "Gus" not in r.pms and "shorted" in r.state.players["Al"].statuses
    quote("Prevents the player from using any Psychic Abilities (except for a Mind Shield) for "
          "that night and the next day phase.")
    r = night(s, 1, "Op: psychic pulse Te", "Te: read Gus")
    assert "Te" not in r.pms


def test_intel_lists_every_role() -> None:
    quote("This gives you a list of all Roles in the game, but not who has them.")
    s = game("Ex=exterminator+mind-shield+intel", "Ag=agent/town", "Dop=doppelganger")
    assert night(s, 1).pms["Ex"] == ("Intel: the roles in this game are Agent, Doppelganger, "
                                     "Exterminator.",)


def test_the_plasma_bomb_takes_everyone_at_the_location() -> None:
    quote("One use per game, can be chosen in lieu of a nightkill, which will kill the target, "
          "and anyone interacting with the target, and anyone interacting with them, and so on. "
          "Cannot be protected against.")
    quote("Only effects people physically at that location (so Psychics are fine).")
    s = game("Ex=exterminator+mind-shield+plasma-bomb", "Gus=/town", "Bg=guardian/town",
             "Rep=reporter/town", "Te=telepath/town", "Ag=agent/town", "Dop=doppelganger")
    r = night(s, 1, "Ex: plasma bomb Gus", "Bg: guard Gus", "Rep: follow Bg", "Te: read Gus",
              "Ag: check Dop")
    assert dead(r) == ["Bg", "Gus", "Rep"]
    quote("It is triggered remotely, so the Alien is smart enough to stay out of the Blast "
          "Radius, and is therefore unaffected")
    assert r.state.players["Ex"].alive
    with pytest.raises(IllegalOrderError):
        legal(r.state, "Ex: plasma Dop", 2)


def test_the_advanced_assassin_bot_kills_by_day() -> None:
    quote("Once per game the Alien can use the assassin bot to Day-kill another player.")
    s = game("Ex=exterminator+mind-shield+advanced-assassin-bot", "Gus=/town", "Dop=doppelganger")
    assert dead(day(s, 1, "Ex: assassin bot Gus")) == ["Gus"]


def test_tech_can_be_traded_and_used_the_same_night() -> None:
    quote("Alien Tech can be passed between players as long as both players agree to the trade. "
          "This must be done via PM at Night. Tech can be used the night it is passed")
    s = game("Ex=exterminator+mind-shield+stun-orb", "Op=exterminator-operative", "Gus=/town",
             "Dop=doppelganger")
    give = parse_order("Ex: give stun-orb to Op", s, phase="night", number=1)
    after = with_gifts(s, [give])
    stun = parse_order("Op: stun orb Gus", after, phase="night", number=1)
    check_order(stun, after)
    r = resolve_phase(s, "night", 1, [give, stun])
    assert "[roleblocks] Op: stun orb Gus: roleblocks Gus" in r.log_lines()
    assert r.state.players["Op"].items == ["stun-orb"] and "stun-orb" not in r.state.players[
        "Ex"].items
    quote("The Operative and the Exterminator may freely exchange Tech between them.")
    assert night(s, 1, "Ex: give Stun Orb Op").state.players["Op"].items == ["stun-orb"]


def test_a_passed_item_is_used_by_one_person_a_night() -> None:
    quote("Tech can be used the night it is passed, but can only be used by one person per "
          "night (if it is a multi-use item).")
    s = game("Ex=exterminator+mind-shield+stun-orb-2", "Op=exterminator-operative", "Gus=/town",
             "Hal=/town", "Dop=doppelganger")
    give = parse_order("Ex: give stun-orb-2 to Op", s, phase="night", number=1)
    mine = parse_order("Ex: stun Hal", s, phase="night", number=1)
    after = with_gifts(s, [give])
    theirs = parse_order("Op: stun Gus", after, phase="night", number=1)
    r = resolve_phase(s, "night", 1, [give, mine, theirs])
    assert "roleblocked" in r.state.players["Gus"].day_statuses
    assert "roleblocked" not in r.state.players["Hal"].day_statuses
    assert any(line.startswith("[orders] Ex: stun orb Hal: ignored (") for line in r.log_lines())


def test_the_survivor_wins_with_whoever_wins() -> None:
    quote("They win as long as they are alive, regardless of which side wins.")
    s = game("Sur=survivor", "Gus=/town", "Dop=doppelganger", "Vig=vigilante/town")
    won = check_win(night(s, 1, "Vig: kill Dop").state)
    assert won is not None and won.winner == "town" and "Sur" in won.players
    dead_sur = check_win(night(s, 1, "Vig: kill Dop", "Doppelgangers: kill Sur").state)
    assert dead_sur is not None and "Sur" not in dead_sur.players


def test_the_agent_operative_learns_the_agent_on_the_first_night() -> None:
    quote("The Operative is not told who the Agent is until the First Night, however.")
    s = game("Ao=agent-operative", "Ag=agent/doppelgangers", "Gus=/town")
    assert night(s, 1).pms["Ao"] == ("The Agent is Ag.",)
    assert "Ao" not in night(night(s, 1).state, 2).pms


def test_a_lynched_infester_releases_a_spore_cloud() -> None:
    quote("when Lynched (but not killed otherwise), the Infester releases a spore cloud that "
          "randomly infects one of the non-infected players.")
    s = game("In=infester", "Gus=/town", "Hal=/town", "Dop=doppelganger")
    r = apply_death(s, {"player": "In", "how": "lynch"}, [])
    infected = [n for n, p in r.state.players.items() if "infected" in p.statuses]
    assert len(infected) == 1 and infected[0] in {"Gus", "Hal", "Dop"}
    assert r.notes == (f"In's spore cloud infects {infected[0]} (drawn at random)",)
    killed = apply_death(s, {"player": "In", "how": "nightkill"}, [])
    assert not any("infected" in p.statuses for p in killed.state.players.values())


def test_the_abomination_attacks_everyone_on_its_night() -> None:
    quote("The Harvester acts as a Doom Speaker, and is building an Abomination. After some # "
          "of nights (based on player count) the Abomination is released and performs a Night "
          "Kill attempt on every player.")
    s = game("Oh=organ-harvester", "Gus=/town", "Bg=guardian/town", "Tou=tough-doppelganger")
    s.extra["abomination_night"] = 2
    assert dead(night(s, 1)) == []
    r = night(s, 2, "Bg: guard Gus")
    assert dead(r) == ["Bg"]  # Gus is guarded, the tough dopp cannot be nightkilled
    with pytest.raises(IllegalOrderError, match="happens by itself"):
        legal(s, "Oh: abomination Gus")
