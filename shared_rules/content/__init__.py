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

from ..codec import decode_content
from ..commands import Effect
from ..dice import DieKind, face_range
from ..errors import ContentError
from ..meta import meta, provide
from ..state import SKILLS, Hero, Skills, TownSize
from .adventure import AdventureContent, checked_effects, load_adventure
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


@dataclass(frozen=True, slots=True)
class SizeDoc:
    """A town size in town_sizes.json (FT-TRAVEL-02)."""

    locations: int = field(metadata=meta(minimum=1, maximum=8))
    auto_hazards_per_hero: int = field(metadata=meta(minimum=0))
    roll_adds_hazard_on: tuple[int, ...] = field(metadata=meta(minimum=1, maximum=6))  # D6 faces


def _load_sizes(raw: dict[str, Any]) -> dict[TownSize, SizeEntry]:
    sizes = {}
    for size in TownSize:
        if size.value not in raw:
            raise ContentError(f"town_sizes.json lacks {size.value!r}")
        doc: SizeDoc = decode_content(SizeDoc, raw[size.value], f"town_sizes.json {size.value}")
        sizes[size] = SizeEntry(doc.locations, doc.auto_hazards_per_hero, frozenset(doc.roll_adds_hazard_on))
    return sizes


def _chart_range(die: DieKind) -> tuple[int, int]:
    if die is DieKind.D36:
        return 11, 66
    if die in (DieKind.TWO_D6,):
        return 2, 12
    if die is DieKind.INJURY_3D6:
        return 2, 12
    faces = face_range(die)
    return (1, 3) if die is DieKind.D3 else (faces[0], faces[-1])


ELEMENTS = ("fire", "wind", "water", "earth")  # a Sorceress's Elemental Focus (FF-SORC-02)


# ---- a pack document as written (docs/content-packs.md), decoded by the codec -------------------------------------
@dataclass(frozen=True, slots=True)
class BuildingDoc:
    location: str = field(metadata=meta(pattern=r"\S"))
    tokens: int = field(default=1, metadata=meta(minimum=1))


@dataclass(frozen=True, slots=True)
class TownTypeDoc:
    always: tuple[str, ...] = field(default=(), metadata=meta(pattern=r"\S"))
    never: tuple[str, ...] = field(default=(), metadata=meta(pattern=r"\S"))
    special_rules: Any = None  # these three: content/stay.py reads them
    daily_events: Any = None
    extra_options: Any = None


def _skill() -> Any:
    return field(default=None, metadata=meta(minimum=0, maximum=12))


def _number(low: int, high: int | None = None) -> Any:
    return field(default=None, metadata=meta(minimum=low, maximum=high))


@dataclass(frozen=True, slots=True)
class SkillsDoc:
    agility: int | None = _skill()
    cunning: int | None = _skill()
    spirit: int | None = _skill()
    strength: int | None = _skill()
    lore: int | None = _skill()
    luck: int | None = _skill()


@dataclass(frozen=True, slots=True)
class HeroClassDoc:
    """A class sheet's starting stats (FF-HERO-01), and what an Adventure reads from it (§20; state.ClassSheet)."""

    skills: SkillsDoc = SkillsDoc()
    keywords: tuple[str, ...] = field(default=(), metadata=meta(pattern=r"\S"))
    focus: str | None = field(default=None, metadata=meta(choices=ELEMENTS, rule="FF-SORC-02"))
    health: int | None = _number(1)
    sanity: int | None = _number(1)
    max_grit: int | None = _number(0)
    defense: int | None = _number(1, 7)
    willpower: int | None = _number(1, 7)
    initiative: int | None = _number(0, 20)
    max_fury: int | None = _number(0, 20)
    max_ki: int | None = _number(0, 20)
    ki_damage: int | None = _number(0, 20)
    ki_heal: int | None = _number(0, 20)
    mana: int | None = _number(0, 20)
    blast_cost: int | None = _number(0, 20)
    deadly_bonus: int | None = _number(0, 20)
    combat: int | None = _number(0, 20)
    melee_to_hit: int | None = _number(0, 6)
    ranged_to_hit: int | None = _number(0, 6)
    shots: int | None = _number(0, 20)
    damage_bonus: int | None = _number(0, 20)


@dataclass(frozen=True, slots=True)
class ChartEntryDoc:
    low: int
    high: int | None = None  # the same as low
    text: str = ""
    effects: tuple[Effect, ...] = ()


@dataclass(frozen=True, slots=True)
class ChartDoc:
    die: DieKind
    entries: tuple[ChartEntryDoc, ...]


@dataclass(frozen=True, slots=True)
class PackDoc:
    """A content pack as written; `load_pack` checks what spans fields (a Location named must have a token ...)."""

    name: str = field(metadata=meta(pattern=r"\S"))
    version: int = field(metadata=meta(minimum=0))
    buildings: tuple[BuildingDoc, ...] = field(metadata=meta(min_items=1, rule="FT-TOWN-03"))
    description: str = ""
    town_types: dict[str, TownTypeDoc] = field(default_factory=dict)
    hero_classes: dict[str, HeroClassDoc] = field(default_factory=dict)
    charts: dict[str, ChartDoc] = field(default_factory=dict)
    town: Any = None  # these four: content/stay.py reads them
    locations: Any = None
    tokens: Any = None
    low_threats: Any = None
    adventure: Any = None  # content/adventure.py decodes it


def load_pack(raw: Any) -> ContentPack:
    """Decode and check a content pack document; every problem names where it is (ContentError)."""
    if not isinstance(raw, dict):
        raise ContentError("a content pack is a JSON object")
    doc: PackDoc = decode_content(PackDoc, raw, "")
    tokens_of = _buildings(doc.buildings)
    types = {name: _town_type(name, rules, tokens_of) for name, rules in doc.town_types.items()}
    charts = {name: _chart(chart, f"charts.{name}") for name, chart in doc.charts.items()}
    stay = load_stay(raw, frozenset(tokens_of), set(types), PackCheck())
    adventure = load_adventure(raw["adventure"]) if "adventure" in raw else AdventureContent()
    classes = dict(raw.get("hero_classes", {}))  # checked above; kept as written (hero_from_class, ClassSheet)
    return ContentPack(doc.name, doc.version, tuple(tokens_of.items()), types, classes, charts, stay, adventure)


def _buildings(buildings: tuple[BuildingDoc, ...]) -> dict[str, int]:
    """The Building tokens by Location, each Location once (FT-TOWN-03)."""
    tokens_of: dict[str, int] = {}
    for i, b in enumerate(buildings):
        if b.location in tokens_of:
            raise ContentError(f"buildings[{i}]: {b.location!r} is listed twice; give it more 'tokens' instead",
                               field=f"buildings[{i}]")  # fmt: skip
        tokens_of[b.location] = b.tokens
    return tokens_of


def _town_type(name: str, rules: TownTypeDoc, tokens_of: dict[str, int]) -> TownTypeRules:
    """A Town type of the 2D6 table (FT-TOWN-02) whose always/never Locations have Building tokens in the pack."""
    where = f"town_types.{name}"
    if name not in TOWN_TYPES.values():
        raise ContentError(f"{where}: not a Town type of the 2D6 table (FT-TOWN-02); one of "
                           f"{sorted(set(TOWN_TYPES.values()))}", field=where, rule="FT-TOWN-02")  # fmt: skip
    for key, names in (("always", rules.always), ("never", rules.never)):
        missing = [n for n in names if n not in tokens_of]
        if missing:
            raise ContentError(f"{where}.{key}: {missing} have no Building token in this pack", field=f"{where}.{key}")
    short = sorted({n for n in rules.always if rules.always.count(n) > tokens_of[n]})
    if short:
        raise ContentError(f"{where}.always: {short} named more often than they have Building tokens",
                           field=f"{where}.always")  # fmt: skip
    if set(rules.always) & set(rules.never):
        raise ContentError(f"{where}: a Location cannot be both always and never present", field=where)
    return TownTypeRules(rules.always, rules.never)


def _chart(chart: ChartDoc, where: str) -> Chart:
    """A pack's chart: entries (low..high, in any order) that cover each result of its die exactly once."""
    entries = []
    for i, e in enumerate(chart.entries):
        at = f"{where}.entries[{i}]"
        high = e.low if e.high is None else e.high
        if high < e.low:
            raise ContentError(f"{at}.high: {high} is below low ({e.low})", field=f"{at}.high")
        entries.append(ChartEntry(e.low, high, e.text, checked_effects(e.effects, f"{at}.effects")))
    entries.sort(key=lambda entry: entry.low)
    low, high = _chart_range(chart.die)
    covered = sorted(v for e in entries for v in range(e.low, e.high + 1))
    wanted = [v for v in range(low, high + 1) if chart.die is not DieKind.D36 or (v % 10 in range(1, 7))]
    if covered != wanted:
        raise ContentError(f"{where}: entries must cover each result {low}..{high} exactly once", field=where)
    return Chart(chart.die, tuple(entries))


TRAVEL_HAZARDS: dict[int, HazardEntry] = _load_hazards(_read("travel_hazards.json"))
TOWN_TYPES: dict[int, str] = _load_town_types(_read("town_types.json"))
TOWN_SIZES: dict[TownSize, SizeEntry] = _load_sizes(_read("town_sizes.json"))
PACKS: dict[str, ContentPack] = {"default": load_pack(_read("default_pack.json"))}
provide("packs", lambda: sorted(PACKS))  # the documents' Pack: what state.Session.pack may name


def _load_class_names(raw: dict[str, Any]) -> dict[str, tuple[str, ...]]:
    """Hero class names by game line (names only; numbers come from a pack's hero_classes)."""
    return {line: decode_content(tuple[str, ...], names, f"hero_classes.json {line}") for line, names in raw.items()
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
