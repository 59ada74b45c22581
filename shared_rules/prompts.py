"""Pending choices: what the engine is waiting for, who must answer, and which command answers it.

A rule that needs the table stops at a prompt. The pending record keeps the command that started the rule,
the state before it, and every answer so far, so resuming replays the rule exactly (same answers, same dice).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from .commands import Command, Effect, Faces
from .dice import DieKind, Roll
from .events import Fact
from .frozen import quick
from .meta import meta, ref
from .state import Session


class PromptKind(str, Enum):
    """What a prompt asks for, and so which command answers it."""

    ROLL = "roll"  # the faces of physical dice (or "roll for me"): answered with `roll`
    CHOICE = "choice"  # one of the options (a decision, or what was drawn at random): `choose`
    REROLL = "reroll"  # which dice to re-roll for 1 Grit, if any: `reroll`
    CARD = "card"  # what a card or chart the rulebooks lack says: `enter_card`


class Reads(str, Enum):
    """What the rules read from a roll's dice, so the table may enter it in one tap (FF-DICE-05/06)."""

    HITS = "hits"  # how many dice show the target or more: a skill test, To Hit, saves (FF-DICE-06)
    TOTAL = "total"  # the faces added up (one die's face, a 2D6 chart, FF-DICE-05)
    EACH = "each"  # each die's own face: a D36's tens and ones (FT-DICE-01), "a D6 for each"
    ONES = "ones"  # how many hit and how many show a 1 (Shadows Out of Time: every 1 costs Sanity, FT-TRAVEL-D16)


class Asks(str, Enum):
    """What a prompt asks, as a stable key (`Prompt.asks`): a client words the question from it and the prompt's
    facts in its own language, and falls back to `question` (English) for a key it does not know. Every rule that
    asks the table names one; what each key's facts are is in docs/api.md ("Prompt keys")."""

    # rolls: the engine's own (flow.py) and the road's
    SKILL_TEST = "skill_test"  # a Skill test: skill, target, name (what it is for: a hazard's name ...)
    SKILL_REROLL = "skill_reroll"  # the dice of a Skill test re-rolled for Grit: skill, target, name
    GRIT_REROLL = "grit_reroll"  # spend 1 Grit to re-roll dice of a roll (`Prompt.roll`): skill, target, name
    CHART = "chart"  # a chart in the content pack, rolled: chart
    CARD = "card"  # what a card or chart the pack lacks says, entered: chart
    HAZARD_COUNT = "hazard_count"  # a D6 for more Travel Hazards on the road to a Town: size
    HAZARD_ROLL = "hazard_roll"  # the D36 of one Travel Hazard: number, count
    TOWN_TYPE = "town_type"  # the 2D6 of the Specialty Town type
    HOLD_BACK = "hold_back"  # Hold Back the Darkness: target
    MOVE = "move"  # a hero's Move roll
    ROLL = "roll"  # any other roll: what for is `purpose` (English); dice, target and reads are the prompt's own
    # draws at random: what is drawn
    DRAW = "draw"  # a draw among named things: what for is `purpose` (English); the options are the things' names
    RANDOM_HERO = "random_hero"  # a Random Hero (FT-DICE-03)
    BUILDING_TOKEN = "building_token"  # the Building token for a slot of the town: number
    DAILY_EVENT_CARD = "daily_event_card"  # the Daily Event card
    THREAT_CARD = "threat_card"  # a Threat card: size (low, high, epic)
    # the road, the town, the Town Stay
    ROLL_FOR = "roll_for"  # a roll for what a rule gives or takes: reason (a `RollFor` key), name (whose roll: a
    # hazard, its printed result or a token; absent when the reason says it all), and the numbers its words need
    RANDOM_BUILDING = "random_building"  # a Random Building drawn to be Destroyed for the Stay (FT-TOWN-04/05)
    WHEEL_DIE = "wheel_die"  # where a Devil's Wheel die lies: number (the die), value (its face)
    # choices: the road
    SIDE_BAG_FULL = "side_bag_full"  # the Side Bag is full: which token to leave (token, count, number: capacity)
    DISCARD_TOKEN = "discard_token"  # the torn Side Bag is over capacity: which token to discard
    WHICH_ITEM = "which_item"  # which Item the hazard takes: name (the hazard), why (English, optional)
    TAKE_PART = "take_part"  # an optional hazard: take part or pass it by: name (the hazard)
    WHICH_TEST = "which_test"  # which of two Skill tests: name (the hazard)
    HELP_CHURCH = "help_church"  # Plague Church: help or turn away
    CHURCH_COST = "church_cost"  # Plague Church: 1 Grit or D6 Corruption Hits
    ARTIFACT_KEEPER = "artifact_keeper"  # Plague Church: which helper keeps the Mine Artifact
    ENTER_FARMSTEAD = "enter_farmstead"  # Burning Farmstead: enter or turn away
    PAY_OR_TEST = "pay_or_test"  # Mutant Warlord: pay him off or overcome him
    RIVER = "river"  # Raging River: turn back or ford
    HEAL_SPLIT = "heal_split"  # Rail Line Construction: a Heal split (value: the Heal, count: Wounds, number: Sanity)
    PLUS_ONE = "plus_one"  # Sleeping Under the Stars: +1 Health or +1 Sanity (number of count)
    BANDIT_LOSS = "bandit_loss"  # Bandits!: what a Bandit not defeated takes (number of count)
    BLACK_FANG_LOSS = "black_fang_loss"  # Gulch Ambush: D3 Dark Stone or an Item with a Dark Stone icon
    SCRATCH_DEAL = "scratch_deal"  # Shadowy Traveler: take Mr. Scratch's deal or refuse it
    # choices: the town
    CALL_OUT = "call_out"  # Dying Marshal: a double spots the escaped prisoner (value: the double's face)
    DUEL_RESULT = "duel_result"  # how the High Noon Duel ended
    DAILY_EVENT = "daily_event"  # the Daily Event card drawn at the table: Just Another Day or another
    POSSE_LODGING = "posse_lodging"  # where the posse spends the night: day
    LODGING = "lodging"  # where a hero spends the night: day
    JACKPOT = "jackpot"  # the Devil's Head: try for the jackpot (number: the die)
    # choices: the Adventure
    END_OF_TURN = "end_of_turn"  # which End of the Turn effect first
    LANTERN_OIL = "lantern_oil"  # discard Lantern Oil to re-roll a Hold Back the Darkness die (target, first, second)
    CASTING = "casting"  # a Spell's casting roll falls short: what to add (name: the Spell, value: the total)
    SPICE = "spice"  # which Hit gets the Spice's D3 Damage
    MAX_GRIT_MOVE = "max_grit_move"  # a Move of 1 Recovers a Grit at Max Grit: spend it now or lose it
    REVIVE = "revive"  # KO'd: use a Revive Token (count: left)
    MAP_CARD = "map_card"  # what the Map card showed
    TILE_FITS = "tile_fits"  # does the Map Tile fit at this Door (name: the tile)
    # choices: the Town Missions and the board
    DEFENSE_REROLL = "defense_reroll"  # spend 1 Grit to re-roll failed Defense saves (figure, count)
    MONEY_BAGS = "money_bags"  # pick up the Money Bags (count)
    MONEY_BAG_NUMBER = "money_bag_number"  # the number printed on a flipped Money Bag
    ROPE_SHOOTER = "rope_shooter"  # who shoots the rope
    ROPE_CUT = "rope_cut"  # did a Hit do 6 Wounds to the rope
    TOWNSFOLK_REWARD = "townsfolk_reward"  # a Townsfolk saved: XP or Gold (number)
    ESCAPED_CHART = "escaped_chart"  # the Darkness escaped: the Injury or the Madness chart
    AMBUSH_MARKER = "ambush_marker"  # which Townsfolk marker the Ambush falls on
    TAKE_HITS = "take_hits"  # does an adjacent Hero take the Hits meant for a Townsfolk (hits, figure)
    LANDING = "landing"  # where a hero falling from a rooftop lands (name: the hero)
    # the Adventure, the Town board, the Bandits, the Missions: rolls and draws. Who rolls is the prompt's `hero`, or
    # else the `figure` fact (an Enemy, a Bandit); `reason` names the kind within the key; `reroll` (true) marks
    # the dice re-rolled (Grit, Lantern Oil) of a roll with that key and facts (`move`, `hold_back` take it too)
    TO_HIT = "to_hit"  # a To Hit roll: target, name (whom it is aimed at), reason (melee, ranged), item (the weapon)
    DAMAGE = "damage"  # the Damage die of a Hit: number (the Hit), name (what it hits); reason spice: the Spice's D3
    SAVE = "save"  # a die per Hit to save it: reason (defense, willpower, cover, armor), target, name (against), item
    CASTING_ROLL = "casting_roll"  # a Spell's Casting Roll: name (the Spell), target; reason extra_die: 1 Mana's die
    GAIN = "gain"  # a roll for how much of a hero value is gained: reason (the value: gold, xp, fury ...), count (x)
    LOSS = "loss"  # a roll for how much of a hero value is lost: reason (the value), count (D6 x count)
    HOW_MANY = "how_many"  # how many come: reason enemies (name: the Enemy) or horror_hits (name: from what)
    SCAVENGE = "scavenge"  # Scavenge: a die each, a 6 finds something: name (the Map Tile)
    DOORS = "doors"  # which exits of a Map Tile are Doors, read on the Map card: count (exits), name (the tile)
    DECK_CARD = "deck_card"  # a card drawn from a deck: chart (scavenge, map, exploration)
    TARGET_HERO = "target_hero"  # the Random Hero an Enemy targets: figure, reason (how the Hero is picked)
    BANDIT_ROLL = "bandit_roll"  # a Bandit's own D6: figure, reason (retreat: 4+ retreats; cover: 1-3 takes Cover)
    ROOF_FALL = "roof_fall"  # a rooftop fall: name (who), reason (falls: on 1-3; wounds: D6 Wounds, no Defense)
    BUILDING_ROLL = "building_roll"  # a Random Building's D8: reason (start, start_reroll, townsfolk, rooftop)
    MISSION_ROLL = "mission_roll"  # a Town Mission's own roll: mission (absent: the Mission table), reason, its facts
    MISSION_DRAW = "mission_draw"  # a Town Mission's own draw: mission, reason (escape_exit), figure


class RollFor(str, Enum):
    """What the dice of a `roll_for` prompt decide (its `reason` fact), as a stable key: a client has one phrase
    per key, filled from the prompt's other facts (`name` before it: whose roll it is). docs/api.md lists them."""

    # the road: what a Travel Hazard gives or takes (name: the hazard, or its printed result)
    WOUNDS = "wounds"
    SANITY_DAMAGE = "sanity_damage"
    HEAL = "heal"  # Wounds and Sanity Damage, in any mix
    HEAL_SANITY = "heal_sanity"
    GRIT = "grit"  # Grit recovered
    XP = "xp"  # D6 x count XP
    XP_LOST = "xp_lost"  # D6 x count XP lost
    GOLD = "gold"  # D6 x $count
    GOLD_LOST = "gold_lost"  # D6 x $count lost
    PRICE = "price"  # the price asked: D6 x $count
    DARK_STONE = "dark_stone"
    DARK_STONE_LOST = "dark_stone_lost"
    HEALTH_LOST = "health_lost"  # Max Health lost for good
    CORRUPTION_HITS = "corruption_hits"
    CORRUPTION_PLUS_ONE = "corruption_plus_one"  # D6+1 Corruption Points
    CORRUPTION_REMOVED = "corruption_removed"
    WILLPOWER_SAVES = "willpower_saves"  # a save for each Hit: target
    UNWANTED_ATTENTION = "unwanted_attention"  # Unwanted Attention markers gained
    BANDITS_DEFEATED = "bandits_defeated"
    FOUND = "found"  # what the hero finds (a sub-table of the card)
    MADNESS_CHECK = "madness_check"  # 1-3: a roll on the Madness chart
    ELIXIR = "elixir"  # 6: a Tonic token
    STRANGER = "stranger"  # who the stranger on the road is (a sub-table of the card)
    PER_DARK_STONE = "per_dark_stone"  # a D6 per Dark Stone carried, shards first, then Items
    PER_CORRUPTION = "per_corruption"  # a D6 per Corruption Point and Mutation
    PER_HOURGLASS_ITEM = "per_hourglass_item"  # a D6 per Item with an hourglass icon
    PER_TOKEN = "per_token"  # a D6 per Side Bag Token
    PER_CLOTHING = "per_clothing"  # a D6 per Clothing Item
    # the town and the Town Stay (no name: the key says whose roll it is)
    LOCATION_EVENT = "location_event"  # a Location's Location Event Chart: location
    CAMP_SITE_HAZARD = "camp_site_hazard"  # the Camp Site Hazard chart
    TOWN_EVENT = "town_event"  # the Town Event Chart
    TOWN_DAILY_EVENT = "town_daily_event"  # a Specialty Town's Daily Event Chart: town_type
    TOWN_DARKNESS = "town_darkness"  # the Town Darkness check: value (where the marker is)
    TROUBLE = "trouble"  # Unwanted Attention: attacked on count or less
    SHOT_IN_THE_BACK = "shot_in_the_back"  # D6 x Hero Level (count) Wounds
    BOUNTY = "bounty"  # the escaped prisoner's bounty: D6 x $count
    DEVILS_WHEEL = "devils_wheel"  # the Devil's Wheel dice: roll number of count
    JACKPOT = "jackpot"  # the Devil's Head jackpot
    ROOM_JACKPOT = "room_jackpot"  # the room's share of a jackpot: D6 x $count


def roll_for(reason: RollFor, name: str = "", **numbers: int | str) -> tuple[tuple[str, int | str | bool], ...]:
    """The facts of an `Asks.ROLL_FOR` roll: what its dice decide, whose roll it is (`name`, the content's name;
    none when `reason` says it), and the numbers its words need (`count`, `target`, `location` ...)."""
    key: str = reason._value_  # `.value` runs enum's Python-level descriptor: most of this on the compiled build
    said: tuple[tuple[str, int | str | bool], ...] = (("reason", key), ("name", name)) if name else (("reason", key),)
    return said + tuple(numbers.items()) if numbers else said


class Says(str, Enum):
    """What an option means when its label is more than a name (`Option.says`): a client words it from this key, the
    option's `costs`, `gains`, `test` and facts; an option without one (None) is labelled by a name (an Item, a token, a
    hero, a Location) shown as it is."""

    TURN_AWAY = "turn_away"
    PASS_BY = "pass_by"  # pass an optional hazard by
    JOIN = "join"  # take part: the option's test (Search the wreck: Cunning 5+)
    HELP_CHURCH = "help_church"  # Help: 1 Grit or D6 Corruption Hits, then the test
    SPEND = "spend"  # spend the costs
    CORRUPTION_HITS = "corruption_hits"  # take D6 Corruption Hits (Willpower saves)
    ENTER = "enter"  # enter: the test
    PAY = "pay"  # pay the costs
    WARLORD_TEST = "warlord_test"  # Lore 6+: pass +D6 Dark Stone, fail -D3 Health for good
    SKILL = "skill"  # test this skill: the test, count (dice)
    LEAVE_NEW_TOKEN = "leave_new_token"  # leave the new token (token)
    LEAVE_TOKEN = "leave_token"  # leave a token held to take the new one (token: held, name: new)
    TURN_BACK = "turn_back"  # Raging River: to a Small Town, no more hazards
    FORD = "ford"  # Raging River: the test, each
    HEAL_SPLIT = "heal_split"  # the gains: Wounds and Sanity Damage healed
    GAIN = "gain"  # gain the gains
    LOSE = "lose"  # lose the costs, or an Item (item); value: what the hero has of it
    TAKE_DEAL = "take_deal"
    REFUSE_DEAL = "refuse_deal"
    CALL_OUT = "call_out"
    LET_GO = "let_go"
    DUEL_WON = "duel_won"
    DUEL_LOST = "duel_lost"
    OTHER_CARD = "other_card"  # another card: enter what it says
    ALL_HOTEL = "all_hotel"  # everyone at the Hotel: costs each
    ALL_CAMP = "all_camp"
    EACH_CHOOSES = "each_chooses"
    HOTEL = "hotel"  # costs
    CAMP = "camp"
    PRESS_LUCK = "press_luck"
    LEAVE_IT = "leave_it"
    LANTERN_OIL = "lantern_oil"  # name: who discards it, value: the die's face
    KEEP_ROLL = "keep_roll"
    EXTRA_MANA = "extra_mana"
    ARCANE_POWDER = "arcane_powder"
    GRIT_REROLL = "grit_reroll"
    LET_FAIL = "let_fail"
    SPICE_HIT = "spice_hit"  # number (the Hit), figure, value (its damage)
    SPEND_NOW = "spend_now"  # the recovered Grit spent at once: +D6 Move
    LET_GO_GRIT = "let_go_grit"
    REVIVE = "revive"
    STAY_DOWN = "stay_down"
    ROOM = "room"
    PASSAGE = "passage"
    NO_TILE = "no_tile"
    FITS = "fits"
    OVERLAPS = "overlaps"
    YES = "yes"
    NO = "no"
    PICK_UP = "pick_up"
    LEAVE_THEM = "leave_them"
    MONEY_BAG = "money_bag"  # value: the number, price: the Gold
    SHOOTS = "shoots"  # name: who shoots the rope
    ROPE_CUT = "rope_cut"
    XP_REWARD = "xp_reward"  # D6 x 10 XP
    GOLD_REWARD = "gold_reward"  # D6 x $25
    INJURY_CHART = "injury_chart"
    MADNESS_CHART = "madness_chart"
    TAKES_HITS = "takes_hits"  # name: the hero who takes them
    NOBODY = "nobody"
    GET_UP = "get_up"  # KO'd Heroes Recover (no Fight is on)
    REINFORCEMENTS = "reinforcements"  # D3 Bandits arrive (D6 with none on the board)
    FUSE = "fuse"  # a Dynamite token burns away (count: left)
    PRISONER_MOVES = "prisoner_moves"
    COUNTDOWN = "countdown"  # the top Countdown counter comes off


ASKS = tuple(a.value for a in Asks)
SAYS = tuple(s.value for s in Says)
ROLLS_FOR = tuple(r.value for r in RollFor)


class Part(str, Enum):
    """Whether an option takes part in an optional step ("each Hero may ...") or declines it."""

    JOIN = "join"
    DECLINE = "decline"


@quick
@dataclass(frozen=True, slots=True)
class Amount:
    """A quantity of a hero value an option costs or gains: `gold` 150, `grit` 1, an `item` by id.

    `field` is a hero value (`gold`, `grit`, `dark_stone`, `corruption`, `health_mod` ...) or `item` / `token`
    (with `name`, the item's id or the token's name). `dice` says the amount is rolled: "d6" means D6 x `amount`.
    """

    field: str
    amount: int = 1
    name: str = ""
    dice: str = ""


@quick
@dataclass(frozen=True, slots=True)
class SkillCheck:
    """The skill test an option leads to: `skill` N+ (FF-DICE-06)."""

    skill: str = field(metadata=meta(choices=ref("shared_rules.state", "SKILLS"), enum="Skill"))
    target: int = field(metadata=meta(minimum=0))


@quick
@dataclass(frozen=True, slots=True)
class Option:
    """One answer to a choice, with its meaning as data: taking part or declining, what it costs or gains, the test
    it takes. Policies, the odds and the app read these fields; the label is only for people."""

    key: str
    label: str  # English; a client words it from `says` and the data, or shows it as a name when `says` is None
    part: Part | None = None
    costs: tuple[Amount, ...] = ()
    gains: tuple[Amount, ...] = ()
    test: SkillCheck | None = None
    says: str | None = field(default=None, metadata=meta(choices=SAYS, enum="OptionSays"))  # its meaning; None: a name
    facts: tuple[Fact, ...] = ()  # the names and numbers its words are made from (`item`, `token`, `value` ...)


@dataclass(frozen=True, slots=True)
class Prompt:
    """A question for the table. `answer_with` is the one command type that answers it.

    A roll prompt (and a re-roll offer) says what the rules read, as data: `target` is the N each die must reach
    ("5+", FF-DICE-06; 0 when no die is compared to a target), `reads` whether the hits, the total or each face
    counts, and `doubles` whether natural doubles change the outcome (FF-DICE-07: no total in one tap then).
    """

    id: str
    kind: PromptKind
    question: str  # English; a client words it from `asks` and `facts` (and falls back to this for a key it lacks)
    answer_with: str = field(metadata=meta(choices=ref("shared_rules.commands", "COMMAND_TYPES"), enum="CommandType"))
    hero: str | None = None  # who answers; None = the posse together
    rule: str = ""
    options: tuple[Option, ...] = ()
    purpose: str = ""
    die: DieKind | None = None  # for roll prompts
    dice_count: int = 0
    chart: str = ""  # for card prompts: injury, madness, gear, artifact, world_artifact, ...
    roll: Roll | None = None  # for re-roll offers: the roll that may be re-rolled
    target: int = field(default=0, metadata=meta(minimum=0))  # each die hits on `target`+ (0: none)
    reads: Reads | None = None  # for roll and re-roll prompts: what the rules read from the dice
    doubles: bool = False  # natural doubles change the outcome (FF-DICE-07, FF-DEPTH-05)
    alike: bool = False  # a choice each hero makes in turn: one answer may stand for the rest (`choose` everyone)
    then: tuple[HeroDice, ...] = ()  # a roll prompt: the heroes who take the same roll next (`roll` then)
    next_heroes: tuple[str, ...] = ()  # an alike choice every hero makes in turn: who is asked next (`choose` then)
    grit: bool = False  # a roll prompt: a Grit re-roll of the dice that miss may be offered next (`roll` keep declines)
    card: str = ""  # a roll prompt: the chart whose card the table reads with these dice next (`roll` card answers it)
    asks: str | None = field(default=None, metadata=meta(choices=ASKS, enum="PromptAsks"))  # what it asks, as a key
    facts: tuple[Fact, ...] = ()  # the names and numbers the question is worded from (`skill`, `target`, `name` ...)


@quick
@dataclass(frozen=True, slots=True)
class Answer:
    """One recorded answer to a request of a rule: a roll, an option, re-roll indices or a card's effects."""

    kind: str
    roll: Roll | None = None
    option: str = ""
    indices: tuple[int, ...] = ()
    effects: tuple[Effect, ...] = ()
    text: str = ""


@dataclass(frozen=True, slots=True)
class HeroDice:
    """A hero who takes the same roll after this one, and how many dice (a test every Hero takes in turn)."""

    hero: str
    dice: int = field(metadata=meta(minimum=1))


@dataclass(frozen=True, slots=True)
class Ahead:
    """A later hero's faces for the same roll, typed with the first (`roll` then): they answer that hero's roll of
    `purpose` when the rule asks for it."""

    hero: str
    purpose: str
    faces: Faces


@dataclass(frozen=True, slots=True)
class AheadCard:
    """What a card says, typed with the roll it is read with (`roll` card): it answers the hero's card prompt of
    `chart` when the rule asks for it; dropped unread when the rules read no card (a double calling out the
    Dying Marshal instead, FT-TRAVEL-D62)."""

    hero: str
    chart: str
    text: str = ""
    effects: tuple[Effect, ...] = ()


@dataclass(frozen=True, slots=True)
class Standing:
    """An answer given "the same for everyone": it answers each later choice of the same rule run that asks the
    same question (`rule`, `topic`) and offers `option`, each hero's as its own recorded answer; for one `hero`
    only when given (`choose` then), for everyone otherwise."""

    rule: str
    topic: str
    option: str
    hero: str = ""


@dataclass(frozen=True, slots=True)
class Pending:
    """A rule stopped at `prompt`, to be resumed by replaying `command` from `checkpoint` with `answers`."""

    command: Command
    checkpoint: Session = field(metadata=meta(public=False))  # holds the RNG state: never shown to clients
    answers: tuple[Answer, ...] = field(metadata=meta(public=False))
    events_emitted: int = field(metadata=meta(public=False))
    prompt: Prompt
    dice_left: tuple[Faces, ...] = ()
    standing: tuple[Standing, ...] = field(default=(), metadata=meta(public=False))  # answers for everyone
    ahead: tuple[Ahead, ...] = field(default=(), metadata=meta(public=False))  # later heroes' faces, typed already
    cards: tuple[AheadCard, ...] = field(default=(), metadata=meta(public=False))  # cards typed with their dice
