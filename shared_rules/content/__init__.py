"""Content as data: the charts printed in the rulebooks (validated when loaded) and content packs.

The rulebooks give the D36 Travel Hazard chart, the 2D6 Specialty Town table and the town sizes; they are files
beside this module. What they do not give (the Building token pool, each Specialty Town's always/never Locations,
the Injury/Madness charts, class stats) comes from a content pack: a JSON document with the schema in
`docs/content-packs.md`. Files are read once at import; nothing touches the disk at play time.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from ..commands import Effect
from ..dice import DieKind, face_range
from ..errors import ContentError, RulesError
from ..state import SKILLS, Hero, Skills, TownSize
from .adventure import AdventureContent, load_adventure
from .stay import PackCheck, StayContent, load_stay


@dataclass(frozen=True, slots=True)
class HazardEntry:
    roll: int
    name: str
    scope: str
    rule: str
    text: str = ""  # what the result does, in short (shown to the table after the hazard)


@dataclass(frozen=True, slots=True)
class SizeEntry:
    locations: int
    auto_hazards_per_hero: int
    roll_adds_hazard_on: frozenset[int]


@dataclass(frozen=True, slots=True)
class ChartEntry:
    low: int
    high: int
    text: str
    effects: tuple[Effect, ...] = ()


@dataclass(frozen=True, slots=True)
class Chart:
    """A chart a pack supplies (Injury, Madness, ...): the engine rolls it and applies the entry's effects."""

    die: DieKind
    entries: tuple[ChartEntry, ...]

    def entry(self, value: int) -> ChartEntry:
        return next(e for e in self.entries if e.low <= value <= e.high)


@dataclass(frozen=True, slots=True)
class TownTypeRules:
    always: tuple[str, ...] = ()
    never: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ContentPack:
    name: str
    version: int
    buildings: tuple[tuple[str, int], ...]
    town_types: dict[str, TownTypeRules] = field(default_factory=dict)
    hero_classes: dict[str, dict[str, Any]] = field(default_factory=dict)
    charts: dict[str, Chart] = field(default_factory=dict)
    stay: StayContent = StayContent()  # the Town Stay's cards and charts (content/stay.py)
    adventure: AdventureContent = AdventureContent()  # tracks, charts, tokens, decks, sheets (content/adventure.py)

    def building_pool(self) -> list[str]:
        """Every Building token, one entry per token (FT-TOWN-03)."""
        return [location for location, tokens in self.buildings for _ in range(tokens)]


def _read(name: str) -> Any:
    return json.loads(resources.files(__package__).joinpath(name).read_text(encoding="utf-8"))


def _load_hazards(raw: dict[str, Any]) -> dict[int, HazardEntry]:
    chart = {}
    for key, value in raw.items():
        if key.startswith("_"):
            continue
        if not key.isdigit() or not isinstance(value, dict) or not isinstance(value.get("name"), str):
            raise ContentError(f"travel_hazards.json {key!r}: a D36 result with a name and a scope")
        if not isinstance(value.get("text", ""), str):
            raise ContentError(f"travel_hazards.json {key!r}.text: a string")
        chart[int(key)] = HazardEntry(int(key), value["name"], value.get("scope", ""), f"FT-TRAVEL-D{key}",
                                      value.get("text", ""))
    expected = {10 * t + o for t in range(1, 7) for o in range(1, 7)}
    if set(chart) != expected:
        raise ContentError(
            f"travel_hazards.json must hold exactly the 36 D36 results; missing "
            f"{sorted(expected - set(chart))}, extra {sorted(set(chart) - expected)}"
        )
    for entry in chart.values():
        if entry.scope not in ("R", "E", "E-opt", "P") or not entry.name:
            raise ContentError(f"travel hazard {entry.roll}: bad scope {entry.scope!r} or empty name")
    return chart


def _load_town_types(raw: dict[str, Any]) -> dict[int, str]:
    table = {k: v for k, v in raw.items() if not k.startswith("_")}
    if set(table) != {str(total) for total in range(2, 13)}:
        raise ContentError("town_types.json must cover every 2D6 total 2..12 (FT-TOWN-02)")
    if not all(isinstance(v, str) and v for v in table.values()):
        raise ContentError("town_types.json: each 2D6 total names a Town type (FT-TOWN-02)")
    return {int(k): v for k, v in table.items()}


def _load_sizes(raw: dict[str, Any]) -> dict[TownSize, SizeEntry]:
    sizes = {}
    for size in TownSize:
        entry = raw.get(size.value)
        if not isinstance(entry, dict):
            raise ContentError(f"town_sizes.json lacks {size.value!r}")
        where = f"town_sizes.json {size.value}"
        adds = entry.get("roll_adds_hazard_on")
        if not isinstance(adds, list):
            raise ContentError(f"{where}.roll_adds_hazard_on: a list of D6 faces")
        sizes[size] = SizeEntry(
            _int(entry.get("locations"), f"{where}.locations", 1, 8),
            _int(entry.get("auto_hazards_per_hero"), f"{where}.auto_hazards_per_hero", 0),
            frozenset(_int(v, f"{where}.roll_adds_hazard_on", 1, 6) for v in adds),
        )
    return sizes


def _int(value: Any, where: str, low: int | None = None, high: int | None = None) -> int:
    """A whole number from a pack (a bool or a string is not one), within [low, high]."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ContentError(f"{where}: a whole number, not {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ContentError(f"{where}: {value} is not within {low}..{high}")
    return value


def _strings(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ContentError(f"{where}: a list of non-empty strings")
    return tuple(value)


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ContentError(f"{where}: an object")
    return value


def _effect(raw: Any, where: str) -> Effect:
    """An effect as the adjust command takes it, checked the same way (ops, hero values, tags)."""
    from ..rules.adjust import check_effect  # imported here: the rules package imports this module

    if not isinstance(raw, dict) or "op" not in raw:
        raise ContentError(f"{where}: an effect is an object with an 'op'")
    unknown = set(raw) - {"op", "field", "amount", "name", "tags", "hourglass", "dark_stone_upgrades"}
    if unknown:
        raise ContentError(f"{where}: unknown keys {sorted(unknown)}")
    for key in ("op", "field", "name"):
        if not isinstance(raw.get(key, ""), str):
            raise ContentError(f"{where}.{key}: a string")
    effect = Effect(
        raw["op"],
        raw.get("field", ""),
        _int(raw.get("amount", 0), f"{where}.amount"),
        raw.get("name", ""),
        _strings(raw.get("tags", []), f"{where}.tags"),
        _int(raw.get("hourglass", 0), f"{where}.hourglass", 0),
        _int(raw.get("dark_stone_upgrades", 0), f"{where}.dark_stone_upgrades", 0),
    )
    try:
        check_effect(effect, where)
    except RulesError as error:
        raise ContentError(error.message, field=error.field) from None
    return effect


def _chart_range(die: DieKind) -> tuple[int, int]:
    if die is DieKind.D36:
        return 11, 66
    if die in (DieKind.TWO_D6,):
        return 2, 12
    if die is DieKind.INJURY_3D6:
        return 2, 12
    faces = face_range(die)
    return (1, 3) if die is DieKind.D3 else (faces[0], faces[-1])


_CLASS_NUMBERS = {"health": (1, None), "sanity": (1, None), "max_grit": (0, None), "defense": (1, 7),
                  "willpower": (1, 7),
                  # what an Adventure reads from the sheet (FF-HERO-01, §20; state.adventure.ClassSheet)
                  "initiative": (0, 20), "max_fury": (0, 20), "max_ki": (0, 20), "ki_damage": (0, 20),
                  "ki_heal": (0, 20), "mana": (0, 20), "blast_cost": (0, 20), "deadly_bonus": (0, 20),
                  "combat": (0, 20), "melee_to_hit": (0, 6), "ranged_to_hit": (0, 6), "shots": (0, 20),
                  "damage_bonus": (0, 20)}  # fmt: skip
ELEMENTS = ("fire", "wind", "water", "earth")  # a Sorceress's Elemental Focus (FF-SORC-02)


def load_pack(raw: Any) -> ContentPack:
    """Validate a content pack document and build it; every problem names where it is (ContentError)."""
    if not isinstance(raw, dict):
        raise ContentError("a content pack is a JSON object")
    for key in ("name", "version", "buildings"):
        if key not in raw:
            raise ContentError(f"content pack lacks {key!r}")
    unknown = set(raw) - {"name", "version", "description", "buildings", "town_types", "hero_classes", "charts",
                          "town", "locations", "tokens", "low_threats", "adventure"}
    if unknown:
        raise ContentError(f"content pack: unknown keys {sorted(unknown)}")
    name = raw["name"]
    if not isinstance(name, str) or not name.strip():
        raise ContentError("name: a non-empty string")
    version = _int(raw["version"], "version", 0)
    if not isinstance(raw["buildings"], list) or not raw["buildings"]:
        raise ContentError("buildings: a non-empty list of Building tokens (FT-TOWN-03)")
    tokens_of: dict[str, int] = {}
    for i, b in enumerate(raw["buildings"]):
        if not isinstance(b, dict) or not isinstance(b.get("location"), str) or not b["location"].strip():
            raise ContentError(f"buildings[{i}]: needs a 'location' name")
        if set(b) - {"location", "tokens"}:
            raise ContentError(f"buildings[{i}]: unknown keys {sorted(set(b) - {'location', 'tokens'})}")
        if b["location"] in tokens_of:
            raise ContentError(f"buildings[{i}]: {b['location']!r} is listed twice; give it more 'tokens' instead")
        tokens_of[b["location"]] = _int(b.get("tokens", 1), f"buildings[{i}].tokens", 1)
    types: dict[str, TownTypeRules] = {}
    for type_name, rules in _object(raw.get("town_types", {}), "town_types").items():
        where = f"town_types.{type_name}"
        if type_name not in TOWN_TYPES.values():
            raise ContentError(f"{where}: not a Town type of the 2D6 table (FT-TOWN-02); one of "
                               f"{sorted(set(TOWN_TYPES.values()))}")  # fmt: skip
        rules = _object(rules, where)
        known = {"always", "never", "special_rules", "daily_events", "extra_options"}  # the last three: content/stay.py
        if set(rules) - known:
            raise ContentError(f"{where}: unknown keys {sorted(set(rules) - known)}")
        always = _strings(rules.get("always", []), f"{where}.always")
        never = _strings(rules.get("never", []), f"{where}.never")
        for key, names in (("always", always), ("never", never)):
            missing = [n for n in names if n not in tokens_of]
            if missing:
                raise ContentError(f"{where}.{key}: {missing} have no Building token in this pack")
        short = sorted({n for n in always if always.count(n) > tokens_of[n]})
        if short:
            raise ContentError(f"{where}.always: {short} named more often than they have Building tokens")
        if set(always) & set(never):
            raise ContentError(f"{where}: a Location cannot be both always and never present")
        types[type_name] = TownTypeRules(always, never)
    classes: dict[str, dict[str, Any]] = {}
    for class_name, stats in _object(raw.get("hero_classes", {}), "hero_classes").items():
        where = f"hero_classes.{class_name}"
        if not isinstance(stats, dict):
            raise ContentError(f"{where}: an object of starting stats")
        unknown = set(stats) - {"skills", "keywords", "focus", *_CLASS_NUMBERS}
        if unknown:
            raise ContentError(f"{where}: unknown keys {sorted(unknown)}")
        skills = _object(stats.get("skills", {}), f"{where}.skills")
        bad = set(skills) - set(SKILLS)
        if bad:
            raise ContentError(f"{where}.skills: unknown skills {sorted(bad)}")
        for skill, value in skills.items():
            _int(value, f"{where}.skills.{skill}", 0, 12)
        for key, (low, high) in _CLASS_NUMBERS.items():
            if key in stats:
                _int(stats[key], f"{where}.{key}", low, high)
        _strings(stats.get("keywords", []), f"{where}.keywords")
        if "focus" in stats and stats["focus"] not in ELEMENTS:
            raise ContentError(f"{where}.focus: one of {list(ELEMENTS)} (FF-SORC-02)")
        classes[class_name] = stats
    charts: dict[str, Chart] = {}
    for chart_name, chart in _object(raw.get("charts", {}), "charts").items():
        where = f"charts.{chart_name}"
        chart = _object(chart, where)
        try:
            die = DieKind(chart.get("die"))
        except ValueError:
            raise ContentError(f"{where}.die: one of {[d.value for d in DieKind]}") from None
        if not isinstance(chart.get("entries"), list):
            raise ContentError(f"{where}.entries: a list of entries")
        entries = []
        for i, e in enumerate(chart["entries"]):
            at = f"{where}.entries[{i}]"
            e = _object(e, at)
            if set(e) - {"low", "high", "text", "effects"}:
                raise ContentError(f"{at}: unknown keys {sorted(set(e) - {'low', 'high', 'text', 'effects'})}")
            low = _int(e.get("low"), f"{at}.low")
            if not isinstance(e.get("text", ""), str):
                raise ContentError(f"{at}.text: a string")
            if not isinstance(e.get("effects", []), list):
                raise ContentError(f"{at}.effects: a list of effects")
            effects = tuple(_effect(x, f"{at}.effects[{j}]") for j, x in enumerate(e.get("effects", [])))
            entries.append(ChartEntry(low, _int(e.get("high", low), f"{at}.high", low), e.get("text", ""), effects))
        entries.sort(key=lambda entry: entry.low)
        low, high = _chart_range(die)
        covered = sorted(v for e in entries for v in range(e.low, e.high + 1))
        wanted = [v for v in range(low, high + 1) if die is not DieKind.D36 or (v % 10 in range(1, 7))]
        if covered != wanted:
            raise ContentError(f"{where}: entries must cover each result {low}..{high} exactly once")
        charts[chart_name] = Chart(die, tuple(entries))
    stay = load_stay(raw, frozenset(tokens_of), set(types), PackCheck(_int, _strings, _object, _effect))
    adventure = load_adventure(raw["adventure"], _effect) if "adventure" in raw else AdventureContent()
    return ContentPack(name, version, tuple(tokens_of.items()), types, classes, charts, stay, adventure)


TRAVEL_HAZARDS: dict[int, HazardEntry] = _load_hazards(_read("travel_hazards.json"))
TOWN_TYPES: dict[int, str] = _load_town_types(_read("town_types.json"))
TOWN_SIZES: dict[TownSize, SizeEntry] = _load_sizes(_read("town_sizes.json"))
PACKS: dict[str, ContentPack] = {"default": load_pack(_read("default_pack.json"))}


def _load_class_names(raw: dict[str, Any]) -> dict[str, tuple[str, ...]]:
    """Hero class names by game line (names only; numbers come from a pack's hero_classes)."""
    return {line: _strings(names, f"hero_classes.json {line}") for line, names in raw.items()
            if not line.startswith("_")}


CLASS_NAMES: dict[str, tuple[str, ...]] = _load_class_names(_read("hero_classes.json"))


def class_names(pack_name: str = "default") -> tuple[str, ...]:
    """Every class a hero may be entered as: the pack's classes first, then the names of each game line."""
    names = list(PACKS[pack_name].hero_classes)
    for line in CLASS_NAMES.values():
        names += [n for n in line if n not in names]
    return tuple(names)


def register_pack(raw: Any) -> ContentPack:
    """Validate and register a content pack so sessions can name it."""
    pack = load_pack(raw)
    PACKS[pack.name] = pack
    return pack


def pack(name: str) -> ContentPack:
    return PACKS[name]


def hero_from_class(hero_id: str, name: str, hero_class: str, *, pack_name: str = "default") -> Hero:
    """A new hero with the class sheet's starting stats from the pack (FF-HERO-01, FF-HERO-07); defaults otherwise.

    The class sheets are not in the rulebooks, so the default pack knows the four class names and no numbers.
    """
    stats = PACKS[pack_name].hero_classes.get(hero_class, {})
    skills = Skills(**{**{s: getattr(Skills(), s) for s in SKILLS}, **stats.get("skills", {})})
    hero = Hero(hero_id, name, hero_class, skills=skills, keywords=tuple(stats.get("keywords", ())))
    numbers = {"health": "health_base", "sanity": "sanity_base", "max_grit": "max_grit", "defense": "defense",
               "willpower": "willpower"}  # fmt: skip
    from dataclasses import replace

    changes: dict[str, Any] = {field: int(stats[key]) for key, field in numbers.items() if key in stats}
    return replace(hero, **changes)
