"""Control variates from the dice: the same trials, sharper chances.

Every die the RNG rolls in a trial has odds no rule changes: a D36 shows 26 one time in 36, three dice at 5+ all
miss 8 times in 27, a Random Hero is each of four heroes one time in four. How far a trial's dice fell from those
odds (a count minus its expectation) has mean zero whatever the rules then did with them, since each die is fresh
when it is rolled; and it is tied to what the trial came to (a Large Town's "buildings destroyed" is nearly "a 26
came up on the chart"; a hero's "loses a Transport" is nearly "their Living Hills test missed"). Taking out the
part of a chance those deviations explain (control variates) leaves the same expected value with a smaller
spread, so an option reaches its precision in fewer trials.

The controls are read from what a request says about its dice (kind, target, pool, rule, who), never from what a
rule means, so a new hazard or Mission needs nothing here. Each request's dice form a group of their own (a skill
test's dice keyed by the hero, the test's rule and pool; a re-roll by the test it re-rolls; the chart's D36; a
2D6 per what it is for; a Random Hero per rule and how many were offered). Two groups' deviations are made of
different dice, each fresh when rolled, so they are uncorrelated: only the products within a group are kept,
which keeps a trial's cost linear in its dice and lets there be hundreds of controls.

With hundreds of controls, fitting and judging on the same trials would flatter the interval, so the trials are
split in two by their index (even, odd): the controls worth using and their weights are chosen on one half and
applied to the other, each way (cross-fitting). The weights then owe nothing to the trials they adjust, and each
half's spread is measured on trials its weights never saw: the interval is honest however many controls there
were to choose from. Of the random draws only a Random Hero is counted: it decides who suffers, while the Town's
Building tokens (a dozen draws each arrival) tell the chances nothing and would cost the most. Counts are whole
numbers (`DiceTally`) and a sample keeps integer sums of them (`Moments`), so chunks merge exactly as the
histograms do.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import cache
from typing import Any

from ..dice import DieKind, face_range
from ..flow import Ctx, DrawRequest, Request, RollRequest, server
from ..prompts import Answer, Asks

Z95 = 1.959963984540054
MIN_TRIALS = 400  # below this many trials a chance is read from its count alone (Wilson's interval)
MIN_EACH_WAY = 10  # and when it happened (or did not) fewer than this many times, or 5 in either half
TRIALS_PER_CONTROL = 10  # a half's trials per control it may use
SELECT_T = 4.0  # a control is used when its tie to the chance on the fitting half is this many standard errors
MIN_EVENTS = 10  # and when the half expects its event, and the event's absence, at least this many times each,
MIN_CHANCES = 20  # in at least this many rolls or draws (a few big rolls make a heavy tail the test cannot judge)
RESIDUAL_FLOOR = 0.05  # the adjusted spread is never below this share of the count's: near-perfect fits rest on few trials
D36_VALUES = tuple(10 * tens + units for tens in range(1, 7) for units in range(1, 7))
TWO_D6 = {total: (6 - abs(total - 7)) / 36 for total in range(2, 13)}

Counts = dict[str, dict[str, int]]  # group -> count name -> count, for one trial
Row = dict[str, float]  # a control: count name -> coefficient, within one group


class DiceTally:
    """A policy-side answer source for one trial at a time: it rolls and draws with the session RNG exactly as
    `flow.server` would (the same dice, so the trial is unchanged) and counts how the dice fell, per group."""

    __slots__ = ("counts", "tested")

    def __init__(self) -> None:
        self.counts: Counts = {}
        self.tested: dict[str, str] = {}  # hero -> the rule of their last skill test (a re-roll is keyed by it)

    def take(self) -> Counts:
        """This trial's counts; the tally starts afresh for the next one."""
        counts, self.counts = self.counts, {}
        self.tested = {}
        return counts

    def __call__(self, ctx: Ctx, request: Request) -> Answer | None:
        if isinstance(request, RollRequest):
            answer = server(ctx, request)
            assert answer is not None and answer.roll is not None
            self._rolled(request, answer.roll.faces, answer.roll.value)
            return answer
        if isinstance(request, DrawRequest):
            answer = server(ctx, request)
            assert answer is not None
            if request.asks is Asks.RANDOM_HERO and not request.weights:  # who it falls on, one in N each
                self._drawn(request, str(answer.option))
            return answer
        return None

    def _add(self, group: str, *names: str) -> None:
        counts = self.counts.get(group)
        if counts is None:
            counts = self.counts[group] = {}
        for name in names:
            counts[name] = counts.get(name, 0) + 1

    def _rolled(self, request: RollRequest, faces: tuple[int, ...], value: int) -> None:
        kind = request.kind
        if kind is DieKind.D36:  # the chart's value, one of 36 equally likely
            self._add("d36", "n", str(value))
        elif kind is DieKind.TWO_D6 and len(faces) == 2:  # a 2D6 total (7 one time in 6), per what it is for
            self._add(_group("2d6", request.asks), "n", str(faces[0] + faces[1]))
        elif request.target > 0 and faces:  # dice against a target: how many hit, and whether none did
            who, rule, target, asks = request.hero or "posse", request.rule, request.target, request.asks
            if asks is Asks.SKILL_TEST:
                self.tested[who] = rule
            elif asks is Asks.SKILL_REROLL:
                rule = self.tested.get(who, rule)
            group = _group("t", kind, target, len(faces), who, rule, asks)
            counts = self.counts.get(group)
            if counts is None:
                counts = self.counts[group] = {}
            hits = len([face for face in faces if face >= target])
            counts["n"] = counts.get("n", 0) + 1
            if hits:
                counts["hit"] = counts.get("hit", 0) + hits
            else:
                counts["miss"] = counts.get("miss", 0) + 1

    def _drawn(self, request: DrawRequest, picked: str) -> None:
        group = _group("r", len(request.picks), request.rule)
        self._add(group, *(f"o:{key}" for key, _ in request.picks), f"p:{picked}")


@cache
def _group(*parts: object) -> str:
    """A group's name from its parts ("t:pool:5:3:h1:FT-TRAVEL-D23:skill_test"), made once per kind of roll: a
    trial rolls a few dozen times, and enum values and f-strings cost more than the look-up."""
    return ":".join(str(part.value) if isinstance(part, Enum) else str(part) for part in parts)


def hit_chance(kind: DieKind, target: int) -> float:
    """The chance one die of `kind` shows `target` or more."""
    faces = face_range(kind)
    if kind is DieKind.PERIL:
        faces = (3, 3, 4, 4, 5, 6)  # the Peril Die's six faces (FF-DICE-04)
    return sum(1 for face in faces if face >= target) / len(faces)


def group_controls(group: str, names: set[str]) -> list[tuple[Row, float]]:
    """The controls of one group's counts `names` (those seen in the sample), each with the chance of the event it
    counts: a count minus what the dice's odds expect of it, so its mean is zero. Controls that the others add up
    to are left to the fit to drop."""
    if group == "d36":
        return [({value: 1.0, "n": -1 / 36}, 1 / 36) for value in sorted(names - {"n"})]
    if group.startswith("2d6:"):
        return [({total: 1.0, "n": -TWO_D6[int(total)]}, TWO_D6[int(total)]) for total in sorted(names - {"n"})]
    if group.startswith("t:"):
        _, kind, target, pool, _rest = group.split(":", 4)
        p, dice = hit_chance(DieKind(kind), int(target)), int(pool)
        return [({"hit": 1.0, "n": -dice * p}, p), ({"miss": 1.0, "n": -((1 - p) ** dice)}, (1 - p) ** dice)]
    if group.startswith("r:"):
        among = int(group.split(":", 2)[1])
        return [({f"p:{key[2:]}": 1.0, key: -1 / among}, 1 / among) for key in sorted(names) if key.startswith("o:")]
    return []


def _expected(row: Row, sums: Mapping[str, int]) -> tuple[float, int]:
    """What the dice's odds expect of a control's count over a half (its one negative term, turned round), and in
    how many rolls or draws (that term's count)."""
    name, coef = next((name, coef) for name, coef in row.items() if coef < 0)
    return -coef * sums.get(name, 0), sums.get(name, 0)


def _usable(row: Row, chance: float, sums: Mapping[str, int]) -> bool:
    """Whether a half has seen enough of a control's dice to judge its tie to a chance (MIN_EVENTS, MIN_CHANCES)."""
    expected, rolls = _expected(row, sums)
    return rolls >= MIN_CHANCES and min(expected, expected / chance - expected) >= MIN_EVENTS


@dataclass
class Half:
    """Integer sums over the trials of one half (even or odd trial index): each count, each product of two counts
    of the same group, and each count over the trials where a chance's metric came out above zero."""

    trials: int = 0
    yes: dict[str, int] = field(default_factory=dict)  # metric -> trials where it came out above zero
    sums: dict[str, dict[str, int]] = field(default_factory=dict)  # group -> name -> sum
    cross: dict[str, dict[tuple[str, str], int]] = field(default_factory=dict)  # group -> (a, b), a <= b -> sum
    above: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)  # metric -> group -> name -> sum

    def add(self, positive: Sequence[str], counts: Counts) -> None:
        self.trials += 1
        yes = self.yes
        for metric in positive:
            yes[metric] = yes.get(metric, 0) + 1
        for group, names in counts.items():
            sums = self.sums.get(group)
            if sums is None:
                sums, self.cross[group] = self.sums.setdefault(group, {}), {}
            cross = self.cross[group]
            items = sorted(names.items())
            for i, (name, count) in enumerate(items):
                sums[name] = sums.get(name, 0) + count
                for other, more in items[i:]:
                    pair = (name, other)
                    cross[pair] = cross.get(pair, 0) + count * more
            for metric in positive:
                into = self.above.setdefault(metric, {}).setdefault(group, {})
                for name, count in items:
                    into[name] = into.get(name, 0) + count

    def merge(self, other: Half) -> None:
        self.trials += other.trials
        _add_into(self.yes, other.yes)
        for group, sums in other.sums.items():
            _add_into(self.sums.setdefault(group, {}), sums)
            _add_into(self.cross.setdefault(group, {}), other.cross.get(group, {}))
        for metric, groups in other.above.items():
            mine = self.above.setdefault(metric, {})
            for group, sums in groups.items():
                _add_into(mine.setdefault(group, {}), sums)

    def to_json(self) -> dict[str, Any]:
        return {"trials": self.trials, "yes": dict(sorted(self.yes.items())),
                "sums": {g: dict(sorted(s.items())) for g, s in sorted(self.sums.items())},
                "cross": {g: {f"{a}|{b}": c for (a, b), c in sorted(s.items())} for g, s in sorted(self.cross.items())},
                "above": {m: {g: dict(sorted(s.items())) for g, s in sorted(gs.items())}
                          for m, gs in sorted(self.above.items())}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Half:
        def ints(counts: Mapping[str, Any]) -> dict[str, int]:
            return {str(name): int(count) for name, count in counts.items()}

        cross: dict[str, dict[tuple[str, str], int]] = {}
        for group, pairs in data["cross"].items():
            into = cross[str(group)] = {}
            for pair, count in pairs.items():
                a, b = str(pair).split("|")
                into[(a, b)] = int(count)
        return cls(int(data["trials"]), ints(data["yes"]), {str(g): ints(s) for g, s in data["sums"].items()}, cross,
                   {str(m): {str(g): ints(s) for g, s in gs.items()} for m, gs in data["above"].items()})


@dataclass
class Moments:
    """How a sample's dice fell, in two halves (even and odd trial index) for cross-fitting (see the module)."""

    halves: tuple[Half, Half] = field(default_factory=lambda: (Half(), Half()))
    _fits: dict[int, _Fit] = field(default_factory=dict, compare=False, repr=False)

    def add(self, index: int, chances: Sequence[tuple[int, str]], values: Sequence[int], counts: Counts) -> None:
        """Trial `index`: its dice counts, and its values of the metrics read as chances ((column, name) pairs)."""
        self._fits.clear()
        self.halves[index % 2].add([metric for column, metric in chances if values[column] > 0], counts)

    def merge(self, other: Moments) -> None:
        self._fits.clear()
        for mine, theirs in zip(self.halves, other.halves, strict=True):
            mine.merge(theirs)

    @property
    def trials(self) -> int:
        return self.halves[0].trials + self.halves[1].trials

    def to_json(self) -> dict[str, Any]:
        return {"halves": [half.to_json() for half in self.halves]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Moments:
        if "halves" not in data:  # written before the halves (sample version 2): the chances read from the count
            return cls()
        even, odd = (Half.from_json(half) for half in data["halves"])
        return cls((even, odd))

    def chance(self, metric: str, hits: int, n: int) -> tuple[float, float] | None:
        """The chance that `metric` came out above zero, adjusted by the dice, and its 95% half-width; None when
        the sample is too small for it, or no control ties to it (the count alone answers then)."""
        if min(hits, n - hits) < MIN_EACH_WAY or n < MIN_TRIALS or self.trials != n:
            return None
        halves = self.halves
        if any(min(h.yes.get(metric, 0), h.trials - h.yes.get(metric, 0)) < MIN_EACH_WAY // 2 for h in halves):
            return None
        fits = [self._fit(i) for i in (0, 1)]
        estimate = spread = 0.0
        used = False
        for fit_half, judge_half in ((0, 1), (1, 0)):
            weights = fits[fit_half].weights(metric)
            used = used or bool(weights)
            p, v = fits[judge_half].judged(metric, weights)
            m = halves[judge_half].trials
            estimate += m * p
            spread += m * v
        if not used:
            return None
        return min(1.0, max(0.0, estimate / n)), Z95 * math.sqrt(spread) / n

    def _fit(self, index: int) -> _Fit:
        half = self.halves[index]
        fit = self._fits.get(index)
        if fit is None:
            fit = self._fits[index] = _Fit(half)
        return fit


Weights = dict[tuple[str, str], tuple[Row, float]]  # (group, the event a control counts) -> (control, weight)


class _Fit:
    """One half's controls: per group, those the half has seen enough of to fit, their means and covariance (sample
    sums); then, per chance, the controls tied to it and their weights (`weights`), or how weights fitted on the
    other half do on this one (`judged`)."""

    def __init__(self, half: Half) -> None:
        self.half = half
        self.groups: list[tuple[str, list[Row], list[float], list[list[float]]]] = []
        for group, sums in sorted(half.sums.items()):
            rows = [row for row, chance in group_controls(group, set(sums)) if _usable(row, chance, sums)]
            if rows and half.trials:
                self.groups.append((group, rows, *self._moments(group, rows)))
        self.known: dict[str, Weights] = {}

    def _moments(self, group: str, rows: Sequence[Row]) -> tuple[list[float], list[list[float]]]:
        """The means of a group's controls `rows` over this half and their covariance matrix."""
        n, sums = self.half.trials, self.half.sums.get(group, {})
        mean = {name: total / n for name, total in sums.items()}
        cross = self.half.cross.get(group, {})
        means = [sum(c * mean.get(name, 0.0) for name, c in row.items()) for row in rows]
        cov = [[sum(ca * cb * _covariance(cross, mean, n, a, b) for a, ca in ri.items() for b, cb in rj.items())
                for rj in rows] for ri in rows]
        return means, cov

    def _ties(self, metric: str, group: str, rows: Sequence[Row]) -> list[float]:
        """Each control's covariance with the chance (1 where `metric` came out above zero) over this half."""
        half, n = self.half, self.half.trials
        p = half.yes.get(metric, 0) / n
        sums, yes = half.sums.get(group, {}), half.above.get(metric, {}).get(group, {})
        return [sum(c * (yes.get(name, 0) - p * sums.get(name, 0)) for name, c in row.items()) / n for row in rows]

    def weights(self, metric: str) -> Weights:
        """The controls tied to `metric` on this half (at least SELECT_T standard errors, at most one per
        TRIALS_PER_CONTROL trials) and their regression weights, solved group by group (groups are uncorrelated)."""
        known = self.known.get(metric)
        if known is not None:
            return known
        n = self.half.trials
        p = self.half.yes.get(metric, 0) / n
        ties = [self._ties(metric, group, rows) for group, rows, _, _ in self.groups]
        strength = []
        for g, (_, _, _, cov) in enumerate(self.groups):
            for r, tie in enumerate(ties[g]):
                var = cov[r][r]
                if var > 1e-12 and p * (1 - p) > 0:
                    t = abs(tie) / math.sqrt(var * p * (1 - p) / n)
                    if t >= SELECT_T:
                        strength.append((t, g, r))
        strength.sort(reverse=True)
        chosen: dict[int, list[int]] = {}
        for _, g, r in strength[: n // TRIALS_PER_CONTROL]:
            chosen.setdefault(g, []).append(r)
        out: Weights = {}
        for g, picked in chosen.items():
            picked.sort()
            group, rows, _, cov = self.groups[g]
            kept, factor = _cholesky([[cov[a][b] for b in picked] for a in picked])
            beta = _solve(factor, [ties[g][picked[i]] for i in kept])
            for i, b in zip(kept, beta, strict=True):
                row = rows[picked[i]]
                out[(group, _event(row))] = (row, b)
        self.known[metric] = out
        return out

    def judged(self, metric: str, weights: Weights) -> tuple[float, float]:
        """With `weights` fitted on the other half: this half's adjusted chance and the spread of one trial's
        adjusted outcome about it, on n - k - 1 degrees of freedom for k controls (never below RESIDUAL_FLOOR of
        the plain spread). A control this half never rolled is zero here and changes nothing."""
        n = self.half.trials
        p = self.half.yes.get(metric, 0) / n
        plain = p * (1 - p)
        estimate, spread = p, plain
        by_group: dict[str, list[tuple[Row, float]]] = {}
        for (group, _), weighted in weights.items():
            by_group.setdefault(group, []).append(weighted)
        for group, pairs in by_group.items():
            rows, beta = [row for row, _ in pairs], [b for _, b in pairs]
            means, cov = self._moments(group, rows)
            ties = self._ties(metric, group, rows)
            for r, b in enumerate(beta):
                estimate -= b * means[r]
                spread -= 2 * b * ties[r]
                spread += sum(b * c * cov[r][s] for s, c in enumerate(beta))
        return estimate, max(spread, RESIDUAL_FLOOR * plain) * n / max(1, n - len(weights) - 1)


def _event(row: Row) -> str:
    """The count a control is about (its one term with weight 1): its name within its group."""
    return next(name for name, coef in row.items() if coef > 0)


def _covariance(cross: Mapping[tuple[str, str], int], mean: Mapping[str, float], n: int, a: str, b: str) -> float:
    """The covariance of two counts of a group over a half's `n` trials, from their sums."""
    pair = (a, b) if a <= b else (b, a)
    return cross.get(pair, 0) / n - mean.get(a, 0.0) * mean.get(b, 0.0)


def _add_into(into: dict[Any, int], counts: Mapping[Any, int]) -> None:
    for key, count in counts.items():
        into[key] = into.get(key, 0) + count


def _cholesky(matrix: list[list[float]]) -> tuple[list[int], list[list[float]]]:
    """The lower factor of the symmetric matrix restricted to the rows that are not a combination of earlier
    ones (a control that never varied, or one the others add up to), and which rows those are."""
    kept: list[int] = []
    factor: list[list[float]] = []
    for i, row in enumerate(matrix):
        new: list[float] = []
        for j, prior in zip(kept, factor, strict=True):
            new.append((row[j] - sum(a * b for a, b in zip(new, prior, strict=False))) / prior[len(new)])
        pivot = row[i] - sum(a * a for a in new)
        if pivot <= 1e-9 * max(1.0, abs(row[i])):
            continue
        new.append(math.sqrt(pivot))
        kept.append(i)
        factor.append(new)
    return kept, factor


def _solve(factor: list[list[float]], rhs: list[float]) -> list[float]:
    """x with L Lᵀ x = rhs."""
    k = len(factor)
    y = [0.0] * k
    for i in range(k):
        y[i] = (rhs[i] - sum(factor[i][j] * y[j] for j in range(i))) / factor[i][i]
    x = [0.0] * k
    for i in reversed(range(k)):
        x[i] = (y[i] - sum(factor[j][i] * x[j] for j in range(i + 1, k))) / factor[i][i]
    return x
