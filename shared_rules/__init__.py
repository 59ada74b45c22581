"""Brimstone Table's rules engine: pure functions over frozen values, no I/O.

    state = new_session(heroes, seed=7)
    outcome = apply(state, ChooseTownSize("large"))
    legal_commands(outcome.state)
"""

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

__all__ = [
    "Adjust", "Amount", "Arrive", "Change", "Choose", "ChooseTownSize", "Command", "ContentError", "DieKind", "Effect",
    "EndTownStay", "EnterCard", "Event", "EventType", "Hero", "IllegalCommand", "InvalidCommand", "Item", "ItemTag",
    "LegalCommand", "Option", "Outcome", "Part", "Phase", "Prompt", "PromptKind", "Reroll", "Roll", "RollDice", "RollHazard",
    "RuleOptions", "RulesError", "Session", "SkillCheck", "Skills", "TownSize", "apply", "decode_command", "decode_event",
    "decode_hero", "decode_state", "encode", "encode_event", "encode_state", "legal_commands", "new_session",
]  # fmt: skip
