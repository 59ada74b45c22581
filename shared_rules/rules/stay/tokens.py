"""Side Bag tokens used in town (FT-BAG-01..07, FF-BAG-01/02): each is discarded for its effect. Out of a fight only
Exotic Herbs (remove D3 Corruption) and Tequila (Heal 2D6 Sanity Damage) do anything; the fight tokens are kept
for the Adventure; core tokens whose effect the rulebooks do not print take it from the pack or the table."""

from __future__ import annotations

from dataclasses import dataclass

from ...commands import UseToken
from ...effects import check_effects
from ...errors import IllegalCommand, InvalidCommand
from ...flow import Ctx, Procedure
from ...prompts import Asks, RollFor, roll_for
from ...state import Session
from .common import active_hero, apply_effects, content


@dataclass(frozen=True, slots=True)
class PrintedToken:
    """A token whose effect the rulebooks print (FT §New Side Bag Tokens; FF §Samurai Warrior)."""

    rule: str
    effect: str
    in_town: bool  # whether it does anything out of a fight


PRINTED: dict[str, PrintedToken] = {
    "Spice": PrintedToken("FT-BAG-01", "add D3 Damage to one of your Hits; take 1 Wound", False),
    "Potion": PrintedToken("FT-BAG-02", "+2 to one Skill until the end of the turn", False),
    "Hatchet": PrintedToken("FT-BAG-03", "a Ranged Free Attack", False),
    "Lantern Oil": PrintedToken("FT-BAG-04", "re-roll one die of a Hold Back the Darkness roll", False),
    "Exotic Herbs": PrintedToken("FT-BAG-05", "remove D3 Corruption Points", True),
    "Tequila": PrintedToken("FT-BAG-06", "Heal 2D6 Sanity Damage", True),
    "Fine Cigar": PrintedToken("FT-BAG-07", "Armor 3+ until the end of the turn", False),
    "Fire Sake": PrintedToken("FF-BAG-01", "gain D3 Fury", False),
}


def usable(state: Session, hero: str) -> tuple[str, ...]:
    """The tokens in `hero`'s Side Bag that can be used now, out of a fight (one entry per kind)."""
    out = []
    for token in dict.fromkeys(state.hero(hero).side_bag):
        printed = PRINTED.get(token)
        card = content(state).tokens.get(token)
        if (printed is not None and printed.in_town) or (printed is None and not (card and card.fight_only)):
            out.append(token)
    return tuple(out)


def check_use_token(state: Session, command: UseToken) -> None:
    active_hero(state, command.hero)
    hero = state.hero(command.hero)
    if command.token not in hero.side_bag:
        raise IllegalCommand(f"token: {hero.name}'s Side Bag holds no {command.token!r} token", field="token",
                             rule="FF-HERO-08")  # fmt: skip
    if command.target or command.hits:
        raise InvalidCommand("target: only a Hatchet is thrown at a target, in a Fight (FT-BAG-03)",
                             field="target" if command.target else "hits", rule="FT-BAG-03")  # fmt: skip
    printed = PRINTED.get(command.token)
    card = content(state).tokens.get(command.token)
    if printed is not None and not printed.in_town:
        raise IllegalCommand(f"token: {command.token} ({printed.effect}) is used in the Adventure: it stays in the Side "
                             "Bag for it", field="token", rule=printed.rule)  # fmt: skip
    if card is not None and card.fight_only:
        raise IllegalCommand(f"token: {command.token} is used in a fight: it stays in the Side Bag for the Adventure",
                             field="token", rule="FF-BAG-02")  # fmt: skip
    if (printed is not None or card is not None) and command.effects:
        raise InvalidCommand(f"effects: {command.token}'s effect is known ({'the rulebook' if printed else 'the pack'})"
                             "; send no effects", field="effects", rule=printed.rule if printed else "FF-BAG-02")  # fmt: skip
    if printed is None and card is None and not command.effects:
        raise InvalidCommand(f"effects: the rulebooks do not print what a {command.token} token does; enter its "
                             "effect from the card", field="effects", rule="FF-BAG-02")  # fmt: skip
    check_effects(state, command.hero, command.effects)


def use_token(ctx: Ctx, command: UseToken) -> Procedure:
    """Discard the token and apply its effect (FT-BAG-05 Exotic Herbs, FT-BAG-06 Tequila, or the pack's/table's)."""
    hero, token = command.hero, command.token
    ctx.remove_token(hero, ctx.hero(hero).side_bag.index(token), rule="FF-HERO-08", why="used")
    ctx.emit("token_used", f"{ctx.name(hero)} uses a {token} token", hero=hero, token=token,
             rule=PRINTED[token].rule if token in PRINTED else "FF-BAG-02")  # fmt: skip
    if token == "Exotic Herbs":
        removed = yield from ctx.d3("Exotic Herbs: Corruption Points removed", hero=hero, rule="FT-BAG-05",
                                    asks=Asks.ROLL_FOR, said=roll_for(RollFor.CORRUPTION_REMOVED, "Exotic Herbs"))
        ctx.change(hero, "corruption", -removed, rule="FT-BAG-05", why="Exotic Herbs")
    elif token == "Tequila":
        healed = yield from ctx.two_d6("Tequila: Sanity Damage healed", hero=hero, rule="FT-BAG-06",
                                       asks=Asks.ROLL_FOR, said=roll_for(RollFor.HEAL_SANITY, "Tequila"))
        ctx.change(hero, "sanity_damage", -healed, rule="FT-BAG-06", why="Tequila")
    else:
        card = content(ctx.state).tokens.get(token)
        apply_effects(ctx, hero, card.effects if card is not None else command.effects, rule="FF-BAG-02")
