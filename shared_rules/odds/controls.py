"""Control variates from the dice: the same trials, sharper chances.

Every die the RNG rolls in a trial has odds no rule changes: a D36 shows 26 one time in 36, a D6 shows 5+ one
time in three, a Random Hero is each of four heroes one time in four. How far a trial's dice fell from those odds
(a count minus its expectation) has mean zero whatever the rules then did with them, since each die is fresh
when it is rolled; and it is tied to what the trial came to (a Large Town's "buildings destroyed" is nearly
"a 26 came up on the chart"). Taking out the part of a chance those deviations explain (the regression estimator
of control variates) leaves the same expected value with a smaller spread, so an option reaches its precision in
fewer trials. The interval is the estimator's own (residual spread), so it stays an honest 95% interval.

The controls are read from what a request says about its dice (kind, target, picks), never from a rule, so a new
hazard or Mission needs nothing here. Of the random draws only a Random Hero is counted: it decides who suffers,
while the Town's Building tokens (a dozen draws each arrival) tell the chances nothing and would cost the most. What a trial's dice did is counted in whole numbers (`DiceTally`), and a
sample keeps integer sums of them (`Moments`), so chunks merge exactly as the histograms do.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..dice import DieKind, face_range
from ..flow import Ctx, DrawRequest, Request, RollRequest, server
from ..prompts import Answer, Asks

Z95 = 1.959963984540054
MIN_TRIALS = 400  # below this many trials a chance is read from its count alone (Wilson's interval)
TRIALS_PER_CONTROL = 10  # and with fewer than this many trials per control
MIN_EACH_WAY = 10  # and when it happened (or did not) fewer than this many times
D36_VALUES = tuple(10 * tens + units for tens in range(1, 7) for units in range(1, 7))


class DiceTally:
    """A policy-side answer source for one trial at a time: it rolls and draws with the session RNG exactly as
    `flow.server` would (the same dice, so the trial is unchanged) and counts how the dice fell."""

    __slots__ = ("counts",)

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def take(self) -> dict[str, int]:
        """This trial's counts; the tally starts afresh for the next one."""
        counts, self.counts = self.counts, {}
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

    def _add(self, key: str, count: int) -> None:
        self.counts[key] = self.counts.get(key, 0) + count

    def _rolled(self, request: RollRequest, faces: tuple[int, ...], value: int) -> None:
        if request.kind is DieKind.D36:  # the chart's value, one of 36 equally likely
            self._add("d36", 1)
            self._add(f"d36={value}", 1)
        elif request.kind is DieKind.TWO_D6 and len(faces) == 2:  # a 2D6 total (7 one time in 6), per what for
            self._add(f"2d6:{request.asks.value}", 1)
            self._add(f"2d6:{request.asks.value}={faces[0] + faces[1]}", 1)
        elif request.target > 0 and faces:  # dice against a target: how many hit
            who = request.hero or "posse"
            key = f"{who}:{request.kind.value}:{request.target}"
            self._add(f"hit:{key}", sum(1 for face in faces if face >= request.target))
            self._add(f"die:{key}", len(faces))

    def _drawn(self, request: DrawRequest, picked: str) -> None:
        offered = len(request.picks)
        for key, _ in request.picks:
            self._add(f"offer:{key}:{offered}", 1)
        self._add(f"pick:{picked}", 1)


def hit_chance(kind: DieKind, target: int) -> float:
    """The chance one die of `kind` shows `target` or more."""
    faces = face_range(kind)
    if kind is DieKind.PERIL:
        faces = (3, 3, 4, 4, 5, 6)  # the Peril Die's six faces (FF-DICE-04)
    return sum(1 for face in faces if face >= target) / len(faces)


def controls(keys: set[str]) -> list[dict[str, float]]:
    """The controls the counts `keys` make: each a linear combination of counts whose mean is zero."""
    out: list[dict[str, float]] = []
    if "d36" in keys:
        seen = [v for v in D36_VALUES if f"d36={v}" in keys]
        if len(seen) == len(D36_VALUES):
            seen = seen[:-1]  # the 36 deviations sum to zero: one is the others
        out += [{f"d36={v}": 1.0, "d36": -1 / 36} for v in seen]
    for rolls in sorted(k for k in keys if k.startswith("2d6:") and "=" not in k):
        seen = [total for total in range(2, 13) if f"{rolls}={total}" in keys]
        if len(seen) == 11:
            seen = seen[:-1]
        out += [{f"{rolls}={total}": 1.0, rolls: -(6 - abs(total - 7)) / 36} for total in seen]
    for key in sorted(k for k in keys if k.startswith("hit:")):
        _, who, kind, target = key.split(":")
        out.append({key: 1.0, f"die:{who}:{kind}:{target}": -hit_chance(DieKind(kind), int(target))})
    offers: dict[str, dict[str, float]] = {}
    for key in sorted(k for k in keys if k.startswith("offer:")):
        _, pick, among = key.rsplit(":", 2)
        offers.setdefault(pick, {})[key] = -1 / int(among)
    for pick, expected in sorted(offers.items()):
        if f"pick:{pick}" in keys:
            out.append({f"pick:{pick}": 1.0, **expected})
    return out


@dataclass
class Moments:
    """Integer sums of a sample's dice counts: each count, each product of two, and each count over the trials
    where a metric came out above zero. Sums of whole numbers, so chunks merge exactly."""

    sums: dict[str, int] = field(default_factory=dict)
    cross: dict[tuple[str, str], int] = field(default_factory=dict)
    above: dict[str, dict[str, int]] = field(default_factory=dict)  # metric -> count -> sum where metric > 0
    _fit: Any = field(default=None, compare=False, repr=False)

    def add(self, chances: Sequence[tuple[int, str]], values: Sequence[int], counts: Mapping[str, int]) -> None:
        """One trial: its dice counts, and its values of the metrics read as chances ((column, name) pairs)."""
        self._fit = None
        if not counts:
            return
        items = sorted(counts.items())
        sums, cross = self.sums, self.cross
        for i, (key, count) in enumerate(items):
            sums[key] = sums.get(key, 0) + count
            for other, more in items[i:]:
                pair = (key, other)
                cross[pair] = cross.get(pair, 0) + count * more
        for column, metric in chances:
            if values[column] > 0:
                into = self.above.setdefault(metric, {})
                for key, count in items:
                    into[key] = into.get(key, 0) + count

    def merge(self, other: Moments) -> None:
        self._fit = None
        for key, count in other.sums.items():
            self.sums[key] = self.sums.get(key, 0) + count
        for pair, count in other.cross.items():
            self.cross[pair] = self.cross.get(pair, 0) + count
        for metric, counts in other.above.items():
            into = self.above.setdefault(metric, {})
            for key, count in counts.items():
                into[key] = into.get(key, 0) + count

    def to_json(self) -> dict[str, Any]:
        return {"sums": dict(sorted(self.sums.items())),
                "cross": {f"{a}|{b}": c for (a, b), c in sorted(self.cross.items())},
                "above": {m: dict(sorted(c.items())) for m, c in sorted(self.above.items())}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Moments:
        cross = {}
        for pair, count in data["cross"].items():
            a, b = str(pair).split("|")
            cross[(a, b)] = int(count)
        return cls({str(k): int(c) for k, c in data["sums"].items()}, cross,
                   {str(m): {str(k): int(c) for k, c in cs.items()} for m, cs in data["above"].items()})

    def chance(self, metric: str, hits: int, n: int) -> tuple[float, float] | None:
        """The chance that `metric` came out above zero, adjusted by the dice, and its 95% half-width; None when
        the sample is too small for it (the count alone answers then)."""
        if min(hits, n - hits) < MIN_EACH_WAY or n < MIN_TRIALS:
            return None
        fit = self._fitted(n)
        if fit is None:
            return None
        known = fit.read.get((metric, hits))
        if known is None:
            known = fit.read[(metric, hits)] = self._adjusted(fit, metric, hits, n)
        return known

    def _adjusted(self, fit: _Fit, metric: str, hits: int, n: int) -> tuple[float, float]:
        rows, factor, means = fit.rows, fit.factor, fit.means
        k = len(rows)
        above = self.above.get(metric, {})
        p = hits / n
        # covariance sums of each control with the trial's outcome (1 where the metric came out above zero)
        s_cy = [sum(coef * (above.get(key, 0) - self.sums.get(key, 0) * p) for key, coef in row.items())
                for row in rows]
        beta = _solve(factor, s_cy)
        estimate = p - sum(b * m for b, m in zip(beta, means, strict=True))
        residual = hits * (1 - p) - sum(b * s for b, s in zip(beta, s_cy, strict=True))
        spread = max(0.0, residual) / (n - k - 1)
        return min(1.0, max(0.0, estimate)), Z95 * math.sqrt(spread * (1 / n + fit.inflate))

    def _fitted(self, n: int) -> _Fit | None:
        """The controls that vary in this sample, the Cholesky factor of their covariance sums and their means."""
        if self._fit is not None and self._fit[0] == n:
            return self._fit[1]  # type: ignore[no-any-return]
        rows = controls(set(self.sums))
        mean = {key: total / n for key, total in self.sums.items()}

        def s_rr(a: str, b: str) -> float:
            pair = (a, b) if a <= b else (b, a)
            return self.cross.get(pair, 0) - n * mean.get(a, 0.0) * mean.get(b, 0.0)

        matrix = [[sum(ca * cb * s_rr(a, b) for a, ca in ri.items() for b, cb in rj.items()) for rj in rows]
                  for ri in rows]
        kept, factor = _cholesky(matrix)
        rows = [rows[i] for i in kept]
        fit = None
        if rows and n >= TRIALS_PER_CONTROL * len(rows):
            means = [sum(c * mean.get(key, 0.0) for key, c in row.items()) for row in rows]
            inflate = sum(m * w for m, w in zip(means, _solve(factor, means), strict=True))
            fit = _Fit(rows, factor, means, inflate)
        self._fit = (n, fit)
        return fit


@dataclass
class _Fit:
    """A sample's controls fitted once: the rows, the factor, their means, the interval's widening for the
    estimated means (c̄ᵀ S⁻¹ c̄), and each chance read so far."""

    rows: list[dict[str, float]]
    factor: list[list[float]]
    means: list[float]
    inflate: float
    read: dict[tuple[str, int], tuple[float, float]] = field(default_factory=dict)


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
