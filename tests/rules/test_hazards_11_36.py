"""Travel Hazards 11-36 of the Expanded Travel Hazard Chart, played with typed-in dice (FT-TRAVEL-D11..D36)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from shared_rules import Effect, IllegalCommand
from shared_rules.rules.travel.hazards import HAZARDS
from shared_rules.state import TownSize, Travel
from tests.rules.table import Table, docstring, hero, item

MINE = (11, 13, 14, 15, 16, 21, 22, 23, 25, 26, 31, 32, 33, 34, 35, 36)


def rolled_by(t: Table, hero_id: str) -> None:
    """Make `hero_id` the Hero who generated (and rolls) the next hazard (FT-TRAVEL-03)."""
    t.state = replace(t.state, travel=Travel(TownSize.LARGE, (hero_id,)))


def lost_grit_events(t: Table) -> list[str]:
    return [e.text for e in t.events if e.type == "grit_lost" and e.rule == "FF-GRIT-07"]


@pytest.mark.parametrize("number", MINE)
def test_every_result_is_registered_and_cites_its_id(number: int) -> None:
    rule = HAZARDS[number]
    assert f"FT-TRAVEL-D{number}" in docstring(rule)


# ---- 11 Possession ---------------------------------------------------------------------------------------------
def test_possession_4_to_6_loses_one_sanity_permanently_FT_TRAVEL_D11() -> None:
    t = Table.travelling([hero("a"), hero("b")])
    t.hazard(11)
    assert t.prompt is not None and t.prompt.hero == "a"
    t.roll(4)
    assert t.prompt is None
    assert t.hero("a").sanity_mod == -1 and t.hero("a").max_sanity == 9
    assert t.hero("b").sanity_mod == 0


def test_possession_1_to_3_adds_the_madness_chart_for_the_roller_FT_TRAVEL_D11() -> None:
    t = Table.travelling([hero("a"), hero("b")])
    rolled_by(t, "b")
    t.hazard(11)
    t.roll(3)
    assert t.prompt is not None and t.prompt.kind == "card"
    assert t.prompt.chart == "madness" and t.prompt.hero == "b"
    t.card("Night Terrors", Effect("change", "sanity_damage", 2))
    assert t.prompt is None
    assert t.hero("b").sanity_mod == -1 and t.hero("b").sanity_damage == 2
    assert t.hero("a") == hero("a")


# ---- 13 Dark Dreams --------------------------------------------------------------------------------------------
def test_dark_dreams_pass_gives_xp_and_grit_fail_gives_d6_sanity_damage_FT_TRAVEL_D13() -> None:
    t = Table.travelling([hero("a", spirit=2, grit=1), hero("b", spirit=2, grit=1, willpower=2)])
    t.hazard(13)
    t.roll(6, 1)  # a: one 6 passes
    t.roll(5, 5)  # b: 5s miss a 6+ test
    t.roll(4)  # b: D6 Sanity Damage, Willpower ignored
    assert t.prompt is None
    assert (t.hero("a").xp, t.hero("a").grit, t.hero("a").sanity_damage) == (10, 2, 0)
    assert (t.hero("b").xp, t.hero("b").grit, t.hero("b").sanity_damage) == (0, 1, 4)


def test_dark_dreams_grit_at_max_is_lost_FT_TRAVEL_D13_FF_GRIT_07() -> None:
    t = Table.travelling([hero("a", spirit=1, grit=2, max_grit=2)])
    t.hazard(13)
    t.roll(6)
    assert t.hero("a").grit == 2 and t.hero("a").xp == 10
    assert len(lost_grit_events(t)) == 1


def test_blood_moon_gives_the_next_spirit_test_one_more_die_FT_TRAVEL_D25_D13() -> None:
    t = Table.travelling([hero("a", spirit=2)], hazards=2)
    t.hazard(25)
    assert t.state.carry.blood_moon
    prompt = t.hazard(13)
    assert prompt is not None and prompt.dice_count == 3
    t.roll(1, 2, 6)
    assert t.hero("a").xp == 10


# ---- 14 Shooting Star ------------------------------------------------------------------------------------------
def test_shooting_star_pass_recovers_d3_grit_FT_TRAVEL_D14() -> None:
    t = Table.travelling([hero("a", lore=2, grit=0, max_grit=3), hero("b", grit=0)])
    t.hazard(14)
    t.roll(6, 2)
    t.roll(3)  # D3: 3-4 -> 2
    assert t.prompt is None
    assert t.hero("a").grit == 2 and t.hero("b").grit == 0
    assert lost_grit_events(t) == []


def test_shooting_star_overflow_above_max_grit_is_announced_and_lost_FT_TRAVEL_D14_FF_GRIT_07() -> None:
    t = Table.travelling([hero("a", lore=1, grit=1, max_grit=2)])
    t.hazard(14)
    t.roll(6)
    t.roll(6)  # D3 = 3: only 1 fits
    assert t.hero("a").grit == 2
    assert lost_grit_events(t) == ["A is at Max Grit; 2 more Grit is lost"]


def test_shooting_star_fail_changes_nothing_FT_TRAVEL_D14() -> None:
    t = Table.travelling([hero("a", lore=2, grit=1)])
    t.hazard(14)
    t.roll(5, 1)
    assert t.prompt is None and t.hero("a").grit == 1


def test_shooting_star_zero_lore_rolls_no_dice_and_fails_FT_TRAVEL_D14() -> None:
    t = Table.travelling([hero("a", lore=0, grit=0)])
    assert t.hazard(14) is None  # no dice to roll, no prompt
    assert t.hero("a").grit == 0
    assert any(e.type == "test" and "fails" in e.text for e in t.events)


# ---- 15 Devil's Fork -------------------------------------------------------------------------------------------
def test_devils_fork_a_die_per_corruption_and_mutation_1_2_adds_corruption_FT_TRAVEL_D15() -> None:
    t = Table.travelling([hero("a", corruption=2, mutations=("Tentacle",)), hero("b"), hero("c", corruption=1)])
    prompt = t.hazard(15)
    assert prompt is not None and prompt.hero == "a" and prompt.dice_count == 3
    t.roll(1, 2, 3)  # two hits
    prompt = t.prompt
    assert prompt is not None and prompt.hero == "c"  # b holds nothing: no dice
    t.roll(3)
    assert t.prompt is None
    assert [t.hero(h).corruption for h in "abc"] == [4, 0, 1]


# ---- 16 Shadows Out of Time ------------------------------------------------------------------------------------
def test_shadows_out_of_time_pass_adds_a_revive_token_FT_TRAVEL_D16() -> None:
    t = Table.travelling([hero("a", cunning=2)])
    t.hazard(16)
    t.roll(6, 3)
    assert t.state.carry.extra_revive_tokens == 1 and t.hero("a").sanity_mod == 0


def test_shadows_out_of_time_each_1_costs_sanity_pass_or_fail_FT_TRAVEL_D16() -> None:
    t = Table.travelling([hero("a", cunning=3), hero("b", cunning=3)], hazards=2)
    t.state = replace(t.state, travel=Travel(TownSize.LARGE, ("b", "a")))  # b rolls the first, a the second
    t.hazard(16)
    t.roll(1, 1, 5)  # b fails with two 1s
    assert t.hero("b").sanity_mod == -2 and t.state.carry.extra_revive_tokens == 0
    t.hazard(16)
    t.roll(6, 1, 2)  # a passes with one 1
    assert t.hero("a").sanity_mod == -1 and t.state.carry.extra_revive_tokens == 1


def test_shadows_out_of_time_tokens_stack_FT_TRAVEL_D16() -> None:
    t = Table.travelling([hero("a", cunning=1)], hazards=2)
    t.hazard(16)
    t.roll(6)
    t.hazard(16)
    t.roll(6)
    assert t.state.carry.extra_revive_tokens == 2


def test_shadows_out_of_time_grit_reroll_counts_the_final_dice_FT_TRAVEL_D16_FF_GRIT_02() -> None:
    t = Table.travelling([hero("a", cunning=2, grit=2)], rerolls=True)
    t.hazard(16)
    t.roll(1, 1)
    assert t.prompt is not None and t.prompt.kind == "reroll"
    t.reroll(0)  # 1 Grit: re-roll the first die
    t.roll(6)
    assert t.prompt is not None and t.prompt.kind == "reroll"  # the second 1 may still be re-rolled
    with pytest.raises(IllegalCommand, match="FF-GRIT-02"):
        t.reroll(0)  # that die was already re-rolled
    assert t.hero("a").grit == 1 and t.prompt is not None and t.prompt.kind == "reroll"
    t.keep()
    assert t.prompt is None
    assert t.hero("a").grit == 1
    assert t.state.carry.extra_revive_tokens == 1  # passed on the re-rolled 6
    assert t.hero("a").sanity_mod == -1  # one 1 left on the final dice


# ---- 21 Mimic Beast --------------------------------------------------------------------------------------------
def test_mimic_beast_one_random_hero_loses_transport_another_is_beaten_FT_TRAVEL_D21() -> None:
    horse, mule = item("Horse", "transport"), item("Mule", "transport")
    t = Table.travelling([hero("a", items=(horse, item("Hat", "clothing"))), hero("b", xp=300, items=(mule,))])
    t.hazard(21)
    assert t.prompt is not None and t.prompt.kind == "choice" and t.prompt.hero is None
    t.choose("a")  # drawn: a's Transport is eaten; b is the only other Hero
    t.roll(4)  # b: D6 Wounds
    t.roll(3)  # b: D6 x 25 XP
    assert t.prompt is None
    assert [i.name for i in t.hero("a").items] == ["Hat"] and t.hero("a").wounds == 0
    assert [i.name for i in t.hero("b").items] == ["Mule"]
    assert (t.hero("b").wounds, t.hero("b").xp) == (4, 225)


def test_mimic_beast_the_second_hero_is_drawn_among_the_others_FT_TRAVEL_D21() -> None:
    t = Table.travelling([hero("a"), hero("b", items=(item("Horse", "transport"),)), hero("c", xp=100)])
    t.hazard(21)
    t.choose("b")
    assert t.prompt is not None and [o.key for o in t.prompt.options] == ["a", "c"]
    t.choose("c")
    t.roll(6)
    t.roll(6)  # 150 XP lost from 100: floors at 0
    assert t.hero("b").items == ()
    assert (t.hero("c").wounds, t.hero("c").xp) == (6, 0)
    assert t.hero("a").wounds == 0


def test_mimic_beast_single_hero_skips_the_other_hero_A11_FT_TRAVEL_D21() -> None:
    t = Table.travelling([hero("a", xp=100, items=(item("Horse", "transport"),))])
    assert t.hazard(21) is None
    assert t.hero("a").items == () and (t.hero("a").wounds, t.hero("a").xp) == (0, 100)


def test_mimic_beast_single_hero_option_off_takes_both_parts_A11_FT_TRAVEL_D21() -> None:
    t = Table.travelling([hero("a", xp=100, items=(item("Horse", "transport"),))],
                         mimic_beast_solo_skips_second=False)
    t.hazard(21)
    t.roll(2)
    t.roll(2)
    assert t.hero("a").items == () and (t.hero("a").wounds, t.hero("a").xp) == (2, 50)


# ---- 22 Blighted Desert / 35 Ruined Fort -----------------------------------------------------------------------
def test_blighted_desert_grit_or_d3_wounds_FT_TRAVEL_D22_FT_GRIT_04() -> None:
    t = Table.travelling([hero("a", grit=2), hero("b", grit=0)])
    t.hazard(22)
    assert t.prompt is not None and t.prompt.hero == "b"  # a just loses a Grit
    t.roll(5)  # D3 = 3
    assert (t.hero("a").grit, t.hero("a").wounds) == (1, 0)
    assert (t.hero("b").grit, t.hero("b").wounds) == (0, 3)


def test_ruined_fort_grit_or_d3_sanity_damage_FT_TRAVEL_D35() -> None:
    t = Table.travelling([hero("a", grit=0), hero("b", grit=1)])
    t.hazard(35)
    t.roll(2)  # a: D3 = 1
    assert t.prompt is None
    assert (t.hero("a").grit, t.hero("a").sanity_damage) == (0, 1)
    assert (t.hero("b").grit, t.hero("b").sanity_damage) == (0, 0)


# ---- 23 Living Hills -------------------------------------------------------------------------------------------
def test_living_hills_pass_xp_fail_loses_transport_and_sanity_FT_TRAVEL_D23_FT_HERO_04() -> None:
    kit = (item("Horse", "transport"), item("Wagon", "transport"), item("Hat", "clothing"))
    t = Table.travelling([hero("a", agility=2, items=kit), hero("b", agility=2, items=kit)])
    t.hazard(23)
    t.roll(5, 1)
    t.roll(4, 4)
    assert t.prompt is None
    assert t.hero("a").xp == 15 and len(t.hero("a").items) == 3 and t.hero("a").sanity_mod == 0
    assert [i.name for i in t.hero("b").items] == ["Hat"] and t.hero("b").sanity_mod == -1 and t.hero("b").xp == 0


def test_living_hills_zero_agility_fails_without_dice_FT_TRAVEL_D23() -> None:
    t = Table.travelling([hero("a", agility=0)])
    assert t.hazard(23) is None
    assert t.hero("a").sanity_mod == -1 and t.hero("a").xp == 0


# ---- 25 Blood Moon / 26 Void Storm ------------------------------------------------------------------------------
def test_blood_moon_carries_to_the_next_adventure_FT_TRAVEL_D25() -> None:
    t = Table.travelling([hero("a")])
    assert t.hazard(25) is None
    assert t.state.carry.blood_moon and "FT-TRAVEL-D25" in t.rules()


def test_void_storms_stack_and_corrupt_everyone_FT_TRAVEL_D26() -> None:
    t = Table.travelling([hero("a"), hero("b", corruption=3)], hazards=2)
    t.hazard(26)
    assert t.state.carry.destroyed_on_arrival == 2
    t.hazard(26)
    assert t.state.carry.destroyed_on_arrival == 4
    assert (t.hero("a").corruption, t.hero("b").corruption) == (2, 5)


# ---- 31 March of the Lost Army ---------------------------------------------------------------------------------
def test_march_of_the_lost_army_pass_xp_fail_loses_a_chosen_item_FT_TRAVEL_D31() -> None:
    kit = (item("Hat", "clothing"), item("Horse", "transport"))
    t = Table.travelling([hero("a", luck=2, items=kit), hero("b", luck=2, items=kit)])
    t.hazard(31)
    t.roll(5, 2)
    t.roll(4, 1)
    assert t.prompt is not None and t.prompt.hero == "b" and [o.key for o in t.prompt.options] == ["hat", "horse"]
    t.choose("horse")
    assert t.prompt is None
    assert t.hero("a").xp == 20 and len(t.hero("a").items) == 2
    assert [i.name for i in t.hero("b").items] == ["Hat"] and t.hero("b").xp == 0


def test_march_of_the_lost_army_fail_with_one_or_no_item_FT_TRAVEL_D31() -> None:
    t = Table.travelling([hero("a", luck=1, items=(item("Hat", "clothing"),)), hero("b", luck=1)])
    t.hazard(31)
    t.roll(1)  # a's only Item goes without a question
    t.roll(1)  # b has nothing to lose
    assert t.prompt is None
    assert t.hero("a").items == () and t.hero("b").items == ()


# ---- 32 Plague Church ------------------------------------------------------------------------------------------
def test_plague_church_helpers_pay_test_and_share_the_artifact_FT_TRAVEL_D32_FT_DICE_05() -> None:
    t = Table.travelling([
        hero("a", spirit=3, grit=1),
        hero("b", spirit=2, grit=0, willpower=4),
        hero("c", spirit=4, grit=1),
    ])
    t.hazard(32)
    t.choose("help")  # a
    t.choose("help")  # b
    assert t.prompt is not None and t.prompt.hero == "c"
    t.choose("turn_away")  # c
    assert t.prompt is not None and t.prompt.hero == "a" and {o.key for o in t.prompt.options} == {"grit", "hits"}
    t.choose("grit")
    t.roll(5, 6, 6)  # a: 3 successes
    t.roll(3)  # b has no Grit: D6 = 3 Corruption Hits
    t.roll(4, 2, 1)  # Willpower 4+: two unsaved
    t.roll(5, 5)  # b: 2 successes, 5 in all
    assert t.prompt is not None and t.prompt.kind == "choice" and t.prompt.hero is None
    assert [o.key for o in t.prompt.options] == ["a", "b"]
    t.choose("b")
    assert t.prompt is not None and t.prompt.kind == "card" and t.prompt.chart == "artifact"
    assert t.prompt.hero == "b"
    t.card("Idol of the Plague Church", Effect("add_item", name="Plague Idol", tags=("artifact",)))
    assert t.prompt is None
    assert (t.hero("a").grit, t.hero("a").xp, t.hero("a").corruption) == (0, 25, 0)
    assert (t.hero("b").xp, t.hero("b").corruption) == (25, 2)
    assert [i.name for i in t.hero("b").items] == ["Plague Idol"]
    assert t.hero("c") == hero("c", spirit=4, grit=1)


def test_plague_church_fewer_than_5_successes_no_artifact_FT_TRAVEL_D32() -> None:
    t = Table.travelling([hero("a", spirit=2, grit=1), hero("b", spirit=0, grit=0)])
    t.hazard(32)
    t.choose("help")
    t.choose("help")
    t.choose("hits")  # a keeps the Grit
    t.roll(2)  # 2 Corruption Hits
    t.roll(6, 6)  # both saved
    t.roll(5, 1)  # a passes with 1 success
    t.roll(1)  # b: 1 Corruption Hit; Spirit 0 then rolls no dice and fails
    t.roll(4)  # saved
    assert t.prompt is None
    assert (t.hero("a").grit, t.hero("a").corruption, t.hero("a").xp) == (1, 0, 25)
    assert (t.hero("b").corruption, t.hero("b").xp) == (0, 0)
    assert not any(i for h in "ab" for i in t.hero(h).items)


def test_plague_church_single_helper_keeps_the_artifact_FT_TRAVEL_D32() -> None:
    t = Table.travelling([hero("a", spirit=5, grit=0, willpower=5), hero("b")])
    t.hazard(32)
    t.choose("help")
    t.choose("turn_away")
    t.roll(1)  # 1 Corruption Hit
    t.roll(3)  # not saved at 5+
    t.roll(5, 5, 6, 6, 5)
    assert t.prompt is not None and t.prompt.kind == "card" and t.prompt.hero == "a"
    t.card("Shard of the Void", Effect("change", "dark_stone", 1))
    assert (t.hero("a").xp, t.hero("a").corruption, t.hero("a").dark_stone) == (25, 1, 1)


def test_plague_church_nobody_helps_FT_TRAVEL_D32() -> None:
    t = Table.travelling([hero("a"), hero("b")])
    t.hazard(32)
    t.choose("turn_away")
    t.choose("turn_away")
    assert t.prompt is None
    assert t.hero("a") == hero("a") and t.hero("b") == hero("b")


# ---- 33 Harried by HellBats ------------------------------------------------------------------------------------
def test_hellbats_snatch_shards_and_dark_stone_items_on_1s_FT_TRAVEL_D33() -> None:
    kit = (item("Void Knife", "dark_stone"), item("Hat", "clothing"), item("Rifle", upgrades=1))
    t = Table.travelling([hero("a", dark_stone=3, items=kit), hero("b")])
    prompt = t.hazard(33)
    assert prompt is not None and prompt.dice_count == 5  # 3 shards + Knife + Rifle
    t.roll(1, 6, 1, 1, 2)  # shards 1,6,1; Knife 1; Rifle 2
    assert t.prompt is None  # b carries no Dark Stone: no dice
    assert t.hero("a").dark_stone == 1
    assert [i.name for i in t.hero("a").items] == ["Hat", "Rifle"]


# ---- 34 Burning Farmstead --------------------------------------------------------------------------------------
def test_burning_farmstead_turn_away_or_fail_FT_TRAVEL_D34() -> None:
    t = Table.travelling([hero("a"), hero("b", strength=2)])
    t.hazard(34)
    t.choose("turn_away")
    t.choose("enter")
    t.roll(4, 4)
    t.roll(5)  # D6 Wounds
    assert t.prompt is None
    assert t.hero("a") == hero("a")
    assert (t.hero("b").wounds, t.hero("b").xp) == (5, 0)


def test_burning_farmstead_trick_rolls_on_the_injury_chart_FT_TRAVEL_D34() -> None:
    t = Table.travelling([hero("a", strength=2)])
    t.hazard(34)
    t.choose("enter")
    t.roll(5, 1)
    t.roll(1)  # Trick
    assert t.prompt is not None and t.prompt.kind == "card" and t.prompt.chart == "injury"
    t.card("Broken Ribs", Effect("change", "health_mod", -1))
    assert t.prompt is None
    assert (t.hero("a").xp, t.hero("a").health_mod) == (25, -1)


@pytest.mark.parametrize(("found", "xp_die", "xp"), [(2, 4, 25 + 40), (5, 1, 25 + 10)])
def test_burning_farmstead_survivor_d6x10_xp_FT_TRAVEL_D34(found: int, xp_die: int, xp: int) -> None:
    t = Table.travelling([hero("a", strength=1)])
    t.hazard(34)
    t.choose("enter")
    t.roll(6)
    t.roll(found)
    t.roll(xp_die)
    assert t.prompt is None
    assert t.hero("a").xp == xp and t.hero("a").health_mod == 0 and t.hero("a").sanity_mod == 0


def test_burning_farmstead_hero_of_the_day_FT_TRAVEL_D34_A41() -> None:
    t = Table.travelling([hero("a", strength=1)])
    t.hazard(34)
    t.choose("enter")
    t.roll(5)
    t.roll(6)  # Hero of the Day
    t.roll(2)  # D6 x 25 XP
    assert t.prompt is None
    assert t.hero("a").xp == 25 + 50
    assert (t.hero("a").max_health, t.hero("a").max_sanity) == (11, 11)


def test_burning_farmstead_hero_of_the_day_heals_when_not_permanent_A41_FT_TRAVEL_D34() -> None:
    t = Table.travelling([hero("a", strength=1, wounds=3, sanity_damage=2)], plus_one_is_permanent=False)
    t.hazard(34)
    t.choose("enter")
    t.roll(5)
    t.roll(6)
    t.roll(1)
    assert t.hero("a").xp == 25 + 25
    assert (t.hero("a").health_mod, t.hero("a").sanity_mod) == (0, 0)
    assert (t.hero("a").wounds, t.hero("a").sanity_damage) == (2, 1)


# ---- 36 Mutant Warlord -----------------------------------------------------------------------------------------
def test_mutant_warlord_price_first_then_pay_FT_TRAVEL_D36() -> None:
    t = Table.travelling([hero("a", gold=300), hero("b", gold=200)])
    t.hazard(36)
    t.roll(4)  # $200
    assert t.prompt is not None and [o.key for o in t.prompt.options] == ["pay", "test"]
    assert "$200" in t.prompt.options[0].label
    t.choose("pay")
    t.roll(4)  # b: $200 with exactly $200 is affordable (A8)
    assert t.prompt is not None and t.prompt.hero == "b" and [o.key for o in t.prompt.options] == ["pay", "test"]
    t.choose("pay")
    assert t.prompt is None
    assert (t.hero("a").gold, t.hero("a").dark_stone, t.hero("a").health_mod) == (100, 0, 0)
    assert t.hero("b").gold == 0


def test_mutant_warlord_lore_pass_gains_d6_dark_stone_FT_TRAVEL_D36() -> None:
    t = Table.travelling([hero("a", gold=500, lore=2)])
    t.hazard(36)
    t.roll(2)
    t.choose("test")
    t.roll(6, 1)
    t.roll(5)  # D6 Dark Stone
    assert t.prompt is None
    assert (t.hero("a").gold, t.hero("a").dark_stone) == (500, 5)


def test_mutant_warlord_unaffordable_price_forces_the_test_and_fail_costs_health_A8_FT_TRAVEL_D36() -> None:
    t = Table.travelling([hero("a", gold=0, lore=2), hero("b", gold=100, lore=0)])
    t.hazard(36)
    prompt = t.roll(1)  # $50 with $0: no choice, straight to the Lore test
    assert prompt is not None and prompt.kind == "roll" and "Lore 6+" in prompt.purpose
    t.roll(5, 5)
    t.roll(3)  # D3 = 2 Health lost for good
    t.roll(3)  # b: $150 with $100: cannot pay; Lore 0 rolls nothing and fails
    t.roll(6)  # D3 = 3
    assert t.prompt is None
    assert (t.hero("a").health_mod, t.hero("a").max_health, t.hero("a").gold) == (-2, 8, 0)
    assert (t.hero("b").health_mod, t.hero("b").gold) == (-3, 100)
    assert sum(1 for e in t.events if e.type == "cannot_pay") == 2


def test_mutant_warlord_choose_first_then_pay_floored_at_zero_FT_TRAVEL_D36() -> None:
    t = Table.travelling([hero("a", gold=100), hero("b", gold=0, lore=1)], warlord_price_first=False)
    t.hazard(36)
    assert t.prompt is not None and t.prompt.hero == "a" and [o.key for o in t.prompt.options] == ["pay", "test"]
    t.choose("pay")
    t.roll(6)  # $300 from $100
    t.choose("test")  # b
    t.roll(6)
    t.roll(2)
    assert t.prompt is None
    assert (t.hero("a").gold, t.hero("a").health_mod) == (0, 0)
    assert (t.hero("b").dark_stone, t.hero("b").gold) == (2, 0)
