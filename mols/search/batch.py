"""A batch of tabu searches (aggregated tabu search or ITS) that differ only by their seeds, run together: their
runs walk side by side, one launch per kernel for all of them, on one GPU evaluator with lanes
(search/tabu.py's walk_together; Evaluator.lane_walk). Where the evaluator has no lanes (the CPU, problems
without lane kernels) the runs walk one after another, with the same results.

Each search draws from its own RNG and keeps its own archive, so each gives exactly what it gives run alone
(tests/search/test_batch_search.py): its runs are made in the order it makes them alone (search/tabu.py's
_rounds), and each run's archive is merged into the search's in that order. The searches share one profiler:
each result's wall time and profile are the batch's. A stop (mols.signals) ends every search at the next
batch of steps, each with its archive so far.
"""

from __future__ import annotations

import traceback

import numpy as np

from mols.backends.base import WalkLane
from mols.errors import MolsError
from mols.search.base import SearchResult, Stopped
from mols.search.profiler import Profiler
from mols.search.tabu import AggregatedTabu, walk_together


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
        self._warm_lanes()
        profiler = Profiler()
        for search in self.searches:
            search.stop, search.profiler = stop, profiler
        status, error = "completed", None
        try:
            self._rounds()
        except (KeyboardInterrupt, Stopped):
            status = "interrupted"
        except MolsError as err:
            status, error = "failed", str(err)
        except Exception:  # noqa: BLE001 - a bug or a device fault: keep the archives, report the traceback
            status, error = "failed", traceback.format_exc()
        finally:
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

    def _warm_lanes(self) -> None:
        """The lane walker of the first round compiled and its graph captured, before the clock starts."""
        lead = self.searches[0]
        lanes = len(self.searches) * len(lead.weights)  # ITS: one vector
        walker = lead.evaluator.lane_walk(lanes)
        if walker is not None:
            x = lead.problem.encoding.initial()
            walk = WalkLane(x, lead.weights[0], -np.inf, lead.budget, lead.draw_keys(lead.budget, advance=False))
            next(walker.lanes([walk] * lanes, lead.tenure))
