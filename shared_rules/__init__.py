"""Brimstone Table's rules engine: pure functions over frozen values, no I/O.

    state = new_session(heroes, seed=7)
    outcome = apply(state, ChooseTownSize("large"))
    legal_commands(outcome.state)

The names below are imported from their modules on first use (PEP 562): importing one module of the package
(`shared_rules.errors`, `shared_rules.meta`) loads that module and what it imports, not the whole engine, so a
service that needs the engine's values only on its first command starts without building them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .codec import decode_command, decode_event, decode_hero, decode_state, encode, encode_event, encode_state
    from .commands import (
        Adjust,
        Arrive,
        Choose,
        ChooseTownSize,
        Command,
        Effect,
        EndTownStay,
        EnterCard,
        Reroll,
        RollDice,
        RollHazard,
    )
    from .dice import DieKind, Roll
    from .engine import Outcome, apply, legal_commands, new_session
    from .errors import ContentError, IllegalCommand, InvalidCommand, RulesError
    from .events import Change, Event, EventType
    from .legal import LegalCommand
    from .prompts import Amount, Option, Part, Prompt, PromptKind, SkillCheck
    from .state import Hero, Item, ItemTag, Phase, RuleOptions, Session, Skills, TownSize

_HOME = {
    "codec": ("decode_command", "decode_event", "decode_hero", "decode_state", "encode", "encode_event",
              "encode_state"),
    "commands": ("Adjust", "Arrive", "Choose", "ChooseTownSize", "Command", "Effect", "EndTownStay", "EnterCard",
                 "Reroll", "RollDice", "RollHazard"),
    "dice": ("DieKind", "Roll"),
    "engine": ("Outcome", "apply", "legal_commands", "new_session"),
    "errors": ("ContentError", "IllegalCommand", "InvalidCommand", "RulesError"),
    "events": ("Change", "Event", "EventType"),
    "legal": ("LegalCommand",),
    "prompts": ("Amount", "Option", "Part", "Prompt", "PromptKind", "SkillCheck"),
    "state": ("Hero", "Item", "ItemTag", "Phase", "RuleOptions", "Session", "Skills", "TownSize"),
}  # fmt: skip
_MODULE_OF = {name: module for module, names in _HOME.items() for name in names}

__all__ = [
    "Adjust", "Amount", "Arrive", "Change", "Choose", "ChooseTownSize", "Command", "ContentError", "DieKind", "Effect",
    "EndTownStay", "EnterCard", "Event", "EventType", "Hero", "IllegalCommand", "InvalidCommand", "Item", "ItemTag",
    "LegalCommand", "Option", "Outcome", "Part", "Phase", "Prompt", "PromptKind", "Reroll", "Roll", "RollDice", "RollHazard",
    "RuleOptions", "RulesError", "Session", "SkillCheck", "Skills", "TownSize", "apply", "decode_command", "decode_event",
    "decode_hero", "decode_state", "encode", "encode_event", "encode_state", "legal_commands", "new_session",
]  # fmt: skip


def __getattr__(name: str) -> Any:
    """A public name from its module (imported now, then kept here), or a submodule (`shared_rules.odds`)."""
    if name.startswith("__"):  # probes for __wrapped__, __file__ and the like: not ours
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = _MODULE_OF.get(name)
    if module is not None:
        value = getattr(importlib.import_module(f".{module}", __name__), name)
    else:
        try:
            value = importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError as missing:
            if missing.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
