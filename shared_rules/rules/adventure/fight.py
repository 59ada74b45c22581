"""Fights at the level the rulebooks give: enemies as figures with Health and Wounds, each Hit's damage typed in or
rolled, kills, KO and Revive Tokens, a Fight ending when no enemy is left (FF-TURN-05, FF-HERO-02..05/13).

The combat procedure itself (To Hit, Damage against Defense, Armor) is not in the rulebooks ((b)14). Option
`combat` says where Hits come from: "typed", the table resolves each attack with its cards and dice and types each
Hit's damage; "house", the engine rolls a procedure modelled on the base game (docs/rules.md: a house rule, not
rulebook text). Either way the engine applies what it knows: Defense, Fury, Ki, Deadly, Cover, saves, KO.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ...commands import ActivateEnemy, AddEnemies, Attack, HeroHit, NewEnemy, ThrowShuriken, WoundEnemy
from ...content import pack
from ...dice import DieKind
from ...errors import IllegalCommand, InvalidCommand
from ...events import Fact
from ...flow import Ctx, Procedure, Said, Steps
from ...frozen import replace
from ...prompts import Asks, Option, Says
from ...state import Activation, Figure, Session, Side, TurnStep
from .common import (
    ASSASSIN,
    HOUSE,
    MONK,
    SAMURAI,
    SORCERESS,
    adventure,
    change_resource,
    hero_class,
    member,
    need_adventure,
    need_enemy,
    need_hero,
    number,
    own_roll,
    party_ids,
    put,
    put_figure,
    put_member,
)
from .ko import recover_all
from .missions import mission_of
from .turn import advance, check_in_turn_order, end_current, finish_activation

BLAST = "Elemental Blast"
STRIKE_KINDS = ("wound", "horror", "corruption")


# ---- enemies onto the board --------------------------------------------------------------------------------------
def figures_from(state: Session, spec: NewEnemy, where: str) -> list[Figure]:
    """The figures a NewEnemy stands for: the pack's Enemy Record Sheet (`kind`) with typed numbers over it."""
    sheet = pack(state.pack).adventure.enemies.get(spec.kind) if spec.kind else None
    if spec.kind and sheet is None and spec.health is None:
        raise InvalidCommand(f"{where}.kind: the content pack has no Enemy Record Sheet {spec.kind!r}; type its "
                             "numbers (health ...)", field=f"{where}.kind")  # fmt: skip
    name = spec.name or (sheet.name if sheet else "")
    if not name.strip():
        raise InvalidCommand(f"{where}.name: an enemy needs a name (or a pack `kind`)", field=f"{where}.name")

    def pick(value: int | None, default: int, field: str, low: int, high: int) -> int:
        return number(default if value is None else value, f"{where}.{field}", low, high)

    health = pick(spec.health, sheet.health if sheet else 0, "health", 1, 999)
    stats: dict[str, Any] = {
        "initiative": pick(spec.initiative, sheet.initiative if sheet else 0, "initiative", 0, 20),
        "defense": pick(spec.defense, sheet.defense if sheet else 0, "defense", 0, 20),
        "armor": pick(spec.armor, sheet.armor if sheet else 0, "armor", 0, 6),
        "combat": pick(spec.combat, sheet.combat if sheet else 0, "combat", 0, 20),
        "to_hit": pick(spec.to_hit, sheet.to_hit if sheet else 0, "to_hit", 0, 6),
        "damage": pick(spec.damage, sheet.damage if sheet else 0, "damage", 0, 99),
    }
    size = spec.size if spec.size is not None else (sheet.size if sheet else "")
    if size not in ("", "large", "xl"):
        raise InvalidCommand(f"{where}.size: '', 'large' or 'xl'", field=f"{where}.size")
    count = number(spec.count, f"{where}.count", 1, 20)
    adv = need_adventure(state)
    stem = spec.kind or re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "enemy"
    taken = {f.id for f in adv.figures} | {m.id for m in adv.heroes}
    out, n = [], 1
    for _ in range(count):
        while f"{stem}-{n}" in taken:
            n += 1
        taken.add(f"{stem}-{n}")
        out.append(Figure(f"{stem}-{n}", name, Side.ENEMY, health, 0, kind=spec.kind, size=size, place=spec.place,
                          **stats))  # fmt: skip
    return out


def add_figures(ctx: Ctx, figures: Sequence[Figure], *, ambush: bool = False, rule: str) -> Steps[None]:
    """Put figures on the board. Enemies that come after the activations began act from the next turn unless the
    step is still open to them; Ambushers get +2 Initiative on their first turn (A13)."""
    if not figures:
        return
    adv = adventure(ctx)
    first = adv.turn if adv.step in (TurnStep.START, TurnStep.ACTIVATIONS) else adv.turn + 1
    fight_begins = not adv.in_fight and any(f.side is Side.ENEMY for f in figures)
    placed = tuple(replace(f, arrived=first, ambush=ambush or f.ambush) for f in figures)
    put(ctx, replace(adv, figures=(*adv.figures, *placed), fights=adv.fights + fight_begins))
    names = ", ".join(f"{f.name} ({f.id}, Health {f.health})" for f in placed)
    ctx.emit("enemies_arrived", ("A Fight begins: " if fight_begins else "On the board: ") + names
             + (" (Ambush: +2 Initiative on their first turn)" if ambush else ""), rule=rule,
             reason="fight" if fight_begins else "board", name=", ".join(f.name for f in placed),
             count=len(placed), passed=bool(ambush))  # fmt: skip
    yield from mission_of(ctx.state).enemies_arrived(ctx, placed)


def draw_threat(ctx: Ctx, level: str, *, rule: str) -> Steps[None]:
    """Attack!: draw a Threat card of `level` and put its enemies on the board (the pack's deck, a Peril Die for a
    quantity, FF-DICE-04); without the deck the table draws it and uses `add_enemies`."""
    cards = pack(ctx.state.pack).adventure.threats.get(level)
    if not cards:
        ctx.emit("encounter", f"Attack! Draw a {level.capitalize()} Threat card and put its enemies on the board "
                 "(add_enemies)", rule=rule, reason="attack", size=level)  # fmt: skip
        return
    key = yield from ctx.draw(f"a {level.capitalize()} Threat card", [(str(i), c.name) for i, c in enumerate(cards)],
                              rule=rule, asks=Asks.THREAT_CARD, said=(("size", level),))  # fmt: skip
    card = cards[int(key)]
    ctx.emit("encounter", f"Attack! {level.capitalize()} Threat: {card.name}", rule=rule, reason="attack", size=level,
             name=card.name)  # fmt: skip
    figures: list[Figure] = []
    for group in card.groups:
        count = group.count
        if group.peril:
            count = (yield from ctx.roll(DieKind.PERIL, f"how many {group.enemy} (Peril Die)", chart=True,
                                         rule="FF-DICE-04", asks=Asks.HOW_MANY,
                                         said=(("reason", "enemies"), ("name", group.enemy)))).value  # fmt: skip
        figures += figures_from(ctx.state, NewEnemy(kind=group.enemy, count=count), "threat")
    yield from add_figures(ctx, _unique(ctx.state, figures), rule=rule)


def _unique(state: Session, figures: list[Figure]) -> list[Figure]:
    """Renumber figures built group by group so their ids are unique on the board."""
    adv = state.adventure
    assert adv is not None
    taken = {f.id for f in adv.figures} | {m.id for m in adv.heroes}
    out = []
    for figure in figures:
        stem, n = figure.id.rsplit("-", 1)[0], 1
        while f"{stem}-{n}" in taken:
            n += 1
        taken.add(f"{stem}-{n}")
        out.append(replace(figure, id=f"{stem}-{n}"))
    return out


def check_add_enemies(state: Session, command: AddEnemies) -> None:
    need_adventure(state)
    if not command.enemies:
        raise InvalidCommand("enemies: at least one group", field="enemies")
    for index, spec in enumerate(command.enemies):
        figures_from(state, spec, f"enemies[{index}]")


def add_enemies(ctx: Ctx, command: AddEnemies) -> Procedure:
    """Enemies the table put on the board (a Threat or Darkness card, an Encounter, a Depth Event)."""
    figures: list[Figure] = []
    for index, spec in enumerate(command.enemies):
        figures += figures_from(ctx.state, spec, f"enemies[{index}]")
    yield from add_figures(ctx, _unique(ctx.state, figures), ambush=command.ambush, rule="FF-TURN-05")
    yield from advance(ctx)


# ---- Hits on enemies ---------------------------------------------------------------------------------------------
def wound(ctx: Ctx, figure_id: str, wounds: int, *, by: str, combat: bool, rule: str, why: str) -> Steps[int]:
    """Put Wounds on an enemy; a Samurai's wounding Combat Hit gains 1 Fury (FF-SAM-01); at its Health it is
    killed. Returns the Wounds placed."""
    adv = adventure(ctx)
    figure = adv.figure(figure_id)
    placed = max(0, min(wounds, figure.health_left))
    if placed:
        figure = replace(figure, wounds=figure.wounds + placed)
        put_figure(ctx, figure)
    ctx.emit("hit", f"{figure.name} ({figure.id}) takes {placed} Wound(s): {figure.health_left} Health left ({why})",
             hero=by or None, rule=rule, reason="wounded", figure=figure.name, count=placed, value=figure.health_left,
             why=why)  # fmt: skip
    if placed and combat and by and hero_class(ctx, by) == SAMURAI:
        change_resource(ctx, by, "fury", 1, rule="FF-SAM-01", why="a wounding Combat Hit",
                        cap=member(ctx, by).sheet.max_fury)  # fmt: skip
    if figure.health_left <= 0:
        yield from kill(ctx, figure, by=by)
    return placed


def kill(ctx: Ctx, figure: Figure, *, by: str) -> Steps[None]:
    """The enemy is killed and leaves the board; with no enemy left the Fight is over."""
    adv = adventure(ctx)
    put(ctx, replace(adv, figures=tuple(f for f in adv.figures if f.id != figure.id)))
    ctx.emit("killed", f"{figure.name} ({figure.id}) is killed" + (f" by {ctx.name(by)}" if by else ""),
             hero=by or None, rule="FF-HERO-02", figure=figure.name)  # fmt: skip
    mission = mission_of(ctx.state)
    yield from mission.figure_killed(ctx, figure, by)
    if figure.side is Side.ENEMY and ctx.state.adventure is not None and not adventure(ctx).in_fight:
        yield from fight_over(ctx)


def fight_over(ctx: Ctx) -> Steps[None]:
    """No enemy is left: the Fight ends. Shuriken return (once per Fight, FF-ASN-03); KO'd heroes Recover
    (option `recover_after_fight`); Loot is drawn at the table."""
    ctx.emit("fight_over", "The Fight is over: no enemy is left on the board (draw Loot at the table)",
             rule="FF-TURN-05", reason="no_enemies")  # fmt: skip
    adv = adventure(ctx)
    put(ctx, replace(adv, heroes=tuple(replace(m, shuriken_thrown=False) for m in adv.heroes)))
    yield from recover_all(ctx, why="the Fight is over")
    yield from mission_of(ctx.state).fight_over(ctx)


def land_hits(ctx: Ctx, hero: str, hits: Sequence[tuple[str, int]], *, melee: bool, ki: int, isolated: bool,
              house: bool, rule: str) -> Steps[None]:  # fmt: skip
    """Each Hit's damage, plus Deadly (FF-ASN-02) and Ki on the first Combat Hit (FF-MONK-01), less the target's
    Defense (a house reading where the rulebooks are silent, (b)14), is Wounds; Armor saves in the house procedure."""
    sheet = member(ctx, hero).sheet
    ki_left = ki
    hits = list(hits)
    if hits and member(ctx, hero).spice:  # FT-BAG-01: D3 Damage on a single one of these Hits (R-ADV-02)
        pick = yield from ctx.choose("Spice: which Hit gets the D3 Damage?",
                                     [Option(str(i), f"Hit {i + 1} on {t}: damage {d}", says=Says.SPICE_HIT,
                                             facts=(Fact("number", i + 1), Fact("figure", t), Fact("value", d)))
                                      for i, (t, d) in enumerate(hits)],
                                     hero=hero, rule="FT-BAG-01", asks=Asks.SPICE)  # fmt: skip
        target_, damage_ = hits[int(pick)]
        extra = yield from ctx.d3("Spice: D3 Damage", hero=hero, rule="FT-BAG-01", asks=Asks.DAMAGE,
                                  said=(("reason", "spice"), ("number", int(pick) + 1),
                                        ("name", _figure_name(ctx, target_))))  # fmt: skip
        put_member(ctx, replace(member(ctx, hero), spice=False))
        hits[int(pick)] = (target_, damage_ + extra)
        ctx.emit("hit", f"Spice: Hit {int(pick) + 1} does {extra} more Damage", hero=hero, rule="FT-BAG-01",
                 reason="spice", number=int(pick) + 1, count=extra)  # fmt: skip
    for number_, (target, damage) in enumerate(hits, start=1):
        adv = adventure(ctx)
        if target not in {f.id for f in adv.figures}:
            ctx.emit("hit", f"Hit {number_} finds no target: {target} is gone", hero=hero, rule=rule,
                     reason="no_target", number=number_)  # fmt: skip
            continue
        figure = adv.figure(target)
        bonus, notes = 0, []
        if hero_class(ctx, hero) == ASSASSIN and isolated and sheet.deadly_bonus:
            bonus += sheet.deadly_bonus
            notes.append(f"Deadly +{sheet.deadly_bonus}")
        if melee and ki_left:
            spent = -change_resource(ctx, hero, "ki", -ki_left, rule="FF-MONK-01", why="Damage on a Combat Hit")
            bonus += spent * sheet.ki_damage
            notes.append(f"Ki +{spent * sheet.ki_damage}")
            ki_left = 0
        if house and figure.armor and hero_class(ctx, hero) != ASSASSIN:  # Deadly bypasses Armor (FF-ASN-02)
            save = yield from ctx.roll(DieKind.D6, f"{figure.name}'s Armor {figure.armor}+ save", chart=True,
                                       rule=HOUSE, asks=Asks.SAVE,
                                       said=(("reason", "armor"), ("target", figure.armor),
                                             ("figure", figure.name)))  # fmt: skip
            if save.value >= figure.armor:
                ctx.emit("hit", f"{figure.name}'s Armor stops Hit {number_}", hero=hero, rule=HOUSE, reason="armor",
                         figure=figure.name, number=number_)  # fmt: skip
                continue
        wounds = max(0, damage + bonus - figure.defense)
        why = f"Hit {number_}: damage {damage}" + "".join(f", {n}" for n in notes) + f", Defense {figure.defense}"
        yield from wound(ctx, target, wounds, by=hero, combat=melee, rule=rule, why=why)


def _figure_name(ctx: Ctx, figure_id: str) -> str:
    """A figure's name for a prompt's facts (its id when it is no longer on the board)."""
    adv = ctx.state.adventure
    figure = next((f for f in adv.figures if f.id == figure_id), None) if adv is not None else None
    return figure.name if figure is not None else figure_id


def house_hits(ctx: Ctx, hero: str, target: str, *, dice: int, to_hit: int, bonus: int, purpose: str,
               ranged: bool, item: str = "") -> Steps[list[tuple[str, int]]]:  # fmt: skip
    """The house procedure's To Hit roll (the hero's own dice: Grit may re-roll misses) and a damage die per Hit.
    `ranged` and `item` (a weapon with a name: the Hatchet, the Shuriken) are what the prompts say it is."""
    name = _figure_name(ctx, target)
    aimed: Said = (("target", to_hit), ("name", name), ("reason", "ranged" if ranged else "melee"))
    roll = yield from own_roll(ctx, hero, dice, f"{purpose} To Hit {to_hit}+", target=to_hit, rule=HOUSE,
                               asks=Asks.TO_HIT, said=(*aimed, ("item", item)) if item else aimed)  # fmt: skip
    hits = []
    for index in range(roll.successes):
        damage = yield from ctx.d6(f"{purpose}: damage for Hit {index + 1}", hero=hero, rule=HOUSE,
                                   asks=Asks.DAMAGE, said=(("number", index + 1), ("name", name)))  # fmt: skip
        hits.append((target, damage + bonus))
    return hits


def check_hits(state: Session, hero: str, target: str, hits: Sequence[HeroHit]) -> None:
    """Typed Hits name enemies on the board and a damage; the house procedure takes a target and no Hits."""
    if state.options.combat == "house":
        if hits:
            raise InvalidCommand("hits: with combat 'house' the engine rolls the Hits; give `target`", field="hits",
                                 rule=HOUSE)  # fmt: skip
        need_enemy(state, target, "target")
        return
    for index, hit in enumerate(hits):
        need_enemy(state, hit.target, f"hits[{index}].target")
        number(hit.damage, f"hits[{index}].damage", 0, 99)
    if target:
        need_enemy(state, target, "target")


def _own_activation(state: Session, hero: str, what: str, rule: str) -> Activation:
    adv = need_adventure(state)
    need_hero(state, hero)
    act = adv.activation
    if act is None or act.figure != hero:
        now = f"{act.figure}'s activation is under way" if act else "no activation is under way"
        raise IllegalCommand(f"hero: {what} during {state.hero(hero).name}'s own activation; {now} ({rule})",
                             field="hero", rule=rule)  # fmt: skip
    return act


def check_attack(state: Session, command: Attack) -> None:
    adv = need_adventure(state)
    _own_activation(state, command.hero, "a hero Attacks", "FF-TURN-05")
    if not adv.in_fight:
        raise IllegalCommand("type: there is no enemy on the board to Attack (FF-TURN-05)", field="type",
                             rule="FF-TURN-05")  # fmt: skip
    check_hits(state, command.hero, command.target, command.hits)
    cls = state.hero(command.hero).hero_class
    sheet = adv.hero(command.hero).sheet
    if command.ki:
        if cls != MONK:
            raise IllegalCommand("ki: only the Traveling Monk spends Ki (FF-MONK-01)", field="ki", rule="FF-MONK-01")
        if command.ranged or command.blast:
            raise IllegalCommand("ki: Ki adds Damage to a Combat Hit, a Melee one (FF-MONK-01)", field="ki",
                                 rule="FF-MONK-01")  # fmt: skip
        number(command.ki, "ki", 1, 99, "FF-MONK-01")
        if command.ki > adv.hero(command.hero).ki:
            raise IllegalCommand(f"ki: {state.hero(command.hero).name} has {adv.hero(command.hero).ki} Ki "
                                 "(FF-MONK-01)", field="ki", rule="FF-MONK-01")  # fmt: skip
    if command.blast:
        if cls != SORCERESS:
            raise IllegalCommand("blast: the Elemental Blast is the Sorceress's (FF-SORC-01)", field="blast",
                                 rule="FF-SORC-01")  # fmt: skip
        if BLAST in adv.hero(command.hero).spells_cast:
            raise IllegalCommand("blast: the Elemental Blast was already cast this turn; each Spell once per turn "
                                 "(FF-SORC-04)", field="blast", rule="FF-SORC-04")  # fmt: skip
        if not sheet.blast_cost:
            raise IllegalCommand("blast: the Elemental Blast's Mana cost is on the sheet; give `blast_cost` in "
                                 "start_adventure's sheets (FF-SORC-01)", field="blast", rule="FF-SORC-01")  # fmt: skip
        if adv.hero(command.hero).mana < sheet.blast_cost:
            raise IllegalCommand(f"blast: the Elemental Blast costs {sheet.blast_cost} Mana and "
                                 f"{state.hero(command.hero).name} has {adv.hero(command.hero).mana} (FF-SORC-05)",
                                 field="blast", rule="FF-SORC-05")  # fmt: skip
    if state.options.combat == "house":
        ranged = command.ranged or command.blast
        dice = sheet.shots or (1 if command.blast else 0) if ranged else sheet.combat
        to_hit = sheet.ranged_to_hit if ranged else sheet.melee_to_hit
        if not dice or not to_hit:
            field = ("shots" if ranged else "combat") if not dice else ("ranged_to_hit" if ranged else "melee_to_hit")
            raise InvalidCommand(f"sheets: the house combat needs {state.hero(command.hero).name}'s {field}; give it "
                                 "in start_adventure's sheets or the content pack", field=field, rule=HOUSE)  # fmt: skip


def attack(ctx: Ctx, command: Attack) -> Procedure:
    """The hero's one Attack (FF-TURN-05): Hits typed or rolled, then Wounds, Fury, kills; the activation ends."""
    hero = command.hero
    ranged = command.ranged or command.blast
    if command.blast:  # FF-SORC-01: always succeeds, costs its Mana, counts as this turn's cast of the Blast
        sheet = member(ctx, hero).sheet
        change_resource(ctx, hero, "mana", -sheet.blast_cost, rule="FF-SORC-01", why="the Elemental Blast")
        put_member(ctx, replace(member(ctx, hero), spells_cast=(*member(ctx, hero).spells_cast, BLAST)))
        ctx.emit("spell", f"{ctx.name(hero)} casts the Elemental Blast ({sheet.focus or 'Focus'} element): it always "
                 "succeeds", hero=hero, rule="FF-SORC-01", reason="blast",
                 name=sheet.focus)  # fmt: skip

    hits = yield from _hits(ctx, hero, command.target, command.hits, ranged=ranged, blast=command.blast,
                            what="Ranged Attack" if ranged else "Melee Attack")  # fmt: skip
    yield from land_hits(ctx, hero, hits, melee=not ranged, ki=command.ki, isolated=command.isolated,
                         house=ctx.state.options.combat == "house", rule="FF-TURN-05")  # fmt: skip
    if ctx.state.adventure is not None:
        yield from mission_of(ctx.state).hero_attacked(ctx, hero)
    if ctx.state.adventure is not None:
        finish_activation(ctx, why="Attacked")
    yield from advance(ctx)


def _hits(ctx: Ctx, hero: str, target: str, typed: Sequence[HeroHit], *, ranged: bool, blast: bool = False,
          shuriken: bool = False, what: str) -> Steps[list[tuple[str, int]]]:  # fmt: skip
    if ctx.state.options.combat != "house":
        if not typed:
            ctx.emit("hit", f"{ctx.name(hero)}'s {what} misses", hero=hero, rule="FF-TURN-05", reason="attack_missed",
                     item=what)  # fmt: skip
        return [(h.target, h.damage) for h in typed]
    sheet = member(ctx, hero).sheet
    dice = sheet.shots if ranged else sheet.combat
    if shuriken or blast:  # their numbers are not in the rulebooks: one shot (a house reading)
        dice = 1 if shuriken else (sheet.shots or 1)
    to_hit = sheet.ranged_to_hit if ranged else sheet.melee_to_hit
    bonus = 0 if shuriken or blast else sheet.damage_bonus
    return (yield from house_hits(ctx, hero, target, dice=dice, to_hit=to_hit, bonus=bonus, purpose=what,
                                  ranged=ranged, item="Shuriken" if shuriken else ""))  # fmt: skip


# ---- the Shuriken (FF-ASN-03) ------------------------------------------------------------------------------------
def check_shuriken(state: Session, command: ThrowShuriken) -> None:
    adv = need_adventure(state)
    need_hero(state, command.hero)
    if state.hero(command.hero).hero_class != ASSASSIN:
        raise IllegalCommand("hero: the Shuriken is the Assassin's Starting Item (FF-ASN-03)", field="hero",
                             rule="FF-ASN-03")  # fmt: skip
    _own_activation(state, command.hero, "the Shuriken is thrown during her move", "FF-ASN-03")
    if not adv.in_fight:
        raise IllegalCommand("type: the Shuriken is a Free Attack in a Fight; no enemy is on the board (FF-ASN-03)",
                             field="type", rule="FF-ASN-03")  # fmt: skip
    if adv.hero(command.hero).shuriken_thrown:
        raise IllegalCommand("hero: the Shuriken was already thrown in this Fight: once per Fight (FF-ASN-03)",
                             field="hero", rule="FF-ASN-03")  # fmt: skip
    check_hits(state, command.hero, command.target, command.hits)
    if state.options.combat == "house" and not adv.hero(command.hero).sheet.ranged_to_hit:
        raise InvalidCommand("ranged_to_hit: the house combat needs the Assassin's Ranged To Hit", field="ranged_to_hit",
                             rule=HOUSE)  # fmt: skip


def throw_shuriken(ctx: Ctx, command: ThrowShuriken) -> Procedure:
    """A Free Ranged Attack outside the normal Attack, once per Fight, at any time during her move (FF-ASN-03)."""
    hero = command.hero
    put_member(ctx, replace(member(ctx, hero), shuriken_thrown=True))
    ctx.emit("hit", f"{ctx.name(hero)} throws her Shuriken", hero=hero, rule="FF-ASN-03", reason="shuriken")
    hits = yield from _hits(ctx, hero, command.target, command.hits, ranged=True, shuriken=True, what="Shuriken")
    yield from land_hits(ctx, hero, hits, melee=False, ki=0, isolated=command.isolated,
                         house=ctx.state.options.combat == "house", rule="FF-ASN-03")  # fmt: skip
    yield from advance(ctx)


# ---- enemies activate --------------------------------------------------------------------------------------------
def check_activate_enemy(state: Session, command: ActivateEnemy) -> None:
    need_enemy(state, command.enemy, "enemy", target=False)
    check_in_turn_order(state, command.enemy, "enemy")
    for index, strike in enumerate(command.strikes):
        at = f"strikes[{index}]"
        if strike.hero not in party_ids(state):
            raise InvalidCommand(f"{at}.hero: no hero {strike.hero!r} in this Adventure", field=f"{at}.hero")
        if strike.kind not in STRIKE_KINDS:
            raise InvalidCommand(f"{at}.kind: one of {list(STRIKE_KINDS)}", field=f"{at}.kind")
        figure = need_adventure(state).figure(command.enemy)
        if strike.hits is None:
            if state.options.combat != "house" or not figure.combat or not figure.to_hit:
                raise InvalidCommand(f"{at}.hits: how many Hits landed (the engine rolls them only with combat "
                                     "'house' and the enemy's combat and to_hit)", field=f"{at}.hits")  # fmt: skip
        else:
            number(strike.hits, f"{at}.hits", 0, 99)
        damage = figure.damage if strike.damage is None else number(strike.damage, f"{at}.damage", 0, 99)
        if strike.kind == "wound" and not damage and (strike.hits is None or strike.hits > 0):
            raise InvalidCommand(f"{at}.damage: the Damage of each Hit (the enemy's sheet has none)",
                                 field=f"{at}.damage")  # fmt: skip


def activate_enemy(ctx: Ctx, command: ActivateEnemy) -> Procedure:
    """An enemy's activation as the table played it: its move, then each hero struck saves (FF-HERO-04/05)."""
    end_current(ctx)  # R-ADV-05: the hero whose activation was under way is done
    figure = adventure(ctx).figure(command.enemy)
    if command.to is not None:
        figure = replace(figure, place=command.to)
        put_figure(ctx, figure)
    put(ctx, replace(adventure(ctx), activated=(*adventure(ctx).activated, figure.id)))
    ctx.emit("activated", f"{figure.name} ({figure.id}) activates", rule="FF-TURN-03", figure=figure.name)
    mission = mission_of(ctx.state)
    for strike in command.strikes:
        if ctx.state.adventure is None:
            return
        yield from mission.enemy_strike(ctx, adventure(ctx).figure(figure.id), strike)
        if figure.id not in {f.id for f in adventure(ctx).figures}:
            break
    yield from advance(ctx)


# ---- wounds from a card ------------------------------------------------------------------------------------------
def check_wound_enemy(state: Session, command: WoundEnemy) -> None:
    need_enemy(state, command.enemy, "enemy")
    number(command.wounds, "wounds", 1, 999)
    if command.hero:
        need_hero(state, command.hero)
    if command.combat and not command.hero:
        raise InvalidCommand("hero: a Combat Hit is some hero's", field="hero", rule="FF-SAM-01")


def wound_enemy(ctx: Ctx, command: WoundEnemy) -> Procedure:
    """Wounds from a Bomb, a Battle Tactic or a card (not Combat Hits unless said so: no Fury, FF-SAM-01)."""
    yield from wound(ctx, command.enemy, command.wounds, by=command.hero, combat=command.combat, rule="FF-TURN-05",
                     why=command.reason or "as the card says")  # fmt: skip
    yield from advance(ctx)

