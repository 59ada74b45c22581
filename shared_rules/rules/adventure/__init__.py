"""The Adventure (Forbidden Fortress core rules, §1-7, 20, 21): set-up and scaling, the turn, Hold Back the Darkness
and the Depth Track, hero activation, exploring and scavenging, Fights at the rulebooks' level, the four Hero Classes,
and the end. Missions are hooks on this one turn engine (missions.py).

    setup.py       start_adventure (FF-SETUP-01, FF-SCALE-01, A6)
    turn.py        the turn, Initiative order, the End of the Turn, fleeing (FF-TURN-01..05, FF-END-04)
    depth.py       Hold Back the Darkness, the markers, Depth Events (FF-DEPTH-01..09, FT-DEPTH-01, FT-GRIT-03)
    activation.py  activate, Move, Grit (FF-MOVE-01..06, FF-GRIT-01..07)
    explore.py     Search, Scavenge, Look Through a Door, Room Exploration (FF-SRCH, FF-SCAV, FF-EXPL, FF-CARD-01)
    fight.py       enemies, Hits, saves, kills, the Fight's end (FF-TURN-05, FF-HERO-02..05)
    ko.py          Revive Tokens, Recovery, Bleeding (FF-HERO-11/13)
    end.py         winning, losing, what the end of an Adventure clears (FF-END-01..05)
    classes/       Samurai, Monk, Sorceress (FF-SAM, FF-MONK, FF-SORC); the Assassin's rules sit in activation/fight
    missions.py    the Mission hooks and registry; lost_contact.py the core intro Mission
"""

from __future__ import annotations

from collections.abc import Iterator

from ...content import pack
from ...legal import LegalCommand
from ...state import Phase, Session, TurnStep
from ..area import Area, CommandRule
from . import lost_contact  # noqa: F401  (registers the core Mission)
from .activation import (
    activate,
    allowance,
    boost_move,
    check_activate,
    check_boost,
    check_end_activation,
    check_move,
    check_reroll,
    end_activation,
    move,
    reroll_with_grit,
)
from .classes import adjust_resource, check_adjust_resource
from .classes.monk import check_bell, check_ki, ring_bell, spend_ki
from .classes.samurai import check_tactic, use_tactic
from .classes.sorceress import cast_spell, check_cast
from .common import ASSASSIN, MONK, SAMURAI, SORCERESS, party_ids, standing
from .depth import check_hbtd, check_move_marker, hold_back_the_darkness, move_marker
from .explore import check_reveal, check_search, reveal_token, search, searches
from .fight import (
    activate_enemy,
    add_enemies,
    attack,
    check_activate_enemy,
    check_add_enemies,
    check_attack,
    check_shuriken,
    check_wound_enemy,
    throw_shuriken,
    wound_enemy,
)
from .ko import check_stop_bleeding, stop_bleeding
from .missions import MISSIONS, Ending, Mission, mission_of, register
from .setup import check_start, start_adventure
from .tokens import check_use_token, use_token
from .tokens import usable as usable_tokens
from .turn import after_activation, check_flee, flee, order, to_reveal, up_after, up_next

__all__ = ["AREA", "MISSIONS", "Ending", "Mission", "mission_of", "order", "register", "up_next"]

ADV = (Phase.ADVENTURE,)


def legal(state: Session) -> Iterator[LegalCommand]:
    """What the table may do now; during activations, whose activation it is and what that figure may do."""
    if state.phase is Phase.BETWEEN_ADVENTURES and state.adventure is None:
        yield LegalCommand("start_adventure", options=tuple(sorted(MISSIONS)),
                           note="the Old Lantern holder, the mission and the Depth Track (FF-SETUP-01)")  # fmt: skip
        return
    adv = state.adventure
    if state.phase is not Phase.ADVENTURE or adv is None:
        return
    mission = mission_of(state)
    up = standing(state)
    if adv.step is TurnStep.START:
        if mission.may_flee:
            yield LegalCommand("flee", options=tuple(up), note="every Hero not KO'd must agree (FF-END-04)")
        target = mission.hbtd_target(state)
        yield LegalCommand("hold_back_the_darkness", hero=adv.lantern,
                           note=f"2D6, needs {target}+" if target is not None else "no roll in this mission")  # fmt: skip
    elif adv.step is TurnStep.ACTIVATIONS:
        act = adv.activation
        if act is None:
            yield from _next_up(state, "")
        elif act.figure in party_ids(state):
            hero = act.figure
            me = state.hero(hero)
            left = allowance(state, act)
            if left:
                yield LegalCommand("move", hero=hero, note=f"up to {left} more space(s)")
            if me.grit >= 1 and act.boosts < state.options.move_boosts:
                yield LegalCommand("boost_move", hero=hero, note="1 Grit: +D6 Move")
            if me.grit >= 1 and act.move is not None and not act.moved and len(act.move.rerolled) < len(act.move.faces):
                yield LegalCommand("reroll_with_grit", hero=hero, options=("move",), note="1 Grit: re-roll Move dice")
            if me.hero_class == ASSASSIN and adv.in_fight and not adv.hero(hero).shuriken_thrown:
                yield LegalCommand("throw_shuriken", hero=hero, options=tuple(f.id for f in adv.enemies))
            if adv.in_fight:
                yield LegalCommand("attack", hero=hero, options=tuple(f.id for f in adv.enemies))
            elif kinds := searches(state, hero):
                yield LegalCommand("search", hero=hero, options=kinds, note="ends the move; no Search in a Fight")
            yield LegalCommand("end_activation", hero=hero)
            yield from _next_up(state, f"ends {me.name}'s activation (R-ADV-05)")
    else:
        yield LegalCommand("reveal_token", options=to_reveal(state), note="Room Exploration (FF-EXPL-02)")
    for hero in up:  # what heroes may do at any time
        me = state.hero(hero)
        member = adv.hero(hero)
        if me.hero_class == SORCERESS:
            yield LegalCommand("cast_spell", hero=hero, options=tuple(sorted(pack(state.pack).adventure.spells)),
                               note=f"{member.mana} Mana, {member.arcane_powder} Arcane Powder")  # fmt: skip
        if me.hero_class == SAMURAI and member.fury:
            yield LegalCommand("use_tactic", hero=hero, note=f"{member.fury} Fury")
        if tokens := usable_tokens(state, hero):
            yield LegalCommand("use_token", hero=hero, options=tokens)
        if me.hero_class == MONK and not member.bell_rung:
            yield LegalCommand("ring_bell", hero=hero, note="once per Adventure")
        if me.hero_class == MONK and member.ki:
            yield LegalCommand("spend_ki", hero=hero, note=f"{member.ki} Ki")
        if me.bleeding and me.grit:
            yield LegalCommand("stop_bleeding", hero=hero)
    yield LegalCommand("add_enemies", note="a Threat card, a Darkness card, an Encounter")
    if adv.enemies:
        yield LegalCommand("wound_enemy", options=tuple(f.id for f in adv.enemies))
    yield LegalCommand("move_marker", options=("darkness", "party"), note="as a card says")
    yield LegalCommand("adjust_resource", options=("fury", "ki", "mana", "arcane_powder"), note="as a card says")


def _next_up(state: Session, ends: str) -> Iterator[LegalCommand]:
    """Who may activate next in Initiative order (FF-TURN-03), now or once the hero's activation under way ends
    (`ends` says so, R-ADV-05)."""
    adv = state.adventure
    assert adv is not None
    after = after_activation(state)
    names = [state.hero(f).name if f in party_ids(state) else adv.figure(f).name for f in order(after)]
    for figure in up_after(state):
        if figure in party_ids(state):
            yield LegalCommand("activate", hero=figure, note="; ".join(
                filter(None, (f"Initiative order: {', '.join(names)}", ends))))
        elif not ends or mission_of(state).board != "town":  # a Town Mission's Bandits activate its own way
            yield LegalCommand("activate_enemy", options=(figure,), note="; ".join(
                filter(None, (f"{adv.figure(figure).name}'s activation, played at the table", ends))))


def _rule(procedure: object, rule: str, why: str, check: object, phases: tuple[Phase, ...] = ADV) -> CommandRule:
    return CommandRule(procedure, phases, rule, why, check)  # type: ignore[arg-type]


AREA = Area(
    "adventure",
    {
        "start_adventure": _rule(start_adventure, "FF-SETUP-01", "an Adventure starts between Adventures", check_start,
                                 (Phase.BETWEEN_ADVENTURES,)),
        "flee": _rule(flee, "FF-END-04", "only in an Adventure", check_flee),
        "hold_back_the_darkness": _rule(hold_back_the_darkness, "FF-DEPTH-04", "only in an Adventure", check_hbtd),
        "activate": _rule(activate, "FF-TURN-03", "only in an Adventure", check_activate),
        "boost_move": _rule(boost_move, "FF-MOVE-03", "only in an Adventure", check_boost),
        "reroll_with_grit": _rule(reroll_with_grit, "FF-GRIT-01", "only in an Adventure", check_reroll),
        "move": _rule(move, "FF-MOVE-01", "only in an Adventure", check_move),
        "search": _rule(search, "FF-SRCH-01", "only in an Adventure", check_search),
        "attack": _rule(attack, "FF-TURN-05", "only in an Adventure", check_attack),
        "throw_shuriken": _rule(throw_shuriken, "FF-ASN-03", "only in an Adventure", check_shuriken),
        "end_activation": _rule(end_activation, "FF-TURN-05", "only in an Adventure", check_end_activation),
        "activate_enemy": _rule(activate_enemy, "FF-TURN-03", "only in an Adventure", check_activate_enemy),
        "add_enemies": _rule(add_enemies, "FF-TURN-05", "only in an Adventure", check_add_enemies),
        "wound_enemy": _rule(wound_enemy, "FF-TURN-05", "only in an Adventure", check_wound_enemy),
        "reveal_token": _rule(reveal_token, "FF-EXPL-02", "only in an Adventure", check_reveal),
        "cast_spell": _rule(cast_spell, "FF-SORC-04", "only in an Adventure", check_cast),
        "use_tactic": _rule(use_tactic, "FF-SAM-02", "only in an Adventure", check_tactic),
        "ring_bell": _rule(ring_bell, "FF-MONK-02", "only in an Adventure", check_bell),
        "spend_ki": _rule(spend_ki, "FF-MONK-01", "only in an Adventure", check_ki),
        "use_token": _rule(use_token, "FF-SAM-03", "only in an Adventure", check_use_token),
        "stop_bleeding": _rule(stop_bleeding, "FF-HERO-11", "only in an Adventure", check_stop_bleeding),
        "move_marker": _rule(move_marker, "FF-DEPTH-04", "only in an Adventure", check_move_marker),
        "adjust_resource": _rule(adjust_resource, "FF-HERO-09", "only in an Adventure", check_adjust_resource),
    },
    legal,
)

