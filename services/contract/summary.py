"""The shape of a finished simulation's result (`shared_rules.simulate.summarize()`), as dataclasses the API model
walks like the engine's own: a metric the simulator adds to HERO_METRICS is a typed field by regeneration alone."""

from __future__ import annotations

from dataclasses import dataclass, make_dataclass

from shared_rules.simulate import HERO_METRICS, PERCENTILES


@dataclass(frozen=True, slots=True)
class _StatsBase:
    """A distribution over the journeys: mean, least, greatest (null when no journey had the value)."""

    mean: float | None
    min: int | None
    max: int | None


Stats = make_dataclass(
    "Stats", [(f"p{p}", int | None) for p in PERCENTILES], bases=(_StatsBase,), frozen=True,
    namespace={"__doc__": "A distribution over the journeys: mean, least, greatest and the nearest-rank "
                          f"percentiles {', '.join(f'p{p}' for p in PERCENTILES)} (null when no journey had one)."},
)
MetricStats = make_dataclass(
    "MetricStats", [(metric, Stats) for metric in HERO_METRICS], frozen=True,
    namespace={"__doc__": "Per metric, its distribution; changes are after minus before the journey."},
)
HeroSummary = make_dataclass(
    "HeroSummary", [("name", str)] + [(metric, Stats) for metric in HERO_METRICS], frozen=True,
    namespace={"__doc__": "One hero's name and the distribution of each metric over the journeys."},
)


@dataclass(frozen=True, slots=True)
class HazardFrequency:
    """How often one D36 result came up: in all, per journey, and as a share of the hazards met."""

    name: str
    count: int
    per_journey: float
    share: float


@dataclass(frozen=True, slots=True)
class HazardSummary:
    """Hazards per journey (generated, and met), their distributions, and every D36 result's frequency."""

    count: Stats  # type: ignore[valid-type]
    count_distribution: dict[str, int]
    met: Stats  # type: ignore[valid-type]
    met_distribution: dict[str, int]
    results: dict[str, HazardFrequency]


@dataclass(frozen=True, slots=True)
class SimulationResult:
    """A finished simulation: hazards met, towns reached, and per hero and for the posse the distributions of XP,
    Gold, Wounds, Sanity, Corruption, items and tokens lost, Grit spent, knock-outs."""

    trials: int
    size: str
    hazards: HazardSummary
    turned_back: int
    buildings_destroyed: Stats  # type: ignore[valid-type]
    town_types: dict[str, int]
    town_sizes: dict[str, int]
    posse: MetricStats  # type: ignore[valid-type]
    heroes: dict[str, HeroSummary]  # type: ignore[valid-type]
