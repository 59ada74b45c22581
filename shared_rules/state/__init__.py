"""The game state as frozen values: a posse of heroes, the road, the town, the Town Stay, the Adventure, what carries
over, and the pending choice. One module per concept; every name is importable from `shared_rules.state`.

Every change makes a new value (`frozen.replace`, as `dataclasses.replace` does); the caller keeps the old one for undo.
"""

from . import adventure, hero, road, session, stay
from .adventure import (
    STAGE_TARGETS,
    Activation,
    Adventure,
    ClassSheet,
    DepthTrack,
    ExplorationToken,
    Figure,
    MapTile,
    MissionCounter,
    PartyHero,
    Place,
    Side,
    SpaceMark,
    TileKind,
    TrackSpace,
    TurnStep,
)
from .hero import (
    HERO_CLASSES,
    HERO_FIELDS,
    MAX_SKILL,
    SIDE_BAG_CAPACITY,
    SKILLS,
    TORN_BAG_PENALTY,
    Hero,
    Item,
    ItemTag,
    Skills,
    bounded,
    bounds,
)
from .road import Carry, Slot, Town, TownSize, Travel
from .session import Phase, RuleOptions, Session
from .stay import Bounty, DailyEvent, DieLie, Lodger, Lodging, Stay, StayStage, Visit, Wheel, WheelDie

MODULES = (hero, road, stay, adventure, session)  # the codec and the schema generators read every dataclass here

__all__ = [
    "Activation", "Adventure", "Bounty", "Carry", "ClassSheet", "DailyEvent", "DepthTrack", "DieLie",
    "ExplorationToken", "Figure", "HERO_CLASSES", "HERO_FIELDS", "Hero", "Item", "ItemTag", "Lodger", "Lodging", "MAX_SKILL",
    "MODULES", "MapTile", "MissionCounter", "PartyHero", "Phase", "Place", "RuleOptions", "SIDE_BAG_CAPACITY", "SKILLS",
    "STAGE_TARGETS", "Session", "Side", "Skills", "Slot", "SpaceMark", "Stay", "StayStage", "TORN_BAG_PENALTY",
    "TileKind", "Town", "TownSize", "TrackSpace", "Travel", "TurnStep", "Visit", "Wheel", "WheelDie", "bounded",
    "bounds",
]  # fmt: skip
