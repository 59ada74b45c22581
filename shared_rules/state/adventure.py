"""An Adventure under way: the turn and its step, the Depth Track and its markers, the heroes' class resources, the
figures on the board, the Map Tiles explored and whose activation it is (FF-TURN, FF-DEPTH, FF-EXPL, §20).

Owned by `rules/adventure`; a Town Mission is an Adventure played with a mission's hooks (`rules/adventure/missions`),
which keeps its own numbers in `counters` and its extra figures (Bandits, Townsfolk ...) in `figures`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..dice import Roll

MARKER_KINDS = frozenset({"money_bag"})  # figures that are markers lying on the board, not models: they block nothing
STAGE_TARGETS = {1: 7, 2: 8, 3: 9}  # FF-DEPTH-01: the value printed under each Stage of the Depth Track


class TurnStep(str, Enum):
    """Where the game turn is (FF-TURN-01); the End of the Turn runs at once when the last step is done."""

    START = "start"  # the flee window, then Hold Back the Darkness (FF-TURN-02, FF-DEPTH-04)
    ACTIVATIONS = "activations"  # models activate in Initiative order (FF-TURN-03)
    EXPLORATION = "exploration"  # Room Exploration: face-down tokens wait to be revealed (FF-EXPL-02)


class Side(str, Enum):
    """Whose side a figure is on: heroes, enemies (a Fight while any is on the board), or a mission's others."""

    HERO = "hero"
    ENEMY = "enemy"
    NEUTRAL = "neutral"  # Townsfolk, a Prisoner, Horses: moved by a mission's rules, never in Initiative order


class SpaceMark(str, Enum):
    """A special space of the Depth Track; only the Darkness marker triggers it (FF-DEPTH-07/08)."""

    NONE = "none"
    BLOOD_SPATTER = "blood_spatter"
    GROWING_DREAD = "growing_dread"


@dataclass(frozen=True, slots=True)
class TrackSpace:
    """One space of the Depth Track: its printed number (A2: the distance from Darkness Start), Stage and mark."""

    number: int
    stage: int  # 1, 2 or 3: Hold Back the Darkness needs 7+, 8+ or 9+ while the Hero Party marker is here
    mark: SpaceMark = SpaceMark.NONE


@dataclass(frozen=True, slots=True)
class DepthTrack:
    """The Depth Track's layout ((b)1: not in the rulebooks): from Darkness Start (space 0) to the Entrance."""

    name: str = ""
    spaces: tuple[TrackSpace, ...] = ()

    @property
    def entrance(self) -> int:
        """The Fortress (Mine) Entrance: the last space, the highest number (A2)."""
        return len(self.spaces) - 1

    def space(self, number: int) -> TrackSpace:
        return self.spaces[number]

    def target(self, number: int) -> int:
        """What Hold Back the Darkness needs while the Hero Party marker is on `number` (FF-DEPTH-04)."""
        return STAGE_TARGETS[self.spaces[number].stage]


@dataclass(frozen=True, slots=True)
class Place:
    """Where a figure stands: a Map Tile (or a Town board area) and, when known, its grid square.

    `also` is the second Map Tile of a puzzle-connection space: a figure there is on both (FF-MOVE-04).
    """

    tile: str
    x: int | None = None
    y: int | None = None
    also: str = ""

    def on(self, tile: str) -> bool:
        return tile in (self.tile, self.also)


@dataclass(frozen=True, slots=True)
class ClassSheet:
    """The numbers of a hero's sheet an Adventure reads (FF-HERO-01, §20): from the content pack or typed in.

    0 means the sheet's value was not given; a rule that needs it then asks for it (e.g. in the command).
    """

    initiative: int = 0
    max_fury: int = 0  # Samurai Warrior (FF-SAM-01)
    max_ki: int = 0  # Traveling Monk (FF-MONK-01)
    ki_damage: int = 1  # Damage per Ki on a Combat Hit (the sheet's exchange rate)
    ki_heal: int = 1  # Healing per Ki
    mana: int = 0  # Sorceress: her full Mana level (FF-SORC-03)
    blast_cost: int = 0  # Mana for the Elemental Blast (FF-SORC-01)
    focus: str = ""  # Sorceress: her Elemental Focus (fire, wind, water, earth)
    deadly_bonus: int = 0  # Assassin: Damage bonus against an Enemy with no other Enemy adjacent (FF-ASN-02)
    combat: int = 0  # Melee dice (house combat procedure)
    melee_to_hit: int = 0
    ranged_to_hit: int = 0
    shots: int = 0  # Shots of the hero's Ranged weapon
    damage_bonus: int = 0  # added to each Hit's damage die


@dataclass(frozen=True, slots=True)
class PartyHero:
    """A hero in the Adventure: sheet numbers, where they stand, and their class resources (FF-HERO-09, §20)."""

    id: str
    sheet: ClassSheet = ClassSheet()
    place: Place | None = None
    fury: int = 0  # FF-SAM-01
    ki: int = 0  # FF-MONK-01
    mana: int = 0  # FF-SORC-03
    arcane_powder: int = 0  # Roku Demon Bag (FF-SORC-08)
    bell_rung: bool = False  # the Sacred Bell: once per Adventure (FF-MONK-02)
    cover: int = 0  # Cover N+ until the end of the turn (the Sacred Bell gives 3+)
    armor: int = 0  # Armor N+ until the end of the turn (a Fine Cigar gives 3+, FT-BAG-07)
    spice: bool = False  # a Spice token used this turn: D3 Damage on one of the hero's next Hits (FT-BAG-01)
    shuriken_thrown: bool = False  # once per Fight (FF-ASN-03)
    spells_cast: tuple[str, ...] = ()  # Spells tried this turn: each at most once per turn (FF-SORC-04)
    spells_with_xp: tuple[str, ...] = ()  # "first cast per Adventure" XP already earned
    tactics_used: tuple[str, ...] = ()  # Battle Tactics used this turn (FF-SAM-02)


@dataclass(frozen=True, slots=True)
class Figure:
    """An enemy or a mission's other figure on the board: health and wounds, its attack, where it stands."""

    id: str
    name: str
    side: Side = Side.ENEMY
    health: int = 1
    wounds: int = 0
    initiative: int = 0
    defense: int = 0  # taken from each Hit's damage
    armor: int = 0  # the Armor N+ special ability (0: none); Deadly bypasses it (FF-ASN-02)
    combat: int = 0  # its attack, for the house combat procedure: dice, To Hit, Damage per Hit
    to_hit: int = 0
    damage: int = 0
    kind: str = ""  # its Enemy Record Sheet (pack key) or a mission's kind (bandit, townsfolk, prisoner)
    size: str = ""  # "", "large", "xl"
    place: Place | None = None
    ambush: bool = False  # +2 Initiative on its first turn (FF-TURN-03, A13)
    arrived: int = 0  # the turn it came onto the board
    brutal: bool = False  # the Brutal side of its Record Sheet (a Rooftop Bandit's Rifle then has Shots 3, FT-BANDIT-08)
    heading: str = ""  # the Entry Area it is making for (a Bank Robber's Escape Exit, FT-M3-03)

    @property
    def health_left(self) -> int:
        return self.health - self.wounds


class TileKind(str, Enum):
    ENTRANCE = "entrance"
    ROOM = "room"
    PASSAGE = "passage"
    AREA = "area"  # a Town board area (a Building, the Street) a mission places


@dataclass(frozen=True, slots=True)
class ExplorationToken:
    """The face of an Exploration Token (FF-EXPL-02..06): exits, Encounter or Attack!, a Clue, Growing Dread."""

    doors: int = 1
    gates: int = 0  # a Gate counts as a Door in the Basic Game (FF-EXPL-03)
    attack: bool = False  # Attack! instead of an Encounter (FF-EXPL-04)
    clue: bool = False
    growing_dread: bool = False  # the one token that also adds a Growing Dread card (FF-EXPL-05)


@dataclass(frozen=True, slots=True)
class MapTile:
    """A Map Tile on the board: what it is, its Exploration Token, and how often it was Scavenged (FF-SCAV-02)."""

    id: str
    kind: TileKind
    name: str = ""
    face_down: bool = False  # an Exploration Token waits to be revealed: no Search here (FF-SRCH-01)
    token: ExplorationToken | None = None  # the revealed token
    scavenged: int = 0  # Scavenged markers: successful Scavenges only (A7)


@dataclass(frozen=True, slots=True)
class Activation:
    """The activation under way: the Move roll (its first die, then any +D6 bought with Grit) and spaces moved."""

    figure: str
    move: Roll | None = None
    moved: int = 0
    boosts: int = 0  # +D6 Move bought with Grit (FF-MOVE-03)


@dataclass(frozen=True, slots=True)
class MissionCounter:
    """A number a mission keeps (Clues found, a Countdown, Bandits killed ...)."""

    name: str
    value: int = 0


@dataclass(frozen=True, slots=True)
class Gang:
    """An Infamous Bandit Gang card in play (FT-BANDIT-09). The 5 cards are not in the rulebooks: the table enters what
    its card says. `dynamite`: its members throw Dynamite (the Hitchcock Gang), at their gun's Range (FT-FAQ-07)."""

    name: str
    rules: str = ""
    xp_per_kill: int = 0
    bounty_per_kill: int = 0
    dynamite: bool = False


@dataclass(frozen=True, slots=True)
class Adventure:
    """Where the posse is in its Adventure (FF-TURN-01): the turn, the track, the party, the board."""

    mission: str = "lost_contact"
    turn: int = 1
    step: TurnStep = TurnStep.START
    lantern: str = ""  # the Old Lantern holder, who rolls Hold Back the Darkness (FF-HERO-14)
    track: DepthTrack = DepthTrack()
    darkness: int = 0  # the Darkness marker's space (starts on Darkness Start, FF-DEPTH-02)
    party: int = 0  # the Hero Party marker's space (starts on the Entrance)
    threat: str = "low"  # the Threat deck for the posse size (FF-SCALE-01)
    revive_tokens: int = 0  # FF-SCALE-01, plus travel result 16's
    growing_dread: int = 0  # Growing Dread cards on the face-down stack (FF-DEPTH-08)
    darkness_cards: int = 0  # Darkness cards drawn (FF-DEPTH-07)
    heroes: tuple[PartyHero, ...] = ()
    figures: tuple[Figure, ...] = ()  # enemies and a mission's other figures on the board
    tiles: tuple[MapTile, ...] = ()
    tokens: tuple[ExplorationToken, ...] = ()  # the Exploration Token stack, when the pack has the tokens
    map_deck: tuple[str, ...] = ()  # Map cards left, when the pack has them (FF-CARD-01)
    map_discard: tuple[str, ...] = ()
    activated: tuple[str, ...] = ()  # figures that have activated this turn
    activation: Activation | None = None
    last_hbtd: Roll | None = None  # this turn's Hold Back the Darkness roll
    counters: tuple[MissionCounter, ...] = ()
    fights: int = 0  # Fights begun (a Fight lasts while any enemy is on the board)
    gang: Gang | None = None  # an Infamous Bandit Gang card in play: every Bandit is one of it (FT-BANDIT-09)

    def hero(self, hero_id: str) -> PartyHero:
        for member in self.heroes:
            if member.id == hero_id:
                return member
        raise KeyError(hero_id)

    def figure(self, figure_id: str) -> Figure:
        for figure in self.figures:
            if figure.id == figure_id:
                return figure
        raise KeyError(figure_id)

    def tile(self, tile_id: str) -> MapTile:
        for tile in self.tiles:
            if tile.id == tile_id:
                return tile
        raise KeyError(tile_id)

    def counter(self, name: str) -> int:
        return next((c.value for c in self.counters if c.name == name), 0)

    @property
    def enemies(self) -> tuple[Figure, ...]:
        return tuple(f for f in self.figures if f.side is Side.ENEMY)

    @property
    def in_fight(self) -> bool:
        """A Fight is on while any Enemy is on the board (FF-TURN-05)."""
        return any(f.side is Side.ENEMY for f in self.figures)

    @property
    def escaped(self) -> bool:
        """The Darkness marker reached the Entrance (FF-DEPTH-09)."""
        return bool(self.track.spaces) and self.darkness >= self.track.entrance
