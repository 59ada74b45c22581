"""D36 results 21-26 of the Expanded Travel Hazard Chart (FT §Expanded Travel Hazard Chart)."""

from __future__ import annotations

from ...flow import Ctx, Procedure
from .common import hazard


@hazard(24)
def dark_stone_convoy(ctx: Ctx, roller: str) -> Procedure:
    """During this Town Stay each Dark Stone shard sold is worth +$25 (FT-TRAVEL-D24, FT-TRAVEL-05)."""
    ctx.carry("FT-TRAVEL-D24", "Dark Stone Convoy: each shard sold in this Town is worth +$25", dark_stone_bonus=25)
    yield from ()
