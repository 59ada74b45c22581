"""The mission hooks: a small Town-board mission written as another engineer would, on the one turn engine.

"Hold the Line" (test-only): Townsfolk on the Street, a Bandit arriving after each Hold Back the Darkness, a failed
roll taking a Countdown counter instead of moving the Darkness, two End of the Turn effects the heroes order, kills
moving the Hero Party marker, a win and a loss of its own. Exercises FT-BOARD-01, FT-EXPL-01, FT-SCAV-01, FT-GRIT-01,
FF-TURN-04 and the repurposed Depth Track (FT-DEPTH-02).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from shared_rules import IllegalCommand
from shared_rules.commands import (
    Activate,
    ActivateEnemy,
    Attack,
    EndActivation,
    Flee,
    HeroHit,
    HoldBackTheDarkness,
    Move,
    MoveMarker,
    Search,
)
from shared_rules.dice import Roll
from shared_rules.flow import Ctx, Steps
from shared_rules.prompts import Option
from shared_rules.rules.adventure import MISSIONS, Ending, Mission, order, register
from shared_rules.rules.adventure.common import adventure, party_ids, put, set_counter
from shared_rules.rules.adventure.depth import move_party
from shared_rules.rules.adventure.fight import add_figures
from shared_rules.state import Figure, MapTile, Phase, Place, Session, Side, TileKind, TurnStep
from tests.rules.adventure.helpers import adv, events, legal_types, of, on, run, start, to_activations
from tests.rules.table import Table


class HoldTheLine(Mission):
    key = "test-hold-the-line"
    title = "Hold the Line"
    board = "town"
    may_flee = False

    def setup(self, ctx: Ctx) -> Steps[None]:
        adv_ = adventure(ctx)
        put(ctx, replace(adv_, tiles=(*adv_.tiles, MapTile("street", TileKind.AREA, "the Street")),
                         heroes=tuple(replace(m, place=Place("street", 5, i)) for i, m in enumerate(adv_.heroes))))
        set_counter(ctx, "countdown", 3)
        townsfolk = [Figure(f"townsfolk-{i}", "Townsfolk", Side.NEUTRAL, 1, defense=4, kind="townsfolk",
                            place=Place("street", 9, i)) for i in (1, 2)]  # fmt: skip
        yield from add_figures(ctx, townsfolk, rule="TEST")

    def hbtd_target(self, state: Session) -> int | None:
        return 7

    def resolve_hbtd(self, ctx: Ctx, roll: Roll, target: int) -> Steps[bool]:
        yield from ()
        if roll.faces[0] == roll.faces[1] or roll.value >= target:
            return False  # the core: a Depth Event, or held
        set_counter(ctx, "countdown", adventure(ctx).counter("countdown") - 1)
        ctx.emit("mission", "A counter comes off the Countdown", rule="TEST")
        return True

    def after_hbtd(self, ctx: Ctx, roll: Roll | None) -> Steps[None]:
        if adventure(ctx).counter("arrived") < 2:
            set_counter(ctx, "arrived", adventure(ctx).counter("arrived") + 1)
            bandit = Figure(f"bandit-{adventure(ctx).counter('arrived')}", "Bandit", Side.ENEMY, 2, initiative=5,
                            kind="bandit", place=Place("street", 0, 0))  # fmt: skip
            yield from add_figures(ctx, [bandit], rule="TEST")

    def end_of_turn_effects(self, state: Session) -> tuple[Option, ...]:
        return (Option("fuse", "The fuse burns"), Option("crowd", "The crowd shifts"))

    def end_of_turn(self, ctx: Ctx, key: str) -> Steps[None]:
        set_counter(ctx, "order", adventure(ctx).counter("order") * 10 + (1 if key == "fuse" else 2))
        yield from ()

    def figure_killed(self, ctx: Ctx, figure: Figure, by: str) -> Steps[None]:
        if figure.side is Side.ENEMY:
            move_party(ctx, 1, rule="TEST", why="a Bandit killed")
            set_counter(ctx, "kills", adventure(ctx).counter("kills") + 1)
        yield from ()

    def check_move(self, state: Session, hero_id: str, command: Move) -> None:
        if command.to is not None and command.to.x is not None and command.to.x > 10:
            raise IllegalCommand("to: off the board", field="to", rule="TEST")

    def check_end(self, state: Session) -> Ending | None:
        adv_ = state.adventure
        assert adv_ is not None
        if adv_.counter("countdown") <= 0:
            return Ending(False, "countdown", "TEST", "The Countdown ran out")
        if adv_.counter("kills") >= 2 and not adv_.in_fight:
            return Ending(True, "held", "TEST", "The line held")
        return None

    def finish(self, ctx: Ctx, ending: Ending) -> Steps[None]:
        if ending.won:
            for hero in party_ids(ctx.state):
                ctx.change(hero, "xp", 50, rule="TEST", why="the line held")
        yield from ()


class Scavengers(HoldTheLine):
    key = "test-scavengers"

    def scavenge_limit(self, state: Session) -> int | None:
        return None  # no limit, as Town Overrun's Desperation (FT-SCAV-01)


@pytest.fixture(autouse=True, scope="module")
def _test_missions() -> Iterator[None]:
    """The test-only missions are playable while this module runs, and gone after (the registry is global: the
    app's catalogue of mission titles must not find them)."""
    for mission in (HoldTheLine(), Scavengers()):
        register(mission)
    yield
    for mission in (HoldTheLine, Scavengers):
        MISSIONS.pop(mission.key, None)


def line(heroes: int = 1, **options: object) -> Table:
    return start([of(chr(ord("a") + i)) for i in range(heroes)], mission=HoldTheLine.key, **options)  # type: ignore[arg-type]


def finish_turn(t: Table, first: str = "fuse") -> None:
    """Everyone still to act does nothing; the End of the Turn effects in the order `first`, then the other."""
    from shared_rules.rules.adventure import up_next

    while t.state.adventure is not None and adv(t).step is TurnStep.ACTIVATIONS and t.prompt is None:
        act = adv(t).activation
        if act is not None:
            t.do(EndActivation(act.figure))
            continue
        nxt = up_next(t.state)[0]
        t.do(ActivateEnemy(nxt) if nxt.startswith("bandit") else Activate(nxt, dice=((2,),)))
    if t.prompt is not None and t.prompt.rule == "FF-TURN-04":
        t.choose(first)


def test_a_mission_is_registered_and_sets_up_its_own_figures() -> None:
    assert MISSIONS[HoldTheLine.key].title == "Hold the Line"
    t = line()
    assert [(f.id, f.side.value, f.place) for f in adv(t).figures] == [
        ("townsfolk-1", "neutral", Place("street", 9, 1)), ("townsfolk-2", "neutral", Place("street", 9, 2))]
    assert not adv(t).in_fight and adv(t).counter("countdown") == 3
    assert "start_adventure" in legal_types(start([of("a")], mission="lost_contact").__class__.new([of("z")]))


def test_no_flee_when_the_mission_says_so_FF_END_04() -> None:
    t = line()
    assert "flee" not in legal_types(t)
    with pytest.raises(IllegalCommand) as error:
        t.do(Flee(("a",)))
    assert error.value.rule == "FF-END-04"


def test_reinforcements_arrive_after_hbtd_and_act_this_turn_neutral_figures_never() -> None:
    t = line()
    to_activations(t)
    assert [f.id for f in adv(t).enemies] == ["bandit-1"] and adv(t).in_fight
    assert order(t.state) == ("a", "bandit-1")  # the Townsfolk take no turn


def test_a_failed_roll_takes_a_countdown_counter_instead_of_the_darkness_FT_DEPTH_02() -> None:
    t = line()
    t.do(HoldBackTheDarkness(dice=((1, 2),)))
    assert adv(t).counter("countdown") == 2 and adv(t).darkness == 0


def test_the_heroes_order_the_end_of_the_turn_effects_FF_TURN_04() -> None:
    t = line()
    to_activations(t)
    run(t, Activate("a", dice=((2,),)))
    run(t, Attack("a", hits=()))
    t.do(ActivateEnemy("bandit-1"))
    assert t.prompt is not None and t.prompt.rule == "FF-TURN-04"
    assert [o.key for o in t.prompt.options] == ["fuse", "crowd"]
    t.choose("crowd")  # the crowd first, then the only one left without asking
    assert t.prompt is None and adv(t).counter("order") == 21 and adv(t).turn == 2
    assert events(t, "end_of_turn") == ["End of the Turn: The crowd shifts", "End of the Turn: The fuse burns"]


def test_the_town_board_has_no_exploration_no_voices_and_no_scavenging_FT_EXPL_01_FT_SCAV_01_FT_BOARD_01() -> None:
    t = line()
    to_activations(t)
    with pytest.raises(IllegalCommand) as error:
        t.do(Activate("a", in_the_dark=True))
    assert error.value.rule == "FT-EXPL-01"
    from shared_rules.commands import WoundEnemy

    run(t, WoundEnemy("bandit-1", 2))  # the Fight is over
    run(t, Activate("a", dice=((2,),)))
    for kind, rule in (("door", "FT-EXPL-01"), ("scavenge", "FT-SCAV-01")):
        with pytest.raises(IllegalCommand) as error:
            t.do(Search("a", kind))
        assert error.value.rule == rule
    assert "search" not in legal_types(t)


def test_a_mission_may_allow_scavenging_without_limit_FT_SCAV_01() -> None:
    t = start([of("a")], mission=Scavengers.key)
    t.do(HoldBackTheDarkness(dice=((6, 2),)))
    from shared_rules.commands import WoundEnemy

    run(t, WoundEnemy("bandit-1", 2))
    run(t, Activate("a", dice=((2,),)))
    t.do(Search("a", "scavenge", dice=((1, 1, 1),)))
    assert "finds nothing" in events(t, "scavenged")[-1]


def test_the_town_board_reveals_growing_dread_at_once_and_uses_its_own_depth_chart_FT_BOARD_01() -> None:
    t = line()
    t.do(MoveMarker("darkness", 5))
    assert adv(t).growing_dread == 0 and "play them now" in events(t, "growing_dread")[0]
    t.do(HoldBackTheDarkness(dice=((2, 2),)))
    assert t.prompt is not None and t.prompt.chart == "town_depth_event"


def test_blood_moon_on_the_town_board_reveals_its_growing_dread_at_once_A39() -> None:
    from shared_rules.state import Carry

    t = line()
    t.state = replace(t.state, carry=Carry(blood_moon=True))
    t.do(HoldBackTheDarkness(dice=((2, 2),)))
    assert adv(t).growing_dread == 0 and "play them now" in events(t, "growing_dread")[-1]


def test_kills_move_the_party_marker_and_the_mission_is_won_its_way() -> None:
    t = line()
    to_activations(t)
    run(t, Activate("a", dice=((2,),)))
    t.do(Attack("a", hits=(HeroHit("bandit-1", 2),)))
    assert adv(t).party == 10 and adv(t).counter("kills") == 1
    t.choose("fuse")
    t.do(HoldBackTheDarkness(dice=((6, 2),)))
    t.do(Activate("a", dice=((2,),)))
    t.do(Attack("a", hits=(HeroHit("bandit-2", 2),)))
    assert t.state.adventure is None and t.state.phase is Phase.BETWEEN_ADVENTURES
    assert t.hero("a").xp == 50 and events(t, "adventure_ended")[0] == "The line held"


def test_the_mission_loses_its_way() -> None:
    t = line()
    for _ in range(3):
        t.do(HoldBackTheDarkness(dice=((1, 2),)))
        if t.state.adventure is None:
            break
        finish_turn(t)
    assert t.state.adventure is None and events(t, "adventure_ended")[0] == "The Countdown ran out"


def test_the_board_refuses_moves_through_the_check_move_hook_and_windows_cost_grit_FT_GRIT_01() -> None:
    t = line()
    to_activations(t)
    run(t, Activate("a", dice=((4,),)))
    t.state = replace(t.state, adventure=replace(adv(t), heroes=(replace(adv(t).heroes[0], place=on("street", x=10, y=0)),)))
    with pytest.raises(IllegalCommand) as error:
        t.do(Move("a", 1, to=on("street", x=11, y=0)))
    assert error.value.rule == "TEST"
    run(t, Move("a", 1, to=on("street", x=9, y=0), through=("window",)))
    assert t.hero("a").grit == 0 and any(e.rule == "FT-GRIT-01" for e in t.events)
    with pytest.raises(IllegalCommand) as error:
        t.do(Move("a", 1, through=("window",)))
    assert error.value.rule == "FT-GRIT-01"


def test_the_mission_state_round_trips_through_the_codec() -> None:
    from shared_rules import decode_state, encode_state

    t = line()
    to_activations(t)
    assert decode_state(encode_state(t.state)) == t.state


def test_figures_map_onto_the_town_boards_models() -> None:
    from shared_rules.rules.adventure.board_models import board_models, board_pos, place_of
    from shared_rules.rules.board import Pos
    from shared_rules.rules.board import Side as BoardSide

    t = line(2)
    models = {m.id: m for m in board_models(t.state)}
    assert models["a"].pos == Pos.at(5, 0) and models["a"].side is BoardSide.HERO
    assert models["townsfolk-1"].side is BoardSide.NEUTRAL and models["townsfolk-1"].pos == Pos.at(9, 1)
    for pos in (Pos.at(3, 4), Pos.on_roof("3+4"), Pos.off_board("B")):
        assert board_pos(place_of(pos)) == pos
    assert board_pos(Place("entrance")) is None
