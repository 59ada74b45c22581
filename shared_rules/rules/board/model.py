"""Models on the board as frozen values: where each stands (a space, split between two spaces, a rooftop, or off the
board at an Entry Area), which side it is on, and what the Shootout rules read from it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .grid import Space


@dataclass(frozen=True, slots=True)
class Pos:
    """Where a model is.

    - on the ground: `space`;
    - splitting a space (Leaning around a corner or in a doorway, FT-BOARD-08/09): `space` and `lean`, both occupied;
    - in a Diagonal Door space or leaning in a doorway: `facing`, the Map Tile it faces (0 the Street, n Building n);
    - on a Rooftop: `roof`, the rooftop's key ("3+4"), no space (FT-BOARD-13);
    - off the board, about to come on at an Entry Area: `entry` ("A"), no space (FT-BOARD-22).
    """

    space: Space | None = None
    lean: Space | None = None
    facing: int | None = None
    roof: str = ""
    entry: str = ""

    @staticmethod
    def at(x: int, y: int, *, facing: int | None = None) -> Pos:
        return Pos((x, y), facing=facing)

    @staticmethod
    def on_roof(key: str) -> Pos:
        return Pos(roof=key)

    @staticmethod
    def off_board(letter: str) -> Pos:
        return Pos(entry=letter)

    @property
    def spaces(self) -> tuple[Space, ...]:
        """The ground spaces the model stands in: one, two when splitting a space, none on a roof or off the board."""
        if self.space is None:
            return ()
        return (self.space,) if self.lean is None else (self.space, self.lean)

    @property
    def on_ground(self) -> bool:
        return self.space is not None

    def describe(self) -> str:
        if self.roof:
            return f"rooftop {self.roof}"
        if self.entry:
            return f"off the board at Entry Area {self.entry}"
        assert self.space is not None
        where = f"({self.space[0]},{self.space[1]})"
        return where if self.lean is None else f"{where}/({self.lean[0]},{self.lean[1]})"


class Side(str, Enum):
    HERO = "hero"
    ENEMY = "enemy"
    NEUTRAL = "neutral"  # blocks movement, is never a target here (Townsfolk, a Horse, the Escaped Prisoner ...)


@dataclass(frozen=True, slots=True)
class Model:
    """A model on the board: what the geometry and the Shootout AI read (FT-BANDIT-01..09)."""

    id: str
    side: Side
    pos: Pos
    name: str = ""
    group: str = ""  # an Enemy group: members make way for one another when moving (FT-BANDIT-05)
    markers: int = 0  # Shootout markers on a Hero (FT-BANDIT-05)
    out: bool = False  # KO'd: never picked as a Random Hero by Enemies (A10)
    brutal: bool = False  # the Brutal side of the Record Sheet (a Rooftop Rifle then has Shots 3, FT-BANDIT-08)

    @property
    def label(self) -> str:
        return self.name or self.id
