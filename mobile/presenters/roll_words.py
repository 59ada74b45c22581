"""What a roll or a draw is for, in the player's language: the phrase a roll prompt and its `rolled` event share
("roll 1 D6 for <it>", "Ann rolled 4 for <it>"), and a keyed draw's `answered` event ("<it>: Ann (drawn)"), made
from the key (`Prompt.asks`, the event's `asks` fact) and facts, never from the engine's English `purpose`. A
`roll_for` roll says what its dice decide as a `RollFor` key (its `reason` fact), with whose roll it is (`name`,
the content's own name) before it; the Adventure's, the Town board's, the Bandits' and the Missions' keys say it
from their facts, a `reason` (a deck card's `chart`) wording it more closely. The prompts' words (asking.py) take
the To Hit and save helpers from here; the amounts come from amounts.py.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..i18n import _
from .amounts import rolled_amount


class _Facts(dict[str, object]):
    """The values a phrase is filled with; a fact the roll lacks reads as nothing rather than failing."""

    def __missing__(self, key: str) -> str:
        return ""


def _rolls() -> dict[str, str]:
    """Every `RollFor` key's phrase (what the dice decide), in the language in use."""
    return {
        # the road: what a Travel Hazard gives or takes
        "wounds": _("Wounds"),
        "sanity_damage": _("Sanity Damage"),
        "heal": _("Heal Wounds/Sanity"),
        "heal_sanity": _("Heal Sanity"),
        "grit": _("Grit recovered"),
        "xp": _("D6 x {count} XP"),
        "xp_lost": _("XP lost (D6 x {count})"),
        "gold": _("D6 x ${count}"),
        "gold_lost": _("D6 x ${count} lost"),
        "price": _("the price (D6 x ${count})"),
        "dark_stone": _("Dark Stone"),
        "dark_stone_lost": _("Dark Stone lost"),
        "health_lost": _("Health lost permanently"),
        "corruption_hits": _("Corruption Hits"),
        "corruption_plus_one": _("D6+1 Corruption Points"),
        "corruption_removed": _("Corruption Points removed"),
        "willpower_saves": _("Willpower {target}+ saves"),
        "unwanted_attention": _("Unwanted Attention"),
        "bandits_defeated": _("Bandits defeated"),
        "found": _("what you find"),
        "madness_check": _("1-3 means a roll on the Madness chart"),
        "elixir": _("is one elixir worthwhile? (6: a Tonic token)"),
        "stranger": _("who is the stranger?"),
        "per_dark_stone": _("a D6 per Dark Stone carried (shards first, then Items)"),
        "per_corruption": _("a D6 per Corruption Point and Mutation"),
        "per_hourglass_item": _("a D6 per Item with an hourglass icon"),
        "per_token": _("a D6 per Side Bag Token"),
        "per_clothing": _("a D6 per Clothing Item"),
        # the town and the Town Stay
        "location_event": _("the {location} Location Event Chart"),
        "camp_site_hazard": _("the Camp Site Hazard chart"),
        "town_event": _("the Town Event Chart"),
        "town_daily_event": _("the {town_type}'s Daily Event Chart"),
        "town_darkness": _("the Town Darkness check (marker on {value})"),
        "trouble": _("Unwanted Attention: attacked on {count} or less?"),
        "shot_in_the_back": _("Shot in the back: D6 x Hero Level {count} Wounds"),
        "bounty": _("the escaped prisoner's bounty: D6 x ${count}"),
        "devils_wheel": _("the Devil's Wheel, roll {number} of {count}"),
        "jackpot": _("the Devil's Head jackpot"),
        "room_jackpot": _("the room's jackpot: D6 x ${count}"),
    }


def known_rolls() -> frozenset[str]:
    """The `RollFor` keys this app words (a test holds it to every key the engine has)."""
    return frozenset(_rolls())


def chart_words(chart: str) -> str:
    """A chart's name in the language in use (the pack's chart ids: injury, madness, gear ...)."""
    charts = {"injury": _("Injury"), "madness": _("Madness"), "gear": _("Gear"), "artifact": _("Artifact"),
              "world_artifact": _("World Artifact"), "scavenge": _("Scavenge"), "devils_wheel": _("Gambling Hall"),
              "daily_event": _("Daily Event")}  # fmt: skip
    return charts.get(chart, chart.replace("_", " "))


def roll_for(facts: Mapping[str, object]) -> str | None:
    """What a `roll_for` roll is for: its `reason`'s phrase, after whose roll it is (`name`); None for a reason
    this app does not know (a newer server: the engine's English then)."""
    phrase = _rolls().get(str(facts.get("reason", "")))
    if phrase is None:
        return None
    what = phrase.format_map(_Facts(facts))
    name = facts.get("name")
    return _("{name}: {what}").format(name=name, what=what) if name else what


def attack_words(facts: Mapping[str, object]) -> str:
    """What a To Hit roll is for, as a prompt says it: the weapon by its name, else a Melee or a Ranged Attack."""
    if facts.get("item"):
        return str(facts["item"])
    return {"melee": _("a Melee Attack"), "ranged": _("a Ranged Attack")}.get(str(facts.get("reason")),
                                                                               _("an attack"))  # fmt: skip


def _attack_name(facts: Mapping[str, object]) -> str:
    """The same without an article, as the log says it after whose attack it is: "Oni's attack on Ann"."""
    if facts.get("item"):
        return str(facts["item"])
    return {"melee": _("Melee Attack"), "ranged": _("Ranged Attack")}.get(str(facts.get("reason")), _("attack"))


def save_words(facts: Mapping[str, object]) -> str:
    """The save rolled: Defense, Willpower, Cover or Armor, and what gives it (a Fine Cigar)."""
    reason = str(facts.get("reason", ""))
    word = {"defense": _("Defense"), "willpower": _("Willpower"), "cover": _("Cover"),
            "armor": _("Armor")}.get(reason, reason)  # fmt: skip
    return f"{word} ({facts['item']})" if facts.get("item") else word


def _purposes() -> dict[str, str]:
    """Every roll and draw key's phrase (what the dice or the draw are for), in the language in use."""
    return {
        # the engine's own and the road's rolls
        "skill_test": _("{name}: {skill} {target}+ test"),
        "skill_reroll": _("{name}: {skill} {target}+ test (re-roll)"),
        "chart": _("the {chart} chart"),
        "hazard_count": _("Travel Hazards to a {town}"),
        "hazard_roll": _("Travel Hazard {number} of {count}"),
        "town_type": _("the Specialty Town type"),
        "hold_back": _("Hold Back the Darkness ({target}+)"),
        "move": _("Move"),
        # draws: the road, the town, the Town Stay, the Adventure
        "random_hero": _("a Random Hero"),
        "building_token": _("the Building token for slot {number}"),
        "daily_event_card": _("the Daily Event card"),
        "threat_card": _("a {level} Threat card"),
        "random_building": _("a Random Building, Destroyed for this Town Stay"),
        "wheel_die": _("where die {number} (a {value}) lies"),
        # the Adventure, the Town board, the Bandits, the Missions (a `reason` may word it more closely: `_kinds`)
        "to_hit": _("{attack} on {name}: To Hit {target}+"),
        "damage": _("the Damage of Hit {number} on {name}"),
        "save": _("{save} {target}+ saves{against}"),
        "casting_roll": _("Casting Roll for {name} ({target}+)"),
        "gain": _("{amount} gained"),
        "loss": _("{amount} lost"),
        "how_many": _("how many {name}"),
        "scavenge": _("Scavenge {name}: each 6 finds something"),
        "doors": _("which of the {count} exits of {name} are Doors"),
        "deck_card": _("a card"),
        "target_hero": _("{figure}'s target (a Random Hero)"),
        "bandit_roll": _("{figure}'s roll"),
        "roof_fall": _("{name} falls from the rooftop on 1-3"),
        "building_roll": _("a Random Building"),
    }


# the keys whose phrase says whose roll it is when an Enemy, a Bandit or a figure in Cover rolls (the `figure` fact)
_BY_FIGURE = frozenset({"to_hit", "save"})


def _by_figure() -> dict[str, str]:
    return {
        "to_hit": _("{figure}'s {attack} on {name}: To Hit {target}+"),
        "save": _("{figure}'s {save} {target}+ saves{against}"),
    }


def _kinds() -> dict[tuple[str, str], str]:
    """A key's phrase for one `reason` (or a deck card's `chart`); a Mission's rolls and draws have only these."""
    return {
        ("move", "extra_die"): _("an extra Move die"),
        ("damage", "spice"): _("the Spice's extra Damage on Hit {number} ({name})"),
        ("casting_roll", "extra_die"): _("Casting Roll for {name} ({target}+): an extra Mana die"),
        ("how_many", "enemies"): _("how many {name} come"),
        ("how_many", "horror_hits"): _("{name}: Horror Hits"),
        ("deck_card", "scavenge"): _("a Scavenge card"),
        ("deck_card", "map"): _("a Map card"),
        ("deck_card", "exploration"): _("an Exploration Token"),
        ("target_hero", "melee"): _("{figure}'s Melee target (a Random adjacent Hero)"),
        ("target_hero", "rooftop"): _("{figure}'s Melee target (a Random Hero on its rooftop)"),
        ("target_hero", "in_sight"): _("{figure}'s target (a Random Hero in Range and sight)"),
        ("target_hero", "in_sight_fewest"): _("{figure}'s target (a Random Hero in Range and sight, fewest Shootout "
                                              "markers)"),
        ("target_hero", "fewest_markers"): _("{figure}'s target (a Random Hero with the fewest Shootout markers)"),
        ("target_hero", "new_target"): _("{figure}'s new target (a Random Hero in Range and sight, fewest Shootout "
                                         "markers)"),
        ("target_hero", "not_targeted"): _("{figure}'s target (a Hero in Range and sight, not yet targeted first)"),
        ("target_hero", "townsfolk"): _("{figure}'s target (a Random Hero; the Townsfolk count as one)"),
        ("target_hero", "ambush"): _("the Hero the Bandits ambush (a Random Hero)"),
        ("bandit_roll", "retreat"): _("Retreat roll for {figure} (4+ retreats)"),
        ("bandit_roll", "cover"): _("Cover roll for {figure} (1-3 takes Cover)"),
        ("roof_fall", "falls"): _("{name} falls from the rooftop on 1-3"),
        ("roof_fall", "wounds"): _("Wounds for {name}'s fall (ignoring Defense)"),
        ("building_roll", "start"): _("Random Building: {name}'s starting Building"),
        ("building_roll", "start_reroll"): _("Random Building: {name}'s starting Building (re-roll a {number})"),
        ("building_roll", "townsfolk"): _("Random Building: Townsfolk {number}'s Building"),
        ("building_roll", "rooftop"): _("Random Building: the rooftop {name} {number} climbs"),
        ("mission_roll", "mission_table"): _("the Town Mission"),
        ("mission_roll", "posse_mission"): _("another Town Mission for the posse (re-rolled until 1-5)"),
        ("mission_roll", "bandit_enters"): _("where Bandit {number} of {count} enters"),
        ("mission_roll", "reinforcements"): _("how many Bandits arrive"),
        ("mission_roll", "robbers"): _("how many new Bank Robbers come out"),
        ("mission_roll", "rooftop_bandits"): _("Blood Spatter: how many Bandits climb Random Rooftops"),
        ("mission_roll", "robber_runs"): _("{figure} runs for Entry {letter}"),
        ("mission_roll", "prisoner_runs"): _("the Escaped Prisoner runs"),
        ("mission_roll", "prisoner_rides"): _("the Prisoner rides for Entry {letter}"),
        ("mission_roll", "seen"): _("being seen (1-2 Alerts the Marshals)"),
        ("mission_roll", "rope_shot"): _("the Shot at the rope: To Hit {target}+"),
        ("mission_roll", "rope_damage"): _("the Damage of Hit {number} on the rope"),
        ("mission_roll", "initiative"): _("Initiative this turn (+D6)"),
        ("mission_roll", "opponent_initiative"): _("the opponent's Initiative this turn (+D6)"),
        ("mission_roll", "townsfolk_indoors"): _("the Townsfolk in the Buildings"),
        ("mission_roll", "townsfolk_street"): _("the Townsfolk in the Street"),
        ("mission_roll", "enemies_at_start"): _("Entry Point {letter}: Enemies at the start on 1-{number}"),
        ("mission_roll", "entry_point"): _("Entry Point {letter}: 1-{number} succeeds"),
        ("mission_draw", "escape_exit"): _("{figure}'s Escape Exit (a Random Exit)"),
    }  # fmt: skip


def known_purposes() -> frozenset[str]:
    """The roll and draw keys this app words in a `rolled` or `answered` event (a test holds it to every key the
    engine rolls or draws with); `roll_for` and the Missions' keys through their reasons."""
    return frozenset(_purposes()) | {"roll_for", "mission_roll", "mission_draw"}


def known_kinds() -> frozenset[tuple[str, str]]:
    """The (key, reason) pairs worded more closely than their key (a test holds it to the reasons docs/api.md
    lists)."""
    return frozenset(_kinds())


def purpose_words(asks: object, facts: Mapping[str, object], *, die: str = "") -> str | None:
    """What a roll or draw of key `asks` is for, worded from its facts (a `rolled` event's "for ...", an `answered`
    event's draw); `die` is the roll's (a gain's "D3 Fury"). None for a key or a Mission's reason this app has no
    phrase for (a newer server: the engine's English then)."""
    key = str(asks)
    if key == "roll_for":
        words = roll_for(facts)
    else:
        kind = facts.get("reason", facts.get("chart"))
        phrase = _kinds().get((key, str(kind))) if kind is not None else None
        if phrase is None and key not in ("mission_roll", "mission_draw"):
            phrase = (_by_figure() if key in _BY_FIGURE and facts.get("figure") else _purposes()).get(key)
        words = phrase.format_map(_values(key, facts, die)) if phrase is not None else None
    if words is not None and facts.get("reroll") is True:
        return _("{what} (re-roll)").format(what=words)
    return words


def _values(key: str, facts: Mapping[str, object], die: str) -> _Facts:
    """The facts a phrase is filled with, each in the language in use."""
    values = _Facts(facts)
    if "skill" in values:
        values["skill"] = _(str(values["skill"]).capitalize())
    if "chart" in values:
        values["chart"] = chart_words(str(values["chart"]))
    if "size" in values:
        size = str(values["size"])
        values["town"] = {"small": _("Small Town"), "medium": _("Medium Town"), "large": _("Large Town")}.get(size, size)
        values["level"] = {"low": _("Low"), "high": _("High"), "epic": _("Epic")}.get(size, size)
    if key == "to_hit":
        values["attack"] = _attack_name(facts)
    elif key == "save":
        values["save"] = save_words(facts)
        values["against"] = _(" against {name}").format(name=facts["name"]) if facts.get("name") else ""
    elif key in ("gain", "loss"):
        values["amount"] = rolled_amount(str(facts.get("reason", "")), facts.get("count"), die or "d6")
    if str(facts.get("where", "")).startswith("entry:"):
        values["letter"] = str(facts["where"])[6:]
    return values
