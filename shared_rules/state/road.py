"""The road and the town: the journey under way, the town it reaches, and what carries over (FT-TRAVEL, FT-TOWN)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..frozen import quick
from .stay import Bounty


class TownSize(str, Enum):
    SMALL = "small"
    MEDIUM = "medium"
    LARGE = "large"


@quick
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
    bounties: tuple[Bounty, ...] = ()  # posted in town, open until the next Adventure settles them (FT-BOUNTY)
    no_grit_next_adventure: bool = False  # a failed Bank Robbery or High Noon Duel: start with 0 Grit (A6, A42)
    growing_dread_next: int = 0  # a failed Jail Break: Growing Dread cards added at the next Adventure's start (FT-M4-09)
    no_town: str = ""  # a failed Town Mission's rule: no Town, the next Adventure begins directly (A33)
    may_stay: bool = False  # a Town Mission not failed: the posse may stay in the same town (FT-TOWN-09)
    last_town: Town | None = None  # the town the posse last stayed in (a fresh stay of it after a Town Mission)


@quick
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


@quick
@dataclass(frozen=True, slots=True)
class Slot:
    """A numbered Building Slot on the Town Map (FT-TOWN-01)."""

    number: int
    location: str
    destroyed: bool = False


@quick
@dataclass(frozen=True, slots=True)
class Town:
    """The town the posse reached: size, Specialty type and its Buildings (FT-TOWN-01..05)."""

    size: TownSize
    town_type: str
    type_roll: int
    slots: tuple[Slot, ...] = ()
