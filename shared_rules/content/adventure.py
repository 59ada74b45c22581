"""The adventure part of a content pack: what the rulebooks refer to but do not print ((b)1, 2, 9, 10), validated.

Depth Track layouts, the Depth Event charts, the 12 Exploration Tokens, Map cards, the Scavenge deck, Enemy Record
Sheets, Threat cards, Spell and Battle Tactic cards. Every part is optional: what a pack lacks, the table types in
(a command's fields or a card prompt) and the engine still applies every rule it knows. Schema: docs/content-packs.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..commands import Effect
from ..errors import ContentError
from ..state.adventure import DepthTrack, ExplorationToken, SpaceMark, TrackSpace

THREAT_LEVELS = ("low", "med", "high", "epic")
ELEMENTS = ("fire", "wind", "water", "earth")
SIZES = ("", "large", "xl")
DEPTH_EVENT_CHARTS = ("depth_event", "town_depth_event")  # FF-DEPTH-05; the Town board's (FT-BOARD-01)
EXPLORATION_TOKENS = 12  # FF-SETUP-01 step 3, FF-EXPL-02


@dataclass(frozen=True, slots=True)
class DepthEventEntry:
    """One result of a Depth Event chart (double N = entry N): its words and what the engine can apply."""

    face: int
    text: str
    darkness: int = 0  # Darkness marker steps toward the Entrance
    growing_dread: int = 0  # Growing Dread cards added
    darkness_cards: int = 0  # Darkness cards drawn
    attack: str = ""  # a Threat deck to draw from (low, med, high, epic)
    lantern_holder: tuple[Effect, ...] = ()
    each_hero: tuple[Effect, ...] = ()


@dataclass(frozen=True, slots=True)
class EnemySheet:
    """An Enemy Record Sheet ((b)10): the numbers the engine keeps for each model of it."""

    name: str
    health: int
    initiative: int = 0
    defense: int = 0
    armor: int = 0
    combat: int = 0
    to_hit: int = 0
    damage: int = 0
    size: str = ""


@dataclass(frozen=True, slots=True)
class ThreatGroup:
    enemy: str  # an Enemy Record Sheet key
    count: int = 1
    peril: bool = False  # the count is a Peril Die roll (FF-DICE-04)


@dataclass(frozen=True, slots=True)
class ThreatCard:
    name: str
    groups: tuple[ThreatGroup, ...]


@dataclass(frozen=True, slots=True)
class SpellSheet:
    """An Elemental Magik card (FF-SORC-02..06)."""

    element: str
    cost: int
    casting: int
    dangerous: bool = False
    xp: int = 0
    xp_once: bool = False
    ranged_attack: bool = False


@dataclass(frozen=True, slots=True)
class TacticSheet:
    """A Samurai Battle Tactic card (FF-SAM-02)."""

    cost: int
    any_time: bool = False


@dataclass(frozen=True, slots=True)
class MapCard:
    name: str
    kind: str  # room or passage (FF-EXPL-02)


@dataclass(frozen=True, slots=True)
class DeckCard:
    """A card of a deck the engine draws (the Scavenge deck): its words and its effects on the hero who drew it."""

    text: str
    effects: tuple[Effect, ...] = ()


@dataclass(frozen=True, slots=True)
class AdventureContent:
    depth_tracks: dict[str, DepthTrack] = field(default_factory=dict)
    depth_events: dict[str, tuple[DepthEventEntry, ...]] = field(default_factory=dict)
    exploration_tokens: tuple[ExplorationToken, ...] = ()
    map_cards: tuple[MapCard, ...] = ()
    scavenge: tuple[DeckCard, ...] = ()
    enemies: dict[str, EnemySheet] = field(default_factory=dict)
    threats: dict[str, tuple[ThreatCard, ...]] = field(default_factory=dict)
    spells: dict[str, SpellSheet] = field(default_factory=dict)
    tactics: dict[str, TacticSheet] = field(default_factory=dict)


def check_track(spaces: tuple[TrackSpace, ...], where: str, error: type[Exception] = ContentError) -> None:
    """A Depth Track layout the rules can play (FF-DEPTH-01, A2): numbered 0 (Darkness Start) up to the Entrance,
    Stages 3 at Darkness Start down to 1 at the Entrance and never rising toward it, no mark on either end."""
    if len(spaces) < 3:
        raise _error(error, f"{where}: a Depth Track has at least 3 spaces (Darkness Start, ..., Entrance)", where)
    for index, space in enumerate(spaces):
        at = f"{where}[{index}]"
        if space.number != index:
            raise _error(error, f"{at}.number: spaces are numbered from Darkness Start, 0, 1, 2 ... (A2); "
                                f"expected {index}, got {space.number}", f"{at}.number")  # fmt: skip
        if space.stage not in (1, 2, 3):
            raise _error(error, f"{at}.stage: a Stage is 1, 2 or 3 (7+, 8+, 9+; FF-DEPTH-01)", f"{at}.stage")
        if index and space.stage > spaces[index - 1].stage:
            raise _error(error, f"{at}.stage: Stages run 3 at Darkness Start down to 1 at the Entrance "
                                "(FF-DEPTH-01)", f"{at}.stage")  # fmt: skip
    if spaces[0].stage != 3 or spaces[-1].stage != 1:
        raise _error(error, f"{where}: Darkness Start is in Stage 3 and the Entrance in Stage 1 (FF-DEPTH-01)", where)
    for index in (0, len(spaces) - 1):
        if spaces[index].mark is not SpaceMark.NONE:
            raise _error(error, f"{where}[{index}].mark: Darkness Start and the Entrance carry no mark",
                         f"{where}[{index}].mark")  # fmt: skip


def _error(kind: type[Exception], message: str, where: str) -> Exception:
    return kind(message, field=where)  # type: ignore[call-arg]


Checker = Callable[..., Any]


def load_adventure(raw: Any, effect: Checker) -> AdventureContent:
    """Validate the `adventure` section of a content pack (`effect` parses one effect as the charts' do)."""
    from . import _int, _object

    section = _object(raw, "adventure")
    _keys(section, "adventure", {"depth_tracks", "depth_events", "exploration_tokens", "map_cards", "scavenge",
                                 "enemies", "threats", "spells", "tactics"})  # fmt: skip
    tracks: dict[str, DepthTrack] = {}
    for name, track in _object(section.get("depth_tracks", {}), "adventure.depth_tracks").items():
        where = f"adventure.depth_tracks.{name}"
        track = _object(track, where)
        _keys(track, where, {"spaces"})
        if not isinstance(track.get("spaces"), list):
            raise ContentError(f"{where}.spaces: a list of spaces", field=f"{where}.spaces")
        spaces = []
        for i, space in enumerate(track["spaces"]):
            at = f"{where}.spaces[{i}]"
            space = _object(space, at)
            _keys(space, at, {"number", "stage", "mark"})
            mark = space.get("mark", "none")
            if mark not in [m.value for m in SpaceMark]:
                raise ContentError(f"{at}.mark: one of {[m.value for m in SpaceMark]}", field=f"{at}.mark")
            spaces.append(TrackSpace(_int(space.get("number"), f"{at}.number"), _int(space.get("stage"), f"{at}.stage"),
                                     SpaceMark(mark)))  # fmt: skip
        check_track(tuple(spaces), f"{where}.spaces")
        tracks[name] = DepthTrack(name, tuple(spaces))
    events: dict[str, tuple[DepthEventEntry, ...]] = {}
    for chart, entries in _object(section.get("depth_events", {}), "adventure.depth_events").items():
        where = f"adventure.depth_events.{chart}"
        if chart not in DEPTH_EVENT_CHARTS:
            raise ContentError(f"{where}: a Depth Event chart is one of {list(DEPTH_EVENT_CHARTS)}", field=where)
        if not isinstance(entries, list):
            raise ContentError(f"{where}: a list of the 6 entries", field=where)
        parsed = []
        for i, entry in enumerate(entries):
            at = f"{where}[{i}]"
            entry = _object(entry, at)
            _keys(entry, at, {"face", "text", "darkness", "growing_dread", "darkness_cards", "attack",
                              "lantern_holder", "each_hero"})  # fmt: skip
            attack = entry.get("attack", "")
            if attack not in ("", *THREAT_LEVELS):
                raise ContentError(f"{at}.attack: one of {list(THREAT_LEVELS)}", field=f"{at}.attack")
            parsed.append(DepthEventEntry(
                _int(entry.get("face"), f"{at}.face", 1, 6), _text(entry.get("text", ""), f"{at}.text"),
                _int(entry.get("darkness", 0), f"{at}.darkness", 0, 20),
                _int(entry.get("growing_dread", 0), f"{at}.growing_dread", 0, 7),
                _int(entry.get("darkness_cards", 0), f"{at}.darkness_cards", 0, 12), attack,
                _effects(entry.get("lantern_holder", []), f"{at}.lantern_holder", effect),
                _effects(entry.get("each_hero", []), f"{at}.each_hero", effect),
            ))  # fmt: skip
        if sorted(e.face for e in parsed) != [1, 2, 3, 4, 5, 6]:
            raise ContentError(f"{where}: one entry for each double, faces 1 to 6 (FF-DEPTH-05)", field=where)
        events[chart] = tuple(sorted(parsed, key=lambda e: e.face))
    tokens: list[ExplorationToken] = []
    raw_tokens = section.get("exploration_tokens", [])
    if not isinstance(raw_tokens, list):
        raise ContentError("adventure.exploration_tokens: a list of token faces", field="adventure.exploration_tokens")
    for i, token in enumerate(raw_tokens):
        at = f"adventure.exploration_tokens[{i}]"
        token = _object(token, at)
        _keys(token, at, {"doors", "gates", "attack", "clue", "growing_dread", "count"})
        face = ExplorationToken(_int(token.get("doors", 1), f"{at}.doors", 0, 4),
                                _int(token.get("gates", 0), f"{at}.gates", 0, 4),
                                _bool(token.get("attack", False), f"{at}.attack"),
                                _bool(token.get("clue", False), f"{at}.clue"),
                                _bool(token.get("growing_dread", False), f"{at}.growing_dread"))  # fmt: skip
        tokens += [face] * _int(token.get("count", 1), f"{at}.count", 1, EXPLORATION_TOKENS)
    if tokens and len(tokens) != EXPLORATION_TOKENS:
        raise ContentError(f"adventure.exploration_tokens: the stack has {EXPLORATION_TOKENS} tokens "
                           f"(FF-EXPL-02), got {len(tokens)}", field="adventure.exploration_tokens")  # fmt: skip
    if sum(t.growing_dread for t in tokens) > 1:
        raise ContentError("adventure.exploration_tokens: only one token adds Growing Dread (FF-EXPL-05)",
                           field="adventure.exploration_tokens")  # fmt: skip
    maps = []
    seen: set[str] = set()
    for i, card in enumerate(_list(section.get("map_cards", []), "adventure.map_cards")):
        at = f"adventure.map_cards[{i}]"
        card = _object(card, at)
        _keys(card, at, {"name", "kind"})
        name = _text(card.get("name"), f"{at}.name", required=True)
        if name in seen:
            raise ContentError(f"{at}.name: {name!r} is listed twice; every Map card is one tile", field=f"{at}.name")
        seen.add(name)
        if card.get("kind") not in ("room", "passage"):
            raise ContentError(f"{at}.kind: room or passage (FF-EXPL-02)", field=f"{at}.kind")
        maps.append(MapCard(name, card["kind"]))
    scavenge = []
    for i, card in enumerate(_list(section.get("scavenge", []), "adventure.scavenge")):
        at = f"adventure.scavenge[{i}]"
        card = _object(card, at)
        _keys(card, at, {"text", "effects"})
        scavenge.append(DeckCard(_text(card.get("text"), f"{at}.text", required=True),
                                 _effects(card.get("effects", []), f"{at}.effects", effect)))  # fmt: skip
    enemies: dict[str, EnemySheet] = {}
    for key, sheet in _object(section.get("enemies", {}), "adventure.enemies").items():
        at = f"adventure.enemies.{key}"
        sheet = _object(sheet, at)
        _keys(sheet, at, {"name", "health", "initiative", "defense", "armor", "combat", "to_hit", "damage", "size"})
        size = sheet.get("size", "")
        if size not in SIZES:
            raise ContentError(f"{at}.size: one of {list(SIZES)}", field=f"{at}.size")
        enemies[key] = EnemySheet(
            _text(sheet.get("name"), f"{at}.name", required=True), _int(sheet.get("health"), f"{at}.health", 1, 999),
            _int(sheet.get("initiative", 0), f"{at}.initiative", 0, 20),
            _int(sheet.get("defense", 0), f"{at}.defense", 0, 20), _int(sheet.get("armor", 0), f"{at}.armor", 0, 6),
            _int(sheet.get("combat", 0), f"{at}.combat", 0, 20), _int(sheet.get("to_hit", 0), f"{at}.to_hit", 0, 6),
            _int(sheet.get("damage", 0), f"{at}.damage", 0, 99), size,
        )  # fmt: skip
    threats: dict[str, tuple[ThreatCard, ...]] = {}
    for level, cards in _object(section.get("threats", {}), "adventure.threats").items():
        where = f"adventure.threats.{level}"
        if level not in THREAT_LEVELS:
            raise ContentError(f"{where}: a Threat deck is one of {list(THREAT_LEVELS)}", field=where)
        parsed_cards = []
        for i, card in enumerate(_list(cards, where)):
            at = f"{where}[{i}]"
            card = _object(card, at)
            _keys(card, at, {"name", "enemies"})
            groups = []
            for j, group in enumerate(_list(card.get("enemies"), f"{at}.enemies")):
                gat = f"{at}.enemies[{j}]"
                group = _object(group, gat)
                _keys(group, gat, {"enemy", "count"})
                if group.get("enemy") not in enemies:
                    raise ContentError(f"{gat}.enemy: {group.get('enemy')!r} has no Enemy Record Sheet in this pack",
                                       field=f"{gat}.enemy")  # fmt: skip
                count = group.get("count", 1)
                peril = count == "peril"
                groups.append(ThreatGroup(group["enemy"], 0 if peril else _int(count, f"{gat}.count", 1, 20), peril))
            if not groups:
                raise ContentError(f"{at}.enemies: a Threat card lists at least one group", field=f"{at}.enemies")
            parsed_cards.append(ThreatCard(_text(card.get("name"), f"{at}.name", required=True), tuple(groups)))
        threats[level] = tuple(parsed_cards)
    spells: dict[str, SpellSheet] = {}
    for name, card in _object(section.get("spells", {}), "adventure.spells").items():
        at = f"adventure.spells.{name}"
        card = _object(card, at)
        _keys(card, at, {"element", "cost", "casting", "dangerous", "xp", "xp_once", "ranged_attack"})
        if card.get("element") not in ELEMENTS:
            raise ContentError(f"{at}.element: one of {list(ELEMENTS)} (FF-SORC-02)", field=f"{at}.element")
        spells[name] = SpellSheet(card["element"], _int(card.get("cost"), f"{at}.cost", 0, 20),
                                  _int(card.get("casting"), f"{at}.casting", 0, 30),
                                  _bool(card.get("dangerous", False), f"{at}.dangerous"),
                                  _int(card.get("xp", 0), f"{at}.xp", 0, 999),
                                  _bool(card.get("xp_once", False), f"{at}.xp_once"),
                                  _bool(card.get("ranged_attack", False), f"{at}.ranged_attack"))  # fmt: skip
    tactics: dict[str, TacticSheet] = {}
    for name, card in _object(section.get("tactics", {}), "adventure.tactics").items():
        at = f"adventure.tactics.{name}"
        card = _object(card, at)
        _keys(card, at, {"cost", "any_time"})
        tactics[name] = TacticSheet(_int(card.get("cost"), f"{at}.cost", 0, 20),
                                    _bool(card.get("any_time", False), f"{at}.any_time"))  # fmt: skip
    return AdventureContent(tracks, events, tuple(tokens), tuple(maps), tuple(scavenge), enemies, threats, spells,
                            tactics)  # fmt: skip


def _keys(raw: dict[str, Any], where: str, allowed: set[str]) -> None:
    unknown = set(raw) - allowed
    if unknown:
        raise ContentError(f"{where}: unknown keys {sorted(unknown)}", field=where)


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise ContentError(f"{where}: a list", field=where)
    return value


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise ContentError(f"{where}: true or false, not {value!r}", field=where)
    return value


def _text(value: Any, where: str, *, required: bool = False) -> str:
    if not isinstance(value, str) or (required and not value.strip()):
        raise ContentError(f"{where}: {'a non-empty' if required else 'a'} string", field=where)
    return value


def _effects(value: Any, where: str, effect: Checker) -> tuple[Effect, ...]:
    return tuple(effect(item, f"{where}[{i}]") for i, item in enumerate(_list(value, where)))
