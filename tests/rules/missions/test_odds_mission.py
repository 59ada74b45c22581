"""The odds question "what are the odds of winning this Town Mission with these heroes" (town_mission): each Mission
played from the posse as it is by the autoplay's plain table, the Bandits by their AI."""

from __future__ import annotations

import pytest

from shared_rules import InvalidCommand, odds
from shared_rules.engine import new_session
from tests.rules.table import hero

LAYOUT = [{"number": n, "stage": 3 if n < 4 else 2 if n < 8 else 1,
           "mark": "blood_spatter" if n in (3, 7) else "growing_dread" if n in (5, 9) else "none"} for n in range(12)]
SHEETS = [{"hero": h, "initiative": 6 - i, "combat": 2, "melee_to_hit": 4, "ranged_to_hit": 4, "shots": 2}
          for i, h in enumerate("abcd")]  # fmt: skip


def test_the_chance_to_win_bank_robbery_with_these_four_heroes() -> None:
    state = new_session([hero(h, max_grit=2) for h in "abcd"], seed=3)
    plan = odds.plan(state, "town_mission", {"missions": ["bank_robbery", "jail_break"], "layout": LAYOUT,
                                             "sheets": SHEETS})  # fmt: skip
    answer = odds.ask(plan, 12, seed=1)
    assert [o["key"] for o in answer["options"]] == ["bank_robbery", "jail_break"]
    for option in answer["options"]:
        won = option["chances"]["mission_won"]
        assert won["trials"] == 12 and 0 <= won["p"] <= 1
        assert option["expected"]["mission.turns"]["mean"] >= 1
    again = odds.ask(odds.plan(state, "town_mission", {"layout": LAYOUT, "sheets": SHEETS}), 12, seed=1)
    assert again["options"][0]["chances"] == answer["options"][0]["chances"]  # seeded: the same answer


def test_the_question_needs_what_start_adventure_needs() -> None:
    state = new_session([hero("a")], seed=3)
    with pytest.raises(InvalidCommand) as error:
        odds.plan(state, "town_mission", {"sheets": [{"hero": "a", "initiative": 5}]})
    assert error.value.field == "params.track"  # named as the odds request names it
    with pytest.raises(InvalidCommand) as error:
        odds.plan(state, "town_mission", {"missions": ["nope"], "layout": LAYOUT})
    assert error.value.field == "params.missions"
