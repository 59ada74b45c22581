"""Setting up an Adventure (FF-SETUP-01), scaling by posse size (FF-SCALE-01), starting Grit (FF-GRIT-05, A6) and the
class resources at their start (§20)."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from ...commands import SheetEntry, StartAdventure
from ...content import pack
from ...content.adventure import check_track
from ...dice import DieKind
from ...errors import IllegalCommand, InvalidCommand
from ...flow import Ctx, Procedure
from ...prompts import Asks
from ...state import Adventure, ClassSheet, DepthTrack, MapTile, PartyHero, Phase, Place, Session, TileKind
from .common import MONK, SAMURAI, SORCERESS, change_resource, party_ids
from .depth import growing_dread
from .missions import MISSIONS, TOWN
from .turn import advance, start_of_turn

SCALING = {1: ("low", 2), 2: ("low", 1), 3: ("med", 1), 4: ("med", 0), 5: ("high", 1), 6: ("high", 0)}  # FF-SCALE-01
ELEMENTS = ("fire", "wind", "water", "earth")
_RANGES = {"initiative": (0, 20), "max_fury": (0, 20), "max_ki": (0, 20), "ki_damage": (0, 20), "ki_heal": (0, 20),
           "mana": (0, 20), "blast_cost": (0, 20), "deadly_bonus": (0, 20), "combat": (0, 20), "melee_to_hit": (0, 6),
           "ranged_to_hit": (0, 6), "shots": (0, 20), "damage_bonus": (0, 20)}  # fmt: skip
_NEEDED = {SAMURAI: ("max_fury", "Max Fury", "FF-SAM-01"), MONK: ("max_ki", "Max Ki", "FF-MONK-01"),
           SORCERESS: ("mana", "Mana level", "FF-SORC-03")}  # fmt: skip


_SHEET_FIELDS = tuple(f.name for f in fields(ClassSheet))


def sheet_for(state: Session, hero_id: str, entry: SheetEntry | None, where: str) -> ClassSheet:
    """The hero's sheet numbers: the content pack's class sheet, with what the table typed over it."""
    hero = state.hero(hero_id)
    stats: dict[str, Any] = dict(pack(state.pack).hero_classes.get(hero.hero_class, {}))
    values: dict[str, Any] = {}
    for name in _SHEET_FIELDS:
        typed = getattr(entry, name, None) if entry is not None else None
        value = typed if typed is not None else stats.get(name)
        if value is None:
            continue
        if name == "focus":
            if value not in ELEMENTS:
                raise InvalidCommand(f"{where}.focus: one of {list(ELEMENTS)} (FF-SORC-02)", field=f"{where}.focus",
                                     rule="FF-SORC-02")  # fmt: skip
        else:
            low, high = _RANGES[name]
            if not low <= value <= high:
                raise InvalidCommand(f"{where}.{name}: {value} is not within {low}..{high}", field=f"{where}.{name}")
        values[name] = value
    sheet = ClassSheet(**values)
    if sheet.initiative < 1:
        raise InvalidCommand(f"{where}.initiative: {hero.name}'s Initiative is on the Hero Character Sheet and the "
                             "content pack lacks it: type it in (FF-HERO-01, FF-TURN-03)", field=f"{where}.initiative",
                             rule="FF-TURN-03")  # fmt: skip
    needed = _NEEDED.get(hero.hero_class)
    if needed is not None and getattr(sheet, needed[0]) < 1:
        raise InvalidCommand(f"{where}.{needed[0]}: {hero.name}'s {needed[1]} is on the {hero.hero_class}'s sheet and "
                             f"the content pack lacks it: type it in ({needed[2]})", field=f"{where}.{needed[0]}",
                             rule=needed[2])  # fmt: skip
    return sheet


def sheets(state: Session, command: StartAdventure) -> dict[str, ClassSheet]:
    ids = [h.id for h in state.active_heroes]
    entries: dict[str, tuple[int, SheetEntry]] = {}
    for index, entry in enumerate(command.sheets):
        if entry.hero not in ids:
            raise InvalidCommand(f"sheets[{index}].hero: no hero {entry.hero!r} in this posse", field=f"sheets[{index}].hero")
        if entry.hero in entries:
            raise InvalidCommand(f"sheets[{index}].hero: {entry.hero} is given twice", field=f"sheets[{index}].hero")
        entries[entry.hero] = (index, entry)
    out = {}
    for hero_id in ids:
        index, typed = entries.get(hero_id, (-1, None))
        where = f"sheets[{index}]" if index >= 0 else f"sheets[hero={hero_id}]"
        out[hero_id] = sheet_for(state, hero_id, typed, where)
    return out


def track_for(state: Session, command: StartAdventure) -> DepthTrack:
    """The Depth Track's layout ((b)1): the pack's, by name, or typed in; checked either way (FF-DEPTH-01, A2)."""
    if command.track and command.layout:
        raise InvalidCommand("track: name a pack's Depth Track or type a layout, not both", field="track")
    if command.layout:
        check_track(tuple(command.layout), "layout", InvalidCommand)
        return DepthTrack("typed", tuple(command.layout))
    tracks = pack(state.pack).adventure.depth_tracks
    if not command.track:
        raise InvalidCommand("track: the Depth Track's layout is not in the rulebooks: name one of the content pack's "
                             f"({sorted(tracks)}) or type the layout (FF-DEPTH-01)", field="track", rule="FF-DEPTH-01")
    if command.track not in tracks:
        raise InvalidCommand(f"track: the content pack has no Depth Track {command.track!r}; it has {sorted(tracks)}",
                             field="track", rule="FF-DEPTH-01")  # fmt: skip
    return tracks[command.track]


def check_start(state: Session, command: StartAdventure) -> None:
    if state.adventure is not None:
        raise IllegalCommand("an Adventure is already under way", field="type")
    if command.lantern not in [h.id for h in state.active_heroes]:
        raise InvalidCommand(f"lantern: no hero {command.lantern!r} in this posse carries the Old Lantern (FF-HERO-14)",
                             field="lantern", rule="FF-HERO-14")  # fmt: skip
    if command.mission not in MISSIONS:
        raise InvalidCommand(f"mission: {command.mission!r} is not a mission; one of {sorted(MISSIONS)}",
                             field="mission", rule="FF-SETUP-01")  # fmt: skip
    track_for(state, command)
    sheets(state, command)


def start_adventure(ctx: Ctx, command: StartAdventure) -> Procedure:
    """FF-SETUP-01 in order, then turn 1 begins (the start-of-turn effects: Ki, Mana)."""
    mission = MISSIONS[command.mission]
    heroes = ctx.heroes()
    content = pack(ctx.state.pack).adventure
    track = track_for(ctx.state, command)
    by_hero = sheets(ctx.state, command)
    playing = len(mission.playing(heroes, command.lantern))
    threat, revive = SCALING[playing]
    extra = ctx.state.carry.extra_revive_tokens
    order = sorted(heroes, key=lambda h: -by_hero[h].initiative)
    adv = Adventure(
        mission=mission.key, lantern=command.lantern, track=track, darkness=0, party=track.entrance, threat=threat,
        revive_tokens=revive + extra,
        heroes=tuple(PartyHero(h, by_hero[h], place=Place("entrance")) for h in heroes),
        tiles=(MapTile("entrance", TileKind.ENTRANCE, "Fortress Entrance"),),
        tokens=content.exploration_tokens, map_deck=tuple(c.name for c in content.map_cards),
    )  # fmt: skip
    ctx.update(phase=Phase.ADVENTURE, adventure=adv)
    names = ", ".join(ctx.name(h) for h in order)
    town = mission.board == TOWN
    ctx.emit("adventure_started", mission.set_up_text(ctx, len(heroes), ctx.name(command.lantern), names,
                                                          track.entrance),
             rule="FT-MIS-GEN-01" if town else "FF-SETUP-01", reason="town" if town else "mines",
             mission=mission.key, count=len(heroes), figure=ctx.name(command.lantern), name=names,
             value=track.entrance, card_text=str(getattr(mission, "set_up", "")),
             passed=mission.hbtd_target(ctx.state) is not None)  # fmt: skip
    ctx.emit("adventure_started",
             mission.scaling_text(threat, revive, playing)
             + (f" + {extra} from Shadows Out of Time" if extra else ""), rule="FF-SCALE-01", reason="scaling",
             count=playing, size=mission.scaling_threat(threat, playing), value=revive, number=extra)  # fmt: skip


    for hero_id in heroes:  # FF-GRIT-05, A6: Grit from the road does not carry in
        grit = min(mission.starting_grit(ctx.state, hero_id), ctx.hero(hero_id).max_grit)
        if ctx.hero(hero_id).grit != grit:
            ctx.change(hero_id, "grit", grit - ctx.hero(hero_id).grit, rule="FF-GRIT-05",
                       why="each Hero starts the Mission with 1 Grit" if grit else "no Grit this Adventure")  # fmt: skip
    if ctx.state.carry.no_grit_next_adventure:
        ctx.carry("A6", "The failed Mission's Grit penalty is paid", reason="grit_paid", no_grit_next_adventure=False)
    if ctx.state.carry.no_town or ctx.state.carry.may_stay:
        ctx.carry("FT-TOWN-09", "The last Town Mission's stay-or-travel choice is over", reason="stay_over",
                  no_town="", may_stay=False)  # fmt: skip
    dread = ctx.state.carry.growing_dread_next
    if dread:  # FT-M4-09: a failed Jail Break adds Growing Dread to the next Adventure's stack at its start
        ctx.carry("FT-M4-09", "The failed Jail Break's Growing Dread is paid", reason="dread_paid", count=dread,
                  growing_dread_next=0)  # fmt: skip

        growing_dread(ctx, dread, rule="FT-M4-09", why="the Jail Break failed")
    for hero_id in party_ids(ctx.state):
        if ctx.hero(hero_id).hero_class == SORCERESS:  # FF-SORC-08: D6 Arcane Powder, leftovers discarded
            powder = yield from ctx.roll(DieKind.D6, "the Roku Demon Bag's Arcane Powder", hero=hero_id, chart=True,
                                         rule="FF-SORC-08", asks=Asks.GAIN,
                                         said=(("reason", "arcane_powder"), ("count", 1)))  # fmt: skip
            change_resource(ctx, hero_id, "arcane_powder", powder.value, rule="FF-SORC-08",
                            why="the Roku Demon Bag refilled")  # fmt: skip
    yield from mission.setup(ctx)
    ctx.emit("turn_started", "Turn 1 begins", rule="FF-TURN-01", turn=1)
    start_of_turn(ctx)
    yield from advance(ctx)
