"""The Bandits' Shootout AI (FT-BANDIT-01..09) on the Town Adventure Board.

    activation = yield from activate(ctx, board, models)        # inside a command: every die typed in or rolled
    plan_activation(board, models, dice=[2, 5], picks=["hanzo"])  # the same decisions from given dice
"""

from .activation import (
    Action,
    Activation,
    Ambush,
    Die,
    Marks,
    Placed,
    Proposal,
    Shootout,
    Shot,
    activate,
    ambush,
    plan_activation,
)
from .ai import (
    Aim,
    Scene,
    adjacent_heroes,
    aim,
    ambush_spaces,
    fewest_marked,
    in_sight,
    moved,
    retreat_path,
    rooftop_heroes,
    scene,
    starts_in_cover,
)
from .stats import (
    BANDIT_PISTOL,
    DEFAULT_SHEET,
    BanditSheet,
    Gang,
    Weapon,
    bandit_rifle,
    bring_into_play,
    dynamite_range,
    gang_reward,
    weapon_of,
)

__all__ = [
    "BANDIT_PISTOL", "DEFAULT_SHEET", "Action", "Activation", "Aim", "Ambush", "BanditSheet", "Die", "Gang", "Marks",
    "Placed", "Proposal",
    "Scene", "Shootout", "Shot", "Weapon", "activate", "adjacent_heroes", "aim", "ambush", "ambush_spaces",
    "bandit_rifle", "bring_into_play", "dynamite_range", "fewest_marked", "gang_reward", "in_sight", "moved",
    "plan_activation", "retreat_path", "rooftop_heroes", "scene", "starts_in_cover", "weapon_of",
]  # fmt: skip
