"""How a rule area plugs into the engine: the commands it runs, where each is legal, and what it lists as legal now.

Each package under `rules/` (travel, town, stay, adventure, missions ...) declares one `Area`; `engine.py` only
iterates them, so a new area is added without touching the others.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..flow import Ctx, Procedure, SkillBonus
from ..legal import LegalCommand
from ..state import Phase, Session


@dataclass(frozen=True, slots=True)
class CommandRule:
    """One command of an area: the rule it runs, the phases it is legal in (none = any), and further legality.

    `check(state, command)` raises IllegalCommand naming the field and rule when the command is not allowed now
    (before anything runs, so nothing is half-applied).
    """

    procedure: Callable[[Ctx, Any], Procedure | None]
    phases: tuple[Phase, ...] = ()
    rule: str = ""
    why: str = ""
    check: Callable[[Session, Any], None] | None = None


@dataclass(frozen=True, slots=True)
class Area:
    """A rule area: its commands by type, the legal commands it offers in a state with no prompt waiting, and
    what it adds to a skill as tested (`Ctx.skill`: Blood Moon's +1 Spirit is the travel area's)."""

    name: str
    commands: Mapping[str, CommandRule] = field(default_factory=dict)
    legal: Callable[[Session], Iterable[LegalCommand]] = lambda state: ()
    skill_bonuses: tuple[SkillBonus, ...] = ()
