"""The Town Adventure Board (FT-BOARD-01..23): the board as validated data and its geometry as small pure functions.

    board = board_named("default")
    sight(board, Pos.at(3, 10), Pos.on_roof("3+4"))         # a line of sight, with its Range, or None
    has_cover(board, target=Pos.at(17, 10), attacker=Pos.at(12, 12))
    shortest_path(board, Pos.at(0, 12), [(12, 12)], blocked=[(5, 12)])
"""

from ...flow import Requests
from .cover import Cover, HitKind, cover, cover_saves, has_cover
from .dynamite import blast_spaces, bounce, dynamite_hits, roof_throw_spaces, throw_targets
from .format import BOARDS, board_named, load_board, register_board, roof_name
from .grid import STREET, Board, DiagonalDoor, EntryArea, Space, roof_key
from .model import Model, Pos, Side
from .moves import (
    adjacent,
    adjacent_spaces,
    check_path,
    check_placement,
    check_position,
    corner_walls,
    edge_spaces,
    entry_front,
    entry_placement,
    fly,
    lean_options,
    map_tiles,
    occupied,
    opening_between,
    openings_of,
    reachable,
    shortest_path,
    spaces_adjacent,
    steps_to_exit,
)
from .rolls import Rolls, drive
from .roofs import (
    Fall,
    climb_down_spaces,
    climb_up,
    enemy_killed_on_roof,
    enemy_reaches_roof,
    fall_spaces,
    hero_wounded_on_roof,
    must_escape_to_leave,
    random_building,
    random_rooftop,
    rooftop_for,
)
from .sight import Sight, distance, in_range, sees, sight, sights

__all__ = [
    "BOARDS", "STREET", "Board", "Cover", "DiagonalDoor", "EntryArea", "Fall", "HitKind", "Model", "Pos",
    "Requests", "Rolls", "Side", "Sight", "Space", "adjacent", "adjacent_spaces", "blast_spaces", "board_named",
    "bounce", "check_path", "check_placement", "check_position", "climb_down_spaces", "climb_up", "corner_walls", "cover", "cover_saves",
    "distance", "drive", "dynamite_hits", "edge_spaces", "enemy_killed_on_roof", "enemy_reaches_roof", "entry_front",
    "entry_placement", "fall_spaces", "fly", "has_cover", "hero_wounded_on_roof", "in_range", "lean_options",
    "load_board", "map_tiles", "must_escape_to_leave", "occupied", "opening_between", "openings_of", "random_building", "random_rooftop",
    "reachable", "register_board", "roof_key", "roof_name", "roof_throw_spaces", "rooftop_for", "sees",
    "shortest_path", "sight", "sights", "spaces_adjacent", "steps_to_exit", "throw_targets",
]  # fmt: skip
