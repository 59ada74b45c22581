"""What a roll is for, in the player's language: the phrase a roll prompt and its `rolled` event share ("roll 1 D6
for <it>", "Ann rolled 4 for <it>"), made from the roll's key (`Prompt.asks`, the event's `asks` fact) and facts,
never from the engine's English `purpose`. A `roll_for` roll says what its dice decide as a `RollFor` key (its
`reason` fact), with whose roll it is (`name`, the content's own name) before it.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..i18n import _


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


def purpose_words(asks: object, facts: Mapping[str, object]) -> str | None:
    """What a roll of key `asks` is for, worded from its facts (a `rolled` event's "for ..."); None for a key or
    reason this app has no phrase for."""
    if asks == "roll_for":
        return roll_for(facts)
    values = _Facts(facts)
    if "skill" in values:
        values["skill"] = _(str(values["skill"]).capitalize())
    if "chart" in values:
        values["chart"] = chart_words(str(values["chart"]))
    if "size" in values:
        size = str(values["size"])
        values["town"] = {"small": _("Small Town"), "medium": _("Medium Town"), "large": _("Large Town")}.get(size, size)
    phrase = {
        "skill_test": _("{name}: {skill} {target}+ test"),
        "skill_reroll": _("{name}: {skill} {target}+ test (re-roll)"),
        "chart": _("the {chart} chart"),
        "hazard_count": _("Travel Hazards to a {town}"),
        "hazard_roll": _("Travel Hazard {number} of {count}"),
        "town_type": _("the Specialty Town type"),
        "hold_back": _("Hold Back the Darkness"),
        "move": _("Move"),
    }.get(str(asks))
    return phrase.format_map(values) if phrase is not None else None
