"""The 36 results of the Expanded Travel Hazard Chart, one function each, registered by their D36 number. Their
Grit effects (lose 1 in 22 and 35, discard or lose all in 46 and 65, Recover in 13, 14, 44 and 66, +1 Max Grit in
55, spend to help in 32) are the cross-reference FT-GRIT-04, each under its own result's id."""

from . import d1, d2, d3, d4, d5, d6  # noqa: F401  (each module registers its results)
from .common import HAZARDS

__all__ = ["HAZARDS"]
