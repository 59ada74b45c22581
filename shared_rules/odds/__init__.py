"""Decision odds from a table's actual state: a question, its options side by side, every figure with its 95%
confidence interval and the number of trials behind it.

    plan = odds.plan(state, "town_size")                      # or "choice" at a choice prompt
    samples = {c.key: odds.run_chunk(plan, c.key, 0, 2000, seed=7) for c in plan.options}
    answer = odds.answer(plan, samples, trials=2000)          # plain JSON data, ready for a screen

Chunks of one option merge exactly (`Sample.merge`), so workers share a question and the answer sharpens as
chunks arrive. Pure: no I/O.

Sequential stopping: asked with a `precision` (the 95% interval's half-width every chance must reach, 0.01 = +-1
point), an option's trials run in `pieces` (a small first one, so a first estimate comes quickly) and stop at the
first piece boundary where every chance it reports is within the target (`settle`); an option that runs out of
trials says so (`precision.met` false, with the half-width it reached). The boundaries are fixed by the budget
alone and an option's sample is always its first trials, so the same seed gives the same answer however the
pieces were spread over workers.

    answer = odds.ask(plan, 20_000, seed=7, precision=0.01)   # at most 20,000 per option, stops at +-1 point
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..dice import seed_state
from ..simulate import trial_seed
from .controls import Counts, DiceTally
from .questions import CARRY_ON, QUESTIONS, Choice, Plan, Question, measure, plan, register, travel_metrics
from .sample import Sample, chance_figure, histogram_bars, mean_figure, merged

__all__ = [
    "CARRY_ON", "QUESTIONS", "Choice", "Plan", "Question", "Sample", "answer", "answer_of", "ask", "measure",
    "merged", "option_answer",
    "option_pieces", "pieces",
    "plan", "reached", "register", "run_chunk", "settle", "Settled", "travel_metrics",
]  # fmt: skip

ANSWER_VERSION = 1

# What each hero metric is called on a screen, and which way is better for the table.
WORDS = {
    "xp": "XP", "gold": "Gold", "wounds": "Wounds", "sanity_damage": "Sanity Damage",
    "sanity_permanent": "Max Sanity (permanent)", "health_permanent": "Max Health (permanent)",
    "corruption": "Corruption Points", "dark_stone": "Dark Stone", "grit": "Grit", "grit_spent": "Grit spent",
    "items_lost": "Items lost", "tokens_lost": "Side Bag tokens lost", "unwanted_attention": "Unwanted Attention",
    "knocked_out": "KO'd", "removed": "Killed", "transports_lost": "Transports lost",
    "mutations_gained": "Mutations gained",
}  # fmt: skip
HIGHER_IS_BETTER = {"xp", "gold", "sanity_permanent", "health_permanent", "dark_stone", "grit"}
HEADLINE = ("xp", "gold", "wounds", "sanity_damage", "corruption", "sanity_permanent", "health_permanent",
            "items_lost")  # compared option against option for the posse
HISTOGRAMS = ("xp", "gold", "wounds", "sanity_damage", "corruption")  # per-trial distributions for the screen
POSSE_CHANCES = {"anyone_killed": "posse.removed", "buildings_destroyed": "journey.buildings_destroyed",
                 "turned_back": "journey.turned_back", "mission_won": "mission.won",
                 "darkness_escaped": "adventure.escaped"}
HERO_CHANCES = {"killed": "removed", "knocked_out": "knocked_out", "loses_transport": "transports_lost",
                "gains_mutation": "mutations_gained"}
CHANCE_WORDS = {"killed": "Killed", "knocked_out": "KO'd", "loses_transport": "Loses a Transport",
                "gains_mutation": "Gains a Mutation", "buildings_destroyed": "Buildings destroyed on arrival",
                "turned_back": "Turned back to a Small Town", "anyone_killed": "A hero is killed",
                "mission_won": "The Mission is won", "darkness_escaped": "The Darkness escapes"}


def run_chunk(plan: Plan, option: str, start: int, count: int, *, seed: int,
              progress: Callable[[int], None] | None = None) -> Sample:
    """Trials `start`..`start + count - 1` of one option; trial i's RNG depends only on (seed, i), so chunks merge
    into the very sample one run would give. `progress(done)` is called about every 2% and at the end."""
    if option not in {c.key for c in plan.options}:
        raise ValueError(f"option: {option!r} is not compared by this plan")
    question = QUESTIONS[plan.question]
    rows: list[tuple[int, ...]] = []
    labels: list[tuple[str, ...]] = []
    dice: list[Counts] = []
    tally = DiceTally() if question.counts_dice else None
    every = max(1, min(250, count // 50))
    for done, index in enumerate(range(start, start + count), start=1):
        rng = seed_state(trial_seed(seed, index))
        if tally is None:
            values, names = question.trial(plan, option, rng)
        else:
            values, names = question.trial(plan, option, rng, dice=tally)
            dice.append(tally.take())
        rows.append(values)
        labels.append(names)
        if progress is not None and (done % every == 0 or done == count):
            progress(done)
    sample = Sample()
    sample.add_rows(question.metrics(plan), rows, question.categories(plan), labels, dice, chance_metrics(plan),
                    first=start)
    return sample


def chance_metrics(plan: Plan) -> set[str]:
    """The metrics an answer reads as chances (the posse's and each hero's)."""
    return {*POSSE_CHANCES.values(), *(f"{hero.id}.{m}" for hero in plan.state.heroes for m in HERO_CHANCES.values())}


def ask(plan: Plan, trials: int, *, seed: int = 0, precision: float | None = None, chunk: int = 500,
        partial: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """The whole question in this process (the CLI, tests): `trials` per option, answered. With `precision`, each
    option stops at the first of its `pieces` where `settle` says its chances are within the target (at most
    `trials`); `partial(answer)` sees the answer after every piece (options in turn, a round at a time)."""
    if precision is None and partial is None:
        return answer(plan, {c.key: run_chunk(plan, c.key, 0, trials, seed=seed) for c in plan.options},
                      trials=trials)
    samples = {c.key: Sample() for c in plan.options}
    open_ = [c.key for c in plan.options]
    for start, count in option_pieces(plan.question, trials, chunk, stopping=precision is not None):
        for key in list(open_):
            samples[key].merge(run_chunk(plan, key, start, count, seed=seed))
            if precision is not None and reached(plan, samples[key])[0] <= precision:
                open_.remove(key)
        if partial is not None:
            partial(answer(plan, samples, trials=trials, precision=precision))
        if not open_:
            break
    return answer(plan, samples, trials=trials, precision=precision)


def option_pieces(question: str, trials: int, chunk: int, *, stopping: bool = True) -> list[tuple[int, int]]:
    """`pieces` of an option of `question`: its own first piece and largest piece (an Adventure is ~50 times a
    journey's cost, so its pieces are smaller), `chunk` at most; when the option may stop at a boundary
    (`stopping`: asked with a precision), its stopping piece at most (small, so it stops near its target).
    Without a precision every trial is played and the boundaries change nothing: larger pieces cost less."""
    asked = QUESTIONS[question]
    largest = min(chunk, asked.largest_piece or chunk)
    if stopping:
        largest = min(largest, asked.stopping_piece or largest)
    return pieces(trials, largest, first=asked.first_piece)


def pieces(trials: int, chunk: int, *, first: int = 100) -> list[tuple[int, int]]:
    """An option's trials 0..trials-1 as (start, count) pieces, in order: `first`, then doubling up to `chunk`,
    then `chunk` each. The boundaries depend on (trials, chunk) alone: where sequential stopping looks."""
    if trials < 0 or chunk < 1:
        raise ValueError(f"pieces: trials >= 0 and chunk >= 1, got trials={trials}, chunk={chunk}")
    out, start, size = [], 0, max(1, min(first, chunk))
    while start < trials:
        count = min(size, trials - start)
        out.append((start, count))
        start += count
        size = min(chunk, size * 2)
    return out


@dataclass
class Settled:
    """How far `settle` has merged one option's pieces: kept by a caller that settles again as pieces arrive, so
    each piece is merged and each boundary checked once."""

    sample: Sample = field(default_factory=Sample)
    merged: int = 0
    met: bool = False


def settle(plan: Plan, chunks: Sequence[Sample | None], precision: float | None,
           memo: Settled | None = None) -> tuple[Sample, bool]:
    """One option's sample from its pieces' samples in order (None: not in yet): merged up to the first missing
    one, or up to the first boundary where every chance is within `precision`. Returns (sample, stopped), with
    `stopped` true when the target was met there (the pieces after it are not needed). With `memo` (the same
    pieces, more of them in), it carries on from where the last call stopped."""
    memo = Settled() if memo is None else memo
    for chunk in chunks[memo.merged:] if not memo.met else ():
        if chunk is None:
            break
        memo.sample.merge(chunk)
        memo.merged += 1
        if precision is not None and reached(plan, memo.sample)[0] <= precision:
            memo.met = True
            break
    return memo.sample, memo.met


def reached(plan: Plan, sample: Sample) -> tuple[float, str | None]:
    """The widest 95% half-width among the chances an option reports (the posse's and each hero's) and that
    chance's name: what sequential stopping compares with its target. The Town type reached is left out: it is
    the 2D6 of arrival (FT-TOWN-02), the same for every option, so it tells the options nothing apart; means are
    left out too (each in its own units). 1.0 before any trial."""
    if not sample.trials:
        return 1.0, None
    widest, name = 0.0, None
    for figure, hist in _chances(plan, sample):
        low, high = figure["ci"]
        if (high - low) / 2 > widest:
            widest, name = (high - low) / 2, hist
    return widest, name


def _chances(plan: Plan, sample: Sample) -> list[tuple[dict[str, Any], str]]:
    measured = QUESTIONS[plan.question].metrics(plan)
    out = [(sample.chance(name), f"chance.{key}") for key, name in POSSE_CHANCES.items() if name in measured]
    for hero in plan.state.heroes:
        out += [(sample.chance(f"{hero.id}.{m}"), f"{hero.id}.chance.{key}")
                for key, m in HERO_CHANCES.items() if f"{hero.id}.{m}" in measured]
    return out


def answer(plan: Plan, samples: Mapping[str, Sample], *, trials: int,
           precision: float | None = None) -> dict[str, Any]:
    """The answer document: per option its expected figures (every figure the question measures that is not one
    hero's own) and chances with 95% intervals and the trials behind each, each hero's figures and chances,
    histograms to draw, and `comparison`: the headline figures option against option. `samples` may hold
    fewer trials than asked (a partial answer while chunks arrive); `complete` says whether all are in: every
    trial, or with a `precision` target, every option within it (an option stops there) or out of trials.
    `precision` says the target, the widest half-width reached and where, and `met`; each option has its own."""
    options = [option_answer(plan, c.key, samples.get(c.key) or Sample(), precision) for c in plan.options]
    return answer_of(plan, options, trials=trials, precision=precision)


def answer_of(plan: Plan, options: Sequence[dict[str, Any]], *, trials: int,
              precision: float | None = None) -> dict[str, Any]:
    """`answer` from each option's part of it (`option_answer`, in the plan's order), made wherever its sample
    is: the service's workers make each option's part as they settle it, and the API puts the parts together."""
    done = {o["key"]: o["trials"] for o in options}
    widest = max(options, key=lambda o: o["precision"]["reached"])["precision"] if options else None
    return {
        "version": ANSWER_VERSION,
        "question": plan.question,
        "title": QUESTIONS[plan.question].title,
        "trials": trials,
        "done": done,
        "complete": all(n >= trials or o["precision"]["met"] for n, o in zip(done.values(), options, strict=True)),
        "precision": {"target": precision, "reached": widest["reached"] if widest else None,
                      "figure": widest["figure"] if widest else None},
        "precision_met": precision is not None and all(o["precision"]["met"] for o in options),
        "heroes": [{"id": hero.id, "name": hero.name} for hero in plan.state.heroes],
        "options": options,
        "comparison": _comparison(options),
    }


def option_answer(plan: Plan, key: str, sample: Sample, precision: float | None) -> dict[str, Any]:
    """One option's part of the answer: its figures from `sample`, and how sharp they are against `precision`."""
    choice = next(c for c in plan.options if c.key == key)
    n = sample.trials
    widest, figure = reached(plan, sample)

    def hist(name: str) -> dict[int, int]:
        return sample.values.get(name, {})

    measured = QUESTIONS[plan.question].metrics(plan)
    own = tuple(f"{hero.id}." for hero in plan.state.heroes)  # a hero's figures go under `heroes`
    heroes = []
    for hero in plan.state.heroes:
        heroes.append({
            "id": hero.id, "name": hero.name,
            "expected": {m: mean_figure(hist(f"{hero.id}.{m}")) for m in HEADLINE if f"{hero.id}.{m}" in measured},
            "chances": {key: sample.chance(f"{hero.id}.{m}") for key, m in HERO_CHANCES.items()
                        if f"{hero.id}.{m}" in measured},
        })
    towns = sample.categories.get("town_type", {})
    return {
        "key": choice.key,
        "label": choice.label,
        "trials": n,
        "precision": {"reached": widest, "figure": figure, "met": precision is not None and widest <= precision},
        "expected": {name: mean_figure(hist(name)) for name in measured if not name.startswith(own)},
        "chances": {key: sample.chance(name) for key, name in POSSE_CHANCES.items() if name in measured},
        "heroes": heroes,
        "town_types": {name: chance_figure(count, n) for name, count in sorted(towns.items(), key=lambda kv: -kv[1])},
        "histograms": {f"posse.{m}": histogram_bars(hist(f"posse.{m}")) for m in HISTOGRAMS},
    }


def _comparison(options: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """For each headline figure: every option's expected value with its interval, the best for the table, and
    whether the best is clear (its interval does not overlap the next best's)."""
    rows = []
    for metric in HEADLINE:
        key = f"posse.{metric}"
        higher = metric in HIGHER_IS_BETTER
        means = {o["key"]: o["expected"][key] for o in options
                 if key in o["expected"] and o["expected"][key]["mean"] is not None}
        ranked = sorted(means, key=lambda k: means[k]["mean"], reverse=higher)
        clear = False
        if len(ranked) >= 2:
            best, second = means[ranked[0]]["ci"], means[ranked[1]]["ci"]
            clear = best[0] > second[1] if higher else best[1] < second[0]
        rows.append({"figure": key, "label": WORDS[metric], "better": "higher" if higher else "lower",
                     "values": {k: {"mean": f["mean"], "ci": f["ci"], "trials": f["trials"]} for k, f in means.items()},
                     "best": ranked[0] if ranked else None, "clear": clear})
    for chance in ("anyone_killed", "buildings_destroyed"):
        values = {o["key"]: o["chances"][chance] for o in options
                  if chance in o["chances"] and o["chances"][chance]["p"] is not None}
        if not values:
            continue
        ranked = sorted(values, key=lambda k: values[k]["p"])
        clear = len(ranked) >= 2 and values[ranked[0]]["ci"][1] < values[ranked[1]]["ci"][0]
        rows.append({"figure": f"chance.{chance}", "label": CHANCE_WORDS[chance], "better": "lower",
                     "values": {k: {"p": f["p"], "ci": f["ci"], "trials": f["trials"]} for k, f in values.items()},
                     "best": ranked[0] if ranked else None, "clear": clear})
    return rows
