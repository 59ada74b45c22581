"""The odds screen through the real widgets (issue 19): before choosing the town size, "Our odds?" on the Road opens
it, one tap plays every size out on the phone until each chance is within 2 in 100, and each size's figures read
in words; back on the Road the posse chooses a size."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mobile.test_touch_keypad import run_scenario


@pytest.mark.slow
def test_the_odds_of_each_town_size_are_asked_from_the_road_in_two_taps(tmp_path: Path) -> None:
    seen = run_scenario("odds", tmp_path)
    assert not seen["error"]
    assert "Which town size?" in seen["before"] and "Work out the odds" in seen["before"]
    assert seen["taps"] == 2  # "Our odds?", "Work out the odds"
    assert [card[0] for card in seen["cards"]] == ["Small Town", "Medium Town", "Large Town"]
    assert seen["precision_met"] and seen["reached"] <= 0.02  # every chance within 2 in 100 (95%)
    for card in seen["cards"]:
        assert any(line.startswith("Reach town with everyone alive: ") for line in card)
        assert sum(1 for line in card if " loses a Transport: " in line) == 4  # each hero, by name
        assert not any(word in line for line in card for word in ("posse.", "None", "h1", "chance.", "_"))
    low, high = min(seen["done"].values()), max(seen["done"].values())
    played = f"played {low} times" if low == high else f"played {low} to {high} times"
    assert any(played in text and "on this phone" in text for text in seen["shown"])
    # back on the Road, the Small Town chosen: the table rolls for its hazards next (FT-TRAVEL-02)
    assert seen["phase"] == "travel" or "azard" in (seen["asked_next"] or ""), seen["asked_next"]


@pytest.mark.slow
def test_the_odds_of_a_choice_are_asked_beside_it_and_the_choice_is_still_there_after(tmp_path: Path) -> None:
    """Plague Church (FT-TRAVEL-D32), each hero helps or turns away: "Our odds?" on the Dice screen plays both out;
    the odds do not pull the phone back to the choice while they run (the table was opened at it), and back at
    the choice one tap sends every hero's answer."""
    seen = run_scenario("choice_odds", tmp_path)
    assert not seen["error"] and seen["taps"] == 2  # "Our odds?", "Work out the odds"
    assert "Plague Church" in seen["question"]
    labels = [card[0] for card in seen["cards"]]
    assert labels == ["Help: 1 Grit or D6 Corruption Hits, then Spirit 5+", "Turn away"]
    assert all(label in seen["options"] for label in labels)  # the same words as the choice's own buttons
    for card in seen["cards"]:
        assert any(line.startswith("Everyone alive at the end: ") for line in card)
    assert seen["answered"]
