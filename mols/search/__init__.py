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
from mols.search.its import IteratedTabu
from mols.search.pls import ARCHIVES, VARIANTS, ParetoLocalSearch
from mols.search.tabu import DEFAULT_PARTITIONS, AggregatedTabu

ALGORITHMS = ("pls", "tabu", "its")
DEFAULT_ITERATIONS = 10_000  # neighborhood evaluations, as in the flowshop paper


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
    weights: tuple[float, ...] | None = None  # tabu only; None: a lattice of weight vectors
    partitions: int = DEFAULT_PARTITIONS  # tabu only
    tenure: int | None = None  # tabu only; None: the problem size n
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
        tabu_only = {"--weights": self.weights is not None, "--partitions": self.partitions != DEFAULT_PARTITIONS,
                     "--tenure": self.tenure is not None}
        if self.algorithm == "pls" and any(tabu_only.values()):
            raise MolsError(f"{', '.join(k for k, v in tabu_only.items() if v)}: only for -a tabu")
        its_only = {"--strength": self.strength is not None, "--run-length": self.run_length is not None}
        if self.algorithm != "its" and any(its_only.values()):
            raise MolsError(f"{', '.join(k for k, v in its_only.items() if v)}: only for -a its")
        if self.algorithm == "its" and tabu_only["--partitions"]:
            raise MolsError("--partitions: only for -a tabu (iterated tabu search uses one weight vector)")
        if self.algorithm != "pls" and self.variant != "nondominated":
            raise MolsError("--variant: only for -a pls")
        if self.algorithm != "pls" and self.archive == "gpu":
            raise MolsError("--archive gpu: only for -a pls (tabu search archives on the host)")
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


def solve(config: RunConfig, on_iteration: OnIteration | None = None) -> SearchResult:
    """Run one search. Bad input raises MolsError before it starts; once it runs, an interruption
    or a failure still returns the archive found so far (see SearchResult.status)."""
    return build_search(config, on_iteration).run()


__all__ = ["ALGORITHMS", "ARCHIVES", "DEFAULT_ITERATIONS", "VARIANTS", "RunConfig", "SearchResult", "build_search", "solve"]
