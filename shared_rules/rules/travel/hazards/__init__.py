"""The 36 results of the Expanded Travel Hazard Chart, one function each, registered by their D36 number."""

from . import d1, d2, d3, d4, d5, d6  # noqa: F401  (each module registers its results)
from .common import HAZARDS

__all__ = ["HAZARDS"]
