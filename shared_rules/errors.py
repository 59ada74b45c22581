"""The engine's own errors: every rejection names the input and the rule, so the edges can map them once."""

from __future__ import annotations


class RulesError(Exception):
    """Base of every error the engine raises on purpose."""

    def __init__(self, message: str, *, field: str = "", rule: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.rule = rule


class InvalidCommand(RulesError):
    """The command is malformed: a wrong type, an unknown field, a die face that no die shows (HTTP 422)."""


class IllegalCommand(RulesError):
    """The command is well formed but the rules do not allow it now (HTTP 409)."""


class ContentError(RulesError):
    """A chart or content pack failed validation when it was loaded."""
