"""The Bandits' Shootout AI (FT-BANDIT-01..09, FT-BOARD-19) on hand-drawn boards, every die typed in: each Bandit's
proposal (path, end, target, line of fire, reason) and the shots of the Firing step."""

from __future__ import annotations

import pytest

from shared_rules import IllegalCommand, InvalidCommand, RollHazard, RuleOptions, new_session
from shared_rules.flow import DrawRequest, run_rule
from shared_rules.rules.bandits import (
    BANDIT_PISTOL,
    Action,
    Activation,
    BanditSheet,
    Gang,
    Proposal,
    activate,
    ambush,
    ambush_spaces,
    bring_into_play,
    dynamite_range,
    gang_reward,
    plan_activation,
    weapon_of,
)
from shared_rules.rules.board import (
    Model,
    Pos,
    Requests,
    Side,
    adjacent,
    board_named,
    check_path,
    drive,
    in_range,
    spaces_adjacent,
)
from shared_rules.rules.board.moves import bfs
from tests.rules.board.boards import at, draw

H, E, N = Side.HERO, Side.ENEMY, Side.NEUTRAL
OPEN = draw(["." * 12] * 7)
#            x 0123456789AB
HOUSE = draw(["............",  # y0
              ".1111.......",  # y1
              ".1111.......",  # y2     a Window on the east side at y2, a Door on the south side at x2
              ".1111.......",  # y3
              "............",  # y4
              "............"],  # y5
             doors=[((2, 3), (2, 4))], windows=[((4, 2), (5, 2))])  # fmt: skip


def hero(ident: str, x: int, y: int, **kw: object) -> Model:
    return Model(ident, H, at(x, y), ident.capitalize(), **kw)  # type: ignore[arg-type]


def dice_of(proposal: Proposal) -> list[tuple[str, int]]:
    return [(d.purpose, d.face) for d in proposal.rolls]


def bandit(n: int, pos: Pos, **kw: object) -> Model:
    return Model(f"b{n}", E, pos, f"Bandit {n}", group="gang", **kw)  # type: ignore[arg-type]


# ---- FT-BANDIT-01 / FT-BANDIT-08: the guns -------------------------------------------------------------------
def test_bandits_carry_pistols_of_range_6_and_rooftop_bandits_rifles() -> None:
    """FT-BANDIT-01 (Range 6 per the FAQ), FT-BANDIT-08: Rifle Range 12, Shots 2, Damage 4; Shots 3 if Brutal."""
    assert weapon_of(bandit(1, at(0, 0))) == BANDIT_PISTOL and BANDIT_PISTOL.range == 6
    rifle = weapon_of(bandit(1, Pos.on_roof("1")))
    assert (rifle.range, rifle.shots, rifle.damage) == (12, 2, 4)
    assert weapon_of(bandit(1, Pos.on_roof("1"), brutal=True)).shots == 3


# ---- FT-BANDIT-03 / 04: Retreat and Melee --------------------------------------------------------------------
def test_a_bandit_next_to_a_hero_retreats_on_4_plus_then_targets() -> None:
    """FT-BANDIT-03: on 4-6 a Free Move along the shortest path to a space adjacent to no Hero; then it targets as
    normal. Dice: retreat 5, cover 5."""
    act = plan_activation(OPEN, [hero("ann", 2, 3), bandit(1, at(3, 3))], dice=[5, 5])
    (p,) = act.proposals
    assert p.retreated and p.path == ((3, 3), (4, 2)) and p.end == at(4, 2)
    assert dice_of(p) == [("retreat", 5), ("cover", 5)]
    assert p.action is Action.RANGED and p.target == "ann" and p.line == ((4, 2), (2, 3))
    assert p.reason == "Bandit 1: next to Ann, rolled 5, retreats 1 space, rolled 5, stays, targets Ann"


def test_a_bandit_that_fails_to_retreat_melees_instead() -> None:
    """FT-BANDIT-03/04: on 1-3 it stays and makes a Combat Attack on a Random adjacent Hero; no Ranged Attack."""
    act = plan_activation(OPEN, [hero("ann", 2, 3), bandit(1, at(3, 3))], dice=[3])
    (p,) = act.proposals
    assert (p.action, p.target, p.path, p.end) == (Action.MELEE, "ann", (), at(3, 3))
    assert p.reason == "Bandit 1: next to Ann, rolled 3, stays: fights Ann hand to hand"
    assert act.shots == ()


def test_the_melee_target_is_a_random_adjacent_hero() -> None:
    """FT-BANDIT-04: drawn among the adjacent Heroes only (Cat is not adjacent)."""
    asked: list[tuple[str, ...]] = []

    def pick(request: object) -> str:
        assert isinstance(request, DrawRequest)
        asked.append(tuple(o.key for o in request.options))
        return "bob"

    models = [hero("ann", 2, 3), hero("bob", 4, 3), hero("cat", 9, 0), bandit(1, at(3, 3))]
    (p,) = plan_activation(OPEN, models, dice=[2], picks=pick).proposals
    assert asked == [("ann", "bob")] and (p.action, p.target) == (Action.MELEE, "bob")


def test_a_bandit_that_cannot_get_away_melees_even_on_a_6() -> None:
    """FT-BANDIT-04: "stuck adjacent to a Hero, and could not move away"."""
    tiny = draw(["...", "...", "..."])
    (p,) = plan_activation(tiny, [hero("ann", 1, 1), bandit(1, at(0, 0))], dice=[6]).proposals
    assert (p.action, p.target, p.retreated) == (Action.MELEE, "ann", False)
    assert p.reason == "Bandit 1: next to Ann, rolled 6 but cannot get away: fights Ann hand to hand"


def test_a_wall_between_them_means_no_retreat_roll() -> None:
    """FT-BOARD-03: a Hero on the other side of a Wall is not adjacent, so the Bandit just targets (cover roll only)."""
    models = [hero("ann", 4, 1), bandit(1, at(5, 1))]
    assert not adjacent(HOUSE, models[0].pos, models[1].pos)
    (p,) = plan_activation(HOUSE, models, dice=[6]).proposals
    assert dice_of(p) == [("cover", 6)]


def test_a_bandit_never_retreats_from_a_hero_on_its_rooftop() -> None:
    """FT-BOARD-19: no Retreat roll; it always Melees that Hero."""
    models = [Model("ann", H, Pos.on_roof("1"), "Ann"), bandit(1, Pos.on_roof("1"))]
    (shootout,) = plan_activation(HOUSE, models).shootouts
    (p,) = shootout.proposals
    assert shootout.rooftop and dice_of(p) == [] and (p.action, p.target) == (Action.MELEE, "ann")
    assert p.reason == "Bandit 1: on the rooftop with Ann, never retreats: fights hand to hand"


def test_ko_heroes_neither_pin_nor_draw_fire() -> None:
    """A10, FT-DICE-03: a KO'd Hero is not among the Random Heroes Enemies pick; a Bandit beside one makes no
    Retreat roll."""
    models = [hero("ann", 2, 3, out=True), hero("bob", 9, 3), bandit(1, at(3, 3))]
    (p,) = plan_activation(OPEN, models, dice=[6]).proposals
    assert dice_of(p) == [("cover", 6)] and p.target == "bob"


# ---- FT-BANDIT-05: targeting ---------------------------------------------------------------------------------
def test_targets_go_to_heroes_with_the_fewest_markers_and_the_move_is_the_shortest() -> None:
    """FT-BANDIT-05, FT-DICE-03: Bandit 1 draws a Random Hero between Ann and Bob (the table drew Ann) and moves 1 space to have her in Range;
    Bandit 2 has only Bob to draw (the fewest markers): no draw is asked, it moves 2 spaces. Dice: cover 5, 6."""
    models = [hero("ann", 1, 1), hero("bob", 1, 5), bandit(1, at(8, 3)), bandit(2, at(9, 3))]
    act = plan_activation(OPEN, models, dice=[5, 6], picks=["ann"])
    one, two = act.proposals
    assert (one.target, one.path, one.line) == ("ann", ((8, 3), (7, 2)), ((7, 2), (1, 1)))
    assert (two.target, two.path) == ("bob", ((9, 3), (8, 2), (7, 1)))
    assert one.reason == "Bandit 1: rolled 5, moves 1 space, targets Ann"
    assert two.reason == "Bandit 2: rolled 6, moves 2 spaces, targets Bob"


def test_a_bandit_already_in_range_and_sight_stays_put() -> None:
    (p,) = plan_activation(OPEN, [hero("ann", 1, 1), bandit(1, at(6, 4))], dice=[4]).proposals
    assert p.path == () and p.end == at(6, 4) and p.reason == "Bandit 1: rolled 4, stays, targets Ann"


def test_the_targeting_move_goes_round_walls_and_never_ends_adjacent() -> None:
    """FT-BANDIT-05: Ann hides behind Building 1; the Bandit walks the shortest way to a space with her in Range and
    sight, not adjacent to any Hero, and no shorter move would do."""
    ann, bob = hero("ann", 0, 2), hero("bob", 6, 4)
    start = at(9, 2)
    far = BanditSheet(move=12)
    (p,) = plan_activation(HOUSE, [ann, bob, bandit(1, start)], dice=[5], picks=["ann"], sheet=far).proposals
    assert p.target == "ann" and p.line is not None
    check_path(HOUSE, p.path)
    end = p.end.space
    assert end is not None
    assert not any(spaces_adjacent(HOUSE, end, h) for h in ((0, 2), (6, 4)))
    assert in_range(HOUSE, p.end, ann.pos, 6) is not None
    dist, _ = bfs(HOUSE, [HOUSE.index((9, 2))], blocked={HOUSE.index((0, 2)), HOUSE.index((6, 4))})
    shorter = [
        HOUSE.xy(c) for c, d in enumerate(dist)
        if 0 <= d < len(p.path) - 1 and in_range(HOUSE, at(*HOUSE.xy(c)), ann.pos, 6) is not None
        and not any(spaces_adjacent(HOUSE, HOUSE.xy(c), h) for h in ((0, 2), (6, 4))) and HOUSE.xy(c) != (6, 4)
    ]  # fmt: skip
    assert shorter == []


def test_a_bandit_moves_through_its_own_group_but_not_others() -> None:
    """FT-BANDIT-05: Enemies of its group make way; a Hero (or another group) blocks."""
    corridor = draw(["1111111111", ".........."], rooftops=[[1]])
    models = [hero("ann", 9, 1), bandit(1, at(0, 1)), bandit(2, at(1, 1))]
    one, two = plan_activation(corridor, models, dice=[5, 5], group="gang", sheet=BanditSheet(move=3)).proposals
    assert one.path == ((0, 1), (1, 1), (2, 1), (3, 1))  # through Bandit 2
    assert two.path == ((1, 1), (2, 1), (3, 1), (4, 1))  # through Bandit 1, now at (3,1)
    stranger = Model("x", E, at(1, 1), "Stranger", group="monsters")
    (solo,) = plan_activation(corridor, [hero("ann", 9, 1), bandit(1, at(0, 1)), stranger], dice=[5],
                              group="gang").proposals  # fmt: skip
    assert solo.path == () and solo.action is Action.NONE


def test_out_of_reach_it_falls_back_on_a_hero_in_range_and_sight() -> None:
    """FT-BANDIT-05 step 4: Ann is too far for one Move; a new Random Hero in Range and sight is marked instead."""
    models = [hero("ann", 11, 6), hero("bob", 1, 0), bandit(1, at(3, 0))]
    (p,) = plan_activation(OPEN, models, dice=[5], picks=["ann"], sheet=BanditSheet(move=1)).proposals
    assert p.path == ((3, 0), (4, 0)) and p.target == "bob" and p.action is Action.RANGED
    assert p.reason == "Bandit 1: rolled 5, moves 1 space, cannot get Ann in range and sight, targets Bob"


def test_with_nobody_in_range_and_sight_there_is_no_attack() -> None:
    models = [hero("ann", 11, 6), bandit(1, at(0, 0))]
    (p,) = plan_activation(OPEN, models, dice=[6], sheet=BanditSheet(move=1)).proposals
    assert p.action is Action.NONE and p.target is None and p.end == at(1, 0)
    assert p.reason.endswith("cannot get Ann in range and sight: no attack")


def test_an_off_board_bandit_counts_its_move_from_the_entry_area() -> None:
    """FT-BOARD-22 / FT-M5: off the board it moves on, counting from any of the 3 Entry spaces."""
    board = draw(["." * 12] * 5, entries={"D": [(0, 1), (0, 2), (0, 3)]})
    (p,) = plan_activation(board, [hero("ann", 9, 2), Model("b1", E, Pos.off_board("D"), "Bandit 1")],
                           dice=[6]).proposals  # fmt: skip
    assert p.path[0] in board.entry_areas["D"].spaces and p.end == at(3, 0)
    assert p.reason == "Bandit 1: rolled 6, comes on at Entry Area D and moves 3 spaces, targets Ann"


def test_mission_obstacles_block_moves_and_sight_blockers_block_lines() -> None:
    """FT-BOARD-23: Hanging High's Townsfolk block movement and sight (given by the mission as obstacles)."""
    crowd = [(x, y) for x in (5,) for y in range(7)]
    models = [hero("ann", 8, 3), bandit(1, at(1, 3))]
    (p,) = plan_activation(OPEN, models, dice=[6], blocked=crowd, sight_blockers=crowd).proposals
    assert p.action is Action.NONE and p.path == ()


# ---- FT-BANDIT-07: Cover ------------------------------------------------------------------------------------
def test_on_1_to_3_the_bandit_takes_the_closest_cover_that_still_sees_its_target() -> None:
    """FT-BANDIT-07: rolled 2. Leaning around the corner of Building 1 (1 space + 1 to lean) is closer than the
    Window (4 spaces)."""
    (p,) = plan_activation(HOUSE, [hero("ann", 10, 2), bandit(1, at(3, 5))], dice=[2]).proposals
    assert p.end == Pos((4, 4), lean=(5, 4)) and p.path == ((3, 5), (4, 4))
    assert p.cover == "leaning around the corner of building 1" and p.line == ((5, 4), (10, 2))
    assert p.reason == "Bandit 1: rolled 2, takes cover leaning around the corner of building 1, targets Ann"


def test_cover_behind_a_window_when_the_corner_is_taken() -> None:
    """FT-BANDIT-07 with FT-BOARD-05: townsfolk fill the corner; the Bandit goes in by the Door to the Window."""
    models = [hero("ann", 10, 2), Model("t1", N, at(5, 4)), Model("t2", N, at(5, 3)), bandit(1, at(3, 5))]
    (p,) = plan_activation(HOUSE, models, dice=[2]).proposals
    assert p.path == ((3, 5), (2, 4), (2, 3), (3, 2), (4, 2)) and p.end == at(4, 2)
    assert p.reason == "Bandit 1: rolled 2, takes cover behind the window of building 1, targets Ann"
    (shot,) = plan_activation(HOUSE, models, dice=[2]).shots
    assert shot.line == ((4, 2), (10, 2))


def test_on_4_to_6_it_ignores_cover() -> None:
    (p,) = plan_activation(HOUSE, [hero("ann", 10, 2), bandit(1, at(3, 5))], dice=[5]).proposals
    assert p.cover == "" and p.end == at(4, 4) and p.reason == "Bandit 1: rolled 5, moves 1 space, targets Ann"


def test_no_cover_in_reach_means_a_normal_move() -> None:
    (p,) = plan_activation(OPEN, [hero("ann", 1, 1), bandit(1, at(9, 3))], dice=[1]).proposals
    assert p.reason == "Bandit 1: rolled 1, finds no cover in reach, moves 2 spaces, targets Ann"


def test_a_bandit_that_starts_in_cover_stays_and_picks_among_heroes_it_sees() -> None:
    """FT-BANDIT-07: already in Cover behind the Window, it picks only among Heroes in Range and sight (Bob is
    not) and rolls no Cover die."""
    models = [hero("ann", 10, 2), hero("bob", 0, 0), bandit(1, at(4, 2))]
    (p,) = plan_activation(HOUSE, models).proposals
    assert dice_of(p) == [] and p.path == () and p.target == "ann"
    assert p.reason == "Bandit 1: stays in cover behind the window of building 1, targets Ann"


# ---- FT-BANDIT-06: Firing -----------------------------------------------------------------------------------
def test_one_ranged_attack_per_marker_then_the_markers_go() -> None:
    """FT-BANDIT-06: two markers on Ann, two shots at her; each shot says whether she has a Cover Save."""
    models = [hero("ann", 4, 2), hero("bob", 11, 5), bandit(1, at(10, 1)), bandit(2, at(10, 3)),
              bandit(3, at(11, 0))]  # fmt: skip
    act = plan_activation(HOUSE, models, dice=[6, 6, 6], picks=["ann", "ann"])  # Bandit 2 has only Bob to draw
    (shootout,) = act.shootouts
    assert {m.hero: m.markers for m in shootout.markers} == {"ann": 2, "bob": 1}
    at_ann = [s for s in act.shots if s.target == "ann"]
    assert len(at_ann) == 2 and all(s.target_in_cover for s in at_ann)  # behind the Window (FT-BOARD-05/07)
    assert [s.target for s in act.shots] == ["ann", "ann", "bob"]
    assert all(m.markers == 0 for m in act.models)


# ---- FT-BANDIT-08: rooftop rifles first ----------------------------------------------------------------------
def test_rooftop_bandits_shoot_first_as_their_own_group() -> None:
    """FT-BANDIT-08: the rooftop Bandit resolves its Shootout (Rifle, Range 12, never moving) before the ground
    Bandit moves; the markers are removed in between, so the ground Bandit draws among both Heroes again."""
    board = draw(["............", ".11.........", ".11.........", "............", "............"])
    models = [hero("ann", 11, 4), hero("bob", 6, 0), bandit(1, at(11, 0)), bandit(2, Pos.on_roof("1"))]
    drawn: list[tuple[str, ...]] = []

    def pick(request: object) -> str:
        assert isinstance(request, DrawRequest)
        drawn.append(tuple(o.key for o in request.options))
        return "ann"

    act = plan_activation(board, models, dice=[6], picks=pick)
    roof, ground = act.shootouts
    assert roof.rooftop and not ground.rooftop
    (rifle,) = roof.shots
    assert (rifle.bandit, rifle.weapon.range, rifle.weapon.shots, rifle.target_in_cover) == ("b2", 12, 2, False)
    assert roof.proposals[0].path == () and roof.proposals[0].end == Pos.on_roof("1")
    assert roof.proposals[0].reason == "Bandit 2: Bandit Rifle from the rooftop, targets Ann"
    assert drawn == [("ann", "bob"), ("ann", "bob")]
    assert [s.bandit for s in act.shots] == ["b2", "b1"]


def test_a_rooftop_bandit_with_nobody_in_sight_does_nothing() -> None:
    board = draw(["......", ".11...", ".11...", "......"])
    (p,) = plan_activation(board, [hero("ann", 3, 3), bandit(1, Pos.on_roof("1"))]).proposals
    assert p.action is Action.NONE and p.reason.endswith("no Hero in range and sight, no attack")


# ---- FT-BANDIT-02: Ambush ------------------------------------------------------------------------------------
def test_an_ambush_fills_the_heroes_building_far_from_them_then_the_street() -> None:
    """FT-BANDIT-02: on the selected Hero's Map Tile, as far from any Hero as possible, never adjacent; the rest as
    far as possible on the Map Tiles next to it. The table drew Ann."""
    board = draw([".......", ".111...", ".111...", ".111...", "......."], doors=[((3, 2), (4, 2))])
    models = [hero("ann", 1, 1), hero("bob", 0, 4)]
    result = drive(ambush(Requests(), board, models, ["b1", "b2", "b3", "b4", "b5", "b6"]), picks=["ann"])
    assert result.hero == "ann" and result.unplaced == () and result.initiative_bonus == 2
    spaces = [p.space for p in result.placed]
    assert spaces[:5] == [(3, 3), (3, 2), (2, 3), (3, 1), (1, 3)]  # every free space of Building 1, farthest first
    assert spaces[5] == (6, 4)  # the overflow: the Street space farthest from both Heroes
    assert not any(spaces_adjacent(board, s, h) for s in spaces for h in ((1, 1), (0, 4)))


def test_an_ambush_with_no_room_leaves_bandits_unplaced() -> None:
    tiny = draw(["...", "...", "..."])
    spaces, left = ambush_spaces(tiny, [hero("ann", 1, 1)], hero("ann", 1, 1), 2)
    assert spaces == () and left == 2


def test_an_ambush_around_a_rooftop_hero_uses_the_street() -> None:
    """FT-BOARD-13: a Hero on a rooftop is on the Street Map Tile."""
    board = draw(["......", ".11...", ".11...", "......"])
    spaces, left = ambush_spaces(board, [], Model("ann", H, Pos.on_roof("1"), "Ann"), 1)
    assert left == 0 and board.building_at(spaces[0]) == 0


# ---- FT-BANDIT-09: Infamous Gangs ----------------------------------------------------------------------------
def test_one_gang_card_at_a_time_and_every_bandit_is_one_of_them() -> None:
    """FT-BANDIT-09, FT-FAQ-07: Gang Dynamite has the gun's Range; the Gang's name rides on every reason."""
    hitchcock = Gang("Hitchcock Gang", xp_per_kill=10, bounty_per_kill=25, dynamite=True)
    assert bring_into_play(None, hitchcock) is hitchcock
    with pytest.raises(IllegalCommand, match="only 1 Infamous Bandit Gang card") as caught:
        bring_into_play(hitchcock, Gang("Other Gang"))
    assert caught.value.rule == "FT-BANDIT-09"
    assert dynamite_range(bandit(1, at(0, 0))) == 6 and dynamite_range(bandit(1, Pos.on_roof("1"))) == 12
    assert gang_reward(hitchcock, 2) == (20, 50) and gang_reward(None, 2) == (0, 0)
    (p,) = plan_activation(OPEN, [hero("ann", 1, 1), bandit(1, at(6, 4))], dice=[4], gang=hitchcock).proposals
    assert p.reason == "Bandit 1 (Hitchcock Gang): rolled 4, stays, targets Ann"


# ---- the rule inside the engine ------------------------------------------------------------------------------
def _session(dice: str) -> object:
    from tests.rules.table import hero as sheet_hero

    return new_session([sheet_hero("ann"), sheet_hero("bob")], options=RuleOptions(dice=dice), seed=11)


def test_the_engine_answers_the_rule_from_typed_in_dice() -> None:
    """Every die typed in at the table: the engine's driver answers the same requests (and logs each roll)."""
    models = [hero("ann", 1, 1), hero("bob", 1, 5), bandit(1, at(8, 3)), bandit(2, at(9, 3))]
    state = _session("server")
    run = run_rule(state, RollHazard(dice=((5,), (6,))), lambda ctx, _: activate(ctx, OPEN, models))  # type: ignore[arg-type]
    assert run.pending is None
    rolled = [e.text for e in run.ctx.events if e.type == "rolled"]
    assert rolled == ["Rolled 5 for Cover roll for Bandit 1 (1-3 takes Cover)",
                      "Rolled 6 for Cover roll for Bandit 2 (1-3 takes Cover)"]  # fmt: skip


def test_with_table_dice_the_random_hero_is_a_prompt_and_server_dice_are_repeatable() -> None:
    models = [hero("ann", 1, 1), hero("bob", 1, 5), bandit(1, at(8, 3)), bandit(2, at(9, 3))]
    run = run_rule(_session("table"), RollHazard(), lambda ctx, _: activate(ctx, OPEN, models))  # type: ignore[arg-type]
    assert run.pending is not None and run.pending.prompt.kind == "choice"
    assert [o.key for o in run.pending.prompt.options] == ["ann", "bob"]
    results: list[object] = []

    def rule(ctx: object, _: object) -> object:
        result = yield from activate(ctx, OPEN, models)  # type: ignore[arg-type]
        results.append(result)
        return result

    for _ in range(2):
        assert run_rule(_session("server"), RollHazard(), rule).pending is None  # type: ignore[arg-type]
    assert len(results) == 2 and results[0] == results[1]


def test_typed_in_dice_are_checked() -> None:
    with pytest.raises(InvalidCommand, match="cannot show 7"):
        plan_activation(OPEN, [hero("ann", 2, 3), bandit(1, at(3, 3))], dice=[7])


def test_the_default_board_group_of_six_runs_to_the_end() -> None:
    """Six Bandits on the default board, two on the rooftops: every proposal ends where a model may stand."""
    board = board_named("default")
    models = [hero("hanzo", 12, 12), hero("ann", 8, 13), hero("kim", 16, 11), hero("bob", 3, 9)] + [
        bandit(n, pos) for n, pos in enumerate(
            [at(0, 12), at(22, 12), at(12, 2), Pos.on_roof("7+8"), at(17, 11), Pos.on_roof("3+4")], 1)
    ]  # fmt: skip
    act = plan_activation(board, models, dice=[2, 5, 1, 6, 3, 4, 2, 5, 1, 6], picks=lambda r: r.options[-1].key)
    assert [s.rooftop for s in act.shootouts] == [True, False]
    assert len(act.proposals) == 6
    ends = [p.end for p in act.proposals]
    for p in act.proposals:
        if p.path:
            check_path(board, p.path)
    heroes = [m.pos for m in models if m.side is H]
    for p in act.proposals:
        if p.action is Action.RANGED:
            assert not any(adjacent(board, p.end, h) for h in heroes)
    assert len({e for e in ends if not e.roof}) == len([e for e in ends if not e.roof])


def test_an_activation_survives_the_state_codec() -> None:
    """Proposals ride in the game state and the log: encode and decode give the same values back."""
    from shared_rules.codec import decode, encode

    models = [hero("ann", 2, 3), hero("bob", 9, 0), bandit(1, at(3, 3)), bandit(2, Pos.on_roof("1"))]
    act = plan_activation(HOUSE, models, dice=[5, 2], picks=["ann"])
    assert decode(Activation, encode(act)) == act
