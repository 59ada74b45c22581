"""Mission 5, Town Overrun (FT-M5-01..11): Enemies pour in at the four Entry Points; protect the Townsfolk until
the assault is broken, then kill what is left. No Fleeing; Growing Dread revealed at once; Grit starts at Max.

Threat cards are drawn from the content pack when it has them, else at the table (`add_enemies`): Low, Med with 5-6
Heroes (A28). Enemies drawn at an Entry Point wait just off the board there (`entry:A`) and come on at their
Initiative (FT-M5-06); the table plays them with `activate_enemy` (no Enemy AI is in the rulebooks besides the
Shootout). Every kill of 3 small Enemies, or one Large or bigger, moves the Posse marker (A27).
"""

from __future__ import annotations

from ...commands import Desperation, MoveTownsfolk, RandomTarget, StrikeTownsfolk
from ...dice import DieKind, Roll
from ...errors import IllegalCommand, InvalidCommand
from ...events import Fact
from ...flow import Ctx, Procedure, Steps
from ...frozen import replace
from ...prompts import Asks, Option, Says
from ...state import Figure, Place, Session, Side
from ..adventure import Ending, register
from ..adventure.board_models import board_pos
from ..adventure.common import adventure, member, need_adventure, need_hero, party_ids, put, set_counter, standing
from ..adventure.fight import add_figures, draw_threat
from ..adventure.ko import injury_or_madness
from ..adventure.turn import advance, finish_activation
from ..board import map_tiles, random_building, shortest_path
from .common import (
    TownMission,
    board_of,
    broken,
    check_place,
    free_squares,
    ground,
    hit_figure,
    kill_track,
    mission_said,
    no_town,
    place_heroes,
    set_place,
    taken,
)

EXITS = ("A", "B", "C", "D")
DESPERATION = ("scavenge", "recover_grit", "ready_item", "catch_breath")


class TownOverrun(TownMission):
    key = "town_overrun"
    title = "Town Overrun"
    set_up = (  # its Set Up
        "Entry Areas A-D are Enemy Entry Points; as many Townsfolk markers as Heroes in Random "
        "Buildings and as many more outside the Buildings; the Heroes start anywhere, Rooftops included, with "
        "Max Grit; a D6 per Entry Point: on 1-3 a Low Threat card waits there"
    )
    may_flee = False  # FT-M5-08

    def starting_grit(self, state: Session, hero_id: str) -> int:
        return state.hero(hero_id).max_grit  # FT-M5-01, A6

    def scavenge_limit(self, state: Session) -> int | None:
        return None  # FT-M5-07: Scavenging with no limit (through Desperation)

    def threat(self, state: Session) -> str:
        return "med" if len(party_ids(state)) >= 5 else "low"  # FT-M5-01, A28

    def scaling_text(self, threat: str, revive: int, playing: int) -> str:
        """Town Overrun's Threat cards are Low, Med with 5-6 Heroes (FT-SCALE-01, FT-M5-01): not the core choice."""
        return f"{playing} Hero(es): {'Med' if playing >= 5 else 'Low'} Threats (FT-SCALE-01), {revive} Revive Token(s)"

    def scaling_threat(self, threat: str, playing: int) -> str:
        return "med" if playing >= 5 else "low"


    def setup(self, ctx: Ctx) -> Steps[None]:
        board = board_of(ctx.state)
        centre = board.spaces["street_centre"][0]
        street = sorted((board.xy(c) for c in range(board.size) if board.tile[c] == 0),
                        key=lambda s: (max(abs(s[0] - centre[0]), abs(s[1] - centre[1])), s))  # fmt: skip
        heroes = party_ids(ctx.state)
        place_heroes(ctx, {h: ground(board, s) for h, s in zip(heroes, street, strict=False)})  # anywhere (FT-M5-01)
        indoors = (yield from ctx.roll(DieKind.PERIL, "Townsfolk in the Buildings (Peril Die)", chart=True,
                                       rule="FT-M5-01", asks=Asks.MISSION_ROLL,
                                       said=mission_said(ctx, "townsfolk_indoors"))).value  # fmt: skip
        folk: list[Figure] = []
        used: list[tuple[int, int]] = []
        for n in range(indoors):  # A26: a D8 for each
            number = yield from random_building(ctx, f"Townsfolk {n + 1}'s Building",
                                                (("reason", "townsfolk"), ("number", n + 1)))  # fmt: skip
            found = free_squares(board, ctx.state, [board.xy(c) for c in board.buildings[number]], 1, also_taken=used)
            if found:
                used.append(found[0])
                folk.append(_townsfolk(len(folk) + 1, ground(board, found[0])))
        outdoors = (yield from ctx.roll(DieKind.PERIL, "Townsfolk in the Street (Peril Die)", chart=True,
                                        rule="FT-M5-01", asks=Asks.MISSION_ROLL,
                                        said=mission_said(ctx, "townsfolk_street"))).value  # fmt: skip
        for square in free_squares(board, ctx.state, street[len(heroes) + 4:], outdoors, also_taken=used):
            folk.append(_townsfolk(len(folk) + 1, ground(board, square)))
        yield from add_figures(ctx, folk, rule="FT-M5-01")
        ctx.emit("mission", f"{len(folk)} Townsfolk markers placed (the Heroes may move the Street ones: place_model)",
                 rule="FT-M5-01", reason="townsfolk_placed", count=len(folk))  # fmt: skip
        low = 1 if len(heroes) <= 2 else 3
        for letter in EXITS:
            face = yield from ctx.d6(f"Entry Point {letter}: Enemies at the start? (1-{low})", rule="FT-M5-01",
                                     asks=Asks.MISSION_ROLL,
                                     said=mission_said(ctx, "enemies_at_start", ("where", f"entry:{letter}"),
                                                       ("number", low)))  # fmt: skip
            if face <= low:
                yield from self._threat_at(ctx, letter)

    def _threat_at(self, ctx: Ctx, letter: str) -> Steps[None]:
        before = {f.id for f in adventure(ctx).figures}
        yield from draw_threat(ctx, self.threat(ctx.state), rule="FT-M5-05")
        adv = adventure(ctx)
        figures = tuple(replace(f, place=Place(f"entry:{letter}")) if f.id not in before and f.place is None else f
                        for f in adv.figures)  # fmt: skip
        put(ctx, replace(adv, figures=figures))
        ctx.emit("mission", f"Enemies wait just off the board at Entry Point {letter}", rule="FT-M5-06",
                 reason="enemies_wait", where=f"entry:{letter}")  # fmt: skip

    # ---- Hold Back the Darkness -----------------------------------------------------------------------------
    def resolve_hbtd(self, ctx: Ctx, roll: Roll, target: int) -> Steps[bool]:
        if not adventure(ctx).counter("broken") and broken(ctx, roll, strict=False, rule="FT-M5-10",
                  what="the assault is broken: no more Enemies at the Entry Points"):  # fmt: skip
            for letter in EXITS:
                set_counter(ctx, f"approaching_{letter}", 0)
        yield from ()
        return False

    def after_hbtd(self, ctx: Ctx, roll: Roll | None) -> Steps[None]:
        """FT-M5-02: the Townsfolk share Movement Points equal to the Hold Back the Darkness total (A4)."""
        if roll is not None and any(f.kind == "townsfolk" for f in adventure(ctx).figures):
            set_counter(ctx, "townsfolk_moves", roll.value)
            ctx.emit("mission", f"The Townsfolk have {roll.value} Movement Points to share (move_townsfolk)",
                     rule="FT-M5-02", reason="townsfolk_points", count=roll.value)  # fmt: skip
        yield from ()

    # ---- the End of the Turn --------------------------------------------------------------------------------
    def end_of_turn_effects(self, state: Session) -> tuple[Option, ...]:
        adv = state.adventure
        assert adv is not None
        if adv.counter("broken"):
            return ()
        return (Option("entry_points", "A D6 for each Enemy Entry Point"),)

    def end_of_turn(self, ctx: Ctx, key: str) -> Steps[None]:
        """FT-M5-05, A25: 1-2 succeeds (only a 1 with a Hero within 3 spaces, A22); a success places an Enemies
        Approaching marker, or with one there already, removes it and draws a Threat card."""
        set_counter(ctx, "townsfolk_moves", 0)
        board = board_of(ctx.state)
        for letter in EXITS:
            area = board.entry_areas[letter].spaces
            near = False
            for hero in standing(ctx.state):
                place = member(ctx, hero).place
                if place is not None and place.x is not None and place.y is not None:
                    near = near or any(max(abs(place.x - x), abs(place.y - y)) <= 3 for x, y in area)
            need = 1 if near else 2
            face = yield from ctx.d6(f"Entry Point {letter} (1-{need} succeeds)", rule="FT-M5-05",
                                     asks=Asks.MISSION_ROLL,
                                     said=mission_said(ctx, "entry_point", ("where", f"entry:{letter}"),
                                                       ("number", need)))  # fmt: skip
            if face > need:
                continue
            if adventure(ctx).counter(f"approaching_{letter}"):
                set_counter(ctx, f"approaching_{letter}", 0)
                yield from self._threat_at(ctx, letter)
            else:
                set_counter(ctx, f"approaching_{letter}", 1)
                ctx.emit("mission", f"An Enemies Approaching marker at Entry Point {letter}", rule="FT-M5-05",
                         reason="enemies_approaching", where=f"entry:{letter}")  # fmt: skip

    # ---- kills ----------------------------------------------------------------------------------------------
    def killed(self, ctx: Ctx, figure: Figure, by: str) -> Steps[None]:
        """FT-M5-10, A27: 1 step per full 3 Enemies killed; a Large or bigger one, 2 steps and not counted."""
        if figure.kind == "townsfolk":
            ctx.emit("mission", "A Townsfolk marker is killed", rule="FT-M5-04", reason="townsfolk_killed",
                     number=_number(figure.id))  # fmt: skip
            return
        if figure.side is not Side.ENEMY:
            return
        if figure.size in ("large", "xl"):
            kill_track(ctx, 2, rule="FT-M5-10", why=f"{figure.name} (Large or bigger) killed")
        else:
            count = adventure(ctx).counter("small_kills") + 1
            set_counter(ctx, "small_kills", count % 3)
            if count == 3:
                kill_track(ctx, 1, rule="FT-M5-10", why="3 more Enemies killed")
        yield from ()

    def check_end(self, state: Session) -> Ending | None:
        adv = state.adventure
        assert adv is not None
        if adv.counter("broken") and not adv.enemies:
            return Ending(True, "assault_broken", "FT-M5-10", "The assault is broken and every Enemy is dead: the "
                          "town is saved")  # fmt: skip
        return None

    def reward(self, ctx: Ctx) -> Steps[None]:
        """FT-M5-11: for each surviving Townsfolk marker each Hero gains D6x10 XP or D6x$25 (chosen per marker)."""
        folk = [f for f in adventure(ctx).figures if f.kind == "townsfolk"]
        for hero in party_ids(ctx.state):
            for n, _ in enumerate(folk):
                pick = yield from ctx.choose(f"{ctx.name(hero)}: Townsfolk {n + 1} saved: XP or Gold?",
                                             [Option("xp", "D6 x 10 XP", says=Says.XP_REWARD),
                                              Option("gold", "D6 x $25", says=Says.GOLD_REWARD)], hero=hero,
                                             rule="FT-M5-11", asks=Asks.TOWNSFOLK_REWARD,
                                             said=(("number", n + 1),))  # fmt: skip
                face = yield from ctx.d6(f"the reward for Townsfolk {n + 1}", hero=hero, rule="FT-M5-11",
                                         asks=Asks.GAIN, said=(("reason", pick),
                                                               ("count", 10 if pick == "xp" else 25)))  # fmt: skip
                ctx.change(hero, pick, face * (10 if pick == "xp" else 25), rule="FT-M5-11", why="a Townsfolk saved")
        ctx.emit("mission", "Each Hero draws 2 Loot cards (at the table)", rule="FT-M5-11", reason="loot_reward", count=2)

    def failure(self, ctx: Ctx, ending: Ending) -> Steps[None]:
        for hero in party_ids(ctx.state):  # FT-M5-11: the KO'd roll; if the Darkness escaped, the others too
            if ctx.hero(hero).knocked_out:
                if ending.reason != "all_ko":  # the core already rolled for a posse all KO'd
                    yield from injury_or_madness(ctx, hero, rule="FT-M5-11")
            elif ending.reason == "darkness":
                chart = yield from ctx.choose(f"{ctx.name(hero)}: the Darkness escaped: Injury or Madness?",
                                              [Option("injury", "Roll on the Injury chart", says=Says.INJURY_CHART),
                                               Option("madness", "Roll on the Madness chart",
                                                      says=Says.MADNESS_CHART)], hero=hero,
                                              rule="FT-M5-11", asks=Asks.ESCAPED_CHART)  # fmt: skip
                yield from ctx.card(hero, chart, f"The Darkness escaped: roll on the {chart.capitalize()} chart and "
                                    "enter what it says", rule="FT-M5-11")  # fmt: skip
        ctx.emit("mission", "The Town is destroyed", rule="FT-M5-11", reason="town_destroyed")
        no_town(ctx, "FT-M5-11")


def _number(townsfolk: str) -> int:
    """A Townsfolk marker's number ("townsfolk-3": 3), as the table calls it."""
    return int(townsfolk.rsplit("-", 1)[-1]) if townsfolk.rsplit("-", 1)[-1].isdigit() else 0


def _townsfolk(n: int, place: Place) -> Figure:
    """FT-M5-04: 1 Health, Defense 4+ (kept as its save), immune to Sanity Damage."""
    return Figure(f"townsfolk-{n}", "Townsfolk", Side.NEUTRAL, 1, armor=4, kind="townsfolk", place=place)


# ---- the Townsfolk's moves and Desperation (commands) --------------------------------------------------------
def check_move_townsfolk(state: Session, command: MoveTownsfolk) -> None:
    adv = need_adventure(state)
    if adv.mission != TownOverrun.key:
        raise IllegalCommand("type: Townsfolk move this way in Town Overrun (FT-M5-02)", field="type", rule="FT-M5-02")
    pool = adv.counter("townsfolk_moves")
    if command.spaces < 1 or command.spaces > pool:
        raise IllegalCommand(f"spaces: {pool} Movement Point(s) left this turn (FT-M5-02)", field="spaces",
                             rule="FT-M5-02")  # fmt: skip
    figure = next((f for f in adv.figures if f.id == command.townsfolk and f.kind == "townsfolk"), None)
    if figure is None:
        raise InvalidCommand(f"townsfolk: no Townsfolk marker {command.townsfolk!r}", field="townsfolk")
    if command.to.tile.startswith(("roof:", "entry:")):
        raise IllegalCommand("to: Townsfolk never go onto Rooftops nor leave the board (FT-M5-02)", field="to",
                             rule="FT-M5-02")  # fmt: skip
    pos = check_place(state, figure.id, command.to)
    here = board_pos(figure.place)
    board = board_of(state)
    assert pos.space is not None
    path = None if here is None else shortest_path(board, here, [pos.space], blocked=taken(state, but=[figure.id]))
    if path is None or len(path) - 1 > command.spaces:
        raise IllegalCommand(f"to: more than {command.spaces} space(s) away around the Walls (FT-BOARD-03)",
                             field="to", rule="FT-BOARD-03")  # fmt: skip


def move_townsfolk(ctx: Ctx, command: MoveTownsfolk) -> Procedure:
    set_place(ctx, command.townsfolk, command.to)
    left = adventure(ctx).counter("townsfolk_moves") - command.spaces
    set_counter(ctx, "townsfolk_moves", left)
    ctx.emit("mission", f"{command.townsfolk} moves {command.spaces} space(s); {left} Movement Point(s) left",
             rule="FT-M5-02", reason="townsfolk_moves", number=_number(command.townsfolk),
             count=command.spaces, value=left)  # fmt: skip
    yield from advance(ctx)


def check_desperation(state: Session, command: Desperation) -> None:
    adv = need_adventure(state)
    need_hero(state, command.hero)
    if adv.mission != TownOverrun.key:
        raise IllegalCommand("type: Desperation is Town Overrun's (FT-M5-07)", field="type", rule="FT-M5-07")
    if command.choice not in DESPERATION:
        raise InvalidCommand(f"choice: one of {list(DESPERATION)}", field="choice", rule="FT-M5-07")
    if adv.activation is None or adv.activation.figure != command.hero:
        raise IllegalCommand("hero: Desperation takes the place of the Hero's Attack, in their own activation "
                             "(FT-M5-07)", field="hero", rule="FT-M5-07")  # fmt: skip
    board = board_of(state)
    here = board_pos(adv.hero(command.hero).place)
    tiles = map_tiles(board, here) if here is not None else frozenset()
    for enemy in adv.enemies:
        there = board_pos(enemy.place)
        if there is not None and map_tiles(board, there) & tiles:
            raise IllegalCommand(f"hero: {enemy.name} ({enemy.id}) is on the same Map Tile (FT-M5-07)", field="hero",
                                 rule="FT-M5-07")  # fmt: skip


def desperation(ctx: Ctx, command: Desperation) -> Procedure:
    """FT-M5-07: the Hero gives up their Attack for one of four things; the activation ends."""
    hero = command.hero
    if command.choice == "recover_grit":
        if ctx.hero(hero).grit < ctx.hero(hero).max_grit:
            ctx.change(hero, "grit", 1, rule="FT-M5-07", why="Desperation: Recover a Grit")
    elif command.choice == "catch_breath":
        heal = yield from ctx.d3("Desperation: Catch Your Breath (Heal D3)", hero=hero, rule="FT-M5-07",
                                 asks=Asks.GAIN, said=(("reason", "health"), ("count", 1)))  # fmt: skip
        if ctx.hero(hero).wounds:
            ctx.change(hero, "wounds", -min(heal, ctx.hero(hero).wounds), rule="FT-M5-07", why="Catch Your Breath")
    elif command.choice == "scavenge":
        ctx.emit("mission", f"{ctx.name(hero)} Scavenges (no limit): draw a Scavenge card at the table", hero=hero,
                 rule="FT-M5-07", reason="desperate_scavenge")  # fmt: skip
    else:
        ctx.emit("mission", f"{ctx.name(hero)} readies a Once per Fight Item (A24)", hero=hero, rule="FT-M5-07",
                 reason="desperate_ready")  # fmt: skip
    finish_activation(ctx, why="Desperation")
    yield from advance(ctx)


TOWN_OVERRUN = register(TownOverrun())


# ---- the Townsfolk as targets (FT-M5-03/04/09) -------------------------------------------------------------------
def check_random_target(state: Session, command: RandomTarget) -> None:
    adv = need_adventure(state)
    if adv.mission != TownOverrun.key:
        raise IllegalCommand("type: the Townsfolk join the Random Hero roll in Town Overrun (FT-M5-03)", field="type",
                             rule="FT-M5-03")  # fmt: skip
    if command.enemy not in {f.id for f in adv.enemies}:
        raise InvalidCommand(f"enemy: no Enemy {command.enemy!r} on the board", field="enemy")


def _from(state: Session, figure: Figure) -> tuple[int, int] | None:
    """Where distances to an Enemy are counted from: its square, or the centre of its Entry Area off the board."""
    if figure.place is None:
        return None
    if figure.place.tile.startswith("entry:"):
        return board_of(state).entry_areas[figure.place.tile[6:]].spaces[0]
    return None if figure.place.x is None or figure.place.y is None else (figure.place.x, figure.place.y)


def random_target(ctx: Ctx, command: RandomTarget) -> Procedure:
    """FT-M5-03: a Random Hero among the Heroes standing and the Townsfolk as one; the Townsfolk picked, the marker
    closest to the Enemy (FT-M5-09 for an Ambush: the Heroes choose the marker). A10: KO'd Heroes are left out."""
    from ...events import Change

    enemy = adventure(ctx).figure(command.enemy)
    folk = [f for f in adventure(ctx).figures if f.kind == "townsfolk"]
    pool = [(h, ctx.name(h)) for h in standing(ctx.state)] + ([("townsfolk", "the Townsfolk")] if folk else [])
    rule = "FT-M5-09" if command.ambush else "FT-M5-03"
    picked = yield from ctx.draw(f"{enemy.name}'s Random Hero (the Townsfolk count as one)", pool, rule=rule,
                                 asks=Asks.TARGET_HERO,
                                 said=(("figure", enemy.name), ("reason", "townsfolk")))  # fmt: skip
    if picked == "townsfolk":
        if command.ambush:
            picked = yield from ctx.choose("The Ambush falls on the Townsfolk: which marker?",
                                           [(f.id, f.id) for f in folk], rule="FT-M5-09",
                                           asks=Asks.AMBUSH_MARKER)  # fmt: skip
        else:
            here = _from(ctx.state, enemy) or (0, 0)

            def away(f: Figure) -> tuple[int, str]:
                p = f.place
                spot = (p.x, p.y) if p is not None and p.x is not None and p.y is not None else here
                return max(abs(spot[0] - here[0]), abs(spot[1] - here[1])), f.id

            picked = min(folk, key=away).id
    what = "ambush" if command.ambush else "target"
    ctx.emit("mission", f"{enemy.name}'s {what}: {ctx.name(picked) if picked in party_ids(ctx.state) else picked}"
             + (" (place the Ambushers adjacent, on that Map Tile, +2 Initiative on their first turn)"
                if command.ambush else ""), rule=rule,
             changes=(Change("target", "", picked),), reason="ambush" if command.ambush else "target",
             figure=enemy.name, name=ctx.name(picked) if picked in party_ids(ctx.state) else
             adventure(ctx).figure(picked).name)  # fmt: skip
    yield from advance(ctx)


def check_strike_townsfolk(state: Session, command: StrikeTownsfolk) -> None:
    adv = need_adventure(state)
    if adv.mission != TownOverrun.key:
        raise IllegalCommand("type: Townsfolk take Hits this way in Town Overrun (FT-M5-04)", field="type",
                             rule="FT-M5-04")  # fmt: skip
    if command.enemy not in {f.id for f in adv.enemies}:
        raise InvalidCommand(f"enemy: no Enemy {command.enemy!r} on the board", field="enemy")
    if not any(f.id == command.townsfolk and f.kind == "townsfolk" for f in adv.figures):
        raise InvalidCommand(f"townsfolk: no Townsfolk marker {command.townsfolk!r}", field="townsfolk")
    if not 0 <= command.hits <= 20 or not 0 <= command.damage <= 99:
        raise InvalidCommand("hits: 0-20 Hits of 0-99 Damage", field="hits")
    if command.kind not in ("wound", "horror"):
        raise InvalidCommand("kind: wound or horror", field="kind")


def strike_townsfolk(ctx: Ctx, command: StrikeTownsfolk) -> Procedure:
    """FT-M5-04: Sanity Damage does nothing to them; an adjacent Hero may take the Hits instead, before Defense;
    else a Defense 4+ save per Hit, and 1 Health."""
    from ...commands import EnemyStrike
    from ..adventure.strike import take_strike
    from ..board import adjacent
    enemy = adventure(ctx).figure(command.enemy)
    folk = adventure(ctx).figure(command.townsfolk)
    if command.kind == "horror":
        ctx.emit("mission", f"{folk.id} is immune to Sanity Damage", rule="FT-M5-04", reason="townsfolk_immune",
                 number=_number(folk.id))  # fmt: skip
        yield from advance(ctx)
        return
    board = board_of(ctx.state)
    spot = board_pos(folk.place)
    near = [h for h in standing(ctx.state) if spot is not None and (p := board_pos(member(ctx, h).place)) is not None
            and adjacent(board, p, spot)]  # fmt: skip
    taker = "none"
    if near and command.hits:
        taker = yield from ctx.choose(f"{command.hits} Hit(s) on {folk.id}: does an adjacent Hero take them instead?",
                                      [*(Option(h, f"{ctx.name(h)} takes the Hits", says=Says.TAKES_HITS,
                                                facts=(Fact("name", ctx.name(h)),)) for h in near),
                                       Option("none", "Nobody", says=Says.NOBODY)], rule="FT-M5-04",
                                      asks=Asks.TAKE_HITS, said=(("hits", command.hits), ("figure", folk.id)))  # fmt: skip
    if taker != "none":
        ctx.emit("mission", f"{ctx.name(taker)} takes the Hits meant for {folk.id}", hero=taker, rule="FT-M5-04",
                 reason="takes_hits", number=_number(folk.id), hits=command.hits)  # fmt: skip

        yield from take_strike(ctx, enemy, EnemyStrike(taker, hits=command.hits, damage=command.damage))
    else:
        yield from hit_figure(ctx, folk.id, command.hits, command.damage, by=enemy.name, rule="FT-M5-04")
    yield from advance(ctx)
