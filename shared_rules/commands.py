"""Commands: one small value per thing a table can ask of the engine. Dice typed in at the table ride along as `dice`.

`dice` on any command is a queue: each entry holds the faces of one roll the rules ask for next, in order;
a D36 may be given as [tens, ones] or as the number (35). What the queue does not cover is rolled by the
session RNG (dice option "server") or asked for with a roll prompt (dice option "table").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, TypeVar

Faces = tuple[int, ...]
_C = TypeVar("_C", bound="type[Command]")


@dataclass(frozen=True, slots=True, kw_only=True)
class Command:
    """What every command shares: its `type` (the JSON discriminator) and the dice the table typed in for it."""

    type: ClassVar[str] = ""
    dice: tuple[Faces, ...] = ()


COMMAND_TYPES: dict[str, type[Command]] = {}  # every command by its `type`, filled by @command
ANSWERS: frozenset[str] = frozenset({"roll", "choose", "reroll", "enter_card"})  # commands that answer a prompt


def command(cls: _C) -> _C:
    """Register a command class under its `type`, so the codec, the engine and the API documents know it."""
    if not cls.type or cls.type in COMMAND_TYPES:
        raise TypeError(f"{cls.__name__}: a command needs a type of its own, not {cls.type!r}")
    COMMAND_TYPES[cls.type] = cls
    return cls


@dataclass(frozen=True, slots=True)
class Effect:
    """A change the physical game made (a card read at the table) or a manual correction, applied by the rules.

    ops: change (field += amount, kept in bounds), set (field = amount, refused out of bounds), add_item,
    remove_item, add_token, remove_token, add_mutation, remove_mutation, add_keyword, remove_keyword,
    tear_bag, repair_bag.
    """

    op: str
    field: str = ""
    amount: int = 0
    name: str = ""
    tags: tuple[str, ...] = ()
    hourglass: int = 0
    dark_stone_upgrades: int = 0


@command
@dataclass(frozen=True, slots=True)
class ChooseTownSize(Command):
    """After an Adventure, pick Small, Medium or Large; the hazard count is rolled at once (FT-TRAVEL-01/02)."""

    type: ClassVar[str] = "choose_town_size"
    size: str


@command
@dataclass(frozen=True, slots=True)
class RollHazard(Command):
    """Roll the next Travel Hazard on the D36 chart and resolve it (FT-TRAVEL-03)."""

    type: ClassVar[str] = "roll_hazard"


@command
@dataclass(frozen=True, slots=True)
class Arrive(Command):
    """Reach town: roll its type, build it, destroy slots, gain Unwanted Attention (FT-TRAVEL-04, FT-TOWN, FT-UA-01).

    `destroyed_slots` adds Buildings destroyed from the start of the Stay for reasons the players give (a failed
    Mission, a card); Void Storms are counted by the engine.
    """

    type: ClassVar[str] = "arrive"
    destroyed_slots: int = 0


@command
@dataclass(frozen=True, slots=True)
class EndTownStay(Command):
    """Leave town for the next Adventure: Unwanted Attention is removed (FT-UA-06), town-stay flags end."""

    type: ClassVar[str] = "end_town_stay"


@command
@dataclass(frozen=True, slots=True)
class Adjust(Command):
    """Record what the physical game changed for one hero (a card, a fight on the board) as an event."""

    type: ClassVar[str] = "adjust"
    hero: str
    effects: tuple[Effect, ...]
    reason: str = ""


@command
@dataclass(frozen=True, slots=True)
class RollDice(Command):
    """Answer a roll prompt: the faces the physical dice show, or none for "roll for me"."""

    type: ClassVar[str] = "roll"
    faces: Faces | None = None
    prompt: str = ""


@command
@dataclass(frozen=True, slots=True)
class Choose(Command):
    """Answer a choice prompt with one of its option keys."""

    type: ClassVar[str] = "choose"
    option: str
    prompt: str = ""


@command
@dataclass(frozen=True, slots=True)
class Reroll(Command):
    """Answer a Grit re-roll offer: the indices of the dice to re-roll for 1 Grit, or none to keep (FF-GRIT-01/02)."""

    type: ClassVar[str] = "reroll"
    indices: tuple[int, ...] = ()
    prompt: str = ""


@command
@dataclass(frozen=True, slots=True)
class EnterCard(Command):
    """Answer a card prompt: what the physical card or chart said, as effects on the prompted hero."""

    type: ClassVar[str] = "enter_card"
    text: str = ""
    effects: tuple[Effect, ...] = ()
    prompt: str = ""


