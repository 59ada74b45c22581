"""The whole state of one table: rule options, the posse, where it is in the campaign, and the pending prompt."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

from ..frozen import evolve
from ..meta import meta, provided
from .adventure import Adventure
from .hero import Hero
from .road import Carry, Town, Travel
from .stay import Stay

if TYPE_CHECKING:
    from ..prompts import Pending


class Phase(str, Enum):
    """Where the posse is in the campaign."""

    BETWEEN_ADVENTURES = "between_adventures"  # after an Adventure, before choosing a Town size (FT-TRAVEL-01)
    TRAVEL = "travel"  # rolling and resolving Travel Hazards (FT-TRAVEL-02/03)
    ARRIVAL = "arrival"  # travel over, the town not yet built (FT-TRAVEL-04)
    TOWN = "town"  # the Town Stay (FT-DAY-01)
    ADVENTURE = "adventure"  # an Adventure or a Town Mission under way (FF-TURN-01, FT-MIS-00)


@dataclass(frozen=True, slots=True)
class RuleOptions:
    """Readings where players plausibly differ (rules-reference ambiguities); defaults are the reference's."""

    dice: str = field(default="server", metadata=meta(choices=("server", "table"), enum="DiceMode"))  # "server": the session RNG rolls what the table did not type in; "table": ask for each roll
    offer_grit_rerolls: bool = True  # after a skill test, offer Grit re-rolls of the hero's own dice (FF-GRIT-01)
    warlord_price_first: bool = True  # 36: roll the D6x$50 price before choosing to pay or test (A8)
    plus_one_is_permanent: bool = True  # 34/51: "+1 Health/Sanity" raises the max (A41)
    mimic_beast_solo_skips_second: bool = True  # 21 with one hero: skip the "other" hero (A11)
    scarlet_shadow_literal: bool = True  # 66/1-2: Grit recovery when no Gold was actually lost (A51)
    horror_hit_sanity: int = 1  # 61: Sanity Damage per unsaved Horror Hit (Willpower saves)
    town_events: str = "darkness"  # end of each Day: "darkness" (D6 vs the Town Darkness marker), "every_day", "off"
    trouble_first: bool = True  # a rolled 7: the trouble check (FT-UA-04) before the Location Event's result
    wheel_rounds_per_visit: int = 1  # Devil's Wheel rounds a hero may play on one Gambling Hall visit
    combat: str = "typed"  # Fights: "typed" (each Hit's damage comes from the table) or "house" (rolled), docs/rules.md
    initiative_ties: str = "heroes_first"  # a Hero and an Enemy on the same Initiative (A45): "heroes_first"/"enemies_first"
    move_boosts: int = 1  # +D6 Move bought with Grit per activation (FF-MOVE-03; the count is a reading)
    ko_back_up_with: int = 1  # a Revive Token or a Recovery leaves the KO'd Hero this much Health/Sanity (FF-HERO-13)
    recover_after_fight: bool = True  # KO'd Heroes Recover when the Fight ends (Injury/Madness, then back up)


def _no_pending() -> Pending | None:
    return None


@dataclass(frozen=True, slots=True)
class Session:
    """The whole state of one table: options, posse, road, town, stay, adventure, carried flags, RNG, the prompt."""

    heroes: tuple[Hero, ...]
    options: RuleOptions = RuleOptions()
    phase: Phase = Phase.BETWEEN_ADVENTURES
    travel: Travel | None = None
    town: Town | None = None
    stay: Stay | None = None  # the Town Stay under way (rules/stay)
    adventure: Adventure | None = None  # the Adventure or Town Mission under way (rules/adventure, rules/missions)
    carry: Carry = Carry()
    rng: int = field(default=0, metadata=meta(public=False))  # never shown: a client could predict the dice
    step: int = 0  # commands applied; prompt ids derive from it
    pack: str = field(default="default", metadata=meta(choices=provided("packs"), enum="Pack"))  # in use
    pending: Pending | None = field(default_factory=_no_pending)

    def with_value(self, name: str, value: Any) -> Session:
        """This state with one field set (`replace(state, **{name: value})`), the field named at run time: a
        command's heroes are folded in through it (the compiled build writes the copy out)."""
        return evolve(self, {name: value})

    def with_values(self, changes: dict[str, Any]) -> Session:
        """This state with the named fields set (`frozen.evolve(state, changes)`): a command's top-level changes go
        through it, with the heroes kept aside in the same copy (the compiled build calls its copy directly)."""
        return evolve(self, changes)

    def hero(self, hero_id: str) -> Hero:
        for hero in self.heroes:
            if hero.id == hero_id:
                return hero
        raise KeyError(hero_id)

    @property
    def anyone_left(self) -> bool:
        """Whether any hero is still in the game (`active_heroes` is not empty), asked without building the tuple."""
        for hero in self.heroes:  # noqa: SIM110 - a loop, not any(): no generator made on either build
            if not hero.removed:
                return True
        return False

    @property
    def active_heroes(self) -> tuple[Hero, ...]:
        return tuple([hero for hero in self.heroes if not hero.removed])  # a list made in a loop: no generator
