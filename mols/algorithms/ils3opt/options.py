"""ILS-3opt's options (-p tsp -a ils --strategy S)."""

from __future__ import annotations

from dataclasses import dataclass

from mols.errors import OptionError
from mols.search.options import ILS3OPT, AlgorithmOptions, option

DEFAULT_POPULATION = 64  # solutions improved side by side (the paper's nbsol)
# The strategies: first improvement on the CPU (cpu), by a thread (fi-thread) or a block (fi-block, in global or
# shared memory) per solution on the GPU; best improvement over random samples (rkbi), and rkbi's Numba twin; ours:
# 3-opt and Or-opt moves in merged rounds (or3opt on the GPU, cpu-or3opt its twin: what -p tsp -a ils runs).
OR3OPT = ("or3opt", "cpu-or3opt")
STRATEGIES = ("cpu", "fi-thread", "fi-block", "fi-block-shared", "rkbi", "cpu-rkbi", *OR3OPT)
DEFAULT_STRATEGY, CPU_DEFAULT_STRATEGY = OR3OPT  # -p tsp -a ils on the GPU / the CPU without --strategy (nor a
# generic ILS option)
LISTS = ("nearest", "quadrant")  # candidate lists: a city's 40 nearest, or the 10 nearest in each quadrant first
START_TOURS = ("nearest", "greedy")  # each solution's nearest-neighbour tour, or one greedy-edge tour for all


@dataclass(frozen=True)
class ILS3optOptions(AlgorithmOptions):
    """ILS-3opt (Delévacq et al. 2012): a population of tours, each improved by 3-opt moves and perturbed."""

    strategy: str | None = option(None, "-p tsp -a ils: ILS-3opt (Delévacq et al. 2012) run by cpu (Numba, "
                                  "--threads cores), fi-thread, fi-block, fi-block-shared or rkbi (GPU), or cpu-rkbi "
                                  "(rkbi's Numba twin); or3opt: 3-opt and Or-opt moves in merged rounds (GPU; "
                                  "cpu-or3opt its Numba twin), the default of -p tsp -a ils on the GPU. -i is the "
                                  "total of ILS iterations, split over the population.", ILS3OPT, choices=STRATEGIES, cli=str, search=False, late=True,
                                  folder=lambda strategy, config: strategy)
    population: int | None = option(None, "ILS-3opt: solutions improved side by side (the paper's nbsol: 1, 8, 64, "
                                    "512, 2048; default 64; or3opt: by the instance's size).", ILS3OPT, search=False,
                                    late=True, folder=lambda p, config: f"P{p or DEFAULT_POPULATION}"
                                    if config.strategy and (p or config.strategy not in OR3OPT) else None)
    merge: int = option(0, "ILS-3opt: merged rounds in islands of this many solutions (a divisor of --population): "
                        "an island's solutions start every round of 32 iterations from its tour, and their "
                        "improvements are merged into it. 0: independent solutions, the paper's (or3opt: islands by "
                        "the instance's size). At least 200 cities.", ILS3OPT, minimum=0, search=False, late=True,
                        folder=lambda merge, config: f"M{merge}" if merge else None)
    lists: str | None = option(None, "ILS-3opt's candidate lists: nearest (a city's 40 nearest, the paper's; its "
                               "strategies' default) or quadrant (the 10 nearest in each quadrant around a city, then "
                               "the nearest: they reach across clusters, as fl1577's; or3opt's default).", ILS3OPT,
                               choices=LISTS, cli=str, search=False, late=True,
                               folder=lambda lists, config: lists)
    start_tours: str | None = option(None, "ILS-3opt's start tours: nearest (each solution's nearest-neighbour tour "
                                     "from a random city; the default) or greedy (one greedy-edge tour for every "
                                     "solution, shorter before the first descents).", ILS3OPT, choices=START_TOURS,
                                     cli=str, search=False, late=True,
                                     folder=lambda start, config: start and f"start-{start}")

    def __post_init__(self):
        super().__post_init__()
        if self.population is not None and self.population < 1:
            raise OptionError("population", f"must be at least 1, got {self.population}")

    def check_strategy(self) -> None:
        """OptionError where ILS-3opt's options are given to a run that is not ILS-3opt (no strategy, given or taken
        by default)."""
        given = [name for name, value in (("population", self.population is not None), ("merge", self.merge),
                                          ("lists", self.lists is not None),
                                          ("start_tours", self.start_tours is not None)) if value]
        if self.strategy is None and given:
            raise OptionError(given[0], "is ILS-3opt's: give {strategy} too (with problem tsp, algorithm ils)",
                              "strategy")
