"""Travel Hazards 41-66 of the Expanded Travel Hazard Chart, played with typed-in dice (FT-TRAVEL-D41..D66).

Every roll is typed in through the scripted table; the comments say what the physical dice show and why.
"""

from __future__ import annotations

from dataclasses import replace

from shared_rules import Effect, legal_commands
from shared_rules.content import register_pack
from shared_rules.dice import DieKind
from shared_rules.state import Carry, Phase
from tests.rules.table import Table, hero, item


def asks(t: Table, hero_id: str | None, kind: str) -> None:
    """The table waits on `hero_id` for a prompt of `kind` (roll, choice, reroll, card)."""
    assert t.prompt is not None, "no prompt is waiting"
    assert (t.prompt.hero, t.prompt.kind) == (hero_id, kind), t.prompt


def options(t: Table) -> list[str]:
    assert t.prompt is not None
    return [option.key for option in t.prompt.options]


def done(t: Table) -> None:
    assert t.prompt is None, t.prompt


def hero_events(t: Table, hero_id: str, type: str) -> list[str]:
    return [event.text for event in t.events if event.hero == hero_id and event.type == type]


# ---- 41 Stampede ------------------------------------------------------------------------------------------------
def test_stampede_pass_gains_15_xp_fail_enters_an_injury_card_FT_TRAVEL_D41() -> None:
    t = Table.travelling([hero("a", strength=2), hero("b", strength=1)])
    t.hazard(41)
    asks(t, "a", "roll")
    t.roll(4, 1)  # a: a 4 passes Strength 4+
    asks(t, "b", "roll")
    t.roll(3)  # b: fails
    asks(t, "b", "card")
    assert t.prompt is not None and t.prompt.chart == "injury" and "3D6" in t.prompt.question
    t.card("Broken Ribs", Effect("change", "health_mod", -1))
    done(t)
    assert t.hero("a").xp == 15 and t.hero("a").health_mod == 0
    assert t.hero("b").xp == 0 and t.hero("b").max_health == 9


def test_stampede_injury_from_a_pack_chart_drops_the_lowest_of_3d6_FT_TRAVEL_D41() -> None:
    bruised = {"low": 2, "high": 10, "text": "Bruised", "effects": [{"op": "change", "field": "wounds", "amount": 1}]}
    arm = {"low": 11, "text": "Broken Arm", "effects": [{"op": "change", "field": "strength", "amount": -1}]}
    skull = {"low": 12, "text": "Cracked Skull", "effects": [{"op": "change", "field": "health_mod", "amount": -2}]}
    register_pack({"name": "test-injury-41", "version": 1, "buildings": [{"location": "Saloon"}],
                   "charts": {"injury": {"die": "2d6", "entries": [bruised, arm, skull]}}})
    t = Table.travelling([hero("a", strength=1)])
    t.state = replace(t.state, pack="test-injury-41")
    t.hazard(41)
    t.roll(2)  # fails Strength 4+
    asks(t, "a", "roll")
    assert t.prompt is not None and t.prompt.die is DieKind.INJURY_3D6 and t.prompt.dice_count == 3
    t.roll(1, 5, 6)  # the 1 is dropped: 11 (all three would be 12)
    done(t)
    assert t.hero("a").skills.strength == 0 and t.hero("a").health_mod == 0 and t.hero("a").wounds == 0
    assert hero_events(t, "a", "card") == ["A: Broken Arm"]


# ---- 43 Flash Flood ---------------------------------------------------------------------------------------------
def test_flash_flood_pass_keeps_tokens_fail_loses_each_token_rolling_1_to_3_FT_TRAVEL_D43() -> None:
    bag = ("Tonic", "Bandages", "Whiskey", "Sake")
    t = Table.travelling([hero("a", luck=2, side_bag=bag), hero("b", luck=1, side_bag=bag),
                          hero("c", luck=1, side_bag=())])
    t.hazard(43)
    t.roll(4, 1)  # a: a 4 passes Luck 4+
    t.roll(3)  # b fails
    asks(t, "b", "roll")
    assert t.prompt is not None and t.prompt.dice_count == 4
    t.roll(1, 4, 3, 6)  # Tonic (1) and Whiskey (3) are swept away
    asks(t, "c", "roll")
    t.roll(2)  # c fails with an empty Side Bag: nothing to roll for
    done(t)
    assert t.hero("a").side_bag == bag
    assert t.hero("b").side_bag == ("Bandages", "Sake")
    assert t.hero("c").side_bag == ()


# ---- 44 Rail Line Construction ----------------------------------------------------------------------------------
def test_rail_line_splits_the_healing_between_wounds_and_sanity_FT_TRAVEL_D44() -> None:
    t = Table.travelling([hero("a", wounds=5, sanity_damage=4)])
    t.hazard(44)
    t.roll(3, 4)  # Heal 7
    asks(t, "a", "choice")
    assert options(t) == ["3", "4", "5"]  # fewer than 3 to Wounds would waste healing on 4 Sanity Damage
    t.choose("4")
    done(t)
    assert (t.hero("a").wounds, t.hero("a").sanity_damage) == (1, 1)


def test_rail_line_heals_one_kind_of_damage_without_asking_FT_TRAVEL_D44() -> None:
    t = Table.travelling([hero("a", wounds=3), hero("b", sanity_damage=6), hero("c", wounds=2, sanity_damage=3),
                          hero("d")])
    t.hazard(44)
    t.roll(6, 6)  # a: Heal 12, only 3 Wounds
    t.roll(2, 2)  # b: Heal 4 Sanity Damage
    t.roll(4, 5)  # c: Heal 9 covers both
    t.roll(1, 1)  # d: nothing to heal
    done(t)
    assert t.hero("a").wounds == 0
    assert t.hero("b").sanity_damage == 2
    assert (t.hero("c").wounds, t.hero("c").sanity_damage) == (0, 0)
    assert (t.hero("d").wounds, t.hero("d").sanity_damage) == (0, 0)


def test_rail_line_recovers_a_grit_per_mutation_up_to_max_grit_FT_TRAVEL_D44_FF_GRIT_07() -> None:
    t = Table.travelling([hero("a", grit=0, max_grit=3, mutations=("Tentacle",)),
                          hero("b", grit=1, max_grit=2, mutations=("Tentacle", "Third Eye", "Scales")),
                          hero("c", grit=0, max_grit=2)])
    t.hazard(44)
    t.roll(1, 1)
    t.roll(1, 1)
    t.roll(1, 1)
    done(t)
    assert t.hero("a").grit == 1
    assert t.hero("b").grit == 2  # 3 recovered, 1 fits
    assert any(e.rule == "FF-GRIT-07" and e.hero == "b" for e in t.events)
    assert not any(e.rule == "FF-GRIT-07" and e.hero == "a" for e in t.events)
    assert t.hero("c").grit == 0  # no Mutations


# ---- 45 Bridge Destroyed, 54 Army Convoy, 62 Dying Marshal --------------------------------------------------------
def test_bridge_destroyed_limits_the_town_stay_to_2_days_FT_TRAVEL_D45() -> None:
    t = Table.travelling([hero("a")])
    t.hazard(45)
    done(t)
    assert t.state.carry == Carry(max_days=2)
    assert "FT-TRAVEL-D45" in t.rules()


def test_army_convoy_carries_plus_one_into_town_FT_TRAVEL_D54() -> None:
    t = Table.travelling([hero("a")])
    t.hazard(54)
    done(t)
    assert t.state.carry == Carry(army_convoy=True)


def test_dying_marshal_carries_the_unwanted_attention_and_duel_FT_TRAVEL_D62() -> None:
    t = Table.travelling([hero("a"), hero("b")])
    t.hazard(62)
    done(t)
    assert t.state.carry == Carry(dying_marshal=True)
    assert t.state.phase is Phase.ARRIVAL


# ---- 46 Wrecked Train -------------------------------------------------------------------------------------------
def test_wrecked_train_pass_by_or_fail_the_search_FT_TRAVEL_D46() -> None:
    t = Table.travelling([hero("a", grit=2), hero("b", cunning=1, grit=2)])
    t.hazard(46)
    asks(t, "a", "choice")
    assert options(t) == ["search", "pass"]
    t.choose("pass")  # a passes it by: no test
    asks(t, "b", "choice")
    t.choose("search")
    t.roll(4)  # b fails Cunning 5+: discard all Grit
    done(t)
    assert t.hero("a").grit == 2
    assert t.hero("b").grit == 0


def test_wrecked_train_finds_madness_gold_or_a_world_artifact_FT_TRAVEL_D46() -> None:
    t = Table.travelling([hero("a"), hero("b"), hero("c"), hero("d")])
    t.hazard(46)
    t.choose("search")
    t.roll(5, 1)  # a passes
    t.roll(1)  # No Accident
    asks(t, "a", "card")
    assert t.prompt is not None and t.prompt.chart == "madness"
    t.card("Night Terrors", Effect("change", "sanity_mod", -1))
    t.choose("search")
    t.roll(6, 6)  # b passes
    t.roll(2)  # Something Shiny
    t.roll(4)  # 4 x $50
    t.choose("search")
    t.roll(5, 5)  # c passes
    t.roll(5)  # Something Shiny (the top of 2-5)
    t.roll(1)  # 1 x $50
    t.choose("search")
    t.roll(5, 2)  # d passes
    t.roll(6)  # Precious Find
    asks(t, "d", "card")
    assert t.prompt is not None and t.prompt.chart == "world_artifact"
    t.card("Idol of the Void", Effect("add_item", name="Idol of the Void", tags=("artifact",)))
    done(t)
    assert t.hero("a").max_sanity == 9 and t.hero("a").gold == 0
    assert t.hero("b").gold == 200
    assert t.hero("c").gold == 50
    assert [i.name for i in t.hero("d").items] == ["Idol of the Void"] and t.hero("d").gold == 0


# ---- 51 Sleeping Under the Stars --------------------------------------------------------------------------------
def test_sleeping_under_the_stars_each_six_is_plus_one_health_or_sanity_FT_TRAVEL_D51() -> None:
    t = Table.travelling([hero("a", lore=3), hero("b", lore=2)])
    t.hazard(51)
    t.roll(6, 6, 2)  # two 6s
    asks(t, "a", "choice")
    assert options(t) == ["health", "sanity"]
    t.choose("health")
    t.choose("sanity")
    t.roll(5, 4)  # b: no 6, nothing to choose
    done(t)
    assert (t.hero("a").max_health, t.hero("a").max_sanity) == (11, 11)  # permanent (A41)
    assert (t.hero("b").max_health, t.hero("b").max_sanity) == (10, 10)


def test_sleeping_under_the_stars_two_health_and_the_heal_reading_FT_TRAVEL_D51_A41() -> None:
    t = Table.travelling([hero("a", lore=2, wounds=3)], plus_one_is_permanent=False)
    t.hazard(51)
    t.roll(6, 6)
    t.choose("health")
    t.choose("health")
    done(t)
    assert t.hero("a").max_health == 10 and t.hero("a").wounds == 1  # the option reads "+1" as Heal 1


def test_sleeping_under_the_stars_counts_sixes_after_a_grit_reroll_FT_TRAVEL_D51_FF_GRIT_01() -> None:
    t = Table.travelling([hero("a", lore=2, grit=1)], rerolls=True)
    t.hazard(51)
    t.roll(6, 2)
    asks(t, "a", "reroll")
    t.reroll(1)  # 1 Grit re-rolls the 2
    t.roll(6)
    t.choose("sanity")
    t.choose("sanity")
    done(t)
    assert t.hero("a").grit == 0 and t.hero("a").max_sanity == 12


# ---- 52 Bandits! ------------------------------------------------------------------------------------------------
def test_bandits_six_defeats_all_five_FT_TRAVEL_D52() -> None:
    t = Table.travelling([hero("a", gold=100, dark_stone=2)])
    t.hazard(52)
    asks(t, "a", "roll")
    t.roll(6)  # min(6, 5) = 5 defeated
    done(t)
    assert (t.hero("a").xp, t.hero("a").gold, t.hero("a").dark_stone) == (50, 100, 2)


def test_bandits_each_one_left_takes_gold_dark_stone_or_gear_FT_TRAVEL_D52() -> None:
    items = (item("Lantern", "gear"), item("Idol", "artifact"), item("Hat", "clothing"))
    t = Table.travelling([hero("a", gold=100, dark_stone=1, items=items)])
    t.hazard(52)
    t.roll(3)  # 3 defeated, 2 left
    asks(t, "a", "choice")
    assert options(t) == ["gold", "dark_stone", "item:lantern", "item:idol"]  # the Hat is neither
    t.choose("dark_stone")
    assert options(t) == ["gold", "item:lantern", "item:idol"]  # no Dark Stone left to offer
    t.choose("item:idol")
    done(t)
    sheet = t.hero("a")
    assert (sheet.xp, sheet.gold, sheet.dark_stone) == (30, 100, 0)
    assert [i.name for i in sheet.items] == ["Lantern", "Hat"]


def test_bandits_take_what_is_left_and_then_nothing_FT_TRAVEL_D52_A8() -> None:
    t = Table.travelling([hero("a", gold=30), hero("b", gold=0, items=(item("Hat", "clothing"),))])
    t.hazard(52)
    t.roll(1)  # a: 1 defeated, 4 left; only Gold to lose, so nobody is asked
    asks(t, "b", "roll")
    t.roll(2)  # b: 2 defeated, 3 left, nothing to lose
    done(t)
    assert (t.hero("a").xp, t.hero("a").gold) == (10, 0)  # $30 -> $5 -> $0, then nothing (A8)
    assert (t.hero("b").xp, t.hero("b").gold, len(t.hero("b").items)) == (20, 0, 1)
    assert len(hero_events(t, "a", "nothing_to_lose")) == 1 and len(hero_events(t, "b", "nothing_to_lose")) == 1


# ---- 53 Circling Vultures ---------------------------------------------------------------------------------------
def test_circling_vultures_pass_heals_d3_sanity_fail_takes_d3_FT_TRAVEL_D53() -> None:
    t = Table.travelling([hero("a", spirit=2, sanity_damage=3), hero("b", spirit=1)])
    t.hazard(53)
    t.roll(5, 1)  # a passes Spirit 5+
    t.roll(4)  # D3 = 2 healed
    t.roll(2)  # b fails
    t.roll(6)  # D3 = 3 Sanity Damage
    done(t)
    assert (t.hero("a").xp, t.hero("a").sanity_damage) == (10, 1)
    assert (t.hero("b").xp, t.hero("b").sanity_damage) == (0, 3)


# ---- 55 Massacred Wagon Train -----------------------------------------------------------------------------------
def test_massacred_wagon_train_pass_by_or_fail_FT_TRAVEL_D55() -> None:
    t = Table.travelling([hero("a"), hero("b", luck=1)])
    t.hazard(55)
    t.choose("pass")
    t.choose("search")
    t.roll(4)  # b fails Luck 5+
    done(t)
    assert t.hero("a").max_sanity == 10
    assert t.hero("b").max_sanity == 9 and t.hero("b").sanity_mod == -1


def test_massacred_wagon_train_finds_gear_artifact_or_a_survivor_FT_TRAVEL_D55() -> None:
    t = Table.travelling([hero("a"), hero("b"), hero("c"), hero("d", max_grit=2)])
    t.hazard(55)
    t.choose("search")
    t.roll(5, 1)
    t.roll(1)  # Gear
    asks(t, "a", "card")
    assert t.prompt is not None and t.prompt.chart == "gear"
    t.card("Rope", Effect("add_item", name="Rope", tags=("gear",)))
    t.choose("search")
    t.roll(6, 1)
    t.roll(4)  # still Gear
    asks(t, "b", "card")
    assert t.prompt is not None and t.prompt.chart == "gear"
    t.card("Pickaxe", Effect("add_item", name="Pickaxe", tags=("gear",)))
    t.choose("search")
    t.roll(5, 5)
    t.roll(5)  # a Mine Artifact
    asks(t, "c", "card")
    assert t.prompt is not None and t.prompt.chart == "artifact"
    t.card("Dark Stone Idol", Effect("add_item", name="Dark Stone Idol", tags=("artifact", "dark_stone")))
    t.choose("search")
    t.roll(6, 6)
    t.roll(6)  # Survivor!
    done(t)
    assert [i.name for i in t.hero("a").items] == ["Rope"]
    assert [i.name for i in t.hero("b").items] == ["Pickaxe"]
    assert [i.name for i in t.hero("c").items] == ["Dark Stone Idol"]
    assert t.hero("d").max_grit == 3 and t.hero("d").items == ()


# ---- 56 Void Hound Attack ---------------------------------------------------------------------------------------
def test_void_hound_attack_choose_the_test_pass_or_lose_clothing_FT_TRAVEL_D56() -> None:
    clothes = (item("Hat", "clothing"), item("Duster", "clothing"), item("Lucky Scarf", "clothing", "personal"),
               item("Pistol", "gear"))
    t = Table.travelling([hero("a", strength=2, cunning=0), hero("b", cunning=1, strength=0, items=clothes)])
    t.hazard(56)
    asks(t, "a", "choice")
    assert options(t) == ["cunning", "strength"]
    t.choose("strength")
    t.roll(5, 1)  # a passes Strength 5+
    t.choose("cunning")
    t.roll(4)  # b fails Cunning 5+
    asks(t, "b", "roll")
    assert t.prompt is not None and t.prompt.dice_count == 2  # Hat and Duster; never the Personal Item
    t.roll(2, 3)  # the Hat is torn apart
    done(t)
    assert t.hero("a").xp == 25
    assert t.hero("b").xp == 0 and [i.name for i in t.hero("b").items] == ["Duster", "Lucky Scarf", "Pistol"]


# ---- 61 Indian Curse --------------------------------------------------------------------------------------------
def test_indian_curse_three_horror_hits_per_mutation_corruption_and_dark_stone_FT_TRAVEL_D61() -> None:
    t = Table.travelling([hero("a", mutations=("Tentacle",), corruption=2, dark_stone=1, willpower=4), hero("b")])
    t.hazard(61)
    asks(t, "a", "roll")
    assert t.prompt is not None and t.prompt.dice_count == 12  # 3 x (1 + 2 + 1)
    t.roll(1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6)  # six below Willpower 4+: unsaved
    done(t)  # b has nothing to be cursed for: no roll
    assert t.hero("a").sanity_damage == 6
    assert t.hero("b").sanity_damage == 0


def test_indian_curse_sanity_per_unsaved_hit_is_an_option_FT_TRAVEL_D61() -> None:
    t = Table.travelling([hero("a", corruption=1, willpower=5)], horror_hit_sanity=2)
    t.hazard(61)
    t.roll(1, 5, 6)  # one unsaved Horror Hit
    done(t)
    assert t.hero("a").sanity_damage == 2


# ---- 63 Snake Oil Salesman --------------------------------------------------------------------------------------
def test_snake_oil_salesman_pass_or_lose_gold_and_maybe_gain_a_tonic_FT_TRAVEL_D63() -> None:
    full = ("Sake", "Bandages", "Bomb", "Whiskey", "Lantern Oil")
    t = Table.travelling([hero("a", cunning=2, gold=300), hero("b", cunning=1, gold=300),
                          hero("c", cunning=1, gold=50), hero("d", cunning=1, gold=100, side_bag=full)])
    t.hazard(63)
    t.roll(5, 1)  # a passes: no deal
    t.roll(2)  # b fails
    t.roll(4)  # 4 x $25
    t.roll(6)  # one elixir works: a Tonic
    t.roll(1)  # c fails
    t.roll(6)  # 6 x $25 = $150 > $50: down to $0 (A8)
    t.roll(3)  # no Tonic
    t.roll(3)  # d fails
    t.roll(1)
    t.roll(6)  # a Tonic, but the Side Bag is full: d is asked which token to leave (FF-HERO-08)
    assert t.prompt is not None and t.prompt.rule == "FF-HERO-08" and t.prompt.hero == "d"
    assert [o.key for o in t.prompt.options] == ["new", "0", "1", "2", "3", "4"]
    t.choose("3")  # leaves the Whiskey for the Tonic
    done(t)
    assert (t.hero("a").gold, t.hero("a").side_bag) == (300, ())
    assert (t.hero("b").gold, t.hero("b").side_bag) == (200, ("Tonic",))
    assert (t.hero("c").gold, t.hero("c").side_bag) == (0, ())
    assert (t.hero("d").gold, t.hero("d").side_bag) == (75, ("Sake", "Bandages", "Bomb", "Lantern Oil", "Tonic"))
    assert hero_events(t, "d", "token_lost") == ["D loses a Whiskey token (left to make room for Tonic)"]


def test_snake_oil_salesman_a_full_side_bag_may_leave_the_new_tonic_FT_TRAVEL_D63_FF_HERO_08() -> None:
    full = ("Sake", "Bandages", "Bomb", "Whiskey", "Lantern Oil")
    t = Table.travelling([hero("d", cunning=1, gold=100, side_bag=full)])
    t.hazard(63)
    t.roll(1)
    t.roll(1)
    t.roll(6)
    t.choose("new")
    done(t)
    assert t.hero("d").side_bag == full
    assert hero_events(t, "d", "token_lost") == ["D's Side Bag is full: D leaves the Tonic token"]


# ---- 64 Search Party --------------------------------------------------------------------------------------------
def test_search_party_three_sixes_among_helpers_rescue_the_child_FT_TRAVEL_D64() -> None:
    t = Table.travelling([hero("a", spirit=3, corruption=2), hero("b", spirit=2), hero("c", corruption=3)])
    t.hazard(64)
    asks(t, "a", "choice")
    assert options(t) == ["help", "press_on"]
    t.choose("help")
    t.choose("help")
    t.choose("press_on")  # everyone decides before anyone searches
    asks(t, "a", "roll")
    t.roll(6, 6, 1)  # a: 2 successes
    t.roll(6, 2)  # b: 1 more: 3 in all
    t.roll(3)  # a: 3 x $100
    t.roll(5)  # a: removes D3 = 3 Corruption (has 2)
    t.roll(1)  # b: 1 x $100; b has no Corruption, so no D3
    done(t)
    assert (t.hero("a").gold, t.hero("a").corruption) == (300, 0)
    assert (t.hero("b").gold, t.hero("b").corruption) == (100, 0)
    assert (t.hero("c").gold, t.hero("c").corruption, t.hero("c").max_sanity) == (0, 3, 10)


def test_search_party_too_few_sixes_costs_each_helper_sanity_FT_TRAVEL_D64() -> None:
    t = Table.travelling([hero("a", spirit=2), hero("b")])
    t.hazard(64)
    t.choose("help")
    t.choose("press_on")
    t.roll(6, 6)  # 2 successes: not enough
    done(t)
    assert t.hero("a").max_sanity == 9 and t.hero("a").gold == 0
    assert t.hero("b").max_sanity == 10


def test_search_party_nobody_helps_FT_TRAVEL_D64() -> None:
    t = Table.travelling([hero("a"), hero("b")])
    t.hazard(64)
    t.choose("press_on")
    t.choose("press_on")
    done(t)
    assert [h.max_sanity for h in t.state.heroes] == [10, 10]


# ---- 65 Gulch Ambush --------------------------------------------------------------------------------------------
def test_gulch_ambush_pass_or_lose_dark_stone_and_all_grit_FT_TRAVEL_D65() -> None:
    pistol = item("Dark Stone Pistol", "gear", "dark_stone")
    t = Table.travelling([hero("a", agility=2, lore=0, grit=2),
                          hero("b", lore=1, agility=0, dark_stone=4, grit=2, items=(pistol, item("Hat", "clothing")))])
    t.hazard(65)
    asks(t, "a", "choice")
    assert options(t) == ["agility", "lore"]
    t.choose("agility")
    t.roll(5, 1)  # a passes
    t.choose("lore")
    t.roll(1)  # b fails
    asks(t, "b", "choice")
    assert options(t) == ["shards", "dark-stone-pistol"]
    t.choose("shards")
    t.roll(3)  # D3 = 2 shards
    done(t)
    assert (t.hero("a").xp, t.hero("a").grit) == (25, 2)
    assert (t.hero("b").xp, t.hero("b").dark_stone, t.hero("b").grit) == (0, 2, 0)
    assert len(t.hero("b").items) == 2


def test_gulch_ambush_takes_an_icon_item_shards_or_nothing_FT_TRAVEL_D65() -> None:
    pistol = item("Dark Stone Pistol", "gear", "dark_stone")
    rifle = item("Rifle", "gear", upgrades=1)  # a Dark Stone Upgrade is not a Dark Stone icon
    t = Table.travelling([hero("a", agility=1, grit=1, items=(pistol, rifle)),
                          hero("b", agility=1, grit=2, dark_stone=2),
                          hero("c", agility=1, grit=1, items=(pistol,))])
    t.hazard(65)
    t.choose("agility")
    t.roll(2)  # a fails: only the Pistol can go, taken without asking
    t.choose("agility")
    t.roll(2)  # b fails: only shards
    asks(t, "b", "roll")
    t.roll(6)  # D3 = 3, has 2
    t.choose("agility")
    t.roll(2)  # c fails; then the Pistol, the one choice
    done(t)
    assert [i.name for i in t.hero("a").items] == ["Rifle"] and t.hero("a").grit == 0
    assert (t.hero("b").dark_stone, t.hero("b").grit) == (0, 0)
    assert (t.hero("c").items, t.hero("c").grit) == ((), 0)


def test_gulch_ambush_nothing_to_take_still_loses_grit_FT_TRAVEL_D65() -> None:
    t = Table.travelling([hero("a", agility=1, grit=2)])
    t.hazard(65)
    t.choose("agility")
    t.roll(3)
    done(t)
    assert t.hero("a").grit == 0
    assert len(hero_events(t, "a", "nothing_to_lose")) == 1


# ---- 66 Traveler on the Road ------------------------------------------------------------------------------------
def test_scarlet_shadow_robs_outlaws_wanted_and_the_corrupt_FT_TRAVEL_D66_A18() -> None:
    t = Table.travelling([hero("a", keywords=("Outlaw",), gold=500), hero("b", corruption=4, gold=0),
                          hero("c", keywords=("Law",), wanted=1, gold=100), hero("d", corruption=3, gold=100, grit=0)])
    t.hazard(66)
    asks(t, "a", "roll")
    t.roll(1)  # The Scarlet Shadow
    t.roll(2)  # a: 2 x $50
    asks(t, "b", "roll")
    t.roll(3)  # b: has $0
    asks(t, "c", "roll")  # Wanted!: Outlaw replaces Law
    t.roll(1)  # c: 1 x $50
    done(t)  # d (3 Corruption, no Outlaw) is not robbed
    assert [h.gold for h in t.state.heroes] == [400, 0, 50, 100]
    assert t.hero("d").grit == 0  # Gold was lost: no Grit


def test_scarlet_shadow_robbing_nobody_gives_max_grit_FT_TRAVEL_D66() -> None:
    t = Table.travelling([hero("a", grit=0, max_grit=2), hero("b", grit=1, max_grit=3, keywords=("Law",))])
    t.hazard(66)
    t.roll(2)  # The Scarlet Shadow (the top of 1-2), nobody qualifies
    done(t)
    assert (t.hero("a").grit, t.hero("b").grit) == (2, 3)


def test_scarlet_shadow_robbing_only_empty_pockets_gives_max_grit_FT_TRAVEL_D66_A51() -> None:
    heroes = [hero("a", keywords=("Outlaw",), gold=0, grit=0), hero("b", grit=0)]
    t = Table.travelling(heroes)
    t.hazard(66)
    t.roll(1)
    t.roll(4)  # a would lose $200 but has $0
    done(t)
    assert (t.hero("a").grit, t.hero("b").grit) == (2, 2)  # no Gold was actually lost (A51, literal)
    t = Table.travelling(heroes, scarlet_shadow_literal=False)
    t.hazard(66)
    t.roll(1)
    t.roll(4)
    done(t)
    assert (t.hero("a").grit, t.hero("b").grit) == (0, 0)  # the other reading: a qualified, so no Grit


def test_traveling_missionary_heals_sanity_and_removes_d3_corruption_FT_TRAVEL_D66() -> None:
    t = Table.travelling([hero("a", sanity_damage=5, corruption=2), hero("b", sanity_damage=2),
                          hero("c", corruption=1)])
    t.hazard(66)
    t.roll(3)  # Traveling Missionary
    asks(t, "a", "roll")
    t.roll(1)  # a: D3 = 1
    asks(t, "c", "roll")  # b has no Corruption to remove: no roll
    t.roll(6)  # c: D3 = 3, has 1
    done(t)
    assert [(h.sanity_damage, h.corruption) for h in t.state.heroes] == [(0, 1), (0, 0), (0, 0)]


def test_traveling_missionary_on_a_five_FT_TRAVEL_D66() -> None:
    t = Table.travelling([hero("a", sanity_damage=9)])
    t.hazard(66)
    t.roll(5)
    done(t)
    assert t.hero("a").sanity_damage == 0


def test_shadowy_traveler_accept_the_deal_FT_TRAVEL_D66_A50() -> None:
    t = Table.travelling([hero("a", gold=10), hero("b")])
    t.hazard(66)
    t.roll(6)  # Shadowy Traveler: the hero who rolled
    asks(t, "a", "choice")
    assert options(t) == ["accept", "refuse"]
    t.choose("accept")
    t.roll(4)  # 4 x 100 XP
    t.roll(2)  # 2 x $100
    done(t)
    assert (t.hero("a").xp, t.hero("a").gold, t.hero("a").scratch_deal) == (400, 210, True)
    assert (t.hero("b").xp, t.hero("b").scratch_deal) == (0, False)


def test_shadowy_traveler_refuse_and_find_a_way_out_FT_TRAVEL_D66() -> None:
    t = Table.travelling([hero("a", spirit=2)])
    t.hazard(66)
    t.roll(6)
    t.choose("refuse")
    asks(t, "a", "choice")
    assert options(t) == ["spirit", "cunning"]
    t.choose("spirit")
    t.roll(6, 1)  # passes Spirit 6+
    done(t)
    assert (t.hero("a").xp, t.hero("a").corruption, t.hero("a").scratch_deal) == (50, 0, False)


def test_shadowy_traveler_refuse_and_fail_gains_d6_plus_1_corruption_FT_TRAVEL_D66() -> None:
    t = Table.travelling([hero("a", cunning=1)])
    t.hazard(66)
    t.roll(6)
    t.choose("refuse")
    t.choose("cunning")
    t.roll(5)  # fails Cunning 6+
    t.roll(3)  # D6 + 1 = 4 Corruption Points
    done(t)
    assert (t.hero("a").xp, t.hero("a").corruption, t.hero("a").scratch_deal) == (0, 4, False)


def test_mr_scratch_returns_for_the_hero_with_the_deal_FT_TRAVEL_D66_A50() -> None:
    t = Table.travelling([hero("a", scratch_deal=True, xp=900), hero("b")], hazards=2)
    t.hazard(66)
    t.roll(6)  # no choice this time
    assert t.hero("a").removed
    assert hero_events(t, "a", "hero_removed")
    assert t.state.phase is Phase.TRAVEL and t.prompt is None


def test_mr_scratch_only_collects_from_the_hero_who_rolls_FT_TRAVEL_D66_A50() -> None:
    t = Table.travelling([hero("a"), hero("b", scratch_deal=True)])
    t.hazard(66)
    t.roll(6)
    asks(t, "a", "choice")  # a rolled: a is offered the deal; b's deal is not collected
    t.choose("accept")
    t.roll(1)
    t.roll(1)
    done(t)
    assert not t.hero("b").removed and t.hero("a").scratch_deal


# ---- the posse after Mr. Scratch --------------------------------------------------------------------------------
def test_a_removed_hero_is_skipped_by_later_hazards_and_legal_commands_FT_TRAVEL_D66() -> None:
    t = Table.travelling([hero("a", scratch_deal=True, sanity_damage=4), hero("b", spirit=2, sanity_damage=4)],
                         hazards=3)
    t.hazard(66)
    t.roll(6)  # Mr. Scratch takes a
    legal = legal_commands(t.state)
    assert [(c.type, c.hero) for c in legal] == [("roll_hazard", "b"), ("adjust", None)]
    assert legal[1].options == ("b",)
    t.hazard(53)  # Circling Vultures: "every Hero" is b alone, and b rolls the hazard a generated
    assert any(e.type == "hazard" and e.hero == "b" for e in t.events)
    asks(t, "b", "roll")
    t.roll(5, 5)
    t.roll(2)  # D3 = 1 healed
    done(t)
    assert t.hero("b").sanity_damage == 3 and t.hero("b").xp == 10
    assert t.hero("a").sanity_damage == 4 and t.hero("a").xp == 0
    t.hazard(43)  # Flash Flood: only b tests
    asks(t, "b", "roll")
    t.roll(4, 4)
    done(t)
    assert t.state.phase is Phase.ARRIVAL
    assert [c.type for c in legal_commands(t.state)] == ["arrive", "adjust"]


def test_the_last_hero_taken_ends_the_journey_FT_TRAVEL_D66() -> None:
    t = Table.travelling([hero("a", scratch_deal=True)], hazards=3)
    t.hazard(66)
    t.roll(6)
    assert t.state.phase is Phase.ARRIVAL
    assert legal_commands(t.state) == ()
