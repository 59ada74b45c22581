"""The adventure part of a content pack: what the rulebooks refer to but do not print ((b)1, 2, 9, 10), validated.

Depth Track layouts, the Depth Event charts, the 12 Exploration Tokens, Map cards, the Scavenge deck, Enemy Record
Sheets, Threat cards, Spell and Battle Tactic cards. Every part is optional: what a pack lacks, the table types in
(a command's fields or a card prompt) and the engine still applies every rule it knows. Schema: docs/content-packs.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..codec import decode_content
from ..commands import Effect
from ..effects import check_effect
from ..errors import ContentError, RulesError
from ..meta import meta
from ..state.adventure import DepthTrack, ExplorationToken, SpaceMark, TrackSpace

THREAT_LEVELS = ("low", "med", "high", "epic")
ELEMENTS = ("fire", "wind", "water", "earth")
SIZES = ("", "large", "xl")
DEPTH_EVENT_CHARTS = ("depth_event", "town_depth_event")  # FF-DEPTH-05; the Town board's (FT-BOARD-01)
EXPLORATION_TOKENS = 12  # FF-SETUP-01 step 3, FF-EXPL-02


@dataclass(frozen=True, slots=True)
class DepthEventEntry:
    """One result of a Depth Event chart (double N = entry N): its words and what the engine can apply."""

    face: int = field(metadata=meta(minimum=1, maximum=6))
    text: str = ""
    darkness: int = field(default=0, metadata=meta(minimum=0, maximum=20))  # Darkness marker steps toward the Entrance
    growing_dread: int = field(default=0, metadata=meta(minimum=0, maximum=7))  # Growing Dread cards added
    darkness_cards: int = field(default=0, metadata=meta(minimum=0, maximum=12))  # Darkness cards drawn
    attack: str = field(default="", metadata=meta(choices=("", *THREAT_LEVELS)))  # a Threat deck to draw from
    lantern_holder: tuple[Effect, ...] = ()
    each_hero: tuple[Effect, ...] = ()


@dataclass(frozen=True, slots=True)
class EnemySheet:
    """An Enemy Record Sheet ((b)10): the numbers the engine keeps for each model of it."""

    name: str = field(metadata=meta(pattern=r"\S"))
    health: int = field(metadata=meta(minimum=1, maximum=999))
    initiative: int = field(default=0, metadata=meta(minimum=0, maximum=20))
    defense: int = field(default=0, metadata=meta(minimum=0, maximum=20))
    armor: int = field(default=0, metadata=meta(minimum=0, maximum=6))
    combat: int = field(default=0, metadata=meta(minimum=0, maximum=20))
    to_hit: int = field(default=0, metadata=meta(minimum=0, maximum=6))
    damage: int = field(default=0, metadata=meta(minimum=0, maximum=99))
    size: str = field(default="", metadata=meta(choices=SIZES))


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

    element: str = field(metadata=meta(choices=ELEMENTS, rule="FF-SORC-02"))
    cost: int = field(metadata=meta(minimum=0, maximum=20))
    casting: int = field(metadata=meta(minimum=0, maximum=30))
    dangerous: bool = False
    xp: int = field(default=0, metadata=meta(minimum=0, maximum=999))
    xp_once: bool = False
    ranged_attack: bool = False


@dataclass(frozen=True, slots=True)
class TacticSheet:
    """A Samurai Battle Tactic card (FF-SAM-02)."""

    cost: int = field(metadata=meta(minimum=0, maximum=20))
    any_time: bool = False


@dataclass(frozen=True, slots=True)
class MapCard:
    name: str = field(metadata=meta(pattern=r"\S"))
    kind: str = field(metadata=meta(choices=("room", "passage"), rule="FF-EXPL-02"))


@dataclass(frozen=True, slots=True)
class DeckCard:
    """A card of a deck the engine draws (the Scavenge deck): its words and its effects on the hero who drew it."""

    text: str = field(metadata=meta(pattern=r"\S"))
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


# ---- the pack's JSON where it differs from the values above (docs/content-packs.md) ---------------------------
@dataclass(frozen=True, slots=True)
class TrackDoc:
    spaces: tuple[TrackSpace, ...]


@dataclass(frozen=True, slots=True)
class TokenDoc:
    """Exploration Token faces, `count` of each."""

    doors: int = field(default=1, metadata=meta(minimum=0, maximum=4))
    gates: int = field(default=0, metadata=meta(minimum=0, maximum=4))
    attack: bool = False
    clue: bool = False
    growing_dread: bool = False
    count: int = field(default=1, metadata=meta(minimum=1, maximum=EXPLORATION_TOKENS))


@dataclass(frozen=True, slots=True)
class GroupDoc:
    enemy: str
    count: int | str = 1  # 1-20, or "peril": a Peril Die roll (FF-DICE-04)


@dataclass(frozen=True, slots=True)
class ThreatDoc:
    name: str = field(metadata=meta(pattern=r"\S"))
    enemies: tuple[GroupDoc, ...] = field(metadata=meta(min_items=1))  # at least one group


@dataclass(frozen=True, slots=True)
class AdventureDoc:
    """The `adventure` section of a content pack as written; `load_adventure` checks what spans fields."""

    depth_tracks: dict[str, TrackDoc] = field(default_factory=dict)
    depth_events: dict[str, tuple[DepthEventEntry, ...]] = field(default_factory=dict)
    exploration_tokens: tuple[TokenDoc, ...] = ()
    map_cards: tuple[MapCard, ...] = ()
    scavenge: tuple[DeckCard, ...] = ()
    enemies: dict[str, EnemySheet] = field(default_factory=dict)
    threats: dict[str, tuple[ThreatDoc, ...]] = field(default_factory=dict)
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


def checked_effect(effect: Effect, where: str) -> Effect:
    """An effect decoded from a pack, held to what the adjust command takes (a name to remove, a skill 0-12 ...)."""
    try:
        check_effect(effect, where)
    except RulesError as error:
        raise ContentError(error.message, field=error.field, rule=error.rule) from None
    return effect


def checked_effects(effects: tuple[Effect, ...], where: str) -> tuple[Effect, ...]:
    return tuple(checked_effect(effect, f"{where}[{index}]") for index, effect in enumerate(effects))


def load_adventure(raw: Any) -> AdventureContent:
    """Decode and check the `adventure` section of a content pack (ContentError naming the path)."""
    doc: AdventureDoc = decode_content(AdventureDoc, raw, "adventure")
    where = "adventure"
    for name, track in doc.depth_tracks.items():
        check_track(track.spaces, f"{where}.depth_tracks.{name}.spaces")
    return AdventureContent(
        {name: DepthTrack(name, track.spaces) for name, track in doc.depth_tracks.items()},
        _depth_events(doc.depth_events, f"{where}.depth_events"),
        _exploration_tokens(doc.exploration_tokens, f"{where}.exploration_tokens"),
        _map_cards(doc.map_cards, f"{where}.map_cards"),
        tuple(DeckCard(c.text, checked_effects(c.effects, f"{where}.scavenge[{i}].effects"))
              for i, c in enumerate(doc.scavenge)),  # fmt: skip
        doc.enemies,
        _threats(doc.threats, doc.enemies, f"{where}.threats"),
        doc.spells,
        doc.tactics,
    )


def _depth_events(charts: dict[str, tuple[DepthEventEntry, ...]], where: str) -> dict[str, tuple[DepthEventEntry, ...]]:
    """Each chart is one of the Depth Event charts with one entry per double, 1 to 6 (FF-DEPTH-05)."""
    for chart, entries in charts.items():
        at = f"{where}.{chart}"
        if chart not in DEPTH_EVENT_CHARTS:
            raise ContentError(f"{at}: a Depth Event chart is one of {list(DEPTH_EVENT_CHARTS)}", field=at)
        if sorted(e.face for e in entries) != [1, 2, 3, 4, 5, 6]:
            raise ContentError(f"{at}: one entry for each double, faces 1 to 6 (FF-DEPTH-05)", field=at,
                               rule="FF-DEPTH-05")  # fmt: skip
        for i, entry in enumerate(entries):
            checked_effects(entry.lantern_holder, f"{at}[{i}].lantern_holder")
            checked_effects(entry.each_hero, f"{at}[{i}].each_hero")
    return {chart: tuple(sorted(entries, key=lambda e: e.face)) for chart, entries in charts.items()}


def _exploration_tokens(docs: tuple[TokenDoc, ...], where: str) -> tuple[ExplorationToken, ...]:
    """The stack: 12 tokens (FF-EXPL-02), one of them adding Growing Dread (FF-EXPL-05); none: the table's own."""
    tokens = [ExplorationToken(t.doors, t.gates, t.attack, t.clue, t.growing_dread) for t in docs for _ in range(t.count)]
    if tokens and len(tokens) != EXPLORATION_TOKENS:
        raise ContentError(f"{where}: the stack has {EXPLORATION_TOKENS} tokens (FF-EXPL-02), got {len(tokens)}",
                           field=where, rule="FF-EXPL-02")  # fmt: skip
    if sum(t.growing_dread for t in tokens) > 1:
        raise ContentError(f"{where}: only one token adds Growing Dread (FF-EXPL-05)", field=where, rule="FF-EXPL-05")
    return tuple(tokens)


def _map_cards(cards: tuple[MapCard, ...], where: str) -> tuple[MapCard, ...]:
    seen: set[str] = set()
    for i, card in enumerate(cards):
        if card.name in seen:
            raise ContentError(f"{where}[{i}].name: {card.name!r} is listed twice; every Map card is one tile",
                               field=f"{where}[{i}].name")  # fmt: skip
        seen.add(card.name)
    return cards


def _threats(decks: dict[str, tuple[ThreatDoc, ...]], enemies: dict[str, EnemySheet],
             where: str) -> dict[str, tuple[ThreatCard, ...]]:  # fmt: skip
    """Threat decks by level; each group an Enemy Record Sheet of the pack, 1-20 of them or a Peril Die roll."""
    threats: dict[str, tuple[ThreatCard, ...]] = {}
    for level, cards in decks.items():
        at = f"{where}.{level}"
        if level not in THREAT_LEVELS:
            raise ContentError(f"{at}: a Threat deck is one of {list(THREAT_LEVELS)}", field=at)
        threats[level] = tuple(
            ThreatCard(card.name, tuple(_group(g, enemies, f"{at}[{i}].enemies[{j}]") for j, g in enumerate(card.enemies)))
            for i, card in enumerate(cards)
        )
    return threats


def _group(group: GroupDoc, enemies: dict[str, EnemySheet], where: str) -> ThreatGroup:
    if group.enemy not in enemies:
        raise ContentError(f"{where}.enemy: {group.enemy!r} has no Enemy Record Sheet in this pack",
                           field=f"{where}.enemy")  # fmt: skip
    if group.count == "peril":
        return ThreatGroup(group.enemy, 0, True)
    if not isinstance(group.count, int) or not 1 <= group.count <= 20:
        raise ContentError(f"{where}.count: 1..20 enemies, or \"peril\" (a Peril Die roll, FF-DICE-04), not "
                           f"{group.count!r}", field=f"{where}.count")  # fmt: skip
    return ThreatGroup(group.enemy, group.count)
