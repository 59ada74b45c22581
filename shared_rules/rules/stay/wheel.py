"""The Devil's Wheel, the Gambling Hall's mini-game (FT-WHEEL-01..05): three dice, up to three rolls, any dice picked
up for the second and third (never a Grit, Item or ability re-roll, FT-GRIT-02), scored where they lie (pieces moved
by accident: scored as they lie, FT-FAQ-08); the payout from the Gambling Hall card,
then a Devil's Head jackpot try for each die on the Head, and D6 x $25 for every other hero at the Hall when an
Artifact is won. Gold won here gives Unwanted Attention when the visit ends (FT-UA-02)."""

from __future__ import annotations

from collections.abc import Sequence

from ...commands import Effect, PlayDevilsWheel, WheelRoll, WheelStop
from ...errors import IllegalCommand, InvalidCommand
from ...flow import CardRequest, Ctx, Procedure, Steps
from ...prompts import Amount, Asks, Option, Part, RollFor, Says, roll_for
from ...state import DieLie, Session, Wheel, WheelDie
from .common import (
    GAMBLING_HALL,
    active_hero,
    apply_effects,
    change,
    content,
    day_under_way,
    gained,
    price,
    put_stay,
    put_visit,
    stay_of,
    visits_at,
)
from .shop import at_location

DICE = 3
ROLLS = 3  # FT-WHEEL-02: a first roll and at most two more
_WORDS = {DieLie.OFF: "off the cards", DieLie.CARD_EDGE: "partly on a card", DieLie.HEAD_EDGE: "partly on the Head",
          DieLie.ON_CARDS: "on the cards", DieLie.ON_HEAD: "on the cards and the Head"}  # fmt: skip


def _lies(lies: Sequence[DieLie]) -> None:
    if lies and len(lies) != DICE:
        raise InvalidCommand(f"lies: where each of the {DICE} dice lies, or nothing to be asked", field="lies",
                             rule="FT-WHEEL-03")  # fmt: skip


def stake(state: Session, typed: int | None) -> int:
    card = content(state).location(GAMBLING_HALL).devils_wheel
    if card is None and typed is None:
        return 0  # no card, no stake typed: the table plays for nothing
    return price(card.stake if card is not None else None, typed, "a round of the Devil's Wheel", rule="FT-WHEEL-02")


def check_play(state: Session, command: PlayDevilsWheel) -> None:
    location = at_location(state, command.hero)
    hero = state.hero(command.hero)
    if location != GAMBLING_HALL:
        raise IllegalCommand(f"hero: the Devil's Wheel is played at the {GAMBLING_HALL}; {hero.name} is at the "
                             f"{location}", field="hero", rule="FT-WHEEL-01")  # fmt: skip
    if stay_of(state).wheel is not None:
        raise IllegalCommand("a Devil's Wheel round is already under way", field="type", rule="FT-WHEEL-02")
    visit = stay_of(state).open_visit(command.hero)
    rounds = state.options.wheel_rounds_per_visit
    if visit is not None and visit.wheel_rounds >= rounds:
        raise IllegalCommand(f"hero: {hero.name} has played {rounds} round{'s' if rounds > 1 else ''} this visit",
                             field="hero", rule="R-STAY-05")  # fmt: skip
    cost = stake(state, command.stake)
    if hero.gold < cost:
        raise IllegalCommand(f"stake: the round costs ${cost} and {hero.name} has ${hero.gold}", field="stake",
                             rule="A8")  # fmt: skip
    _lies(command.lies)


def play_devils_wheel(ctx: Ctx, command: PlayDevilsWheel) -> Procedure:
    """Set up the wheel (three face-down Mine Artifacts and the Devil's Head, FT-WHEEL-01), pay the stake and make the
    first roll of all three dice (FT-WHEEL-02)."""
    hero = command.hero
    cost = stake(ctx.state, command.stake)
    if cost:
        change(ctx, hero, "gold", -cost, rule="FT-WHEEL-02", why="the Devil's Wheel stake")
    put_stay(ctx, wheel=Wheel(hero))
    ctx.emit("wheel", f"{ctx.name(hero)} plays the Devil's Wheel", hero=hero, rule="FT-WHEEL-01", reason="plays")

    yield from roll_wheel(ctx, hero, tuple(range(DICE)), command.lies)


def _round(state: Session, hero: str) -> Wheel:
    day_under_way(state)
    active_hero(state, hero)
    wheel = stay_of(state).wheel
    if wheel is None or wheel.hero != hero:
        visit = stay_of(state).open_visit(hero)
        if visit is not None and visit.wheel_rounds:
            raise IllegalCommand(f"hero: {state.hero(hero).name}'s round is over: a round is at most {ROLLS} rolls "
                                 "(a new round is play_devils_wheel)", field="hero", rule="FT-WHEEL-02")  # fmt: skip
        raise IllegalCommand(f"hero: {state.hero(hero).name} is not playing the Devil's Wheel", field="hero",
                             rule="FT-WHEEL-02")  # fmt: skip
    return wheel


def check_roll(state: Session, command: WheelRoll) -> None:
    wheel = _round(state, command.hero)
    if wheel.rolls >= ROLLS:
        raise IllegalCommand(f"pick_up: the dice were rolled {ROLLS} times: a fourth roll is not allowed",
                             field="pick_up", rule="FT-WHEEL-02")  # fmt: skip
    if not command.pick_up:
        raise InvalidCommand("pick_up: pick up at least one die (or stop with wheel_stop)", field="pick_up",
                             rule="FT-WHEEL-02")  # fmt: skip
    if len(set(command.pick_up)) != len(command.pick_up) or not all(0 <= i < DICE for i in command.pick_up):
        raise InvalidCommand(f"pick_up: distinct dice among 0-{DICE - 1}", field="pick_up", rule="FT-WHEEL-02")
    _lies(command.lies)


def wheel_roll(ctx: Ctx, command: WheelRoll) -> Procedure:
    yield from roll_wheel(ctx, command.hero, tuple(sorted(command.pick_up)), command.lies)


def check_stop(state: Session, command: WheelStop) -> None:
    _round(state, command.hero)


def wheel_stop(ctx: Ctx, command: WheelStop) -> Procedure:
    yield from score(ctx, command.hero)


def roll_wheel(ctx: Ctx, hero: str, pick_up: tuple[int, ...], lies: Sequence[DieLie]) -> Steps[None]:
    """Roll the picked-up dice (a chart roll: no Grit, no Item or ability re-rolls, FT-WHEEL-02), then read where all
    three lie (dice left in the box may have been moved); the third roll ends the round."""
    wheel = stay_of(ctx.state).wheel
    assert wheel is not None
    number = wheel.rolls + 1
    faces = yield from ctx.dice(len(pick_up), f"the Devil's Wheel, roll {number} of {ROLLS}", hero=hero,
                                rule="FT-WHEEL-02", asks=Asks.ROLL_FOR,
                                said=roll_for(RollFor.DEVILS_WHEEL, number=number, count=ROLLS))  # fmt: skip
    now = list(wheel.dice) or [WheelDie(1, DieLie.OFF)] * DICE
    for index, face in zip(pick_up, faces, strict=True):
        now[index] = WheelDie(face, now[index].lies)
    for index in range(DICE):
        where = lies[index] if lies else DieLie((yield from ctx.draw(
            f"where die {index + 1} (a {now[index].face}) lies", [(lie.value, _WORDS[lie]) for lie in DieLie],
            rule="FT-WHEEL-03", asks=Asks.WHEEL_DIE, said=(("number", index + 1), ("value", now[index].face)))))  # fmt: skip
        now[index] = WheelDie(now[index].face, where)
    wheel = Wheel(hero, number, tuple(now))
    put_stay(ctx, wheel=wheel)
    ctx.emit("wheel", f"Devil's Wheel roll {number}: " + ", ".join(f"{d.face} {_WORDS[d.lies]} ({d.points})"
                                                                   for d in wheel.dice) + f" = {wheel.score} points",
             hero=hero, rule="FT-WHEEL-03", reason="roll", number=number, value=wheel.score)  # fmt: skip
    if number >= ROLLS:
        yield from score(ctx, hero)


def score(ctx: Ctx, hero: str) -> Steps[None]:
    """The final score is paid from the Gambling Hall chart (FT-WHEEL-04); then each die on the Head may try for the
    jackpot (FT-WHEEL-05, A16: each try optional)."""
    wheel = stay_of(ctx.state).wheel
    assert wheel is not None
    total = wheel.score
    card = content(ctx.state).location(GAMBLING_HALL).devils_wheel
    payout = card.payout(total) if card is not None else None
    if payout is not None:
        ctx.emit("wheel", f"{ctx.name(hero)} scores {total}: {payout.text or ('$' + str(payout.gold))}", hero=hero,
                 rule="FT-WHEEL-04", reason="score", value=total, card_text=payout.text, price=payout.gold)  # fmt: skip
        if payout.gold:
            change(ctx, hero, "gold", payout.gold, rule="FT-WHEEL-04", why=f"the Devil's Wheel pays for {total}")
    else:
        answer = yield from _card(ctx, hero, total)
        apply_effects(ctx, hero, answer, rule="FT-WHEEL-04")
    for index, die in enumerate(wheel.dice):
        if not die.lies.on_head or ctx.hero(hero).removed:
            continue
        yield from jackpot(ctx, hero, index)
    put_stay(ctx, wheel=None)
    visit = stay_of(ctx.state).open_visit(hero)
    if visit is not None:
        put_visit(ctx, hero, wheel_rounds=visit.wheel_rounds + 1)


def _card(ctx: Ctx, hero: str, total: int) -> Steps[tuple[Effect, ...]]:
    answer = yield CardRequest("devils_wheel", f"The Devil's Wheel scored {total}: enter what the Gambling Hall chart "
                               "pays (Gold as an effect)", hero, "FT-WHEEL-04")  # fmt: skip
    ctx.emit("wheel", f"{ctx.name(hero)} scores {total}: {answer.text or 'entered'}", hero=hero, rule="FT-WHEEL-04",
             reason="score", value=total, card_text=answer.text)  # fmt: skip
    return tuple(answer.effects)


def jackpot(ctx: Ctx, hero: str, index: int) -> Steps[None]:
    """Press your luck: 1-3 gains that many Corruption Points ignoring Willpower; 4-6 takes the Artifact that number
    points to, and every other hero at the Gambling Hall gains D6 x $25, each their own roll (FT-WHEEL-05, A9)."""
    choice = yield from ctx.choose(
        f"Die {index + 1} sits on the Devil's Head: try for the jackpot (1-3: that many Corruption Points; 4-6: the "
        "Artifact it points to)?",
        [Option("try", "Press your luck", Part.JOIN, costs=(Amount("corruption", 1, dice="d3"),),
                gains=(Amount("item", 1, "artifact"),), says=Says.PRESS_LUCK),
         Option("pass", "Leave it", Part.DECLINE, says=Says.LEAVE_IT)], hero=hero, rule="FT-WHEEL-05",
        asks=Asks.JACKPOT, said=(("number", index + 1),))  # fmt: skip
    if choice != "try":
        return
    roll = yield from ctx.d6("the Devil's Head jackpot", hero=hero, rule="FT-WHEEL-05", asks=Asks.ROLL_FOR,
                             said=roll_for(RollFor.JACKPOT))
    if roll <= 3:
        ctx.emit("jackpot", f"{ctx.name(hero)} is bitten by the Devil", hero=hero, rule="FT-WHEEL-05", reason="bitten")
        ctx.change(hero, "corruption", roll, rule="FT-WHEEL-05", why="bitten by the Devil, ignoring Willpower")
        return
    ctx.emit("jackpot", f"{ctx.name(hero)} wins the jackpot: the Artifact the {roll} points to", hero=hero,
             rule="FT-WHEEL-05", reason="artifact", value=roll)  # fmt: skip
    before = ctx.hero(hero).gold
    yield from ctx.card(hero, "artifact", f"Devil's Head jackpot: take the Mine Artifact the {roll} points to (then "
                        "replace it from the deck) and enter it", rule="FT-WHEEL-05")  # fmt: skip
    gained(ctx, hero, before)
    for visit in visits_at(ctx.state, GAMBLING_HALL):
        other = visit.hero
        if other == hero or ctx.hero(other).removed:
            continue
        share = yield from ctx.d6("the room's jackpot: D6 x $25", hero=other, rule="FT-WHEEL-05",
                                  asks=Asks.ROLL_FOR, said=roll_for(RollFor.ROOM_JACKPOT, count=25))
        change(ctx, other, "gold", 25 * share, rule="FT-WHEEL-05", why="a jackpot for the whole room")
