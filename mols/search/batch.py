"""A batch of tabu searches (aggregated tabu search or ITS) that differ only by their seeds, run together: their
runs walk side by side, one launch per kernel for all of them, on one GPU evaluator with lanes
(search/tabu.py's walk_together; Evaluator.lane_walk). Where the evaluator has no lanes (the CPU, problems
without lane kernels) the runs walk one after another, with the same results.

Each search draws from its own RNG and keeps its own archive, so each gives exactly what it gives run alone
(tests/search/test_batch_search.py): its runs are made in the order it makes them alone (search/tabu.py's
_rounds), and each run's archive is merged into the search's in that order. The searches share one profiler:
each result's wall time and profile are the batch's. A stop (mols.signals) ends every search at the next
batch of steps, each with its archive so far; so does a time budget (the searches share its clock). Each
search keeps its own cap on iterations (iterations, evaluations: search/budget.py).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from mols.backends import prepare
from mols.errors import MolsError
from mols.search import RunConfig, make_search, run_problem
from mols.search.base import OnIteration, SearchResult, ended
from mols.search.profiler import Profiler
from mols.search.tabu import AggregatedTabu, walk_together


def seed_configs(config: RunConfig, size: int) -> list[RunConfig]:
    """config with the seeds config.seed .. config.seed + size - 1."""
    return [dataclasses.replace(config, seed=config.seed + b) for b in range(size)]


def build_batch(config: RunConfig, size: int,
                counters: Callable[[int], OnIteration | None] = lambda b: None) -> SearchBatch:
    """The searches of config with the seeds config.seed .. + size - 1, on one problem, neighborhood and
    evaluator; search b reports its iterations to counters(b)."""
    problem = run_problem(config)
    nbh = problem.neighborhood(config.neighborhood)
    evaluator = prepare(problem, nbh, config.spec)
    return SearchBatch([make_search(one, problem, nbh, evaluator, counters(b))
                        for b, one in enumerate(seed_configs(config, size))])


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
        status, error = ended(self._rounds)
        for search in self.searches:
            search._merge()
        profiler.stop()
        return [search.result(status, error) for search in self.searches]

    def _rounds(self) -> None:
        """Each search's next list of runs, all walked together, until every search has made its last."""
        pending = [(search, search._rounds()) for search in self.searches]
        while True:
            walking = [(search, rounds, next(rounds, None)) for search, rounds in pending]
            pending = [(search, rounds) for search, rounds, runs in walking if runs is not None]
            if not pending:
                return
            walk_together([(search, run) for search, _, runs in walking if runs is not None for run in runs])
            for search, _ in pending:
                search._merge()

