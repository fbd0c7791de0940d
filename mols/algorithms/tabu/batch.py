"""A batch of tabu searches (aggregated tabu search or ITS) that differ only by their seeds, run together: their runs
walk side by side, one launch per kernel for all, on a GPU evaluator with lanes (else one after another), and each
search gives exactly what it gives alone (docs/internals.md)."""

from __future__ import annotations

from collections.abc import Iterator

from mols.algorithms.tabu.search import AggregatedTabu
from mols.algorithms.tabu.together import walk_together
from mols.errors import MolsError
from mols.search.base import SearchResult
from mols.search.loop import Runner
from mols.search.monitor import Monitor
from mols.search.profiler import Profiler
from mols.search.trace import Trace, reference_point


def made(rounds: Iterator) -> list | None:
    """The next list of runs of a search's rounds (AggregatedTabu.rounds), or None once it has made its last; the
    steps counted while making them are not yielded (a thousand searches' runs would be as many runner steps)."""
    return next((runs for runs in rounds if runs is not None), None)


class SearchBatch:
    """The searches as one for the runner (search/loop.py): a step is a batch of steps of all of them; the lead's
    budgets are everyone's (the searches differ only by their seeds), and each search's monitors, and its trace, hear
    of every step (ForSearch)."""

    natural_end = False
    resumable = True  # each search's snapshot holds its runs (AggregatedTabu.snapshot)
    traces_searches = True  # the runner gives the batch no trace (search/trace.py): each search has its own

    def __init__(self, searches: list[AggregatedTabu]):
        if any(not isinstance(s, AggregatedTabu) for s in searches):
            raise MolsError("a batch in one launch runs tabu searches (-a tabu or -a its)")
        if any(s.target is not None for s in searches):
            raise MolsError("a batch in one launch has no target: each search would stop the others")
        self.searches = searches
        self.budgets = searches[0].budgets
        reference = reference_point(searches[0].problem)  # one instance: one point for all
        for search in searches:
            search.trace = Trace(search, reference)
        self.monitors = [ForSearch(b, search, monitor) for b, search in enumerate(searches)
                         for monitor in [*search.monitors, search.trace]]

    def run(self, stop=None) -> list[SearchResult]:
        """Every search to its budget (or until a stop); their results, in order."""
        return Runner(self, stop=stop).run()

    @property
    def iterations(self) -> int:
        return self.searches[0].iterations

    @property
    def profiler(self) -> Profiler:
        return self.searches[0].profiler

    @profiler.setter
    def profiler(self, profiler: Profiler) -> None:
        for search in self.searches:
            search.profiler = profiler

    def warm_up(self) -> None:
        lead = self.searches[0]
        for search in self.searches if lead.nbh.sampled else [lead]:  # a warm-up takes draws: each its own
            search.warm_up()
        lead.warm_lanes(len(self.searches) * len(lead.weights))  # the first round's lanes (ITS: one vector each)

    def steps(self) -> Iterator[None]:
        """Each search's next list of runs, all walked together, until every search has made its last: a step is a
        batch of steps of all of them (the evaluations that make the runs' coefficients are counted, not steps)."""
        pending = [(search, search.rounds()) for search in self.searches]
        try:
            while True:
                walking = []
                for search, rounds in pending:
                    runs = made(rounds)
                    if runs is not None:
                        walking.append((search, rounds, runs))
                pending = [(search, rounds) for search, rounds, _ in walking]
                if not pending:
                    return
                yield from walk_together([(search, run) for search, _, runs in walking for run in runs])
                for search, _ in pending:
                    search.merge()
        finally:
            for search in self.searches:
                search.merge()

    def snapshot(self) -> dict:
        """Every search's snapshot (after a batch of steps of all of them, where each has made its runs)."""
        return {"iterations": self.iterations, "searches": [search.snapshot() for search in self.searches]}

    def restore(self, state: dict) -> None:
        """snapshot()'s state back, each search's to its search: steps() goes on with the runs each had made."""
        if len(state["searches"]) != len(self.searches):
            raise MolsError(f"a checkpoint of a batch of {len(state['searches'])} searches, not {len(self.searches)}")
        for search, part in zip(self.searches, state["searches"]):
            search.restore(part)

    def result(self, status: str, error: str | None = None, ended_by: str | None = None,
               signal: str | None = None) -> list[SearchResult]:
        return [search.result(status, error, ended_by, signal) for search in self.searches]


class ForSearch(Monitor):
    """A monitor of search b of a batch, told of the batch's steps and of its own result."""

    def __init__(self, b: int, search: AggregatedTabu, monitor: Monitor):
        self.b, self.search, self.monitor = b, search, monitor

    def on_step(self, batch: SearchBatch) -> None:
        self.monitor.on_step(self.search)

    def on_end(self, batch: SearchBatch, results: list[SearchResult]) -> None:
        self.monitor.on_end(self.search, results[self.b])
