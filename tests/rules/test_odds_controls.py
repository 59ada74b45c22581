"""Chances adjusted by how the dice fell (shared_rules.odds.controls): counting the dice leaves every trial as it
was; the adjusted chance keeps its expected value and an honest 95% interval, narrower than the count's, however
many controls there are to choose from (cross-fitting); small samples and rare chances are read from the count
alone."""

from __future__ import annotations

import json
import math
import random

import pytest

from shared_rules import ChooseTownSize, RollHazard, apply, new_session
from shared_rules.dice import DieKind, seed_state
from shared_rules.flow import RollRequest
from shared_rules.odds import QUESTIONS, Sample, plan, run_chunk
from shared_rules.odds.controls import D36_VALUES, DiceTally, group_controls
from shared_rules.odds.sample import chance_figure
from shared_rules.prompts import Asks
from shared_rules.simulate import sample_heroes, trial_seed

HEROES = sample_heroes(4)


def test_counting_the_dice_leaves_every_trial_as_it_was() -> None:
    """The tally rolls with the session RNG in the order the RNG would: the same journeys, hazard for hazard."""
    asked = plan(new_session(HEROES), "town_size")
    town_size = QUESTIONS["town_size"]
    tally = DiceTally()
    for index in range(25):
        rng = seed_state(trial_seed(3, index))
        assert town_size.trial(asked, "large", rng, dice=tally) == town_size.trial(asked, "large", rng)
        chart = tally.take()["d36"]
        assert chart["n"] == sum(count for value, count in chart.items() if value != "n")  # FT-TRAVEL-03
    church = apply(new_session(HEROES, seed=5), ChooseTownSize("large")).state
    church = apply(church, RollHazard(dice=((3, 2),))).state  # Plague Church: help or turn away (FT-TRAVEL-D32)
    asked = plan(church, "choice")
    for index in range(10):
        rng = seed_state(trial_seed(4, index))
        for option in ("help", "turn_away"):
            assert QUESTIONS["choice"].trial(asked, option, rng, dice=tally) == QUESTIONS["choice"].trial(
                asked, option, rng)
            tally.take()


def _synthetic(rng: random.Random, n: int, noise: int = 0) -> tuple[Sample, int, int]:
    """n invented trials: 4-8 D36 rolls, `storm` when a 26 came up or (5%) for no reason of the dice; h1 rolls 3
    dice at 5+ and is `hurt` when none hit or (10%) anyway; and `noise` tests of other heroes' (4 dice at 4+, one
    in three trials each) that decide nothing. Returns the sample and the two counts."""
    sample = Sample()
    metrics = ("storm", "h1.hurt")
    rows, dice = [], []
    for _ in range(n):
        values = [rng.choice(D36_VALUES) for _ in range(rng.randint(4, 8))]
        faces = [rng.randint(1, 6) for _ in range(3)]
        hits = sum(1 for face in faces if face >= 5)
        rows.append((int(26 in values or rng.random() < 0.05), int(hits == 0 or rng.random() < 0.1)))
        counts: dict[str, dict[str, int]] = {"d36": {"n": len(values)},
                                             "t:pool:5:3:h1:FT-X:skill_test": {"n": 1, "hit" if hits else "miss": hits or 1}}
        for value in values:
            counts["d36"][str(value)] = counts["d36"].get(str(value), 0) + 1
        for test in range(noise):
            if rng.random() < 1 / 3:
                hit = sum(1 for _ in range(4) if rng.randint(1, 6) >= 4)
                counts[f"t:pool:4:4:x{test}:FT-Y:skill_test"] = {"n": 1, "hit" if hit else "miss": hit or 1}
        dice.append(counts)
    sample.add_rows(metrics, rows, dice=dice, chances=metrics)
    return sample, sum(r[0] for r in rows), sum(r[1] for r in rows)


# The true chances of the invented trials: no 26 in N rolls is (35/36)^N, N uniform in 4..8; no hit on 3 dice at 5+.
STORM = 1 - 0.95 * sum((35 / 36) ** n for n in range(4, 9)) / 5
HURT = 1 - 0.9 * (1 - (4 / 6) ** 3)


def _coverage(noise: int, runs: int) -> tuple[dict[str, int], dict[str, float]]:
    """`runs` runs of 500 invented trials: how often each adjusted interval held the true chance, and its width
    against the count's, on average."""
    rng = random.Random(11)
    covered, narrower = {"storm": 0, "h1.hurt": 0}, {"storm": 0.0, "h1.hurt": 0.0}
    for _ in range(runs):
        sample, storms, hurts = _synthetic(rng, 500, noise)
        for metric, truth, count in (("storm", STORM, storms), ("h1.hurt", HURT, hurts)):
            figure = sample.chance(metric)
            assert figure["method"] == "dice" and figure["count"] == count and figure["trials"] == 500
            low, high = figure["ci"]
            covered[metric] += low <= truth <= high
            plain = chance_figure(count, 500)["ci"]
            narrower[metric] += (high - low) / (plain[1] - plain[0]) / runs
    return covered, narrower


def test_the_adjusted_interval_covers_the_true_chance_19_times_in_20_and_is_narrower() -> None:
    covered, narrower = _coverage(noise=0, runs=100)
    assert all(count >= 90 for count in covered.values()), covered
    assert narrower["storm"] < 0.7, narrower  # a 26 explains most storms
    assert narrower["h1.hurt"] < 0.7, narrower  # and h1's three misses most hurts


def test_hundreds_of_controls_that_decide_nothing_leave_the_interval_honest() -> None:
    """200 other tests to choose from: the controls are chosen on some of the trials and judged on the others,
    so chance ties among them cannot narrow the interval past the truth."""
    covered, narrower = _coverage(noise=200, runs=40)
    assert all(count >= 36 for count in covered.values()), covered
    assert narrower["storm"] < 0.75 and narrower["h1.hurt"] < 0.75, narrower


def test_small_samples_and_rare_chances_are_read_from_the_count() -> None:
    sample, storms, _ = _synthetic(random.Random(2), 300)
    assert sample.chance("storm") == chance_figure(storms, 300)  # fewer than 400 trials
    rare = Sample()
    rare.add_rows(("never",), [(0,)] * 500, dice=[{"d36": {"n": 1, "11": 1}}] * 500, chances=("never",))
    assert rare.chance("never") == chance_figure(0, 500)


def test_the_controls_have_mean_zero_by_their_dice_odds() -> None:
    """Each control is a count minus what the dice's odds expect: a D36 value one in 36, a 5+ one in three, three
    dice at 5+ all missing 8 times in 27, a Random Hero among four one in four."""
    assert ({"26": 1.0, "n": -1 / 36}, 1 / 36) in group_controls("d36", {"n", "26", "11"})
    hits, misses = group_controls("t:pool:5:3:h1:FT-TRAVEL-D23:skill_test", {"n", "hit", "miss"})
    assert hits == ({"hit": 1.0, "n": -3 / 3}, 1 / 3)
    assert misses[0]["miss"] == 1.0 and misses[0]["n"] == pytest.approx(-8 / 27) and misses[1] == pytest.approx(8 / 27)
    assert ({"p:h2": 1.0, "o:h2": -1 / 4}, 1 / 4) in group_controls("r:4:FT-TRAVEL-D21", {"o:h2", "p:h2", "o:h1"})


def test_a_large_towns_buildings_destroyed_is_read_from_the_dice_FT_TRAVEL_D26() -> None:
    """Void Storm (26) destroys 2 Buildings on arrival: the chart's 26s explain nearly all of the chance, so the
    adjusted interval is far narrower than the count's, around the same value; chunks merge exactly, JSON too."""
    asked = plan(new_session(HEROES), "town_size", {"sizes": ["large"]})
    parts = [run_chunk(asked, "large", start, 400, seed=8) for start in (0, 400)]
    wire = [Sample.from_json(json.loads(json.dumps(part.to_json()))) for part in parts]
    whole = Sample()
    for part in wire:
        whole.merge(part)
    assert whole.to_json() == run_chunk(asked, "large", 0, 800, seed=8).to_json()
    figure = whole.chance("journey.buildings_destroyed")
    counted = chance_figure(figure["count"], 800)
    assert figure["method"] == "dice"
    assert (figure["ci"][1] - figure["ci"][0]) < 0.5 * (counted["ci"][1] - counted["ci"][0])
    assert counted["ci"][0] <= figure["p"] <= counted["ci"][1]


def test_a_sample_written_before_the_dice_were_counted_in_folds_still_reads() -> None:
    old = {"version": 1, "trials": 2, "values": {"posse.removed": {"0": 2}}, "categories": {}}
    sample = Sample.from_json(old)
    assert sample.trials == 2 and sample.chance("posse.removed") == chance_figure(0, 2)
    whole = {"version": 2, "trials": 500, "values": {"posse.removed": {"0": 450, "1": 50}}, "categories": {},
             "moments": {"sums": {"d36": 500}, "cross": {"d36|d36": 500}, "above": {}}}
    assert Sample.from_json(whole).chance("posse.removed") == chance_figure(50, 500)  # from the count


def test_a_sample_read_as_its_chunks_arrive_reads_as_one_merged_at_once() -> None:
    """The service reads an odds job's sample after every chunk; what it reads at the end is what one read of the
    whole sample gives (the folds' sums kept as chunks merge in are the sums of them all)."""
    asked = plan(new_session(HEROES), "town_size", {"sizes": ["large"]})
    parts = [run_chunk(asked, "large", start, 200, seed=9) for start in range(0, 800, 200)]
    as_they_came, at_once = Sample(), Sample()
    for part in parts:
        as_they_came.merge(Sample.from_json(part.to_json()))
        as_they_came.chance("journey.buildings_destroyed")  # a read between arrivals
        at_once.merge(part)
    for metric in ("journey.buildings_destroyed", "h1.transports_lost"):
        assert as_they_came.chance(metric) == at_once.chance(metric)
        assert as_they_came.chance(metric)["method"] == "dice"


def _held_back(rng: random.Random, n: int) -> tuple[Sample, int]:
    """n invented Adventures through the real tally: 15 Hold Back rolls at 7+ (natural doubles hold it too, the
    Darkness stays), `escaped` once 6 fell short (FF-DEPTH-04/05). Returns the sample and the escapes."""
    tally, sample, rows, dice = DiceTally(), Sample(), [], []
    hold_back = RollRequest(DieKind.TWO_D6, "Hold Back the Darkness (7+)", chart=True, rule="FF-DEPTH-04",
                            doubles=True, asks=Asks.HOLD_BACK, said=(("target", 7),))
    for _ in range(n):
        short = 0
        for _turn in range(15):
            faces = (rng.randint(1, 6), rng.randint(1, 6))
            tally._rolled(hold_back, faces, sum(faces))
            short += faces[0] + faces[1] < 7 and faces[0] != faces[1]
        rows.append((int(short >= 6),))
        dice.append(tally.take())
    sample.add_rows(("escaped",), rows, dice=dice, chances=("escaped",))
    return sample, sum(row[0] for row in rows)


def test_a_threshold_over_many_rolls_is_read_from_how_often_each_fell_short_so_far_FF_DEPTH_04() -> None:
    """"The Darkness escapes" is a threshold over ~15 Hold Back rolls, which no count of the totals explains; the
    shortfalls counted by how many came before (each a fresh roll with known odds) do: the interval still holds
    the true chance and is far narrower than the count's."""
    truth = _escape_chance()
    rng, held, widths = random.Random(5), 0, 0.0
    for _ in range(100):
        sample, escapes = _held_back(rng, 400)
        figure = sample.chance("escaped")
        assert figure["method"] == "dice" and figure["count"] == escapes
        held += figure["ci"][0] <= truth <= figure["ci"][1]
        plain = chance_figure(escapes, 400)["ci"]
        widths += (figure["ci"][1] - figure["ci"][0]) / (plain[1] - plain[0]) / 100
    assert held >= 90, held
    assert widths < 0.6, widths


def _escape_chance() -> float:
    """P(at least 6 of 15 rolls fall short) with each short 12/36 (totals 2-6 without doubles: 15 of 36 less 3)."""
    short = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b < 7 and a != b) / 36
    return sum(math.comb(15, k) * short**k * (1 - short) ** (15 - k) for k in range(6, 16))
