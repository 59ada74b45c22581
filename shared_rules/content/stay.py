"""Content-pack data for the Town Stay, which the rulebooks refer to but do not print (rules-reference (b) 2-6, 8, 15):
the Location cards (Event Charts, what they sell and buy, visit restrictions, the warrant price, the Devil's Wheel
payouts), the Daily Event deck, the Specialty Town cards' charts and Extra Options, the Camp Site Hazard and Town
Event charts, the Hotel's rate, the core Side Bag tokens' effects and the Low Threat cards a Bounty may be drawn from.

Loaded by `load_pack` (the `town`, `locations`, `tokens` and `low_threats` sections, and the extra keys of a
`town_types` entry); every problem raises ContentError naming where it is. Without a section the engine asks the
table what the physical card says.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..codec import decode_content
from ..commands import BountyTarget, Effect
from ..dice import DieKind
from ..errors import ContentError
from ..state import SKILLS, ItemTag
from .adventure import checked_effect

CAMP_SITE = "Camp Site"  # printed on every Town Map, visitable as a Location (FT-TOWN-06)
HOTEL = "Hotel"  # printed on every Town Map: where heroes sleep
WARE_KINDS = ("token", "item", "service")
SALE_KINDS = ("dark_stone", "item", "token")
TOWN_CHART_DICE = (DieKind.D3, DieKind.D6, DieKind.D8, DieKind.TWO_D6)
# Side Bag tokens whose effect the rulebooks print; a pack may not redefine them (FT-BAG-01..07, FF-BAG-01)
PRINTED_TOKENS = frozenset({"Spice", "Potion", "Hatchet", "Lantern Oil", "Exotic Herbs", "Tequila", "Fine Cigar",
                            "Fire Sake"})  # fmt: skip


@dataclass(frozen=True, slots=True)
class EntryTest:
    """A chart entry's skill test: `skill` `target`+, with effects on a pass and on a fail (FF-DICE-06)."""

    skill: str
    target: int
    passed: tuple[Effect, ...] = ()
    failed: tuple[Effect, ...] = ()


@dataclass(frozen=True, slots=True)
class TownEntry:
    """One result of a town chart: its words, its effects on the hero (or on every hero, for town-wide charts), an
    optional test, and what it does to the visit, the Location or the town."""

    low: int
    high: int
    text: str
    effects: tuple[Effect, ...] = ()
    test: EntryTest | None = None
    ends_visit: bool = False  # the rest of the visit is lost
    destroys: bool = False  # the Location visited is Destroyed for the rest of the Stay (FT-TOWN-04)
    destroy_random: int = 0  # Random Buildings destroyed (FT-TOWN-04, A14)
    ends_stay: bool = False  # the Town Stay is over
    closes_camp_site: bool = False
    hotel_price_factor: int = 1  # the Hotel's rate is multiplied for the rest of the Stay


@dataclass(frozen=True, slots=True)
class TownChart:
    """A town chart rolled with `die`; totals beyond its entries (modifiers such as Army Convoy) read the nearest."""

    die: DieKind
    entries: tuple[TownEntry, ...]

    def entry(self, total: int) -> TownEntry:
        total = min(self.entries[-1].high, max(self.entries[0].low, total))
        return next(e for e in self.entries if e.low <= total <= e.high)


@dataclass(frozen=True, slots=True)
class Ware:
    """Something sold in town: a Side Bag token, an item card or a service (its `effects` on the buyer)."""

    name: str
    kind: str
    price: int
    tags: tuple[str, ...] = ()
    hourglass: int = 0
    effects: tuple[Effect, ...] = ()
    location: str = ""  # a Specialty Town's Extra Option sold only there ("" = wherever the hero visits, FT-TOWN-08)


@dataclass(frozen=True, slots=True)
class SaleOffer:
    """What a Location buys and pays each: Dark Stone shards, or a named item or token."""

    name: str
    kind: str
    price: int


@dataclass(frozen=True, slots=True)
class Payout:
    """A Devil's Wheel score band and its winnings (FT-WHEEL-04)."""

    low: int
    high: int
    gold: int
    text: str = ""


@dataclass(frozen=True, slots=True)
class WheelCard:
    """The Gambling Hall's Devil's Wheel: the stake to play and the payouts by final score (FT-WHEEL-04)."""

    stake: int = 0
    payouts: tuple[Payout, ...] = ()

    def payout(self, score: int) -> Payout | None:
        return next((p for p in self.payouts if p.low <= score <= p.high), None)


@dataclass(frozen=True, slots=True)
class LocationCard:
    """A Town Location's card (FT-TOWN-07): Event Chart, restrictions, shop, what it buys, warrants, Devil's Wheel."""

    events: TownChart | None = None
    bars: tuple[str, ...] = ()  # keywords that may not visit (Outlaw at the Sheriff's Office ...)
    shop: tuple[Ware, ...] = ()
    buys: tuple[SaleOffer, ...] = ()
    warrants: tuple[int, int] | None = None  # Pay Off Your Warrants: (Wanted!, Most Wanted!) (FT-WANTED-02)
    devils_wheel: WheelCard | None = None


@dataclass(frozen=True, slots=True)
class DailyCard:
    """A Daily Event card and its copies in the 16-card deck (FT-DAY-01/02)."""

    name: str
    copies: int = 1
    text: str = ""
    just_another_day: bool = False
    lasting: bool = False
    effects: tuple[Effect, ...] = ()  # on every hero in town when read
    closes: tuple[str, ...] = ()
    location_event_modifier: int = 0
    camp_site_modifier: int = 0


@dataclass(frozen=True, slots=True)
class TokenCard:
    """A Side Bag token the rulebooks name without its effect (FF-BAG-02: Sake, Bandages, Bomb, Tonic ...)."""

    name: str
    effects: tuple[Effect, ...] = ()
    fight_only: bool = False


@dataclass(frozen=True, slots=True)
class ThreatCard:
    """A Low Threat card, for Expanded Bounties (FT-BOUNTY-01): the Enemies it lists."""

    name: str
    enemies: tuple[BountyTarget, ...]


@dataclass(frozen=True, slots=True)
class TownTypeCard:
    """A Specialty Town card's other side (FT-TOWN-08): Special Rules, Daily Event Chart, Extra Options."""

    special_rules: tuple[str, ...] = ()
    daily_events: TownChart | None = None
    extra_options: tuple[Ware, ...] = ()


@dataclass(frozen=True, slots=True)
class StayContent:
    """Everything a pack says about the Town Stay; empty parts mean "ask the table"."""

    hotel_price: int = 10  # a night at the Hotel: the base game's $10 unless the pack says (docs/rules.md)
    camp_site_hazards: TownChart | None = None
    town_events: TownChart | None = None
    daily_events: tuple[DailyCard, ...] = ()
    locations: Mapping[str, LocationCard] = field(default_factory=dict)
    tokens: Mapping[str, TokenCard] = field(default_factory=dict)
    low_threats: tuple[ThreatCard, ...] = ()
    town_types: Mapping[str, TownTypeCard] = field(default_factory=dict)

    def location(self, name: str) -> LocationCard:
        return self.locations.get(name, _NO_CARD)

    def town_type(self, name: str) -> TownTypeCard:
        return self.town_types.get(name, _NO_TOWN_TYPE)

    def daily_card(self, name: str) -> DailyCard | None:
        return next((card for card in self.daily_events if card.name == name), None)

    def deck(self) -> list[str]:
        """The Daily Event deck, one entry per card (FT-DAY-01)."""
        return [card.name for card in self.daily_events for _ in range(card.copies)]


_NO_CARD = LocationCard()
_NO_TOWN_TYPE = TownTypeCard()


# ---- loading ---------------------------------------------------------------------------------------------------
class PackCheck:
    """The checks of the stay sections, read from the pack document as written (the codec decodes the rest)."""

    __slots__ = ()

    def number(self, value: Any, where: str, low: int | None = None, high: int | None = None) -> int:
        """A whole number (a bool or a string is not one) within low..high."""
        number: int = decode_content(int, value, where)
        if (low is not None and number < low) or (high is not None and number > high):
            raise ContentError(f"{where}: {number} is not within {low}..{high}", field=where)
        return number

    def strings(self, value: Any, where: str) -> tuple[str, ...]:
        names: tuple[str, ...] = decode_content(tuple[str, ...], value, where)
        if not all(names):
            raise ContentError(f"{where}: a list of non-empty strings", field=where)
        return names

    def obj(self, value: Any, where: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise ContentError(f"{where}: an object", field=where)
        return value

    def effect(self, value: Any, where: str) -> Effect:
        """An effect as the adjust command takes it, checked the same way (ops, hero values, tags)."""
        return checked_effect(decode_content(Effect, value, where), where)

    def keys(self, raw: dict[str, Any], where: str, allowed: set[str], required: tuple[str, ...] = ()) -> None:
        unknown = set(raw) - allowed
        if unknown:
            raise ContentError(f"{where}: unknown keys {sorted(unknown)}")
        for key in required:
            if key not in raw:
                raise ContentError(f"{where}: lacks {key!r}")

    def text(self, value: Any, where: str, *, empty: bool = True) -> str:
        if not isinstance(value, str) or (not empty and not value.strip()):
            raise ContentError(f"{where}: a {'non-empty ' if not empty else ''}string")
        return value

    def flag(self, value: Any, where: str) -> bool:
        if not isinstance(value, bool):
            raise ContentError(f"{where}: true or false")
        return value

    def effects(self, value: Any, where: str) -> tuple[Effect, ...]:
        if not isinstance(value, list):
            raise ContentError(f"{where}: a list of effects")
        return tuple(self.effect(x, f"{where}[{i}]") for i, x in enumerate(value))


_ENTRY_KEYS = {"low", "high", "text", "effects", "test", "ends_visit", "destroys", "destroy_random", "ends_stay",
               "closes_camp_site", "hotel_price_factor"}  # fmt: skip


def _chart(check: PackCheck, raw: Any, where: str) -> TownChart:
    """A town chart: a die and entries in order that cover every result of the die exactly once; the first and
    last may reach beyond (0-1, 13+) for modified rolls."""
    raw = check.obj(raw, where)
    check.keys(raw, where, {"die", "entries"}, ("die", "entries"))
    try:
        die = DieKind(raw["die"])
    except ValueError:
        raise ContentError(f"{where}.die: one of {[d.value for d in TOWN_CHART_DICE]}") from None
    if die not in TOWN_CHART_DICE:
        raise ContentError(f"{where}.die: one of {[d.value for d in TOWN_CHART_DICE]}")
    if not isinstance(raw["entries"], list) or not raw["entries"]:
        raise ContentError(f"{where}.entries: a non-empty list of entries")
    entries = []
    for i, e in enumerate(raw["entries"]):
        at = f"{where}.entries[{i}]"
        e = check.obj(e, at)
        check.keys(e, at, _ENTRY_KEYS, ("low",))
        low = check.number(e["low"], f"{at}.low", -20, 40)
        high = check.number(e.get("high", low), f"{at}.high", low, 40)
        test = None
        if "test" in e:
            t = check.obj(e["test"], f"{at}.test")
            check.keys(t, f"{at}.test", {"skill", "target", "pass", "fail"}, ("skill", "target"))
            if t["skill"] not in SKILLS:
                raise ContentError(f"{at}.test.skill: one of {list(SKILLS)}")
            test = EntryTest(t["skill"], check.number(t["target"], f"{at}.test.target", 2, 6),
                             check.effects(t.get("pass", []), f"{at}.test.pass"),
                             check.effects(t.get("fail", []), f"{at}.test.fail"))
        entries.append(TownEntry(
            low, high, check.text(e.get("text", ""), f"{at}.text"), check.effects(e.get("effects", []), f"{at}.effects"),
            test, check.flag(e.get("ends_visit", False), f"{at}.ends_visit"),
            check.flag(e.get("destroys", False), f"{at}.destroys"),
            check.number(e.get("destroy_random", 0), f"{at}.destroy_random", 0, 8),
            check.flag(e.get("ends_stay", False), f"{at}.ends_stay"),
            check.flag(e.get("closes_camp_site", False), f"{at}.closes_camp_site"),
            check.number(e.get("hotel_price_factor", 1), f"{at}.hotel_price_factor", 1, 10),
        ))  # fmt: skip
    for before, after in zip(entries, entries[1:], strict=False):
        if after.low != before.high + 1:
            raise ContentError(f"{where}.entries: in order, each starting where the one before ends "
                               f"({before.high} is followed by {after.low})")
    low, high = _natural(die)
    if entries[0].low > low or entries[-1].high < high:
        raise ContentError(f"{where}.entries: must cover every result {low}..{high} of the {die.value}")
    return TownChart(die, tuple(entries))


def _natural(die: DieKind) -> tuple[int, int]:
    return {DieKind.D3: (1, 3), DieKind.D6: (1, 6), DieKind.D8: (1, 8), DieKind.TWO_D6: (2, 12)}[die]


def _ware(check: PackCheck, raw: Any, where: str, places: frozenset[str], *, located: bool) -> Ware:
    raw = check.obj(raw, where)
    allowed = {"name", "kind", "price", "tags", "hourglass", "effects", *({"location"} if located else set())}
    check.keys(raw, where, allowed, ("name", "kind", "price"))
    kind = raw["kind"]
    if kind not in WARE_KINDS:
        raise ContentError(f"{where}.kind: one of {list(WARE_KINDS)}")
    tags = check.strings(raw.get("tags", []), f"{where}.tags")
    bad = [t for t in tags if t not in {tag.value for tag in ItemTag}]
    if bad:
        raise ContentError(f"{where}.tags: unknown item tags {bad}")
    if kind != "item" and (tags or raw.get("hourglass")):
        raise ContentError(f"{where}: only an item has tags and hourglass icons")
    if kind != "service" and raw.get("effects"):
        raise ContentError(f"{where}.effects: only a service has effects (a token's own effect is under 'tokens')")
    location = check.text(raw.get("location", ""), f"{where}.location")
    if location and location not in places:
        raise ContentError(f"{where}.location: {location!r} is not a Location of this pack")
    return Ware(check.text(raw["name"], f"{where}.name", empty=False), kind,
                check.number(raw["price"], f"{where}.price", 0, 1_000_000), tags,
                check.number(raw.get("hourglass", 0), f"{where}.hourglass", 0, 10),
                check.effects(raw.get("effects", []), f"{where}.effects"), location)  # fmt: skip


def _wares(check: PackCheck, raw: Any, where: str, places: frozenset[str], *, located: bool) -> tuple[Ware, ...]:
    if not isinstance(raw, list):
        raise ContentError(f"{where}: a list of wares")
    wares = tuple(_ware(check, w, f"{where}[{i}]", places, located=located) for i, w in enumerate(raw))
    names = [w.name for w in wares]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ContentError(f"{where}: {twice} listed twice")
    return wares


def _location(check: PackCheck, raw: Any, where: str, places: frozenset[str]) -> LocationCard:
    raw = check.obj(raw, where)
    check.keys(raw, where, {"events", "bars", "shop", "buys", "warrants", "devils_wheel"})
    buys = []
    if not isinstance(raw.get("buys", []), list):
        raise ContentError(f"{where}.buys: a list of what the Location buys")
    for i, offer in enumerate(raw.get("buys", [])):
        at = f"{where}.buys[{i}]"
        offer = check.obj(offer, at)
        check.keys(offer, at, {"name", "kind", "price"}, ("kind", "price"))
        if offer["kind"] not in SALE_KINDS:
            raise ContentError(f"{at}.kind: one of {list(SALE_KINDS)}")
        name = "Dark Stone" if offer["kind"] == "dark_stone" else check.text(offer.get("name"), f"{at}.name",
                                                                                empty=False)  # fmt: skip
        buys.append(SaleOffer(name, offer["kind"], check.number(offer["price"], f"{at}.price", 0, 1_000_000)))
    warrants = None
    if "warrants" in raw:
        w = check.obj(raw["warrants"], f"{where}.warrants")
        check.keys(w, f"{where}.warrants", {"wanted", "most_wanted"}, ("wanted", "most_wanted"))
        warrants = (check.number(w["wanted"], f"{where}.warrants.wanted", 0, 1_000_000),
                    check.number(w["most_wanted"], f"{where}.warrants.most_wanted", 0, 1_000_000))
    wheel = None
    if "devils_wheel" in raw:
        w = check.obj(raw["devils_wheel"], f"{where}.devils_wheel")
        check.keys(w, f"{where}.devils_wheel", {"stake", "payouts"})
        payouts = []
        for i, p in enumerate(w.get("payouts", [])):
            at = f"{where}.devils_wheel.payouts[{i}]"
            p = check.obj(p, at)
            check.keys(p, at, {"low", "high", "gold", "text"}, ("low", "gold"))
            low = check.number(p["low"], f"{at}.low", 0, 36)
            payouts.append(Payout(low, check.number(p.get("high", low), f"{at}.high", low, 36),
                                  check.number(p["gold"], f"{at}.gold", 0, 1_000_000),
                                  check.text(p.get("text", ""), f"{at}.text")))
        covered = sorted(v for p in payouts for v in range(p.low, p.high + 1))
        if payouts and covered != list(range(37)):
            raise ContentError(f"{where}.devils_wheel.payouts: must cover each score 0..36 exactly once (FT-WHEEL-04)")
        wheel = WheelCard(check.number(w.get("stake", 0), f"{where}.devils_wheel.stake", 0, 1_000_000), tuple(payouts))
    events = _chart(check, raw["events"], f"{where}.events") if "events" in raw else None
    if events is not None and events.die is not DieKind.TWO_D6:
        raise ContentError(f"{where}.events.die: a Location Event Chart is rolled on 2d6 (its 7 brings trouble, "
                           "FT-UA-04)")  # fmt: skip
    return LocationCard(
        events,
        check.strings(raw.get("bars", []), f"{where}.bars"),
        _wares(check, raw.get("shop", []), f"{where}.shop", places, located=False),
        tuple(buys), warrants, wheel,
    )


_DAILY_KEYS = {"name", "copies", "text", "just_another_day", "lasting", "effects", "closes", "location_event_modifier",
               "camp_site_modifier"}  # fmt: skip


def load_stay(raw: dict[str, Any], buildings: frozenset[str], town_types: set[str], check: PackCheck) -> StayContent:
    """The stay sections of a pack document (already known to be an object with only known top-level keys)."""
    places = buildings | {CAMP_SITE}
    town = check.obj(raw.get("town", {}), "town")
    check.keys(town, "town", {"hotel_price", "camp_site_hazards", "town_events", "daily_events"})
    daily: list[DailyCard] = []
    cards = town.get("daily_events", [])
    if not isinstance(cards, list):
        raise ContentError("town.daily_events: a list of Daily Event cards (FT-DAY-01)")
    for i, card in enumerate(cards):
        at = f"town.daily_events[{i}]"
        card = check.obj(card, at)
        check.keys(card, at, _DAILY_KEYS, ("name",))
        closes = check.strings(card.get("closes", []), f"{at}.closes")
        unknown = [c for c in closes if c not in places]
        if unknown:
            raise ContentError(f"{at}.closes: {unknown} are not Locations of this pack")
        daily.append(DailyCard(
            check.text(card["name"], f"{at}.name", empty=False), check.number(card.get("copies", 1), f"{at}.copies", 1, 16),
            check.text(card.get("text", ""), f"{at}.text"),
            check.flag(card.get("just_another_day", False), f"{at}.just_another_day"),
            check.flag(card.get("lasting", False), f"{at}.lasting"), check.effects(card.get("effects", []), f"{at}.effects"),
            closes, check.number(card.get("location_event_modifier", 0), f"{at}.location_event_modifier", -6, 6),
            check.number(card.get("camp_site_modifier", 0), f"{at}.camp_site_modifier", -6, 6),
        ))  # fmt: skip
    names = [card.name for card in daily]
    if len(set(names)) != len(names):
        raise ContentError("town.daily_events: a card is listed twice; give it more 'copies' instead")
    locations = {}
    for name, card in check.obj(raw.get("locations", {}), "locations").items():
        if name not in places:
            raise ContentError(f"locations.{name}: not a Location of this pack (its Building tokens, or the Camp Site)")
        locations[name] = _location(check, card, f"locations.{name}", places)
    tokens = {}
    for name, token in check.obj(raw.get("tokens", {}), "tokens").items():
        where = f"tokens.{name}"
        if name in PRINTED_TOKENS:
            raise ContentError(f"{where}: its effect is printed in the rulebooks (FT-BAG, FF-BAG-01)")
        token = check.obj(token, where)
        check.keys(token, where, {"effects", "fight_only"})
        tokens[name] = TokenCard(name, check.effects(token.get("effects", []), f"{where}.effects"),
                                 check.flag(token.get("fight_only", False), f"{where}.fight_only"))
    threats = []
    listed = raw.get("low_threats", [])
    if not isinstance(listed, list):
        raise ContentError("low_threats: a list of Low Threat cards (FT-BOUNTY-01)")
    for i, card in enumerate(listed):
        at = f"low_threats[{i}]"
        card = check.obj(card, at)
        check.keys(card, at, {"name", "enemies"}, ("name", "enemies"))
        if not isinstance(card["enemies"], list) or not card["enemies"]:
            raise ContentError(f"{at}.enemies: a non-empty list")
        enemies = []
        for j, enemy in enumerate(card["enemies"]):
            where = f"{at}.enemies[{j}]"
            enemy = check.obj(enemy, where)
            check.keys(enemy, where, {"enemy", "health", "variable_xp"}, ("enemy", "health"))
            enemies.append(BountyTarget(check.text(enemy["enemy"], f"{where}.enemy", empty=False),
                                        check.number(enemy["health"], f"{where}.health", 1, 1000),
                                        all_heroes=check.flag(enemy.get("variable_xp", False), f"{where}.variable_xp")))
        threats.append(ThreatCard(check.text(card["name"], f"{at}.name", empty=False), tuple(enemies)))
    types = {}
    for type_name, card in check.obj(raw.get("town_types", {}), "town_types").items():
        card = check.obj(card, f"town_types.{type_name}")
        if type_name not in town_types:
            continue  # refused by the caller
        where = f"town_types.{type_name}"
        types[type_name] = TownTypeCard(
            check.strings(card.get("special_rules", []), f"{where}.special_rules"),
            _chart(check, card["daily_events"], f"{where}.daily_events") if "daily_events" in card else None,
            _wares(check, card.get("extra_options", []), f"{where}.extra_options", places, located=True),
        )
    return StayContent(
        check.number(town.get("hotel_price", 10), "town.hotel_price", 0, 1_000_000),
        _chart(check, town["camp_site_hazards"], "town.camp_site_hazards") if "camp_site_hazards" in town else None,
        _chart(check, town["town_events"], "town.town_events") if "town_events" in town else None,
        tuple(daily), locations, tokens, tuple(threats), types,
    )
