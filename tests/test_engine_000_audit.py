"""Paranormal (seed 000): the roles, items and definitions no other test quoted, each quoting
its sentence of ../shared/seeds/000_307a730cc0c91942.txt.

Every role, variant, item/tech, attribute and definition of the seed (by its first line
there) and the test quoting its sentence (roles, rest, 000: test_engine_000_roles.py,
_rest.py, test_engine_000.py; "here": this file). Before this file 75 of these 84 had one
(3 only in part: the Doppelganger, Bodyguard and tech-slot lines); now 84.
  L3   townie                  here: test_a_townie_has_no_powers_and_shows_no_role
  L9   doppelganger            here: test_the_doppelgangers_get_one_night_kill_as_a_group_besi*
  L16  dopp-leader             roles: test_the_leader_is_hidden_from_agent_and_detective_not_th*
  L24  advanced-dopp           roles: test_the_advanced_doppelganger_consumes_and_replaces
  L31  tough-dopp              roles: test_the_tough_doppelganger_survives_a_night_kill_but_not*
  L38  war-vet                 000: test_a_deadly_visitor_and_the_vet_both_die
  L44  vigilante               roles: test_the_vigilante_kills_each_night_regardless_of_race
  L50  agent                   roles: test_psychic_is_a_tag_not_a_race
  L55  detective               roles: test_the_detective_sees_the_visible_role
  L60  telepath                roles: test_the_telepath_reads_goals_from_home
  L66  medium                  roles: test_the_medium_always_finds
  L72  reporter                000: test_a_reporter_following_the_vet_dies
  L77  sneak                   roles: test_the_sneak_learns_and_hides_at_the_target
  L83  bodyguard               here: test_every_bodyguard_variant_shows_as_a_bodyguard_and_pro*
  L88  heroic-guard            roles: test_the_heroic_guard_stops_every_kill_and_dies
  L89  observant-guard         roles: test_the_observant_guard_stops_the_first_and_names_the_at*
  L90  vengeful-guard          roles: test_the_vengeful_guard_kills_the_attacker
  L91  guardian                roles: test_the_guardian_stops_one_kill_and_lives
  L93  psychic-warden          roles: test_the_warden_foils_and_the_target_knows
  L100 mad-scientist           here: test_a_mad_scientist_starts_with_his_variants_tech_and_ma*
  L106 ms-military             here: test_a_mad_scientist_starts_with_his_variants_tech_and_ma*
  L107 ms-assassin-bot         roles: test_the_assassin_bot_morning_kill_beats_a_guardian
  L108 ms-sentry-guns          roles: test_sentry_guns_shoot_once_and_take_one_attack
  L109 ms-emp-pulse-bomb       roles: test_the_emp_bomb_shorts_all_tech_until_repaired
  L110 ms-cutting-edge         here: test_a_mad_scientist_starts_with_his_variants_tech_and_ma*
  L111 ms-body-double          roles: test_the_body_double_takes_one_death
  L112 ms-mind-control-ray     roles: test_mind_control_comes_before_the_roleblock
  L113 ms-psychic-pulser       roles: test_the_psychic_pulser_blocks_every_psychic_but_shields
  L114 ms-intelligence         here: test_a_mad_scientist_starts_with_his_variants_tech_and_ma*
  L115 ms-surveillance         roles: test_the_surveillance_system_names_visitors_and_purpose
  L116 ms-snooper-bot          roles: test_the_snooper_bot_trails_without_visiting
  L117 ms-tracking-devices     roles: test_tracking_devices_report_each_night_until_their_holde*
  L119 ms-mind-shield          rest: test_a_mad_scientist_builds_a_mind_shield_over_two_nights
  L120 ms-anti-tech-field      roles: test_an_advanced_anti_tech_field_fools_the_scanner_and_us*
  L121 ms-inventions-vs-warden roles: test_the_assassin_bot_morning_kill_beats_a_guardian
  L123 enchanter               roles: test_the_enchanter_votes_double_unless_shields_outnumber
  L129 rogue-dopp              roles: test_the_rogue_doppelganger_kills_once_and_alone
  L134 xenozoologist           roles: test_the_xenozoologist_keeps_one_of_each_and_wins
  L140 survivor                roles: test_the_survivor_hides_as_a_human
  L147 exterminator            roles: test_the_exterminator_kills_nightly_and_always_has_a_shie*
  L154 ext-operative           roles: test_operatives_show_as_operatives_and_the_agent_operativ*
  L161 agent-operative         roles: test_the_agent_operative_learns_the_agent_on_the_first_ni*
  L168 spore-spreader          here: test_the_spore_spreaders_are_two_alien_types_of_one_side
  L172 infester                roles: test_the_infester_spreads_spores_that_a_tech_shield_blocks
  L173 bloom                   rest: test_the_bloom_lynched_the_day_after_seeding_wins_the_game
  L176 hivemind                roles: test_the_psychic_hivemind_converts_humans_a_mind_shield_s*
  L180 psychic-hivemind        roles: test_the_psychic_hivemind_converts_humans_a_mind_shield_s*
  L181 tech-hivemind           roles: test_the_tech_hivemind_cannot_be_blocked_and_converts_a_s*
  L184 harvester               here: test_a_harvester_of_either_type_abducts_by_night
  L188 organ-harvester         roles: test_the_organ_harvester_kills_the_abducted
  L189 mind-stealer            roles: test_the_mind_stealer_takes_roles
  L190 tech-slots              here: test_aliens_pick_tech_by_their_slots_one_of_each_item
  L195 personal-shield         roles: test_the_personal_shield_works_once_also_against_morning_*
  L196 item-mind-shield        roles: test_an_advanced_mind_shield_always_appears_to_work
  L197 item-anti-tech          roles: test_an_advanced_anti_tech_field_fools_the_scanner_and_us*
  L198 holoform                roles: test_the_holoform_fools_one_investigation_and_is_used_up
  L199 scanner                 roles: test_the_scanner_sees_everything_without_a_visit
  L200 holdout-blaster         roles: test_the_holdout_blaster_shoots_back
  L201 stun-orb                roles: test_the_stun_orb_blocks_the_night_and_the_next_day
  L203 adv-holoform            rest: test_the_advanced_holoform_hologram_fools_followers_not_t*
  L204 perm-holoform           roles: test_the_holoform_fools_one_investigation_and_is_used_up
  L205 alien-assassin-bot      roles: test_the_assassin_bot_works_while_abducted
  L206 alien-mind-control      roles: test_mind_control_comes_before_the_roleblock
  L207 stun-bomb               roles: test_the_stun_bomb_stuns_everyone_but_its_user
  L208 combat-camouflage       here: test_combat_camouflage_tells_the_gm_to_word_the_death_as_*
  L209 emp-emitter             roles: test_the_pulse_emitters_take_one_players_tech_or_psychic_*
  L210 psychic-pulse-emitter   roles: test_the_pulse_emitters_take_one_players_tech_or_psychic_*
  L212 intel                   roles: test_intel_lists_every_role
  L213 plasma-bomb             roles: test_the_plasma_bomb_takes_everyone_at_the_location
  L214 replicator              rest: test_the_replicator_makes_one_medium_or_two_small_items
  L215 adv-targeting           roles: test_the_advanced_targeting_system_cannot_be_prevented
  L216 adv-assassin-bot        roles: test_the_advanced_assassin_bot_kills_by_day
  L217 tech-trading            roles: test_tech_can_be_traded_and_used_the_same_night
  L218 attr-mind-shield        roles: test_a_mind_shield_stops_psychic_powers_and_both_know
  L222 attr-anti-tech          roles: test_an_anti_tech_field_stops_tech_and_keeps_a_one_shot
  L226 kook                    roles: test_the_kook_looks_like_a_doppelganger_to_the_agent_only
  L230 spirit-bond             roles: test_spirit_bond_passes_the_power_to_the_living
  L236 def-night-kill          here: test_the_doppelgangers_get_one_night_kill_as_a_group_besi*
  L237 def-morningkill         roles: test_the_assassin_bot_morning_kill_beats_a_guardian
  L238 def-abduction           roles: test_an_abduction_roleblocks_and_removes_from_play
  L247 dopp-skip-kill          roles: test_the_doppelgangers_skip_their_kill_at_most_twice_in_a*
  L258 event-order             roles: test_the_event_order_is_the_seeds
  L265 kills-simultaneous      roles: test_all_kills_are_simultaneous
  L266 pure-roleblocker        roles: test_the_emp_bomb_shorts_all_tech_until_repaired
Sentences of role texts no test quoted, played here: L225 "Tech characters will be aware that
their item was blocked" (test_an_anti_tech_field_tells_both_*), L199/L201 "a two-use item for
a Medium tech slot" (test_a_two_use_stun_orb_*), L213 "Can also be used while abducted"
(test_the_plasma_bomb_goes_off_*), L238 "not role-flipped until their abductor leaves"
(test_an_abducted_player_vanishes_*), L221/L225 "granted to a non-psychic character"
(test_a_natural_shield_is_granted_to_*: a setup giving one to a Psychic role is warned about).
Failed before their engine fix: the Detective saw "Townie" for a player set up with no role
([reveal.messages] vanilla_seen = "No Role"), Combat Camouflage did nothing (an item's
`kill_note` tells the GM), and PMs read "a Anti-Tech Field", "a Alien" (now "an").
"""

from __future__ import annotations

import pytest

from assistant.engine.orders import parse_order
from assistant.engine.resolver import PhaseResult, resolve_phase
from assistant.engine.setup import parse_setup, setup_warnings
from assistant.engine.state import GameState
from assistant.errors import MalformedOrderError
from tests.test_engine_000 import RULES, dead, game, night, quote


def day(state: GameState, n: int, *orders: str) -> PhaseResult:
    return resolve_phase(
        state, "day", n, [parse_order(o, state, phase="day", number=n) for o in orders]
    )


def test_a_townie_has_no_powers_and_shows_no_role() -> None:
    quote("- Townie Visible Role: No Role Race: Human Goal: Survive Rules: Normal citizen. No "
          "powers, just your wits and a desire to live")
    for gus in ("Gus=/town", "Gus=townie"):
        s = game(gus, "De=detective/town", "Ag=agent/town", "Te=telepath/town",
                 "Dop=doppelganger")
        with pytest.raises(MalformedOrderError, match="no ability 'kill'"):
            parse_order("Gus: kill Dop", s, phase="night", number=1)
        r = night(s, 1, "De: check Gus", "Ag: check Gus", "Te: read Gus")
        # A player set up with no role is a Townie too: the Detective sees "No Role" (it
        # said "Townie" of a role-less player before).
        assert r.pms["De"] == ("Gus's role: No Role.",), gus
        assert r.pms["Ag"] == ("Gus's race: Human.",)
        assert "Survive" in r.pms["Te"][0]


def test_the_doppelgangers_get_one_night_kill_as_a_group_besides_their_roles() -> None:
    quote("Night Kill: Any kill that happens during the Night Phase. The Doppelgangers each get "
          "1 Night Kill as a group, in addition to any allowed by Roles.")
    quote("- Doppelganger Visible Role: No Role Race: Doppelganger Goal: Kill")
    s = game("Dop=doppelganger", "Do2=doppelganger", "Vig=vigilante/doppelgangers",
             "De=detective/town", "Ag=agent/town", "X=/town", "Y=/town", "Z=/town")
    r = night(s, 1, "Doppelgangers: kill X by Dop", "Doppelgangers: kill Y by Do2",
              "Vig: kill Z")
    assert dead(r) == ["Y", "Z"]  # one group kill (the later order), and the Vigilante's own
    assert any("replaced (by the later order Do2" in line for line in r.log_lines())
    r = night(s, 1, "De: check Dop", "Ag: check Dop")
    assert r.pms == {"De": ("Dop's role: No Role.",), "Ag": ("Dop's race: Doppelganger.",)}


def test_every_bodyguard_variant_shows_as_a_bodyguard_and_protects() -> None:
    quote("The Bodyguard is randomly given one of four abilities at the start of the game. The "
          "bodyguard uses these abilities to protect another player during the night.")
    # The GM's draw is written in the setup: one of the four roles, each seen as "Bodyguard".
    for guard in ("heroic-guard", "observant-guard", "vengeful-guard", "guardian"):
        s = game(f"Bg={guard}/town", "De=detective/town", "Te=telepath/town",
                 "Dop=doppelganger", "Gus=/town")
        r = night(s, 1, "De: check Bg", "Te: read Bg", "Bg: guard Gus",
                  "Doppelgangers: kill Gus")
        assert "Gus" not in dead(r), guard
        assert r.pms["De"] == ("Bg's role: Bodyguard.",), guard
        assert "Protect" in r.pms["Te"][0], guard


def test_a_mad_scientist_starts_with_his_variants_tech_and_may_build_both_shields() -> None:
    quote("At the beginning of the game the Mad Scientist picks one of three technologies to "
          "start the game with, depending on which Variant they are. All Mad Scientists have "
          "access to the Mind Shield and Anti-Tech field.")
    quote("- Military Scientist")
    quote("- Cutting Edge Scientist")
    quote("- Intelligence Scientist")
    variants = {
        "military-scientist": ("ms-assassin-bot", "sentry-guns", "emp-bomb"),
        "cutting-edge-scientist": ("body-double", "ms-mind-control-ray", "psychic-pulser"),
        "intelligence-scientist": ("surveillance", "snooper-bot", "tracking-devices"),
    }
    others = {tech for techs in variants.values() for tech in techs}
    for role, techs in variants.items():
        for tech in others:
            text = (f'players = [{{ name = "Ms", role = "{role}", side = "town", '
                    f'items = ["{tech}"] }}]')
            warnings = setup_warnings(parse_setup(text, RULES, where="s", default_seed=1), RULES)
            if tech in techs:
                assert warnings == [], (role, tech)
            else:
                assert warnings == [
                    f"Ms: {tech} is not tech a Mad Scientist starts with"], (role, tech)
        s = game(f"Ms={role}/town+{techs[0]}", "De=detective/town", "Dop=doppelganger",
                 "Gus=/town")
        for shield in ("mind-shield-tech", "anti-tech-tech"):
            r = night(s, 1, f"Ms: build {shield}")
            assert r.pms["Ms"][0].startswith("You worked on the "), (role, shield)
        assert night(s, 1, "De: check Ms").pms["De"] == ("Ms's role: Mad Scientist.",)


def test_a_harvester_of_either_type_abducts_by_night() -> None:
    quote("There are two different types of Harvesters. A Harvester may choose to Abduct another "
          "player during the Night Phase.")
    for harvester in ("organ-harvester", "mind-stealer"):
        s = game(f"H={harvester}", "Ag=agent/town", "Gus=/town", "Dop=doppelganger")
        r = night(s, 1, "H: abduct Ag", "Ag: check Gus")
        assert any(line.startswith("[investigations] Ag: investigate Gus: fails (")
                   for line in r.log_lines()), harvester
        assert not any("race" in pm for pm in r.pms.get("Ag", ()))  # no result of his own
        assert RULES.role(harvester).title == "Harvester"


def test_the_spore_spreaders_are_two_alien_types_of_one_side() -> None:
    quote("This alien organism has been engineered to spread by spores and take over hosts. For "
          "one reason or another, this Bioweapon has been set loose. There are two types of "
          "Spore Spreaders.")
    for spreader in ("infester", "bloom"):
        assert RULES.role(spreader).sides == ("spores",)
        s = game(f"Ss={spreader}", "Ag=agent/town", "Te=telepath/town", "Gus=/town")
        r = night(s, 1, "Ag: check Ss", "Te: read Ss")
        assert r.pms["Ag"] == ("Ss's race: Alien.",)
        assert "Kill" in r.pms["Te"][0]


def test_combat_camouflage_tells_the_gm_to_word_the_death_as_from_any_source() -> None:
    quote("Combat Camouflage: A combination of weapons and accessories that allows the "
          "Exterminator to mask his kills as if they came from any source (Vig, Dopp, or "
          "Abduction). Also works on kills made by Assassin Bots.")
    s = game("Ext=exterminator+mind-shield+combat-camouflage+assassin-bot", "Gus=/town",
             "Hal=/town", "Dop=doppelganger", "Ag=agent/town")
    r = night(s, 1, "Ext: kill Gus")
    assert dead(r) == ["Gus"]
    assert r.notes == ("Gus was killed by Ext, who holds the Combat Camouflage: word the death "
                       "as from any source Ext chooses (Vig, Dopp or Abduction).",)
    r = night(s, 1, "Ext: bot Hal")
    assert dead(r) == ["Hal"]
    assert any(n.startswith("Hal was killed by Ext, who holds the Combat Camouflage")
               for n in r.notes)
    # Without the camouflage nothing is said: the dawn words no killer anyway.
    plain = game("Ext=exterminator+mind-shield", "Gus=/town", "Dop=doppelganger", "Ag=agent/town")
    assert night(plain, 1, "Ext: kill Gus").notes == ()


def test_aliens_pick_tech_by_their_slots_one_of_each_item() -> None:
    quote("All aliens get to pick from the following set of equipment to start the game with, "
          "based on the number of Tech slots listed under their role. An alien can only have 1 "
          "of any given item unless otherwise noted.")
    text = """players = [
  { name = "Sur", role = "survivor", items = ["stun-orb"] },
  { name = "Op", role = "agent-operative", items = ["stun-orb", "stun-orb"] },
  { name = "Xe", role = "xenozoologist", items = ["stun-bomb"] },
  { name = "Hm", role = "psychic-hivemind", items = ["plasma-bomb"] },
]"""
    warnings = setup_warnings(parse_setup(text, RULES, where="s", default_seed=1), RULES)
    assert warnings == [
        "Op holds stun-orb more than once",
        "Hm holds 1 large tech, but has 1 medium",
    ]


# ---- sentences of the role texts no test quoted -----------------------------------------


def test_an_anti_tech_field_tells_both_sides_in_plain_english() -> None:
    quote("Tech characters will be aware that their item was blocked.")
    quote("The character with an anti-tech field will know that they were targeted but not the "
          "specific effect.")
    s = game("Al=survivor+stun-orb", "Ag=agent/town+anti-tech-field", "Gus=/town",
             "Dop=doppelganger")
    r = night(s, 1, "Al: stun orb Ag", "Ag: check Gus")
    # "an Anti-Tech Field" (it said "a Anti-Tech Field" before).
    assert r.pms["Al"] == ("Your power on Ag was blocked by an Anti-Tech Field.",)
    assert r.pms["Ag"] == ("Something targeted you tonight, but it had no effect on you.",
                           "Gus's race: Human.")


def test_a_two_use_stun_orb_takes_a_medium_slot_and_stuns_twice() -> None:
    quote("Stun Orb: Allows the Alien to stun another player, preventing them from taking any "
          "actions that night or using any active abilities the following day (Role-block "
          "another player). 1 Use, does use up the alien's action.")
    quote("Can be taken as a two-use item for a Medium tech slot.")
    text = """players = [
  { name = "Op", role = "agent-operative", items = ["stun-orb-2", "scanner-2"] },
  { name = "Sur", role = "survivor", items = ["stun-orb-2"] },
]"""
    assert setup_warnings(parse_setup(text, RULES, where="s", default_seed=1), RULES) == [
        "Op holds 2 medium tech, but has 1 medium, 2 small",
        "Sur holds 1 medium tech, but has 1 small",
    ]
    st = game("Al=agent-operative+stun-orb-2", "Ag=agent/town", "Gus=/town",
              "Dop=doppelganger", "Hal=/town")
    for n in (1, 2):
        r = night(st, n, "Al: stun orb Ag", "Ag: check Gus")
        assert "[investigations] Ag: investigate Gus: fails (Ag is roleblocked)" in \
            r.log_lines(), n
        st = day(r.state, n).state
    r = night(st, 3, "Al: stun orb Ag", "Ag: check Gus")
    assert r.pms["Ag"] == ("Gus's race: Human.",)
    assert any("no use of stun orb left" in line for line in r.log_lines())


def test_the_plasma_bomb_goes_off_while_its_alien_is_abducted() -> None:
    quote("It is triggered remotely, so the Alien is smart enough to stay out of the Blast "
          "Radius, and is therefore unaffected (assuming he's not targeting himself for some "
          "reason). Can also be used while abducted.")
    s = game("Ex=exterminator+mind-shield+plasma-bomb", "Xe=xenozoologist", "Gus=/town",
             "Dop=doppelganger", "Hal=/town")
    r = night(s, 1, "Xe: abduct Ex", "Ex: plasma Gus")
    assert dead(r) == ["Gus"]
    # "an Alien" (the Xenozoologist's PM said "a Alien" before).
    assert r.pms["Xe"] == ("You abducted Ex, an Alien: kept for study.",)


def test_an_abducted_player_vanishes_and_is_not_flipped() -> None:
    quote("Abducted players are not role-flipped until their abductor leaves the game.")
    s = game("Xe=xenozoologist", "Ag=agent/town", "Gus=/town", "Dop=doppelganger",
             "Hal=/town")
    r = night(s, 1, "Xe: abduct Ag")
    assert dead(r) == []
    assert r.public == ("Ag has vanished without a trace.",)
    assert not any("Agent" in line for line in r.public)


def test_a_natural_shield_is_granted_to_non_psychic_characters_only() -> None:
    quote("The Mind Shield is not a role in itself, but an ability granted to a non-psychic "
          "character that may or may not already have a role.")
    quote("The Anti-Tech Field is not a role in itself, but an ability granted to a non-psychic "
          "character that may or may not already have a role.")
    text = """players = [
  { name = "Te", role = "telepath", side = "town", items = ["mind-shield"] },
  { name = "En", role = "enchanter", side = "town", items = ["anti-tech-field"] },
  { name = "Ag", role = "agent", side = "town", items = ["mind-shield", "anti-tech-field"] },
  { name = "Gus", side = "town", items = ["mind-shield"] },
]"""
    assert setup_warnings(parse_setup(text, RULES, where="s", default_seed=1), RULES) == [
        "Te: a Mind Shield is not for a Psychic role (Telepath); items = [...]",
        "En: an Anti-Tech Field is not for a Psychic role (Enchanter); items = [...]",
    ]
    # Both on one player: immune to both, and told each time.
    s = game("Ag=agent/town+mind-shield+anti-tech-field", "Te=telepath/town",
             "Al=survivor+stun-orb", "Gus=/town", "Dop=doppelganger")
    r = night(s, 1, "Te: read Ag", "Al: stun orb Ag", "Ag: check Gus")
    assert r.pms["Te"] == ("Your power on Ag was blocked by a Mind Shield.",)
    assert r.pms["Al"] == ("Your power on Ag was blocked by an Anti-Tech Field.",)
    assert r.pms["Ag"][-1] == "Gus's race: Human."
