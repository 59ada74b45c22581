"""Commands: one small value per thing a table can ask of the engine. Dice typed in at the table ride along as `dice`.

`dice` on any command is a queue: each entry holds the faces of one roll the rules ask for next, in order;
a D36 may be given as [tens, ones] or as the number (35). What the queue does not cover is rolled by the
session RNG (dice option "server") or asked for with a roll prompt (dice option "table").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, TypeVar

from .state.stay import DieLie

Faces = tuple[int, ...]
_C = TypeVar("_C", bound="type[Command]")


@dataclass(frozen=True, slots=True, kw_only=True)
class Command:
    """What every command shares: its `type` (the JSON discriminator) and the dice the table typed in for it."""

    type: ClassVar[str] = ""
    dice: tuple[Faces, ...] = ()


COMMAND_TYPES: dict[str, type[Command]] = {}  # every command by its `type`, filled by @command
ANSWERS: frozenset[str] = frozenset({"roll", "choose", "reroll", "enter_card"})  # commands that answer a prompt


def command(cls: _C) -> _C:
    """Register a command class under its `type`, so the codec, the engine and the API documents know it."""
    if not cls.type or cls.type in COMMAND_TYPES:
        raise TypeError(f"{cls.__name__}: a command needs a type of its own, not {cls.type!r}")
    COMMAND_TYPES[cls.type] = cls
    return cls


@dataclass(frozen=True, slots=True)
class Effect:
    """A change the physical game made (a card read at the table) or a manual correction, applied by the rules.

    ops: change (field += amount, kept in bounds), set (field = amount, refused out of bounds), add_item,
    remove_item, add_token, remove_token, add_mutation, remove_mutation, add_keyword, remove_keyword,
    tear_bag, repair_bag.
    """

    op: str
    field: str = ""
    amount: int = 0
    name: str = ""
    tags: tuple[str, ...] = ()
    hourglass: int = 0
    dark_stone_upgrades: int = 0


@command
@dataclass(frozen=True, slots=True)
class ChooseTownSize(Command):
    """After an Adventure, pick Small, Medium or Large; the hazard count is rolled at once (FT-TRAVEL-01/02)."""

    type: ClassVar[str] = "choose_town_size"
    size: str


@command
@dataclass(frozen=True, slots=True)
class RollHazard(Command):
    """Roll the next Travel Hazard on the D36 chart and resolve it (FT-TRAVEL-03)."""

    type: ClassVar[str] = "roll_hazard"


@command
@dataclass(frozen=True, slots=True)
class Arrive(Command):
    """Reach town: roll its type, build it, destroy slots, gain Unwanted Attention (FT-TRAVEL-04, FT-TOWN, FT-UA-01).

    `destroyed_slots` adds Buildings destroyed from the start of the Stay for reasons the players give (a failed
    Mission, a card); Void Storms are counted by the engine.
    """

    type: ClassVar[str] = "arrive"
    destroyed_slots: int = 0




# ---- stay ----
@dataclass(frozen=True, slots=True)
class BountyTarget:
    """An Enemy a Bounty covers, as the card or chart shows it (FT-BOUNTY-01/02).

    From a Low Threat card give its printed `health` (the Bounty is $10 x Health, A19) and whether its XP is
    variable (`all_heroes`: every Hero collects); from the Outpost chart or the Sheriff's card give the `gold`.
    """

    enemy: str
    health: int = 0
    gold: int = 0
    all_heroes: bool = False


@command
@dataclass(frozen=True, slots=True)
class StartDay(Command):
    """Begin the next Day in town: draw and read the Daily Event (FT-DAY-01/02), then each hero chooses the Hotel or
    the Camp Site (its hazards rolled, Army Convoy +1, FT-TRAVEL-D54). Bridge Destroyed allows 2 Days (FT-TRAVEL-D45)."""

    type: ClassVar[str] = "start_day"


@command
@dataclass(frozen=True, slots=True)
class VisitLocation(Command):
    """A hero visits one open Location today (one visit a Day): its 2D6 Location Event Chart is rolled, a rolled 7
    brings a trouble check with Unwanted Attention (FT-UA-04/05), a double lets a hero call out the Dying Marshal's
    prisoner (FT-TRAVEL-D62). Outlaw/Law restrictions read Wanted! as Outlaw (FT-WANTED-03)."""

    type: ClassVar[str] = "visit_location"
    hero: str
    location: str


@command
@dataclass(frozen=True, slots=True)
class EndVisit(Command):
    """The hero leaves the Location; a Saloon or Gambling Hall visit that gained any Gold gives 1 Unwanted
    Attention (FT-UA-02)."""

    type: ClassVar[str] = "end_visit"
    hero: str


@command
@dataclass(frozen=True, slots=True)
class Buy(Command):
    """Buy one thing where the hero is visiting: a Side Bag token (FT-BAG, within capacity FF-HERO-08), an item or a
    service. Prices come from the content pack; without one, give the card's `price` (and for an item its `tags`,
    for a service its `effects`)."""

    type: ClassVar[str] = "buy"
    hero: str
    ware: str
    price: int | None = None
    kind: str = ""  # token | item | service, when the pack does not list the ware
    tags: tuple[str, ...] = ()
    effects: tuple[Effect, ...] = ()


@command
@dataclass(frozen=True, slots=True)
class Sell(Command):
    """Sell where the hero is visiting: Dark Stone shards (`ware` "Dark Stone"; +$25 each with the Dark Stone Convoy,
    FT-TRAVEL-D24), an item (by id or name) or a token. `price` is the card's price each when the pack lists none."""

    type: ClassVar[str] = "sell"
    hero: str
    ware: str
    count: int = 1
    price: int | None = None


@command
@dataclass(frozen=True, slots=True)
class PayOffWarrants(Command):
    """A Wanted! hero visits the Sheriff's Office to Pay Off Their Warrants: Wanted! and Most Wanted! end, and with
    them the Outlaw keyword they gave (FT-WANTED-02/03, A17). `price` is the card's when the pack has none."""

    type: ClassVar[str] = "pay_off_warrants"
    hero: str
    price: int | None = None


@command
@dataclass(frozen=True, slots=True)
class SetBounty(Command):
    """Post a Bounty: at the Frontier Outpost by its chart (`method` "chart", give the `gold`) or a Low Threat card
    ("threat_card": $10 x each Enemy's Health; variable XP pays every Hero, FT-BOUNTY-01); at the Sheriff's Office
    the Sheriff's Bounty ("sheriff", FT-BOUNTY-02). With a pack deck of Low Threat cards, leave `enemies` empty to
    draw one."""

    type: ClassVar[str] = "set_bounty"
    hero: str
    method: str = "threat_card"
    enemies: tuple[BountyTarget, ...] = ()


@command
@dataclass(frozen=True, slots=True)
class PlayDevilsWheel(Command):
    """At the Gambling Hall, play a round of the Devil's Wheel: the first roll of three dice (FT-WHEEL-01/02).
    `lies` says where each die landed (off, card_edge, head_edge, on_cards, on_head); without it the table is asked
    (or, with server dice, the landing is drawn at random). `stake` is the card's when the pack has none."""

    type: ClassVar[str] = "play_devils_wheel"
    hero: str
    stake: int | None = None
    lies: tuple[DieLie, ...] = ()


@command
@dataclass(frozen=True, slots=True)
class WheelRoll(Command):
    """Pick up some Devil's Wheel dice (their indices) and roll them again: at most three rolls a round, never a
    Grit re-roll (FT-WHEEL-02). `lies` gives where all three dice lie afterwards, moved ones included; the third
    roll scores the round."""

    type: ClassVar[str] = "wheel_roll"
    hero: str
    pick_up: tuple[int, ...]
    lies: tuple[DieLie, ...] = ()


@command
@dataclass(frozen=True, slots=True)
class WheelStop(Command):
    """Stop rolling and score the round: the payout from the Gambling Hall chart, then a Devil's Head jackpot try
    for each die on the Head (FT-WHEEL-03..05)."""

    type: ClassVar[str] = "wheel_stop"
    hero: str


@command
@dataclass(frozen=True, slots=True)
class UseToken(Command):
    """Discard a Side Bag token for its effect out of a fight: Exotic Herbs (FT-BAG-05), Tequila (FT-BAG-06), or a
    token whose effect the pack or the table gives (`effects`); fight-only tokens are kept for the Adventure."""

    type: ClassVar[str] = "use_token"
    hero: str
    token: str
    effects: tuple[Effect, ...] = ()


@command
@dataclass(frozen=True, slots=True)
class EndDay(Command):
    """End the Day: open visits end (FT-UA-02), the Town Event check is made (option `town_events`; Army Convoy +1,
    FT-TRAVEL-D54) and the Daily Event is discarded (FT-DAY-01)."""

    type: ClassVar[str] = "end_day"


@command
@dataclass(frozen=True, slots=True)
class EndTownStay(Command):
    """Leave town for the next Adventure (ending the Day under way first): every Unwanted Attention marker is
    removed (FT-UA-06) and the town-stay flags end; posted Bounties stay open for the Adventure."""

    type: ClassVar[str] = "end_town_stay"


# ---- table ----
@command
@dataclass(frozen=True, slots=True)
class Adjust(Command):
    """Record what the physical game changed for one hero (a card, a fight on the board) as an event."""

    type: ClassVar[str] = "adjust"
    hero: str
    effects: tuple[Effect, ...]
    reason: str = ""


@command
@dataclass(frozen=True, slots=True)
class RollDice(Command):
    """Answer a roll prompt: the faces the physical dice show, or none for "roll for me"."""

    type: ClassVar[str] = "roll"
    faces: Faces | None = None
    prompt: str = ""


@command
@dataclass(frozen=True, slots=True)
class Choose(Command):
    """Answer a choice prompt with one of its option keys."""

    type: ClassVar[str] = "choose"
    option: str
    prompt: str = ""


@command
@dataclass(frozen=True, slots=True)
class Reroll(Command):
    """Answer a Grit re-roll offer: the indices of the dice to re-roll for 1 Grit, or none to keep (FF-GRIT-01/02)."""

    type: ClassVar[str] = "reroll"
    indices: tuple[int, ...] = ()
    prompt: str = ""


@command
@dataclass(frozen=True, slots=True)
class EnterCard(Command):
    """Answer a card prompt: what the physical card or chart said, as effects on the prompted hero."""

    type: ClassVar[str] = "enter_card"
    text: str = ""
    effects: tuple[Effect, ...] = ()
    prompt: str = ""


