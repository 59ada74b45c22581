"""The six Town Missions (FT-MIS-00, FT-M1..FT-M6, FT-MIS-AFTER-01) as hooks on the one Adventure turn engine, and
the commands they add: the Mission table, the Bandits' activation, the table's corrections, the Townsfolk's moves,
Desperation, and staying in town after a Mission.

    common.py      the Town board under a Mission, Bandits as figures, reinforcements, break checks, attacks
    activation.py  activate_bandits (the Shootout AI as a command) and place_model (the physical board wins)
    shootout.py    Mission 1, Shootout in the Streets      hanging.py  Mission 2, Hanging High
    bank.py        Mission 3, Bank Robbery                 jail.py     Mission 4, Jail Break
    overrun.py     Mission 5, Town Overrun                 duel.py     Mission 6, High Noon Duel (solo)
"""

from __future__ import annotations

from collections.abc import Iterator

from ...commands import RollMission, StayInTown
from ...errors import IllegalCommand
from ...flow import Ctx, Procedure
from ...legal import LegalCommand
from ...prompts import Asks
from ...state import Phase, Session
from ..area import Area, CommandRule
from ..town.arrival import stay_again
from . import bank, duel, hanging, jail, overrun, shootout
from .activation import (
    activate_bandits,
    check_activate_bandits,
    check_place_model,
    check_play_gang,
    place_model,
    play_gang,
)
from .activation import legal as activation_legal
from .common import TownMission

MISSION_TABLE = {1: shootout.SHOOTOUT.key, 2: hanging.HANGING_HIGH.key, 3: bank.BANK_ROBBERY.key,
                 4: jail.JAIL_BREAK.key, 5: overrun.TOWN_OVERRUN.key, 6: duel.HIGH_NOON_DUEL.key}  # FT-MIS-00
TOWN_MISSIONS = tuple(MISSION_TABLE.values())

__all__ = ["AREA", "MISSION_TABLE", "TOWN_MISSIONS", "TownMission"]


def roll_mission(ctx: Ctx, command: RollMission) -> Procedure:
    """FT-MIS-00: a D6 on the Mission table. A 6 is the High Noon Duel for a Random Hero; with more than one Hero,
    another Mission is rolled for the posse until it is 1-5 (A32). The table then starts them (start_adventure)."""
    from ...events import Change

    face = yield from ctx.d6("the Town Mission", rule="FT-MIS-00", asks=Asks.MISSION_ROLL,
                             said=(("reason", "mission_table"),))  # fmt: skip
    key = MISSION_TABLE[face]
    if face == 6:
        hero = yield from ctx.random_hero("the Hero who duels (a Random Hero)", rule="FT-MIS-00")
        ctx.emit("mission", f"6: the High Noon Duel: {ctx.name(hero or '')} is called out (start it with that Hero "
                 "holding the Old Lantern)", hero=hero, rule="FT-MIS-00",
                 changes=(Change("mission", "", key), Change("duelist", "", hero or "")), reason="duel_rolled",
                 mission=key, value=face)  # fmt: skip
        if len(ctx.heroes()) == 1:
            return
        while face == 6:  # A32
            face = yield from ctx.d6("another Town Mission for the posse (re-rolled until 1-5)", rule="FT-MIS-00",
                                     asks=Asks.MISSION_ROLL, said=(("reason", "posse_mission"),))  # fmt: skip
        key = MISSION_TABLE[face]
    ctx.emit("mission", f"{face}: {_title(key)}", rule="FT-MIS-00", changes=(Change("mission", "", key),),
             reason="rolled", mission=key, value=face)  # fmt: skip



def _title(key: str) -> str:
    from ..adventure import MISSIONS

    return MISSIONS[key].title


def check_stay(state: Session, command: StayInTown) -> None:
    if not state.carry.may_stay or state.carry.last_town is None:
        raise IllegalCommand("type: the posse may stay in the same town only after a Town Mission that was not "
                             "failed (FT-TOWN-09)", field="type", rule="FT-TOWN-09")  # fmt: skip


def stay_in_town(ctx: Ctx, command: StayInTown) -> Procedure:
    """FT-TOWN-09: a fresh Town Stay of the same Size and Specialty Type."""
    town = ctx.state.carry.last_town
    ctx.carry("FT-TOWN-09", "The posse stays in town", reason="stays", may_stay=False)

    yield from stay_again(ctx, town)


def legal(state: Session) -> Iterator[LegalCommand]:
    if state.phase is Phase.BETWEEN_ADVENTURES and state.adventure is None:
        yield LegalCommand("roll_mission", note="a D6 on the Town Mission table (FT-MIS-00)")
        if state.carry.may_stay and state.carry.last_town is not None:
            yield LegalCommand("stay_in_town", note="a fresh stay in the same town (FT-TOWN-09)")
    yield from activation_legal(state)
    adv = state.adventure
    if adv is not None and adv.mission == hanging.HangingHigh.key and adv.turn == 1 and not adv.counter("captive") \
            and adv.step.value == "start":
        yield LegalCommand("rescue_hero", options=tuple(m.id for m in adv.heroes if m.id != adv.lantern),
                           note="optional: play the Mission to save a Hero from the hanging (FT-M2-12)")
    if adv is not None and adv.mission == overrun.TownOverrun.key:
        if adv.counter("townsfolk_moves"):
            yield LegalCommand("move_townsfolk", options=tuple(f.id for f in adv.figures if f.kind == "townsfolk"),
                               note=f"{adv.counter('townsfolk_moves')} Movement Point(s) to share (FT-M5-02)")  # fmt: skip
        if adv.enemies:
            enemies = tuple(f.id for f in adv.enemies)
            yield LegalCommand("random_target", options=enemies, note="a Random Hero, the Townsfolk as one (FT-M5-03)")
            if any(f.kind == "townsfolk" for f in adv.figures):
                yield LegalCommand("strike_townsfolk", options=enemies, note="an Enemy's Hits on a Townsfolk marker")
        if adv.activation is not None and adv.activation.figure in {m.id for m in adv.heroes}:
            yield LegalCommand("desperation", hero=adv.activation.figure, options=overrun.DESPERATION,
                               note="instead of an Attack, with no Enemy on the Map Tile (FT-M5-07)")  # fmt: skip


BETWEEN = (Phase.BETWEEN_ADVENTURES,)
ADV = (Phase.ADVENTURE,)
AREA = Area(
    "missions",
    {
        "roll_mission": CommandRule(roll_mission, BETWEEN, "FT-MIS-00", "the Mission table is rolled between Adventures"),
        "stay_in_town": CommandRule(stay_in_town, BETWEEN, "FT-TOWN-09", "after a Town Mission", check_stay),
        "activate_bandits": CommandRule(activate_bandits, ADV, "FT-BANDIT-05", "in a Town Mission",
                                        check_activate_bandits),  # fmt: skip
        "place_model": CommandRule(place_model, ADV, "FT-BOARD-02", "in a Town Mission", check_place_model),
        "play_gang": CommandRule(play_gang, ADV, "FT-BANDIT-09", "in a Town Mission", check_play_gang),
        "move_townsfolk": CommandRule(overrun.move_townsfolk, ADV, "FT-M5-02", "in Town Overrun",
                                      overrun.check_move_townsfolk),  # fmt: skip
        "desperation": CommandRule(overrun.desperation, ADV, "FT-M5-07", "in Town Overrun", overrun.check_desperation),
        "rescue_hero": CommandRule(hanging.rescue_hero, ADV, "FT-M2-12", "in Hanging High", hanging.check_rescue),
        "random_target": CommandRule(overrun.random_target, ADV, "FT-M5-03", "in Town Overrun",
                                     overrun.check_random_target),  # fmt: skip
        "strike_townsfolk": CommandRule(overrun.strike_townsfolk, ADV, "FT-M5-04", "in Town Overrun",
                                        overrun.check_strike_townsfolk),  # fmt: skip
    },
    legal,
)
