"""Pending choices: what the engine is waiting for, who must answer, and which command answers it.

A rule that needs the table stops at a prompt. The pending record keeps the command that started the rule,
the state before it, and every answer so far, so resuming replays the rule exactly (same answers, same dice).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .commands import Command, Effect, Faces
from .dice import DieKind, Roll
from .meta import meta
from .state import Session


@dataclass(frozen=True, slots=True)
class Option:
    key: str
    label: str


@dataclass(frozen=True, slots=True)
class Prompt:
    """A question for the table. `answer_with` is the one command type that answers it."""

    id: str
    kind: str  # roll | choice | reroll | card
    question: str
    answer_with: str
    hero: str | None = None  # who answers; None = the posse together
    rule: str = ""
    options: tuple[Option, ...] = ()
    purpose: str = ""
    die: DieKind | None = None  # for roll prompts
    dice_count: int = 0
    chart: str = ""  # for card prompts: injury, madness, gear, artifact, world_artifact, ...
    roll: Roll | None = None  # for re-roll offers: the roll that may be re-rolled


@dataclass(frozen=True, slots=True)
class Answer:
    """One recorded answer to a request of a rule: a roll, an option, re-roll indices or a card's effects."""

    kind: str
    roll: Roll | None = None
    option: str = ""
    indices: tuple[int, ...] = ()
    effects: tuple[Effect, ...] = ()
    text: str = ""


@dataclass(frozen=True, slots=True)
class Pending:
    """A rule stopped at `prompt`, to be resumed by replaying `command` from `checkpoint` with `answers`."""

    command: Command
    checkpoint: Session = field(metadata=meta(public=False))  # holds the RNG state: never shown to clients
    answers: tuple[Answer, ...] = field(metadata=meta(public=False))
    events_emitted: int = field(metadata=meta(public=False))
    prompt: Prompt
    dice_left: tuple[Faces, ...] = ()
