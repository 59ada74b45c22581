"""What many trials of one option showed, mergeable, and the figures read from it with their confidence intervals.

A `Sample` keeps a histogram of whole numbers per metric and a count per category (the town type reached), so
chunks run on different workers merge exactly and every percentile stays exact. Figures carry a 95% interval:
a mean by the normal approximation (its standard error from the histogram's own spread), a chance by Wilson's
score interval (which stays inside 0..1 and is sound when nothing or everything happened).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .controls import Counts, Moments

Z95 = 1.959963984540054  # the two-sided 95% quantile of the normal distribution
SAMPLE_VERSION = 3  # 2: with the dice's moments (controls.Moments); 3: moments per group, in folds
Histogram = dict[int, int]  # value -> trials with that value


@dataclass
class Sample:
    """The trials of one option: `values[metric]` is a histogram of that metric's per-trial values and
    `categories[name]` counts what each trial came to (e.g. the town type)."""

    trials: int = 0
    values: dict[str, Histogram] = field(default_factory=dict)
    categories: dict[str, dict[str, int]] = field(default_factory=dict)
    moments: Moments = field(default_factory=Moments)  # how the dice fell, for chances adjusted by them
    # each chance read since the last trials came in: stopping checks a chance, then the answer reports it, and an
    # adjusted chance refits its controls (most of what reading a sample costs)
    _read: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False, compare=False)

    def add_rows(self, metrics: Sequence[str], rows: Sequence[Sequence[int]], kinds: Sequence[str] = (),
                 labels: Sequence[Sequence[str]] = (), dice: Sequence[Counts] = (),
                 chances: Collection[str] = (), first: int = 0) -> None:
        """Count many trials at once: `rows[i][j]` is trial i's value of `metrics[j]`; `labels[i][k]` its
        category `kinds[k]`; `dice[i]` how its dice fell (`controls.DiceTally`), when the question counts them,
        with `chances` the metrics read as chances (whose moments with the dice are kept); `first` is the index
        of the first row's trial (which fold it falls in, for the cross-fitting).
        Each column is counted in one pass, so a trial costs only its row."""
        if not rows:
            return
        self._read.clear()
        read = [(column, name) for column, name in enumerate(metrics) if name in chances]
        for index, (row, counts) in enumerate(zip(rows, dice, strict=False), start=first):
            self.moments.add(index, read, row, counts)
        for metric, column in zip(metrics, zip(*rows, strict=True), strict=True):
            _add(self.values.setdefault(metric, {}), Counter(column))
        if kinds:
            for kind, column in zip(kinds, zip(*labels, strict=True), strict=True):
                _add(self.categories.setdefault(kind, {}), Counter(column))
        self.trials += len(rows)

    def merge(self, other: Sample) -> None:
        """Add another chunk of the same option's trials."""
        self._read.clear()
        self.trials += other.trials
        for metric, hist in other.values.items():
            _add(self.values.setdefault(metric, {}), hist)
        for kind, counts in other.categories.items():
            _add(self.categories.setdefault(kind, {}), counts)
        self.moments.merge(other.moments)

    def chance(self, metric: str) -> dict[str, Any]:
        """The chance that `metric` came out above zero: adjusted by how the dice fell when the sample counted
        them and is large enough (`controls`), otherwise from its count alone (Wilson's interval)."""
        figure = self._read.get(metric)
        if figure is None:
            figure = self._read[metric] = self._chance(metric)
        return {**figure, "ci": None if figure["ci"] is None else list(figure["ci"])}  # a copy the caller may change

    def _chance(self, metric: str) -> dict[str, Any]:
        n = self.trials
        hits = sum(c for v, c in self.values.get(metric, {}).items() if v > 0)
        adjusted = self.moments.chance(metric, hits, n) if n else None
        if adjusted is None:
            return chance_figure(hits, n)
        p, half = adjusted
        return {"p": p, "ci": [max(0.0, p - half), min(1.0, p + half)], "trials": n, "count": hits,
                "method": "dice"}

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data (histogram keys as strings), for job results."""
        return {"version": SAMPLE_VERSION, "trials": self.trials,
                "values": {m: {str(v): c for v, c in sorted(h.items())} for m, h in self.values.items()},
                "categories": {k: dict(sorted(c.items())) for k, c in self.categories.items()},
                "moments": self.moments.to_json()}

    def to_plain(self) -> tuple[Any, ...]:
        """The sample as plain containers (ints, strings, dicts, tuples), for pickling between the service's
        processes: no text to build or parse, and it shares the dicts (the caller hands the sample over)."""
        return (SAMPLE_VERSION, self.trials, self.values, self.categories, self.moments.to_plain())

    @classmethod
    def from_plain(cls, data: tuple[Any, ...]) -> Sample:
        """The sample `to_plain()` gave (its dicts are taken, not copied); another version raises ValueError."""
        if not isinstance(data, tuple) or len(data) != 5 or data[0] != SAMPLE_VERSION:
            raise ValueError(f"sample: expected plain sample data of version {SAMPLE_VERSION}")
        _, trials, values, categories, moments = data
        return cls(trials, values, categories, Moments.from_plain(moments))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Sample:
        """The sample `to_json()` wrote; a wrong version or shape raises ValueError."""
        if not isinstance(data, Mapping) or data.get("version") not in (1, 2, SAMPLE_VERSION):
            raise ValueError(f"sample: expected a sample object of version {SAMPLE_VERSION}")
        try:
            return cls(int(data["trials"]),
                       {str(m): {int(v): int(c) for v, c in h.items()} for m, h in data["values"].items()},
                       {str(k): {str(n): int(c) for n, c in cs.items()} for k, cs in data["categories"].items()},
                       Moments.from_json(data["moments"]) if "moments" in data else Moments())  # 1, 2: none kept
        except (KeyError, TypeError, AttributeError, ValueError) as error:
            raise ValueError(f"sample: malformed ({error!r})") from None


def merged(samples: Iterable[Sample]) -> Sample:
    """One sample of every chunk in `samples`."""
    out = Sample()
    for sample in samples:
        out.merge(sample)
    return out


def _add(into: dict[Any, int], counts: Mapping[Any, int]) -> None:
    for value, count in counts.items():
        into[value] = into.get(value, 0) + count


# ---- figures ------------------------------------------------------------------------------------------------------
def mean_figure(hist: Mapping[int, int]) -> dict[str, Any]:
    """Expected value with its 95% interval, the spread (p5/p50/p95, min, max) and the trials behind it."""
    n = sum(hist.values())
    if not n:
        return {"mean": None, "ci": None, "trials": 0, "p5": None, "p50": None, "p95": None, "min": None,
                "max": None}
    items = sorted(hist.items())  # in value order, so chunks merged in any order give the very same floats
    mean = sum(v * c for v, c in items) / n
    var = sum(c * (v - mean) ** 2 for v, c in items) / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(var / n)
    return {"mean": mean, "ci": [mean - half, mean + half], "trials": n, "p5": percentile(hist, 5),
            "p50": percentile(hist, 50), "p95": percentile(hist, 95), "min": min(hist), "max": max(hist)}


def chance_figure(hits: int, n: int) -> dict[str, Any]:
    """A chance (hits of n trials) with its 95% Wilson score interval."""
    if not n:
        return {"p": None, "ci": None, "trials": 0, "count": 0, "method": "count"}
    p = hits / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    low = 0.0 if hits == 0 else max(0.0, centre - half)
    high = 1.0 if hits == n else min(1.0, centre + half)
    return {"p": p, "ci": [low, high], "trials": n, "count": hits, "method": "count"}


def chance_above(hist: Mapping[int, int], n: int, threshold: int = 0) -> dict[str, Any]:
    """The chance that a metric ends above `threshold` (e.g. a hero loses at least one Transport)."""
    return chance_figure(sum(c for v, c in hist.items() if v > threshold), n)


def percentile(hist: Mapping[int, int], p: int) -> int | None:
    """The nearest-rank p-th percentile: the least value with at least p% of the trials at or below it."""
    total = sum(hist.values())
    if not total:
        return None
    rank = max(1, -(-p * total // 100))
    seen = 0
    for value in sorted(hist):
        seen += hist[value]
        if seen >= rank:
            return value
    return max(hist)


def histogram_bars(hist: Mapping[int, int]) -> list[list[int]]:
    """[[value, trials], ...] in value order: what a presenter draws as a histogram."""
    return [[value, count] for value, count in sorted(hist.items())]
