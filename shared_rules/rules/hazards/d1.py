"""D36 results 11-16 of the Expanded Travel Hazard Chart (FT §Expanded Travel Hazard Chart)."""

from __future__ import annotations

from ...flow import Ctx, Procedure
from .common import fit_side_bag, hazard


@hazard(12)
def bleached_bones(ctx: Ctx, roller: str) -> Procedure:
    """Each Hero: Agility 5+; pass +10 XP; fail: Side Bag capacity -2 until repaired (FT-TRAVEL-D12)."""
    for hero in ctx.heroes():
        test = yield from ctx.skill_test(hero, "agility", 5, "Bleached Bones", rule="FT-TRAVEL-D12")
        if test.passed:
            ctx.change(hero, "xp", 10, rule="FT-TRAVEL-D12", why="Bleached Bones")
        else:
            ctx.set_value(hero, "bag_torn", True, rule="FT-TRAVEL-D12", why="Side Bag torn until repaired ($500)")
            yield from fit_side_bag(ctx, hero, rule="FT-TRAVEL-D12")
