"""The Adventure screen: the turn and its step, the Depth Track as spaces with marks and markers, Hold Back the
Darkness from the table's two dice, the activation order, and the big button for the next step."""

from __future__ import annotations

from pathlib import Path

from mobile.presenters.adventure import AdventureAction, AdventurePresenter
from shared_rules import RollDice
from shared_rules.state import TurnStep
from tests.mobile.helpers import hero
from tests.mobile.phases import in_adventure


def test_the_track_is_drawn_space_by_space_with_both_markers_FF_DEPTH_01(tmp_path: Path) -> None:
    table = in_adventure(tmp_path, [hero("ann", "Ann"), hero("bob", "Bob")])
    view = AdventurePresenter(table).view()
    assert view.active and view.title == "Lost Contact" and view.turn.startswith("Turn 1")
    assert len(view.track) == 12 and view.track[0].darkness and view.track[-1].party
    assert view.track[0].label == "Darkness Start" and view.track[-1].label == "Entrance"
    assert [s.mark for s in view.track if s.mark] == ["blood_spatter", "growing_dread", "blood_spatter",
                                                       "growing_dread"]
    assert view.track[-1].target == 7 and view.track[0].target == 9  # Stage targets (FF-DEPTH-04)
    assert "Hero Party on space 11, the Darkness on 0" in view.track_text and "needs 7+" in view.track_text
    assert not view.board  # Lost Contact is played on Map Tiles, not the Town Adventure Board


def test_hold_back_the_darkness_is_two_taps_on_the_table_dice_FF_DEPTH_05(tmp_path: Path) -> None:
    table = in_adventure(tmp_path, [hero("ann", "Ann"), hero("bob", "Bob")])
    adventure = AdventurePresenter(table)
    view = adventure.view()
    assert view.main is not None and view.main.key == "hbtd" and view.dice == (None, None)
    assert any(a.key == "flee" for a in view.others)  # the flee window comes first (FF-TURN-02)
    adventure.tap_die(4)
    assert adventure.view().dice == (4, None) and table.snapshot.version == 0
    adventure.tap_die(4)  # doubles: a Depth Event, the Darkness does not move
    state = table.snapshot.state
    assert state.adventure.darkness == 0
    while (prompt := table.snapshot.pending) is not None:  # the Depth Event the table reads out
        table.submit(RollDice((3, 4)) if prompt.kind == "roll" else __import__("shared_rules").EnterCard())
    assert "doubles" in adventure.view().hbtd


def test_activations_follow_initiative_and_one_tap_ends_them_FF_TURN_03(tmp_path: Path) -> None:
    table = in_adventure(tmp_path, [hero("ann", "Ann"), hero("bob", "Bob")], initiative=(3, 6))
    adventure = AdventurePresenter(table)
    adventure.tap_die(3)
    adventure.tap_die(5)
    view = adventure.view()
    assert "8, held" in view.hbtd and view.order == ("Bob", "Ann")
    assert view.main is not None and view.main.key == "activate" and view.main.arg == "bob"
    assert [h.state for h in view.heroes] == ["waiting", "next"] and view.heroes[0].lantern
    adventure.act()
    table.submit(RollDice((4,)))  # the Move roll
    view = adventure.view()
    assert view.main.key == "end_activation" and "Move 4" in view.main.label
    assert {a.key for a in view.others} >= {"scavenge", "door", "boost"}
    adventure.act()
    view = adventure.view()
    assert view.main.key == "activate" and view.main.arg == "ann" and view.order == ("Ann",)
    assert table.snapshot.state.adventure.step is TurnStep.ACTIVATIONS


def test_the_next_hero_s_move_die_is_one_tap_that_ends_the_activation_before_it_R_ADV_05(tmp_path: Path) -> None:
    table = in_adventure(tmp_path, [hero("ann", "Ann"), hero("bob", "Bob"), hero("cy", "Cy")], initiative=(3, 6, 2))
    adventure = AdventurePresenter(table)
    assert adventure.view().move is None  # Hold Back the Darkness first
    adventure.tap_die(3)
    adventure.tap_die(5)
    view = adventure.view()
    assert view.move is not None and (view.move.arg, view.move.label) == ("bob", "Bob activates: tap the Move die")
    adventure.tap_move(4)  # one tap: Bob activates with a Move of 4 (FF-MOVE-01)
    adv = table.snapshot.state.adventure
    assert adv.activation is not None and adv.activation.figure == "bob" and adv.activation.move.faces == (4,)
    view = adventure.view()
    assert view.main is not None and view.main.key == "end_activation"  # Bob may still Search, Attack or end
    assert view.move is not None and view.move.arg == "ann"  # Ann's Move die beside it
    adventure.tap_move(2)
    adv = table.snapshot.state.adventure
    assert adv.activated == ("bob",) and adv.activation.figure == "ann"  # Bob's activation ended (R-ADV-05)
    from mobile.presenters.log import step_label  # what the Log's undo names: both

    assert step_label(table.snapshot.log[-1], table.read.names) == \
        "Bob's activation ends (the next model activates); Ann activates"
    adventure.tap_move(6)
    view = adventure.view()
    assert view.move is None and view.main.key == "end_activation" and view.main.arg == "cy"  # the last: ended


def test_class_resources_show_against_their_sheet(tmp_path: Path) -> None:
    from dataclasses import replace

    samurai = replace(hero("ann", "Ann"), hero_class="Samurai Warrior")
    table = in_adventure(tmp_path, [samurai, hero("bob", "Bob")], sheet={"ann": {"max_fury": 3}})
    ann, bob = AdventurePresenter(table).view().heroes
    assert ann.figures.startswith("Health ") and "Grit 1/" in ann.figures  # Grit 1 at the start (A6)
    assert ann.resources == "Fury 0/3" and bob.resources == ""  # FF-SAM-01: only the sheet's own resources


def test_between_adventures_the_setup_types_the_track_and_the_sheets_FF_SETUP_01(tmp_path: Path) -> None:
    from dataclasses import replace

    from shared_rules.state import SpaceMark
    from tests.mobile.helpers import offline_table

    samurai = replace(hero("ann", "Ann"), hero_class="Samurai Warrior")
    table = offline_table(tmp_path, [samurai, hero("bob", "Bob")])
    adventure = AdventurePresenter(table)
    setup = adventure.view().setup
    assert setup is not None and [a.key for a in setup.lantern] == ["lantern", "lantern"]
    assert [n.key for n in setup.numbers] == ["length", "stage1", "stage3", "ann.initiative", "ann.max_fury",
                                              "bob.initiative"]  # what the default pack lacks
    assert [s.target for s in setup.track] == [9] * 4 + [8] * 4 + [7] * 4  # Stages counted from each end
    adventure.do(next(a for a in setup.lantern if a.arg == "bob"))
    adventure.cycle_mark(3)  # Blood Spatter
    adventure.cycle_mark(5)
    adventure.cycle_mark(5)  # Growing Dread
    adventure.step("bob.initiative", +3)
    adventure.step("length", -20)  # kept to what a board can show
    adventure.step("length", +6)
    setup = adventure.view().setup
    assert setup.lantern[1].label.startswith("● ") and setup.start.arg == "bob"
    assert [n.value for n in setup.numbers if n.key in ("length", "bob.initiative")] == [10, 7]
    assert adventure.do(setup.start)
    adv = table.snapshot.state.adventure
    assert adv is not None and adv.lantern == "bob" and len(adv.track.spaces) == 10
    assert adv.track.spaces[3].mark is SpaceMark.BLOOD_SPATTER and adv.track.spaces[5].mark is SpaceMark.GROWING_DREAD
    assert adv.hero("ann").sheet.max_fury == 3 and adv.hero("bob").sheet.initiative == 7
    assert not adventure.do(AdventureAction("board", "Board"))  # the board screen is opened by the app


def test_room_exploration_types_the_token_the_pack_lacks_FF_EXPL_02(tmp_path: Path) -> None:
    from shared_rules import Choose

    table = in_adventure(tmp_path, [hero("ann", "Ann"), hero("bob", "Bob")])
    adventure = AdventurePresenter(table)
    adventure.tap_die(3)
    adventure.tap_die(5)
    adventure.act()  # Ann activates
    table.submit(RollDice((4,)))
    adventure.do(next(a for a in adventure.view().others if a.key == "door"))  # Look Through a Door
    table.submit(Choose("room"))  # the Map card showed a Room: its token waits face down
    adventure.act()  # Bob
    table.submit(RollDice((2,)))
    adventure.act()  # ends Bob's activation: Room Exploration
    view = adventure.view()
    assert [n.key for n in view.token] == ["token.doors", "token.gates"] and len(view.token_flags) == 3
    adventure.step("token.doors", +1)
    adventure.do(next(a for a in view.token_flags if a.arg == "clue"))
    view = adventure.view()
    assert view.main is not None and view.main.key == "reveal" and "2 Door(s)" in view.main.label
    assert "an Encounter, Clue" in view.main.label
    adventure.act()
    tile = next(t for t in table.snapshot.state.adventure.tiles if t.token is not None)
    assert tile.token.doors == 2 and tile.token.clue and not tile.face_down


def test_enemies_typed_from_the_card_then_wounded_one_tap_each_FF_TURN_05(tmp_path: Path) -> None:
    table = in_adventure(tmp_path, [hero("ann", "Ann"), hero("bob", "Bob")])
    adventure = AdventurePresenter(table)
    assert any(a.key == "enemies" for a in adventure.view().others)
    assert not adventure.add_enemies("Void Hound", "2", "", "5") and "Health" in table.notice.text
    assert adventure.add_enemies("Void Hound", "2", "3", "5")
    view = adventure.view()
    assert view.enemies == ("Void Hound 1: 0 of 3 Wounds", "Void Hound 2: 0 of 3 Wounds") and len(view.wound) == 2
    adventure.do(view.wound[0])
    assert adventure.view().enemies[0] == "Void Hound 1: 1 of 3 Wounds"
    assert adventure.view().order[-2:] == ("Void Hound 1", "Void Hound 2")  # never two that read the same


def test_a_mission_on_the_town_adventure_board_offers_the_board_screen(tmp_path: Path,
                                                                         monkeypatch: object) -> None:
    """FT-BOARD-01: a town mission is played on the Town Adventure Board; its screen (`board`) is opened from here."""
    from mobile.presenters.adventure import BOARD_SCREEN
    from shared_rules.rules.adventure import MISSIONS
    from shared_rules.rules.adventure.lost_contact import LostContact

    class OnTheTownBoard(LostContact):
        key = "lost_contact"
        board = "town"

    monkeypatch.setitem(MISSIONS, "lost_contact", OnTheTownBoard())  # type: ignore[attr-defined]
    table = in_adventure(tmp_path, [hero("ann", "Ann"), hero("bob", "Bob")])
    view = AdventurePresenter(table).view()
    board = [a for a in view.others if a.key == "board"]
    assert view.board and len(board) == 1 and board[0].label == "Board" and BOARD_SCREEN == "board"
    assert not AdventurePresenter(table).do(board[0])  # the app opens the screen; nothing is sent


def test_the_monk_rings_his_bell_in_one_tap_once_FF_MONK_02(tmp_path: Path) -> None:
    from dataclasses import replace

    monk = replace(hero("cy", "Cy"), hero_class="Traveling Monk")
    table = in_adventure(tmp_path, [monk, hero("bob", "Bob")], sheet={"cy": {"max_ki": 3}})
    adventure = AdventurePresenter(table)
    cy = adventure.view().heroes[0]
    bell = next(a for a in cy.actions if a.key == "bell")
    assert adventure.do(bell)
    assert table.snapshot.state.adventure.hero("cy").bell_rung
    assert not any(a.key == "bell" for a in adventure.view().heroes[0].actions)  # once per Adventure
