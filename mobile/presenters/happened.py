"""What happened in the last step, for the table: the result first, its text, and what to do on the physical board.

The app keeps the numbers; the board keeps markers, tokens and cards. After a hazard the players need to know what
to take or put back, so each event that moved something with a physical counterpart becomes one instruction.
"""

from __future__ import annotations

from collections.abc import Iterable

from shared_rules import Event

from ..i18n import _
from .amounts import FIELD_WORDS

SHEET = ("health_mod", "sanity_mod", "max_grit", "health_base", "sanity_base", "defense", "willpower", "level")


def _markers(field: str, n: int) -> str | None:
    """`n` of the marker or token a hero value is kept with on the table ("3 Wound markers"); None: no marker."""
    words = {
        "wounds": (_("{n} Wound marker") if n == 1 else _("{n} Wound markers")),
        "sanity_damage": (_("{n} Sanity Damage marker") if n == 1 else _("{n} Sanity Damage markers")),
        "corruption": (_("{n} Corruption Point") if n == 1 else _("{n} Corruption Points")),
        "dark_stone": (_("{n} Dark Stone shard") if n == 1 else _("{n} Dark Stone shards")),
        "grit": (_("{n} Grit token") if n == 1 else _("{n} Grit tokens")),
        "unwanted_attention": (_("{n} Unwanted Attention marker") if n == 1 else
                               _("{n} Unwanted Attention markers")),
    }.get(field)
    return words.format(n=n) if words is not None else None


def table_todo(events: Iterable[Event], names: dict[str, str]) -> tuple[str, ...]:
    """One instruction per change the physical table must make, in the order they happened."""
    todo: list[str] = []
    for event in events:
        who = names.get(event.hero or "", "")
        facts = {fact.name: fact.value for fact in event.facts}
        if event.type == "changed":
            for change in event.changes:
                before, after = change.before, change.after
                if isinstance(before, bool) or isinstance(after, bool):
                    if change.field == "bag_torn" and after:
                        todo.append(_("{who}: the Side Bag holds 3 tokens until it is repaired").format(who=who))
                    continue
                if isinstance(before, int) and isinstance(after, int):
                    delta = after - before
                    marker = _markers(change.field, abs(delta)) if delta else None
                    if marker is not None:
                        todo.append(_("Give {who} {markers}").format(who=who, markers=marker) if delta > 0
                                    else _("Take {markers} from {who}").format(who=who, markers=marker))
                    elif change.field in SHEET and delta:
                        todo.append(_("{who}: {value} {delta} on the Hero sheet").format(
                            who=who, value=_(FIELD_WORDS.get(change.field, change.field)),
                            delta=f"{'+' if delta > 0 else ''}{delta}"))
                elif change.field == "mutations" and isinstance(after, (tuple, list)):
                    gained = [m for m in after if m not in (before if isinstance(before, (tuple, list)) else ())]
                    todo += [_("{who}: take the Mutation card {name}").format(who=who, name=m) for m in gained]
        elif event.type == "item_lost":
            item = event.changes[0].before if event.changes else ""
            todo.append(_("{who}: discard the {item} card").format(who=who, item=item) if item else
                        _("{who}: discard the item card").format(who=who))
        elif event.type == "item_gained":
            item = event.changes[0].after if event.changes else ""
            todo.append(_("{who}: take the {item} card").format(who=who, item=item) if item else
                        _("{who}: take the item card").format(who=who))
        elif event.type == "token_lost" and event.changes:
            todo.append(_("Remove a {token} token from {who}'s Side Bag").format(token=event.changes[0].before,
                                                                              who=who))
        elif event.type == "token_gained" and event.changes:
            todo.append(_("Put a {token} token in {who}'s Side Bag").format(token=event.changes[0].after, who=who))
        elif event.type == "building_destroyed" and "number" in facts:
            todo.append(_("Building slot {n}: flip it to its destroyed side").format(n=facts["number"]))
        elif event.type == "town_built" and "name" in facts:
            todo.append(_("Place the Building tokens in their numbered slots: {slots}").format(slots=facts["name"]))
    return tuple(todo)
