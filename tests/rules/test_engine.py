"""The engine itself: what may be sent when, prompts and their exact replay, purity, Grit re-rolls and Adjust.

Rules rest on FF-GRIT-01/02/04/07 (re-rolls), A8 (Gold floors at $0) and FT-TRAVEL-01..04 (the phases).
Most tests run a small rule of their own in place of one Travel Hazard, so they test the engine and not a hazard.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from shared_rules import (
    Adjust,
    Arrive,
    Choose,
    ChooseTownSize,
    Effect,
    EndTownStay,
    EnterCard,
    IllegalCommand,
    InvalidCommand,
    Reroll,
    RollDice,
    RollHazard,
    RuleOptions,
    Session,
    apply,
    decode_state,
    encode_state,
    legal_commands,
    new_session,
)
from shared_rules.commands import (
    COMMAND_TYPES,
    Activate,
    ActivateBandits,
    ActivateEnemy,
    AddEnemies,
    AdjustResource,
    Attack,
    BoostMove,
    BountyTarget,
    Buy,
    CastSpell,
    Command,
    Desperation,
    EndActivation,
    EndDay,
    EndVisit,
    Flee,
    HoldBackTheDarkness,
    Move,
    MoveMarker,
    MoveTownsfolk,
    NewEnemy,
    PayOffWarrants,
    PlaceModel,
    PlayDevilsWheel,
    PlayGang,
    RandomTarget,
    RerollWithGrit,
    RescueHero,
    RevealToken,
    RingBell,
    RollMission,
    Search,
    Sell,
    SetBounty,
    SheetEntry,
    SpendKi,
    StartAdventure,
    StartDay,
    StayInTown,
    StopBleeding,
    StrikeTownsfolk,
    ThrowShuriken,
    UseTactic,
    UseToken,
    VisitLocation,
    WheelRoll,
    WheelStop,
    WoundEnemy,
)
from shared_rules.dice import DieKind
from shared_rules.flow import Ctx, Procedure
from shared_rules.prompts import Asks
from shared_rules.rules.travel.hazards import HAZARDS
from shared_rules.state import Phase, Place, Slot, Stay, Town, TownSize, TrackSpace, Travel
from tests.rules.table import Table, hero, item

TEST_HAZARD = 11  # the D36 result whose rule the tests below replace with their own


@pytest.fixture
def rule(monkeypatch: pytest.MonkeyPatch) -> Callable[[Callable[[Ctx, str], Procedure]], None]:
    """Install a test rule as Travel Hazard 11 for one test; `t.hazard(11)` then runs it through apply()."""

    def install(procedure: Callable[[Ctx, str], Procedure]) -> None:
        monkeypatch.setitem(HAZARDS, TEST_HAZARD, procedure)

    return install


def snapshot(state: Session) -> str:
    return json.dumps(encode_state(state), sort_keys=True)


def in_phase(phase: Phase, *, heroes: int = 2, **options: Any) -> Session:
    """A session in `phase` with a plausible travel/town for it."""
    state = new_session([hero(chr(ord("a") + i)) for i in range(heroes)], options=RuleOptions(**options), seed=9)
    if phase is Phase.TRAVEL:
        return replace(state, phase=phase, travel=Travel(TownSize.MEDIUM, ("a", "b")))
    if phase is Phase.ARRIVAL:
        return replace(state, phase=phase, travel=Travel(TownSize.MEDIUM, ("a", "b"), resolved=2))
    if phase is Phase.TOWN:  # dawn of Day 1; "a" carries a Tequila token (usable in town, FT-BAG-06)
        heroes = (replace(state.heroes[0], side_bag=("Tequila",)), *state.heroes[1:])
        town = Town(TownSize.SMALL, "Standard Frontier Town", 7, (Slot(1, "Saloon"), Slot(2, "Gambling Hall")))
        return replace(state, phase=phase, town=town, stay=Stay(), heroes=heroes)
    if phase is Phase.ADVENTURE:  # the phase without an Adventure: every adventure command is refused
        return replace(state, phase=phase)
    return state


def sample(type_name: str) -> Command:
    """One well-formed command of each type."""
    return {
        "choose_town_size": ChooseTownSize("medium"),
        "roll_hazard": RollHazard(dice=((2, 4),)),
        "arrive": Arrive(),
        "end_town_stay": EndTownStay(),
        "adjust": Adjust("a", (Effect("change", "xp", 5),)),
        "roll": RollDice((3,)),
        "choose": Choose("x"),
        "reroll": Reroll(),
        "enter_card": EnterCard(),
        "start_day": StartDay(),
        "visit_location": VisitLocation("a", "Saloon"),
        "end_visit": EndVisit("a"),
        "buy": Buy("a", "Tequila", price=0, kind="token"),
        "sell": Sell("a", "Dark Stone", price=50),
        "pay_off_warrants": PayOffWarrants("a", price=0),
        "set_bounty": SetBounty("a", "chart", (BountyTarget("Bandit", gold=50),)),
        "play_devils_wheel": PlayDevilsWheel("a"),
        "wheel_roll": WheelRoll("a", (0,)),
        "wheel_stop": WheelStop("a"),
        "use_token": UseToken("a", "Tequila"),
        "end_day": EndDay(),
        **ADVENTURE_SAMPLES,
    }[type_name]


def _layout() -> tuple[TrackSpace, ...]:
    return (TrackSpace(0, 3), TrackSpace(1, 2), TrackSpace(2, 1))


# One well-formed command of each adventure type: legal only with an Adventure under way (rules/adventure).
ADVENTURE_SAMPLES: dict[str, Command] = {
    "start_adventure": StartAdventure("a", layout=_layout(), sheets=(SheetEntry("a", initiative=3),
                                                                     SheetEntry("b", initiative=2))),
    "flee": Flee(("a", "b")), "hold_back_the_darkness": HoldBackTheDarkness(), "activate": Activate("a"),
    "boost_move": BoostMove("a"), "reroll_with_grit": RerollWithGrit("a"), "move": Move("a", 1),
    "search": Search("a", "scavenge"), "attack": Attack("a"), "throw_shuriken": ThrowShuriken("a"),
    "end_activation": EndActivation("a"), "activate_enemy": ActivateEnemy("oni-1"),
    "add_enemies": AddEnemies((NewEnemy("Oni", health=3),)), "wound_enemy": WoundEnemy("oni-1", 1),
    "reveal_token": RevealToken("tile-1"), "cast_spell": CastSpell("a", "Storm"), "use_tactic": UseTactic("a", "x"),
    "ring_bell": RingBell("a"), "spend_ki": SpendKi("a", 1, "a"),  # use_token: the town sample serves both
    "stop_bleeding": StopBleeding("a"), "move_marker": MoveMarker("darkness", 1),
    "adjust_resource": AdjustResource("a", "fury", 1),
    # the Town Missions (rules/missions)
    "roll_mission": RollMission(), "stay_in_town": StayInTown(), "activate_bandits": ActivateBandits(),
    "place_model": PlaceModel("a", Place("street", 1, 1)),
    "move_townsfolk": MoveTownsfolk("townsfolk-1", Place("street", 1, 1), 1),
    "desperation": Desperation("a", "recover_grit"), "random_target": RandomTarget("oni-1"),
    "strike_townsfolk": StrikeTownsfolk("oni-1", "townsfolk-1", 1), "rescue_hero": RescueHero("b"),
    "play_gang": PlayGang("Hitchcock Gang"),
}  # fmt: skip


# ---- legal_commands and the phases --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("phase", "expected"),
    [(Phase.BETWEEN_ADVENTURES, ["choose_town_size", "start_adventure", "roll_mission", "adjust"]),
     (Phase.TRAVEL, ["roll_hazard", "adjust"]), (Phase.ARRIVAL, ["arrive", "adjust"]),
     (Phase.TOWN, ["start_day", "use_token", "end_town_stay", "adjust"]), (Phase.ADVENTURE, ["adjust"])],
)  # fmt: skip
def test_legal_commands_in_each_phase_FT_TRAVEL_01_04(phase: Phase, expected: list[str]) -> None:
    state = in_phase(phase)
    legal = legal_commands(state)
    assert [c.type for c in legal] == expected
    assert legal[-1].options == ("a", "b")  # adjust names the heroes


def test_roll_hazard_names_the_hero_who_generated_it_FT_TRAVEL_03() -> None:
    state = replace(in_phase(Phase.TRAVEL), travel=Travel(TownSize.LARGE, ("a", "b", "b"), resolved=1))
    assert legal_commands(state)[0].hero == "b"


@pytest.mark.parametrize("phase", list(Phase))
def test_exactly_the_legal_commands_are_accepted(phase: Phase) -> None:
    state = in_phase(phase)
    legal = {c.type for c in legal_commands(state)}
    for type_name in COMMAND_TYPES:
        command = sample(type_name)
        if type_name in legal:
            outcome = apply(state, command)
            assert outcome.state.step == state.step + 1
        else:
            before = snapshot(state)
            with pytest.raises(IllegalCommand) as error:
                apply(state, command)
            assert error.value.field == "type"
            assert snapshot(state) == before


def test_wrong_phase_names_the_rule() -> None:
    with pytest.raises(IllegalCommand) as error:
        apply(in_phase(Phase.TRAVEL), Arrive())
    assert error.value.rule == "FT-TRAVEL-04"
    with pytest.raises(IllegalCommand) as error:
        apply(in_phase(Phase.TOWN), ChooseTownSize("small"))
    assert error.value.rule == "FT-TRAVEL-01"


def test_no_hazard_left_to_roll_FT_TRAVEL_03() -> None:
    state = replace(in_phase(Phase.TRAVEL), travel=Travel(TownSize.MEDIUM, ("a", "b"), resolved=2))
    assert "roll_hazard" not in {c.type for c in legal_commands(state)}
    with pytest.raises(IllegalCommand) as error:
        apply(state, RollHazard())
    assert error.value.rule == "FT-TRAVEL-03"


def test_a_posse_with_nobody_left_can_do_nothing() -> None:
    state = in_phase(Phase.TOWN)
    state = replace(state, heroes=tuple(replace(h, removed=True) for h in state.heroes))
    assert legal_commands(state) == ()
    with pytest.raises(IllegalCommand):
        apply(state, EndTownStay())


def test_a_pending_prompt_allows_only_its_answer(rule: Any) -> None:
    def ask(ctx: Ctx, roller: str) -> Procedure:
        yield from ctx.choose("Left or right?", [("left", "Left"), ("right", "Right")], hero=roller, rule="TEST",
                              asks=Asks.MAP_CARD)

    rule(ask)
    t = Table.travelling([hero("a"), hero("b")], hazards=2)
    prompt = t.hazard(TEST_HAZARD)
    assert prompt is not None and prompt.kind == "choice" and prompt.hero == "a"
    (only,) = legal_commands(t.state)
    assert (only.type, only.prompt, only.hero, only.options) == ("choose", prompt.id, "a", ("left", "right"))
    before = snapshot(t.state)
    for type_name in COMMAND_TYPES:
        if type_name != "choose":
            with pytest.raises(IllegalCommand):
                apply(t.state, sample(type_name))
    assert snapshot(t.state) == before


def test_an_option_not_offered_is_refused(rule: Any) -> None:
    def ask(ctx: Ctx, roller: str) -> Procedure:
        yield from ctx.choose("Left or right?", [("left", "Left"), ("right", "Right")], rule="TEST", asks=Asks.MAP_CARD)

    rule(ask)
    t = Table.travelling([hero("a")])
    t.hazard(TEST_HAZARD)
    with pytest.raises(IllegalCommand) as error:
        apply(t.state, Choose("up"))
    assert error.value.field == "option"


def test_answering_the_wrong_prompt_id_is_refused(rule: Any) -> None:
    def ask(ctx: Ctx, roller: str) -> Procedure:
        yield from ctx.choose("Left or right?", [("left", "Left"), ("right", "Right")], rule="TEST", asks=Asks.MAP_CARD)

    rule(ask)
    t = Table.travelling([hero("a")])
    prompt = t.hazard(TEST_HAZARD)
    assert prompt is not None
    with pytest.raises(IllegalCommand) as error:
        apply(t.state, Choose("left", prompt="p999"))
    assert error.value.field == "prompt"
    assert apply(t.state, Choose("left", prompt=prompt.id)).pending is None


def test_answers_without_a_prompt_are_refused() -> None:
    state = in_phase(Phase.BETWEEN_ADVENTURES)
    for command in (RollDice((3,)), Choose("x"), Reroll(), EnterCard()):
        with pytest.raises(IllegalCommand) as error:
            apply(state, command)
        assert error.value.field == "type"


# ---- purity and determinism ------------------------------------------------------------------------------------------
def test_apply_never_changes_its_input() -> None:
    state = new_session([hero("a", grit=2, mutations=("m",) * 5), hero("b")], seed=4)
    frozen = snapshot(state)
    copy = decode_state(json.loads(frozen))
    for command in (ChooseTownSize("large"), Adjust("a", (Effect("change", "gold", 100),))):
        apply(state, command)
        assert snapshot(state) == frozen
        assert state == copy
    with pytest.raises(IllegalCommand):
        apply(state, Arrive())
    assert state == copy


def test_same_state_and_command_give_the_same_outcome() -> None:
    state = new_session([hero("a"), hero("b"), hero("c")], seed=123)
    travelling = apply(state, ChooseTownSize("large"))
    assert travelling == apply(state, ChooseTownSize("large"))
    arrival = replace(travelling.state, phase=Phase.ARRIVAL)
    assert apply(arrival, Arrive(destroyed_slots=3)) == apply(arrival, Arrive(destroyed_slots=3))


def test_an_answer_resumes_the_rule_by_replay_and_events_come_once() -> None:
    heroes = [hero("a"), hero("b"), hero("c")]
    table = new_session(heroes, options=RuleOptions(dice="table"), seed=1)
    first = apply(table, ChooseTownSize("large"))
    assert first.pending is not None and first.pending.kind == "roll" and first.pending.hero == "a"
    events = list(first.events)
    state = first.state
    for face in (1, 5, 2):
        outcome = apply(state, RollDice((face,)))
        events += outcome.events
        state = outcome.state
    assert state.pending is None
    # the same journey with every die typed in at once: the same events, none twice, the prompts aside
    typed = apply(
        new_session(heroes, options=RuleOptions(dice="table"), seed=1), ChooseTownSize("large", dice=((1,), (5,), (2,)))
    )
    assert [e for e in events if e.type != "prompt"] == list(typed.events)
    assert [e.type for e in events].count("prompt") == 3
    assert state.travel == typed.state.travel == Travel(TownSize.LARGE, ("a", "a", "b", "c", "c"))


def test_resuming_twice_from_the_same_pending_state_is_identical(rule: Any) -> None:
    def two_steps(ctx: Ctx, roller: str) -> Procedure:
        first = yield from ctx.d6("first", hero=roller, rule="TEST")
        second = yield from ctx.d6("second", hero=roller, rule="TEST")
        ctx.change(roller, "xp", first * 10 + second, rule="TEST")

    rule(two_steps)
    t = Table.travelling([hero("a")])
    t.hazard(TEST_HAZARD)
    middle = apply(t.state, RollDice((4,)))
    assert middle.pending is not None
    assert apply(middle.state, RollDice((2,))) == apply(middle.state, RollDice((2,)))
    assert apply(middle.state, RollDice((2,))).state.hero("a").xp == 42


def test_server_dice_rolled_before_a_prompt_are_not_rolled_again(rule: Any) -> None:
    """The pending record keeps the RNG's answers, so a resumed rule sees the dice it saw (server dice)."""

    def roll_then_ask(ctx: Ctx, roller: str) -> Procedure:
        faces = yield from ctx.dice(5, "five dice", hero=roller, rule="TEST")
        yield from ctx.choose("Keep going?", [("yes", "Yes"), ("no", "No")], rule="TEST", asks=Asks.MAP_CARD)
        ctx.change(roller, "xp", sum(faces), rule="TEST")

    rule(roll_then_ask)
    state = replace(new_session([hero("a")], seed=77), phase=Phase.TRAVEL, travel=Travel(TownSize.LARGE, ("a",)))
    first = apply(state, RollHazard(dice=((1, 1),)))
    rolled = [e.roll for e in first.events if e.type == "rolled" and e.roll and e.roll.purpose == "five dice"]
    assert len(rolled) == 1 and rolled[0] is not None
    second = apply(first.state, Choose("yes"))
    assert second.state.hero("a").xp == sum(rolled[0].faces)
    assert not [e for e in second.events if e.type == "rolled"]  # replayed, not re-announced


# ---- Grit re-rolls ---------------------------------------------------------------------------------------------------
def lore_test(ctx: Ctx, roller: str) -> Procedure:
    test = yield from ctx.skill_test(roller, "lore", 5, "Test", rule="TEST")
    ctx.change(roller, "xp", 10 if test.passed else 1, rule="TEST")


def test_grit_reroll_is_offered_after_a_failed_skill_test_and_costs_1_grit_FF_GRIT_01(rule: Any) -> None:
    rule(lore_test)
    t = Table.travelling([hero("a", lore=2, grit=1)], rerolls=True)
    t.hazard(TEST_HAZARD)
    prompt = t.roll(1, 3)
    assert prompt is not None and prompt.kind == "reroll" and prompt.rule == "FF-GRIT-01"
    assert prompt.roll is not None and prompt.roll.faces == (1, 3) and prompt.hero == "a"
    prompt = t.reroll(0, 1)
    assert t.hero("a").grit == 0
    assert prompt is not None and prompt.kind == "roll" and prompt.dice_count == 2
    assert t.roll(5, 2) is None  # no Grit left: no further offer
    assert t.hero("a").xp == 10


def test_keeping_the_dice_costs_nothing_FF_GRIT_01(rule: Any) -> None:
    rule(lore_test)
    t = Table.travelling([hero("a", lore=2, grit=2)], rerolls=True)
    t.hazard(TEST_HAZARD)
    t.roll(1, 3)
    assert t.keep() is None
    assert t.hero("a").grit == 2 and t.hero("a").xp == 1


def test_the_dice_typed_with_keep_decline_the_grit_offer_in_the_same_answer_FF_GRIT_01(rule: Any) -> None:
    rule(lore_test)
    t = Table.travelling([hero("a", lore=2, grit=2)], rerolls=True)
    prompt = t.hazard(TEST_HAZARD)
    assert prompt is not None and prompt.grit  # the prompt says an offer may follow: the app may decline it here
    assert t.do(RollDice((1, 3), keep=True)) is None  # failed, and no offer: one answer, as keeping after it
    assert t.hero("a").grit == 2 and t.hero("a").xp == 1
    kept = [e for e in t.events if e.rule == "FF-GRIT-01"]
    assert kept == []  # nothing spent, nothing said


def test_keep_declines_only_the_offer_on_its_own_dice_FF_GRIT_01(rule: Any) -> None:
    rule(lore_test)
    t = Table.travelling([hero("a", lore=2, grit=0)], rerolls=True)
    prompt = t.hazard(TEST_HAZARD)
    assert prompt is not None and not prompt.grit  # no Grit: no offer to come
    assert t.do(RollDice((1, 3), keep=True)) is None  # a keep with nothing to decline changes nothing
    assert t.hero("a").xp == 1


def test_no_offer_without_grit_FF_GRIT_01(rule: Any) -> None:
    rule(lore_test)
    t = Table.travelling([hero("a", lore=2, grit=0)], rerolls=True)
    t.hazard(TEST_HAZARD)
    assert t.roll(1, 3) is None
    assert t.hero("a").xp == 1


def test_no_offer_when_the_option_is_off(rule: Any) -> None:
    rule(lore_test)
    t = Table.travelling([hero("a", lore=2, grit=2)], rerolls=False)
    t.hazard(TEST_HAZARD)
    assert t.roll(1, 3) is None


def test_no_offer_when_every_die_succeeded(rule: Any) -> None:
    rule(lore_test)
    t = Table.travelling([hero("a", lore=2, grit=2)], rerolls=True)
    t.hazard(TEST_HAZARD)
    assert t.roll(5, 6) is None
    assert t.hero("a").grit == 2


def test_no_offer_after_a_pass_when_more_successes_change_nothing_FF_GRIT_01(rule: Any) -> None:
    rule(lore_test)
    t = Table.travelling([hero("a", lore=2, grit=2)], rerolls=True)
    t.hazard(TEST_HAZARD)
    assert t.roll(1, 5) is None  # passed: re-rolling the 1 could not change the outcome (A1)
    assert t.hero("a").grit == 2 and t.hero("a").xp == 10


def test_a_counting_test_offers_a_reroll_after_a_pass_FT_TRAVEL_D16() -> None:
    t = Table.travelling([hero("a", cunning=2, grit=1)], rerolls=True)
    t.hazard(16)  # Shadows Out of Time: Cunning 6+, and every 1 rolled costs 1 Sanity for good
    prompt = t.roll(6, 1)
    assert prompt is not None and prompt.kind == "reroll"  # passed, but the 1 still matters
    t.reroll(1)
    assert t.roll(4) is None
    assert t.hero("a").sanity_mod == 0 and t.hero("a").grit == 0


def test_a_die_is_never_rerolled_twice_FF_GRIT_02(rule: Any) -> None:
    rule(lore_test)
    t = Table.travelling([hero("a", lore=2, grit=2, max_grit=3)], rerolls=True)
    t.hazard(TEST_HAZARD)
    t.roll(1, 1)
    t.reroll(0)
    prompt = t.roll(2)  # die 0 re-rolled and still failing
    assert prompt is not None and prompt.kind == "reroll" and prompt.roll is not None
    assert prompt.roll.rerolled == (0,)
    before = snapshot(t.state)
    with pytest.raises(IllegalCommand) as error:
        apply(t.state, Reroll((0,)))
    assert error.value.rule == "FF-GRIT-02" and error.value.field == "indices"
    assert snapshot(t.state) == before
    t.reroll(1)
    assert t.roll(3) is None  # both dice re-rolled once: no more offers though Grit is left
    assert t.hero("a").grit == 0 and t.hero("a").xp == 1


@pytest.mark.parametrize(("indices", "error_type"), [((2,), InvalidCommand), ((-1,), InvalidCommand),
                                                     ((0, 0), InvalidCommand)])  # fmt: skip
def test_reroll_indices_must_name_distinct_dice(rule: Any, indices: tuple[int, ...], error_type: type) -> None:
    rule(lore_test)
    t = Table.travelling([hero("a", lore=2, grit=1)], rerolls=True)
    t.hazard(TEST_HAZARD)
    t.roll(1, 1)
    with pytest.raises(error_type) as error:
        apply(t.state, Reroll(indices))
    assert error.value.field == "indices"


def test_chart_rolls_are_never_offered_for_reroll_FF_GRIT_04(rule: Any) -> None:
    def charts(ctx: Ctx, roller: str) -> Procedure:
        yield from ctx.d6("a sub-table", hero=roller, rule="TEST")
        yield from ctx.d3("a D3 of Grit", hero=roller, rule="TEST")
        yield from ctx.two_d6("a 2D6 chart", hero=roller, rule="TEST")
        yield from ctx.dice(3, "a D6 per item", hero=roller, rule="TEST")
        yield from ctx.roll(DieKind.D36, "a D36 chart", hero=roller, chart=True, rule="TEST")

    rule(charts)
    t = Table.travelling([hero("a", grit=2)], rerolls=True)
    prompt = t.do(RollHazard())  # the D36 Travel Hazard roll itself
    assert prompt is not None and prompt.kind == "roll" and prompt.die is DieKind.D36
    kinds = []
    prompt = t.roll(1, 1)
    for faces in ((1,), (1,), (1, 1), (1, 1, 1), (1, 1)):
        assert prompt is not None
        kinds.append(prompt.kind)
        prompt = t.roll(*faces)
    assert prompt is None and set(kinds) == {"roll"}
    assert t.hero("a").grit == 2


def test_town_type_roll_is_never_offered_for_reroll_FF_GRIT_04() -> None:
    state = replace(
        in_phase(Phase.ARRIVAL, dice="table", offer_grit_rerolls=True), heroes=(hero("a", grit=2), hero("b", grit=1))
    )
    outcome = apply(state, Arrive())
    assert outcome.pending is not None and outcome.pending.die is DieKind.TWO_D6
    outcome = apply(outcome.state, RollDice((1, 1)))
    assert outcome.pending is not None and outcome.pending.kind == "choice"  # the Building draw, no re-roll


def test_recovering_grit_at_max_loses_it_FF_GRIT_07() -> None:
    state = new_session([hero("a", grit=2, max_grit=2)])
    outcome = apply(state, Adjust("a", (Effect("change", "grit", 1),)))
    assert outcome.state.hero("a").grit == 2
    lost = [e for e in outcome.events if e.type == "grit_lost"]
    assert len(lost) == 1 and lost[0].rule == "FF-GRIT-07" and lost[0].hero == "a"


def test_recovering_grit_below_max_is_kept_up_to_max_FF_GRIT_07() -> None:
    state = new_session([hero("a", grit=0, max_grit=2)])
    outcome = apply(state, Adjust("a", (Effect("change", "grit", 1),)))
    assert outcome.state.hero("a").grit == 1
    assert not [e for e in outcome.events if e.type == "grit_lost"]
    outcome = apply(outcome.state, Adjust("a", (Effect("change", "grit", 3),)))
    assert outcome.state.hero("a").grit == 2


# ---- Adjust: every op, and the bounds --------------------------------------------------------------------------------
def adjusted(*effects: Effect, **values: Any) -> Any:
    state = new_session([hero("a", **values), hero("b")])
    return apply(state, Adjust("a", effects, reason="a card")).state.hero("a")


def test_change_adds_and_keeps_gold_at_or_above_zero_A8_FF_HERO_10() -> None:
    assert adjusted(Effect("change", "gold", 75), gold=50).gold == 125
    assert adjusted(Effect("change", "gold", -300), gold=50).gold == 0


def test_wounds_and_sanity_damage_stay_within_health_and_sanity_FF_HERO_02_03() -> None:
    assert adjusted(Effect("change", "wounds", 50), health_base=8).wounds == 8
    assert adjusted(Effect("change", "wounds", -5), wounds=2).wounds == 0
    assert adjusted(Effect("change", "sanity_damage", 50), sanity_base=7, sanity_mod=-1).sanity_damage == 6
    lowered = adjusted(Effect("change", "health_mod", -4), wounds=9)
    assert lowered.max_health == 6 and lowered.wounds == 6


def test_wanted_is_0_to_2_and_counters_never_go_negative() -> None:
    assert adjusted(Effect("change", "wanted", 5)).wanted == 2
    for field in ("xp", "corruption", "dark_stone", "unwanted_attention", "grit", "max_grit"):
        assert getattr(adjusted(Effect("change", field, -99)), field) == 0


def test_set_puts_a_value_and_refuses_one_out_of_bounds() -> None:
    assert adjusted(Effect("set", "xp", 300)).xp == 300
    assert adjusted(Effect("set", "wounds", 4)).wounds == 4
    state = new_session([hero("a")])
    for effect, field in ((Effect("set", "gold", -1), "effects[0].amount"),
                          (Effect("set", "wounds", 11), "effects[0].amount"),
                          (Effect("set", "grit", 3), "effects[0].amount"),
                          (Effect("set", "agility", 13), "effects[0].amount")):  # fmt: skip
        with pytest.raises(InvalidCommand) as error:
            apply(state, Adjust("a", (effect,)))
        assert error.value.field == field


def test_skills_change_and_stay_0_to_12() -> None:
    assert adjusted(Effect("change", "agility", 2), agility=3).skills.agility == 5
    assert adjusted(Effect("set", "lore", 0)).skills.lore == 0
    assert adjusted(Effect("change", "luck", -9)).skills.luck == 0
    assert adjusted(Effect("change", "luck", 100)).skills.luck == 12


def test_an_effect_moves_a_value_by_at_most_a_million() -> None:
    assert adjusted(Effect("change", "xp", 1_000_000)).xp == 1_000_000
    for effect in (Effect("change", "dark_stone", 10**12), Effect("set", "gold", 2**60)):
        with pytest.raises(InvalidCommand) as error:
            apply(new_session([hero("a")]), Adjust("a", (effect,)))
        assert error.value.field == "effects[0].amount"


def test_items_are_added_with_their_icons_and_removed_by_name_or_id() -> None:
    gained = adjusted(Effect("add_item", name="Pocket Watch", tags=("personal", "dark_stone"), hourglass=2,
                             dark_stone_upgrades=1))  # fmt: skip
    (watch,) = gained.items
    assert (watch.id, watch.name, watch.hourglass, watch.dark_stone_upgrades) == ("pocket-watch", "Pocket Watch", 2, 1)
    assert {t.value for t in watch.tags} == {"personal", "dark_stone"}
    twice = adjusted(Effect("add_item", name="Hat"), Effect("add_item", name="Hat"))
    assert [i.id for i in twice.items] == ["hat", "hat-2"]
    owned = (item("Hat", "clothing"), item("Rifle", "gear"))
    assert [i.name for i in adjusted(Effect("remove_item", name="Hat"), items=owned).items] == ["Rifle"]
    assert [i.name for i in adjusted(Effect("remove_item", name="rifle"), items=owned).items] == ["Hat"]


def test_tokens_fill_the_side_bag_up_to_its_capacity_FF_HERO_08() -> None:
    bag = adjusted(Effect("add_token", name="Tonic"), side_bag=("Bandages",))
    assert bag.side_bag == ("Bandages", "Tonic")
    full = new_session([hero("a", side_bag=("Tonic",) * 5)])
    with pytest.raises(IllegalCommand) as error:  # issue 20: a sixth token was accepted and dropped without a word
        apply(full, Adjust("a", (Effect("add_token", name="Sake"),)))
    assert (error.value.field, error.value.rule) == ("effects[0].name", "FF-HERO-08")
    assert "limit of 5" in str(error.value)
    swapped = apply(full, Adjust("a", (Effect("remove_token", name="Tonic"), Effect("add_token", name="Sake"))))
    assert swapped.state.hero("a").side_bag == ("Tonic",) * 4 + ("Sake",)
    assert adjusted(Effect("remove_token", name="Tonic"), side_bag=("Tonic", "Sake")).side_bag == ("Sake",)


def test_tearing_the_bag_drops_the_newest_tokens_and_repair_restores_it_FT_TRAVEL_D12() -> None:
    torn = adjusted(Effect("tear_bag"), side_bag=("A", "B", "C", "D", "E"))
    assert torn.bag_torn and torn.side_bag_capacity == 3 and torn.side_bag == ("A", "B", "C")
    repaired = adjusted(Effect("repair_bag"), bag_torn=True)
    assert not repaired.bag_torn and repaired.side_bag_capacity == 5


def test_mutations_and_keywords() -> None:
    assert adjusted(Effect("add_mutation", name="Tentacle")).mutations == ("Tentacle",)
    assert adjusted(Effect("remove_mutation", name="Claw"), mutations=("Claw", "Eye")).mutations == ("Eye",)
    assert adjusted(Effect("add_keyword", name="Law"), keywords=("Law",)).keywords == ("Law",)
    assert adjusted(Effect("add_keyword", name="Holy")).keywords == ("Holy",)
    assert adjusted(Effect("remove_keyword", name="Law"), keywords=("Law", "Holy")).keywords == ("Holy",)


def test_effects_apply_in_order_within_one_adjustment() -> None:
    assert adjusted(Effect("add_mutation", name="Claw"), Effect("remove_mutation", name="Claw")).mutations == ()
    assert adjusted(Effect("add_token", name="Tonic"), Effect("remove_token", name="Tonic")).side_bag == ()
    assert adjusted(Effect("add_item", name="Old Hat"), Effect("remove_item", name="old-hat")).items == ()
    with pytest.raises(IllegalCommand) as error:  # the token does not fit the full bag (FF-HERO-08)
        apply(
            new_session([hero("a", side_bag=("T",) * 5)]),
            Adjust("a", (Effect("add_token", name="Sake"), Effect("remove_token", name="Sake"))),
        )
    assert error.value.field == "effects[0].name"
    with pytest.raises(IllegalCommand):  # the torn bag dropped the newest token
        apply(
            new_session([hero("a", side_bag=("A", "B", "C", "D"))]),
            Adjust("a", (Effect("tear_bag"), Effect("remove_token", name="D"))),
        )


@pytest.mark.parametrize(
    ("effect", "field", "error_type"),
    [(Effect("explode"), "effects[0].op", InvalidCommand),
     (Effect("change", "charisma", 1), "effects[0].field", InvalidCommand),
     (Effect("change", "name", 1), "effects[0].field", InvalidCommand),
     (Effect("add_item", name=" "), "effects[0].name", InvalidCommand),
     (Effect("add_item", name="Hat", tags=("hat",)), "effects[0].tags", InvalidCommand),
     (Effect("add_item", name="Watch", hourglass=-1), "effects[0]", InvalidCommand),
     (Effect("remove_item", name="Hat"), "effects[0].name", IllegalCommand),
     (Effect("remove_token", name="Tonic"), "effects[0].name", IllegalCommand),
     (Effect("remove_mutation", name="Claw"), "effects[0].name", IllegalCommand)],
)  # fmt: skip
def test_bad_effects_name_their_field(effect: Effect, field: str, error_type: type) -> None:
    state = new_session([hero("a")])
    with pytest.raises(error_type) as error:
        apply(state, Adjust("a", (effect,)))
    assert error.value.field == field


def test_an_adjustment_is_all_or_nothing() -> None:
    state = new_session([hero("a", side_bag=("Tonic",), items=(item("Hat"),))])
    for effects in ((Effect("change", "xp", 10), Effect("change", "nonsense", 1)),
                    (Effect("remove_token", name="Tonic"), Effect("remove_token", name="Tonic")),
                    (Effect("remove_item", name="Hat"), Effect("remove_item", name="hat"))):  # fmt: skip
        with pytest.raises((InvalidCommand, IllegalCommand)) as error:
            apply(state, Adjust("a", effects))
        assert error.value.field.startswith("effects[1]")


def test_adjust_names_an_existing_hero_and_needs_an_effect() -> None:
    state = new_session([hero("a")])
    with pytest.raises(InvalidCommand) as error:
        apply(state, Adjust("zed", (Effect("change", "xp", 1),)))
    assert error.value.field == "hero"
    with pytest.raises(InvalidCommand) as error:
        apply(state, Adjust("a", ()))
    assert error.value.field == "effects"


def test_adjusting_a_hero_taken_from_the_game_is_refused() -> None:
    state = new_session([hero("a"), hero("b", removed=True)])
    assert legal_commands(state)[-1].options == ("a",)
    with pytest.raises(IllegalCommand) as error:
        apply(state, Adjust("b", (Effect("change", "xp", 1),)))
    assert error.value.field == "hero"


def test_adjust_is_logged_as_events_with_changes() -> None:
    outcome = apply(new_session([hero("a", gold=10)]), Adjust("a", (Effect("change", "gold", -25),), reason="Bar tab"))
    adjusted_event, changed = outcome.events
    assert adjusted_event.type == "adjusted" and "Bar tab" in adjusted_event.text
    assert changed.changes[0].field == "gold" and (changed.changes[0].before, changed.changes[0].after) == (10, 0)


# ---- new_session --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("count", [1, 6])
def test_a_posse_has_1_to_6_heroes_A48(count: int) -> None:
    state = new_session([hero(f"h{i}") for i in range(count)])
    assert len(state.heroes) == count and state.phase is Phase.BETWEEN_ADVENTURES and state.pending is None


@pytest.mark.parametrize("count", [0, 7])
def test_too_few_or_too_many_heroes_are_refused_A48(count: int) -> None:
    with pytest.raises(InvalidCommand) as error:
        new_session([hero(f"h{i}") for i in range(count)])
    assert error.value.field == "heroes"


def test_hero_ids_are_unique_and_names_present() -> None:
    with pytest.raises(InvalidCommand) as error:
        new_session([hero("a"), hero("b"), hero("a")])
    assert error.value.field == "heroes[0].id"
    with pytest.raises(InvalidCommand) as error:
        new_session([hero("a"), hero("")])
    assert error.value.field == "heroes[1].id"
    with pytest.raises(InvalidCommand) as error:
        new_session([hero("a", name=" ")])
    assert error.value.field == "heroes[0].name"


def test_unknown_pack_and_dice_option_are_refused() -> None:
    with pytest.raises(InvalidCommand) as error:
        new_session([hero("a")], pack="no-such-pack")
    assert error.value.field == "pack"
    with pytest.raises(InvalidCommand) as error:
        new_session([hero("a")], options=RuleOptions(dice="telepathy"))
    assert error.value.field == "options.dice"


@pytest.mark.parametrize(
    ("values", "field"),
    [({"gold": -1}, "heroes[0].gold"), ({"wounds": 11}, "heroes[0].wounds"), ({"grit": 3}, "heroes[0].grit"),
     ({"wanted": 3}, "heroes[0].wanted"), ({"sanity_damage": -2}, "heroes[0].sanity_damage"),
     ({"agility": -1}, "heroes[0].skills.agility"), ({"side_bag": ("T",) * 6}, "heroes[0].side_bag"),
     ({"bag_torn": True, "side_bag": ("T",) * 4}, "heroes[0].side_bag"),
     ({"items": (item("Hat"), item("Hat"))}, "heroes[0].items[0].id"), ({"health_base": 0}, "heroes[0].health_base"),
     ({"health_mod": -11}, "heroes[0].health_mod"), ({"defense": 8}, "heroes[0].defense")],
)  # fmt: skip
def test_heroes_start_within_their_bounds(values: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidCommand) as error:
        new_session([hero("a", **values)])
    assert error.value.field == field
