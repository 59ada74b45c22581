"""The game state as frozen values: a posse of heroes, the road, the town, what carries over, and the pending choice.

Every change makes a new value (`dataclasses.replace`); the caller keeps the old one for undo.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

from .meta import meta

if TYPE_CHECKING:
    from .prompts import Pending

SKILLS = ("agility", "cunning", "spirit", "strength", "lore", "luck")
HERO_CLASSES = ("Samurai Warrior", "Assassin", "Traveling Monk", "Sorceress")  # the four FF classes
SIDE_BAG_CAPACITY = 5  # FF-HERO-08
TORN_BAG_PENALTY = 2  # FT-TRAVEL-D12


class Phase(str, Enum):
    """Where the posse is in the campaign."""

    BETWEEN_ADVENTURES = "between_adventures"  # after an Adventure, before choosing a Town size (FT-TRAVEL-01)
    TRAVEL = "travel"  # rolling and resolving Travel Hazards (FT-TRAVEL-02/03)
    ARRIVAL = "arrival"  # travel over, the town not yet built (FT-TRAVEL-04)
    TOWN = "town"  # the Town Stay


class TownSize(str, Enum):
    SMALL = "small"
    MEDIUM = "medium"
    LARGE = "large"


class ItemTag(str, Enum):
    """Item metadata the travel hazards read (FT-HERO-04)."""

    TRANSPORT = "transport"
    CLOTHING = "clothing"
    PERSONAL = "personal"
    GEAR = "gear"
    ARTIFACT = "artifact"
    DARK_STONE = "dark_stone"  # has a Dark Stone icon
    STARTING = "starting"  # a Starting Item: never traded (FF-HERO-07)


@dataclass(frozen=True, slots=True)
class Item:
    """An item card a hero carries, with the icons and keywords the rules read."""

    id: str
    name: str
    tags: frozenset[ItemTag] = frozenset()
    hourglass: int = 0  # black hourglass icons (Raging River, FT-TRAVEL-D42)
    dark_stone_upgrades: int = 0  # Dark Stone upgrades attached (HellBats, FT-TRAVEL-D33)

    @property
    def carries_dark_stone(self) -> bool:
        return ItemTag.DARK_STONE in self.tags or self.dark_stone_upgrades > 0


@dataclass(frozen=True, slots=True)
class Skills:
    agility: int = 2
    cunning: int = 2
    spirit: int = 2
    strength: int = 2
    lore: int = 2
    luck: int = 2


@dataclass(frozen=True, slots=True)
class Hero:
    """One hero's sheet and running totals (FF-HERO-01, FF-HERO-10, FT-HERO-01..03)."""

    id: str
    name: str
    hero_class: str = ""
    level: int = 1
    skills: Skills = Skills()
    defense: int = 4  # saving roll N+ against Hits (FF-HERO-04)
    willpower: int = 4  # saving roll N+ against Sanity Damage / Corruption Hits (FF-HERO-05)
    health_base: int = 10
    health_mod: int = 0  # permanent gains and losses (FT-HERO-01)
    wounds: int = 0
    sanity_base: int = 10
    sanity_mod: int = 0
    sanity_damage: int = 0
    grit: int = 1
    max_grit: int = 2
    xp: int = 0
    gold: int = 0
    corruption: int = 0
    dark_stone: int = 0
    mutations: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    items: tuple[Item, ...] = ()
    side_bag: tuple[str, ...] = ()
    bag_torn: bool = False  # Bleached Bones: capacity -2 until repaired (FT-TRAVEL-D12)
    unwanted_attention: int = 0
    wanted: int = 0  # 0 none, 1 Wanted!, 2 Most Wanted! (FT-WANTED-01)
    scratch_deal: bool = False  # accepted Mr. Scratch's deal (FT-TRAVEL-D66, A50)
    removed: bool = False  # taken from the game for good

    @property
    def max_health(self) -> int:
        return max(0, self.health_base + self.health_mod)

    @property
    def max_sanity(self) -> int:
        return max(0, self.sanity_base + self.sanity_mod)

    @property
    def health_left(self) -> int:
        return self.max_health - self.wounds

    @property
    def sanity_left(self) -> int:
        return self.max_sanity - self.sanity_damage

    @property
    def side_bag_capacity(self) -> int:
        return SIDE_BAG_CAPACITY - (TORN_BAG_PENALTY if self.bag_torn else 0)

    @property
    def knocked_out(self) -> bool:
        """Health or Sanity at 0 (FF-HERO-02, FF-HERO-03)."""
        return self.health_left <= 0 or self.sanity_left <= 0

    @property
    def effective_keywords(self) -> tuple[str, ...]:
        """While Wanted!, Outlaw replaces Law (FT-WANTED-03, FT-FAQ-09)."""
        if not self.wanted:
            return self.keywords
        kept = tuple(k for k in self.keywords if k.lower() not in ("law", "outlaw"))
        return (*kept, "Outlaw")

    def has_keyword(self, keyword: str) -> bool:
        return keyword.lower() in (k.lower() for k in self.effective_keywords)

    def dark_stone_carried(self) -> int:
        """Shards plus items with a Dark Stone icon or Dark Stone upgrades (FT-TRAVEL-D33)."""
        return self.dark_stone + sum(1 for item in self.items if item.carries_dark_stone)


@dataclass(frozen=True, slots=True)
class Carry:
    """Travel results that carry into the Town Stay or the next Adventure (FT-TRAVEL-05)."""

    dark_stone_bonus: int = 0  # 24 Dark Stone Convoy: +$25 per shard sold
    destroyed_on_arrival: int = 0  # 26 Void Storm: 2 Random Buildings per storm
    max_days: int = 0  # 45 Bridge Destroyed: at most 2 Days (0 = no limit)
    army_convoy: bool = False  # 54: +1 on Camp Site Hazard and Town Event rolls
    dying_marshal: bool = False  # 62: D3 UA on arrival, and the duel option
    extra_revive_tokens: int = 0  # 16 Shadows Out of Time (next Adventure)
    blood_moon: bool = False  # 25: +1 Spirit, Depth Events add Growing Dread (until end of next Adventure)


@dataclass(frozen=True, slots=True)
class Travel:
    """The journey under way: the size aimed for and who rolls each hazard (FT-TRAVEL-02/03)."""

    size: TownSize
    rollers: tuple[str, ...] = ()  # the hero who generated each hazard, in order
    resolved: int = 0
    turned_back: bool = False  # Raging River: changed to a Small Town (FT-TRAVEL-D42)
    hazards: tuple[int, ...] = ()  # D36 results met so far

    @property
    def remaining(self) -> int:
        return 0 if self.turned_back else len(self.rollers) - self.resolved


@dataclass(frozen=True, slots=True)
class Slot:
    """A numbered Building Slot on the Town Map (FT-TOWN-01)."""

    number: int
    location: str
    destroyed: bool = False


@dataclass(frozen=True, slots=True)
class Town:
    """The town the posse reached: size, Specialty type and its Buildings (FT-TOWN-01..05)."""

    size: TownSize
    town_type: str
    type_roll: int
    slots: tuple[Slot, ...] = ()
    day: int = 0


@dataclass(frozen=True, slots=True)
class RuleOptions:
    """Readings where players plausibly differ (rules-reference ambiguities); defaults are the reference's."""

    dice: str = "server"  # "server": the session RNG rolls what the table did not type in; "table": ask for each roll
    offer_grit_rerolls: bool = True  # after a skill test, offer Grit re-rolls of the hero's own dice (FF-GRIT-01)
    warlord_price_first: bool = True  # 36: roll the D6x$50 price before choosing to pay or test (A8)
    plus_one_is_permanent: bool = True  # 34/51: "+1 Health/Sanity" raises the max (A41)
    mimic_beast_solo_skips_second: bool = True  # 21 with one hero: skip the "other" hero (A11)
    scarlet_shadow_literal: bool = True  # 66/1-2: Grit recovery when no Gold was actually lost (A51)
    horror_hit_sanity: int = 1  # 61: Sanity Damage per unsaved Horror Hit (Willpower saves)


def _no_pending() -> Pending | None:
    return None


@dataclass(frozen=True, slots=True)
class Session:
    """The whole state of one table: options, posse, road, town, carried flags, RNG and the pending prompt."""

    heroes: tuple[Hero, ...]
    options: RuleOptions = RuleOptions()
    phase: Phase = Phase.BETWEEN_ADVENTURES
    travel: Travel | None = None
    town: Town | None = None
    carry: Carry = Carry()
    rng: int = field(default=0, metadata=meta(public=False))  # never shown: a client could predict the dice
    step: int = 0  # commands applied; prompt ids derive from it
    pack: str = "default"  # the content pack in use
    pending: Pending | None = field(default_factory=_no_pending)

    def hero(self, hero_id: str) -> Hero:
        for hero in self.heroes:
            if hero.id == hero_id:
                return hero
        raise KeyError(hero_id)

    @property
    def active_heroes(self) -> tuple[Hero, ...]:
        return tuple(hero for hero in self.heroes if not hero.removed)
