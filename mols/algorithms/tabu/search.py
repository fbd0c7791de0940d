"""Aggregated tabu search: tabu search on a weighted sum of normalised objectives, once per weight vector, the
vectors' runs walked side by side where the GPU evaluator has lanes; normalisation, tabu memory and the walks:
docs/internals.md."""

from __future__ import annotations

import math
from collections.abc import Generator, Iterator

import numpy as np

from mols.algorithms.tabu.options import DEFAULT_PARTITIONS
from mols.algorithms.tabu.select import MAX_TABU_STEP, weighted_scores
from mols.algorithms.tabu.selection import selection_for
from mols.algorithms.tabu.steps import TabuRun, Trail, WalkLane
from mols.algorithms.tabu.together import lane_new_bests, walk_together
from mols.algorithms.tabu.walks import (
    device_walk,
    host_walk,
    lane_walker,
    neighborhood_bounds,
    new_bests,
    timed,
)
from mols.algorithms.tabu.weights import check_weights, normalising_coefficients, simplex_lattice
from mols.archive.lanes import LaneArchives
from mols.backends.base import column_bounds
from mols.errors import OptionError
from mols.search.base import Search
from mols.search.budget import UNLIMITED, first_at_most


def next_round(rounds: Iterator[list[TabuRun] | None]) -> Generator[None, None, list[TabuRun] | None]:
    """The next list of runs of a search's rounds (AggregatedTabu.rounds), or None once it has made its last (the
    generator's value: `runs = yield from`); it yields at each step counted while making them."""
    for runs in rounds:
        if runs is not None:
            return runs
        yield
    return None


class AggregatedTabu(Search):
    """The budget is shared evenly by the weight vectors; each starts from a new random solution."""

    def __init__(self, *args, weights=None, partitions: int = DEFAULT_PARTITIONS, tenure: int | None = None,
                 **kwargs):
        super().__init__(*args, **kwargs)
        self.weights = self._weight_vectors(weights, partitions)
        if tenure is None:
            tenure = self.problem.defaults(self.nbh).tenure or self.problem.n
        if tenure < 0:
            raise OptionError("tenure", f"must be at least 0, got {tenure}")
        self.tenure = min(tenure, self.budget)  # a longer tenure forbids for the whole run all the same
        self._open = []  # the archives of runs not merged yet (merge)
        if self.budget == UNLIMITED:  # only time (or a target) ends it: as many steps as the tabu memory counts
            if len(self.weights) > 1:
                raise OptionError("algorithm", f"tabu shares its iterations between its {len(self.weights)} weight "
                                  "vectors: give {iterations} or {evaluations} too (or one vector, {weights})",
                                  "iterations", "evaluations", "weights")
            self.budget = MAX_TABU_STEP - 1 - self.tenure
        if self.budget + self.tenure >= MAX_TABU_STEP:
            raise OptionError("iterations", f"{self.budget}: the tabu memory counts steps in 32 bits, so a run takes "
                              f"at most {MAX_TABU_STEP - 1 - self.tenure} iterations with tenure {self.tenure}")

    def _weight_vectors(self, weights, partitions: int) -> np.ndarray:
        """(W, k): the one vector given, or the lattice with `partitions`."""
        k = self.problem.n_obj
        if weights is not None:
            return check_weights(weights, k)[None]
        return simplex_lattice(k, self._check_partitions(partitions, k))

    def _check_partitions(self, partitions: int, k: int) -> int:
        if partitions < 1:
            raise OptionError("partitions", f"must be at least 1, got {partitions}")
        n_vectors = math.comb(partitions + k - 1, k - 1)
        if n_vectors > self.budget:
            raise OptionError("partitions", f"{partitions} gives {n_vectors} weight vectors, more than the "
                              f"{self.budget} iterations of the budget")
        return partitions

    def warm_up(self) -> None:
        super().warm_up()
        x = self.problem.encoding.initial()
        column_bounds(np.zeros((1, self.problem.n_obj), dtype=self.problem.dtype))  # the evaluators' F
        selection_for(self.evaluator)(x, self.weights[0], 0, -np.inf, self.draw_key())
        new_bests(np.zeros(1), 0.0)
        keys = self.draw_keys(self.budget, advance=False)
        walk = device_walk(self.evaluator, x, self.weights[0], -np.inf, self.budget, self.tenure, keys)
        if walk is not None:  # its kernels compiled, and the graph of a whole batch captured
            next(walk)
        self.warm_lanes(len(self.weights))

    def warm_lanes(self, lanes: int) -> None:
        """The walker of `lanes` walks side by side, where the evaluator has one, compiled and the graph of a
        whole batch captured, and what makes their coefficients (neighborhood_bounds) and takes their steps
        (SideBySide.take) compiled (a batch of searches warms its first round's)."""
        walker = lane_walker(self.evaluator, lanes)
        if walker is not None:
            x = self.problem.encoding.initial()
            keys = self.draw_keys(self.budget, advance=False)
            neighborhood_bounds(self.evaluator, [x] * lanes, [None if keys is None else keys[0]] * lanes)
            lane = WalkLane(x, self.weights[0], -np.inf, self.budget, keys)
            batch = next(walker.batches([lane] * lanes, self.tenure))
            new, _ = lane_new_bests(batch.scores[:1], batch.taken[:1], np.zeros(1))
            LaneArchives([self.new_archive()]).offer(batch.F[:1], batch.X[:1], new)

    def steps(self) -> Iterator[None]:
        rounds = self.rounds()
        try:
            while (runs := (yield from next_round(rounds))) is not None:
                yield from self._walk_runs(runs)
                self.merge()
        finally:
            self.merge()

    def rounds(self) -> Iterator[list[TabuRun] | None]:
        """The search's tabu runs, a list at a time, each list made once the one before has been walked (None
        between them: a step counted while making them, next_round); here one list, a run per weight vector, each
        from a random solution with an even share of the budget."""
        n_runs = len(self.weights)
        budgets = [self.budget // n_runs + (r < self.budget % n_runs) for r in range(n_runs)]
        runs = []
        for w, budget in zip(self.weights, budgets):
            runs.append((yield from self._start_run(w, budget, own_archive=n_runs > 1)))
        yield runs

    def _start_run(self, w: np.ndarray, budget: int, start: tuple[np.ndarray, np.ndarray] | None = None,
                   own_archive: bool = False) -> Generator[None, None, TabuRun]:
        """A tabu run from `start` (x, f), or from a random solution (the generator's value: `run = yield from`);
        with `own_archive`, its solutions go to an archive of its own, merged into the search's in the order of the
        runs (merge). It yields where it counts the evaluation that makes the run's coefficients."""
        archive = self.archive
        if own_archive:
            archive = self.new_archive()
            self._open.append(archive)
        x, f = self._random_start(archive) if start is None else start
        if self.problem.n_obj == 1:  # the score is the objective: no coefficients to make
            best = weighted_scores(f[None], w)[0]
            keys = self.draw_keys(budget)  # one per step, on the device as on the host
            return TabuRun(WalkLane(x, w, best, budget, keys), archive, best, (x, f))
        key = yield from self._counted_key()
        keys = self.draw_keys(budget - 1)
        return TabuRun(WalkLane(x, w, np.inf, budget - 1, keys), archive, np.inf, (x, f), pending=(key,))

    def _walk_runs(self, runs: list[TabuRun]) -> Iterator[None]:
        return walk_together([(self, run) for run in runs])

    def walk_alone(self, run: TabuRun) -> Iterator[None]:
        """The run's walk on its own (on the device where it can, else from the host), its steps taken: a step
        per batch."""
        for trail in timed(self.profiler, self._walk(run.lane)):
            self._take(run, trail)
            yield

    def _walk(self, lane: WalkLane) -> Iterator[Trail]:
        walk = device_walk(self.evaluator, *lane[:4], self.tenure, lane.keys)
        self.walk = "host" if walk is None else "device"
        return walk or host_walk(self.evaluator, self.nbh, *lane[:4], self.tenure, lane.keys)

    def _take(self, run: TabuRun, trail: Trail) -> None:
        """A batch of the run's steps: its new best, and the solutions visited offered to its archive (with one
        objective, only new bests can enter). With a target, the batch ends at the first step that reaches it."""
        X, scores, F = trail
        hit = None if self.goal is None else first_at_most(F, self.goal)
        if hit is not None:
            X, scores, F = X[:hit + 1], scores[:hit + 1], F[:hit + 1]
        new, last = new_bests(scores, run.best)
        if last >= 0:
            run.best, run.best_xf = float(scores[last]), (X[last].copy(), F[last].copy())
        if last >= 0 or self.problem.n_obj > 1:
            offered = new if self.problem.n_obj == 1 else slice(None)
            with self.profiler.section("archiving"):
                run.archive.add(F[offered], X[offered])
        self.count_iteration(steps=len(scores))


    def merge(self) -> None:
        """The runs' own archives into the search's, in the runs' order: the archive the runs would have given
        one after another, offering to the search's archive (archive/host.py keeps the first of equal vectors)."""
        with self.profiler.section("archiving"):
            for archive in self._open:
                self.archive.add(archive.F, archive.X)
        self._open = []

    def _archives(self) -> list:
        return [self.archive, *self._open]

    def _coefficients(self, w: np.ndarray, x: np.ndarray, f: np.ndarray
                      ) -> Generator[None, None, tuple[np.ndarray, int]]:
        """The score's coefficients (docs/internals.md), and the neighborhood evaluations they cost (the generator's
        value: `c, cost = yield from`; it yields where it counts them)."""
        if self.problem.n_obj == 1:
            return w, 0
        key = yield from self._counted_key()
        with self.profiler.section("evaluation"):
            lo, hi = self.evaluator.neighborhood_bounds([x], [key])
        return normalising_coefficients(w, lo[0], hi[0], f), 1

    def _counted_key(self) -> Generator[None, None, np.ndarray | None]:
        """The draw key of the neighborhood evaluation that makes a run's coefficients (the generator's value),
        counted as an iteration: a step."""
        key = self.draw_key()
        self.count_iteration()
        yield
        return key
