"""Dice: the kinds the rulebooks use, rolls recorded with their purpose, the seeded RNG, and face validation.

A roll either comes from the table (the faces the players' physical dice show, validated here) or from the
session's RNG, whose whole state is one integer kept in the game state, so a replay rolls the same dice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:  # a machine word to mypyc (the compiled build); only an annotation to the interpreter
    from mypy_extensions import i64

from .errors import InvalidCommand
from .frozen import quick
from .meta import meta

_MASK: Final = (1 << 64) - 1


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


PERIL_FACES: Final = (3, 3, 4, 4, 5, 6)


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
        total = 0  # a loop, not sum(): the compiled build adds the faces without calling into Python
        for face in self.faces:
            total += face
        return total

    @property
    def successes(self) -> int:
        """Dice at or above the target (FF-DICE-06)."""
        hits = 0
        for face in self.faces:
            if face >= self.target:
                hits += 1
        return hits

    @property
    def passed(self) -> bool:
        """A skill test passes with at least one success (ambiguity A1)."""
        return self.successes >= 1

    def count(self, *faces: int) -> int:
        """How many dice show one of `faces`, e.g. the 1s of Shadows Out of Time."""
        return sum(1 for face in self.faces if face in faces)

    def with_rerolls(self, indices: tuple[int, ...], new_faces: tuple[int, ...]) -> Roll:
        """The roll after re-rolling `indices` (each die's new face in `new_faces`), which are then re-rolled dice."""
        if len(indices) != len(new_faces):
            raise ValueError(f"{len(indices)} dice re-rolled, {len(new_faces)} new faces")
        faces = list(self.faces)
        rerolled = list(self.rerolled)
        for position in range(len(indices)):
            index = indices[position]
            faces[index] = new_faces[position]
            if index not in rerolled:
                rerolled.append(index)
        rerolled.sort()
        return Roll(self.purpose, self.kind, tuple(faces), self.hero, self.source, self.target, self.chart,
                    tuple(rerolled))  # fmt: skip


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


_GOLDEN: Final = 0x9E3779B97F4A7C15  # SplitMix64's constants
_MIX1: Final = 0xBF58476D1CE4E5B9
_MIX2: Final = 0x94D049BB133111EB


def next_random(state: int) -> tuple[int, int]:
    """SplitMix64: the next RNG state and a 64-bit output; one integer is the whole RNG state."""
    if _IN_WORDS:
        return _next_in_words(state)
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
    count = 1 if kind is DieKind.D6 or kind is DieKind.D3 else die_count(kind, pool)
    if _IN_WORDS:
        return _roll_in_words(state, count, sides, peril)
    faces = []
    for _ in range(count):
        state = (state + _GOLDEN) & _MASK
        z = ((state ^ (state >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        out = (z ^ (z >> 31)) % sides
        faces.append(PERIL_FACES[out] if peril else 1 + out)
    return state, tuple(faces)


def pick_index(state: int, count: int) -> tuple[int, int]:
    """Draw uniformly among `count` things (a Random Hero, a token from the pool)."""
    if _IN_WORDS:
        state, faces = _roll_in_words(state, 1, count, False)
        return state, faces[0] - 1
    state, out = next_random(state)
    return state, out % count


# ---- the state as one machine word, while a command runs -------------------------------------------------------
# The session keeps its RNG state as an integer 0 <= state < 2^64, three in four of which are Python longs; a
# running command (`flow.Ctx`) keeps it as one signed 64-bit word instead, which the compiled build holds unboxed,
# so a roll neither takes a long apart nor builds one. The same faces and the same next state as the above.
def as_word(state: int) -> i64:
    """The RNG state as one signed machine word (the same 64 bits)."""
    return state if state < _SIGN else state - _WRAP


def from_word(word: i64) -> int:
    """The RNG state a machine word holds (`as_word` undone)."""
    return int(word) if word >= 0 else int(word) + _WRAP


def roll_word(word: i64, kind: DieKind, pool: int = 1) -> tuple[i64, tuple[int, ...]]:
    """`roll_faces` on the state as a machine word."""
    if _IN_WORDS:
        if kind is DieKind.D6 or kind is DieKind.D3:  # one die, most of a journey's rolls: no list, no new tuple
            word, out = _draw_word(word, 6)
            return word, _ONE_FACE[1 + out]
        sides, peril = 8 if kind is DieKind.D8 else 6, kind is DieKind.PERIL
        count = die_count(kind, pool)
        if count <= 3 and not peril:  # D36, 2D6 and most skill tests: the tuple made at once, no list
            word, first = _draw_word(word, sides)
            if count == 1:
                return word, _ONE_FACE[1 + first]
            word, second = _draw_word(word, sides)
            if count == 2:
                return word, (1 + first, 1 + second)
            word, third = _draw_word(word, sides)
            return word, (1 + first, 1 + second, 1 + third)
        return _roll_words(word, count, sides, peril)
    state, faces = roll_faces(from_word(word), kind, pool)
    return as_word(state), faces


def pick_word(word: i64, count: int) -> tuple[i64, int]:
    """`pick_index` on the state as a machine word."""
    if _IN_WORDS:
        return _draw_word(word, count)
    state, index = pick_index(from_word(word), count)
    return as_word(state), index


# ---- the same SplitMix64 steps in machine words, for the compiled build -----------------------------------------
# A 64-bit product is a Python long, slow in compiled code (a third of a compiled journey's instructions went to
# rolling dice): here the state is two 32-bit halves and each product is taken in 16-bit pieces, so no value
# reaches 2^36 and mypyc keeps every one in a machine word (i64). Interpreted, the plain steps above are the
# faster; both give the same faces (tests/rules/test_dice.py compares them on both builds).
_IN_WORDS: Final = not __file__.endswith(".py")  # this module was compiled
_SIGN: Final = 1 << 63  # a state at or above it is a negative machine word
_WRAP: Final = 1 << 64
_SIGN32: Final[i64] = 1 << 31
_WRAP32: Final[i64] = 1 << 32
_M32: Final[i64] = 0xFFFFFFFF
_M16: Final[i64] = 0xFFFF
_G_HI: Final[i64] = _GOLDEN >> 32
_G_LO: Final[i64] = _GOLDEN & 0xFFFFFFFF
_A3: Final[i64] = _MIX1 >> 48
_A2: Final[i64] = (_MIX1 >> 32) & 0xFFFF
_A1: Final[i64] = (_MIX1 >> 16) & 0xFFFF
_A0: Final[i64] = _MIX1 & 0xFFFF
_B3: Final[i64] = _MIX2 >> 48
_B2: Final[i64] = (_MIX2 >> 32) & 0xFFFF
_B1: Final[i64] = (_MIX2 >> 16) & 0xFFFF
_B0: Final[i64] = _MIX2 & 0xFFFF


def _roll_in_words(state: int, count: int, sides: int, peril: bool) -> tuple[int, tuple[int, ...]]:
    """`count` SplitMix64 steps from `state`, each output taken modulo `sides` (a face, or a drawn index + 1)."""
    word, faces = _roll_words(as_word(state), count, sides, peril)
    return from_word(word), faces


def _roll_words(word: i64, count: int, sides: int, peril: bool) -> tuple[i64, tuple[int, ...]]:
    """`_roll_in_words` on the state as a machine word."""
    hi: i64 = (word >> 32) & _M32
    lo: i64 = word & _M32
    modulo: i64 = sides
    wrap: i64 = (1 << 32) % modulo  # the high half's weight, modulo `sides`
    faces: list[int] = []
    left: i64 = count  # a machine-word count, not `for _ in range(count)`: mypyc boxes the loop's unused int
    while left > 0:
        hi, lo, out_hi, out_lo = _step(hi, lo)
        out: i64 = ((out_hi % modulo) * wrap + out_lo) % modulo
        faces.append(PERIL_FACES[out] if peril else 1 + int(out))
        left -= 1
    return (hi - _WRAP32 if hi >= _SIGN32 else hi) * _WRAP32 + lo, tuple(faces)


def _draw_word(word: i64, sides: int) -> tuple[i64, int]:
    """One step of `_roll_words` with its output left as an index: the new state and the output modulo `sides`
    (a D6's face - 1, a drawn index), returned without a tuple of faces."""
    modulo: i64 = sides
    hi, lo, out_hi, out_lo = _step((word >> 32) & _M32, word & _M32)
    out: i64 = ((out_hi % modulo) * ((1 << 32) % modulo) + out_lo) % modulo
    return (hi - _WRAP32 if hi >= _SIGN32 else hi) * _WRAP32 + lo, int(out)


_ONE_FACE: Final = tuple((face,) for face in range(9))  # one die's faces as made once, (face,) at index face


def _next_in_words(state: int) -> tuple[int, int]:
    """`next_random` in machine words: the next state and the whole 64-bit output."""
    word = as_word(state)
    hi, lo, out_hi, out_lo = _step((word >> 32) & _M32, word & _M32)
    return from_word((hi - _WRAP32 if hi >= _SIGN32 else hi) * _WRAP32 + lo), int(out_hi) * (1 << 32) + int(out_lo)


def _step(hi: i64, lo: i64) -> tuple[i64, i64, i64, i64]:
    """One SplitMix64 step on the state's halves: the new halves and the output's, every product in 16-bit pieces."""
    lo += _G_LO  # state += golden, with the carry into the high half
    hi = (hi + _G_HI + (lo >> 32)) & _M32
    lo &= _M32
    zh: i64 = hi ^ (hi >> 30)  # z ^= z >> 30
    zl: i64 = lo ^ (((lo >> 30) | (hi << 2)) & _M32)
    z0: i64 = zl & _M16  # z *= MIX1 (mod 2^64), column by column
    z1: i64 = zl >> 16
    z2: i64 = zh & _M16
    z3: i64 = zh >> 16
    column: i64 = z0 * _A0
    r0: i64 = column & _M16
    column = (column >> 16) + z0 * _A1 + z1 * _A0
    r1: i64 = column & _M16
    column = (column >> 16) + z0 * _A2 + z1 * _A1 + z2 * _A0
    r2: i64 = column & _M16
    column = (column >> 16) + z0 * _A3 + z1 * _A2 + z2 * _A1 + z3 * _A0
    zh = ((column & _M16) << 16) | r2
    zl = (r1 << 16) | r0
    zh, zl = zh ^ (zh >> 27), zl ^ (((zl >> 27) | (zh << 5)) & _M32)  # z ^= z >> 27
    z0 = zl & _M16  # z *= MIX2 (mod 2^64)
    z1 = zl >> 16
    z2 = zh & _M16
    z3 = zh >> 16
    column = z0 * _B0
    r0 = column & _M16
    column = (column >> 16) + z0 * _B1 + z1 * _B0
    r1 = column & _M16
    column = (column >> 16) + z0 * _B2 + z1 * _B1 + z2 * _B0
    r2 = column & _M16
    column = (column >> 16) + z0 * _B3 + z1 * _B2 + z2 * _B1 + z3 * _B0
    zh = ((column & _M16) << 16) | r2
    zl = (r1 << 16) | r0
    return hi, lo, zh ^ (zh >> 31), zl ^ (((zl >> 31) | (zh << 1)) & _M32)  # z ^ (z >> 31)


def seed_state(seed: int) -> int:
    """The RNG state for a seed (any integer)."""
    return seed & _MASK
