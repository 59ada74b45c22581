"""A mid-shootout position on the default Town board (4 Heroes, 6 Bandits, a Window and a Door in play) with the
Bandits' activation from typed-in dice: what the presenter tests and the screenshots show."""

from __future__ import annotations

from dataclasses import replace

from shared_rules.rules.bandits import Activation, plan_activation
from shared_rules.rules.board import Model, Pos, Side, board_named

from .board import BoardInput, Track, moves_from_activation

HEROES = (
    Model("hanzo", Side.HERO, Pos.at(12, 12), "Hanzo"),
    Model("kiri", Side.HERO, Pos.at(7, 15), "Kiri"),  # inside the Sheriff's Office, behind its Door
    Model("ama", Side.HERO, Pos.at(13, 14), "Sister Ama"),
    Model("doc", Side.HERO, Pos.at(10, 10), "Doc Lowe"),
)
BANDIT_SPACES = ((13, 11), (17, 9), (18, 12), (9, 6), (5, 12), (12, 18))
BANDITS = tuple(Model(f"bandit-{n}", Side.ENEMY, Pos(space), f"Bandit {n}", group="shootout")
                for n, space in enumerate(BANDIT_SPACES, 1))
MODELS = HEROES + BANDITS
# Bandit 1 rolls 5 to Retreat, then each Bandit's target and Cover roll, in the order the rule asks
DICE = (5, 2, 4, 1, 6, 3)
PICKS = ("kiri", "doc", "doc", "kiri")
COUNTERS = {"kills": 3}  # Shootout in the Streets keeps the Bandits killed


def activation() -> Activation:
    return plan_activation(board_named("default"), MODELS, dice=DICE, picks=PICKS)


def shootout(models: tuple[Model, ...] = MODELS) -> BoardInput:
    """The position with the Bandits' proposed turn, the Posse 3 kills down the track."""
    return BoardInput(board_named("default"), models, moves_from_activation(activation()), dict(COUNTERS),
                      Track(darkness=4, posse=6, entrance=10), "Shootout in the Streets")


def corrected(model: str, space: tuple[int, int]) -> tuple[Model, ...]:
    """The position with one model where the table says it stands."""
    return tuple(replace(m, pos=Pos(space)) if m.id == model else m for m in MODELS)
