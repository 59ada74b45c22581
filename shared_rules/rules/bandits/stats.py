"""What the Shootout AI reads about Bandits: their guns, the Record Sheet numbers the rulebooks lack, and the
Infamous Bandit Gang card in play (FT-BANDIT-01, FT-BANDIT-08, FT-BANDIT-09, FT-FAQ-07)."""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import IllegalCommand
from ...state.adventure import Gang as Gang  # the card in play lives in the Adventure's state (one home)
from ..board import Model


@dataclass(frozen=True, slots=True)
class Weapon:
    """A Ranged Attack. Shots and Damage 0 mean "as the Record Sheet says" (the sheet is not in the rulebooks)."""

    name: str
    range: int
    shots: int = 0
    damage: int = 0


BANDIT_PISTOL = Weapon("Bandit Pistols", 6)  # Range 6 per the FAQ (FT-BANDIT-01); the rest is on the Record Sheet


def bandit_rifle(brutal: bool = False) -> Weapon:
    """A Rooftop Bandit's Rifle: Range 12, Shots 2, Damage 4; Shots 3 if Brutal (FT-BANDIT-08)."""
    return Weapon("Bandit Rifle", 12, 3 if brutal else 2, 4)


@dataclass(frozen=True, slots=True)
class BanditSheet:
    """The Bandit Enemy Record Sheet numbers the AI needs. The sheet is not in the rulebooks (rules-reference (b) 7),
    so the table enters its own; `DEFAULT_SHEET` is a placeholder, not a rule."""

    move: int
    pistol: Weapon = BANDIT_PISTOL


DEFAULT_SHEET = BanditSheet(move=5)  # placeholder Move: set it from your Record Sheet


def weapon_of(bandit: Model, sheet: BanditSheet = DEFAULT_SHEET) -> Weapon:
    """A Bandit on a rooftop has a Rifle instead of his Pistols (FT-BANDIT-08)."""
    return bandit_rifle(bandit.brutal) if bandit.pos.roof else sheet.pistol


def bring_into_play(current: Gang | None, drawn: Gang) -> Gang:
    """Only one Gang card is in play at a time; while it is, every Bandit belongs to that Gang (FT-BANDIT-09)."""
    if current is not None and current != drawn:
        raise IllegalCommand(
            f"the {current.name} are already in play: only 1 Infamous Bandit Gang card at a time (discard it at the "
            "end of the Fight it was drawn for)",
            field="gang", rule="FT-BANDIT-09",
        )  # fmt: skip
    return drawn


def dynamite_range(bandit: Model, sheet: BanditSheet = DEFAULT_SHEET) -> int:
    """Gang Dynamite has the Range of the Bandit's gun: 6 with Pistols, 12 with a Rifle (FT-FAQ-07)."""
    return weapon_of(bandit, sheet).range


def gang_reward(gang: Gang | None, killed: int) -> tuple[int, int]:
    """The bonus XP and Gold a Hero gets for killing `killed` members of the Gang (FT-BANDIT-09); Bounties from the
    Frontier Outpost or Sheriff stack on top (FT-FAQ-06)."""
    if gang is None:
        return 0, 0
    return gang.xp_per_kill * killed, gang.bounty_per_kill * killed
