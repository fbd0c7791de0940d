"""The descent family's options: hill climbing, iterated local search (or ILS-3opt on the TSP) and iterated tabu."""

from __future__ import annotations

from dataclasses import dataclass

from mols.algorithms.ils3opt.options import ILS3optOptions
from mols.algorithms.tabu.options import tenure_option, weights_option
from mols.search.options import SEARCH, AlgorithmOptions, keyed, option


def strength_option():
    return option(None, "ITS, ILS, elite: random changes per perturbation (swaps, bit flips, new values; default: "
                  "n / 5, elite n / 10, at least 2; Q3AP: drawn in [2, n] at each).", SEARCH, minimum=1,
                  folder=keyed("k"))


@dataclass(frozen=True)
class ClimbOptions(AlgorithmOptions):
    """-a hc: best improvement, restarted from a random solution at each local optimum."""

    weights: tuple[float, ...] | None = weights_option()  # None: equal weights


@dataclass(frozen=True)
class ILSOptions(ILS3optOptions):
    """-a ils: climbs from the best local optimum perturbed; with a strategy (-p tsp), ILS-3opt."""

    weights: tuple[float, ...] | None = weights_option()
    strength: int | None = strength_option()  # None: max(2, n // 5)


@dataclass(frozen=True)
class ITSOptions(AlgorithmOptions):
    """-a its: tabu runs of a fixed length, each from the run before's best perturbed."""

    weights: tuple[float, ...] | None = weights_option()
    tenure: int | None = tenure_option()  # None: n / 2
    strength: int | None = strength_option()
    run_length: int | None = option(None, "ITS: iterations per tabu run (default: 10 n).", SEARCH, minimum=1,
                                    folder=keyed("r"))
