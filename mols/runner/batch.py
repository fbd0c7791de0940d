"""Searches of one configuration that differ only by their seeds, made together on one problem, neighborhood and
evaluator: as a batch sharing each kernel launch (algorithms/tabu/batch.py) where they can."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from mols.algorithms.tabu.batch import SearchBatch
from mols.algorithms.tabu.selection import tuned_iteration
from mols.algorithms.tabu.walks import shares_launches
from mols.backends import prepare
from mols.runner.config import RunConfig
from mols.runner.entry import make_search, run_problem
from mols.search.base import OnIteration


def seed_configs(config: RunConfig, seeds: int | Sequence[int]) -> list[RunConfig]:
    """config with each of the seeds: a list, or a count (the seeds config.seed .. config.seed + seeds - 1)."""
    if isinstance(seeds, int):
        seeds = range(config.seed, config.seed + seeds)
    return [dataclasses.replace(config, seed=seed) for seed in seeds]


def build_batch(config: RunConfig, seeds: int | Sequence[int],
                counters: Callable[[int], OnIteration | None] = lambda b: None, problem=None) -> SearchBatch:
    """The searches of config with these seeds (seed_configs), on one problem (default: config's, loaded here),
    neighborhood and evaluator; search b reports its iterations to counters(b)."""
    problem = problem or run_problem(config)
    nbh = problem.neighborhood(config.neighborhood)
    evaluator = prepare(problem, nbh, config.spec, iteration=tuned_iteration)
    return SearchBatch([make_search(one, problem, nbh, evaluator, counters(b))
                        for b, one in enumerate(seed_configs(config, seeds))])


def sharing_batch(config: RunConfig, seeds: int | Sequence[int],
                  counters: Callable[[int], OnIteration | None] = lambda b: None) -> SearchBatch | None:
    """build_batch's searches where they can share each kernel launch, else None: tabu or ITS on the GPU, with
    lane kernels and no target (one search's target would stop the others)."""
    if config.algorithm not in ("tabu", "its") or config.spec.device != "gpu" or config.target is not None:
        return None
    problem = run_problem(config)
    if problem.target is not None:  # a problem's own target (PPP, coloring): each search would stop the others
        return None
    batch = build_batch(config, seeds, counters, problem)
    return batch if shares_launches(batch.searches[0].evaluator) else None
