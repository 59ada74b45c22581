"""Searching and Room Exploration with typed-in dice (FF-SRCH-01, FF-SCAV-01..03, FF-EXPL-01..06, FF-CARD-01, A7)."""

from __future__ import annotations

import pytest

from shared_rules import Effect, IllegalCommand, InvalidCommand
from shared_rules.commands import Activate, EndActivation, RevealToken, Search
from shared_rules.engine import legal_commands
from shared_rules.state import ExplorationToken, MapTile, TileKind, TurnStep
from tests.rules.adventure.helpers import (
    adv,
    enemy,
    events,
    legal_types,
    of,
    place_enemies,
    run,
    set_hero,
    start,
    to_activations,
    with_adventure,
)
from tests.rules.table import Table


def searching(heroes: list, **options: object) -> Table:  # type: ignore[type-arg]
    t = start(heroes, **options)  # type: ignore[arg-type]
    to_activations(t)
    t.do(Activate(heroes[0].id, dice=((2,),)))
    return t


# ---- Looking Through a Door -------------------------------------------------------------------------------------------
def test_looking_through_a_door_places_a_tile_moves_the_party_and_gives_5_xp_FF_EXPL_01_FF_DEPTH_03() -> None:
    t = searching([of("a"), of("b")])
    run(t, Search("a", "door", placed="passage"))
    assert [(tile.id, tile.kind, tile.face_down) for tile in adv(t).tiles][1] == ("tile-1", TileKind.PASSAGE, False)
    assert adv(t).party == 10 and t.hero("a").xp == 5
    assert adv(t).activation is None and adv(t).activated == ("a",)  # the Search ended the activation


def test_the_map_card_is_asked_for_when_neither_pack_nor_command_says_FF_EXPL_01() -> None:
    t = searching([of("a")])
    t.do(Search("a", "door"))
    assert t.prompt is not None and [o.key for o in t.prompt.options] == ["room", "passage", "none"]
    t.choose("none")  # no tile fits: not a Door
    assert len(adv(t).tiles) == 1 and adv(t).party == 11 and t.hero("a").xp == 0


def test_a_room_gets_a_face_down_token_a_passage_never_FF_EXPL_02() -> None:
    t = searching([of("a"), of("b")])
    run(t, Search("a", "door", placed="room"))
    assert adv(t).tile("tile-1").face_down
    run(t, Activate("b", dice=((2,),)))
    run(t, EndActivation("b"))
    assert adv(t).step is TurnStep.EXPLORATION  # revealed in the Room Exploration step: a hero is on the tile
    assert [(c.type, c.options) for c in legal_commands(t.state)][0] == ("reveal_token", ("tile-1",))


def test_no_token_is_revealed_outside_room_exploration_FF_TURN_01() -> None:
    t = searching([of("a"), of("b")])
    run(t, Search("a", "door", placed="room"))
    with pytest.raises(IllegalCommand) as error:
        t.do(RevealToken("tile-1", ExplorationToken()))
    assert error.value.rule == "FF-TURN-01"


def reveal(t: Table, token: ExplorationToken, *dice: tuple[int, ...]) -> None:
    t.do(RevealToken("tile-1", token, dice=dice))


def to_exploration(heroes: list, **options: object) -> Table:  # type: ignore[type-arg]
    t = searching(heroes, **options)
    run(t, Search(heroes[0].id, "door", placed="room"))
    for h in heroes[1:]:
        run(t, Activate(h.id, dice=((2,),)))
        run(t, EndActivation(h.id))
    assert adv(t).step is TurnStep.EXPLORATION
    return t


def test_door_icons_are_rolled_on_the_map_card_and_gates_are_doors_FF_EXPL_03() -> None:
    t = to_exploration([of("a")])
    reveal(t, ExplorationToken(doors=2, gates=1), (1, 4, 6))
    rolled = [e for e in t.events if e.rule == "FF-EXPL-03"]
    assert rolled and rolled[0].roll is not None and rolled[0].roll.faces == (1, 4, 6)
    assert "2 Door(s) and 1 Gate(s)" in events(t, "token_revealed")[0]
    assert adv(t).turn == 2  # then the End of the Turn


def test_an_encounter_or_an_attack_FF_EXPL_04() -> None:
    t = to_exploration([of("a")])
    reveal(t, ExplorationToken(doors=1), (3,))
    assert "Encounter" in events(t, "encounter")[-1]
    t = to_exploration([of("a"), of("b"), of("c")])
    reveal(t, ExplorationToken(doors=1, attack=True), (3,))
    assert "Med Threat card" in events(t, "encounter")[-1]  # 3 heroes: the Med deck (FF-SCALE-01)


def test_attack_draws_the_packs_threat_card_with_a_peril_die_count_FF_EXPL_04_FF_DICE_04() -> None:
    t = to_exploration([of("a"), of("b"), of("c")], use_pack=True)
    t.do(RevealToken("tile-1", ExplorationToken(doors=1, attack=True), dice=((3,), (5,))))
    assert [f.kind for f in adv(t).enemies] == ["tengu"] * 5 and adv(t).fights == 1


def test_the_growing_dread_token_adds_a_card_besides_its_encounter_FF_EXPL_05() -> None:
    t = to_exploration([of("a")])
    reveal(t, ExplorationToken(doors=0, growing_dread=True))
    assert adv(t).growing_dread == 1 and "Encounter" in events(t, "encounter")[-1]


def test_the_second_clue_is_the_objective_doors_and_encounter_ignored_FF_EXPL_06_FF_END_05() -> None:
    t = to_exploration([of("a")])
    reveal(t, ExplorationToken(doors=1, clue=True), (2,))
    assert adv(t).counter("clues") == 1 and "Clue 1 of 2" in events(t, "mission")[-1]
    to_activations(t)
    run(t, Activate("a", dice=((2,),)))
    run(t, Search("a", "door", placed="room"))
    t.do(RevealToken("tile-2", ExplorationToken(doors=2, attack=True, clue=True, growing_dread=True)))
    assert adv(t).counter("objective") == 1 and adv(t).growing_dread == 0  # Growing Dread still counts ...
    assert "reveal the 1 Growing Dread" in events(t, "growing_dread")[-1]  # ... and the stack is revealed (FF-DEPTH-08)
    assert not [e for e in t.events[-6:] if e.rule == "FF-EXPL-03"]  # no exits rolled
    assert "High Threat card" in events(t, "encounter")[-1]  # the final fight, not the token's Attack


def test_the_token_stack_is_the_packs_12_drawn_at_random_FF_EXPL_02() -> None:
    t = to_exploration([of("a")], use_pack=True)
    assert len(adv(t).tokens) == 12
    t.do(RevealToken("tile-1"))
    assert t.prompt is not None and t.prompt.kind == "choice" and len(t.prompt.options) == 12  # the table draws
    t.choose("11")
    assert len(adv(t).tokens) == 11 and adv(t).tile("tile-1").token == ExplorationToken(doors=1, gates=1)


def test_a_typed_token_must_be_left_in_the_packs_stack_FF_EXPL_02() -> None:
    t = to_exploration([of("a")], use_pack=True)
    with pytest.raises(IllegalCommand) as error:
        t.do(RevealToken("tile-1", ExplorationToken(doors=4)))
    assert error.value.rule == "FF-EXPL-02"
    t = to_exploration([of("a")])
    with pytest.raises(InvalidCommand) as error:
        t.do(RevealToken("tile-1"))
    assert error.value.field == "token"


def test_the_map_deck_discards_what_does_not_fit_and_reshuffles_when_empty_FF_CARD_01() -> None:
    t = searching([of("a")], use_pack=True)
    with_adventure(t, map_deck=("Room 1", "Passage 1"), map_discard=("Room 2",))
    t.do(Search("a", "door"))
    t.choose("Passage 1")  # drawn
    t.choose("overlaps")  # does not fit: discarded, draw again
    assert adv(t).map_discard == ("Room 2", "Passage 1")
    t.choose("fits")  # only Room 1 is left untried: no prompt for the draw
    assert t.prompt is None and adv(t).tiles[-1].name == "Room 1"
    assert adv(t).map_deck == () and adv(t).map_discard == ("Room 2", "Passage 1")


def test_when_the_deck_runs_out_its_discard_pile_is_the_new_deck_FF_CARD_01() -> None:
    t = searching([of("a")], use_pack=True)
    with_adventure(t, map_deck=(), map_discard=("Room 2", "Room 3"))
    t.do(Search("a", "door"))
    assert any(e.rule == "FF-CARD-01" for e in t.events)
    t.choose("Room 3")
    t.choose("fits")
    assert adv(t).map_deck == ("Room 2",) and adv(t).tiles[-1].name == "Room 3"


def test_when_no_tile_fits_the_exit_is_no_door_FF_EXPL_01() -> None:
    t = searching([of("a")], use_pack=True)
    with_adventure(t, map_deck=("Room 1",), map_discard=())
    t.do(Search("a", "door"))
    t.choose("overlaps")
    assert t.prompt is None and len(adv(t).tiles) == 1 and "not a Door" in events(t, "tile_placed")[-1]


# ---- Scavenging -------------------------------------------------------------------------------------------------------
def test_scavenge_rolls_3_dice_and_a_card_per_6_FF_SCAV_01() -> None:
    t = searching([of("a"), of("b")])
    t.do(Search("a", "scavenge", dice=((6, 2, 6),)))
    assert adv(t).tile("entrance").scavenged == 1
    assert t.prompt is not None and t.prompt.chart == "scavenge"
    t.card("Gold", Effect("change", "gold", 10))
    t.card("Nothing")
    assert t.prompt is None and t.hero("a").gold == 10


def test_scavenge_without_a_6_finds_nothing_and_places_no_marker_A7() -> None:
    t = searching([of("a"), of("b")])
    run(t, Search("a", "scavenge", dice=((5, 2, 1),)))
    assert adv(t).tile("entrance").scavenged == 0


def test_grit_may_reroll_a_scavenge_that_found_nothing_each_die_once_FF_SCAV_01_FF_GRIT_02() -> None:
    t = searching([of("a", max_grit=2), of("b")], rerolls=True)
    t.do(Search("a", "scavenge", dice=((5, 2, 1),)))
    assert t.prompt is not None and t.prompt.kind == "reroll"
    t.reroll(1, 2)
    t.roll(6, 3)
    assert t.prompt is not None and t.prompt.chart == "scavenge"  # no second offer: no Grit is left
    t.card("Nothing")
    assert t.hero("a").grit == 0 and adv(t).tile("entrance").scavenged == 1


def test_grit_rerolls_are_offered_after_a_6_while_a_die_is_not_yet_rerolled_FF_GRIT_02_FF_SCAV_01() -> None:
    """Issue 20: each 6 is a card, so a 6 among the dice does not end the offer; only each die's one re-roll does."""
    t = searching([of("a", max_grit=2), of("b")], rerolls=True)
    set_hero(t, "a", grit=2)
    t.do(Search("a", "scavenge", dice=((6, 2, 1),)))
    assert t.prompt is not None and t.prompt.kind == "reroll"  # a 6 shows; the 2 and the 1 may become 6s
    t.reroll(1)
    t.roll(6)
    assert t.prompt is not None and t.prompt.kind == "reroll"  # the 1 is still a first roll
    t.reroll(2)
    t.roll(4)
    assert t.prompt is not None and t.prompt.chart == "scavenge"  # every die that missed was re-rolled once
    t.card("Nothing")
    t.card("Nothing")
    assert t.hero("a").grit == 0 and t.prompt is None


@pytest.mark.parametrize(("heroes", "limit"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_scavenges_per_tile_by_posse_size_counting_successes_FF_SCAV_02_FF_SCALE_02_A7(heroes: int, limit: int) -> None:
    posse = [of(chr(ord("a") + i)) for i in range(heroes)]
    t = searching(posse)
    with_adventure(t, tiles=(MapTile("entrance", TileKind.ENTRANCE, scavenged=limit - 1),))
    run(t, Search("a", "scavenge", dice=((1, 1, 1),)))  # a failed try places no marker and does not count (A7)
    assert adv(t).tile("entrance").scavenged == limit - 1
    t = searching(posse)
    with_adventure(t, tiles=(MapTile("entrance", TileKind.ENTRANCE, scavenged=limit - 1),))
    t.do(Search("a", "scavenge", dice=((6, 1, 1),)))
    t.card("Nothing")
    assert adv(t).tile("entrance").scavenged == limit
    t = searching(posse)
    with_adventure(t, tiles=(MapTile("entrance", TileKind.ENTRANCE, scavenged=limit),))
    with pytest.raises(IllegalCommand) as error:
        t.do(Search("a", "scavenge"))
    assert error.value.rule == "FF-SCAV-02"
    assert [c.options for c in legal_commands(t.state) if c.type == "search"] == [("door",)]


def test_the_scavenge_deck_is_shuffled_before_every_draw_FF_SCAV_03() -> None:
    t = searching([of("a"), of("b"), of("c")], use_pack=True)
    t.do(Search("a", "scavenge", dice=((6, 6, 6),)))
    assert t.prompt is not None and len(t.prompt.options) == 3  # the whole deck
    t.choose("0")
    assert len(t.prompt.options) == 2  # one draw of 3 cards: different cards
    t.choose("1")  # the last card is the only one left: no draw to make
    assert t.prompt is None and t.hero("a").gold == 25 and t.hero("a").wounds == 1
    run(t, Activate("b", dice=((2,),)))
    t.do(Search("b", "scavenge", dice=((6, 1, 1),)))
    assert t.prompt is not None and len(t.prompt.options) == 3  # the next draw: the whole deck again


# ---- no Search in a Fight or on an unrevealed token ------------------------------------------------------------------
def test_no_search_in_a_fight_FF_TURN_05_FF_SRCH_01() -> None:
    t = searching([of("a")])
    place_enemies(t, enemy())
    for kind in ("scavenge", "door"):
        with pytest.raises(IllegalCommand) as error:
            t.do(Search("a", kind))
        assert error.value.rule == "FF-SRCH-01" and "Fight" in error.value.message
    assert "search" not in legal_types(t)


def test_no_search_on_a_tile_with_an_unrevealed_token_FF_SRCH_01() -> None:
    t = searching([of("a"), of("b")])
    run(t, Search("a", "door", placed="room"))
    run(t, Activate("b", dice=((2,),)))
    from shared_rules.commands import Move
    from tests.rules.adventure.helpers import on

    run(t, Move("b", 1, to=on("tile-1")))
    with pytest.raises(IllegalCommand) as error:
        t.do(Search("b", "door"))
    assert (error.value.field, error.value.rule) == ("hero", "FF-SRCH-01")


def test_bad_search_kinds_are_refused() -> None:
    t = searching([of("a")])
    with pytest.raises(InvalidCommand) as error:
        t.do(Search("a", "loot"))
    assert error.value.field == "kind"
    with pytest.raises(InvalidCommand):
        t.do(Search("a", "door", placed="cave"))


def test_a_map_card_name_without_the_packs_deck_needs_what_it_showed() -> None:
    t = searching([of("a")])
    with pytest.raises(InvalidCommand) as error:
        t.do(Search("a", "door", name="Shrine"))
    assert error.value.field == "placed"
    run(t, Search("a", "door", placed="room", name="Shrine"))
    assert adv(t).tiles[-1].name == "Shrine"
