"""Bulk journeys for the workers: choose a Town size, resolve every Travel Hazard, arrive, and tally what happened.

Every journey runs through `apply()` exactly as a table would, with the session RNG rolling the dice (dice option
"server") and `default_policy` answering every prompt, so the figures are those of the rules as implemented. Trial
i's seed depends only on (seed, i), so a run split into chunks and merged equals one run. Tallies keep whole
histograms of integers, so percentiles stay exact after a merge. Pure: no I/O.

    tally = run_trials(sample_heroes(4), "large", 10_000, seed=7)
    summary = summarize(tally)
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .commands import Arrive, ChooseTownSize, Command, RollHazard
from .content import TRAVEL_HAZARDS
from .dice import next_random, seed_state
from .engine import apply, autoplay, new_session
from .flow import CardRequest, ChoiceRequest, Ctx, DrawRequest, Policy, Request, RerollRequest, RollRequest
from .frozen import evolve, replace
from .prompts import Amount, Answer, Option, Part
from .state import Hero, Item, ItemTag, Phase, RuleOptions, Session, Skills, TownSize

_MASK = (1 << 64) - 1
TALLY_VERSION = 1
PERCENTILES = (5, 25, 50, 75, 95)

# ---- the default policy -----------------------------------------------------------------------------------------
# A plain table's answers, read from the meaning each option carries (prompts.Option): never from its words.
HELP_THRESHOLD = 3  # a hero takes part in an optional test when the skill it tests is 3 or more
SIMULATED_CARD = "simulated"


def _able(ctx: Ctx, heroes: Sequence[str], option: Option) -> bool:
    """Whether taking part looks sensible: some hero has the tested skill at the threshold, and can pay what is
    certain to be paid (a rolled price counts at its most, D6 x amount)."""
    if option.test is not None and not any(ctx.skill(h, option.test.skill) >= HELP_THRESHOLD for h in heroes):
        return False
    return all(_affordable(ctx, heroes, cost) for cost in option.costs)


def _affordable(ctx: Ctx, heroes: Sequence[str], cost: Amount) -> bool:
    if cost.field in ("item", "token") or cost.field not in ("gold", "grit", "dark_stone", "xp"):
        return True  # losses and risks, not prices
    most = cost.amount * (6 if cost.dice else 1)
    return any(getattr(ctx.hero(h), cost.field) >= most for h in heroes)


def _distinct(names: list[str]) -> bool:
    """Whether no name comes twice (a handful of options: each found first where it stands, no set built)."""
    return all(names.index(name) == index for index, name in enumerate(names))  # compiled: a loop


def _choose(ctx: Ctx, request: ChoiceRequest) -> str:
    options = request.options
    heroes = [request.hero] if request.hero else ctx.heroes()
    join = decline = priced = tested = None  # the first option of each meaning, read in one pass
    skills: list[str] = []
    for option in options:
        if option.part is Part.JOIN and join is None:
            join = option
        elif option.part is Part.DECLINE and decline is None:
            decline = option
        if option.test is not None:
            skills.append(option.test.skill)
            if not option.costs and tested is None:
                tested = option
        elif option.costs and option.costs[0].field == "gold" and priced is None:
            priced = option
    if join is not None and decline is not None:  # "each Hero may ...": take part when able
        return join.key if _able(ctx, heroes, join) else decline.key
    hero = request.hero
    if hero is not None and len(skills) == len(options) and _distinct(skills):
        # "Cunning 5+ OR Strength 5+": the hero's best skill (ties: the first offered)
        best, level = 0, -1
        for index, skill in enumerate(skills):
            if (this := ctx.skill(hero, skill)) > level:
                best, level = index, this
        return options[best].key
    if priced is not None and tested is not None:  # pay a price or take a test: pay when affordable (A8)
        return priced.key if _able(ctx, heroes, priced) else tested.key
    return options[0].key  # which loss, which helper, which split ...: the first offered


def default_policy(ctx: Ctx, request: Request) -> Answer | None:
    """A plain table's answers, so a journey runs without prompts (the simulation and `brimstone travel --auto`).

    - Grit re-roll offer: when the test failed (no success, A1), re-roll every failed die not yet re-rolled
      (FF-GRIT-01/02); a passed test keeps its dice.
    - Choices, read from each option's meaning: an optional part (help, enter, search, ford) is joined when a hero
      it concerns has the tested skill at 3 or more and can pay what it certainly costs, else declined; "Skill A
      OR Skill B" takes the hero's better skill; a price or a test (Mutant Warlord) pays when the hero can afford
      it (A8), else tests; anything else (which item or token to lose, ...) takes the first option.
    - Cards the rulebooks lack (Injury, Madness, Gear, Artifact): no effect, text "simulated".
    - Rolls and random draws: None, so the session RNG rolls them (dice option "server").
    """
    if isinstance(request, (RollRequest, DrawRequest)):
        return None
    if isinstance(request, RerollRequest):
        roll = request.roll
        if roll.passed:
            return Answer("reroll")
        failed = tuple(i for i, face in enumerate(roll.faces) if face < roll.target and i not in roll.rerolled)
        return Answer("reroll", indices=failed)
    if isinstance(request, ChoiceRequest):
        return Answer("choice", option=_choose(ctx, request))
    assert isinstance(request, CardRequest)
    return Answer("card", text=SIMULATED_CARD)


# ---- sample heroes -----------------------------------------------------------------------------------------------
_SAMPLES: tuple[tuple[str, str, Skills], ...] = (
    ("Hanzo", "Samurai Warrior", Skills(agility=3, cunning=2, spirit=3, strength=4, lore=2, luck=3)),
    ("Kasumi", "Assassin", Skills(agility=4, cunning=4, spirit=2, strength=3, lore=2, luck=3)),
    ("Tenzin", "Traveling Monk", Skills(agility=3, cunning=2, spirit=4, strength=3, lore=3, luck=2)),
    ("Akane", "Sorceress", Skills(agility=2, cunning=3, spirit=3, strength=2, lore=4, luck=3)),
)


def sample_heroes(count: int = 4) -> tuple[Hero, ...]:
    """`count` (1-6) ready-made heroes of the four FF classes, skills 2-4, with items and tokens the hazards read."""
    if not 1 <= count <= 6:
        raise ValueError(f"count: a posse has 1-6 heroes, got {count}")
    heroes = []
    for index in range(count):
        name, hero_class, skills = _SAMPLES[index % len(_SAMPLES)]
        if index >= len(_SAMPLES):
            name += " II"
        items = (
            Item("horse", "Horse", frozenset({ItemTag.TRANSPORT})),
            Item("travel-cloak", "Travel Cloak", frozenset({ItemTag.CLOTHING})),
            Item("pocket-watch", "Pocket Watch", frozenset({ItemTag.PERSONAL}), hourglass=1),
            Item("dark-stone-charm", "Dark Stone Charm", frozenset({ItemTag.GEAR, ItemTag.DARK_STONE})),
        )
        heroes.append(Hero(f"h{index + 1}", name, hero_class, skills=skills, gold=150, dark_stone=1,
                           corruption=index % 3, items=items, side_bag=("Bandages", "Whiskey")))
    return tuple(heroes)


# ---- one journey ------------------------------------------------------------------------------------------------
HERO_METRICS = (
    "xp", "gold", "wounds", "sanity_damage", "sanity_permanent", "health_permanent", "corruption", "dark_stone",
    "grit", "grit_spent", "items_lost", "tokens_lost", "unwanted_attention", "knocked_out", "removed",
    "transports_lost", "mutations_gained",
)  # fmt: skip
JOURNEY_METRICS = ("hazards", "hazards_met", "buildings_destroyed")
NO_TOWN = "(no hero reached town)"


@dataclass(frozen=True, slots=True)
class Journey:
    """One finished journey: the last state, and the Grit each hero chose to spend (not readable from the state)."""

    start: Session
    state: Session
    grit_spent: tuple[int, ...]


def spends_grit(request: Request, answer: Answer) -> bool:
    """Whether an answer spends Grit by choice: a re-roll (FF-GRIT-01), or an option priced in Grit (Plague Church).

    Grit that hazards take (22, 35, 46, 65) is not spent by choice; it shows in the net `grit` change."""
    if isinstance(request, RerollRequest):
        return bool(answer.indices)
    if not isinstance(request, ChoiceRequest):
        return False
    for option in request.options:  # a loop, not next() over a generator: a bulk run asks this of every choice
        if option.key == answer.option:
            return any(cost.field == "grit" for cost in option.costs)
    return False


class GritCounter:
    """A policy wrapper that counts the Grit each hero spends by choice while `policy` (default: the default
    policy) answers; the RNG rolls every die and makes every random draw (neither is passed to the policy). `dice`, when given, answers
    the rolls and random draws first (the odds' `controls.DiceTally`: the same RNG, counting how the dice fell)."""

    __slots__ = ("index", "spent", "policy", "dice")

    def __init__(self, heroes: Sequence[Hero], policy: Policy | None = None, *, dice: Policy | None = None) -> None:
        self.index = {hero.id: i for i, hero in enumerate(heroes)}
        self.spent = [0] * len(heroes)
        self.policy = policy  # None: the default policy, called directly (not through Python's call protocol)
        self.dice = dice

    def __call__(self, ctx: Ctx, request: Request) -> Answer | None:
        if isinstance(request, (RollRequest, DrawRequest)):  # most requests: the RNG rolls and draws them
            return None if self.dice is None else self.dice(ctx, request)
        answer = default_policy(ctx, request) if self.policy is None else self.policy(ctx, request)
        if answer is not None and spends_grit(request, answer):
            assert isinstance(request, (RerollRequest, ChoiceRequest)) and request.hero is not None
            self.spent[self.index[request.hero]] += 1
        return answer


def play_journey(start: Session, size: str, *, quiet: bool = False) -> Journey:
    """Choose `size`, resolve every hazard, and arrive through `apply()` as a table would, answering with
    `default_policy` (FT-TRAVEL-01..04). The reference the fast path (`autoplay_journey`) is tested against."""
    policy = GritCounter(start.heroes)
    state = _step(start, ChooseTownSize(size), policy, quiet)
    while state.phase is Phase.TRAVEL:
        state = _step(state, RollHazard(), policy, quiet)
    if state.anyone_left:
        state = _step(state, Arrive(), policy, quiet)
    return Journey(start, state, tuple(policy.spent))


def _step(state: Session, command: Command, policy: Policy, quiet: bool) -> Session:
    outcome = apply(state, command, policy=policy, quiet=quiet)
    if outcome.pending is not None:  # the policy answers everything and the RNG rolls: a prompt is a bug
        raise RuntimeError(f"journey stopped at prompt {outcome.pending.question!r} after {command.type}")
    return outcome.state


# a journey's commands, made once: a command is an interpreted value (commands.py is not compiled), and making one
# cost more than checking it
_CHOOSE = {size.value: ChooseTownSize(size.value) for size in TownSize}
_ROLL_HAZARD = RollHazard()
_ARRIVE = Arrive()


def autoplay_journey(start: Session, size: str, *, quiet: bool = True, dice: Policy | None = None) -> Journey:
    """The same journey as `play_journey` on one autoplay context (`engine.autoplay`): the rules decide and roll
    in place, no Outcome or pending record per command; ends in the same state (tests run thousands of seeds).
    `dice`: an answer source for the rolls and draws before the RNG (see `GritCounter`)."""
    policy = GritCounter(start.heroes, dice=dice)
    ctx = Ctx(start, start.rng, quiet=quiet)
    commands = 1
    rng_first = dice is None  # then the policy leaves every roll and draw to the RNG
    autoplay(ctx, _CHOOSE.get(size) or ChooseTownSize(size), policy, rng_first=rng_first)
    while ctx.state_but_heroes.phase is Phase.TRAVEL:  # asked without folding the heroes in after each hazard
        autoplay(ctx, _ROLL_HAZARD, policy, rng_first=rng_first)
        commands += 1
    if ctx.state.anyone_left:
        autoplay(ctx, _ARRIVE, policy, rng_first=rng_first)
        commands += 1
    end = evolve(ctx.state, {"rng": ctx.rng, "step": start.step + commands})
    return Journey(start, end, tuple(policy.spent))


def hero_values(before: Hero, after: Hero, spent: int) -> tuple[int, ...]:
    """One hero's figures for a journey, in `HERO_METRICS` order: after minus before, and the losses."""
    # most journeys: nothing to count, the very same tuples (asked first: `==` walks the tuples' items)
    if before.side_bag is after.side_bag or before.side_bag == after.side_bag:
        tokens_lost = 0
    else:  # the tokens the bag had that it has no more, each counted as often as it went (a multiset difference)
        left = list(after.side_bag)
        tokens_lost = 0
        for token in before.side_bag:
            if token in left:
                left.remove(token)
            else:
                tokens_lost += 1
    if before.items is after.items or before.items == after.items:
        items_lost = transports_lost = 0
    else:
        kept = {item.id for item in after.items}
        lost = [item for item in before.items if item.id not in kept]
        items_lost = len(lost)
        transports_lost = sum(1 for item in lost if ItemTag.TRANSPORT in item.tags)
    return (
        after.xp - before.xp,
        after.gold - before.gold,
        after.wounds - before.wounds,
        after.sanity_damage - before.sanity_damage,
        after.sanity_mod - before.sanity_mod,
        after.health_mod - before.health_mod,
        after.corruption - before.corruption,
        after.dark_stone - before.dark_stone,
        after.grit - before.grit,
        spent,
        items_lost,
        tokens_lost,
        after.unwanted_attention - before.unwanted_attention,
        1 if after.knocked_out and not after.removed else 0,
        1 if after.removed else 0,
        transports_lost,
        mutations if (mutations := len(after.mutations) - len(before.mutations)) > 0 else 0,
    )


# One journey as plain numbers: (its figures, town type, town size, the D36 results met). The figures are
# hazards, hazards met, buildings destroyed and turned back, then each hero's `HERO_METRICS`, then the posse's (the
# heroes' added up), in one flat tuple: the tally turns many rows into columns in one pass. Rows are what the fast
# path and apply() are compared on.
JourneyRow = tuple[tuple[int, ...], str, str, tuple[int, ...]]


def journey_row(journey: Journey) -> JourneyRow:
    """The figures of one finished journey (what a Tally counts)."""
    end = journey.state
    travel, town = end.travel, end.town
    figures = [
        len(travel.rollers) if travel else 0,
        len(travel.hazards) if travel else 0,
        sum(1 for slot in town.slots if slot.destroyed) if town else 0,
        int(travel.turned_back) if travel else 0,
    ]
    before, after, spent = journey.start.heroes, end.heroes, journey.grit_spent
    if not len(before) == len(after) == len(spent):
        raise ValueError(f"a journey of {len(before)} heroes ended with {len(after)}, {len(spent)} counted")
    each: list[tuple[int, ...]] = []
    for index in range(len(before)):  # not zip(strict=True), a call through Python from compiled code
        values = hero_values(before[index], after[index], spent[index])
        figures.extend(values)
        each.append(values)
    for metric in range(len(HERO_METRICS)):  # the posse's figures: added in machine integers, made into one each
        total = 0
        for values in each:
            total += values[metric]
        figures.append(total)
    return (
        tuple(figures),
        town.town_type if town else NO_TOWN,
        town.size._value_ if town else NO_TOWN,  # `.value` is enum's Python descriptor: slow in compiled code
        travel.hazards if travel else (),
    )


# ---- the tally --------------------------------------------------------------------------------------------------
Histogram = dict[int, int]  # value -> trials with that value


@dataclass
class Tally:
    """Raw statistics of many journeys, mergeable: a histogram per metric, so every percentile stays exact.

    `posse[m]` and `heroes[id][m]` histogram each metric of `HERO_METRICS` (the posse's is the heroes' sum);
    `journey[m]` the metrics of `JOURNEY_METRICS`; `d36` how often each chart result came up in all; `town_types`
    and `town_sizes` the towns reached; `turned_back` the journeys that Raging River turned back.
    """

    size: str = ""
    hero_ids: tuple[str, ...] = ()
    hero_names: tuple[str, ...] = ()
    trials: int = 0
    journey: dict[str, Histogram] = field(default_factory=dict)
    posse: dict[str, Histogram] = field(default_factory=dict)
    heroes: dict[str, dict[str, Histogram]] = field(default_factory=dict)
    d36: Histogram = field(default_factory=dict)
    town_types: dict[str, int] = field(default_factory=dict)
    town_sizes: dict[str, int] = field(default_factory=dict)
    turned_back: int = 0

    def add(self, journey: Journey) -> None:
        """Count one finished journey."""
        self.add_rows([journey_row(journey)])

    def add_rows(self, rows: Sequence[JourneyRow]) -> None:
        """Count many journeys at once: each column of figures is counted in one pass (the per-journey cost is the
        row), in the row's order: the journey's, each hero's `HERO_METRICS`, then the posse's."""
        if not rows:
            return
        columns = list(zip(*(row[0] for row in rows), strict=True))  # figure -> its value in every journey
        metrics = len(HERO_METRICS)
        if len(columns) != 4 + (len(self.hero_ids) + 1) * metrics:
            raise ValueError(f"a journey's row has {len(columns)} figures; a tally of {len(self.hero_ids)} heroes "
                             f"counts {4 + (len(self.hero_ids) + 1) * metrics}")  # fmt: skip
        for metric, column in zip(JOURNEY_METRICS, columns, strict=False):
            _count(self.journey, metric, column)
        self.turned_back += sum(columns[3])
        for number, hero_id in enumerate(self.hero_ids):
            first = 4 + number * metrics
            mine = self.heroes.setdefault(hero_id, {})
            for metric, column in zip(HERO_METRICS, columns[first:first + metrics], strict=True):
                _count(mine, metric, column)
        for metric, column in zip(HERO_METRICS, columns[4 + len(self.hero_ids) * metrics:], strict=True):
            _count(self.posse, metric, column)
        types, sizes, d36 = self.town_types, self.town_sizes, self.d36
        for _, town_type, town_size, met in rows:  # loops the compiled build runs itself, not Counters
            types[town_type] = types.get(town_type, 0) + 1
            sizes[town_size] = sizes.get(town_size, 0) + 1
            for value in met:
                d36[value] = d36.get(value, 0) + 1
        self.trials += len(rows)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data (histogram keys as strings), for rq results and storage."""
        return {
            "version": TALLY_VERSION, "size": self.size, "hero_ids": list(self.hero_ids),
            "hero_names": list(self.hero_names), "trials": self.trials,
            "journey": _hists_out(self.journey), "posse": _hists_out(self.posse),
            "heroes": {h: _hists_out(m) for h, m in self.heroes.items()},
            "d36": _hist_out(self.d36), "town_types": dict(self.town_types), "town_sizes": dict(self.town_sizes),
            "turned_back": self.turned_back,
        }  # fmt: skip

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | str) -> Tally:
        """The tally `to_json()` wrote (or its JSON text); a wrong version or shape raises ValueError."""
        raw: Any = json.loads(data) if isinstance(data, str) else data
        if not isinstance(raw, Mapping) or raw.get("version") != TALLY_VERSION:
            raise ValueError(f"tally: expected a tally object of version {TALLY_VERSION}")
        try:
            return cls(
                size=str(raw["size"]), hero_ids=tuple(map(str, raw["hero_ids"])),
                hero_names=tuple(map(str, raw["hero_names"])), trials=int(raw["trials"]),
                journey=_hists_in(raw["journey"]), posse=_hists_in(raw["posse"]),
                heroes={str(h): _hists_in(m) for h, m in raw["heroes"].items()}, d36=_hist_in(raw["d36"]),
                town_types={str(k): int(v) for k, v in raw["town_types"].items()},
                town_sizes={str(k): int(v) for k, v in raw["town_sizes"].items()},
                turned_back=int(raw["turned_back"]),
            )  # fmt: skip
        except (KeyError, TypeError, AttributeError, ValueError) as error:
            raise ValueError(f"tally: malformed ({error!r})") from None


def _count(hists: dict[str, Histogram], metric: str, column: Sequence[int]) -> None:
    """Add a column of figures to the metric's histogram. Most of a journey's figures are 0 (no item lost, nobody
    KO'd): only the others are counted one by one (a Counter: C on either build), the 0s by what is left."""
    hist = hists.setdefault(metric, {})
    counts = Counter(filter(None, column))
    zeros = len(column) - sum(counts.values())
    if zeros:
        hist[0] = hist.get(0, 0) + zeros
    for value, count in counts.items():
        hist[value] = hist.get(value, 0) + count


def _hist_out(hist: Histogram) -> dict[str, int]:
    return {str(value): count for value, count in sorted(hist.items())}


def _hists_out(hists: dict[str, Histogram]) -> dict[str, dict[str, int]]:
    return {metric: _hist_out(hist) for metric, hist in hists.items()}


def _hist_in(raw: Mapping[str, Any]) -> Histogram:
    return {int(value): int(count) for value, count in raw.items()}


def _hists_in(raw: Mapping[str, Any]) -> dict[str, Histogram]:
    return {str(metric): _hist_in(hist) for metric, hist in raw.items()}


def _add_hists(into: dict[str, Histogram], other: dict[str, Histogram]) -> None:
    for metric, hist in other.items():
        mine = into.setdefault(metric, {})
        for value, count in hist.items():
            mine[value] = mine.get(value, 0) + count


def merge(tallies: Iterable[Tally]) -> Tally:
    """One tally of every journey in `tallies` (chunks of one run); mixing sizes or posses raises ValueError."""
    out = Tally()
    for tally in tallies:
        if not tally.trials:
            continue
        if out.trials and (tally.size, tally.hero_ids) != (out.size, out.hero_ids):
            raise ValueError(f"merge: a tally of {tally.size!r} with heroes {list(tally.hero_ids)} cannot join one "
                             f"of {out.size!r} with heroes {list(out.hero_ids)}")
        out.size, out.hero_ids, out.hero_names = tally.size, tally.hero_ids, tally.hero_names
        out.trials += tally.trials
        _add_hists(out.journey, tally.journey)
        _add_hists(out.posse, tally.posse)
        for hero, hists in tally.heroes.items():
            _add_hists(out.heroes.setdefault(hero, {}), hists)
        _add_hists({"d36": out.d36}, {"d36": tally.d36})
        for name, count in tally.town_types.items():
            out.town_types[name] = out.town_types.get(name, 0) + count
        for name, count in tally.town_sizes.items():
            out.town_sizes[name] = out.town_sizes.get(name, 0) + count
        out.turned_back += tally.turned_back
    return out


# ---- running trials ---------------------------------------------------------------------------------------------
def trial_seed(seed: int, index: int) -> int:
    """Trial `index`'s RNG seed: a SplitMix64 mix of (seed, index) alone, so chunking never changes a result."""
    _, mixed = next_random(seed_state(seed))
    _, out = next_random(mixed ^ (index & _MASK))
    return out


def split(trials: int, chunks: int) -> list[tuple[int, int]]:
    """`trials` cut into at most `chunks` (start, count) pieces of nearly equal size, in order, none empty."""
    if trials < 0 or chunks < 1:
        raise ValueError(f"split: trials >= 0 and chunks >= 1, got trials={trials}, chunks={chunks}")
    chunks = min(chunks, trials)
    out, start = [], 0
    for i in range(chunks):
        count = trials // chunks + (1 if i < trials % chunks else 0)
        out.append((start, count))
        start += count
    return out


def run_trials(
    heroes: Sequence[Hero],
    size: str,
    trials: int,
    *,
    seed: int = 0,
    start: int = 0,
    options: RuleOptions | None = None,
    progress: Callable[[int], None] | None = None,
    fast: bool = True,
) -> Tally:
    """Play journeys `start`..`start + trials - 1` to a `size` Town and tally them.

    Dice are always rolled by the RNG (dice option "server", whatever `options` says); prompts are answered by
    `default_policy`. `progress(done)` is called about every 1% (at most every 200 journeys) and at the end.
    `fast=True` plays each journey on the autoplay path with no events (`autoplay_journey`); `fast=False` through
    `apply()` with every event written, as a table plays it. Both give the same tally (tests check it).
    """
    try:
        TownSize(size)
    except ValueError:
        raise ValueError(f"size: {size!r} is not a Town size; one of small, medium, large") from None
    if trials < 0 or start < 0:
        raise ValueError(f"trials and start must be >= 0, got trials={trials}, start={start}")
    opts = replace(options or RuleOptions(), dice="server")
    base = new_session(tuple(heroes), options=opts)
    tally = Tally(size=size, hero_ids=tuple(h.id for h in base.heroes), hero_names=tuple(h.name for h in base.heroes))
    every = max(1, min(200, trials // 100))
    rows: list[JourneyRow] = []
    for done, index in enumerate(range(start, start + trials), start=1):
        first = evolve(base, {"rng": seed_state(trial_seed(seed, index))})
        journey = autoplay_journey(first, size) if fast else play_journey(first, size)
        rows.append(journey_row(journey))
        if progress is not None and (done % every == 0 or done == trials):
            progress(done)
    tally.add_rows(rows)
    return tally


# ---- summary ----------------------------------------------------------------------------------------------------
def percentile(hist: Mapping[int, int], p: int) -> int | None:
    """The nearest-rank p-th percentile: the least value with at least p% of the trials at or below it."""
    total = sum(hist.values())
    if not total:
        return None
    rank = max(1, -(-p * total // 100))  # ceil(p% of the trials), at least the first
    seen = 0
    for value in sorted(hist):
        seen += hist[value]
        if seen >= rank:
            return value
    return max(hist)


def stats(hist: Mapping[int, int]) -> dict[str, Any]:
    """Mean, min, max and the percentiles p5/p25/p50/p75/p95 of a histogram (None when empty)."""
    total = sum(hist.values())
    out: dict[str, Any] = {
        "mean": sum(v * c for v, c in hist.items()) / total if total else None,
        "min": min(hist) if total else None,
        "max": max(hist) if total else None,
    }
    for p in PERCENTILES:
        out[f"p{p}"] = percentile(hist, p)
    return out


def summarize(tally: Tally) -> dict[str, Any]:
    """The distribution of a tally: hazards met, every D36 result's frequency, towns reached, and per hero and
    for the posse XP, Gold, Wounds, Sanity (damage and permanent), Corruption, items and tokens lost, Grit spent,
    KO'd and removed, each as mean/min/max/p5/p25/p50/p75/p95. Changes are after minus before the journey."""
    n = tally.trials
    met = sum(tally.d36.values())
    results = {
        str(roll): {"name": entry.name, "count": tally.d36.get(roll, 0),
                    "per_journey": tally.d36.get(roll, 0) / n if n else 0.0,
                    "share": tally.d36.get(roll, 0) / met if met else 0.0}
        for roll, entry in sorted(TRAVEL_HAZARDS.items())
    }  # fmt: skip
    return {
        "trials": n,
        "size": tally.size,
        "hazards": {
            "count": stats(tally.journey.get("hazards", {})),
            "count_distribution": _hist_out(tally.journey.get("hazards", {})),
            "met": stats(tally.journey.get("hazards_met", {})),
            "met_distribution": _hist_out(tally.journey.get("hazards_met", {})),
            "results": results,
        },
        "turned_back": tally.turned_back,
        "buildings_destroyed": stats(tally.journey.get("buildings_destroyed", {})),
        "town_types": dict(sorted(tally.town_types.items(), key=lambda kv: (-kv[1], kv[0]))),
        "town_sizes": dict(sorted(tally.town_sizes.items())),
        "posse": {metric: stats(tally.posse.get(metric, {})) for metric in HERO_METRICS},
        "heroes": {
            hero: {"name": name, **{metric: stats(tally.heroes.get(hero, {}).get(metric, {}))
                                    for metric in HERO_METRICS}}
            for hero, name in zip(tally.hero_ids, tally.hero_names, strict=True)
        },
    }
