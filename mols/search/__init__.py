"""Searches on the host over whole-neighborhood evaluations, and `solve`, the one entry point."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mols.backends import prepare
from mols.backends.cuda import gpu_available
from mols.errors import MolsError
from mols.neighborhoods import get_neighborhood
from mols.problems import load_problem, problem_entry
from mols.search.base import OnIteration, Search, SearchResult
from mols.signals import StopSignals
from mols.search.its import IteratedTabu
from mols.search.pls import ARCHIVES, VARIANTS, ParetoLocalSearch
from mols.search.tabu import DEFAULT_PARTITIONS, AggregatedTabu

ALGORITHMS = ("pls", "tabu", "its")
DEFAULT_ITERATIONS = 10_000  # neighborhood evaluations, as in the flowshop paper
# Options that only some algorithms take: option -> (RunConfig field, its default, those algorithms).
ALGORITHM_OPTIONS = {
    "--variant": ("variant", "nondominated", ("pls",)),
    "--archive": ("archive", None, ("pls",)),
    "--weights": ("weights", None, ("tabu", "its")),
    "--partitions": ("partitions", DEFAULT_PARTITIONS, ("tabu",)),
    "--tenure": ("tenure", None, ("tabu", "its")),
    "--strength": ("strength", None, ("its",)),
    "--run-length": ("run_length", None, ("its",)),
}


@dataclass(frozen=True)
class RunConfig:
    """Everything that defines a run; unknown keys are a TypeError, bad values a MolsError."""

    instance: str
    problem: str = "flowshop"
    algorithm: str = "pls"
    variant: str = "nondominated"  # pls only
    neighborhood: str | None = None  # None: the problem's usual one (insertion for the flowshop)
    backend: str = "auto"
    iterations: int = DEFAULT_ITERATIONS
    seed: int = 0
    weights: tuple[float, ...] | None = None  # tabu and its; None: a lattice of weight vectors (its: equal weights)
    partitions: int = DEFAULT_PARTITIONS  # tabu only
    tenure: int | None = None  # tabu and its; None: the problem size n (its: n / 2)
    threads: int | None = None  # cpu backend only; None: all cores
    archive: str | None = None  # pls: where neighbors are filtered, cpu or gpu; None: gpu on the gpu backend
    strength: int | None = None  # its only: random swaps per perturbation; None: max(2, n // 5)
    run_length: int | None = None  # its only: iterations per tabu run; None: 10 n

    def __post_init__(self):
        if self.neighborhood is None:
            object.__setattr__(self, "neighborhood", problem_entry(self.problem).neighborhood)
        if self.algorithm not in ALGORITHMS:
            raise MolsError(f"--algorithm: unknown algorithm {self.algorithm!r}; choose one of {', '.join(ALGORITHMS)}")
        if self.seed < 0:
            raise MolsError(f"--seed must be a non-negative integer, got {self.seed}")
        misplaced = [f"{option} (only -a {' or -a '.join(algorithms)})"
                     for option, (field, default, algorithms) in ALGORITHM_OPTIONS.items()
                     if getattr(self, field) != default and self.algorithm not in algorithms]
        if misplaced:
            raise MolsError(f"-a {self.algorithm} does not take {', '.join(misplaced)}")
        if self.algorithm == "pls" and self.archive is None:
            gpu = self.backend == "gpu" or self.backend == "auto" and gpu_available()
            object.__setattr__(self, "archive", "gpu" if gpu else "cpu")

    @property
    def label(self) -> str:
        """e.g. pls-nondominated or tabu."""
        return f"pls-{self.variant}" if self.algorithm == "pls" else self.algorithm


def build_search(config: RunConfig, on_iteration: OnIteration | None = None) -> Search:
    """Load the instance, prepare the evaluator and make the search (nothing runs yet)."""
    problem = load_problem(config.problem, config.instance)
    nbh = get_neighborhood(config.neighborhood)
    evaluator = prepare(problem, nbh, config.backend, threads=config.threads)
    common = (problem, nbh, evaluator, config.iterations, np.random.default_rng(config.seed), on_iteration)
    if config.algorithm == "pls":
        return ParetoLocalSearch(*common, variant=config.variant, archive=config.archive)
    if config.algorithm == "its":
        return IteratedTabu(*common, weights=config.weights, tenure=config.tenure, strength=config.strength,
                            run_length=config.run_length)
    return AggregatedTabu(*common, weights=config.weights, partitions=config.partitions, tenure=config.tenure)


def solve(config: RunConfig, on_iteration: OnIteration | None = None, stop: StopSignals | None = None) -> SearchResult:
    """Run one search. Bad input raises MolsError before it starts; once it runs, an interruption
    or a failure still returns the archive found so far (see SearchResult.status). Without `stop`,
    SIGINT (Ctrl-C), SIGTERM and SIGHUP stop the search at its next iteration while it runs (called
    from the main thread), and the result says which signal did."""
    search = build_search(config, on_iteration)
    if stop is not None:
        return search.run(stop)
    with StopSignals(phase="search") as own:
        return search.run(own)


__all__ = ["ALGORITHMS", "ARCHIVES", "DEFAULT_ITERATIONS", "VARIANTS", "RunConfig", "SearchResult", "build_search", "solve"]
