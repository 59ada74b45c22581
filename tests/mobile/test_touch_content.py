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
