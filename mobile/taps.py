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


def journey(seed: int, tally: Tally, *, heroes: int = 4, size: str = "large") -> None:
    """One journey to town with physical dice; adds its taps to `tally`."""
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
    table.stop()


def run(journeys: int = 25, first_seed: int = 1) -> Tally:
    tally = Tally()
    for seed in range(first_seed, first_seed + journeys):
        journey(seed, tally)
    return tally


if __name__ == "__main__":
    print(run().summary())
