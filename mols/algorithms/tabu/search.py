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
from mols.algorithms.tabu.state import restored_round, rounds_state
from mols.algorithms.tabu.steps import TabuRun, Trail, WalkLane
from mols.algorithms.tabu.together import lane_new_bests, walk_together
from mols.algorithms.tabu.tuned import tuning_walk, warm_tuning
from mols.algorithms.tabu.walks import (
    HostWalk,
    device_walk,
    lane_walker,
    neighborhood_bounds,
    new_bests,
    timed,
    walker_of,
)
from mols.algorithms.tabu.weights import check_weights, simplex_lattice
from mols.archive.lanes import LaneArchives
from mols.backends.base import column_bounds
from mols.errors import OptionError
from mols.search.base import Search, SearchResult
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

    resumable = True

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
        self.round = []  # the runs of the round under way made so far (rounds), walked once all are made
        self.side_by_side = None  # the SideBySide its runs walk in, while they do (together.py)
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
        warm_tuning(self.evaluator)
        new_bests(np.zeros(1), 0.0)
        keys = self.draw_keys(self.budget, advance=False)
        walk = device_walk(self.evaluator, x, self.weights[0], -np.inf, self.budget, self.tenure, keys)
        if walk is not None:  # its kernels compiled, and the graph of a whole batch captured
            next(walk)
        self.warm_lanes(len(self.weights))

    def warm_lanes(self, lanes: int, rots: tuple[int, int] | None = None) -> None:
        """The walker of `lanes` walks side by side (with Ro-TS's memory where `rots`, lane_walker's), where the
        evaluator has one, compiled and the graph of a whole batch captured, and what makes their coefficients
        (neighborhood_bounds) and takes their steps (SideBySide.take) compiled (a batch of searches warms its first
        round's)."""
        walker = lane_walker(self.evaluator, lanes, rots)
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
        from a random solution with an even share of the budget. Each run made joins self.round, so a search
        restored from a checkpoint makes the runs that it had not made yet."""
        n_runs = len(self.weights)
        budgets = [self.budget // n_runs + (r < self.budget % n_runs) for r in range(n_runs)]
        for r in range(len(self.round), n_runs):
            yield from self._start_run(self.weights[r], budgets[r], own_archive=n_runs > 1)
        yield self.round

    def _start_run(self, w: np.ndarray, budget: int, start: tuple[np.ndarray, np.ndarray] | None = None,
                   own_archive: bool = False) -> Generator[None, None, TabuRun]:
        """A tabu run from `start` (x, f), or from a random solution, added to self.round (and the generator's
        value: `run = yield from`); with `own_archive`, its solutions go to an archive of its own, merged into the
        search's in the order of the runs (merge). With several objectives, it yields where it counts the
        evaluation that will make the run's coefficients (its draw key pending)."""
        archive = self.archive
        if own_archive:
            archive = self.new_archive()
            self._open.append(archive)
        x, f = self._random_start(archive) if start is None else start
        if self.problem.n_obj == 1:  # the score is the objective: no coefficients to make
            best = weighted_scores(f[None], w)[0]
            keys = self.draw_keys(budget)  # one per step, on the device as on the host
            self.round.append(TabuRun(WalkLane(x, w, best, budget, keys), archive, best, (x, f)))
            return self.round[-1]
        key = self.draw_key()
        keys = self.draw_keys(budget - 1)
        self.round.append(TabuRun(WalkLane(x, w, np.inf, budget - 1, keys), archive, np.inf, (x, f), pending=(key,)))
        self.count_iteration()
        yield
        return self.round[-1]

    def _walk_runs(self, runs: list[TabuRun]) -> Iterator[None]:
        return walk_together([(self, run) for run in runs])

    def walk_alone(self, run: TabuRun) -> Iterator[None]:
        """The run's walk on its own (on the device where it can, else from the host; its first steps through the
        launch tuner while one runs, walk_tuning), its steps taken: a step per batch."""
        yield from self.walk_tuning(run)
        for trail in timed(self.profiler, self._walk(run)):
            self._take(run, trail)
            yield
        run.finished()

    def walk_tuning(self, run: TabuRun) -> Iterator[None]:
        """The run's first steps from the host through the evaluator's launch tuner, while it tunes (tuned.py), taken;
        the run's lane is then the walk left (TabuRun.rest), which the tuned launch walks."""
        walk = tuning_walk(self.evaluator, self.nbh, run.lane, self.tenure_of(run))
        if walk is None:
            return
        self.walk, run.at = "host", walk.position
        for trail in timed(self.profiler, iter(walk)):
            self._take(run, trail)
            yield
        run.lane, run.at = run.rest(), None

    def _walk(self, run: TabuRun) -> Iterator[Trail]:
        """The run's walk, on the device where it can be, else from the host; run.at says where it stands."""
        ev, lane, tenure = self.evaluator, run.lane, self.tenure_of(run)
        walk = device_walk(ev, *lane[:4], tenure, lane.keys, lane.tabu)
        self.walk = "host" if walk is None else "device"
        if walk is not None:
            run.at = lambda: walker_of(ev).position(0)
            return walk
        walk = HostWalk(ev, self.nbh, lane, tenure)
        run.at = walk.position
        return iter(walk)

    def tenure_of(self, run: TabuRun) -> int:
        """The run's tenure: its own, else the search's."""
        return self.tenure if run.tenure is None else run.tenure

    def _take(self, run: TabuRun, trail: Trail) -> None:
        """A batch of the run's steps: its new best, and the solutions visited offered to its archive (with one
        objective, only new bests can enter). With a target, the batch ends at the first step that reaches it."""
        X, scores, F = trail
        hit = None if self.goal is None else first_at_most(F, self.goal)
        if hit is not None:
            X, scores, F = X[:hit + 1], scores[:hit + 1], F[:hit + 1]
        if run.watch is not None:
            run.watch(X)
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
        one after another, offering to the search's archive (archive/host.py keeps the first of equal vectors).
        The round's runs are walked: the next round starts afresh."""
        with self.profiler.section("archiving"):
            for archive in self._open:
                if len(archive):  # a run that found nothing to keep
                    self.archive.add(archive.F, archive.X)
        self._open, self.round = [], []

    def result(self, *args, **kwargs) -> SearchResult:
        """Search.result's, the runs' archives merged first: those of a search restored from the checkpoint of the
        step that spent a budget, which ends before its loop runs."""
        self.merge()
        return super().result(*args, **kwargs)

    def _archives(self) -> list:
        return [self.archive, *self._open]

    def snapshot(self) -> dict:
        """Search.snapshot's, and the round's runs: their archives not merged yet, and where each stands
        (state.py)."""
        if self.side_by_side is not None:  # its runs' archives and bests brought up to date (they walk on)
            self.side_by_side.hand_back()
        return super().snapshot() | {"tabu": rounds_state(self.round, self._open, self.archive)}

    def restore(self, state: dict) -> None:
        super().restore(state)
        self._open = [self.new_archive() for _ in state["tabu"]["open"]]
        self.round = restored_round(state["tabu"], self._open, self.archive)
