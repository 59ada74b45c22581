"""Side Bag tokens used during an Adventure: Fire Sake is the Samurai's Fury (FF-SAM-03); the fight tokens work in a
Fight (Spice FT-BAG-01, Hatchet FT-BAG-03, Fine Cigar FT-BAG-07; readings R-ADV-01..03 in docs/rules.md); the
others whose effect is known out of a fight (Exotic Herbs, Tequila, a pack's or the table's) work exactly as in town
(FT-BAG, FF-BAG-02)."""

from __future__ import annotations

from ...commands import UseToken
from ...errors import IllegalCommand, InvalidCommand
from ...flow import Ctx, Procedure
from ...frozen import replace
from ...state import Session
from ..stay import tokens as town
from .classes import samurai
from .common import FIRE_SAKE, SAMURAI, member, need_adventure, need_hero, put_member
from .ko import harmed

SPICE, HATCHET, FINE_CIGAR = "Spice", "Hatchet", "Fine Cigar"
FIGHT_TOKENS = {SPICE: "FT-BAG-01", HATCHET: "FT-BAG-03", FINE_CIGAR: "FT-BAG-07"}
HATCHET_BONUS = 2  # FT-BAG-03: +2 Damage
CIGAR_ARMOR = 3  # FT-BAG-07: Armor 3+ until the end of the turn


def usable(state: Session, hero: str) -> tuple[str, ...]:
    """The tokens `hero` may use now: Fire Sake for a Samurai who has it, the fight tokens where they can be used,
    and those usable out of a fight."""
    me = state.hero(hero)
    sake = (FIRE_SAKE,) if me.hero_class == SAMURAI and FIRE_SAKE in me.side_bag else ()
    fight = tuple(t for t in dict.fromkeys(me.side_bag) if t in FIGHT_TOKENS and _refusal(state, hero, t) is None)
    return (*sake, *fight, *town.usable(state, hero))


def _refusal(state: Session, hero: str, token: str) -> IllegalCommand | None:
    """Why `token` cannot be used by `hero` now, or None: in a Fight only (the rulebook's effects are a Hit's Damage,
    a Free Attack, Armor); Spice and the Hatchet in the hero's own activation (R-ADV-01/02)."""
    adv = state.adventure
    rule = FIGHT_TOKENS[token]
    if adv is None or not adv.in_fight:
        return IllegalCommand(f"token: {token} is used in a Fight (its effect is on Hits and Attacks, {rule}); no "
                              "enemy is on the board", field="token", rule=rule)  # fmt: skip
    if token == FINE_CIGAR:
        if adv.hero(hero).armor and adv.hero(hero).armor <= CIGAR_ARMOR:
            return IllegalCommand(f"token: {state.hero(hero).name} already has Armor {adv.hero(hero).armor}+ until the "
                                  "end of the turn (FT-BAG-07)", field="token", rule="FT-BAG-07")  # fmt: skip
        return None
    act = adv.activation
    if act is None or act.figure != hero:
        reading = "R-ADV-01" if token == HATCHET else "R-ADV-02"
        return IllegalCommand(f"token: {token} is used during {state.hero(hero).name}'s own activation in a Fight "
                              f"({reading}, a reading of {rule})", field="token", rule=reading)  # fmt: skip
    if token == SPICE and adv.hero(hero).spice:
        return IllegalCommand("token: a Spice already waits for this hero's next Hits (FT-BAG-01: a single one of "
                              "your Hits)", field="token", rule="FT-BAG-01")  # fmt: skip
    return None


def check_use_token(state: Session, command: UseToken) -> None:
    if command.token == FIRE_SAKE:
        samurai.check_token(state, command)
    elif command.token in FIGHT_TOKENS:
        adv = need_adventure(state)
        need_hero(state, command.hero)
        hero = state.hero(command.hero)
        if command.token not in hero.side_bag:
            raise IllegalCommand(f"token: {hero.name}'s Side Bag holds no {command.token!r} token", field="token",
                                 rule="FF-HERO-08")  # fmt: skip
        rule = FIGHT_TOKENS[command.token]
        if command.effects:
            raise InvalidCommand(f"effects: {command.token}'s effect is printed in the rulebook ({rule}); send no "
                                 "effects", field="effects", rule=rule)  # fmt: skip
        refusal = _refusal(state, command.hero, command.token)
        if refusal is not None:
            raise refusal
        if command.token != HATCHET:
            if command.target or command.hits:
                raise InvalidCommand(f"target: only a Hatchet is thrown at a target; {command.token} takes none",
                                     field="target" if command.target else "hits", rule=rule)  # fmt: skip
            return
        from .fight import check_hits

        check_hits(state, command.hero, command.target, command.hits)
        if state.options.combat != "house" and len(command.hits) > 1:
            raise InvalidCommand("hits: the Hatchet has Shots 1: at most one Hit (FT-BAG-03)", field="hits",
                                 rule="FT-BAG-03")  # fmt: skip
        if state.options.combat == "house" and not adv.hero(command.hero).sheet.melee_to_hit:
            raise InvalidCommand("melee_to_hit: the Hatchet uses the Hero's Melee To Hit (FT-BAG-03); give it in "
                                 "start_adventure's sheets", field="melee_to_hit", rule="FT-BAG-03")  # fmt: skip
    else:
        need_adventure(state)
        town.check_use_token(state, command)


def use_token(ctx: Ctx, command: UseToken) -> Procedure:
    if command.token == FIRE_SAKE:
        yield from samurai.use_token(ctx, command)
    elif command.token in FIGHT_TOKENS:
        yield from _fight_token(ctx, command)
    else:
        yield from town.use_token(ctx, command)


def _fight_token(ctx: Ctx, command: UseToken) -> Procedure:
    """Discard the token for its printed effect (FT-BAG-01/03/07)."""
    from .fight import house_hits, land_hits
    from .turn import advance

    hero, token = command.hero, command.token
    rule = FIGHT_TOKENS[token]
    ctx.remove_token(hero, ctx.hero(hero).side_bag.index(token), rule=rule, why="used")
    if token == FINE_CIGAR:
        put_member(ctx, replace(member(ctx, hero), armor=CIGAR_ARMOR))
        ctx.emit("token_used", f"{ctx.name(hero)} lights a Fine Cigar: Armor {CIGAR_ARMOR}+ until the end of the turn",
                 hero=hero, rule=rule, token=token, target=CIGAR_ARMOR)  # fmt: skip
    elif token == SPICE:
        put_member(ctx, replace(member(ctx, hero), spice=True))
        ctx.emit("token_used", f"{ctx.name(hero)} uses a Spice: D3 Damage on one of their next Hits this turn",
                 hero=hero, rule=rule, token=token)  # fmt: skip
        ctx.change(hero, "wounds", 1, rule=rule, why="Spice: 1 Wound, ignoring Defense")
        yield from harmed(ctx, hero)
    else:
        strength = ctx.hero(hero).skills.strength
        ctx.emit("token_used", f"{ctx.name(hero)} throws a Hatchet: a Ranged Free Attack, Range {strength + 3} "
                 f"(Strength + 3), Shots 1, +{HATCHET_BONUS} Damage, Melee To Hit", hero=hero, rule=rule, token=token,
                 value=strength + 3)  # fmt: skip
        if ctx.state.options.combat == "house":
            sheet = member(ctx, hero).sheet
            hits = yield from house_hits(ctx, hero, command.target, dice=1, to_hit=sheet.melee_to_hit,
                                         bonus=HATCHET_BONUS, purpose="Hatchet", ranged=True,
                                         item="Hatchet")  # fmt: skip
        else:
            hits = [(h.target, h.damage + HATCHET_BONUS) for h in command.hits]
            if not hits:
                ctx.emit("hit", f"{ctx.name(hero)}'s Hatchet misses", hero=hero, rule=rule, reason="attack_missed",
                         item="Hatchet")  # fmt: skip

        yield from land_hits(ctx, hero, hits, melee=False, ki=0, isolated=False,
                             house=ctx.state.options.combat == "house", rule=rule)  # fmt: skip
    if ctx.state.adventure is not None:
        yield from advance(ctx)
