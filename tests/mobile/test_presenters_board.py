"""The Town board as the phone draws it, on a hand-made mid-shootout (mobile/presenters/board_demo.py: 6 Bandits,
4 Heroes, a Window and a Door in play, the Bandits' activation from typed-in dice): what a player relies on."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from mobile import theme
from mobile.presenters import board_demo
from mobile.presenters.board import (
    PLACE_MODEL,
    BoardInput,
    BoardPresenter,
    Track,
    board_input_from_state,
    moves_from_activation,
    moves_from_events,
    moves_from_log,
)
from shared_rules.codec import decode_command
from shared_rules.commands import PlaceModel, SheetEntry, StartAdventure
from shared_rules.events import BanditPlan, Event, EventType
from shared_rules.rules.board import Pos, board_named
from shared_rules.rules.missions.common import place_of
from shared_rules.state import TrackSpace
from tests.mobile.helpers import hero, offline_table


def presenter(data: BoardInput | None = None) -> BoardPresenter:
    return BoardPresenter(data or board_demo.shootout())


def centre(space: tuple[int, int]) -> tuple[float, float]:
    return space[0] + 0.5, space[1] + 0.5


def test_each_arrow_ends_where_the_AI_says_and_each_line_of_fire_is_aimed_at_its_target_FT_BANDIT_05() -> None:
    activation = board_demo.activation()
    view = presenter().view()
    arrows = {a.bandit: a for a in view.arrows}
    ghosts = {t.id: t for t in view.tokens if t.ghost}
    for proposal in activation.proposals:
        if len(proposal.path) > 1:  # it moves: the arrow follows its path and ends at its destination
            assert arrows[proposal.bandit].points == tuple(centre(s) for s in proposal.path)
            assert proposal.end.space is not None
            assert arrows[proposal.bandit].points[-1] == centre(proposal.end.space)
            assert (ghosts[proposal.bandit].x, ghosts[proposal.bandit].y) == centre(proposal.end.space)
        else:
            assert proposal.bandit not in arrows and proposal.bandit not in ghosts
    fire = {f.bandit: f for f in view.fire}
    heroes = {m.id: m for m in board_demo.HEROES}
    for proposal in activation.proposals:
        assert proposal.target is not None and proposal.end.space is not None
        line = fire[proposal.bandit]
        assert line.target == proposal.target and line.clear
        assert line.frm == centre(proposal.end.space)  # it fires from where it ends
        assert line.to == centre(heroes[proposal.target].pos.spaces[0])
    # Bandit 1 retreats from Hanzo (FT-BANDIT-03) and takes cover behind a Window; Kiri stands in a Door: in cover
    assert arrows["bandit-1"].retreat
    assert fire["bandit-1"].target == "kiri" and fire["bandit-1"].cover  # FT-BOARD-04
    assert "behind the window of building 2" in next(t.text for t in view.turn if t.bandit == "bandit-1")
    assert [t.label for t in view.turn] == ["1", "2", "3", "4", "5", "6"]


def test_a_correction_that_puts_a_wall_in_the_way_draws_the_line_of_fire_blocked_FT_BOARD_03() -> None:
    models = tuple(replace(m, pos=Pos.at(6, 17)) if m.id == "kiri" else m for m in board_demo.MODELS)
    view = presenter(board_demo.shootout(models)).view()  # the table moved Kiri deeper into the Sheriff's Office
    line = next(f for f in view.fire if f.bandit == "bandit-1")
    assert not line.clear and not line.cover
    assert line.block is not None and 9.5 < line.block[1] <= 15.0  # the mark sits on a Wall between them
    turn = next(t for t in view.turn if t.bandit == "bandit-1")
    assert turn.warn and "No line of sight now" in turn.text
    assert all(f.clear for f in view.fire if f.bandit != "bandit-1")


def test_a_tap_selects_a_bandit_and_says_what_it_does_in_the_games_words() -> None:
    board = presenter()
    assert board.tap(*centre((13, 11))) == "selected"
    view = board.view()
    assert view.selected == "bandit-1"
    assert view.sentence.startswith("Bandit 1: next to Hanzo, rolled 5, retreats")
    assert "FT-" not in view.sentence and "(" not in view.sentence
    assert [f.bandit for f in view.fire if f.selected] == ["bandit-1"]
    assert all(f.dimmed for f in view.fire if f.bandit != "bandit-1")
    assert board.tap(*centre((13, 11))) == "unselected"


def test_a_tap_on_a_wall_is_refused_and_a_tap_on_a_free_space_becomes_a_place_model_command() -> None:
    board = presenter()
    board.tap(*centre((13, 11)))  # Bandit 1
    # the Wall between the Street (14, 8) and Building 3 (15, 8) is at x = 15
    assert board.tap(14.97, 4.5) == "refused"
    view = board.view()
    assert view.correction is not None and view.correction.command is None
    assert "Wall" in view.sentence and "tap inside a space" in view.sentence
    assert board.confirm() is None and board.sent == []
    assert board.tap(*centre((14, 11))) == "proposed"
    assert board.view().sentence == "Move Bandit 1 here (in the street)?"
    sent: list[dict[str, object]] = []
    board.send = sent.append
    command = board.confirm()
    assert command == {"type": PLACE_MODEL, "model": "bandit-1", "to": {"tile": "street", "x": 14, "y": 11, "also": ""}}
    assert sent == [command] and isinstance(decode_command(command), PlaceModel)  # what the engine takes
    assert board.view().selected == "" and board.view().correction is None


def test_an_occupied_space_is_refused_naming_who_stands_there_FF_MOVE_02() -> None:
    board = presenter()
    refused = board.propose("bandit-5", (12, 12))
    assert refused.command is None and refused.text == "Hanzo already stands there."
    inside = board.propose("bandit-5", (16, 6))  # inside Building 3: a model may stand there
    assert inside.command is not None and "in building 3" in inside.text
    # a tap on another model while one is selected selects that one instead
    board.tap(*centre((5, 12)))
    assert board.tap(*centre((12, 12))) == "selected" and board.view().selected == "hanzo"


def test_a_bandit_already_moved_shows_where_it_came_from_and_fires_from_where_it_stands() -> None:
    activation = board_demo.activation()
    after = {m.id: m for m in activation.models}
    moved = tuple(after[m.id] for m in board_demo.MODELS)
    view = presenter(board_demo.shootout(moved)).view()
    bandit6 = next(p for p in activation.proposals if p.bandit == "bandit-6")
    ghost = next(t for t in view.tokens if t.ghost and t.id == "bandit-6")
    assert bandit6.start.space is not None and (ghost.x, ghost.y) == centre(bandit6.start.space)
    token = next(t for t in view.tokens if not t.ghost and t.id == "bandit-6")
    assert bandit6.end.space is not None and (token.x, token.y) == centre(bandit6.end.space)


def test_the_status_strip_reads_the_track_and_the_missions_counters() -> None:
    view = presenter().view()
    assert [(s.label, s.value) for s in view.status] == [("Darkness", "4/10"), ("Posse", "6/10"),
                                                         ("Bandits killed", "3")]
    data = replace(board_demo.shootout(), counters={"countdown": 1, "bags": 2, "alerted": 1}, track=None)
    status = presenter(data).view().status
    assert [(s.label, s.value, s.tone) for s in status] == [("Countdown", "1", "warn"), ("Money Bags", "2", "normal")]
    # the missions' own bookkeeping (a Bank Robbery's alarm raised) is not the player's status
    near = replace(board_demo.shootout(), track=Track(darkness=9, posse=3, entrance=10))
    assert presenter(near).view().status[0].tone == "danger"


def test_the_overlay_hides_the_bandits_turn_and_keeps_the_same_close_up() -> None:
    board = presenter()
    shown = board.view()
    board.toggle_overlay()
    hidden = board.view()
    assert not hidden.arrows and not hidden.fire and not hidden.turn and not any(t.ghost for t in hidden.tokens)
    assert hidden.viewport == shown.viewport and shown.viewport[2] == shown.viewport[3] >= 12
    x, y, w, h = shown.viewport
    for token in shown.tokens:  # every model in the close-up
        assert x <= token.x < x + w and y <= token.y < y + h
    board.toggle_whole()
    assert board.view().viewport == (0, 0, 25, 25)


def test_the_board_is_drawn_from_its_geometry_walls_doors_windows_and_the_shared_rooftops_FT_BOARD_12() -> None:
    view = presenter().view()
    board = board_named("default")
    kinds = [s.kind for s in view.segments]
    assert kinds.count("door") == len(board.doors) and kinds.count("window") == len(board.windows)
    assert kinds.count("diagonal door") == 2  # FT-BOARD-06
    assert "shared roof" in kinds  # 3+4 and 7+8 share a rooftop
    assert sum(b.w for b in view.blocks) == 25 * 25
    numbers = {label.text for label in view.labels if label.kind == "building"}
    assert {"2", "3", "5", "7"} <= numbers
    spots = {(int(t.x), int(t.y)) for t in view.tokens}
    assert not any((int(label.x), int(label.y)) in spots for label in view.labels)  # no number under a token


def test_proposals_carried_as_event_data_draw_the_same_turn() -> None:
    activation = board_demo.activation()
    events = [{"bandit": p.bandit, "from": list(p.start.space or ()), "path": [list(s) for s in p.path],
               "to": list(p.end.space or ()), "reason": p.reason, "target": p.target, "shots": 1}
              for p in activation.proposals]  # fmt: skip
    from_events = replace(board_demo.shootout(), moves=moves_from_events(events))
    assert presenter(from_events).view().arrows == presenter().view().arrows
    assert presenter(from_events).view().fire == presenter().view().fire
    keyed = moves_from_events([{"bandit": "bandit-3", "from": [18, 12], "path": [], "to": [18, 12],
                                "reason": "stay", "target": "hanzo"}], {"bandit-3": "Bandit 3", "hanzo": "Hanzo"})
    assert keyed[0].reason == "Bandit 3: stays, targets Hanzo" and keyed[0].action == "ranged"
    assert moves_from_activation(activation)[0].shots == 1


def test_with_no_mission_under_way_the_screen_says_so() -> None:
    view = BoardPresenter(None).view()
    assert view.viewport == (0, 0, 0, 0) and "Town Mission" in view.empty_text


def test_tokens_are_readable_numbers_and_letters_on_their_colours() -> None:
    board = theme.BOARD
    for side in ("hero", "bandit", "neutral"):
        assert theme.contrast(board["token_text"], board[side]) >= 4.5, side
    assert theme.contrast(board["building_text"], board["building"]) >= 4.5


def test_the_table_s_town_mission_is_read_from_the_adventure_state() -> None:
    from shared_rules.state import Adventure, Figure, MissionCounter, PartyHero, Place
    from shared_rules.state.adventure import Side as FigureSide

    adventure = Adventure(
        mission="shootout_in_the_streets",
        heroes=(PartyHero("hanzo", place=Place("street", 12, 12)), PartyHero("kiri", place=Place("roof:3+4"))),
        figures=(Figure("bandit-1", "Bandit 1", place=Place("street", 13, 11), kind="bandit"),
                 Figure("folk", "Townsfolk", FigureSide.NEUTRAL, place=Place("street", 5, 5)),
                 Figure("bandit-2", "Bandit 2", place=Place("entry:D"), kind="bandit")),
        counters=(MissionCounter("kills", 2),),
    )  # fmt: skip
    data = board_input_from_state(adventure, {"hanzo": "Hanzo", "kiri": "Kiri"})
    assert data is not None and data.mission == "Shootout in the Streets"
    view = BoardPresenter(data).view()
    tokens = {t.id: t for t in view.tokens}
    assert (tokens["hanzo"].label, tokens["hanzo"].side) == ("H", "hero")
    assert tokens["kiri"].roof == "3+4" and board_named("default").building_at((int(tokens["kiri"].x),
                                                                                  int(tokens["kiri"].y))) in (3, 4)
    assert tokens["folk"].side == "neutral" and tokens["bandit-2"].entry == "D"
    assert [(s.label, s.value) for s in view.status] == [("Bandits killed", "2")]
    assert board_input_from_state(None) is None and board_input_from_state(Adventure()) is None  # Lost Contact


def test_a_tap_beside_a_token_selects_it_when_nothing_is_selected() -> None:
    board = presenter()
    assert board.tap(14.2, 11.5) == "selected" and board.selected == "bandit-1"  # (14, 11) is beside Bandit 1
    assert board.tap(14.5, 11.5) == "proposed"  # with one selected, the same tap is a correction
    empty = presenter()
    assert empty.tap(20.5, 20.5) == "outside" and "Tap a model first" in empty.view().notice


def test_the_log_s_newest_activation_is_the_bandits_turn_until_something_else_happens() -> None:
    from types import SimpleNamespace as Step

    board = board_named("default")
    plans = tuple(BanditPlan(p.bandit, place_of(board, p.start), p.path, place_of(board, p.end), "advance",
                             p.action.value, p.target or "") for p in board_demo.activation().proposals)  # fmt: skip
    turn = Step(command="activate_bandits", events=tuple(Event(EventType.BANDIT, "", bandit=p) for p in plans))
    fix = Step(command=PLACE_MODEL, events=(Event(EventType.ANSWERED, "Bandit 1 placed"),))
    hero_moves = Step(command="activate", events=(Event(EventType.ANSWERED, "Hanzo moves"),))
    moves = moves_from_log([turn])
    assert [m.end for m in moves] == [p.end for p in board_demo.activation().proposals]
    assert len(moves_from_log([turn, fix])) == 6
    assert moves_from_log([turn, fix, hero_moves]) == ()


def test_a_correction_on_a_real_town_mission_is_applied_and_one_into_a_wall_is_refused(tmp_path: Path) -> None:
    table = offline_table(tmp_path, [hero("ann", "Ann")], dice="server")
    board = BoardPresenter.for_table(table)
    assert "No board yet" in board.view().empty_text and board.tap(3.5, 3.5) == "outside"
    layout = tuple(TrackSpace(n, 3 if n < 3 else 2 if n < 5 else 1) for n in range(8))
    table.submit(StartAdventure(lantern="ann", mission="shootout_in_the_streets", layout=layout,
                                sheets=(SheetEntry("ann", initiative=9),)), label="start")  # fmt: skip
    view = board.view()
    assert {t.id for t in view.tokens} >= {"ann", "bandit-1"}
    ann = next(t for t in view.tokens if t.id == "ann")
    assert board.tap(ann.x, ann.y) == "selected"
    free = (7, 12)
    assert board.tap(free[0] + 0.5, free[1] + 0.5) == "proposed"
    board.confirm()
    assert board.view().notice == ""
    place = next(h.place for h in table.read.adventure.heroes if h.id == "ann")
    assert (place.tile, place.x, place.y) == ("street", 7, 12)  # FT-BOARD-03: the physical board wins
    assert table.read.log[-1].command == PLACE_MODEL  # in the log, undone like any step


def test_a_ghost_where_another_model_stands_is_drawn_without_its_number() -> None:
    data = board_demo.shootout()
    end = next(m for m in data.moves if m.bandit == "bandit-6").end
    assert end.space is not None
    crowded = replace(data, models=data.models + (replace(board_demo.HEROES[0], id="extra", name="Extra",
                                                                pos=Pos(end.space)),))  # fmt: skip
    ghost = next(t for t in presenter(crowded).view().tokens if t.ghost and t.id == "bandit-6")
    assert ghost.label == ""


def test_the_legend_names_what_is_on_the_screen() -> None:
    keys = [item.key for item in presenter().view().legend]
    assert keys[:2] == ["hero", "bandit"] and {"ghost", "arrow", "fire", "cover", "blocked"} <= set(keys)
    assert "shared roof" not in keys  # 3+4's and 7+8's shared Walls lie outside this close-up
    whole = presenter()
    whole.toggle_whole()
    assert "shared roof" in [item.key for item in whole.view().legend]


def test_while_spaces_are_drawn_under_48_dp_a_tap_zooms_in_around_the_finger_then_taps_pick_spaces() -> None:
    """Issue 18: the close-up's 12+ spaces across give a 360 dp phone ~28 dp spaces, under the 48 dp touch target;
    with 6 spaces fitting at 48 dp, the first tap zooms to 6 spaces around the finger, the next ones pick spaces."""
    board = presenter()
    assert board.view().viewport[2] >= 12
    assert board.touch(13.5, 11.5, across=6) == "zoomed" and board.selected == ""
    zoomed = board.view()
    x, y, w, h = zoomed.viewport
    assert zoomed.zoomed and (w, h) == (6, 6) and x <= 13 < x + w and y <= 11 < y + h
    assert board.touch(13.5, 11.5, across=6) == "selected" and board.selected == "bandit-1"
    assert board.touch(14.5, 11.5, across=6) == "proposed"
    board.toggle_whole()  # "Zoom out": back to the close-up it zoomed in on
    assert not board.view().zoomed and board.view().viewport == presenter().view().viewport


def test_spaces_already_48_dp_wide_are_picked_by_the_first_tap() -> None:
    board = presenter()
    across = board.view().viewport[2]  # a tablet: the whole close-up fits at 48 dp a space
    assert board.touch(13.5, 11.5, across=across) == "selected" and not board.view().zoomed


ENGLISH_PROPOSAL_WORDS = ("rolled", "retreats", "takes cover", "targets", "Next to", "next to", "building", "stays",
                          "moves", "space")  # fmt: skip


def test_a_spanish_phone_reads_the_bandits_proposals_and_the_selected_bandit_s_sentence_in_spanish() -> None:
    """The AI's proposals (the real rules, from typed-in dice) are worded from their steps, not the engine's English
    sentence; the English from the steps is the engine's sentence word for word."""
    from mobile import i18n

    activation = board_demo.activation()
    names = {m.id: m.label for m in activation.models}
    assert [m.reason for m in moves_from_activation(activation)] == [p.reason for p in activation.proposals]
    assert any(p.retreated for p in activation.proposals) and any(p.cover for p in activation.proposals)
    i18n.set_language("es")
    try:
        p = BoardPresenter(replace(board_demo.shootout(), moves=moves_from_activation(activation, names)))
        rows = [line.text for line in p.view().turn]
        assert p.tap(*centre((13, 11))) == "selected"  # Bandit 1
        sentence = p.view().sentence
    finally:
        i18n.set_language("en")
    assert len(rows) == 6
    for text in (*rows, sentence):
        assert not [w for w in ENGLISH_PROPOSAL_WORDS if w in text], text
    assert sentence == ("Bandit 1: junto a Hanzo, saca 5, se retira 1 casilla, saca 2, se pone a cubierto tras la "
                        "ventana del edificio 2, apunta a Kiri.")  # fmt: skip
    assert any("sigue a cubierto tras la puerta del edificio 3" in row.lower() for row in rows), rows


def test_a_real_town_shootout_s_bandit_events_carry_their_steps_and_read_in_spanish() -> None:
    """A Shootout on a real Town Mission: the `bandit` events' plans carry each clause as data (the board's list
    was the engine's key plus English words before), and a Spanish phone reads them in Spanish."""
    from types import SimpleNamespace as Step

    from mobile import i18n
    from shared_rules.commands import ActivateBandits
    from tests.rules.missions.test_activation import bandits_up

    t: Any = bandits_up()
    t.do(ActivateBandits())
    for _step in range(40):
        if t.prompt is None:
            break
        if t.prompt.kind.value == "roll":
            t.roll(*([2] * t.prompt.dice_count))
        elif t.prompt.kind.value == "reroll":
            t.keep()
        else:
            t.choose(t.prompt.options[0].key)
    plans = [e.bandit for e in t.events if e.bandit is not None]
    assert plans and all(plan.steps for plan in plans)
    assert any(s.what == "takes_cover" and s.roll == 2 and s.cover for plan in plans for s in plan.steps)
    names = {h.id: h.name for h in t.state.heroes} | {f.id: f.name for f in t.state.adventure.figures}
    turn = Step(command="activate_bandits", events=tuple(e for e in t.events if e.bandit is not None))
    english = [m.reason for m in moves_from_log([turn], names)]
    assert any("rolled 2, takes cover" in text for text in english), english
    i18n.set_language("es")
    try:
        spanish = [m.reason for m in moves_from_log([turn], names)]
    finally:
        i18n.set_language("en")
    assert any("saca 2, se pone a cubierto" in text for text in spanish), spanish
    for text in spanish:
        assert not [w for w in ENGLISH_PROPOSAL_WORDS if w in text], text
