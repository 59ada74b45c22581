"""The Sorceress: Mana, the Casting Roll, Focus, extra Mana dice, Arcane Powder, Dangerous Spells (FF-SORC-01..06,
FF-SORC-08; a Spell's Level boosts are recorded in docs/rules.md as the table's).

Mana refills at the start of each turn (turn.py); the Elemental Blast is cast as her Attack (fight.py).
"""

from __future__ import annotations

from ....commands import CastSpell, SpellCard
from ....content import pack
from ....dice import DieKind, Roll
from ....errors import IllegalCommand, InvalidCommand
from ....flow import Ctx, Procedure, RerollRequest, Steps
from ....frozen import replace
from ....prompts import Amount, Asks, Option, Part, Says
from ....state import Session
from ..common import (
    SORCERESS,
    change_resource,
    member,
    need_adventure,
    need_class,
    need_hero,
    need_standing,
    number,
    own_roll,
    put_member,
)
from ..fight import BLAST
from ..turn import advance, finish_activation

FOCUS_BONUS = 1  # FF-SORC-02
ELEMENTS = ("fire", "wind", "water", "earth")


def spell_card(state: Session, command: CastSpell) -> SpellCard:
    """The Spell's numbers: the pack's card, else what the table typed (FF-SORC-02..06)."""
    sheet = pack(state.pack).adventure.spells.get(command.spell)
    if sheet is not None:
        return SpellCard(sheet.cost, sheet.casting, sheet.element, sheet.dangerous, sheet.xp, sheet.xp_once,
                         sheet.ranged_attack)  # fmt: skip
    if command.card is None:
        raise InvalidCommand(f"card: the pack has no Spell {command.spell!r}; type its Mana Cost and Casting Number",
                             field="card", rule="FF-SORC-05")  # fmt: skip
    card = command.card
    number(card.cost, "card.cost", 0, 20, "FF-SORC-05")
    number(card.casting, "card.casting", 0, 30, "FF-SORC-05")
    number(card.xp, "card.xp", 0, 999)
    if card.element not in ("", *ELEMENTS):
        raise InvalidCommand(f"card.element: one of {list(ELEMENTS)}", field="card.element", rule="FF-SORC-02")
    return card


def check_cast(state: Session, command: CastSpell) -> None:
    adv = need_adventure(state)
    need_hero(state, command.hero)
    need_class(state, command.hero, SORCERESS, "FF-SORC-04", "casting Spells")
    need_standing(state, command.hero)
    if command.spell == BLAST:
        raise IllegalCommand("spell: the Elemental Blast is cast as her Attack (attack with blast)", field="spell",
                             rule="FF-SORC-01")  # fmt: skip
    if not command.spell.strip():
        raise InvalidCommand("spell: the Spell's name", field="spell")
    card = spell_card(state, command)
    sorceress = adv.hero(command.hero)
    if command.spell in sorceress.spells_cast:
        raise IllegalCommand(f"spell: {command.spell} was already cast this turn: each Spell at most once per turn "
                             "(FF-SORC-04)", field="spell", rule="FF-SORC-04")  # fmt: skip
    number(command.extra_mana, "extra_mana", 0, 20, "FF-SORC-05")
    if sorceress.mana < card.cost + command.extra_mana:
        raise IllegalCommand(f"spell: {command.spell} costs {card.cost} Mana (+{command.extra_mana} for extra dice) "
                             f"and {state.hero(command.hero).name} has {sorceress.mana} (FF-SORC-05)", field="spell",
                             rule="FF-SORC-05")  # fmt: skip
    act = adv.activation
    if card.ranged_attack:
        if act is None or act.figure != command.hero:
            raise IllegalCommand("spell: a Spell that is a Ranged Attack is cast as her Attack, in her own "
                                 "activation (FF-SORC-04)", field="spell", rule="FF-SORC-04")  # fmt: skip
        if not adv.in_fight:
            raise IllegalCommand("spell: no enemy on the board to Attack (FF-TURN-05)", field="spell",
                                 rule="FF-TURN-05")  # fmt: skip


def cast_spell(ctx: Ctx, command: CastSpell) -> Procedure:
    """Pay the Mana Cost, roll 2D6 (+1 die per extra Mana), the best 2 dice count, +1 for her Focus element; after
    the roll she may add Mana dice, Arcane Powder (+1 each) or Grit re-rolls (A44) while it fails (FF-SORC-05/08).
    A Dangerous Spell with any doubles gives a Corruption Hit (FF-SORC-06, A43). Success earns the card's XP."""
    hero, spell = command.hero, command.spell
    card = spell_card(ctx.state, command)
    sheet = member(ctx, hero).sheet
    change_resource(ctx, hero, "mana", -(card.cost + command.extra_mana), rule="FF-SORC-05",
                    why=f"{spell}: Mana Cost {card.cost}" + (f" + {command.extra_mana} extra dice" if command.extra_mana
                                                           else ""))  # fmt: skip
    put_member(ctx, replace(member(ctx, hero), spells_cast=(*member(ctx, hero).spells_cast, spell)))
    focus = FOCUS_BONUS if card.element and card.element == sheet.focus else 0
    purpose = f"Casting Roll for {spell} ({card.casting}+)"
    roll = yield from ctx.roll(DieKind.POOL, purpose, hero=hero, pool=2 + command.extra_mana, rule="FF-SORC-05",
                               doubles=card.dangerous, asks=Asks.CASTING_ROLL,
                               said=(("name", spell), ("target", card.casting)))  # fmt: skip
    roll, powder = yield from _after_the_roll(ctx, hero, roll, card, focus, purpose, spell)
    total = casting_total(roll, focus, powder)
    if card.dangerous and len(set(roll.faces)) < len(roll.faces):  # any two dice match (A43)
        willpower = ctx.hero(hero).willpower
        save = yield from own_roll(ctx, hero, 1, f"{spell} is Dangerous (doubles): Willpower {willpower}+ against a "
                                   "Corruption Hit", target=willpower, rule="FF-HERO-05", asks=Asks.SAVE,
                                   said=(("reason", "willpower"), ("target", willpower), ("name", spell)))  # fmt: skip
        if not save.successes:
            ctx.change(hero, "corruption", 1, rule="FF-SORC-06", why=f"a Dangerous Spell's doubles ({spell})")
    if total >= card.casting:
        ctx.emit("spell", f"{ctx.name(hero)} casts {spell}: {total} against {card.casting}+ - it takes effect",
                 hero=hero, rule="FF-SORC-05", name=spell, value=total, target=card.casting, passed=True)  # fmt: skip
        first = spell not in member(ctx, hero).spells_with_xp
        if card.xp and (first or not card.xp_once):
            ctx.change(hero, "xp", card.xp, rule="FF-SORC-04", why=f"casting {spell}")
            put_member(ctx, replace(member(ctx, hero), spells_with_xp=(*member(ctx, hero).spells_with_xp, spell)))
    else:
        ctx.emit("spell", f"{ctx.name(hero)} fails to cast {spell}: {total} against {card.casting}+; the Mana is "
                 "wasted and it may not be tried again this turn", hero=hero, rule="FF-SORC-05", name=spell,
                 value=total, target=card.casting, passed=False)  # fmt: skip
    if card.ranged_attack and ctx.state.adventure is not None:
        finish_activation(ctx, why=f"{spell} was her Attack")
        yield from advance(ctx)


def casting_total(roll: Roll, focus: int, powder: int) -> int:
    """The 2 best dice, plus Focus and Arcane Powder (FF-SORC-05/08)."""
    return sum(sorted(roll.faces, reverse=True)[:2]) + focus + powder


def _after_the_roll(ctx: Ctx, hero: str, roll: Roll, card: SpellCard, focus: int,
                    purpose: str, spell: str) -> Steps[tuple[Roll, int]]:  # fmt: skip
    powder = 0
    grit_declined = False
    while casting_total(roll, focus, powder) < card.casting:
        options = []
        if member(ctx, hero).mana >= 1:
            options.append(Option("mana", "Spend 1 Mana: add a die", part=Part.JOIN, costs=(Amount("mana", 1),),
                                  says=Says.EXTRA_MANA))  # fmt: skip
        if member(ctx, hero).arcane_powder >= 1:
            options.append(Option("powder", "Discard 1 Arcane Powder: +1", part=Part.JOIN,
                                  costs=(Amount("arcane_powder", 1),), says=Says.ARCANE_POWDER))  # fmt: skip
        if (ctx.state.options.offer_grit_rerolls and not grit_declined and ctx.hero(hero).grit >= 1
                and len(roll.rerolled) < len(roll.faces)):  # fmt: skip
            options.append(Option("grit", "Spend 1 Grit: re-roll dice", part=Part.JOIN, costs=(Amount("grit", 1),),
                                  says=Says.GRIT_REROLL))  # fmt: skip
        if not options:
            break
        options.append(Option("accept", "Let it fail", part=Part.DECLINE, says=Says.LET_FAIL))
        total = casting_total(roll, focus, powder)
        choice = yield from ctx.choose(f"{purpose}: {','.join(map(str, roll.faces))} gives {total}", options,
                                       hero=hero, rule="FF-SORC-05", asks=Asks.CASTING,
                                       said=(("name", spell), ("value", total),
                                             ("target", card.casting)))  # fmt: skip
        if choice == "accept":
            break
        if choice == "mana":
            change_resource(ctx, hero, "mana", -1, rule="FF-SORC-05", why="an extra Casting die")
            die = yield from ctx.roll(DieKind.POOL, f"{purpose}: extra Mana die", hero=hero, pool=1, rule="FF-SORC-05",
                                      asks=Asks.CASTING_ROLL, said=(("name", spell), ("target", card.casting),
                                                                    ("reason", "extra_die")))  # fmt: skip
            roll = replace(roll, faces=(*roll.faces, *die.faces))
        elif choice == "powder":
            change_resource(ctx, hero, "arcane_powder", -1, rule="FF-SORC-08", why="+1 to the Casting Total")
            powder += 1
        else:
            indices: tuple[int, ...] = yield RerollRequest(roll, hero, "A44")
            if not indices:
                grit_declined = True
                continue
            ctx.change(hero, "grit", -1, rule="FF-GRIT-01", why=f"re-roll for {purpose}")
            again = yield from ctx.roll(DieKind.POOL, f"{purpose} (re-roll)", hero=hero, pool=len(indices),
                                        rule="FF-GRIT-02", asks=Asks.CASTING_ROLL,
                                        said=(("name", spell), ("target", card.casting),
                                              ("reroll", True)))  # fmt: skip
            roll = roll.with_rerolls(indices, again.faces)
    return roll, powder
