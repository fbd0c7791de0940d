"""The evolution strategy's options (-a es): its first radius, its shrink factor, the radius below which it may
restart and the failures in a row there before it does."""

from __future__ import annotations

import math
from dataclasses import dataclass

from mols.errors import OptionError
from mols.search.options import SEARCH, AlgorithmOptions, option

RESTARTS = ("point", "radius")
MIN_RADIUS = 2.0 ** -63  # the smallest radius the draw key's 8-bit level holds (neighborhoods/adaptive.py)


def quarter_octaves(value: float) -> int:
    """-4 log2(value) rounded: the neighborhood's level of a radius or factor."""
    return round(-4 * math.log2(value))


def folder_part(key: str, default: float):
    return lambda value, config: None if value == default else f"{key}{value:g}"


@dataclass(frozen=True)
class ESOptions(AlgorithmOptions):
    """-a es: best of the neighborhood when it is better; the radius follows the winner's, shrinks on failure."""

    radius: float = option(0.5, "ES: the first radius, a fraction of the box's width (2^(-1/4) steps).", SEARCH,
                           folder=folder_part("r", 0.5))
    shrink: float = option(0.5, "ES: the radius's factor after an evaluation without a better neighbor.", SEARCH,
                           folder=folder_part("sh", 0.5))
    min_radius: float = option(1e-12, "ES: below this radius (a fraction of the box's width) it restarts from a "
                               "random point, after --patience failures in a row; the archive keeps the best.", SEARCH,
                               folder=folder_part("mr", 1e-12))
    patience: int = option(8, "ES: failures in a row below --min-radius before a restart (successes there go on "
                           "refining).", SEARCH, folder=folder_part("pa", 8))
    restart: str = option("radius", "ES: what a restart renews: radius (the first radius, from the best point so far) "
                          "or point (a random point, the first radius).", SEARCH, choices=RESTARTS,
                          folder=lambda value, config: None if value == "radius" else f"re{value}")

    def __post_init__(self):
        super().__post_init__()
        for name, low, high in (("radius", MIN_RADIUS, 1.0), ("shrink", 0.0, 2.0 ** -0.25),
                                ("min_radius", MIN_RADIUS, self.radius)):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and low <= value <= high and value > 0):
                raise OptionError(name, f"must be in ({low:g}, {high:g}], got {value!r}")
        if not (isinstance(self.patience, int) and not isinstance(self.patience, bool) and self.patience >= 1):
            raise OptionError("patience", f"must be a whole number >= 1, got {self.patience!r}")
