"""How an Adventure ends (FF-END-01..05, FF-DEPTH-09) and what the end of every Adventure clears."""

from __future__ import annotations

from ...events import Change
from ...flow import Ctx, Steps
from ...state import Phase, Session
from .common import party_ids
from .ko import injury_or_madness
from .missions import Ending, mission_of


def ending(state: Session) -> Ending | None:
    """Whether the Adventure is over: the Darkness escaped, every hero KO'd at once, or the mission's own end."""
    adv = state.adventure
    if adv is None:
        return None
    if adv.escaped:
        return Ending(False, "darkness", "FF-DEPTH-09",
                      "The Darkness escapes and lays waste to the countryside: the Mission is failed")  # fmt: skip
    heroes = party_ids(state)
    if heroes and all(state.hero(h).knocked_out for h in heroes):
        return Ending(False, "all_ko", "FF-END-02", "Every Hero is KO'd at the same time: the Mission is failed")
    return mission_of(state).check_end(state)


def finish(ctx: Ctx, end: Ending) -> Steps[None]:
    """End the Adventure: the log says why, KO'd heroes roll Injury/Madness after a failure that says so, the
    mission's reward or cost, then the end of every Adventure (FT-MIS-AFTER-01, FF-GRIT-05): Health and Sanity
    fully healed, Bleeding markers gone, Grit back to 1; Blood Moon and travel result 16's Revive Token expire."""
    mission = mission_of(ctx.state)
    ctx.emit("adventure_ended", end.text, rule=end.rule,
             changes=(Change("ending", "", end.reason), Change("won", False, end.won)), reason=end.reason,
             passed=end.won)  # fmt: skip
    if end.reason in ("all_ko", "fled"):  # FF-END-02, FF-END-04: the KO'd still roll
        for hero_id in party_ids(ctx.state):
            if ctx.hero(hero_id).knocked_out:
                yield from injury_or_madness(ctx, hero_id, rule=end.rule)
    yield from mission.finish(ctx, end)
    for hero_id in party_ids(ctx.state):
        hero = ctx.hero(hero_id)
        if hero.bleeding:
            ctx.change(hero_id, "bleeding", -hero.bleeding, rule="FF-HERO-11", why="the Adventure is over")
        hero = ctx.hero(hero_id)
        if hero.wounds:
            ctx.change(hero_id, "wounds", -hero.wounds, rule="FT-MIS-AFTER-01", why="fully healed after the Adventure")
        if hero.sanity_damage:
            ctx.change(hero_id, "sanity_damage", -hero.sanity_damage, rule="FT-MIS-AFTER-01",
                       why="fully healed after the Adventure")  # fmt: skip
        grit = min(1, ctx.hero(hero_id).max_grit)
        if ctx.hero(hero_id).grit != grit:
            ctx.change(hero_id, "grit", grit - ctx.hero(hero_id).grit, rule="FF-GRIT-05", why="back to 1 after the Mission")
    carry = ctx.state.carry
    if carry.blood_moon or carry.extra_revive_tokens:
        ctx.carry("FT-DEPTH-01", "Blood Moon and extra Revive Tokens last until the end of this Adventure: they expire",
                  reason="expired", blood_moon=False, extra_revive_tokens=0)  # fmt: skip

    ctx.emit("adventure_ended", "Roll for Dark Stone Corruption at the table (not in the rulebooks); on to Travel",
             rule="FT-MIS-AFTER-01", reason="after")  # fmt: skip
    ctx.update(phase=Phase.BETWEEN_ADVENTURES, adventure=None)


def ended(ctx: Ctx) -> Steps[bool]:
    """If the Adventure is over, finish it; True when it was (the caller stops)."""
    if ctx.state.adventure is None:
        return True
    end = ending(ctx.state)
    if end is None:
        return False
    yield from finish(ctx, end)
    return True

