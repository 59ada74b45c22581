"""An Adventure under way: the turn, the Depth Track and the Darkness, the models in play (FF-TURN, FF-DEPTH).

Owned by `rules/adventure`; a Town Mission is an Adventure with mission hooks (`rules/missions`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Adventure:
    """Where the posse is in its Adventure (FF-TURN-01)."""

    turn: int = 1
