"""What the service itself writes into a table's log besides engine commands: the opening of the table and undos.
Part of the API model like the engine's values, so both documents type a log entry's command the same way."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from shared_rules.commands import Command
from shared_rules.meta import meta
from shared_rules.state import Hero, RuleOptions


def _packs() -> tuple[str, ...]:
    from shared_rules.content import PACKS

    return tuple(sorted(PACKS))


@dataclass(frozen=True)
class SessionOpened:
    """The opening of a table (version 0 of its log): the posse, rule options and content pack (not the seed)."""

    type: ClassVar[str] = "create_session"
    heroes: tuple[Hero, ...]
    options: RuleOptions
    pack: str = field(metadata=meta(choices=_packs, enum="Pack"))


@dataclass(frozen=True)
class UndoRecord:
    """An undo in the log: how many versions it went back and the version whose state it wrote again."""

    type: ClassVar[str] = "undo"
    steps: int = field(metadata=meta(minimum=1))
    to_version: int = field(metadata=meta(minimum=0, maximum=2**31 - 1))


LogCommand = Command | SessionOpened | UndoRecord
LOG_COMMAND = "What made a version: an engine command, the opening of the table (version 0), or an undo."
