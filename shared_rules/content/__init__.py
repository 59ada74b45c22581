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
from ..errors import ContentError
from ..state import SKILLS, Hero, Skills, TownSize


@dataclass(frozen=True, slots=True)
class HazardEntry:
    roll: int
    name: str
    scope: str
    rule: str


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

    def building_pool(self) -> list[str]:
        """Every Building token, one entry per token (FT-TOWN-03)."""
        return [location for location, tokens in self.buildings for _ in range(tokens)]


def _read(name: str) -> Any:
    return json.loads(resources.files(__package__).joinpath(name).read_text(encoding="utf-8"))


def _load_hazards(raw: dict[str, Any]) -> dict[int, HazardEntry]:
    chart = {
        int(k): HazardEntry(int(k), v["name"], v["scope"], f"FT-TRAVEL-D{k}")
        for k, v in raw.items()
        if not k.startswith("_")
    }
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
    table = {int(k): str(v) for k, v in raw.items() if not k.startswith("_")}
    if set(table) != set(range(2, 13)):
        raise ContentError("town_types.json must cover every 2D6 total 2..12 (FT-TOWN-02)")
    return table


def _load_sizes(raw: dict[str, Any]) -> dict[TownSize, SizeEntry]:
    sizes = {}
    for size in TownSize:
        entry = raw.get(size.value)
        if not isinstance(entry, dict):
            raise ContentError(f"town_sizes.json lacks {size.value!r}")
        sizes[size] = SizeEntry(
            int(entry["locations"]),
            int(entry["auto_hazards_per_hero"]),
            frozenset(int(v) for v in entry["roll_adds_hazard_on"]),
        )
    return sizes


def _effect(raw: Any, where: str) -> Effect:
    if not isinstance(raw, dict) or "op" not in raw:
        raise ContentError(f"{where}: an effect is an object with an 'op'")
    unknown = set(raw) - {"op", "field", "amount", "name", "tags", "hourglass", "dark_stone_upgrades"}
    if unknown:
        raise ContentError(f"{where}: unknown keys {sorted(unknown)}")
    return Effect(
        str(raw["op"]),
        str(raw.get("field", "")),
        int(raw.get("amount", 0)),
        str(raw.get("name", "")),
        tuple(raw.get("tags", ())),
        int(raw.get("hourglass", 0)),
        int(raw.get("dark_stone_upgrades", 0)),
    )


def _chart_range(die: DieKind) -> tuple[int, int]:
    if die is DieKind.D36:
        return 11, 66
    if die in (DieKind.TWO_D6,):
        return 2, 12
    if die is DieKind.INJURY_3D6:
        return 2, 12
    faces = face_range(die)
    return (1, 3) if die is DieKind.D3 else (faces[0], faces[-1])


def load_pack(raw: Any) -> ContentPack:
    """Validate a content pack document and build it; every problem names where it is (ContentError)."""
    if not isinstance(raw, dict):
        raise ContentError("a content pack is a JSON object")
    for key in ("name", "version", "buildings"):
        if key not in raw:
            raise ContentError(f"content pack lacks {key!r}")
    name = raw["name"]
    if not isinstance(name, str) or not name:
        raise ContentError("name: a non-empty string")
    buildings = []
    for i, b in enumerate(raw["buildings"]):
        if not isinstance(b, dict) or not isinstance(b.get("location"), str) or not b["location"]:
            raise ContentError(f"buildings[{i}]: needs a 'location' name")
        tokens = b.get("tokens", 1)
        if not isinstance(tokens, int) or tokens < 1:
            raise ContentError(f"buildings[{i}].tokens: a whole number >= 1")
        buildings.append((b["location"], tokens))
    locations = {b for b, _ in buildings}
    types: dict[str, TownTypeRules] = {}
    for type_name, rules in raw.get("town_types", {}).items():
        always = tuple(rules.get("always", ()))
        never = tuple(rules.get("never", ()))
        for where, names in (("always", always), ("never", never)):
            missing = [n for n in names if n not in locations]
            if missing:
                raise ContentError(f"town_types.{type_name}.{where}: {missing} have no Building token in this pack")
        if set(always) & set(never):
            raise ContentError(f"town_types.{type_name}: a Location cannot be both always and never present")
        types[type_name] = TownTypeRules(always, never)
    classes: dict[str, dict[str, Any]] = {}
    for class_name, stats in raw.get("hero_classes", {}).items():
        if not isinstance(stats, dict):
            raise ContentError(f"hero_classes.{class_name}: an object of starting stats")
        unknown = set(stats) - {"skills", "health", "sanity", "max_grit", "defense", "willpower", "keywords"}
        if unknown:
            raise ContentError(f"hero_classes.{class_name}: unknown keys {sorted(unknown)}")
        bad = set(stats.get("skills", {})) - set(SKILLS)
        if bad:
            raise ContentError(f"hero_classes.{class_name}.skills: unknown skills {sorted(bad)}")
        classes[class_name] = stats
    charts: dict[str, Chart] = {}
    for chart_name, chart in raw.get("charts", {}).items():
        try:
            die = DieKind(chart["die"])
        except (KeyError, ValueError):
            raise ContentError(f"charts.{chart_name}.die: one of {[d.value for d in DieKind]}") from None
        entries = tuple(
            ChartEntry(
                int(e["low"]),
                int(e.get("high", e["low"])),
                str(e.get("text", "")),
                tuple(_effect(x, f"charts.{chart_name}.entries[{i}].effects") for x in e.get("effects", ())),
            )
            for i, e in enumerate(chart.get("entries", ()))
        )
        low, high = _chart_range(die)
        covered = sorted(v for e in entries for v in range(e.low, e.high + 1))
        wanted = [v for v in range(low, high + 1) if die is not DieKind.D36 or (v % 10 in range(1, 7))]
        if covered != wanted:
            raise ContentError(f"charts.{chart_name}: entries must cover each result {low}..{high} exactly once")
        charts[chart_name] = Chart(die, entries)
    return ContentPack(name, int(raw["version"]), tuple(buildings), types, classes, charts)


TRAVEL_HAZARDS: dict[int, HazardEntry] = _load_hazards(_read("travel_hazards.json"))
TOWN_TYPES: dict[int, str] = _load_town_types(_read("town_types.json"))
TOWN_SIZES: dict[TownSize, SizeEntry] = _load_sizes(_read("town_sizes.json"))
PACKS: dict[str, ContentPack] = {"default": load_pack(_read("default_pack.json"))}


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
