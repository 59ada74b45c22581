"""D36 results 41-46 of the Expanded Travel Hazard Chart (FT §Expanded Travel Hazard Chart)."""

from __future__ import annotations

from dataclasses import replace

from ...flow import Ctx, Procedure
from .common import hazard


@hazard(42)
def raging_river(ctx: Ctx, roller: str) -> Procedure:
    """The Posse turns back to a Small Town (Travel ends) or fords: Strength 5+ each, fail risks hourglass Items."""
    choice = yield from ctx.choose(
        "Raging River: turn back to the roadside town (a Small Town, Travel ends) or ford the river?",
        [("turn_back", "Turn back: Small Town, no more hazards"), ("ford", "Ford the river: Strength 5+ each")],
        rule="FT-TRAVEL-D42",
    )
    if choice == "turn_back":
        travel = ctx.state.travel
        assert travel is not None
        ctx.update(travel=replace(travel, turned_back=True))
        ctx.emit("carry", "The posse turns back: the destination is now a Small Town and Travel ends",
                 rule="FT-TRAVEL-D42")
        return
    for hero in ctx.heroes():
        test = yield from ctx.skill_test(hero, "strength", 5, "Raging River", rule="FT-TRAVEL-D42")
        if test.passed:
            continue
        at_risk = [item for item in ctx.hero(hero).items if item.hourglass >= 1]
        faces = yield from ctx.dice(len(at_risk), "Raging River: a D6 per Item with an hourglass icon", hero=hero,
                                    rule="FT-TRAVEL-D42")
        for item, face in zip(at_risk, faces, strict=True):
            if face == 1:
                ctx.remove_item(hero, item.id, rule="FT-TRAVEL-D42", why="swept away by the river")
