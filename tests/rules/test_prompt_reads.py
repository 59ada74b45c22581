"""A roll prompt says what the rules read from the dice, as data: the target N+, whether the hits, the total or
each face counts, and whether doubles matter (FF-DICE-05/06/07). The app reads these fields, never the wording."""

from __future__ import annotations

from dataclasses import replace

from shared_rules import RollHazard
from shared_rules.commands import Arrive, Attack, HoldBackTheDarkness
from shared_rules.dice import DieKind
from shared_rules.prompts import Reads
from shared_rules.state import ClassSheet, Phase, TownSize, Travel
from tests.rules.adventure.helpers import enemy, of, start, with_member
from tests.rules.adventure.test_fight import fighting
from tests.rules.table import Table, hero


def test_a_skill_test_prompt_carries_its_target_and_counts_hits_FF_DICE_06() -> None:
    t = Table.travelling([hero("a", agility=3, grit=1)], rerolls=True)
    prompt = t.hazard(12)  # Bleached Bones: Agility 5+ (FT-TRAVEL-D12)
    assert prompt is not None and prompt.die is DieKind.POOL and prompt.dice_count == 3
    assert (prompt.target, prompt.reads, prompt.doubles) == (5, Reads.HITS, False)
    offer = t.roll(1, 2, 3)  # a fail: the Grit re-roll offer reads the same way (FF-GRIT-01)
    assert offer is not None and offer.kind == "reroll" and (offer.target, offer.reads) == (5, Reads.HITS)
    again = t.reroll(0, 1)
    assert again is not None and (again.target, again.reads) == (5, Reads.HITS)  # the re-rolled dice hit at 5+ too


def test_a_test_whose_rule_counts_the_ones_reads_the_hits_and_the_ones_FT_TRAVEL_D16() -> None:
    t = Table.travelling([hero("a", cunning=2, grit=1)], rerolls=True)
    prompt = t.hazard(16)  # Shadows Out of Time: Cunning 6+, each 1 costs Sanity
    assert prompt is not None and (prompt.target, prompt.reads) == (6, Reads.ONES)
    offer = t.roll(1, 6)
    assert offer is not None and offer.kind == "reroll" and offer.reads is Reads.ONES


def test_the_d36_hazard_roll_reads_each_die_FT_DICE_01() -> None:
    t = Table.travelling([hero("a")])
    prompt = t.do(RollHazard())
    assert prompt is not None and prompt.die is DieKind.D36
    assert (prompt.target, prompt.reads, prompt.doubles) == (0, Reads.EACH, False)


def test_to_hit_counts_the_hits_on_each_die_at_the_to_hit_number_FF_DICE_06() -> None:
    t = fighting([of("a")], enemy("oni-1", health=9, defense=3), combat="house", use_pack=False)
    with_member(t, "a", sheet=ClassSheet(initiative=9, combat=3, melee_to_hit=4, damage_bonus=1))
    prompt = t.do(Attack("a", target="oni-1"))
    assert prompt is not None and prompt.dice_count == 3
    assert (prompt.target, prompt.reads) == (4, Reads.HITS)


def test_a_2d6_chart_reads_its_total_FF_DICE_05_FT_TOWN_02() -> None:
    t = Table.new([hero("a")])
    t.state = replace(t.state, phase=Phase.ARRIVAL, travel=Travel(TownSize.SMALL, ("a",), resolved=1))
    prompt = t.do(Arrive())  # the Specialty Town type (FT-TOWN-02)
    assert prompt is not None and prompt.die is DieKind.TWO_D6
    assert (prompt.target, prompt.reads, prompt.doubles) == (0, Reads.TOTAL, False)


def test_hold_back_the_darkness_reads_the_total_and_its_doubles_FF_DEPTH_04_FF_DEPTH_05() -> None:
    t = start([of("a")])
    prompt = t.do(HoldBackTheDarkness())
    assert prompt is not None and prompt.die is DieKind.TWO_D6
    assert (prompt.reads, prompt.doubles) == (Reads.TOTAL, True)
