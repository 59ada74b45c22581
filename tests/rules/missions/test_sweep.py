"""Every Town Mission played to its end by the autoplay's plain table for 1 to 6 heroes, server dice: no refusal, no
crash, an ending for each (the sweep found a Prisoner shot after he was killed, and a Grit re-roll offered to the
posse instead of one Hero)."""

from __future__ import annotations

import pytest

from shared_rules import odds
from shared_rules.engine import new_session
from shared_rules.rules.missions import TOWN_MISSIONS
from tests.rules.table import hero

LAYOUT = [{"number": n, "stage": 3 if n < 5 else 2 if n < 10 else 1,
           "mark": "blood_spatter" if n in (3, 7, 11) else "growing_dread" if n in (5, 9) else "none"}
          for n in range(14)]  # fmt: skip


@pytest.mark.parametrize(("heroes", "missions", "trials"), [
    (1, TOWN_MISSIONS, 12), (3, TOWN_MISSIONS, 12), (6, TOWN_MISSIONS, 12), (3, ("hanging_high",), 60)])
def test_every_mission_plays_to_an_end(heroes: int, missions: tuple[str, ...], trials: int) -> None:
    state = new_session([hero(f"h{i}", max_grit=2) for i in range(heroes)], seed=heroes)
    sheets = [{"hero": f"h{i}", "initiative": 6 - i, "combat": 1, "melee_to_hit": 5, "ranged_to_hit": 5, "shots": 1}
              for i in range(heroes)]  # fmt: skip
    plan = odds.plan(state, "town_mission", {"missions": list(missions), "layout": LAYOUT, "sheets": sheets,
                                             "turns": 30})  # fmt: skip
    answer = odds.ask(plan, trials, seed=heroes)
    assert [o["key"] for o in answer["options"]] == list(missions)
    assert all(o["chances"]["mission_won"]["trials"] == answer["trials"] for o in answer["options"])
