"""The Bandits' activation as a command (FT-BANDIT-03..08 on the turn engine) and the table's corrections.

`activate_bandits` runs the Shootout AI (rules/bandits) on the Mission's board with every die typed in or rolled
through ctx, emits one `bandit` event per Bandit carrying its proposal as data (`BanditPlan`: from, path, to, reason,
target, shots with their line of fire) and the sentence, moves the figures, and resolves the attacks. The table
corrects a target (`targets`, refused without Range and Line of Sight) or a position (`place_model`, refused in a
Wall, on another model, or along a path through a Wall). Every step is in the log and undone like any command.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...commands import ActivateBandits, PlaceModel, PlayGang
from ...errors import IllegalCommand, InvalidCommand
from ...flow import Ctx, Procedure
from ...frozen import replace
from ...legal import LegalCommand
from ...state import Session, TurnStep
from ...state.adventure import Gang
from ..adventure.board_models import board_pos
from ..adventure.common import adventure, need_adventure, party_ids, put
from ..adventure.turn import advance, up_next
from ..bandits import bring_into_play
from ..board import check_path
from .common import BANDIT, TownMission, board_of, check_place, mission, obstacles, place_facts, set_place


def bandits_up(state: Session) -> list[str]:
    """The Bandits that activate now: those next in Initiative order (FT-BANDIT-08: the group resolves together)."""
    adv = state.adventure
    if adv is None or adv.step is not TurnStep.ACTIVATIONS or adv.activation is not None:
        return []
    ids = {f.id for f in adv.figures if f.kind == BANDIT}
    return [f for f in up_next(state) if f in ids]


def check_activate_bandits(state: Session, command: ActivateBandits) -> None:
    adv = need_adventure(state)
    town = mission(state)
    if not isinstance(town, TownMission):
        raise IllegalCommand("type: the Bandits' Shootout is played on the Town Adventure Board, in a Town Mission "
                             "(FT-BANDIT-05)", field="type", rule="FT-BANDIT-05")  # fmt: skip
    if not bandits_up(state):
        nxt = ", ".join(up_next(state)) or "nobody"
        raise IllegalCommand(f"type: no Bandit is next in Initiative order (next: {nxt}) (FF-TURN-03)", field="type",
                             rule="FF-TURN-03")  # fmt: skip
    bandits = {f.id for f in adv.figures if f.kind == BANDIT}
    allowed = set(party_ids(state)) | set(town.targets(state))
    for index, fix in enumerate(command.targets):
        if fix.bandit not in bandits:
            raise InvalidCommand(f"targets[{index}].bandit: no Bandit {fix.bandit!r} on the board",
                                 field=f"targets[{index}].bandit")  # fmt: skip
        if fix.hero not in allowed:
            raise InvalidCommand(f"targets[{index}].hero: {fix.hero!r} is no Hero the Bandits may target",
                                 field=f"targets[{index}].hero")  # fmt: skip


def activate_bandits(ctx: Ctx, command: ActivateBandits) -> Procedure:
    """The Bandits next in Initiative order activate, the Mission's way (a Shootout group, or Bank Robbers)."""
    ids = bandits_up(ctx.state)
    town = mission(ctx.state)
    assert isinstance(town, TownMission)
    fixes = {f.bandit: f.hero for f in command.targets}
    before = {f.id for f in adventure(ctx).figures}
    yield from town.bandits_act(ctx, ids, fixes)
    if ctx.state.adventure is not None:
        adv = adventure(ctx)
        new = [f.id for f in adv.figures if f.kind == BANDIT and f.id not in before]  # came out and acted (A29)
        done = tuple(i for i in (*ids, *new) if i not in adv.activated)
        put(ctx, replace(adv, activated=(*adv.activated, *done)))
    yield from advance(ctx)


# ---- the table's corrections -------------------------------------------------------------------------------------
def check_place_model(state: Session, command: PlaceModel) -> None:
    adv = need_adventure(state)
    if not isinstance(mission(state), TownMission):
        raise IllegalCommand("type: models are placed on the Town Adventure Board, in a Town Mission (FT-BOARD-02)",
                             field="type", rule="FT-BOARD-02")  # fmt: skip
    known = {m.id for m in adv.heroes} | {f.id for f in adv.figures}
    if command.model not in known:
        raise InvalidCommand(f"model: no hero or figure {command.model!r} on the board; models: {sorted(known)}",
                             field="model")  # fmt: skip
    pos = check_place(state, command.model, command.to)
    if command.path:
        board = board_of(state)
        if pos.space is None or command.path[-1] != pos.space:
            raise InvalidCommand("path: the squares moved through, ending on `to`", field="path")
        held = [s for s in obstacles(state)]
        check_path(board, command.path, blocked=held, field="path")


def place_model(ctx: Ctx, command: PlaceModel) -> Procedure:
    """The physical board wins: the model is where the table says."""
    adv = adventure(ctx)
    before = adv.hero(command.model).place if command.model in {m.id for m in adv.heroes} else adv.figure(
        command.model).place  # fmt: skip
    set_place(ctx, command.model, command.to)
    old = board_pos(before)
    new = board_pos(command.to)
    heroes = {m.id for m in adv.heroes}
    ctx.emit("placed", f"{command.model} is placed at {new.describe() if new else command.to.tile}"
             + (f" (was {old.describe()})" if old else ""), rule="FT-BOARD-02",
             hero=command.model if command.model in heroes else None,
             figure=ctx.name(command.model) if command.model in heroes else adv.figure(command.model).name,
             **place_facts(command.to))  # fmt: skip
    yield from advance(ctx)


def legal(state: Session) -> Iterator[LegalCommand]:
    if state.adventure is None or not isinstance(mission(state), TownMission):
        return
    up = bandits_up(state)
    if up:
        yield LegalCommand("activate_bandits", options=tuple(up),
                           note="the Bandits' Shootout: the engine proposes each move, target and line of fire")
    models = tuple(m.id for m in state.adventure.heroes) + tuple(f.id for f in state.adventure.figures)
    yield LegalCommand("place_model", options=models, note="the physical board wins: correct a position")
    if state.adventure.gang is None:
        yield LegalCommand("play_gang", note="an Infamous Bandit Gang card for the Bandits (FT-BANDIT-09)")


# ---- an Infamous Bandit Gang (FT-BANDIT-09, FT-MIS-GEN-01) ---------------------------------------------------------
def check_play_gang(state: Session, command: PlayGang) -> None:
    adv = need_adventure(state)
    if not isinstance(mission(state), TownMission):
        raise IllegalCommand("type: an Infamous Bandit Gang joins a Town Mission's Bandits (FT-BANDIT-09)", field="type",
                             rule="FT-BANDIT-09")  # fmt: skip
    if not command.name.strip():
        raise InvalidCommand("name: the Gang card's name", field="name")
    for field in ("xp_per_kill", "bounty_per_kill"):
        if not 0 <= getattr(command, field) <= 1000:
            raise InvalidCommand(f"{field}: 0-1000", field=field)
    bring_into_play(adv.gang, _gang(command))


def _gang(command: PlayGang) -> Gang:
    return Gang(command.name.strip(), command.rules, command.xp_per_kill, command.bounty_per_kill, command.dynamite)


def play_gang(ctx: Ctx, command: PlayGang) -> Procedure:
    """Every Bandit belongs to the Gang while its card is in play (for a Town Mission drawn at the start: all of
    it, FT-MIS-GEN-01)."""
    gang = _gang(command)
    put(ctx, replace(adventure(ctx), gang=gang))
    bonus = f": +{gang.xp_per_kill} XP and ${gang.bounty_per_kill} per member killed" if gang.xp_per_kill or \
        gang.bounty_per_kill else ""  # fmt: skip
    ctx.emit("mission", f"The {gang.name} ride with the Bandits{bonus}" + (f" ({gang.rules})" if gang.rules else ""),
             rule="FT-BANDIT-09", reason="gang", name=gang.name, value=gang.xp_per_kill, price=gang.bounty_per_kill,
             card_text=gang.rules)  # fmt: skip

    yield from advance(ctx)
