"""The road to town: choose the size, watch the hazard count, step through each hazard, see who it changed.

Follows the rules' own order (FT-TRAVEL-01..04): the size decides the hazard count, the hero who generated each
hazard rolls it on the D36 chart, and once every hazard is resolved the posse arrives and the town is built.
"""

from __future__ import annotations

from dataclasses import dataclass

from shared_rules import Arrive, ChooseTownSize, EndTownStay, Event, Phase, RollHazard
from shared_rules.content import TOWN_SIZES, TRAVEL_HAZARDS
from shared_rules.state import TownSize

from ..client import LogStep
from ..i18n import _
from .asking import question_text
from .happened import table_todo
from .table import Cancel, TableSession
from .words import event_text

SEND_WINDOW = 1.2  # as on the dice screen: the D36 goes out a moment after its ones die, unless held

# Commands that start a rule; answers (roll, choose, reroll, enter_card) continue the one before them
STARTERS = frozenset({"choose_town_size", "roll_hazard", "arrive", "end_town_stay", "adjust"})
ANSWER_COMMANDS = frozenset({"roll", "choose", "reroll", "enter_card"})
# Events that say what changed for a hero or the posse (the rest are rolls, prompts and answers)
CHANGE_EVENTS = frozenset({"changed", "item_lost", "item_gained", "token_gained", "token_lost", "knocked_out",
                           "grit_lost", "carry", "test", "card", "town_type", "town_built", "building_destroyed",
                           "hazard_count", "phase", "town_short", "undone", "nothing_lost"})  # fmt: skip


def phase_words(phase: Phase) -> str:
    """Where the posse is, as the Road screen's heading says it in the app's language."""
    return {
        Phase.BETWEEN_ADVENTURES: _("After the Adventure: choose the town to travel to"),
        Phase.TRAVEL: _("On the road"),
        Phase.ARRIVAL: _("The road is behind you: arrive in town"),
        Phase.TOWN: _("In town"),
    }.get(phase, phase.value.replace("_", " "))


def town_words(size: TownSize | str) -> str:
    """A town size as the game says it: Small Town, Medium Town, Large Town."""
    value = size.value if isinstance(size, TownSize) else size
    return {"small": _("Small Town"), "medium": _("Medium Town"), "large": _("Large Town")}.get(value, value)


@dataclass(frozen=True, slots=True)
class SizeOption:
    size: str
    label: str
    note: str
    enabled: bool


@dataclass(frozen=True, slots=True)
class HazardRow:
    number: int
    roller: str
    result: str  # "42 Raging River", "next", "to roll"
    state: str  # done | next | waiting | skipped


@dataclass(frozen=True, slots=True)
class WhoChanged:
    who: str
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TravelView:
    phase: str
    headline: str
    sizes: tuple[SizeOption, ...]
    hazard_total: int
    hazard_done: int
    hazards: tuple[HazardRow, ...]
    action: str  # roll_hazard | arrive | end_town_stay | "" (choose a size, or a prompt waits)
    action_label: str
    destroyed_slots: int
    prompt_waiting: str  # the question the table must answer first, if any
    changes_title: str
    changes: tuple[WhoChanged, ...]
    result: str = ""  # the hazard met, on top: "42 Raging River"
    effect: str = ""  # what the chart says it does
    todo: tuple[str, ...] = ()  # what to do on the physical table (markers, tokens, cards)
    hazard_dice: tuple[int | None, int | None] | None = None  # the D36 typed here: (tens, ones), None when hidden
    sending: bool = False


def size_note(size: TownSize) -> str:
    """The size's hazard rule in words (FT-TRAVEL-02) and its Building Slots (FT-TOWN-01)."""
    entry = TOWN_SIZES[size]
    parts = []
    if entry.auto_hazards_per_hero:
        parts.append((_("{n} hazard per hero") if entry.auto_hazards_per_hero == 1 else _("{n} hazards per hero")).format(
            n=entry.auto_hazards_per_hero))
    if entry.roll_adds_hazard_on:
        low, high = min(entry.roll_adds_hazard_on), max(entry.roll_adds_hazard_on)
        parts.append(("+ " if parts else "") + _("a D6 each: {low}-{high} adds one").format(low=low, high=high))
    return _("{n} buildings").format(n=entry.locations) + " · " + " ".join(parts)


def last_round(log: tuple[LogStep, ...]) -> tuple[LogStep, ...]:
    """The steps of the latest rule to run: its starting command and the answers that continued it."""
    steps: list[LogStep] = []
    for step in reversed(log):
        if step.command == "undo":
            return (step,) if not steps else tuple(reversed(steps))
        steps.append(step)
        if step.command not in ANSWER_COMMANDS:
            break
    return tuple(reversed(steps))


def group_changes(events: list[Event], name_of: dict[str, str]) -> tuple[WhoChanged, ...]:
    """Events that changed something, grouped by hero in the order they first appear; the posse's last."""
    order: list[str | None] = []
    lines: dict[str | None, list[str]] = {}
    for event in events:
        if event.type not in CHANGE_EVENTS:
            continue
        key = event.hero
        if key not in lines:
            order.append(key)
            lines[key] = []
        lines[key].append(event_text(event, name_of))
    order.sort(key=lambda k: k is None)
    return tuple(WhoChanged(name_of.get(k, k) if k else _("Posse"), tuple(lines[k])) for k in order)


class TravelPresenter:
    """Travel and arrival from the table's state; buttons become commands."""

    def __init__(self, table: TableSession) -> None:
        self.table = table
        self.destroyed_slots = 0
        self.tens: int | None = None
        self.ones: int | None = None
        self.sending = False
        self._cancel: Cancel | None = None

    def view(self) -> TravelView:
        state = self.table.read
        phase = state.phase
        travel = state.travel
        prompt = state.prompt
        waiting = question_text(prompt, self.table.hero_name) if prompt is not None else ""
        sizes = tuple(SizeOption(size.value, town_words(size), size_note(size),
                                 phase is Phase.BETWEEN_ADVENTURES and prompt is None) for size in TownSize)
        rows: list[HazardRow] = []
        total = done = 0
        started = last_round(state.log)
        rolling = prompt is not None and bool(started) and started[0].command == "roll_hazard"
        met = rolling and any(e.type == "hazard" for step in started for e in step.events)  # the D36 is in
        if travel is not None:
            total, done = len(travel.rollers), travel.resolved
            for i, roller in enumerate(travel.rollers):
                name = self.table.hero_name(roller)
                if i < len(travel.hazards):
                    result = travel.hazards[i]
                    resolving = met and i == len(travel.hazards) - 1  # rolled, still waiting on an answer
                    met_name = f"{result} {TRAVEL_HAZARDS[result].name}"
                    rows.append(HazardRow(i + 1, name, _("{hazard}: in progress").format(hazard=met_name)
                                          if resolving else met_name, "next" if resolving else "done"))
                elif travel.turned_back:
                    rows.append(HazardRow(i + 1, name, _("skipped: turned back"), "skipped"))
                elif i == len(travel.hazards) and not met:
                    rows.append(HazardRow(i + 1, name, _("rolling") if prompt else _("next"), "next"))
                else:
                    rows.append(HazardRow(i + 1, name, _("to roll"), "waiting"))
        action, label = "", ""
        hazard_dice: tuple[int | None, int | None] | None = None
        if prompt is None:
            legal = {c.type: c for c in state.legal}
            if "roll_hazard" in legal and travel is not None:
                roller = self.table.hero_name(legal["roll_hazard"].hero)
                action, label = "roll_hazard", _("Roll hazard {n} of {total} ({roller} rolls the D36)").format(
                    n=done + 1, total=total, roller=roller)
                if state.options.dice == "table":
                    hazard_dice = (self.tens, self.ones)
                    label = _("Hazard {n} of {total}: {roller} rolls the D36, tap the red die then the white").format(
                        n=done + 1, total=total, roller=roller)
            elif "arrive" in legal:
                action, label = "arrive", _("Arrive: roll the town type and build the town")
            elif "end_town_stay" in legal:
                action, label = "end_town_stay", _("End the Town Stay")
        headline = phase_words(phase)
        if phase is Phase.TRAVEL and travel is not None:
            headline = _("On the road to a {town}: hazard {n} of {total}").format(
                town=town_words(travel.size), n=min(done + 1, total), total=total)
        elif phase is Phase.ARRIVAL and travel is not None:
            town, met_count = town_words(TownSize.SMALL if travel.turned_back else travel.size), len(travel.hazards)
            arriving = _("Arriving at a {town} after {n} hazard") if met_count == 1 else \
                _("Arriving at a {town} after {n} hazards")  # fmt: skip
            headline = arriving.format(town=town, n=met_count)
        elif phase is Phase.TOWN and state.town is not None:
            headline = _("In a {town}: {town_type}").format(town=town_words(state.town.size),
                                                             town_type=state.town.town_type)
        round_ = last_round(state.log)
        events = [event for step in round_ for event in step.events]
        names = state.names
        from .log import step_label

        title = _("What changed: {step}").format(step=step_label(round_[0], names)) if round_ else \
            _("Nothing has happened yet")  # fmt: skip
        if round_ and round_[0].command == "create":
            title, events = _("The posse is ready"), []
        outcome = effect = ""
        hazard = next((e for e in events if e.type == "hazard"), None)
        if hazard is not None:
            met_value = next((f.value for f in hazard.facts if f.name == "value"), None)  # the D36 result
            number = met_value if isinstance(met_value, int) and met_value in TRAVEL_HAZARDS else None
            if number is not None:
                outcome, effect = f"{number} {TRAVEL_HAZARDS[number].name}", TRAVEL_HAZARDS[number].text
                title = _("What changed")
        if round_ and round_[0].command == "undo":
            title = _("Taken back")
        return TravelView(phase.value, headline, sizes, total, done, tuple(rows), action, label,
                          self.destroyed_slots, waiting, title, group_changes(events, names), outcome, effect,
                          table_todo(events, names), hazard_dice, self.sending)

    def choose_size(self, size: str) -> None:
        self.table.submit(ChooseTownSize(size), label=f"travel to a {size} town")

    def roll_hazard(self) -> None:
        self.table.submit(RollHazard(), label="roll the next Travel Hazard")

    def tap_hazard_die(self, face: int) -> None:
        """The D36 typed on the Travel screen: the red tens die, then the white ones die (FT-DICE-01); the ones die
        sends the roll with the command, after a short window in which "wait" holds it."""
        if not 1 <= face <= 6:
            raise ValueError(f"face: a D6 shows 1-6, not {face}")
        self.hold()
        if self.tens is None or self.ones is not None:
            self.tens, self.ones = face, None
        else:
            self.ones = face
            version = self.table.snapshot.version

            def fire() -> None:
                self._cancel = None
                if self.sending and self.table.snapshot.version == version:
                    self.send_hazard()

            self.sending = True
            self._cancel = self.table.schedule(SEND_WINDOW, fire)
        self.table.changed()

    def hold(self) -> None:
        if self._cancel is not None:
            self._cancel()
            self._cancel = None
        self.sending = False

    def clear_hazard_dice(self) -> None:
        self.hold()
        self.tens = self.ones = None
        self.table.changed()

    def send_hazard(self) -> None:
        """Roll the hazard with the D36 the table rolled, in one command."""
        self.hold()
        if self.tens is None or self.ones is None:
            return
        faces = (self.tens, self.ones)
        self.tens = self.ones = None
        self.table.submit(RollHazard(dice=(faces,)), label=f"Travel Hazard: D36 = {10 * faces[0] + faces[1]}")

    def step_destroyed(self, delta: int) -> None:
        """Buildings destroyed from the start of the Stay for reasons the players give (FT-TOWN-05)."""
        self.destroyed_slots = max(0, min(8, self.destroyed_slots + delta))
        self.table.changed()

    def arrive(self) -> None:
        self.table.submit(Arrive(destroyed_slots=self.destroyed_slots), label="arrive in town")
        self.destroyed_slots = 0

    def end_stay(self) -> None:
        self.table.submit(EndTownStay(), label="end the Town Stay")

    def act(self) -> None:
        """The one big button: whatever the rules allow next."""
        action = self.view().action
        if action == "roll_hazard":
            self.roll_hazard()
        elif action == "arrive":
            self.arrive()
        elif action == "end_town_stay":
            self.end_stay()
