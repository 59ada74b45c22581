"""Player wording: what the engine and the network say, turned into the game's words.

No rule ids, field paths, version numbers, raw booleans or exception text reach a player; the rule id stays
available behind a "why?" toggle (`rule` on the view).
"""

from __future__ import annotations

import re

from shared_rules import DieKind, Event

from ..i18n import _
from .amounts import FIELD_WORDS
from .board_words import board_text, mission_title
from .roll_words import purpose_words

_FIELD_PREFIX = re.compile(r"^(?:[a-z_]+(?:\[\d+\])?)(?:\.[a-z_]+(?:\[\d+\])?)*:\s+")
_RULE_IDS = re.compile(r"\s*\((?:[A-Z]{1,3}-[A-Z0-9]+(?:-[A-Z0-9]+)*|A\d+|SVC-[A-Z]+|MANUAL)(?:[,;] ?[^)]*)?\)")
_BARE_RULE = re.compile(r"\b(?:FF|FT|SVC)-[A-Z0-9]+(?:-[A-Z0-9]+)*\b")
_VERSION = re.compile(r"\b(?:back to )?version \d+\b")
_QUOTED = re.compile(r"'([^']*)'")


def plain(message: str) -> str:
    """An engine or backend message in player words: no field path, rule id, version or Python quoting."""
    text = message.strip()
    if text.lower().startswith(("cannot reach", "the server could not be reached")):
        return "Cannot reach the server. Check the Wi-Fi, and that the server is running; changes wait here."
    if "expected_version" in text or "stale" in text.lower():
        return "Someone at the table acted first; the screen now shows the new state."
    text = _FIELD_PREFIX.sub("", text)
    text = _RULE_IDS.sub("", text)
    text = _BARE_RULE.sub("", text)
    text = _VERSION.sub("", text).replace(": ,", ":").strip(" :;,")
    text = _QUOTED.sub(r"\1", text)
    text = re.sub(r"\s{2,}", " ", text)
    return text[:1].upper() + text[1:] if text else "That was not accepted."


def _flag_words(name: str, field: str, after: object) -> str | None:
    on = bool(after)
    return {
        "bag_torn": f"{name}'s Side Bag is torn (holds 3 tokens)" if on else f"{name}'s Side Bag is repaired",
        "scratch_deal": f"{name} made a deal with Mr. Scratch" if on else f"{name}'s deal with Mr. Scratch is over",
        "removed": f"{name} is out of the game" if on else f"{name} is back in the game",
    }.get(field)


def _said(value: object) -> str:
    return str(value) if value is not None else ""


def _with_why(text: str, facts: dict[str, object]) -> str:
    why = _said(facts.get("why"))
    return f"{text} ({why})" if why else text


def _amount(field: str, amount: int) -> str:
    return f"${amount}" if field == "gold" else str(amount)


def _changed(event: Event, who: str, facts: dict[str, object]) -> str | None:
    """A hero value that moved, in the app's language: who gains, loses, takes or heals how much of what."""
    if not event.changes:
        return None
    change = event.changes[0]
    if change.field == "skills" and "skill" in facts:
        skill = _(str(facts["skill"]).capitalize())
        return _("{who}: {skill} is now {n}").format(who=who, skill=skill, n=facts.get("value"))
    before, after = change.before, change.after
    if isinstance(before, bool) or isinstance(after, bool) or not isinstance(before, int) or not isinstance(after, int):
        return None
    delta = after - before
    word = _(FIELD_WORDS.get(change.field, change.field.replace("_", " ")))
    if change.field == "wounds" and abs(delta) == 1:
        word = _("Wound")
    if change.field in ("wounds", "sanity_damage"):
        template = _("{who} takes {n} {field}") if delta > 0 else _("{who} heals {n} {field}")
    else:
        template = _("{who} gains {n} {field}") if delta > 0 else _("{who} loses {n} {field}")
    text = template.format(who=who, n=_amount(change.field, abs(delta)), field=word)
    if "max_before" in facts:
        shown = _("max {before} -> {after}").format(before=facts["max_before"], after=facts.get("max_after"))
    else:
        shown = f"{before} -> {after}"
    why = _said(facts.get("why"))
    return f"{text} ({shown})" + (f": {why}" if why else "")



def _count(value: object) -> int:
    """A fact that counts something (a number in the contract; anything else reads as none)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _test(who: str, facts: dict[str, object]) -> str:
    skill = _(str(facts.get("skill", "")).capitalize())
    n = _count(facts.get("successes"))
    template = _("{who} passes the {purpose}: {skill} {target}+ test") if facts.get("passed") else \
        _("{who} fails the {purpose}: {skill} {target}+ test")  # fmt: skip
    count = (_("{n} success") if n == 1 else _("{n} successes")).format(n=n)
    return template.format(who=who, purpose=facts.get("purpose", ""), skill=skill, target=facts.get("target")) + \
        f" ({count})"  # fmt: skip


def _rolled(event: Event, who: str, facts: dict[str, object]) -> str | None:
    """Who rolled what, for what: worded from the roll's key and facts (`asks`), the English `purpose` for a roll
    without one."""
    roll = event.roll
    if roll is None:
        return None
    purpose = purpose_words(facts.get("asks"), facts, die=roll.kind.value) or roll.purpose
    shown = ",".join(map(str, roll.faces))
    if roll.kind is DieKind.D3:
        shown += f" (D3: {roll.value})"
    elif roll.kind not in (DieKind.POOL, DieKind.D6):
        shown += f" = {roll.value}"
    if event.hero:
        return _("{who} rolled {faces} for {purpose}").format(who=who, faces=shown, purpose=purpose)
    return _("Rolled {faces} for {purpose}").format(faces=shown, purpose=purpose)


def _token(event: Event, who: str, facts: dict[str, object]) -> str:
    token = facts.get("token", "")
    if event.type == "token_gained":
        return _("{who} gains a {token} token").format(who=who, token=token)
    if facts.get("reason") == "full":
        return _("{who}'s Side Bag is full: no room for {token}").format(who=who, token=token)
    if facts.get("reason") == "left":
        return _("{who}'s Side Bag is full: {who} leaves the {token} token").format(who=who, token=token)
    return _with_why(_("{who} loses a {token} token").format(who=who, token=token), facts)


def _phase(facts: dict[str, object]) -> str:
    to = facts.get("to")
    if to == "town":
        text = _("The posse reaches town")
        return text + " " + _("(turned back to a Small Town)") if facts.get("turned_back") else text
    if to == "stay":
        return _("The posse stays in the {town}: a fresh Town Stay").format(town=facts.get("town_type", ""))
    return _("The Town Stay ends; on to the next Adventure")


def _daily(facts: dict[str, object]) -> str:
    if facts.get("reason") == "shuffled":
        return _("The Daily Event deck is spent: the discards are shuffled")
    if facts.get("reason") == "normal":
        return _("Just a normal day on the frontier: no effect")
    text = _("Daily Event: {name}").format(name=facts.get("name", ""))
    return f"{text}: {facts['card_text']}" if facts.get("card_text") else text


def _darkness(facts: dict[str, object]) -> str:
    if facts.get("reason") == "escaped":
        return _("The Darkness reaches the Entrance and escapes")
    template = _("The Darkness moves toward the Entrance: space {before} -> {after}") if facts.get("toward") == \
        "entrance" else _("The Darkness moves back toward Darkness Start: space {before} -> {after}")  # fmt: skip
    return _with_why(template.format(before=facts.get("before"), after=facts.get("after")), facts)


def _party(facts: dict[str, object]) -> str:
    if facts.get("reason") == "at_start":
        return _("The Hero Party marker is on Darkness Start and moves no further")
    moved = _with_why(_("The Hero Party marker moves: space {before} -> {after}").format(
        before=facts.get("before"), after=facts.get("after")), facts)  # fmt: skip
    return moved + "; " + _("Hold Back the Darkness now needs {target}+").format(target=facts.get("target"))


def _worded(event: Event, who: str, facts: dict[str, object]) -> str | None:
    """An event of a converted kind worded from its facts in the app's language; None for any other."""
    kind = event.type
    if kind == "rolled":
        return _rolled(event, who, facts)
    if not facts and kind not in ("knocked_out", "changed"):
        return None  # an older server, or a kind not converted yet: its English text
    f = facts
    if kind == "changed":
        return _changed(event, who, f)
    if kind == "test":
        return _test(who, f)
    if kind == "knocked_out":
        return _("{who} is KO'd").format(who=who)
    if kind == "grit_lost":
        return _("{who} is at Max Grit; {n} Grit is lost").format(who=who, n=f.get("count", 1))
    if kind in ("item_gained", "item_lost"):
        template = _("{who} gains {item}") if kind == "item_gained" else _("{who} loses {item}")
        return _with_why(template.format(who=who, item=f.get("item", "")), f)
    if kind in ("token_gained", "token_lost"):
        return _token(event, who, f)
    if kind == "hazard":
        return _("Travel Hazard {number}: {value} {name}").format(
            **{k: f.get(k, "") for k in ("number", "value", "name")}
        )
    if kind == "hazard_count":
        n = _count(f.get("count"))
        town = {"small": _("Small Town"), "medium": _("Medium Town"), "large": _("Large Town")}.get(
            str(f.get("size")), str(f.get("size", "")))  # fmt: skip
        template = _("{n} Travel Hazard on the road to a {town}") if n == 1 else \
            _("{n} Travel Hazards on the road to a {town}")  # fmt: skip
        return template.format(n=n, town=town)
    if kind == "hits":
        one = f.get("hits") == 1
        if f.get("hit_kind") == "horror":
            template = _("{who} takes {n} Horror Hit") if one else _("{who} takes {n} Horror Hits")
        else:
            template = _("{who} takes {n} Hit") if one else _("{who} takes {n} Hits")
        return template.format(who=who, n=f.get("hits", 0))
    if kind == "card":
        if f.get("reason") == "map_reshuffled":
            return _("The Map deck ran out: its discard pile is shuffled into a new deck")
        if f.get("reason") == "tile_discarded":
            return _("The {tile} tile does not fit: discarded").format(tile=f.get("name", ""))
        return f"{who}: {f.get('card_text') or f.get('chart', '')}"
    if kind == "visit":
        if f.get("reason") == "warrants":
            return _("{who} walks into the {location} to settle up").format(who=who, location=f.get("location", ""))
        return _("{who} visits the {location}").format(who=who, location=f.get("location", ""))
    if kind == "visit_ended":
        return _with_why(_("{who} leaves the {location}").format(who=who, location=f.get("location", "")), f)
    if kind == "purchase":
        return _("{who} buys {item} for ${price}").format(who=who, item=f.get("item", ""), price=f.get("price", 0))
    if kind == "sale":
        return _("{who} sells {n} x {item} for ${price}").format(
            who=who, n=f.get("count", 1), item=f.get("item", ""), price=f.get("price", 0)
        )
    if kind == "phase":
        return _phase(f)
    if kind == "day_begun":
        if f.get("max_days"):
            return _("Day {day} in town (of at most {n})").format(day=f.get("day"), n=f["max_days"])
        return _("Day {day} in town").format(day=f.get("day"))
    if kind == "day_ended":
        if f.get("name"):
            return _("Day {day} ends; {name} is discarded").format(day=f.get("day"), name=f["name"])
        return _("Day {day} ends").format(day=f.get("day"))
    if kind == "daily_event":
        return _daily(f)
    if kind == "lodging":
        return {"hotel": _("{who} takes a room at the Hotel"), "camp": _("{who} camps at the Camp Site"),
                "street": _("{who} cannot pay the Hotel and the Camp Site is closed: a night in the street")
                }.get(str(f.get("where")), "{who}").format(who=who)  # fmt: skip
    if kind == "location_closed":
        return _("The {location} is closed for the rest of the Stay: {why}").format(
            location=f.get("location", ""), why=f.get("why", ""))  # fmt: skip
    if kind == "turn_started":
        return _("Turn {turn} begins").format(turn=f.get("turn"))
    if kind == "darkness_held":
        if f.get("reason") == "countdown":
            return _("{value}: the Countdown holds (needs {target}+)").format(value=f.get("value"),
                                                                              target=f.get("target"))
        return _("{value} holds back the Darkness (needs {target}+)").format(
            value=f.get("value"), target=f.get("target")
        )
    if kind == "darkness_moved":
        return _darkness(f)
    if kind == "party_moved":
        return _party(f)
    if kind == "depth_event":
        if "first" in f:
            return _("Natural doubles ({first},{second}): a Depth Event; the Darkness does not move").format(
                first=f["first"], second=f.get("second"))  # fmt: skip
        return _("Depth Event {number}: {text}").format(number=f.get("number"), text=f.get("card_text", ""))
    if kind == "activated":
        figure = f.get("figure", who)
        if f.get("ends"):
            return _with_why(_("{who}'s activation ends").format(who=figure), f)
        return _("{who} activates").format(who=figure)
    return _fought(event, who, f)


def _resource_word(field: object) -> str:
    return {"fury": _("Fury"), "ki": _("Ki"), "mana": _("Mana"), "arcane_powder": _("Arcane Powder")}.get(
        str(field), str(field))


def _fought(event: Event, who: str, f: dict[str, object]) -> str | None:
    """The Adventure's fight and class kinds: Hits and kills, the Fight's end, a class's resource, Move, Spells and
    Battle Tactics."""
    kind, figure = event.type, f.get("figure", "")
    if kind == "killed":
        template = _("{figure} is killed by {who}") if event.hero else _("{figure} is killed")
        return template.format(figure=figure, who=who)
    if kind == "fight_over":
        return _("The Fight is over: no enemy is left on the board (draw Loot at the table)")
    if kind == "hit":
        reason = f.get("reason")
        if reason == "wounded":
            template = _("{figure} takes {n} Wound: {left} Health left") if f.get("count") == 1 else \
                _("{figure} takes {n} Wounds: {left} Health left")  # fmt: skip
            return template.format(figure=figure, n=f.get("count", 0), left=f.get("value", 0))
        if reason == "missed":
            return _("{figure} misses {who}").format(figure=figure, who=f.get("name") or who)
        if reason == "saved":
            return _("{who} saves every Hit from {figure}").format(figure=figure, who=f.get("name") or who)
        return _missed(who, f)
    if kind == "resource":
        if f.get("reason") == "at_max":
            return _("{who} is at Max {resource}: {n} more is lost").format(
                who=who, resource=_resource_word(f.get("name")), n=f.get("count", 0))
        if not event.changes:
            return None
        change = event.changes[0]
        before, after = int(change.before or 0), int(change.after or 0)
        template = _("{who} gains {n} {resource} ({before} → {after})") if after > before else \
            _("{who} spends {n} {resource} ({before} → {after})")  # fmt: skip
        return _with_why(template.format(who=who, n=abs(after - before), resource=_resource_word(change.field),
                                         before=before, after=after), f)
    if kind == "moved":
        reason, n = f.get("reason"), f.get("value", 0)
        if reason == "allowance":
            return _("{who} may move up to {n} spaces").format(who=who, n=n)
        if reason == "extra_die":
            return _("{who} adds a D6 to the Move: {n}").format(who=who, n=n)
        if reason == "moved":
            return _("{who} moves {n} spaces; {left} left").format(who=who, n=f.get("count", 0), left=n)
        return None
    if kind == "spell":
        if f.get("reason") == "blast":
            element = {"fire": _("Fire"), "wind": _("Wind"), "water": _("Water"), "earth": _("Earth")}.get(
                str(f.get("name")), _("Focus"))  # fmt: skip
            return _("{who} casts the Elemental Blast ({element} element): it always succeeds").format(
                who=who, element=element)  # fmt: skip
        template = _("{who} casts {spell}: {total} against {target}+, it takes effect") if f.get("passed") else \
            _("{who} fails to cast {spell}: {total} against {target}+; the Mana is wasted")  # fmt: skip
        return template.format(who=who, spell=f.get("name", ""), total=f.get("value", 0), target=f.get("target", 0))
    if kind == "tactic":
        return _("{who} uses {tactic}: resolve the card").format(who=who, tactic=f.get("name", ""))
    if kind == "revived":
        return _with_why(_("{who} is back up").format(who=who), f)
    if kind == "scavenged":
        n = _count(f.get("count"))
        if not n:
            return _("{who} finds nothing").format(who=who)
        template = _("{who} Scavenges: {n} Scavenge card") if n == 1 else _("{who} Scavenges: {n} Scavenge cards")
        return template.format(who=who, n=n)
    return _in_town(event, who, f)


def _in_town(event: Event, who: str, f: dict[str, object]) -> str | None:
    """The town's kinds: its type and destroyed Buildings, trouble, the Town Event, tokens used, a hero killed."""
    kind = event.type
    if kind == "town_type":
        return _("The posse finds a {town} (2D6 = {n})").format(town=f.get("town_type", ""), n=f.get("value", ""))
    if kind == "building_destroyed":
        return _("Building slot {n} is Destroyed").format(n=f.get("number", ""))
    if kind == "hero_removed":
        return _with_why(_("{who} is taken from the game").format(who=who), f)
    if kind == "trouble":
        reason, n, check = f.get("reason"), f.get("count", 0), f.get("value", 0)
        if reason == "automatic":
            return _("{who} has {n} Unwanted Attention markers: trouble comes a-callin'").format(who=who, n=n)
        if reason == "nobody":
            return _("{who} rolls {check} against {n} Unwanted Attention: nobody strikes").format(
                who=who, check=check, n=n)
        if reason == "attacked":
            return _("{who} rolls {check} against {n} Unwanted Attention: attacked from behind!").format(
                who=who, check=check, n=n)
        if reason == "dodged":
            return _("The would-be assassin runs off into a back alley")
        return None
    if kind == "town_event":
        if f.get("reason") == "none":
            return _("No Town Event tonight; the Town Darkness marker moves to {n}").format(n=f.get("value", ""))
        return _("Town Event: {text}").format(text=f.get("card_text") or _("entered"))
    if kind == "token_used":
        token = f.get("token", "")
        if token == "Fine Cigar":
            return _("{who} lights a Fine Cigar: Armor {n}+ until the end of the turn").format(
                who=who, n=f.get("target", ""))
        if token == "Spice":
            return _("{who} uses a Spice: D3 Damage on one of their next Hits this turn").format(who=who)
        if token == "Hatchet":
            return _("{who} throws a Hatchet: a Ranged Free Attack, Range {n}").format(who=who, n=f.get("value", ""))
        return _("{who} uses a {token} token").format(who=who, token=token)
    return _stakes(event, who, f)


def _stakes(event: Event, who: str, f: dict[str, object]) -> str | None:
    """What is won or lost: the Darkness's cards, fleeing, a price not paid, a Duel, warrants, the Devil's jackpot."""
    kind, reason = event.type, f.get("reason")
    if kind == "darkness_card":
        return _("The Darkness grows stronger: draw a Darkness card and resolve it")
    if kind == "growing_dread":
        n = _count(f.get("count"))
        if reason == "reveal":
            template = _("Reveal 1 Growing Dread card and play it now") if n == 1 else \
                _("Reveal {n} Growing Dread cards and play them now")  # fmt: skip
            return _with_why(template.format(n=n), f)
        template = _("1 Growing Dread card added to the stack ({total})") if n == 1 else \
            _("{n} Growing Dread cards added to the stack ({total})")  # fmt: skip
        return _with_why(template.format(n=n, total=f.get("value", 0)), f)

    if kind == "fled":
        return _("The Hero Party flees")
    if kind == "cannot_pay":
        return _("{who} cannot pay ${price} (has ${gold}): the Lore 6+ test it is").format(
            who=who, price=f.get("price", 0), gold=f.get("value", 0))
    if kind == "nothing_lost":
        return _("{who} has no {item} to lose").format(who=who, item=f.get("item", ""))
    if kind == "duel":
        return _("{who} calls out the escaped prisoner: a High Noon Duel").format(who=who)
    if kind == "warrants_paid":
        return _("{who} is no longer Wanted!").format(who=who)
    if kind == "jackpot":
        if reason == "bitten":
            return _("{who} is bitten by the Devil").format(who=who)
        return _("{who} wins the jackpot: the Artifact the {n} points to").format(who=who, n=f.get("value", ""))
    return _table(event, who, f)


def _ending(reason: str) -> str:
    """Why an Adventure ended (`Ending.reason`), in the player's words; "" for a reason this app does not know."""
    return {
        "darkness": _("the Darkness escapes"), "all_ko": _("every Hero is KO'd at the same time"),
        "fled": _("the Heroes ran away"), "objective": _("the objective is reached"),
        "hostages": _("every Hostage is killed"), "robbers_gave_up": _("the Robbers give up"),
        "got_away": _("the Prisoner gets away"), "bandits_defeated": _("the Bandits are defeated"),
        "captive_ko": _("the captive is KO'd"), "rescued": _("the captive gets away"),
        "hanged": _("the Prisoner is hanged"), "prisoner_killed": _("the Prisoner is killed escaping"),
        "escaped": _("the Prisoner gets away"), "marshals_killed": _("every Corrupt Marshal is dead"),
        "opponent_defeated": _("the opponent falls"), "assault_broken": _("the assault is broken"),
    }.get(reason, "")


def _cards(event: Event, who: str, f: dict[str, object]) -> str | None:
    """The Devil's Wheel, the Bounties, the Map Tiles and the Threats and Encounters the table draws."""
    kind, reason = event.type, f.get("reason")
    if kind == "wheel":
        if reason == "plays":
            return _("{who} plays the Devil's Wheel").format(who=who)
        if reason == "roll":
            return _("Devil's Wheel roll {n}: {points} points").format(n=f.get("number", ""), points=f.get("value", 0))
        pays = f.get("card_text") or (f"${f['price']}" if f.get("price") else _("entered"))
        return _("{who} scores {n}: {pays}").format(who=who, n=f.get("value", 0), pays=pays)
    if kind == "bounty_posted":
        if reason == "drawn":
            return _("Low Threat card drawn: {name}").format(name=f.get("name", ""))
        template = _("Bounty: ${gold} a {enemy}, paid to every Hero") if f.get("passed") else \
            _("Bounty: ${gold} a {enemy}, paid to its killer")  # fmt: skip
        return template.format(gold=f.get("price", 0), enemy=f.get("name", ""))
    if kind == "bounty_paid":
        if reason == "closed":
            return _("The Bounties posted in town are taken down")
        return _("Bounty on a {enemy}: ${gold} paid").format(enemy=f.get("name", ""), gold=f.get("price", 0))
    if kind == "tile_placed":
        if reason == "no_door":
            return _("No Map Tile fits: this exit is not a Door")
        text = _("{who} looks through the Door: {tile}").format(who=who, tile=f.get("name", ""))
        return text + (", " + _("a face-down Exploration Token on it") if f.get("passed") else "")
    if kind == "encounter":
        if reason == "card":
            return _("An Encounter: draw an Encounter card and resolve it")
        level = {"low": _("Low"), "high": _("High"), "epic": _("Epic")}.get(str(f.get("size")), str(f.get("size", "")))
        if f.get("name"):
            return _("Attack! {level} Threat: {name}").format(level=level, name=f["name"])
        return _("Attack! Draw a {level} Threat card and put its enemies on the board").format(level=level)
    return None


def _table(event: Event, who: str, f: dict[str, object]) -> str | None:
    """The table's own steps (opened, taken back, adjusted by hand) and the posse's shared efforts."""
    kind, n = event.type, _count(f.get("count"))
    if kind == "session_created":
        return _("Table opened for {names}").format(names=f.get("name", ""))
    if kind == "undone":
        return _("A step was taken back") if n == 1 else _("{n} steps were taken back").format(n=n)
    if kind == "adjusted":
        why = _said(f.get("why"))
        if why:  # what a player typed, as typed
            return f"{who}: {why}"
        if isinstance(f.get("count"), int) and f.get("name"):  # one value moved, named by the engine's facts
            field, count = str(f["name"]), int(f["count"])  # type: ignore[call-overload]
            amount = f"{'+' if count > 0 else '-'}{'$' if field == 'gold' else ''}{abs(count)}"
            what = _(FIELD_WORDS.get(field, field.replace("_", " ")))
            return _("{who}: {what} {amount} at the table").format(who=who, what=what, amount=amount)
        return _("{who}: adjusted at the table").format(who=who)
    if kind == "bell":
        return _("{who} rings the Sacred Bell: Cover {n}+ until the end of the turn").format(who=who,
                                                                                            n=f.get("target", ""))
    if kind in ("plague_church", "search"):
        s = _count(f.get("successes"))
        if kind == "plague_church":
            template = _("Plague Church: {n} successes; the grateful Church gives its Artifact") if f.get("passed") \
                else _("Plague Church: {n} of 5 successes; the plague is not warded off")  # fmt: skip
        else:
            template = _("Search Party: {n} successes among the helpers: the child is found and rescued") if \
                f.get("passed") else _("Search Party: {n} successes among the helpers: the child is lost for good")
        return template.format(n=s)
    if kind == "town_built":
        size = {"small": _("Small Town"), "medium": _("Medium Town"), "large": _("Large Town")}.get(
            str(f.get("size")), str(f.get("size", "")))  # fmt: skip
        return _("{size}, a {town}: {slots}; plus the Hotel and the Camp Site").format(
            size=size, town=f.get("town_type", ""), slots=f.get("name", ""))
    if kind == "town_short":
        return _("The Building pool ran out: {n} slots stay empty").format(n=n)
    if kind == "enemies_arrived":
        template = _("A Fight begins: {names}") if f.get("reason") == "fight" else _("On the board: {names}")
        text = template.format(names=f.get("name", ""))
        return text + (" " + _("(Ambush: +2 Initiative on their first turn)") if f.get("passed") else "")
    if kind == "adventure_ended":
        if f.get("reason") == "after":
            return _("Roll for Dark Stone Corruption at the table; on to Travel")
        why = _ending(str(f.get("reason", "")))
        template = _("The Adventure is won") if f.get("passed") else _("The Adventure is lost")
        return f"{template}: {why}" if why else template
    if kind in ("wheel", "bounty_posted", "bounty_paid", "tile_placed", "encounter"):
        return _cards(event, who, f)
    if kind == "nothing_to_lose":
        if f.get("reason") == "black_fang":
            return _("{who} carries no Dark Stone for the Black Fang").format(who=who)
        return _("{who} has nothing left for the Bandits to take").format(who=who)
    return _engine(event, who, f)


def _missed(who: str, f: dict[str, object]) -> str | None:
    """A hero's Hit that did nothing: a miss, a Hit with no target left, Armor, a Spice's extra Damage."""
    reason, number = f.get("reason"), f.get("number", "")
    if reason == "attack_missed":
        item = str(f.get("item", ""))
        return {"Ranged Attack": _("{who}'s Ranged Attack misses"), "Melee Attack": _("{who}'s Melee Attack misses")
                }.get(item, _("{who}'s {item} misses")).format(who=who, item=item)  # fmt: skip
    if reason == "no_target":
        return _("Hit {number} finds no target: it is gone").format(number=number)
    if reason == "armor":
        return _("{figure}'s Armor stops Hit {number}").format(figure=f.get("figure", ""), number=number)
    if reason == "spice":
        return _("Spice: Hit {number} does {n} more Damage").format(number=number, n=f.get("count", 0))
    if reason == "shuriken":
        return _("{who} throws her Shuriken").format(who=who)
    return None


def _carried() -> dict[str, str]:
    """What a carried flag means, by its `reason`, in the app's language."""
    return {
        "turned_back": _("The posse turns back: the destination is now a Small Town and Travel ends"),
        "expired": _("Blood Moon and extra Revive Tokens last until the end of this Adventure: they expire"),
        "grit_paid": _("The failed Mission's Grit penalty is paid"),
        "stay_over": _("The last Town Mission's stay-or-travel choice is over"),
        "dread_paid": _("The failed Jail Break's Growing Dread is paid"),
        "may_stay": _("The Mission was not failed: the posse may stay in this town or travel"),
        "no_town": _("The Heroes may not visit Town: the next Adventure begins directly"),
        "less_grit": _("The next Adventure begins with 1 less Grit than normal"),
        "stays": _("The posse stays in town"),
        "no_grit": _("The next Adventure begins with no Grit"),
        "army_convoy": _("Army Convoy: +{n} to Camp Site Hazard and Town Event rolls in this Town"),
        "bridge_destroyed": _("Bridge Destroyed: the Town Stay may last no more than {n} Days"),
        "dying_marshal": _("Dying Marshal: on arrival each Hero gains D3 Unwanted Attention; a double on a Location Event "
                         "chart may start a High Noon Duel with the escaped prisoner"),
        "dark_stone_convoy": _("Dark Stone Convoy: each shard sold in this Town is worth +${n}"),
        "blood_moon": _("Blood Moon: all Heroes +1 Spirit and Depth Events add a Growing Dread card, until the end of the "
                      "next Adventure"),
        "void_storm": _("Void Storm: {n} Random Buildings will be Destroyed on arrival"),
    }  # fmt: skip


def _carry(f: dict[str, object]) -> str | None:
    """A flag carried into the Town Stay or the next Adventure (FT-TRAVEL-05), by its key."""
    reason, n = str(f.get("reason", "")), _count(f.get("count"))
    if reason == "revive_tokens":
        template = _("Shadows Out of Time: the posse has 1 extra Revive Token for the next Adventure") if n == 1 \
            else _("Shadows Out of Time: the posse has {n} extra Revive Tokens for the next Adventure")  # fmt: skip
        return template.format(n=n)
    if reason == "dread_next":
        template = _("The next Adventure adds 1 Growing Dread card at its start") if n == 1 else \
            _("The next Adventure adds {n} Growing Dread cards at its start")  # fmt: skip
        return template.format(n=n)
    said = _carried().get(reason)
    return said.format(n=n) if said is not None else None


def _town_chart(f: dict[str, object]) -> str | None:
    """A town chart read (FT-DAY, FT-LOC, FT-CAMP ...): a modified roll, the entry, the Hotel's rate, the Stay's end."""
    reason, chart = f.get("reason"), f.get("chart", "")
    if reason == "modified":
        modifier = _count(f.get("number"))
        return _("{chart}: rolled {value}, {modifier} makes {total}").format(
            chart=chart, value=f.get("value", ""), modifier=f"{modifier:+d}", total=_count(f.get("value")) + modifier)
    if reason == "entry":
        text = f.get("card_text") or _("entered")
        if f.get("value") not in (None, ""):
            return _("{chart}, roll {value}: {text}").format(chart=chart, value=f["value"], text=text)

        return _("{chart}, as read at the table: {text}").format(chart=chart, text=text)
    if reason == "hotel_rate":
        return _("The Hotel's rate is now x{n}").format(n=f.get("count", ""))
    if reason == "stay_over":
        return _("The Town Stay is over: the posse must leave")
    return None


def _heroes(n: int) -> str:
    return _("1 Hero") if n == 1 else _("{n} Heroes").format(n=n)


def _started(f: dict[str, object]) -> str | None:
    """The Adventure set up (FF-SETUP-01, FT-MIS-GEN-01) and scaled (FF-SCALE-01)."""
    reason, n = f.get("reason"), _count(f.get("count"))
    if reason == "scaling":
        revive = _count(f.get("value"))
        tokens = (_("1 Revive Token") if revive == 1 else _("{n} Revive Tokens")).format(n=revive)
        level = {"low": _("Low"), "med": _("Medium"), "high": _("High")}.get(str(f.get("size")), "")
        text = f"{_heroes(n)}: " + (_("{level} Threats").format(level=level) + ", " if level else "") + tokens
        extra = _count(f.get("number"))
        return text + (" " + _("+ {n} from Shadows Out of Time").format(n=extra) if extra else "")
    title = mission_title(f.get("mission")) or str(f.get("mission", ""))
    lantern, names = f.get("figure", ""), f.get("name", "")
    if reason == "mines":
        return _("{title}: {heroes}; the decks and the 12 Exploration Tokens shuffled; {lantern} carries the Old "
                 "Lantern; the Darkness on Darkness Start (space 0), the Hero Party on the Entrance (space {space}); "
                 "the Entrance tile placed; the Heroes on its Starting Area in Initiative order: {names}").format(
            title=title, heroes=_heroes(n), lantern=lantern, space=f.get("value", ""), names=names)  # fmt: skip
    if reason == "town":
        carries = _("{lantern} carries the Old Lantern and makes the Hold Back the Darkness tests") if \
            f.get("passed") else _("{lantern} carries the Old Lantern")  # fmt: skip
        return _("{title}: {heroes} on the Town Adventure Board: {set_up}; {carries}; the Heroes keep their Damage "
                 "from the Travel and the Town Stay: {names}").format(
            title=title, heroes=_heroes(n), set_up=f.get("card_text", ""), carries=carries.format(lantern=lantern),
            names=names)  # fmt: skip
    return None


def _revealed(f: dict[str, object]) -> str:
    """A Room's Exploration Token (FF-EXPL-02..06): its Doors and Gates, Attack! or an Encounter, a Clue."""
    doors, gates = _count(f.get("count")), _count(f.get("number"))
    parts = [(_("1 Door") if doors == 1 else _("{n} Doors")).format(n=doors)]
    if gates:
        parts[0] += " " + (_("and 1 Gate") if gates == 1 else _("and {n} Gates")).format(n=gates)
    parts.append(_("Attack!") if f.get("reason") == "attack" else _("an Encounter"))
    if f.get("passed"):
        parts.append(_("a Clue"))
    return _("{tile}'s Exploration Token: {what}").format(tile=f.get("name", ""), what=", ".join(parts))


def _end_of_turn(f: dict[str, object]) -> str:
    """An End of the Turn effect (FF-TURN-04), by its key; a Mission's own effect this app does not know by name."""
    effect = {
        "get_up": _("KO'd Heroes Recover (no Fight is on)"), "countdown": _("The top Countdown counter comes off"),
        "reinforcements": _("D3 Bandits arrive (D6 with none on the board)"),
        "fuse": _("A Dynamite token burns away"), "prisoner": _("The Escaped Prisoner moves"),
        "entry_points": _("A D6 for each Enemy Entry Point"),
    }.get(str(f.get("reason")), str(f.get("name", "")))  # fmt: skip
    return _("End of the Turn: {effect}").format(effect=effect)


def _engine(event: Event, who: str, f: dict[str, object]) -> str | None:
    """The engine's own steps (a question asked and answered, a flag carried, a step skipped), a town chart, the
    Adventure's set-up and rooms, the End of the Turn, and the Town board's kinds."""
    kind, reason = event.type, f.get("reason")
    if kind == "answered":
        if "asks" in f:  # a keyed draw: what it was for from its key and facts (its `reason` is the draw's own)
            drawn = purpose_words(f["asks"], f) or str(f.get("purpose", ""))
            return _("{purpose}: {name} (drawn)").format(purpose=drawn[:1].upper() + drawn[1:], name=f.get("name", ""))
        how = {"drawn": _("drawn"), "everyone": _("the same for everyone"),
               "ahead": _("chosen for the posse at once")}.get(str(reason), _("chosen"))  # fmt: skip
        return f"{f.get('purpose', '')}: {f.get('name', '')} ({how})"
    if kind == "prompt":
        return {"roll": _("Waiting for the dice: {question}"), "choice": _("Waiting for a choice: {question}"),
                "reroll": _("Waiting: a Grit re-roll? {question}"), "card": _("Waiting for the card: {question}")
                }.get(str(reason), _("Waiting: {question}")).format(question=f.get("purpose", ""))  # fmt: skip
    if kind == "carry":
        return _carry(f)
    if kind == "skipped":
        return _("{hazard}: no other Hero to go missing").format(hazard=f.get("name", "")) if \
            reason == "no_other_hero" else None  # fmt: skip
    if kind == "town_chart":
        return _town_chart(f)
    if kind == "adventure_started":
        return _started(f)
    if kind == "token_revealed":
        return _revealed(f)
    if kind == "objective":
        return _("The second Clue: {tile} is the Objective Room. It has no exits and its Encounter or Attack is "
                 "ignored; the Heroes fight a High Threat card").format(tile=f.get("name", ""))
    if kind == "end_of_turn":
        return _end_of_turn(f)
    return board_text(event, who, f)



def event_text(event: Event, names: dict[str, str]) -> str:
    """One event in player words, in the app's language: worded from its facts for the kinds the engine reports
    as data, flags said as the game says them, and otherwise the engine's English line without rule ids."""
    name = names.get(event.hero or "", "") or (event.hero or "")
    for change in event.changes:
        if isinstance(change.after, bool) or isinstance(change.before, bool):
            words = _flag_words(name, change.field, change.after)
            if words:
                return words
    facts: dict[str, object] = {fact.name: fact.value for fact in event.facts}
    worded = _worded(event, name or _("The posse"), facts)
    if worded is not None:
        return worded
    if event.type == "changed" and event.changes and event.changes[0].field in ("mutations", "keywords"):
        kind = "Mutation" if event.changes[0].field == "mutations" else "keyword"
        gained = [str(c.after) for c in event.changes if c.after]  # a name gained: after, as for an item
        lost = [str(c.before) for c in event.changes if c.before]
        if gained:
            return f"{name} gains the {kind} {', '.join(gained)}"
        if lost:
            return f"{name} loses the {kind} {', '.join(lost)}"
    if event.type == "undone":
        return _("A step was taken back")
    return plain(event.text)
