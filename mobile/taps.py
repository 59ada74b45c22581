"""Counting taps at a real table: seeded journeys played through the presenters with physical dice.

A journey is played the way a table plays it on the app: the size chosen, each roll typed in from dice the table
rolled (a seeded random generator stands in for the physical dice), every choice and Grit re-roll decided as the
engine's default policy would (`shared_rules.simulate.default_policy`), each through the buttons the screens
offer. Every call below that stands for a touch on the screen adds one tap; typing a value into a field counts its
keystrokes. No Kivy: the presenters are the app's behaviour. `tests/mobile/test_taps.py` runs it and prints the
figures; `python -m mobile.taps` prints them too.
"""

from __future__ import annotations

import random
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from shared_rules import DieKind, Prompt, RuleOptions
from shared_rules.dice import PERIL_FACES, die_count
from shared_rules.flow import ChoiceRequest, Ctx, RerollRequest
from shared_rules.simulate import default_policy, sample_heroes

from .client import OfflineBackend
from .presenters.dice import PromptPresenter, faces_matter
from .presenters.reading import test_target
from .presenters.table import TableSession, at_once
from .presenters.travel import TravelPresenter


@dataclass
class Tally:
    """Taps per hazard (from its D36 to its last answer), and the rest of the journey."""

    per_hazard: list[int] = field(default_factory=list)
    hazard_names: list[str] = field(default_factory=list)
    prompts_per_hazard: list[int] = field(default_factory=list)
    setup: int = 0  # choosing the size and the hazard count rolls
    arrival: int = 0  # arriving and building the town
    journeys: int = 0

    @property
    def mean(self) -> float:
        return sum(self.per_hazard) / max(1, len(self.per_hazard))

    def percentile(self, p: int) -> int:
        ordered = sorted(self.per_hazard)
        return ordered[min(len(ordered) - 1, len(ordered) * p // 100)] if ordered else 0

    def worst(self) -> tuple[str, int]:
        by_name: dict[str, list[int]] = {}
        for name, taps in zip(self.hazard_names, self.per_hazard, strict=True):
            by_name.setdefault(name, []).append(taps)
        name, taps = max(by_name.items(), key=lambda kv: sum(kv[1]) / len(kv[1]))
        return name, round(sum(taps) / len(taps))

    def summary(self) -> str:
        name, taps = self.worst()
        per_journey = (sum(self.per_hazard) + self.setup + self.arrival) / max(1, self.journeys)
        return (f"{self.journeys} journeys, {len(self.per_hazard)} hazards with physical dice: {self.mean:.1f} taps "
                f"per hazard (median {self.percentile(50)}, p90 {self.percentile(90)}, max {max(self.per_hazard)}; "
                f"{sum(self.prompts_per_hazard) / max(1, len(self.prompts_per_hazard)):.1f} prompts), worst on "
                f"average {name} ({taps}); {per_journey:.0f} taps per journey incl. setup and arrival")


class Player:
    """The hands at the table: rolls physical dice (a seeded generator) and taps the app's buttons."""

    def __init__(self, table: TableSession, seed: int) -> None:
        self.table = table
        self.dice = random.Random(seed)
        self.prompt_screen = PromptPresenter(table)
        self.travel = TravelPresenter(table)
        self.taps = 0
        self.prompts = 0

    def tap(self, n: int = 1) -> None:
        self.taps += n

    def roll(self, kind: DieKind, count: int) -> list[int]:
        if kind is DieKind.PERIL:
            return [self.dice.choice(PERIL_FACES) for _ in range(count)]
        if kind is DieKind.D8:
            return [self.dice.randint(1, 8) for _ in range(count)]
        return [self.dice.randint(1, 6) for _ in range(die_count(kind, count) if kind is not DieKind.POOL
                                                          else count)]

    def answer(self, prompt: Prompt) -> None:
        """One prompt, answered as the screen offers it, with the fewest taps a player would use."""
        self.prompts += 1
        screen = self.prompt_screen
        if prompt.kind == "roll":
            assert prompt.die is not None
            faces = self.roll(prompt.die, prompt.dice_count)
            target = test_target(prompt) if prompt.die is DieKind.POOL else 0
            if target and not faces_matter(prompt):
                self.tap()  # "how many hit?": one tap on the count
                assert screen.send_hits(sum(1 for f in faces if f >= target)), self.table.notice
            elif prompt.die is DieKind.TWO_D6 and screen.view().roll.totals:  # type: ignore[union-attr]
                self.tap()  # the total of the two dice
                assert screen.send_total(sum(faces)), self.table.notice
            else:
                for face in faces:  # a tap per die; the last one sends by itself after the short window
                    self.tap()
                    screen.tap_face(face)
            return
        state = self.table.snapshot.state
        ctx = Ctx(state, state.rng)
        if prompt.kind == "reroll":
            assert prompt.roll is not None and prompt.hero is not None
            decided = default_policy(ctx, RerollRequest(prompt.roll, prompt.hero, prompt.rule))
            self.tap()  # "keep the dice", or "re-rolled the misses: N hit now" (1 Grit)
            if decided is not None and decided.indices and screen.view().reroll.after_hits:  # type: ignore[union-attr]
                roll = prompt.roll
                again = self.roll(DieKind.POOL, len(decided.indices))
                screen.reroll_misses_hits(sum(1 for f in again if f >= roll.target))
            elif decided is not None and decided.indices:
                screen.reroll_misses()
            else:
                screen.keep()
            return
        if prompt.kind == "choice" and prompt.purpose:  # a draw at random: "draw for me" / "draw all"
            self.tap()
            screen.draw_all()
            return
        if prompt.kind == "choice":
            decided = default_policy(ctx, ChoiceRequest(prompt.question, prompt.options, prompt.hero, prompt.rule))
            assert decided is not None
            self.tap()
            screen.choose(decided.option)
            return
        self.tap(2)  # a card: the text field (what the card says; its letters are not counted), then send
        screen.set_card_text("as the card reads")
        assert screen.send_card()

    def answer_all(self) -> None:
        while (prompt := self.table.snapshot.pending) is not None:
            before = self.table.snapshot.version
            self.answer(prompt)
            if self.table.snapshot.version == before:
                raise RuntimeError(f"the answer to {prompt.question!r} was not taken: {self.table.notice}")


def journey(seed: int, tally: Tally, *, heroes: int = 4, size: str = "large",
            then: Callable[[Player], None] | None = None) -> None:
    """One journey to town with physical dice; adds its taps to `tally`. `then` plays on from the town with the
    same hands (the Town Stay and the Adventure are counted apart)."""
    backend = OfflineBackend(Path(tempfile.mkdtemp(prefix="taps-")))
    snapshot = backend.create(sample_heroes(heroes), RuleOptions(dice="table"), seed=seed)
    table = TableSession(backend, snapshot, schedule=at_once)
    table.start()
    player = Player(table, seed)
    player.tap()
    player.travel.choose_size(size)
    player.answer_all()
    tally.setup += player.taps
    while (travel := table.snapshot.state.travel) is not None and travel.remaining > 0 and \
            table.snapshot.state.active_heroes:
        player.taps = player.prompts = 0
        for face in player.roll(DieKind.D36, 2):  # the red die, then the white, typed on the Travel screen
            player.tap()
            player.travel.tap_hazard_die(face)
        player.answer_all()
        tally.per_hazard.append(player.taps)
        tally.prompts_per_hazard.append(player.prompts)
        hazards = table.snapshot.state.travel.hazards if table.snapshot.state.travel else ()
        tally.hazard_names.append(str(hazards[-1]) if hazards else "?")
    player.taps = 0
    if table.snapshot.legal and any(c.type == "arrive" for c in table.snapshot.legal):
        player.tap()
        player.travel.arrive()
        player.answer_all()
    tally.arrival += player.taps
    tally.journeys += 1
    if then is not None:
        then(player)
    table.stop()


def run(journeys: int = 25, first_seed: int = 1) -> Tally:
    tally = Tally()
    for seed in range(first_seed, first_seed + journeys):
        journey(seed, tally)
    return tally


# ---- a day in town, and an Adventure turn ------------------------------------------------------------------------
def stay_day(player: Player) -> int:
    """A common Town Stay Day on the Stay screen: start it, answer the Daily Event and the beds, each hero one
    visit (a tap on the place, the Location Event from the table's dice, the card, leave), end the Day. Taps."""
    from .presenters.stay import StayPresenter

    stay = StayPresenter(player.table)
    player.taps = 0
    player.tap()
    stay.act()  # Start Day 1
    player.answer_all()
    for index in range(len(stay.view().heroes)):
        hero = stay.view().heroes[index]
        if not hero.places:
            continue
        player.tap()  # the place, under the hero
        stay.do(hero.places[index % len(hero.places)])
        player.answer_all()
        while (main := stay.view().main) is not None and main.key == "end_visit":
            player.tap()  # leave: the big button
            stay.act()
            player.answer_all()
    player.tap()
    end = stay.view().main
    stay.do(end if end is not None and end.key == "end_day" else next(a for a in stay.view().others
                                                                         if a.key == "end_day"))
    player.answer_all()
    return player.taps


def adventure_turn(player: Player) -> int:
    """A common Adventure turn on the Adventure screen (the Adventure set up as a table with the sheets types it):
    Hold Back the Darkness from the two dice, then each model in Initiative order: activate, the Move roll, end the
    activation (enemies played at the table). Taps."""
    from shared_rules.commands import SheetEntry, StartAdventure
    from shared_rules.state import SpaceMark, TrackSpace

    from .presenters.adventure import AdventurePresenter

    table = player.table
    heroes = table.read.active_heroes
    needed = {"Samurai Warrior": {"max_fury": 3}, "Traveling Monk": {"max_ki": 3},
              "Sorceress": {"mana": 3, "focus": "fire"}}
    sheets = tuple(SheetEntry(h.id, initiative=6 - i, **needed.get(h.hero_class, {}))  # type: ignore[arg-type]
                   for i, h in enumerate(heroes))
    layout = tuple(TrackSpace(n, 3 if n < 4 else 2 if n < 8 else 1,
                              SpaceMark.BLOOD_SPATTER if n in (3, 7) else SpaceMark.GROWING_DREAD if n in (5, 9)
                              else SpaceMark.NONE) for n in range(12))
    table.submit(StartAdventure(heroes[0].id, "lost_contact", "", layout, sheets))
    player.answer_all()
    adventure = AdventurePresenter(table)
    player.taps = 0
    turn = table.read.adventure.turn if table.read.adventure else 0
    for face in player.roll(DieKind.D6, 2):  # Hold Back the Darkness: the two dice, typed on the screen
        player.tap()
        adventure.tap_die(face)
    player.answer_all()
    for _ in range(40):
        adv = table.read.adventure
        main = adventure.view().main
        if adv is None or adv.turn != turn or main is None:
            break
        player.tap()  # activate, or end the activation: the big button
        adventure.act()
        player.answer_all()
    return player.taps


def phases(seeds: int = 10, first_seed: int = 1) -> tuple[list[int], list[int]]:
    """Taps for a stay Day (4 heroes) and an Adventure turn, over `seeds` seeded tables with physical dice."""
    days: list[int] = []
    turns: list[int] = []

    def then(player: Player) -> None:
        if player.table.read.phase.value != "town" or len(player.table.read.active_heroes) < 4:
            return
        days.append(stay_day(player))
        leave = player.table.read.legal_of("end_town_stay")
        if leave is not None and player.table.read.prompt is None:
            from shared_rules import EndTownStay

            player.table.submit(EndTownStay())
            player.answer_all()
        if player.table.read.legal_of("start_adventure") is not None:
            turns.append(adventure_turn(player))

    for seed in range(first_seed, first_seed + seeds):
        journey(seed, Tally(), then=then)
    return days, turns


if __name__ == "__main__":
    print(run().summary())
    days, turns = phases()
    print(f"stay day: {sum(days) / len(days):.1f} taps ({len(days)} days); adventure turn: "
          f"{sum(turns) / len(turns):.1f} taps ({len(turns)} turns)")
