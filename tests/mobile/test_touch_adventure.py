"""An Adventure's Fight pressed through the real widgets (issue 18): an enemy's strikes with the Hero's Defense
save on the Dice screen, a hero's Attack with its Hits, each class's ability from the hero cards, undo and redo,
and the Table popup of an offline table. One scenario process (`python -m tests.mobile.touch adventure`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mobile.test_touch_keypad import run_scenario


@pytest.mark.slow
def test_a_fight_is_played_by_taps_abilities_undo_and_redo(tmp_path: Path) -> None:
    seen = run_scenario("adventure", tmp_path)
    print("taps per attack:", seen["taps"], "scenario taps:", seen["total_taps"])
    # FF-HERO-04: the Goblin's 2 Hits on Ann (Damage 1 each, typed on its attack), her Defense 4+ saves one
    assert seen["save_prompt"] == "Ann: roll 2 D6 for Defense 4+ saves against Goblin" and seen["ann_wounds"] == 1
    # the enemy's attack: its button, whom and how many Hits, her save's count; the save passed, so its dice stand
    # with no "keep the dice" tap (FF-GRIT-01): 3 taps; a hero's Attack or Shuriken: the target, then the Hit's
    # damage (and "More…" first when the turn bar is full): at most 3, the target for an attack
    assert seen["taps"]["enemy_strike"] <= 3 and seen["taps"]["hero_attack"] <= 3 and seen["taps"]["shuriken"] <= 3
    # the save undone and typed again with the Grit re-roll asked for: offered though one die saved, and the
    # missed die re-rolled for her 1 Grit saves too (FF-GRIT-01/02)
    assert seen["undo_save"].startswith("Undo: Ann rolled") and seen["grit_asked"] == [True]
    assert seen["grit_offer"] == "reroll" and seen["second_save"] == [0, 0]
    assert seen["after_attack"] == []  # damage 4 on Health 3: the Goblin is killed (FF-TURN-05)
    # FF-SAM-01/02: +1 Fury from the card, the Battle Tactic typed in discards it; the Combat Hit gains one back
    assert seen["tactics"] == ["Flashing Steel"] and seen["fury_after_tactic"] == 0 and seen["fury_after_attack"] == 1
    assert seen["spells"] == ["Blinding Light"] and seen["mana"] == 2  # FF-SORC-05: its Mana Cost of 1
    assert seen["cy"] == [1, 0]  # FF-MONK-01: 1 Ki heals 1 of Cy's 2 Wounds
    assert seen["shuriken"] and seen["bat_wounds"] == 3  # FF-ASN-03: once per Fight, its Hit of damage 3
    assert seen["undo_label"] == "Undo: Di throws her Shuriken" and seen["after_undo"] == [False, 0]  # what it did
    assert seen["redo_label"] == "Redo: Di throws her Shuriken" and seen["after_redo"] == [True, 3]  # the same Hit again
    assert seen["redo_after"] == ""  # redone: nothing left to redo
    assert not seen["host_button"]  # a table kept on this phone has no event host to call
    assert {"activate_enemy", "attack", "use_tactic", "adjust_resource", "cast_spell", "spend_ki",
            "throw_shuriken", "undo"} <= set(seen["commands"])  # fmt: skip
