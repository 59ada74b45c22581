"""What a hero may spend and what the table may do beyond the turn's next step, as buttons: each class's abilities
(a Spell, a Battle Tactic, Fury/Ki/Mana/Arcane Powder, Ki Healing, the Shuriken), a hero's Attack and an enemy's
attack with the Hits the table played, and the missions' and the Depth Track's commands.

Everything is read from `legal_commands` (what the engine accepts now, who sends it, the values it may take) and
the state; a button's `key` and `arg` say which command it builds (`command`). A button that needs more than a tap
opens a choice (`choices`: a -/+ and buttons, e.g. the Hits and their Damage) or a short form (`form`: a card's
name and numbers the content pack lacks).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from shared_rules import LegalCommand
from shared_rules.commands import (
    ActivateBandits,
    ActivateEnemy,
    AdjustResource,
    Attack,
    CastSpell,
    Command,
    Desperation,
    EnemyStrike,
    HeroHit,
    MoveMarker,
    PlayGang,
    RandomTarget,
    RerollWithGrit,
    RescueHero,
    RollMission,
    SpellCard,
    SpendKi,
    StayInTown,
    StrikeTownsfolk,
    ThrowShuriken,
    UseTactic,
)
from shared_rules.content import pack
from shared_rules.state import Session

from ..i18n import _
from .reading import TableRead

RESOURCE_WORDS = {"fury": "Fury", "ki": "Ki", "mana": "Mana", "arcane_powder": "Arcane Powder"}
RESOURCE_TOPS = {"fury": "max_fury", "ki": "max_ki", "mana": "mana"}  # the sheet's number each may not pass
DESPERATION_WORDS = {"scavenge": "Scavenge", "recover_grit": "Recover a Grit", "ready_item": "Ready an Item",
                     "catch_breath": "Catch your breath (Heal D3)"}  # fmt: skip
DAMAGES = tuple(range(1, 9))  # a Hit's damage before Defense: the die plus the weapon's bonus
STRIKE_HITS = (1, 2, 3)
NUMBER_LIMITS = {"hits": (1, 9), "damage": (1, 9)}


@dataclass(frozen=True, slots=True)
class Button:
    """A button that builds a command (or opens a choice or a form): `key` says which, `arg` what it is about."""

    key: str
    label: str
    arg: str = ""
    enabled: bool = True


@dataclass(frozen=True, slots=True)
class Choices:
    """A tap that needs one more: the -/+ numbers above (how many Hits), then one button per answer."""

    title: str
    text: str
    numbers: tuple[tuple[str, str, int], ...]  # (key, label, value)
    options: tuple[Button, ...]


@dataclass(frozen=True, slots=True)
class FormField:
    key: str
    label: str
    value: str = ""
    number: bool = False


@dataclass(frozen=True, slots=True)
class Form:
    """What a card says, typed in because the content pack lacks it (a Spell's Mana Cost, a Gang card's bonus)."""

    key: str  # spell | tactic | gang
    arg: str  # the hero
    title: str
    text: str
    fields: tuple[FormField, ...]
    send: str  # the button's words


def _legal(state_legal: tuple[LegalCommand, ...]) -> dict[str, list[LegalCommand]]:
    out: dict[str, list[LegalCommand]] = {}
    for c in state_legal:
        out.setdefault(c.type, []).append(c)
    return out


class Abilities:
    """The buttons and the commands they build, for one table (`read` gives its TableRead)."""

    def __init__(self, read: Callable[[], TableRead], name: Callable[[str], str]) -> None:
        self._read = read
        self.name = name
        self.numbers: dict[str, int] = {"hits": 1, "damage": 1}

    def _state(self) -> Session:
        return self._read().session

    def _legal(self) -> dict[str, list[LegalCommand]]:
        return _legal(self._read().legal)

    # ---- a hero's card ----------------------------------------------------------------------------------------
    def hero_buttons(self, hero: str, free: bool) -> tuple[Button, ...]:
        """What `hero` may spend now, on the hero's card: Spells, Battle Tactics, Ki, the Shuriken, -/+ tokens."""
        state = self._state()
        adv = state.adventure
        if adv is None:
            return ()
        legal = self._legal()
        out: list[Button] = []
        content = pack(state.pack).adventure
        for c in legal.get("cast_spell", ()):
            if c.hero == hero:
                out += [Button("spell", _("Cast {spell}").format(spell=s), f"{hero}|{s}", free) for s in c.options]
                out.append(Button("spell_form", _("Cast a Spell…"), hero, free))
        for c in legal.get("use_tactic", ()):
            if c.hero == hero:
                out += [Button("tactic", _("Battle Tactic: {t}").format(t=t), f"{hero}|{t}", free)
                        for t in sorted(content.tactics)]
                out.append(Button("tactic_form", _("Use a Battle Tactic…"), hero, free))
        for c in legal.get("spend_ki", ()):
            if c.hero == hero:
                for m in adv.heroes:
                    h = state.hero(m.id)
                    if h.wounds:
                        out.append(Button("ki", _("1 Ki: heal {who}'s Wounds").format(who=h.name),
                                          f"{hero}|{m.id}|wounds", free))
                    if h.sanity_damage:
                        out.append(Button("ki", _("1 Ki: heal {who}'s Sanity").format(who=h.name),
                                          f"{hero}|{m.id}|sanity", free))
        for c in legal.get("throw_shuriken", ()):
            if c.hero == hero:
                out += [Button("shuriken", _("Shuriken at {who}").format(who=self.name(e)), f"{hero}|{e}", free)
                        for e in c.options]
        for c in legal.get("reroll_with_grit", ()):
            if c.hero == hero and adv.activation is not None and adv.activation.move is not None:
                move = adv.activation.move
                out += [Button("reroll_move", _("Re-roll the Move {face} (1 Grit)").format(face=f), f"{hero}|{i}",
                               free) for i, f in enumerate(move.faces) if i not in move.rerolled]
        for c in legal.get("desperation", ()):
            if c.hero == hero:
                out += [Button("desperation", _("Desperation: {what}").format(what=_(DESPERATION_WORDS.get(o, o))),
                               f"{hero}|{o}", free) for o in c.options]
        adjust = legal.get("adjust_resource", ())
        if adjust:
            member = adv.hero(hero)
            for resource in adjust[0].options:
                top = RESOURCE_TOPS.get(resource)
                mine = getattr(member.sheet, top) if top else state.hero(hero).hero_class == "Sorceress"
                if not mine:
                    continue  # not this class's token
                has = getattr(member, resource)
                word = _(RESOURCE_WORDS[resource])
                out.append(Button("resource", f"-1 {word}", f"{hero}|{resource}|-1", free and has > 0))
                out.append(Button("resource", f"+1 {word}", f"{hero}|{resource}|1", free))
        return tuple(out)

    # ---- the table's other commands ---------------------------------------------------------------------------
    def table_buttons(self, free: bool) -> tuple[Button, ...]:
        """The missions' own steps of the turn (the Bandits' activation, the captive, the Townsfolk)."""
        state = self._state()
        legal = self._legal()
        out: list[Button] = []
        if "activate_bandits" in legal:
            out.append(Button("bandits", _("The Bandits activate"), enabled=free))
        for c in legal.get("rescue_hero", ()):
            out += [Button("rescue", _("{who} is on the Gallows (rescue them)").format(who=self.name(h)), h, free)
                    for h in c.options]
        for c in legal.get("random_target", ()):
            out += [Button("random_target", _("Random target for {who}").format(who=self.name(e)), e, free)
                    for e in c.options]
        adv = state.adventure
        townsfolk = [f for f in adv.figures if f.kind == "townsfolk"] if adv is not None else []
        for c in legal.get("strike_townsfolk", ()):
            for e in c.options:
                out += [Button("strike_townsfolk", _("{who} hits {t}").format(who=self.name(e), t=self.name(t.id)),
                               f"{e}|{t.id}", free) for t in townsfolk]
        if "move_townsfolk" in legal:
            out.append(Button("board", _("Move the Townsfolk on the board")))
        return tuple(out)

    def card_buttons(self, free: bool) -> tuple[Button, ...]:
        """What a card read at the table does: the Depth Track's markers moved, an Infamous Bandit Gang in play."""
        legal = self._legal()
        out: list[Button] = []
        if "move_marker" in legal:
            out += [Button("marker", _("Darkness +1 space"), "darkness|1", free),
                    Button("marker", _("Darkness -1 space"), "darkness|-1", free),
                    Button("marker", _("Hero Party +1 space"), "party|1", free),
                    Button("marker", _("Hero Party -1 space"), "party|-1", free)]
        if "play_gang" in legal:
            out.append(Button("gang_form", _("A Bandit Gang card…"), enabled=free))
        return tuple(out)

    def between_buttons(self, free: bool) -> tuple[Button, ...]:
        legal = self._legal()
        out = []
        if "roll_mission" in legal:
            out.append(Button("roll_mission", _("Roll the Town Mission"), enabled=free))
        if "stay_in_town" in legal:
            out.append(Button("stay_in_town", _("Stay in this town"), enabled=free))
        return tuple(out)

    # ---- what a tap needs more of -------------------------------------------------------------------------------
    def choices(self, key: str, arg: str) -> Choices | None:
        state = self._state()
        adv = state.adventure
        house = state.options.combat == "house"
        if key in ("attack", "shuriken") and not house and adv is not None:
            hero, enemy = (arg.split("|", 1) if key == "shuriken" else
                           (adv.activation.figure if adv.activation else "", arg))
            hits = self.numbers["hits"]
            what = _("Shuriken") if key == "shuriken" else _("Attack")
            damages = (Button("hit", _("Missed"), f"{key}|{hero}|{enemy}|0"),
                       *(Button("hit", _("Damage {n}").format(n=d), f"{key}|{hero}|{enemy}|{d}") for d in DAMAGES))
            return Choices(_("{what} on {who}").format(what=what, who=self.name(enemy)),
                           _("How many Hits, then each Hit's damage (the die plus the weapon's bonus)."),
                           (("hits", _("Hits"), hits),), damages)
        if key == "activate_enemy" and adv is not None:
            figure = adv.figure(arg)
            numbers: tuple[tuple[str, str, int], ...] = ()
            options: list[Button] = []
            heroes = [m.id for m in adv.heroes if not state.hero(m.id).knocked_out]
            if house and figure.combat and figure.to_hit:
                options += [Button("strike", _("It attacks {who}").format(who=self.name(h)), f"{arg}|{h}|") for h in
                            heroes]
            else:
                if not figure.damage:
                    numbers = (("damage", _("Damage of each Hit"), self.numbers["damage"]),)
                for h in heroes:
                    options += [Button("strike", (_("{who}: 1 Hit") if n == 1 else _("{who}: {n} Hits")).format(
                        who=self.name(h), n=n), f"{arg}|{h}|{n}") for n in STRIKE_HITS]
            options.append(Button("strike", _("No Hits (it moved, or missed)"), f"{arg}||"))
            return Choices(_("{who} activates").format(who=self.name(arg)),
                           _("Whom it struck and how many Hits: each Hero then rolls Cover and Defense saves."),
                           numbers, tuple(options))
        return None

    def step(self, key: str, direction: int) -> None:
        low, high = NUMBER_LIMITS[key]
        self.numbers[key] = max(low, min(high, self.numbers[key] + direction))

    def form(self, key: str, arg: str) -> Form | None:
        if key == "spell_form":
            return Form("spell", arg, _("Cast a Spell"), _("As the Spell card says."), (
                FormField("name", _("Spell (as the card names it)")), FormField("cost", _("Mana Cost"), "1", True),
                FormField("casting", _("Casting Number"), "5", True)), _("Cast it"))
        if key == "tactic_form":
            return Form("tactic", arg, _("Use a Battle Tactic"), _("As the Battle Tactic card says."), (
                FormField("name", _("Battle Tactic (as the card names it)")),
                FormField("cost", _("Fury cost"), "1", True)), _("Use it"))
        if key == "gang_form":
            return Form("gang", "", _("An Infamous Bandit Gang"), _("As the Gang card says."), (
                FormField("name", _("Gang (as the card names it)")), FormField("xp", _("XP per kill"), "0", True),
                FormField("bounty", _("Bounty per kill ($)"), "0", True)), _("Into play"))
        return None

    def form_command(self, form: Form, values: Mapping[str, str]) -> Command | str:
        """The form's command, or what is missing in words."""
        name = values.get("name", "").strip()

        def num(key: str) -> int:
            try:
                return int(values.get(key, "").strip())
            except ValueError:
                return -1

        if not name:
            return _("Give the card's name.")
        if any(num(f.key) < 0 for f in form.fields if f.number):
            return _("Give the card's numbers.")
        if form.key == "spell":
            return CastSpell(form.arg, name, SpellCard(num("cost"), num("casting")))
        if form.key == "tactic":
            return UseTactic(form.arg, name, cost=num("cost"))
        return PlayGang(name, xp_per_kill=num("xp"), bounty_per_kill=num("bounty"))

    # ---- the command a button builds ------------------------------------------------------------------------------
    def command(self, key: str, arg: str) -> Command | None:
        parts = arg.split("|")
        state = self._state()
        adv = state.adventure
        if key == "spell":
            return CastSpell(parts[0], parts[1])
        if key == "tactic":
            return UseTactic(parts[0], parts[1])
        if key == "ki":
            return SpendKi(parts[0], 1, parts[1], heal=parts[2])
        if key == "resource":
            return AdjustResource(parts[0], parts[1], int(parts[2]), reason=_("as a card says"))
        if key == "shuriken":  # house combat: the engine rolls it
            return ThrowShuriken(parts[0], target=parts[1])
        if key == "attack":  # house combat
            return Attack(adv.activation.figure if adv is not None and adv.activation else "", target=arg)
        if key == "hit":
            kind, hero, enemy, damage = parts
            landed = () if damage == "0" else tuple(HeroHit(enemy, int(damage)) for _n in range(self.numbers["hits"]))
            self.numbers["hits"] = 1
            if kind == "shuriken":
                return ThrowShuriken(hero, target=enemy, hits=landed)
            return Attack(hero, target=enemy, hits=landed)
        if key == "strike":
            enemy, struck, count = parts
            if not struck:
                return ActivateEnemy(enemy)
            figure = adv.figure(enemy) if adv is not None else None
            each = None if figure is None or figure.damage or not count else self.numbers["damage"]
            return ActivateEnemy(enemy, strikes=(EnemyStrike(struck, int(count) if count else None, each),))
        if key == "reroll_move":
            return RerollWithGrit(parts[0], "move", (int(parts[1]),))
        if key == "desperation":
            return Desperation(parts[0], parts[1])
        if key == "bandits":
            return ActivateBandits()
        if key == "rescue":
            return RescueHero(arg)
        if key == "random_target":
            return RandomTarget(arg)
        if key == "strike_townsfolk":
            return StrikeTownsfolk(parts[0], parts[1], 1)
        if key == "marker":
            return MoveMarker(parts[0], int(parts[1]), reason=_("as a card says"))
        if key == "roll_mission":
            return RollMission()
        if key == "stay_in_town":
            return StayInTown()
        return None

