"""The game state as frozen values: a posse of heroes, the road, the town, the Town Stay, the Adventure, what carries
over, and the pending choice. One module per concept; every name is importable from `shared_rules.state`.

Every change makes a new value (`dataclasses.replace`); the caller keeps the old one for undo.
"""

from . import adventure, hero, road, session, stay
from .adventure import Adventure
from .hero import HERO_CLASSES, SIDE_BAG_CAPACITY, SKILLS, TORN_BAG_PENALTY, Hero, Item, ItemTag, Skills
from .road import Carry, Slot, Town, TownSize, Travel
from .session import Phase, RuleOptions, Session
from .stay import Bounty, DailyEvent, DieLie, Lodger, Lodging, Stay, StayStage, Visit, Wheel, WheelDie

MODULES = (hero, road, stay, adventure, session)  # the codec and the schema generators read every dataclass here

__all__ = [
    "HERO_CLASSES", "MODULES", "SIDE_BAG_CAPACITY", "SKILLS", "TORN_BAG_PENALTY", "Adventure", "Carry", "Hero", "Item",
    "ItemTag", "Phase", "RuleOptions", "Session", "Skills", "Slot", "Stay", "Town", "TownSize", "Travel", "Bounty",
    "DailyEvent", "DieLie", "Lodger", "Lodging", "StayStage", "Visit", "Wheel", "WheelDie",
]  # fmt: skip
