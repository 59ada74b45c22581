"""A content pack for the adventure tests: invented numbers in the schema of docs/content-packs.md (not card data).

`register()` makes it available as the pack "adventure-test".
"""

from __future__ import annotations

import copy
from typing import Any

from shared_rules.content import PACKS, register_pack

NAME = "adventure-test"


def track(length: int = 12, *, blood: tuple[int, ...] = (3, 7), dread: tuple[int, ...] = (5, 9)) -> list[dict[str, Any]]:
    """A Depth Track: space 0 Darkness Start ... length-1 the Entrance, Stages by thirds (3, 2, 1)."""
    out = []
    for number in range(length):
        stage = 3 if number < length // 3 else 2 if number < 2 * length // 3 else 1
        mark = "blood_spatter" if number in blood else "growing_dread" if number in dread else "none"
        if number in (0, length - 1):
            mark = "none"  # Darkness Start and the Entrance carry no mark
        out.append({"number": number, "stage": stage, "mark": mark})
    return out


RAW: dict[str, Any] = {
    "name": NAME,
    "version": 1,
    "description": "Test data only: invented numbers, shaped like the physical cards.",
    "buildings": [{"location": "Saloon"}],
    "hero_classes": {
        "Samurai Warrior": {"initiative": 4, "max_fury": 3, "combat": 3, "melee_to_hit": 4, "damage_bonus": 1},
        "Assassin": {"initiative": 6, "deadly_bonus": 2, "combat": 2, "melee_to_hit": 3, "ranged_to_hit": 4,
                     "shots": 1},
        "Traveling Monk": {"initiative": 5, "max_ki": 3, "ki_damage": 1, "ki_heal": 2, "combat": 2,
                           "melee_to_hit": 4},
        "Sorceress": {"initiative": 3, "mana": 3, "blast_cost": 1, "focus": "fire", "combat": 1, "melee_to_hit": 5,
                      "ranged_to_hit": 4, "shots": 2},
    },
    "adventure": {
        "depth_tracks": {"fortress": {"spaces": track()}, "short": {"spaces": track(4, blood=(1,), dread=(2,))}},
        "depth_events": {
            "depth_event": [
                {"face": 1, "text": "A chill", "each_hero": [{"op": "change", "field": "sanity_damage", "amount": 1}]},
                {"face": 2, "text": "Rumbling", "darkness": 1},
                {"face": 3, "text": "Whispers", "growing_dread": 1},
                {"face": 4, "text": "Shadows", "darkness_cards": 1},
                {"face": 5, "text": "Ambush!", "attack": "low"},
                {"face": 6, "text": "Dropped Lantern", "lantern_holder": [{"op": "change", "field": "wounds",
                                                                            "amount": 2}]},
            ]
        },
        "exploration_tokens": [
            {"doors": 2, "count": 3},
            {"doors": 1, "attack": True, "count": 3},
            {"doors": 1, "clue": True, "count": 2},
            {"doors": 2, "attack": True, "clue": True, "count": 2},
            {"doors": 0, "growing_dread": True},
            {"doors": 1, "gates": 1},
        ],
        "map_cards": [{"name": f"Room {n}", "kind": "room"} for n in range(1, 9)]
        + [{"name": f"Passage {n}", "kind": "passage"} for n in range(1, 5)],
        "scavenge": [{"text": "Gold coins", "effects": [{"op": "change", "field": "gold", "amount": 25}]},
                     {"text": "A trap", "effects": [{"op": "change", "field": "wounds", "amount": 1}]},
                     {"text": "Nothing"}],
        "enemies": {
            "tengu": {"name": "Tengu", "health": 3, "initiative": 5, "defense": 3, "combat": 2, "to_hit": 4,
                      "damage": 1},
            "oni": {"name": "Oni", "health": 8, "initiative": 3, "defense": 4, "armor": 5, "combat": 3, "to_hit": 4,
                    "damage": 2, "size": "large"},
        },
        "threats": {
            "low": [{"name": "Tengu Flight", "enemies": [{"enemy": "tengu", "count": 2}]}],
            "med": [{"name": "Tengu Swarm", "enemies": [{"enemy": "tengu", "count": "peril"}]}],
            "high": [{"name": "Oni and Tengu", "enemies": [{"enemy": "oni", "count": 1}, {"enemy": "tengu",
                                                                                       "count": 2}]}],
        },
        "spells": {
            "Fire Lash": {"element": "fire", "cost": 1, "casting": 7, "xp": 5},
            "Stone Skin": {"element": "earth", "cost": 2, "casting": 8, "dangerous": True, "xp": 10, "xp_once": True},
        },
        "tactics": {"Iron Wall": {"cost": 2}, "Battle Cry": {"cost": 1, "any_time": True}},
    },
}


def raw() -> dict[str, Any]:
    return copy.deepcopy(RAW)


def register() -> str:
    if NAME not in PACKS:
        register_pack(raw())
    return NAME
