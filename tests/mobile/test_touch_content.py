"""Tap figures from the real app (issue 18), each scenario played through the touch harness (tests/mobile/touch.py):
every touch goes through Kivy's event loop onto the widget a person would press, and keys on the phone's keyboard
are counted apart. The figures are printed (`pytest -s`) and written in docs/mobile.md."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mobile.test_touch_keypad import run_scenario


@pytest.mark.slow
def test_a_four_hero_mid_campaign_posse_is_typed_in_few_taps_with_and_without_a_pack(tmp_path: Path) -> None:
    seen = run_scenario("posse", tmp_path)
    without, with_pack = seen["without_pack"], seen["with_pack"]
    print(f"\nposse of four, mid-campaign: {without['taps']} taps + {without['keys']} keys without a pack, "
          f"{with_pack['taps']} taps + {with_pack['keys']} keys with the class sheets in a pack")
    assert without["taps"] <= 60 and with_pack["taps"] <= 30
    assert with_pack["keys"] < without["keys"]  # the sheets' numbers come from the pack
    assert with_pack["pack"] == "our-table" and without["pack"] == "default"
    assert with_pack["keywords"][0] == ["Law"]  # the U.S. Marshal's sheet keyword, from the pack
    assert without["tags"] == [["transport"], ["personal"], ["clothing"], ["personal"]]  # the items' keywords


@pytest.mark.slow
def test_a_journey_with_physical_dice_is_played_by_touch_in_at_most_six_taps_per_hazard(tmp_path: Path) -> None:
    seen = run_scenario("journeys", tmp_path, {"BRIMSTONE_SEEDS": "1,2,3"})
    for seed, journey in zip((1, 2, 3), seen["journeys"], strict=True):
        print(f"\njourney {seed} to a Large Town, physical dice: {journey['per_hazard']} taps per hazard, "
              f"{journey['setup']} to choose the size and roll the hazard count; hazards {journey['hazards']}")
    print(f"{seen['mean']:.2f} taps per hazard over {seen['hazards']} hazards (max {seen['max']})")
    assert seen["hazards"] == sum(len(j["hazards"]) for j in seen["journeys"]) >= 3  # every hazard played through
    assert min(t for j in seen["journeys"] for t in j["per_hazard"]) >= 2  # the D36 is two taps on the pad:
    # nothing was answered behind the screen
    assert seen["mean"] <= 6  # issue 18: the road to town in 6 taps per hazard or fewer


@pytest.mark.slow
def test_a_town_stay_day_and_an_adventure_turn_are_played_by_touch_and_their_taps_printed(tmp_path: Path) -> None:
    seen = run_scenario("phases", tmp_path, {"BRIMSTONE_SEEDS": "1"})
    (day,), (charted,), (turn,) = seen["days"], seen["charted"], seen["turns"]
    print(f"\nTown Stay Day, four heroes one visit each: {day['taps']} taps ({day['prompts']} prompts) with the "
          f"default pack, {charted['taps']} taps ({charted['prompts']} prompts) with the Location Event Charts in "
          f"the pack; Adventure turn without a fight: {turn['taps']} taps ({turn['prompts']} prompts)")
    assert day["visits"] == charted["visits"] == 4
    # issue 18's 12: start, the Daily Event, the posse's beds, a visit = the place + the 2D6 total, the Town
    # Darkness die ending the Day. Without the Location charts in the pack the table reads each card itself: the
    # total tapped in the "nothing to record" row answers the card with the dice (the policy's card changes nothing)
    assert charted["taps"] <= 12 and day["taps"] <= 12 and day["keys"] == charted["keys"] == 0
    # issue 18's 8: Hold Back the Darkness (two dice), each hero's Move die one tap (it ends the activation before
    # it, R-ADV-05), the last activation ended
    assert 2 + 4 <= turn["taps"] <= 8
