"""A hero value and an amount of it in the player's language ("1 Grit", "D6 x $50", "D3 Fury"): shared by the
prompts' words (asking.py), what a roll is for (roll_words.py) and the log (words.py), which import it and not
one another, so no import goes round in a circle.
"""

from __future__ import annotations

from shared_rules.prompts import Amount
from shared_rules.state import SKILLS

from ..i18n import _

FIELD_WORDS = {
    "xp": "XP", "gold": "Gold", "wounds": "Wounds", "sanity_damage": "Sanity Damage", "grit": "Grit",
    "max_grit": "Max Grit", "corruption": "Corruption", "dark_stone": "Dark Stone", "health_mod": "Max Health",
    "sanity_mod": "Max Sanity", "unwanted_attention": "Unwanted Attention", "wanted": "Wanted", "level": "Level",
    "defense": "Defense", "willpower": "Willpower", "health_base": "Base Health", "sanity_base": "Base Sanity",
} | {skill: skill.capitalize() for skill in SKILLS}  # fmt: skip
"""A hero value's name (English: `_()` translates it where it is shown)."""


def field_words(field: str) -> str:
    """A hero value an amount counts, in the language in use: "Mana", "Grit", "Dark Stone"."""
    words = {"mana": _("Mana"), "arcane_powder": _("Arcane Powder"), "fury": _("Fury"), "ki": _("Ki"),
             "move": _("Move"), "revive_token": _("Revive Token"), "injury": _("Injury"),
             "health_mod": _("Health"), "sanity_mod": _("Sanity"), "sanity_damage": _("Sanity")}  # fmt: skip
    return words.get(field) or _(FIELD_WORDS.get(field, field.replace("_", " ")))


def amount_words(amount: Amount, names: dict[str, object]) -> str:
    """One cost or gain in words: "$50", "D6 x $50", "1 Grit", "D3 Dark Stone", an Item by its name."""
    if amount.field in ("item", "token"):
        return str(names.get(amount.field) or amount.name)
    n = abs(amount.amount)
    count = f"${n}" if amount.field == "gold" else str(n)
    if amount.dice:
        die = amount.dice.upper()
        count = die if n == 1 and amount.field != "gold" else f"{die} x {count}"
    return count if amount.field == "gold" else f"{count} {field_words(amount.field)}"


def rolled_amount(field: str, times: object, die: str) -> str:
    """How much a gain or loss roll of `die` gives of a hero value (`field`, times `times`): "D6 x $50",
    "D3 Fury"; a Heal (`health`) is the Health it gives back: "D3 Health"."""
    if field == "health":
        return f"{die.upper()} {_('Health')}"
    count = times if isinstance(times, int) and not isinstance(times, bool) else 1
    return amount_words(Amount(field, count, dice=die), {})
