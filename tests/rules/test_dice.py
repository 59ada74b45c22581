"""Dice: what each kind reads from its faces, which faces a table may type in, and the seeded RNG.

FF-DICE-01..06 and FT-DICE-01. Faces typed in at the table are validated before any rule reads them; a bad one
is refused with InvalidCommand naming the field (`dice[0]`, `dice[0][1]`, `faces[0]`).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from shared_rules import ChooseTownSize, InvalidCommand, RollDice, RuleOptions, apply, new_session
from shared_rules.dice import (
    _MASK,
    PERIL_FACES,
    DieKind,
    Roll,
    _draw_word,
    _next_in_words,
    _roll_in_words,
    as_word,
    die_count,
    face_range,
    next_random,
    pick_index,
    pick_word,
    roll_faces,
    roll_word,
    seed_state,
    validate_faces,
)
from shared_rules.state import Phase
from tests.rules.table import hero


def roll(kind: DieKind, *faces: int, target: int = 0) -> Roll:
    return Roll("test", kind, tuple(faces), target=target)


# ---- what the rules read from the faces ------------------------------------------------------------------------
@pytest.mark.parametrize(("face", "d3"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_d3_reads_a_d6_in_pairs_FF_DICE_02(face: int, d3: int) -> None:
    assert roll(DieKind.D3, face).value == d3


def test_d36_is_tens_then_ones_FT_DICE_01() -> None:
    assert roll(DieKind.D36, 3, 5).value == 35
    assert roll(DieKind.D36, 5, 3).value == 53  # the order of the dice is fixed before rolling
    values = {roll(DieKind.D36, tens, ones).value for tens in range(1, 7) for ones in range(1, 7)}
    assert values == {10 * t + o for t in range(1, 7) for o in range(1, 7)}
    assert all(v % 10 in range(1, 7) for v in values)  # no 0s and no digit above 6


def test_d36_typed_as_one_number_FT_DICE_01() -> None:
    assert validate_faces(DieKind.D36, 35, 1, field="dice[0]", purpose="hazard") == (3, 5)
    assert validate_faces(DieKind.D36, [3, 5], 1, field="dice[0]", purpose="hazard") == (3, 5)


@pytest.mark.parametrize("number", [30, 37, 70, 5, 0, 100, -11])
def test_d36_numbers_no_d36_shows_are_refused_FT_DICE_01(number: int) -> None:
    with pytest.raises(InvalidCommand) as error:
        validate_faces(DieKind.D36, number, 1, field="dice[0]", purpose="hazard")
    assert error.value.field.startswith("dice[0]")


def test_two_d6_is_the_sum_FF_DICE_05() -> None:
    assert roll(DieKind.TWO_D6, 6, 6).value == 12
    assert roll(DieKind.TWO_D6, 1, 1).value == 2
    assert die_count(DieKind.TWO_D6) == 2


def test_stampede_injury_roll_drops_the_lowest_of_three_FT_TRAVEL_D41() -> None:
    assert roll(DieKind.INJURY_3D6, 1, 6, 4).value == 10
    assert roll(DieKind.INJURY_3D6, 2, 2, 2).value == 4
    assert die_count(DieKind.INJURY_3D6) == 3


def test_skill_test_counts_successes_at_or_above_the_target_FF_DICE_06_A1() -> None:
    test = roll(DieKind.POOL, 5, 4, 6, 1, target=5)
    assert test.successes == 2 and test.passed and test.value == 2
    assert not roll(DieKind.POOL, 4, 4, target=5).passed
    assert roll(DieKind.POOL, 1, 3, 1, target=5).count(1) == 2  # "for every 1 rolled" (FT-TRAVEL-D16)


def test_a_pool_without_target_is_the_sum_of_its_dice() -> None:
    assert roll(DieKind.POOL, 2, 3, 6).value == 11


def test_rerolls_replace_faces_and_remember_which_dice_FF_GRIT_02() -> None:
    first = roll(DieKind.POOL, 1, 6, 2, target=5)
    again = first.with_rerolls((0, 2), (5, 3))
    assert again.faces == (5, 6, 3) and again.rerolled == (0, 2)
    assert again.with_rerolls((1,), (4,)).rerolled == (0, 1, 2)


# ---- which faces each die shows ----------------------------------------------------------------------------------
def test_peril_die_faces_FF_DICE_04() -> None:
    assert sorted(PERIL_FACES) == [3, 3, 4, 4, 5, 6]
    for face in (3, 4, 5, 6):
        assert validate_faces(DieKind.PERIL, [face], 1, field="dice[0]", purpose="peril") == (face,)


@pytest.mark.parametrize("face", [1, 2, 7, 0])
def test_peril_die_never_shows_1_or_2_FF_DICE_04(face: int) -> None:
    with pytest.raises(InvalidCommand) as error:
        validate_faces(DieKind.PERIL, [face], 1, field="dice[0]", purpose="Bank Robber movement")
    assert error.value.field == "dice[0][0]"
    assert error.value.rule == "FF-DICE-04"
    assert "3,3,4,4,5,6" in error.value.message


def test_d8_faces_FF_DICE_03() -> None:
    assert face_range(DieKind.D8) == tuple(range(1, 9))
    assert validate_faces(DieKind.D8, [8], 1, field="dice[0]", purpose="Random Building") == (8,)
    for face in (0, 9):
        with pytest.raises(InvalidCommand) as error:
            validate_faces(DieKind.D8, [face], 1, field="dice[0]", purpose="Random Building")
        assert error.value.rule == "FF-DICE-03"


@pytest.mark.parametrize("kind", [DieKind.D6, DieKind.D3, DieKind.TWO_D6, DieKind.D36, DieKind.INJURY_3D6])
def test_six_sided_dice_show_1_to_6_FF_DICE_01(kind: DieKind) -> None:
    count = die_count(kind)
    assert validate_faces(kind, [1] * count, 1, field="f", purpose="p") == (1,) * count
    assert validate_faces(kind, [6] * count, 1, field="f", purpose="p") == (6,) * count
    for bad in (0, 7):
        faces = [3] * (count - 1) + [bad]
        with pytest.raises(InvalidCommand) as error:
            validate_faces(kind, faces, 1, field="f", purpose="p")
        assert error.value.field == f"f[{count - 1}]"


@pytest.mark.parametrize(
    ("kind", "pool", "faces"),
    [(DieKind.D6, 1, [3, 4]), (DieKind.D6, 1, []), (DieKind.TWO_D6, 1, [3]), (DieKind.D36, 1, [1, 2, 3]),
     (DieKind.POOL, 3, [5, 5]), (DieKind.INJURY_3D6, 1, [1, 2])],
)  # fmt: skip
def test_wrong_number_of_dice_is_refused_FF_DICE_01(kind: DieKind, pool: int, faces: list[int]) -> None:
    with pytest.raises(InvalidCommand) as error:
        validate_faces(kind, faces, pool, field="dice[2]", purpose="p")
    assert error.value.field == "dice[2]"
    assert f"needs {die_count(kind, pool)}" in error.value.message


@pytest.mark.parametrize("faces", [[True], [False], ["3"], [3.0], "3", None, {"face": 3}, [[3]]])
def test_bools_strings_and_other_values_are_not_faces(faces: Any) -> None:
    with pytest.raises(InvalidCommand) as error:
        validate_faces(DieKind.D6, faces, 1, field="dice[0]", purpose="p")
    assert error.value.field == "dice[0]"


def test_a_bool_is_not_a_d36_number() -> None:
    with pytest.raises(InvalidCommand):
        validate_faces(DieKind.D36, True, 1, field="dice[0]", purpose="p")


# ---- typed-in dice through the engine ------------------------------------------------------------------------------
def posse(count: int = 2, **options: Any) -> Any:
    return new_session([hero(chr(ord("a") + i)) for i in range(count)], options=RuleOptions(**options), seed=5)


def test_typed_in_dice_are_used_in_order_FT_TRAVEL_02() -> None:
    outcome = apply(posse(3), ChooseTownSize("small", dice=((1,), (4,), (3,))))
    assert outcome.state.travel is not None
    assert outcome.state.travel.rollers == ("a", "c")  # 1 and 3 add a hazard, 4 does not
    rolls = [e.roll for e in outcome.events if e.type == "rolled"]
    assert [r.faces for r in rolls if r] == [(1,), (4,), (3,)]
    assert all(r is not None and r.source == "table" for r in rolls)


@pytest.mark.parametrize(
    ("dice", "field"),
    [(((7,),), "dice[0][0]"), (((0,),), "dice[0][0]"), (((1, 2),), "dice[0]"), (((True,),), "dice[0]"),
     (((1,), ("4",)), "dice[1]"), (((1,), (4,), (9,)), "dice[2][0]")],
)  # fmt: skip
def test_bad_typed_in_dice_name_their_field(dice: Any, field: str) -> None:
    state = posse(3)
    with pytest.raises(InvalidCommand) as error:
        apply(state, ChooseTownSize("small", dice=dice))
    assert error.value.field == field


def test_more_dice_than_the_rules_ask_for_is_refused() -> None:
    with pytest.raises(InvalidCommand) as error:
        apply(posse(1), ChooseTownSize("small", dice=((1,), (2,))))
    assert error.value.field == "dice"


def test_medium_town_rolls_no_dice_so_typed_dice_are_refused_FT_TRAVEL_02() -> None:
    with pytest.raises(InvalidCommand):
        apply(posse(2), ChooseTownSize("medium", dice=((1,),)))


def test_roll_prompt_answer_is_validated_as_faces() -> None:
    state = posse(1, dice="table")
    prompt = apply(state, ChooseTownSize("large")).state
    assert prompt.pending is not None and prompt.pending.prompt.die is DieKind.D6
    for faces, field in (((7,), "faces[0]"), ((1, 1), "faces"), ((True,), "faces")):
        with pytest.raises(InvalidCommand) as error:
            apply(prompt, RollDice(faces))
        assert error.value.field == field
    done = apply(prompt, RollDice((2,)))
    assert done.state.travel is not None and len(done.state.travel.rollers) == 2  # 1 automatic + the 2


def test_roll_for_me_answers_a_roll_prompt_with_the_rng() -> None:
    state = apply(posse(1, dice="table"), ChooseTownSize("small")).state
    first = apply(state, RollDice(None))
    second = apply(state, RollDice(None))
    assert first.state == second.state
    rolled = [e.roll for e in first.events if e.type == "rolled"]
    assert rolled and rolled[0] is not None and rolled[0].source == "server"


# ---- the seeded RNG -----------------------------------------------------------------------------------------------
def test_rng_is_a_pure_function_of_its_state() -> None:
    assert next_random(seed_state(7)) == next_random(seed_state(7))
    assert next_random(seed_state(7)) != next_random(seed_state(8))
    assert roll_faces(seed_state(3), DieKind.POOL, 10) == roll_faces(seed_state(3), DieKind.POOL, 10)
    assert pick_index(seed_state(3), 6) == pick_index(seed_state(3), 6)


def test_rng_state_advances_once_per_physical_die() -> None:
    state = seed_state(11)
    after_two, faces = roll_faces(state, DieKind.D36)
    assert len(faces) == 2
    one, _ = next_random(state)
    two, _ = next_random(one)
    assert after_two == two


@pytest.mark.parametrize("kind", list(DieKind))
def test_rolled_faces_are_one_rng_step_per_die_read_as_that_die(kind: DieKind) -> None:
    """`roll_faces` writes the RNG step out for speed: it must give exactly the faces of one `next_random` per
    physical die, so a saved session replays the same dice (FF-DICE-01..04)."""
    state = seed_state(2024)
    for pool in (0, 1, 2, 5, 9) * 40:
        expected: list[int] = []
        after = state
        for _ in range(die_count(kind, pool)):
            after, out = next_random(after)
            expected.append(PERIL_FACES[out % 6] if kind is DieKind.PERIL else 1 + out % (8 if kind is DieKind.D8 else 6))
        assert roll_faces(state, kind, pool) == (after, tuple(expected))
        state = after if after != state else next_random(state)[0]


def _splitmix64(state: int) -> tuple[int, int]:
    """SplitMix64 as published, in Python's integers: the reference both builds' RNG is held to."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def test_the_rng_in_machine_words_is_splitmix64_step_for_step() -> None:
    """The compiled build rolls with SplitMix64 in 32-bit halves and 16-bit products (`_roll_in_words`,
    `_next_in_words`), the interpreter with Python's integers: every state, edges of the carries included, gives the
    same faces, draws, outputs and next state as the published steps (this runs on both builds), so a table's dice
    and a trial's seed do not depend on where it is played."""
    rnd = random.Random(19)
    edges = [0, 1, _MASK, _MASK - 0x9E3779B97F4A7C15, 2**32 - 1, 2**32, 2**63, 2**63 - 1, 0xFFFFFFFF00000000]
    for state in edges + [rnd.getrandbits(64) for _ in range(3000)]:
        assert next_random(state) == _next_in_words(state) == _splitmix64(state), state
        for sides, count in ((6, 1), (6, 4), (8, 1), (1, 1), (5, 2), (97, 3), (4096, 1)):
            expected, after = [], state
            for _ in range(count):
                after, out = next_random(after)
                expected.append(1 + out % sides)
            assert _roll_in_words(state, count, sides, False) == (after, tuple(expected)), (state, sides)
        peril = next_random(state)
        assert _roll_in_words(state, 1, 6, True) == (peril[0], (PERIL_FACES[peril[1] % 6],))
        assert pick_index(state, 37) == (peril[0], peril[1] % 37)


def test_a_command_rolls_the_same_dice_on_the_state_as_a_machine_word() -> None:
    """A running command keeps the RNG state as one machine word (`roll_word`, `pick_word`), with shortcuts for one
    die, two dice and one draw on the compiled build: every kind, pool and draw gives the faces, index and next state
    of `roll_faces` and `pick_index` (FF-DICE-01..04; this runs on both builds)."""
    rnd = random.Random(5)
    edges = [0, 1, _MASK, 2**32 - 1, 2**32, 2**63, 2**63 - 1, 0xFFFFFFFF00000000]
    for state in edges + [rnd.getrandbits(64) for _ in range(400)]:
        word = as_word(state)
        for kind in DieKind:
            for pool in (1, 2, 3, 4):  # one, two and three dice are made without a list
                after, faces = roll_faces(state, kind, pool)
                assert roll_word(word, kind, pool) == (as_word(after), faces), (state, kind, pool)
        for count in (1, 2, 6, 37, 4096):
            after, index = pick_index(state, count)
            assert pick_word(word, count) == (as_word(after), index), (state, count)
            assert _draw_word(word, count) == (as_word(after), index), (state, count)


@pytest.mark.parametrize("kind", list(DieKind))
def test_rng_rolls_only_faces_the_die_has(kind: DieKind) -> None:
    state = seed_state(99)
    allowed = set(face_range(kind))
    for _ in range(300):
        state, faces = roll_faces(state, kind, 3)
        assert len(faces) == die_count(kind, 3)
        assert set(faces) <= allowed
        validate_faces(kind, faces, 3, field="f", purpose="p")  # the RNG never rolls what a table could not type


def test_seed_gives_same_session_and_same_rolls() -> None:
    heroes = [hero("a"), hero("b"), hero("c")]
    one = apply(new_session(heroes, seed=42), ChooseTownSize("large"))
    two = apply(new_session(heroes, seed=42), ChooseTownSize("large"))
    assert one == two
    others = {apply(new_session(heroes, seed=s), ChooseTownSize("large")).state.rng for s in range(20)}
    assert len(others) == 20  # the seed reaches the RNG


def test_server_dice_are_recorded_with_their_purpose_and_hero() -> None:
    state = replace(posse(2), phase=Phase.BETWEEN_ADVENTURES)
    outcome = apply(state, ChooseTownSize("large"))
    rolled = [e for e in outcome.events if e.type == "rolled"]
    assert [e.hero for e in rolled] == ["a", "b"]
    assert all(e.roll is not None and e.roll.purpose == "Travel Hazards to a Large Town" for e in rolled)
    assert all(e.roll is not None and e.roll.chart for e in rolled)
