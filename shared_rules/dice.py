"""Dice: the kinds the rulebooks use, rolls recorded with their purpose, the seeded RNG, and face validation.

A roll either comes from the table (the faces the players' physical dice show, validated here) or from the
session's RNG, whose whole state is one integer kept in the game state, so a replay rolls the same dice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from .errors import InvalidCommand
from .frozen import evolve, quick
from .meta import meta

_MASK = (1 << 64) - 1


class DieKind(str, Enum):
    """What was rolled; the faces of a roll are always the physical dice."""

    D3 = "d3"  # a D6 read 1-2 -> 1, 3-4 -> 2, 5-6 -> 3 (FF-DICE-02)
    D6 = "d6"
    D8 = "d8"  # FF-DICE-03
    TWO_D6 = "2d6"  # FF-DICE-05
    D36 = "d36"  # tens die and ones die (FT-DICE-01)
    PERIL = "peril"  # faces 3,3,4,4,5,6 (FF-DICE-04)
    POOL = "pool"  # n D6, e.g. a skill test (FF-DICE-06) or "a D6 for each ..."
    INJURY_3D6 = "3d6-drop-lowest"  # Stampede's Injury roll (FT-TRAVEL-D41)


PERIL_FACES = (3, 3, 4, 4, 5, 6)


@quick
@dataclass(frozen=True, slots=True)
class Roll:
    """One roll as it landed: its purpose, who rolled it, the faces, and what was re-rolled (FF-GRIT-02)."""

    purpose: str
    kind: DieKind
    faces: tuple[int, ...]
    hero: str | None = None
    source: str = field(default="server", metadata=meta(choices=("server", "table"), enum="RollSource"))  # who rolled
    target: int = 0  # a skill test's N in "N+" (0 when not a test)
    chart: bool = False  # a chart roll: never re-rolled with Grit (FF-GRIT-04)
    rerolled: tuple[int, ...] = ()  # indices of faces already re-rolled

    @property
    def value(self) -> int:
        """The number the rules read from the faces."""
        kind = self.kind
        if kind is DieKind.D3:
            return (self.faces[0] + 1) // 2
        if kind is DieKind.D36:
            return 10 * self.faces[0] + self.faces[1]
        if kind is DieKind.INJURY_3D6:
            return sum(self.faces) - min(self.faces)
        if kind is DieKind.POOL and self.target:
            return self.successes
        return sum(self.faces)

    @property
    def successes(self) -> int:
        """Dice at or above the target (FF-DICE-06)."""
        return sum(1 for face in self.faces if face >= self.target)

    @property
    def passed(self) -> bool:
        """A skill test passes with at least one success (ambiguity A1)."""
        return self.successes >= 1

    def count(self, *faces: int) -> int:
        """How many dice show one of `faces`, e.g. the 1s of Shadows Out of Time."""
        return sum(1 for face in self.faces if face in faces)

    def with_rerolls(self, indices: tuple[int, ...], new_faces: tuple[int, ...]) -> Roll:
        """The roll after re-rolling `indices`; refuses a die already re-rolled (FF-GRIT-02)."""
        faces = list(self.faces)
        for index, face in zip(indices, new_faces, strict=True):
            faces[index] = face
        return evolve(self, {"faces": tuple(faces), "rerolled": tuple(sorted({*self.rerolled, *indices}))})


def die_count(kind: DieKind, pool: int = 1) -> int:
    """How many physical dice a roll of `kind` shows."""
    if kind in (DieKind.TWO_D6, DieKind.D36):
        return 2
    if kind is DieKind.INJURY_3D6:
        return 3
    if kind is DieKind.POOL:
        return pool
    return 1


def face_range(kind: DieKind) -> tuple[int, ...]:
    """The faces one physical die of `kind` can show."""
    if kind is DieKind.D8:
        return (1, 2, 3, 4, 5, 6, 7, 8)
    if kind is DieKind.PERIL:
        return (3, 4, 5, 6)
    return (1, 2, 3, 4, 5, 6)


def validate_faces(kind: DieKind, faces: object, pool: int, *, field: str, purpose: str) -> tuple[int, ...]:
    """Check faces typed in at the table: the right number of dice, each a face that die really shows."""
    if isinstance(faces, int) and not isinstance(faces, bool) and kind is DieKind.D36:
        faces = (faces // 10, faces % 10)  # "35" typed as one number
    if not isinstance(faces, (list, tuple)) or not all(
        isinstance(face, int) and not isinstance(face, bool) for face in faces
    ):
        raise InvalidCommand(f"{field}: dice for {purpose!r} must be a list of whole numbers", field=field)
    expected = die_count(kind, pool)
    if len(faces) != expected:
        raise InvalidCommand(
            f"{field}: {purpose!r} needs {expected} {kind.value} dice, got {len(faces)}",
            field=field,
            rule="FF-DICE-01",
        )
    allowed = face_range(kind)
    for index, face in enumerate(faces):
        if face not in allowed:
            rule = {DieKind.PERIL: "FF-DICE-04", DieKind.D36: "FT-DICE-01", DieKind.D8: "FF-DICE-03"}.get(
                kind, "FF-DICE-01"
            )
            raise InvalidCommand(
                f"{field}[{index}]: a {kind.value} die cannot show {face} (faces {allowed[0]}-{allowed[-1]}"
                + (", the Peril Die shows 3,3,4,4,5,6" if kind is DieKind.PERIL else "")
                + f") for {purpose!r}",
                field=f"{field}[{index}]",
                rule=rule,
            )
    return tuple(faces)


_GOLDEN, _MIX1, _MIX2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB  # SplitMix64's constants


def next_random(state: int) -> tuple[int, int]:
    """SplitMix64: the next RNG state and a 64-bit output; one integer is the whole RNG state."""
    state = (state + _GOLDEN) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * _MIX1) & _MASK
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK
    return state, z ^ (z >> 31)


def roll_faces(state: int, kind: DieKind, pool: int = 1) -> tuple[int, tuple[int, ...]]:
    """Roll the physical dice of `kind` with the seeded RNG; returns the new RNG state and the faces.

    Each die is one `next_random` step, written out here (a bulk run rolls ~80 dice a journey): the same faces."""
    sides = 8 if kind is DieKind.D8 else 6
    peril = kind is DieKind.PERIL
    faces = []
    for _ in range(1 if kind is DieKind.D6 or kind is DieKind.D3 else die_count(kind, pool)):
        state = (state + _GOLDEN) & _MASK
        z = ((state ^ (state >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        out = (z ^ (z >> 31)) % sides
        faces.append(PERIL_FACES[out] if peril else 1 + out)
    return state, tuple(faces)


def pick_index(state: int, count: int) -> tuple[int, int]:
    """Draw uniformly among `count` things (a Random Hero, a token from the pool)."""
    state, out = next_random(state)
    return state, out % count


def seed_state(seed: int) -> int:
    """The RNG state for a seed (any integer)."""
    return seed & _MASK
