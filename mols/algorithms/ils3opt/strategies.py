"""ILS-3opt's strategies: the population each runs on (make_population), its CPU twin, or3opt's population and
islands by the instance's size, and the checks of a run's options (check_options)."""

from __future__ import annotations

import math

from mols.algorithms.ils3opt.cpu import CpuPopulation
from mols.algorithms.ils3opt.merge import MIN_CITIES
from mols.algorithms.ils3opt.options import DEFAULT_POPULATION, OR3OPT, STRATEGIES
from mols.errors import OptionError
from mols.problems.tsp.model import Tsp

GPU_STRATEGIES = ("fi-thread", "fi-block", "fi-block-shared", "rkbi", "or3opt")
RKBI_STRATEGIES = ("rkbi", "cpu-rkbi")  # random-k best improvement: on the GPU, and its Numba twin
TWINS = {"rkbi": "cpu-rkbi", "or3opt": "cpu-or3opt"}  # the Numba twin of a GPU strategy (else cpu)
SHARED_CITIES = 2_000  # or3opt: tours of up to this many cities in shared memory (fi-block-shared), else fi-block
LARGE_CITIES = 4_000  # or3opt: from this many cities, islands of 1,024 (measured on fnl4461; pcb3038 keeps 512)
# or3opt's (population, island) from this many cities on: islands of 256 of 2,048 reached rat783's and fl1577's
# optimum soonest of 7 shapes (reports/peers/), pcb3038's 0.2 % 512 of 4,096 (reports/ils3opt/); on fnl4461 islands
# of 1,024 were lower than 512 at 1 s in every seed and level from 5 s on (reports/peers/; pcb3038 not measured)
OR3OPT_SHAPES = ((0, (2_048, 0)), (MIN_CITIES, (2_048, 256)), (SHARED_CITIES + 1, (4_096, 512)),
                 (LARGE_CITIES, (4_096, 1_024)))
# or3opt's candidate lists: with quadrant lists it reached fl1577's optimum soonest and the lowest gaps on pcb3038 and
# fnl4461 from 5 s on (reports/peers/)
OR3OPT_LISTS = "quadrant"
CPU_SHAPE = (16, 16)  # cpu-or3opt's without a population: one island of a few solutions a core


def cpu_twin(strategy: str) -> str:
    """The Numba strategy that makes the same tours as `strategy` (itself on the CPU)."""
    return strategy if strategy.startswith("cpu") else TWINS.get(strategy, "cpu")


def default_lists(strategy: str) -> str:
    """The candidate lists a strategy runs on where none are given."""
    return OR3OPT_LISTS if strategy in OR3OPT else "nearest"


def population_shape(strategy: str, n: int, population: int | None, merge: int | None) -> tuple[int, int]:
    """The (population, island) of a run on n cities, given ones kept (None: the strategy's default; or3opt's island
    divides a given population)."""
    if strategy not in OR3OPT:
        return population or DEFAULT_POPULATION, merge or 0
    size, island = next(shape for cities, shape in reversed(OR3OPT_SHAPES) if n >= cities)
    if population is not None:  # the twins' islands from one rule, so that both make the same tours
        size, island = population, math.gcd(population, island) if island else 0
    elif strategy == "cpu-or3opt" and n >= MIN_CITIES:
        size, island = CPU_SHAPE
    return size, island if merge is None else merge


def make_population(strategy: str, xy, cand, seed: int, tours, lengths, seg: int, att: bool, samples: int = 0,
                    launch_for: int | None = None, merged: bool = False, blocks: int | None = None):
    """samples: rkbi's per step (the rkbi strategies only); blocks: rkbi's per solution (None: by its samples);
    launch_for: the GPU kernel of a population of this many solutions (default: the tours'; warm_up compiles a
    run's); merged: the kernel of merged rounds. or3opt: with Or-opt moves, fi-block-shared's kernel up to
    SHARED_CITIES, fi-block's above."""
    oropt = strategy in OR3OPT
    if strategy.startswith("cpu"):
        return CpuPopulation(xy, cand, seed, tours, lengths, seg, att, samples if strategy == "cpu-rkbi" else 0,
                             oropt)
    from mols.algorithms.ils3opt.gpu import GpuPopulation, GpuRkbiPopulation

    if strategy == "rkbi":
        return GpuRkbiPopulation(xy, cand, seed, tours, lengths, seg, att, samples, blocks)
    if strategy == "or3opt":  # its kernel, with or without Or-opt moves
        strategy = "fi-block-shared" if tours.shape[1] <= SHARED_CITIES else "fi-block"
    return GpuPopulation(strategy, xy, cand, seed, tours, lengths, seg, att, launch_for, merged, oropt)


def check_options(problem: Tsp, strategy: str, population: int, merge: int = 0) -> None:
    """OptionError where the TSP `problem` cannot be run so."""
    if strategy not in STRATEGIES:
        raise OptionError("strategy", f": unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")
    if population < 1:
        raise OptionError("population", f"must be at least 1, got {population}")
    if problem.n_obj != 1:
        raise OptionError("strategy", "runs ILS-3opt, which searches the TSP of one coordinate set (problem tsp), "
                          "not bitsp")
    if problem.n < 8:
        raise OptionError("algorithm", f"ils (ILS-3opt) needs at least 8 cities (a double bridge and 3-opt moves), got "
                          f"{problem.n}; choose tabu for fewer")
    if merge and problem.n < MIN_CITIES:
        raise OptionError("merge", f"needs at least {MIN_CITIES} cities (its windows would cover the tour), got "
                          f"{problem.n}; run without {{merge}}", "merge")
    if merge < 0 or (merge and population % merge):
        raise OptionError("merge", f"takes the solutions of an island, a divisor of {{population}} {population}; got "
                          f"{merge}", "population")
    if merge and strategy in RKBI_STRATEGIES:
        raise OptionError("merge", "runs the first-improvement strategies (cpu, fi-thread, fi-block, "
                          f"fi-block-shared), not {strategy}")
