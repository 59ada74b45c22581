"""Hold Back the Darkness and the Depth Track (FF-DEPTH-01..09, FT-DEPTH-01, FT-GRIT-03).

Spaces are numbered by their distance from Darkness Start (A2): the Darkness marker starts on 0 and moves up toward
the Entrance (the highest number); the Hero Party marker starts on the Entrance and moves down as tiles are placed.
"""

from __future__ import annotations

from ...commands import HoldBackTheDarkness, MoveMarker
from ...content import pack
from ...dice import DieKind, Roll
from ...errors import IllegalCommand, InvalidCommand
from ...events import Fact
from ...flow import CardRequest, Ctx, Procedure, Steps, apply_effect
from ...prompts import Amount, Answer, Asks, Option, Part, Says
from ...state import Session, SpaceMark, TurnStep
from .common import LANTERN_OIL, adventure, need_adventure, party_ids, update
from .end import ending
from .missions import TOWN, mission_of
from .turn import advance


# ---- the markers -------------------------------------------------------------------------------------------------
def move_darkness(ctx: Ctx, steps: int, *, rule: str, why: str) -> Steps[None]:
    """Move the Darkness `steps` toward the Entrance (negative: back toward Darkness Start). Every marked space it
    enters triggers (A5: spaces passed over count too) unless the mission replaces the effect (FF-DEPTH-07/08);
    reaching the Entrance is the Darkness escaping (FF-DEPTH-09). Moving back triggers nothing."""
    mission = mission_of(ctx.state)
    for _ in range(abs(steps)):
        adv = adventure(ctx)
        track = adv.track
        before = adv.darkness
        after = before + (1 if steps > 0 else -1)
        if not 0 <= after <= track.entrance:
            break
        update(ctx, darkness=after)
        toward = "toward the Entrance" if steps > 0 else "back toward Darkness Start"
        ctx.emit("darkness_moved", f"The Darkness moves {toward}: space {before} -> {after} ({why})", rule=rule,
                 before=before, after=after, toward="entrance" if steps > 0 else "start", why=why)  # fmt: skip
        if steps < 0:
            continue
        if after == track.entrance:
            ctx.emit("darkness_moved", "The Darkness reaches the Entrance and escapes", rule="FF-DEPTH-09",
                     reason="escaped")  # fmt: skip
            return
        space = track.space(after)
        if space.mark is SpaceMark.NONE:
            continue
        if (yield from mission.darkness_entered(ctx, space)):
            continue
        if space.mark is SpaceMark.BLOOD_SPATTER:
            darkness_card(ctx, rule="FF-DEPTH-07")
        else:
            growing_dread(ctx, 1, rule="FF-DEPTH-08", why="the Darkness entered a Growing Dread space")


def move_party(ctx: Ctx, steps: int, *, rule: str, why: str) -> None:
    """Move the Hero Party marker `steps` deeper (toward Darkness Start); it stops there (FF-DEPTH-03)."""
    adv = adventure(ctx)
    after = max(0, min(adv.track.entrance, adv.party - steps))
    if after == adv.party:
        if steps > 0:
            ctx.emit("party_moved", "The Hero Party marker is on Darkness Start and moves no further", rule=rule,
                     reason="at_start")  # fmt: skip
        return
    update(ctx, party=after)
    target = adv.track.target(after)
    ctx.emit("party_moved", f"The Hero Party marker moves: space {adv.party} -> {after} ({why}); Hold Back the "
             f"Darkness now needs {target}+", rule=rule, before=adv.party, after=after, target=target,
             why=why)  # fmt: skip


def darkness_card(ctx: Ctx, *, rule: str) -> None:
    """Draw a Darkness card (FF-DEPTH-07); its text is resolved at the table (the deck is not in the rulebooks)."""
    update(ctx, darkness_cards=adventure(ctx).darkness_cards + 1)
    ctx.emit("darkness_card", "The Darkness grows stronger: draw a Darkness card and resolve it", rule=rule,
             reason="draw")  # fmt: skip


def growing_dread(ctx: Ctx, cards: int, *, rule: str, why: str) -> None:
    """Add Growing Dread cards to the face-down stack for the final Fight (FF-DEPTH-08); on the Town board each is
    revealed and played at once instead (FT-BOARD-01)."""
    if cards <= 0:
        return
    if mission_of(ctx.state).board == TOWN:
        ctx.emit("growing_dread", f"{why}: reveal {cards} Growing Dread card(s) and play them now", rule="FT-BOARD-01",
                 reason="reveal", count=cards, why=why)  # fmt: skip
        return
    total = adventure(ctx).growing_dread + cards
    update(ctx, growing_dread=total)
    ctx.emit("growing_dread", f"{why}: {cards} Growing Dread card(s) added to the stack ({total})", rule=rule,
             reason="stack", count=cards, value=total, why=why)  # fmt: skip


# ---- Hold Back the Darkness --------------------------------------------------------------------------------------
def check_hbtd(state: Session, command: HoldBackTheDarkness) -> None:
    adv = need_adventure(state)
    if adv.step is not TurnStep.START:
        raise IllegalCommand(f"Hold Back the Darkness is rolled once, at the start of the turn; the turn is at "
                             f"{adv.step.value!r} (FF-DEPTH-04)", field="type", rule="FF-DEPTH-04")  # fmt: skip


def hold_back_the_darkness(ctx: Ctx, command: HoldBackTheDarkness) -> Procedure:
    """The Old Lantern holder rolls 2D6 (FF-DEPTH-04, FF-HERO-14); Lantern Oil may re-roll dice, never Grit
    (FF-DEPTH-06, FT-GRIT-03); natural doubles are a Depth Event and the Darkness stays (FF-DEPTH-05, FF-DICE-07);
    a total at or above the Stage target holds it; otherwise the Darkness moves one step. Then models activate."""
    mission = mission_of(ctx.state)
    target = mission.hbtd_target(ctx.state)
    roll: Roll | None = None
    if target is not None:
        holder = adventure(ctx).lantern
        roll = yield from ctx.roll(DieKind.TWO_D6, f"Hold Back the Darkness ({target}+)", hero=holder, chart=True,
                                   rule="FF-DEPTH-04", doubles=True, asks=Asks.HOLD_BACK,
                                   said=(("target", target),))  # fmt: skip
        roll = yield from lantern_oil(ctx, roll, target)
        update(ctx, last_hbtd=roll)
        if not (yield from mission.resolve_hbtd(ctx, roll, target)):
            yield from resolve(ctx, roll, target)
    if ending(ctx.state) is None:
        update(ctx, step=TurnStep.ACTIVATIONS)
        yield from mission.after_hbtd(ctx, roll)
    yield from advance(ctx)


def lantern_oil(ctx: Ctx, roll: Roll, target: int) -> Steps[Roll]:
    """While the roll fails or shows doubles, any hero may discard a Lantern Oil token to re-roll one die of it,
    each die at most once (FT-GRIT-03, FF-GRIT-02)."""
    while True:
        holders = [h for h in party_ids(ctx.state) if LANTERN_OIL in ctx.hero(h).side_bag]
        dice = sorted((face, index) for index, face in enumerate(roll.faces) if index not in roll.rerolled)
        doubles = roll.faces[0] == roll.faces[1]
        if not holders or not dice or not (doubles or roll.value < target):
            return roll
        options = [
            Option(f"{hero}:{index}", f"{ctx.name(hero)} discards Lantern Oil: re-roll the {face}", part=Part.JOIN,
                   costs=(Amount("token", 1, name=LANTERN_OIL),), says=Says.LANTERN_OIL,
                   facts=(Fact("name", ctx.name(hero)), Fact("value", face)))
            for face, index in dice for hero in holders
        ]  # fmt: skip
        options.append(Option("keep", "Keep the roll", part=Part.DECLINE, says=Says.KEEP_ROLL))
        shown = ",".join(map(str, roll.faces))
        choice = yield from ctx.choose(
            f"Hold Back the Darkness shows {shown} (needs {target}+"
            + (", doubles: a Depth Event" if doubles else "") + "): discard Lantern Oil to re-roll a die?",
            options, rule="FT-GRIT-03", asks=Asks.LANTERN_OIL,
            said=(("target", target), ("first", roll.faces[0]), ("second", roll.faces[1])),
        )  # fmt: skip
        if choice == "keep":
            return roll
        hero, index = choice.rsplit(":", 1)
        ctx.remove_token(hero, ctx.hero(hero).side_bag.index(LANTERN_OIL), rule="FT-GRIT-03",
                         why="re-roll a Hold Back the Darkness die")  # fmt: skip
        again = yield from ctx.roll(DieKind.D6, "Hold Back the Darkness: the Lantern Oil re-roll", hero=roll.hero,
                                    chart=True, rule="FT-GRIT-03", asks=Asks.HOLD_BACK,
                                    said=(("target", target), ("reroll", True), ("item", LANTERN_OIL)))  # fmt: skip
        roll = roll.with_rerolls((int(index),), again.faces)


def resolve(ctx: Ctx, roll: Roll, target: int) -> Steps[None]:
    """The core reading of a Hold Back the Darkness roll (FF-DEPTH-04/05)."""
    first, second = roll.faces
    if first == second:  # natural doubles (FF-DICE-07): the Darkness does not move, even on a failing total
        ctx.emit("depth_event", f"Natural doubles ({first},{second}): a Depth Event; the Darkness does not move",
                 rule="FF-DEPTH-05", first=first, second=second)  # fmt: skip
        yield from depth_event(ctx, first)
    elif roll.value >= target:
        ctx.emit("darkness_held", f"{roll.value} holds back the Darkness (needs {target}+)", rule="FF-DEPTH-04",
                 value=roll.value, target=target)  # fmt: skip
    else:
        yield from move_darkness(ctx, 1, rule="FF-DEPTH-04", why=f"{roll.value} fails to reach {target}+")


def depth_event(ctx: Ctx, face: int) -> Steps[None]:
    """Depth Event `face` (double N = entry N, FF-DEPTH-05). Under a Blood Moon it adds a Growing Dread card
    instead (FT-DEPTH-01). The pack's chart is applied; without it the table enters what the chart says."""
    if ctx.state.carry.blood_moon:
        growing_dread(ctx, 1, rule="FT-DEPTH-01", why="Blood Moon: the Depth Event adds Growing Dread instead")
        return
    from .fight import draw_threat  # fight.py runs turns too; imported here so the modules stay one-way

    chart = mission_of(ctx.state).depth_event_chart
    lantern = adventure(ctx).lantern
    entries = pack(ctx.state.pack).adventure.depth_events.get(chart)
    if entries is None:
        answer: Answer = yield CardRequest(chart, f"Depth Event {face}: enter what the chart says", lantern,
                                           "FF-DEPTH-05", adventure(ctx).last_hbtd)  # fmt: skip
        ctx.emit("card", f"Depth Event {face}: {answer.text or chart}", hero=lantern, rule="FF-DEPTH-05", chart=chart,
                 card_text=answer.text)  # fmt: skip

        for effect in answer.effects:
            apply_effect(ctx, lantern, effect, rule="FF-DEPTH-05")
        return
    entry = entries[face - 1]
    ctx.emit("depth_event", f"Depth Event {face}: {entry.text}", rule="FF-DEPTH-05", number=face, card_text=entry.text)
    for effect in entry.lantern_holder:
        apply_effect(ctx, lantern, effect, rule="FF-DEPTH-05")
    for hero in party_ids(ctx.state):
        for effect in entry.each_hero:
            apply_effect(ctx, hero, effect, rule="FF-DEPTH-05")
    growing_dread(ctx, entry.growing_dread, rule="FF-DEPTH-05", why=f"Depth Event {face}")
    for _ in range(entry.darkness_cards):
        darkness_card(ctx, rule="FF-DEPTH-05")
    if entry.darkness:
        yield from move_darkness(ctx, entry.darkness, rule="FF-DEPTH-05", why=f"Depth Event {face}")
    if entry.attack and ending(ctx.state) is None:
        yield from draw_threat(ctx, entry.attack, rule="FF-DEPTH-05")


# ---- a card moves a marker ---------------------------------------------------------------------------------------
def check_move_marker(state: Session, command: MoveMarker) -> None:
    need_adventure(state)
    if command.marker not in ("darkness", "party"):
        raise InvalidCommand(f"marker: 'darkness' or 'party', not {command.marker!r}", field="marker")
    if not command.steps or abs(command.steps) > 20:
        raise InvalidCommand("steps: a non-zero number of spaces, at most 20 either way", field="steps")


def move_marker(ctx: Ctx, command: MoveMarker) -> Procedure:
    """Move a marker as a card says; the Darkness triggers the spaces it enters (A5)."""
    why = command.reason or "as a card says"
    if command.marker == "darkness":
        yield from move_darkness(ctx, command.steps, rule="FF-DEPTH-04", why=why)
    else:
        move_party(ctx, command.steps, rule="FF-DEPTH-03", why=why)
    yield from advance(ctx)
