"""The game turn (FF-TURN-01): the flee window, Hold Back the Darkness, activations in Initiative order, Room
Exploration, the End of the Turn in the order the heroes pick, then a new turn with its start-of-turn effects."""

from __future__ import annotations

from ...commands import Flee
from ...errors import IllegalCommand, InvalidCommand
from ...flow import Ctx, Procedure, Steps
from ...frozen import evolve, replace
from ...prompts import Asks, Option, Says
from ...state import Session, Side, TurnStep
from .common import (
    MONK,
    SORCERESS,
    adventure,
    change_resource,
    hero_class,
    member,
    need_adventure,
    party_ids,
    put,
    standing,
    update,
)
from .end import ended, finish
from .ko import recover_all
from .missions import Ending, Mission, mission_of

GET_UP = "get_up"  # the core End of the Turn effect: KO'd heroes outside a Fight Recover (a house procedure)


# ---- Initiative order (FF-TURN-03) ------------------------------------------------------------------------------
def initiative(state: Session, figure_id: str, mission: Mission | None = None) -> int:
    """A figure's Initiative this turn: its sheet, +2 on an Ambusher's first turn (A13), and the mission's
    (`mission`: the session's, when the caller has it at hand)."""
    adv = state.adventure
    assert adv is not None
    for hero in adv.heroes:
        if hero.id == figure_id:
            base = hero.sheet.initiative
            break
    else:
        figure = adv.figure(figure_id)
        base = figure.initiative + (2 if figure.ambush and figure.arrived == adv.turn else 0)
    return (mission or mission_of(state)).initiative(state, figure_id, base)


def waiting(state: Session) -> list[tuple[int, int, str]]:
    """Figures still to activate this turn as (Initiative, side order, id): heroes not KO'd, enemies on the board
    that have reached their first turn."""
    adv = state.adventure
    assert adv is not None
    heroes_first = state.options.initiative_ties != "enemies_first"  # A45
    mission = mission_of(state)
    out = []
    for hero_id in standing(state):
        if hero_id not in adv.activated:
            out.append((initiative(state, hero_id, mission), 0 if heroes_first else 1, hero_id))
    for figure in adv.figures:
        if figure.side is Side.ENEMY and figure.id not in adv.activated and figure.arrived <= adv.turn:
            out.append((initiative(state, figure.id, mission), 1 if heroes_first else 0, figure.id))
    return out


def up_next(state: Session) -> tuple[str, ...]:
    """Who may activate now: the highest Initiative still waiting (FF-TURN-03). Heroes tied choose among
    themselves; a Hero and an Enemy tied go by option `initiative_ties` (A45); Enemies tied, as the table likes."""
    adv = state.adventure
    if adv is None or adv.step is not TurnStep.ACTIVATIONS or adv.activation is not None:
        return ()
    highest, first = -1, 2  # the highest Initiative, then the side that goes first in a tie (A45)
    up: list[str] = []
    for init, side, fid in waiting(state):
        if init > highest or (init == highest and side < first):
            highest, first, up = init, side, [fid]
        elif init == highest and side == first:
            up.append(fid)
    return tuple(up)


def order(state: Session) -> tuple[str, ...]:
    """The rest of this turn's activations, highest Initiative first (for presenters: the activation order)."""
    adv = state.adventure
    if adv is None:
        return ()
    return tuple(fid for _, _, fid in sorted(waiting(state), key=lambda w: (-w[0], w[1])))


def ending(state: Session) -> str | None:
    """The hero whose activation the next model's activation ends (R-ADV-05, a reading: a Hero's activation is over
    once the table moves on to the next model; FF-TURN-05 lets it end without a Search or an Attack), or None when
    no hero's activation is under way."""
    adv = state.adventure
    if adv is None or adv.activation is None or adv.activation.figure not in {m.id for m in adv.heroes}:
        return None
    return adv.activation.figure


def after_activation(state: Session) -> Session:
    """The state as it would be once the hero's activation under way ended (for who is up next after it)."""
    adv = state.adventure
    if adv is None or adv.activation is None:
        return state
    return replace(state, adventure=replace(adv, activation=None, activated=(*adv.activated, adv.activation.figure)))


def up_after(state: Session) -> tuple[str, ...]:
    """Who may activate next: now, or once the hero's activation under way ends (R-ADV-05)."""
    if ending(state) is None:
        return up_next(state)
    return up_next(after_activation(state))


def end_current(ctx: Ctx) -> None:
    """The next model activates: the hero's activation under way ends first, as `end_activation` would (R-ADV-05)."""
    if ending(ctx.state) is not None:
        finish_activation(ctx, why="the next model activates")


def check_in_turn_order(state: Session, figure_id: str, field: str) -> None:
    """Refuse an activation out of Initiative order, or one already made this turn (FF-TURN-03). A hero's activation
    under way ends when the next model in order activates (R-ADV-05); any other activation under way refuses it."""
    adv = need_adventure(state)
    if adv.step is not TurnStep.ACTIVATIONS:
        raise IllegalCommand(f"{field}: models activate after Hold Back the Darkness and before Room Exploration; "
                             f"the turn is at {adv.step.value!r} (FF-TURN-01)", field=field, rule="FF-TURN-01")  # fmt: skip
    if adv.activation is not None and ending(state) is None:
        raise IllegalCommand(f"{field}: {adv.activation.figure}'s activation is under way (FF-TURN-03)", field=field,
                             rule="FF-TURN-03")  # fmt: skip
    if adv.activation is not None:
        if figure_id == adv.activation.figure:
            raise IllegalCommand(f"{field}: {figure_id}'s activation is under way (FF-TURN-03)", field=field,
                                 rule="FF-TURN-03")  # fmt: skip
        state = after_activation(state)
        adv = need_adventure(state)
    if figure_id in adv.activated:
        raise IllegalCommand(f"{field}: {figure_id} has already activated this turn (FF-TURN-03)", field=field,
                             rule="FF-TURN-03")  # fmt: skip
    nxt = up_next(state)
    if figure_id not in nxt:
        raise IllegalCommand(f"{field}: {figure_id} is out of Initiative order; next: {', '.join(nxt) or 'nobody'} "
                             "(FF-TURN-03)", field=field, rule="FF-TURN-03")  # fmt: skip


# ---- moving the turn on -----------------------------------------------------------------------------------------
def to_reveal(state: Session) -> tuple[str, ...]:
    """Map Tiles whose face-down Exploration Token is revealed now: a hero stands on them (FF-EXPL-02)."""
    adv = state.adventure
    if adv is None:
        return ()
    places = [adv.hero(h).place for h in party_ids(state)]
    return tuple(t.id for t in adv.tiles if t.face_down and any(p is not None and p.on(t.id) for p in places))


def finish_activation(ctx: Ctx, *, why: str = "") -> None:
    """The activation under way ends: the figure has activated this turn."""
    adv = adventure(ctx)
    if adv.activation is None:
        return
    figure = adv.activation.figure
    put(ctx, evolve(adv, {"activation": None, "activated": (*adv.activated, figure)}))
    name = ctx.name(figure) if figure in {m.id for m in adv.heroes} else adv.figure(figure).name
    ctx.emit("activated", f"{name}'s activation ends" + (f" ({why})" if why else ""),
             hero=figure if figure in {m.id for m in adv.heroes} else None, rule="FF-TURN-05", figure=name, ends=True,
             why=why)  # fmt: skip


def advance(ctx: Ctx) -> Steps[None]:
    """Move the turn on as far as it goes without the table: end the Adventure if it is over, skip what nobody has
    to do, run Room Exploration's end and the End of the Turn, and begin the next turn (FF-TURN-01)."""
    while True:
        if (yield from ended(ctx)):
            return
        adv = adventure(ctx)
        mission = mission_of(ctx.state)
        if adv.step is TurnStep.START:
            if mission.may_flee or mission.hbtd_target(ctx.state) is not None:
                return  # the flee window, then Hold Back the Darkness: the table's move
            update(ctx, step=TurnStep.ACTIVATIONS)
            yield from mission.after_hbtd(ctx, None)
            continue
        if adv.step is TurnStep.ACTIVATIONS:
            if adv.activation is not None:
                if adv.activation.figure in {m.id for m in adv.heroes} and ctx.hero(adv.activation.figure).knocked_out:
                    finish_activation(ctx, why="KO'd")
                    continue
                return
            if up_next(ctx.state):
                return
            update(ctx, step=TurnStep.EXPLORATION)  # FF-TURN-01 step 3
            continue
        if to_reveal(ctx.state):
            return  # reveal_token, tile by tile
        yield from end_of_turn(ctx)
        if ctx.state.adventure is None or (yield from ended(ctx)):
            return
        yield from new_turn(ctx)


def end_of_turn(ctx: Ctx) -> Steps[None]:
    """Every End of the Turn effect, in the order the heroes choose (FF-TURN-04)."""
    mission = mission_of(ctx.state)
    done: set[str] = set()
    while ctx.state.adventure is not None:
        effects = [o for o in (*_core_effects(ctx.state), *mission.end_of_turn_effects(ctx.state)) if o.key not in done]
        if not effects:
            return
        key = yield from ctx.choose("End of the Turn: which effect first?", effects, rule="FF-TURN-04",
                                    asks=Asks.END_OF_TURN)  # fmt: skip
        done.add(key)
        label = next(o.label for o in effects if o.key == key)
        ctx.emit("end_of_turn", f"End of the Turn: {label}", rule="FF-TURN-04", reason=key, name=label)

        if key == GET_UP:
            yield from recover_all(ctx, why="KO'd outside a Fight: Recovers at the End of the Turn")
        else:
            yield from mission.end_of_turn(ctx, key)
        if (yield from ended(ctx)):
            return


def _core_effects(state: Session) -> tuple[Option, ...]:
    adv = state.adventure
    assert adv is not None
    if state.options.recover_after_fight and not adv.in_fight and any(
        state.hero(h).knocked_out for h in party_ids(state)
    ):
        return (Option(GET_UP, "KO'd Heroes Recover (no Fight is on)", says=Says.GET_UP),)
    return ()


def new_turn(ctx: Ctx) -> Steps[None]:
    """A new game turn begins: per-turn limits reset, Cover ends, then the start-of-turn effects."""
    adv = adventure(ctx)
    reset = {"cover": 0, "armor": 0, "spice": False, "spells_cast": (), "tactics_used": ()}
    heroes = tuple(evolve(m, reset) for m in adv.heroes)
    put(ctx, evolve(adv, {"turn": adv.turn + 1, "step": TurnStep.START, "activated": (), "activation": None,
                          "last_hbtd": None, "heroes": heroes}))  # fmt: skip
    ctx.emit("turn_started", f"Turn {adv.turn + 1} begins", rule="FF-TURN-01", turn=adv.turn + 1)
    start_of_turn(ctx)
    yield from mission_of(ctx.state).start_of_turn(ctx)


def start_of_turn(ctx: Ctx) -> None:
    """Start of each turn: the Sorceress's Mana refills to full (FF-SORC-03), the Monk gains 1 Ki (FF-MONK-01)."""
    for hero_id in party_ids(ctx.state):
        sheet = member(ctx, hero_id).sheet
        if hero_class(ctx, hero_id) == SORCERESS:
            change_resource(ctx, hero_id, "mana", sheet.mana - member(ctx, hero_id).mana, rule="FF-SORC-03",
                            why="Mana recovered at the start of the turn", cap=sheet.mana)  # fmt: skip
        if hero_class(ctx, hero_id) == MONK:
            change_resource(ctx, hero_id, "ki", 1, rule="FF-MONK-01", why="start of the turn", cap=sheet.max_ki)


# ---- running away (FF-END-04) ------------------------------------------------------------------------------------
def check_flee(state: Session, command: Flee) -> None:
    adv = need_adventure(state)
    if not mission_of(state).may_flee:
        raise IllegalCommand(f"the Heroes may not Flee in {mission_of(state).title} (FF-END-04)", field="type",
                             rule="FF-END-04")  # fmt: skip
    if adv.step is not TurnStep.START:
        raise IllegalCommand("Flee is declared at the start of a turn, before anything else, even Hold Back the "
                             "Darkness (FF-TURN-02)", field="type", rule="FF-TURN-02")  # fmt: skip
    up = standing(state)
    unknown = [h for h in command.heroes if h not in party_ids(state)]
    if unknown:
        raise InvalidCommand(f"heroes: {unknown} are not in this Adventure", field="heroes", rule="FF-END-04")
    missing = [h for h in up if h not in command.heroes]
    if missing:
        raise IllegalCommand(f"heroes: every Hero not KO'd must agree to Flee; {', '.join(missing)} did not "
                             "(FF-END-04)", field="heroes", rule="FF-END-04")  # fmt: skip


def flee(ctx: Ctx, command: Flee) -> Procedure:
    """All heroes escape, the KO'd included; the Mission is failed; the KO'd roll Injury/Madness (FF-END-04)."""
    ctx.emit("fled", "The Hero Party flees the Fortress", rule="FF-END-04", reason="fled")
    yield from finish(ctx, Ending(False, "fled", "FF-END-04", "The Heroes ran away: the Mission is failed"))
