"""The adventure section of a content pack is validated strictly: every problem names where it is."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from shared_rules import ContentError
from shared_rules.content import load_pack
from shared_rules.state import ExplorationToken, SpaceMark
from tests.rules.adventure import pack


def test_the_test_pack_loads_with_every_part() -> None:
    loaded = load_pack(pack.raw()).adventure
    assert loaded.depth_tracks["fortress"].entrance == 11
    assert loaded.depth_tracks["fortress"].space(3).mark is SpaceMark.BLOOD_SPATTER
    assert [e.face for e in loaded.depth_events["depth_event"]] == [1, 2, 3, 4, 5, 6]
    assert len(loaded.exploration_tokens) == 12 and loaded.exploration_tokens.count(ExplorationToken(doors=2)) == 3
    assert loaded.threats["med"][0].groups[0].peril and loaded.enemies["oni"].size == "large"
    assert loaded.spells["Stone Skin"].dangerous and loaded.tactics["Battle Cry"].any_time


def test_a_pack_without_an_adventure_section_has_none() -> None:
    raw = pack.raw()
    del raw["adventure"]
    assert load_pack(raw).adventure.depth_tracks == {}


Change = Callable[[dict[str, Any]], Any]
A = "adventure"


@pytest.mark.parametrize(("change", "words"), [
    (lambda p: p[A].update(decks=[]), "adventure: unknown field(s) ['decks']"),
    (lambda p: p[A]["depth_tracks"]["short"]["spaces"][3].update(stage=2), "spaces[3].stage"),
    (lambda p: p[A]["depth_tracks"]["short"]["spaces"][1].update(number=5), "spaces[1].number"),
    (lambda p: p[A]["depth_tracks"]["short"]["spaces"][1].update(mark="lava"), "spaces[1].mark"),
    (lambda p: p[A]["depth_tracks"]["short"]["spaces"][0].update(mark="blood_spatter"), "spaces[0].mark"),
    (lambda p: p[A]["depth_events"]["depth_event"].pop(), "faces 1 to 6"),
    (lambda p: p[A]["depth_events"].update(cave_event=[]), "depth_events.cave_event"),
    (lambda p: p[A]["depth_events"]["depth_event"][1].update(attack="huge"), "[1].attack"),
    (lambda p: p[A]["depth_events"]["depth_event"][0]["each_hero"][0].update(op="explode"), "each_hero[0].op"),
    (lambda p: p[A]["exploration_tokens"].pop(), "12 tokens"),
    (lambda p: p[A]["exploration_tokens"][0].update(growing_dread=True), "only one token"),
    (lambda p: p[A]["exploration_tokens"][0].update(doors="two"), "exploration_tokens[0].doors"),
    (lambda p: p[A]["map_cards"].append({"name": "Room 1", "kind": "room"}), "listed twice"),
    (lambda p: p[A]["map_cards"][0].update(kind="cave"), "map_cards[0].kind"),
    (lambda p: p[A]["scavenge"][0].update(text=""), "scavenge[0].text"),
    (lambda p: p[A]["enemies"]["oni"].update(health=0), "enemies.oni.health"),
    (lambda p: p[A]["enemies"]["oni"].update(size="huge"), "enemies.oni.size"),
    (lambda p: p[A]["threats"]["low"][0]["enemies"][0].update(enemy="dragon"), "no Enemy Record Sheet"),
    (lambda p: p[A]["threats"].update(deadly=[]), "threats.deadly"),
    (lambda p: p[A]["threats"]["low"][0]["enemies"][0].update(count="many"), "enemies[0].count"),
    (lambda p: p[A]["spells"]["Fire Lash"].update(element="lightning"), "spells.Fire Lash.element"),
    (lambda p: p[A]["spells"]["Fire Lash"].update(dangerous="yes"), "spells.Fire Lash.dangerous"),
    (lambda p: p[A]["tactics"]["Iron Wall"].update(cost=-1), "tactics.Iron Wall.cost"),
    (lambda p: p["hero_classes"]["Sorceress"].update(focus="lightning"), "focus"),
    (lambda p: p["hero_classes"]["Sorceress"].update(mana=99), "mana"),
])  # fmt: skip
def test_a_broken_adventure_section_names_the_problem(change: Change, words: str) -> None:
    raw = pack.raw()
    change(raw)
    with pytest.raises(ContentError) as error:
        load_pack(raw)
    assert words in error.value.message
