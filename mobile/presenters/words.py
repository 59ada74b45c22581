"""Player wording: what the engine and the network say, turned into the game's words.

No rule ids, field paths, version numbers, raw booleans or exception text reach a player; the rule id stays
available behind a "why?" toggle (`rule` on the view).
"""

from __future__ import annotations

import re

from shared_rules import Event
from shared_rules.state import SKILLS

FIELD_WORDS = {
    "xp": "XP", "gold": "Gold", "wounds": "Wounds", "sanity_damage": "Sanity Damage", "grit": "Grit",
    "max_grit": "Max Grit", "corruption": "Corruption", "dark_stone": "Dark Stone", "health_mod": "Max Health",
    "sanity_mod": "Max Sanity", "unwanted_attention": "Unwanted Attention", "wanted": "Wanted", "level": "Level",
    "defense": "Defense", "willpower": "Willpower", "health_base": "Base Health", "sanity_base": "Base Sanity",
} | {skill: skill.capitalize() for skill in SKILLS}  # fmt: skip

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


def event_text(event: Event, names: dict[str, str]) -> str:
    """One event in player words: flags and lists said as the game says them, rule ids and versions dropped."""
    name = names.get(event.hero or "", "")
    for change in event.changes:
        if isinstance(change.after, bool) or isinstance(change.before, bool):
            words = _flag_words(name, change.field, change.after)
            if words:
                return words
    if event.type == "changed" and event.changes and event.changes[0].field == "skills":
        why = re.search(r"\(([a-z]+) (\d+)\)\s*$", event.text)
        if why:
            return f"{name}: {why.group(1).capitalize()} is now {why.group(2)}"
    if event.type == "changed" and event.changes and event.changes[0].field in ("mutations", "keywords"):
        field = event.changes[0].field
        before, after = event.changes[0].before, event.changes[0].after
        had: tuple[object, ...] = tuple(before) if isinstance(before, (tuple, list)) else ()
        has: tuple[object, ...] = tuple(after) if isinstance(after, (tuple, list)) else ()
        gained = [str(x) for x in has if x not in had]
        lost = [str(x) for x in had if x not in has]
        kind = "Mutation" if field == "mutations" else "keyword"
        if gained:
            return f"{name} gains the {kind} {', '.join(gained)}"
        if lost:
            return f"{name} loses the {kind} {', '.join(lost)}"
    if event.type == "undone":
        return "A step was taken back"
    return plain(event.text)
