"""A hero's activation (FF-TURN-05): the Move roll and moving up to it (FF-MOVE-01), Grit on a roll of 1
(FF-GRIT-06/07), +D6 Move for 1 Grit (FF-MOVE-03), Grit re-rolls of the Move dice (FF-GRIT-01/02), then a Search or
one Attack (explore.py, fight.py) or nothing (`end_activation`)."""

from __future__ import annotations

from ...commands import Activate, BoostMove, EndActivation, Move, RerollWithGrit
from ...dice import DieKind
from ...errors import IllegalCommand, InvalidCommand
from ...flow import Ctx, Procedure
from ...frozen import evolve, replace
from ...prompts import Amount, Asks, Option, Part, Says
from ...state import Activation, Place, Session
from ...state.adventure import MARKER_KINDS
from .common import ASSASSIN, adventure, member, need_adventure, need_hero, need_standing, put_member, update
from .missions import TOWN, mission_of
from .strike import horror_hits
from .turn import advance, check_in_turn_order, end_current, finish_activation

THROUGH = ("model", "barrier", "wall", "window")
HBTD_NAMES = ("hold_back_the_darkness", "hbtd")
CHART_NAMES = ("depth_event", "town_depth_event", "injury", "madness", "scavenge", "travel", "loot")


def allowance(state: Session, act: Activation) -> int:
    """Spaces the hero may still move: the Move roll and any +D6, +1 for Nimble (FF-MOVE-01/03, FF-ASN-01)."""
    if act.move is None:
        return 0
    nimble = 1 if state.hero(act.figure).hero_class == ASSASSIN else 0
    return max(0, sum(act.move.faces) + nimble - act.moved)


# ---- activate ----------------------------------------------------------------------------------------------------
def check_activate(state: Session, command: Activate) -> None:
    need_hero(state, command.hero)
    need_standing(state, command.hero)
    check_in_turn_order(state, command.hero, "hero")
    if command.in_the_dark and mission_of(state).board == TOWN:
        raise IllegalCommand("in_the_dark: the Town Adventure Board is fully lit; no Voices in the Dark (FT-EXPL-01)",
                             field="in_the_dark", rule="FT-EXPL-01")  # fmt: skip


def activate(ctx: Ctx, command: Activate) -> Procedure:
    """The hero activates (ending the activation under way, R-ADV-05): Voices in the Dark outside the Lantern's light
    (FF-MOVE-07), then the Move roll; a 1 Recovers 1 Grit, and at Max Grit that Grit may be spent at once on +D6 Move
    or is lost (FF-GRIT-06/07)."""
    hero = command.hero
    end_current(ctx)  # R-ADV-05: the hero whose activation was under way is done
    update(ctx, activation=Activation(hero))
    ctx.emit("activated", f"{ctx.name(hero)} activates", hero=hero, rule="FF-TURN-03", figure=ctx.name(hero))
    if command.in_the_dark:
        hits = yield from ctx.d6("Voices in the Dark: Horror Hits", hero=hero, rule="FF-MOVE-07", asks=Asks.HOW_MANY,
                                 said=(("reason", "horror_hits"), ("name", "Voices in the Dark")))  # fmt: skip
        yield from horror_hits(ctx, hero, hits, rule="FF-MOVE-07", why="Voices in the Dark")
        if ctx.state.adventure is None or ctx.hero(hero).knocked_out:
            yield from advance(ctx)
            return
    roll = yield from ctx.roll(DieKind.D6, "Move", hero=hero, rule="FF-MOVE-01", asks=Asks.MOVE)
    act = Activation(hero, evolve(roll, {"kind": DieKind.POOL}))
    update(ctx, activation=act)
    if roll.value == 1:
        if ctx.hero(hero).grit < ctx.hero(hero).max_grit:
            ctx.change(hero, "grit", 1, rule="FF-GRIT-06", why="a Move roll of 1: Recover 1 Grit")
        else:
            choice = yield from ctx.choose(
                "A Move roll of 1 Recovers a Grit, but you are at Max Grit: spend it now or lose it?",
                [Option("boost", "Spend it now: +D6 Move", part=Part.JOIN, gains=(Amount("move", 1, dice="d6"),),
                        says=Says.SPEND_NOW),
                 Option("lose", "Let it go", part=Part.DECLINE, says=Says.LET_GO_GRIT)],
                hero=hero, rule="FF-GRIT-07", asks=Asks.MAX_GRIT_MOVE,
            )  # fmt: skip
            if choice == "boost":
                yield from _extra_die(ctx, hero, why="the recovered Grit, spent at once (FF-GRIT-07)")
            else:
                ctx.emit("grit_lost", f"{ctx.name(hero)} is at Max Grit; the recovered Grit is lost", hero=hero,
                         rule="FF-GRIT-07", count=1)  # fmt: skip

    now = adventure(ctx).activation
    assert now is not None
    ctx.emit("moved", f"{ctx.name(hero)} may move up to {allowance(ctx.state, now)} spaces", hero=hero,
             rule="FF-MOVE-01", reason="allowance", value=allowance(ctx.state, now))  # fmt: skip


def _extra_die(ctx: Ctx, hero: str, *, why: str) -> Procedure:
    """Add a D6 to the movement (FF-MOVE-03): not a Move roll, so a 1 on it Recovers nothing (FF-GRIT-06)."""
    extra = yield from ctx.roll(DieKind.D6, "extra Move die", hero=hero, rule="FF-MOVE-03", asks=Asks.MOVE,
                                said=(("reason", "extra_die"),))  # fmt: skip
    act = adventure(ctx).activation
    assert act is not None and act.move is not None
    move = replace(act.move, faces=(*act.move.faces, extra.value))
    update(ctx, activation=replace(act, move=move, boosts=act.boosts + 1))
    ctx.emit("moved", f"{ctx.name(hero)} adds a D6 to the Move ({why}): {extra.value}", hero=hero, rule="FF-MOVE-03",
             reason="extra_die", value=extra.value, why=why)  # fmt: skip


def _own(state: Session, hero: str, rule: str) -> Activation:
    adv = need_adventure(state)
    need_hero(state, hero)
    act = adv.activation
    if act is None or act.figure != hero:
        now = f"{act.figure}'s activation is under way" if act else "no activation is under way"
        raise IllegalCommand(f"hero: only during {state.hero(hero).name}'s own activation; {now} ({rule})",
                             field="hero", rule=rule)  # fmt: skip
    return act


# ---- more Move ---------------------------------------------------------------------------------------------------
def check_boost(state: Session, command: BoostMove) -> None:
    act = _own(state, command.hero, "FF-MOVE-03")
    if state.hero(command.hero).grit < 1:
        raise IllegalCommand("hero: +D6 Move costs 1 Grit and there is none (FF-MOVE-03)", field="hero",
                             rule="FF-MOVE-03")  # fmt: skip
    if act.boosts >= state.options.move_boosts:
        raise IllegalCommand(f"hero: +D6 Move at most {state.options.move_boosts} time(s) per activation (option "
                             "move_boosts, a reading: FF-MOVE-03 prints no limit)", field="hero",
                             rule="option:move_boosts")  # fmt: skip


def boost_move(ctx: Ctx, command: BoostMove) -> Procedure:
    """Spend 1 Grit: +D6 to this activation's movement (FF-GRIT-01, FF-MOVE-03)."""
    ctx.change(command.hero, "grit", -1, rule="FF-GRIT-01", why="+D6 Move")
    yield from _extra_die(ctx, command.hero, why="1 Grit")


def check_reroll(state: Session, command: RerollWithGrit) -> None:
    need_adventure(state)
    need_hero(state, command.hero)
    if command.roll in HBTD_NAMES:
        raise IllegalCommand("roll: Grit may not re-roll the Hold Back the Darkness roll; Lantern Oil may (FF-DEPTH-06)",
                             field="roll", rule="FF-DEPTH-06")  # fmt: skip
    if command.roll in CHART_NAMES:
        raise IllegalCommand(f"roll: Grit may not re-roll a roll on a Chart ({command.roll}) (FF-GRIT-04)",
                             field="roll", rule="FF-GRIT-04")  # fmt: skip
    if command.roll != "move":
        raise InvalidCommand(f"roll: {command.roll!r} is not a roll left open to re-roll; 'move' is (the re-rolls of "
                             "tests, saves, Scavenge, Casting and To Hit dice are offered when rolled)", field="roll",
                             rule="FF-GRIT-01")  # fmt: skip
    act = need_adventure(state).activation
    if act is not None and act.figure != command.hero:
        raise IllegalCommand(f"hero: Grit re-rolls only dice rolled for your own Hero; these are {act.figure}'s "
                             "(FF-GRIT-03)", field="hero", rule="FF-GRIT-03")  # fmt: skip
    act = _own(state, command.hero, "FF-GRIT-01")
    if act.move is None:
        raise IllegalCommand("roll: no Move roll to re-roll yet", field="roll", rule="FF-GRIT-01")
    if act.moved:
        raise IllegalCommand("roll: the hero has moved; the Move dice are no longer the dice just rolled (R-ADV-04, a "
                             "reading of FF-GRIT-01)", field="roll", rule="R-ADV-04")  # fmt: skip
    if state.hero(command.hero).grit < 1:
        raise IllegalCommand("hero: a re-roll costs 1 Grit and there is none (FF-GRIT-01)", field="hero",
                             rule="FF-GRIT-01")  # fmt: skip
    if not command.indices or len(set(command.indices)) != len(command.indices):
        raise InvalidCommand("indices: distinct dice to re-roll", field="indices", rule="FF-GRIT-01")
    for index in command.indices:
        if not 0 <= index < len(act.move.faces):
            raise InvalidCommand(f"indices: die {index} does not exist ({len(act.move.faces)} Move dice)",
                                 field="indices", rule="FF-GRIT-01")  # fmt: skip
        if index in act.move.rerolled:
            raise IllegalCommand(f"indices: die {index} of the Move was already re-rolled (FF-GRIT-02)",
                                 field="indices", rule="FF-GRIT-02")  # fmt: skip


def reroll_with_grit(ctx: Ctx, command: RerollWithGrit) -> Procedure:
    """1 Grit re-rolls any of the Move dice, each at most once (FF-GRIT-01/02). A re-rolled 1 Recovers no more
    Grit: the Grit came with the Move roll as first rolled (a reading)."""
    hero = command.hero
    ctx.change(hero, "grit", -1, rule="FF-GRIT-01", why="re-roll the Move")
    again = yield from ctx.roll(DieKind.POOL, "Move (re-roll)", hero=hero, pool=len(command.indices),
                                rule="FF-GRIT-02", asks=Asks.MOVE, said=(("reroll", True),))  # fmt: skip
    act = adventure(ctx).activation
    assert act is not None and act.move is not None
    update(ctx, activation=replace(act, move=act.move.with_rerolls(tuple(command.indices), again.faces)))
    act = adventure(ctx).activation
    assert act is not None
    ctx.emit("moved", f"{ctx.name(hero)} may move up to {allowance(ctx.state, act)} spaces", hero=hero,
             rule="FF-MOVE-01", reason="allowance", value=allowance(ctx.state, act))  # fmt: skip


# ---- moving ------------------------------------------------------------------------------------------------------
def check_move(state: Session, command: Move) -> None:
    act = _own(state, command.hero, "FF-MOVE-01")
    adv = need_adventure(state)
    left = allowance(state, act)
    if command.spaces < 1 or command.spaces > left:
        raise IllegalCommand(f"spaces: {state.hero(command.hero).name} may move up to {left} more space(s), not "
                             f"{command.spaces} (FF-MOVE-01)", field="spaces", rule="FF-MOVE-01")  # fmt: skip
    nimble = state.hero(command.hero).hero_class == ASSASSIN
    for index, thing in enumerate(command.through):
        at = f"through[{index}]"
        if thing not in THROUGH:
            raise InvalidCommand(f"{at}: one of {list(THROUGH)}", field=at)
        if thing == "wall":
            raise IllegalCommand(f"{at}: models may not move through Walls, nor diagonally across a Wall that covers "
                                 "the cross point (FF-MOVE-02, FF-MOVE-06)", field=at, rule="FF-MOVE-06")  # fmt: skip
        if thing in ("model", "barrier") and not nimble:
            rule = "FF-MOVE-05" if thing == "barrier" else "FF-MOVE-02"
            raise IllegalCommand(f"{at}: only a model that may move through other models crosses a {thing} "
                                 f"(the Assassin's Nimble) ({rule})", field=at, rule=rule)  # fmt: skip
        if thing == "window":
            if mission_of(state).board != TOWN:
                raise IllegalCommand(f"{at}: Windows are on the Town Adventure Board (FT-GRIT-01)", field=at,
                                     rule="FT-GRIT-01")  # fmt: skip
            if state.hero(command.hero).grit < 1:
                raise IllegalCommand(f"{at}: jumping through a Window costs 1 Grit (FT-GRIT-01)", field=at,
                                     rule="FT-GRIT-01")  # fmt: skip
    to = command.to
    if to is not None:
        tiles = {t.id for t in adv.tiles}
        if not to.tile:
            raise InvalidCommand("to.tile: the Map Tile the hero ends on", field="to.tile")
        for name, value in (("to.tile", to.tile), ("to.also", to.also)):
            if value and value not in tiles:
                raise InvalidCommand(f"{name}: no Map Tile {value!r} on the board; tiles: {sorted(tiles)}", field=name)
        if (to.x is None) != (to.y is None):
            raise InvalidCommand("to: give both x and y, or neither", field="to")
        if to.x is not None and not nimble:
            for other in _places(state, command.hero):
                if other.tile == to.tile and (other.x, other.y) == (to.x, to.y):
                    raise IllegalCommand("to: another model stands there; models may not end in or move through "
                                         "another model's space (FF-MOVE-02)", field="to", rule="FF-MOVE-02")  # fmt: skip
        here = adv.hero(command.hero).place
        if (to.x is not None and here is not None and here.tile == to.tile and here.x is not None
                and here.y is not None):  # fmt: skip
            assert to.y is not None
            steps = max(abs(to.x - here.x), abs(to.y - here.y))  # diagonals count 1 (FF-MOVE-02)
            if steps > command.spaces:
                raise IllegalCommand(f"spaces: ({here.x},{here.y}) to ({to.x},{to.y}) is {steps} spaces, more than "
                                     f"the {command.spaces} given (FF-MOVE-01, FF-MOVE-02)", field="spaces",
                                     rule="FF-MOVE-02")  # fmt: skip
    mission_of(state).check_move(state, command.hero, command)


def _places(state: Session, hero: str) -> list[Place]:
    adv = state.adventure
    assert adv is not None
    places = [m.place for m in adv.heroes if m.id != hero and m.place is not None]
    return places + [f.place for f in adv.figures if f.place is not None and f.kind not in MARKER_KINDS]


def move(ctx: Ctx, command: Move) -> Procedure:
    """Move up to the Move roll, through what the rules allow; a Window jump costs 1 Grit (FT-GRIT-01)."""
    hero = command.hero
    if "window" in command.through:
        ctx.change(hero, "grit", -1, rule="FT-GRIT-01", why="jump through a Window")
    act = adventure(ctx).activation
    assert act is not None
    update(ctx, activation=replace(act, moved=act.moved + command.spaces))
    if command.to is not None:
        put_member(ctx, replace(member(ctx, hero), place=command.to))
    act = adventure(ctx).activation
    assert act is not None
    where = f" to {command.to.tile}" + (f" ({command.to.x},{command.to.y})" if command.to.x is not None else "") \
        if command.to else ""  # fmt: skip
    ctx.emit("moved", f"{ctx.name(hero)} moves {command.spaces} space(s){where}; {allowance(ctx.state, act)} left",
             hero=hero, rule="FF-MOVE-01", reason="moved", count=command.spaces, value=allowance(ctx.state, act))  # fmt: skip
    yield from mission_of(ctx.state).after_move(ctx, hero)
    yield from advance(ctx)


def check_end_activation(state: Session, command: EndActivation) -> None:
    _own(state, command.hero, "FF-TURN-05")


def end_activation(ctx: Ctx, command: EndActivation) -> Procedure:
    """The hero ends the activation without a Search or an Attack."""
    finish_activation(ctx)
    yield from advance(ctx)
