"""What happened in the last step, for the table: the result first, its text, and what to do on the physical board.

The app keeps the numbers; the board keeps markers, tokens and cards. After a hazard the players need to know what
to take or put back, so each event that moved something with a physical counterpart becomes one instruction.
"""

from __future__ import annotations

from collections.abc import Iterable

from shared_rules import Event

from .amounts import FIELD_WORDS

# hero values kept with markers or tokens on the table: (one, many) names of the marker
MARKERS = {
    "wounds": ("Wound marker", "Wound markers"), "sanity_damage": ("Sanity Damage marker", "Sanity Damage markers"),
    "corruption": ("Corruption Point", "Corruption Points"), "dark_stone": ("Dark Stone shard", "Dark Stone shards"),
    "grit": ("Grit token", "Grit tokens"), "unwanted_attention": ("Unwanted Attention marker",
                                                                 "Unwanted Attention markers"),
}  # fmt: skip
SHEET = ("health_mod", "sanity_mod", "max_grit", "health_base", "sanity_base", "defense", "willpower", "level")


def _count(n: int, names: tuple[str, str]) -> str:
    return f"{n} {names[0] if n == 1 else names[1]}"


def table_todo(events: Iterable[Event], names: dict[str, str]) -> tuple[str, ...]:
    """One instruction per change the physical table must make, in the order they happened."""
    todo: list[str] = []
    for event in events:
        who = names.get(event.hero or "", "")
        if event.type == "changed":
            for change in event.changes:
                before, after = change.before, change.after
                if isinstance(before, bool) or isinstance(after, bool):
                    if change.field == "bag_torn" and after:
                        todo.append(f"{who}: the Side Bag holds 3 tokens until it is repaired")
                    continue
                if isinstance(before, int) and isinstance(after, int):
                    delta = after - before
                    if change.field in MARKERS and delta:
                        marker = MARKERS[change.field]
                        todo.append(f"Give {who} {_count(delta, marker)}" if delta > 0
                                    else f"Take {_count(-delta, marker)} from {who}")
                    elif change.field in SHEET and delta:
                        todo.append(f"{who}: {FIELD_WORDS.get(change.field, change.field)} "
                                    f"{'+' if delta > 0 else ''}{delta} on the Hero sheet")
                elif change.field == "mutations" and isinstance(after, (tuple, list)):
                    gained = [m for m in after if m not in (before if isinstance(before, (tuple, list)) else ())]
                    todo += [f"{who}: take the Mutation card {m}" for m in gained]
        elif event.type == "item_lost":
            todo.append(f"{who}: discard the {event.changes[0].before if event.changes else 'item'} card")
        elif event.type == "item_gained":
            todo.append(f"{who}: take the {event.changes[0].after if event.changes else 'item'} card")
        elif event.type == "token_lost" and event.changes:
            todo.append(f"Remove a {event.changes[0].before} token from {who}'s Side Bag")
        elif event.type == "token_gained" and event.changes:
            todo.append(f"Put a {event.changes[0].after} token in {who}'s Side Bag")
        elif event.type == "building_destroyed":
            todo.append(event.text.replace(" is Destroyed for this Town Stay", ": flip it to its destroyed side"))
        elif event.type == "town_built":
            todo.append("Place the Building tokens in their numbered slots: " + event.text.split(": ", 1)[-1])
    return tuple(todo)
