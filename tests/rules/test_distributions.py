"""The dice the engine rolls land as often as the rulebooks' dice would (fixed seeds, so never flaky).

Each test rolls a few thousand times through the engine's own paths (`apply`, `dice.roll_faces`) and compares the
counts with the exact probabilities by a chi-square statistic against a generous critical value (p = 0.0001).
FT-TOWN-02 (2D6 town type), FT-TRAVEL-02 (hazard counts), FT-DICE-01 (D36), FF-DICE-02/03/04 (D3, D8, Peril Die),
FT-TOWN-03 and A14 (uniform Building draws and destroyed slots).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace
from fractions import Fraction

import pytest

from shared_rules import Arrive, ChooseTownSize, apply, new_session
from shared_rules.content import PACKS
from shared_rules.dice import DieKind, Roll, roll_faces, seed_state
from shared_rules.state import Phase, TownSize, Travel
from tests.rules.table import hero

ALPHA = 0.0001  # a fair die fails a test once in ten thousand seeds; the seeds are fixed, so never flaky


def p_value(statistic: float, df: int) -> float:
    """P(chi-square with `df` degrees of freedom >= statistic): 1 - the regularized lower incomplete gamma."""
    a, x = df / 2, statistic / 2
    if x <= 0:
        return 1.0
    term = total = 1.0
    n = 0
    while term > 1e-15 * total:
        n += 1
        term *= x / (a + n)
        total += term
    lower = math.exp(-x + a * math.log(x) - math.lgamma(a + 1)) * total
    return max(0.0, 1.0 - lower)


def chi_square(
    observed: Counter[int] | Counter[str], probabilities: dict[int, Fraction] | dict[str, Fraction]
) -> float:
    assert sum(probabilities.values()) == 1
    assert set(observed) <= set(probabilities), f"outcomes that cannot happen: {set(observed) - set(probabilities)}"
    total = sum(observed.values())
    return sum((observed[k] - total * p) ** 2 / (total * p) for k, p in probabilities.items())


def assert_fits(
    observed: Counter[int] | Counter[str], probabilities: dict[int, Fraction] | dict[str, Fraction]
) -> None:
    statistic = chi_square(observed, probabilities)
    df = len(probabilities) - 1
    assert p_value(statistic, df) > ALPHA, f"chi-square {statistic:.1f} (df {df}): {observed}"


def two_d6() -> dict[int, Fraction]:
    return {total: Fraction(6 - abs(7 - total), 36) for total in range(2, 13)}


def test_p_values_match_the_chi_square_tables() -> None:
    for df, value in ((2, 18.421), (3, 21.108), (10, 35.564), (35, 74.93)):  # p = 0.0001 in the tables
        assert p_value(value, df) == pytest.approx(ALPHA, rel=0.05)
    assert p_value(3.0, 3) == pytest.approx(0.3916, abs=1e-4)


def test_chi_square_tells_a_wrong_die_from_a_right_one() -> None:
    fair = Counter({total: 300 * (6 - abs(7 - total)) for total in range(2, 13)})
    flat = Counter(dict.fromkeys(range(2, 13), 900))  # a D11 + 1
    assert chi_square(fair, two_d6()) == 0
    assert p_value(chi_square(flat, two_d6()), 10) < ALPHA


# ---- through apply ----------------------------------------------------------------------------------------------------
def test_town_type_follows_2d6_and_the_first_building_is_drawn_uniformly_FT_TOWN_02_03() -> None:
    types: Counter[int] = Counter()
    first: Counter[str] = Counter()
    destroyed: Counter[int] = Counter()
    base = replace(new_session([hero("a")]), phase=Phase.ARRIVAL, travel=Travel(TownSize.SMALL, ("a",), resolved=1))
    for seed in range(2500):
        town = apply(replace(base, rng=seed_state(seed)), Arrive(destroyed_slots=1)).state.town
        assert town is not None
        types[town.type_roll] += 1
        first[town.slots[0].location] += 1
        destroyed.update(s.number for s in town.slots if s.destroyed)
    assert_fits(types, two_d6())
    locations = [name for name, _ in PACKS["default"].buildings]
    assert_fits(first, {name: Fraction(1, len(locations)) for name in locations})
    assert_fits(destroyed, {number: Fraction(1, 4) for number in range(1, 5)})  # A14


def binomial(n: int, offset: int = 0) -> dict[int, Fraction]:
    return {offset + k: Fraction(math.comb(n, k), 2**n) for k in range(n + 1)}


@pytest.mark.parametrize(("size", "offset"), [("small", 0), ("large", 3)])
def test_hazard_counts_are_binomial_FT_TRAVEL_02(size: str, offset: int) -> None:
    """Each of 3 heroes adds a hazard on 1-3 (a half): Small 0-3, Large 3 automatic plus 0-3."""
    counts: Counter[int] = Counter()
    posse = [hero("a"), hero("b"), hero("c")]
    for seed in range(2000):
        travel = apply(new_session(posse, seed=seed), ChooseTownSize(size)).state.travel
        assert travel is not None
        counts[len(travel.rollers)] += 1
    assert_fits(counts, binomial(3, offset))


def test_a_medium_town_always_has_one_hazard_per_hero_FT_TRAVEL_02() -> None:
    posse = [hero("a"), hero("b"), hero("c"), hero("d")]
    counts = {len(apply(new_session(posse, seed=s), ChooseTownSize("medium")).state.travel.rollers)  # type: ignore[union-attr]
              for s in range(50)}  # fmt: skip
    assert counts == {4}


# ---- through the RNG ----------------------------------------------------------------------------------------------------
def rolls(kind: DieKind, count: int, seed: int = 2024) -> list[Roll]:
    state = seed_state(seed)
    out = []
    for _ in range(count):
        state, faces = roll_faces(state, kind)
        out.append(Roll("distribution", kind, faces))
    return out


def test_d36_is_uniform_over_its_36_results_FT_DICE_01() -> None:
    observed = Counter(roll.value for roll in rolls(DieKind.D36, 36 * 150))
    assert_fits(observed, {10 * t + o: Fraction(1, 36) for t in range(1, 7) for o in range(1, 7)})


def test_peril_die_shows_3_and_4_a_third_each_and_5_and_6_a_sixth_each_FF_DICE_04() -> None:
    observed = Counter(roll.value for roll in rolls(DieKind.PERIL, 4000))
    assert_fits(observed, {3: Fraction(1, 3), 4: Fraction(1, 3), 5: Fraction(1, 6), 6: Fraction(1, 6)})


def test_d3_and_d8_are_uniform_FF_DICE_02_03() -> None:
    assert_fits(Counter(r.value for r in rolls(DieKind.D3, 3000)), dict.fromkeys(range(1, 4), Fraction(1, 3)))
    assert_fits(Counter(r.value for r in rolls(DieKind.D8, 4000)), dict.fromkeys(range(1, 9), Fraction(1, 8)))


def test_two_d6_from_the_rng_FF_DICE_05() -> None:
    assert_fits(Counter(r.value for r in rolls(DieKind.TWO_D6, 3600)), two_d6())
