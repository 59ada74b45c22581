"""The Town board's events in the player's language: a Town Mission's own rules (`mission`), a Bandit's proposal
(`bandit`), its attack (`shot`) and a model the table placed (`placed`), each worded from its facts.

A `mission` event names the rule that resolved in `reason` (a stable key, "hostage_killed") with its numbers and
names; a key this app does not know (a newer server, a third-party Mission) reads as the engine's English line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from shared_rules import Event
from shared_rules.events import BanditStep

from ..i18n import _

Facts = dict[str, object]


def count(value: object) -> int:
    """A fact that counts something (a number in the contract; anything else reads as none)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def mission_title(key: object) -> str:
    """A Mission's title from its key, in the app's catalogue ("" for a key this app does not know)."""
    from shared_rules.rules.adventure import MISSIONS

    mission = MISSIONS.get(str(key))
    return _(mission.title) if mission is not None else ""


def place_words(f: Facts) -> str:
    """Where a model stands from `where` (its board area) and `to` (its square "x,y"): "in the Street (3,4)"."""
    where, square = str(f.get("where", "")), str(f.get("to", ""))
    if where.startswith("roof:"):
        return _("on rooftop {n}").format(n=where[5:])
    if where.startswith("entry:"):
        return _("off the board at Entry {letter}").format(letter=where[6:])
    if where == "street":
        text = _("in the Street")
    elif where.startswith("building-"):
        text = _("in Building {n}").format(n=where[9:])
    else:
        text = ""
    return f"{text} ({square})".strip() if square else text


def _spaces(n: int) -> str:
    return (_("{n} space") if n == 1 else _("{n} spaces")).format(n=n)


def _broken(f: Facts) -> str:
    what = {"bank_robbery": _("the Robbers give up: the Mission is completed"),
            "town_overrun": _("the assault is broken: no more Enemies at the Entry Points"),
            "shootout_in_the_streets": _("the assault is broken: no more reinforcements, kill every Bandit left to "
                                         "win")}.get(str(f.get("mission")), _("the assault is broken"))  # fmt: skip
    template = _("{value} against the Posse marker's space {space}: {what}") if f.get("passed") else \
        _("{value} against the Posse marker's space {space}: not yet")  # fmt: skip
    return template.format(value=f.get("value", ""), space=f.get("number", ""), what=what)


def _gang(f: Facts) -> str:
    text = _("The {gang} ride with the Bandits").format(gang=f.get("name", ""))
    if count(f.get("value")) or count(f.get("price")):
        text += ": " + _("+{xp} XP and ${gold} per member killed").format(xp=count(f.get("value")),
                                                                           gold=count(f.get("price")))
    return text + (f" ({f['card_text']})" if f.get("card_text") else "")


def _opening(value: object) -> str:
    return {"door": _("door"), "window": _("window"), "diagonal door": _("corner door")}.get(str(value), str(value))


def _travelled(f: Facts, who: str) -> dict[str, Callable[[], str]]:
    """The Mission keys whose words move a model: the Prisoner, the Robbers, the Townsfolk, a fall."""
    n, letter = count(f.get("count")), str(f.get("where", ""))[6:]
    figure, square = f.get("figure", ""), f.get("to", "")
    return {
        "robber_runs": lambda: (_("{figure} runs 1 space toward Entry {letter}") if n == 1 else
                                _("{figure} runs {n} spaces toward Entry {letter}")).format(
            figure=figure, n=n, letter=letter) + (f" ({square})" if square else ""),
        "robber_escapes": lambda: _("{figure} escapes at Entry {letter}: the Darkness moves {n}").format(
            figure=figure, letter=letter, n=n),
        "prisoner_rides": lambda: _("The Prisoner rides {spaces} toward Entry {letter}").format(
            spaces=_spaces(n), letter=letter),
        "prisoner_runs": lambda: _("The Prisoner runs {spaces} toward Entry {letter}").format(
            spaces=_spaces(n), letter=letter),
        "prisoner_runs_horse": lambda: _("The Escaped Prisoner runs {spaces} for a Horse").format(spaces=_spaces(n)),
        "prisoner_gone": lambda: _("The Prisoner rides off the board at Entry {letter}: he got away").format(
            letter=letter),
        "prisoner_free": lambda: _("The Prisoner runs off the board at Entry {letter}: he is free").format(
            letter=letter),
        "prisoner_mounts": lambda: _("The Prisoner reaches Horse {number} and mounts").format(
            number=f.get("number", "")),
        "townsfolk_moves": lambda: _("Townsfolk {number} moves {spaces}; {left} Movement Points left").format(
            number=f.get("number", ""), spaces=_spaces(n), left=f.get("value", 0)),
        "hero_falls": lambda: _("{who} falls from the rooftop to ({square})").format(who=who, square=square),
        "enemy_falls": lambda: _("{figure} falls screaming from the rooftop").format(figure=figure),
        "captive_freed": lambda: _("{who} drops free at ({square})").format(who=who, square=square),
        "rope_shot": lambda: _("{who} shoots the rope: the Prisoner drops free at ({square}) and runs for Entry C")
        .format(who=who, square=square),
        "bandit_enters": lambda: (_("D6 {value}: {figure} enters {place} with a Rifle") if
                                  str(f.get("where", "")).startswith("roof:") else
                                  _("D6 {value}: {figure} enters {place}")).format(
            value=f.get("value", ""), figure=figure, place=place_words(f)),
    }  # fmt: skip


def _said(f: Facts, who: str) -> dict[str, Callable[[], str]]:
    """The Mission keys whose words set up, count down or settle a Mission."""
    n, figure, number, name = count(f.get("count")), f.get("figure", ""), f.get("number", ""), f.get("name", "")
    return {
        "rolled": lambda: _("Town Mission roll {value}: {title}").format(value=f.get("value", ""),
                                                                         title=mission_title(f.get("mission"))),
        "duel_rolled": lambda: _("Town Mission roll 6: the High Noon Duel: {who} is called out (start it with that "
                                 "Hero holding the Old Lantern)").format(who=who),
        "clue": lambda: _("Clue {n} of {total}: the Heroes are on the right track").format(n=n, total=number),
        "heroes_placed": lambda: _("The Heroes take their places on the Town board: {names}").format(names=name),
        "no_bandit_model": lambda: _("No Bandit model is left to place: the Darkness moves {n}").format(n=n),
        "broken": lambda: _broken(f),
        "no_hero_in_sight": lambda: _("{figure} has no Hero in Range and sight").format(figure=figure),
        "bank_set_up": lambda: _("The Bank (Building 7): 8 Money Bags, 3 Hostages and a Bandit inside; Entries A-D "
                                 "are the Escape Exits; Heroes may never enter the Bank"),
        "hostage_killed": lambda: _("The Darkness reaches a marked space: a Hostage is killed ({n} left)").format(n=n),
        "robber_not_placed": lambda: _("Robber {number} cannot be placed: the Darkness moves {n}").format(
            number=number, n=n),
        "bank_fires": lambda: _("The Bandit inside the Bank fires through the {opening} at ({square}) at {who}")
        .format(opening=_opening(f.get("where")), square=f.get("to", ""), who=who),
        "darkness_starts": lambda: _("The Darkness marker starts on space {number}: the Bandits remaining (the Posse "
                                     "marker is not used)").format(number=number),
        "dynamite_set": lambda: _("{n} Dynamite tokens burn by the Sheriff's Office wall, beside the Prisoner")
        .format(n=n),
        "no_more_bandits": lambda: _("The Darkness is on Darkness Start: no more Bandits come; kill those left to win"),
        "fuse": lambda: _("A Dynamite token is removed ({n} left)").format(n=n),
        "wall_explodes": lambda: _("The last Dynamite token: the wall explodes and the Prisoner is Escaped"),
        "elite": lambda: _("Growing Dread: every Bandit gains an Elite ability from the Record Sheet for the rest of "
                           "the game ({n} so far)").format(n=n),
        "marshals": lambda: (_("The Corrupt Marshals use the Brutal side and every Elite ability, {n}x Health, "
                               "Immune to Critical Hits; they act from the turn after they are Alerted") if
                             f.get("passed") else _("The Corrupt Marshals use the Brutal side, {n}x Health, Immune "
                                                    "to Critical Hits; they act from the turn after they are Alerted"))
        .format(n=n),
        "countdown_set": lambda: _("The Countdown: counters 1-{n}, the {n} on top (it replaces the Depth Track)")
        .format(n=n),
        "countdown": lambda: (_("{value} fails Hold Back the Darkness: the top Countdown counter comes off ({n} left)")
                              if count(f.get("value")) else
                              _("The End of the Turn: the top Countdown counter comes off ({n} left)")).format(
            value=f.get("value", ""), n=n),
        "trap_opens": lambda: _("The last counter is gone: the trap opens. Shoot the rope!"),
        "hanged_no_sight": lambda: _("No Hero has Line of Sight to the Gallows: the Prisoner is hanged"),
        "hanged_missed": lambda: _("{who}'s Shot does not cut the rope: the Prisoner is hanged").format(who=who),
        "crowd_scatters": lambda: _("The crowd scatters: each Townsfolk marker next to the attacker moves 1 space in "
                                    "a random direction (move them on the board)"),
        "alerted_spotted": lambda: _("{who} is spotted: every Corrupt Marshal is Alerted and acts from next turn")
        .format(who=who),
        "alerted_attacks": lambda: _("{who} attacks: every Corrupt Marshal is Alerted and acts from next turn")
        .format(who=who),
        "gear_reward": lambda: _("Each Hero draws a Gear card (at the table)"),
        "captive": lambda: _("{who} stands on the Gallows with the noose round the neck: set aside their Items and "
                             "Side Bag Tokens (not those that cannot be discarded or sold); they have a Starting Gear "
                             "Pistol, and everything back at the end").format(who=who),
        "gang": lambda: _gang(f),
        "duels_alone": lambda: _("{who} duels alone; {names} watch").format(who=who, names=name),
        "opponent": lambda: _("The opponent: Bandit sheet, Health and Damage x{n} (Level {level}); Elite/Brutal by "
                              "Level as the table decides").format(n=n, level=f.get("value", "")),
        "townsfolk_placed": lambda: (_("1 Townsfolk marker placed (the Heroes may move the ones in the Street)") if
                                     n == 1 else _("{n} Townsfolk markers placed (the Heroes may move the ones in the "
                                                   "Street)")).format(n=n),
        "enemies_wait": lambda: _("Enemies wait just off the board at Entry Point {letter}").format(
            letter=str(f.get("where", ""))[6:]),
        "enemies_approaching": lambda: _("An Enemies Approaching marker at Entry Point {letter}").format(
            letter=str(f.get("where", ""))[6:]),
        "townsfolk_points": lambda: _("The Townsfolk have {n} Movement Points to share").format(n=n),
        "townsfolk_killed": lambda: _("Townsfolk {number} is killed").format(number=number),
        "townsfolk_immune": lambda: _("Townsfolk {number} is immune to Sanity Damage").format(number=number),
        "takes_hits": lambda: _("{who} takes the Hits meant for Townsfolk {number}").format(who=who, number=number),
        "loot_reward": lambda: _("Each Hero draws {n} Loot cards (at the table)").format(n=n),
        "town_destroyed": lambda: _("The Town is destroyed"),
        "desperate_scavenge": lambda: _("{who} Scavenges (no limit): draw a Scavenge card at the table").format(
            who=who),
        "desperate_ready": lambda: _("{who} readies a Once per Fight Item").format(who=who),
        "target": lambda: _("{figure}'s target: {name}").format(figure=figure, name=name),
        "ambush": lambda: _("{figure}'s Ambush falls on {name} (place the Ambushers adjacent, on that Map Tile, +2 "
                            "Initiative on their first turn)").format(figure=figure, name=name),
    }  # fmt: skip


def _bandit(f: Facts) -> str:
    """One Bandit's proposal (FT-BANDIT-03..08): how it moves, and whom it targets."""
    reason, bandit, target, n = f.get("reason"), f.get("figure", ""), f.get("name", ""), count(f.get("count"))
    if reason == "melee":
        text = _("{bandit} fights {target} hand to hand").format(bandit=bandit, target=target)
    elif reason == "no_target" or (not target and reason != "retreat"):
        text = _("{bandit}: no Hero to target").format(bandit=bandit)
    else:
        text = {
            "retreat": _("{bandit} retreats 1 square") if n == 1 else _("{bandit} retreats {n} squares"),
            "advance": _("{bandit} moves 1 square") if n == 1 else _("{bandit} moves {n} squares"),
            "cover": _("{bandit} takes cover"), "stay": _("{bandit} stays where it is"),
            "rooftop": _("{bandit} fires from the rooftop"),
        }.get(str(reason), "{bandit}").format(bandit=bandit, n=n)  # fmt: skip
        if target:
            text += ", " + _("targets {target}").format(target=target)
    return text + (" " + _("(the table's target)") if f.get("why") else "")


def cover_words(kind: str, building: int, roof: str = "") -> str:
    """A Bandit's Cover in words: "behind the window of building 2"."""
    if kind == "rooftop":
        return _("on the rooftop {roof}").format(roof=roof or building)
    return {
        "door": _("behind the door of building {n}"), "window": _("behind the window of building {n}"),
        "doorway": _("leaning in the doorway of building {n}"), "corner": _("leaning around the corner of building {n}"),
        "diagonal door": _("in the corner door of building {n}"),
    }.get(kind, "{n}").format(n=building)  # fmt: skip


def _step(step: BanditStep, names: Mapping[str, str]) -> str:
    def name(hero: str) -> str:
        return names.get(hero, hero)

    near = _(" and ").join(name(h) for h in step.heroes)
    target, roll, n = name(step.target), step.roll, step.count
    where = cover_words(step.cover, step.building, step.roof)
    moves = (_("moves 1 space") if n == 1 else _("moves {n} spaces").format(n=n)) if n else _("stays")
    if n and step.entry:
        moves = _("comes on at Entry Area {letter} and {moves}").format(letter=step.entry, moves=moves)
    words: dict[str, Callable[[], str]] = {
        "rooftop_melee": lambda: _("on the rooftop with {hero}, never retreats: fights hand to hand").format(
            hero=target),
        "retreats": lambda: (_("next to {heroes}, rolled {roll}, retreats 1 space") if n == 1 else
                             _("next to {heroes}, rolled {roll}, retreats {n} spaces")).format(
            heroes=near, roll=roll, n=n),
        "stuck_melee": lambda: _("next to {heroes}, rolled {roll} but cannot get away: fights {hero} hand to "
                                 "hand").format(heroes=near, roll=roll, hero=target),
        "stays_melee": lambda: _("next to {heroes}, rolled {roll}, stays: fights {hero} hand to hand").format(
            heroes=near, roll=roll, hero=target),
        "rooftop_no_target": lambda: _("{weapon} from rooftop {roof}: no Hero in range and sight, no attack").format(
            weapon=_(step.weapon), roof=step.roof),
        "rooftop_targets": lambda: _("{weapon} from the rooftop, targets {hero}").format(
            weapon=_(step.weapon), hero=target),
        "stays_in_cover_targets": lambda: _("stays in cover {where}, targets {hero}").format(where=where, hero=target),
        "no_target": lambda: _("no Hero to target"),
        "takes_cover": lambda: _("rolled {roll}, takes cover {where}").format(roll=roll, where=where),
        "stays_in_cover": lambda: _("rolled {roll}, stays in cover {where}").format(roll=roll, where=where),
        "moves": lambda: _("rolled {roll}, {moves}").format(roll=roll, moves=moves),
        "no_cover_moves": lambda: _("rolled {roll}, finds no cover in reach, {moves}").format(roll=roll, moves=moves),
        "targets": lambda: _("targets {hero}").format(hero=target),
        "no_attack": lambda: _("cannot get {hero} in range and sight: no attack").format(hero=near),
        "new_target": lambda: _("cannot get {hero} in range and sight, targets {other}").format(
            hero=near, other=target),
    }  # fmt: skip
    said = words.get(step.what)
    return said() if said is not None else step.what.replace("_", " ")


def proposal_words(bandit: str, steps: Iterable[BanditStep], names: Mapping[str, str], target: str = "") -> str:
    """A Bandit's proposal clause by clause, in the language in use: "Bandit 3: rolled 2, takes cover behind the
    window of building 2, targets Kiri" (with the table's own target when it gave another)."""
    steps = tuple(steps)
    parts = [_step(step, names) for step in steps] or [_("nothing to do")]
    aimed = next((s.target for s in reversed(steps) if s.target), "")
    if target and target != aimed:
        parts.append(_("the table says: targets {hero}").format(hero=names.get(target, target)))
    return _("{bandit}: {words}").format(bandit=bandit, words=", ".join(parts))


def _shot(f: Facts) -> str:
    """A Bandit's attack rolled (FT-BANDIT-04/06): at whom, with what, and how many Hits."""
    bandit, target, hits = f.get("figure", ""), f.get("name", ""), count(f.get("hits"))
    if f.get("reason") == "gone":
        return _("{bandit}'s target is gone").format(bandit=bandit)
    if f.get("reason") == "melee":
        template = _("{bandit} attacks {target} hand to hand and misses") if not hits else \
            _("{bandit} attacks {target} hand to hand: 1 Hit") if hits == 1 else \
            _("{bandit} attacks {target} hand to hand: {n} Hits")  # fmt: skip
    else:
        template = _("{bandit} shoots at {target} with {weapon} and misses") if not hits else \
            _("{bandit} shoots at {target} with {weapon}: 1 Hit") if hits == 1 else \
            _("{bandit} shoots at {target} with {weapon}: {n} Hits")  # fmt: skip
    return template.format(bandit=bandit, target=target, weapon=f.get("item", ""), n=hits)


def board_text(event: Event, who: str, f: Facts) -> str | None:
    """A Town board kind (`mission`, `bandit`, `shot`, `placed`) worded from its facts; None for another kind, or a
    Mission rule this app does not know."""
    kind = event.type
    if kind == "bandit":
        return _bandit(f)
    if kind == "shot":
        return _shot(f)
    if kind == "placed":
        return _("{figure} is placed {place}").format(figure=f.get("figure", who), place=place_words(f))
    if kind != "mission":
        return None
    key = str(f.get("reason", ""))
    words = _said(f, who).get(key) or _travelled(f, who).get(key)
    return words() if words is not None else None
