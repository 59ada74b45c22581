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
from .table import TableSession

# Commands that start a rule; answers (roll, choose, reroll, enter_card) continue the one before them
STARTERS = frozenset({"choose_town_size", "roll_hazard", "arrive", "end_town_stay", "adjust"})
ANSWER_COMMANDS = frozenset({"roll", "choose", "reroll", "enter_card"})
# Events that say what changed for a hero or the posse (the rest are rolls, prompts and answers)
CHANGE_EVENTS = frozenset({"changed", "item_lost", "item_gained", "token_gained", "token_lost", "knocked_out",
                           "grit_lost", "carry", "test", "card", "town_type", "town_built", "building_destroyed",
                           "hazard_count", "phase", "town_short"})  # fmt: skip
PHASE_WORDS = {
    Phase.BETWEEN_ADVENTURES: "After the Adventure: choose the town to travel to",
    Phase.TRAVEL: "On the road",
    Phase.ARRIVAL: "The road is behind you: arrive in town",
    Phase.TOWN: "In town",
}


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


def size_note(size: TownSize) -> str:
    """The size's hazard rule in words (FT-TRAVEL-02) and its Building Slots (FT-TOWN-01)."""
    entry = TOWN_SIZES[size]
    parts = []
    if entry.auto_hazards_per_hero:
        parts.append(f"{entry.auto_hazards_per_hero} hazard per hero")
    if entry.roll_adds_hazard_on:
        low, high = min(entry.roll_adds_hazard_on), max(entry.roll_adds_hazard_on)
        parts.append(f"{'+ ' if parts else ''}a D6 each: {low}-{high} adds one")
    return f"{entry.locations} buildings · " + " ".join(parts)


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
        if event.type not in CHANGE_EVENTS and event.type != "undo":
            continue
        key = event.hero
        if key not in lines:
            order.append(key)
            lines[key] = []
        lines[key].append(event.text)
    order.sort(key=lambda k: k is None)
    return tuple(WhoChanged(name_of.get(k, k) if k else "Posse", tuple(lines[k])) for k in order)


class TravelPresenter:
    """Travel and arrival from the table's state; buttons become commands."""

    def __init__(self, table: TableSession) -> None:
        self.table = table
        self.destroyed_slots = 0

    def view(self) -> TravelView:
        state = self.table.snapshot.state
        phase = state.phase
        travel = state.travel
        prompt = self.table.snapshot.pending
        waiting = prompt.question if prompt is not None else ""
        sizes = tuple(SizeOption(size.value, f"{size.value.capitalize()} Town", size_note(size),
                                 phase is Phase.BETWEEN_ADVENTURES and prompt is None) for size in TownSize)
        rows: list[HazardRow] = []
        total = done = 0
        if travel is not None:
            total, done = len(travel.rollers), travel.resolved
            for i, roller in enumerate(travel.rollers):
                name = self.table.hero_name(roller)
                if i < len(travel.hazards):
                    result = travel.hazards[i]
                    rows.append(HazardRow(i + 1, name, f"{result} {TRAVEL_HAZARDS[result].name}", "done"))
                elif travel.turned_back:
                    rows.append(HazardRow(i + 1, name, "skipped: turned back", "skipped"))
                elif i == done:
                    rows.append(HazardRow(i + 1, name, "in progress" if prompt else "next", "next"))
                else:
                    rows.append(HazardRow(i + 1, name, "to roll", "waiting"))
        action, label = "", ""
        if prompt is None:
            legal = {c.type: c for c in self.table.snapshot.legal}
            if "roll_hazard" in legal and travel is not None:
                roller = self.table.hero_name(legal["roll_hazard"].hero)
                action, label = "roll_hazard", f"Roll hazard {done + 1} of {total} ({roller} rolls the D36)"
            elif "arrive" in legal:
                action, label = "arrive", "Arrive: roll the town type and build the town"
            elif "end_town_stay" in legal:
                action, label = "end_town_stay", "End the Town Stay"
        headline = PHASE_WORDS[phase]
        if phase is Phase.TRAVEL and travel is not None:
            headline = f"On the road to a {travel.size.value.capitalize()} Town: hazard {min(done + 1, total)} of {total}"
        elif phase is Phase.ARRIVAL and travel is not None:
            size = "Small" if travel.turned_back else travel.size.value.capitalize()
            headline = f"Arriving at a {size} Town after {len(travel.hazards)} hazard{'s' if len(travel.hazards) != 1 else ''}"
        elif phase is Phase.TOWN and state.town is not None:
            headline = f"In a {state.town.size.value.capitalize()} {state.town.town_type}"
        round_ = last_round(self.table.snapshot.log)
        events = [event for step in round_ for event in step.events]
        names = {hero.id: hero.name for hero in state.heroes}
        title = f"What changed: {round_[0].command.replace('_', ' ')}" if round_ else "Nothing has happened yet"
        if round_ and round_[0].command == "create":
            title, events = "The posse is ready", []
        return TravelView(phase.value, headline, sizes, total, done, tuple(rows), action, label,
                          self.destroyed_slots, waiting, title, group_changes(events, names))

    def choose_size(self, size: str) -> None:
        self.table.submit(ChooseTownSize(size), label=f"travel to a {size} town")

    def roll_hazard(self) -> None:
        self.table.submit(RollHazard(), label="roll the next Travel Hazard")

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
