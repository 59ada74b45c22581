"""Leaving town (FT-UA-06, FT-TRAVEL-05) and staying on in a fresh town after a successful Town Mission (FT-TOWN-09,
FT-MIS-AFTER-01): the hook the missions area calls."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from shared_rules import IllegalCommand, legal_commands, new_session
from shared_rules.commands import EndTownStay, RollHazard
from shared_rules.flow import Ctx, Procedure, Run, run_rule
from shared_rules.rules.town import stay_again
from shared_rules.state import Bounty, Carry, Phase, Slot, StayStage, Town, TownSize
from tests.rules.stay.packs import frontier
from tests.rules.stay.town import TownTable, two_d6
from tests.rules.table import hero


def test_leaving_mid_day_ends_the_day_first_and_keeps_what_carries_FT_UA_06_FT_TRAVEL_05(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    carry = Carry(dark_stone_bonus=25, max_days=2, army_convoy=True, dying_marshal=True, extra_revive_tokens=1,
                  blood_moon=True, bounties=(Bounty("sheriff", "Bandit", 50),))  # fmt: skip
    t = TownTable.in_town([hero("a", gold=0, unwanted_attention=2)], pack=frontier(monkeypatch), day=True,
                          carry=carry)  # fmt: skip
    t.visit("a", "Saloon", (3, 4), (6,))  # 7 with markers: the trouble D6 (6 > 2) passes; Cards, +$20
    t.do(EndTownStay())
    assert t.hero("a").unwanted_attention == 0  # the marker from the visit, and every other, removed
    assert any(e.type == "visit_ended" for e in t.events) and any(e.type == "day_ended" for e in t.events)
    town = t.state.carry.last_town  # remembered for a stay in the same town after a Town Mission (FT-TOWN-09)
    assert town is not None and town.size.value == "large"
    assert t.state.carry == Carry(extra_revive_tokens=1, blood_moon=True, bounties=(Bounty("sheriff", "Bandit", 50),),
                                  last_town=town)  # fmt: skip
    assert t.state.phase is Phase.BETWEEN_ADVENTURES and t.state.stay is None


def run(state: object, steps: Callable[[Ctx], Procedure]) -> Run:
    return run_rule(state, RollHazard(), lambda ctx, _command: steps(ctx))  # type: ignore[arg-type]


def test_a_fresh_town_of_the_same_size_and_type_FT_TOWN_09_FT_MIS_AFTER_01() -> None:
    old = Town(TownSize.MEDIUM, "Mining Town", 9, tuple(Slot(i, "Church", i == 2) for i in range(1, 7)))
    state = new_session([hero("a", mutations=("M",) * 4), hero("b")], seed=5)
    state = replace(state, phase=Phase.ADVENTURE, town=old)
    after = run(state, lambda ctx: stay_again(ctx)).ctx.state
    town = after.town
    assert town is not None and (town.size, town.town_type, town.type_roll) == (TownSize.MEDIUM, "Mining Town", 9)
    assert len(town.slots) == 6 and not any(s.destroyed for s in town.slots)  # set up fresh: no re-roll of the type
    assert after.phase is Phase.TOWN and after.stay is not None and after.stay.stage is StayStage.DAWN
    assert after.stay.day == 1 and after.hero("a").unwanted_attention == 1  # entering town again (FT-UA-01)


def test_staying_again_needs_a_town_FT_TOWN_09() -> None:
    state = new_session([hero("a")], seed=5)
    with pytest.raises(IllegalCommand) as error:
        run(state, lambda ctx: stay_again(ctx))
    assert error.value.rule == "FT-TOWN-09"
    given = Town(TownSize.SMALL, "Standard Frontier Town", 7)
    after = run(state, lambda ctx: stay_again(ctx, given)).ctx.state
    assert after.town is not None and after.town.size is TownSize.SMALL and len(after.town.slots) == 4


def test_a_day_can_be_left_at_dawn_and_the_next_adventure_follows() -> None:
    t = TownTable.in_town([hero("a", gold=100)])
    t.start_day()
    t.choose("just_another_day")
    t.choose("hotel")
    t.visit("a", "Saloon", two_d6(5))
    t.card("A quiet drink")
    t.end_day()
    t.do(EndTownStay())
    assert t.state.phase is Phase.BETWEEN_ADVENTURES
    assert [c.type for c in legal_commands(t.state)] == ["choose_town_size", "start_adventure", "roll_mission", "adjust"]
