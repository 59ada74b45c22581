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
2D6 per what it is for, and when it has a total to reach, by how many of its kind fell short so far; a Random Hero
per rule and how many were offered). Two groups' deviations are made of different dice, each fresh when rolled,
so they are uncorrelated: only the products within a group are kept, which keeps a trial's cost linear in its
dice and lets there be hundreds of controls. So a die is counted in one group, never two.

With hundreds of controls, fitting and judging on the same trials would flatter the interval, so the trials are
split into FOLDS parts by their index: each part's controls and their weights are chosen on the other parts and
applied to it (cross-fitting). The weights then owe nothing to the trials they adjust, and each part's spread is
measured on trials its weights never saw: the interval is honest however many controls there were to choose
from. Of the random draws only a Random Hero is counted: it decides who suffers, while the Town's
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
FOLDS = 4  # the trials' parts by index: each part's controls are weighted by a fit on the other parts
MIN_TRIALS = 400  # below this many trials a chance is read from its count alone (Wilson's interval)
MIN_EACH_WAY = 10  # and when it happened (or did not) fewer than this many times (or a FOLDS-th of that in a part)
TRIALS_PER_CONTROL = 10  # a part's trials per control it may use
SELECT_T = 4.0  # a control is used when its tie to the chance on the fitting part is this many standard errors
MIN_EVENTS = 10  # and when the part expects its event, and the event's absence, at least this many times each,
MIN_CHANCES = 20  # in at least this many rolls or draws (a few big rolls make a heavy tail the test cannot judge)
RESIDUAL_FLOOR = 0.05  # the adjusted spread is never below this share of the count's: near-perfect fits rest on few trials
D36_VALUES = tuple(10 * tens + units for tens in range(1, 7) for units in range(1, 7))
TWO_D6 = {total: (6 - abs(total - 7)) / 36 for total in range(2, 13)}

Counts = dict[str, dict[str, int]]  # group -> count name -> count, for one trial
Row = dict[str, float]  # a control: count name -> coefficient, within one group


class DiceTally:
    """A policy-side answer source for one trial at a time: it rolls and draws with the session RNG exactly as
    `flow.server` would (the same dice, so the trial is unchanged) and counts how the dice fell, per group."""

    __slots__ = ("counts", "tested", "short")

    def __init__(self) -> None:
        self.counts: Counts = {}
        self.tested: dict[str, str] = {}  # hero -> the rule of their last skill test (a re-roll is keyed by it)
        self.short: dict[Asks, int] = {}  # per what a 2D6 with a target is for: how many fell short so far

    def take(self) -> Counts:
        """This trial's counts; the tally starts afresh for the next one."""
        counts, self.counts = self.counts, {}
        self.tested, self.short = {}, {}
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
            total = faces[0] + faces[1]
            target = next((fact for name, fact in request.said if name == "target"), None)
            if not isinstance(target, int):
                self._add(_group("2d6", request.asks), "n", str(total))
                return
            # a total to reach: its group says how many fell short so far, so a threshold over many rolls (the
            # Darkness escapes on the sixth) is a sum of shortfalls, each with known odds given those before it
            before = self.short.get(request.asks, 0)
            short = total < target and not (request.doubles and faces[0] == faces[1])
            group = _group("2d6", request.asks, target, int(request.doubles), before)
            if short:
                self._add(group, "n", str(total), "miss")
                self.short[request.asks] = before + 1
            else:
                self._add(group, "n", str(total))
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


@cache
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
        rows = [({total: 1.0, "n": -TWO_D6[int(total)]}, TWO_D6[int(total)]) for total in sorted(names - {"n", "miss"})]
        if group.count(":") == 4:  # a total to reach ("2d6:asks:target:doubles:short so far"): whether it fell short
            _, _, target, doubles, _ = group.split(":")
            short = _short_chance(int(target), doubles == "1")
            rows.append(({"miss": 1.0, "n": -short}, short))
        return rows
    if group.startswith("t:"):
        _, kind, target, pool, _rest = group.split(":", 4)
        p, dice = hit_chance(DieKind(kind), int(target)), int(pool)
        return [({"hit": 1.0, "n": -dice * p}, p), ({"miss": 1.0, "n": -((1 - p) ** dice)}, (1 - p) ** dice)]
    if group.startswith("r:"):
        among = int(group.split(":", 2)[1])
        return [({f"p:{key[2:]}": 1.0, key: -1 / among}, 1 / among) for key in sorted(names) if key.startswith("o:")]
    return []


def _expected(row: Row, sums: Mapping[str, int]) -> tuple[float, int]:
    """What the dice's odds expect of a control's count over a part (its one negative term, turned round), and in
    how many rolls or draws (that term's count)."""
    name, coef = next((name, coef) for name, coef in row.items() if coef < 0)
    return -coef * sums.get(name, 0), sums.get(name, 0)


def _short_chance(target: int, doubles: bool) -> float:
    """The chance a 2D6 total falls short of `target` (with `doubles`: natural doubles never do)."""
    return sum(1 for a in range(1, 7) for b in range(1, 7) if a + b < target and not (doubles and a == b)) / 36


def _usable(row: Row, chance: float, sums: Mapping[str, int]) -> bool:
    """Whether a part has seen enough of a control's dice to judge its tie to a chance (MIN_EVENTS, MIN_CHANCES)."""
    expected, rolls = _expected(row, sums)
    return rolls >= MIN_CHANCES and min(expected, expected / chance - expected) >= MIN_EVENTS


@dataclass
class Part:
    """Integer sums over some of a sample's trials (one fold, or the folds a fit uses): each count, each product of
    two counts of the same group, and each count over the trials where a chance's metric came out above zero."""

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

    def merge(self, other: Part) -> None:
        self.trials += other.trials
        _add_into(self.yes, other.yes)
        for group, sums in other.sums.items():
            _add_into(self.sums.setdefault(group, {}), sums)
            _add_into(self.cross.setdefault(group, {}), other.cross.get(group, {}))
        for metric, groups in other.above.items():
            mine = self.above.setdefault(metric, {})
            for group, sums in groups.items():
                _add_into(mine.setdefault(group, {}), sums)

    def to_json(self, index: Mapping[str, int]) -> dict[str, Any]:
        """Plain JSON data, each group named by its place in `index` (the names are long and recur)."""
        return {"trials": self.trials, "yes": dict(sorted(self.yes.items())),
                "sums": {str(index[g]): dict(sorted(s.items())) for g, s in sorted(self.sums.items())},
                "cross": {str(index[g]): [[a, b, c] for (a, b), c in sorted(s.items())]
                          for g, s in sorted(self.cross.items())},
                "above": {m: {str(index[g]): dict(sorted(s.items())) for g, s in sorted(gs.items())}
                          for m, gs in sorted(self.above.items())}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], groups: Sequence[str]) -> Part:
        def ints(counts: Mapping[str, Any]) -> dict[str, int]:
            return {str(name): int(count) for name, count in counts.items()}

        cross = {groups[int(g)]: {(str(a), str(b)): int(c) for a, b, c in pairs} for g, pairs in data["cross"].items()}
        return cls(int(data["trials"]), ints(data["yes"]), {groups[int(g)]: ints(s) for g, s in data["sums"].items()},
                   cross, {str(m): {groups[int(g)]: ints(s) for g, s in gs.items()} for m, gs in data["above"].items()})


@dataclass
class Moments:
    """How a sample's dice fell, in FOLDS parts by trial index for cross-fitting (see the module)."""

    folds: tuple[Part, ...] = field(default_factory=lambda: tuple(Part() for _ in range(FOLDS)))
    _fits: dict[int, _Fit] = field(default_factory=dict, compare=False, repr=False)
    # each fold's complement (every other fold's sums), kept up to date as chunks merge in: a sample read while its
    # chunks arrive (the service's odds job) refits on every arrival, and would otherwise add them up again
    _rests: tuple[Part, ...] | None = field(default=None, compare=False, repr=False)

    def add(self, index: int, chances: Sequence[tuple[int, str]], values: Sequence[int], counts: Counts) -> None:
        """Trial `index`: its dice counts, and its values of the metrics read as chances ((column, name) pairs)."""
        self._fits.clear()
        self._rests = None
        self.folds[index % FOLDS].add([metric for column, metric in chances if values[column] > 0], counts)

    def merge(self, other: Moments) -> None:
        self._fits.clear()
        for mine, theirs in zip(self.folds, other.folds, strict=True):
            mine.merge(theirs)
        if self._rests is not None:
            for fold, rest in enumerate(self._rests):
                for other_fold, theirs in enumerate(other.folds):
                    if other_fold != fold:
                        rest.merge(theirs)

    @property
    def trials(self) -> int:
        return sum(fold.trials for fold in self.folds)

    def to_json(self) -> dict[str, Any]:
        groups = sorted({group for fold in self.folds for group in fold.sums})
        index = {group: i for i, group in enumerate(groups)}
        return {"groups": groups, "folds": [fold.to_json(index) for fold in self.folds]}

    def to_plain(self) -> tuple[Any, ...]:
        return tuple((f.trials, f.yes, f.sums, f.cross, f.above) for f in self.folds)

    @classmethod
    def from_plain(cls, data: tuple[Any, ...]) -> Moments:
        if len(data) != FOLDS:
            raise ValueError(f"moments: expected {FOLDS} folds, got {len(data)}")
        return cls(tuple(Part(*fold) for fold in data))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Moments:
        if len(data.get("folds", ())) != FOLDS:  # written before the folds (sample version 2): read from the count
            return cls()
        groups = [str(group) for group in data["groups"]]
        return cls(tuple(Part.from_json(fold, groups) for fold in data["folds"]))

    def chance(self, metric: str, hits: int, n: int) -> tuple[float, float] | None:
        """The chance that `metric` came out above zero, adjusted by the dice, and its 95% half-width; None when
        the sample is too small for it, or no control ties to it (the count alone answers then)."""
        if min(hits, n - hits) < MIN_EACH_WAY or n < MIN_TRIALS or self.trials != n:
            return None
        folds = self.folds
        if any(min(f.yes.get(metric, 0), f.trials - f.yes.get(metric, 0)) < MIN_EACH_WAY // FOLDS for f in folds):
            return None
        estimate = spread = 0.0
        used = False
        for judge in range(FOLDS):
            weights = self._fit(judge, rest=True).weights(metric)
            used = used or bool(weights)
            p, v = self._fit(judge).judged(metric, weights)
            m = folds[judge].trials
            estimate += m * p
            spread += m * v
        if not used:
            return None
        return min(1.0, max(0.0, estimate / n)), Z95 * math.sqrt(spread) / n

    def _fit(self, fold: int, *, rest: bool = False) -> _Fit:
        """One fold's trials (`rest`: every other fold's) as a fit."""
        key = -1 - fold if rest else fold
        fit = self._fits.get(key)
        if fit is None:
            if rest:
                if self._rests is None:
                    self._rests = tuple(_total(self.folds[:f] + self.folds[f + 1:]) for f in range(FOLDS))
                fit = self._fits[key] = _Fit(self._rests[fold])
            else:
                fit = self._fits[key] = _Fit(self.folds[fold])
        return fit


def _total(parts: Sequence[Part]) -> Part:
    whole = Part()
    for part in parts:
        whole.merge(part)
    return whole


Weights = dict[tuple[str, str], tuple[Row, float]]  # (group, the event a control counts) -> (control, weight)


class _Fit:
    """One part's controls: per group, those the part has seen enough of to fit and their variances (from its
    sums); then, per chance, the controls tied to it and their weights (`weights`), or how weights fitted on the
    other parts do on this one (`judged`)."""

    def __init__(self, part: Part) -> None:
        self.part = part
        self._groups: list[tuple[str, list[Row], list[float], list[float]]] | None = None
        self.known: dict[str, Weights] = {}

    @property
    def groups(self) -> list[tuple[str, list[Row], list[float], list[float]]]:
        """Per group: the controls this part has seen enough of to fit, their means and their variances (made when
        a fit is first asked for: a part that is only judged never needs them)."""
        if self._groups is None:
            part, self._groups = self.part, []
            for group, sums in sorted(part.sums.items()):
                seen = {name for name, count in sums.items() if count}
                rows = [row for row, chance in group_controls(group, seen) if _usable(row, chance, sums)]
                if rows and part.trials:
                    means = [sum(c * sums.get(name, 0) for name, c in row.items()) / part.trials for row in rows]
                    self._groups.append((group, rows, means, [self._covariance(group, row, row) for row in rows]))
        return self._groups

    def _covariance(self, group: str, one: Row, other: Row) -> float:
        """The covariance of two of a group's controls over this part, from its sums."""
        n, sums, cross = self.part.trials, self.part.sums.get(group, {}), self.part.cross.get(group, {})
        total = 0.0
        for a, ca in one.items():
            for b, cb in other.items():
                pair = (a, b) if a <= b else (b, a)
                total += ca * cb * (cross.get(pair, 0) / n - sums.get(a, 0) * sums.get(b, 0) / (n * n))
        return total

    def _moments(self, group: str, rows: Sequence[Row]) -> tuple[list[float], list[list[float]]]:
        """The means of a group's controls `rows` over this part and their covariance matrix."""
        n, sums = self.part.trials, self.part.sums.get(group, {})
        means = [sum(c * sums.get(name, 0) for name, c in row.items()) / n for row in rows]
        return means, [[self._covariance(group, ri, rj) for rj in rows] for ri in rows]

    def _ties(self, metric: str, group: str, rows: Sequence[Row]) -> list[float]:
        """Each control's covariance with the chance (1 where `metric` came out above zero) over this part."""
        part, n = self.part, self.part.trials
        p = part.yes.get(metric, 0) / n
        sums, yes = part.sums.get(group, {}), part.above.get(metric, {}).get(group, {})
        return [sum(c * (yes.get(name, 0) - p * sums.get(name, 0)) for name, c in row.items()) / n for row in rows]

    def weights(self, metric: str) -> Weights:
        """The controls tied to `metric` on this part (at least SELECT_T standard errors, at most one per
        TRIALS_PER_CONTROL trials) and their regression weights, solved group by group (groups are uncorrelated)."""
        known = self.known.get(metric)
        if known is not None:
            return known
        n = self.part.trials
        p = self.part.yes.get(metric, 0) / n
        above = self.part.above.get(metric, {})
        # a group never rolled in a trial where the metric came out above zero ties to it by its mean alone
        ties = [self._ties(metric, group, rows) if group in above else [-p * mean for mean in means]
                for group, rows, means, _ in self.groups]
        strength = []
        for g, (_, _, _, variances) in enumerate(self.groups):
            for r, tie in enumerate(ties[g]):
                var = variances[r]
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
            group, rows, _, _ = self.groups[g]
            _, cov = self._moments(group, [rows[r] for r in picked])
            kept, factor = _cholesky(cov)
            beta = _solve(factor, [ties[g][picked[i]] for i in kept])
            for i, b in zip(kept, beta, strict=True):
                row = rows[picked[i]]
                out[(group, _event(row))] = (row, b)
        self.known[metric] = out
        return out

    def judged(self, metric: str, weights: Weights) -> tuple[float, float]:
        """With `weights` fitted on the other parts: this part's adjusted chance and the spread of one trial's
        adjusted outcome about it, on n - k - 1 degrees of freedom for k controls (never below RESIDUAL_FLOOR of
        the plain spread). A control this part never rolled is zero here and changes nothing."""
        n = self.part.trials
        p = self.part.yes.get(metric, 0) / n
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
