"""A hero's sheet and running totals, and the items and skills the rules read (FF-HERO, FT-HERO)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from ..frozen import evolve
from ..meta import meta

SKILLS = ("agility", "cunning", "spirit", "strength", "lore", "luck")
HERO_CLASSES = ("Samurai Warrior", "Assassin", "Traveling Monk", "Sorceress")  # the four FF classes
SIDE_BAG_CAPACITY = 5  # FF-HERO-08
TORN_BAG_PENALTY = 2  # FT-TRAVEL-D12
BLEEDING_HEALTH = 3  # each Bleeding marker lowers total Health by 3 (FF-HERO-11)


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

    id: str = field(metadata=meta(min_length=1, example="peace-pipe"))
    name: str = field(metadata=meta(example="Peace Pipe"))
    tags: frozenset[ItemTag] = frozenset()
    hourglass: int = field(default=0, metadata=meta(minimum=0))  # black hourglass icons (Raging River, FT-TRAVEL-D42)
    dark_stone_upgrades: int = field(default=0, metadata=meta(minimum=0))  # Dark Stone upgrades attached (HellBats, FT-TRAVEL-D33)

    @property
    def carries_dark_stone(self) -> bool:
        return ItemTag.DARK_STONE in self.tags or self.dark_stone_upgrades > 0


@dataclass(frozen=True, slots=True)
class Skills:
    """The six skills, each 0-12: a test rolls that many dice (FF-DICE-06)."""

    agility: int = field(default=2, metadata=meta(minimum=0, maximum=12))
    cunning: int = field(default=2, metadata=meta(minimum=0, maximum=12))
    spirit: int = field(default=2, metadata=meta(minimum=0, maximum=12))
    strength: int = field(default=2, metadata=meta(minimum=0, maximum=12))
    lore: int = field(default=2, metadata=meta(minimum=0, maximum=12))
    luck: int = field(default=2, metadata=meta(minimum=0, maximum=12))

    def level(self, skill: str) -> int:
        """The named skill's level (one of `SKILLS`): what a test of it rolls."""
        if skill == "agility":
            return self.agility
        if skill == "cunning":
            return self.cunning
        if skill == "spirit":
            return self.spirit
        if skill == "strength":
            return self.strength
        if skill == "lore":
            return self.lore
        if skill == "luck":
            return self.luck
        raise ValueError(f"skill: {skill!r} is not one of {', '.join(SKILLS)}")


@dataclass(frozen=True, slots=True)
class Hero:
    """One hero's sheet and running totals (FF-HERO-01, FF-HERO-10, FT-HERO-01..03)."""

    id: str = field(metadata=meta(min_length=1, max_length=128, example="hanzo"))
    name: str = field(metadata=meta(pattern=r"\S", example="Hanzo"))  # not blank
    hero_class: str = ""
    level: int = field(default=1, metadata=meta(minimum=1, maximum=99))
    skills: Skills = Skills()
    defense: int = field(default=4, metadata=meta(minimum=1, maximum=7))  # saving roll N+ against Hits (FF-HERO-04)
    willpower: int = field(default=4, metadata=meta(minimum=1, maximum=7))  # saving roll N+ against Sanity Damage / Corruption Hits (FF-HERO-05)
    health_base: int = field(default=10, metadata=meta(minimum=1, maximum=99))
    health_mod: int = field(default=0, metadata=meta(minimum=-99, maximum=99))  # permanent gains and losses (FT-HERO-01)
    wounds: int = field(default=0, metadata=meta(minimum=0, maximum=198))  # at most Health (FF-HERO-02)
    sanity_base: int = field(default=10, metadata=meta(minimum=1, maximum=99))
    sanity_mod: int = field(default=0, metadata=meta(minimum=-99, maximum=99))
    sanity_damage: int = field(default=0, metadata=meta(minimum=0, maximum=198))  # at most Sanity (FF-HERO-03)
    grit: int = field(default=1, metadata=meta(minimum=0, maximum=12))  # at most Max Grit (FF-GRIT-07)
    max_grit: int = field(default=2, metadata=meta(minimum=0, maximum=12))
    xp: int = field(default=0, metadata=meta(minimum=0))
    gold: int = field(default=0, metadata=meta(minimum=0))
    corruption: int = field(default=0, metadata=meta(minimum=0, maximum=99))
    dark_stone: int = field(default=0, metadata=meta(minimum=0, maximum=99))
    mutations: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    items: tuple[Item, ...] = ()
    side_bag: tuple[str, ...] = field(default=(), metadata=meta(max_items=SIDE_BAG_CAPACITY))  # FF-HERO-08
    bag_torn: bool = False  # Bleached Bones: capacity -2 until repaired (FT-TRAVEL-D12)
    unwanted_attention: int = field(default=0, metadata=meta(minimum=0, maximum=99))
    wanted: int = field(default=0, metadata=meta(minimum=0, maximum=2))  # 0 none, 1 Wanted!, 2 Most Wanted! (FT-WANTED-01)
    scratch_deal: bool = False  # accepted Mr. Scratch's deal (FT-TRAVEL-D66, A50)
    removed: bool = False  # taken from the game for good
    bleeding: int = field(default=0, metadata=meta(minimum=0, maximum=99))  # Bleeding markers: -3 total Health each until removed with Grit (FF-HERO-11)

    def with_value(self, name: str, value: Any) -> Hero:
        """This hero with one field set (`replace(hero, **{name: value})`), the field named at run time: every
        change to a hero's counters goes through it (the compiled build writes the copy out)."""
        return evolve(self, {name: value})

    @property
    def max_health(self) -> int:
        return max(0, self.health_base + self.health_mod - BLEEDING_HEALTH * self.bleeding)

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
        """Health or Sanity at 0 (FF-HERO-02, FF-HERO-03): `health_left <= 0 or sanity_left <= 0`, written out
        (the turn order asks it of every hero at every command of a bulk Adventure)."""
        return (max(0, self.health_base + self.health_mod - BLEEDING_HEALTH * self.bleeding) <= self.wounds
                or max(0, self.sanity_base + self.sanity_mod) <= self.sanity_damage)

    @property
    def effective_keywords(self) -> tuple[str, ...]:
        """While Wanted!, Outlaw replaces Law (FT-WANTED-03, FT-FAQ-09)."""
        if not self.wanted:
            return self.keywords
        kept = tuple(k for k in self.keywords if k.lower() not in ("law", "outlaw"))
        return (*kept, "Outlaw")

    def has_keyword(self, keyword: str) -> bool:
        """Keywords mean nothing alone; rules read them (FF-HERO-06): Law/Outlaw at the Sheriff's Office and the
        Smuggler's Den, the Scarlet Shadow, Jail Break's start; read as they stand (Wanted! gives Outlaw, FT-WANTED-03)."""
        return keyword.lower() in (k.lower() for k in self.effective_keywords)

    def dark_stone_carried(self) -> int:
        """Shards plus items with a Dark Stone icon or Dark Stone upgrades (FT-TRAVEL-D33)."""
        return self.dark_stone + sum(1 for item in self.items if item.carries_dark_stone)


HERO_FIELDS = (
    "xp", "gold", "wounds", "sanity_damage", "grit", "max_grit", "corruption", "dark_stone",
    "health_mod", "sanity_mod", "health_base", "sanity_base", "unwanted_attention", "wanted", "level",
    "defense", "willpower", "bleeding",
)  # fmt: skip
"""The counters on a hero's sheet an effect may change or set (the skills are the others)."""
MAX_SKILL = 12

# Counters that become dice pools ("a D6 for each ...") get a ceiling no table reaches, so no pool explodes.
_CEILINGS = {"dark_stone": 99, "corruption": 99, "unwanted_attention": 99, "max_grit": 12, "level": 99,
             "health_base": 99, "sanity_base": 99, "health_mod": 99, "sanity_mod": 99, "bleeding": 99}  # fmt: skip


def bounds(hero: Hero, field: str) -> tuple[int, int | None]:
    """The lowest and highest value (None: no ceiling) `hero` may have in counter `field`."""
    low, high = 0, _CEILINGS.get(field)
    if field == "wounds":
        high = hero.max_health
    elif field == "sanity_damage":
        high = hero.max_sanity
    elif field == "grit":
        high = hero.max_grit
    elif field == "wanted":
        high = 2
    elif field in ("health_mod", "sanity_mod"):
        low = -(hero.health_base if field == "health_mod" else hero.sanity_base)
    elif field in ("level", "health_base", "sanity_base"):
        low = 1
    elif field in ("defense", "willpower"):
        low, high = 1, 7
    return low, high


def bounded(hero: Hero, field: str, value: int) -> int:
    """`value` for counter `field`, moved into the bounds `hero` has for it (every change keeps them)."""
    low, high = bounds(hero, field)
    value = max(low, value)
    return value if high is None else min(high, value)
