"""Commands: one small value per thing a table can ask of the engine. Dice typed in at the table ride along as `dice`.

`dice` on any command is a queue: each entry holds the faces of one roll the rules ask for next, in order;
a D36 may be given as [tens, ones] or as the number (35). What the queue does not cover is rolled by the
session RNG (dice option "server") or asked for with a roll prompt (dice option "table").
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from .meta import meta, ref
from .state.adventure import ExplorationToken, Place, TrackSpace
from .state.hero import HERO_FIELDS, SKILLS
from .state.stay import DieLie

Faces = tuple[int, ...]
_C = TypeVar("_C", bound="type[Command]")


@dataclass(frozen=True, slots=True, kw_only=True)
class Command:
    """What every command shares: its `type` (the JSON discriminator) and the dice the table typed in for it."""

    type: ClassVar[str] = ""
    takes_dice: ClassVar[bool] = True
    """Whether clients send `dice` with it (faces for the rolls it leads to). A `roll` answer's faces are `faces`:
    its `dice` is never read from a client, so a roll typed there is refused, not rolled by the server instead."""
    dice: tuple[Faces, ...] = ()


COMMAND_TYPES: dict[str, type[Command]] = {}  # every command by its `type`, filled by @command
ANSWERS: frozenset[str] = frozenset({"roll", "choose", "reroll", "enter_card"})  # commands that answer a prompt


def command(cls: _C) -> _C:
    """Register a command class under its `type`, so the codec, the engine and the API documents know it."""
    if not cls.type or cls.type in COMMAND_TYPES:
        raise TypeError(f"{cls.__name__}: a command needs a type of its own, not {cls.type!r}")
    COMMAND_TYPES[cls.type] = cls
    return cls


OPS = frozenset({
    "change", "set", "add_item", "remove_item", "add_token", "remove_token", "add_mutation", "remove_mutation",
    "add_keyword", "remove_keyword", "tear_bag", "repair_bag",
})  # fmt: skip
"""What an Effect may do (its `op`)."""
MAX_AMOUNT = 1_000_000  # no card moves a value by a million; keeps "a D6 per Dark Stone" pools finite


@dataclass(frozen=True, slots=True)
class Effect:
    """A change the physical game made (a card read at the table) or a manual correction, applied by the rules.

    ops: change (field += amount, kept in bounds), set (field = amount, refused out of bounds), add_item,
    remove_item, add_token, remove_token, add_mutation, remove_mutation, add_keyword, remove_keyword,
    tear_bag, repair_bag.
    """

    op: str = dataclasses.field(metadata=meta(choices=OPS, enum="EffectOp", example="change"))
    field: str = dataclasses.field(default="", metadata=meta(choices=("", *HERO_FIELDS, *SKILLS), enum="HeroValue",
                                                             example="gold"))  # "": the ops that name no value
    amount: int = dataclasses.field(default=0, metadata=meta(minimum=-MAX_AMOUNT, maximum=MAX_AMOUNT, example=25))
    name: str = ""  # the item, token, mutation or keyword added or removed
    tags: tuple[str, ...] = dataclasses.field(default=(), metadata=meta(choices=ref("shared_rules.state", "ItemTag")))
    hourglass: int = dataclasses.field(default=0, metadata=meta(minimum=0))
    dark_stone_upgrades: int = dataclasses.field(default=0, metadata=meta(minimum=0))


@command
@dataclass(frozen=True, slots=True)
class ChooseTownSize(Command):
    """After an Adventure, pick Small, Medium or Large; the hazard count is rolled at once (FT-TRAVEL-01/02)."""

    type: ClassVar[str] = "choose_town_size"
    size: str = dataclasses.field(metadata=meta(choices=ref("shared_rules.state", "TownSize"), example="medium",
                                                rule="FT-TRAVEL-01"))


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
    destroyed_slots: int = dataclasses.field(default=0, metadata=meta(minimum=0, maximum=8))




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
    """Discard a Side Bag token for its effect: Exotic Herbs (FT-BAG-05), Tequila (FT-BAG-06), in an Adventure Fire
    Sake (D3 Fury, FF-SAM-03), or a token whose effect the pack or the table gives (`effects`). In a Fight: Spice
    (FT-BAG-01: D3 Damage on one of your next Hits, 1 Wound), Fine Cigar (FT-BAG-07: Armor 3+ this turn), Hatchet
    (FT-BAG-03: a Ranged Free Attack at `target`, Shots 1, +2 Damage, Melee To Hit; with combat "typed" its Hit
    in `hits`, the damage die's face, the engine adding the +2)."""

    type: ClassVar[str] = "use_token"
    hero: str
    token: str
    effects: tuple[Effect, ...] = ()
    target: str = ""
    hits: tuple[HeroHit, ...] = ()


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
    hero: str = dataclasses.field(metadata=meta(min_length=1, example="hanzo"))
    effects: tuple[Effect, ...] = dataclasses.field(metadata=meta(min_items=1))
    reason: str = ""


@command
@dataclass(frozen=True, slots=True)
class RollDice(Command):
    """Answer a roll prompt: the faces the physical dice show, or none for "roll for me"."""

    type: ClassVar[str] = "roll"
    takes_dice: ClassVar[bool] = False  # the faces of this prompt's dice are `faces`
    faces: Faces | None = None
    prompt: str = ""
    then: tuple[HeroFaces, ...] = ()  # the same roll of the heroes the prompt says come next (`Prompt.then`)
    keep: bool = False  # the dice stand: decline the Grit re-roll the rules would offer on them next (`Prompt.grit`)
    card: CardEntry | None = None  # what the card read with these dice says (`Prompt.card`): its prompt answered now


@dataclass(frozen=True, slots=True)
class CardEntry:
    """What a physical card or chart says, given with the dice it is read with: the card prompt's answer ahead."""

    text: str = ""
    effects: tuple[Effect, ...] = ()


@dataclass(frozen=True, slots=True)
class HeroFaces:
    """One hero's faces for a roll typed ahead with another's (a test every Hero takes in turn)."""

    hero: str
    faces: Faces


@dataclass(frozen=True, slots=True)
class HeroOption:
    """A later hero's answer to the same choice, given with another's (a choice every Hero makes in turn)."""

    hero: str
    option: str


@command
@dataclass(frozen=True, slots=True)
class Choose(Command):
    """Answer a choice prompt with one of its option keys."""

    type: ClassVar[str] = "choose"
    option: str
    prompt: str = ""
    everyone: bool = False  # an alike prompt (`Prompt.alike`): the same answer for the rest of the posse's, this step
    then: tuple[HeroOption, ...] = ()  # the answers of the heroes the prompt says are asked next (`next_heroes`)


@command
@dataclass(frozen=True, slots=True)
class Reroll(Command):
    """Answer a Grit re-roll offer: the indices of the dice to re-roll for 1 Grit, or none to keep (FF-GRIT-01/02)."""

    type: ClassVar[str] = "reroll"
    indices: tuple[int, ...] = dataclasses.field(default=(), metadata=meta(minimum=0))
    prompt: str = ""


@command
@dataclass(frozen=True, slots=True)
class EnterCard(Command):
    """Answer a card prompt: what the physical card or chart said, as effects on the prompted hero."""

    type: ClassVar[str] = "enter_card"
    text: str = ""
    effects: tuple[Effect, ...] = ()
    prompt: str = ""




# ---- adventure (rules/adventure) --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SheetEntry:
    """A hero's sheet numbers typed in at the start of an Adventure, over the content pack's (None: the pack's)."""

    hero: str
    initiative: int | None = None
    max_fury: int | None = None
    max_ki: int | None = None
    ki_damage: int | None = None
    ki_heal: int | None = None
    mana: int | None = None
    blast_cost: int | None = None
    focus: str | None = None
    deadly_bonus: int | None = None
    combat: int | None = None
    melee_to_hit: int | None = None
    ranged_to_hit: int | None = None
    shots: int | None = None
    damage_bonus: int | None = None


@dataclass(frozen=True, slots=True)
class HeroHit:
    """One Hit a hero's attack landed, as resolved at the table: its target and its damage before the target's
    Defense (the damage die plus the weapon's bonus); the engine adds the class bonuses and takes the Defense off."""

    target: str
    damage: int


@dataclass(frozen=True, slots=True)
class EnemyStrike:
    """Hits an enemy lands on one hero: how many (None: roll them, house combat) and the Damage of each (None: the
    enemy's sheet). `kind` wound (Defense saves), horror (Willpower, Sanity Damage) or corruption (Willpower)."""

    hero: str
    hits: int | None = None
    damage: int | None = None
    kind: str = "wound"
    ignore_defense: bool = False


@dataclass(frozen=True, slots=True)
class NewEnemy:
    """Enemies put on the board (a Threat card, a Darkness card, an Ambush): a pack's Enemy Record Sheet by `kind`
    and/or the sheet's numbers typed in (typed numbers win)."""

    name: str = ""
    kind: str = ""
    count: int = 1
    health: int | None = None
    initiative: int | None = None
    defense: int | None = None
    armor: int | None = None
    combat: int | None = None
    to_hit: int | None = None
    damage: int | None = None
    size: str | None = None
    place: Place | None = None


@dataclass(frozen=True, slots=True)
class SpellCard:
    """What a Spell card says, typed in when the content pack lacks it (FF-SORC-02..06)."""

    cost: int
    casting: int
    element: str = ""
    dangerous: bool = False
    xp: int = 0
    xp_once: bool = False  # XP only the first time it is Cast in an Adventure
    ranged_attack: bool = False  # a Spell that is a Ranged Attack: cast as the Sorceress's Attack


@command
@dataclass(frozen=True, slots=True)
class StartAdventure(Command):
    """Set up an Adventure (FF-SETUP-01): the Old Lantern holder, the mission, the Depth Track (a pack's by `track`
    or the `layout` typed in, FF-DEPTH-01), and sheet numbers the pack lacks; scaling by posse size (FF-SCALE-01),
    Grit reset to 1 (A6), class resources at their start (§20)."""

    type: ClassVar[str] = "start_adventure"
    lantern: str
    mission: str = "lost_contact"
    track: str = ""
    layout: tuple[TrackSpace, ...] = ()
    sheets: tuple[SheetEntry, ...] = ()


@command
@dataclass(frozen=True, slots=True)
class Flee(Command):
    """Run away at the start of a turn, before anything else: every hero not KO'd must agree (FF-END-04)."""

    type: ClassVar[str] = "flee"
    heroes: tuple[str, ...]


@command
@dataclass(frozen=True, slots=True)
class HoldBackTheDarkness(Command):
    """The Old Lantern holder rolls 2D6 against the Stage target (FF-DEPTH-04/05); no Grit, Lantern Oil may re-roll a
    die (FF-DEPTH-06, FT-GRIT-03). Then the models activate."""

    type: ClassVar[str] = "hold_back_the_darkness"


@command
@dataclass(frozen=True, slots=True)
class Activate(Command):
    """Activate a hero, in Initiative order (FF-TURN-03): the Move roll (FF-MOVE-01), Grit on a 1 (FF-GRIT-06/07).
    `in_the_dark`: the hero starts outside the Old Lantern's light and takes D6 Horror Hits (FF-MOVE-07)."""

    type: ClassVar[str] = "activate"
    hero: str
    in_the_dark: bool = False


@command
@dataclass(frozen=True, slots=True)
class BoostMove(Command):
    """Spend 1 Grit to add a D6 to this activation's movement; a 1 on it Recovers nothing (FF-MOVE-03, FF-GRIT-06)."""

    type: ClassVar[str] = "boost_move"
    hero: str


@command
@dataclass(frozen=True, slots=True)
class RerollWithGrit(Command):
    """Spend 1 Grit to re-roll dice the hero just rolled and still may (the Move roll, `roll` "move"); never the Hold
    Back the Darkness roll or a chart, never a die twice (FF-GRIT-01..04, FF-DEPTH-06)."""

    type: ClassVar[str] = "reroll_with_grit"
    hero: str
    roll: str = "move"
    indices: tuple[int, ...] = (0,)


@command
@dataclass(frozen=True, slots=True)
class Move(Command):
    """Move up to the Move roll (FF-MOVE-01): `spaces` used, where the hero ends (`to`, optional), and what the move
    passes (`through`: model, barrier, wall, window), checked against FF-MOVE-02/05/06, FF-ASN-01, FT-GRIT-01."""

    type: ClassVar[str] = "move"
    hero: str
    spaces: int
    to: Place | None = None
    through: tuple[str, ...] = ()


@command
@dataclass(frozen=True, slots=True)
class Search(Command):
    """End the move with a Search, never in a Fight (FF-TURN-05, FF-SRCH-01): `scavenge` (FF-SCAV-01..03) or `door`,
    Look Through a Door (FF-EXPL-01); `placed` says what the Map card showed (room, passage, none) if the engine
    does not draw it."""

    type: ClassVar[str] = "search"
    hero: str
    kind: str
    placed: str = ""
    name: str = ""


@command
@dataclass(frozen=True, slots=True)
class Attack(Command):
    """The hero's one Attack after moving (FF-TURN-05): Melee, or `ranged`, or the Elemental Blast (`blast`,
    FF-SORC-01). With combat "typed" the Hits come from the table (`hits`); with "house" they are rolled against
    `target`. `ki` adds Damage to the first Combat Hit (FF-MONK-01); `isolated` is Deadly's no-other-Enemy-adjacent
    (FF-ASN-02)."""

    type: ClassVar[str] = "attack"
    hero: str
    target: str = ""
    ranged: bool = False
    blast: bool = False
    hits: tuple[HeroHit, ...] = ()
    ki: int = 0
    isolated: bool = False


@command
@dataclass(frozen=True, slots=True)
class ThrowShuriken(Command):
    """The Assassin's free Ranged Attack, once per Fight, thrown during her move (FF-ASN-03)."""

    type: ClassVar[str] = "throw_shuriken"
    hero: str
    target: str = ""
    hits: tuple[HeroHit, ...] = ()
    isolated: bool = False


@command
@dataclass(frozen=True, slots=True)
class EndActivation(Command):
    """End the hero's activation without a Search or an Attack."""

    type: ClassVar[str] = "end_activation"
    hero: str


@command
@dataclass(frozen=True, slots=True)
class ActivateEnemy(Command):
    """An enemy's activation in Initiative order, played at the table (no Enemy AI is in the rulebooks): where it
    moved and the Hits it landed; each hero saves with Cover then Defense or Willpower (FF-HERO-04/05)."""

    type: ClassVar[str] = "activate_enemy"
    enemy: str
    to: Place | None = None
    strikes: tuple[EnemyStrike, ...] = ()


@command
@dataclass(frozen=True, slots=True)
class AddEnemies(Command):
    """Put enemies on the board (a Threat card, a Darkness card, an Encounter); `ambush`: +2 Initiative on their
    first turn (A13). A Fight is on while any enemy is on the board (FF-TURN-05)."""

    type: ClassVar[str] = "add_enemies"
    enemies: tuple[NewEnemy, ...]
    ambush: bool = False


@command
@dataclass(frozen=True, slots=True)
class WoundEnemy(Command):
    """Wounds done to an enemy outside an Attack (a Bomb, a Battle Tactic, a card); `combat` if they were a Combat
    Hit of `hero` (Fury, FF-SAM-01)."""

    type: ClassVar[str] = "wound_enemy"
    enemy: str
    wounds: int
    hero: str = ""
    combat: bool = False
    reason: str = ""


@command
@dataclass(frozen=True, slots=True)
class RevealToken(Command):
    """Room Exploration: reveal the face-down Exploration Token of `tile` (FF-EXPL-02..06); `token` is the face the
    table turned up, or none to draw it from the pack's stack."""

    type: ClassVar[str] = "reveal_token"
    tile: str
    token: ExplorationToken | None = None


@command
@dataclass(frozen=True, slots=True)
class CastSpell(Command):
    """A Sorceress casts a Spell, any time unless the card says otherwise, each Spell once per turn (FF-SORC-04):
    Mana Cost, then the Casting Roll with extra Mana dice, Focus and Arcane Powder (FF-SORC-05/06/08). `card` is
    the Spell card's numbers when the pack lacks them; `extra_mana` buys dice before the roll."""

    type: ClassVar[str] = "cast_spell"
    hero: str
    spell: str
    card: SpellCard | None = None
    extra_mana: int = 0


@command
@dataclass(frozen=True, slots=True)
class UseTactic(Command):
    """A Samurai uses a Battle Tactic: discard its Fury cost, once per turn, during his own activation unless the
    card says otherwise (`any_time`), FF-SAM-02. The card's text is resolved at the table."""

    type: ClassVar[str] = "use_tactic"
    hero: str
    tactic: str
    cost: int | None = None
    any_time: bool = False


@command
@dataclass(frozen=True, slots=True)
class RingBell(Command):
    """The Traveling Monk rings the Sacred Bell, once per Adventure: Cover 3+ until the end of the turn for every
    hero on his Map Tile (FF-MONK-02); `heroes` names them when the board does not say."""

    type: ClassVar[str] = "ring_bell"
    hero: str
    heroes: tuple[str, ...] = ()


@command
@dataclass(frozen=True, slots=True)
class SpendKi(Command):
    """The Traveling Monk spends Ki on Healing he does (FF-MONK-01): `base` Healing plus `ki_heal` per Ki, on
    `target`'s Wounds or Sanity Damage (`heal`)."""

    type: ClassVar[str] = "spend_ki"
    hero: str
    ki: int
    target: str
    heal: str = "wounds"
    base: int = 0


@command
@dataclass(frozen=True, slots=True)
class StopBleeding(Command):
    """Spend 1 Grit to remove 1 Bleeding marker (FF-HERO-11)."""

    type: ClassVar[str] = "stop_bleeding"
    hero: str


@command
@dataclass(frozen=True, slots=True)
class MoveMarker(Command):
    """Move a Depth Track marker as a card says (`darkness` or `party`, steps toward the Entrance for the Darkness,
    deeper for the party); spaces the Darkness enters trigger as usual (A5)."""

    type: ClassVar[str] = "move_marker"
    marker: str
    steps: int
    reason: str = ""


@command
@dataclass(frozen=True, slots=True)
class AdjustResource(Command):
    """Record what a card or ability did to a hero's Ability Tokens (`fury`, `ki`, `mana`, `arcane_powder`, FF-HERO-09),
    kept within 0 and the sheet's maximum."""

    type: ClassVar[str] = "adjust_resource"
    hero: str
    resource: str
    amount: int
    reason: str = ""


# ---- Town Missions (rules/missions) -----------------------------------------------------------------------------
@command
@dataclass(frozen=True, slots=True)
class RollMission(Command):
    """Roll on the Town Mission table (FT-MIS-00): a D6; a 6 is the High Noon Duel for a Random Hero, and with more
    than one Hero another Mission is rolled until it is 1-5 (A32)."""

    type: ClassVar[str] = "roll_mission"


@command
@dataclass(frozen=True, slots=True)
class StayInTown(Command):
    """After a Town Mission that was not failed, stay in the same town instead of travelling: a fresh Town Stay of
    the same Size and Specialty Type (FT-TOWN-09, FT-MIS-AFTER-01)."""

    type: ClassVar[str] = "stay_in_town"


@dataclass(frozen=True, slots=True)
class BanditTarget:
    """The table's correction of a Bandit's target: `hero` (or a figure the Bandits may target) instead of the one
    the engine picked; refused without Range and Line of Sight (FT-BANDIT-05)."""

    bandit: str
    hero: str


@command
@dataclass(frozen=True, slots=True)
class ActivateBandits(Command):
    """The Bandits next in Initiative order activate as a Shootout group (FT-BANDIT-03..08) or as the Mission's
    Bandits move (Bank Robbers, FT-M3-03..06): the engine proposes each Bandit's move, target and line of fire with
    its reason, rolls or takes the typed dice, and resolves the attacks. `targets` corrects a target."""

    type: ClassVar[str] = "activate_bandits"
    targets: tuple[BanditTarget, ...] = ()


@command
@dataclass(frozen=True, slots=True)
class PlaceModel(Command):
    """Put a hero or figure where it really stands on the Town Adventure Board (the physical board wins): `to` a
    square (`tile` street / building-N, x, y), a rooftop (`roof:3+4`) or off the board (`entry:A`); `path`, the
    squares it moved through, is checked against Walls and Windows (FT-BOARD-03/04/05)."""

    type: ClassVar[str] = "place_model"
    model: str
    to: Place
    path: tuple[tuple[int, int], ...] = ()


@command
@dataclass(frozen=True, slots=True)
class MoveTownsfolk(Command):
    """Town Overrun: move a Townsfolk marker with points from this turn's shared pool (the Hold Back the Darkness
    total), never onto a Rooftop or off the board (FT-M5-02)."""

    type: ClassVar[str] = "move_townsfolk"
    townsfolk: str
    to: Place
    spaces: int


@command
@dataclass(frozen=True, slots=True)
class Desperation(Command):
    """Town Overrun: a Hero with no Enemies on their Map Tile gives up their Attack to `scavenge`, `recover_grit`,
    `ready_item` (a Once per Fight Item, A24) or `catch_breath` (Heal D3) (FT-M5-07)."""

    type: ClassVar[str] = "desperation"
    hero: str
    choice: str


@command
@dataclass(frozen=True, slots=True)
class RandomTarget(Command):
    """Town Overrun: roll a Random Hero for `enemy` with the Townsfolk as one more "Hero" (FT-M5-03); picked, they
    mean the Townsfolk marker closest to the Enemy, or, for an Ambush (`ambush`), the marker the Heroes choose
    (FT-M5-09)."""

    type: ClassVar[str] = "random_target"
    enemy: str
    ambush: bool = False


@command
@dataclass(frozen=True, slots=True)
class StrikeTownsfolk(Command):
    """Town Overrun: `enemy` lands `hits` on a Townsfolk marker (Damage `damage` each, `kind` wound or horror): an
    adjacent Hero may take them instead, before Defense; the marker saves on 4+ and has 1 Health, and ignores
    Sanity Damage (FT-M5-04)."""

    type: ClassVar[str] = "strike_townsfolk"
    enemy: str
    townsfolk: str
    hits: int
    damage: int = 1
    kind: str = "wound"


@command
@dataclass(frozen=True, slots=True)
class RescueHero(Command):
    """Hanging High's optional rule: `hero` is the one on the Gallows, to be saved from hanging (FT-M2-12). Given
    before the first Hold Back the Darkness; the Old Lantern holder cannot be the captive."""

    type: ClassVar[str] = "rescue_hero"
    hero: str


@command
@dataclass(frozen=True, slots=True)
class PlayGang(Command):
    """An Infamous Bandit Gang card comes into play (FT-BANDIT-09): drawn at a Town Mission's start for the whole
    Mission (FT-MIS-GEN-01) or when a card calls for one; what the card says is typed in (the 5 cards are not in the
    rulebooks). Every Bandit is then one of the Gang; its bonus XP and Gold go to the killer of each member."""

    type: ClassVar[str] = "play_gang"
    name: str
    rules: str = ""
    xp_per_kill: int = 0
    bounty_per_kill: int = 0
    dynamite: bool = False
