"""A batch of tabu searches (aggregated tabu search or ITS) that differ only by their seeds, run together: their runs
walk side by side, one launch per kernel for all, on a GPU evaluator with lanes (else one after another), and each
search gives exactly what it gives alone (docs/internals.md)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from mols.algorithms.tabu.search import AggregatedTabu
from mols.algorithms.tabu.selection import tuned_iteration
from mols.algorithms.tabu.together import walk_together
from mols.algorithms.tabu.walks import shares_launches
from mols.backends import prepare
from mols.errors import MolsError
from mols.runner import RunConfig, make_search, run_problem
from mols.search.base import OnIteration, SearchResult, ended
from mols.search.profiler import Profiler


def seed_configs(config: RunConfig, seeds: int | Sequence[int]) -> list[RunConfig]:
    """config with each of the seeds: a list, or a count (the seeds config.seed .. config.seed + seeds - 1)."""
    if isinstance(seeds, int):
        seeds = range(config.seed, config.seed + seeds)
    return [dataclasses.replace(config, seed=seed) for seed in seeds]


def build_batch(config: RunConfig, seeds: int | Sequence[int],
                counters: Callable[[int], OnIteration | None] = lambda b: None) -> SearchBatch:
    """The searches of config with these seeds (seed_configs), on one problem, neighborhood and evaluator;
    search b reports its iterations to counters(b)."""
    problem = run_problem(config)
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
    batch = build_batch(config, seeds, counters)
    lead = batch.searches[0]
    if lead.problem.target is not None or not shares_launches(lead.evaluator):
        return None
    return batch


class SearchBatch:
    def __init__(self, searches: list[AggregatedTabu]):
        if any(not isinstance(s, AggregatedTabu) for s in searches):
            raise MolsError("a batch in one launch runs tabu searches (-a tabu or -a its)")
        if any(s.target is not None for s in searches):
            raise MolsError("a batch in one launch has no target: each search would stop the others")
        self.searches = searches

    def run(self, stop=None) -> list[SearchResult]:
        """Every search to its budget (or until a stop); their results, in order."""
        lead = self.searches[0]
        for search in self.searches if lead.nbh.sampled else [lead]:  # a warm-up takes draws: each its own
            search.warm_up()
        lead.warm_lanes(len(self.searches) * len(lead.weights))  # the first round's lanes (ITS: one vector each)
        profiler = Profiler()
        for search in self.searches:
            search.stop, search.profiler = stop, profiler
        status, error = ended(self._walk_rounds)
        for search in self.searches:
            search.merge()
        profiler.stop()
        return [search.result(status, error) for search in self.searches]

    def _walk_rounds(self) -> None:
        """Each search's next list of runs, all walked together, until every search has made its last."""
        pending = [(search, search.rounds()) for search in self.searches]
        while True:
            walking = [(search, rounds, next(rounds, None)) for search, rounds in pending]
            pending = [(search, rounds) for search, rounds, runs in walking if runs is not None]
            if not pending:
                return
            walk_together([(search, run) for search, _, runs in walking if runs is not None for run in runs])
            for search, _ in pending:
                search.merge()

