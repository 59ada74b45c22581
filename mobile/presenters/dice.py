"""Answering the rules: dice entry for roll prompts, Grit re-roll offers, choices, and cards read at the table.

A roll prompt offers "I rolled" (tap the faces the physical dice show) or "roll for me" (`RollDice` with no
faces: the session's RNG rolls). Faces are checked with the engine's own `validate_faces` before sending, so the
message the player sees is the engine's: the right number of dice (FF-DICE-01), only 3-6 on the Peril Die
(FF-DICE-04), a D36 as a tens die and a ones die of different colours (FT-DICE-01).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace

from shared_rules import Choose, DieKind, Effect, EnterCard, InvalidCommand, Prompt, Reroll, RollDice, RulesError
from shared_rules.commands import CardEntry as CardAnswer
from shared_rules.commands import HeroFaces, HeroOption
from shared_rules.dice import die_count, face_range, validate_faces
from shared_rules.effects import check_effects
from shared_rules.prompts import Reads
from shared_rules.state import HERO_FIELDS, SKILLS

from ..i18n import _
from .asking import option_text, question_text
from .reading import test_target
from .roll_words import chart_words
from .table import Cancel, Notice, TableSession
from .words import plain

# Die colours: the D36 needs two dice told apart before rolling (FT-DICE-01); white is the heroes' die (FF-DICE-01)
TENS_COLOUR = "red"
ONES_COLOUR = "white"
PERIL_COLOUR = "amber"
D8_COLOUR = "blue"



def field_labels() -> dict[str, str]:
    """A Hero's values by name, in the language in use (built at each call: a language switch applies)."""
    return {
        "xp": _("XP"), "gold": _("Gold"), "wounds": _("Wounds"), "sanity_damage": _("Sanity Damage"),
        "grit": _("Grit"), "max_grit": _("Max Grit"), "corruption": _("Corruption"), "dark_stone": _("Dark Stone"),
        "health_mod": _("Max Health"), "sanity_mod": _("Max Sanity"), "unwanted_attention": _("Unwanted Attention"),
        "wanted": _("Wanted"), "level": _("Level"), "defense": _("Defense"), "willpower": _("Willpower"),
        "health_base": _("Base Health"), "sanity_base": _("Base Sanity"), "agility": _("Agility"),
        "cunning": _("Cunning"), "spirit": _("Spirit"), "strength": _("Strength"), "lore": _("Lore"),
        "luck": _("Luck"),
    }  # fmt: skip


def card_named_ops() -> dict[str, str]:
    """What a card gives or takes by name, in the language in use."""
    return {"add_item": _("gains item"), "remove_item": _("loses item"), "add_token": _("gains token"),
            "add_mutation": _("gains Mutation"), "add_keyword": _("gains keyword")}  # fmt: skip


CARD_FIELDS = ("wounds", "sanity_damage", "gold", "xp", "grit", "corruption", "dark_stone", "health_mod",
               "sanity_mod", "max_grit", "unwanted_attention", "wanted", *SKILLS)  # fmt: skip
CARD_NAMED_OPS = ("add_item", "remove_item", "add_token", "add_mutation", "add_keyword")
assert set(CARD_FIELDS) <= set(HERO_FIELDS) | set(SKILLS) and set(CARD_FIELDS) <= set(field_labels())
assert set(CARD_NAMED_OPS) == set(card_named_ops())
SEND_WINDOW = 1.2  # seconds between the last die tapped and the faces sent: time to see a mis-tap and hold it


def faces_matter(prompt: Prompt) -> bool:
    """Whether the rule reads more than how many hit (each face, or the 1s of Shadows Out of Time): then no single
    "how many hit?" (the 1s are counted apart, `ones_count`; a re-roll offer marks each die)."""
    return prompt.reads in (Reads.EACH, Reads.ONES)


def ones_count(prompt: Prompt) -> bool:
    """Whether the rule reads how many hit and how many show a 1 (FT-TRAVEL-D16): two counts, two taps."""
    return prompt.reads is Reads.ONES and prompt.kind == "roll"


def by_total(prompt: Prompt) -> bool:
    """Whether a 2D6 roll may be entered by its total: the rules read the total and doubles change nothing
    (FF-DICE-05; natural doubles are a Depth Event, FF-DEPTH-05)."""
    return prompt.die is DieKind.TWO_D6 and prompt.reads is not Reads.EACH and not prompt.doubles


def hit_faces(hits: int, dice: int, target: int) -> list[int | None]:
    """Faces the rules read as `hits` hits out of `dice` at `target`+: the hits at the target, misses one below."""
    return [*([target] * hits), *([max(1, target - 1)] * (dice - hits))]


def two_dice(total: int) -> tuple[int, int]:
    """Two D6 faces that add up to `total` (2-12): a 2D6 chart reads the total only."""
    high = min(6, total - 1)
    return high, total - high


@dataclass(frozen=True, slots=True)
class DieSlot:
    index: int
    label: str
    colour: str
    face: int | None
    selected: bool  # the die the face pad fills next


@dataclass(frozen=True, slots=True)
class PosseRow:
    """One hero of a test the whole posse takes in turn: their dice, and whether the table marked them passed."""

    hero: str
    name: str
    dice: int
    passed: bool


@dataclass(frozen=True, slots=True)
class AskedRow:
    """One hero of a choice every hero makes in turn: the answer this screen gives them (a tap turns it)."""

    hero: str
    name: str
    option: str
    label: str


@dataclass(frozen=True, slots=True)
class RollEntry:
    """A roll prompt being answered: the dice to fill, the faces they may show, and what they add up to."""

    slots: tuple[DieSlot, ...]
    pad: tuple[int, ...]
    pad_colour: str
    pad_label: str
    reading: str  # what the rules will read: "D36 = 35", "3 dice: 6, 4, 1"
    complete: bool
    hint: str
    hits: tuple[int, ...] = ()  # a skill test: "how many hit?" buttons (0..dice), each one tap
    target: int = 0
    sending: bool = False  # the last die is in: the faces go out after a short window unless held
    totals: tuple[int, ...] = ()  # a 2D6 chart roll: the total in one tap (2..12)
    posse: tuple[PosseRow, ...] = ()  # a test every hero takes in turn: everyone's result on this screen
    ones: tuple[int, ...] = ()  # the rule counts the 1s too: "how many show 1?" (0..dice), with `hits`
    hits_chosen: int | None = None  # the hits tapped so far, while the 1s are still to tap (or the reverse)
    ones_chosen: int | None = None
    grit: int = 0  # a Grit re-roll of the misses may follow (FF-GRIT-01): the hero's Grit, else 0
    grit_after: bool = False  # the table wants that offer; otherwise the dice it types stand (`RollDice.keep`)
    card_totals: tuple[int, ...] = ()  # a chart the table reads on its card next: the total, with nothing to record


@dataclass(frozen=True, slots=True)
class RerollDie:
    index: int
    face: int
    success: bool
    selected: bool
    locked: bool  # re-rolled once already (FF-GRIT-02)

    @property
    def mark(self) -> str:
        """A mark beside the colour, for players who cannot tell green from red: a hit, a miss."""
        return "✓" if self.success else "✗"


@dataclass(frozen=True, slots=True)
class RerollEntry:
    dice: tuple[RerollDie, ...]
    target: int
    grit: int
    summary: str
    can_reroll: bool
    reroll_label: str
    passed: bool = False  # a pass: keeping the dice is the likely answer, and the first button
    misses: int = 0  # dice that missed and may still be re-rolled
    after_hits: tuple[int, ...] = ()  # "re-rolled the misses: how many hit now?" in one tap (0..misses)


@dataclass(frozen=True, slots=True)
class CardEntry:
    chart: str
    text: str
    effects: tuple[str, ...]  # in words
    fields: tuple[tuple[str, str], ...]
    field: str
    amount: int
    named_ops: tuple[tuple[str, str], ...]
    hint: str = ""  # what to do, the chart named in the language in use


@dataclass(frozen=True, slots=True)
class PromptView:
    """What the prompt screen shows."""

    prompt_id: str
    kind: str  # roll | reroll | choice | card | none
    who: str
    question: str
    rule: str
    roll: RollEntry | None = None
    reroll: RerollEntry | None = None
    options: tuple[tuple[str, str], ...] = ()
    draw: bool = False  # a draw at random: the phone may draw for the table
    card: CardEntry | None = None
    mine: bool = True  # this phone answers it (its hero's prompt, or the posse's)
    drawing_all: bool = False  # "draw all" is under way: the phone draws each one as it comes
    alike: bool = False  # each hero is asked this in turn: an option may be given "the same for everyone"
    asked: tuple[AskedRow, ...] = ()  # this hero and those asked next: everyone's answer on this screen


def slots_for(kind: DieKind, count: int) -> list[tuple[str, str]]:
    """Label and colour of each physical die a roll shows."""
    if kind is DieKind.D36:
        return [(f"Tens ({TENS_COLOUR})", TENS_COLOUR), (f"Ones ({ONES_COLOUR})", ONES_COLOUR)]
    if kind is DieKind.PERIL:
        return [("Peril Die", PERIL_COLOUR)]
    if kind is DieKind.D8:
        return [("D8", D8_COLOUR)]
    if kind is DieKind.D3:
        return [("D3 (a D6)", ONES_COLOUR)]
    if count == 1:
        return [("D6", ONES_COLOUR)]
    return [(f"Die {i + 1}", ONES_COLOUR) for i in range(count)]


def reading(kind: DieKind, faces: list[int | None]) -> str:
    """What the rules will read from the faces entered so far."""
    got = [face for face in faces if face is not None]
    if len(got) < len(faces):
        return f"{len(got)} of {len(faces)} dice entered"
    if kind is DieKind.D36:
        return f"D36 = {10 * got[0] + got[1]}"
    if kind is DieKind.D3:
        return f"D3 = {(got[0] + 1) // 2}"
    if kind is DieKind.TWO_D6:
        return f"2D6 = {sum(got)}"
    if kind is DieKind.INJURY_3D6:
        return f"3D6 drop lowest = {sum(got) - min(got)}"
    if len(got) == 1:
        return f"{kind.value.upper()} = {got[0]}"
    return f"{len(got)} dice: {', '.join(map(str, got))}"


class PromptPresenter:
    """The prompt the rules wait on, and the answer the player is putting together."""

    def __init__(self, table: TableSession) -> None:
        self.table = table
        self._prompt_id = ""
        self.faces: list[int | None] = []
        self.cursor = 0
        self.chosen: set[int] = set()
        self.card_text = ""
        self.card_effects: list[Effect] = []
        self.card_field = "wounds"
        self.card_amount = 1
        self._cancel_send: Cancel | None = None
        self.sending = False
        self.answer_here = False  # the player chose to answer another phone's prompt on this one
        self.draw_all_purpose = ""
        self.failed: set[str] = set()  # heroes of a posse test marked failed (the rest passed)
        self.picks: dict[str, str] = {}  # a choice every hero makes: each hero's answer, changed from the first
        self.counted: dict[str, int] = {}  # a roll whose 1s count: the hits and the ones tapped so far
        self.grit_after = False  # the dice typed are to be offered a Grit re-roll (else they stand, one tap less)
        table.listen(self._continue_draws)

    # ---- which prompt ----------------------------------------------------------------------------------------
    @property
    def prompt(self) -> Prompt | None:
        return self.table.snapshot.pending

    def sync(self) -> None:
        """A new prompt starts a fresh answer; the same prompt keeps what was entered."""
        prompt = self.prompt
        pid = prompt.id if prompt is not None else ""
        if pid == self._prompt_id:
            return
        self._prompt_id = pid
        self.hold()
        self.answer_here = False
        self.chosen = set()
        self.failed = set()
        self.picks = {}
        self.counted = {}
        self.grit_after = False
        self.card_text, self.card_effects, self.card_field, self.card_amount = "", [], "wounds", 1
        self.cursor = 0
        self.faces = []
        if prompt is not None and prompt.kind == "roll" and prompt.die is not None:
            self.faces = [None] * die_count(prompt.die, prompt.dice_count)

    def view(self) -> PromptView:
        self.sync()
        prompt = self.prompt
        if prompt is None:
            return PromptView("", "none", "", "Nothing to answer: the rules are not waiting on the table.", "")
        who = self.table.hero_name(prompt.hero) if prompt.hero else "The posse"
        mine = self.table.is_mine(prompt) or self.answer_here
        base = PromptView(prompt.id, prompt.kind, who, question_text(prompt, self.table.hero_name), prompt.rule, mine=mine,
                          drawing_all=bool(self.draw_all_purpose))
        if prompt.kind == "roll":
            return replace(base, roll=self._roll_entry(prompt))
        if prompt.kind == "reroll":
            return replace(base, reroll=self._reroll_entry(prompt))
        if prompt.kind == "choice":
            return replace(base, options=tuple((o.key, option_text(prompt, o)) for o in prompt.options),
                           draw=bool(prompt.purpose),
                           alike=prompt.alike, asked=self._asked(prompt))
        return replace(base, card=self._card_entry(prompt))

    # ---- roll prompts ----------------------------------------------------------------------------------------
    def _roll_entry(self, prompt: Prompt) -> RollEntry:
        assert prompt.die is not None
        kind = prompt.die
        specs = slots_for(kind, len(self.faces))
        slots = tuple(DieSlot(i, label, colour, self.faces[i], i == self.cursor)
                      for i, (label, colour) in enumerate(specs))
        complete = all(face is not None for face in self.faces)
        cursor = min(self.cursor, len(slots) - 1)
        hint = {
            DieKind.D36: "Tens die first (red), then the ones die (white): 3 then 5 reads 35",
            DieKind.PERIL: "The Peril Die shows 3, 3, 4, 4, 5, 6",
            DieKind.D3: "Roll a D6: 1-2 is 1, 3-4 is 2, 5-6 is 3",
        }.get(kind, "Tap the face each die shows; tap a die to change it")
        target = test_target(prompt) if kind is DieKind.POOL else 0
        hits = tuple(range(len(self.faces) + 1)) if target and not faces_matter(prompt) else ()
        if hits:
            hint = f"Count the dice showing {target} or more, and tap that number; or tap each die's face"
        totals = tuple(range(2, 13)) if by_total(prompt) else ()
        if totals:
            hint = "Tap the total of the two dice, or each die's face"
        posse = self._posse(prompt) if hits else ()
        if target and ones_count(prompt):
            hits = tuple(range(len(self.faces) + 1))
            hint = f"Count the dice showing {target} or more, and those showing 1; or tap each die's face"
        ones = tuple(range(len(self.faces) + 1)) if target and ones_count(prompt) else ()
        hero = self.table.read.hero(prompt.hero) if prompt.grit and prompt.hero else None
        return RollEntry(slots, face_range(kind), slots[cursor].colour, slots[cursor].label,
                         reading(kind, self.faces), complete, hint, hits, target, self.sending, totals, posse, ones,
                         self.counted.get("hits"), self.counted.get("ones"), hero.grit if hero else 0,
                         self.grit_after, totals if prompt.card else ())

    def toggle_grit_after(self) -> None:
        """"Re-roll misses with Grit even when some hit": the dice typed next are offered the Grit re-roll
        (FF-GRIT-01) even when the roll passed."""
        self.sync()
        self.grit_after = not self.grit_after
        self.table.changed()

    def _keep(self, prompt: Prompt, faces: Sequence[int]) -> bool:
        """Typed dice that passed stand, with no "keep the dice" tap after them: a table spends Grit on a fail
        (which is still offered) unless it asked for the offer on a pass too (FF-GRIT-01)."""
        target = test_target(prompt)
        return prompt.grit and not self.grit_after and bool(target) and any(f >= target for f in faces)

    def count(self, what: str, n: int) -> bool:
        """A roll whose 1s count (FT-TRAVEL-D16): tap how many hit and how many show 1, in either order; the
        second tap sends faces the rules read the same way (the hits at the target, the 1s, the rest between)."""
        self.sync()
        prompt = self.prompt
        if prompt is None or prompt.kind != "roll" or not ones_count(prompt) or what not in ("hits", "ones"):
            return False
        self.counted[what] = n
        self.table.changed()
        if len(self.counted) < 2:
            return True
        hits, ones, dice, target = self.counted["hits"], self.counted["ones"], len(self.faces), test_target(prompt)
        if hits + ones > dice:
            self.counted.pop(what)
            self.table.notice = Notice(f"{hits} hits and {ones} ones make more than the {dice} dice rolled",
                                       field="faces", rule=prompt.rule)
            self.table.changed()
            return False
        self.faces = [*([target] * hits), *([1] * ones), *([max(2, target - 1)] * (dice - hits - ones))]
        return self.send_faces(label=f"{prompt.purpose}: {hits} hit{'s' if hits != 1 else ''}, {ones} showing 1")

    def _posse(self, prompt: Prompt) -> tuple[PosseRow, ...]:
        """This hero and those who take the same test next (`Prompt.then`), each passed unless marked failed."""
        if not prompt.then or prompt.hero is None:
            return ()
        turns = [(prompt.hero, prompt.dice_count), *((turn.hero, turn.dice) for turn in prompt.then)]
        return tuple(PosseRow(hero, self.table.hero_name(hero), dice, hero not in self.failed) for hero, dice in turns)

    def toggle_passed(self, hero: str) -> None:
        """A posse test: mark a hero failed (no die at the target), or passed again."""
        self.sync()
        self.failed ^= {hero}
        self.table.changed()

    def send_posse(self) -> bool:
        """Everyone's test in one answer: a pass as one hit, a fail as none (the rules read only pass or fail
        here), this hero's faces and the rest as `then`. Each hero's Grit re-roll offer still follows a fail."""
        self.sync()
        prompt = self.prompt
        if prompt is None or prompt.kind != "roll" or not prompt.then:
            return False
        target = test_target(prompt)
        rows = self._posse(prompt)
        faces = {row.hero: tuple(f for f in hit_faces(1 if row.passed else 0, row.dice, target) if f is not None)
                 for row in rows}
        mine = faces.pop(rows[0].hero)
        try:  # the engine's own check of each hero's dice before anything is sent
            validate_faces(prompt.die or DieKind.POOL, mine, prompt.dice_count, field="faces", purpose=prompt.purpose)
        except InvalidCommand as error:
            self.table.notice = Notice(plain(error.message), rule=error.rule, field=error.field)
            self.table.changed()
            return False
        failed = [row.name for row in rows if not row.passed]
        said = f"{', '.join(failed)} failed" if failed else "everyone passed"
        self.table.submit(RollDice(mine, prompt=prompt.id, then=tuple(HeroFaces(h, f) for h, f in faces.items()),
                                   keep=self._keep(prompt, mine)), label=f"{prompt.purpose}: {said}")
        return True

    def tap_face(self, face: int) -> None:
        """The pad: put `face` on the selected die, then move to the next empty one; the last die sends the faces
        after a short window (`SEND_WINDOW`) in which "wait" holds them for a correction."""
        self.sync()
        if not self.faces:
            return
        self.hold()
        filled_before = all(f is not None for f in self.faces)
        self.faces[self.cursor] = face
        empty = [i for i, f in enumerate(self.faces) if f is None]
        later = [i for i in empty if i > self.cursor]
        self.cursor = later[0] if later else empty[0] if empty else self.cursor
        if not empty and not filled_before:
            self._arm()
        self.table.changed()

    def _arm(self) -> None:
        prompt_id = self._prompt_id
        self.sending = True

        def fire() -> None:
            self._cancel_send = None
            if self.sending and self._prompt_id == prompt_id:
                self.sending = False
                self.send_faces()

        self._cancel_send = self.table.schedule(SEND_WINDOW, fire)

    def hold(self) -> None:
        """"Wait": keep the faces on screen to change one; "I rolled: send" sends them."""
        if self._cancel_send is not None:
            self._cancel_send()
            self._cancel_send = None
        self.sending = False

    def select_die(self, index: int) -> None:
        self.sync()
        self.hold()
        if 0 <= index < len(self.faces):
            self.cursor = index
            self.table.changed()

    def clear_dice(self) -> None:
        self.sync()
        self.hold()
        self.faces = [None] * len(self.faces)
        self.cursor = 0
        self.table.changed()

    def send_hits(self, hits: int) -> bool:
        """"How many hit?": `hits` dice showed the target or more (FF-DICE-06). Sent as faces the rules read the
        same way: the hits at the target, the misses one below it."""
        self.sync()
        prompt = self.prompt
        if prompt is None or prompt.kind != "roll" or prompt.die is not DieKind.POOL:
            return False
        target = test_target(prompt)
        if not target or not 0 <= hits <= len(self.faces) or faces_matter(prompt):
            return False
        self.faces = hit_faces(hits, len(self.faces), target)
        return self.send_faces(label=f"{prompt.purpose}: {hits} hit{'s' if hits != 1 else ''}")

    def send_total(self, total: int) -> bool:
        """A 2D6 chart roll by its total (FF-DICE-05): one tap instead of two."""
        self.sync()
        prompt = self.prompt
        if prompt is None or prompt.kind != "roll" or prompt.die is not DieKind.TWO_D6 or not 2 <= total <= 12:
            return False
        self.faces = list(two_dice(total))
        return self.send_faces(label=f"{prompt.purpose}: 2D6 = {total}")

    def send_total_nothing(self, total: int) -> bool:
        """A chart read on its card (the pack has none): the 2D6 total, and the card says nothing to record, in one
        tap (`RollDice.card`); a card that changes something is entered on its own prompt after the total."""
        self.sync()
        prompt = self.prompt
        if prompt is None or prompt.kind != "roll" or not prompt.card or not by_total(prompt) or not 2 <= total <= 12:
            return False
        self.faces = list(two_dice(total))
        return self.send_faces(label=f"{prompt.purpose}: 2D6 = {total}, nothing on the card", card=CardAnswer())

    def send_faces(self, label: str = "", card: CardAnswer | None = None) -> bool:
        """"I rolled": check the faces with the engine's rules, then send them; False (and a notice) if refused."""
        self.sync()
        self.hold()
        prompt = self.prompt
        if prompt is None or prompt.kind != "roll" or prompt.die is None:
            return False
        faces = [face for face in self.faces if face is not None]
        try:
            checked = validate_faces(prompt.die, faces, prompt.dice_count, field="faces", purpose=prompt.purpose)
        except InvalidCommand as error:
            self.table.notice = Notice(plain(error.message), rule=error.rule, field=error.field)
            self.table.changed()
            return False
        self.table.submit(RollDice(checked, prompt=prompt.id, keep=self._keep(prompt, checked), card=card),
                          label=label or f"{prompt.purpose}: {reading(prompt.die, self.faces)}")
        return True

    def send_raw(self, faces: list[int]) -> bool:
        """Faces typed some other way (a keyboard): the same engine check as the pad."""
        self.sync()
        self.faces = [*faces]
        return self.send_faces()

    def roll_for_me(self) -> None:
        prompt = self.prompt
        if prompt is None or prompt.kind != "roll":
            return
        self.table.submit(RollDice(None, prompt=prompt.id), label=f"{prompt.purpose}: rolled by the app")

    # ---- Grit re-roll offers (FF-GRIT-01/02) ----------------------------------------------------------------
    def _reroll_entry(self, prompt: Prompt) -> RerollEntry:
        roll = prompt.roll
        assert roll is not None
        hero = self.table.read.hero(prompt.hero) if prompt.hero else None
        dice = tuple(RerollDie(i, face, face >= roll.target, i in self.chosen, i in roll.rerolled)
                     for i, face in enumerate(roll.faces))
        successes = sum(1 for die in dice if die.success)
        summary = (f"{', '.join(map(str, roll.faces))}: {successes} success{'es' if successes != 1 else ''} "
                   f"at {roll.target}+" if roll.target else ", ".join(map(str, roll.faces)))
        n = len(self.chosen)
        misses = sum(1 for d in dice if not d.success and not d.locked)
        after = tuple(range(misses + 1)) if misses and roll.target and not faces_matter(prompt) else ()
        return RerollEntry(dice, roll.target, hero.grit if hero else 0, summary, n > 0,
                           f"Re-roll {n} di{'ce' if n != 1 else 'e'} (1 Grit)" if n else "Tap dice to re-roll",
                           successes >= 1, misses, after)

    def toggle_die(self, index: int) -> None:
        self.sync()
        prompt = self.prompt
        if prompt is None or prompt.roll is None or index in prompt.roll.rerolled:
            return
        self.chosen ^= {index}
        self.table.changed()

    def reroll_misses_hits(self, hits: int) -> None:
        """One tap: the misses were re-rolled for 1 Grit and `hits` of them hit now (FF-GRIT-01/02). Sent as the
        re-roll and, right after it, the new faces."""
        self.sync()
        prompt = self.prompt
        if prompt is None or prompt.kind != "reroll" or prompt.roll is None or faces_matter(prompt):
            return
        roll = prompt.roll
        misses = tuple(i for i, f in enumerate(roll.faces) if f < roll.target and i not in roll.rerolled)
        if not misses or not 0 <= hits <= len(misses):
            return
        self.table.submit(Reroll(misses, prompt=prompt.id), label=f"re-roll {len(misses)} for 1 Grit")
        faces = tuple(f for f in hit_faces(hits, len(misses), roll.target) if f is not None)
        self.table.submit(RollDice(faces), label=f"{roll.purpose} (re-roll): {hits} hit{'s' if hits != 1 else ''}")

    def reroll_misses(self) -> None:
        """One tap: re-roll every miss not re-rolled before, for 1 Grit (FF-GRIT-01/02)."""
        self.sync()
        prompt = self.prompt
        if prompt is None or prompt.kind != "reroll" or prompt.roll is None:
            return
        roll = prompt.roll
        self.chosen = {i for i, f in enumerate(roll.faces) if f < roll.target and i not in roll.rerolled}
        self.reroll()

    def reroll(self) -> None:
        self.sync()
        prompt = self.prompt
        if prompt is None or prompt.kind != "reroll" or not self.chosen:
            return
        indices = tuple(sorted(self.chosen))
        self.table.submit(Reroll(indices, prompt=prompt.id), label=f"re-roll {len(indices)} for 1 Grit")

    def keep(self) -> None:
        prompt = self.prompt
        if prompt is None or prompt.kind != "reroll":
            return
        self.table.submit(Reroll((), prompt=prompt.id), label="keep the dice")

    # ---- choices ----------------------------------------------------------------------------------------------
    def choose(self, key: str, everyone: bool = False) -> None:
        """One tap answers the prompt; `everyone` (an alike prompt only) gives the same answer for the rest of the
        posse's alike prompts of this step, each hero's its own answer in the log (one step for undo)."""
        prompt = self.prompt
        if prompt is None or prompt.kind != "choice" or (everyone and not prompt.alike):
            return
        label = next((option_text(prompt, o) for o in prompt.options if o.key == key), key)
        self.table.submit(Choose(key, prompt=prompt.id, everyone=everyone),
                          label=f"{label} (the same for everyone)" if everyone else label)

    def _asked(self, prompt: Prompt) -> tuple[AskedRow, ...]:
        """This hero and those asked the same next (`Prompt.next_heroes`), each with the answer given them here
        (the first option until a tap turns it)."""
        if not prompt.next_heroes or prompt.hero is None or not prompt.options:
            return ()
        labels = {o.key: option_text(prompt, o) for o in prompt.options}
        first = prompt.options[0].key
        return tuple(AskedRow(hero, self.table.hero_name(hero), self.picks.get(hero, first),
                              labels[self.picks.get(hero, first)]) for hero in (prompt.hero, *prompt.next_heroes))

    def turn_pick(self, hero: str) -> None:
        """A tap on a hero's answer: the next option for them."""
        self.sync()
        prompt = self.prompt
        if prompt is None or prompt.kind != "choice" or not prompt.options:
            return
        keys = [o.key for o in prompt.options]
        now = self.picks.get(hero, keys[0])
        self.picks[hero] = keys[(keys.index(now) + 1) % len(keys)]
        self.table.changed()

    def send_asked(self) -> None:
        """Everyone's answers in one command: this hero's, and the rest as `then` (each their own in the log)."""
        self.sync()
        prompt = self.prompt
        rows = self._asked(prompt) if prompt is not None and prompt.kind == "choice" else ()
        if prompt is None or not rows:
            return
        said = ", ".join(f"{row.name}: {row.label}" for row in rows)
        self.table.submit(Choose(rows[0].option, prompt=prompt.id,
                                 then=tuple(HeroOption(row.hero, row.option) for row in rows[1:])), label=said)

    def draw_for_me(self) -> None:
        """A draw at random (a Building token, a Random Hero): the phone picks uniformly, as a shuffled pile would."""
        prompt = self.prompt
        if prompt is None or prompt.kind != "choice" or not prompt.purpose or not prompt.options:
            return
        option = secrets.choice(prompt.options)
        self.table.submit(Choose(option.key, prompt=prompt.id), label=f"{prompt.purpose}: {option.label} (drawn)")

    def draw_all(self) -> None:
        """"Draw all buildings": the phone draws this one and every draw that follows it in the same step (the
        whole town at arrival), instead of a tap per token."""
        prompt = self.prompt
        if prompt is None or prompt.kind != "choice" or not prompt.purpose:
            return
        self.draw_all_purpose = prompt.purpose
        self.draw_for_me()

    def _continue_draws(self) -> None:
        prompt = self.prompt
        if not self.draw_all_purpose:
            return
        if prompt is None or prompt.kind != "choice" or not prompt.purpose:
            self.draw_all_purpose = ""  # the step is done (or waits on something else)
            return
        if self.table.waiting == 0:
            self.draw_for_me()

    def take_over(self) -> None:
        """Answer another phone's prompt here (that phone is away, or the player asked)."""
        self.answer_here = True
        self.table.changed()

    # ---- cards: what the physical card says ------------------------------------------------------------------
    def _card_entry(self, prompt: Prompt) -> CardEntry:
        labels = field_labels()
        hint = _("Draw a card from the {chart} deck or chart, and enter what it says.").format(
            chart=chart_words(prompt.chart))
        return CardEntry(prompt.chart, self.card_text, tuple(describe_effect(e) for e in self.card_effects),
                         tuple((f, labels[f]) for f in CARD_FIELDS), self.card_field, self.card_amount,
                         tuple(card_named_ops().items()), hint)  # fmt: skip

    def set_card_text(self, text: str) -> None:
        self.sync()
        self.card_text = text

    def set_card_field(self, field: str) -> None:
        if field in CARD_FIELDS:
            self.card_field = field
            self.table.changed()

    def step_amount(self, delta: int) -> None:
        self.card_amount = max(-99, min(999, self.card_amount + delta))
        if self.card_amount == 0:
            self.card_amount = delta  # 0 changes nothing: skip it
        self.table.changed()

    def add_change(self) -> None:
        self._add(Effect("change", self.card_field, self.card_amount))

    def add_named(self, op: str, name: str) -> None:
        if op not in CARD_NAMED_OPS:
            raise ValueError(f"op: {op!r} is not one of {sorted(CARD_NAMED_OPS)}")
        self._add(Effect(op, name=name.strip()))

    def remove_effect(self, index: int) -> None:
        if 0 <= index < len(self.card_effects):
            del self.card_effects[index]
            self.table.changed()

    def _add(self, effect: Effect) -> None:
        self.sync()
        prompt = self.prompt
        if prompt is None or prompt.hero is None:
            return
        try:
            check_effects(self.table.read.session, prompt.hero, (*self.card_effects, effect))  # the engine's check
        except RulesError as error:
            self.table.notice = Notice(plain(error.message), rule=error.rule, field=error.field)
        else:
            self.card_effects.append(effect)
            self.table.notice = None
        self.table.changed()

    def send_card(self) -> bool:
        self.sync()
        prompt = self.prompt
        if prompt is None or prompt.kind != "card":
            return False
        if not self.card_text.strip() and not self.card_effects:
            self.table.notice = Notice("Say what the card reads, or add what it changes", field="text")
            self.table.changed()
            return False
        self.table.submit(EnterCard(self.card_text.strip(), tuple(self.card_effects), prompt=prompt.id),
                          label=f"card: {self.card_text.strip() or prompt.chart}")
        return True


    def send_nothing(self) -> bool:
        """The card (or the chart's line) changes nothing the app keeps: one tap answers it, the text left empty
        (the table plays what it says at the table)."""
        prompt = self.prompt
        if prompt is None or prompt.kind != "card":
            return False
        self.card_text, self.card_effects = "", []
        self.table.submit(EnterCard("", (), prompt=prompt.id),
                          label=f"card: {prompt.chart}: nothing to record")
        return True


def describe_effect(effect: Effect) -> str:
    if effect.op == "change":
        label = field_labels().get(effect.field, effect.field)
        amount = f"${abs(effect.amount)}" if effect.field == "gold" else str(abs(effect.amount))
        return f"{'+' if effect.amount > 0 else '-'}{amount} {label}"
    if effect.op == "set":
        return f"{field_labels().get(effect.field, effect.field)} = {effect.amount}"
    return f"{card_named_ops().get(effect.op, effect.op.replace('_', ' '))} {effect.name}".strip()
