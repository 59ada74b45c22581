"""What the six Town Missions share: the Town Adventure Board under them, Bandits as figures, reinforcements and
their entry rolls, the break checks on the repurposed Depth Track (A2, A3), resolving a Bandit's attack, rewards.

Data the rulebooks lack (rules-reference (b) 7, 11, 12): the Bandit Record Sheet (the content pack's `bandit`
Enemy Record Sheet, or `PLACEHOLDER_BANDIT`, typed numbers to be replaced by the table's sheet), the printed map and
the Missions' diagrams (the board's named spaces, docs/board-format.md), the Depth Track (typed in or the pack's).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar, TypedDict

from ...commands import EnemyStrike
from ...content import pack
from ...content.adventure import EnemySheet
from ...dice import DieKind, Roll
from ...errors import IllegalCommand
from ...events import BanditPlan, FireLine
from ...flow import Ctx, Said, Steps
from ...frozen import replace
from ...prompts import Asks
from ...state import Figure, MapTile, Place, Session, Side, TileKind
from ...state.adventure import MARKER_KINDS
from ..adventure import Ending, Mission, mission_of
from ..adventure.board_models import board_models, board_pos
from ..adventure.board_models import place_of as board_place
from ..adventure.common import adventure, party_ids, put, put_figure, put_member, set_counter, standing
from ..adventure.depth import move_darkness, move_party
from ..adventure.fight import add_figures, kill
from ..adventure.ko import harmed
from ..adventure.missions import TOWN
from ..adventure.strike import take_strike
from ..bandits import Action, Proposal, Weapon, activate, bandit_rifle, gang_reward
from ..bandits.stats import DEFAULT_SHEET
from ..board import (
    STREET,
    Board,
    Pos,
    board_named,
    check_position,
    cover_saves,
    enemy_killed_on_roof,
    entry_placement,
    has_cover,
    hero_wounded_on_roof,
    in_range,
    random_rooftop,
    shortest_path,
)
from ..board import Model as BoardModel
from ..board import Side as BSide

BANDITS = 6  # FT-BANDIT-01: 6 Bandit models; a seventh cannot be placed (FT-M1-05)
BANDIT = "bandit"
PLACEHOLDER_BANDIT = EnemySheet("Bandit", health=3, initiative=4, defense=0, combat=1, to_hit=4, damage=2)
"""Not rulebook data: the Bandit Enemy Record Sheet is not in the rulebooks ((b) 7). A content pack's `bandit`
sheet replaces it; the numbers here only let a table start before typing its own."""
PISTOL_SHOTS = 1  # with the placeholder: one Shot per Bandit Pistols attack (the sheet's own number is not known)


# ---- the board ---------------------------------------------------------------------------------------------------
def board_of(state: Session) -> Board:
    """The Town Adventure Board the Mission is played on (the default board, docs/board-format.md)."""
    return board_named("default")


def tile_of(board: Board, space: tuple[int, int]) -> str:
    """The Map Tile a square is on, as a Place's tile: "street" or "building-N" (FT-BOARD-02)."""
    number = board.building_at(space)
    return "street" if number == STREET else f"building-{number}"


def ground(board: Board, space: tuple[int, int]) -> Place:
    return Place(tile_of(board, space), space[0], space[1])


def roof(key: str) -> Place:
    return Place(f"roof:{key}")


def place_of(board: Board, pos: Pos) -> Place:
    """The Place of a position on this board: its ground square on the Map Tile it lies in (FT-BOARD-02)."""
    return board_place(pos, tile_of(board, pos.space) if pos.space is not None else "street")


def town_tiles(board: Board) -> tuple[MapTile, ...]:
    """The 9 Map Tiles of the Town board: the Street and the 8 Buildings (FT-BOARD-02)."""
    return (MapTile("street", TileKind.AREA, "the Street"),
            *(MapTile(f"building-{n}", TileKind.AREA, f"Building {n}") for n in board.buildings))  # fmt: skip


def space_of(place: Place | None) -> tuple[int, int] | None:
    return None if place is None or place.x is None or place.y is None else (place.x, place.y)


def taken(state: Session, *, but: Iterable[str] = ()) -> set[tuple[int, int]]:
    """Squares a model stands in (every hero and figure on the ground)."""
    skip = set(but)
    adv = state.adventure
    assert adv is not None
    out = set()
    for member in adv.heroes:
        if member.id not in skip and (s := space_of(member.place)) is not None:
            out.add(s)
    for figure in adv.figures:
        if figure.id not in skip and figure.kind not in MARKER_KINDS and (s := space_of(figure.place)) is not None:
            out.add(s)
    return out


def free_squares(board: Board, state: Session, candidates: Iterable[tuple[int, int]], count: int,
                 *, also_taken: Iterable[tuple[int, int]] = ()) -> list[tuple[int, int]]:  # fmt: skip
    held = taken(state) | set(also_taken)
    out = []
    for space in candidates:
        if space not in held and space not in out:
            out.append(space)
        if len(out) == count:
            break
    return out


def place_heroes(ctx: Ctx, squares: dict[str, Place]) -> None:
    """Put the heroes where the Mission's set-up says (the table corrects with place_model)."""
    adv = adventure(ctx)
    put(ctx, replace(adv, tiles=town_tiles(board_of(ctx.state)),
                     heroes=tuple(replace(m, place=squares.get(m.id, m.place)) for m in adv.heroes)))  # fmt: skip
    where = ", ".join(f"{ctx.name(h)} {_words(p)}" for h, p in squares.items())
    ctx.emit("mission", f"The Heroes take their places: {where}", rule="FT-BOARD-02", reason="heroes_placed",
             count=len(squares), name=", ".join(ctx.name(h) for h in squares))  # fmt: skip


class PlaceFacts(TypedDict):
    """Where a model stands, as event facts (`emit(..., **place_facts(place))`)."""

    where: str
    to: str


def place_facts(place: Place) -> PlaceFacts:
    """Where a model stands, as event facts: `where` its board area (`street`, `building-N`, `roof:N`, `entry:L`)
    and `to` its square ("x,y"; "" off the grid), for a client to word in its own language."""
    return PlaceFacts(where=place.tile, to=f"{place.x},{place.y}" if place.x is not None and place.y is not None else "")


def _words(place: Place) -> str:
    if place.tile.startswith("roof:"):
        return f"on rooftop {place.tile[5:]}"
    if place.tile.startswith("entry:"):
        return f"off the board at Entry {place.tile[6:]}"
    where = "the Street" if place.tile == "street" else place.tile.replace("building-", "Building ")
    return f"in {where} ({place.x},{place.y})"


# ---- Bandits -----------------------------------------------------------------------------------------------------
def bandit_sheet(state: Session) -> EnemySheet:
    return pack(state.pack).adventure.enemies.get(BANDIT) or PLACEHOLDER_BANDIT


def bandits_on_board(state: Session) -> list[Figure]:
    adv = state.adventure
    assert adv is not None
    return [f for f in adv.figures if f.kind == BANDIT]


def free_models(state: Session) -> list[str]:
    """The Bandit models not on the board (6 in the box, FT-BANDIT-01)."""
    used = {f.id for f in bandits_on_board(state)}
    return [f"bandit-{n}" for n in range(1, BANDITS + 1) if f"bandit-{n}" not in used]


def bandit(state: Session, model: str, place: Place, *, name: str = "Bandit", brutal: bool = False,
           health_times: int = 1, damage_times: int = 1, heading: str = "", numbered: bool = True) -> Figure:  # fmt: skip
    sheet = bandit_sheet(state)
    if numbered:
        name = f"{name} {model.rsplit('-', 1)[-1]}"  # "Bandit 3": the model's number, as the table calls it
    return Figure(model, name, Side.ENEMY, sheet.health * health_times, initiative=sheet.initiative,
                  defense=sheet.defense, armor=sheet.armor, combat=sheet.combat or PISTOL_SHOTS, to_hit=sheet.to_hit,
                  damage=sheet.damage * damage_times, kind=BANDIT, place=place, brutal=brutal,
                  heading=heading)  # fmt: skip


def weapon(figure: Figure) -> Weapon:
    """Pistols (Range 6, Shots and Damage from the sheet), or a Rooftop Rifle (FT-BANDIT-08)."""
    if figure.place is not None and figure.place.tile.startswith("roof:"):
        return bandit_rifle(figure.brutal)
    return Weapon("Bandit Pistols", 6, figure.combat or PISTOL_SHOTS, figure.damage)


def entry_square(ctx: Ctx, letter: str, held: set[tuple[int, int]]) -> tuple[int, int] | None:
    spots = entry_placement(board_of(ctx.state), letter, 1, occupied=held)
    return spots[0] if spots else None


def reinforce(ctx: Ctx, count: int, entries: dict[int, str], *, rule: str, darkness_each: int = 1,
              name: str = "Bandit") -> Steps[int]:  # fmt: skip
    """`count` Bandits enter, a D6 each on the Mission's entry table (an Entry Area letter, or "roof" for a Random
    Building's Rooftop, FT-DICE-02, with a Rifle); a Bandit with no model left moves the Darkness (FT-M1-05).
    Returns how many were placed."""
    board = board_of(ctx.state)
    placed = 0
    for n in range(count):
        face = yield from ctx.d6(f"where Bandit {n + 1} of {count} enters", rule=rule, asks=Asks.MISSION_ROLL,
                                 said=mission_said(ctx, "bandit_enters", ("number", n + 1), ("count", count)))  # fmt: skip
        where = entries[face]
        models = free_models(ctx.state)
        if not models:
            ctx.emit("mission", f"No Bandit model is left to place: the Darkness moves {darkness_each}",
                     rule="FT-M1-05" if rule.startswith("FT-M1") else rule, reason="no_bandit_model",
                     count=darkness_each)  # fmt: skip
            yield from move_darkness(ctx, darkness_each, rule=rule, why="a Bandit could not be placed")
            if ctx.state.adventure is None or adventure(ctx).escaped:
                return placed
            continue
        if where == "roof":
            key = yield from random_rooftop(ctx, board, f"the rooftop Bandit {n + 1} climbs",
                                            (("reason", "rooftop"), ("name", name), ("number", n + 1)))  # fmt: skip
            place = roof(key)
        else:
            square = entry_square(ctx, where, taken(ctx.state))
            place = ground(board, square) if square is not None else Place(f"entry:{where}")
        figure = bandit(ctx.state, models[0], place, name=name)
        ctx.emit("mission", f"D6 {face}: {figure.name} ({figure.id}) enters {_words(place)}"
                 + (" with a Rifle" if where == "roof" else ""), rule=rule, reason="bandit_enters", value=face,
                 figure=figure.name, **place_facts(place))  # fmt: skip
        yield from add_figures(ctx, [figure], rule=rule)
        placed += 1
    return placed


def kill_track(ctx: Ctx, steps: int, *, rule: str, why: str) -> None:
    """A kill (or a Money Bag) moves the Hero Posse marker down the track (A2: toward Darkness Start)."""
    move_party(ctx, steps, rule=rule, why=why)


def broken(ctx: Ctx, roll: Roll, *, strict: bool, rule: str, what: str) -> bool:
    """The break check: the Hold Back the Darkness total against the number of the Posse marker's space, strictly
    higher (Shootout) or equal or higher (Bank Robbery, Town Overrun), exactly as written (A2, A3, A4: the total
    even on doubles)."""
    space = adventure(ctx).party
    passed = roll.value > space if strict else roll.value >= space
    words = "higher than" if strict else "at least"
    if passed:
        set_counter(ctx, "broken", 1)
        ctx.emit("mission", f"{roll.value} is {words} the Posse marker's space {space}: {what}", rule=rule,
                 reason="broken", value=roll.value, number=space, passed=True,
                 mission=mission(ctx.state).key)  # fmt: skip
    else:
        ctx.emit("mission", f"{roll.value} is not {words} the Posse marker's space {space}: not yet", rule=rule,
                 reason="broken", value=roll.value, number=space, passed=False,
                 mission=mission(ctx.state).key)  # fmt: skip
    return passed


# ---- attacks on the heroes (and on figures the Bandits may target) -----------------------------------------------
def attack_roll(ctx: Ctx, figure: Figure, dice: int, what: str, *, aimed: Said = ()) -> Steps[int]:
    """The Enemy's To Hit roll (the sheet's To Hit; no Grit on an Enemy's dice, FF-GRIT-03); `aimed` is whom at
    and with what, as the prompt's facts (name, reason, item)."""
    to_hit = figure.to_hit or 4
    roll = yield from ctx.roll(DieKind.POOL, f"{figure.name} ({figure.id}) {what}: To Hit {to_hit}+", pool=dice,
                               target=to_hit, rule="FT-BANDIT-06", asks=Asks.TO_HIT,
                               said=(("figure", figure.name), ("target", to_hit), *aimed))  # fmt: skip
    return roll.successes


def shoot(ctx: Ctx, figure: Figure, target: str, *, in_cover: bool, melee: bool = False, rule: str) -> Steps[None]:
    """One attack by a Bandit on a Hero (or a Prisoner/Townsfolk figure): To Hit, then Cover Saves before Defense
    (FT-BOARD-07: not against an adjacent attacker, so never in Melee), then Defense and Damage."""
    gun = weapon(figure)
    dice = figure.combat or 1 if melee else gun.shots or 1
    damage = figure.damage if melee else gun.damage or figure.damage
    what = "Melee Attack" if melee else f"{gun.name} (Range {gun.range})"
    adv = adventure(ctx)
    aimed_at = ctx.name(target) if target in {m.id for m in adv.heroes} else \
        next((f.name for f in adv.figures if f.id == target), target)  # fmt: skip
    hits = yield from attack_roll(ctx, figure, dice, what, aimed=(("name", aimed_at), ("reason", "melee"))
                                  if melee else (("name", aimed_at), ("reason", "ranged"), ("item", gun.name)))
    adv = adventure(ctx)
    heroes = {m.id for m in adv.heroes}
    if target not in heroes | {f.id for f in adv.figures}:  # killed by a shot before this one
        ctx.emit("shot", f"{figure.name}'s target {target} is gone", rule=rule, reason="gone", figure=figure.name)
        return
    ctx.emit("shot", f"{figure.name}: {what} at {ctx.name(target) if target in heroes else adv.figure(target).name}, "
             f"{hits} Hit(s)", hero=target if target in heroes else None, rule=rule, reason="melee" if melee else
             "ranged", figure=figure.name, item="" if melee else gun.name,
             name=ctx.name(target) if target in heroes else adv.figure(target).name, hits=hits)  # fmt: skip

    if target in {m.id for m in adv.heroes}:
        if ctx.hero(target).knocked_out:
            return
        strike = EnemyStrike(target, hits=hits, damage=damage)
        yield from strike_hero(ctx, figure, strike, in_cover=in_cover and not melee)
        return
    if hits and in_cover and not melee:
        hits = yield from cover_saves(ctx, hits, who=adv.figure(target).name)
    yield from hit_figure(ctx, target, hits, damage, by=figure.name, rule=rule)


def strike_hero(ctx: Ctx, figure: Figure, strike: EnemyStrike, *, in_cover: bool) -> Steps[None]:
    """Hits on a Hero on the Town board, from a Bandit (`activate_bandits`) or any Enemy (`activate_enemy`): the
    Cover Saves when in Cover (FT-BOARD-07, a Rooftop too: FT-BOARD-13), then the saves and Damage, then the fall
    of a Hero wounded on a Rooftop (FT-BOARD-20). One implementation for every attacker."""
    hero = strike.hero
    before = ctx.hero(hero).wounds

    def saves(hits: int) -> Steps[int]:
        return (yield from cover_saves(ctx, hits, who=ctx.name(hero)))

    yield from take_strike(ctx, figure, strike, cover_saves=saves if in_cover else None)
    if ctx.state.adventure is not None and hero in {m.id for m in adventure(ctx).heroes}:
        yield from roof_fall(ctx, hero, ctx.hero(hero).wounds > before)


def in_cover_from(state: Session, figure: Figure, hero: str, kind: str) -> bool:
    """Whether `hero` makes Cover Saves against `figure`'s Hits of `kind` where the two stand (FT-BOARD-07): a
    Hero on a Rooftop is in Cover from all but models on the same Rooftop (FT-BOARD-13), including an attacker
    with no square on the board; Horror and Corruption Hits ignore Cover."""
    adv = state.adventure
    if adv is None or kind != "wound":
        return False
    target = board_pos(adv.hero(hero).place)
    if target is None:
        return False
    attacker = board_pos(figure.place)
    if attacker is None or attacker.entry:
        return bool(target.roof)
    town = mission(state)
    blockers = board_of(state).cells(town.sight_blockers(state)) if isinstance(town, TownMission) else frozenset()
    return has_cover(board_of(state), target, attacker, blockers=blockers)


def roof_fall(ctx: Ctx, hero: str, wounded: bool) -> Steps[None]:
    """A Hero on a rooftop who took Wounds from an Attack falls on 1-3 of a D6: onto a ground space beside the
    Building, D6 Wounds ignoring Defense (FT-BOARD-20)."""
    place = adventure(ctx).hero(hero).place
    if not wounded or ctx.state.adventure is None or place is None or not place.tile.startswith("roof:"):
        return
    board = board_of(ctx.state)
    models = board_models(ctx.state)
    me = next(m for m in models if m.id == hero)
    fall = yield from hero_wounded_on_roof(ctx, board, models, me)
    if fall is None:
        return
    set_place(ctx, hero, ground(board, fall.space))
    ctx.emit("mission", f"{ctx.name(hero)} falls from the rooftop to ({fall.space[0]},{fall.space[1]})", hero=hero,
             rule="FT-BOARD-20", reason="hero_falls", to=f"{fall.space[0]},{fall.space[1]}")  # fmt: skip
    yield from hero_wounds(ctx, hero, fall.wounds, rule="FT-BOARD-20", why="a fall from the rooftop")


def hit_figure(ctx: Ctx, figure_id: str, hits: int, damage: int, *, by: str, rule: str) -> Steps[None]:
    """Hits on a figure the Mission lets Enemies attack (the Escaped Prisoner, Townsfolk): a Defense save per Hit
    (its Defense N+), then Damage as Wounds; at its Health it is killed."""
    figure = adventure(ctx).figure(figure_id)
    if not hits:
        ctx.emit("hit", f"{by} misses {figure.name}", rule=rule, reason="missed", figure=by, name=figure.name)
        return
    if figure.armor:
        roll = yield from ctx.roll(DieKind.POOL, f"{figure.name}'s Defense {figure.armor}+ saves", pool=hits,
                                   target=figure.armor, rule=rule, asks=Asks.SAVE,
                                   said=_defense(figure, by))  # fmt: skip
        if figure.kind == "prisoner":
            roll = yield from grit_for(ctx, figure, roll, by)
        hits -= roll.successes
    wounds = hits * damage
    if not wounds:
        ctx.emit("hit", f"{figure.name} saves every Hit from {by}", rule=rule, reason="saved", figure=by,
                 name=figure.name)  # fmt: skip
        return
    figure = replace(figure, wounds=min(figure.health, figure.wounds + wounds))
    put_figure(ctx, figure)
    ctx.emit("hit", f"{figure.name} takes {wounds} Wound(s) from {by}: {figure.health_left} Health left", rule=rule,
             reason="wounded", figure=figure.name, count=wounds, value=figure.health_left)  # fmt: skip

    if figure.health_left <= 0:
        yield from kill(ctx, figure, by="")


def _defense(figure: Figure, by: str) -> Said:
    """A figure's Defense saves as a prompt's facts."""
    return (("reason", "defense"), ("target", figure.armor), ("figure", figure.name), ("name", by))


def grit_for(ctx: Ctx, figure: Figure, roll: Roll, by: str) -> Steps[Roll]:
    """Any Hero may spend their own Grit to re-roll the Escaped Prisoner's Defense dice that failed, each die at
    most once (FT-M2-09, FF-GRIT-02)."""
    from ...prompts import Amount, Option, Part, Says

    while True:
        failed = [i for i, f in enumerate(roll.faces) if f < roll.target and i not in roll.rerolled]
        heroes = [h for h in standing(ctx.state) if ctx.hero(h).grit >= 1]
        payer = ""
        for hero in heroes if failed else ():  # each Hero in turn: their own Grit, their own choice
            answer = yield from ctx.choose(
                f"{figure.name}'s Defense shows {','.join(map(str, roll.faces))}: spend 1 of your Grit to re-roll "
                f"the {len(failed)} failed save(s)?",
                [Option("reroll", "Spend 1 Grit: re-roll them", part=Part.JOIN, costs=(Amount("grit", 1),),
                        says=Says.GRIT_REROLL),
                 Option("keep", "No", part=Part.DECLINE, says=Says.NO)], hero=hero, rule="FT-M2-09",
                asks=Asks.DEFENSE_REROLL, said=(("figure", figure.name), ("count", len(failed))))  # fmt: skip
            if answer == "reroll":
                payer = hero
                break
        if not payer:
            return roll
        ctx.change(payer, "grit", -1, rule="FT-M2-09", why=f"re-roll {figure.name}'s Defense")
        again = yield from ctx.roll(DieKind.POOL, f"{figure.name}'s Defense (re-roll)", pool=len(failed),
                                    rule="FF-GRIT-02", asks=Asks.SAVE,
                                    said=(*_defense(figure, by), ("reroll", True)))  # fmt: skip
        roll = roll.with_rerolls(tuple(failed), again.faces)


def hero_wounds(ctx: Ctx, hero: str, wounds: int, *, rule: str, why: str) -> Steps[None]:
    if wounds:
        ctx.change(hero, "wounds", wounds, rule=rule, why=why)
        yield from harmed(ctx, hero)


# ---- moving a figure along a path --------------------------------------------------------------------------------
def walk(ctx: Ctx, figure_id: str, goals: Iterable[tuple[int, int]], steps: int, *,
         blocked: Iterable[tuple[int, int]] = (), exit_at: str = "") -> tuple[int, bool]:  # fmt: skip
    """Move a figure up to `steps` squares along the shortest path to `goals`; with `exit_at`, stepping past that
    Entry Area's squares takes it off the board (FT-BOARD-22). Returns (squares moved, left the board)."""
    board = board_of(ctx.state)
    figure = adventure(ctx).figure(figure_id)
    pos = board_pos(figure.place)
    if pos is None:
        return 0, False
    path = shortest_path(board, pos, goals, blocked=blocked)
    if path is None:
        return 0, False
    moves = len(path) - 1
    if exit_at and moves + 1 <= steps:
        put(ctx, replace(adventure(ctx), figures=tuple(f for f in adventure(ctx).figures if f.id != figure_id)))
        return moves + 1, True
    end = path[min(steps, moves)]
    put_figure(ctx, replace(figure, place=ground(board, end)))
    return min(steps, moves), False


# ---- the table's corrections -------------------------------------------------------------------------------------
def check_place(state: Session, model: str, to: Place, *, field: str = "to") -> Pos:
    """A position the board has and no other model holds (FT-BOARD-02/06/08/12/22, FF-MOVE-02)."""
    board = board_of(state)
    pos = board_pos(to)
    if pos is None:
        raise IllegalCommand(f"{field}: a square (x, y), a rooftop (roof:3+4) or an Entry Area (entry:A) on the Town "
                             "Adventure Board (FT-BOARD-02)", field=field, rule="FT-BOARD-02")  # fmt: skip
    check_position(board, pos, field=field)
    if pos.space is not None:
        expected = tile_of(board, pos.space)
        if to.tile != expected:
            raise IllegalCommand(f"{field}.tile: ({pos.space[0]},{pos.space[1]}) is on {expected}, not {to.tile} "
                                 "(FT-BOARD-02)", field=f"{field}.tile", rule="FT-BOARD-02")  # fmt: skip
        if pos.space in taken(state, but=[model]) or pos.space in obstacles(state):
            raise IllegalCommand(f"{field}: ({pos.space[0]},{pos.space[1]}) is already taken (FF-MOVE-02)",
                                 field=field, rule="FF-MOVE-02")  # fmt: skip
    return pos


def obstacles(state: Session) -> frozenset[tuple[int, int]]:
    """Squares no model enters besides the models: the Mission's (Hanging High's Gallows, Jail Break's Horses)."""
    town = mission(state) if state.adventure is not None else None
    if not isinstance(town, TownMission):
        return frozenset()
    return frozenset(town.blocked(state))


def mission(state: Session) -> Mission:
    return mission_of(state)


def mission_said(ctx: Ctx, reason: str, *more: tuple[str, int | str | bool]) -> Said:
    """A Mission's own roll or draw as a prompt's facts (`Asks.MISSION_ROLL`, `MISSION_DRAW`): the Mission's key,
    what is rolled (`reason`), and its numbers and names."""
    return (("mission", mission(ctx.state).key), ("reason", reason), *more)


# ---- the base of every Town Mission ------------------------------------------------------------------------------
class TownMission(Mission):
    """A Mission on the Town Adventure Board (FT-BOARD-01, FT-MIS-GEN-01): no Exploration, fully lit, Growing Dread
    revealed at once; heroes start with 1 Grit and keep their Damage; the table's moves are checked on the board.
    Each Mission repurposes the Depth Track through the hooks `hbtd_target`/`resolve_hbtd` (FT-DEPTH-02)."""

    board = TOWN
    reward_rule = ""
    set_up: ClassVar[str] = ""  # the Mission's Set Up on the Town Adventure Board (the rulebook's, in short)

    def set_up_text(self, ctx: Ctx, heroes: int, lantern: str, names: str, entrance: int) -> str:
        """The Town Adventure Board set-up of this Mission (FT-MIS-GEN-01 and its Set Up): no Mines set-up."""
        lantern_role = "" if self.hbtd_target(ctx.state) is None else " and makes the Hold Back the Darkness tests"
        return (f"{self.title}: {heroes} Hero(es) on the Town Adventure Board: {self.set_up}; {lantern} carries the Old Lantern"
                f"{lantern_role}; the Heroes keep their Damage from the Travel and the Town Stay: {names}")

    def scaling_text(self, threat: str, revive: int, playing: int) -> str:
        """A Town Mission draws no Threat deck of its own unless it says so (Town Overrun): the Revive Tokens only."""
        return f"{playing} Hero(es): {revive} Revive Token(s)"

    def scaling_threat(self, threat: str, playing: int) -> str:
        return ""


    def blocked(self, state: Session) -> tuple[tuple[int, int], ...]:
        """Squares that block movement besides models (the Gallows, the Horses)."""
        return ()

    def sight_blockers(self, state: Session) -> tuple[tuple[int, int], ...]:
        """Squares that block Line of Sight (Hanging High's Gallows and Townsfolk, FT-M2-04)."""
        return ()

    def targets(self, state: Session) -> tuple[str, ...]:
        """Figures Enemies may pick as a Random Hero (the Escaped Prisoner, FT-M2-09)."""
        return ()

    def board_models(self, state: Session) -> tuple[BoardModel, ...]:
        """The models the Bandits' AI sees: non-Bandit Enemies and neutral figures block; `targets` count as Heroes."""
        out = []
        extra = set(self.targets(state))
        for model in board_models(state):
            figure_kind = model.group
            if model.side is BSide.ENEMY and figure_kind != BANDIT:
                model = replace(model, side=BSide.NEUTRAL)
            if model.id in extra:
                model = replace(model, side=BSide.HERO)
            if figure_kind in MARKER_KINDS:
                continue
            out.append(model)
        return tuple(out)

    def figure_killed(self, ctx: Ctx, figure: Figure, by: str) -> Steps[None]:
        """An Enemy a Hero kills on a rooftop falls on 1-3 and the Hero Recovers 1 Grit (FT-BOARD-20); then the
        Mission's own `killed`."""
        if by and figure.side is Side.ENEMY and figure.place is not None and figure.place.tile.startswith("roof:"):
            model = BoardModel(figure.id, BSide.ENEMY, Pos.on_roof(figure.place.tile[5:]), name=figure.name)
            if (yield from enemy_killed_on_roof(ctx, model)):
                ctx.emit("mission", f"{figure.name} falls screaming from the rooftop", rule="FT-BOARD-20",
                         reason="enemy_falls", figure=figure.name)  # fmt: skip
                if ctx.hero(by).grit < ctx.hero(by).max_grit:
                    ctx.change(by, "grit", 1, rule="FT-BOARD-20", why="an Enemy fell from the rooftop")
        gang = adventure(ctx).gang
        if by and gang is not None and figure.kind == BANDIT:  # FT-BANDIT-09: the card's bonus to the killer
            xp, gold = gang_reward(gang, 1)
            for field, amount in (("xp", xp), ("gold", gold)):
                if amount:
                    ctx.change(by, field, amount, rule="FT-BANDIT-09", why=f"one of the {gang.name} killed")
        yield from self.killed(ctx, figure, by)

    def killed(self, ctx: Ctx, figure: Figure, by: str) -> Steps[None]:
        """A figure was killed (a Mission's kill track, Money Bags ...)."""
        yield from ()

    def enemy_strike(self, ctx: Ctx, figure: Figure, strike: EnemyStrike) -> Steps[None]:
        """An Enemy's Hits on the Town board: Cover where the two stand, the Rooftop's fall (`strike_hero`)."""
        yield from strike_hero(ctx, figure, strike, in_cover=in_cover_from(ctx.state, figure, strike.hero, strike.kind))

    def bandits_act(self, ctx: Ctx, ids: list[str], corrections: dict[str, str]) -> Steps[None]:
        """The Bandits' activation (default: the Shootout, FT-BANDIT-03..08)."""
        yield from shootout(ctx, ids, corrections)

    def check_move(self, state: Session, hero_id: str, command: object) -> None:
        """A hero's Move on the board: the square exists and is free, and a path of at most the spaces moved
        reaches it around Walls (FT-BOARD-03/04/11, FF-MOVE-02)."""
        to = getattr(command, "to", None)
        if to is None or to.x is None:
            return
        pos = check_place(state, hero_id, to)
        adv = state.adventure
        assert adv is not None
        here = board_pos(adv.hero(hero_id).place)
        if here is None or here.roof or pos.space is None:
            return
        board = board_of(state)
        mover = "window" if "window" in getattr(command, "through", ()) else "walk"
        blocked = set(obstacles(state))
        if "model" not in getattr(command, "through", ()):
            blocked |= taken(state, but=[hero_id])
        path = shortest_path(board, here, [pos.space], blocked=blocked, mover=mover)
        spaces = getattr(command, "spaces", 0)
        if path is None or len(path) - 1 > spaces:
            need = "no way" if path is None else f"{len(path) - 1} spaces"
            raise IllegalCommand(f"to: ({pos.space[0]},{pos.space[1]}) is {need} from "
                                 f"({here.space[0] if here.space else '?'},{here.space[1] if here.space else '?'}) "
                                 f"around the Walls, more than the {spaces} moved: no move through a Wall "
                                 "(FT-BOARD-03)", field="to", rule="FT-BOARD-03")  # fmt: skip

    def finish(self, ctx: Ctx, ending: Ending) -> Steps[None]:
        if ending.won:
            ctx.carry("FT-TOWN-09", "The Mission was not failed: the posse may stay in this town (stay_in_town) "
                      "or travel", reason="may_stay", may_stay=True)  # fmt: skip
            yield from self.reward(ctx)
        else:
            yield from self.failure(ctx, ending)

    def reward(self, ctx: Ctx) -> Steps[None]:
        yield from ()

    def failure(self, ctx: Ctx, ending: Ending) -> Steps[None]:
        yield from ()


def no_town(ctx: Ctx, rule: str) -> None:
    """The failure text: "may not visit Town, but must begin the next Adventure directly" (A33)."""
    ctx.carry(rule, "The Heroes may not visit Town: the next Adventure begins directly", reason="no_town", no_town=rule)



def each_hero_d6_times(ctx: Ctx, field: str, times: int, *, rule: str, why: str, sign: int = 1) -> Steps[None]:
    """Each Hero rolls their own D6 × N (A9) and gains (or loses) it; Gold floors at $0 (A8)."""
    for hero in party_ids(ctx.state):
        face = yield from ctx.d6(f"{why}: D6 × {times}", hero=hero, rule=rule, asks=Asks.GAIN if sign > 0 else
                                 Asks.LOSS, said=(("reason", field), ("count", times)))  # fmt: skip
        amount = face * times
        if sign < 0:
            amount = min(amount, getattr(ctx.hero(hero), field))
        if amount:
            ctx.change(hero, field, sign * amount, rule=rule, why=why)


def set_place(ctx: Ctx, model: str, place: Place) -> None:
    adv = adventure(ctx)
    if model in {m.id for m in adv.heroes}:
        put_member(ctx, replace(adv.hero(model), place=place))
    else:
        put_figure(ctx, replace(adv.figure(model), place=place))


# ---- the Bandits' default activation: a Shootout group (FT-BANDIT-03..08) ------------------------------------
REASONS = {Action.MELEE: "melee", Action.NONE: "no_target"}


def reason_key(p: Proposal) -> str:
    if p.retreated:
        return "retreat"
    if p.action is Action.RANGED:
        if p.start.roof:
            return "rooftop"
        if p.cover:
            return "cover"
        return "advance" if p.path else "stay"
    return REASONS.get(p.action, "no_target")


def shootout(ctx: Ctx, ids: list[str], fixes: dict[str, str], *, still: bool = False) -> Steps[None]:
    """A Shootout group's activation: the AI's proposals applied and announced, then Melee and Ranged Attacks.
    `still`: nobody moves this turn (the Duel's "Draw!", FT-M6-04)."""
    state = ctx.state
    town = mission(state)
    assert isinstance(town, TownMission)
    board = board_of(state)
    models = tuple(m for m in town.board_models(state) if m.group != BANDIT or m.id in ids)
    blockers = board.cells(town.sight_blockers(state))
    sheet = replace(DEFAULT_SHEET, move=0) if still else DEFAULT_SHEET
    result = yield from activate(ctx, board, models, sheet=sheet, blocked=obstacles(state), gang=adventure(ctx).gang,
                                 sight_blockers=town.sight_blockers(state))  # fmt: skip
    positions = {m.id: m.pos for m in result.models}
    attacks: list[tuple[str, str, bool, bool]] = []  # bandit, target, in cover, melee
    shots_by = {s.bandit: s for s in result.shots}
    for p in result.proposals:
        set_place(ctx, p.bandit, place_of(board, p.end))
        target = p.target or ""
        line = None
        if p.bandit in fixes:
            target = fixes[p.bandit]
            there = positions.get(target)
            line = None if there is None else in_range(board, p.end, there, 12 if p.end.roof else 6, blockers=blockers)
            if line is None:
                raise IllegalCommand(f"targets: {p.bandit} at {p.end.describe()} has no Range and Line of Sight to "
                                     f"{target} (FT-BANDIT-05)", field="targets", rule="FT-BANDIT-05")  # fmt: skip
        shots: tuple[FireLine, ...] = ()
        action = p.action.value
        if line is not None:  # the table's target: a Ranged Attack along the line it checked
            covered = has_cover(board, positions[target], p.end, blockers=blockers)
            action = "ranged"
            shots = (FireLine(target, line.frm, line.to, covered),)
            attacks.append((p.bandit, target, covered, False))
        elif p.action is Action.RANGED and target and (shot := shots_by.get(p.bandit)) is not None:
            shots = (FireLine(target, shot.line[0], shot.line[1], shot.target_in_cover),)
            attacks.append((p.bandit, target, shot.target_in_cover, False))
        elif p.action is Action.MELEE and target:
            attacks.append((p.bandit, target, False, True))
        plan = BanditPlan(p.bandit, place_of(board, p.start), p.path, place_of(board, p.end), reason_key(p),
                          action, target, p.cover, tuple(d.face for d in p.rolls), shots, p.steps)  # fmt: skip
        text = p.reason if p.bandit not in fixes else f"{p.reason}; the table says: targets {fixes[p.bandit]}"
        ctx.emit("bandit", text, rule="FT-BANDIT-05", bandit=plan, reason=plan.reason, figure=_model(ctx, p.bandit),
                 name=_model(ctx, target) if target else "", count=max(0, len(p.path) - 1),
                 why="the table's target" if p.bandit in fixes else "")  # fmt: skip

    for bandit_id, target, covered, melee in attacks:
        adv = ctx.state.adventure
        if adv is None or bandit_id not in {f.id for f in adv.figures}:
            continue
        yield from shoot(ctx, adv.figure(bandit_id), target, in_cover=covered, melee=melee,
                         rule="FT-BANDIT-04" if melee else "FT-BANDIT-06")  # fmt: skip


def _model(ctx: Ctx, model: str) -> str:
    """A model's name as the table calls it: a Hero's name, a figure's ("Bandit 3"), else its id."""
    adv = ctx.state.adventure
    if adv is not None and model in {m.id for m in adv.heroes}:
        return ctx.name(model)
    if adv is not None and model in {f.id for f in adv.figures}:
        return adv.figure(model).name
    return model
