"""Pending choices: what the engine is waiting for, who must answer, and which command answers it.

A rule that needs the table stops at a prompt. The pending record keeps the command that started the rule,
the state before it, and every answer so far, so resuming replays the rule exactly (same answers, same dice).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from .commands import Command, Effect, Faces
from .dice import DieKind, Roll
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
    label: str
    part: Part | None = None
    costs: tuple[Amount, ...] = ()
    gains: tuple[Amount, ...] = ()
    test: SkillCheck | None = None


@dataclass(frozen=True, slots=True)
class Prompt:
    """A question for the table. `answer_with` is the one command type that answers it.

    A roll prompt (and a re-roll offer) says what the rules read, as data: `target` is the N each die must reach
    ("5+", FF-DICE-06; 0 when no die is compared to a target), `reads` whether the hits, the total or each face
    counts, and `doubles` whether natural doubles change the outcome (FF-DICE-07: no total in one tap then).
    """

    id: str
    kind: PromptKind
    question: str
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
