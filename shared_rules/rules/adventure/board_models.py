"""The Adventure's figures as the Town board's models (rules/board), so a Town Mission can hand them to the geometry
and the Shootout AI, and put the AI's positions back.

A `Place` on the Town board: `tile` "street" or "building-N" with the square's x, y; "roof:<key>" on a rooftop
("roof:3+4", FT-BOARD-12/13); "entry:<letter>" off the board at an Entry Area (FT-BOARD-22).
"""

from __future__ import annotations

from ...state import Place, Session
from ..board import Model, Pos, Side
from .common import party_ids

ROOF, ENTRY = "roof:", "entry:"


def board_pos(place: Place | None) -> Pos | None:
    """The board position of a Place, or None when the Place has no square (a Fortress tile, a whole area)."""
    if place is None:
        return None
    if place.tile.startswith(ROOF):
        return Pos.on_roof(place.tile[len(ROOF) :])
    if place.tile.startswith(ENTRY):
        return Pos.off_board(place.tile[len(ENTRY) :])
    if place.x is None or place.y is None:
        return None
    return Pos.at(place.x, place.y)


def place_of(pos: Pos, tile: str = "street") -> Place:
    """The Place of a board position; `tile` names the ground Map Tile the square is on (the board's map_tiles)."""
    if pos.roof:
        return Place(ROOF + pos.roof)
    if pos.entry:
        return Place(ENTRY + pos.entry)
    assert pos.space is not None
    return Place(tile, pos.space[0], pos.space[1])


def board_models(state: Session) -> tuple[Model, ...]:
    """Every hero and figure with a board position, as the board's models (KO'd heroes `out`, A10)."""
    adv = state.adventure
    if adv is None:
        return ()
    out = []
    for hero_id in party_ids(state):
        pos = board_pos(adv.hero(hero_id).place)
        if pos is not None:
            hero = state.hero(hero_id)
            out.append(Model(hero_id, Side.HERO, pos, name=hero.name, out=hero.knocked_out))
    for figure in adv.figures:
        pos = board_pos(figure.place)
        if pos is not None:
            out.append(Model(figure.id, Side(figure.side.value), pos, name=figure.name, group=figure.kind,
                             brutal=figure.brutal))  # fmt: skip
    return tuple(out)
